/* Fp and Fr against GMP: random cases for every operation, on each
 * multiplication path this CPU has (portable, ADX). Montgomery constants are
 * recomputed here. */
#include <gmp.h>
#include <string.h>

#include "czk/fp.h"
#include "czk/fp2.h"
#include "czk/fr.h"
#include "test.h"
#include "../../src/bls12_381/fp_adx.h"

/* A field seen through void pointers, so one test body serves Fp and Fr. */
typedef struct {
    const char *name;
    int limbs;
    size_t size;
    const uint64_t *modulus, *one, *r2;
    uint64_t minv;
    void (*add)(void *, const void *, const void *);
    void (*sub)(void *, const void *, const void *);
    void (*mul)(void *, const void *, const void *);
    void (*sqr)(void *, const void *);
    void (*neg)(void *, const void *);
    void (*dbl)(void *, const void *);
    void (*inv)(void *, const void *);
    void (*inv_fermat)(void *, const void *);
    void (*pow)(void *, const void *, const uint64_t *, int);
    bool (*sqrt)(void *, const void *);
    int (*legendre)(const void *);
    void (*random)(void *, czk_rng *);
    bool (*from_canonical)(void *, const uint64_t *);
    void (*to_canonical)(uint64_t *, const void *);
} field;

#define WRAP(T, f)                                                                             \
    static void f##_add_(void *r, const void *a, const void *b) { f##_add(r, a, b); }          \
    static void f##_sub_(void *r, const void *a, const void *b) { f##_sub(r, a, b); }          \
    static void f##_mul_(void *r, const void *a, const void *b) { f##_mul(r, a, b); }          \
    static void f##_sqr_(void *r, const void *a) { f##_sqr(r, a); }                            \
    static void f##_neg_(void *r, const void *a) { f##_neg(r, a); }                            \
    static void f##_dbl_(void *r, const void *a) { f##_dbl(r, a); }                            \
    static void f##_inv_(void *r, const void *a) { f##_inv(r, a); }                            \
    static void f##_inv_fermat_(void *r, const void *a) { f##_inv_fermat(r, a); }              \
    static void f##_pow_(void *r, const void *a, const uint64_t *e, int n) { f##_pow(r, a, e, n); } \
    static bool f##_sqrt_(void *r, const void *a) { return f##_sqrt(r, a); }                  \
    static int f##_legendre_(const void *a) { return f##_legendre(a); }                        \
    static void f##_random_(void *r, czk_rng *g) { f##_random(r, g); }                         \
    static bool f##_from_canonical_(void *r, const uint64_t *v) { return f##_from_canonical(r, v); } \
    static void f##_to_canonical_(uint64_t *v, const void *a) { f##_to_canonical(v, a); }

WRAP(czk_fp, czk_fp)
WRAP(czk_fr, czk_fr)

