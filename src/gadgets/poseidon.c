/* czk — the native Poseidon hash (neptune 11 poseidon.rs / poseidon_alt.rs). */
#include <string.h>

#include "czk/poseidon.h"

#define W CZK_POSEIDON_MAX_WIDTH

/* neptune's quintic_s_box with a post-add: l = l^5 (+ post). 2S + 1M. */
static inline void sbox(czk_fr *l, const czk_fr *post) {
    czk_fr t;
    czk_fr_sqr(&t, l);
    czk_fr_sqr(&t, &t);
    czk_fr_mul(l, l, &t);
    if (post) czk_fr_add(l, l, post);
}

/* state = state·m (product_mds_with_matrix). t² M. */
static void product_dense(czk_fr *s, const czk_fr (*m)[W], unsigned t) {
    czk_fr r[W], p;
    for (unsigned j = 0; j < t; j++) {
        czk_fr_set_zero(&r[j]);
        for (unsigned i = 0; i < t; i++) {
            czk_fr_mul(&p, &m[i][j], &s[i]);
            czk_fr_add(&r[j], &r[j], &p);
        }
    }
    memcpy(s, r, t * sizeof *r);
}

/* product_mds_with_sparse_matrix: (2t - 1) M. */
static void product_sparse(czk_fr *s, const czk_fr *w_hat, const czk_fr *v_rest, unsigned t) {
    czk_fr r0, p;
    czk_fr_set_zero(&r0);
    for (unsigned i = 0; i < t; i++) {
        czk_fr_mul(&p, &w_hat[i], &s[i]);
        czk_fr_add(&r0, &r0, &p);
    }
    for (unsigned j = 1; j < t; j++) {
        czk_fr_mul(&p, &v_rest[j - 1], &s[0]);
        czk_fr_add(&s[j], &s[j], &p);
    }
    s[0] = r0;
}

/* round_product_mds: the pre-sparse matrix after the last initial full round,
 * a sparse matrix after each partial round, M otherwise. */
static void round_mds(czk_fr *s, const czk_poseidon_constants *c, unsigned round) {
    unsigned h = c->half_full_rounds, t = c->width;
    if (round == h - 1) product_dense(s, (const czk_fr(*)[W])c->pre_sparse, t);
    else if (round > h - 1 && round < h + c->partial_rounds)
        product_sparse(s, c->sparse_w_hat[round - h], c->sparse_v_rest[round - h], t);
    else product_dense(s, (const czk_fr(*)[W])c->mds, t);
}

void czk_poseidon_hash_with(czk_fr *out, const czk_poseidon_constants *c, const czk_fr *in) {
    unsigned t = c->width, h = c->half_full_rounds, round = 0;
    const czk_fr *k = c->compressed_round_constants;
    czk_fr s[W];
    s[0] = c->domain_tag;
    memcpy(&s[1], in, c->arity * sizeof *in);
    for (unsigned i = 0; i < t; i++) czk_fr_add(&s[i], &s[i], &k[i]);
    k += t;
    for (unsigned r = 0; r < 2 * h + c->partial_rounds; r++) {
        bool full = r < h || r >= h + c->partial_rounds;
        bool last = r == 2 * h + c->partial_rounds - 1;
        if (full) {
            for (unsigned i = 0; i < t; i++) sbox(&s[i], last ? NULL : &k[i]);
            if (!last) k += t;
        } else {
            sbox(&s[0], k++);
        }
        round_mds(s, c, round++);
    }
    *out = s[1];
}

void czk_poseidon_hash_correct(czk_fr *out, const czk_poseidon_constants *c, const czk_fr *in) {
    unsigned t = c->width, h = c->half_full_rounds;
    const czk_fr *k = c->round_constants;
    czk_fr s[W];
    s[0] = c->domain_tag;
    memcpy(&s[1], in, c->arity * sizeof *in);
    for (unsigned r = 0; r < 2 * h + c->partial_rounds; r++, k += t) {
        bool full = r < h || r >= h + c->partial_rounds;
        for (unsigned i = 0; i < t; i++) czk_fr_add(&s[i], &s[i], &k[i]);
        if (full)
            for (unsigned i = 0; i < t; i++) sbox(&s[i], NULL);
        else sbox(&s[0], NULL);
        product_dense(s, (const czk_fr(*)[W])c->mds, t);
    }
    *out = s[1];
}

czk_err czk_poseidon_hash(czk_fr *out, const czk_fr *in, unsigned n) {
    const czk_poseidon_constants *c = czk_poseidon_constants_get(n);
    if (!c) return CZK_ERR_INVALID_ARGUMENT;
    czk_poseidon_hash_with(out, c, in);
    return CZK_OK;
}
