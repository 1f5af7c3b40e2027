/* Tests of evaluation domains and the NTT: against a naive O(n^2) DFT for
 * every power of two up to 2^10 (with the default plan and with tiny in-cache
 * sizes that force one, two and three four-step levels), against the simple
 * serial radix-2 reference and Horner evaluation at larger sizes, round trips
 * up to 2^18, linearity, thread-count independence and the no-scratch
 * fallback. */
#include <string.h>

#include "../../src/poly/ntt_internal.h"
#include "czk/mem.h"
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

/* out[k] = Σ_j a[j]·(shift·w^k)^j, the naive way: n^2 multiplications. */
static void naive_eval(czk_fr *out, const czk_fr *a, size_t n, const czk_fr *w, const czk_fr *shift) {
    czk_fr x = *shift;
    for (size_t k = 0; k < n; k++) {
        czk_fr acc = {{0}}, p = CZK_FR_ONE, t;
        for (size_t j = 0; j < n; j++) {
            czk_fr_mul(&t, &a[j], &p);
            czk_fr_add(&acc, &acc, &t);
            czk_fr_mul(&p, &p, &x);
        }
        out[k] = acc;
        czk_fr_mul(&x, &x, w);
    }
}

/* Horner: Σ_j a[j] x^j. */
static void horner(czk_fr *out, const czk_fr *a, size_t n, const czk_fr *x) {
    czk_fr acc = {{0}};
    for (size_t j = n; j-- > 0;) {
        czk_fr_mul(&acc, &acc, x);
        czk_fr_add(&acc, &acc, &a[j]);
    }
    *out = acc;
}

static void test_inline_arith(void) {
    czk_fr edge[4];
    czk_fr_set_zero(&edge[0]);
    czk_fr_set_one(&edge[1]);
    czk_fr_neg(&edge[2], &edge[1]); /* r - 1 in Montgomery form */
    czk_fr_from_u64(&edge[3], 7);
    for (long i = 0; i < test_cases(20000); i++) {
        czk_fr a, b, r1, r2;
        if (i < 16) {
            a = edge[i / 4];
            b = edge[i % 4];
        } else {
            czk_fr_random(&a, &rng);
            czk_fr_random(&b, &rng);
        }
        czk_fr_add(&r1, &a, &b);
        poly_fr_add(&r2, &a, &b);
        CHECK(czk_fr_equal(&r1, &r2));
        czk_fr_sub(&r1, &a, &b);
        poly_fr_sub(&r2, &a, &b);
        CHECK(czk_fr_equal(&r1, &r2));
        poly_fr_add(&a, &a, &a); /* aliasing */
        czk_fr_dbl(&r1, &b);
        poly_fr_add(&b, &b, &b);
        CHECK(czk_fr_equal(&r1, &b));
    }
    for (unsigned bits = 1; bits < 20; bits++) {
        size_t n = (size_t)1 << bits;
        for (size_t i = 0; i < n; i += 1 + n / 64) {
            size_t r = 0;
            for (unsigned k = 0; k < bits; k++) r |= ((i >> k) & 1) << (bits - 1 - k);
            CHECK(poly_bitrev(i, bits) == r);
        }
    }
}

static void test_bitrev(czk_pool *pool) {
    for (unsigned lg = 0; lg <= 16; lg++) {
        size_t n = (size_t)1 << lg;
        czk_fr *a = malloc(n * sizeof *a), *x = malloc(n * sizeof *x);
        random_vec(a, n);
        memcpy(x, a, n * sizeof *a);
        czk_ntt_bitrev(x, lg, pool);
        bool ok = true;
        for (size_t i = 0; i < n; i++) ok &= czk_fr_equal(&x[i], &a[poly_bitrev(i, lg)]);
        CHECK_MSG(ok, "bitrev lg %u", lg);
        free(a);
        free(x);
    }
}

