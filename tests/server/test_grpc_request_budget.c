/* Request bytes in the memory budget (issue M, point 3), in process: a
 * SubmitProof message larger than CZK_GRPC_UNCHARGED_MSG is charged
 * CZK_GRPC_REQUEST_COPIES times its size while it is handled (the budget's
 * high-water mark shows it) and given back after; with the budget full it is
 * refused RESOURCE_EXHAUSTED naming the budget, while small calls (GetStatus,
 * AwaitProof) still get through; and a large message of a method whose
 * requests are small is refused INVALID_ARGUMENT naming the limit. The
 * requests name no proof, so each that is charged is then decoded and
 * refused for that; gRPC's receive quota is checked by
 * request_memory_check.sh against czkd's peak memory. */
#define _GNU_SOURCE
#include <ftw.h>
#include <grpc/status.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "czk/grpc_client.h"
#include "czk/grpc_server.h"
#include "czk/log.h"
#include "czk/service.h"
#include "test.h"

static char root[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

/* A message of one length-delimited field `field` holding n bytes. */
static uint8_t *one_field(unsigned field, size_t n, size_t *len) {
    uint8_t *m = malloc(n + 16);
    if (!m) return NULL;
    size_t k = 0;
    m[k++] = (uint8_t)(field << 3 | 2);
    for (size_t v = n;; v >>= 7) {
        m[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        if (v <= 0x7f) break;
    }
    memset(m + k, 1, n);
    *len = k + n;
    return m;
}

static int raw_call(czk_grpc_client *cl, const char *method, const uint8_t *req, size_t len, char *details,
                    size_t dlen) {
    unsigned char *resp = NULL;
    size_t resp_len = 0;
    details[0] = 0;
    int code = czk_grpc_client_unary_raw(cl, method, req, len, 30000, &resp, &resp_len, details, dlen);
    free(resp);
    return code;
}

/* The handler gives the charge back after it has sent the answer: wait for it. */
static bool reserved_back_to(czk_budget *b, size_t want) {
    for (int i = 0; i < 500; i++) {
        if (czk_budget_reserved(b) == want) return true;
        struct timespec d = {0, 10000000L};
        nanosleep(&d, NULL);
    }
    return false;
}

static void test_charge(czk_service *svc, czk_grpc_client *cl) {
    czk_budget *b = czk_service_budget(svc);
    char details[1024];
    const size_t n = (size_t)8 << 20;
    size_t len = 0;
    uint8_t *req = one_field(11, n, &len); /* SubmitProofRequest.vanilla_proofs */
    CHECK(req != NULL);
    if (!req) return;

    /* charged while handled, then given back */
    size_t r0 = czk_budget_reserved(b), h0 = czk_budget_high_water(b), need = CZK_GRPC_REQUEST_COPIES * len;
    CHECK_MSG(h0 < r0 + need, "high water %zu before the call, reserved %zu", h0, r0);
    int code = raw_call(cl, "SubmitProof", req, len, details, sizeof details);
    CHECK_MSG(code == GRPC_STATUS_INVALID_ARGUMENT && strstr(details, "names no proof"), "%s: %s",
              czk_grpc_code_name(code), details);
    size_t h1 = czk_budget_high_water(b);
    CHECK_MSG(h1 >= r0 + need, "a %zu-byte request: high water %zu, reserved before %zu (want %zu charged)", len, h1,
              r0, need);
    CHECK_MSG(reserved_back_to(b, r0), "reserved %zu after the call, %zu before", czk_budget_reserved(b), r0);

    /* the budget full (but for less than the charge): refused, naming the
     * budget; the small calls get through */
    czk_reservation filler;
    size_t room = czk_budget_total(b) - czk_budget_reserved(b);
    CHECK(room > need && czk_budget_charge(b, room - need + 1, &filler));
    code = raw_call(cl, "SubmitProof", req, len, details, sizeof details);
    CHECK_MSG(code == GRPC_STATUS_RESOURCE_EXHAUSTED && strstr(details, "memory budget has no room now") &&
                  strstr(details, "try again later"),
              "full budget: %s: %s", czk_grpc_code_name(code), details);
    czk_reservation rest;
    CHECK(czk_budget_charge(b, czk_budget_total(b) - czk_budget_reserved(b), &rest));
    CHECK(czk_budget_reserved(b) == czk_budget_total(b));
    code = raw_call(cl, "GetStatus", NULL, 0, details, sizeof details);
    CHECK_MSG(code == GRPC_STATUS_OK, "GetStatus with the budget full: %s: %s", czk_grpc_code_name(code), details);
    size_t alen = 0;
    uint8_t *await = one_field(1, 12, &alen); /* AwaitProofRequest.job_id, 12 bytes */
    code = await ? raw_call(cl, "AwaitProof", await, alen, details, sizeof details) : -1;
    CHECK_MSG(code == GRPC_STATUS_NOT_FOUND, "AwaitProof with the budget full: %s: %s", czk_grpc_code_name(code),
              details);
    free(await);
    czk_budget_release(&rest);
    czk_budget_release(&filler);
    code = raw_call(cl, "SubmitProof", req, len, details, sizeof details);
    CHECK_MSG(code == GRPC_STATUS_INVALID_ARGUMENT, "room again: %s: %s", czk_grpc_code_name(code), details);
    CHECK(reserved_back_to(b, r0));
    free(req);

    /* a large request of a method whose requests are a few bytes */
    uint8_t *big = one_field(1, CZK_GRPC_UNCHARGED_MSG + 1, &alen);
    size_t h2 = czk_budget_high_water(b);
    code = big ? raw_call(cl, "AwaitProof", big, alen, details, sizeof details) : -1;
    CHECK_MSG(code == GRPC_STATUS_INVALID_ARGUMENT && strstr(details, "AwaitProof request is") &&
                  strstr(details, "at most 65536 bytes"),
              "a large AwaitProof: %s: %s", czk_grpc_code_name(code), details);
    CHECK(czk_budget_high_water(b) == h2);
    free(big);
    printf("grpc_request_budget: a %zu-byte request charged %zu bytes while handled\n", len, h1 - r0);
}

int main(void) {
    czk_log_set_level(CZK_LOG_WARN);
    snprintf(root, sizeof root, "%s/czk-test-grpc-budget-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    char state[300], params[300], addr[320], msg[512];
    snprintf(state, sizeof state, "%s/state", root);
    snprintf(params, sizeof params, "%s/params", root);
    snprintf(addr, sizeof addr, "unix://%s/czkd.sock", root);
    czk_service_config cfg;
    czk_service_config_default(&cfg);
    cfg.state_dir = state;
    cfg.param_cache = params;
    cfg.engine.budget_bytes = (size_t)256 << 20;
    cfg.engine.partition_workers = 1;
    cfg.engine.gpu_workers = 1;
    cfg.engine.threads = 2;
    cfg.engine.faults = "";
    czk_service *svc = NULL;
    czk_grpc_server *srv = NULL;
    czk_grpc_client *cl = NULL;
    czk_err e = czk_service_open(&svc, &cfg, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "service: %s", msg);
    if (e == CZK_OK) {
        czk_grpc_server_options opt;
        memset(&opt, 0, sizeof opt);
        opt.max_msg_bytes = (size_t)32 << 20;
        opt.receive_buffer_bytes = (size_t)64 << 20;
        e = czk_grpc_server_start(&srv, svc, addr, &opt, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "server: %s", msg);
    }
    if (srv) {
        e = czk_grpc_client_open(&cl, addr, (size_t)32 << 20, true, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "client: %s", msg);
    }
    if (cl) test_charge(svc, cl);
    czk_grpc_client_close(cl);
    czk_grpc_server_stop(srv);
    czk_service_close(svc);
    nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return test_finish("test_grpc_request_budget");
}
