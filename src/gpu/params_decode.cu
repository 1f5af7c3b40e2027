/* czk — the query points of a params file decoded on the device, in place
 * (params_load.c): a G1 point's 96 uncompressed bytes (x ‖ y, big-endian,
 * zcash flags in the top three bits of byte 0) become its czk_g1_affine (x,
 * y in Montgomery form, 96 bytes too), a G2 point's 192 bytes (x.c1 ‖ x.c0
 * ‖ y.c1 ‖ y.c0) its czk_g2_affine. One thread a point (the decoding
 * itself in params_decode.cuh): it loads the whole
 * point into registers before it writes, so neighbours never overlap.
 *
 * The checks are the host decoder's (curve_encode.c) in its order, with
 * bellperson's rejection of a query point at infinity: the compression
 * flag, an infinity encoding (rejected, or malformed), the sort flag, each
 * coordinate < p, and, when asked, y^2 = x^3 + b (b = 4, or 4(1 + u) in
 * G2; about 4 M a G1 point and 12 M a G2 point). No subgroup check:
 * bellperson reads these queries unchecked from a trusted file. */
#include <cuda_runtime.h>

#include "params_decode.cuh"
#include "params_load.h"

#define DECODE_THREADS 256

static __device__ __forceinline__ void report(unsigned long long *bad, size_t index, int why) {
    atomicMin(bad, (unsigned long long)index << 8 | (unsigned)why);
}

__global__ void __launch_bounds__(DECODE_THREADS) decode_g1(uint4 *pts, size_t n, size_t first, int curve,
                                                            unsigned long long *bad) {
    const size_t i = (size_t)blockIdx.x * DECODE_THREADS + threadIdx.x;
    if (i >= n) return;
    uint32_t w[24];
#pragma unroll
    for (int k = 0; k < 6; k++) {
        const uint4 v = pts[6 * i + k];
        w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
    }
    fp_t x, y;
    const int why = params_decode_g1(w, x, y, curve);
    if (why) {
        report(bad, first + i, why);
        return;
    }
    fp_t *out = (fp_t *)(pts + 6 * i);
    fp_store(out, x);
    fp_store(out + 1, y);
}

__global__ void __launch_bounds__(DECODE_THREADS) decode_g2(uint4 *pts, size_t n, size_t first, int curve,
                                                            unsigned long long *bad) {
    const size_t i = (size_t)blockIdx.x * DECODE_THREADS + threadIdx.x;
    if (i >= n) return;
    uint32_t w[48];
#pragma unroll
    for (int k = 0; k < 12; k++) {
        const uint4 v = pts[12 * i + k];
        w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
    }
    fp2_t x, y;
    const int why = params_decode_g2(w, x, y, curve);
    if (why) {
        report(bad, first + i, why);
        return;
    }
    fp2_t *out = (fp2_t *)(pts + 12 * i);
    fp2_store(out, x);
    fp2_store(out + 1, y);
}

extern "C" cudaError_t czk_gpu_launch_params_decode(void *pts, size_t n, int g2, size_t first, int curve,
                                                    unsigned long long *bad, cudaStream_t s) {
    if (n == 0) return cudaSuccess;
    if (!pts || !bad || ((uintptr_t)pts & 15)) return cudaErrorInvalidValue;
    const size_t blocks = (n + DECODE_THREADS - 1) / DECODE_THREADS;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidValue;
    if (g2) decode_g2<<<(unsigned)blocks, DECODE_THREADS, 0, s>>>((uint4 *)pts, n, first, curve, bad);
    else decode_g1<<<(unsigned)blocks, DECODE_THREADS, 0, s>>>((uint4 *)pts, n, first, curve, bad);
    return cudaGetLastError();
}
