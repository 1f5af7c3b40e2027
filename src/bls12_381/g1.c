/* czk — G1 group law, subgroup check and scalar multiplication (see
 * include/czk/g1.h). The Jacobian formulas live in jacobian.h. */
#include "czk/g1.h"

#include <string.h>

#define FE czk_fp
#define AFF czk_g1_affine
#define JAC czk_g1
#define fe_add czk_fp_add
#define fe_sub czk_fp_sub
#define fe_dbl czk_fp_dbl
#define fe_neg czk_fp_neg
#define fe_mul czk_fp_mul
#define fe_sqr czk_fp_sqr
#define fe_inv czk_fp_inv
#define fe_is_zero czk_fp_is_zero
#define fe_equal czk_fp_equal
#define fe_set_zero czk_fp_set_zero
#define fe_set_one czk_fp_set_one
#define CURVE_B (&G1_B)

/* b = 4, Montgomery form. Checked by test_g1 (generator on the curve). */
static const czk_fp G1_B = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                             0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};

#include "jacobian.h"

/* The generator, Montgomery form; test_g1 checks it against the zcash encoding
 * in constants.txt and the multiples file. */
const czk_g1_affine CZK_G1_GENERATOR = {
    {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL, 0xf0ae6acdf3d0e747ULL,
      0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}},
    {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL, 0x51ac582950405194ULL,
      0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}}};

/* β, a primitive cube root of unity in Fp (Montgomery form), chosen so that
 * σ(x, y) = (βx, y) acts on G1 as multiplication by λ = -x^2 mod r. The canonical
 * value is 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe;
 * test_g1 checks β^3 = 1, β != 1 and σ(G) = [-x^2]G. */
const czk_fp CZK_G1_BETA = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                             0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};

void czk_g1_set_infinity(czk_g1 *r) { jac_set_inf(r); }
bool czk_g1_is_infinity(const czk_g1 *a) { return jac_is_inf(a); }
void czk_g1_affine_set_infinity(czk_g1_affine *r) { aff_set_inf(r); }
bool czk_g1_affine_is_infinity(const czk_g1_affine *a) { return aff_is_inf(a); }

void czk_g1_from_affine(czk_g1 *r, const czk_g1_affine *a) { jac_from_aff(r, a); }
void czk_g1_to_affine(czk_g1_affine *r, const czk_g1 *a) { jac_to_aff(r, a); }
void czk_g1_batch_to_affine(czk_g1_affine *out, const czk_g1 *in, size_t n) {
    jac_batch_to_aff(out, in, n);
}

bool czk_g1_equal(const czk_g1 *a, const czk_g1 *b) { return jac_equal(a, b); }
bool czk_g1_affine_equal(const czk_g1_affine *a, const czk_g1_affine *b) {
    return czk_fp_equal(&a->x, &b->x) && czk_fp_equal(&a->y, &b->y);
}
bool czk_g1_is_on_curve(const czk_g1 *a) { return jac_on_curve(a); }
bool czk_g1_affine_is_on_curve(const czk_g1_affine *a) { return aff_on_curve(a); }
bool czk_g1_xy_on_curve(const czk_fp *x, const czk_fp *y) { return xy_on_curve(x, y); }

void czk_g1_neg(czk_g1 *r, const czk_g1 *a) { jac_neg(r, a); }
void czk_g1_affine_neg(czk_g1_affine *r, const czk_g1_affine *a) { aff_neg(r, a); }
void czk_g1_dbl(czk_g1 *r, const czk_g1 *a) { jac_dbl(r, a); }
void czk_g1_add(czk_g1 *r, const czk_g1 *a, const czk_g1 *b) { jac_add(r, a, b); }
void czk_g1_add_affine(czk_g1 *r, const czk_g1 *a, const czk_g1_affine *b) { jac_add_aff(r, a, b); }

void czk_g1_endomorphism(czk_g1 *r, const czk_g1 *a) {
    czk_fp_mul(&r->x, &a->x, &CZK_G1_BETA);
    r->y = a->y;
    r->z = a->z;
}

/* |x| for the BLS parameter x = -0xd201000000010000. */
#define BLS_X_ABS 0xd201000000010000ULL

/* Scott's test: P is in G1 iff σ(P) = -[x^2]P, i.e. [x^2]P = (βx, -y).
 * Two multiplications by |x|: 126 doublings + 10 additions. */
bool czk_g1_affine_in_subgroup(const czk_g1_affine *a) {
    if (aff_is_inf(a)) return true;
    czk_g1 t;
    jac_mul_u64_aff(&t, a, BLS_X_ABS);
    jac_mul_u64(&t, &t, BLS_X_ABS);
    czk_fp bx, ny;
    czk_fp_mul(&bx, &a->x, &CZK_G1_BETA);
    czk_fp_neg(&ny, &a->y);
    return jac_equal_xy(&t, &bx, &ny);
}

void czk_g1_mul(czk_g1 *r, const czk_g1 *a, const uint64_t *k, int n) { jac_mul_generic(r, a, k, n); }

/* GLV: with k < r, k = k0 + k1·x^2 where k0 = k mod x^2 and k1 = k div x^2,
 * both below 2^128; since σ = [-x^2] on G1, k·P = k0·P + k1·(-σ(P)).
 * Two interleaved wNAF over 128 bits with affine tables: 128 doublings + ~43
 * mixed additions + 1 inversion. */
void czk_g1_mul_fr(czk_g1 *r, const czk_g1 *a, const czk_fr *k) {
    uint64_t q[4];
    czk_fr_to_canonical(q, k);
    if (jac_is_inf(a) || (q[0] | q[1] | q[2] | q[3]) == 0) {
        jac_set_inf(r);
        return;
    }
    uint64_t r1 = divrem_u64(q, q, BLS_X_ABS);
    uint64_t r2 = divrem_u64(q, q, BLS_X_ABS);
    /* k0 = r2·|x| + r1 < x^2; k1 = q (two limbs). */
    unsigned __int128 k0 = (unsigned __int128)r2 * BLS_X_ABS + r1;
    uint64_t s0[2] = {(uint64_t)k0, (uint64_t)(k0 >> 64)};
    uint64_t s1[2] = {q[0], q[1]};

    czk_g1_affine t0[WNAF_TABLE], t1[WNAF_TABLE];
    aff_odd_multiples(t0, a);
    for (int i = 0; i < WNAF_TABLE; i++) {   /* -σ(t0[i]); infinity stays (0, 0) */
        czk_fp_mul(&t1[i].x, &t0[i].x, &CZK_G1_BETA);
        czk_fp_neg(&t1[i].y, &t0[i].y);
    }
    int8_t d0[128 + WNAF_W], d1[128 + WNAF_W];
    int l0 = wnaf_recode(d0, s0, 128), l1 = wnaf_recode(d1, s1, 128);
    const czk_g1_affine *tabs[2] = {t0, t1};
    const int8_t *ds[2] = {d0, d1};
    aff_multi_wnaf(r, 2, tabs, ds, l0 > l1 ? l0 : l1);
}
