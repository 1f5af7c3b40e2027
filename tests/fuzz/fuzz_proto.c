/* libFuzzer: the gRPC server's request decoding (src/server/grpc_codec.c).
 * The first byte picks the method, the rest is the request message. A
 * decoded request must satisfy what the handlers rely on, re-encode to a
 * message that decodes the same (job ids: the same string; PoRep C2
 * requests: the same Filecoin facts), and a refusal must carry a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "grpc_internal.h"

/* a seed: the method byte, then the packed message */
static void seed(const char *name, int method, const ProtobufCMessage *m) {
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n + 1);
    if (!buf) return;
    buf[0] = (uint8_t)method;
    protobuf_c_message_pack(m, buf + 1);
    fuzz_seed(name, buf, n + 1);
    free(buf);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    Cuzk__V1__SubmitProofRequest s = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    s.circuit_id = "demo";
    s.circuit_input.data = (uint8_t *)"12345";
    s.circuit_input.len = 5;
    s.request_id = "req-1";
    s.priority = CUZK__V1__PRIORITY__HIGH;
    seed("submit", CZK_GRPC_SUBMIT, &s.base);
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &s;
    seed("prove", CZK_GRPC_PROVE, &p.base);
    Cuzk__V1__SubmitProofRequest k = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    k.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    k.vanilla_proof.data = (uint8_t *)"{}";
    k.vanilla_proof.len = 2;
    k.sector_number = 7;
    seed("submit-porep", CZK_GRPC_SUBMIT, &k.base);
    Cuzk__V1__SubmitProofRequest w = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    ProtobufCBinaryData vp[2] = {{3, (uint8_t *)"abc"}, {0, NULL}};
    w.request_id = "wdpost-1000-0-[12 34 56 78 90 12 34 56]";
    w.proof_kind = CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
    w.n_vanilla_proofs = 2;
    w.vanilla_proofs = vp;
    w.comm_r_old.data = (uint8_t *)"0123456789abcdef0123456789abcdef";
    w.comm_r_old.len = 32;
    seed("submit-wdpost", CZK_GRPC_SUBMIT, &w.base);
    Cuzk__V1__AwaitProofRequest a = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    a.job_id = "porep-1000-5";
    a.timeout_ms = 1000;
    seed("await", CZK_GRPC_AWAIT, &a.base);
    Cuzk__V1__CancelProofRequest c = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    c.job_id = "18446744073709551615";
    seed("cancel", CZK_GRPC_CANCEL, &c.base);
    Cuzk__V1__PreloadSrsRequest pr = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    pr.circuit_id = "synthetic-20";
    seed("preload", CZK_GRPC_PRELOAD, &pr.base);
    Cuzk__V1__EvictSrsRequest ev = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    ev.circuit_id = "demo";
    seed("evict", CZK_GRPC_EVICT, &ev.base);
    Cuzk__V1__GetStatusRequest gs = CUZK__V1__GET_STATUS_REQUEST__INIT;
    seed("status", CZK_GRPC_STATUS, &gs.base);
    return 0;
}

static void check_circuit_id(const char *id) {
    size_t n = strlen(id);
    FUZZ_ASSERT(n >= 1 && n <= CZK_GRPC_MAX_CIRCUIT_ID && id[0] != '.');
    for (size_t i = 0; i < n; i++)
        FUZZ_ASSERT((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= 'A' && id[i] <= 'Z') ||
                    (id[i] >= '0' && id[i] <= '9') || id[i] == '-' || id[i] == '_' || id[i] == '.');
}

