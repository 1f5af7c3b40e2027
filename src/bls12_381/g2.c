/* czk — G2 group law, subgroup check and scalar multiplication (see
 * include/czk/g2.h). The Jacobian formulas live in jacobian.h. */
#include "czk/g2.h"

#include <string.h>

#define FE czk_fp2
#define AFF czk_g2_affine
#define JAC czk_g2
#define fe_add czk_fp2_add
#define fe_sub czk_fp2_sub
#define fe_dbl czk_fp2_dbl
#define fe_neg czk_fp2_neg
#define fe_mul czk_fp2_mul
#define fe_sqr czk_fp2_sqr
#define fe_inv czk_fp2_inv
#define fe_is_zero czk_fp2_is_zero
#define fe_equal czk_fp2_equal
#define fe_set_zero czk_fp2_set_zero
#define fe_set_one czk_fp2_set_one
#define CURVE_B (&G2_B)

/* b = 4(u + 1), Montgomery form (4 in each coefficient). Checked by test_g2
 * (generator and the 1,000 multiples on the curve). */
#define MONT_FOUR                                                                           \
    {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,                   \
      0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}}
static const czk_fp2 G2_B = {MONT_FOUR, MONT_FOUR};

#include "jacobian.h"

/* The generator, Montgomery form; test_g2 checks it against constants.txt. */
const czk_g2_affine CZK_G2_GENERATOR = {
    {{{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL, 0x9894999d1a3caee9ULL,
       0x6f67b7631863366bULL, 0x058191924350bcd7ULL}},
     {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL, 0x1b1ab6cc8541b367ULL,
       0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}},
    {{{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL, 0xbbefb5e96e0d495fULL,
       0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}},
     {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL, 0x79495c4ec93da33aULL,
       0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}}};

/* ψ(x, y) = (conj(x)·cx, conj(y)·cy) with cx = 1/(u+1)^((p-1)/3),
 * cy = 1/(u+1)^((p-1)/2) (Montgomery form); test_g2 recomputes both. */
const czk_fp2 CZK_G2_PSI_X = {
    {{0, 0, 0, 0, 0, 0}},
    {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
      0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}}};
