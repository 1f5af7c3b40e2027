/* Who may reach and call the gRPC server (src/server/grpc_security.c):
 * which addresses count as this host only, the settings refused before
 * anything is read or bound (each message naming its setting), the token
 * check on a call's metadata, the PEM checks. TLS handshakes, the unix
 * socket's mode and czkd's flags run end to end in tls_check.sh. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/server/grpc_security.h"
#include "czk/grpc_server.h"
#include "test.h"

static void test_local_addresses(void) {
    static const struct {
        const char *addr;
        bool local;
    } cases[] = {
        {"unix:///run/czk/czkd.sock", true}, {"unix:rel.sock", true},     {"127.0.0.1:9820", true},
        {"127.0.0.2:1", true},               {"127.255.255.254:0", true}, {"localhost:9820", true},
        {"LocalHost:1", true},               {"[::1]:9820", true},        {"[::ffff:127.0.0.1]:1", true},
        {"0.0.0.0:9820", false},             {"[::]:9820", false},        {"10.0.0.1:9820", false},
        {"128.0.0.1:1", false},              {"192.168.1.2:1", false},    {"czk.example:9820", false},
        {"localhost.example:1", false},      {"[::2]:1", false},          {"[::ffff:10.0.0.1]:1", false},
        {"127.0.0.1", false},                {":9820", false},            {"[::1:9820", false},
        {"dns:///127.0.0.1:1", false},       {"", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_MSG(czk_grpc_addr_is_local(cases[i].addr) == cases[i].local, "%s: want %s", cases[i].addr,
                  cases[i].local ? "local" : "not local");
    CHECK(!czk_grpc_addr_is_local(NULL));
}

static void test_settings(void) {
    char msg[1024];
    czk_grpc_server_options o;
    memset(&o, 0, sizeof o);
    /* the defaults: plaintext, fine on loopback and a socket, refused elsewhere */
    CHECK(czk_grpc_security_check("127.0.0.1:0", NULL, msg, sizeof msg) == CZK_OK);
    CHECK(czk_grpc_security_check("unix:///tmp/x.sock", &o, msg, sizeof msg) == CZK_OK);
    CHECK(czk_grpc_security_check("0.0.0.0:9820", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "0.0.0.0:9820 is not loopback and TLS is not configured") && strstr(msg, "--insecure-listen") &&
          strstr(msg, "daemon.tls_cert"));
    o.insecure_listen = true;
    CHECK(czk_grpc_security_check("0.0.0.0:9820", &o, msg, sizeof msg) == CZK_OK);
    o.insecure_listen = false;
    /* settings that go together */
    o.tls_cert_file = "/nonexistent/server.pem";
    CHECK(czk_grpc_security_check("127.0.0.1:0", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "daemon.tls_cert (--tls-cert) is set, daemon.tls_key (--tls-key) is not"));
    o.tls_cert_file = NULL;
    o.tls_key_file = "/nonexistent/server.key";
    CHECK(czk_grpc_security_check("127.0.0.1:0", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "daemon.tls_key (--tls-key) is set"));
    o.tls_key_file = NULL;
    o.tls_client_ca_file = "/nonexistent/ca.pem";
    CHECK(czk_grpc_security_check("127.0.0.1:0", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "daemon.tls_client_ca (--tls-client-ca)") && strstr(msg, "need TLS"));
    o.tls_client_ca_file = NULL;
    /* a TLS setting counts only once its files are read */
    o.tls_cert_file = "/nonexistent/server.pem";
    o.tls_key_file = "/nonexistent/server.key";
    CHECK(czk_grpc_security_check("0.0.0.0:1", &o, msg, sizeof msg) == CZK_ERR_IO &&
          strstr(msg, "TLS certificate (daemon.tls_cert, --tls-cert) /nonexistent/server.pem: No such file"));
    o.tls_cert_file = o.tls_key_file = NULL;
    /* the token and the socket */
    o.token = "two words";
    CHECK(czk_grpc_security_check("127.0.0.1:0", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "gRPC token: it must be 1 to 256 printable"));
    o.token = NULL;
    o.socket_mode = 01777;
    CHECK(czk_grpc_security_check("unix:///tmp/x.sock", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "socket mode 1777 (daemon.socket_mode"));
    o.socket_mode = 0;
    o.socket_group = "czk-no-such-group-here";
    CHECK(czk_grpc_security_check("unix:///tmp/x.sock", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "socket group 'czk-no-such-group-here' (daemon.socket_group, --socket-group): no such group"));
    o.socket_group = "0";
    CHECK(czk_grpc_security_check("unix:///tmp/x.sock", &o, msg, sizeof msg) == CZK_OK);
}

