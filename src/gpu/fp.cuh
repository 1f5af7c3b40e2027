/* czk — Fp (BLS12-381 base field) on the device.
 *
 * An element is 12 little-endian 32-bit limbs: the same 48 bytes as the
 * host's czk_fp (6 little-endian 64-bit limbs, Montgomery form a·2^384 mod p),
 * so host buffers are copied as they are. Every function takes fully reduced
 * inputs (< p) and returns fully reduced outputs, so the values are exactly
 * the field elements the CPU computes.
 *
 * Carry chains as in fr.cuh: PTX add.cc/addc/mad.lo.cc/madc.hi.cc in separate
 * volatile asm statements of fully unrolled loops (sppark's ff/mont_t.cuh
 * technique); NVVM emits no carry-flag instructions of its own between them. */
#ifndef CZK_GPU_FP_CUH
#define CZK_GPU_FP_CUH

#include <stdint.h>

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
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d.l[0]) : "r"(a.l[0]), "r"(FP_P[0]));
#pragma unroll
    for (int i = 1; i < FP_N; i++) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d.l[i]) : "r"(a.l[i]), "r"(FP_P[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    fp_t r;
#pragma unroll
    for (int i = 0; i < FP_N; i++) r.l[i] = borrow ? a.l[i] : d.l[i];
    return r;
}

/* a + b mod p: 12 adds, 12 subs, 12 selects; a + b < 2p < 2^384: no carry out. */
static __device__ __forceinline__ fp_t fp_add(const fp_t &a, const fp_t &b) {
    fp_t s;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < FP_N - 1; i++) asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(s.l[FP_N - 1]) : "r"(a.l[FP_N - 1]), "r"(b.l[FP_N - 1]));
    return fp_reduce_once(s);
}

static __device__ __forceinline__ fp_t fp_dbl(const fp_t &a) { return fp_add(a, a); }

/* a - b mod p: 12 subs, and 12 adds of p when it borrows. */
static __device__ __forceinline__ fp_t fp_sub(const fp_t &a, const fp_t &b) {
    fp_t d;
    uint32_t borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < FP_N; i++) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    fp_t m;
#pragma unroll
    for (int i = 0; i < FP_N; i++) m.l[i] = FP_P[i] & borrow;
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(d.l[0]) : "r"(m.l[0]));
#pragma unroll
    for (int i = 1; i < FP_N - 1; i++) asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(d.l[i]) : "r"(m.l[i]));
    asm volatile("addc.u32 %0, %0, %1;" : "+r"(d.l[FP_N - 1]) : "r"(m.l[FP_N - 1]));
    return d;
}

/* -a mod p (0 stays 0). */
static __device__ __forceinline__ fp_t fp_neg(const fp_t &a) { return fp_sub(fp_zero(), a); }

/* ---- the Montgomery product ------------------------------------------------
 * One PTX instruction per primitive; CC is the carry flag, which only these
 * primitives read or write, so a chain is the sequence of primitives between
 * a flag-setting one and the last flag-reading one. FP_HOST_EMULATION (for a
 * host test of the chains) replaces them by C with an explicit flag. */
#ifndef FP_HOST_EMULATION
#define FP_PTX static __device__ __forceinline__
FP_PTX uint32_t ptx_mul_lo(uint32_t a, uint32_t b) {
    uint32_t d;
    asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}
FP_PTX uint32_t ptx_mul_hi(uint32_t a, uint32_t b) {
    uint32_t d;
    asm volatile("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}
/* d = lo/hi(a·b) + c [+ CC] [-> CC] */
FP_PTX void ptx_mad_lo_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
}
FP_PTX void ptx_madc_lo_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) {
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
}
FP_PTX void ptx_madc_hi_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) {
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
}
FP_PTX void ptx_madc_hi(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) {
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
}
/* d = a + b [+ CC] [-> CC], d = a - b [- CC] [-> CC] */
FP_PTX void ptx_add_cc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
FP_PTX void ptx_addc_cc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
FP_PTX void ptx_addc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
FP_PTX void ptx_sub_cc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
FP_PTX void ptx_subc_cc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
FP_PTX void ptx_subc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
#endif

/* The product keeps its running value t in two 12-limb arrays, t = E +
 * 2^32·O: the limb pair (lo, hi) of a_j·b_i lands on two adjacent limbs of
 * one array (E for even j, O for odd j), so each pair is one 64-bit
 * multiply-add in the chain (the technique of sppark's ff/mont_t.cuh:
 * half the multiply instructions of separate lo and hi chains). */

/* E += Σ_{j even} a_j·b·2^(32j) (6 pairs, one chain); the carry out of
 * E's top limb (weight 2^384) goes to O[11], whose weight it is. */
static __device__ __forceinline__ void fp_mad_even(uint32_t *E, uint32_t *O, const uint32_t *a, uint32_t b) {
    ptx_mad_lo_cc(E[0], a[0], b, E[0]);
    ptx_madc_hi_cc(E[1], a[0], b, E[1]);
#pragma unroll
    for (int j = 2; j < FP_N; j += 2) {
        ptx_madc_lo_cc(E[j], a[j], b, E[j]);
        ptx_madc_hi_cc(E[j + 1], a[j], b, E[j + 1]);
    }
    ptx_addc(O[FP_N - 1], O[FP_N - 1], 0);
}

