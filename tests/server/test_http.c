/* The HTTP status server: GET /status is JSON with the documented sections
 * (parsed with jansson), and follows a job; GET /metrics has the metric
 * names; GET / is a self-contained HTML page carrying a snapshot; other
 * paths 404, other methods 405; address parsing and a port in use.
 * Hostile clients (issue M 5 and 11): 64 slow clients trickling bytes from
 * one address hold at most the per-address limit, are dropped at the request
 * deadline, and the page answers another address meanwhile and everyone
 * after; a Host header that does not name the server is refused (DNS
 * rebinding); a configured token is required (header, cookie, ?token=). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "czk/http.h"
#include "czk/log.h"
#include "czk/service.h"
#include "test.h"

static char root[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

/* One HTTP/1.0 request to 127.0.0.1:port; the status code, the body
 * (malloc'd) and the Content-Type. */
static int http_req(int port, const char *method, const char *path, char **body, char *ctype, size_t ctlen) {
    *body = NULL;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    char req[512];
    int n = snprintf(req, sizeof req, "%s %s HTTP/1.0\r\nHost: localhost:%d\r\nContent-Length: 0\r\n\r\n", method,
                     path, port);
    if (write(fd, req, (size_t)n) != n) {
        close(fd);
        return -1;
    }
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r <= 0) break;
        len += (size_t)r;
    }
    close(fd);
    buf[len] = 0;
    int code = -1;
    sscanf(buf, "HTTP/1.%*d %d", &code);
    ctype[0] = 0;
    const char *ct = strcasestr(buf, "\r\nContent-Type: ");
    if (ct) {
        ct += 16;
        size_t k = strcspn(ct, "\r\n");
        snprintf(ctype, ctlen, "%.*s", (int)k, ct);
    }
    const char *sep = strstr(buf, "\r\n\r\n");
    *body = strdup(sep ? sep + 4 : "");
    free(buf);
    return code;
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A connection to 127.0.0.1:port from the address src (NULL: any). */
static int connect_from(int port, const char *src) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    if (src) {
        struct sockaddr_in b = {0};
        b.sin_family = AF_INET;
        inet_pton(AF_INET, src, &b.sin_addr);
        if (bind(fd, (struct sockaddr *)&b, sizeof b) != 0) {
            close(fd);
            return -1;
        }
    }
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Sends req whole from src, reads until the server closes (5 s at most);
 * the response (malloc'd, "" when closed unanswered) or NULL. */
static char *http_raw(int port, const char *src, const char *req) {
    int fd = connect_from(port, src);
    if (fd < 0) return NULL;
    size_t rl = strlen(req);
    if (send(fd, req, rl, MSG_NOSIGNAL) != (ssize_t)rl) {
        close(fd);
        return strdup("");
    }
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap + 1);
    long long end = now_ms() + 5000;
    for (;;) {
        struct pollfd pf = {.fd = fd, .events = POLLIN, .revents = 0};
        long long left = end - now_ms();
        if (left <= 0 || poll(&pf, 1, (int)left) <= 0) break;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r <= 0) break;
        len += (size_t)r;
    }
    close(fd);
    buf[len] = 0;
    return buf;
}

static int code_of(const char *resp) {
    int code = -1;
    if (resp) sscanf(resp, "HTTP/1.%*d %d", &code);
    return code;
}

/* GET path with these header lines ("" for none), HTTP/1.1 with Connection: close. */
static int get_with(int port, const char *path, const char *headers, char **resp) {
    char req[2048];
    snprintf(req, sizeof req, "GET %s HTTP/1.1\r\n%sConnection: close\r\n\r\n", path, headers);
    char *r = http_raw(port, NULL, req);
    int code = code_of(r);
    if (resp) *resp = r;
    else free(r);
    return code;
}

static int get_host(int port, const char *host) {
    char hdr[512];
    snprintf(hdr, sizeof hdr, "Host: %s\r\n", host);
    return get_with(port, "/status", hdr, NULL);
}

/* Issue M 5: 64 clients from one address each send a request line and then a
 * byte every 250 ms (never finishing the header). The server keeps at most 8
 * of them (the per-address limit) and closes the others at once; while those
 * 8 are held, a client from another loopback address (127.0.0.2) gets
 * /status; the 8 are closed at the 1.5 s deadline although they keep sending
 * (the idle timeout alone never fires); then /status answers 127.0.0.1 too.
 * Before the fix all 64 were held (the connection cap) for as long as they
 * trickled. */
