/* The gRPC server and client in process: the czk_err → status mapping and
 * the decoder on Curio's requests (job ids of any shape, vanilla proofs,
 * 32-byte commitments); listen addresses (a malformed one, port 0, a port in use);
 * a service on a unix socket called through czk_grpc_client: status, a demo
 * proof, malformed bytes, an unknown method; blocking AwaitProof calls that
 * do not hold up other calls, an AwaitProof timeout, and a stop that answers
 * the waiting calls UNAVAILABLE at once. A backend whose start waits on a
 * gate holds the job in place; no sleeps are used for synchronization. */
#define _GNU_SOURCE
#include <ftw.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../src/server/grpc_internal.h"
#include "czk/backend.h"
#include "czk/grpc_client.h"
#include "czk/grpc_server.h"
#include "czk/log.h"
#include "czk/service.h"
#include "gated_backend.h"
#include "test.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- pure functions ------------------------------------------------------------------ */

static void test_mapping(void) {
    for (int e = 0; e < CZK_ERR__COUNT; e++)
        for (int m = 0; m < CZK_GRPC__COUNT; m++) {
            grpc_status_code c = czk_grpc_status_for((czk_err)e, (czk_grpc_method)m);
            CHECK_MSG(c != GRPC_STATUS_UNKNOWN && (c == GRPC_STATUS_OK) == (e == CZK_OK), "%s in %s -> %s",
                      czk_err_str((czk_err)e), czk_grpc_method_path((czk_grpc_method)m), czk_grpc_status_name(c));
        }
    CHECK(czk_grpc_status_for(CZK_ERR_BUSY, CZK_GRPC_SUBMIT) == GRPC_STATUS_RESOURCE_EXHAUSTED);
    CHECK(czk_grpc_status_for(CZK_ERR_BUSY, CZK_GRPC_PROVE) == GRPC_STATUS_RESOURCE_EXHAUSTED);
    CHECK(czk_grpc_status_for(CZK_ERR_BUSY, CZK_GRPC_EVICT) == GRPC_STATUS_FAILED_PRECONDITION);
    CHECK(czk_grpc_status_for(CZK_ERR_SHUTDOWN, CZK_GRPC_AWAIT) == GRPC_STATUS_UNAVAILABLE);
    CHECK(czk_grpc_status_for(CZK_ERR_NOT_FOUND, CZK_GRPC_CANCEL) == GRPC_STATUS_NOT_FOUND);
    CHECK(czk_grpc_status_for(CZK_ERR_INVALID_ARGUMENT, CZK_GRPC_SUBMIT) == GRPC_STATUS_INVALID_ARGUMENT);
    CHECK(czk_grpc_status_for(CZK_ERR_MISMATCH, CZK_GRPC_SUBMIT) == GRPC_STATUS_ALREADY_EXISTS);
    CHECK(czk_grpc_status_for(CZK_ERR_PRECONDITION, CZK_GRPC_SUBMIT) == GRPC_STATUS_FAILED_PRECONDITION);
    CHECK(czk_grpc_status_for(CZK_ERR_PRECONDITION, CZK_GRPC_PRELOAD) == GRPC_STATUS_FAILED_PRECONDITION);
    for (int m = 0; m < CZK_GRPC__COUNT; m++)
        CHECK(czk_grpc_status_for(CZK_ERR_NO_SPACE, (czk_grpc_method)m) == GRPC_STATUS_RESOURCE_EXHAUSTED);
    for (int m = 0; m < CZK_GRPC__COUNT; m++) {
        const char *p = czk_grpc_method_path((czk_grpc_method)m);
        CHECK(czk_grpc_method_find(p, strlen(p)) == m);
        CHECK(czk_grpc_method_find(p, strlen(p) - 1) == -1);
    }
}

static grpc_status_code decode_msg(czk_grpc_method m, const ProtobufCMessage *pm, czk_grpc_request *rq, char *msg,
                                   size_t msglen) {
    uint8_t buf[4096];
    size_t n = protobuf_c_message_get_packed_size(pm);
    if (n > sizeof buf) return GRPC_STATUS_INTERNAL;
    protobuf_c_message_pack(pm, buf);
    return czk_grpc_request_decode(rq, m, buf, n, msg, msglen);
}

