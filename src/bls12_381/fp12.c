/* czk — Fp12 = Fp6[w]/(w^2 - v) (see include/czk/fp12.h). */
#include "czk/fp12.h"

#include "pow_window.h"

/* Recomputed from ξ by test_tower. */
/* xi^((p^k-1)/6), k = 0..5 (Montgomery form) */
const czk_fp2 CZK_FP12_FROBENIUS_C1[6] = {
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
     {{0}}},
    {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL, 0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
     {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL, 0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0}}},
    {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
     {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0}}},
    {{{0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL, 0xef517c3266341429ULL, 0x0095ba654ed2226bULL, 0x02e370eccc86f7ddULL}},
     {{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL, 0x7525cf528d50fe95ULL, 0x4a85ed50f4798a6bULL, 0x171da0fd6cf8eebdULL}}},
};

bool czk_fp12_is_zero(const czk_fp12 *a) { return czk_fp6_is_zero(&a->c0) && czk_fp6_is_zero(&a->c1); }
bool czk_fp12_is_one(const czk_fp12 *a) { return czk_fp6_is_one(&a->c0) && czk_fp6_is_zero(&a->c1); }
bool czk_fp12_equal(const czk_fp12 *a, const czk_fp12 *b) {
    return czk_fp6_equal(&a->c0, &b->c0) && czk_fp6_equal(&a->c1, &b->c1);
}

void czk_fp12_add(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b) {
    czk_fp6_add(&r->c0, &a->c0, &b->c0);
    czk_fp6_add(&r->c1, &a->c1, &b->c1);
}
void czk_fp12_sub(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b) {
    czk_fp6_sub(&r->c0, &a->c0, &b->c0);
    czk_fp6_sub(&r->c1, &a->c1, &b->c1);
}
void czk_fp12_neg(czk_fp12 *r, const czk_fp12 *a) {
    czk_fp6_neg(&r->c0, &a->c0);
    czk_fp6_neg(&r->c1, &a->c1);
}
void czk_fp12_conjugate(czk_fp12 *r, const czk_fp12 *a) {
    r->c0 = a->c0;
    czk_fp6_neg(&r->c1, &a->c1);
}

/* t0 = a0·b0, t1 = a1·b1:  c0 = t0 + v·t1,  c1 = (a0+a1)(b0+b1) - t0 - t1 */
void czk_fp12_mul(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b) {
    czk_fp6 t0, t1, s, u;
    czk_fp6_mul(&t0, &a->c0, &b->c0);
    czk_fp6_mul(&t1, &a->c1, &b->c1);
    czk_fp6_add(&s, &a->c0, &a->c1);
    czk_fp6_add(&u, &b->c0, &b->c1);
    czk_fp6_mul(&s, &s, &u);
    czk_fp6_sub(&s, &s, &t0);
    czk_fp6_sub(&r->c1, &s, &t1);
    czk_fp6_mul_by_nonresidue(&t1, &t1);
    czk_fp6_add(&r->c0, &t0, &t1);
}

/* t = a0·a1:  c0 = (a0 + a1)(a0 + v·a1) - t - v·t,  c1 = 2t */
void czk_fp12_sqr(czk_fp12 *r, const czk_fp12 *a) {
    czk_fp6 t, s, u;
    czk_fp6_mul(&t, &a->c0, &a->c1);
    czk_fp6_add(&s, &a->c0, &a->c1);
    czk_fp6_mul_by_nonresidue(&u, &a->c1);
    czk_fp6_add(&u, &u, &a->c0);
    czk_fp6_mul(&s, &s, &u);
    czk_fp6_sub(&s, &s, &t);
    czk_fp6_mul_by_nonresidue(&u, &t);
    czk_fp6_sub(&r->c0, &s, &u);
    czk_fp6_dbl(&r->c1, &t);
}

