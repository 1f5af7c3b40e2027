/* Bit sets: czk_bitmap_prefix, rank and count (hardware popcount where the
 * CPU has one) against a bit-by-bit count, on random maps of random density
 * and length, and on the edges (empty, all set, n not a multiple of 64, n
 * below nbits). */
#include <string.h>

#include "czk/bitmap.h"
#include "test.h"

/* against a bit-by-bit count: czk_bitmap_prefix over [0, n), and
 * czk_bitmap_rank at every word boundary and at n */
static void check_prefix(const czk_bitmap *b, size_t n) {
    size_t nw = (n + 63) / 64;
    uint64_t *prefix = malloc((nw ? nw : 1) * sizeof *prefix);
    if (!prefix) {
        CHECK(!"out of memory");
        return;
    }
    const size_t total = czk_bitmap_prefix(b, n, prefix);
    size_t naive = 0, wrong = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 64 == 0) wrong += prefix[i / 64] != naive || czk_bitmap_rank(b, i) != naive;
        naive += czk_bitmap_get(b, i);
    }
    CHECK_MSG(total == naive, "n=%zu: total %zu, bit by bit %zu", n, total, naive);
    CHECK_MSG(czk_bitmap_rank(b, n) == naive, "n=%zu: rank %zu, bit by bit %zu", n, czk_bitmap_rank(b, n), naive);
    CHECK_MSG(wrong == 0, "n=%zu: %zu words' prefix or rank wrong", n, wrong);
    free(prefix);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_bitmap");
    czk_bitmap b;
    CHECK(czk_bitmap_init(&b, 0) == CZK_OK);
    check_prefix(&b, 0);
    czk_bitmap_free(&b);
    const long cases = test_cases(200);
    for (long t = 0; t < cases; t++) {
        const size_t nbits = 1 + czk_rng_next(&rng) % 5000;
        if (czk_bitmap_init(&b, nbits) != CZK_OK) {
            CHECK(!"out of memory");
            break;
        }
        const unsigned kind = (unsigned)(t % 4); /* sparse, dense, all set, half */
        for (size_t i = 0; i < nbits; i++) {
            const uint64_t x = czk_rng_next(&rng);
            if (kind == 2 || (kind == 0 && x % 20 == 0) || (kind == 1 && x % 20 != 0) || (kind == 3 && (x & 1)))
                czk_bitmap_set(&b, i);
        }
        check_prefix(&b, nbits);
        size_t naive = 0;
        for (size_t i = 0; i < nbits; i++) naive += czk_bitmap_get(&b, i);
        CHECK(czk_bitmap_count(&b) == naive);
        check_prefix(&b, nbits - czk_rng_next(&rng) % nbits); /* a shorter n: bits at and above it ignored */
        if (kind == 2) CHECK(czk_bitmap_prefix(&b, nbits, (uint64_t[80]){0}) == nbits);
        czk_bitmap_free(&b);
    }
    return test_finish("test_bitmap");
}
