/* czk — neptune's PoseidonConstants for BLS12-381 Fr (Strength::Standard,
 * HashType::MerkleTree), computed as neptune 11 computes them:
 *   round numbers     round_numbers.rs calc_round_numbers(t, true)
 *   round constants   round_constants.rs generate_constants (Grain LFSR)
 *   MDS               mds.rs generate_mds (Cauchy), derive_mds_matrices
 *   compression       preprocessing.rs compress_round_constants (fully preprocessed)
 *   sparse matrices   mds.rs factor_to_sparse_matrixes
 * Matrix inverses are unique, so any exact elimination gives neptune's. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "czk/poseidon.h"

#define W CZK_POSEIDON_MAX_WIDTH
typedef czk_fr mat[W][W];

/* ---- round numbers ------------------------------------------------------------ */

/* round_numbers_are_secure, in f32 as neptune evaluates it (n = 256, M = 128). */
static bool rounds_secure(unsigned t, unsigned rf, unsigned rp) {
    const float n = 256.0f, m = 128.0f;
    float ft = (float)t, frp = (float)rp;
    float rf_stat = m <= (n - 3.0f) * (ft + 1.0f) ? 6.0f : 10.0f;
    float rf_interp = 0.43f * m + log2f(ft) - frp;
    float rf_grob_1 = 0.21f * n - frp;
    float rf_grob_2 = (0.14f * n - 1.0f - frp) / (ft - 1.0f);
    float cand[4] = {rf_stat, rf_interp, rf_grob_1, rf_grob_2};
    unsigned rf_max = 0;
    for (int i = 0; i < 4; i++) {
        float c = ceilf(cand[i]);
        unsigned u = c <= 0.0f ? 0u : (unsigned)c; /* Rust's saturating `as usize` */
        if (u > rf_max) rf_max = u;
    }
    return rf >= rf_max;
}

/* calc_round_numbers(t, security_margin = true). As in neptune, the +2 added
 * to rf_test inside the inner loop persists for the rest of that inner loop. */
static void calc_round_numbers(unsigned t, unsigned *rf_out, unsigned *rp_out) {
    unsigned rf = 0, rp = 0;
    size_t min_sboxes = (size_t)-1;
    for (unsigned rf_base = 2; rf_base <= 1000; rf_base += 2) {
        unsigned rf_test = rf_base;
        for (unsigned rp_base = 4; rp_base < 200; rp_base++) {
            if (!rounds_secure(t, rf_test, rp_base)) continue;
            rf_test += 2;
            unsigned rp_test = (unsigned)ceilf(1.075f * (float)rp_base);
            size_t sboxes = (size_t)t * rf_test + rp_test;
            if (sboxes < min_sboxes || (sboxes == min_sboxes && rf_test < rf)) {
                rf = rf_test;
                rp = rp_test;
                min_sboxes = sboxes;
            }
        }
    }
    *rf_out = rf;
    *rp_out = rp;
}

bool czk_poseidon_round_numbers(unsigned arity, unsigned *full_rounds, unsigned *partial_rounds) {
    if (arity < CZK_POSEIDON_MIN_ARITY || arity > CZK_POSEIDON_MAX_ARITY) return false;
    calc_round_numbers(arity + 1, full_rounds, partial_rounds);
    return true;
}

/* ---- Grain LFSR round constants ------------------------------------------------- */

typedef struct {
    uint8_t s[80]; /* circular: bit i of the state is s[(head + i) % 80] */
    unsigned head;
} grain;

static bool grain_step(grain *g) {
    unsigned h = g->head;
#define B(i) g->s[(h + (i)) % 80]
    uint8_t nb = B(62) ^ B(51) ^ B(38) ^ B(23) ^ B(13) ^ B(0);
#undef B
    g->s[h] = nb; /* drop bit 0, append the new bit */
    g->head = (h + 1) % 80;
    return nb;
}

static void grain_append(grain *g, unsigned *pos, unsigned nbits, uint32_t v) {
    for (unsigned i = nbits; i-- > 0;) g->s[(*pos)++] = (uint8_t)((v >> i) & 1);
}

