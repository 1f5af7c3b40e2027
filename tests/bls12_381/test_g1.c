/* G1: constants, the 1,000 reference multiples, group laws, scalar
 * multiplication against double-and-add, subgroup checks, batch_to_affine. */
#include <gmp.h>
#include <string.h>

#include "czk/g1.h"
#include "test.h"

#define NAME "test_g1"
#define BLS_X_ABS 0xd201000000010000ULL

static mpz_t R_ORDER;

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
static void naive_mul(czk_g1 *r, const czk_g1 *p, const mpz_t k) {
    czk_g1 acc;
    czk_g1_set_infinity(&acc);
    for (long i = (long)mpz_sizeinbase(k, 2) - 1; i >= 0; i--) {
        czk_g1_dbl(&acc, &acc);
        if (mpz_tstbit(k, (mp_bitcnt_t)i)) czk_g1_add(&acc, &acc, p);
    }
    *r = acc;
}

static void mul_mpz(czk_g1 *r, const czk_g1 *p, const mpz_t k) {
    uint64_t l[16];
    int n = mpz_limbs(l, 16, k);
    czk_g1_mul(r, p, l, n);
}

static void gen(czk_g1 *g) { czk_g1_from_affine(g, &CZK_G1_GENERATOR); }

/* A point of the full curve group: random x until x^3 + 4 is a square. Almost
 * never in the order-r subgroup (the cofactor is ~2^126). */
static void hash_point(czk_g1 *r, czk_rng *rng) {
    czk_fp x, y, rhs, four;
    czk_fp_from_u64(&four, 4);
    for (;;) {
        czk_fp_random(&x, rng);
        czk_fp_sqr(&rhs, &x);
        czk_fp_mul(&rhs, &rhs, &x);
        czk_fp_add(&rhs, &rhs, &four);
        if (czk_fp_sqrt(&y, &rhs)) break;
    }
    czk_g1_affine a = {x, y};
    czk_g1_from_affine(r, &a);
}

static void random_subgroup_point(czk_g1 *r, czk_rng *rng) {
    czk_fr k;
    czk_fr_random(&k, rng);
    czk_g1 g;
    gen(&g);
    czk_g1_mul_fr(r, &g, &k);
}

/* A Jacobian representative with a random Z (same point). */
static void rescale(czk_g1 *p, czk_rng *rng) {
    if (czk_g1_is_infinity(p)) return;
    czk_fp l, l2, l3;
    czk_fp_random(&l, rng);
    if (czk_fp_is_zero(&l)) return;
    czk_fp_sqr(&l2, &l);
    czk_fp_mul(&l3, &l2, &l);
    czk_fp_mul(&p->x, &p->x, &l2);
    czk_fp_mul(&p->y, &p->y, &l3);
    czk_fp_mul(&p->z, &p->z, &l);
}

static void test_constants(void) {
    /* generator vs constants.txt */
    char *hex = test_vector_value("bls12_381/constants.txt", "G1");
    CHECK(hex != NULL);
    if (hex) {
        uint8_t buf[48], enc[48];
        CHECK(test_hex_decode(buf, sizeof buf, hex) == 48);
        czk_g1_affine g;
        CHECK(czk_g1_decode(&g, buf, 48, CZK_DECODE_CHECKED) == CZK_OK);
        CHECK(czk_g1_affine_equal(&g, &CZK_G1_GENERATOR));
        czk_g1_to_compressed(enc, &CZK_G1_GENERATOR);
        CHECK(memcmp(enc, buf, 48) == 0);
        free(hex);
    }
    CHECK(czk_g1_affine_is_on_curve(&CZK_G1_GENERATOR));
    CHECK(czk_g1_affine_in_subgroup(&CZK_G1_GENERATOR));

    /* β: a primitive cube root of unity acting as λ = -x^2 mod r on G1. */
    czk_fp b3;
    czk_fp_sqr(&b3, &CZK_G1_BETA);
    czk_fp_mul(&b3, &b3, &CZK_G1_BETA);
    CHECK(czk_fp_is_one(&b3));
    CHECK(!czk_fp_is_one(&CZK_G1_BETA));
    mpz_t lam;
    mpz_init_set_ui(lam, 0);
    mpz_set_ui(lam, (unsigned long)BLS_X_ABS);
    mpz_mul(lam, lam, lam);
    mpz_sub(lam, R_ORDER, lam); /* -x^2 mod r */
    czk_g1 g, s, t;
    gen(&g);
    czk_g1_endomorphism(&s, &g);
    naive_mul(&t, &g, lam);
    CHECK(czk_g1_equal(&s, &t));
    /* r = x^4 - x^2 + 1 */
    mpz_t x4;
    mpz_init_set_ui(x4, (unsigned long)BLS_X_ABS);
    mpz_pow_ui(x4, x4, 4);
    mpz_set_ui(lam, (unsigned long)BLS_X_ABS);
    mpz_mul(lam, lam, lam);
    mpz_sub(x4, x4, lam);
    mpz_add_ui(x4, x4, 1);
    CHECK(mpz_cmp(x4, R_ORDER) == 0);
    mpz_clears(lam, x4, NULL);
}

