/* czk — Fr vectors packed for upload (fr_pack.h). */
#include "fr_pack.h"

#include <string.h>

static unsigned slot_of(uint64_t low) { return (unsigned)((low * 0x9E3779B97F4A7C15ULL) >> 58); }

void czk_fr_pack_table_init(czk_fr_pack_table *t) {
    memset(t, 0, sizeof *t);
    czk_fr_set_zero(&t->small[CZK_FR_PACK_SMALL]);
    for (int k = 1; k <= CZK_FR_PACK_SMALL; k++) {
        czk_fr_add(&t->small[CZK_FR_PACK_SMALL + k], &t->small[CZK_FR_PACK_SMALL + k - 1], &CZK_FR_ONE);
        czk_fr_neg(&t->small[CZK_FR_PACK_SMALL - k], &t->small[CZK_FR_PACK_SMALL + k]);
    }
    for (int i = 0; i <= 2 * CZK_FR_PACK_SMALL; i++) {
        unsigned s = slot_of(t->small[i].l[0]);
        while (t->slot_code[s]) s = (s + 1) & 63;
        t->slot_code[s] = (uint8_t)(i + 1);
    }
}

/* the byte of v: its k (two's complement) when v = k·1, |k| <= SMALL, else
 * ESC, through a hash of the low limb (a test of 0 and 1 first, with or
 * without branches, was slower on a mix of them: 10-13 against 6 ns a value
 * on one core) */
static uint8_t code_of(const czk_fr_pack_table *t, const czk_fr *v) {
    for (unsigned s = slot_of(v->l[0]); t->slot_code[s]; s = (s + 1) & 63) {
        const czk_fr *c = &t->small[t->slot_code[s] - 1];
        if (c->l[0] == v->l[0] && c->l[1] == v->l[1] && c->l[2] == v->l[2] && c->l[3] == v->l[3])
            return (uint8_t)(int8_t)(t->slot_code[s] - 1 - CZK_FR_PACK_SMALL);
    }
    return CZK_FR_PACK_ESC;
}

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
    pack_job *j = ctx;
    for (size_t g = begin; g < end; g++) {
        const size_t lo = g * CZK_FR_PACK_GROUP, hi = lo + CZK_FR_PACK_GROUP < j->n ? lo + CZK_FR_PACK_GROUP : j->n;
        czk_fr *out = j->others + lo;
        uint32_t esc = 0;
        for (size_t i = lo; i < hi; i++) {
            const uint8_t c = code_of(j->t, &j->src[i]);
            j->code[i] = c;
            if (c == CZK_FR_PACK_ESC) out[esc++] = j->src[i];
        }
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