/* Self-shrinking output: pairs (a, b); output b when a is 1. */
static bool grain_bit(grain *g) {
    while (!grain_step(g)) (void)grain_step(g);
    return grain_step(g);
}

static uint8_t grain_byte(grain *g, unsigned nbits) {
    uint8_t acc = 0;
    for (unsigned i = 0; i < nbits; i++) acc = (uint8_t)(acc << 1 | grain_bit(g));
    return acc;
}

/* generate_constants(field 1, sbox 1, field_size 255, t, R_F, R_P): 32-byte
 * big-endian samples whose first byte holds 255 % 8 = 7 bits, rejected when
 * >= r. */
static void grain_constants(czk_fr *out, unsigned t, unsigned rf, unsigned rp) {
    grain g = {{0}, 0};
    unsigned pos = 0;
    grain_append(&g, &pos, 2, 1);    /* field: prime */
    grain_append(&g, &pos, 4, 1);    /* S-box: x^alpha */
    grain_append(&g, &pos, 12, 255); /* field size in bits */
    grain_append(&g, &pos, 12, t);
    grain_append(&g, &pos, 10, rf);
    grain_append(&g, &pos, 10, rp);
    grain_append(&g, &pos, 30, 0x3fffffffu);
    for (int i = 0; i < 160; i++) (void)grain_step(&g);
    size_t n = (size_t)(rf + rp) * t;
    for (size_t k = 0; k < n;) {
        uint8_t be[32];
        be[0] = grain_byte(&g, 7);
        for (int i = 1; i < 32; i++) be[i] = grain_byte(&g, 8);
        if (czk_fr_from_bytes_be(&out[k], be)) k++;
    }
}

/* ---- matrices (rows; t×t in the top-left of a W×W array) ----------------------- */

static void fr_u64(czk_fr *r, uint64_t v) { czk_fr_from_u64(r, v); }

/* r = a·b (r may alias neither) */
static void mat_mul(mat r, const mat a, const mat b, unsigned t) {
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            czk_fr acc, p;
            czk_fr_set_zero(&acc);
            for (unsigned k = 0; k < t; k++) {
                czk_fr_mul(&p, &a[i][k], &b[k][j]);
                czk_fr_add(&acc, &acc, &p);
            }
            r[i][j] = acc;
        }
}

/* Gauss–Jordan inverse of the n×n matrix a; false when singular. x is
 * scratch. */
static bool mat_inv(mat r, const mat a, unsigned n, mat x) {
    memcpy(x, a, sizeof(mat));
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            if (i == j) czk_fr_set_one(&r[i][j]);
            else czk_fr_set_zero(&r[i][j]);
        }
    for (unsigned c = 0; c < n; c++) {
        unsigned p = c;
        while (p < n && czk_fr_is_zero(&x[p][c])) p++;
        if (p == n) return false;
        if (p != c)
            for (unsigned j = 0; j < n; j++) {
                czk_fr tmp = x[p][j];
                x[p][j] = x[c][j], x[c][j] = tmp;
                tmp = r[p][j];
                r[p][j] = r[c][j], r[c][j] = tmp;
            }
        czk_fr inv;
        czk_fr_inv(&inv, &x[c][c]);
        for (unsigned j = 0; j < n; j++) {
            czk_fr_mul(&x[c][j], &x[c][j], &inv);
            czk_fr_mul(&r[c][j], &r[c][j], &inv);
        }
        for (unsigned i = 0; i < n; i++) {
            if (i == c || czk_fr_is_zero(&x[i][c])) continue;
            czk_fr f = x[i][c], p2;
            for (unsigned j = 0; j < n; j++) {
                czk_fr_mul(&p2, &f, &x[c][j]);
                czk_fr_sub(&x[i][j], &x[i][j], &p2);
                czk_fr_mul(&p2, &f, &r[c][j]);
                czk_fr_sub(&r[i][j], &r[i][j], &p2);
            }
        }
    }
    return true;
}

