/* czk — the Montgomery product on the device, for Fp (12 limbs, fp.cuh) and
 * Fr (8 limbs, fr.cuh): CIOS over 32-bit limbs with the running value kept
 * as two arrays of 64-bit multiply-add results (the technique of sppark's
 * ff/mont_t.cuh), written with one PTX instruction per primitive.
 *
 * CC is the carry flag, which only these primitives read or write, so a
 * chain is the sequence of primitives between a flag-setting one and the
 * last flag-reading one. Each primitive is a separate volatile asm statement
 * in fully unrolled loops: NVVM emits no carry-flag instructions of its own
 * between them and reorders none. MONT_HOST_EMULATION (the host test
 * tests/gpu/test_mont_emulated.cpp) replaces the primitives by C++ with an
 * explicit flag and the CUDA qualifiers by plain inline functions. */
#ifndef CZK_GPU_MONT_CUH
#define CZK_GPU_MONT_CUH

#include <stdint.h>

#ifdef MONT_HOST_EMULATION
#define MONT_FN static inline
/* the test defines ptx_mul_lo … ptx_subc with these names and semantics */
MONT_FN uint32_t mont_opaque_neg1(void) { return 0xffffffffu; }
#else
#define MONT_FN static __device__ __forceinline__
/* 2^32 - 1, read from constant memory so that neither compiler knows its
 * value. M::low64's reduction multiplier is m = -E0; written as 0 - E0 (or
 * E0·(2^32 - 1) with the constant visible), ptxas splits every 64-bit
 * multiply-add m·p_j + (lo, hi) of the row into IMAD.X and IMAD.HI.U32.X
 * (48 of Fr's 112 pairs, 160 IMAD-pipe instructions a product instead of
 * 112); as E0 times an unknown register it emits one IMAD.WIDE.U32.X each.
 * One constant-cache load a product. */
static __device__ __constant__ uint32_t MONT_NEG1 = 0xffffffffu;
MONT_FN uint32_t mont_opaque_neg1(void) {
    uint32_t r;
    asm volatile("ld.const.u32 %0, [MONT_NEG1];" : "=r"(r));
    return r;
}
MONT_FN uint32_t ptx_mul_lo(uint32_t a, uint32_t b) {
    uint32_t d;
    asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}
MONT_FN uint32_t ptx_mul_hi(uint32_t a, uint32_t b) {
    uint32_t d;
    asm volatile("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}
/* d = lo/hi(a·b) + c [+ CC] [-> CC] */
MONT_FN void ptx_mad_lo_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
}
MONT_FN void ptx_madc_lo_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) {
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
}
MONT_FN void ptx_madc_hi_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) {
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
}
MONT_FN void ptx_madc_hi(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) {
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
}
/* d = a + b [+ CC] [-> CC], d = a - b [- CC] [-> CC] */
MONT_FN void ptx_add_cc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
MONT_FN void ptx_addc_cc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
MONT_FN void ptx_addc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
MONT_FN void ptx_sub_cc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
MONT_FN void ptx_subc_cc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
MONT_FN void ptx_subc(uint32_t &d, uint32_t a, uint32_t b) {
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
}
#endif

/* The product keeps its running value t in two N-limb arrays, t = E +
 * 2^32·O: the limb pair (lo, hi) of a_j·b_i lands on two adjacent limbs of
 * one array (E for even j, O for odd j), so each pair is one 64-bit
 * multiply-add in the chain: half the multiply instructions of separate lo
 * and hi chains. M: the modulus, M::p(i) its limbs (little-endian),
 * M::m0 = -p^-1 mod 2^32, M::low64 (see mont_redc_row). N even. */

/* E += Σ_{j even} a_j·b·2^(32j) (N/2 pairs, one chain); the carry out of
 * E's top limb (weight 2^(32N)) goes to O[N-1], whose weight it is. */
template <int N> MONT_FN void mont_mad_even(uint32_t *E, uint32_t *O, const uint32_t *a, uint32_t b) {
    ptx_mad_lo_cc(E[0], a[0], b, E[0]);
    ptx_madc_hi_cc(E[1], a[0], b, E[1]);
#pragma unroll
    for (int j = 2; j < N; j += 2) {
        ptx_madc_lo_cc(E[j], a[j], b, E[j]);
        ptx_madc_hi_cc(E[j + 1], a[j], b, E[j + 1]);
    }
    ptx_addc(O[N - 1], O[N - 1], 0);
}

/* O += Σ_{j odd} a_j·b·2^(32(j-1)) (N/2 pairs, one chain); no carry out
 * (see mont_mul). */
