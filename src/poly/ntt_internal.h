/* czk — internal to src/poly: inline Fr addition and subtraction for the
 * butterflies, the scaling hooks of the transforms, and entry points used by
 * the tests to force small in-cache sizes (so that the four-step levels are
 * exercised at sizes a naive DFT can check). */
#ifndef CZK_POLY_NTT_INTERNAL_H
#define CZK_POLY_NTT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "czk/fr.h"
#include "czk/poly.h"

/* Default in-cache transform size: 2^12 points (128 KiB) fits in L2. */
#define POLY_LEAF_LOG 12

typedef unsigned __int128 poly_u128;

/* The transform plan. A transform of 2^lg points runs in cache (a leaf) when
 * lg <= limit; otherwise it is a four-step level of 2^(lg - row) columns by
 * 2^row contiguous rows, row = ceil(lg/2), and each row is again a transform
 * with limit leaf + POLY_ROW_SLACK. The whole domain has limit leaf. The
 * slack keeps rows of up to 2^14 points (512 KiB, in L2) whole: a level
 * costs 2 multiplications per point, a few more cache misses cost less. */
#define POLY_ROW_SLACK 2

static inline unsigned poly_split_row(unsigned lg, unsigned limit) {
    return lg <= limit ? lg : (lg + 1) / 2;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* r = a + b mod r_Fr for reduced a, b (same value as czk_fr_add); r may alias
 * a or b. a + b < 2r < 2^256, so there is no carry out: 4 add, 4 sub, 4 cmov. */
static inline void poly_fr_add(czk_fr *r, const czk_fr *a, const czk_fr *b) {
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], s0, s1, s2, s3;
    __asm__("addq (%[b]), %[t0]\n\tadcq 8(%[b]), %[t1]\n\tadcq 16(%[b]), %[t2]\n\tadcq 24(%[b]), %[t3]\n\t"
            "movq %[t0], %[s0]\n\tmovq %[t1], %[s1]\n\tmovq %[t2], %[s2]\n\tmovq %[t3], %[s3]\n\t"
            "subq %[m0], %[s0]\n\tsbbq %[m1], %[s1]\n\tsbbq %[m2], %[s2]\n\tsbbq %[m3], %[s3]\n\t"
            "cmovcq %[t0], %[s0]\n\tcmovcq %[t1], %[s1]\n\tcmovcq %[t2], %[s2]\n\tcmovcq %[t3], %[s3]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [s0] "=&r"(s0),
              [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [b] "r"(b->l), "m"(*b), [m0] "m"(CZK_FR_MODULUS.l[0]), [m1] "m"(CZK_FR_MODULUS.l[1]),
              [m2] "m"(CZK_FR_MODULUS.l[2]), [m3] "m"(CZK_FR_MODULUS.l[3])
            : "cc");
    r->l[0] = s0, r->l[1] = s1, r->l[2] = s2, r->l[3] = s3;
}

/* r = a - b mod r_Fr (same value as czk_fr_sub): 4 sub, a mask of the borrow,
 * r added under the mask. */
static inline void poly_fr_sub(czk_fr *r, const czk_fr *a, const czk_fr *b) {
    const uint64_t *m = CZK_FR_MODULUS.l;
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3];
    uint64_t s0 = m[0], s1 = m[1], s2 = m[2], s3 = m[3], mask;
    __asm__("subq (%[b]), %[t0]\n\tsbbq 8(%[b]), %[t1]\n\tsbbq 16(%[b]), %[t2]\n\tsbbq 24(%[b]), %[t3]\n\t"
            "sbbq %[k], %[k]\n\t"
            "andq %[k], %[s0]\n\tandq %[k], %[s1]\n\tandq %[k], %[s2]\n\tandq %[k], %[s3]\n\t"
            "addq %[s0], %[t0]\n\tadcq %[s1], %[t1]\n\tadcq %[s2], %[t2]\n\tadcq %[s3], %[t3]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [s0] "+&r"(s0),
              [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [k] "=&r"(mask)
            : [b] "r"(b->l), "m"(*b)
            : "cc");
    r->l[0] = t0, r->l[1] = t1, r->l[2] = t2, r->l[3] = t3;
}
#else
/* Portable versions of the same. */
static inline void poly_fr_add(czk_fr *r, const czk_fr *a, const czk_fr *b) {
    const uint64_t *m = CZK_FR_MODULUS.l;
    uint64_t t[4], s[4];
    poly_u128 x = 0;
    for (int j = 0; j < 4; j++) {
        x = (poly_u128)a->l[j] + b->l[j] + (uint64_t)(x >> 64);
        t[j] = (uint64_t)x;
    }
    uint64_t borrow = 0;
    for (int j = 0; j < 4; j++) {
        poly_u128 d = (poly_u128)t[j] - m[j] - borrow;
        s[j] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t keep = 0 - borrow; /* all ones: t < r, keep t */
    for (int j = 0; j < 4; j++) r->l[j] = (t[j] & keep) | (s[j] & ~keep);
}

static inline void poly_fr_sub(czk_fr *r, const czk_fr *a, const czk_fr *b) {
    const uint64_t *m = CZK_FR_MODULUS.l;
    uint64_t t[4];
    uint64_t borrow = 0;
    for (int j = 0; j < 4; j++) {
        poly_u128 d = (poly_u128)a->l[j] - b->l[j] - borrow;
        t[j] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t mask = 0 - borrow, carry = 0;
    for (int j = 0; j < 4; j++) {
        poly_u128 x = (poly_u128)t[j] + (m[j] & mask) + carry;
        r->l[j] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
}
#endif

/* Cache-line aligned allocation of count points (free with free()); NULL on
 * failure or overflow. */
static inline czk_fr *poly_alloc_points(size_t count) {
    if (count == 0 || count > SIZE_MAX / sizeof(czk_fr) - 1) return NULL;
    size_t bytes = (count * sizeof(czk_fr) + 63) & ~(size_t)63; /* C11: a multiple of 64 */
    return aligned_alloc(64, bytes);
}

/* i with its low `bits` bits reversed (bits <= 63), higher bits dropped. */
static inline size_t poly_bitrev(size_t i, unsigned bits) {
    if (bits == 0) return 0;
    uint64_t x = (uint64_t)i;
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    x = __builtin_bswap64(x);
    return (size_t)(x >> (64 - bits));
}

/* A per-position factor: factor(p) = s · hi[p >> lb] · lo[p & (2^lb - 1)].
 * hi and lo are both NULL (factor s) or both set; has_s false means s = 1. */
typedef struct {
    const czk_fr *hi, *lo;
    unsigned lb;
    bool has_s;
    czk_fr s;
} poly_scale;

/* Natural in, bit-reversed out (czk_ntt_dif), with the optional factor `pre`
 * applied to a[p] before the transform (natural positions) and `post` applied
 * after it (bit-reversed positions), both inside the transform's own passes. */
void czk_poly_dif_scaled(const czk_domain *d, czk_fr *a, bool inverse, const poly_scale *pre,
                         const poly_scale *post, czk_pool *pool);

/* The plain serial in-place radix-2 transforms with twiddles computed on the
 * fly (bellperson's serial_fft, split into DIF/DIT): the reference the fast
 * ones are tested against, and their fallback when scratch cannot be had.
 * w is the primitive 2^log_n-th root of unity to use. */
void czk_poly_dif_simple(czk_fr *a, unsigned log_n, const czk_fr *w);
void czk_poly_dit_simple(czk_fr *a, unsigned log_n, const czk_fr *w);

/* czk_domain_init with a chosen in-cache size 2^leaf_log (leaf_log >= 1);
 * tests use tiny values to run several four-step levels at small n. */
czk_err czk_domain_init_leaf(czk_domain *d, size_t min_size, unsigned leaf_log);

/* Disables (true) or re-enables the scratch allocation of the transforms, so
 * that tests reach the serial fallback. Process-wide; not for production. */
void czk_poly_test_no_scratch(bool on);

#endif
