/* czk — Fr (BLS12-381 scalar field) on the device.
 *
 * An element is 8 little-endian 32-bit limbs: the same 32 bytes as the host's
 * czk_fr (4 little-endian 64-bit limbs, Montgomery form a·2^256 mod r), so
 * host buffers are copied as they are. Every function takes fully reduced
 * inputs (< r) and returns fully reduced outputs, so results are the exact
 * field values the CPU computes, bit for bit.
 *
 * The carry chains are PTX add.cc/addc/mad.lo.cc/madc.hi.cc in separate asm
 * statements of fully unrolled loops (the technique of sppark's ff/mont_t.cuh):
 * NVVM emits no carry-flag instructions of its own, so the flag set by one
 * statement reaches the next; every statement is volatile so none is
 * reordered across another. The product is mont.cuh's, shared with Fp. */
#ifndef CZK_GPU_FR_CUH
#define CZK_GPU_FR_CUH

#include <stdint.h>

#include "mont.cuh"

struct __align__(16) fr_t {
    uint32_t l[8];
};

/* r, little-endian 32-bit limbs */
static __device__ __constant__ const uint32_t FR_P[8] = {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u,
                                                  0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u};
/* -r^-1 mod 2^32 (r ≡ 1 mod 2^32) */
#define FR_M0 0xffffffffu

static __device__ __forceinline__ fr_t fr_load(const fr_t *p) {
    const uint4 *q = (const uint4 *)p;
    uint4 a = q[0], b = q[1];
    fr_t r;
    r.l[0] = a.x, r.l[1] = a.y, r.l[2] = a.z, r.l[3] = a.w;
    r.l[4] = b.x, r.l[5] = b.y, r.l[6] = b.z, r.l[7] = b.w;
    return r;
}

static __device__ __forceinline__ fr_t fr_ldg(const fr_t *p) {
    const uint4 *q = (const uint4 *)p;
    uint4 a = __ldg(q), b = __ldg(q + 1);
    fr_t r;
    r.l[0] = a.x, r.l[1] = a.y, r.l[2] = a.z, r.l[3] = a.w;
    r.l[4] = b.x, r.l[5] = b.y, r.l[6] = b.z, r.l[7] = b.w;
    return r;
}

static __device__ __forceinline__ void fr_store(fr_t *p, const fr_t &a) {
    uint4 *q = (uint4 *)p;
    q[0] = make_uint4(a.l[0], a.l[1], a.l[2], a.l[3]);
    q[1] = make_uint4(a.l[4], a.l[5], a.l[6], a.l[7]);
}

/* r = a - p if that does not borrow, else a (a < 2p). */
static __device__ __forceinline__ fr_t fr_reduce_once(const fr_t &a) {
    fr_t d;
    uint32_t borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d.l[0]) : "r"(a.l[0]), "r"(FR_P[0]));
#pragma unroll
    for (int i = 1; i < 8; i++) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d.l[i]) : "r"(a.l[i]), "r"(FR_P[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    fr_t r;
#pragma unroll
    for (int i = 0; i < 8; i++) r.l[i] = borrow ? a.l[i] : d.l[i];
    return r;
}

/* a + b mod r: 8 adds, 8 subs, 8 selects. a + b < 2r < 2^256: no carry out. */
static __device__ __forceinline__ fr_t fr_add(const fr_t &a, const fr_t &b) {
    fr_t s;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < 7; i++) asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(s.l[7]) : "r"(a.l[7]), "r"(b.l[7]));
    return fr_reduce_once(s);
}

/* a - b, plus m (r or 2r) when it borrows: 8 subs, 8 adds. */
static __device__ __forceinline__ fr_t fr_sub_wrap(const fr_t &a, const fr_t &b, const uint32_t *mod) {
    fr_t d;
    uint32_t borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < 8; i++) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    fr_t m;
#pragma unroll
    for (int i = 0; i < 8; i++) m.l[i] = mod[i] & borrow;
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(d.l[0]) : "r"(m.l[0]));
#pragma unroll
    for (int i = 1; i < 7; i++) asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(d.l[i]) : "r"(m.l[i]));
    asm volatile("addc.u32 %0, %0, %1;" : "+r"(d.l[7]) : "r"(m.l[7]));
    return d;
}

