/* czk — who may reach and call the gRPC server (grpc_security.h): TLS
 * credentials on gRPC core, the bearer token, the loopback rule, the unix
 * socket's mode and group. */
#define _GNU_SOURCE
#include "grpc_security.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <grp.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "czk/log.h"

#define PEM_MAX ((size_t)1 << 20)
#define TOKEN_MAX 256 /* as the status server's (http.c) */
#define DEFAULT_SOCKET_MODE 0660

struct czk_grpc_security {
    char *cert_pem, *key_pem, *ca_pem; /* NULL: plaintext / no client certificates */
    bool has_token;
    unsigned char token_hash[SHA256_DIGEST_LENGTH];
    unsigned socket_mode;
    gid_t socket_gid;
    bool set_gid;
};

static void set_msg(char *msg, size_t msglen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_msg(char *msg, size_t msglen, const char *fmt, ...) {
    if (!msg || !msglen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
}

static bool given(const char *s) {
    return s && *s;
}

/* ---- addresses ------------------------------------------------------------------- */

bool czk_grpc_addr_is_local(const char *addr) {
    if (!addr) return false;
    if (!strncmp(addr, "unix:", 5)) return true;
    const char *colon = strrchr(addr, ':');
    if (!colon || colon == addr) return false;
    char host[256];
    size_t n = (size_t)(colon - addr);
    if (addr[0] == '[') {
        if (n < 2 || addr[n - 1] != ']') return false;
        addr++;
        n -= 2;
    }
    if (n == 0 || n >= sizeof host) return false;
    memcpy(host, addr, n);
    host[n] = 0;
    if (!strcasecmp(host, "localhost")) return true;
    struct in_addr v4;
    if (inet_pton(AF_INET, host, &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
    struct in6_addr v6;
    if (inet_pton(AF_INET6, host, &v6) == 1) {
        if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
        return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
    }
    return false;
}

/* ---- PEM files --------------------------------------------------------------------- */

static czk_err pem_load(const char *path, char kind, const char *what, bool warn, char **out, char *msg,
                        size_t msglen) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_msg(msg, msglen, "%s %s: %s", what, path, strerror(errno));
        return CZK_ERR_IO;
    }
    char *buf = malloc(PEM_MAX + 1);
    if (!buf) {
        fclose(f);
        set_msg(msg, msglen, "%s %s: out of memory", what, path);
        return CZK_ERR_NO_MEMORY;
    }
    size_t n = fread(buf, 1, PEM_MAX + 1, f);
    bool err = ferror(f) != 0;
    fclose(f);
    if (err || n > PEM_MAX) {
        set_msg(msg, msglen, "%s %s: %s", what, path, err ? "read error" : "larger than 1 MiB");
        free(buf);
        return err ? CZK_ERR_IO : CZK_ERR_INVALID_ARGUMENT;
    }
    buf[n] = 0;
    BIO *b = BIO_new_mem_buf(buf, (int)n);
    bool ok = false;
    if (b && kind == 'k') {
        EVP_PKEY *k = PEM_read_bio_PrivateKey(b, NULL, NULL, (void *)"");
        ok = k != NULL;
        EVP_PKEY_free(k);
    } else if (b) {
        X509 *x = PEM_read_bio_X509(b, NULL, NULL, NULL);
        ok = x != NULL;
        if (x && warn && X509_cmp_current_time(X509_get0_notAfter(x)) < 0)
            czk_log_warn("%s %s: the certificate has expired: TLS handshakes with it fail", what, path);
        X509_free(x);
    }
    BIO_free(b);
    if (!ok) {
        memset(buf, 0, n);
        free(buf);
        set_msg(msg, msglen, "%s %s: no PEM %s in it%s", what, path, kind == 'k' ? "private key" : "certificate",
                kind == 'k' ? " (or it is encrypted: czk takes unencrypted keys)" : "");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    *out = buf;
    return CZK_OK;
}

czk_err czk_grpc_pem_load(const char *path, char kind, const char *what, char **out, char *msg, size_t msglen) {
    return pem_load(path, kind, what, true, out, msg, msglen);
}

bool czk_grpc_pem_key_matches(const char *cert_pem, const char *key_pem) {
    BIO *bc = BIO_new_mem_buf(cert_pem, -1), *bk = BIO_new_mem_buf(key_pem, -1);
    X509 *x = bc ? PEM_read_bio_X509(bc, NULL, NULL, NULL) : NULL;
    EVP_PKEY *k = bk ? PEM_read_bio_PrivateKey(bk, NULL, NULL, (void *)"") : NULL;
    bool ok = x && k && X509_check_private_key(x, k) == 1;
    X509_free(x);
    EVP_PKEY_free(k);
    BIO_free(bc);
    BIO_free(bk);
    return ok;
}

static void pem_free(char *p) {
    if (!p) return;
    memset(p, 0, strlen(p));
    free(p);
}

/* ---- settings ----------------------------------------------------------------------- */

static bool token_ok(const char *t) {
    size_t n = strlen(t);
    if (n == 0 || n > TOKEN_MAX) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)t[i];
        if (ch <= 0x20 || ch >= 0x7f || ch == ';' || ch == ',' || ch == '"' || ch == '\\') return false;
    }
    return true;
}

static czk_err group_of(const char *name, gid_t *gid, char *msg, size_t msglen) {
    char *end;
    errno = 0;
    unsigned long v = strtoul(name, &end, 10);
    if (isdigit((unsigned char)name[0]) && !*end && !errno && v < (unsigned long)UINT32_MAX) {
        *gid = (gid_t)v;
        return CZK_OK;
    }
    struct group gr, *res = NULL;
    char buf[16384];
    int rc = getgrnam_r(name, &gr, buf, sizeof buf, &res);
    if (rc != 0 || !res) {
        set_msg(msg, msglen, "socket group '%s' (daemon.socket_group, --socket-group): %s", name,
                rc ? strerror(rc) : "no such group");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    *gid = res->gr_gid;
    return CZK_OK;
}

static const czk_grpc_server_options *opts_or_defaults(const czk_grpc_server_options *opt,
                                                       czk_grpc_server_options *defaults) {
    if (opt) return opt;
    memset(defaults, 0, sizeof *defaults);
    return defaults;
}

/* The checks that need no file: which settings go together, the token, the
 * mode, the loopback rule. */
static czk_err check_settings(const char *listen, const czk_grpc_server_options *o, char *msg, size_t msglen) {
    bool tls = given(o->tls_cert_file);
    if (tls != given(o->tls_key_file)) {
        set_msg(msg, msglen, "TLS needs both a certificate and its key: %s is set, %s is not",
                tls ? "daemon.tls_cert (--tls-cert)" : "daemon.tls_key (--tls-key)",
                tls ? "daemon.tls_key (--tls-key)" : "daemon.tls_cert (--tls-cert)");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (given(o->tls_client_ca_file) && !tls) {
        set_msg(msg, msglen,
                "daemon.tls_client_ca (--tls-client-ca) asks for client certificates, which need TLS: set "
                "daemon.tls_cert and daemon.tls_key (--tls-cert, --tls-key) too");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (given(o->token) && !token_ok(o->token)) {
        set_msg(msg, msglen,
                "gRPC token: it must be 1 to %d printable ASCII characters without spaces, quotes, '\\', ';' or ','",
                TOKEN_MAX);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (o->socket_mode > 0777) {
        set_msg(msg, msglen, "socket mode %o (daemon.socket_mode, --socket-mode) is not a mode of 0 to 0777",
                o->socket_mode);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (!tls && !o->insecure_listen && !czk_grpc_addr_is_local(listen)) {
        set_msg(msg, msglen,
                "listen address %s is not loopback and TLS is not configured: whoever reaches the port could "
                "submit, cancel and read any job. Set daemon.tls_cert and daemon.tls_key (--tls-cert, --tls-key; "
                "docs/daemon.md, \"Curio on another host\"), or pass --insecure-listen (daemon.insecure_listen = "
                "true) to serve plaintext anyway",
                listen ? listen : "(none)");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    return CZK_OK;
}

void czk_grpc_security_free(czk_grpc_security *s) {
    if (!s) return;
    pem_free(s->cert_pem);
    pem_free(s->key_pem);
    pem_free(s->ca_pem);
    memset(s, 0, sizeof *s);
    free(s);
}

/* Checks o for listen and reads what serving needs into *out; warn: log
 * what deserves it (an expired certificate). */
static czk_err security_load(czk_grpc_security **out, const char *listen, const czk_grpc_server_options *opt,
                             bool warn, char *msg, size_t msglen) {
    *out = NULL;
    czk_grpc_server_options defaults;
    const czk_grpc_server_options *o = opts_or_defaults(opt, &defaults);
    czk_err e = check_settings(listen, o, msg, msglen);
    if (e != CZK_OK) return e;
    czk_grpc_security *s = calloc(1, sizeof *s);
    if (!s) {
        set_msg(msg, msglen, "grpc security: out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    s->socket_mode = o->socket_mode ? o->socket_mode : DEFAULT_SOCKET_MODE;
    if (given(o->socket_group) && (e = group_of(o->socket_group, &s->socket_gid, msg, msglen)) != CZK_OK) goto fail;
    s->set_gid = given(o->socket_group);
    if (given(o->tls_cert_file)) {
        if ((e = pem_load(o->tls_cert_file, 'c', "TLS certificate (daemon.tls_cert, --tls-cert)", warn, &s->cert_pem,
                          msg, msglen)) != CZK_OK ||
            (e = pem_load(o->tls_key_file, 'k', "TLS key (daemon.tls_key, --tls-key)", warn, &s->key_pem, msg,
                          msglen)) != CZK_OK)
            goto fail;
        if (!czk_grpc_pem_key_matches(s->cert_pem, s->key_pem)) {
            set_msg(msg, msglen, "TLS key %s is not the key of the certificate %s (daemon.tls_key, daemon.tls_cert)",
                    o->tls_key_file, o->tls_cert_file);
            e = CZK_ERR_INVALID_ARGUMENT;
            goto fail;
        }
    }
    if (given(o->tls_client_ca_file) &&
        (e = pem_load(o->tls_client_ca_file, 'c', "client CA (daemon.tls_client_ca, --tls-client-ca)", warn,
                      &s->ca_pem, msg, msglen)) != CZK_OK)
        goto fail;
    if (given(o->token)) {
        s->has_token = true;
        SHA256((const unsigned char *)o->token, strlen(o->token), s->token_hash);
    }
    *out = s;
    return CZK_OK;
fail:
    czk_grpc_security_free(s);
    return e;
}

czk_err czk_grpc_security_new(czk_grpc_security **out, const char *listen, const czk_grpc_server_options *opt,
                              char *msg, size_t msglen) {
    czk_err e = security_load(out, listen, opt, true, msg, msglen);
    if (e != CZK_OK) return e;
    const czk_grpc_security *s = *out;
    if (!s->cert_pem && !czk_grpc_addr_is_local(listen))
        czk_log_warn("gRPC on %s without TLS (--insecure-listen): anyone who reaches the port can submit, cancel "
                     "and read jobs%s",
                     listen, s->has_token ? ", and see the token of every call" : "");
    if (s->cert_pem || s->has_token)
        czk_log_info("gRPC on %s: %s%s", listen,
                     !s->cert_pem ? "plaintext" : s->ca_pem ? "TLS, client certificates required" : "TLS",
                     s->has_token ? ", calls need the token" : "");
    return CZK_OK;
}

czk_err czk_grpc_security_check(const char *listen, const czk_grpc_server_options *opt, char *msg, size_t msglen) {
    czk_grpc_security *s = NULL;
    czk_err e = security_load(&s, listen, opt, false, msg, msglen);
    czk_grpc_security_free(s);
    return e;
}

/* ---- serving -------------------------------------------------------------------------- */

grpc_server_credentials *czk_grpc_security_server_creds(const czk_grpc_security *s) {
    if (!s->cert_pem) return grpc_insecure_server_credentials_create();
    grpc_ssl_pem_key_cert_pair pair = {s->key_pem, s->cert_pem};
    grpc_ssl_client_certificate_request_type req = s->ca_pem ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                                                             : GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE;
    return grpc_ssl_server_credentials_create_ex(s->ca_pem, &pair, 1, req, NULL);
}

czk_err czk_grpc_security_socket_apply(const czk_grpc_security *s, const char *path, char *msg, size_t msglen) {
    if (s->set_gid && chown(path, (uid_t)-1, s->socket_gid) != 0) {
        set_msg(msg, msglen, "socket %s: cannot give it group %u (daemon.socket_group, --socket-group): %s", path,
                (unsigned)s->socket_gid, strerror(errno));
        return CZK_ERR_IO;
    }
    if (chmod(path, (mode_t)s->socket_mode) != 0) {
        set_msg(msg, msglen, "socket %s: cannot set its mode to %04o (daemon.socket_mode, --socket-mode): %s", path,
                s->socket_mode, strerror(errno));
        return CZK_ERR_IO;
    }
    return CZK_OK;
}

/* Whether cand (len bytes) is the token: SHA-256 of both compared whole, so
 * that neither the token's bytes nor its length show in the time taken. */
static bool token_matches(const czk_grpc_security *s, const char *cand, size_t len) {
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)cand, len, d);
    unsigned char acc = 0;
    for (size_t i = 0; i < sizeof d; i++) acc |= (unsigned char)(d[i] ^ s->token_hash[i]);
    return acc == 0;
}

grpc_status_code czk_grpc_security_authorize(const czk_grpc_security *s, const grpc_metadata_array *md, char *msg,
                                             size_t msglen) {
    if (!s || !s->has_token) return GRPC_STATUS_OK;
    bool seen = false, bearer = false;
    for (size_t i = 0; i < md->count; i++) {
        const grpc_slice *k = &md->metadata[i].key, *v = &md->metadata[i].value;
        if (GRPC_SLICE_LENGTH(*k) != 13 || strncasecmp((const char *)GRPC_SLICE_START_PTR(*k), "authorization", 13))
            continue;
        seen = true;
        const char *p = (const char *)GRPC_SLICE_START_PTR(*v);
        size_t n = GRPC_SLICE_LENGTH(*v);
        if (n < 7 || strncasecmp(p, "Bearer ", 7)) continue;
        bearer = true;
        p += 7;
        n -= 7;
        while (n && *p == ' ') p++, n--;
        if (token_matches(s, p, n)) return GRPC_STATUS_OK;
    }
    if (!seen)
        set_msg(msg, msglen,
                "this czkd needs a token: send the metadata 'authorization: Bearer <token>' with the token of its "
                "daemon.token_file (czk: --token-file FILE or $CZK_TOKEN_FILE)");
    else if (!bearer)
        set_msg(msg, msglen, "the 'authorization' metadata is not 'Bearer <token>'");
    else
        set_msg(msg, msglen, "the token in the 'authorization' metadata is not this czkd's token");
    return GRPC_STATUS_UNAUTHENTICATED;
}