/* b = (b0 + b1·v) + (b4·v)·w, Karatsuba over Fp6 with the sparse products:
 *   t0 = a0·(b0 + b1·v) (5m),  t1 = a1·b4·v (3m),
 *   c1 = (a0 + a1)(b0 + (b1 + b4)·v) - t0 - t1 (5m),  c0 = t0 + v·t1 */
void czk_fp12_mul_by_014(czk_fp12 *r, const czk_fp12 *a, const czk_fp2 *b0, const czk_fp2 *b1,
                         const czk_fp2 *b4) {
    czk_fp6 t0, t1, s;
    czk_fp2 b14;
    czk_fp6_mul_by_01(&t0, &a->c0, b0, b1);
    czk_fp6_mul_by_1(&t1, &a->c1, b4);
    czk_fp2_add(&b14, b1, b4);
    czk_fp6_add(&s, &a->c0, &a->c1);
    czk_fp6_mul_by_01(&s, &s, b0, &b14);
    czk_fp6_sub(&s, &s, &t0);
    czk_fp6_sub(&r->c1, &s, &t1);
    czk_fp6_mul_by_nonresidue(&t1, &t1);
    czk_fp6_add(&r->c0, &t0, &t1);
}

/* 1/(a0 + a1·w) = (a0 - a1·w)/(a0^2 - v·a1^2) */
void czk_fp12_inv(czk_fp12 *r, const czk_fp12 *a) {
    czk_fp6 t0, t1;
    czk_fp6_sqr(&t0, &a->c0);
    czk_fp6_sqr(&t1, &a->c1);
    czk_fp6_mul_by_nonresidue(&t1, &t1);
    czk_fp6_sub(&t0, &t0, &t1);
    czk_fp6_inv(&t0, &t0);
    czk_fp6_mul(&r->c0, &a->c0, &t0);
    czk_fp6_mul(&r->c1, &a->c1, &t0);
    czk_fp6_neg(&r->c1, &r->c1);
}

/* a^(p^k) = a0^(p^k) + a1^(p^k)·γ·w, γ = ξ^((p^k-1)/6); for k >= 6 the
 * p^6-power is the conjugation. */
void czk_fp12_frobenius_map(czk_fp12 *r, const czk_fp12 *a, unsigned k) {
    k %= 12;
    unsigned j = k % 6;
    czk_fp6_frobenius_map(&r->c0, &a->c0, j);
    czk_fp6_frobenius_map(&r->c1, &a->c1, j);
    if (j != 0) czk_fp6_mul_fp2(&r->c1, &r->c1, &CZK_FP12_FROBENIUS_C1[j]);
    if (k >= 6) czk_fp6_neg(&r->c1, &r->c1);
}

/* Granger–Scott. With s = w^3 (s^2 = ξ) and t = w, a = A + B·t + C·t^2 over
 * Fp4 = Fp2[s]: A = g0 + g3·s, B = g1 + g4·s, C = g2 + g5·s where a = Σ g_i·w^i.
 * For a in the cyclotomic subgroup
 *   a^2 = (3A^2 - 2Ā) + (3s·C^2 + 2B̄)·t + (3B^2 - 2C̄)·t^2,
 * where ̄ negates the s-coordinate. Each Fp4 square is 3s. */
static inline void fp4_sqr(czk_fp2 *r0, czk_fp2 *r1, const czk_fp2 *a0, const czk_fp2 *a1) {
    /* (a0 + a1·s)^2 = (a0^2 + ξ·a1^2) + ((a0 + a1)^2 - a0^2 - a1^2)·s */
    czk_fp2 t0, t1, t;
    czk_fp2_sqr(&t0, a0);
    czk_fp2_sqr(&t1, a1);
    czk_fp2_add(&t, a0, a1);
    czk_fp2_sqr(&t, &t);
    czk_fp2_sub(&t, &t, &t0);
    czk_fp2_sub(r1, &t, &t1);
    czk_fp2_mul_by_nonresidue(&t1, &t1);
    czk_fp2_add(r0, &t0, &t1);
}

