/* czk — SnapDeals randomness (include/czk/filecoin_update.h): phi and rho
 * (storage-proofs-update vanilla.rs) and the partition challenges
 * (challenges.rs), all Poseidon of arity 2 with
 * POSEIDON_CONSTANTS_GEN_RANDOMNESS. */
#include <string.h>

#include "czk/filecoin_update.h"
#include "czk/poseidon.h"
#include "snap_internal.h"

czk_err czk_fil_update_hash2(czk_fr *out, const czk_fr *a, const czk_fr *b) {
    const czk_poseidon_constants *c = czk_poseidon_constants_gen_randomness();
    if (!c) return CZK_ERR_NO_MEMORY;
    const czk_fr in[2] = {*a, *b};
    czk_poseidon_hash_with(out, c, in);
    return CZK_OK;
}

czk_err czk_fil_update_phi(const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], uint8_t phi[32]) {
    czk_fr d, r, h;
    if (!czk_fr_from_bytes_le(&d, comm_d_new) || !czk_fr_from_bytes_le(&r, comm_r_old)) return CZK_ERR_NOT_CANONICAL;
    czk_err e = czk_fil_update_hash2(&h, &d, &r);
    if (!e) czk_fr_to_bytes_le(phi, &h);
    return e;
}

czk_err czk_fil_update_rho_fr(const czk_fr *phi, uint32_t high, czk_fr *rho) {
    czk_fr hi;
    czk_fr_from_u64(&hi, high);
    return czk_fil_update_hash2(rho, phi, &hi);
}

czk_err czk_fil_update_rho(const uint8_t phi[32], uint32_t high, uint8_t rho[32]) {
    czk_fr f, r;
    if (!czk_fr_from_bytes_le(&f, phi)) return CZK_ERR_NOT_CANONICAL;
    czk_err e = czk_fil_update_rho_fr(&f, high, &r);
    if (!e) czk_fr_to_bytes_le(rho, &r);
    return e;
}

czk_err czk_fil_update_challenges(uint64_t sector_nodes, const uint8_t comm_r_new[32], uint32_t k, uint32_t count,
                                  uint64_t *out) {
    czk_fil_update_facts f;
    if (czk_fil_update_facts_get(sector_nodes, &f) || k >= f.partitions) return CZK_ERR_INVALID_ARGUMENT;
    czk_fr comm;
    if (!czk_fr_from_bytes_le(&comm, comm_r_new)) return CZK_ERR_NOT_CANONICAL;
    const unsigned bits = f.challenge_bits - f.partition_bits;  /* random_bits_per_challenge */
    const unsigned per_digest = 254 / bits;                      /* Fr::CAPACITY / bits */
    const uint64_t digests = (f.challenges + per_digest - 1) / per_digest; /* digests_per_partition */
    uint64_t digest_index = (uint64_t)k * digests;
    const uint64_t partition_bits = (uint64_t)k << bits;
    uint8_t digest[32];
    for (uint32_t n = 0, i = 0; n < count; n++) {
        if (i == 0) {
            czk_fr j, d;
            czk_fr_from_u64(&j, digest_index);
            czk_err e = czk_fil_update_hash2(&d, &comm, &j);
            if (e) return e;
            czk_fr_to_bytes_le(digest, &d); /* to_le_bits: bit b is byte b/8's bit b%8 */
        }
        uint64_t c = 0;
        for (unsigned b = 0; b < bits; b++) {
            unsigned at = i * bits + b;
            c |= (uint64_t)((digest[at / 8] >> (at % 8)) & 1) << b;
        }
        out[n] = c | partition_bits;
        if (++i == per_digest) {
            i = 0;
            digest_index++;
        }
    }
    return CZK_OK;
}

/* storage-proofs-update constants.rs, by node count (ALLOWED_SECTOR_SIZES). */
czk_err czk_fil_update_facts_get(uint64_t nodes, czk_fil_update_facts *f) {
    static const uint64_t ALLOWED[] = {1u << 5, 1u << 6, 1u << 7, 1u << 8, 1u << 9, 1u << 10,
                                       1u << 18, 1u << 19, 1u << 24, 1ull << 30, 1ull << 31};
    memset(f, 0, sizeof *f);
    size_t i = 0;
    while (i < sizeof ALLOWED / sizeof ALLOWED[0] && ALLOWED[i] != nodes) i++;
    if (i == sizeof ALLOWED / sizeof ALLOWED[0]) return CZK_ERR_INVALID_ARGUMENT;
    f->nodes = nodes;
    f->partitions = nodes <= 1u << 8 ? 1 : nodes <= 1u << 10 ? 2 : nodes <= 1u << 19 ? 4 : 16;
    f->challenges = nodes <= 1u << 19 ? 10 : 86;
    f->apex_leaves = nodes <= 1u << 8 ? 8 : 128;
    for (unsigned j = 0; j < 6; j++) f->hs[j] = nodes <= 1u << 10 ? 1 : 7 + j;
    while ((1ull << f->challenge_bits) < nodes) f->challenge_bits++;
    while ((1u << f->partition_bits) < f->partitions) f->partition_bits++;
    while ((1u << f->apex_bits) < f->apex_leaves) f->apex_bits++;
    return CZK_OK;
}
