/* czk — private interface between the GPU host code (gpu.c, C) and the
 * kernels (ntt.cu): launch functions with C linkage. Every launcher enqueues
 * on `s` and returns the launch's cudaError_t (cudaSuccess or the error of
 * cudaGetLastError). Device buffers of Fr are arrays of 32-byte elements in
 * the host's byte layout (czk_fr). */
#ifndef CZK_GPU_INTERNAL_H
#define CZK_GPU_INTERNAL_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* tw[e] = hi[e >> s_log]·lo[e & (2^s_log - 1)] for e < count. */
cudaError_t czk_gpu_launch_table(void *tw, const void *hi, const void *lo, unsigned s_log, size_t count,
                                 cudaStream_t s);

/* One radix-2^k pass of an in-place decimation-in-frequency transform of
 * 2^log_n points (natural in, bit-reversed out after every pass down to
 * b = 0): stages with half-sizes 2^(b+k-1) … 2^b. tw holds ω_N^e for
 * e < N/2, N = 2^tw_log >= 2^log_n; inverse uses ω^-1. c_log columns per
 * block (c_log <= b, k + c_log <= 10). */
cudaError_t czk_gpu_launch_dif_pass(void *x, unsigned log_n, unsigned b, unsigned k, unsigned c_log, const void *tw,
                                    unsigned tw_log, int inverse, cudaStream_t s);

/* The bit-reversal permutation on log_n bits, in place, with a factor at
 * each output position i: mode 0 none, 1 the scalar *scalar (a host
 * pointer, passed by value), 2 hi[i >> s_log]·lo[i & (2^s_log - 1)]. */
cudaError_t czk_gpu_launch_bitrev(void *x, unsigned log_n, int mode, const void *scalar, const void *hi,
                                  const void *lo, unsigned s_log, cudaStream_t s);

/* x[i] *= hi[i >> s_log]·lo[i & (2^s_log - 1)], i < n. */
cudaError_t czk_gpu_launch_scale(void *x, size_t n, const void *hi, const void *lo, unsigned s_log, cudaStream_t s);

/* a[i] = a[i]·b[i] - c[i], i < n. */
cudaError_t czk_gpu_launch_abc(void *a, const void *b, const void *c, size_t n, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
