/* G2: constants, the 1,000 reference multiples, group laws, scalar
 * multiplication against double-and-add, subgroup checks, batch_to_affine. */
#include <gmp.h>
#include <string.h>

#include "czk/g2.h"
#include "test.h"

#define NAME "test_g2"
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
static void naive_mul(czk_g2 *r, const czk_g2 *p, const mpz_t k) {
    czk_g2 acc;
    czk_g2_set_infinity(&acc);
    for (long i = (long)mpz_sizeinbase(k, 2) - 1; i >= 0; i--) {
        czk_g2_dbl(&acc, &acc);
        if (mpz_tstbit(k, (mp_bitcnt_t)i)) czk_g2_add(&acc, &acc, p);
    }
    *r = acc;
}

static void mul_mpz(czk_g2 *r, const czk_g2 *p, const mpz_t k) {
    uint64_t l[16];
    int n = mpz_limbs(l, 16, k);
    czk_g2_mul(r, p, l, n);
}

static void gen(czk_g2 *g) { czk_g2_from_affine(g, &CZK_G2_GENERATOR); }

/* A point of the full twist group: random x until x^3 + 4(u+1) is a square.
 * Almost never in the order-r subgroup (the cofactor is ~2^505). */
static void hash_point(czk_g2 *r, czk_rng *rng) {
    czk_fp2 x, y, rhs, b;
    czk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    for (;;) {
        czk_fp2_random(&x, rng);
        czk_fp2_sqr(&rhs, &x);
        czk_fp2_mul(&rhs, &rhs, &x);
        czk_fp2_add(&rhs, &rhs, &b);
        if (czk_fp2_sqrt(&y, &rhs)) break;
    }
    czk_g2_affine a = {x, y};
    czk_g2_from_affine(r, &a);
}

static void random_subgroup_point(czk_g2 *r, czk_rng *rng) {
    czk_fr k;
    czk_fr_random(&k, rng);
    czk_g2 g;
    gen(&g);
    czk_g2_mul_fr(r, &g, &k);
}

/* A Jacobian representative with a random Z (same point). */
static void rescale(czk_g2 *p, czk_rng *rng) {
    if (czk_g2_is_infinity(p)) return;
    czk_fp2 l, l2, l3;
    czk_fp2_random(&l, rng);
    if (czk_fp2_is_zero(&l)) return;
    czk_fp2_sqr(&l2, &l);
    czk_fp2_mul(&l3, &l2, &l);
    czk_fp2_mul(&p->x, &p->x, &l2);
    czk_fp2_mul(&p->y, &p->y, &l3);
    czk_fp2_mul(&p->z, &p->z, &l);
}

/* (p - 1) / d as 6 limbs. */
static void p_minus_1_over(uint64_t e[6], unsigned long d) {
    mpz_t t;
    mpz_init(t);
    mpz_import(t, 6, -1, 8, 0, 0, CZK_FP_MODULUS.l);
    mpz_sub_ui(t, t, 1);
    CHECK(mpz_divisible_ui_p(t, d));
    mpz_divexact_ui(t, t, d);
    mpz_limbs(e, 6, t);
    mpz_clear(t);
}

static void test_constants(void) {
    /* generator vs constants.txt */
    char *hex = test_vector_value("bls12_381/constants.txt", "G2");
    CHECK(hex != NULL);
    if (hex) {
        uint8_t buf[96], enc[96];
        CHECK(test_hex_decode(buf, sizeof buf, hex) == 96);
        czk_g2_affine g;
        CHECK(czk_g2_decode(&g, buf, 96, CZK_DECODE_CHECKED) == CZK_OK);
        CHECK(czk_g2_affine_equal(&g, &CZK_G2_GENERATOR));
        czk_g2_to_compressed(enc, &CZK_G2_GENERATOR);
        CHECK(memcmp(enc, buf, 96) == 0);
        free(hex);
    }
    CHECK(czk_g2_affine_is_on_curve(&CZK_G2_GENERATOR));
    CHECK(czk_g2_affine_in_subgroup(&CZK_G2_GENERATOR));

    /* ψ coefficients: PSI_X = 1/(u+1)^((p-1)/3), PSI_Y = 1/(u+1)^((p-1)/2). */
    czk_fp2 nr, t;
    czk_fp2_set_one(&nr);
    czk_fp2_mul_by_nonresidue(&nr, &nr);
    CHECK(czk_fp_is_one(&nr.c0) && czk_fp_is_one(&nr.c1));
    uint64_t e[6];
    p_minus_1_over(e, 3);
    czk_fp2_pow(&t, &nr, e, 6);
    czk_fp2_mul(&t, &t, &CZK_G2_PSI_X);
    CHECK(czk_fp2_is_one(&t));
    p_minus_1_over(e, 2);
    czk_fp2_pow(&t, &nr, e, 6);
    czk_fp2_mul(&t, &t, &CZK_G2_PSI_Y);
    CHECK(czk_fp2_is_one(&t));
    /* ψ acts as [x] = -[|x|] on G2 */
    mpz_t xa;
    mpz_init_set_ui(xa, (unsigned long)BLS_X_ABS);
    czk_g2 g, s, u;
    gen(&g);
    czk_g2_psi(&s, &g);
    naive_mul(&u, &g, xa);
    czk_g2_neg(&u, &u);
    CHECK(czk_g2_equal(&s, &u));
    mpz_clear(xa);
}

