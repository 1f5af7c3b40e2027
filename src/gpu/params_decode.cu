/* czk — the query points of a params file decoded on the device, in place
 * (params_load.c): a G1 point's 96 uncompressed bytes (x ‖ y, big-endian,
 * zcash flags in the top three bits of byte 0) become its czk_g1_affine (x,
 * y in Montgomery form, 96 bytes too), a G2 point's 192 bytes (x.c1 ‖ x.c0
 * ‖ y.c1 ‖ y.c0) its czk_g2_affine. One thread a point: it loads the whole
 * point into registers before it writes, so neighbours never overlap.
 *
 * The checks are the host decoder's (curve_encode.c) in its order, with
 * bellperson's rejection of a query point at infinity: the compression
 * flag, an infinity encoding (rejected, or malformed), the sort flag, each
 * coordinate < p, and, when asked, y^2 = x^3 + b (b = 4, or 4(1 + u) in
 * G2; about 4 M a G1 point and 12 M a G2 point). No subgroup check:
 * bellperson reads these queries unchecked from a trusted file. */
#include <cuda_runtime.h>

#include "fp2.cuh"
#include "params_load.h"

#define DECODE_THREADS 256

/* 2^768 mod p, little-endian 32-bit limbs: x·R2 is x in Montgomery form
 * (the host's CZK_FP_R2, which test_gpu_params_load checks through the
 * decoded points) */
static __device__ __constant__ const uint32_t FP_R2[FP_N] = {0x1c341746u, 0xf4df1f34u, 0x09d104f1u, 0x0a76e6a6u,
                                                             0x4c95b6d5u, 0x8de5476cu, 0x939d83c0u, 0x67eb88a9u,
                                                             0xb519952du, 0x9a793e85u, 0x92cae3aau, 0x11988fe5u};

/* The 48 big-endian bytes at w[0 … 12) (loaded as little-endian words) as
 * limbs; the flag bits of byte 0 masked off when mask. */
static __device__ __forceinline__ fp_t be_limbs(const uint32_t *w, bool mask) {
    fp_t r;
#pragma unroll
    for (int i = 0; i < FP_N; i++) r.l[i] = __byte_perm(w[FP_N - 1 - i], 0, 0x0123);
    if (mask) r.l[FP_N - 1] &= 0x1fffffffu;
    return r;
}

/* a < p, limb by limb from the top. */
static __device__ __forceinline__ bool fp_canonical(const fp_t &a) {
#pragma unroll
    for (int i = FP_N - 1; i >= 0; i--) {
        if (a.l[i] < FP_P[i]) return true;
        if (a.l[i] > FP_P[i]) return false;
    }
    return false;
}

static __device__ __forceinline__ fp_t fp_to_mont(const fp_t &a) {
    fp_t r2;
#pragma unroll
    for (int i = 0; i < FP_N; i++) r2.l[i] = FP_R2[i];
    return fp_mul(a, r2);
}

static __device__ __forceinline__ fp_t fp_four() { return fp_dbl(fp_dbl(fp_one())); }

/* The flag checks of a point whose bytes are w[0 … nw): 0 when it is a
 * finite point's encoding, else the reason. Byte 0 is w[0]'s low byte. */
static __device__ __forceinline__ int flags_reason(const uint32_t *w, int nw) {
    const uint32_t f = w[0] & 0xe0u;
    if (f & 0x80u) return CZK_GPU_PARAMS_BAD_COMPRESSION;
    if (f & 0x40u) {
        uint32_t any = w[0] & ~(uint32_t)0xe0u;
        for (int i = 1; i < nw; i++) any |= w[i];
        if (any) return CZK_GPU_PARAMS_BAD_INFINITY_NOT_ZERO;
        return (f & 0x20u) ? CZK_GPU_PARAMS_BAD_SORT : CZK_GPU_PARAMS_BAD_INFINITY;
    }
    if (f & 0x20u) return CZK_GPU_PARAMS_BAD_SORT;
    return 0;
}

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
    int why = flags_reason(w, 24);
    fp_t x = be_limbs(w, true), y = be_limbs(w + 12, false);
    if (!why && (!fp_canonical(x) || !fp_canonical(y))) why = CZK_GPU_PARAMS_BAD_NOT_CANONICAL;
    if (why) {
        report(bad, first + i, why);
        return;
    }
    x = fp_to_mont(x);
    y = fp_to_mont(y);
    if (curve && !fp_equal(fp_sqr(y), fp_add(fp_mul(fp_sqr(x), x), fp_four()))) {
        report(bad, first + i, CZK_GPU_PARAMS_BAD_NOT_ON_CURVE);
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
    int why = flags_reason(w, 48);
    fp2_t x, y;
    x.c1 = be_limbs(w, true);
    x.c0 = be_limbs(w + 12, false);
    y.c1 = be_limbs(w + 24, false);
    y.c0 = be_limbs(w + 36, false);
    if (!why && (!fp_canonical(x.c1) || !fp_canonical(x.c0) || !fp_canonical(y.c1) || !fp_canonical(y.c0)))
        why = CZK_GPU_PARAMS_BAD_NOT_CANONICAL;
    if (why) {
        report(bad, first + i, why);
        return;
    }
    x.c0 = fp_to_mont(x.c0);
    x.c1 = fp_to_mont(x.c1);
    y.c0 = fp_to_mont(y.c0);
    y.c1 = fp_to_mont(y.c1);
    if (curve) {
        fp2_t b;
        b.c0 = b.c1 = fp_four();
        const fp2_t rhs = fp2_add(fp2_mul_call(fp2_sqr_call(x), x), b);
        const fp2_t lhs = fp2_sqr_call(y);
        if (!fp_equal(lhs.c0, rhs.c0) || !fp_equal(lhs.c1, rhs.c1)) {
            report(bad, first + i, CZK_GPU_PARAMS_BAD_NOT_ON_CURVE);
            return;
        }
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
