/* czk — the packing of Fr vectors for upload (src/r1cs/fr_pack.c), on the
 * host: packed and unpacked again, every vector comes back exactly, on
 * mixes of small multiples of one and other values, at the group edges, on
 * a pool and without one (the same bytes), with values that share a small
 * value's low limb only, and in the worst case that still packs (every
 * value escaped but the sampled ones), which must fit the 64 MiB staging
 * buffer. Packed vectors (czk_fr_packed): several chunks, one of them of
 * other values (kept as it is), the last one short, come back exactly on
 * a pool and without one, their chunks and bytes are counted, and a vector
 * of mostly other values is not packed. The device's unpacking
 * (src/gpu/unpack.cu) is checked against the CPU by the GPU tests. */
#include <stdlib.h>
#include <string.h>

#include "czk/fr_pack.h"
#include "czk/pool.h"
#include "test.h"

static czk_fr_pack_table T;

/* n values: other with probability p_other (per mille), else a small k */
static void fill(czk_rng *rng, czk_fr *v, size_t n, unsigned p_other) {
    for (size_t i = 0; i < n; i++) {
        if (czk_rng_next(rng) % 1000 < p_other) czk_fr_random(&v[i], rng);
        else v[i] = T.small[czk_rng_next(rng) % (2 * CZK_FR_PACK_SMALL + 1)];
    }
}

static size_t count_others(const czk_fr *v, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) {
        int small = 0;
        for (int k = 0; k <= 2 * CZK_FR_PACK_SMALL && !small; k++) small = czk_fr_equal(&v[i], &T.small[k]);
        c += !small;
    }
    return c;
}

static size_t cap_for(size_t n) { return czk_fr_pack_others_at(n) + n * sizeof(czk_fr); }

