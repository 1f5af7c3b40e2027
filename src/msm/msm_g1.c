/* czk — variable-base MSM on G1 (include/czk/msm.h); the algorithm is in
 * pippenger.h, the bucket arithmetic in xyzz.h (over Fp). */
#include "czk/g1.h"
#include "czk/msm.h"

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
#define fe_equal czk_fp_equal
#define fe_is_zero czk_fp_is_zero
#define fe_set_zero czk_fp_set_zero
#define fe_set_one czk_fp_set_one
#define JAC_ADD czk_g1_add
#define JAC_DBL czk_g1_dbl
#define JAC_SET_INF czk_g1_set_infinity
#define MSM_IS_G2 false

#include "pippenger.h"

czk_err czk_msm_g1_ex(czk_g1 *r, const czk_g1_affine *bases, const czk_fr *scalars, size_t n,
                      const czk_bitmap *density, czk_pool *pool, const czk_msm_opts *opts) {
    return msm_run(r, bases, scalars, n, density, pool, opts);
}

czk_err czk_msm_g1(czk_g1 *r, const czk_g1_affine *bases, const czk_fr *scalars, size_t n,
                   const czk_bitmap *density, czk_pool *pool) {
    return msm_run(r, bases, scalars, n, density, pool, NULL);
}
