/* czk — the tower above Fp2 that pairing values live in:
 *
 *   Fp6  = Fp2[v]/(v^3 - ξ), ξ = u + 1;  a = c0 + c1·v + c2·v^2
 *   Fp12 = Fp6[w]/(w^2 - v);             a = c0 + c1·w
 *
 * (so w^6 = ξ: Fp12 = Fp2[w]/(w^6 - ξ) as well). Output arguments may alias
 * inputs. No function allocates. Costs are in Fp2 multiplications (m) and
 * squarings (s) — one m is 3 Fp multiplications, one s is 2 — with additions
 * left out. */
#ifndef CZK_FP12_H
#define CZK_FP12_H

#include <stdbool.h>
#include <stdint.h>
#include "czk/fp2.h"
#include "czk/rng.h"

typedef struct {
    czk_fp2 c0, c1, c2;
} czk_fp6;

typedef struct {
    czk_fp6 c0, c1;
} czk_fp12;

/* Frobenius coefficients, k = 0..5, Montgomery form: ξ^((p^k-1)/3),
 * ξ^(2(p^k-1)/3) (Fp6) and ξ^((p^k-1)/6) (Fp12). Checked by test_tower, which
 * recomputes them. */
extern const czk_fp2 CZK_FP6_FROBENIUS_C1[6];
extern const czk_fp2 CZK_FP6_FROBENIUS_C2[6];
extern const czk_fp2 CZK_FP12_FROBENIUS_C1[6];

/* ---- Fp6 ---------------------------------------------------------------- */

static inline void czk_fp6_set_zero(czk_fp6 *r) {
    czk_fp2_set_zero(&r->c0);
    czk_fp2_set_zero(&r->c1);
    czk_fp2_set_zero(&r->c2);
}
static inline void czk_fp6_set_one(czk_fp6 *r) {
    czk_fp2_set_one(&r->c0);
    czk_fp2_set_zero(&r->c1);
    czk_fp2_set_zero(&r->c2);
}
bool czk_fp6_is_zero(const czk_fp6 *a);
bool czk_fp6_is_one(const czk_fp6 *a);
bool czk_fp6_equal(const czk_fp6 *a, const czk_fp6 *b);

void czk_fp6_add(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b);
void czk_fp6_sub(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b);
void czk_fp6_neg(czk_fp6 *r, const czk_fp6 *a);
void czk_fp6_dbl(czk_fp6 *r, const czk_fp6 *a);
void czk_fp6_mul(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b);   /* 6m (Karatsuba) */
void czk_fp6_sqr(czk_fp6 *r, const czk_fp6 *a);                     /* 2m + 3s (Chung–Hasan SQR2) */
/* r = a·v = ξ·a2 + a0·v + a1·v^2: additions only. */
void czk_fp6_mul_by_nonresidue(czk_fp6 *r, const czk_fp6 *a);
void czk_fp6_mul_fp2(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b);  /* 3m */
/* Sparse products: r = a·(b0 + b1·v) (5m) and r = a·(b1·v) (3m). */
void czk_fp6_mul_by_01(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b0, const czk_fp2 *b1);
void czk_fp6_mul_by_1(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b1);
/* r = 1/a; 1/0 = 0. One Fp inversion + 9m + 3s. */
void czk_fp6_inv(czk_fp6 *r, const czk_fp6 *a);
/* r = a^(p^k), any k >= 0. 4m at most. */
void czk_fp6_frobenius_map(czk_fp6 *r, const czk_fp6 *a, unsigned k);
void czk_fp6_random(czk_fp6 *r, czk_rng *rng);

/* ---- Fp12 --------------------------------------------------------------- */

static inline void czk_fp12_set_zero(czk_fp12 *r) {
    czk_fp6_set_zero(&r->c0);
    czk_fp6_set_zero(&r->c1);
}
static inline void czk_fp12_set_one(czk_fp12 *r) {
    czk_fp6_set_one(&r->c0);
    czk_fp6_set_zero(&r->c1);
}
bool czk_fp12_is_zero(const czk_fp12 *a);
bool czk_fp12_is_one(const czk_fp12 *a);
bool czk_fp12_equal(const czk_fp12 *a, const czk_fp12 *b);

void czk_fp12_add(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b);
void czk_fp12_sub(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b);
void czk_fp12_neg(czk_fp12 *r, const czk_fp12 *a);
/* r = c0 - c1·w = a^(p^6); equals 1/a on the cyclotomic subgroup. */
void czk_fp12_conjugate(czk_fp12 *r, const czk_fp12 *a);
void czk_fp12_mul(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b);  /* 18m (Karatsuba) */
void czk_fp12_sqr(czk_fp12 *r, const czk_fp12 *a);                     /* 12m (complex squaring) */
/* r = a·(b0 + b1·v + b4·v·w), the shape of a Miller-loop line: 13m. */
void czk_fp12_mul_by_014(czk_fp12 *r, const czk_fp12 *a, const czk_fp2 *b0, const czk_fp2 *b1,
                         const czk_fp2 *b4);
/* r = 1/a; 1/0 = 0. One Fp inversion + ~30m. */
void czk_fp12_inv(czk_fp12 *r, const czk_fp12 *a);
/* r = a^(p^k), any k >= 0. 8m at most. */
void czk_fp12_frobenius_map(czk_fp12 *r, const czk_fp12 *a, unsigned k);
/* r = a^2 for a in the cyclotomic subgroup (any b^((p^6-1)(p^2+1)), e.g. a
 * value after the easy part of the final exponentiation): Granger–Scott, 9s.
 * Wrong for other inputs. */
void czk_fp12_cyclotomic_sqr(czk_fp12 *r, const czk_fp12 *a);
/* r = a^e, e given as n little-endian 64-bit limbs; square-and-multiply with
 * a 4-bit window. Variable time. */
void czk_fp12_pow(czk_fp12 *r, const czk_fp12 *a, const uint64_t *e, int n);
/* Same for a in the cyclotomic subgroup, with cyclotomic squarings. */
void czk_fp12_cyclotomic_pow(czk_fp12 *r, const czk_fp12 *a, const uint64_t *e, int n);
void czk_fp12_random(czk_fp12 *r, czk_rng *rng);

/* 576 bytes: the 12 Fp coefficients in the order c0.c0.c0, c0.c0.c1,
 * c0.c1.c0, …, c1.c2.c1, each 48 bytes big-endian canonical. from_bytes fails
 * on a non-canonical coefficient. */
#define CZK_FP12_BYTES (12 * CZK_FP_BYTES)
void czk_fp12_to_bytes_be(uint8_t out[CZK_FP12_BYTES], const czk_fp12 *a);
bool czk_fp12_from_bytes_be(czk_fp12 *r, const uint8_t in[CZK_FP12_BYTES]);

#endif
