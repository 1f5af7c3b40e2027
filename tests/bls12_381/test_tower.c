/* Fp6 / Fp12: field axioms on random elements, sparse products against full
 * products, Frobenius maps against powers by p, the Frobenius coefficients
 * recomputed from ξ, and cyclotomic squaring on the cyclotomic subgroup. */
#include <gmp.h>
#include <string.h>

#include "czk/fp12.h"
#include "test.h"

static mpz_t P;

/* e as little-endian 64-bit limbs; returns the count (cap limbs at most). */
static int limbs_of(uint64_t *out, int cap, const mpz_t e) {
    size_t count = 0;
    if ((int)((mpz_sizeinbase(e, 2) + 63) / 64) > cap) return -1;
    mpz_export(out, &count, -1, sizeof(uint64_t), 0, 0, e);
    if (count == 0) out[count++] = 0;
    return (int)count;
}

static void fp6_from_v(czk_fp6 *r) { /* r = v */
    czk_fp6_set_zero(r);
    czk_fp2_set_one(&r->c1);
}

static void test_fp6(czk_rng *rng) {
    long n = test_cases(200);
    for (long i = 0; i < n; i++) {
        czk_fp6 a, b, c, t, u, w, one;
        czk_fp6_random(&a, rng);
        czk_fp6_random(&b, rng);
        czk_fp6_random(&c, rng);
        czk_fp6_set_one(&one);

        czk_fp6_mul(&t, &a, &b);
        czk_fp6_mul(&u, &b, &a);
        CHECK(czk_fp6_equal(&t, &u));
        /* (ab)c = a(bc) */
        czk_fp6_mul(&t, &t, &c);
        czk_fp6_mul(&u, &b, &c);
        czk_fp6_mul(&u, &a, &u);
        CHECK(czk_fp6_equal(&t, &u));
        /* a(b + c) = ab + ac */
        czk_fp6_add(&t, &b, &c);
        czk_fp6_mul(&t, &a, &t);
        czk_fp6_mul(&u, &a, &b);
        czk_fp6_mul(&w, &a, &c);
        czk_fp6_add(&u, &u, &w);
        CHECK(czk_fp6_equal(&t, &u));
        /* a - b + b = a, a + (-a) = 0, 2a = a + a */
        czk_fp6_sub(&t, &a, &b);
        czk_fp6_add(&t, &t, &b);
        CHECK(czk_fp6_equal(&t, &a));
        czk_fp6_neg(&t, &a);
        czk_fp6_add(&t, &t, &a);
        CHECK(czk_fp6_is_zero(&t));
        czk_fp6_dbl(&t, &a);
        czk_fp6_add(&u, &a, &a);
        CHECK(czk_fp6_equal(&t, &u));
        /* sqr = mul, with aliasing */
        czk_fp6_mul(&t, &a, &a);
        u = a;
        czk_fp6_sqr(&u, &u);
        CHECK(czk_fp6_equal(&t, &u));
        /* a·(1/a) = 1 */
        czk_fp6_inv(&t, &a);
        czk_fp6_mul(&t, &t, &a);
        CHECK(czk_fp6_is_one(&t));
        CHECK(czk_fp6_equal(&t, &one));
        /* ·v */
        fp6_from_v(&w);
        czk_fp6_mul(&t, &a, &w);
        czk_fp6_mul_by_nonresidue(&u, &a);
        CHECK(czk_fp6_equal(&t, &u));
        /* sparse products */
        w = b;
        czk_fp2_set_zero(&w.c2);
        czk_fp6_mul(&t, &a, &w);
        u = a;
        czk_fp6_mul_by_01(&u, &u, &w.c0, &w.c1);
        CHECK(czk_fp6_equal(&t, &u));
        czk_fp2_set_zero(&w.c0);
        czk_fp6_mul(&t, &a, &w);
        czk_fp6_mul_by_1(&u, &a, &w.c1);
        CHECK(czk_fp6_equal(&t, &u));
        w = b;
        czk_fp2_set_zero(&w.c1);
        czk_fp2_set_zero(&w.c2);
        czk_fp6_mul(&t, &a, &w);
        czk_fp6_mul_fp2(&u, &a, &w.c0);
        CHECK(czk_fp6_equal(&t, &u));
    }
    czk_fp6 z, t;
    czk_fp6_set_zero(&z);
    czk_fp6_inv(&t, &z);
    CHECK(czk_fp6_is_zero(&t));
}