static void test_domain_init(void) {
    static const struct {
        size_t min;
        unsigned log;
    } cases[] = {{0, 0}, {1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {1000, 10}, {1024, 10}, {1025, 11}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        czk_domain d;
        CHECK(czk_domain_init(&d, cases[i].min) == CZK_OK);
        CHECK_MSG(d.log_n == cases[i].log && d.n == (size_t)1 << cases[i].log, "min %zu", cases[i].min);
        czk_fr w, t, one = CZK_FR_ONE, seven;
        czk_fr_root_of_unity(&w, (int)d.log_n);
        CHECK(czk_fr_equal(&w, &d.omega));
        fr_pow_u64(&t, &d.omega, d.n);
        CHECK(czk_fr_is_one(&t));
        if (d.n > 1) { /* primitive: ω^(n/2) = -1 */
            fr_pow_u64(&t, &d.omega, d.n / 2);
            czk_fr_add(&t, &t, &one);
            CHECK(czk_fr_is_zero(&t));
        }
        czk_fr_mul(&t, &d.omega, &d.omega_inv);
        CHECK(czk_fr_is_one(&t));
        czk_fr_from_u64(&t, d.n);
        czk_fr_mul(&t, &t, &d.n_inv);
        CHECK(czk_fr_is_one(&t));
        czk_fr_from_u64(&seven, 7);
        CHECK(czk_fr_equal(&d.coset, &seven));
        czk_fr_mul(&t, &d.coset, &d.coset_inv);
        CHECK(czk_fr_is_one(&t));
        czk_domain_free(&d);
        czk_domain_free(&d); /* idempotent */
    }
    /* bellperson's limit: 2^31 is the largest domain */
    czk_domain d;
    CHECK(czk_domain_init(&d, ((size_t)1 << 31) + 1) == CZK_ERR_UNSUPPORTED);
    CHECK(d.mem == NULL && d.n == 0);
    CHECK(czk_domain_init(&d, SIZE_MAX) == CZK_ERR_UNSUPPORTED);
    CHECK(czk_domain_init(NULL, 4) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_domain_init(&d, (size_t)1 << 31) == CZK_OK);
    CHECK(d.log_n == 31);
    czk_fr t;
    fr_pow_u64(&t, &d.omega, (uint64_t)1 << 30);
    CHECK(!czk_fr_is_one(&t));
    czk_fr_sqr(&t, &t);
    CHECK(czk_fr_is_one(&t));
    czk_domain_free(&d);
    czk_domain_free(NULL);
}

/* Every transform of a domain of 2^lg points (plan leaf_log) against the
 * naive DFT. */
static void check_against_naive(unsigned lg, unsigned leaf_log, czk_pool *pool) {
    czk_domain d;
    if (czk_domain_init_leaf(&d, (size_t)1 << lg, leaf_log) != CZK_OK) {
        CHECK(0);
        return;
    }
    size_t n = d.n;
    czk_fr *a = malloc(n * sizeof *a), *x = malloc(n * sizeof *x), *want = malloc(n * sizeof *want);
    czk_fr one = CZK_FR_ONE;
    random_vec(a, n);

    memcpy(x, a, n * sizeof *a);
    czk_ntt(&d, x, pool);
    naive_eval(want, a, n, &d.omega, &one);
    CHECK_MSG(vec_equal(x, want, n), "ntt lg %u leaf %u", lg, leaf_log);

    memcpy(x, a, n * sizeof *a);
    czk_ntt_dif(&d, x, false, pool);
    bool ok = true;
    for (size_t k = 0; k < n; k++) ok &= czk_fr_equal(&x[poly_bitrev(k, lg)], &want[k]);
    CHECK_MSG(ok, "dif lg %u leaf %u", lg, leaf_log);

    /* dit: bit-reversed input */
    for (size_t k = 0; k < n; k++) x[poly_bitrev(k, lg)] = a[k];
    czk_ntt_dit(&d, x, false, pool);
    CHECK_MSG(vec_equal(x, want, n), "dit lg %u leaf %u", lg, leaf_log);

    naive_eval(want, a, n, &d.omega_inv, &one);
    for (size_t k = 0; k < n; k++) x[poly_bitrev(k, lg)] = a[k];
    czk_ntt_dit(&d, x, true, pool);
    CHECK_MSG(vec_equal(x, want, n), "dit inverse lg %u leaf %u", lg, leaf_log);
    for (size_t k = 0; k < n; k++) czk_fr_mul(&want[k], &want[k], &d.n_inv);
    memcpy(x, a, n * sizeof *a);
    czk_intt(&d, x, pool);
    CHECK_MSG(vec_equal(x, want, n), "intt lg %u leaf %u", lg, leaf_log);

    memcpy(x, a, n * sizeof *a);
    czk_coset_ntt(&d, x, pool);
    naive_eval(want, a, n, &d.omega, &d.coset);
    CHECK_MSG(vec_equal(x, want, n), "coset_ntt lg %u leaf %u", lg, leaf_log);
    czk_coset_intt(&d, x, pool);
    CHECK_MSG(vec_equal(x, a, n), "coset_intt lg %u leaf %u", lg, leaf_log);

    free(a);
    free(x);
    free(want);
    czk_domain_free(&d);
}

static void test_naive(czk_pool *pool) {
    for (unsigned lg = 0; lg <= 10; lg++) check_against_naive(lg, POLY_LEAF_LOG, pool);
    /* tiny leaves: one level (leaf 4, lg 5..8), two and three levels below */
    static const unsigned leaves[] = {1, 2, 3, 4};
    for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++)
        for (unsigned lg = leaves[i] + 1; lg <= 10; lg += (lg < 8 ? 1 : 2))
            check_against_naive(lg, leaves[i], pool);
}

