/* The tests that G1 and G2 share (test_g1.c, test_g2.c), written once over
 * the group: the reference multiples, group laws, scalar multiplication
 * against double-and-add, small-order points, subgroup checks and
 * batch_to_affine. The includer defines, before including it:
 *   NAME                 the test's name ("test_g1")
 *   PT, AFF, FE          the Jacobian and affine point types and the field
 *                        of the coordinates (czk_g1, czk_g1_affine, czk_fp)
 *   G_(f), FE_(f)        the group's and the field's function f
 *                        (czk_g1_##f, czk_fp_##f)
 *   GENERATOR            the affine generator
 *   CB, UB               compressed and uncompressed encoding bytes
 *   MULTIPLES_COMPRESSED, MULTIPLES_UNCOMPRESSED
 *                        the vector files of [k]G, k < 1000
 * and defines after it hash_point (a random point of the whole curve
 * group, almost never in the subgroup) and cofactor (sets an initialized
 * h to the cofactor, checking how it was derived). */
#ifndef CZK_TESTS_GROUP_TESTS_H
#define CZK_TESTS_GROUP_TESTS_H

#include <gmp.h>
#include <string.h>

#include "test.h"

#define BLS_X_ABS 0xd201000000010000ULL

static mpz_t R_ORDER;

static void hash_point(PT *r, czk_rng *rng);
static void cofactor(mpz_t h);

static void mpz_from_hex(mpz_t r, const char *hex) { mpz_set_str(r, hex, 16); }

/* k as at most cap little-endian limbs; returns the limb count. */
static int mpz_limbs(uint64_t *out, int cap, const mpz_t k) {
    size_t n = 0;
    memset(out, 0, (size_t)cap * 8);
    if ((mpz_sizeinbase(k, 2) + 63) / 64 > (size_t)cap) abort();
    mpz_export(out, &n, -1, 8, 0, 0, k);
    return (int)n;
}

static void fr_from_mpz(czk_fr *r, const mpz_t k) {
    mpz_t t;
    mpz_init(t);
    mpz_mod(t, k, R_ORDER);
    uint64_t l[4];
    mpz_limbs(l, 4, t);
    CHECK(czk_fr_from_canonical(r, l));
    mpz_clear(t);
}

static void random_mpz(mpz_t r, czk_rng *rng, int limbs) {
    uint64_t l[16];
    for (int i = 0; i < limbs; i++) l[i] = czk_rng_next(rng);
    mpz_import(r, (size_t)limbs, -1, 8, 0, 0, l);
}

/* Reference: left-to-right double-and-add over the bits of k >= 0. */
static void naive_mul(PT *r, const PT *p, const mpz_t k) {
    PT acc;
    G_(set_infinity)(&acc);
    for (long i = (long)mpz_sizeinbase(k, 2) - 1; i >= 0; i--) {
        G_(dbl)(&acc, &acc);
        if (mpz_tstbit(k, (mp_bitcnt_t)i)) G_(add)(&acc, &acc, p);
    }
    *r = acc;
}

static void mul_mpz(PT *r, const PT *p, const mpz_t k) {
    uint64_t l[16];
    int n = mpz_limbs(l, 16, k);
    G_(mul)(r, p, l, n);
}

static void gen(PT *g) { G_(from_affine)(g, &GENERATOR); }

static void random_subgroup_point(PT *r, czk_rng *rng) {
    czk_fr k;
    czk_fr_random(&k, rng);
    PT g;
    gen(&g);
    G_(mul_fr)(r, &g, &k);
}

/* A Jacobian representative with a random Z (same point). */
static void rescale(PT *p, czk_rng *rng) {
    if (G_(is_infinity)(p)) return;
    FE l, l2, l3;
    FE_(random)(&l, rng);
    if (FE_(is_zero)(&l)) return;
    FE_(sqr)(&l2, &l);
    FE_(mul)(&l3, &l2, &l);
    FE_(mul)(&p->x, &p->x, &l2);
    FE_(mul)(&p->y, &p->y, &l3);
    FE_(mul)(&p->z, &p->z, &l);
}

