/* czk — G1: the curve y^2 = x^3 + 4 over Fp, and its order-r subgroup.
 *
 * Affine points are (x, y); the point at infinity is stored as x = y = 0
 * (never on the curve, so unambiguous). Projective points use Jacobian
 * coordinates (X, Y, Z) with x = X/Z^2, y = Y/Z^3; Z = 0 is infinity.
 * Costs (M = Fp mul, S = Fp square) are stated per function. */
#ifndef CZK_G1_H
#define CZK_G1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/fp.h"
#include "czk/fr.h"

#define CZK_G1_COMPRESSED_BYTES 48
#define CZK_G1_UNCOMPRESSED_BYTES 96

typedef struct {
    czk_fp x, y;
} czk_g1_affine;

typedef struct {
    czk_fp x, y, z;
} czk_g1;

/* How much a decoder checks. TRUSTED skips only the subgroup check (used for
 * parameter files whose integrity is checked otherwise). */
typedef enum { CZK_DECODE_CHECKED = 0, CZK_DECODE_TRUSTED = 1 } czk_decode_mode;

extern const czk_g1_affine CZK_G1_GENERATOR;

void czk_g1_set_infinity(czk_g1 *r);
bool czk_g1_is_infinity(const czk_g1 *a);
void czk_g1_affine_set_infinity(czk_g1_affine *r);
bool czk_g1_affine_is_infinity(const czk_g1_affine *a);

void czk_g1_from_affine(czk_g1 *r, const czk_g1_affine *a);
void czk_g1_to_affine(czk_g1_affine *r, const czk_g1 *a);        /* 1 inversion */
/* n points to affine with one inversion (Montgomery's trick); out[] doubles as
 * scratch, so it must not overlap in[]. */
void czk_g1_batch_to_affine(czk_g1_affine *out, const czk_g1 *in, size_t n);

bool czk_g1_equal(const czk_g1 *a, const czk_g1 *b);
bool czk_g1_affine_equal(const czk_g1_affine *a, const czk_g1_affine *b);
bool czk_g1_is_on_curve(const czk_g1 *a);                         /* infinity: true */
bool czk_g1_affine_is_on_curve(const czk_g1_affine *a);           /* infinity: true */
/* Membership in the order-r subgroup, via the GLV endomorphism (Scott's test
 * σ(P) = -x^2·P); the point must be on the curve. */
bool czk_g1_affine_in_subgroup(const czk_g1_affine *a);
/* y^2 == x^3 + 4 on raw coordinates ((0, 0) is not treated as infinity). */
bool czk_g1_xy_on_curve(const czk_fp *x, const czk_fp *y);

/* β: the cube root of unity in Fp with σ(x, y) = (βx, y) = [-x^2] on G1. */
extern const czk_fp CZK_G1_BETA;
/* r = σ(a) = (βX, Y, Z). 1M. */
void czk_g1_endomorphism(czk_g1 *r, const czk_g1 *a);

void czk_g1_neg(czk_g1 *r, const czk_g1 *a);
void czk_g1_affine_neg(czk_g1_affine *r, const czk_g1_affine *a);
void czk_g1_dbl(czk_g1 *r, const czk_g1 *a);                          /* 2M + 5S */
void czk_g1_add(czk_g1 *r, const czk_g1 *a, const czk_g1 *b);         /* 11M + 5S */
void czk_g1_add_affine(czk_g1 *r, const czk_g1 *a, const czk_g1_affine *b); /* 7M + 4S */

/* r = k·a, k an integer of n little-endian 64-bit limbs (any size, not
 * reduced mod r). Correct for every point of the curve, in the subgroup or
 * not. wNAF (window 5) for k up to 8 limbs. Variable time. */
void czk_g1_mul(czk_g1 *r, const czk_g1 *a, const uint64_t *k, int n);
/* r = k·a for a in the order-r subgroup (what CHECKED decoding and the group
 * operations on subgroup points give); faster than czk_g1_mul: GLV splits k
 * into two 128-bit halves. The result is wrong for points outside G1.
 * Variable time. */
void czk_g1_mul_fr(czk_g1 *r, const czk_g1 *a, const czk_fr *k);

/* zcash encodings (see ../shared/reference/bls12_381/README.md). */
void czk_g1_to_compressed(uint8_t out[CZK_G1_COMPRESSED_BYTES], const czk_g1_affine *a);
void czk_g1_to_uncompressed(uint8_t out[CZK_G1_UNCOMPRESSED_BYTES], const czk_g1_affine *a);
/* Decoding. Every malformed input gets its own error code, checked in this
 * order; r is untouched on error:
 *   CZK_ERR_BAD_LENGTH        czk_g1_decode: len is 0, or does not match the
 *                             form the 0x80 flag names (set: 48, clear: 96);
 *   CZK_ERR_COMPRESSION_FLAG  the form-specific decoders: the 0x80 flag names
 *                             the other form;
 *   CZK_ERR_INFINITY_NOT_ZERO 0x40 set and any non-flag bit set (byte 0's low
 *                             five bits, or any later byte);
 *   CZK_ERR_SORT_FLAG         0x20 set on an uncompressed or infinity encoding;
 *   CZK_ERR_NOT_CANONICAL     a coordinate >= p (flags masked off);
 *   CZK_ERR_NOT_ON_CURVE      uncompressed (x, y) off the curve, or compressed
 *                             x with x^3 + b not a square;
 *   CZK_ERR_NOT_IN_SUBGROUP   not in the order-r subgroup (CHECKED mode only).
 * czk_g1_decode takes either form, the 0x80 flag says which. */
czk_err czk_g1_decode(czk_g1_affine *r, const uint8_t *in, size_t len, czk_decode_mode mode);
czk_err czk_g1_decode_compressed(czk_g1_affine *r, const uint8_t in[CZK_G1_COMPRESSED_BYTES],
                                 czk_decode_mode mode);
czk_err czk_g1_decode_uncompressed(czk_g1_affine *r, const uint8_t in[CZK_G1_UNCOMPRESSED_BYTES],
                                   czk_decode_mode mode);

#endif
