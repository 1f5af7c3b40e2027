/* Synthetic PoRep challenges. Source: storage-proofs-porep/src/stacked/vanilla/challenges.rs,
 * mod synthetic: DEFAULT_SYNTH_CHALLENGE_COUNT = 2^18, SYNTH_CHALLENGE_SIZE = 32,
 * SYNTH_INDEX_SIZE = 4, CHACHA20_NONCE = "synth-porep\0", chacha20_gen, chacha20_select
 * (blake2b_simd Params: hash_length 32, key), SynthChallengeGenerator::{next, seek,
 * gen_partition_synth_indexes, gen_porep_partition_challenges}; the chacha20 crate's ChaCha20 is
 * the IETF variant (RFC 8439). */
#include <stdio.h>
#include <string.h>

#include "czk/filecoin.h"
#include "prim.h"

#define FAIL(code, ...)                                          \
    do {                                                         \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__);   \
        return code;                                             \
    } while (0)

static const uint8_t NONCE[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

static void derive_key(const char *tag, const uint8_t a[32], const uint8_t b[32], uint8_t key[32]) {
    uint8_t m[64];
    memcpy(m, a, 32);
    memcpy(m + 32, b, 32);
    czk_fil_blake2b(key, 32, (const uint8_t *)tag, strlen(tag), m, sizeof m);
}

uint32_t czk_fil_synth_count(uint64_t nodes) { return nodes < (1u << 18) ? (uint32_t)nodes : 1u << 18; }

static uint64_t to_challenge(const uint8_t h[32], uint64_t m) {
    unsigned __int128 r = 0;
    for (int i = 31; i >= 0; i--) r = ((r << 8) | h[i]) % m;
    return 1 + (uint64_t)r;
}

static czk_err check(uint64_t nodes, uint32_t num_synth, char *msg, size_t msglen) {
    if (nodes < 2 || nodes > (1ull << 32))
        FAIL(CZK_ERR_INVALID_ARGUMENT, "sector of %llu nodes: must be in [2, 2^32]", (unsigned long long)nodes);
    if (num_synth == 0) FAIL(CZK_ERR_INVALID_ARGUMENT, "no synthetic challenges");
    return CZK_OK;
}

static uint64_t synth_one(uint64_t nodes, const uint8_t key[32], uint32_t i) {
    uint8_t x[32];
    czk_fil_chacha20_keystream(key, NONCE, (uint64_t)i * 32, x, sizeof x);
    return to_challenge(x, nodes - 1);
}

czk_err czk_fil_synth_challenge(uint64_t nodes, uint32_t num_synth, const uint8_t replica_id[32],
                                const uint8_t comm_r[32], uint32_t i, uint64_t *out, char *msg, size_t msglen) {
    czk_err e = check(nodes, num_synth, msg, msglen);
    if (e != CZK_OK) return e;
    if (i >= num_synth) FAIL(CZK_ERR_INVALID_ARGUMENT, "synthetic challenge %u of %u", i, num_synth);
    uint8_t key[32];
    derive_key("filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r, key);
    *out = synth_one(nodes, key, i);
    return CZK_OK;
}

czk_err czk_fil_challenges_synthetic(uint64_t nodes, uint32_t num_synth, const uint8_t replica_id[32],
                                     const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k, uint32_t count,
                                     uint64_t *out, char *msg, size_t msglen) {
    czk_err e = check(nodes, num_synth, msg, msglen);
    if (e != CZK_OK) return e;
    const uint64_t first = (uint64_t)count * k;
    /* the chacha20 crate seeks with a u32 byte offset */
    if ((first + count) * 4 > UINT32_MAX)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "partition %u of %u challenges beyond the keystream", k, count);
    uint8_t gen[32], sel[32];
    derive_key("filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r, gen);
    derive_key("filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed, sel);
    for (uint32_t t = 0; t < count; t++) {
        uint8_t b[4];
        czk_fil_chacha20_keystream(sel, NONCE, (first + t) * 4, b, 4);
        const uint32_t index = ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24) %
                               num_synth;
        out[t] = synth_one(nodes, gen, index);
    }
    return CZK_OK;
}
