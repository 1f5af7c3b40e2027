/* Tests of czk_poly_h (bellperson's H), czk_domain_lagrange_at and
 * czk_domain_z: the defining identities at random points, the degree bound,
 * equality with a literal transcription of bellperson's steps built from the
 * natural-order transforms and with the six-transform form built the same way,
 * and thread-count independence. */
#include <string.h>

#include "../../src/poly/ntt_internal.h"
#include "czk/poly.h"
#include "czk/pool.h"
#include "test.h"

static czk_rng rng;

static void random_vec(czk_fr *v, size_t n) {
    for (size_t i = 0; i < n; i++) czk_fr_random(&v[i], &rng);
}

static bool vec_equal(const czk_fr *a, const czk_fr *b, size_t n) {
    return memcmp(a, b, n * sizeof(czk_fr)) == 0;
}

static void fr_pow_u64(czk_fr *r, const czk_fr *a, uint64_t e) { czk_fr_pow(r, a, &e, 1); }

static void horner(czk_fr *out, const czk_fr *a, size_t n, const czk_fr *x) {
    czk_fr acc = {{0}};
    for (size_t j = n; j-- > 0;) {
        czk_fr_mul(&acc, &acc, x);
        czk_fr_add(&acc, &acc, &a[j]);
    }
    *out = acc;
}

static czk_fr *dup(const czk_fr *a, size_t n) {
    czk_fr *r = malloc(n * sizeof *r);
    memcpy(r, a, n * sizeof *r);
    return r;
}

/* bellperson's distribute_powers: v[i] *= g^i. */
static void distribute_powers(czk_fr *v, size_t n, const czk_fr *g) {
    czk_fr u = CZK_FR_ONE;
    for (size_t i = 0; i < n; i++) {
        czk_fr_mul(&v[i], &v[i], &u);
        czk_fr_mul(&u, &u, g);
    }
}

/* execute_fft step by step, as bellperson writes it. */
static void h_literal(const czk_domain *d, czk_fr *a, czk_fr *b, czk_fr *c) {
    size_t n = d->n;
    czk_fr *v[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        czk_intt(d, v[k], NULL);
        distribute_powers(v[k], n, &d->coset);
        czk_ntt(d, v[k], NULL);
    }
    for (size_t i = 0; i < n; i++) {
        czk_fr_mul(&a[i], &a[i], &b[i]);
        czk_fr_sub(&a[i], &a[i], &c[i]);
    }
    czk_fr z;
    czk_domain_z(d, &d->coset, &z);
    czk_fr_inv(&z, &z);
    for (size_t i = 0; i < n; i++) czk_fr_mul(&a[i], &a[i], &z);
    czk_intt(d, a, NULL);
    distribute_powers(a, n, &d->coset_inv);
}

/* A·B - C = h·Z at random x, when c = a·b on the domain. */
static void check_h_identity(unsigned lg, unsigned leaf, czk_pool *pool) {
    czk_domain d;
    CHECK(czk_domain_init_leaf(&d, (size_t)1 << lg, leaf) == CZK_OK);
    size_t n = d.n;
    czk_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    random_vec(a, n);
    random_vec(b, n);
    for (size_t i = 0; i < n; i++) czk_fr_mul(&c[i], &a[i], &b[i]);
    czk_fr *A = dup(a, n), *B = dup(b, n), *C = dup(c, n);
    czk_intt(&d, A, pool);
    czk_intt(&d, B, pool);
    czk_intt(&d, C, pool);
    CHECK(czk_poly_h(&d, a, b, c, pool) == CZK_OK);
    CHECK_MSG(czk_fr_is_zero(&a[n - 1]), "deg h < n-1, lg %u", lg);
    for (int t = 0; t < 2; t++) {
        czk_fr x, ax, bx, cx, hx, zx, lhs, rhs;
        czk_fr_random(&x, &rng);
        horner(&ax, A, n, &x);
        horner(&bx, B, n, &x);
        horner(&cx, C, n, &x);
        horner(&hx, a, n - 1 > 0 ? n - 1 : 1, &x);
        if (n == 1) czk_fr_set_zero(&hx); /* h has no coefficients */
        czk_domain_z(&d, &x, &zx);
        czk_fr_mul(&lhs, &ax, &bx);
        czk_fr_sub(&lhs, &lhs, &cx);
        czk_fr_mul(&rhs, &hx, &zx);
        CHECK_MSG(czk_fr_equal(&lhs, &rhs), "A·B - C = h·Z, lg %u leaf %u", lg, leaf);
    }
    free(a);
    free(b);
    free(c);
    free(A);
    free(B);
    free(C);
    czk_domain_free(&d);
}

