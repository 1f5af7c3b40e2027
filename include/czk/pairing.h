/* czk — the optimal ate pairing e: G1 × G2 → GT ⊂ Fp12*.
 *
 * Miller loop over the bits of |x|, x = -0xd201000000010000 (63 doublings,
 * 5 additions), G2 accumulator in homogeneous projective coordinates on the
 * M-type twist, lines evaluated as sparse Fp12 elements (mul_by_014), and a
 * conjugation at the end because x < 0. The final exponentiation raises to
 * 3(p^12 - 1)/r: easy part (p^6 - 1)(p^2 + 1), then three times the hard part
 * (p^4 - p^2 + 1)/r as a chain of exponentiations by x with cyclotomic
 * squarings. The factor 3 (prime to r, so e stays a non-degenerate bilinear
 * map) is the convention of zkcrypto and blst: e(G1, G2) matches
 * tests/vectors/bls12_381/pairing_g1_g2.txt.
 *
 * The point at infinity (in either argument) contributes 1. Inputs must be on
 * their curves (and in the subgroups for the result to be a pairing value);
 * nothing here checks that. No function allocates. */
#ifndef CZK_PAIRING_H
#define CZK_PAIRING_H

#include <stdbool.h>
#include <stddef.h>
#include "czk/fp12.h"
#include "czk/g1.h"
#include "czk/g2.h"

/* Number of line functions in one Miller loop: 63 doublings + 5 additions. */
#define CZK_PAIRING_LINES 68

/* One line, scaled so that its value at P = (xp, yp) is
 * c0 + (c1·xp)·v + (c2·yp)·v·w. */
typedef struct {
    czk_fp2 c0, c1, c2;
} czk_pairing_line;

/* A G2 point with its Miller-loop lines precomputed (≈ 19.6 KB), for points
 * used in many pairings (a verifying key's γ and δ). */
typedef struct {
    czk_pairing_line lines[CZK_PAIRING_LINES];
    bool infinity;
} czk_g2_prepared;

/* Miller loop f_{x,Q}(P), before the final exponentiation. */
void czk_miller_loop(czk_fp12 *r, const czk_g1_affine *p, const czk_g2_affine *q);
/* Π f_{x,Q_i}(P_i) with one shared squaring chain; n = 0 gives 1. */
void czk_multi_miller_loop(czk_fp12 *r, const czk_g1_affine *p, const czk_g2_affine *q, size_t n);

void czk_g2_prepare(czk_g2_prepared *r, const czk_g2_affine *q);
/* Same value as czk_multi_miller_loop on the points q[i] were prepared from. */
void czk_multi_miller_loop_prepared(czk_fp12 *r, const czk_g1_affine *p,
                                    const czk_g2_prepared *const *q, size_t n);

/* r = f^(3(p^12-1)/r). One Fp inversion + 5 exponentiations by |x| (63
 * cyclotomic squarings and 5 multiplications each) + ~12 multiplications.
 * f = 0 gives 0. */
void czk_final_exponentiation(czk_fp12 *r, const czk_fp12 *f);

/* r = e(p, q). */
void czk_pairing(czk_fp12 *r, const czk_g1_affine *p, const czk_g2_affine *q);
/* r = Π e(p[i], q[i]): one multi Miller loop and one final exponentiation. */
void czk_multi_pairing(czk_fp12 *r, const czk_g1_affine *p, const czk_g2_affine *q, size_t n);

#endif
