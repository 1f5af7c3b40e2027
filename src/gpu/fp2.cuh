/* czk — Fp2 = Fp[u]/(u^2 + 1) on the device, for G2's coordinates.
 *
 * An element is (c0, c1), c0 + c1·u, each an fp_t: the same 96 bytes as the
 * host's czk_fp2. Inputs and outputs fully reduced, as in fp.cuh, so the
 * values are exactly the field elements the CPU computes. Costs in Fp
 * multiplications (M); additions are carry chains of 12 limbs. */
#ifndef CZK_GPU_FP2_CUH
#define CZK_GPU_FP2_CUH

#include "fp.cuh"

struct __align__(16) fp2_t {
    fp_t c0, c1;
};

/* a + b without the final reduction: a, b < p give a sum < 2p < 2^382,
 * which fp_mul accepts (its CIOS bound holds for inputs < 2p since 4p < 2^384,
 * and it still returns a value < p). */
static __device__ __forceinline__ fp_t fp_add_unreduced(const fp_t &a, const fp_t &b) {
    fp_t s;
    ptx_add_cc(s.l[0], a.l[0], b.l[0]);
#pragma unroll
    for (int i = 1; i < FP_N - 1; i++) ptx_addc_cc(s.l[i], a.l[i], b.l[i]);
    ptx_addc(s.l[FP_N - 1], a.l[FP_N - 1], b.l[FP_N - 1]);
    return s;
}

static __device__ __forceinline__ fp2_t fp2_ldg(const fp2_t *p) {
    fp2_t r;
    r.c0 = fp_ldg(&p->c0);
    r.c1 = fp_ldg(&p->c1);
    return r;
}

static __device__ __forceinline__ fp2_t fp2_load(const fp2_t *p) {
    fp2_t r;
    r.c0 = fp_load(&p->c0);
    r.c1 = fp_load(&p->c1);
    return r;
}

static __device__ __forceinline__ void fp2_store(fp2_t *p, const fp2_t &a) {
    fp_store(&p->c0, a.c0);
    fp_store(&p->c1, a.c1);
}

static __device__ __forceinline__ fp2_t fp2_zero() {
    fp2_t r;
    r.c0 = fp_zero();
    r.c1 = fp_zero();
    return r;
}

static __device__ __forceinline__ fp2_t fp2_one() {
    fp2_t r;
    r.c0 = fp_one();
    r.c1 = fp_zero();
    return r;
}

static __device__ __forceinline__ bool fp2_is_zero(const fp2_t &a) {
    uint32_t o = 0;
#pragma unroll
    for (int i = 0; i < FP_N; i++) o |= a.c0.l[i] | a.c1.l[i];
    return o == 0;
}

static __device__ __forceinline__ fp2_t fp2_add(const fp2_t &a, const fp2_t &b) {
    fp2_t r;
    r.c0 = fp_add(a.c0, b.c0);
    r.c1 = fp_add(a.c1, b.c1);
    return r;
}

static __device__ __forceinline__ fp2_t fp2_dbl(const fp2_t &a) { return fp2_add(a, a); }

static __device__ __forceinline__ fp2_t fp2_sub(const fp2_t &a, const fp2_t &b) {
    fp2_t r;
    r.c0 = fp_sub(a.c0, b.c0);
    r.c1 = fp_sub(a.c1, b.c1);
    return r;
}

static __device__ __forceinline__ fp2_t fp2_neg(const fp2_t &a) {
    fp2_t r;
    r.c0 = fp_neg(a.c0);
    r.c1 = fp_neg(a.c1);
    return r;
}

/* c0 - c1·u = a^p */
static __device__ __forceinline__ fp2_t fp2_conjugate(const fp2_t &a) {
    fp2_t r;
    r.c0 = a.c0;
    r.c1 = fp_neg(a.c1);
    return r;
}

/* Karatsuba with u^2 = -1: (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1)·u.
 * 3M; the sums enter the multiplication unreduced. */
static __device__ __forceinline__ fp2_t fp2_mul(const fp2_t &a, const fp2_t &b) {
    const fp_t t0 = fp_mul(a.c0, b.c0);
    const fp_t t1 = fp_mul(a.c1, b.c1);
    const fp_t t2 = fp_mul(fp_add_unreduced(a.c0, a.c1), fp_add_unreduced(b.c0, b.c1));
    fp2_t r;
    r.c0 = fp_sub(t0, t1);
    r.c1 = fp_sub(fp_sub(t2, t0), t1);
    return r;
}

/* (a0 + a1)(a0 - a1) + 2 a0 a1·u: 2M. */
static __device__ __forceinline__ fp2_t fp2_sqr(const fp2_t &a) {
    fp2_t r;
    const fp_t t = fp_mul(a.c0, a.c1);
    r.c0 = fp_mul(fp_add_unreduced(a.c0, a.c1), fp_sub(a.c0, a.c1));
    r.c1 = fp_dbl(t);
    return r;
}

/* fp2_t with out-of-line multiplications: one copy of the Fp2 product per
 * kernel instead of one per use. The cold G2 kernels (bucket fix-up and
 * reductions, whose XYZZ + XYZZ additions would otherwise spill heavily and
 * take minutes to compile) use it; the hot bucket kernel keeps fp2_t. Same
 * layout as fp2_t. */
struct __align__(16) fp2c_t : fp2_t {};

static __device__ __forceinline__ fp2c_t fp2c(const fp2_t &a) {
    fp2c_t r;
    r.c0 = a.c0;
    r.c1 = a.c1;
    return r;
}
static __device__ __noinline__ fp2_t fp2_mul_call(const fp2_t a, const fp2_t b) { return fp2_mul(a, b); }
static __device__ __noinline__ fp2_t fp2_sqr_call(const fp2_t a) { return fp2_sqr(a); }

#endif