/* The decoder on what Curio sends: job ids of any shape, the vanilla proofs
 * of PoSt and SnapDeals (field 11), raw 32-byte commitments. */
static void test_decode(void) {
    static const char curio_id[] = "wdpost-1000-0-[12 34 56 78 90 12 34 56]";
    char msg[512];
    czk_grpc_request rq;
    Cuzk__V1__AwaitProofRequest aw = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    static const char *const ids[] = {curio_id, "porep-1000-5", "42", "czk-7", "", "\xc3\xa9t\xc3\xa9 \"x\" </script>"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        aw.job_id = (char *)ids[i];
        CHECK_MSG(decode_msg(CZK_GRPC_AWAIT, &aw.base, &rq, msg, sizeof msg) == GRPC_STATUS_OK &&
                      !strcmp(rq.job_id, ids[i]),
                  "AwaitProof job_id '%s': %s", ids[i], msg);
        czk_grpc_request_free(&rq);
    }
    Cuzk__V1__CancelProofRequest cq = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    cq.job_id = (char *)curio_id;
    CHECK(decode_msg(CZK_GRPC_CANCEL, &cq.base, &rq, msg, sizeof msg) == GRPC_STATUS_OK && !strcmp(rq.job_id, curio_id));
    czk_grpc_request_free(&rq);

    /* WindowPoSt as Curio sends it: three vanilla proofs, handed to the
     * service (which decodes them) as a borrowed Filecoin request */
    Cuzk__V1__SubmitProofRequest sr = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    uint8_t v0[100], v1[200], v2[37], comm[33];
    memset(v0, 1, sizeof v0);
    memset(v1, 2, sizeof v1);
    memset(v2, 3, sizeof v2);
    memset(comm, 7, sizeof comm);
    ProtobufCBinaryData vp[3] = {{sizeof v0, v0}, {sizeof v1, v1}, {sizeof v2, v2}};
    sr.request_id = (char *)curio_id;
    sr.proof_kind = CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
    sr.priority = CUZK__V1__PRIORITY__LOW;
    sr.n_vanilla_proofs = 3;
    sr.vanilla_proofs = vp;
    sr.miner_id = 1000;
    sr.partition_index = 2;
    sr.registered_proof = 13;
    sr.randomness.data = comm;
    sr.randomness.len = 32;
    grpc_status_code c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_OK && rq.submit.fil.kind == CZK_FIL_KIND_WINDOW_POST && rq.submit.fil.borrowed &&
                  rq.submit.fil.n_vanilla_proofs == 3 && rq.submit.fil.vanilla_proofs[1].len == 200 &&
                  !memcmp(rq.submit.fil.vanilla_proofs[2].data, v2, sizeof v2) && rq.submit.fil.randomness.len == 32 &&
                  rq.submit.fil.partition_index == 2 && rq.submit.fil.registered_proof == 13 &&
                  rq.submit.fil.miner_id == 1000 && rq.submit.priority == CZK_PRIO_LOW && !rq.submit.circuit_id &&
                  rq.n_vanilla_proofs == 3 && rq.vanilla_proofs_bytes == 337,
              "WindowPoSt: %s: %s", czk_grpc_status_name(c), msg);
    czk_grpc_request_free(&rq);
    /* no priority: cuzk's defaults by kind (WindowPoSt HIGH, WinningPoSt CRITICAL) */
    sr.priority = CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED;
    c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_OK && rq.submit.priority == CZK_PRIO_HIGH, "WindowPoSt default priority: %s", msg);
    czk_grpc_request_free(&rq);
    sr.proof_kind = CUZK__V1__PROOF_KIND__WINNING_POST;
    c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_OK && rq.submit.priority == CZK_PRIO_CRITICAL &&
                  rq.submit.fil.kind == CZK_FIL_KIND_WINNING_POST,
              "WinningPoSt default priority: %s", msg);
    czk_grpc_request_free(&rq);
    /* without vanilla proofs a PoSt is refused here, naming the field */
    sr.n_vanilla_proofs = 0;
    c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_INVALID_ARGUMENT && strstr(msg, "vanilla_proofs"), "WinningPoSt without proofs: %s",
              msg);
    sr.n_vanilla_proofs = 3;
    sr.proof_kind = CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
    /* the same inside Prove */
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    pr.submit = &sr;
    c = decode_msg(CZK_GRPC_PROVE, &pr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_OK && rq.submit.fil.kind == CZK_FIL_KIND_WINDOW_POST &&
                  rq.submit.fil.n_vanilla_proofs == 3,
              "Prove: %s", msg);
    czk_grpc_request_free(&rq);
    /* a proof kind and a czk circuit together: which one? refused */
    sr.circuit_id = "demo";
    sr.circuit_input.data = (uint8_t *)"5";
    sr.circuit_input.len = 1;
    c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_INVALID_ARGUMENT && strstr(msg, "not both"), "kind and circuit: %s", msg);
    /* vanilla proofs ride along with a czk circuit: decoded, counted, unused */
    sr.proof_kind = CUZK__V1__PROOF_KIND__PROOF_KIND_UNSPECIFIED;
    c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_OK && rq.n_vanilla_proofs == 3 && rq.vanilla_proofs_bytes == 337 &&
                  rq.submit.fil.kind == CZK_FIL_KIND_NONE && !strcmp(rq.submit.request_id, curio_id),
              "demo with vanilla proofs: %s", msg);
    czk_grpc_request_free(&rq);
    sr.circuit_id = NULL;
    sr.circuit_input.len = 0;

    /* SnapDeals: commitments are 32 raw bytes, or absent */
    sr.proof_kind = CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
    static const char *const names[] = {"comm_r_old", "comm_r_new", "comm_d_new"};
    for (int f = 0; f < 3; f++) {
        ProtobufCBinaryData *b = f == 0 ? &sr.comm_r_old : f == 1 ? &sr.comm_r_new : &sr.comm_d_new;
        static const size_t bad_len[] = {31, 33, 1};
        for (size_t k = 0; k < 3; k++) {
            b->data = comm;
            b->len = bad_len[k];
            c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
            CHECK_MSG(c == GRPC_STATUS_INVALID_ARGUMENT && strstr(msg, names[f]), "%s of %zu bytes: %s", names[f],
                      bad_len[k], msg);
        }
        b->len = 32;
    }
    c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_OK && rq.submit.fil.kind == CZK_FIL_KIND_SNAP && rq.submit.fil.comm_d_new.len == 32 &&
                  !memcmp(rq.submit.fil.comm_r_old.data, comm, 32) && rq.submit.priority == CZK_PRIO_NORMAL,
              "SnapDeals: %s", msg);
    czk_grpc_request_free(&rq);
    /* PoRep C2: the C1 output goes to the service undecoded, with the
     * request's facts; without one the request is refused here */
    Cuzk__V1__SubmitProofRequest pq = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    pq.request_id = "porep-1000-5";
    pq.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    pq.registered_proof = 8;
    pq.sector_size = 2048;
    pq.sector_number = 5;
    pq.miner_id = 1000;
    c = decode_msg(CZK_GRPC_SUBMIT, &pq.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_INVALID_ARGUMENT && strstr(msg, "vanilla_proof"), "PoRep without C1: %s", msg);
    pq.vanilla_proof.data = (uint8_t *)"{\"SectorNum\":5}";
    pq.vanilla_proof.len = 15;
    c = decode_msg(CZK_GRPC_SUBMIT, &pq.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_OK && rq.submit.fil.kind == CZK_FIL_KIND_POREP_C2 && !rq.submit.circuit_id &&
                  rq.submit.fil.registered_proof == 8 && rq.submit.fil.sector_size == 2048 &&
                  rq.submit.fil.sector_number == 5 && rq.submit.fil.miner_id == 1000 &&
                  rq.submit.fil.vanilla_proof.len == 15 &&
                  !strcmp(rq.submit.request_id, "porep-1000-5"),
              "PoRep request: %s", msg);
    czk_grpc_request_free(&rq);

    /* request ids: at most 255 bytes */
    char longid[300];
    memset(longid, 'a', sizeof longid);
    longid[256] = 0;
    sr.request_id = longid;
    c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_INVALID_ARGUMENT && strstr(msg, "255"), "a 256-byte request id: %s", msg);
    longid[255] = 0;
    c = decode_msg(CZK_GRPC_SUBMIT, &sr.base, &rq, msg, sizeof msg);
    CHECK_MSG(c == GRPC_STATUS_OK, "a 255-byte request id: %s", msg);
    czk_grpc_request_free(&rq);
}