static void test_multiples(void) {
    size_t lc, lu;
    uint8_t *comp = test_read_vector(MULTIPLES_COMPRESSED, &lc);
    uint8_t *unc = test_read_vector(MULTIPLES_UNCOMPRESSED, &lu);
    CHECK(comp && lc == 1000 * CB);
    CHECK(unc && lu == 1000 * UB);
    if (!comp || !unc || lc != 1000 * CB || lu != 1000 * UB) goto out;
    PT acc, g, m;
    gen(&g);
    G_(set_infinity)(&acc);
    for (uint64_t k = 0; k < 1000; k++) {
        AFF a, b, ref;
        uint8_t enc[UB];
        CHECK_MSG(G_(decode)(&a, comp + CB * k, CB, CZK_DECODE_CHECKED) == CZK_OK, "k=%llu", (unsigned long long)k);
        CHECK_MSG(G_(decode)(&b, unc + UB * k, UB, CZK_DECODE_CHECKED) == CZK_OK, "k=%llu", (unsigned long long)k);
        CHECK(G_(decode_compressed)(&b, comp + CB * k, CZK_DECODE_CHECKED) == CZK_OK);
        CHECK(G_(decode_uncompressed)(&b, unc + UB * k, CZK_DECODE_CHECKED) == CZK_OK);
        CHECK(G_(affine_equal)(&a, &b));
        G_(to_affine)(&ref, &acc);
        CHECK_MSG(G_(affine_equal)(&a, &ref), "k=%llu", (unsigned long long)k);
        G_(mul)(&m, &g, &k, 1);
        CHECK_MSG(G_(equal)(&m, &acc), "mul k=%llu", (unsigned long long)k);
        czk_fr kf;
        czk_fr_from_u64(&kf, k);
        G_(mul_fr)(&m, &g, &kf);
        CHECK_MSG(G_(equal)(&m, &acc), "mul_fr k=%llu", (unsigned long long)k);
        G_(to_compressed)(enc, &a);
        CHECK_MSG(memcmp(enc, comp + CB * k, CB) == 0, "k=%llu", (unsigned long long)k);
        G_(to_uncompressed)(enc, &a);
        CHECK_MSG(memcmp(enc, unc + UB * k, UB) == 0, "k=%llu", (unsigned long long)k);
        /* alternate full and mixed additions */
        if (k & 1) G_(add)(&acc, &acc, &g);
        else G_(add_affine)(&acc, &acc, &GENERATOR);
    }
out:
    free(comp);
    free(unc);
}

static void test_group_laws(czk_rng *rng) {
    long n = test_cases(200);
    for (long it = 0; it < n; it++) {
        PT p, q, s, t, u, v, w, o;
        AFF qa, pa;
        if (it & 1) {
            hash_point(&p, rng);
            hash_point(&q, rng);
            hash_point(&s, rng);
        } else {
            random_subgroup_point(&p, rng);
            random_subgroup_point(&q, rng);
            random_subgroup_point(&s, rng);
        }
        rescale(&p, rng);
        rescale(&q, rng);
        rescale(&s, rng);
        CHECK(G_(is_on_curve)(&p) && G_(is_on_curve)(&q));
        G_(to_affine)(&qa, &q);
        G_(to_affine)(&pa, &p);
        CHECK(G_(affine_is_on_curve)(&qa));
        v = p;   /* off the curve: Y changed */
        FE_(add)(&v.y, &v.y, &v.z);
        CHECK(!G_(is_on_curve)(&v));
        AFF va = qa;
        FE_(add)(&va.y, &va.y, &va.x);
        CHECK(!G_(affine_is_on_curve)(&va));
        /* add vs dbl */
        G_(add)(&t, &p, &p);
        G_(dbl)(&u, &p);
        CHECK(G_(equal)(&t, &u));
        CHECK(G_(is_on_curve)(&u));
        G_(add_affine)(&t, &p, &pa);
        CHECK(G_(equal)(&t, &u));
        /* add vs mixed add; commutativity */
        G_(add)(&t, &p, &q);
        G_(add_affine)(&u, &p, &qa);
        CHECK(G_(equal)(&t, &u));
        G_(add)(&u, &q, &p);
        CHECK(G_(equal)(&t, &u));
        CHECK(G_(is_on_curve)(&t));
        /* associativity */
        G_(add)(&u, &t, &s);          /* (p + q) + s */
        G_(add)(&v, &q, &s);
        G_(add)(&w, &p, &v);          /* p + (q + s) */
        CHECK(G_(equal)(&u, &w));
        /* aliasing: r == a, r == b */
        v = p;
        G_(add)(&v, &v, &q);
        CHECK(G_(equal)(&v, &t));
        v = q;
        G_(add)(&v, &p, &v);
        CHECK(G_(equal)(&v, &t));
        v = p;
        G_(add_affine)(&v, &v, &qa);
        CHECK(G_(equal)(&v, &t));
        v = p;
        G_(dbl)(&v, &v);
        G_(dbl)(&u, &p);
        CHECK(G_(equal)(&v, &u));
        /* negation, infinity */
        G_(neg)(&v, &p);
        G_(add)(&w, &p, &v);
        CHECK(G_(is_infinity)(&w));
        AFF na;
        G_(affine_neg)(&na, &pa);
        G_(add_affine)(&w, &p, &na);
        CHECK(G_(is_infinity)(&w));
        G_(set_infinity)(&o);
        G_(add)(&w, &p, &o);
        CHECK(G_(equal)(&w, &p));
        G_(add)(&w, &o, &p);
        CHECK(G_(equal)(&w, &p));
        G_(add_affine)(&w, &o, &pa);
        CHECK(G_(equal)(&w, &p));
        AFF oa;
        G_(affine_set_infinity)(&oa);
        G_(add_affine)(&w, &p, &oa);
        CHECK(G_(equal)(&w, &p));
        G_(dbl)(&w, &o);
        CHECK(G_(is_infinity)(&w));
        CHECK(!G_(equal)(&p, &o) && G_(equal)(&o, &o));
        /* p + q - q = p; equal with different Z */
        G_(neg)(&v, &q);
        G_(add)(&w, &t, &v);
        CHECK(G_(equal)(&w, &p));
        CHECK(!G_(equal)(&p, &q));
    }
}

