/* czk — the G2 instances of the MSM point kernels (msm_kernels.cuh): the
 * bucket kernel (chunks) and the ones' sums over fp2_t, inlined, at most 255
 * registers; the fix-up and reductions (the window sums too) over fp2c_t
 * (out-of-line Fp2 products: their XYZZ + XYZZ additions hold two points of
 * 8 Fp2, and inlined they spill kilobytes and take minutes to compile). */
#include "msm_kernels.cuh"

/* 2 blocks of 128 per SM, at most 255 registers (about 260 bytes spilled). On an
 * H200 at 2^22 scalars, 3 blocks (168 registers, 2.2 KB spilled) and 4
 * blocks (128 registers, 4 KB spilled) made this kernel 1.46 and 1.38 times
 * slower. */
cudaError_t czk_gpu_msm_g2_chunks(const uint32_t *keys, const uint32_t *vals, size_t m, unsigned L, uint32_t nb,
                                  const void *bases, void *buckets, void *partial, cudaStream_t s) {
    return launch_chunks<fp2_t, 2, false>(keys, vals, m, L, nb, bases, NULL, buckets, partial, s);
}

cudaError_t czk_gpu_msm_g2_fix(const uint32_t *keys, size_t m, unsigned L, uint32_t nb, void *range,
                               void *buckets, const void *partial, cudaStream_t s) {
    return launch_fix<fp2c_t>(keys, m, L, nb, range, buckets, partial, s);
}

cudaError_t czk_gpu_msm_g2_window_sums(const void *buckets, unsigned W, uint32_t nb, unsigned glog, void *parts,
                                       void *parts2, void *out, cudaStream_t s) {
    return launch_window_sums<fp2c_t, fp2c_t>(buckets, W, nb, glog, parts, parts2, out, s);
}

/* the ones' sum: as chunks, 2 blocks per SM */
size_t czk_gpu_msm_g2_ones_threads(size_t m) { return ones_threads<2>(m); }

cudaError_t czk_gpu_msm_g2_ones(const void *bases, const uint32_t *idx, size_t m, void *out, cudaStream_t s) {
    return launch_ones<fp2_t, 2>(bases, idx, m, out, s);
}

cudaError_t czk_gpu_msm_g2_xyzz_reduce(const void *in, size_t count, unsigned L, void *out, cudaStream_t s) {
    return launch_xyzz_reduce<fp2c_t>(in, count, L, out, s);
}

cudaError_t czk_gpu_msm_g2_to_jac(const void *in, void *out, cudaStream_t s) {
    return launch_to_jac<fp2c_t>(in, out, s);
}