static void test_multiples(void) {
    size_t lc, lu;
    uint8_t *comp = test_read_vector("bls12_381/g1_compressed_multiples_0_999.bin", &lc);
    uint8_t *unc = test_read_vector("bls12_381/g1_uncompressed_multiples_0_999.bin", &lu);
    CHECK(comp && lc == 1000 * 48);
    CHECK(unc && lu == 1000 * 96);
    if (!comp || !unc || lc != 1000 * 48 || lu != 1000 * 96) goto out;
    czk_g1 acc, g, m;
    gen(&g);
    czk_g1_set_infinity(&acc);
    for (uint64_t k = 0; k < 1000; k++) {
        czk_g1_affine a, b, ref;
        uint8_t enc[96];
        CHECK_MSG(czk_g1_decode(&a, comp + 48 * k, 48, CZK_DECODE_CHECKED) == CZK_OK, "k=%llu", (unsigned long long)k);
        CHECK_MSG(czk_g1_decode(&b, unc + 96 * k, 96, CZK_DECODE_CHECKED) == CZK_OK, "k=%llu", (unsigned long long)k);
        CHECK(czk_g1_decode_compressed(&b, comp + 48 * k, CZK_DECODE_CHECKED) == CZK_OK);
        CHECK(czk_g1_decode_uncompressed(&b, unc + 96 * k, CZK_DECODE_CHECKED) == CZK_OK);
        CHECK(czk_g1_affine_equal(&a, &b));
        czk_g1_to_affine(&ref, &acc);
        CHECK_MSG(czk_g1_affine_equal(&a, &ref), "k=%llu", (unsigned long long)k);
        czk_g1_mul(&m, &g, &k, 1);
        CHECK_MSG(czk_g1_equal(&m, &acc), "mul k=%llu", (unsigned long long)k);
        czk_fr kf;
        czk_fr_from_u64(&kf, k);
        czk_g1_mul_fr(&m, &g, &kf);
        CHECK_MSG(czk_g1_equal(&m, &acc), "mul_fr k=%llu", (unsigned long long)k);
        czk_g1_to_compressed(enc, &a);
        CHECK_MSG(memcmp(enc, comp + 48 * k, 48) == 0, "k=%llu", (unsigned long long)k);
        czk_g1_to_uncompressed(enc, &a);
        CHECK_MSG(memcmp(enc, unc + 96 * k, 96) == 0, "k=%llu", (unsigned long long)k);
        /* alternate full and mixed additions */
        if (k & 1) czk_g1_add(&acc, &acc, &g);
        else czk_g1_add_affine(&acc, &acc, &CZK_G1_GENERATOR);
    }
out:
    free(comp);
    free(unc);
}

