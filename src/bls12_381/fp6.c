/* czk — Fp6 = Fp2[v]/(v^3 - ξ), ξ = u + 1 (see include/czk/fp12.h). */
#include "czk/fp12.h"

/* Recomputed from ξ by test_tower. */
/* xi^((p^k-1)/3), k = 0..5 (Montgomery form) */
const czk_fp2 CZK_FP6_FROBENIUS_C1[6] = {
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0}}},
    {{{0}},
     {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0}}},
    {{{0}},
     {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}},
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0}}},
    {{{0}},
     {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}}},
};
/* xi^(2(p^k-1)/3), k = 0..5 (Montgomery form) */
const czk_fp2 CZK_FP6_FROBENIUS_C2[6] = {
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0}}},
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
     {{0}}},
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0}}},
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
     {{0}}},
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0}}},
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0}}},
};

bool czk_fp6_is_zero(const czk_fp6 *a) {
    return czk_fp2_is_zero(&a->c0) && czk_fp2_is_zero(&a->c1) && czk_fp2_is_zero(&a->c2);
}
bool czk_fp6_is_one(const czk_fp6 *a) {
    return czk_fp2_is_one(&a->c0) && czk_fp2_is_zero(&a->c1) && czk_fp2_is_zero(&a->c2);
}
bool czk_fp6_equal(const czk_fp6 *a, const czk_fp6 *b) {
    return czk_fp2_equal(&a->c0, &b->c0) && czk_fp2_equal(&a->c1, &b->c1) &&
           czk_fp2_equal(&a->c2, &b->c2);
}

void czk_fp6_add(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b) {
    czk_fp2_add(&r->c0, &a->c0, &b->c0);
    czk_fp2_add(&r->c1, &a->c1, &b->c1);
    czk_fp2_add(&r->c2, &a->c2, &b->c2);
}
void czk_fp6_sub(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b) {
    czk_fp2_sub(&r->c0, &a->c0, &b->c0);
    czk_fp2_sub(&r->c1, &a->c1, &b->c1);
    czk_fp2_sub(&r->c2, &a->c2, &b->c2);
}
void czk_fp6_neg(czk_fp6 *r, const czk_fp6 *a) {
    czk_fp2_neg(&r->c0, &a->c0);
    czk_fp2_neg(&r->c1, &a->c1);
    czk_fp2_neg(&r->c2, &a->c2);
}
void czk_fp6_dbl(czk_fp6 *r, const czk_fp6 *a) {
    czk_fp2_dbl(&r->c0, &a->c0);
    czk_fp2_dbl(&r->c1, &a->c1);
    czk_fp2_dbl(&r->c2, &a->c2);
}