/* O += Σ_{j odd} a_j·b·2^(32(j-1)) (6 pairs, one chain); no carry out
 * (see fp_mul). */
static __device__ __forceinline__ void fp_mad_odd(uint32_t *O, const uint32_t *a, uint32_t b) {
    ptx_mad_lo_cc(O[0], a[1], b, O[0]);
    ptx_madc_hi_cc(O[1], a[1], b, O[1]);
#pragma unroll
    for (int j = 3; j < FP_N - 1; j += 2) {
        ptx_madc_lo_cc(O[j - 1], a[j], b, O[j - 1]);
        ptx_madc_hi_cc(O[j], a[j], b, O[j]);
    }
    ptx_madc_lo_cc(O[FP_N - 2], a[FP_N - 1], b, O[FP_N - 2]);
    ptx_madc_hi(O[FP_N - 1], a[FP_N - 1], b, O[FP_N - 1]);
}

/* t += m·p with m = E[0]·(-p^-1): E[0] becomes 0. */
static __device__ __forceinline__ void fp_redc_row(uint32_t *E, uint32_t *O) {
    const uint32_t m = E[0] * FP_M0;
    fp_mad_odd(O, FP_P, m);
    fp_mad_even(E, O, FP_P, m);
}

/* The next row on t/2^32 (E[0] = 0): the new E is O, the new O is E/2^64,
 * and E[1] (weight 2^32, the new weight 1) is added to the new E[0] with its
 * carry entering the new O's chain, fused with O' += the odd pairs of a·b.
 * X holds O and becomes the new E; Y holds E and becomes the new O. */
static __device__ __forceinline__ void fp_shift_mad(uint32_t *X, uint32_t *Y, const uint32_t *a, uint32_t b) {
    ptx_add_cc(X[0], X[0], Y[1]);
#pragma unroll
    for (int j = 1; j < FP_N - 1; j += 2) {
        ptx_madc_lo_cc(Y[j - 1], a[j], b, Y[j + 1]);
        ptx_madc_hi_cc(Y[j], a[j], b, Y[j + 2]);
    }
    ptx_madc_lo_cc(Y[FP_N - 2], a[FP_N - 1], b, 0);
    ptx_madc_hi(Y[FP_N - 1], a[FP_N - 1], b, 0);
    fp_mad_even(X, Y, a, b);
}

/* a·b·2^-384 mod p for a, b < 2p (fp2.cuh passes unreduced sums), fully
 * reduced. CIOS over 32-bit limbs, one row per b_i: t = (t + a·b_i + m·p) /
 * 2^32. With t < 2^383 before a row, t + a·b_i + m·p < 2^383 + 2^414 +
 * 2^413 < 2^415, so after it O < 2^383 (2^32·O <= t), which is why O's
 * chains carry nothing out, and the new t < 2^383; at the end t < a·b/2^384
 * + p < 1.5p (a·b < 4p^2), reduced by one conditional subtraction. 288
 * 64-bit multiply-adds (576 mul/mad.lo/hi), 46 additions, 12 mul.lo, 12
 * subtractions and 12 selects: about 400 SASS instructions for sm_90, a
 * third of the former CIOS with separate lo and hi chains. A host test of
 * the chains (emulated PTX against GMP, operands < 2p and edge values) is
 * how this was checked before it ran on a GPU. */
static __device__ __forceinline__ fp_t fp_mul(const fp_t &a, const fp_t &b) {
    uint32_t e[FP_N], o[FP_N];
#pragma unroll
    for (int j = 0; j < FP_N; j += 2) {
        e[j] = ptx_mul_lo(a.l[j], b.l[0]);
        e[j + 1] = ptx_mul_hi(a.l[j], b.l[0]);
        o[j] = ptx_mul_lo(a.l[j + 1], b.l[0]);
        o[j + 1] = ptx_mul_hi(a.l[j + 1], b.l[0]);
    }
    fp_redc_row(e, o);
#pragma unroll
    for (int i = 1; i < FP_N; i++) {
        if (i & 1) {
            fp_shift_mad(o, e, a.l, b.l[i]);
            fp_redc_row(o, e);
        } else {
            fp_shift_mad(e, o, a.l, b.l[i]);
            fp_redc_row(e, o);
        }
    }
    /* after row 11 E is o (o[0] = 0), O is e: t = e + o/2^32 */
    fp_t r, d;
    ptx_add_cc(r.l[0], e[0], o[1]);
#pragma unroll
    for (int k = 1; k < FP_N - 1; k++) ptx_addc_cc(r.l[k], e[k], o[k + 1]);
    ptx_addc(r.l[FP_N - 1], e[FP_N - 1], 0);
    uint32_t borrow;
    ptx_sub_cc(d.l[0], r.l[0], FP_P[0]);
#pragma unroll
    for (int k = 1; k < FP_N; k++) ptx_subc_cc(d.l[k], r.l[k], FP_P[k]);
    ptx_subc(borrow, 0, 0);
#pragma unroll
    for (int k = 0; k < FP_N; k++) r.l[k] = borrow ? r.l[k] : d.l[k];
    return r;
}

static __device__ __forceinline__ fp_t fp_sqr(const fp_t &a) { return fp_mul(a, a); }

#endif
