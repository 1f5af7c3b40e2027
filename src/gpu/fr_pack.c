/* czk — Fr vectors packed for upload (fr_pack.h). */
#include "fr_pack.h"

#include <string.h>

static unsigned slot_of(const czk_fr_pack_table *t, uint64_t low) { return (unsigned)((low * t->mul) >> 56); }

void czk_fr_pack_table_init(czk_fr_pack_table *t) {
    memset(t, 0, sizeof *t);
    czk_fr_set_zero(&t->small[CZK_FR_PACK_SMALL]);
    for (int k = 1; k <= CZK_FR_PACK_SMALL; k++) {
        czk_fr_add(&t->small[CZK_FR_PACK_SMALL + k], &t->small[CZK_FR_PACK_SMALL + k - 1], &CZK_FR_ONE);
        czk_fr_neg(&t->small[CZK_FR_PACK_SMALL - k], &t->small[CZK_FR_PACK_SMALL + k]);
    }
    memset(&t->cand[0], 0xff, sizeof t->cand[0]);
    t->code[0] = CZK_FR_PACK_ESC;
    for (int i = 0; i <= 2 * CZK_FR_PACK_SMALL; i++) {
        t->cand[i + 1] = t->small[i];
        t->code[i + 1] = (uint8_t)(int8_t)(i - CZK_FR_PACK_SMALL);
    }
    /* the first odd multiplier of a fixed sequence (splitmix64) that puts
     * the 33 low limbs in distinct slots of 256: about one in eight does */
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (;;) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        t->mul = (z ^ (z >> 31)) | 1;
        memset(t->slot, 0, sizeof t->slot);
        int i = 0;
        for (; i <= 2 * CZK_FR_PACK_SMALL; i++) {
            const unsigned s = slot_of(t, t->small[i].l[0]);
            if (t->slot[s]) break;
            t->slot[s] = (uint8_t)(i + 1);
        }
        if (i > 2 * CZK_FR_PACK_SMALL) return;
    }
}

/* the byte of v: its k (two's complement) when v = k·1, |k| <= SMALL, else
 * ESC. Branch-free: one probe of the perfect hash and a compare of all four
 * limbs (a probing loop with early exits took 5.8 ns a value on one core of
 * the device machine, against 3.5 for a copy). */
static inline uint8_t code_of(const czk_fr_pack_table *t, const czk_fr *v) {
    const unsigned c = t->slot[slot_of(t, v->l[0])];
    const czk_fr *p = &t->cand[c];
    const uint64_t diff = (p->l[0] ^ v->l[0]) | (p->l[1] ^ v->l[1]) | (p->l[2] ^ v->l[2]) | (p->l[3] ^ v->l[3]);
    return diff ? (uint8_t)CZK_FR_PACK_ESC : t->code[c];
}

/* x86-64 (SSE2 always there): the packing loop compares in 16-byte registers */
#if defined(__SSE2__) && defined(__x86_64__)
#define PACK_SSE2 1
#include <emmintrin.h>
/* code_of with the value in two 16-byte registers, compared with its
 * candidate in two instructions; the escaped value is stored from them */
static inline uint8_t code_sse2(const czk_fr_pack_table *t, const czk_fr *v, __m128i *lo, __m128i *hi) {
    const __m128i *q = (const __m128i *)(const void *)v;
    *lo = _mm_loadu_si128(q);
    *hi = _mm_loadu_si128(q + 1);
    const unsigned c = t->slot[slot_of(t, (uint64_t)_mm_cvtsi128_si64(*lo))];
    const __m128i *p = (const __m128i *)(const void *)&t->cand[c];
    const __m128i eq = _mm_and_si128(_mm_cmpeq_epi32(*lo, _mm_loadu_si128(p)), _mm_cmpeq_epi32(*hi, _mm_loadu_si128(p + 1)));
    return _mm_movemask_epi8(eq) == 0xffff ? t->code[c] : (uint8_t)CZK_FR_PACK_ESC;
}
#endif

typedef struct {
    const czk_fr_pack_table *t;
    const czk_fr *src;
    size_t n;
    uint32_t *first;
    uint8_t *code;
    czk_fr *others;
} pack_job;

/* phase 1: the codes of groups [begin, end), their escape counts in
 * first[g], and group g's escaped values at others[g·GROUP …] (the place
 * they would have if every value were escaped), while the source is in
 * cache (a second pass over the source for them took longer than this one) */
