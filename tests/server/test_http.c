/* The HTTP status server: GET /status is JSON with the documented sections
 * (parsed with jansson), and follows a job; GET /metrics has the metric
 * names; GET / is a self-contained HTML page carrying a snapshot; other
 * paths 404, other methods 405; address parsing and a port in use. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ftw.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdlib.h>
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
    int n = snprintf(req, sizeof req, "%s %s HTTP/1.0\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", method, path);
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
    czk_service_close(s);
    if (!test_failures) nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return test_finish("http");
}