/* Larger sizes: fast transforms equal the simple serial radix-2 transforms,
 * a few outputs equal Horner evaluations, and round trips are the identity. */
static void test_large(czk_pool *pool) {
    long extra = test_cases(4); /* 2^18 at full scale, 2^14 at the smallest */
    unsigned max_lg = 14 + (unsigned)(extra < 0 ? 0 : extra > 4 ? 4 : extra);
    for (unsigned lg = 11; lg <= max_lg; lg++) {
        czk_domain d;
        CHECK(czk_domain_init(&d, (size_t)1 << lg) == CZK_OK);
        size_t n = d.n;
        czk_fr *a = malloc(n * sizeof *a), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
        random_vec(a, n);
        if (lg <= 16) {
            for (int inv = 0; inv < 2; inv++) {
                memcpy(x, a, n * sizeof *a);
                memcpy(y, a, n * sizeof *a);
                czk_ntt_dif(&d, x, inv, pool);
                czk_poly_dif_simple(y, lg, inv ? &d.omega_inv : &d.omega);
                CHECK_MSG(vec_equal(x, y, n), "dif vs simple lg %u inv %d", lg, inv);
                memcpy(x, a, n * sizeof *a);
                memcpy(y, a, n * sizeof *a);
                czk_ntt_dit(&d, x, inv, pool);
                czk_poly_dit_simple(y, lg, inv ? &d.omega_inv : &d.omega);
                CHECK_MSG(vec_equal(x, y, n), "dit vs simple lg %u inv %d", lg, inv);
            }
        }
        memcpy(x, a, n * sizeof *a);
        czk_ntt(&d, x, pool);
        for (int t = 0; t < 3; t++) {
            size_t k = (size_t)(czk_rng_next(&rng) % n);
            czk_fr wk, v;
            fr_pow_u64(&wk, &d.omega, k);
            horner(&v, a, n, &wk);
            CHECK_MSG(czk_fr_equal(&v, &x[k]), "ntt vs horner lg %u k %zu", lg, k);
        }
        czk_intt(&d, x, pool);
        CHECK_MSG(vec_equal(x, a, n), "intt∘ntt lg %u", lg);
        czk_coset_ntt(&d, x, pool);
        {
            size_t k = (size_t)(czk_rng_next(&rng) % n);
            czk_fr pt, v;
            fr_pow_u64(&pt, &d.omega, k);
            czk_fr_mul(&pt, &pt, &d.coset);
            horner(&v, a, n, &pt);
            CHECK_MSG(czk_fr_equal(&v, &x[k]), "coset_ntt vs horner lg %u", lg);
        }
        czk_coset_intt(&d, x, pool);
        CHECK_MSG(vec_equal(x, a, n), "coset_intt∘coset_ntt lg %u", lg);
        free(a);
        free(x);
        free(y);
        czk_domain_free(&d);
    }
}

