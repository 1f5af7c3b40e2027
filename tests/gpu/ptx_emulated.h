/* czk — the device arithmetic's PTX primitives (src/gpu/mont.cuh) emulated
 * on the host in C++ with an explicit carry flag, and the CUDA qualifiers
 * the device headers use, so that host tests compile mont.cuh, fp.cuh,
 * fp2.cuh and xyzz.cuh as they are and check them without a GPU
 * (test_mont_emulated against GMP, test_xyzz_emulated against the CPU's
 * group law). Include it before any of those headers. */
#ifndef CZK_TEST_PTX_EMULATED_H
#define CZK_TEST_PTX_EMULATED_H

#include <stdint.h>

#define MONT_HOST_EMULATION 1

#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __constant__
#define __align__(n) alignas(n)

struct alignas(16) uint4 {
    uint32_t x, y, z, w;
};
static inline uint4 make_uint4(uint32_t x, uint32_t y, uint32_t z, uint32_t w) { return uint4{x, y, z, w}; }
static inline uint4 __ldg(const uint4 *p) { return *p; }

static thread_local unsigned ptx_cc; /* the emulated carry / borrow flag (one per host thread:
                                     * test_msm_sums_emulated runs a warp's lanes on threads) */

static inline uint32_t ptx_mul_lo(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a * b); }
static inline uint32_t ptx_mul_hi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static inline void ptx_mad(uint32_t &d, uint32_t a, uint32_t b, uint32_t c, int hi, int cin, int cout) {
    uint64_t p = (uint64_t)a * b;
    uint64_t s = (uint64_t)(hi ? (uint32_t)(p >> 32) : (uint32_t)p) + c + (cin ? ptx_cc : 0);
    d = (uint32_t)s;
    if (cout) ptx_cc = (unsigned)(s >> 32);
}
static inline void ptx_mad_lo_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) { ptx_mad(d, a, b, c, 0, 0, 1); }
static inline void ptx_madc_lo_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) { ptx_mad(d, a, b, c, 0, 1, 1); }
static inline void ptx_madc_hi_cc(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) { ptx_mad(d, a, b, c, 1, 1, 1); }
static inline void ptx_madc_hi(uint32_t &d, uint32_t a, uint32_t b, uint32_t c) { ptx_mad(d, a, b, c, 1, 1, 0); }
static inline void ptx_add(uint32_t &d, uint32_t a, uint32_t b, int cin, int cout) {
    uint64_t s = (uint64_t)a + b + (cin ? ptx_cc : 0);
    d = (uint32_t)s;
    if (cout) ptx_cc = (unsigned)(s >> 32);
}
static inline void ptx_add_cc(uint32_t &d, uint32_t a, uint32_t b) { ptx_add(d, a, b, 0, 1); }
static inline void ptx_addc_cc(uint32_t &d, uint32_t a, uint32_t b) { ptx_add(d, a, b, 1, 1); }
static inline void ptx_addc(uint32_t &d, uint32_t a, uint32_t b) { ptx_add(d, a, b, 1, 0); }
/* PTX subtraction: the flag is the borrow */
static inline void ptx_sub(uint32_t &d, uint32_t a, uint32_t b, int bin, int bout) {
    uint64_t s = (uint64_t)a - b - (bin ? ptx_cc : 0);
    d = (uint32_t)s;
    if (bout) ptx_cc = (unsigned)((s >> 32) & 1);
}
static inline void ptx_sub_cc(uint32_t &d, uint32_t a, uint32_t b) { ptx_sub(d, a, b, 0, 1); }
static inline void ptx_subc_cc(uint32_t &d, uint32_t a, uint32_t b) { ptx_sub(d, a, b, 1, 1); }
static inline void ptx_subc(uint32_t &d, uint32_t a, uint32_t b) { ptx_sub(d, a, b, 1, 0); }

#endif