/* Special scalars (0, 1, r-1, r, r+1, 2r, and wide ones) and random ones,
 * G_(mul) against double-and-add; mul_fr against mul for subgroup points. */
static void test_scalar_mul(czk_rng *rng) {
    mpz_t k, km;
    mpz_inits(k, km, NULL);
    long n = test_cases(40);
    for (long it = 0; it < n; it++) {
        PT p, a, b;
        bool sub = it % 2 == 0;
        if (sub) random_subgroup_point(&p, rng);
        else hash_point(&p, rng);
        rescale(&p, rng);
        int kind = (int)(it / 2) % 12;
        switch (kind) {
        case 0: mpz_set_ui(k, 0); break;
        case 1: mpz_set_ui(k, 1); break;
        case 2: mpz_sub_ui(k, R_ORDER, 1); break;
        case 3: mpz_set(k, R_ORDER); break;
        case 4: mpz_add_ui(k, R_ORDER, 1); break;
        case 5: mpz_mul_ui(k, R_ORDER, 2); break;
        case 6: random_mpz(k, rng, 6); break;       /* wNAF, 6 limbs */
        case 7: random_mpz(k, rng, 11); break;      /* double-and-add path */
        case 8: random_mpz(k, rng, 1); break;
        default: random_mpz(k, rng, 4); break;      /* often >= r */
        }
        mul_mpz(&a, &p, k);
        naive_mul(&b, &p, k);
        CHECK_MSG(G_(equal)(&a, &b), "kind %d sub %d", kind, (int)sub);
        if (sub) {
            czk_fr kf;
            fr_from_mpz(&kf, k);
            G_(mul_fr)(&b, &p, &kf);
            CHECK_MSG(G_(equal)(&a, &b), "mul_fr kind %d", kind);
        }
    }
    /* mul_fr on random Fr, vs naive */
    for (long it = 0; it < n; it++) {
        PT p, a, b;
        random_subgroup_point(&p, rng);
        czk_fr kf;
        czk_fr_random(&kf, rng);
        uint64_t l[4];
        czk_fr_to_canonical(l, &kf);
        mpz_import(k, 4, -1, 8, 0, 0, l);
        G_(mul_fr)(&a, &p, &kf);
        naive_mul(&b, &p, k);
        CHECK(G_(equal)(&a, &b));
        /* infinity input */
        PT o;
        G_(set_infinity)(&o);
        G_(mul_fr)(&a, &o, &kf);
        CHECK(G_(is_infinity)(&a));
        G_(mul)(&a, &o, l, 4);
        CHECK(G_(is_infinity)(&a));
    }
    mpz_clears(k, km, NULL);
}

/* Points of small order ell | h (outside the subgroup): their wNAF tables
 * contain infinity; G_(mul) must still agree with double-and-add. */