static void test_linearity(czk_pool *pool) {
    for (unsigned lg = 1; lg <= 15; lg += 7) {
        czk_domain d;
        CHECK(czk_domain_init(&d, (size_t)1 << lg) == CZK_OK);
        size_t n = d.n;
        czk_fr *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
        czk_fr alpha, t;
        czk_fr_random(&alpha, &rng);
        random_vec(x, n);
        random_vec(y, n);
        for (size_t i = 0; i < n; i++) {
            czk_fr_mul(&t, &x[i], &alpha);
            czk_fr_add(&z[i], &t, &y[i]);
        }
        czk_coset_ntt(&d, x, pool);
        czk_coset_ntt(&d, y, pool);
        czk_coset_ntt(&d, z, pool);
        bool ok = true;
        for (size_t i = 0; i < n; i++) {
            czk_fr_mul(&t, &x[i], &alpha);
            czk_fr_add(&t, &t, &y[i]);
            ok &= czk_fr_equal(&t, &z[i]);
        }
        CHECK_MSG(ok, "linearity lg %u", lg);
        free(x);
        free(y);
        free(z);
        czk_domain_free(&d);
    }
}

/* NULL pool, 2 and 4 threads, and the serial no-scratch fallback: identical. */
static void test_threads(czk_pool *p2, czk_pool *p4) {
    static const unsigned lgs[] = {9, 13, 17};
    for (size_t i = 0; i < sizeof lgs / sizeof lgs[0]; i++) {
        unsigned lg = lgs[i];
        czk_domain d;
        CHECK(czk_domain_init(&d, (size_t)1 << lg) == CZK_OK);
        size_t n = d.n;
        czk_fr *a = malloc(n * sizeof *a), *r[4];
        random_vec(a, n);
        for (int k = 0; k < 4; k++) {
            r[k] = malloc(n * sizeof *a);
            memcpy(r[k], a, n * sizeof *a);
        }
        czk_pool *pools[4] = {NULL, p2, p4, p2};
        for (int k = 0; k < 4; k++) {
            if (k == 3) czk_poly_test_no_scratch(true);
            czk_coset_ntt(&d, r[k], pools[k]);
            czk_ntt(&d, r[k], pools[k]);
            czk_ntt_dit(&d, r[k], true, pools[k]);
            czk_intt(&d, r[k], pools[k]);
            czk_coset_intt(&d, r[k], pools[k]);
            if (k == 3) czk_poly_test_no_scratch(false);
        }
        CHECK_MSG(vec_equal(r[0], r[1], n), "2 threads lg %u", lg);
        CHECK_MSG(vec_equal(r[0], r[2], n), "4 threads lg %u", lg);
        CHECK_MSG(vec_equal(r[0], r[3], n), "no-scratch fallback lg %u", lg);
        CHECK(czk_mem_in_use(CZK_MEM_AUX) == 0); /* scratch given back */
        for (int k = 0; k < 4; k++) free(r[k]);
        free(a);
        czk_domain_free(&d);
    }
}

int main(void) {
    test_seed_rng(&rng, "test_ntt");
    czk_pool *p2 = NULL, *p4 = NULL;
    CHECK(czk_pool_create(&p2, 2) == CZK_OK);
    CHECK(czk_pool_create(&p4, 4) == CZK_OK);
    test_inline_arith();
    test_domain_init();
    test_bitrev(NULL);
    test_bitrev(p2);
    test_naive(NULL);
    test_naive(p2);
    test_large(p2);
    test_linearity(p4);
    test_threads(p2, p4);
    czk_pool_destroy(p2);
    czk_pool_destroy(p4);
    return test_finish("test_ntt");
}