template <int N> MONT_FN void mont_mad_odd(uint32_t *O, const uint32_t *a, uint32_t b) {
    ptx_mad_lo_cc(O[0], a[1], b, O[0]);
    ptx_madc_hi_cc(O[1], a[1], b, O[1]);
#pragma unroll
    for (int j = 3; j < N - 1; j += 2) {
        ptx_madc_lo_cc(O[j - 1], a[j], b, O[j - 1]);
        ptx_madc_hi_cc(O[j], a[j], b, O[j]);
    }
    ptx_madc_lo_cc(O[N - 2], a[N - 1], b, O[N - 2]);
    ptx_madc_hi(O[N - 1], a[N - 1], b, O[N - 1]);
}

/* t += m·p with m = E[0]·m0: E[0] becomes 0.
 *
 * M::low64 set: p ≡ 2^64 - 2^32 + 1 (mod 2^64), as BLS12-381's r is (p_0 =
 * 1, p_1 = 2^32 - 1, m0 = -1), so m = -E0 and the two low pairs need no
 * multiplication: m·p_0 = m, and E0 + m is 0 carrying E0 != 0 into E[1];
 * m·p_1 = (2^32 - E0)(2^32 - 1) = 2^32·~E0 + E0 for E0 != 0 (0 for E0 = 0).
 * 2 of the row's N 64-bit multiply-adds saved. neg1 = 2^32 - 1, opaque to
 * ptxas (see mont_opaque_neg1); unused without M::low64. */
template <int N, class M> MONT_FN void mont_redc_row(uint32_t *E, uint32_t *O, uint32_t neg1) {
    uint32_t p[N];
#pragma unroll
    for (int j = 0; j < N; j++) p[j] = M::p(j);
    if constexpr (M::low64) {
        /* m = -E0 = E0·neg1 (neg1: mont_opaque_neg1) */
        const uint32_t e0 = E[0], m = e0 * neg1, nz = e0 != 0, hi1 = nz ? ~e0 : 0u;
        ptx_add_cc(O[0], O[0], e0);
        ptx_addc_cc(O[1], O[1], hi1);
#pragma unroll
        for (int j = 3; j < N - 1; j += 2) {
            ptx_madc_lo_cc(O[j - 1], p[j], m, O[j - 1]);
            ptx_madc_hi_cc(O[j], p[j], m, O[j]);
        }
        ptx_madc_lo_cc(O[N - 2], p[N - 1], m, O[N - 2]);
        ptx_madc_hi(O[N - 1], p[N - 1], m, O[N - 1]);
        ptx_add_cc(E[1], E[1], nz);
#pragma unroll
        for (int j = 2; j < N; j += 2) {
            ptx_madc_lo_cc(E[j], p[j], m, E[j]);
            ptx_madc_hi_cc(E[j + 1], p[j], m, E[j + 1]);
        }
        ptx_addc(O[N - 1], O[N - 1], 0);
        E[0] = 0;
    } else {
        const uint32_t m = E[0] * M::m0;
        mont_mad_odd<N>(O, p, m);
        mont_mad_even<N>(E, O, p, m);
    }
}

/* The next row on t/2^32 (E[0] = 0): the new E is O, the new O is E/2^64,
 * and E[1] (weight 2^32, the new weight 1) is added to the new E[0] with its
 * carry entering the new O's chain, fused with O' += the odd pairs of a·b.
 * X holds O and becomes the new E; Y holds E and becomes the new O. */
template <int N> MONT_FN void mont_shift_mad(uint32_t *X, uint32_t *Y, const uint32_t *a, uint32_t b) {
    ptx_add_cc(X[0], X[0], Y[1]);
#pragma unroll
    for (int j = 1; j < N - 1; j += 2) {
        ptx_madc_lo_cc(Y[j - 1], a[j], b, Y[j + 1]);
        ptx_madc_hi_cc(Y[j], a[j], b, Y[j + 2]);
    }
    ptx_madc_lo_cc(Y[N - 2], a[N - 1], b, 0);
    ptx_madc_hi(Y[N - 1], a[N - 1], b, 0);
    mont_mad_even<N>(X, Y, a, b);
}

/* r = s - p if that does not borrow, else s (s < 2p): the products' last step */
template <int N, class M> MONT_FN void mont_reduce_once(uint32_t *r, const uint32_t *s) {
    uint32_t d[N], borrow;
    ptx_sub_cc(d[0], s[0], M::p(0));
#pragma unroll
    for (int k = 1; k < N; k++) ptx_subc_cc(d[k], s[k], M::p(k));
    ptx_subc(borrow, 0, 0);
#pragma unroll
    for (int k = 0; k < N; k++) r[k] = borrow ? s[k] : d[k];
}

