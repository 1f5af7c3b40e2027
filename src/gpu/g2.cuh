/* czk — G2 (the twist y^2 = x^3 + 4(u+1) over Fp2) on the device: the XYZZ
 * template of xyzz.cuh over fp2_t (the curve's b never enters the addition
 * formulas). g2_aff_t is the host's czk_g2_affine ((0, 0) = infinity,
 * 192 B), g2_jac_t the host's czk_g2 (288 B), g2_xyzz_t a bucket (384 B). */
#ifndef CZK_GPU_G2_CUH
#define CZK_GPU_G2_CUH

#include "xyzz.cuh"

typedef aff_t<fp2_t> g2_aff_t;
typedef jac_t<fp2_t> g2_jac_t;
typedef xyzz_t<fp2_t> g2_xyzz_t;

#endif