static void test_multiples(void) {
    size_t lc, lu;
    uint8_t *comp = test_read_vector("bls12_381/g2_compressed_multiples_0_999.bin", &lc);
    uint8_t *unc = test_read_vector("bls12_381/g2_uncompressed_multiples_0_999.bin", &lu);
    CHECK(comp && lc == 1000 * 96);
    CHECK(unc && lu == 1000 * 192);
    if (!comp || !unc || lc != 1000 * 96 || lu != 1000 * 192) goto out;
    czk_g2 acc, g, m;
    gen(&g);
    czk_g2_set_infinity(&acc);
    for (uint64_t k = 0; k < 1000; k++) {
        czk_g2_affine a, b, ref;
        uint8_t enc[192];
        CHECK_MSG(czk_g2_decode(&a, comp + 96 * k, 96, CZK_DECODE_CHECKED) == CZK_OK, "k=%llu", (unsigned long long)k);
        CHECK_MSG(czk_g2_decode(&b, unc + 192 * k, 192, CZK_DECODE_CHECKED) == CZK_OK, "k=%llu", (unsigned long long)k);
        CHECK(czk_g2_decode_compressed(&b, comp + 96 * k, CZK_DECODE_CHECKED) == CZK_OK);
        CHECK(czk_g2_decode_uncompressed(&b, unc + 192 * k, CZK_DECODE_CHECKED) == CZK_OK);
        CHECK(czk_g2_affine_equal(&a, &b));
        czk_g2_to_affine(&ref, &acc);
        CHECK_MSG(czk_g2_affine_equal(&a, &ref), "k=%llu", (unsigned long long)k);
        czk_g2_mul(&m, &g, &k, 1);
        CHECK_MSG(czk_g2_equal(&m, &acc), "mul k=%llu", (unsigned long long)k);
        czk_fr kf;
        czk_fr_from_u64(&kf, k);
        czk_g2_mul_fr(&m, &g, &kf);
        CHECK_MSG(czk_g2_equal(&m, &acc), "mul_fr k=%llu", (unsigned long long)k);
        czk_g2_to_compressed(enc, &a);
        CHECK_MSG(memcmp(enc, comp + 96 * k, 96) == 0, "k=%llu", (unsigned long long)k);
        czk_g2_to_uncompressed(enc, &a);
        CHECK_MSG(memcmp(enc, unc + 192 * k, 192) == 0, "k=%llu", (unsigned long long)k);
        /* alternate full and mixed additions */
        if (k & 1) czk_g2_add(&acc, &acc, &g);
        else czk_g2_add_affine(&acc, &acc, &CZK_G2_GENERATOR);
    }
out:
    free(comp);
    free(unc);
}