static void test_fp12(czk_rng *rng) {
    long n = test_cases(100);
    for (long i = 0; i < n; i++) {
        czk_fp12 a, b, c, t, u, w;
        czk_fp12_random(&a, rng);
        czk_fp12_random(&b, rng);
        czk_fp12_random(&c, rng);

        czk_fp12_mul(&t, &a, &b);
        czk_fp12_mul(&u, &b, &a);
        CHECK(czk_fp12_equal(&t, &u));
        czk_fp12_mul(&t, &t, &c);
        czk_fp12_mul(&u, &b, &c);
        czk_fp12_mul(&u, &a, &u);
        CHECK(czk_fp12_equal(&t, &u));
        czk_fp12_add(&t, &b, &c);
        czk_fp12_mul(&t, &a, &t);
        czk_fp12_mul(&u, &a, &b);
        czk_fp12_mul(&w, &a, &c);
        czk_fp12_add(&u, &u, &w);
        CHECK(czk_fp12_equal(&t, &u));
        czk_fp12_sub(&t, &a, &b);
        czk_fp12_add(&t, &t, &b);
        CHECK(czk_fp12_equal(&t, &a));
        czk_fp12_neg(&t, &a);
        czk_fp12_add(&t, &t, &a);
        CHECK(czk_fp12_is_zero(&t));

        czk_fp12_mul(&t, &a, &a);
        u = a;
        czk_fp12_sqr(&u, &u);
        CHECK(czk_fp12_equal(&t, &u));
        czk_fp12_inv(&t, &a);
        czk_fp12_mul(&t, &t, &a);
        CHECK(czk_fp12_is_one(&t));

        /* w^2 = v: (c1·w)^2 = c1^2·v */
        czk_fp12 x;
        czk_fp6_set_zero(&x.c0);
        x.c1 = a.c1;
        czk_fp12_sqr(&t, &x);
        CHECK(czk_fp6_is_zero(&t.c1));
        czk_fp6 s;
        czk_fp6_sqr(&s, &a.c1);
        czk_fp6_mul_by_nonresidue(&s, &s);
        CHECK(czk_fp6_equal(&t.c0, &s));

        /* mul_by_014 = mul by the sparse element */
        czk_fp12 sp;
        czk_fp12_set_zero(&sp);
        sp.c0.c0 = b.c0.c0;
        sp.c0.c1 = b.c0.c1;
        sp.c1.c1 = b.c1.c1;
        czk_fp12_mul(&t, &a, &sp);
        u = a;
        czk_fp12_mul_by_014(&u, &u, &sp.c0.c0, &sp.c0.c1, &sp.c1.c1);
        CHECK(czk_fp12_equal(&t, &u));

        /* conjugate = frobenius^6 */
        czk_fp12_conjugate(&t, &a);
        czk_fp12_frobenius_map(&u, &a, 6);
        CHECK(czk_fp12_equal(&t, &u));

        /* bytes */
        uint8_t buf[CZK_FP12_BYTES];
        czk_fp12_to_bytes_be(buf, &a);
        CHECK(czk_fp12_from_bytes_be(&t, buf));
        CHECK(czk_fp12_equal(&t, &a));
        memset(buf, 0xff, CZK_FP_BYTES);
        CHECK(!czk_fp12_from_bytes_be(&t, buf));
    }
    czk_fp12 z, t;
    czk_fp12_set_zero(&z);
    czk_fp12_inv(&t, &z);
    CHECK(czk_fp12_is_zero(&t));
}