static void check_request(const czk_grpc_request *r) {
    switch (r->method) {
    case CZK_GRPC_SUBMIT:
    case CZK_GRPC_PROVE:
        if (r->submit.fil.kind == CZK_FIL_KIND_NONE) {
            check_circuit_id(r->submit.circuit_id);
        } else { /* a Filecoin request: no circuit id, its proof input where its kind carries it */
            FUZZ_ASSERT(!r->submit.circuit_id && r->submit.fil.borrowed && czk_fil_kind_name(r->submit.fil.kind));
            if (r->submit.fil.kind == CZK_FIL_KIND_POREP_C2)
                FUZZ_ASSERT(r->submit.fil.vanilla_proof.data && r->submit.fil.vanilla_proof.len > 0);
            else
                FUZZ_ASSERT(r->submit.fil.n_vanilla_proofs > 0 && r->submit.fil.vanilla_proofs != NULL);
            for (size_t i = 0; i < r->submit.fil.n_vanilla_proofs; i++)
                FUZZ_ASSERT(r->submit.fil.vanilla_proofs[i].data || r->submit.fil.vanilla_proofs[i].len == 0);
        }
        FUZZ_ASSERT(r->submit.priority >= CZK_PRIO_LOW && r->submit.priority <= CZK_PRIO_CRITICAL);
        FUZZ_ASSERT(!r->submit.request_id || (*r->submit.request_id &&
                                              strlen(r->submit.request_id) <= CZK_GRPC_MAX_REQUEST_ID));
        FUZZ_ASSERT(r->submit.input || r->submit.input_len == 0);
        break;
    case CZK_GRPC_AWAIT:
        FUZZ_ASSERT(r->job_id != NULL);
        FUZZ_ASSERT(r->timeout_ms == -1 || r->timeout_ms > 0);
        break;
    case CZK_GRPC_CANCEL: FUZZ_ASSERT(r->job_id != NULL); break;
    case CZK_GRPC_PRELOAD:
    case CZK_GRPC_EVICT: check_circuit_id(r->circuit_id); break;
    default: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    czk_grpc_method m = (czk_grpc_method)(data[0] % CZK_GRPC__COUNT);
    char msg[1024];
    czk_grpc_request r;
    grpc_status_code st = czk_grpc_request_decode(&r, m, data + 1, size - 1, msg, sizeof msg);
    if (st != GRPC_STATUS_OK) {
        FUZZ_ASSERT(st == GRPC_STATUS_INVALID_ARGUMENT || st == GRPC_STATUS_UNIMPLEMENTED);
        FUZZ_ASSERT(msg[0] != 0);
        FUZZ_ASSERT(r.msg == NULL);
    } else {
        FUZZ_ASSERT(r.method == m && r.msg != NULL);
        check_request(&r);
        /* what decoded re-encodes to a message that decodes to the same request */
        size_t n = protobuf_c_message_get_packed_size(r.msg);
        uint8_t *buf = malloc(n ? n : 1);
        FUZZ_ASSERT(buf != NULL);
        protobuf_c_message_pack(r.msg, buf);
        czk_grpc_request r2;
        FUZZ_ASSERT(czk_grpc_request_decode(&r2, m, buf, n, msg, sizeof msg) == GRPC_STATUS_OK);
        FUZZ_ASSERT(r2.timeout_ms == r.timeout_ms && !r.job_id == !r2.job_id && (!r.job_id || !strcmp(r.job_id, r2.job_id)));
        FUZZ_ASSERT(r2.n_vanilla_proofs == r.n_vanilla_proofs && r2.vanilla_proofs_bytes == r.vanilla_proofs_bytes);
        FUZZ_ASSERT(!r.circuit_id || !strcmp(r.circuit_id, r2.circuit_id));
        if (m == CZK_GRPC_SUBMIT || m == CZK_GRPC_PROVE) {
            FUZZ_ASSERT(!r.submit.circuit_id == !r2.submit.circuit_id &&
                        (!r.submit.circuit_id || !strcmp(r.submit.circuit_id, r2.submit.circuit_id)));
            FUZZ_ASSERT(r.submit.fil.kind == r2.submit.fil.kind && r.submit.fil.miner_id == r2.submit.fil.miner_id);
            FUZZ_ASSERT(czk_fil_request_bytes(&r.submit.fil) == czk_fil_request_bytes(&r2.submit.fil) &&
                        r.submit.fil.partition_index == r2.submit.fil.partition_index &&
                        r.submit.fil.registered_proof == r2.submit.fil.registered_proof);
            FUZZ_ASSERT(r.submit.priority == r2.submit.priority && r.submit.input_len == r2.submit.input_len);
            FUZZ_ASSERT(r.submit.input_len == 0 || !memcmp(r.submit.input, r2.submit.input, r.submit.input_len));
        }
        czk_grpc_request_free(&r2);
        free(buf);
        czk_grpc_request_free(&r);
    }
    /* the method table */
    const char *path = czk_grpc_method_path(m);
    FUZZ_ASSERT(czk_grpc_method_find(path, strlen(path)) == (int)m);
    FUZZ_ASSERT(czk_grpc_method_find((const char *)data, size) == -1 || size == strlen(czk_grpc_method_path(
        (czk_grpc_method)czk_grpc_method_find((const char *)data, size))));
    return 0;
}
