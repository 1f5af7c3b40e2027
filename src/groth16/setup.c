/* czk — Groth16 parameter generation, following bellperson's
 * generate_parameters step by step (see docs/groth16.md):
 *
 *   domain  = smallest power of two >= constraints + inputs (bellperson adds
 *             one `input_i · 0 = 0` row per input after the circuit's rows)
 *   h[i]    = g1^(τ^i · Z(τ) / δ)                 for i < domain - 1
 *   L_j(τ)  = inverse NTT of (1, τ, τ^2, …)        the Lagrange basis at τ
 *   u_v, v_v, w_v = Σ_rows coeff · L_row(τ)        per variable, from A, B, C
 *   a[v]    = g1^u_v, b_g1[v] = g1^v_v, b_g2[v] = g2^v_v   (identity if 0)
 *   ic[v]   = g1^((β u_v + α v_v + w_v) / γ)       inputs
 *   l[v]    = g1^((β u_v + α v_v + w_v) / δ)       aux (must not be identity)
 *
 * and the points at infinity are dropped from a, b_g1, b_g2. */
#include <stdio.h>
#include <string.h>

#include "czk/fixed_base.h"
#include "czk/groth16.h"
#include "czk/mem.h"
#include "czk/poly.h"
#include "czk/setup_scalars.h"

#define SET_MSG(...)                                          \
    do {                                                      \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
    } while (0)

static void random_nonzero(czk_fr *r, czk_rng *rng) {
    do czk_fr_random(r, rng);
    while (czk_fr_is_zero(r));

}

void czk_toxic_from_seed(czk_toxic *t, uint64_t seed) {
    czk_rng rng;
    czk_rng_seed(&rng, seed ^ 0x67726f7468313621ULL);
    czk_fr k;
    czk_g1 g1;
    czk_g2 g2;
    czk_g1_from_affine(&g1, &CZK_G1_GENERATOR);
    czk_g2_from_affine(&g2, &CZK_G2_GENERATOR);
    random_nonzero(&k, &rng);
    czk_g1_mul_fr(&t->g1, &g1, &k);
    random_nonzero(&k, &rng);
    czk_g2_mul_fr(&t->g2, &g2, &k);
    random_nonzero(&t->alpha, &rng);
    random_nonzero(&t->beta, &rng);
    random_nonzero(&t->gamma, &rng);
    random_nonzero(&t->delta, &rng);
    random_nonzero(&t->tau, &rng);
}

czk_err czk_toxic_from_os(czk_toxic *t) {
    czk_fr k;
    czk_fr *dst[5] = {&t->alpha, &t->beta, &t->gamma, &t->delta, &t->tau};
    czk_g1 g1;
    czk_g2 g2;
    czk_g1_from_affine(&g1, &CZK_G1_GENERATOR);
    czk_g2_from_affine(&g2, &CZK_G2_GENERATOR);
    czk_err e;
    do {
        if ((e = czk_fr_random_os(&k)) != CZK_OK) return e;
    } while (czk_fr_is_zero(&k));
    czk_g1_mul_fr(&t->g1, &g1, &k);
    do {
        if ((e = czk_fr_random_os(&k)) != CZK_OK) return e;
    } while (czk_fr_is_zero(&k));
    czk_g2_mul_fr(&t->g2, &g2, &k);
    for (int i = 0; i < 5; i++) {
        do {
            if ((e = czk_fr_random_os(dst[i])) != CZK_OK) return e;
        } while (czk_fr_is_zero(dst[i]));
    }
    return CZK_OK;
}

/* Copies the finite points of src[0..n) to a new SRS buffer. */
#define COMPACT(TYPE, IS_INF, dst, ndst, src, n)                                   \
    do {                                                                            \
        size_t cnt_ = 0;                                                            \
        for (size_t i_ = 0; i_ < (n); i_++) cnt_ += !IS_INF(&(src)[i_]);            \
        (ndst) = cnt_;                                                              \
        (dst) = cnt_ ? czk_mem_alloc(cnt_ * sizeof(TYPE), CZK_MEM_SRS) : NULL;      \
        if (cnt_ && !(dst)) goto oom;                                               \
        cnt_ = 0;                                                                   \
        for (size_t i_ = 0; i_ < (n); i_++)                                         \
            if (!IS_INF(&(src)[i_])) (dst)[cnt_++] = (src)[i_];                     \
    } while (0)