static void test_slow_clients(czk_service *s) {
    czk_http_options o;
    czk_http_options_default(&o);
    CHECK(o.per_ip_limit == 8 && o.connection_limit == 64 && o.request_timeout_ms == 10000);
    o.request_timeout_ms = 1500;
    o.idle_timeout_s = 30;
    czk_http *h = NULL;
    char msg[256] = "";
    CHECK_MSG(czk_http_start_opts(&h, s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_OK, "start: %s", msg);
    if (!h) return;
    int port = czk_http_port(h);
    enum { N = 64 };
    int fd[N];
    long long closed_at[N];
    bool answered = false;
    long long t0 = now_ms();
    char line[256];
    int ll = snprintf(line, sizeof line, "GET /status HTTP/1.1\r\nHost: localhost:%d\r\nX-Slow: ", port);
    for (int i = 0; i < N; i++) {
        fd[i] = connect_from(port, "127.0.0.1");
        closed_at[i] = -1;
        if (fd[i] < 0 || send(fd[i], line, (size_t)ll, MSG_NOSIGNAL) != ll) closed_at[i] = 0;
    }
    int held_early = -1, other_code = -2;
    bool other_skipped = false;
    for (long long t = 0; t < 3500; t = now_ms() - t0) {
        for (int i = 0; i < N; i++) {
            if (closed_at[i] >= 0) continue;
            char b[64];
            ssize_t r = recv(fd[i], b, sizeof b, MSG_DONTWAIT);
            if (r > 0) answered = true;
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK) ||
                send(fd[i], "a", 1, MSG_NOSIGNAL) != 1)
                closed_at[i] = t;
        }
        if (held_early < 0 && t >= 600) {
            held_early = 0;
            for (int i = 0; i < N; i++) held_early += closed_at[i] < 0;
            /* another address meanwhile */
            int f2 = connect_from(port, "127.0.0.2");
            if (f2 < 0) {
                other_skipped = true; /* no 127.0.0.2 here: the rest still holds */
            } else {
                close(f2);
                char req[256];
                snprintf(req, sizeof req, "GET /status HTTP/1.0\r\nHost: localhost:%d\r\n\r\n", port);
                char *r = http_raw(port, "127.0.0.2", req);
                other_code = code_of(r);
                free(r);
            }
        }
        sleep_ms(250);
    }
    CHECK_MSG(held_early == 8, "%d of 64 slow connections from one address held (per-address limit 8)", held_early);
    CHECK_MSG(other_skipped || other_code == 200, "another address during the slow clients: %d", other_code);
    if (other_skipped) fprintf(stderr, "test_http: cannot bind 127.0.0.2; the other-address check was skipped\n");
    int open_at_end = 0;
    long long last = 0;
    for (int i = 0; i < N; i++) {
        if (closed_at[i] < 0) open_at_end++;
        else if (closed_at[i] > last) last = closed_at[i];
        if (fd[i] >= 0) close(fd[i]);
    }
    CHECK_MSG(open_at_end == 0, "%d trickling connection(s) still open 3.5 s after a 1.5 s deadline", open_at_end);
    CHECK_MSG(last >= 1000 && last <= 3000, "the held slow connections were closed at %lld ms (deadline 1500)", last);
    CHECK_MSG(!answered, "a connection that never finished its header got an answer");
    char hh[64];
    snprintf(hh, sizeof hh, "127.0.0.1:%d", port);
    int code = get_host(port, hh);
    CHECK_MSG(code == 200, "/status after the slow clients: %d", code);
    /* slow but within the deadline: a header sent in pieces over 1 s is answered */
    int k = connect_from(port, NULL);
    char req[256];
    int rl = snprintf(req, sizeof req, "GET /status HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", hh);
    bool sent = k >= 0;
    for (int i = 0; sent && i < 4; i++) {
        int from = rl * i / 4, to = rl * (i + 1) / 4;
        sent = send(k, req + from, (size_t)(to - from), MSG_NOSIGNAL) == to - from;
        if (i < 3) sleep_ms(330);
    }
    char b[256] = "";
    struct pollfd pf = {.fd = k, .events = POLLIN, .revents = 0};
    if (sent && poll(&pf, 1, 2000) == 1) {
        ssize_t r = recv(k, b, sizeof b - 1, 0);
        b[r > 0 ? r : 0] = 0;
    }
    if (k >= 0) close(k);
    CHECK_MSG(!strncmp(b, "HTTP/1.1 200 ", 13), "a request sent over 1 s (deadline 1.5 s): '%.40s'", b);
    czk_http_stop(h);
}

