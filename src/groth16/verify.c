/* czk — Groth16 verification (bellperson's verify_proof and
 * verify_proofs_batch).
 *
 * One proof: e(A, B) · e(Σ x_i IC_i, -γ) · e(C, -δ) == e(α, β), as one
 * multi-Miller loop and one final exponentiation.
 * A batch of k proofs with random 128-bit z_j:
 *   Π e(z_j A_j, -B_j) · e(Σ_j z_j (IC·x_j), γ) · e(Σ z_j C_j, δ) · e(α, β)^(Σ z_j) == 1. */
#include <stdlib.h>
#include <string.h>

#include "czk/groth16.h"
#include "czk/mem.h"
#include "czk/msm.h"

czk_err czk_vk_prepare(czk_prepared_vk *out, const czk_vk *vk) {
    memset(out, 0, sizeof *out);
    if (vk->n_ic == 0) return CZK_ERR_INVALID_ARGUMENT;
    out->ic = malloc(vk->n_ic * sizeof(czk_g1_affine));
    if (!out->ic) return CZK_ERR_NO_MEMORY;
    memcpy(out->ic, vk->ic, vk->n_ic * sizeof(czk_g1_affine));
    out->n_ic = vk->n_ic;
    czk_pairing(&out->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    czk_g2_affine neg;
    czk_g2_affine_neg(&neg, &vk->gamma_g2);
    czk_g2_prepare(&out->neg_gamma, &neg);
    czk_g2_affine_neg(&neg, &vk->delta_g2);
    czk_g2_prepare(&out->neg_delta, &neg);
    out->gamma_g2 = vk->gamma_g2;
    out->delta_g2 = vk->delta_g2;
    out->alpha_g1 = vk->alpha_g1;
    out->beta_g2 = vk->beta_g2;
    return CZK_OK;
}

void czk_prepared_vk_free(czk_prepared_vk *pvk) {
    free(pvk->ic);
    pvk->ic = NULL;
    pvk->n_ic = 0;
}

/* IC_0 + Σ x_i IC_{i+1} */
static czk_err accumulate_inputs(czk_g1_affine *out, const czk_prepared_vk *pvk, const czk_fr *x, size_t n) {
    czk_g1 acc, t;
    czk_g1_from_affine(&acc, &pvk->ic[0]);
    if (n) {
        czk_err e = czk_msm_g1(&t, pvk->ic + 1, x, n, NULL, NULL);
        if (e != CZK_OK) return e;
        czk_g1_add(&acc, &acc, &t);
    }
    czk_g1_to_affine(out, &acc);
    return CZK_OK;
}

czk_err czk_verify(const czk_prepared_vk *pvk, const czk_proof *proof, const czk_fr *public_inputs, size_t n) {
    if (n + 1 != pvk->n_ic) return CZK_ERR_INVALID_ARGUMENT;
    czk_g1_affine acc;
    czk_err e = accumulate_inputs(&acc, pvk, public_inputs, n);
    if (e != CZK_OK) return e;
    czk_fp12 ml_ab, f;
    czk_g2_prepared *b_prep = malloc(sizeof *b_prep);
    if (!b_prep) return CZK_ERR_NO_MEMORY;
    czk_g2_prepare(b_prep, &proof->b);
    const czk_g1_affine ps[3] = {proof->a, acc, proof->c};
    const czk_g2_prepared *qs[3] = {b_prep, &pvk->neg_gamma, &pvk->neg_delta};
    czk_multi_miller_loop_prepared(&ml_ab, ps, qs, 3);
    free(b_prep);
    czk_final_exponentiation(&f, &ml_ab);
    return czk_fp12_equal(&f, &pvk->alpha_beta) ? CZK_OK : CZK_ERR_PROOF_INVALID;
}

czk_err czk_verify_batch(const czk_prepared_vk *pvk, const czk_proof *proofs, size_t k, const czk_fr *x,
                         size_t n) {
    if (n + 1 != pvk->n_ic) return CZK_ERR_INVALID_ARGUMENT;
    if (k == 0) return CZK_OK;
    if (k == 1) return czk_verify(pvk, proofs, x, n);

    czk_err e = CZK_ERR_NO_MEMORY;
    czk_fr *z = malloc(k * sizeof(czk_fr));
    czk_fr *scalars = malloc((n + 1) * sizeof(czk_fr));
    czk_g1_affine *ps = malloc((k + 2) * sizeof(czk_g1_affine));
    czk_g2_affine *qs = malloc((k + 2) * sizeof(czk_g2_affine));
    czk_g1_affine *cs = malloc(k * sizeof(czk_g1_affine));
    if (!z || !scalars || !ps || !qs || !cs) goto done;

    /* random 128-bit combination coefficients from the OS */
    czk_fr sum_z;
    czk_fr_set_zero(&sum_z);
    for (size_t j = 0; j < k; j++) {
        uint64_t v[4] = {0, 0, 0, 0};
        if ((e = czk_os_random(v, 16)) != CZK_OK) goto done;
        czk_fr_from_canonical(&z[j], v);
        czk_fr_add(&sum_z, &sum_z, &z[j]);
    }
    /* Σ_j z_j (IC_0 + Σ_i x_ji IC_i) = (Σ z_j) IC_0 + Σ_i (Σ_j z_j x_ji) IC_i */
    scalars[0] = sum_z;
    for (size_t i = 0; i < n; i++) {
        czk_fr acc, t;
        czk_fr_set_zero(&acc);
        for (size_t j = 0; j < k; j++) {
            czk_fr_mul(&t, &z[j], &x[j * n + i]);
            czk_fr_add(&acc, &acc, &t);
        }
        scalars[i + 1] = acc;
    }
    czk_g1 t1;
    if ((e = czk_msm_g1(&t1, pvk->ic, scalars, n + 1, NULL, NULL)) != CZK_OK) goto done;
    czk_g1_to_affine(&ps[k], &t1);
    qs[k] = pvk->gamma_g2;
    for (size_t j = 0; j < k; j++) cs[j] = proofs[j].c;
    if ((e = czk_msm_g1(&t1, cs, z, k, NULL, NULL)) != CZK_OK) goto done;
    czk_g1_to_affine(&ps[k + 1], &t1);
    qs[k + 1] = pvk->delta_g2;
    for (size_t j = 0; j < k; j++) {
        czk_g1 a;
        czk_g1_from_affine(&a, &proofs[j].a);
        uint64_t zv[4];
        czk_fr_to_canonical(zv, &z[j]);
        czk_g1_mul(&a, &a, zv, 2);
        czk_g1_to_affine(&ps[j], &a);
        czk_g2_affine_neg(&qs[j], &proofs[j].b);
    }
    czk_fp12 ml, f, ab;
    czk_multi_miller_loop(&ml, ps, qs, k + 2);
    czk_final_exponentiation(&f, &ml);
    /* f · e(α, β)^(Σ z) must be 1 */
    uint64_t sz[4];
    czk_fr_to_canonical(sz, &sum_z);
    czk_fp12_pow(&ab, &pvk->alpha_beta, sz, 4);
    czk_fp12_mul(&f, &f, &ab);
    e = czk_fp12_is_one(&f) ? CZK_OK : CZK_ERR_PROOF_INVALID;
done:
    free(z);
    free(scalars);
    free(ps);
    free(qs);
    free(cs);
    return e;
}
