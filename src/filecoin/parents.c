/* The SDR parent graph. Sources (rust-fil-proofs):
 * - storage-proofs-core/src/drgraph.rs: BASE_DEGREE = 6, BucketGraph::parents, derive_drg_seed
 * - storage-proofs-core/src/crypto/mod.rs: DRSAMPLE_DST, FEISTEL_DST, derive_porep_domain_seed
 * - storage-proofs-core/src/crypto/feistel.rs: FEISTEL_ROUNDS = 3, precompute, permute, feistel
 * - storage-proofs-porep/src/stacked/vanilla/graph.rs: EXP_DEGREE = 8, derive_feistel_keys,
 *   correspondent, the identifier string
 * - storage-proofs-porep/src/stacked/vanilla/cache.rs: entry layout, cache_path
 * - rand_chacha 0.3 ChaCha8Rng::from_seed (key = seed, 64-bit block counter from 0, stream 0) and
 *   rand_core 0.6 BlockRng::next_u64 (two consecutive output words, low first) */
#include <stdio.h>
#include <string.h>

#include "czk/filecoin_graph.h"
#include "prim.h"

#define FAIL(code, ...)                                          \
    do {                                                         \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__);   \
        return code;                                             \
    } while (0)

static uint64_t load64_le(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static uint32_t load32_le(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool domain_seed(const char *tag, const uint8_t porep_id[32], uint8_t out[32]) {
    const void *p[2] = {tag, porep_id};
    const size_t l[2] = {strlen(tag), 32};
    return czk_fil_sha256(p, l, 2, out);
}

czk_err czk_fil_graph_init(czk_fil_graph *g, uint64_t nodes, const uint8_t porep_id[32], czk_fil_api api,
                           char *msg, size_t msglen) {
    if (nodes < 2 || nodes > UINT32_MAX)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "graph of %llu nodes: must be in [2, 2^32)", (unsigned long long)nodes);
    if (api != CZK_FIL_API_1_0 && api != CZK_FIL_API_1_1 && api != CZK_FIL_API_1_2)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "unknown API version %d", (int)api);
    memset(g, 0, sizeof *g);
    g->nodes = nodes;
    g->api = api;
    uint8_t h[32];
    if (!domain_seed("Filecoin_DRSample", porep_id, h)) FAIL(CZK_ERR_NO_MEMORY, "SHA-256 failed");
    memcpy(g->drg_seed, h, 28);
    if (!domain_seed("Filecoin_Feistel", porep_id, h)) FAIL(CZK_ERR_NO_MEMORY, "SHA-256 failed");
    for (int i = 0; i < 4; i++) g->feistel_keys[i] = load64_le(h + 8 * i);
    /* feistel.rs precompute(8 · nodes): the least 4^k >= n, k >= 1 */
    const uint64_t n = nodes * CZK_FIL_EXP_DEGREE;
    uint64_t pow4 = 4;
    unsigned log4 = 1;
    while (pow4 < n) {
        pow4 *= 4;
        log4++;
    }
    g->half_bits = log4;
    g->right_mask = (1ull << log4) - 1;
    g->left_mask = g->right_mask << log4;
    return CZK_OK;
}

/* ---- DRG ------------------------------------------------------------------- */

/* ChaCha8 output words 0..31 of the stream keyed by seed (blocks 0 and 1;
 * five parents take 20). */
static void chacha8_words(const uint8_t seed[32], uint32_t w[32]) {
    uint32_t st[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; i++) st[4 + i] = load32_le(seed + 4 * i);
    /* st[12], st[13]: block counter; st[14], st[15]: stream, 0 */
    czk_fil_chacha_block(st, 4, w);
    st[12] = 1;
    czk_fil_chacha_block(st, 4, w + 16);
}

/* ceil(log2(x)) for x >= 2. It equals Rust's (x as f64).log2().ceil() for the
 * metagraph sizes here (x < 5 · 2^32 < 2^35): log2 of a non-power of two that
 * small is at least 4e-11 above an integer, far beyond f64 rounding (the two
 * would part only near 2^52). */
static uint64_t ceil_log2(uint64_t x) { return 64 - (uint64_t)__builtin_clzll(x - 1); }

void czk_fil_graph_drg_parents(const czk_fil_graph *g, uint32_t node, uint32_t out[CZK_FIL_DRG_DEGREE]) {
    if (node < 2) {
        for (int i = 0; i < CZK_FIL_DRG_DEGREE; i++) out[i] = 0;
        return;
    }
    uint8_t seed[32];
    memcpy(seed, g->drg_seed, 28);
    for (int i = 0; i < 4; i++) seed[28 + i] = (uint8_t)(node >> (8 * i));
    uint32_t w[32];
    chacha8_words(seed, w);
    unsigned wi = 0;
#define NEXT64() (wi += 2, (uint64_t)w[wi - 2] | (uint64_t)w[wi - 1] << 32)
    const uint64_t m_prime = CZK_FIL_DRG_DEGREE - 1;
    const uint64_t meta = (uint64_t)node * m_prime;
    const uint64_t n_buckets = ceil_log2(meta);
    const int legacy = g->api == CZK_FIL_API_1_0;
    uint32_t *others = legacy ? out : out + 1;
    for (uint64_t k = 0; k < m_prime; k++) {
        const uint64_t bucket = NEXT64() % n_buckets + 1;
        const uint64_t largest = meta < (1ull << bucket) ? meta : (1ull << bucket);
        const uint64_t smallest = (largest >> 1) > 2 ? (largest >> 1) : 2;
        const uint64_t distance = smallest + NEXT64() % (largest - smallest + 1);
        const uint32_t mapped = (uint32_t)((meta - distance) / m_prime);
        others[k] = mapped == node ? node - 1 : mapped;
    }
#undef NEXT64
    out[legacy ? m_prime : 0] = node - 1;
}