static void test_group_laws(czk_rng *rng) {
    long n = test_cases(200);
    for (long it = 0; it < n; it++) {
        czk_g2 p, q, s, t, u, v, w, o;
        czk_g2_affine qa, pa;
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
        CHECK(czk_g2_is_on_curve(&p) && czk_g2_is_on_curve(&q));
        czk_g2_to_affine(&qa, &q);
        czk_g2_to_affine(&pa, &p);
        CHECK(czk_g2_affine_is_on_curve(&qa));
        v = p;   /* off the curve: Y changed */
        czk_fp2_add(&v.y, &v.y, &v.z);
        CHECK(!czk_g2_is_on_curve(&v));
        czk_g2_affine va = qa;
        czk_fp2_add(&va.y, &va.y, &va.x);
        CHECK(!czk_g2_affine_is_on_curve(&va));
        /* add vs dbl */
        czk_g2_add(&t, &p, &p);
        czk_g2_dbl(&u, &p);
        CHECK(czk_g2_equal(&t, &u));
        CHECK(czk_g2_is_on_curve(&u));
        czk_g2_add_affine(&t, &p, &pa);
        CHECK(czk_g2_equal(&t, &u));
        /* add vs mixed add; commutativity */
        czk_g2_add(&t, &p, &q);
        czk_g2_add_affine(&u, &p, &qa);
        CHECK(czk_g2_equal(&t, &u));
        czk_g2_add(&u, &q, &p);
        CHECK(czk_g2_equal(&t, &u));
        CHECK(czk_g2_is_on_curve(&t));
        /* associativity */
        czk_g2_add(&u, &t, &s);          /* (p + q) + s */
        czk_g2_add(&v, &q, &s);
        czk_g2_add(&w, &p, &v);          /* p + (q + s) */
        CHECK(czk_g2_equal(&u, &w));
        /* aliasing: r == a, r == b */
        v = p;
        czk_g2_add(&v, &v, &q);
        CHECK(czk_g2_equal(&v, &t));
        v = q;
        czk_g2_add(&v, &p, &v);
        CHECK(czk_g2_equal(&v, &t));
        v = p;
        czk_g2_add_affine(&v, &v, &qa);
        CHECK(czk_g2_equal(&v, &t));
        v = p;
        czk_g2_dbl(&v, &v);
        czk_g2_dbl(&u, &p);
        CHECK(czk_g2_equal(&v, &u));
        /* negation, infinity */
        czk_g2_neg(&v, &p);
        czk_g2_add(&w, &p, &v);
        CHECK(czk_g2_is_infinity(&w));
        czk_g2_affine na;
        czk_g2_affine_neg(&na, &pa);
        czk_g2_add_affine(&w, &p, &na);
        CHECK(czk_g2_is_infinity(&w));
        czk_g2_set_infinity(&o);
        czk_g2_add(&w, &p, &o);
        CHECK(czk_g2_equal(&w, &p));
        czk_g2_add(&w, &o, &p);
        CHECK(czk_g2_equal(&w, &p));
        czk_g2_add_affine(&w, &o, &pa);
        CHECK(czk_g2_equal(&w, &p));
        czk_g2_affine oa;
        czk_g2_affine_set_infinity(&oa);
        czk_g2_add_affine(&w, &p, &oa);
        CHECK(czk_g2_equal(&w, &p));
        czk_g2_dbl(&w, &o);
        CHECK(czk_g2_is_infinity(&w));
        CHECK(!czk_g2_equal(&p, &o) && czk_g2_equal(&o, &o));
        /* p + q - q = p; equal with different Z */
        czk_g2_neg(&v, &q);
        czk_g2_add(&w, &t, &v);
        CHECK(czk_g2_equal(&w, &p));
        CHECK(!czk_g2_equal(&p, &q));
    }
}

/* Special scalars (0, 1, r-1, r, r+1, 2r, and wide ones) and random ones,
 * czk_g2_mul against double-and-add; mul_fr against mul for subgroup points. */
static void test_scalar_mul(czk_rng *rng) {
    mpz_t k, km;
    mpz_inits(k, km, NULL);
    long n = test_cases(40);
    for (long it = 0; it < n; it++) {
        czk_g2 p, a, b;
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
        CHECK_MSG(czk_g2_equal(&a, &b), "kind %d sub %d", kind, (int)sub);
        if (sub) {
            czk_fr kf;
            fr_from_mpz(&kf, k);
            czk_g2_mul_fr(&b, &p, &kf);
            CHECK_MSG(czk_g2_equal(&a, &b), "mul_fr kind %d", kind);
        }
    }
    /* mul_fr on random Fr, vs naive */
    for (long it = 0; it < n; it++) {
        czk_g2 p, a, b;
        random_subgroup_point(&p, rng);
        czk_fr kf;
        czk_fr_random(&kf, rng);
        uint64_t l[4];
        czk_fr_to_canonical(l, &kf);
        mpz_import(k, 4, -1, 8, 0, 0, l);
        czk_g2_mul_fr(&a, &p, &kf);
        naive_mul(&b, &p, k);
        CHECK(czk_g2_equal(&a, &b));
        /* infinity input */
        czk_g2 o;
        czk_g2_set_infinity(&o);
        czk_g2_mul_fr(&a, &o, &kf);
        CHECK(czk_g2_is_infinity(&a));
        czk_g2_mul(&a, &o, l, 4);
        CHECK(czk_g2_is_infinity(&a));
    }
    mpz_clears(k, km, NULL);
}