/* Issue M 11, Host: only names of this server. */
static void test_host(czk_service *s) {
    czk_http *h = NULL;
    char msg[256] = "", v[128];
    CHECK(czk_http_start(&h, s, "127.0.0.1:0", msg, sizeof msg) == CZK_OK);
    if (!h) return;
    int port = czk_http_port(h);
    static const char *const good[] = {"localhost:%d", "LocalHost:%d", "127.0.0.1:%d", "[::1]:%d", "10.1.2.3:%d"};
    static const char *const bad[] = {"evil.example:%d", "evil.example", "localhost", "localhost:%d1",
                                      "127.0.0.1.evil.example:%d", "localhost.evil.example:%d", "[::1]x:%d",
                                      "localhost:%d:1", "localhost:+%d", "::1:%d", "[evil.example]:%d"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(v, sizeof v, good[i], port);
        int c = get_host(port, v);
        CHECK_MSG(c == 200, "Host %s: %d", v, c);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(v, sizeof v, bad[i], port);
        int c = get_host(port, v);
        CHECK_MSG(c == 403 || c == 400, "Host %s: %d", v, c);
    }
    /* the DNS-rebinding request itself: 403 with a short reason, for / and /metrics too */
    char hdr[256], *resp = NULL;
    snprintf(hdr, sizeof hdr, "Host: evil.example:%d\r\nOrigin: http://evil.example:%d\r\n", port, port);
    CHECK(get_with(port, "/status", hdr, &resp) == 403 && resp && strstr(resp, "Host header") &&
          !strstr(resp, "\"jobs\""));
    free(resp);
    CHECK(get_with(port, "/", hdr, NULL) == 403 && get_with(port, "/metrics", hdr, NULL) == 403);
    /* HTTP/1.0 without Host */
    char *r = http_raw(port, NULL, "GET /status HTTP/1.0\r\n\r\n");
    CHECK_MSG(code_of(r) == 200, "HTTP/1.0 without Host: %d", code_of(r));
    free(r);
    czk_http_stop(h);

    /* an allow-list */
    czk_http_options o;
    czk_http_options_default(&o);
    o.allowed_hosts = "status.example, other.example:1234,[fd00::1]:8443";
    CHECK_MSG(czk_http_start_opts(&h, s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_OK, "start: %s", msg);
    if (!h) return;
    port = czk_http_port(h);
    snprintf(v, sizeof v, "status.example:%d", port);
    CHECK(get_host(port, v) == 200);
    snprintf(v, sizeof v, "STATUS.EXAMPLE:%d", port);
    CHECK(get_host(port, v) == 200);
    CHECK(get_host(port, "status.example:1") == 403);
    CHECK(get_host(port, "other.example:1234") == 200 && get_host(port, "[fd00::1]:8443") == 200);
    snprintf(v, sizeof v, "other.example:%d", port);
    CHECK(get_host(port, v) == 403);
    snprintf(v, sizeof v, "evil.example:%d", port);
    CHECK(get_host(port, v) == 403);
    czk_http_stop(h);
    o.allowed_hosts = "*";
    CHECK(czk_http_start_opts(&h, s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_OK);
    if (h) {
        CHECK(get_host(czk_http_port(h), "evil.example:1") == 200);
        czk_http_stop(h);
    }
    static const char *const bad_lists[] = {"a b:x", "[::1", "a:b:c", "x:99999", "a/b", "x:"};
    for (size_t i = 0; i < sizeof bad_lists / sizeof bad_lists[0]; i++) {
        o.allowed_hosts = bad_lists[i];
        h = NULL;
        CHECK_MSG(czk_http_start_opts(&h, s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && !h,
                  "allowed hosts '%s' accepted", bad_lists[i]);
        czk_http_stop(h);
    }
}

/* Issue M 11, the token. */
static void test_token(czk_service *s) {
    static const char tok[] = "s3cret-T0ken_~x";
    czk_http_options o;
    czk_http_options_default(&o);
    o.token = tok;
    czk_http *h = NULL;
    char msg[256] = "", hdr[512], *resp = NULL;
    CHECK_MSG(czk_http_start_opts(&h, s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_OK, "start: %s", msg);
    if (!h) return;
    int port = czk_http_port(h);
    char host[64];
    snprintf(host, sizeof host, "Host: localhost:%d\r\n", port);
    CHECK(get_with(port, "/status", host, &resp) == 401 && resp &&
          strstr(resp, "\r\nWWW-Authenticate: Bearer realm=\"czkd\"") && !strstr(resp, "\"jobs\""));
    free(resp);
    CHECK(get_with(port, "/metrics", host, NULL) == 401 && get_with(port, "/", host, NULL) == 401);
    static const char *const wrong[] = {"Authorization: Bearer s3cret-T0ken_~\r\n",
                                        "Authorization: Bearer s3cret-T0ken_~xy\r\n",
                                        "Authorization: Bearer S3cret-T0ken_~x\r\n",
                                        "Authorization: Basic czNjcmV0LVQwa2VuX354\r\n",
                                        "Authorization: s3cret-T0ken_~x\r\n",
                                        "Authorization: Bearer\r\n",
                                        "Cookie: czk_token=nope\r\n",
                                        "Cookie: other=s3cret-T0ken_~x\r\n"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        snprintf(hdr, sizeof hdr, "%s%s", host, wrong[i]);
        int c = get_with(port, "/status", hdr, NULL);
        CHECK_MSG(c == 401, "'%.40s': %d", wrong[i], c);
    }
    static const char *const right[] = {"Authorization: Bearer s3cret-T0ken_~x\r\n",
                                        "Authorization: bearer s3cret-T0ken_~x\r\n",
                                        "Cookie: a=b; czk_token=s3cret-T0ken_~x\r\n"};
    for (size_t i = 0; i < sizeof right / sizeof right[0]; i++) {
        snprintf(hdr, sizeof hdr, "%s%s", host, right[i]);
        int c = get_with(port, "/status", hdr, NULL);
        CHECK_MSG(c == 200, "'%.40s': %d", right[i], c);
    }
    snprintf(hdr, sizeof hdr, "%sAuthorization: Bearer %s\r\n", host, tok);
    CHECK(get_with(port, "/metrics", hdr, NULL) == 200 && get_with(port, "/", hdr, NULL) == 200);
    /* the browser's way in */
    CHECK(get_with(port, "/?token=s3cret-T0ken_~x", host, &resp) == 303 && resp &&
          strstr(resp, "\r\nSet-Cookie: czk_token=s3cret-T0ken_~x; Path=/; HttpOnly; SameSite=Strict\r\n") &&
          strstr(resp, "\r\nLocation: /\r\n"));
    free(resp);
    CHECK(get_with(port, "/?token=s3cret-T0ken_~", host, &resp) == 401 && resp && !strstr(resp, "Set-Cookie"));
    free(resp);
    CHECK(get_with(port, "/status?token=s3cret-T0ken_~x", host, NULL) == 401);
    /* the Host check comes first, token or not */
    snprintf(hdr, sizeof hdr, "Host: evil.example:%d\r\nAuthorization: Bearer %s\r\n", port, tok);
    CHECK(get_with(port, "/status", hdr, NULL) == 403);
    czk_http_stop(h);

    static const char *const bad_tokens[] = {"has space", "semi;colon", "quo\"te", "tab\t", "\x7f"};
    for (size_t i = 0; i < sizeof bad_tokens / sizeof bad_tokens[0]; i++) {
        o.token = bad_tokens[i];
        h = NULL;
        CHECK_MSG(czk_http_start_opts(&h, s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && !h,
                  "token '%s' accepted", bad_tokens[i]);
    }
    char longtok[300];
    memset(longtok, 'a', sizeof longtok - 1);
    longtok[sizeof longtok - 1] = 0;
    o.token = longtok;
    CHECK(czk_http_start_opts(&h, s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    o.token = "";
    o.per_ip_limit = 0;
    CHECK(czk_http_start_opts(&h, s, "127.0.0.1:0", &o, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);

    /* token files */
    char path[300], t[300];
    snprintf(path, sizeof path, "%s/token", root);
    FILE *f = fopen(path, "w");
    fputs("  s3cret-T0ken_~x \n\n", f);
    fclose(f);
    CHECK(czk_http_token_load(path, t, sizeof t, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT); /* leading spaces */
    f = fopen(path, "w");
    fputs("s3cret-T0ken_~x\n", f);
    fclose(f);
    CHECK(czk_http_token_load(path, t, sizeof t, msg, sizeof msg) == CZK_OK && !strcmp(t, tok));
    f = fopen(path, "w");
    fclose(f);
    CHECK(czk_http_token_load(path, t, sizeof t, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, path));
    snprintf(path, sizeof path, "%s/none", root);
    CHECK(czk_http_token_load(path, t, sizeof t, msg, sizeof msg) == CZK_ERR_IO);
}

static json_t *get_status(int port) {
    char *body, ct[128];
    int code = http_req(port, "GET", "/status", &body, ct, sizeof ct);
    CHECK_MSG(code == 200 && strstr(ct, "application/json"), "/status: %d %s", code, ct);
    json_error_t err;
    json_t *j = body ? json_loads(body, 0, &err) : NULL;
    CHECK_MSG(j && json_is_object(j), "/status is not a JSON object: %s", body ? err.text : "no body");
    free(body);
    return j;
}

static void test_addr(void) {
    char host[64], msg[256];
    int port;
    CHECK(czk_http_split_addr("127.0.0.1:80", host, sizeof host, &port, msg, sizeof msg) == CZK_OK &&
          !strcmp(host, "127.0.0.1") && port == 80);
    CHECK(czk_http_split_addr("[::1]:8080", host, sizeof host, &port, msg, sizeof msg) == CZK_OK &&
          !strcmp(host, "::1") && port == 8080);
    CHECK(czk_http_split_addr("localhost:0", host, sizeof host, &port, msg, sizeof msg) == CZK_OK && port == 0);
    static const char *const bad[] = {"nope", "1.2.3.4:", ":80", "1.2.3.4:99999", "::1:80", "[::1]80", "h:8x", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(czk_http_split_addr(bad[i], host, sizeof host, &port, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT,
                  "'%s' accepted", bad[i]);
}

int main(void) {
    czk_log_set_level(CZK_LOG_WARN);
    signal(SIGPIPE, SIG_IGN);
    test_addr();
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/czk-http-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) return 1;
    char state[300], params[300], msg[512] = "";
    snprintf(state, sizeof state, "%s/state", root);
    snprintf(params, sizeof params, "%s/params", root);
    czk_service_config cfg;
    czk_service_config_default(&cfg);
    cfg.state_dir = state;
    cfg.param_cache = params;
    cfg.generate_dev_params = true; /* the demo circuit's, made on first use */
    cfg.engine.budget_bytes = (size_t)256 << 20;
    cfg.engine.partition_workers = 1;
    cfg.engine.gpu_workers = 1;
    cfg.engine.threads = 2;
    cfg.engine.faults = "";
    czk_service *s = NULL;
    czk_err e = czk_service_open(&s, &cfg, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "open: %s", msg);
    if (!s) return test_finish("http");
    czk_http *h = NULL;
    e = czk_http_start(&h, s, "127.0.0.1:0", msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "start: %s", msg);
    if (!h) return test_finish("http");
    int port = czk_http_port(h);
    CHECK(port > 0);

    /* the port is taken now */
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    czk_http *h2 = NULL;
    CHECK(czk_http_start(&h2, s, addr, msg, sizeof msg) == CZK_ERR_IO && !h2);
    CHECK(czk_http_start(&h2, s, "bad address", msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && !h2);

    json_t *j = get_status(port);
    static const char *const sections[] = {"pipeline", "partitions", "gpu_workers", "memory", "flight", "jobs", "srs"};
    for (size_t i = 0; j && i < sizeof sections / sizeof sections[0]; i++)
        CHECK_MSG(json_object_get(j, sections[i]) != NULL, "/status lacks %s", sections[i]);
    if (j) {
        CHECK(json_is_array(json_object_get(j, "gpu_workers")) && json_array_size(json_object_get(j, "gpu_workers")) == 1);
        json_t *parts = json_object_get(j, "partitions");
        CHECK(json_is_integer(json_object_get(parts, "synthesizing")) && json_is_integer(json_object_get(parts, "gpu")));
        json_t *mem = json_object_get(j, "memory");
        CHECK(json_integer_value(json_object_get(mem, "budget_total")) == (json_int_t)256 << 20);
        CHECK(json_is_object(json_object_get(json_object_get(j, "flight"), "abc")));
        CHECK(json_integer_value(json_object_get(json_object_get(j, "jobs"), "completed")) == 0);
        CHECK(!strcmp(json_string_value(json_object_get(j, "backend")), "cpu"));
        json_t *proc = json_object_get(j, "process");
        json_int_t rss = json_integer_value(json_object_get(proc, "rss_bytes"));
        CHECK_MSG(rss > 0 && json_integer_value(json_object_get(proc, "rss_peak_bytes")) >= rss,
                  "/status: the process's resident set is missing or inconsistent");
    }
    json_decref(j);

    /* a job: afterwards /status counts it and lists the resident circuit */
    czk_service_request req = {.circuit_id = "demo", .input = (const uint8_t *)"3", .input_len = 1,
                               .priority = CZK_PRIO_NORMAL};
    char id[CZK_JOB_ID_MAX];
    uint32_t qp;
    CHECK(czk_service_submit(s, &req, id, &qp, msg, sizeof msg) == CZK_OK);
    czk_service_result r;
    CHECK(czk_service_await(s, id, 60000, &r, msg, sizeof msg) == CZK_OK && r.state == CZK_SERVICE_JOB_DONE);
    czk_service_result_free(&r);
    j = get_status(port);
    if (j) {
        json_t *jobs = json_object_get(j, "jobs");
        CHECK(json_integer_value(json_object_get(jobs, "completed")) == 1);
        CHECK(json_array_size(json_object_get(jobs, "active")) == 0);
        json_t *srs = json_object_get(j, "srs");
        CHECK(json_array_size(srs) == 1 &&
              !strcmp(json_string_value(json_object_get(json_array_get(srs, 0), "circuit_id")), "demo"));
        /* idle: every flight counter reads zero */
        const char *k;
        json_t *v;
        json_object_foreach(json_object_get(j, "flight"), k, v) {
            CHECK_MSG(json_integer_value(json_object_get(v, "now")) == 0, "flight %s not zero", k);
        }
    }
    json_decref(j);

    char *body, ct[128];
    int code = http_req(port, "GET", "/metrics", &body, ct, sizeof ct);
    CHECK_MSG(code == 200 && strstr(ct, "text/plain; version=0.0.4"), "/metrics: %d %s", code, ct);
    static const char *const metrics[] = {"# TYPE czk_jobs_total counter",
                                          "czk_jobs_total{outcome=\"completed\"} 1",
                                          "czk_jobs_pending 0",
                                          "czk_flight{counter=\"abc\"} 0",
                                          "czk_flight_high_water{counter=\"gpu\"}",
                                          "czk_budget_bytes{kind=\"total\"} 268435456",
                                          "czk_memory_bytes{tag=\"srs\"}",
                                          "czk_srs_bytes{circuit=\"demo\"}",
                                          "czk_stage_busy_seconds_total{stage=\"gpu\"}",
                                          "czk_partitions_proved_total 1",
                                          "czk_uptime_seconds"};
    for (size_t i = 0; body && i < sizeof metrics / sizeof metrics[0]; i++)
        CHECK_MSG(strstr(body, metrics[i]) != NULL, "/metrics lacks '%s'", metrics[i]);
    free(body);

    code = http_req(port, "GET", "/", &body, ct, sizeof ct);
    CHECK_MSG(code == 200 && strstr(ct, "text/html"), "/: %d %s", code, ct);
    if (body) {
        CHECK(!strncmp(body, "<!DOCTYPE html>", 15) && strstr(body, "</html>"));
        CHECK(strstr(body, "fetch('/status'") && strstr(body, "setInterval(tick,1000)"));
        CHECK(strstr(body, "var CZK_INITIAL = {\"uptime_s\":") != NULL); /* the snapshot */
        /* self-contained: no external scripts, styles, images or links */
        CHECK(!strstr(body, "src=") && !strstr(body, "href=") && !strstr(body, "http://") &&
              !strstr(body, "https://") && !strstr(body, "@import"));
        CHECK(strstr(body, "id=\"jobs\"") && strstr(body, "id=\"stages\"") && strstr(body, "id=\"gpus\"") &&
              strstr(body, "id=\"memory\""));
    }
    free(body);
    code = http_req(port, "HEAD", "/status", &body, ct, sizeof ct);
    CHECK_MSG(code == 200, "HEAD /status: %d", code);
    free(body);
    code = http_req(port, "GET", "/nope", &body, ct, sizeof ct);
    CHECK_MSG(code == 404, "/nope: %d", code);
    free(body);
    code = http_req(port, "POST", "/status", &body, ct, sizeof ct);
    CHECK_MSG(code == 405, "POST /status: %d", code);
    free(body);

    czk_http_stop(h);
    test_host(s);
    test_token(s);
    test_slow_clients(s);
    czk_service_close(s);
    if (!test_failures) nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return test_finish("http");
}