static void test_small_order(czk_rng *rng, const mpz_t h) {
    static const unsigned long primes[] = {3, 5, 7, 11, 13, 17, 19, 23};
    mpz_t m, k;
    mpz_inits(m, k, NULL);
    int found = 0;
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        unsigned long ell = primes[i];
        if (!mpz_divisible_ui_p(h, ell)) continue;
        mpz_mul(m, h, R_ORDER);
        while (mpz_divisible_ui_p(m, ell)) mpz_divexact_ui(m, m, ell);
        for (int tries = 0; tries < 20; tries++) {
            PT p, q, a, b;
            hash_point(&p, rng);
            mul_mpz(&q, &p, m);   /* in the ell-primary part */
            if (G_(is_infinity)(&q)) continue;
            mpz_set_ui(k, ell);
            for (;;) {            /* down to order exactly ell */
                mul_mpz(&a, &q, k);
                if (G_(is_infinity)(&a)) break;
                q = a;
            }
            found++;
            AFF qa;
            G_(to_affine)(&qa, &q);
            CHECK(!G_(affine_in_subgroup)(&qa));
            mpz_set_ui(k, ell);
            mul_mpz(&a, &q, k);
            CHECK(G_(is_infinity)(&a));
            for (unsigned long j = 0; j < 3 * ell; j++) {
                mpz_set_ui(k, j);
                mul_mpz(&a, &q, k);
                naive_mul(&b, &q, k);
                CHECK_MSG(G_(equal)(&a, &b), "ell %lu k %lu", ell, j);
            }
            random_mpz(k, rng, 4);
            mul_mpz(&a, &q, k);
            naive_mul(&b, &q, k);
            CHECK(G_(equal)(&a, &b));
            break;
        }
    }
    CHECK(found >= 2);
    mpz_clears(m, k, NULL);
}

/* in_subgroup == ([r]P == O), for subgroup points, hashed points, and hashed
 * points times the cofactor (cofactor()). */
static void test_subgroup(czk_rng *rng) {
    mpz_t h;
    mpz_init(h);
    cofactor(h);
    long n = test_cases(30);
    int outside = 0;
    for (long it = 0; it < n; it++) {
        PT p, t;
        AFF pa;
        switch (it % 3) {
        case 0: random_subgroup_point(&p, rng); break;
        case 1: hash_point(&p, rng); break;
        default:
            hash_point(&p, rng);
            mul_mpz(&p, &p, h);
            break;
        }
        mul_mpz(&t, &p, R_ORDER);
        G_(to_affine)(&pa, &p);
        bool in = G_(affine_in_subgroup)(&pa);
        CHECK(in == G_(is_infinity)(&t));
        CHECK(in == (it % 3 != 1));
        if (!in) outside++;
    }
    CHECK(outside > 0);
    test_small_order(rng, h);
    AFF o;
    G_(affine_set_infinity)(&o);
    CHECK(G_(affine_in_subgroup)(&o) && G_(affine_is_on_curve)(&o));
    mpz_clear(h);
}

static void test_batch_to_affine(czk_rng *rng) {
    enum { N = 37 };
    PT in[N];
    AFF out[N], one;
    for (int i = 0; i < N; i++) {
        if (i % 7 == 3 || i == 0 || i == N - 1) G_(set_infinity)(&in[i]);
        else {
            hash_point(&in[i], rng);
            rescale(&in[i], rng);
        }
    }
    G_(batch_to_affine)(out, in, N);
    for (int i = 0; i < N; i++) {
        G_(to_affine)(&one, &in[i]);
        CHECK_MSG(G_(affine_equal)(&one, &out[i]), "i=%d", i);
        CHECK(G_(affine_is_infinity)(&out[i]) == G_(is_infinity)(&in[i]));
    }
    G_(batch_to_affine)(out, in, 0);
    G_(batch_to_affine)(out, in + 1, 1);
    G_(to_affine)(&one, &in[1]);
    CHECK(G_(affine_equal)(&one, &out[0]));
}

/* R_ORDER, checked against czk_fr's modulus. */
static void group_tests_init(void) {
    mpz_init(R_ORDER);
    mpz_from_hex(R_ORDER, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
    uint64_t l[4];
    mpz_limbs(l, 4, R_ORDER);
    CHECK(memcmp(l, CZK_FR_MODULUS.l, sizeof l) == 0);
}

static void group_tests_done(void) { mpz_clear(R_ORDER); }

#endif