static void test_frobenius(czk_rng *rng) {
    uint64_t pl[6];
    int pn = limbs_of(pl, 6, P);
    long n = test_cases(8);
    for (long i = 0; i < n; i++) {
        czk_fp6 a6, t6;
        czk_fp6_random(&a6, rng);
        /* Fp6: frobenius_map(a, 1) = a^p (computed in Fp12 ⊃ Fp6) */
        czk_fp12 e6, p6;
        e6.c0 = a6;
        czk_fp6_set_zero(&e6.c1);
        czk_fp12_pow(&p6, &e6, pl, pn);
        czk_fp6_frobenius_map(&t6, &a6, 1);
        CHECK(czk_fp6_equal(&t6, &p6.c0) && czk_fp6_is_zero(&p6.c1));
        /* frobenius_map(a, k) = k-fold frobenius_map(·, 1) */
        czk_fp6 pw = a6;
        for (unsigned k = 0; k <= 7; k++) {
            czk_fp6_frobenius_map(&t6, &a6, k);
            CHECK_MSG(czk_fp6_equal(&t6, &pw), "fp6 frobenius k = %u", k);
            czk_fp6_frobenius_map(&pw, &pw, 1);
        }
        czk_fp6_frobenius_map(&t6, &a6, 6);
        CHECK(czk_fp6_equal(&t6, &a6));

        czk_fp12 a, t, u;
        czk_fp12_random(&a, rng);
        /* frobenius_map(a, 1) = a^p */
        czk_fp12_pow(&u, &a, pl, pn);
        czk_fp12_frobenius_map(&t, &a, 1);
        CHECK(czk_fp12_equal(&t, &u));
        if (i == 0) {
            /* frobenius_map(a, 2) = a^(p^2) */
            mpz_t e;
            uint64_t el[12];
            mpz_init(e);
            mpz_mul(e, P, P);
            int en = limbs_of(el, 12, e);
            czk_fp12_pow(&u, &a, el, en);
            czk_fp12_frobenius_map(&t, &a, 2);
            CHECK(czk_fp12_equal(&t, &u));
            mpz_clear(e);
        }
        /* composition: frobenius(frobenius(a, j), k) = frobenius(a, j + k) */
        czk_fp12 pw12 = a;
        for (unsigned k = 0; k <= 13; k++) {
            czk_fp12_frobenius_map(&t, &a, k);
            CHECK_MSG(czk_fp12_equal(&t, &pw12), "fp12 frobenius k = %u", k);
            czk_fp12_frobenius_map(&pw12, &pw12, 1);
        }
        for (unsigned j = 0; j < 12; j++) {
            unsigned k = (unsigned)(czk_rng_next(rng) % 12);
            czk_fp12_frobenius_map(&t, &a, j);
            czk_fp12_frobenius_map(&t, &t, k);
            czk_fp12_frobenius_map(&u, &a, j + k);
            CHECK(czk_fp12_equal(&t, &u));
        }
        /* a frobenius is a ring homomorphism */
        czk_fp12 b, ab;
        czk_fp12_random(&b, rng);
        czk_fp12_mul(&ab, &a, &b);
        for (unsigned k = 1; k < 12; k += 3) {
            czk_fp12 fa, fb;
            czk_fp12_frobenius_map(&fa, &a, k);
            czk_fp12_frobenius_map(&fb, &b, k);
            czk_fp12_mul(&fa, &fa, &fb);
            czk_fp12_frobenius_map(&t, &ab, k);
            CHECK(czk_fp12_equal(&t, &fa));
        }
    }
}

