/* libFuzzer: request files (czk_fil_request_from_json, filecoin_request.h).
 * A refusal is FORMAT with a message and a zeroed result; an accepted input
 * encodes canonically to text that decodes to the same request, whose
 * encoding is the same text again. */
#include "czk/filecoin_request.h"
#include "fuzz_common.h"

static const char *const SEEDS[] = {
    "{\"requestId\":\"porep-1000-1\",\"proofKind\":\"POREP_SEAL_COMMIT\",\"sectorSize\":\"2048\","
    "\"registeredProof\":\"5\",\"priority\":\"NORMAL\",\"vanillaProof\":\"eyJhIjoxfQ==\",\"sectorNumber\":\"1\","
    "\"minerId\":\"1000\"}",
    "{\"proof_kind\":3,\"vanilla_proofs\":[\"AAEC\",\"_-8\",\"\"],\"randomness\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAA=\",\"partition_index\":\"7\",\"miner_id\":1e3}",
    "{\"commROld\":\"AQ==\",\"commRNew\":\"Ag\",\"commDNew\":null,\"priority\":4,\"sectorSize\":18446744073709551615}",
    "{\"circuitId\":\"demo\",\"bogus\":[1,{\"a\":\"\\u00e9\"}]}",
};

/* czk_fil_request_free, which lives in request.c with the rest of
 * src/filecoin; this harness builds request_json.c alone */
static void request_release(czk_fil_request *r) {
    free(r->request_id);
    free(r->vanilla_proof.data);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) free(r->vanilla_proofs[i].data);
    free(r->vanilla_proofs);
    free(r->randomness.data);
    free(r->comm_r_old.data);
    free(r->comm_r_new.data);
    free(r->comm_d_new.data);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    for (size_t i = 0; i < sizeof SEEDS / sizeof *SEEDS; i++) {
        char name[32];
        snprintf(name, sizeof name, "request-%zu", i);
        fuzz_seed(name, SEEDS[i], strlen(SEEDS[i]));
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char msg[512];
    czk_fil_request r, d;
    czk_err e = czk_fil_request_from_json((const char *)data, size, &r, msg, sizeof msg);
    if (e != CZK_OK) {
        czk_fil_request zero;
        memset(&zero, 0, sizeof zero);
        FUZZ_ASSERT(e == CZK_ERR_FORMAT && msg[0] && !memcmp(&r, &zero, sizeof r));
        return 0;
    }
    char *a, *b;
    size_t na, nb;
    FUZZ_ASSERT(czk_fil_request_to_json(&r, &a, &na) == CZK_OK);
    FUZZ_ASSERT(czk_fil_request_from_json(a, na, &d, msg, sizeof msg) == CZK_OK);
    FUZZ_ASSERT(czk_fil_request_to_json(&d, &b, &nb) == CZK_OK);
    FUZZ_ASSERT(na == nb && memcmp(a, b, na) == 0);
    FUZZ_ASSERT(d.kind == r.kind && d.priority == r.priority && d.miner_id == r.miner_id &&
                d.n_vanilla_proofs == r.n_vanilla_proofs && d.vanilla_proof.len == r.vanilla_proof.len);
    free(a);
    free(b);
    request_release(&r);
    request_release(&d);
    return 0;
}