/* r = a·b·2^(-32N) mod p, fully reduced. CIOS, one row per b_i: t = (t +
 * a·b_i + m·p) / 2^32. The bounds, with B = 2^(32N):
 * - Fp (N = 12, p < 2^381), a, b < 2p: with t < 2^383 before a row, t +
 *   a·b_i + m·p < 2^383 + 2^414 + 2^413 < 2^415, so after it O < 2^383
 *   (2^32·O <= t): O's chains carry nothing out, and the new t < 2^383; at
 *   the end t < a·b/B + p < 1.5p.
 * - Fr (N = 8, r < 0.91·2^255), a, b < r: t < 2r before a row, t + a·b_i +
 *   m·r < 2^33·r < 0.91·2^288, so O < 0.91·2^256 throughout and the new t <
 *   2r; at the end t < 2r.
 * Either way one conditional subtraction reduces the result. Fp: 288
 * 64-bit multiply-adds (576 mul/mad.lo/hi), about 400 SASS instructions for
 * sm_90, a third of a CIOS with separate lo and hi chains; Fr: 112 (the
 * reduction rows' low pairs are additions, M::low64).
 *
 * Only a is bounded by the rows: b's limbs b_i are any 32-bit values. For
 * Fr with a < r and b < 2r, t < a + r < 2r before every row as above, and
 * at the end t < a·b/B + r < (2r/B + 1)·r < 1.91·r: FULL reduces that to
 * [0, r) too, and !FULL (the NTT's lazy products) returns it as it is, in
 * [0, 2r), saving the subtraction and the selects. */
template <int N, class M, bool FULL = true> MONT_FN void mont_mul(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    uint32_t e[N], o[N];
    const uint32_t neg1 = M::low64 ? mont_opaque_neg1() : 0u;
#pragma unroll
    for (int j = 0; j < N; j += 2) {
        e[j] = ptx_mul_lo(a[j], b[0]);
        e[j + 1] = ptx_mul_hi(a[j], b[0]);
        o[j] = ptx_mul_lo(a[j + 1], b[0]);
        o[j + 1] = ptx_mul_hi(a[j + 1], b[0]);
    }
    mont_redc_row<N, M>(e, o, neg1);
#pragma unroll
    for (int i = 1; i < N; i++) {
        if (i & 1) {
            mont_shift_mad<N>(o, e, a, b[i]);
            mont_redc_row<N, M>(o, e, neg1);
        } else {
            mont_shift_mad<N>(e, o, a, b[i]);
            mont_redc_row<N, M>(e, o, neg1);
        }
    }
    /* N even: after row N-1 (odd) E is o (o[0] = 0), O is e: t = e + o/2^32 */
    uint32_t s[N];
    ptx_add_cc(s[0], e[0], o[1]);
#pragma unroll
    for (int k = 1; k < N - 1; k++) ptx_addc_cc(s[k], e[k], o[k + 1]);
    ptx_addc(s[N - 1], e[N - 1], 0);
    if (!FULL) {
#pragma unroll
        for (int k = 0; k < N; k++) r[k] = s[k];
        return;
    }
    mont_reduce_once<N, M>(r, s);
}


/* X[s0 ..] += a_i · (a_j for j = j0, j0 + 2, … < N) at limbs i + j: one
 * chain of 64-bit multiply-adds (the pairs of a step-2 run of j land on
 * adjacent limb pairs of one array), its carry added to the limb above the
 * last pair. mont_sqr says why that limb cannot overflow. */
template <int N> MONT_FN void mont_sqr_row(uint32_t *X, const uint32_t *a, int i, int j0) {
    ptx_mad_lo_cc(X[i + j0], a[i], a[j0], X[i + j0]);
    ptx_madc_hi_cc(X[i + j0 + 1], a[i], a[j0], X[i + j0 + 1]);
    int j = j0 + 2;
#pragma unroll
    for (; j < N; j += 2) {
        ptx_madc_lo_cc(X[i + j], a[i], a[j], X[i + j]);
        ptx_madc_hi_cc(X[i + j + 1], a[i], a[j], X[i + j + 1]);
    }
    ptx_addc(X[i + j], X[i + j], 0);
}

/* One reduction row of mont_sqr on t/2^32 (mont_shift_mad with a = p, b =
 * m and the limb top, not 0, entering Y[N-2]): the new E is X + Y[1] (at
 * limb 0), the new O is Y/2^64 + top·2^(32(N-2)), and m·p is added, m =
 * (X[0] + Y[1])·m0 making the new E[0] zero. */
template <int N, class M> MONT_FN void mont_sqr_redc_row(uint32_t *X, uint32_t *Y, const uint32_t *p, uint32_t top) {
    const uint32_t m = (X[0] + Y[1]) * M::m0;
    ptx_add_cc(X[0], X[0], Y[1]);
#pragma unroll
    for (int j = 1; j < N - 1; j += 2) {
        ptx_madc_lo_cc(Y[j - 1], p[j], m, Y[j + 1]);
        ptx_madc_hi_cc(Y[j], p[j], m, Y[j + 2]);
    }
    ptx_madc_lo_cc(Y[N - 2], p[N - 1], m, top);
    ptx_madc_hi(Y[N - 1], p[N - 1], m, 0);
    mont_mad_even<N>(X, Y, p, m);
}

