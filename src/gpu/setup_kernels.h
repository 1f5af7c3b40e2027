/* czk — the parameter-generation kernels (setup.cu) for the host sequence
 * (setup_gpu.c): C linkage, each launcher enqueues on s and returns the
 * launch's cudaError_t. grp: 0 G1 (Fp coordinates), 1 G2 (Fp2). */
#ifndef CZK_GPU_SETUP_KERNELS_H
#define CZK_GPU_SETUP_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Points a thread of the affine kernel converts with one inversion. */
#define CZK_GPU_SETUP_GROUP 32

/* Bytes of one XYZZ point (192 / 384) and of one coordinate (48 / 96). */
size_t czk_gpu_setup_xyzz_bytes(int grp);
size_t czk_gpu_setup_fe_bytes(int grp);

/* pts[i] (XYZZ) = k_i·P, i < n, from the window table of P (setup.cuh:
 * 32 × 256 affine points) and scalars k_i (Montgomery czk_fr, < r). */
cudaError_t czk_gpu_launch_setup_mul(int grp, const void *table, const void *scalars, size_t n, void *pts,
                                     cudaStream_t s);
/* out (2·fe bytes a point) = the uncompressed encodings of pts[0 … n),
 * with pre (n coordinates) as scratch; one thread per
 * CZK_GPU_SETUP_GROUP points. */
cudaError_t czk_gpu_launch_setup_affine(int grp, const void *pts, size_t n, void *pre, void *out, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