/* ---- expander ---------------------------------------------------------------- */

static inline uint64_t bswap64(uint64_t x) { return __builtin_bswap64(x); }

/* feistel.rs feistel(): the first 8 bytes (big-endian) of BLAKE2b-512 of
 * right and key as 8-byte big-endian each, masked */
static inline uint64_t round_fn(uint64_t right, uint64_t key, uint64_t mask) {
    return bswap64(czk_fil_blake2b512_16_head(bswap64(right), bswap64(key))) & mask;
}

static uint64_t feistel_encode(const czk_fil_graph *g, uint64_t index) {
    uint64_t left = (index & g->left_mask) >> g->half_bits;
    uint64_t right = index & g->right_mask;
    for (int r = 0; r < 3; r++) {
        const uint64_t l = right;
        right = left ^ round_fn(right, g->feistel_keys[r], g->right_mask);
        left = l;
    }
    return (left << g->half_bits) | right;
}

void czk_fil_graph_exp_parents(const czk_fil_graph *g, uint32_t node, uint32_t out[CZK_FIL_EXP_DEGREE]) {
    const uint64_t n = g->nodes * CZK_FIL_EXP_DEGREE;
    for (uint32_t i = 0; i < CZK_FIL_EXP_DEGREE; i++) {
        uint64_t u = feistel_encode(g, (uint64_t)node * CZK_FIL_EXP_DEGREE + i);
        while (u >= n) u = feistel_encode(g, u);
        /* API 1.0 truncates to u32 before dividing (graph.rs correspondent) */
        out[i] = g->api == CZK_FIL_API_1_0 ? (uint32_t)u / CZK_FIL_EXP_DEGREE : (uint32_t)(u / CZK_FIL_EXP_DEGREE);
    }
}

void czk_fil_graph_parents(const czk_fil_graph *g, uint32_t node, uint32_t out[CZK_FIL_DEGREE]) {
    czk_fil_graph_drg_parents(g, node, out);
    czk_fil_graph_exp_parents(g, node, out + CZK_FIL_DRG_DEGREE);
}

czk_err czk_fil_graph_cache_fill(const czk_fil_graph *g, uint64_t first, uint64_t count, uint8_t *out,
                                 char *msg, size_t msglen) {
    if (first > g->nodes || count > g->nodes - first)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "nodes [%llu, +%llu) beyond the graph's %llu", (unsigned long long)first,
             (unsigned long long)count, (unsigned long long)g->nodes);
    for (uint64_t k = 0; k < count; k++) {
        uint32_t p[CZK_FIL_DEGREE];
        czk_fil_graph_parents(g, (uint32_t)(first + k), p);
        uint8_t *e = out + k * CZK_FIL_CACHE_ENTRY_BYTES;
        for (int i = 0; i < CZK_FIL_DEGREE; i++) {
            e[4 * i] = (uint8_t)p[i];
            e[4 * i + 1] = (uint8_t)(p[i] >> 8);
            e[4 * i + 2] = (uint8_t)(p[i] >> 16);
            e[4 * i + 3] = (uint8_t)(p[i] >> 24);
        }
    }
    return CZK_OK;
}

czk_err czk_fil_graph_cache_name(const czk_fil_graph *g, char *out, size_t cap) {
    if (cap < 80) return CZK_ERR_INVALID_ARGUMENT;
    char id[192];
    const int idlen = snprintf(id, sizeof id,
                               "stacked_graph::StackedGraph{expansion_degree: %d base_graph: "
                               "drgraph::BucketGraph{size: %llu; degree: %d; hasher: poseidon_hasher} }",
                               CZK_FIL_EXP_DEGREE, (unsigned long long)g->nodes, CZK_FIL_DRG_DEGREE);
    uint8_t keys[32];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) keys[8 * i + j] = (uint8_t)(g->feistel_keys[i] >> (8 * j));
    const uint32_t entries = (uint32_t)g->nodes;
    const uint8_t e[4] = {(uint8_t)entries, (uint8_t)(entries >> 8), (uint8_t)(entries >> 16), (uint8_t)(entries >> 24)};
    const void *p[4] = {"poseidon_hasher", id, keys, e};
    const size_t l[4] = {15, (size_t)idlen, 32, 4};
    uint8_t h[32];
    if (!czk_fil_sha256(p, l, 4, h)) return CZK_ERR_NO_MEMORY;
    int n = snprintf(out, cap, "v28-sdr-parent-");
    for (int i = 0; i < 32; i++) n += snprintf(out + n, cap - (size_t)n, "%02x", h[i]);
    return CZK_OK;
}