/* r = a^2·2^(-32N) mod p, fully reduced, for a < 2p (Fp) or a < r (Fr,
 * whose rows after the first are the general ones): the same value as
 * mont_mul(a, a) with 222 of its 288 64-bit multiply-adds for Fp (N(N-1)/2
 * cross products, N squares, N^2 for the reduction).
 *
 * 1. The cross products Σ_{i<j} a_i·a_j·2^(32(i+j)) in two 2N-limb arrays,
 *    od for the pairs at odd limbs (j - i odd), ev for the even ones, so
 *    that every pair of an array is aligned the same way; row i runs one
 *    chain into each. Each chain's carry goes to the limb above its last
 *    pair: for the chain that ends at j = N-1 that limb (i+N+1) is still 0,
 *    for the other (ending at j = N-2, limb i+N) it holds only the carry of
 *    row i-1's top chain (0 or 1), so neither overflows.
 * 2. t = 2·(ev + od) + Σ a_i^2·2^(64i) = a^2 (< 2^(64N); the cross sum is
 *    below a^2/2, so doubling it carries nothing out).
 * 3. Montgomery's reduction of t as mont_mul's rows without a·b_i: E + 2^32·O
 *    starts as t's low half; a row makes the low limb zero, divides by 2^32
 *    (deferred to the next row, which fuses it with its odd chain) and adds
 *    t's next high limb at 2^(32(N-1)). The bounds of mont_mul hold (the
 *    value stays below 2^(32N+1) before a row, against 2^(32N)·2p there).
 * 4. r = (t + M·p)/2^(32N) < a^2/2^(32N) + p < 2p (4p^2 < p·2^(32N)), so one
 *    conditional subtraction. */
template <int N, class M> MONT_FN void mont_sqr(uint32_t *r, const uint32_t *a) {
    uint32_t ev[2 * N], od[2 * N];
#pragma unroll
    for (int k = 0; k < 2 * N; k++) ev[k] = od[k] = 0;
#pragma unroll
    for (int i = 0; i < N - 1; i++) {
        mont_sqr_row<N>(od, a, i, i + 1);
        if (i + 2 < N) mont_sqr_row<N>(ev, a, i, i + 2);
    }
    /* t = 2·(od + ev) + the squares (od[0] = ev[0] = ev[1] = 0) */
    uint32_t t[2 * N];
    t[0] = 0;
    t[1] = od[1];
    ptx_add_cc(t[2], od[2], ev[2]);
#pragma unroll
    for (int k = 3; k < 2 * N - 1; k++) ptx_addc_cc(t[k], od[k], ev[k]);
    ptx_addc(t[2 * N - 1], od[2 * N - 1], ev[2 * N - 1]);
#pragma unroll
    for (int k = 2 * N - 1; k > 0; k--) t[k] = (t[k] << 1) | (t[k - 1] >> 31);
    ptx_mad_lo_cc(t[0], a[0], a[0], t[0]);
    ptx_madc_hi_cc(t[1], a[0], a[0], t[1]);
#pragma unroll
    for (int i = 1; i < N - 1; i++) {
        ptx_madc_lo_cc(t[2 * i], a[i], a[i], t[2 * i]);
        ptx_madc_hi_cc(t[2 * i + 1], a[i], a[i], t[2 * i + 1]);
    }
    ptx_madc_lo_cc(t[2 * N - 2], a[N - 1], a[N - 1], t[2 * N - 2]);
    ptx_madc_hi(t[2 * N - 1], a[N - 1], a[N - 1], t[2 * N - 1]);

    /* the reduction: row 0 on (t's low half, 0), then rows 1 … N-1 */
    uint32_t p[N], e[N], o[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        p[j] = M::p(j);
        e[j] = t[j];
        o[j] = 0;
    }
    mont_redc_row<N, M>(e, o, M::low64 ? mont_opaque_neg1() : 0u);
#pragma unroll
    for (int i = 1; i < N; i++) {
        if (i & 1) mont_sqr_redc_row<N, M>(o, e, p, t[N + i - 1]);
        else mont_sqr_redc_row<N, M>(e, o, p, t[N + i - 1]);
    }
    /* N even: after row N-1 (odd) E is o (o[0] = 0), O is e: r = e + o/2^32 + t_(2N-1)·2^(32(N-1)) */
    uint32_t s[N];
    ptx_add_cc(s[0], e[0], o[1]);
#pragma unroll
    for (int k = 1; k < N - 1; k++) ptx_addc_cc(s[k], e[k], o[k + 1]);
    ptx_addc(s[N - 1], e[N - 1], t[2 * N - 1]);
    mont_reduce_once<N, M>(r, s);
}

#endif
