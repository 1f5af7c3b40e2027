/* czk — Fp2 = Fp[u]/(u^2 + 1), the field G2's coordinates live in.
 * a = c0 + c1·u. Output arguments may alias inputs. Costs in Fp
 * multiplications (M) and squarings (S). */
#ifndef CZK_FP2_H
#define CZK_FP2_H

#include <stdbool.h>
#include "czk/fp.h"

typedef struct {
    czk_fp c0, c1;
} czk_fp2;

static inline void czk_fp2_set_zero(czk_fp2 *r) { czk_fp_set_zero(&r->c0); czk_fp_set_zero(&r->c1); }
static inline void czk_fp2_set_one(czk_fp2 *r) { czk_fp_set_one(&r->c0); czk_fp_set_zero(&r->c1); }

bool czk_fp2_is_zero(const czk_fp2 *a);
bool czk_fp2_is_one(const czk_fp2 *a);
bool czk_fp2_equal(const czk_fp2 *a, const czk_fp2 *b);

void czk_fp2_add(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b);
void czk_fp2_sub(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b);
void czk_fp2_neg(czk_fp2 *r, const czk_fp2 *a);
void czk_fp2_dbl(czk_fp2 *r, const czk_fp2 *a);
void czk_fp2_conjugate(czk_fp2 *r, const czk_fp2 *a);         /* c0 - c1·u = a^p */
void czk_fp2_mul(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b); /* 3M (Karatsuba) */
void czk_fp2_sqr(czk_fp2 *r, const czk_fp2 *a);                /* 2M */
void czk_fp2_mul_fp(czk_fp2 *r, const czk_fp2 *a, const czk_fp *b); /* 2M */
void czk_fp2_mul_by_nonresidue(czk_fp2 *r, const czk_fp2 *a);  /* ·(u+1), additions only */
void czk_fp2_inv(czk_fp2 *r, const czk_fp2 *a);                /* 1/0 = 0 */
void czk_fp2_pow(czk_fp2 *r, const czk_fp2 *a, const uint64_t *e, int n);
/* Norm c0^2 + c1^2 (in Fp); a is a square in Fp2 iff its norm is a square in Fp. */
void czk_fp2_norm(czk_fp *r, const czk_fp2 *a);
int czk_fp2_legendre(const czk_fp2 *a);
bool czk_fp2_sqrt(czk_fp2 *r, const czk_fp2 *a);
/* zcash's ordering: c1 decides, or c0 when c1 = 0. */
bool czk_fp2_is_lexicographically_largest(const czk_fp2 *a);

/* 96 bytes: c1 then c0, each 48 bytes big-endian (zcash order). */
bool czk_fp2_from_bytes_be(czk_fp2 *r, const uint8_t in[2 * CZK_FP_BYTES]);
void czk_fp2_to_bytes_be(uint8_t out[2 * CZK_FP_BYTES], const czk_fp2 *a);

void czk_fp2_random(czk_fp2 *r, czk_rng *rng);

#endif
