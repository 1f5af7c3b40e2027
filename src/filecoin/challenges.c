/* Prover id, replica id and the interactive and non-interactive challenge
 * derivation. Sources:
 * - prover id: filecoin-ffi proofs.go toProverID (address.NewIDAddress(id).Payload(), copied into
 *   32 bytes); go-address: an ID address's payload is the unsigned varint (LEB128) of the id
 * - replica id: storage-proofs-porep/src/stacked/vanilla/params.rs generate_replica_id (sector id
 *   u64 big-endian), fr32/src/convert.rs bytes_into_fr_repr_safe (byte 31 &= 0x3f); filecoin-proofs
 *   src/api/seal.rs passes porep_config.porep_id as porep_seed
 * - challenges: storage-proofs-porep/src/stacked/vanilla/challenges.rs InteractiveChallenges::derive,
 *   NiChallenges::derive, bigint_to_challenge */
#include <stdio.h>
#include <string.h>

#include "czk/filecoin.h"
#include "prim.h"

#define FAIL(code, ...)                                          \
    do {                                                         \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__);   \
        return code;                                             \
    } while (0)

void czk_fil_prover_id(uint64_t miner_id, uint8_t out[32]) {
    memset(out, 0, 32);
    int i = 0;
    do {
        uint8_t b = miner_id & 0x7f;
        miner_id >>= 7;
        if (miner_id) b |= 0x80;
        out[i++] = b;
    } while (miner_id);
}

czk_err czk_fil_replica_id(const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                        const uint8_t comm_d[32], const uint8_t porep_id[32], uint8_t out[32]) {
    uint8_t sid[8];
    for (int i = 0; i < 8; i++) sid[i] = (uint8_t)(sector_id >> (56 - 8 * i));
    const void *p[5] = {prover_id, sid, ticket, comm_d, porep_id};
    const size_t l[5] = {32, 8, 32, 32, 32};
    if (!czk_fil_sha256(p, l, 5, out)) return CZK_ERR_NO_MEMORY;
    out[31] &= 0x3f;
    return CZK_OK;
}

/* 1 + (h as a 256-bit little-endian integer) mod m, m >= 1 */
static uint64_t to_challenge(const uint8_t h[32], uint64_t m) {
    unsigned __int128 r = 0;
    for (int i = 31; i >= 0; i--) r = ((r << 8) | h[i]) % m;
    return 1 + (uint64_t)r;
}

static czk_err check(uint64_t nodes, uint32_t k, uint32_t count, char *msg, size_t msglen) {
    if (nodes < 2 || nodes > (1ull << 32))
        FAIL(CZK_ERR_INVALID_ARGUMENT, "sector of %llu nodes: must be in [2, 2^32]", (unsigned long long)nodes);
    if ((uint64_t)count * k + count > (1ull << 32))
        FAIL(CZK_ERR_INVALID_ARGUMENT, "challenge index %llu beyond u32",
             (unsigned long long)((uint64_t)count * k + count - 1));
    return CZK_OK;
}

czk_err czk_fil_challenges_interactive(uint64_t nodes, const uint8_t replica_id[32], const uint8_t seed[32],
                                       uint32_t k, uint32_t count, uint64_t *out, char *msg, size_t msglen) {
    czk_err e = check(nodes, k, count, msg, msglen);
    if (e != CZK_OK) return e;
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t j = count * k + i;
        const uint8_t jb[4] = {(uint8_t)j, (uint8_t)(j >> 8), (uint8_t)(j >> 16), (uint8_t)(j >> 24)};
        const void *p[3] = {replica_id, seed, jb};
        const size_t l[3] = {32, 32, 4};
        uint8_t h[32];
        if (!czk_fil_sha256(p, l, 3, h)) FAIL(CZK_ERR_NO_MEMORY, "SHA-256 failed");
        out[i] = to_challenge(h, nodes - 1);
    }
    return CZK_OK;
}

czk_err czk_fil_challenges_non_interactive(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                           uint32_t k, uint32_t count, uint64_t *out, char *msg, size_t msglen) {
    static const char TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
    czk_err e = check(nodes, k, count, msg, msglen);
    if (e != CZK_OK) return e;
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t j = count * k + i;
        const uint8_t jb[4] = {(uint8_t)j, (uint8_t)(j >> 8), (uint8_t)(j >> 16), (uint8_t)(j >> 24)};
        const void *p[4] = {TAG, replica_id, comm_r, jb};
        const size_t l[4] = {sizeof TAG - 1, 32, 32, 4};
        uint8_t h[32];
        if (!czk_fil_sha256(p, l, 4, h)) FAIL(CZK_ERR_NO_MEMORY, "SHA-256 failed");
        out[i] = to_challenge(h, nodes - 1);
    }
    return CZK_OK;
}
