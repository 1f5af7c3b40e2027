/* czk — the BLS12-381 base field Fp, p = 0x1a0111ea...ffffaaab (381 bits).
 *
 * Elements are 6 little-endian 64-bit limbs in Montgomery form (a·2^384 mod p),
 * always fully reduced (< p). Output arguments may alias inputs. No function
 * allocates. Costs: M = one Montgomery multiplication. */
#ifndef CZK_FP_H
#define CZK_FP_H

#include <stdbool.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/rng.h"

#define CZK_FP_LIMBS 6
#define CZK_FP_BYTES 48

typedef struct {
    uint64_t l[CZK_FP_LIMBS];
} czk_fp;

extern const czk_fp CZK_FP_MODULUS;   /* p itself, as raw limbs (not Montgomery) */
extern const czk_fp CZK_FP_ONE;       /* 1 in Montgomery form (2^384 mod p) */
extern const czk_fp CZK_FP_R2;        /* 2^768 mod p, converts into Montgomery form */

static inline void czk_fp_set_zero(czk_fp *r) { *r = (czk_fp){{0}}; }
static inline void czk_fp_set_one(czk_fp *r) { *r = CZK_FP_ONE; }
void czk_fp_from_u64(czk_fp *r, uint64_t v);

bool czk_fp_is_zero(const czk_fp *a);
bool czk_fp_is_one(const czk_fp *a);
bool czk_fp_equal(const czk_fp *a, const czk_fp *b);

void czk_fp_add(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_sub(czk_fp *r, const czk_fp *a, const czk_fp *b);
void czk_fp_neg(czk_fp *r, const czk_fp *a);
void czk_fp_dbl(czk_fp *r, const czk_fp *a);
void czk_fp_half(czk_fp *r, const czk_fp *a);
void czk_fp_mul(czk_fp *r, const czk_fp *a, const czk_fp *b);          /* 1M */
void czk_fp_sqr(czk_fp *r, const czk_fp *a);                           /* ~1M */
/* r = a^e, e given as n little-endian 64-bit limbs (a plain integer). */
void czk_fp_pow(czk_fp *r, const czk_fp *a, const uint64_t *e, int n);
/* r = 1/a; r = 0 when a = 0. Variable time (safegcd, ~2.5 µs). */
void czk_fp_inv(czk_fp *r, const czk_fp *a);
/* The same by Fermat's little theorem (a^(p-2)): slow, kept as a reference. */
void czk_fp_inv_fermat(czk_fp *r, const czk_fp *a);
/* Legendre symbol: 1 square, -1 non-square, 0 for zero. */
int czk_fp_legendre(const czk_fp *a);
/* r = a square root of a if one exists (returns true); r unchanged otherwise. */
bool czk_fp_sqrt(czk_fp *r, const czk_fp *a);
/* True when the canonical value of a is > (p-1)/2 (zcash's "larger root"). */
bool czk_fp_is_lexicographically_largest(const czk_fp *a);

/* Canonical integers: 6 little-endian limbs. from_* fail when the value is >= p. */
bool czk_fp_from_canonical(czk_fp *r, const uint64_t v[CZK_FP_LIMBS]);
void czk_fp_to_canonical(uint64_t v[CZK_FP_LIMBS], const czk_fp *a);
/* 48-byte big-endian canonical encoding. */
bool czk_fp_from_bytes_be(czk_fp *r, const uint8_t in[CZK_FP_BYTES]);
void czk_fp_to_bytes_be(uint8_t out[CZK_FP_BYTES], const czk_fp *a);

/* Uniform random element from a seeded generator (reproducible). */
void czk_fp_random(czk_fp *r, czk_rng *rng);
/* Uniform random element from the operating system's CSPRNG. */
czk_err czk_fp_random_os(czk_fp *r);

/* Which multiplication code runs (for Fp and Fr): the portable __int128 path, or the x86-64
 * MULX/ADX path when the CPU has it. czk_fp_set_impl returns false when the
 * requested path is not available here. */
typedef enum { CZK_FP_IMPL_PORTABLE = 0, CZK_FP_IMPL_ADX = 1 } czk_fp_impl;
czk_fp_impl czk_fp_get_impl(void);
bool czk_fp_set_impl(czk_fp_impl impl);

#endif
