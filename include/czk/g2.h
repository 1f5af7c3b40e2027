/* czk — G2: the twist y^2 = x^3 + 4(u+1) over Fp2, and its order-r subgroup.
 * Same conventions as g1.h: affine infinity is x = y = 0, projective points
 * are Jacobian. Costs are in Fp2 multiplications (M) and squarings (S). */
#ifndef CZK_G2_H
#define CZK_G2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/fp2.h"
#include "czk/fr.h"
#include "czk/g1.h"

#define CZK_G2_COMPRESSED_BYTES 96
#define CZK_G2_UNCOMPRESSED_BYTES 192

typedef struct {
    czk_fp2 x, y;
} czk_g2_affine;

typedef struct {
    czk_fp2 x, y, z;
} czk_g2;

extern const czk_g2_affine CZK_G2_GENERATOR;

void czk_g2_set_infinity(czk_g2 *r);
bool czk_g2_is_infinity(const czk_g2 *a);
void czk_g2_affine_set_infinity(czk_g2_affine *r);
bool czk_g2_affine_is_infinity(const czk_g2_affine *a);

void czk_g2_from_affine(czk_g2 *r, const czk_g2_affine *a);
void czk_g2_to_affine(czk_g2_affine *r, const czk_g2 *a);
void czk_g2_batch_to_affine(czk_g2_affine *out, const czk_g2 *in, size_t n);

bool czk_g2_equal(const czk_g2 *a, const czk_g2 *b);
bool czk_g2_affine_equal(const czk_g2_affine *a, const czk_g2_affine *b);
bool czk_g2_is_on_curve(const czk_g2 *a);
bool czk_g2_affine_is_on_curve(const czk_g2_affine *a);
/* Membership in the order-r subgroup via the untwist–Frobenius–twist
 * endomorphism ψ (ψ(P) = [x]P for subgroup points); P must be on the curve. */
bool czk_g2_affine_in_subgroup(const czk_g2_affine *a);
/* y^2 == x^3 + 4(u+1) on raw coordinates ((0, 0) is not treated as infinity). */
bool czk_g2_xy_on_curve(const czk_fp2 *x, const czk_fp2 *y);

/* ψ(x, y) = (conj(x)·CZK_G2_PSI_X, conj(y)·CZK_G2_PSI_Y), with
 * PSI_X = 1/(u+1)^((p-1)/3) and PSI_Y = 1/(u+1)^((p-1)/2); on G2, ψ = [x]. */
extern const czk_fp2 CZK_G2_PSI_X, CZK_G2_PSI_Y;
void czk_g2_psi(czk_g2 *r, const czk_g2 *a);   /* on Jacobian coordinates; 2M */

void czk_g2_neg(czk_g2 *r, const czk_g2 *a);
void czk_g2_affine_neg(czk_g2_affine *r, const czk_g2_affine *a);
void czk_g2_dbl(czk_g2 *r, const czk_g2 *a);
void czk_g2_add(czk_g2 *r, const czk_g2 *a, const czk_g2 *b);
void czk_g2_add_affine(czk_g2 *r, const czk_g2 *a, const czk_g2_affine *b);

/* r = k·a, k of n limbs (any size, not reduced): correct for every point of
 * the curve; wNAF, window 5. Variable time. */
void czk_g2_mul(czk_g2 *r, const czk_g2 *a, const uint64_t *k, int n);
/* r = k·a for a in the order-r subgroup only (GLS: k split into four 64-bit
 * digits in base |x|, ψ = [x]); much faster than czk_g2_mul. Variable time. */
void czk_g2_mul_fr(czk_g2 *r, const czk_g2 *a, const czk_fr *k);

void czk_g2_to_compressed(uint8_t out[CZK_G2_COMPRESSED_BYTES], const czk_g2_affine *a);
void czk_g2_to_uncompressed(uint8_t out[CZK_G2_UNCOMPRESSED_BYTES], const czk_g2_affine *a);
/* Same rules and error order as the G1 decoders (g1.h), with lengths 96
 * (compressed) and 192 (uncompressed); each coordinate is c1 ‖ c0 and each
 * of the four Fp parts must be < p. */
czk_err czk_g2_decode(czk_g2_affine *r, const uint8_t *in, size_t len, czk_decode_mode mode);
czk_err czk_g2_decode_compressed(czk_g2_affine *r, const uint8_t in[CZK_G2_COMPRESSED_BYTES],
                                 czk_decode_mode mode);
czk_err czk_g2_decode_uncompressed(czk_g2_affine *r, const uint8_t in[CZK_G2_UNCOMPRESSED_BYTES],
                                   czk_decode_mode mode);

#endif