/* matrix.rs apply_matrix: out = v·m (v a row vector); out may not alias v. */
static void apply_matrix(czk_fr *out, const mat m, const czk_fr *v, unsigned t) {
    for (unsigned j = 0; j < t; j++) {
        czk_fr acc, p;
        czk_fr_set_zero(&acc);
        for (unsigned i = 0; i < t; i++) {
            czk_fr_mul(&p, &m[i][j], &v[i]);
            czk_fr_add(&acc, &acc, &p);
        }
        out[j] = acc;
    }
}

/* ---- sparse factorisation ------------------------------------------------------- */

/* Scratch matrices for the preprocessing (too large for a thread's stack). */
typedef struct {
    mat curr, prime, hat, hat_inv, x;
} scratch;

/* One step of factor_to_sparse_matrices: from curr, derive_mds_matrices'
 * m_prime and m_double_prime (stored as w_hat / v_rest). */
static bool derive_sparse(scratch *s, czk_fr *w_hat, czk_fr *v_rest, unsigned t) {
    czk_fr(*m_prime)[W] = s->prime, (*hat)[W] = s->hat, (*hat_inv)[W] = s->hat_inv;
    const czk_fr(*curr)[W] = (const czk_fr(*)[W])s->curr;
    for (unsigned i = 1; i < t; i++)
        for (unsigned j = 1; j < t; j++) hat[i - 1][j - 1] = curr[i][j];
    if (!mat_inv(hat_inv, (const czk_fr(*)[W])hat, t - 1, s->x)) return false;
    /* make_prime: row 0 = e_0; row i = [0, curr[i][1..]] */
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            if (i == 0) {
                if (j == 0) czk_fr_set_one(&m_prime[i][j]);
                else czk_fr_set_zero(&m_prime[i][j]);
            } else {
                if (j == 0) czk_fr_set_zero(&m_prime[i][j]);
                else m_prime[i][j] = curr[i][j];
            }
        }
    /* make_double_prime: v = curr[0][1..], w = curr[1..][0], w_hat = w·hat_inv;
     * SparseMatrix::new keeps the first column [curr[0][0], w_hat…] and v. */
    czk_fr w[W], wh[W];
    for (unsigned i = 1; i < t; i++) w[i - 1] = curr[i][0];
    apply_matrix(wh, (const czk_fr(*)[W])hat_inv, w, t - 1);
    w_hat[0] = curr[0][0];
    for (unsigned i = 1; i < t; i++) w_hat[i] = wh[i - 1];
    for (unsigned j = 1; j < t; j++) v_rest[j - 1] = curr[0][j];
    return true;
}

/* ---- the whole set -------------------------------------------------------------- */

