/* czk — the quotient polynomial h = (A·B - C)/Z of a Groth16 proof, as
 * bellperson's execute_fft computes it (see include/czk/poly.h).
 *
 * bellperson: ifft each of a, b, c; multiply coefficient i by g^i (coset);
 * fft; a = a·b - c; multiply by 1/Z(g) = 1/(g^n - 1); ifft; multiply
 * coefficient i by g^-i. The same field values are obtained here with no
 * bit-reversal in between: the inverse DIF leaves coefficients bit-reversed,
 * the coset factor g^rev(p)/n is applied at bit-reversed position p inside
 * its last pass, and the forward DIT takes bit-reversed input to natural
 * evaluations. The final inverse DIF applies g^-rev(p)·(1/Z(g))/n the same
 * way, and one bit-reversal puts h's coefficients in natural order. */
#include "czk/poly.h"
#include "ntt_internal.h"

typedef struct {
    czk_fr *a;
    const czk_fr *b, *c;
} abc_job;

/* a[i] = a[i]·b[i] - c[i]: one multiplication per point. */
static void abc_task(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    const abc_job *j = ctx;
    for (size_t i = begin; i < end; i++) {
        czk_fr_mul(&j->a[i], &j->a[i], &j->b[i]);
        poly_fr_sub(&j->a[i], &j->a[i], &j->c[i]);
    }
}

czk_err czk_poly_h(const czk_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, czk_pool *pool) {
    if (!d || !a || !b || !c || d->n == 0) return CZK_ERR_INVALID_ARGUMENT;

    poly_scale to_coset = {d->g_rev_hi, d->g_rev_lo, d->row_log, true, d->n_inv};
    czk_fr *v[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        czk_poly_dif_scaled(d, v[k], true, NULL, &to_coset, pool);
        czk_ntt_dit(d, v[k], false, pool);
    }

    abc_job j = {a, b, c};
    czk_pool_run(pool, d->n, 0, abc_task, &j);

    /* Z(g·ω^i) = g^n - 1 for every i; never zero as g generates Fr^*. */
    czk_fr z, s;
    czk_domain_z(d, &d->coset, &z);
    czk_fr_inv(&z, &z);
    czk_fr_mul(&s, &z, &d->n_inv);
    poly_scale from_coset = {d->gi_rev_hi, d->gi_rev_lo, d->row_log, true, s};
    czk_poly_dif_scaled(d, a, true, NULL, &from_coset, pool);
    czk_ntt_bitrev(a, d->log_n, pool);
    return CZK_OK;
}