/* The six-transform form of H (czk_poly_h's and the CUDA backend's):
 * h = (iNTT_coset(A_g·B_g) - iNTT(c)) / Z(g), A_g, B_g the coset evaluations
 * of a's and b's polynomials, from the natural-order transforms. Equal to
 * bellperson's steps for any a, b, c: interpolation on the coset is linear
 * and c's interpolant there is c itself (degree < n). */
static void h_six(const czk_domain *d, czk_fr *a, czk_fr *b, czk_fr *c) {
    size_t n = d->n;
    czk_intt(d, a, NULL);
    czk_coset_ntt(d, a, NULL);
    czk_intt(d, b, NULL);
    czk_coset_ntt(d, b, NULL);
    for (size_t i = 0; i < n; i++) czk_fr_mul(&a[i], &a[i], &b[i]);
    czk_coset_intt(d, a, NULL);
    czk_intt(d, c, NULL);
    czk_fr zinv;
    czk_domain_z(d, &d->coset, &zinv);
    czk_fr_inv(&zinv, &zinv);
    for (size_t i = 0; i < n; i++) {
        czk_fr_sub(&a[i], &a[i], &c[i]);
        czk_fr_mul(&a[i], &a[i], &zinv);
    }
}

/* Arbitrary a, b, c (not divisible by Z): czk_poly_h gives the same values
 * as the reference ref (bellperson's steps, or the six-transform form). */
static void check_h_ref(unsigned lg, unsigned leaf, void (*ref)(const czk_domain *, czk_fr *, czk_fr *, czk_fr *),
                        const char *name, czk_pool *pool) {
    czk_domain d;
    CHECK(czk_domain_init_leaf(&d, (size_t)1 << lg, leaf) == CZK_OK);
    size_t n = d.n;
    czk_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    random_vec(a, n);
    random_vec(b, n);
    random_vec(c, n);
    czk_fr *a2 = dup(a, n), *b2 = dup(b, n), *c2 = dup(c, n);
    ref(&d, a2, b2, c2);
    CHECK(czk_poly_h(&d, a, b, c, pool) == CZK_OK);
    CHECK_MSG(vec_equal(a, a2, n), "h vs %s, lg %u leaf %u", name, lg, leaf);
    free(a);
    free(b);
    free(c);
    free(a2);
    free(b2);
    free(c2);
    czk_domain_free(&d);
}

static void check_h_literal(unsigned lg, unsigned leaf, czk_pool *pool) {
    check_h_ref(lg, leaf, h_literal, "bellperson's steps", pool);
}

static void test_h(czk_pool *pool) {
    for (unsigned lg = 0; lg <= 10; lg++) check_h_ref(lg, POLY_LEAF_LOG, h_six, "the six-transform form", pool);
    for (unsigned lg = 0; lg <= 12; lg++) {
        check_h_identity(lg, POLY_LEAF_LOG, pool);
        check_h_literal(lg, POLY_LEAF_LOG, pool);
    }
    for (unsigned lg = 3; lg <= 9; lg += 3) {
        check_h_identity(lg, 2, pool);
        check_h_literal(lg, 2, pool);
    }
    check_h_identity(test_cases(5) >= 5 ? 16 : 14, POLY_LEAF_LOG, pool);
    CHECK(czk_poly_h(NULL, NULL, NULL, NULL, pool) == CZK_ERR_INVALID_ARGUMENT);
}

