/* czk — fixed-size bit sets (density bitmaps of the Groth16 queries). */
#ifndef CZK_BITMAP_H
#define CZK_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"

typedef struct {
    uint64_t *words; /* bit i is words[i / 64] >> (i % 64) & 1; bits >= nbits are 0 */
    size_t nbits;
} czk_bitmap;

/* All bits clear. An empty bitmap (nbits = 0) needs no memory. */
czk_err czk_bitmap_init(czk_bitmap *b, size_t nbits);
void czk_bitmap_free(czk_bitmap *b);
static inline bool czk_bitmap_get(const czk_bitmap *b, size_t i) {
    return (b->words[i >> 6] >> (i & 63)) & 1;
}
static inline void czk_bitmap_set(czk_bitmap *b, size_t i) { b->words[i >> 6] |= 1ULL << (i & 63); }
/* Number of set bits. */
size_t czk_bitmap_count(const czk_bitmap *b);
/* Number of set bits below position i (the index of bit i's base in a
 * density-filtered array). */
size_t czk_bitmap_rank(const czk_bitmap *b, size_t i);
/* prefix[w] = set bits below bit 64·w for the (n + 63)/64 words holding
 * bits [0, n) (n <= nbits), in one pass with the CPU's popcnt instruction
 * where it has one; returns the set bits below n (czk_bitmap_rank(b, n)). */
size_t czk_bitmap_prefix(const czk_bitmap *b, size_t n, uint64_t *prefix);

#endif