/* Points of small order ell | h (outside the subgroup): their wNAF tables
 * contain infinity; czk_g2_mul must still agree with double-and-add. */
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
            czk_g2 p, q, a, b;
            hash_point(&p, rng);
            mul_mpz(&q, &p, m);   /* in the ell-primary part */
            if (czk_g2_is_infinity(&q)) continue;
            mpz_set_ui(k, ell);
            for (;;) {            /* down to order exactly ell */
                mul_mpz(&a, &q, k);
                if (czk_g2_is_infinity(&a)) break;
                q = a;
            }
            found++;
            czk_g2_affine qa;
            czk_g2_to_affine(&qa, &q);
            CHECK(!czk_g2_affine_in_subgroup(&qa));
            mpz_set_ui(k, ell);
            mul_mpz(&a, &q, k);
            CHECK(czk_g2_is_infinity(&a));
            for (unsigned long j = 0; j < 3 * ell; j++) {
                mpz_set_ui(k, j);
                mul_mpz(&a, &q, k);
                naive_mul(&b, &q, k);
                CHECK_MSG(czk_g2_equal(&a, &b), "ell %lu k %lu", ell, j);
            }
            random_mpz(k, rng, 4);
            mul_mpz(&a, &q, k);
            naive_mul(&b, &q, k);
            CHECK(czk_g2_equal(&a, &b));
            break;
        }
    }
    CHECK(found >= 2);
    mpz_clears(m, k, NULL);
}

/* in_subgroup == ([r]P == O), for subgroup points, hashed points, and hashed
 * points times the cofactor h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9
 * (8 limbs: exercises the widest wNAF path). */
static void test_subgroup(czk_rng *rng) {
    mpz_t h, x;
    mpz_inits(h, x, NULL);
    mpz_set_ui(x, (unsigned long)BLS_X_ABS);
    mpz_neg(x, x);
    static const long coef[9] = {13, -4, -4, 6, -4, 0, 5, -4, 1}; /* x^0 .. x^8 */
    for (int i = 8; i >= 0; i--) {
        mpz_mul(h, h, x);
        if (coef[i] >= 0) mpz_add_ui(h, h, (unsigned long)coef[i]);
        else mpz_sub_ui(h, h, (unsigned long)-coef[i]);
    }
    CHECK(mpz_divisible_ui_p(h, 9));
    mpz_divexact_ui(h, h, 9);
    CHECK(mpz_sizeinbase(h, 2) > 448 && mpz_sizeinbase(h, 2) <= 512);
    long n = test_cases(30);
    int outside = 0;
    for (long it = 0; it < n; it++) {
        czk_g2 p, t;
        czk_g2_affine pa;
        switch (it % 3) {
        case 0: random_subgroup_point(&p, rng); break;
        case 1: hash_point(&p, rng); break;
        default:
            hash_point(&p, rng);
            mul_mpz(&p, &p, h);
            break;
        }
        mul_mpz(&t, &p, R_ORDER);
        czk_g2_to_affine(&pa, &p);
        bool in = czk_g2_affine_in_subgroup(&pa);
        CHECK(in == czk_g2_is_infinity(&t));
        CHECK(in == (it % 3 != 1));
        if (!in) outside++;
    }
    CHECK(outside > 0);
    test_small_order(rng, h);
    czk_g2_affine o;
    czk_g2_affine_set_infinity(&o);
    CHECK(czk_g2_affine_in_subgroup(&o) && czk_g2_affine_is_on_curve(&o));
    mpz_clears(h, x, NULL);
}

static void test_batch_to_affine(czk_rng *rng) {
    enum { N = 37 };
    czk_g2 in[N];
    czk_g2_affine out[N], one;
    for (int i = 0; i < N; i++) {
        if (i % 7 == 3 || i == 0 || i == N - 1) czk_g2_set_infinity(&in[i]);
        else {
            hash_point(&in[i], rng);
            rescale(&in[i], rng);
        }
    }
    czk_g2_batch_to_affine(out, in, N);
    for (int i = 0; i < N; i++) {
        czk_g2_to_affine(&one, &in[i]);
        CHECK_MSG(czk_g2_affine_equal(&one, &out[i]), "i=%d", i);
        CHECK(czk_g2_affine_is_infinity(&out[i]) == czk_g2_is_infinity(&in[i]));
    }
    czk_g2_batch_to_affine(out, in, 0);
    czk_g2_batch_to_affine(out, in + 1, 1);
    czk_g2_to_affine(&one, &in[1]);
    CHECK(czk_g2_affine_equal(&one, &out[0]));
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
