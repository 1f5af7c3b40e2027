/* czk — Fp2 = Fp[u]/(u^2+1) (see include/czk/fp2.h). */
#include "czk/fp2.h"

#include "fp_adx.h"
#include "pow_window.h"

typedef unsigned __int128 u128;

bool czk_fp2_is_zero(const czk_fp2 *a) { return czk_fp_is_zero(&a->c0) && czk_fp_is_zero(&a->c1); }
bool czk_fp2_is_one(const czk_fp2 *a) { return czk_fp_is_one(&a->c0) && czk_fp_is_zero(&a->c1); }
bool czk_fp2_equal(const czk_fp2 *a, const czk_fp2 *b) {
    return czk_fp_equal(&a->c0, &b->c0) && czk_fp_equal(&a->c1, &b->c1);
}

void czk_fp2_add(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b) {
    czk_fp_add(&r->c0, &a->c0, &b->c0);
    czk_fp_add(&r->c1, &a->c1, &b->c1);
}
void czk_fp2_sub(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b) {
    czk_fp_sub(&r->c0, &a->c0, &b->c0);
    czk_fp_sub(&r->c1, &a->c1, &b->c1);
}
void czk_fp2_neg(czk_fp2 *r, const czk_fp2 *a) {
    czk_fp_neg(&r->c0, &a->c0);
    czk_fp_neg(&r->c1, &a->c1);
}
void czk_fp2_dbl(czk_fp2 *r, const czk_fp2 *a) {
    czk_fp_dbl(&r->c0, &a->c0);
    czk_fp_dbl(&r->c1, &a->c1);
}
void czk_fp2_conjugate(czk_fp2 *r, const czk_fp2 *a) {
    r->c0 = a->c0;
    czk_fp_neg(&r->c1, &a->c1);
}

#if CZK_HAVE_ADX_ASM
/* Lazy reduction (ADX path): three 768-bit products and two Montgomery
 * reductions instead of three full multiplications:
 *   c0 = a0b0 - a1b1 (plus p·2^384 when negative, so 0 <= c0 < p·2^384),
 *   c1 = (a0 + a1)(b0 + b1) - a0b0 - a1b1 = a0b1 + a1b0 < 2p^2 < p·2^384,
 * with a0 + a1 and b0 + b1 left unreduced (< 2p < 2^382). */
static void fp2_mul_lazy(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b) {
    uint64_t t0[12], t1[12], t2[12], sa[6], sb[6];
    u128 c = 0, d = 0;
    for (int i = 0; i < 6; i++) {
        c += (u128)a->c0.l[i] + a->c1.l[i];
        sa[i] = (uint64_t)c;
        c >>= 64;
        d += (u128)b->c0.l[i] + b->c1.l[i];
        sb[i] = (uint64_t)d;
        d >>= 64;
    }
    czk_fp_mul_wide_adx(t0, a->c0.l, b->c0.l);
    czk_fp_mul_wide_adx(t1, a->c1.l, b->c1.l);
    czk_fp_mul_wide_adx(t2, sa, sb);
    /* t2 = t2 - t0 - t1; t0 = t0 - t1 (+ p·2^384 on borrow) */
    uint64_t br2 = 0, br0 = 0;
    for (int i = 0; i < 12; i++) {
        u128 x = (u128)t2[i] - t0[i] - br2;
        br2 = (uint64_t)(x >> 64) & 1;
        u128 y = (u128)(uint64_t)x - t1[i];
        br2 += (uint64_t)(y >> 64) & 1;
        t2[i] = (uint64_t)y;
        u128 z = (u128)t0[i] - t1[i] - br0;
        br0 = (uint64_t)(z >> 64) & 1;
        t0[i] = (uint64_t)z;
    }
    if (br0) {
        u128 k = 0;
        for (int i = 0; i < 6; i++) {
            k += (u128)t0[6 + i] + CZK_FP_MODULUS.l[i];
            t0[6 + i] = (uint64_t)k;
            k >>= 64;
        }
    }
    czk_fp_redc_adx(r->c0.l, t0);
    czk_fp_redc_adx(r->c1.l, t2);
}
#endif

/* Karatsuba: 3M + 5 additions (lazy reduction on the ADX path). */
void czk_fp2_mul(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b) {
#if CZK_HAVE_ADX_ASM
    if (czk_mont_adx_active()) {
        fp2_mul_lazy(r, a, b);
        return;
    }
#endif
    czk_fp v0, v1, s, t;
    czk_fp_mul(&v0, &a->c0, &b->c0);
    czk_fp_mul(&v1, &a->c1, &b->c1);
    czk_fp_add(&s, &a->c0, &a->c1);
    czk_fp_add(&t, &b->c0, &b->c1);
    czk_fp_mul(&s, &s, &t);
    czk_fp_sub(&r->c0, &v0, &v1);
    czk_fp_sub(&s, &s, &v0);
    czk_fp_sub(&r->c1, &s, &v1);
}

/* (a0 + a1)(a0 - a1) + 2·a0·a1·u: 2M. */
void czk_fp2_sqr(czk_fp2 *r, const czk_fp2 *a) {
    czk_fp s, d, m;
    czk_fp_add(&s, &a->c0, &a->c1);
    czk_fp_sub(&d, &a->c0, &a->c1);
    czk_fp_mul(&m, &a->c0, &a->c1);
    czk_fp_mul(&r->c0, &s, &d);
    czk_fp_dbl(&r->c1, &m);
}

