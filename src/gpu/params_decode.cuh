/* czk — one params point decoded (params_decode.cu's kernels; the checks
 * and their order are the host decoder's, curve_encode.c): a point's
 * uncompressed bytes, loaded as little-endian 32-bit words, to affine
 * Montgomery coordinates, or the reason it is refused (params_decode.h).
 * Compiled for the host too, with the PTX emulated
 * (tests/gpu/test_params_decode_emulated.cpp). */
#ifndef CZK_GPU_PARAMS_DECODE_CUH
#define CZK_GPU_PARAMS_DECODE_CUH

#include "fp2.cuh"
#include "params_decode.h"

static __device__ __forceinline__ uint32_t bswap32(uint32_t v) {
#ifdef MONT_HOST_EMULATION
    return __builtin_bswap32(v);
#else
    return __byte_perm(v, 0, 0x0123);
#endif
}

/* 2^768 mod p, little-endian 32-bit limbs: x·R2 is x in Montgomery form
 * (the host's CZK_FP_R2, which test_params_decode_emulated checks through
 * the decoded points) */
static __device__ __constant__ const uint32_t FP_R2[FP_N] = {0x1c341746u, 0xf4df1f34u, 0x09d104f1u, 0x0a76e6a6u,
                                                             0x4c95b6d5u, 0x8de5476cu, 0x939d83c0u, 0x67eb88a9u,
                                                             0xb519952du, 0x9a793e85u, 0x92cae3aau, 0x11988fe5u};

/* The 48 big-endian bytes at w[0 … 12) (loaded as little-endian words) as
 * limbs; the flag bits of byte 0 masked off when mask. */
static __device__ __forceinline__ fp_t be_limbs(const uint32_t *w, bool mask) {
    fp_t r;
#pragma unroll
    for (int i = 0; i < FP_N; i++) r.l[i] = bswap32(w[FP_N - 1 - i]);
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

/* w: a G1 point's 96 bytes. 0 and (x, y) in Montgomery form, or the
 * reason (x, y untouched then). With curve, y^2 = x^3 + 4 is checked (4 M). */
static __device__ __forceinline__ int params_decode_g1(const uint32_t *w, fp_t &x, fp_t &y, int curve) {
    const int why = flags_reason(w, 24);
    if (why) return why;
    fp_t a = be_limbs(w, true), b = be_limbs(w + 12, false);
    if (!fp_canonical(a) || !fp_canonical(b)) return CZK_GPU_PARAMS_BAD_NOT_CANONICAL;
    a = fp_to_mont(a);
    b = fp_to_mont(b);
    if (curve && !fp_equal(fp_sqr(b), fp_add(fp_mul(fp_sqr(a), a), fp_four()))) return CZK_GPU_PARAMS_BAD_NOT_ON_CURVE;
    x = a;
    y = b;
    return 0;
}

/* w: a G2 point's 192 bytes (x.c1, x.c0, y.c1, y.c0). As params_decode_g1,
 * with y^2 = x^3 + 4(1 + u) (about 12 M). */
static __device__ __forceinline__ int params_decode_g2(const uint32_t *w, fp2_t &x, fp2_t &y, int curve) {
    const int why = flags_reason(w, 48);
    if (why) return why;
    fp2_t a, b;
    a.c1 = be_limbs(w, true);
    a.c0 = be_limbs(w + 12, false);
    b.c1 = be_limbs(w + 24, false);
    b.c0 = be_limbs(w + 36, false);
    if (!fp_canonical(a.c1) || !fp_canonical(a.c0) || !fp_canonical(b.c1) || !fp_canonical(b.c0))
        return CZK_GPU_PARAMS_BAD_NOT_CANONICAL;
    a.c0 = fp_to_mont(a.c0);
    a.c1 = fp_to_mont(a.c1);
    b.c0 = fp_to_mont(b.c0);
    b.c1 = fp_to_mont(b.c1);
    if (curve) {
        fp2_t four;
        four.c0 = four.c1 = fp_four();
        const fp2_t rhs = fp2_add(fp2_mul_call(fp2_sqr_call(a), a), four);
        const fp2_t lhs = fp2_sqr_call(b);
        if (!fp_equal(lhs.c0, rhs.c0) || !fp_equal(lhs.c1, rhs.c1)) return CZK_GPU_PARAMS_BAD_NOT_ON_CURVE;
    }
    x = a;
    y = b;
    return 0;
}

#endif