/* The tables equal ξ^((p^k-1)/3), ξ^(2(p^k-1)/3), ξ^((p^k-1)/6). */
static void test_frobenius_coefficients(void) {
    czk_fp2 xi;
    czk_fp2_set_one(&xi);
    czk_fp_set_one(&xi.c1);
    mpz_t pk, e;
    mpz_inits(pk, e, NULL);
    uint64_t el[40];
    for (unsigned k = 0; k < 6; k++) {
        mpz_pow_ui(pk, P, k);
        mpz_sub_ui(pk, pk, 1);
        czk_fp2 g;
        struct {
            unsigned mult, div;
            const czk_fp2 *table;
            const char *name;
        } c[3] = {{1, 3, CZK_FP6_FROBENIUS_C1, "fp6 c1"},
                  {2, 3, CZK_FP6_FROBENIUS_C2, "fp6 c2"},
                  {1, 6, CZK_FP12_FROBENIUS_C1, "fp12 c1"}};
        for (int j = 0; j < 3; j++) {
            CHECK(mpz_divisible_ui_p(pk, c[j].div));
            mpz_mul_ui(e, pk, c[j].mult);
            mpz_divexact_ui(e, e, c[j].div);
            int en = limbs_of(el, 40, e);
            czk_fp2_pow(&g, &xi, el, en);
            CHECK_MSG(czk_fp2_equal(&g, &c[j].table[k]), "%s, k = %u", c[j].name, k);
        }
    }
    mpz_clears(pk, e, NULL);
}

/* On f^((p^6-1)(p^2+1)) the cyclotomic squaring is a squaring, and so the
 * cyclotomic power is the power. */
static void test_cyclotomic(czk_rng *rng) {
    long n = test_cases(20);
    for (long i = 0; i < n; i++) {
        czk_fp12 f, g, t, u, inv;
        czk_fp12_random(&f, rng);
        czk_fp12_inv(&inv, &f);
        czk_fp12_conjugate(&g, &f);
        czk_fp12_mul(&g, &g, &inv);
        czk_fp12_frobenius_map(&t, &g, 2);
        czk_fp12_mul(&g, &g, &t);
        /* in the subgroup: g^(p^4 - p^2 + 1) = 1 ⇔ conj(g)·g = 1 and … */
        czk_fp12_conjugate(&t, &g);
        czk_fp12_mul(&t, &t, &g);
        CHECK(czk_fp12_is_one(&t));
        czk_fp12_sqr(&t, &g);
        u = g;
        czk_fp12_cyclotomic_sqr(&u, &u);
        CHECK(czk_fp12_equal(&t, &u));
        uint64_t e[3] = {czk_rng_next(rng), czk_rng_next(rng), czk_rng_next(rng) >> 7};
        czk_fp12_pow(&t, &g, e, 3);
        czk_fp12_cyclotomic_pow(&u, &g, e, 3);
        CHECK(czk_fp12_equal(&t, &u));
        /* and it is not a squaring elsewhere (the test above is meaningful) */
        czk_fp12_sqr(&t, &f);
        czk_fp12_cyclotomic_sqr(&u, &f);
        CHECK(!czk_fp12_equal(&t, &u));
    }
    /* pow with exponent 0 and 1 */
    czk_fp12 a, t;
    czk_fp12_random(&a, rng);
    uint64_t zero = 0, one = 1;
    czk_fp12_pow(&t, &a, &zero, 1);
    CHECK(czk_fp12_is_one(&t));
    czk_fp12_pow(&t, &a, &one, 1);
    CHECK(czk_fp12_equal(&t, &a));
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_tower");
    mpz_init_set_str(P,
                     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
                     16);
    /* the test's p is the library's p */
    uint64_t pl[6];
    limbs_of(pl, 6, P);
    CHECK(memcmp(pl, CZK_FP_MODULUS.l, sizeof pl) == 0);

    test_fp6(&rng);
    test_fp12(&rng);
    test_frobenius_coefficients();
    test_frobenius(&rng);
    test_cyclotomic(&rng);
    mpz_clear(P);
    return test_finish("test_tower");
}