static void test_lagrange(czk_pool *pool) {
    for (unsigned lg = 0; lg <= 14; lg += (lg < 6 ? 1 : 4)) {
        czk_domain d;
        CHECK(czk_domain_init(&d, (size_t)1 << lg) == CZK_OK);
        size_t n = d.n;
        czk_fr *L = malloc(n * sizeof *L), *p = malloc(n * sizeof *p), *pe = malloc(n * sizeof *pe);
        czk_fr *pw = malloc(n * sizeof *pw);
        for (int t = 0; t < 4; t++) {
            czk_fr tau;
            if (t == 0) czk_fr_set_zero(&tau);
            else if (t == 1) fr_pow_u64(&tau, &d.omega, czk_rng_next(&rng) % n); /* in the domain */
            else czk_fr_random(&tau, &rng);
            czk_domain_lagrange_at(&d, &tau, L, pool);
            /* bellperson's generator: ifft of (1, τ, τ^2, ...) */
            czk_fr x = CZK_FR_ONE;
            for (size_t i = 0; i < n; i++) {
                pw[i] = x;
                czk_fr_mul(&x, &x, &tau);
            }
            czk_intt(&d, pw, pool);
            CHECK_MSG(vec_equal(L, pw, n), "lagrange vs ifft(powers), lg %u case %d", lg, t);
            /* Σ L_i(τ)·p(ω^i) = p(τ) */
            random_vec(p, n);
            memcpy(pe, p, n * sizeof *p);
            czk_ntt(&d, pe, pool);
            czk_fr sum = {{0}}, term, want;
            for (size_t i = 0; i < n; i++) {
                czk_fr_mul(&term, &L[i], &pe[i]);
                czk_fr_add(&sum, &sum, &term);
            }
            horner(&want, p, n, &tau);
            CHECK_MSG(czk_fr_equal(&sum, &want), "Σ L_i(τ) p(ω^i) = p(τ), lg %u case %d", lg, t);
        }
        /* Z(τ) = τ^n - 1 */
        czk_fr tau, z, want;
        czk_fr_random(&tau, &rng);
        czk_domain_z(&d, &tau, &z);
        fr_pow_u64(&want, &tau, n);
        czk_fr_sub(&want, &want, &CZK_FR_ONE);
        CHECK(czk_fr_equal(&z, &want));
        czk_domain_z(&d, &d.omega, &z);
        CHECK(czk_fr_is_zero(&z));
        free(L);
        free(p);
        free(pe);
        free(pw);
        czk_domain_free(&d);
    }
}

/* H and Lagrange values with a NULL pool, 2 and 4 threads: bit-identical. */
static void test_threads(czk_pool *p2, czk_pool *p4) {
    unsigned lg = 15;
    czk_domain d;
    CHECK(czk_domain_init(&d, (size_t)1 << lg) == CZK_OK);
    size_t n = d.n;
    czk_fr *in = malloc(3 * n * sizeof *in), *out[3];
    random_vec(in, 3 * n);
    czk_pool *pools[3] = {NULL, p2, p4};
    czk_fr tau;
    czk_fr_random(&tau, &rng);
    czk_fr *L[3];
    for (int k = 0; k < 3; k++) {
        out[k] = dup(in, 3 * n);
        CHECK(czk_poly_h(&d, out[k], out[k] + n, out[k] + 2 * n, pools[k]) == CZK_OK);
        L[k] = malloc(n * sizeof *L[k]);
        czk_domain_lagrange_at(&d, &tau, L[k], pools[k]);
    }
    CHECK(vec_equal(out[0], out[1], n) && vec_equal(out[0], out[2], n));
    CHECK(vec_equal(L[0], L[1], n) && vec_equal(L[0], L[2], n));
    for (int k = 0; k < 3; k++) {
        free(out[k]);
        free(L[k]);
    }
    free(in);
    czk_domain_free(&d);
}

int main(void) {
    test_seed_rng(&rng, "test_poly_h");
    czk_pool *p2 = NULL, *p4 = NULL;
    CHECK(czk_pool_create(&p2, 2) == CZK_OK);
    CHECK(czk_pool_create(&p4, 4) == CZK_OK);
    test_h(NULL);
    test_h(p2);
    test_lagrange(p2);
    test_threads(p2, p4);
    czk_pool_destroy(p2);
    czk_pool_destroy(p4);
    return test_finish("test_poly_h");
}
