/* G1: constants, the 1,000 reference multiples, group laws, scalar
 * multiplication against double-and-add, subgroup checks, batch_to_affine
 * (all but the constants and [a]G1 in group_tests.h, shared with test_g2). */
#include "czk/g1.h"

#define NAME "test_g1"
#define PT czk_g1
#define AFF czk_g1_affine
#define FE czk_fp
#define G_(f) czk_g1_##f
#define FE_(f) czk_fp_##f
#define GENERATOR CZK_G1_GENERATOR
#define CB 48
#define UB 96
#define MULTIPLES_COMPRESSED "bls12_381/g1_compressed_multiples_0_999.bin"
#define MULTIPLES_UNCOMPRESSED "bls12_381/g1_uncompressed_multiples_0_999.bin"
#include "group_tests.h"

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

/* h1 = (x - 1)^2 / 3 */
static void cofactor(mpz_t h) {
    mpz_set_ui(h, (unsigned long)BLS_X_ABS);
    mpz_add_ui(h, h, 1);
    mpz_mul(h, h, h);
    CHECK(mpz_divisible_ui_p(h, 3));
    mpz_divexact_ui(h, h, 3);
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

/* [a]G1 from constants.txt (a > r), by czk_g1_mul and czk_g1_mul_fr */
static void test_a_multiple(void) {
    mpz_t k;
    mpz_init(k);
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
    mpz_clear(k);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, NAME);
    group_tests_init();
    test_constants();
    test_multiples();
    test_group_laws(&rng);
    test_scalar_mul(&rng);
    test_a_multiple();
    test_subgroup(&rng);
    test_batch_to_affine(&rng);
    group_tests_done();
    return test_finish(NAME);
}
