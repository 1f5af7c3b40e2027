/* czk — a, b, c = A·w, B·w, C·w on the device from the compact R1CS
 * (czk/r1cs_compact.h; the host side in r1cs_dev.c). One thread per row
 * for the rows of at most CZK_GPU_SPMV_SHORT_MAX terms (nearly all rows of
 * a SHA-256 circuit have 1 to 3), one warp per longer row (bit packings
 * have hundreds of terms: a thread per such row would hold its warp for
 * all of them). A term with dictionary index 0 adds w[col], index 1
 * subtracts it, any other adds dict[idx]·w[col]: the host's row_dot
 * (src/r1cs/compact_eval.c) term by term in the same order for the short
 * rows, so the values are the same field elements (addition is exact, the
 * order does not matter for the result). */
#include <cuda_runtime.h>

#include "fr.cuh"
#include "gpu_internal.h"

#define SPMV_THREADS 256

static __device__ __forceinline__ fr_t fr_zero() {
    fr_t z;
#pragma unroll
    for (int i = 0; i < 8; i++) z.l[i] = 0;
    return z;
}

/* acc + dict[k]·w[col] (k = 0: + w, k = 1: - w); w is input below n_in, else aux */
static __device__ __forceinline__ fr_t term(const fr_t &acc, uint32_t col, uint16_t k, const fr_t *dict,
                                            const fr_t *in, size_t n_in, const fr_t *aux) {
    const fr_t x = col < n_in ? fr_ldg(in + col) : fr_ldg(aux + (col - n_in));
    if (k == 0) return fr_add(acc, x);
    if (k == 1) return fr_sub(acc, x);
    return fr_add(acc, fr_mul(x, fr_ldg(dict + k)));
}

/* out[i] for i < n_out: row i's dot product (i < n_rows; rows longer than
 * CZK_GPU_SPMV_SHORT_MAX are left to spmv_long), bellperson's input row
 * (n_rows <= i < n_abc: input[i - n_rows] when input_rows, else 0), zero
 * beyond n_abc. */
__global__ void __launch_bounds__(SPMV_THREADS)
    spmv_short(const uint32_t *__restrict__ row_ptr, const uint32_t *__restrict__ col,
               const uint16_t *__restrict__ coeff, const fr_t *__restrict__ dict, const fr_t *__restrict__ in,
               size_t n_in, const fr_t *__restrict__ aux, size_t n_rows, size_t n_abc, size_t n_out,
               int input_rows, fr_t *__restrict__ out) {
    const size_t i = (size_t)blockIdx.x * SPMV_THREADS + threadIdx.x;
    if (i >= n_out) return;
    fr_t acc = fr_zero();
    if (i < n_rows) {
        const uint32_t b = __ldg(row_ptr + i), e = __ldg(row_ptr + i + 1);
        if (e - b > CZK_GPU_SPMV_SHORT_MAX) return;
        for (uint32_t j = b; j < e; j++) acc = term(acc, __ldg(col + j), __ldg(coeff + j), dict, in, n_in, aux);
    } else if (i < n_abc && input_rows) {
        acc = fr_ldg(in + (i - n_rows));
    }
    fr_store(out + i, acc);
}

/* out[rows[r]] for r < n_long: a warp per row, lane l takes the terms
 * l, l + 32, …; the lanes' sums are added by a shuffle tree. */
__global__ void __launch_bounds__(SPMV_THREADS)
    spmv_long(const uint32_t *__restrict__ rows, size_t n_long, const uint32_t *__restrict__ row_ptr,
              const uint32_t *__restrict__ col, const uint16_t *__restrict__ coeff, const fr_t *__restrict__ dict,
              const fr_t *__restrict__ in, size_t n_in, const fr_t *__restrict__ aux, fr_t *__restrict__ out) {
    const size_t r = ((size_t)blockIdx.x * SPMV_THREADS + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x & 31;
    if (r >= n_long) return; /* whole warps: n_long is the same for every lane of one */
    const uint32_t row = __ldg(rows + r);
    const uint32_t b = __ldg(row_ptr + row), e = __ldg(row_ptr + row + 1);
    fr_t acc = fr_zero();
    for (uint32_t j = b + lane; j < e; j += 32) acc = term(acc, __ldg(col + j), __ldg(coeff + j), dict, in, n_in, aux);
#pragma unroll
    for (unsigned o = 16; o; o >>= 1) {
        fr_t y;
#pragma unroll
        for (int k = 0; k < 8; k++) y.l[k] = __shfl_down_sync(0xffffffffu, acc.l[k], o);
        if (lane < o) acc = fr_add(acc, y);
    }
    if (lane == 0) fr_store(out + row, acc);
}

extern "C" cudaError_t czk_gpu_launch_spmv(const uint32_t *row_ptr, const uint32_t *col, const uint16_t *coeff,
                                           const void *dict, const void *in, size_t n_in, const void *aux,
                                           size_t n_rows, size_t n_abc, size_t n_out, int input_rows, void *out,
                                           cudaStream_t s) {
    if (n_out == 0) return cudaSuccess;
    const size_t blocks = (n_out + SPMV_THREADS - 1) / SPMV_THREADS;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidValue;
    spmv_short<<<(unsigned)blocks, SPMV_THREADS, 0, s>>>(row_ptr, col, coeff, (const fr_t *)dict, (const fr_t *)in,
                                                          n_in, (const fr_t *)aux, n_rows, n_abc, n_out, input_rows,
                                                          (fr_t *)out);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_spmv_long(const uint32_t *rows, size_t n_long, const uint32_t *row_ptr,
                                                const uint32_t *col, const uint16_t *coeff, const void *dict,
                                                const void *in, size_t n_in, const void *aux, void *out,
                                                cudaStream_t s) {
    if (n_long == 0) return cudaSuccess;
    const size_t per_block = SPMV_THREADS / 32, blocks = (n_long + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidValue;
    spmv_long<<<(unsigned)blocks, SPMV_THREADS, 0, s>>>(rows, n_long, row_ptr, col, coeff, (const fr_t *)dict,
                                                         (const fr_t *)in, n_in, (const fr_t *)aux, (fr_t *)out);
    return cudaGetLastError();
}
