/* czk — G1 (y^2 = x^3 + 4 over Fp) on the device: the XYZZ template of
 * xyzz.cuh over fp_t. g1_aff_t is the host's czk_g1_affine ((0, 0) =
 * infinity, 96 B), g1_jac_t the host's czk_g1 (144 B), g1_xyzz_t a bucket
 * (192 B). */
#ifndef CZK_GPU_G1_CUH
#define CZK_GPU_G1_CUH

#include "xyzz.cuh"

typedef aff_t<fp_t> g1_aff_t;
typedef jac_t<fp_t> g1_jac_t;
typedef xyzz_t<fp_t> g1_xyzz_t;

#endif
