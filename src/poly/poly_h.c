/* czk — the quotient polynomial h = (A·B - C)/Z of a Groth16 proof, with
 * the values of bellperson's execute_fft (see include/czk/poly.h).
 *
 * bellperson: ifft each of a, b, c; multiply coefficient i by g^i (coset);
 * fft; a = a·b - c; multiply by 1/Z(g) = 1/(g^n - 1); ifft; multiply
 * coefficient i by g^-i: seven transforms. Interpolation on the coset is
 * linear and c's interpolant there is c's own polynomial (degree < n), so
 * the same h is (iNTT_coset(A_g·B_g) - iNTT(c))/Z(g) for any a, b, c: six
 * transforms, c needing only its inverse (test_poly_h checks both against
 * a literal transcription of bellperson's steps; the CUDA backend computes
 * the same form).
 *
 * No bit-reversal in between: the inverse DIF leaves coefficients
 * bit-reversed, the coset factor g^rev(p)/n is applied at bit-reversed
 * position p inside its last pass, and the forward DIT takes bit-reversed
 * input to natural evaluations. The inverse DIF of a·b applies
 * g^-rev(p)·(1/Z(g))/n the same way, c's inverse DIF the constant
 * (1/Z(g))/n, and after the subtraction one bit-reversal puts h's
 * coefficients in natural order. */
#include "czk/poly.h"
#include "ntt_internal.h"

typedef struct {
    czk_fr *a;
    const czk_fr *x;
    bool sub; /* a[i] -= x[i], else a[i] *= x[i] */
} pointwise_job;

static void pointwise_task(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    const pointwise_job *j = ctx;
    for (size_t i = begin; i < end; i++) {
        if (j->sub) poly_fr_sub(&j->a[i], &j->a[i], &j->x[i]);
        else czk_fr_mul(&j->a[i], &j->a[i], &j->x[i]);
    }
}

czk_err czk_poly_h(const czk_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, czk_pool *pool) {
    if (!d || !a || !b || !c || d->n == 0) return CZK_ERR_INVALID_ARGUMENT;

    poly_scale to_coset = {d->g_rev_hi, d->g_rev_lo, d->row_log, true, d->n_inv};
    czk_fr *v[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        czk_poly_dif_scaled(d, v[k], true, NULL, &to_coset, pool);
        czk_ntt_dit(d, v[k], false, pool);
    }
    pointwise_job ab = {a, b, false};
    czk_pool_run(pool, d->n, 0, pointwise_task, &ab);

    /* Z(g·ω^i) = g^n - 1 for every i; never zero as g generates Fr^*. */
    czk_fr z, s;
    czk_domain_z(d, &d->coset, &z);
    czk_fr_inv(&z, &z);
    czk_fr_mul(&s, &z, &d->n_inv);
    poly_scale from_coset = {d->gi_rev_hi, d->gi_rev_lo, d->row_log, true, s};
    czk_poly_dif_scaled(d, a, true, NULL, &from_coset, pool);
    poly_scale by_s = {NULL, NULL, 0, true, s};
    czk_poly_dif_scaled(d, c, true, NULL, &by_s, pool);
    pointwise_job sub = {a, c, true};
    czk_pool_run(pool, d->n, 0, pointwise_task, &sub);
    czk_ntt_bitrev(a, d->log_n, pool);
    return CZK_OK;
}