const czk_fp2 CZK_G2_PSI_Y = {
    {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
      0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
    {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
      0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}};

void czk_g2_set_infinity(czk_g2 *r) { jac_set_inf(r); }
bool czk_g2_is_infinity(const czk_g2 *a) { return jac_is_inf(a); }
void czk_g2_affine_set_infinity(czk_g2_affine *r) { aff_set_inf(r); }
bool czk_g2_affine_is_infinity(const czk_g2_affine *a) { return aff_is_inf(a); }

void czk_g2_from_affine(czk_g2 *r, const czk_g2_affine *a) { jac_from_aff(r, a); }
void czk_g2_to_affine(czk_g2_affine *r, const czk_g2 *a) { jac_to_aff(r, a); }
void czk_g2_batch_to_affine(czk_g2_affine *out, const czk_g2 *in, size_t n) {
    jac_batch_to_aff(out, in, n);
}

bool czk_g2_equal(const czk_g2 *a, const czk_g2 *b) { return jac_equal(a, b); }
bool czk_g2_affine_equal(const czk_g2_affine *a, const czk_g2_affine *b) {
    return czk_fp2_equal(&a->x, &b->x) && czk_fp2_equal(&a->y, &b->y);
}
bool czk_g2_is_on_curve(const czk_g2 *a) { return jac_on_curve(a); }
bool czk_g2_affine_is_on_curve(const czk_g2_affine *a) { return aff_on_curve(a); }
bool czk_g2_xy_on_curve(const czk_fp2 *x, const czk_fp2 *y) { return xy_on_curve(x, y); }

void czk_g2_neg(czk_g2 *r, const czk_g2 *a) { jac_neg(r, a); }
void czk_g2_affine_neg(czk_g2_affine *r, const czk_g2_affine *a) { aff_neg(r, a); }
void czk_g2_dbl(czk_g2 *r, const czk_g2 *a) { jac_dbl(r, a); }
void czk_g2_add(czk_g2 *r, const czk_g2 *a, const czk_g2 *b) { jac_add(r, a, b); }
void czk_g2_add_affine(czk_g2 *r, const czk_g2 *a, const czk_g2_affine *b) { jac_add_aff(r, a, b); }

/* r = conj(a)·cx. cx = c·u has no c0 part, and (a0 - a1 u)(c u) = a1 c + a0 c u:
 * 2 Fp multiplications. */
static inline void mul_conj_psi_x(czk_fp2 *r, const czk_fp2 *a) {
    czk_fp t;
    czk_fp_mul(&t, &a->c1, &CZK_G2_PSI_X.c1);
    czk_fp_mul(&r->c1, &a->c0, &CZK_G2_PSI_X.c1);
    r->c0 = t;
}

/* Works on Jacobian coordinates since the Frobenius is a field automorphism:
 * ψ(X, Y, Z) = (conj(X)·cx, conj(Y)·cy, conj(Z)). 2M + 2 Fp mults. */
void czk_g2_psi(czk_g2 *r, const czk_g2 *a) {
    mul_conj_psi_x(&r->x, &a->x);
    czk_fp2_conjugate(&r->y, &a->y);
    czk_fp2_mul(&r->y, &r->y, &CZK_G2_PSI_Y);
    czk_fp2_conjugate(&r->z, &a->z);
}

#define BLS_X_ABS 0xd201000000010000ULL

/* P is in G2 iff ψ(P) = [x]P, i.e. [|x|]P = -ψ(P): 63 doublings + 5 additions. */
bool czk_g2_affine_in_subgroup(const czk_g2_affine *a) {
    if (aff_is_inf(a)) return true;
    czk_g2 t;
    jac_mul_u64_aff(&t, a, BLS_X_ABS);
    czk_fp2 px, py;
    mul_conj_psi_x(&px, &a->x);
    czk_fp2_conjugate(&py, &a->y);
    czk_fp2_mul(&py, &py, &CZK_G2_PSI_Y);
    czk_fp2_neg(&py, &py);
    return jac_equal_xy(&t, &px, &py);
}

void czk_g2_mul(czk_g2 *r, const czk_g2 *a, const uint64_t *k, int n) { jac_mul_generic(r, a, k, n); }

/* GLS: with k < r < |x|^4, write k = d0 + d1|x| + d2|x|^2 + d3|x|^3 (digits
 * below 2^64); on G2, [|x|] = -ψ, so k·P = sum d_i·(-ψ)^i(P). Four interleaved
 * wNAF over 64 bits with affine tables: 64 doublings + ~43 mixed additions
 * + 1 inversion. */
void czk_g2_mul_fr(czk_g2 *r, const czk_g2 *a, const czk_fr *k) {
    uint64_t q[4];
    czk_fr_to_canonical(q, k);
    if (jac_is_inf(a) || (q[0] | q[1] | q[2] | q[3]) == 0) {
        jac_set_inf(r);
        return;
    }
    uint64_t dig[4][1];
    for (int i = 0; i < 3; i++) dig[i][0] = divrem_u64(q, q, BLS_X_ABS);
    dig[3][0] = q[0];

    czk_g2_affine t[4][WNAF_TABLE];
    aff_odd_multiples(t[0], a);
    for (int j = 1; j < 4; j++)
        for (int i = 0; i < WNAF_TABLE; i++) {   /* -ψ; infinity stays (0, 0) */
            mul_conj_psi_x(&t[j][i].x, &t[j - 1][i].x);
            czk_fp2_conjugate(&t[j][i].y, &t[j - 1][i].y);
            czk_fp2_mul(&t[j][i].y, &t[j][i].y, &CZK_G2_PSI_Y);
            czk_fp2_neg(&t[j][i].y, &t[j][i].y);
        }
    int8_t d[4][64 + WNAF_W];
    int len = 0;
    const czk_g2_affine *tabs[4];
    const int8_t *ds[4];
    for (int j = 0; j < 4; j++) {
        int l = wnaf_recode(d[j], dig[j], 64);
        if (l > len) len = l;
        tabs[j] = t[j];
        ds[j] = d[j];
    }
    aff_multi_wnaf(r, 4, tabs, ds, len);
}
