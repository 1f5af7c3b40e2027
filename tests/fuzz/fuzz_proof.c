/* libFuzzer: czk_proof_decode on the first 192 bytes and czk_proofs_decode
 * on the whole input. Decoded proofs must re-encode to the input bytes. */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    czk_proof p[3];
    for (int i = 0; i < 3; i++) {
        fuzz_g1(&p[i].a, 3 + (uint64_t)i);
        fuzz_g2(&p[i].b, 5 + (uint64_t)i);
        fuzz_g1(&p[i].c, 7 + (uint64_t)i);
    }
    uint8_t buf[3 * CZK_PROOF_BYTES];
    czk_proofs_encode(buf, p, 3);
    fuzz_seed("proof-1", buf, CZK_PROOF_BYTES);
    fuzz_seed("proof-3", buf, sizeof buf);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char msg[512];
    uint8_t again[CZK_PROOF_BYTES];
    if (size >= CZK_PROOF_BYTES) {
        czk_proof p;
        czk_err e = czk_proof_decode(&p, data, msg, sizeof msg);
        FUZZ_ASSERT(e == CZK_OK || (e == CZK_ERR_FORMAT && msg[0]));
        if (e == CZK_OK) {
            czk_proof_encode(again, &p);
            FUZZ_ASSERT(memcmp(again, data, CZK_PROOF_BYTES) == 0);
        }
    }
    czk_proof *ps;
    size_t n;
    czk_err e = czk_proofs_decode(&ps, &n, data, size, msg, sizeof msg);
    if (e != CZK_OK) {
        FUZZ_ASSERT(e == CZK_ERR_FORMAT && msg[0] && ps == NULL && n == 0);
        return 0;
    }
    FUZZ_ASSERT(n * CZK_PROOF_BYTES == size);
    for (size_t i = 0; i < n; i++) {
        czk_proof_encode(again, &ps[i]);
        FUZZ_ASSERT(memcmp(again, data + i * CZK_PROOF_BYTES, CZK_PROOF_BYTES) == 0);
    }
    free(ps);
    return 0;
}