static void test_group_laws(czk_rng *rng) {
    long n = test_cases(200);
    for (long it = 0; it < n; it++) {
        czk_g1 p, q, s, t, u, v, w, o;
        czk_g1_affine qa, pa;
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
        CHECK(czk_g1_is_on_curve(&p) && czk_g1_is_on_curve(&q));
        czk_g1_to_affine(&qa, &q);
        czk_g1_to_affine(&pa, &p);
        CHECK(czk_g1_affine_is_on_curve(&qa));
        v = p;   /* off the curve: Y changed */
        czk_fp_add(&v.y, &v.y, &v.z);
        CHECK(!czk_g1_is_on_curve(&v));
        czk_g1_affine va = qa;
        czk_fp_add(&va.y, &va.y, &va.x);
        CHECK(!czk_g1_affine_is_on_curve(&va));
        /* add vs dbl */
        czk_g1_add(&t, &p, &p);
        czk_g1_dbl(&u, &p);
        CHECK(czk_g1_equal(&t, &u));
        CHECK(czk_g1_is_on_curve(&u));
        czk_g1_add_affine(&t, &p, &pa);
        CHECK(czk_g1_equal(&t, &u));
        /* add vs mixed add; commutativity */
        czk_g1_add(&t, &p, &q);
        czk_g1_add_affine(&u, &p, &qa);
        CHECK(czk_g1_equal(&t, &u));
        czk_g1_add(&u, &q, &p);
        CHECK(czk_g1_equal(&t, &u));
        CHECK(czk_g1_is_on_curve(&t));
        /* associativity */
        czk_g1_add(&u, &t, &s);          /* (p + q) + s */
        czk_g1_add(&v, &q, &s);
        czk_g1_add(&w, &p, &v);          /* p + (q + s) */
        CHECK(czk_g1_equal(&u, &w));
        /* aliasing: r == a, r == b */
        v = p;
        czk_g1_add(&v, &v, &q);
        CHECK(czk_g1_equal(&v, &t));
        v = q;
        czk_g1_add(&v, &p, &v);
        CHECK(czk_g1_equal(&v, &t));
        v = p;
        czk_g1_add_affine(&v, &v, &qa);
        CHECK(czk_g1_equal(&v, &t));
        v = p;
        czk_g1_dbl(&v, &v);
        czk_g1_dbl(&u, &p);
        CHECK(czk_g1_equal(&v, &u));
        /* negation, infinity */
        czk_g1_neg(&v, &p);
        czk_g1_add(&w, &p, &v);
        CHECK(czk_g1_is_infinity(&w));
        czk_g1_affine na;
        czk_g1_affine_neg(&na, &pa);
        czk_g1_add_affine(&w, &p, &na);
        CHECK(czk_g1_is_infinity(&w));
        czk_g1_set_infinity(&o);
        czk_g1_add(&w, &p, &o);
        CHECK(czk_g1_equal(&w, &p));
        czk_g1_add(&w, &o, &p);
        CHECK(czk_g1_equal(&w, &p));
        czk_g1_add_affine(&w, &o, &pa);
        CHECK(czk_g1_equal(&w, &p));
        czk_g1_affine oa;
        czk_g1_affine_set_infinity(&oa);
        czk_g1_add_affine(&w, &p, &oa);
        CHECK(czk_g1_equal(&w, &p));
        czk_g1_dbl(&w, &o);
        CHECK(czk_g1_is_infinity(&w));
        CHECK(!czk_g1_equal(&p, &o) && czk_g1_equal(&o, &o));
        /* p + q - q = p; equal with different Z */
        czk_g1_neg(&v, &q);
        czk_g1_add(&w, &t, &v);
        CHECK(czk_g1_equal(&w, &p));
        CHECK(!czk_g1_equal(&p, &q));
    }
}

/* Special scalars (0, 1, r-1, r, r+1, 2r, and wide ones) and random ones,
 * czk_g1_mul against double-and-add; mul_fr against mul for subgroup points. */
static void test_scalar_mul(czk_rng *rng) {
    mpz_t k, km;
    mpz_inits(k, km, NULL);
    long n = test_cases(40);
    for (long it = 0; it < n; it++) {
        czk_g1 p, a, b;
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
        CHECK_MSG(czk_g1_equal(&a, &b), "kind %d sub %d", kind, (int)sub);
        if (sub) {
            czk_fr kf;
            fr_from_mpz(&kf, k);
            czk_g1_mul_fr(&b, &p, &kf);
            CHECK_MSG(czk_g1_equal(&a, &b), "mul_fr kind %d", kind);
        }
    }
    /* mul_fr on random Fr, vs naive */
    for (long it = 0; it < n; it++) {
        czk_g1 p, a, b;
        random_subgroup_point(&p, rng);
        czk_fr kf;
        czk_fr_random(&kf, rng);
        uint64_t l[4];
        czk_fr_to_canonical(l, &kf);
        mpz_import(k, 4, -1, 8, 0, 0, l);
        czk_g1_mul_fr(&a, &p, &kf);
        naive_mul(&b, &p, k);
        CHECK(czk_g1_equal(&a, &b));
        /* infinity input */
        czk_g1 o;
        czk_g1_set_infinity(&o);
        czk_g1_mul_fr(&a, &o, &kf);
        CHECK(czk_g1_is_infinity(&a));
        czk_g1_mul(&a, &o, l, 4);
        CHECK(czk_g1_is_infinity(&a));
    }
    /* [a]G1 from constants.txt (a > r) */
    char *ahex = test_vector_value("bls12_381/constants.txt", "a");
    char *phex = test_vector_value("bls12_381/constants.txt", "[a]G1 compressed");
    CHECK(ahex && phex);
    if (ahex && phex) {
        mpz_from_hex(k, ahex);
        CHECK(mpz_cmp(k, R_ORDER) > 0);
        czk_g1 g, a;
        gen(&g);
        mul_mpz(&a, &g, k);
        czk_g1_affine aa;
        czk_g1_to_affine(&aa, &a);
        uint8_t enc[48], ref[48];
        CHECK(test_hex_decode(ref, 48, phex) == 48);
        czk_g1_to_compressed(enc, &aa);
        CHECK(memcmp(enc, ref, 48) == 0);
        czk_fr kf;
        fr_from_mpz(&kf, k);
        czk_g1_mul_fr(&a, &g, &kf);
        czk_g1_to_affine(&aa, &a);
        czk_g1_to_compressed(enc, &aa);
        CHECK(memcmp(enc, ref, 48) == 0);
    }
    free(ahex);
    free(phex);
    mpz_clears(k, km, NULL);
}