/* packs v on pool and without one, checks bytes, size and the round trip */
static void roundtrip(const czk_fr *v, size_t n, czk_pool *pool, const char *what) {
    const size_t cap = cap_for(n);
    void *a = malloc(cap), *b = malloc(cap);
    czk_fr *back = malloc(n * sizeof *back);
    memset(a, 0xa5, cap);
    memset(b, 0x5a, cap);
    size_t la = czk_fr_pack(&T, v, n, a, cap, pool), lb = czk_fr_pack(&T, v, n, b, cap, NULL);
    CHECK_MSG(la > 0 && la == lb, "%s: n=%zu packed %zu / %zu bytes", what, n, la, lb);
    if (la > 0 && la == lb) {
        CHECK_MSG(memcmp(a, b, la) == 0, "%s: pool and no pool differ", what);
        CHECK_MSG(la == czk_fr_pack_others_at(n) + count_others(v, n) * sizeof(czk_fr), "%s: size %zu", what, la);
        czk_fr_unpack(&T, a, n, back);
        CHECK_MSG(memcmp(back, v, n * sizeof *v) == 0, "%s: n=%zu does not come back", what, n);
    }
    free(a);
    free(b);
    free(back);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_fr_pack");
    czk_fr_pack_table_init(&T);
    czk_pool *pool = NULL;
    CHECK(czk_pool_create(&pool, 4) == CZK_OK);

    /* the table: k·1 is k·1, and every small value packs to one byte */
    czk_fr one = CZK_FR_ONE, three;
    czk_fr_add(&three, &one, &one);
    czk_fr_add(&three, &three, &one);
    CHECK(czk_fr_is_zero(&T.small[CZK_FR_PACK_SMALL]));
    CHECK(czk_fr_equal(&T.small[CZK_FR_PACK_SMALL + 1], &one));
    CHECK(czk_fr_equal(&T.small[CZK_FR_PACK_SMALL + 3], &three));
    roundtrip(T.small, 2 * CZK_FR_PACK_SMALL + 1, pool, "the small values");

    const size_t sizes[] = {1, 2, 63, 64, 1023, 1024, 1025, 4096 + 17, 100000};
    const unsigned mixes[] = {0, 1, 10, 300};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t m = 0; m < sizeof mixes / sizeof *mixes; m++) {
            const size_t n = sizes[s];
            czk_fr *v = malloc(n * sizeof *v);
            fill(&rng, v, n, mixes[m]);
            if (n > 4) czk_fr_random(&v[n - 1], &rng); /* the last value escaped */
            char what[64];
            snprintf(what, sizeof what, "mix %u per mille", mixes[m]);
            if (n > 4 || mixes[m] == 0) roundtrip(v, n, pool, what);
            free(v);
        }

    /* values that share a small value's low limb (the hash key) escape */
    {
        const size_t n = 3000;
        czk_fr *v = malloc(n * sizeof *v);
        fill(&rng, v, n, 0);
        for (size_t i = 0; i < n; i += 7) v[i].l[1 + i % 3] ^= 1ULL << (i % 61);
        roundtrip(v, n, pool, "low-limb twins");
        free(v);
    }

    /* mostly other values: not packed */
    {
        const size_t n = 50000;
        czk_fr *v = malloc(n * sizeof *v);
        fill(&rng, v, n, 900);
        void *dst = malloc(cap_for(n));
        CHECK(czk_fr_pack(&T, v, n, dst, cap_for(n), pool) == 0);
        CHECK(czk_fr_pack(&T, v, n, dst, cap_for(n) - 1, pool) == 0); /* too small a buffer */
        free(dst);
        free(v);
    }

    /* a SHA-256-like mix packs to about a byte a value */
    {
        const size_t n = CZK_FR_PACK_MAX;
        czk_fr *v = malloc(n * sizeof *v);
        fill(&rng, v, n, 1);
        void *dst = malloc(cap_for(n));
        size_t len = czk_fr_pack(&T, v, n, dst, cap_for(n), pool);
        CHECK_MSG(len > 0 && len < n * 2, "packed %zu bytes for %zu values", len, n);
        free(dst);
        /* the worst case that packs: all escaped but the 64 sampled values */
        for (size_t i = 0; i < n; i++) czk_fr_random(&v[i], &rng);
        for (unsigned s = 0; s < 64; s++) v[n * s / 64] = T.small[s % (2 * CZK_FR_PACK_SMALL + 1)];
        CHECK(cap_for(n) <= ((size_t)64 << 20));
        roundtrip(v, n, pool, "worst case");
        free(v);
    }
    /* packed vectors: chunk 1 of 3 mostly other values, the last one short */
    {
        const size_t n = 2 * CZK_FR_PACK_MAX + 12345, in_use0 = czk_mem_in_use(CZK_MEM_ABC);
        czk_fr *v = malloc(n * sizeof *v), *back = malloc(n * sizeof *back);
        fill(&rng, v, n, 3);
        fill(&rng, v + CZK_FR_PACK_MAX, CZK_FR_PACK_MAX, 900);
        czk_fr_packed *p = NULL;
        CHECK(czk_fr_packed_make(&p, v, n, CZK_MEM_ABC, pool) == CZK_OK && p);
        if (p) {
            CHECK_MSG(p->n == n && p->n_chunks == 3, "%zu values in %zu chunks", p->n, p->n_chunks);
            CHECK(p->chunks[0].packed && !p->chunks[1].packed && p->chunks[2].packed);
            CHECK(p->chunks[2].off == 2 * CZK_FR_PACK_MAX && p->chunks[2].n == 12345);
            const size_t bytes = czk_fr_packed_bytes(p);
            /* the plain chunk, and about a byte a value for the others */
            CHECK_MSG(bytes > CZK_FR_PACK_MAX * sizeof(czk_fr) &&
                          bytes < CZK_FR_PACK_MAX * sizeof(czk_fr) + 2 * (n - CZK_FR_PACK_MAX),
                      "%zu bytes", bytes);
            CHECK(czk_mem_in_use(CZK_MEM_ABC) - in_use0 == bytes);
            for (int with_pool = 0; with_pool < 2; with_pool++) {
                memset(back, 0x77, n * sizeof *back);
                czk_fr_packed_unpack(p, back, with_pool ? pool : NULL);
                CHECK_MSG(memcmp(back, v, n * sizeof *v) == 0, "packed vector (pool %d) does not come back",
                          with_pool);
            }
            czk_fr_packed_free(p);
        }
        CHECK(czk_mem_in_use(CZK_MEM_ABC) == in_use0);
        /* small vectors, one value and one group edge */
        const size_t lens[] = {1, 63, 64, CZK_FR_PACK_GROUP, CZK_FR_PACK_GROUP + 1, 5000};
        for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
            fill(&rng, v, lens[i], 100);
            v[0] = T.small[CZK_FR_PACK_SMALL]; /* a one-value vector still packs */
            CHECK(czk_fr_packed_make(&p, v, lens[i], CZK_MEM_ABC, NULL) == CZK_OK && p);
            if (!p) continue;
            czk_fr_packed_unpack(p, back, pool);
            CHECK_MSG(memcmp(back, v, lens[i] * sizeof *v) == 0, "n=%zu does not come back", lens[i]);
            czk_fr_packed_free(p);
        }
        /* packed, all other, packed, with the middle chunk just over half
         * of the vector (a sample over the whole vector would call it
         * mostly other; each chunk decides for itself) */
        const size_t mix = 2 * CZK_FR_PACK_MAX + 4097;
        fill(&rng, v, mix, 50);
        fill(&rng, v + CZK_FR_PACK_MAX, CZK_FR_PACK_MAX, 1000);
        CHECK(czk_fr_packed_make(&p, v, mix, CZK_MEM_ABC, pool) == CZK_OK && p);
        if (p) {
            CHECK(p->chunks[0].packed && !p->chunks[1].packed && p->chunks[2].packed);
            czk_fr_packed_unpack(p, back, pool);
            CHECK(memcmp(back, v, mix * sizeof *v) == 0);
            czk_fr_packed_free(p);
        }
        /* mostly other values: not packed, nothing held */
        fill(&rng, v, 100000, 900);
        p = (czk_fr_packed *)v;
        CHECK(czk_fr_packed_make(&p, v, 100000, CZK_MEM_ABC, pool) == CZK_OK && !p);
        CHECK(czk_fr_packed_make(&p, v, 0, CZK_MEM_ABC, pool) == CZK_OK && !p);
        CHECK(czk_mem_in_use(CZK_MEM_ABC) == in_use0);
        free(v);
        free(back);
    }
    czk_pool_destroy(pool);
    printf("test_fr_pack: %d failures\n", test_failures);
    return test_failures ? 1 : 0;
}