static void pack_codes(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    const pack_job *j = ctx;
    /* restrict locals: the byte stores of the codes would otherwise make
     * the compiler reload the job's and the table's fields every value */
    const czk_fr_pack_table *restrict t = j->t;
    const czk_fr *restrict src = j->src;
    uint8_t *restrict code = j->code;
    for (size_t g = begin; g < end; g++) {
        const size_t lo = g * CZK_FR_PACK_GROUP, hi = lo + CZK_FR_PACK_GROUP < j->n ? lo + CZK_FR_PACK_GROUP : j->n;
        czk_fr *restrict out = j->others + lo;
        uint32_t esc = 0;
        /* the escaped values are rare in the circuits packing is for, so
         * the branch is predicted (an unconditional store of every value
         * at out[esc] was slower) */
#ifdef PACK_SSE2
        for (size_t i = lo; i < hi; i++) {
            __m128i a, b;
            const uint8_t c = code_sse2(t, &src[i], &a, &b);
            code[i] = c;
            if (c == CZK_FR_PACK_ESC) {
                _mm_storeu_si128((__m128i *)(void *)&out[esc], a);
                _mm_storeu_si128((__m128i *)(void *)&out[esc] + 1, b);
                esc++;
            }
        }
#else
        for (size_t i = lo; i < hi; i++) {
            const uint8_t c = code_of(t, &src[i]);
            code[i] = c;
            if (c == CZK_FR_PACK_ESC) out[esc++] = src[i];
        }
#endif
        j->first[g] = esc;
    }
}

size_t czk_fr_pack(const czk_fr_pack_table *t, const czk_fr *src, size_t n, void *dst, size_t cap, czk_pool *pool) {
    if (n == 0 || n > CZK_FR_PACK_MAX || cap < czk_fr_pack_others_at(n) + n * sizeof(czk_fr)) return 0;
    /* a sample of 64 values, evenly spread: mostly other values -> not worth it */
    unsigned other = 0, samples = n < 64 ? (unsigned)n : 64;
    for (unsigned s = 0; s < samples; s++) other += code_of(t, &src[n * s / samples]) == CZK_FR_PACK_ESC;
    if (2 * other > samples) return 0;
    const size_t groups = czk_fr_pack_groups(n);
    pack_job j = {t, src, n, dst, (uint8_t *)dst + czk_fr_pack_codes_at(n),
                  (czk_fr *)(void *)((uint8_t *)dst + czk_fr_pack_others_at(n))};
    /* the padding after the group table and after the codes, zeroed: the
     * packed bytes depend on the values only */
    const size_t table_end = (groups + 1) * sizeof(uint32_t), codes_end = czk_fr_pack_codes_at(n) + n;
    memset((uint8_t *)dst + table_end, 0, czk_fr_pack_codes_at(n) - table_end);
    memset((uint8_t *)dst + codes_end, 0, czk_fr_pack_others_at(n) - codes_end);
    czk_pool_run(pool, groups, 16, pack_codes, &j);
    uint32_t sum = 0;
    for (size_t g = 0; g < groups; g++) {
        const uint32_t c = j.first[g];
        j.first[g] = sum;
        sum += c;
    }
    j.first[groups] = sum;
    /* phase 3: each group's escaped values down to their place, in group
     * order: group g's place ends at first[g+1] <= (g+1)·GROUP, below every
     * later group's values, so no move overwrites values still to move */
    for (size_t g = 0; g < groups; g++)
        if (j.first[g + 1] > j.first[g])
            memmove(j.others + j.first[g], j.others + g * CZK_FR_PACK_GROUP,
                    (size_t)(j.first[g + 1] - j.first[g]) * sizeof(czk_fr));
    return czk_fr_pack_others_at(n) + (size_t)sum * sizeof(czk_fr);
}

void czk_fr_unpack(const czk_fr_pack_table *t, const void *packed, size_t n, czk_fr *out) {
    const uint32_t *first = packed;
    const uint8_t *code = (const uint8_t *)packed + czk_fr_pack_codes_at(n);
    const czk_fr *others = (const czk_fr *)(const void *)((const uint8_t *)packed + czk_fr_pack_others_at(n));
    for (size_t g = 0; g < czk_fr_pack_groups(n); g++) {
        uint32_t at = first[g];
        const size_t lo = g * CZK_FR_PACK_GROUP, hi = lo + CZK_FR_PACK_GROUP < n ? lo + CZK_FR_PACK_GROUP : n;
        for (size_t i = lo; i < hi; i++)
            out[i] = code[i] == CZK_FR_PACK_ESC ? others[at++] : t->small[(int8_t)code[i] + CZK_FR_PACK_SMALL];
    }
}