/* Points of small order ell | h (outside the subgroup): their wNAF tables
 * contain infinity; czk_g1_mul must still agree with double-and-add. */
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
            czk_g1 p, q, a, b;
            hash_point(&p, rng);
            mul_mpz(&q, &p, m);   /* in the ell-primary part */
            if (czk_g1_is_infinity(&q)) continue;
            mpz_set_ui(k, ell);
            for (;;) {            /* down to order exactly ell */
                mul_mpz(&a, &q, k);
                if (czk_g1_is_infinity(&a)) break;
                q = a;
            }
            found++;
            czk_g1_affine qa;
            czk_g1_to_affine(&qa, &q);
            CHECK(!czk_g1_affine_in_subgroup(&qa));
            mpz_set_ui(k, ell);
            mul_mpz(&a, &q, k);
            CHECK(czk_g1_is_infinity(&a));
            for (unsigned long j = 0; j < 3 * ell; j++) {
                mpz_set_ui(k, j);
                mul_mpz(&a, &q, k);
                naive_mul(&b, &q, k);
                CHECK_MSG(czk_g1_equal(&a, &b), "ell %lu k %lu", ell, j);
            }
            random_mpz(k, rng, 4);
            mul_mpz(&a, &q, k);
            naive_mul(&b, &q, k);
            CHECK(czk_g1_equal(&a, &b));
            break;
        }
    }
    CHECK(found >= 2);
    mpz_clears(m, k, NULL);
}

/* in_subgroup == ([r]P == O), for subgroup points, hashed points, and hashed
 * points times the cofactor h1 = (x - 1)^2 / 3. */
static void test_subgroup(czk_rng *rng) {
    mpz_t h;
    mpz_init_set_ui(h, (unsigned long)BLS_X_ABS);
    mpz_add_ui(h, h, 1);
    mpz_mul(h, h, h);
    CHECK(mpz_divisible_ui_p(h, 3));
    mpz_divexact_ui(h, h, 3);
    long n = test_cases(30);
    int outside = 0;
    for (long it = 0; it < n; it++) {
        czk_g1 p, t;
        czk_g1_affine pa;
        switch (it % 3) {
        case 0: random_subgroup_point(&p, rng); break;
        case 1: hash_point(&p, rng); break;
        default:
            hash_point(&p, rng);
            mul_mpz(&p, &p, h);
            break;
        }
        mul_mpz(&t, &p, R_ORDER);
        czk_g1_to_affine(&pa, &p);
        bool in = czk_g1_affine_in_subgroup(&pa);
        CHECK(in == czk_g1_is_infinity(&t));
        CHECK(in == (it % 3 != 1));
        if (!in) outside++;
    }
    CHECK(outside > 0);
    test_small_order(rng, h);
    czk_g1_affine o;
    czk_g1_affine_set_infinity(&o);
    CHECK(czk_g1_affine_in_subgroup(&o) && czk_g1_affine_is_on_curve(&o));
    mpz_clear(h);
}

static void test_batch_to_affine(czk_rng *rng) {
    enum { N = 37 };
    czk_g1 in[N];
    czk_g1_affine out[N], one;
    for (int i = 0; i < N; i++) {
        if (i % 7 == 3 || i == 0 || i == N - 1) czk_g1_set_infinity(&in[i]);
        else {
            hash_point(&in[i], rng);
            rescale(&in[i], rng);
        }
    }
    czk_g1_batch_to_affine(out, in, N);
    for (int i = 0; i < N; i++) {
        czk_g1_to_affine(&one, &in[i]);
        CHECK_MSG(czk_g1_affine_equal(&one, &out[i]), "i=%d", i);
        CHECK(czk_g1_affine_is_infinity(&out[i]) == czk_g1_is_infinity(&in[i]));
    }
    czk_g1_batch_to_affine(out, in, 0);
    czk_g1_batch_to_affine(out, in + 1, 1);
    czk_g1_to_affine(&one, &in[1]);
    CHECK(czk_g1_affine_equal(&one, &out[0]));
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, NAME);
    mpz_init(R_ORDER);
    mpz_from_hex(R_ORDER, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
    {
        uint64_t l[4];
        mpz_limbs(l, 4, R_ORDER);
        CHECK(memcmp(l, CZK_FR_MODULUS.l, sizeof l) == 0);
    }
    test_constants();
    test_multiples();
    test_group_laws(&rng);
    test_scalar_mul(&rng);
    test_subgroup(&rng);
    test_batch_to_affine(&rng);
    mpz_clear(R_ORDER);
    return test_finish(NAME);
}