/* a - b mod r */
static __device__ __forceinline__ fr_t fr_sub(const fr_t &a, const fr_t &b) { return fr_sub_wrap(a, b, FR_P); }

/* -a mod r (0 stays 0). */
static __device__ __forceinline__ fr_t fr_neg(const fr_t &a) {
    fr_t z;
#pragma unroll
    for (int i = 0; i < 8; i++) z.l[i] = 0;
    return fr_sub(z, a);
}

/* a·b·2^-256 mod r for a, b < r, fully reduced: mont_mul of mont.cuh with
 * 8 limbs (128 64-bit multiply-adds). */
struct fr_modulus {
    static __device__ __forceinline__ uint32_t p(int i) { return FR_P[i]; }
    static const uint32_t m0 = FR_M0;
    static const bool low64 = true;
};

static __device__ __forceinline__ fr_t fr_mul(const fr_t &a, const fr_t &b) {
    fr_t r;
    mont_mul<8, fr_modulus>(r.l, a.l, b.l);
    return r;
}

/* The lazy form of the NTT passes (ntt.cu): values in [0, 2r] (2r < 2^256),
 * congruent to the field element, so a product skips its final
 * subtraction; fr_canonical makes them canonical. The set is closed under
 * fr_add_lazy, fr_sub_lazy, fr_mul_lazy by a canonical a and fr_2r_minus
 * (each below says why); fr_mul takes a lazy b (mont.cuh: any b < 2^256). */
static __device__ __constant__ const uint32_t FR_2R[8] = {0x00000002u, 0xfffffffeu, 0xfffcb7fdu, 0xa77b4805u,
                                                          0x1343b00au, 0x6673b010u, 0x533afa90u, 0xe7db4ea6u};

/* a·b·2^-256 in [0, 2r) for a < r, any b < 2^256 (mont.cuh: !FULL). */
static __device__ __forceinline__ fr_t fr_mul_lazy(const fr_t &a, const fr_t &b) {
    fr_t r;
    mont_mul<8, fr_modulus, false>(r.l, a.l, b.l);
    return r;
}

/* a + b in [0, 2r] for a, b <= 2r: the sum (<= 4r) may carry out of
 * 2^256; minus 2r when it carried (then the sum is in [2^256, 4r] and the
 * result in (0, 2r]) or does not borrow (then in [2r, 2^256), the result
 * below 2^256 - 2r < 2r); kept when below 2r. */
static __device__ __forceinline__ fr_t fr_add_lazy(const fr_t &a, const fr_t &b) {
    fr_t s, d;
    uint32_t carry, borrow;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < 8; i++) asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("addc.u32 %0, 0, 0;" : "=r"(carry));
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d.l[0]) : "r"(s.l[0]), "r"(FR_2R[0]));
#pragma unroll
    for (int i = 1; i < 8; i++) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d.l[i]) : "r"(s.l[i]), "r"(FR_2R[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    const bool keep = carry == 0 && borrow != 0;
    fr_t r;
#pragma unroll
    for (int i = 0; i < 8; i++) r.l[i] = keep ? s.l[i] : d.l[i];
    return r;
}

/* a - b in [0, 2r] for a, b <= 2r: plus 2r when it borrows (a < b: then
 * in [0, 2r)). */
static __device__ __forceinline__ fr_t fr_sub_lazy(const fr_t &a, const fr_t &b) { return fr_sub_wrap(a, b, FR_2R); }

/* 2r - a in (0, 2r] for a < 2r (a lazy product): -a without a borrow test. */
static __device__ __forceinline__ fr_t fr_2r_minus(const fr_t &a) {
    fr_t d;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d.l[0]) : "r"(FR_2R[0]), "r"(a.l[0]));
#pragma unroll
    for (int i = 1; i < 7; i++) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d.l[i]) : "r"(FR_2R[i]), "r"(a.l[i]));
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d.l[7]) : "r"(FR_2R[7]), "r"(a.l[7]));
    return d;
}

/* The canonical value of a lazy a <= 2r: two conditional subtractions of r
 * (the first leaves [0, r], r itself only from r or 2r). */
static __device__ __forceinline__ fr_t fr_canonical(const fr_t &a) { return fr_reduce_once(fr_reduce_once(a)); }

#endif
