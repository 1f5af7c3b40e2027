/* czk — bit sets (see include/czk/bitmap.h). */
#include "czk/bitmap.h"

#include <stdlib.h>

czk_err czk_bitmap_init(czk_bitmap *b, size_t nbits) {
    b->nbits = nbits;
    b->words = NULL;
    if (nbits == 0) return CZK_OK;
    b->words = calloc((nbits + 63) / 64, sizeof(uint64_t));
    return b->words ? CZK_OK : CZK_ERR_NO_MEMORY;
}

void czk_bitmap_free(czk_bitmap *b) {
    free(b->words);
    b->words = NULL;
    b->nbits = 0;
}

size_t czk_bitmap_count(const czk_bitmap *b) {
    size_t n = 0;
    for (size_t i = 0; i < (b->nbits + 63) / 64; i++) n += (size_t)__builtin_popcountll(b->words[i]);
    return n;
}

size_t czk_bitmap_rank(const czk_bitmap *b, size_t i) {
    size_t n = 0;
    for (size_t w = 0; w < i / 64; w++) n += (size_t)__builtin_popcountll(b->words[w]);
    if (i % 64) n += (size_t)__builtin_popcountll(b->words[i / 64] & ((1ULL << (i % 64)) - 1));
    return n;
}