czk_err czk_groth16_setup(czk_params *out, const czk_r1cs *r1cs, const czk_toxic *toxic, czk_pool *pool,
                          char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    const size_t ni = r1cs->n_inputs, na = r1cs->n_aux, nc = r1cs->n_constraints;
    const size_t nv = ni + na;
    if (ni == 0) {
        SET_MSG("the circuit has no ONE input");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (czk_fr_is_zero(&toxic->gamma) || czk_fr_is_zero(&toxic->delta)) {
        SET_MSG("gamma and delta must be non-zero");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_domain dom;
    czk_err e = czk_domain_init(&dom, nc + ni);
    if (e != CZK_OK) {
        SET_MSG("%zu constraints + %zu inputs exceed the largest evaluation domain", nc, ni);
        return e;
    }
    const size_t n = dom.n;

    czk_err err = CZK_ERR_NO_MEMORY;
    czk_g1_fixed_base *fb1 = NULL;
    czk_g2_fixed_base *fb2 = NULL;
    czk_fr *powers = NULL, *u = NULL, *v = NULL, *w = NULL;
    czk_g1_affine *a_all = NULL, *bg1_all = NULL, *ext = NULL;
    czk_g2_affine *bg2_all = NULL;

    if (czk_g1_fixed_base_new(&fb1, &toxic->g1) != CZK_OK || czk_g2_fixed_base_new(&fb2, &toxic->g2) != CZK_OK)
        goto oom;
    powers = czk_mem_alloc(n * sizeof(czk_fr), CZK_MEM_AUX);
    if (!powers) goto oom;

    /* h: g1^(τ^i Z(τ)/δ), i < n - 1 */
    czk_fr coeff;
    if ((e = czk_setup_h_coeff(&coeff, &dom, toxic, msg, msglen)) != CZK_OK) {
        err = e;
        goto cleanup;
    }
    czk_setup_powers(powers, 0, n - 1, &coeff, &toxic->tau, pool);
    out->n_h = n - 1;
    out->h = n > 1 ? czk_mem_alloc(out->n_h * sizeof(czk_g1_affine), CZK_MEM_SRS) : NULL;
    if (n > 1 && !out->h) goto oom;
    if ((e = czk_g1_fixed_base_mul_many(out->h, fb1, powers, out->n_h, pool)) != CZK_OK) goto fail;

    /* QAP polynomials at τ */
    czk_domain_lagrange_at(&dom, &toxic->tau, powers, pool);
    u = czk_mem_alloc(nv * sizeof(czk_fr), CZK_MEM_AUX);
    v = czk_mem_alloc(nv * sizeof(czk_fr), CZK_MEM_AUX);
    w = czk_mem_alloc(nv * sizeof(czk_fr), CZK_MEM_AUX);
    if (!u || !v || !w) goto oom;
    czk_setup_qap_csr(r1cs, powers, u, v, w, pool);
    czk_mem_free(powers);
    powers = NULL;

    a_all = czk_mem_alloc(nv * sizeof(czk_g1_affine), CZK_MEM_AUX);
    bg1_all = czk_mem_alloc(nv * sizeof(czk_g1_affine), CZK_MEM_AUX);
    bg2_all = czk_mem_alloc(nv * sizeof(czk_g2_affine), CZK_MEM_AUX);
    ext = czk_mem_alloc(nv * sizeof(czk_g1_affine), CZK_MEM_AUX);
    if (!a_all || !bg1_all || !bg2_all || !ext) goto oom;
    if ((e = czk_g1_fixed_base_mul_many(a_all, fb1, u, nv, pool)) != CZK_OK ||
        (e = czk_g1_fixed_base_mul_many(bg1_all, fb1, v, nv, pool)) != CZK_OK ||
        (e = czk_g2_fixed_base_mul_many(bg2_all, fb2, v, nv, pool)) != CZK_OK)
        goto fail;
    /* ext_v = (β u_v + α v_v + w_v) / (γ for inputs, δ for aux), reusing w */
    if ((e = czk_setup_ext(w, u, v, ni, nv, toxic, pool, msg, msglen)) != CZK_OK) {
        err = e;
        goto cleanup;
    }
    if ((e = czk_g1_fixed_base_mul_many(ext, fb1, w, nv, pool)) != CZK_OK) goto fail;

    out->vk.n_ic = ni;
    out->vk.ic = czk_mem_alloc(ni * sizeof(czk_g1_affine), CZK_MEM_SRS);
    out->n_l = na;
    out->l = na ? czk_mem_alloc(na * sizeof(czk_g1_affine), CZK_MEM_SRS) : NULL;
    if (!out->vk.ic || (na && !out->l)) goto oom;
    memcpy(out->vk.ic, ext, ni * sizeof(czk_g1_affine));
    if (na) memcpy(out->l, ext + ni, na * sizeof(czk_g1_affine));
    COMPACT(czk_g1_affine, czk_g1_affine_is_infinity, out->a, out->n_a, a_all, nv);
    COMPACT(czk_g1_affine, czk_g1_affine_is_infinity, out->b_g1, out->n_b_g1, bg1_all, nv);
    COMPACT(czk_g2_affine, czk_g2_affine_is_infinity, out->b_g2, out->n_b_g2, bg2_all, nv);

    /* the verifying key */
    czk_g1 p1;
    czk_g2 p2;
    czk_g1_fixed_base_mul(&p1, fb1, &toxic->alpha);
    czk_g1_to_affine(&out->vk.alpha_g1, &p1);
    czk_g1_fixed_base_mul(&p1, fb1, &toxic->beta);
    czk_g1_to_affine(&out->vk.beta_g1, &p1);
    czk_g1_fixed_base_mul(&p1, fb1, &toxic->delta);
    czk_g1_to_affine(&out->vk.delta_g1, &p1);
    czk_g2_fixed_base_mul(&p2, fb2, &toxic->beta);
    czk_g2_to_affine(&out->vk.beta_g2, &p2);
    czk_g2_fixed_base_mul(&p2, fb2, &toxic->gamma);
    czk_g2_to_affine(&out->vk.gamma_g2, &p2);
    czk_g2_fixed_base_mul(&p2, fb2, &toxic->delta);
    czk_g2_to_affine(&out->vk.delta_g2, &p2);
    err = CZK_OK;
    goto cleanup;

oom:
    SET_MSG("out of memory generating parameters for %zu variables, domain %zu", nv, n);
    err = CZK_ERR_NO_MEMORY;
    goto cleanup;
fail:
    SET_MSG("parameter generation failed: %s", czk_err_str(e));
    err = e;
cleanup:
    czk_mem_free(powers);
    czk_mem_free(u);
    czk_mem_free(v);
    czk_mem_free(w);
    czk_mem_free(a_all);
    czk_mem_free(bg1_all);
    czk_mem_free(bg2_all);
    czk_mem_free(ext);
    czk_g1_fixed_base_free(fb1);
    czk_g2_fixed_base_free(fb2);
    czk_domain_free(&dom);
    if (err != CZK_OK) czk_params_free(out);
    return err;
}
