/* czk — fixed-base scalar multiplication (k·G for many k and one G), as
 * parameter generation needs: a table of j·2^(8i)·G (j < 256, i < 32) in
 * affine form turns each product into at most 32 mixed additions. */
#ifndef CZK_FIXED_BASE_H
#define CZK_FIXED_BASE_H

#include <stddef.h>
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/pool.h"

typedef struct czk_g1_fixed_base czk_g1_fixed_base;
typedef struct czk_g2_fixed_base czk_g2_fixed_base;

/* Table for base (≈ 780 KB for G1, 1.5 MB for G2). */
czk_err czk_g1_fixed_base_new(czk_g1_fixed_base **out, const czk_g1 *base);
czk_err czk_g2_fixed_base_new(czk_g2_fixed_base **out, const czk_g2 *base);
void czk_g1_fixed_base_free(czk_g1_fixed_base *t);
void czk_g2_fixed_base_free(czk_g2_fixed_base *t);

/* r = k·base. */
void czk_g1_fixed_base_mul(czk_g1 *r, const czk_g1_fixed_base *t, const czk_fr *k);
void czk_g2_fixed_base_mul(czk_g2 *r, const czk_g2_fixed_base *t, const czk_fr *k);

/* out[i] = scalars[i]·base in affine form, for i < n, on the pool; zero
 * scalars give the point at infinity. */
czk_err czk_g1_fixed_base_mul_many(czk_g1_affine *out, const czk_g1_fixed_base *t, const czk_fr *scalars,
                                   size_t n, czk_pool *pool);
czk_err czk_g2_fixed_base_mul_many(czk_g2_affine *out, const czk_g2_fixed_base *t, const czk_fr *scalars,
                                   size_t n, czk_pool *pool);

#endif
