/* czk — Fallback PoSt challenges (filecoin_post_input.h). Sources:
 * storage-proofs-post src/fallback/utils.rs get_challenge_index,
 * src/fallback/vanilla.rs generate_leaf_challenge(_inner),
 * generate_sector_challenge(s); filecoin-proofs src/api/post_util.rs
 * generate_fallback_sector_challenges (sector index k · sector_count + i). */
#include <string.h>

#include "czk/filecoin_post_input.h"
#include "prim.h"

#define NODE_SIZE 32u

static void le64(uint8_t out[8], uint64_t v) {
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t read_le64(const uint8_t in[8]) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | in[i];
    return v;
}

uint64_t czk_fil_post_challenge_index(czk_fil_api api, uint64_t sector_index, uint64_t challenge_count, uint64_t n) {
    if (api == CZK_FIL_API_1_2) return n;
    return sector_index * challenge_count + n;
}

czk_err czk_fil_post_leaf_challenge(uint64_t sector_size, const uint8_t randomness[32], uint64_t sector_id,
                                    uint64_t challenge_index, uint64_t *out) {
    if (!randomness || !out || sector_size < NODE_SIZE) return CZK_ERR_INVALID_ARGUMENT;
    uint8_t sid[8], ci[8], h[32];
    le64(sid, sector_id);
    le64(ci, challenge_index);
    const void *p[3] = {randomness, sid, ci};
    const size_t l[3] = {32, 8, 8};
    if (!czk_fil_sha256(p, l, 3, h)) return CZK_ERR_NO_MEMORY;
    *out = read_le64(h) % (sector_size / NODE_SIZE);
    return CZK_OK;
}

czk_err czk_fil_post_sector_leaf_challenges(const czk_fil_post_proof *p, const uint8_t randomness[32],
                                            uint64_t sector_id, uint64_t k, uint64_t i, uint64_t *out) {
    if (!p || !randomness || !out) return CZK_ERR_INVALID_ARGUMENT;
    const uint64_t sector_index = k * p->circuit_sector_count + i;
    for (uint32_t n = 0; n < p->circuit_challenge_count; n++) {
        const uint64_t ci = czk_fil_post_challenge_index(p->api, sector_index, p->circuit_challenge_count, n);
        czk_err e = czk_fil_post_leaf_challenge(p->sector_size, randomness, sector_id, ci, &out[n]);
        if (e) return e;
    }
    return CZK_OK;
}

czk_err czk_fil_post_sector_challenge(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t n,
                                      uint64_t sector_set_len, uint64_t *out) {
    if (!randomness || !prover_id || !out || sector_set_len == 0) return CZK_ERR_INVALID_ARGUMENT;
    uint8_t nb[8], h[32];
    le64(nb, n);
    const void *p[3] = {prover_id, randomness, nb};
    const size_t l[3] = {32, 32, 8};
    if (!czk_fil_sha256(p, l, 3, h)) return CZK_ERR_NO_MEMORY;
    *out = read_le64(h) % sector_set_len;
    return CZK_OK;
}

czk_err czk_fil_post_sector_challenges(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t count,
                                       uint64_t sector_set_len, uint64_t *out) {
    if ((count && !out) || sector_set_len == 0) return CZK_ERR_INVALID_ARGUMENT;
    for (uint64_t n = 0; n < count; n++) {
        czk_err e = czk_fil_post_sector_challenge(randomness, prover_id, n, sector_set_len, &out[n]);
        if (e) return e;
    }
    return CZK_OK;
}