/* A metadata array of n (key, value) pairs (static slices). */
static void md_set(grpc_metadata_array *md, grpc_metadata *m, size_t n, const char *const *kv) {
    memset(md, 0, sizeof *md);
    for (size_t i = 0; i < n; i++) {
        memset(&m[i], 0, sizeof m[i]);
        m[i].key = grpc_slice_from_static_string(kv[2 * i]);
        m[i].value = grpc_slice_from_static_string(kv[2 * i + 1]);
    }
    md->metadata = m;
    md->count = md->capacity = n;
}

static void test_token(void) {
    char msg[1024];
    grpc_metadata m[3];
    grpc_metadata_array md;
    czk_grpc_security *s = NULL;
    czk_grpc_server_options o;
    memset(&o, 0, sizeof o);
    /* no token: every call goes on */
    CHECK(czk_grpc_security_new(&s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_OK && s);
    md_set(&md, m, 0, NULL);
    CHECK(czk_grpc_security_authorize(s, &md, msg, sizeof msg) == GRPC_STATUS_OK);
    CHECK(czk_grpc_security_authorize(NULL, &md, msg, sizeof msg) == GRPC_STATUS_OK);
    czk_grpc_security_free(s);

    o.token = "s3cret-Token_1";
    CHECK(czk_grpc_security_new(&s, "unix:///tmp/t.sock", &o, msg, sizeof msg) == CZK_OK && s);
    static const struct {
        size_t n;
        const char *kv[6];
        grpc_status_code want;
        const char *why;
    } cases[] = {
        {0, {NULL}, GRPC_STATUS_UNAUTHENTICATED, "this czkd needs a token"},
        {1, {"x-other", "Bearer s3cret-Token_1"}, GRPC_STATUS_UNAUTHENTICATED, "needs a token"},
        {1, {"authorization", "Bearer s3cret-Token_1"}, GRPC_STATUS_OK, ""},
        {1, {"authorization", "bearer s3cret-Token_1"}, GRPC_STATUS_OK, ""},
        {1, {"authorization", "Bearer   s3cret-Token_1"}, GRPC_STATUS_OK, ""},
        {1, {"Authorization", "Bearer s3cret-Token_1"}, GRPC_STATUS_OK, ""},
        {1, {"authorization", "Bearer s3cret-Token_"}, GRPC_STATUS_UNAUTHENTICATED, "is not this czkd's token"},
        {1, {"authorization", "Bearer s3cret-Token_12"}, GRPC_STATUS_UNAUTHENTICATED, "is not this czkd's token"},
        {1, {"authorization", "Bearer S3cret-Token_1"}, GRPC_STATUS_UNAUTHENTICATED, "is not this czkd's token"},
        {1, {"authorization", "Bearer "}, GRPC_STATUS_UNAUTHENTICATED, "is not this czkd's token"},
        {1, {"authorization", "s3cret-Token_1"}, GRPC_STATUS_UNAUTHENTICATED, "is not 'Bearer <token>'"},
        {1, {"authorization", "Basic s3cret-Token_1"}, GRPC_STATUS_UNAUTHENTICATED, "is not 'Bearer <token>'"},
        {2, {"authorization", "Bearer wrong", "authorization", "Bearer s3cret-Token_1"}, GRPC_STATUS_OK, ""},
        {3, {"a", "b", "authorization", "Bearer nope", "c", "d"}, GRPC_STATUS_UNAUTHENTICATED, "not this czkd's"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        md_set(&md, m, cases[i].n, cases[i].kv);
        msg[0] = 0;
        grpc_status_code st = czk_grpc_security_authorize(s, &md, msg, sizeof msg);
        CHECK_MSG(st == cases[i].want && strstr(msg, cases[i].why), "case %zu: status %d, '%s' (want %d, '%s')", i,
                  (int)st, msg, (int)cases[i].want, cases[i].why);
        CHECK_MSG(!strstr(msg, "s3cret"), "case %zu: the message shows the token: %s", i, msg);
    }
    czk_grpc_security_free(s);
}

static void test_pem(void) {
    char msg[1024], path[] = "/tmp/czk-pem-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return;
    static const char junk[] = "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n";
    CHECK(write(fd, junk, sizeof junk - 1) == (ssize_t)(sizeof junk - 1));
    close(fd);
    char *pem = NULL;
    CHECK(czk_grpc_pem_load(path, 'c', "--tls-ca", &pem, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && !pem &&
          strstr(msg, "--tls-ca") && strstr(msg, "no PEM certificate in it"));
    CHECK(czk_grpc_pem_load(path, 'k', "--tls-key", &pem, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "no PEM private key in it"));
    unlink(path);
    CHECK(czk_grpc_pem_load(path, 'c', "--tls-ca", &pem, msg, sizeof msg) == CZK_ERR_IO && strstr(msg, path));
    CHECK(!czk_grpc_pem_key_matches(junk, junk));
}

int main(void) {
    test_local_addresses();
    test_settings();
    test_token();
    test_pem();
    return test_finish("grpc_security");
}