void czk_fp6_mul_by_nonresidue(czk_fp6 *r, const czk_fp6 *a) {
    czk_fp2 t;
    czk_fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* Karatsuba with t_i = a_i·b_i:
 *   c0 = t0 + ξ((a1+a2)(b1+b2) - t1 - t2)
 *   c1 = (a0+a1)(b0+b1) - t0 - t1 + ξ·t2
 *   c2 = (a0+a2)(b0+b2) - t0 - t2 + t1 */
void czk_fp6_mul(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b) {
    czk_fp2 t0, t1, t2, s, u, c0, c1;
    czk_fp2_mul(&t0, &a->c0, &b->c0);
    czk_fp2_mul(&t1, &a->c1, &b->c1);
    czk_fp2_mul(&t2, &a->c2, &b->c2);

    czk_fp2_add(&s, &a->c1, &a->c2);
    czk_fp2_add(&u, &b->c1, &b->c2);
    czk_fp2_mul(&c0, &s, &u);
    czk_fp2_sub(&c0, &c0, &t1);
    czk_fp2_sub(&c0, &c0, &t2);
    czk_fp2_mul_by_nonresidue(&c0, &c0);
    czk_fp2_add(&c0, &c0, &t0);

    czk_fp2_add(&s, &a->c0, &a->c1);
    czk_fp2_add(&u, &b->c0, &b->c1);
    czk_fp2_mul(&c1, &s, &u);
    czk_fp2_sub(&c1, &c1, &t0);
    czk_fp2_sub(&c1, &c1, &t1);
    czk_fp2_mul_by_nonresidue(&s, &t2);
    czk_fp2_add(&c1, &c1, &s);

    czk_fp2_add(&s, &a->c0, &a->c2);
    czk_fp2_add(&u, &b->c0, &b->c2);
    czk_fp2_mul(&r->c2, &s, &u);
    czk_fp2_sub(&r->c2, &r->c2, &t0);
    czk_fp2_sub(&r->c2, &r->c2, &t2);
    czk_fp2_add(&r->c2, &r->c2, &t1);
    r->c0 = c0;
    r->c1 = c1;
}

/* s0 = a0^2, s1 = 2·a0·a1, s2 = (a0 - a1 + a2)^2, s3 = 2·a1·a2, s4 = a2^2:
 *   c0 = s0 + ξ·s3,  c1 = s1 + ξ·s4,  c2 = s1 + s2 + s3 - s0 - s4 */
void czk_fp6_sqr(czk_fp6 *r, const czk_fp6 *a) {
    czk_fp2 s0, s1, s2, s3, s4, t;
    czk_fp2_sqr(&s0, &a->c0);
    czk_fp2_mul(&s1, &a->c0, &a->c1);
    czk_fp2_dbl(&s1, &s1);
    czk_fp2_sub(&s2, &a->c0, &a->c1);
    czk_fp2_add(&s2, &s2, &a->c2);
    czk_fp2_sqr(&s2, &s2);
    czk_fp2_mul(&s3, &a->c1, &a->c2);
    czk_fp2_dbl(&s3, &s3);
    czk_fp2_sqr(&s4, &a->c2);

    czk_fp2_mul_by_nonresidue(&t, &s3);
    czk_fp2_add(&r->c0, &s0, &t);
    czk_fp2_add(&r->c2, &s1, &s2);
    czk_fp2_add(&r->c2, &r->c2, &s3);
    czk_fp2_sub(&r->c2, &r->c2, &s0);
    czk_fp2_sub(&r->c2, &r->c2, &s4);
    czk_fp2_mul_by_nonresidue(&t, &s4);
    czk_fp2_add(&r->c1, &s1, &t);
}

void czk_fp6_mul_fp2(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b) {
    czk_fp2 t = *b; /* b may be a coefficient of r */
    czk_fp2_mul(&r->c0, &a->c0, &t);
    czk_fp2_mul(&r->c1, &a->c1, &t);
    czk_fp2_mul(&r->c2, &a->c2, &t);
}

/* (a0 + a1·v + a2·v^2)(b0 + b1·v), t0 = a0·b0, t1 = a1·b1:
 *   c0 = t0 + ξ·a2·b1
 *   c1 = (a0+a1)(b0+b1) - t0 - t1
 *   c2 = a2·b0 + t1 */
void czk_fp6_mul_by_01(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b0, const czk_fp2 *b1) {
    czk_fp2 t0, t1, s, u, c0, c2;
    czk_fp2_mul(&t0, &a->c0, b0);
    czk_fp2_mul(&t1, &a->c1, b1);

    czk_fp2_mul(&c0, &a->c2, b1);
    czk_fp2_mul_by_nonresidue(&c0, &c0);
    czk_fp2_add(&c0, &c0, &t0);

    czk_fp2_mul(&c2, &a->c2, b0);
    czk_fp2_add(&c2, &c2, &t1);

    czk_fp2_add(&s, &a->c0, &a->c1);
    czk_fp2_add(&u, b0, b1);
    czk_fp2_mul(&r->c1, &s, &u);
    czk_fp2_sub(&r->c1, &r->c1, &t0);
    czk_fp2_sub(&r->c1, &r->c1, &t1);
    r->c0 = c0;
    r->c2 = c2;
}

/* (a0 + a1·v + a2·v^2)·b1·v = ξ·a2·b1 + a0·b1·v + a1·b1·v^2 */
void czk_fp6_mul_by_1(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b1) {
    czk_fp2 c0;
    czk_fp2_mul(&c0, &a->c2, b1);
    czk_fp2_mul_by_nonresidue(&c0, &c0);
    czk_fp2_mul(&r->c2, &a->c1, b1);
    czk_fp2_mul(&r->c1, &a->c0, b1);
    r->c0 = c0;
}

/* 1/a = (t0 + t1·v + t2·v^2)/N with
 *   t0 = a0^2 - ξ·a1·a2,  t1 = ξ·a2^2 - a0·a1,  t2 = a1^2 - a0·a2,
 *   N = a0·t0 + ξ(a2·t1 + a1·t2) in Fp2. */
void czk_fp6_inv(czk_fp6 *r, const czk_fp6 *a) {
    czk_fp2 t0, t1, t2, s, n;
    czk_fp2_sqr(&t0, &a->c0);
    czk_fp2_mul(&s, &a->c1, &a->c2);
    czk_fp2_mul_by_nonresidue(&s, &s);
    czk_fp2_sub(&t0, &t0, &s);

    czk_fp2_sqr(&t1, &a->c2);
    czk_fp2_mul_by_nonresidue(&t1, &t1);
    czk_fp2_mul(&s, &a->c0, &a->c1);
    czk_fp2_sub(&t1, &t1, &s);

    czk_fp2_sqr(&t2, &a->c1);
    czk_fp2_mul(&s, &a->c0, &a->c2);
    czk_fp2_sub(&t2, &t2, &s);

    czk_fp2_mul(&n, &a->c2, &t1);
    czk_fp2_mul(&s, &a->c1, &t2);
    czk_fp2_add(&n, &n, &s);
    czk_fp2_mul_by_nonresidue(&n, &n);
    czk_fp2_mul(&s, &a->c0, &t0);
    czk_fp2_add(&n, &n, &s);
    czk_fp2_inv(&n, &n);

    czk_fp2_mul(&r->c0, &t0, &n);
    czk_fp2_mul(&r->c1, &t1, &n);
    czk_fp2_mul(&r->c2, &t2, &n);
}

/* a^(p^k) = ā0 + ā1·γ1·v + ā2·γ2·v^2 with ā = a^(p^k) in Fp2 (conjugation
 * when k is odd), γ1 = ξ^((p^k-1)/3), γ2 = γ1^2. */
void czk_fp6_frobenius_map(czk_fp6 *r, const czk_fp6 *a, unsigned k) {
    k %= 6;
    if (k & 1) {
        czk_fp2_conjugate(&r->c0, &a->c0);
        czk_fp2_conjugate(&r->c1, &a->c1);
        czk_fp2_conjugate(&r->c2, &a->c2);
    } else {
        *r = *a;
    }
    if (k == 0) return;
    czk_fp2_mul(&r->c1, &r->c1, &CZK_FP6_FROBENIUS_C1[k]);
    czk_fp2_mul(&r->c2, &r->c2, &CZK_FP6_FROBENIUS_C2[k]);
}

void czk_fp6_random(czk_fp6 *r, czk_rng *rng) {
    czk_fp2_random(&r->c0, rng);
    czk_fp2_random(&r->c1, rng);
    czk_fp2_random(&r->c2, rng);
}