void czk_fp2_mul_fp(czk_fp2 *r, const czk_fp2 *a, const czk_fp *b) {
    czk_fp_mul(&r->c0, &a->c0, b);
    czk_fp_mul(&r->c1, &a->c1, b);
}

/* (c0 + c1·u)(1 + u) = (c0 - c1) + (c0 + c1)·u */
void czk_fp2_mul_by_nonresidue(czk_fp2 *r, const czk_fp2 *a) {
    czk_fp t;
    czk_fp_sub(&t, &a->c0, &a->c1);
    czk_fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

void czk_fp2_norm(czk_fp *r, const czk_fp2 *a) {
    czk_fp t0, t1;
    czk_fp_sqr(&t0, &a->c0);
    czk_fp_sqr(&t1, &a->c1);
    czk_fp_add(r, &t0, &t1);
}

/* 1/a = conj(a)/norm(a): 1 Fp inversion + 4M. */
void czk_fp2_inv(czk_fp2 *r, const czk_fp2 *a) {
    czk_fp n;
    czk_fp2_norm(&n, a);
    czk_fp_inv(&n, &n);
    czk_fp_mul(&r->c0, &a->c0, &n);
    czk_fp_mul(&r->c1, &a->c1, &n);
    czk_fp_neg(&r->c1, &r->c1);
}

DEFINE_POW_WINDOW(fp2_pow, czk_fp2, czk_fp2_set_one, czk_fp2_mul, czk_fp2_sqr)

void czk_fp2_pow(czk_fp2 *r, const czk_fp2 *a, const uint64_t *e, int n) { fp2_pow(r, a, e, n); }

int czk_fp2_legendre(const czk_fp2 *a) {
    czk_fp n;
    czk_fp2_norm(&n, a);
    return czk_fp_legendre(&n);
}

/* Adj–Rodríguez-Henríquez, algorithm 9 (p ≡ 3 mod 4): one exponentiation by
 * (p-3)/4 in Fp2, and one by (p-1)/2 when needed; the result is checked. */
bool czk_fp2_sqrt(czk_fp2 *r, const czk_fp2 *a) {
    const uint64_t *p = CZK_FP_MODULUS.l;
    uint64_t e34[CZK_FP_LIMBS], e12[CZK_FP_LIMBS];
    /* (p-3)/4 = p >> 2 (p ≡ 3 mod 4); (p-1)/2 = p >> 1 */
    for (int j = 0; j < CZK_FP_LIMBS - 1; j++) {
        e34[j] = (p[j] >> 2) | (p[j + 1] << 62);
        e12[j] = (p[j] >> 1) | (p[j + 1] << 63);
    }
    e34[CZK_FP_LIMBS - 1] = p[CZK_FP_LIMBS - 1] >> 2;
    e12[CZK_FP_LIMBS - 1] = p[CZK_FP_LIMBS - 1] >> 1;

    czk_fp2 a1, alpha, x0, x, minus_one;
    czk_fp2_pow(&a1, a, e34, CZK_FP_LIMBS);
    czk_fp2_sqr(&alpha, &a1);
    czk_fp2_mul(&alpha, &alpha, a);
    czk_fp2_mul(&x0, &a1, a);
    czk_fp2_set_one(&minus_one);
    czk_fp2_neg(&minus_one, &minus_one);
    if (czk_fp2_equal(&alpha, &minus_one)) {
        /* x = u·x0 */
        czk_fp t = x0.c0;
        czk_fp_neg(&x.c0, &x0.c1);
        x.c1 = t;
    } else {
        czk_fp2 b = alpha;
        czk_fp_add(&b.c0, &b.c0, &CZK_FP_ONE);
        czk_fp2_pow(&b, &b, e12, CZK_FP_LIMBS);
        czk_fp2_mul(&x, &b, &x0);
    }
    czk_fp2 check;
    czk_fp2_sqr(&check, &x);
    if (!czk_fp2_equal(&check, a)) return false;
    *r = x;
    return true;
}

bool czk_fp2_is_lexicographically_largest(const czk_fp2 *a) {
    if (!czk_fp_is_zero(&a->c1)) return czk_fp_is_lexicographically_largest(&a->c1);
    return czk_fp_is_lexicographically_largest(&a->c0);
}

bool czk_fp2_from_bytes_be(czk_fp2 *r, const uint8_t in[2 * CZK_FP_BYTES]) {
    czk_fp c0, c1;
    if (!czk_fp_from_bytes_be(&c1, in) || !czk_fp_from_bytes_be(&c0, in + CZK_FP_BYTES)) return false;
    r->c0 = c0;
    r->c1 = c1;
    return true;
}

void czk_fp2_to_bytes_be(uint8_t out[2 * CZK_FP_BYTES], const czk_fp2 *a) {
    czk_fp_to_bytes_be(out, &a->c1);
    czk_fp_to_bytes_be(out + CZK_FP_BYTES, &a->c0);
}

void czk_fp2_random(czk_fp2 *r, czk_rng *rng) {
    czk_fp_random(&r->c0, rng);
    czk_fp_random(&r->c1, rng);
}
