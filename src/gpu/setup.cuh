/* czk — the device side of parameter generation (setup.cu): fixed-base
 * products k·P from a window table of P, and their conversion to the
 * params file's bytes (affine, big-endian, not Montgomery) with one field
 * inversion per group of points (Montgomery's trick). Generic over the
 * coordinate field (fp_t for G1, fp2_t for G2); the host test
 * tests/gpu/test_setup_emulated.cpp compiles this header with the PTX
 * emulated and checks it against the CPU.
 *
 * The table: SETUP_WINDOWS windows of SETUP_TABLE affine points, entry
 * w·SETUP_TABLE + j = j·2^(8w)·P (entry j = 0 unused), the host's
 * czk_g1_affine / czk_g2_affine layout. Scalars: 8 canonical 32-bit limbs
 * (k < r), so k·P = Σ_w digit_w(k)·2^(8w)·P: at most 32 mixed additions,
 * 8M + 2S each (about 320 Fp products for G1; 3 Fp products per Fp2
 * product for G2). */
#ifndef CZK_GPU_SETUP_CUH
#define CZK_GPU_SETUP_CUH

#include "fr.cuh"
#include "xyzz.cuh"

#define SETUP_WINDOWS 32
#define SETUP_TABLE 256

#ifdef MONT_HOST_EMULATION
static inline uint32_t setup_bswap32(uint32_t x) { return __builtin_bswap32(x); }
#else
static __device__ __forceinline__ uint32_t setup_bswap32(uint32_t x) { return __byte_perm(x, 0, 0x0123); }
#endif

/* k canonical: k·2^256 · 2^-256 with k in Montgomery form (one Fr product). */
static __device__ __forceinline__ fr_t setup_fr_canonical(const fr_t &k) {
    fr_t one;
#pragma unroll
    for (int i = 0; i < 8; i++) one.l[i] = i == 0;
    return fr_mul(k, one);
}

/* acc = k·P, k canonical (< r); infinity for k = 0. */
template <class F>
static __device__ __forceinline__ void setup_mul(xyzz_t<F> &acc, const aff_t<F> *table, const fr_t &k) {
    xyzz_set_inf(acc);
#pragma unroll 1
    for (int w = 0; w < SETUP_WINDOWS; w++) {
        const uint32_t d = (k.l[w >> 2] >> (8 * (w & 3))) & 0xffu;
        if (!d) continue;
        const aff_t<F> *t = table + w * SETUP_TABLE + d;
        const F x = fe_ldg(&t->x), y = fe_ldg(&t->y);
        xyzz_add_aff(acc, x, y, false);
    }
}

/* a^(p-2) = 1/a (0 for 0): 380 squarings and 190 products, left to right. */
static __device__ __forceinline__ fp_t setup_fp_inv(const fp_t &a) {
    uint32_t e[FP_N];
#pragma unroll
    for (int i = 0; i < FP_N; i++) e[i] = FP_P[i];
    e[0] -= 2; /* p's low limb is 0xffffaaab: no borrow */
    fp_t r = a; /* bit 380, the top set bit of p - 2 */
#pragma unroll 1
    for (int b = 379; b >= 0; b--) {
        r = fp_sqr(r);
        if ((e[b >> 5] >> (b & 31)) & 1) r = fp_mul(r, a);
    }
    return r;
}

static __device__ __forceinline__ fp_t setup_inv(const fp_t &a) { return setup_fp_inv(a); }
/* 1/(c0 + c1 u) = (c0 - c1 u)/(c0^2 + c1^2): 2S + 2M + an Fp inversion. */
static __device__ __forceinline__ fp2_t setup_inv(const fp2_t &a) {
    const fp_t t = setup_fp_inv(fp_add(fp_sqr(a.c0), fp_sqr(a.c1)));
    fp2_t r;
    r.c0 = fp_mul(a.c0, t);
    r.c1 = fp_neg(fp_mul(a.c1, t));
    return r;
}

/* The canonical value (out of Montgomery form) as 12 big-endian words. */
static __device__ __forceinline__ void setup_put_fp(uint32_t *out, const fp_t &a) {
    fp_t one;
#pragma unroll
    for (int i = 0; i < FP_N; i++) one.l[i] = i == 0;
    const fp_t c = fp_mul(a, one);
#pragma unroll
    for (int i = 0; i < FP_N; i++) out[i] = setup_bswap32(c.l[FP_N - 1 - i]);
}
/* zcash's order: c1, then c0. */
static __device__ __forceinline__ void setup_put(uint32_t *out, const fp_t &a) { setup_put_fp(out, a); }
static __device__ __forceinline__ void setup_put(uint32_t *out, const fp2_t &a) {
    setup_put_fp(out, a.c1);
    setup_put_fp(out + FP_N, a.c0);
}

/* The uncompressed encoding of a point from its XYZZ form and inv =
 * 1/(ZZ·ZZZ): x = X·ZZZ·inv, y = Y·ZZ·inv (4M); infinity as the flag byte
 * 0x40 and zeros (the readers reject it: the host checks for it). */
template <class F>
static __device__ __forceinline__ void setup_put_point(uint32_t *out, const xyzz_t<F> &p, const F &inv) {
    const int words = (int)(sizeof(F) / 4);
    if (xyzz_is_inf(p)) {
        for (int i = 0; i < 2 * words; i++) out[i] = i == 0 ? 0x40u : 0u; /* bytes 40 00 00 … */
        return;
    }
    const F x = fe_mul(p.x, fe_mul(p.zzz, inv));
    const F y = fe_mul(p.y, fe_mul(p.zz, inv));
    setup_put(out, x);
    setup_put(out + words, y);
}

/* Points [first, first + count) of pts (XYZZ) encoded into out (2·sizeof(F)
 * bytes each, as 32-bit words), with one inversion for the group: the
 * prefix products of d_i = ZZ_i·ZZZ_i (1 for infinity) go to pre[first …),
 * then walked back. About 8 products a point plus an inversion a group. */
template <class F>
static __device__ __forceinline__ void setup_affine_group(uint32_t *out, const xyzz_t<F> *pts, F *pre, size_t first,
                                                          size_t count) {
    const int words = (int)(sizeof(F) / 4);
    F acc = fe_one<F>();
#pragma unroll 1
    for (size_t i = first; i < first + count; i++) {
        xyzz_t<F> p;
        xyzz_load(p, pts + i);
        if (!xyzz_is_inf(p)) acc = fe_mul(acc, fe_mul(p.zz, p.zzz));
        fe_store(pre + i, acc);
    }
    F inv = setup_inv(acc);
#pragma unroll 1
    for (size_t i = first + count; i-- > first;) {
        xyzz_t<F> p;
        xyzz_load(p, pts + i);
        const F inv_i = i > first ? fe_mul(inv, fe_load(pre + i - 1)) : inv;
        setup_put_point(out + i * 2 * words, p, inv_i);
        if (!xyzz_is_inf(p)) inv = fe_mul(inv, fe_mul(p.zz, p.zzz));
    }
}

#endif