czk_err czk_poseidon_constants_compute(czk_poseidon_constants *c, unsigned arity) {
    unsigned rf, rp;
    if (!czk_poseidon_round_numbers(arity, &rf, &rp)) return CZK_ERR_INVALID_ARGUMENT;
    if (rf != CZK_POSEIDON_FULL_ROUNDS || rp > CZK_POSEIDON_MAX_PARTIAL_ROUNDS) return CZK_ERR_UNSUPPORTED;
    memset(c, 0, sizeof *c);
    unsigned t = arity + 1, h = rf / 2;
    c->arity = arity, c->width = t;
    c->full_rounds = rf, c->half_full_rounds = h, c->partial_rounds = rp;
    fr_u64(&c->domain_tag, ((uint64_t)1 << arity) - 1);

    grain_constants(c->round_constants, t, rf, rp);

    /* generate_mds: Cauchy 1/(x_i + y_j), x = 0..t-1, y = t..2t-1 */
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            fr_u64(&c->mds[i][j], i + t + j);
            czk_fr_inv(&c->mds[i][j], &c->mds[i][j]);
        }
    scratch *sc = malloc(sizeof *sc);
    if (!sc) return CZK_ERR_NO_MEMORY;
    czk_err e = CZK_ERR_UNSUPPORTED;
    if (!mat_inv(c->mds_inv, (const czk_fr(*)[W])c->mds, t, sc->x)) goto out;

    /* compress_round_constants(…, partial_preprocessed = R_P) */
    const czk_fr *rc = c->round_constants;
    czk_fr *out = c->compressed_round_constants;
    size_t o = 0;
    for (unsigned i = 0; i < t; i++) out[o++] = rc[i];
    for (unsigned r = 1; r < h; r++, o += t) apply_matrix(&out[o], (const czk_fr(*)[W])c->mds_inv, &rc[r * t], t);
    czk_fr acc[W], inv[W], partial_keys[CZK_POSEIDON_MAX_PARTIAL_ROUNDS];
    unsigned final_round = h + rp;
    memcpy(acc, &rc[final_round * t], t * sizeof *acc);
    for (unsigned i = 0; i < rp; i++) {
        const czk_fr *prev = &rc[(final_round - i - 1) * t];
        apply_matrix(inv, (const czk_fr(*)[W])c->mds_inv, acc, t);
        partial_keys[i] = inv[0];
        czk_fr_set_zero(&inv[0]);
        for (unsigned j = 0; j < t; j++) czk_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    apply_matrix(&out[o], (const czk_fr(*)[W])c->mds_inv, acc, t);
    o += t;
    for (unsigned i = rp; i-- > 0;) out[o++] = partial_keys[i];
    for (unsigned r = 1; r < h; r++, o += t)
        apply_matrix(&out[o], (const czk_fr(*)[W])c->mds_inv, &rc[(r + final_round) * t], t);
    if (o != (size_t)rf * t + rp) goto out;

    /* factor_to_sparse_matrixes(M, R_P): curr_0 = M, curr_{k+1} = M·M'_k; the
     * sparse matrices are used in reverse order of derivation. */
    memcpy(sc->curr, c->mds, sizeof sc->curr);
    for (unsigned k = 0; k < rp; k++) {
        unsigned slot = rp - 1 - k;
        if (!derive_sparse(sc, c->sparse_w_hat[slot], c->sparse_v_rest[slot], t)) goto out;
        mat_mul(sc->curr, (const czk_fr(*)[W])c->mds, (const czk_fr(*)[W])sc->prime, t);
    }
    memcpy(c->pre_sparse, sc->curr, sizeof sc->curr);
    e = CZK_OK;
out:
    free(sc);
    return e;
}

/* ---- the process-wide cache ----------------------------------------------------- */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(czk_poseidon_constants *) cache[CZK_POSEIDON_MAX_ARITY + 1];

const czk_poseidon_constants *czk_poseidon_constants_get(unsigned arity) {
    if (arity < CZK_POSEIDON_MIN_ARITY || arity > CZK_POSEIDON_MAX_ARITY) return NULL;
    czk_poseidon_constants *c = atomic_load_explicit(&cache[arity], memory_order_acquire);
    if (c) return c;
    pthread_mutex_lock(&cache_lock);
    c = atomic_load_explicit(&cache[arity], memory_order_relaxed);
    if (!c) {
        c = malloc(sizeof *c); /* lives for the process */
        if (c && czk_poseidon_constants_compute(c, arity) != CZK_OK) {
            free(c);
            c = NULL;
        }
        if (c) atomic_store_explicit(&cache[arity], c, memory_order_release);
    }
    pthread_mutex_unlock(&cache_lock);
    return c;
}

static pthread_mutex_t gen_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(czk_poseidon_constants *) gen_cache;

const czk_poseidon_constants *czk_poseidon_constants_gen_randomness(void) {
    czk_poseidon_constants *c = atomic_load_explicit(&gen_cache, memory_order_acquire);
    if (c) return c;
    pthread_mutex_lock(&gen_lock);
    c = atomic_load_explicit(&gen_cache, memory_order_relaxed);
    if (!c) {
        c = malloc(sizeof *c); /* lives for the process */
        if (c && czk_poseidon_constants_compute(c, 2) != CZK_OK) {
            free(c);
            c = NULL;
        }
        if (c) {
            /* x_pow2(id, 40) */
            fr_u64(&c->domain_tag, (uint64_t)CZK_POSEIDON_GEN_RANDOMNESS_ID << 40);
            atomic_store_explicit(&gen_cache, c, memory_order_release);
        }
    }
    pthread_mutex_unlock(&gen_lock);
    return c;
}
