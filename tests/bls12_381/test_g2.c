/* G2: constants, the 1,000 reference multiples, group laws, scalar
 * multiplication against double-and-add, subgroup checks, batch_to_affine
 * (all but the constants in group_tests.h, shared with test_g1). */
#include "czk/g2.h"

#define NAME "test_g2"
#define PT czk_g2
#define AFF czk_g2_affine
#define FE czk_fp2
#define G_(f) czk_g2_##f
#define FE_(f) czk_fp2_##f
#define GENERATOR CZK_G2_GENERATOR
#define CB 96
#define UB 192
#define MULTIPLES_COMPRESSED "bls12_381/g2_compressed_multiples_0_999.bin"
#define MULTIPLES_UNCOMPRESSED "bls12_381/g2_uncompressed_multiples_0_999.bin"
#include "group_tests.h"

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

/* h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9 (8 limbs:
 * exercises the widest wNAF path) */
static void cofactor(mpz_t h) {
    mpz_t x;
    mpz_init(x);
    mpz_set_ui(h, 0);
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
    mpz_clear(x);
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

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, NAME);
    group_tests_init();
    test_constants();
    test_multiples();
    test_group_laws(&rng);
    test_scalar_mul(&rng);
    test_subgroup(&rng);
    test_batch_to_affine(&rng);
    group_tests_done();
    return test_finish(NAME);
}