#define FIELD(T, f, NAME, LIMBS, MINV)                                                          \
    {NAME, LIMBS, sizeof(T), f##_MODULUS_L, f##_ONE_L, f##_R2_L, MINV, f##_add_, f##_sub_,       \
     f##_mul_, f##_sqr_, f##_neg_, f##_dbl_, f##_inv_, f##_inv_fermat_, f##_pow_, f##_sqrt_, f##_legendre_,       \
     f##_random_, f##_from_canonical_, f##_to_canonical_}

#define czk_fp_MODULUS_L CZK_FP_MODULUS.l
#define czk_fp_ONE_L CZK_FP_ONE.l
#define czk_fp_R2_L CZK_FP_R2.l
#define czk_fr_MODULUS_L CZK_FR_MODULUS.l
#define czk_fr_ONE_L CZK_FR_ONE.l
#define czk_fr_R2_L CZK_FR_R2.l

static void mpz_from_limbs(mpz_t z, const uint64_t *v, int n) { mpz_import(z, (size_t)n, -1, 8, 0, 0, v); }

static void limbs_from_mpz(uint64_t *v, int n, const mpz_t z) {
    memset(v, 0, sizeof(uint64_t) * (size_t)n);
    size_t count;
    mpz_export(v, &count, -1, 8, 0, 0, z);
}

static void elem_to_mpz(const field *F, mpz_t z, const void *a) {
    uint64_t v[6];
    F->to_canonical(v, a);
    mpz_from_limbs(z, v, F->limbs);
}

static bool elem_eq_mpz(const field *F, const void *a, const mpz_t z) {
    mpz_t t;
    mpz_init(t);
    elem_to_mpz(F, t, a);
    bool ok = mpz_cmp(t, z) == 0;
    mpz_clear(t);
    return ok;
}

static void check_constants(const field *F) {
    mpz_t m, R, t, two64;
    mpz_inits(m, R, t, two64, NULL);
    mpz_from_limbs(m, F->modulus, F->limbs);
    CHECK_MSG(mpz_probab_prime_p(m, 30) > 0, "%s modulus is prime", F->name);
    /* the no-carry multiplication needs the top limb below 2^63 - 1 */
    CHECK(F->modulus[F->limbs - 1] < (1ULL << 63) - 1);
    mpz_ui_pow_ui(R, 2, 64 * (unsigned)F->limbs);
    mpz_mod(t, R, m);
    uint64_t v[6];
    limbs_from_mpz(v, F->limbs, t);
    CHECK_MSG(!memcmp(v, F->one, 8 * (size_t)F->limbs), "%s: ONE = 2^k mod m", F->name);
    mpz_mul(t, R, R);
    mpz_mod(t, t, m);
    limbs_from_mpz(v, F->limbs, t);
    CHECK_MSG(!memcmp(v, F->r2, 8 * (size_t)F->limbs), "%s: R2 = 2^2k mod m", F->name);
    mpz_ui_pow_ui(two64, 2, 64);
    CHECK(mpz_invert(t, m, two64));
    mpz_sub(t, two64, t);
    CHECK_MSG(mpz_get_ui(t) == F->minv, "%s: minv = -m^-1 mod 2^64", F->name);
    mpz_clears(m, R, t, two64, NULL);
}

static void random_mpz_exponent(mpz_t e, uint64_t *limbs, int n, czk_rng *rng) {
    for (int i = 0; i < n; i++) limbs[i] = czk_rng_next(rng);
    if (n > 0) limbs[n - 1] >>= czk_rng_next(rng) % 64;
    mpz_from_limbs(e, limbs, n);
}

static void check_ops(const field *F, czk_rng *rng, long cases) {
    mpz_t m, x, y, want, e;
    mpz_inits(m, x, y, want, e, NULL);
    mpz_from_limbs(m, F->modulus, F->limbs);
    uint8_t a[48] __attribute__((aligned(8))), b[48] __attribute__((aligned(8))),
        r[48] __attribute__((aligned(8)));
    long squares = 0;
    for (long i = 0; i < cases; i++) {
        F->random(a, rng);
        F->random(b, rng);
        /* edge values now and then: 0, 1, -1 */
        if (i % 97 == 0) memset(a, 0, F->size);
        if (i % 89 == 1) memcpy(a, F->one, F->size);
        if (i % 83 == 2) F->neg(a, F->one);
        if (i % 79 == 3) { /* a power of two, or its negation: long runs of zero bits */
            uint64_t v[6] = {0};
            int bit = (int)(czk_rng_next(rng) % (uint64_t)(64 * F->limbs - 3));
            v[bit / 64] = 1ULL << (bit % 64);
            if (F->from_canonical(a, v) && (i & 1)) F->neg(a, a);
        }
        elem_to_mpz(F, x, a);
        elem_to_mpz(F, y, b);

        F->add(r, a, b);
        mpz_add(want, x, y);
        mpz_mod(want, want, m);
        CHECK_MSG(elem_eq_mpz(F, r, want), "%s add case %ld", F->name, i);
        F->sub(r, a, b);
        mpz_sub(want, x, y);
        mpz_mod(want, want, m);
        CHECK_MSG(elem_eq_mpz(F, r, want), "%s sub case %ld", F->name, i);
        F->mul(r, a, b);
        mpz_mul(want, x, y);
        mpz_mod(want, want, m);
        CHECK_MSG(elem_eq_mpz(F, r, want), "%s mul case %ld", F->name, i);
        F->sqr(r, a);
        mpz_mul(want, x, x);
        mpz_mod(want, want, m);
        CHECK_MSG(elem_eq_mpz(F, r, want), "%s sqr case %ld", F->name, i);
        F->neg(r, a);
        mpz_neg(want, x);
        mpz_mod(want, want, m);
        CHECK_MSG(elem_eq_mpz(F, r, want), "%s neg case %ld", F->name, i);
        F->dbl(r, a);
        mpz_mul_ui(want, x, 2);
        mpz_mod(want, want, m);
        CHECK_MSG(elem_eq_mpz(F, r, want), "%s dbl case %ld", F->name, i);
        /* aliasing: r = a·a through the same pointer */
        memcpy(r, a, F->size);
        F->mul(r, r, r);
        mpz_mul(want, x, x);
        mpz_mod(want, want, m);
        CHECK_MSG(elem_eq_mpz(F, r, want), "%s aliased mul case %ld", F->name, i);

        F->inv(r, a);
        if (mpz_sgn(x) == 0) {
            CHECK_MSG(elem_eq_mpz(F, r, x), "%s inv(0) = 0", F->name);
        } else {
            CHECK(mpz_invert(want, x, m));
            CHECK_MSG(elem_eq_mpz(F, r, want), "%s inv case %ld", F->name, i);
        }
        if (i % 64 == 0) {
            uint8_t r2[48] __attribute__((aligned(8)));
            F->inv_fermat(r2, a);
            CHECK_MSG(!memcmp(r, r2, F->size), "%s safegcd inv = Fermat inv, case %ld", F->name, i);
        }
        int leg = F->legendre(a);
        CHECK_MSG(leg == mpz_legendre(x, m), "%s legendre case %ld", F->name, i);
        bool has = F->sqrt(r, a);
        CHECK_MSG(has == (leg >= 0), "%s sqrt existence case %ld", F->name, i);
        if (has) {
            squares++;
            elem_to_mpz(F, want, r);
            mpz_mul(want, want, want);
            mpz_mod(want, want, m);
            CHECK_MSG(mpz_cmp(want, x) == 0, "%s sqrt case %ld", F->name, i);
        }
        if (i % 16 == 0) {
            uint64_t el[6];
            int n = 1 + (int)(czk_rng_next(rng) % 6);
            random_mpz_exponent(e, el, n, rng);
            F->pow(r, a, el, n);
            mpz_powm(want, x, e, m);
            CHECK_MSG(elem_eq_mpz(F, r, want), "%s pow case %ld", F->name, i);
        }
        /* canonical round trip */
        uint64_t v[6];
        F->to_canonical(v, a);
        CHECK(F->from_canonical(r, v) && !memcmp(r, a, F->size));
    }
    CHECK_MSG(squares > cases / 3, "%s: about half the cases are squares (%ld/%ld)", F->name, squares, cases);
    /* from_canonical rejects m and m + small */
    uint64_t v[6];
    memcpy(v, F->modulus, 8 * (size_t)F->limbs);
    CHECK(!F->from_canonical(r, v));
    v[0]++;
    CHECK(!F->from_canonical(r, v));
    v[0] -= 2;
    CHECK(F->from_canonical(r, v));
    mpz_clears(m, x, y, want, e, NULL);
}

static void check_encodings(czk_rng *rng, long cases) {
    for (long i = 0; i < cases; i++) {
        czk_fp a, b;
        uint8_t buf[48];
        czk_fp_random(&a, rng);
        czk_fp_to_bytes_be(buf, &a);
        CHECK(czk_fp_from_bytes_be(&b, buf) && czk_fp_equal(&a, &b));
        uint64_t v[6];
        czk_fp_to_canonical(v, &a);
        CHECK(buf[47] == (uint8_t)v[0] && buf[0] == (uint8_t)(v[5] >> 56));
        czk_fr s, t;
        uint8_t le[32], be[32];
        czk_fr_random(&s, rng);
        czk_fr_to_bytes_le(le, &s);
        czk_fr_to_bytes_be(be, &s);
        for (int k = 0; k < 32; k++) CHECK(le[k] == be[31 - k]);
        CHECK(czk_fr_from_bytes_le(&t, le) && czk_fr_equal(&s, &t));
        CHECK(czk_fr_from_bytes_be(&t, be) && czk_fr_equal(&s, &t));
        uint64_t w[4];
        czk_fr_to_canonical(w, &s);
        CHECK(le[0] == (uint8_t)w[0] && le[31] == (uint8_t)(w[3] >> 56));
        /* larger root: exactly one of a, -a is the larger (a != 0) */
        czk_fp na;
        czk_fp_neg(&na, &a);
        if (!czk_fp_is_zero(&a))
            CHECK(czk_fp_is_lexicographically_largest(&a) != czk_fp_is_lexicographically_largest(&na));
    }
    /* p itself does not decode; r itself does not decode */
    uint8_t buf[48];
    for (int j = 0; j < 6; j++)
        for (int k = 0; k < 8; k++) buf[(5 - j) * 8 + k] = (uint8_t)(CZK_FP_MODULUS.l[j] >> (56 - 8 * k));
    czk_fp a;
    CHECK(!czk_fp_from_bytes_be(&a, buf));
    uint8_t le[32];
    for (int j = 0; j < 4; j++)
        for (int k = 0; k < 8; k++) le[j * 8 + k] = (uint8_t)(CZK_FR_MODULUS.l[j] >> (8 * k));
    czk_fr s;
    CHECK(!czk_fr_from_bytes_le(&s, le));
    le[0]--;
    CHECK(czk_fr_from_bytes_le(&s, le));
    czk_fr_add(&s, &s, &CZK_FR_ONE);
    CHECK(czk_fr_is_zero(&s));
}

/* Roots of unity against constants.txt: ω_32, ω_27, ω_24, their orders, and
 * ω_32 = 7^((r-1)/2^32). */
static void check_roots_of_unity(void) {
    const char *names[] = {"omega_2^32", "omega_2^27", "omega_2^24"};
    const int ks[] = {32, 27, 24};
    for (int i = 0; i < 3; i++) {
        char *hex = test_vector_value("bls12_381/constants.txt", names[i]);
        CHECK_MSG(hex != NULL, "constants.txt has %s", names[i]);
        if (!hex) continue;
        uint8_t be[32] = {0};
        long n = test_hex_decode(be + 32 - strlen(hex) / 2, 32, hex);
        CHECK(n > 0);
        czk_fr want, got;
        CHECK(czk_fr_from_bytes_be(&want, be));
        czk_fr_root_of_unity(&got, ks[i]);
        CHECK_MSG(czk_fr_equal(&want, &got), "root of unity 2^%d", ks[i]);
        /* order exactly 2^k */
        czk_fr t = got;
        for (int j = 0; j < ks[i] - 1; j++) czk_fr_sqr(&t, &t);
        CHECK(!czk_fr_is_one(&t));
        czk_fr_sqr(&t, &t);
        CHECK(czk_fr_is_one(&t));
        free(hex);
    }
    czk_fr seven, w, w32;
    czk_fr_from_u64(&seven, 7);
    CHECK(czk_fr_legendre(&seven) == -1);
    uint64_t e[4];
    const uint64_t *r = CZK_FR_MODULUS.l;
    for (int j = 0; j < 3; j++) e[j] = (r[j] >> 32) | (r[j + 1] << 32);
    e[3] = r[3] >> 32;
    czk_fr_pow(&w, &seven, e, 4);
    czk_fr_root_of_unity(&w32, 32);
    CHECK(czk_fr_equal(&w, &w32));
}

static void check_fp2(czk_rng *rng, long cases) {
    for (long i = 0; i < cases; i++) {
        czk_fp2 a, b, c, d, e;
        czk_fp2_random(&a, rng);
        czk_fp2_random(&b, rng);
        /* schoolbook product against Karatsuba */
        czk_fp t0, t1;
        czk_fp_mul(&t0, &a.c0, &b.c0);
        czk_fp_mul(&t1, &a.c1, &b.c1);
        czk_fp_sub(&d.c0, &t0, &t1);
        czk_fp_mul(&t0, &a.c0, &b.c1);
        czk_fp_mul(&t1, &a.c1, &b.c0);
        czk_fp_add(&d.c1, &t0, &t1);
        czk_fp2_mul(&c, &a, &b);
        CHECK(czk_fp2_equal(&c, &d));
        czk_fp2_sqr(&c, &a);
        czk_fp2_mul(&d, &a, &a);
        CHECK(czk_fp2_equal(&c, &d));
        czk_fp2_inv(&c, &a);
        czk_fp2_mul(&d, &c, &a);
        CHECK(czk_fp2_is_one(&d));
        /* a·(u+1) */
        czk_fp2 nr = {CZK_FP_ONE, CZK_FP_ONE};
        czk_fp2_mul(&c, &a, &nr);
        czk_fp2_mul_by_nonresidue(&d, &a);
        CHECK(czk_fp2_equal(&c, &d));
        /* squares have roots; the root squares back */
        czk_fp2_sqr(&c, &a);
        CHECK(czk_fp2_legendre(&c) == 1);
        CHECK(czk_fp2_sqrt(&d, &c));
        czk_fp2_sqr(&e, &d);
        CHECK(czk_fp2_equal(&e, &c));
        int leg = czk_fp2_legendre(&b);
        bool has = czk_fp2_sqrt(&d, &b);
        CHECK(has == (leg >= 0));
        if (has) {
            czk_fp2_sqr(&e, &d);
            CHECK(czk_fp2_equal(&e, &b));
        }
        /* a^p = conjugate(a) */
        czk_fp2_pow(&c, &a, CZK_FP_MODULUS.l, CZK_FP_LIMBS);
        czk_fp2_conjugate(&d, &a);
        CHECK(czk_fp2_equal(&c, &d));
        uint8_t buf[96];
        czk_fp2_to_bytes_be(buf, &a);
        CHECK(czk_fp2_from_bytes_be(&c, buf) && czk_fp2_equal(&c, &a));
        uint8_t c1[48];
        czk_fp_to_bytes_be(c1, &a.c1);
        CHECK(!memcmp(buf, c1, 48)); /* c1 first */
    }
    czk_fp2 zero, r;
    czk_fp2_set_zero(&zero);
    CHECK(czk_fp2_sqrt(&r, &zero) && czk_fp2_is_zero(&r));
    /* u+1 is not a square (the tower needs a non-residue) and not a cube */
    czk_fp2 nr = {CZK_FP_ONE, CZK_FP_ONE};
    CHECK(czk_fp2_legendre(&nr) == -1);
}

#if CZK_HAVE_ADX_ASM
/* The lazy-reduction pieces behind Fp2 multiplication: the 768-bit product
 * over the whole 384-bit range, and Montgomery reduction of any t < p·2^384
 * (edges included), against GMP. */
static void check_wide_and_redc(czk_rng *rng, long cases) {
    if (!czk_cpu_has_adx()) return;
    mpz_t a, b, t, want, p, R, Rinv, got;
    mpz_inits(a, b, t, want, p, R, Rinv, got, NULL);
    mpz_import(p, 6, -1, 8, 0, 0, CZK_FP_MODULUS.l);
    mpz_ui_pow_ui(R, 2, 384);
    mpz_invert(Rinv, R, p);
    for (long i = 0; i < cases; i++) {
        uint64_t x[6], y[6], w[12], r[6];
        for (int j = 0; j < 6; j++) {
            x[j] = czk_rng_next(rng);
            y[j] = czk_rng_next(rng);
        }
        if (i == 0)
            for (int j = 0; j < 6; j++) x[j] = y[j] = ~0ULL;
        czk_fp_mul_wide_adx(w, x, y);
        mpz_import(a, 6, -1, 8, 0, 0, x);
        mpz_import(b, 6, -1, 8, 0, 0, y);
        mpz_mul(want, a, b);
        mpz_import(got, 12, -1, 8, 0, 0, w);
        CHECK_MSG(mpz_cmp(got, want) == 0, "mul_wide case %ld", i);
        /* t in [0, p·2^384): random, and the edges 0, 1, p·2^384 - 1 */
        mpz_mul(t, p, R);
        if (i == 1) mpz_sub_ui(t, t, 1);
        else if (i == 2) mpz_set_ui(t, 0);
        else if (i == 3) mpz_set_ui(t, 1);
        else {
            mpz_mod(t, want, t);
        }
        memset(w, 0, sizeof w);
        size_t cnt;
        mpz_export(w, &cnt, -1, 8, 0, 0, t);
        czk_fp_redc_adx(r, w);
        mpz_mul(want, t, Rinv);
        mpz_mod(want, want, p);
        mpz_import(got, 6, -1, 8, 0, 0, r);
        CHECK_MSG(mpz_cmp(got, want) == 0, "redc case %ld", i);
    }
    mpz_clears(a, b, t, want, p, R, Rinv, got, NULL);
}
#endif

/* OS randomness: canonical, and not stuck on one value. */
static void check_random_os(void) {
    czk_fp a, b;
    czk_fr s, t;
    CHECK(czk_fp_random_os(&a) == CZK_OK && czk_fp_random_os(&b) == CZK_OK);
    CHECK(!czk_fp_equal(&a, &b));
    CHECK(czk_fr_random_os(&s) == CZK_OK && czk_fr_random_os(&t) == CZK_OK);
    CHECK(!czk_fr_equal(&s, &t));
    uint64_t v[6];
    czk_fp_to_canonical(v, &a);
    czk_fp c;
    CHECK(czk_fp_from_canonical(&c, v));
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_field_gmp");
    long cases = test_cases(100000);
    field fields[2] = {FIELD(czk_fp, czk_fp, "Fp", 6, 0x89f3fffcfffcfffdULL),
                       FIELD(czk_fr, czk_fr, "Fr", 4, 0xfffffffeffffffffULL)};
    czk_fp_impl impls[2] = {CZK_FP_IMPL_PORTABLE, CZK_FP_IMPL_ADX};
    czk_fp_impl saved = czk_fp_get_impl();
    for (int k = 0; k < 2; k++) {
        if (!czk_fp_set_impl(impls[k])) {
            printf("multiplication path %d not available on this CPU: not tested\n", k);
            continue;
        }
        for (int f = 0; f < 2; f++) {
            if (k == 0) check_constants(&fields[f]);
            check_ops(&fields[f], &rng, cases);
            printf("%s, %s path: %ld cases\n", fields[f].name, k ? "adx" : "portable", cases);
        }
    }
    czk_fp_set_impl(saved);
    check_encodings(&rng, cases / 10);
    check_roots_of_unity();
    check_fp2(&rng, cases / 20);
    check_random_os();
#if CZK_HAVE_ADX_ASM
    check_wide_and_redc(&rng, cases);
#endif
    return test_finish("test_field_gmp");
}
