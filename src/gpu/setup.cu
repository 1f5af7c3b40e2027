/* czk — parameter generation's kernels (setup_kernels.h): one thread per
 * fixed-base product, then one thread per group of CZK_GPU_SETUP_GROUP
 * points for the conversion to affine bytes (setup.cuh has the math). */
#include <cuda_runtime.h>

#include "setup.cuh"
#include "setup_kernels.h"

#define SETUP_THREADS 128

template <class F>
__global__ void __launch_bounds__(SETUP_THREADS) setup_mul_kernel(const aff_t<F> *table, const fr_t *scalars,
                                                                  size_t n, xyzz_t<F> *pts) {
    const size_t i = (size_t)blockIdx.x * SETUP_THREADS + threadIdx.x;
    if (i >= n) return;
    const fr_t k = setup_fr_canonical(fr_ldg(scalars + i));
    xyzz_t<F> acc;
    setup_mul(acc, table, k);
    xyzz_store(pts + i, acc);
}

template <class F>
__global__ void __launch_bounds__(SETUP_THREADS) setup_affine_kernel(const xyzz_t<F> *pts, size_t n, F *pre,
                                                                     uint32_t *out) {
    const size_t g = (size_t)blockIdx.x * SETUP_THREADS + threadIdx.x;
    const size_t first = g * CZK_GPU_SETUP_GROUP;
    if (first >= n) return;
    const size_t count = n - first < CZK_GPU_SETUP_GROUP ? n - first : CZK_GPU_SETUP_GROUP;
    setup_affine_group(out, pts, pre, first, count);
}

extern "C" size_t czk_gpu_setup_xyzz_bytes(int grp) { return grp ? sizeof(xyzz_t<fp2_t>) : sizeof(xyzz_t<fp_t>); }
extern "C" size_t czk_gpu_setup_fe_bytes(int grp) { return grp ? sizeof(fp2_t) : sizeof(fp_t); }

static unsigned blocks(size_t threads) { return (unsigned)((threads + SETUP_THREADS - 1) / SETUP_THREADS); }

extern "C" cudaError_t czk_gpu_launch_setup_mul(int grp, const void *table, const void *scalars, size_t n, void *pts,
                                                cudaStream_t s) {
    if (n == 0) return cudaSuccess;
    if (n > ((size_t)1 << 36)) return cudaErrorInvalidValue;
    if (grp)
        setup_mul_kernel<fp2_t><<<blocks(n), SETUP_THREADS, 0, s>>>((const aff_t<fp2_t> *)table, (const fr_t *)scalars,
                                                                    n, (xyzz_t<fp2_t> *)pts);
    else
        setup_mul_kernel<fp_t><<<blocks(n), SETUP_THREADS, 0, s>>>((const aff_t<fp_t> *)table, (const fr_t *)scalars, n,
                                                                   (xyzz_t<fp_t> *)pts);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_setup_affine(int grp, const void *pts, size_t n, void *pre, void *out,
                                                   cudaStream_t s) {
    if (n == 0) return cudaSuccess;
    const size_t groups = (n + CZK_GPU_SETUP_GROUP - 1) / CZK_GPU_SETUP_GROUP;
    if (grp)
        setup_affine_kernel<fp2_t><<<blocks(groups), SETUP_THREADS, 0, s>>>((const xyzz_t<fp2_t> *)pts, n,
                                                                            (fp2_t *)pre, (uint32_t *)out);
    else
        setup_affine_kernel<fp_t><<<blocks(groups), SETUP_THREADS, 0, s>>>((const xyzz_t<fp_t> *)pts, n, (fp_t *)pre,
                                                                           (uint32_t *)out);
    return cudaGetLastError();
}