/* ---- in process ------------------------------------------------------------------------ */

static char root[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

typedef struct {
    czk_grpc_client *c;
    char job[CZK_JOB_ID_MAX];
    int status;
    char details[256];
    double returned_at;
} waiter;

static void *await_thread(void *arg) {
    waiter *w = arg;
    Cuzk__V1__AwaitProofRequest rq = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    rq.job_id = w->job;
    ProtobufCMessage *resp = NULL;
    w->status = czk_grpc_client_unary(w->c, "AwaitProof", &rq.base, &cuzk__v1__await_proof_response__descriptor, -1,
                                      &resp, w->details, sizeof w->details);
    w->returned_at = now_s();
    if (resp) protobuf_c_message_free_unpacked(resp, NULL);
    return NULL;
}

static int submit(czk_grpc_client *c, const char *seed, char job[CZK_JOB_ID_MAX]) {
    Cuzk__V1__SubmitProofRequest rq = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    rq.circuit_id = "demo";
    rq.circuit_input.data = (uint8_t *)seed;
    rq.circuit_input.len = strlen(seed);
    ProtobufCMessage *resp = NULL;
    char d[256];
    int st = czk_grpc_client_unary(c, "SubmitProof", &rq.base, &cuzk__v1__submit_proof_response__descriptor, 60000,
                                   &resp, d, sizeof d);
    CHECK_MSG(st == 0, "submit: %s: %s", czk_grpc_code_name(st), d);
    if (resp) {
        snprintf(job, CZK_JOB_ID_MAX, "%s", ((Cuzk__V1__SubmitProofResponse *)resp)->job_id);
        protobuf_c_message_free_unpacked(resp, NULL);
    }
    return st;
}

static void test_listen(czk_service *svc) {
    char msg[512];
    czk_grpc_server *g = NULL;
    CHECK(czk_grpc_server_start(&g, svc, "nonsense", NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && !g && msg[0]);
    CHECK(czk_grpc_server_start(&g, svc, "127.0.0.1:99999", NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_grpc_server_start(&g, svc, "unix://", NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    czk_err e = czk_grpc_server_start(&g, svc, "127.0.0.1:0", NULL, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "port 0: %s", msg);
    if (e != CZK_OK) return;
    int port = czk_grpc_server_port(g);
    CHECK(port > 0);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    czk_grpc_server *g2 = NULL;
    CHECK_MSG(czk_grpc_server_start(&g2, svc, addr, NULL, msg, sizeof msg) == CZK_ERR_IO && !g2,
              "a second server on %s", addr);
    czk_grpc_server_stop(g2);
    /* a call over TCP */
    czk_grpc_client *c;
    CHECK(czk_grpc_client_open(&c, addr, 0, true, msg, sizeof msg) == CZK_OK);
    Cuzk__V1__GetMetricsRequest rq = CUZK__V1__GET_METRICS_REQUEST__INIT;
    ProtobufCMessage *resp = NULL;
    int st = czk_grpc_client_unary(c, "GetMetrics", &rq.base, &cuzk__v1__get_metrics_response__descriptor, 10000,
                                   &resp, msg, sizeof msg);
    CHECK_MSG(st == 0 && resp && strstr(((Cuzk__V1__GetMetricsResponse *)resp)->prometheus_text, "# TYPE"),
              "GetMetrics: %s: %s", czk_grpc_code_name(st), msg);
    if (resp) protobuf_c_message_free_unpacked(resp, NULL);
    czk_grpc_client_close(c);
    czk_grpc_server_stop(g);
}

static void test_calls(czk_service *svc) {
    char msg[512], addr[300];
    snprintf(addr, sizeof addr, "unix://%s/grpc.sock", root);
    czk_grpc_server *g = NULL;
    czk_err e = czk_grpc_server_start(&g, svc, addr, NULL, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "start on %s: %s", addr, msg);
    if (e != CZK_OK) return;
    CHECK(czk_grpc_server_port(g) == 0);
    czk_grpc_client *c;
    CHECK(czk_grpc_client_open(&c, addr, 0, true, msg, sizeof msg) == CZK_OK);

    /* a proof */
    char job[CZK_JOB_ID_MAX] = "";
    submit(c, "7", job);
    Cuzk__V1__AwaitProofRequest aw = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    aw.job_id = job;
    ProtobufCMessage *resp = NULL;
    int st = czk_grpc_client_unary(c, "AwaitProof", &aw.base, &cuzk__v1__await_proof_response__descriptor, 60000,
                                   &resp, msg, sizeof msg);
    CHECK_MSG(st == 0, "await: %s: %s", czk_grpc_code_name(st), msg);
    if (resp) {
        const Cuzk__V1__AwaitProofResponse *r = (const Cuzk__V1__AwaitProofResponse *)resp;
        CHECK(r->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED && !strcmp(r->job_id, job));
        CHECK(r->proof.len == 192 && r->n_public_inputs == 1 && r->public_inputs[0].len == 32);
        protobuf_c_message_free_unpacked(resp, NULL);
    }

    /* unknown ids: NOT_FOUND for AwaitProof and CancelProof, whatever their shape */
    static const char *const unknown[] = {"porep-1000-404", "wdpost-1000-0-[1 2 3]", "999999", "czk-999999", ""};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        aw.job_id = (char *)unknown[i];
        resp = NULL;
        st = czk_grpc_client_unary(c, "AwaitProof", &aw.base, &cuzk__v1__await_proof_response__descriptor, 10000,
                                   &resp, msg, sizeof msg);
        CHECK_MSG(st == GRPC_STATUS_NOT_FOUND && !resp, "AwaitProof('%s'): %s: %s", unknown[i],
                  czk_grpc_code_name(st), msg);
        if (resp) protobuf_c_message_free_unpacked(resp, NULL);
        Cuzk__V1__CancelProofRequest cq = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
        cq.job_id = (char *)unknown[i];
        resp = NULL;
        st = czk_grpc_client_unary(c, "CancelProof", &cq.base, &cuzk__v1__cancel_proof_response__descriptor, 10000,
                                   &resp, msg, sizeof msg);
        CHECK_MSG(st == GRPC_STATUS_NOT_FOUND, "CancelProof('%s'): %s: %s", unknown[i], czk_grpc_code_name(st), msg);
        if (resp) protobuf_c_message_free_unpacked(resp, NULL);
    }
    aw.job_id = job;

    /* malformed bytes, an unknown method */
    unsigned char *out = NULL;
    size_t out_len = 0;
    st = czk_grpc_client_unary_raw(c, "AwaitProof", "\xff\xff\xff", 3, 10000, &out, &out_len, msg, sizeof msg);
    CHECK_MSG(st == GRPC_STATUS_INVALID_ARGUMENT && msg[0], "garbage: %s", czk_grpc_code_name(st));
    free(out);
    st = czk_grpc_client_unary_raw(c, "Frobnicate", "", 0, 10000, &out, &out_len, msg, sizeof msg);
    CHECK_MSG(st == GRPC_STATUS_UNIMPLEMENTED, "unknown method: %s", czk_grpc_code_name(st));
    free(out);

    /* a job held at the GPU stage: waiters, a timeout, other calls meanwhile */
    gate_set(false);
    submit(c, "8", job);
    gate_wait_waiting(1);
    enum { W = 6 };
    waiter w[W];
    pthread_t t[W];
    for (int i = 0; i < W; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].c = c;
        snprintf(w[i].job, sizeof w[i].job, "%s", job);
        pthread_create(&t[i], NULL, await_thread, &w[i]);
    }
    aw.job_id = job;
    aw.timeout_ms = 50;
    double t0 = now_s();
    st = czk_grpc_client_unary(c, "AwaitProof", &aw.base, &cuzk__v1__await_proof_response__descriptor, 60000, &resp,
                               msg, sizeof msg);
    CHECK(st == 0 && resp &&
          ((Cuzk__V1__AwaitProofResponse *)resp)->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT);
    CHECK(now_s() - t0 < 10);
    if (resp) protobuf_c_message_free_unpacked(resp, NULL);
    for (int i = 0; i < 20; i++) {
        Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
        st = czk_grpc_client_unary(c, "GetStatus", &gs.base, &cuzk__v1__get_status_response__descriptor, 10000,
                                   &resp, msg, sizeof msg);
        CHECK_MSG(st == 0, "GetStatus while %d calls wait: %s: %s", W, czk_grpc_code_name(st), msg);
        if (resp) protobuf_c_message_free_unpacked(resp, NULL);
    }
    /* stop: the waiting calls end with UNAVAILABLE, promptly */
    t0 = now_s();
    czk_grpc_server_stop(g);
    double stopped = now_s();
    CHECK_MSG(stopped - t0 < 5, "stop took %.1f s", stopped - t0);
    for (int i = 0; i < W; i++) {
        pthread_join(t[i], NULL);
        CHECK_MSG(w[i].status == GRPC_STATUS_UNAVAILABLE, "waiter %d: %s: %s", i, czk_grpc_code_name(w[i].status),
                  w[i].details);
        CHECK(w[i].returned_at - t0 < 5);
    }
    /* no server: UNAVAILABLE without waiting for readiness */
    czk_grpc_client *c2;
    CHECK(czk_grpc_client_open(&c2, addr, 0, false, msg, sizeof msg) == CZK_OK);
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    st = czk_grpc_client_unary(c2, "GetStatus", &gs.base, &cuzk__v1__get_status_response__descriptor, 10000, &resp,
                               msg, sizeof msg);
    CHECK_MSG(st == GRPC_STATUS_UNAVAILABLE && !resp, "no server: %s", czk_grpc_code_name(st));
    czk_grpc_client_close(c2);
    czk_grpc_client_close(c);
    gate_set(true);
}

int main(void) {
    czk_log_set_level(CZK_LOG_WARN);
    test_mapping();
    test_decode();
    snprintf(root, sizeof root, "%s/czk-test-grpc-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    char state[300], params[300], msg[512];
    snprintf(state, sizeof state, "%s/state", root);
    snprintf(params, sizeof params, "%s/params", root);
    CHECK(czk_backend_cpu_open(&cpu_be, NULL) == CZK_OK);
    czk_service_config cfg;
    czk_service_config_default(&cfg);
    cfg.state_dir = state;
    cfg.param_cache = params;
    cfg.generate_dev_params = true; /* the demo circuit's, made on first use */
    cfg.engine.budget_bytes = (size_t)512 << 20;
    cfg.engine.partition_workers = 1;
    cfg.engine.gpu_workers = 1;
    cfg.engine.threads = 2;
    cfg.engine.faults = "";
    cfg.engine.backend = &gated_be;
    czk_service *svc = NULL;
    czk_err e = czk_service_open(&svc, &cfg, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "service: %s", msg);
    if (e == CZK_OK) {
        test_listen(svc);
        test_calls(svc);
        czk_service_close(svc);
    }
    czk_backend_close(cpu_be);
    nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return test_finish("test_grpc");
}
