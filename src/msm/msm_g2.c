/* czk — variable-base MSM on G2 (include/czk/msm.h); the algorithm is in
 * pippenger.h, the bucket arithmetic in xyzz.h (over Fp2). */
#include "czk/g2.h"
#include "czk/msm.h"

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
#define fe_equal czk_fp2_equal
#define fe_is_zero czk_fp2_is_zero
#define fe_set_zero czk_fp2_set_zero
#define fe_set_one czk_fp2_set_one
#define JAC_ADD czk_g2_add
#define JAC_DBL czk_g2_dbl
#define JAC_SET_INF czk_g2_set_infinity
#define MSM_IS_G2 true

#include "pippenger.h"

czk_err czk_msm_g2_ex(czk_g2 *r, const czk_g2_affine *bases, const czk_fr *scalars, size_t n,
                      const czk_bitmap *density, czk_pool *pool, const czk_msm_opts *opts) {
    return msm_run(r, bases, scalars, n, density, pool, opts);
}

czk_err czk_msm_g2(czk_g2 *r, const czk_g2_affine *bases, const czk_fr *scalars, size_t n,
                   const czk_bitmap *density, czk_pool *pool) {
    return msm_run(r, bases, scalars, n, density, pool, NULL);
}