/* r = 3t - 2z  and  r = 3t + 2z */
static inline void triple_minus_double(czk_fp2 *r, const czk_fp2 *t, const czk_fp2 *z) {
    czk_fp2 d;
    czk_fp2_sub(&d, t, z);
    czk_fp2_dbl(&d, &d);
    czk_fp2_add(r, &d, t);
}
static inline void triple_plus_double(czk_fp2 *r, const czk_fp2 *t, const czk_fp2 *z) {
    czk_fp2 d;
    czk_fp2_add(&d, t, z);
    czk_fp2_dbl(&d, &d);
    czk_fp2_add(r, &d, t);
}

void czk_fp12_cyclotomic_sqr(czk_fp12 *r, const czk_fp12 *a) {
    /* g0 = c0.c0, g2 = c0.c1, g4 = c0.c2, g1 = c1.c0, g3 = c1.c1, g5 = c1.c2 */
    czk_fp2 a0, a1, b0, b1, c0, c1;
    fp4_sqr(&a0, &a1, &a->c0.c0, &a->c1.c1); /* A^2 */
    fp4_sqr(&b0, &b1, &a->c1.c0, &a->c0.c2); /* B^2 */
    fp4_sqr(&c0, &c1, &a->c0.c1, &a->c1.c2); /* C^2 */

    triple_minus_double(&r->c0.c0, &a0, &a->c0.c0);
    triple_plus_double(&r->c1.c1, &a1, &a->c1.c1);
    /* s·C^2 = ξ·c1 + c0·s */
    czk_fp2_mul_by_nonresidue(&c1, &c1);
    triple_plus_double(&r->c1.c0, &c1, &a->c1.c0);
    triple_minus_double(&r->c0.c2, &c0, &a->c0.c2);
    triple_minus_double(&r->c0.c1, &b0, &a->c0.c1);
    triple_plus_double(&r->c1.c2, &b1, &a->c1.c2);
}

DEFINE_POW_WINDOW(fp12_pow, czk_fp12, czk_fp12_set_one, czk_fp12_mul, czk_fp12_sqr)
DEFINE_POW_WINDOW(fp12_cyclotomic_pow, czk_fp12, czk_fp12_set_one, czk_fp12_mul, czk_fp12_cyclotomic_sqr)

void czk_fp12_pow(czk_fp12 *r, const czk_fp12 *a, const uint64_t *e, int n) { fp12_pow(r, a, e, n); }
void czk_fp12_cyclotomic_pow(czk_fp12 *r, const czk_fp12 *a, const uint64_t *e, int n) {
    fp12_cyclotomic_pow(r, a, e, n);
}

void czk_fp12_random(czk_fp12 *r, czk_rng *rng) {
    czk_fp6_random(&r->c0, rng);
    czk_fp6_random(&r->c1, rng);
}

static czk_fp *coeff(czk_fp12 *a, int i) {
    czk_fp6 *c6 = i < 6 ? &a->c0 : &a->c1;
    int j = i % 6;
    czk_fp2 *c2 = j < 2 ? &c6->c0 : j < 4 ? &c6->c1 : &c6->c2;
    return (j & 1) ? &c2->c1 : &c2->c0;
}

void czk_fp12_to_bytes_be(uint8_t out[CZK_FP12_BYTES], const czk_fp12 *a) {
    czk_fp12 t = *a;
    for (int i = 0; i < 12; i++) czk_fp_to_bytes_be(out + i * CZK_FP_BYTES, coeff(&t, i));
}

bool czk_fp12_from_bytes_be(czk_fp12 *r, const uint8_t in[CZK_FP12_BYTES]) {
    czk_fp12 t;
    for (int i = 0; i < 12; i++) {
        if (!czk_fp_from_bytes_be(coeff(&t, i), in + i * CZK_FP_BYTES)) return false;
    }
    *r = t;
    return true;
}
