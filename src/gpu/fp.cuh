/* czk — Fp (BLS12-381 base field) on the device.
 *
 * An element is 12 little-endian 32-bit limbs: the same 48 bytes as the
 * host's czk_fp (6 little-endian 64-bit limbs, Montgomery form a·2^384 mod p),
 * so host buffers are copied as they are. Every function takes fully reduced
 * inputs (< p) and returns fully reduced outputs, so the values are exactly
 * the field elements the CPU computes.
 *
 * Carry chains through mont.cuh's PTX primitives (add.cc, addc, madc…, each
 * a separate volatile asm statement in fully unrolled loops, sppark's
 * ff/mont_t.cuh technique; NVVM emits no carry-flag instructions of its own
 * between them), so that a host test can emulate them
 * (tests/gpu/test_xyzz_emulated.cpp). The product is mont.cuh's, shared
 * with Fr. */
#ifndef CZK_GPU_FP_CUH
#define CZK_GPU_FP_CUH

#include <stdint.h>

#include "mont.cuh"

#define FP_N 12

struct __align__(16) fp_t {
    uint32_t l[FP_N];
};

/* p, little-endian 32-bit limbs */
static __device__ __constant__ const uint32_t FP_P[FP_N] = {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu,
                                                            0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu, 0x64774b84u,
                                                            0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau};
/* 2^384 mod p: one in Montgomery form (the host's CZK_FP_ONE; every mixed
 * addition into an empty bucket uses it, so the MSM tests check it) */
static __device__ __constant__ const uint32_t FP_ONE[FP_N] = {0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu,
                                                              0x53c758bau, 0x5f489857u, 0x70525745u, 0x77ce5853u,
                                                              0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u};
/* -p^-1 mod 2^32 (the low half of 0x89f3fffcfffcfffd) */
#define FP_M0 0xfffcfffdu

static __device__ __forceinline__ fp_t fp_ldg(const fp_t *p) {
    const uint4 *q = (const uint4 *)p;
    fp_t r;
#pragma unroll
    for (int k = 0; k < 3; k++) {
        uint4 a = __ldg(q + k);
        r.l[4 * k] = a.x, r.l[4 * k + 1] = a.y, r.l[4 * k + 2] = a.z, r.l[4 * k + 3] = a.w;
    }
    return r;
}

static __device__ __forceinline__ fp_t fp_load(const fp_t *p) {
    const uint4 *q = (const uint4 *)p;
    fp_t r;
#pragma unroll
    for (int k = 0; k < 3; k++) {
        uint4 a = q[k];
        r.l[4 * k] = a.x, r.l[4 * k + 1] = a.y, r.l[4 * k + 2] = a.z, r.l[4 * k + 3] = a.w;
    }
    return r;
}

static __device__ __forceinline__ void fp_store(fp_t *p, const fp_t &a) {
    uint4 *q = (uint4 *)p;
#pragma unroll
    for (int k = 0; k < 3; k++) q[k] = make_uint4(a.l[4 * k], a.l[4 * k + 1], a.l[4 * k + 2], a.l[4 * k + 3]);
}

static __device__ __forceinline__ fp_t fp_zero() {
    fp_t r;
#pragma unroll
    for (int i = 0; i < FP_N; i++) r.l[i] = 0;
    return r;
}

static __device__ __forceinline__ fp_t fp_one() {
    fp_t r;
#pragma unroll
    for (int i = 0; i < FP_N; i++) r.l[i] = FP_ONE[i];
    return r;
}

static __device__ __forceinline__ bool fp_is_zero(const fp_t &a) {
    uint32_t o = 0;
#pragma unroll
    for (int i = 0; i < FP_N; i++) o |= a.l[i];
    return o == 0;
}

/* a - p if that does not borrow, else a (a < 2p < 2^384). */
static __device__ __forceinline__ fp_t fp_reduce_once(const fp_t &a) {
    fp_t d;
    uint32_t borrow;
    ptx_sub_cc(d.l[0], a.l[0], FP_P[0]);
#pragma unroll
    for (int i = 1; i < FP_N; i++) ptx_subc_cc(d.l[i], a.l[i], FP_P[i]);
    ptx_subc(borrow, 0, 0);
    fp_t r;
#pragma unroll
    for (int i = 0; i < FP_N; i++) r.l[i] = borrow ? a.l[i] : d.l[i];
    return r;
}

/* a + b mod p: 12 adds, 12 subs, 12 selects; a + b < 2p < 2^384: no carry out. */
static __device__ __forceinline__ fp_t fp_add(const fp_t &a, const fp_t &b) {
    fp_t s;
    ptx_add_cc(s.l[0], a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < FP_N - 1; i++) ptx_addc_cc(s.l[i], a.l[i], b.l[i]);
    ptx_addc(s.l[FP_N - 1], a.l[FP_N - 1], b.l[FP_N - 1]);
    return fp_reduce_once(s);
}

static __device__ __forceinline__ fp_t fp_dbl(const fp_t &a) { return fp_add(a, a); }

/* a - b mod p: 12 subs, and 12 adds of p when it borrows. */
static __device__ __forceinline__ fp_t fp_sub(const fp_t &a, const fp_t &b) {
    fp_t d;
    uint32_t borrow;
    ptx_sub_cc(d.l[0], a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < FP_N; i++) ptx_subc_cc(d.l[i], a.l[i], b.l[i]);
    ptx_subc(borrow, 0, 0);
    fp_t m;
#pragma unroll
    for (int i = 0; i < FP_N; i++) m.l[i] = FP_P[i] & borrow;
    ptx_add_cc(d.l[0], d.l[0], m.l[0]);
#pragma unroll
    for (int i = 1; i < FP_N - 1; i++) ptx_addc_cc(d.l[i], d.l[i], m.l[i]);
    ptx_addc(d.l[FP_N - 1], d.l[FP_N - 1], m.l[FP_N - 1]);
    return d;
}

/* -a mod p (0 stays 0). */
static __device__ __forceinline__ fp_t fp_neg(const fp_t &a) { return fp_sub(fp_zero(), a); }

/* a·b·2^-384 mod p for a, b < 2p (fp2.cuh passes unreduced sums), fully
 * reduced: mont_mul of mont.cuh with 12 limbs (288 64-bit multiply-adds,
 * about 400 SASS instructions for sm_90). */
struct fp_modulus {
    static __device__ __forceinline__ uint32_t p(int i) { return FP_P[i]; }
    static const uint32_t m0 = FP_M0;
    static const bool low64 = false;
};

static __device__ __forceinline__ fp_t fp_mul(const fp_t &a, const fp_t &b) {
    fp_t r;
    mont_mul<FP_N, fp_modulus>(r.l, a.l, b.l);
    return r;
}

static __device__ __forceinline__ fp_t fp_sqr(const fp_t &a) {
    fp_t r;
    mont_sqr<FP_N, fp_modulus>(r.l, a.l);
    return r;
}

static __device__ __forceinline__ bool fp_equal(const fp_t &a, const fp_t &b) {
    uint32_t o = 0;
#pragma unroll
    for (int i = 0; i < FP_N; i++) o |= a.l[i] ^ b.l[i];
    return o == 0;
}

#endif
