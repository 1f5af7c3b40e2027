/* czk — Fr vectors packed for upload and for storage (czk/fr_pack.h). */
#include "czk/fr_pack.h"

#include <pthread.h>
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

/* a sample of 64 values of src[0 … n), evenly spread: are most of them
 * other values (then packing is not worth it)? */
static bool mostly_other(const czk_fr_pack_table *t, const czk_fr *src, size_t n) {
    unsigned other = 0, samples = n < 64 ? (unsigned)n : 64;
    for (unsigned s = 0; s < samples; s++) other += code_of(t, &src[n * s / samples]) == CZK_FR_PACK_ESC;
    return 2 * other > samples;
}

size_t czk_fr_pack(const czk_fr_pack_table *t, const czk_fr *src, size_t n, void *dst, size_t cap, czk_pool *pool) {
    if (n == 0 || n > CZK_FR_PACK_MAX || cap < czk_fr_pack_others_at(n) + n * sizeof(czk_fr)) return 0;
    if (mostly_other(t, src, n)) return 0;
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

/* ---- packed vectors ------------------------------------------------------------ */

static czk_fr_pack_table pack_table;
static pthread_once_t pack_table_once = PTHREAD_ONCE_INIT;
static void pack_table_make(void) { czk_fr_pack_table_init(&pack_table); }

const czk_fr_pack_table *czk_fr_pack_table_get(void) {
    pthread_once(&pack_table_once, pack_table_make);
    return &pack_table;
}

void czk_fr_packed_free(czk_fr_packed *v) {
    if (!v) return;
    for (size_t i = 0; v->chunks && i < v->n_chunks; i++) czk_mem_free(v->chunks[i].data);
    czk_mem_free(v->chunks);
    czk_mem_free(v);
}

size_t czk_fr_packed_bytes(const czk_fr_packed *v) {
    if (!v) return 0;
    size_t b = czk_mem_size(v) + czk_mem_size(v->chunks);
    for (size_t i = 0; i < v->n_chunks; i++) b += czk_mem_size(v->chunks[i].data);
    return b;
}

czk_err czk_fr_packed_new(czk_fr_packed **out, size_t n, czk_mem_tag tag) {
    *out = NULL;
    const size_t nc = (n + CZK_FR_PACK_MAX - 1) / CZK_FR_PACK_MAX;
    czk_fr_packed *v = czk_mem_alloc(sizeof *v, tag);
    if (!v || (nc && !(v->chunks = czk_mem_alloc(nc * sizeof *v->chunks, tag)))) {
        czk_mem_free(v);
        return CZK_ERR_NO_MEMORY;
    }
    v->n = n;
    v->n_chunks = nc;
    for (size_t i = 0; i < nc; i++) {
        v->chunks[i].off = i * CZK_FR_PACK_MAX;
        v->chunks[i].n = n - v->chunks[i].off < CZK_FR_PACK_MAX ? n - v->chunks[i].off : CZK_FR_PACK_MAX;
    }
    *out = v;
    return CZK_OK;
}

czk_err czk_fr_packed_set_chunk(czk_fr_packed *v, size_t i, const czk_fr *src, czk_mem_tag tag, czk_pool *pool) {
    if (i >= v->n_chunks || v->chunks[i].data) return CZK_ERR_INVALID_ARGUMENT;
    czk_fr_chunk *c = &v->chunks[i];
    /* packed into a scratch buffer of the worst case (only the packed bytes
     * of it are touched), then into a buffer of its size */
    void *scratch = czk_mem_alloc(czk_fr_pack_others_at(c->n) + c->n * sizeof(czk_fr), tag);
    if (!scratch) return CZK_ERR_NO_MEMORY;
    const size_t bytes = czk_fr_pack(czk_fr_pack_table_get(), src, c->n, scratch, czk_mem_size(scratch), pool);
    const size_t keep = bytes ? bytes : c->n * sizeof(czk_fr);
    void *data = czk_mem_alloc(keep, tag);
    if (data) memcpy(data, bytes ? scratch : (const void *)src, keep);
    czk_mem_free(scratch);
    if (!data) return CZK_ERR_NO_MEMORY;
    c->packed = bytes != 0;
    c->bytes = keep;
    c->data = data;
    return CZK_OK;
}

czk_err czk_fr_packed_make(czk_fr_packed **out, const czk_fr *src, size_t n, czk_mem_tag tag, czk_pool *pool) {
    *out = NULL;
    /* each chunk's own test (czk_fr_pack's sample) first: nothing is made
     * when no chunk would pack. One sample over the whole vector would not
     * do: a vector whose middle chunk is all other values can sample as
     * mostly other while its first and last chunks pack well. */
    bool any = false;
    for (size_t off = 0; off < n && !any; off += CZK_FR_PACK_MAX)
        any = !mostly_other(czk_fr_pack_table_get(), src + off, n - off < CZK_FR_PACK_MAX ? n - off : CZK_FR_PACK_MAX);
    if (!any) return CZK_OK;
    czk_fr_packed *v = NULL;
    czk_err e = czk_fr_packed_new(&v, n, tag);
    for (size_t i = 0; e == CZK_OK && i < v->n_chunks; i++)
        e = czk_fr_packed_set_chunk(v, i, src + v->chunks[i].off, tag, pool);
    if (e != CZK_OK) {
        czk_fr_packed_free(v);
        return e;
    }
    *out = v;
    return CZK_OK;
}

/* the groups of a full chunk: every chunk but the last is full */
#define CHUNK_GROUPS (CZK_FR_PACK_MAX / CZK_FR_PACK_GROUP)

typedef struct {
    const czk_fr_packed *v;
    const czk_fr_pack_table *t;
    czk_fr *out;
} unpack_job;

/* groups [begin, end) of the whole vector: group g is group g mod
 * CHUNK_GROUPS of chunk g / CHUNK_GROUPS */
static void unpack_groups(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    const unpack_job *j = ctx;
    for (size_t g = begin; g < end; g++) {
        const czk_fr_chunk *c = &j->v->chunks[g / CHUNK_GROUPS];
        const size_t lg = g % CHUNK_GROUPS, lo = lg * CZK_FR_PACK_GROUP;
        if (lo >= c->n) continue;
        const size_t hi = lo + CZK_FR_PACK_GROUP < c->n ? lo + CZK_FR_PACK_GROUP : c->n;
        czk_fr *out = j->out + c->off;
        if (!c->packed) {
            memcpy(out + lo, (const czk_fr *)c->data + lo, (hi - lo) * sizeof(czk_fr));
            continue;
        }
        const uint32_t *first = c->data;
        const uint8_t *code = (const uint8_t *)c->data + czk_fr_pack_codes_at(c->n);
        const czk_fr *others = (const czk_fr *)(const void *)((const uint8_t *)c->data + czk_fr_pack_others_at(c->n));
        uint32_t at = first[lg];
        for (size_t i = lo; i < hi; i++)
            out[i] = code[i] == CZK_FR_PACK_ESC ? others[at++] : j->t->small[(int8_t)code[i] + CZK_FR_PACK_SMALL];
    }
}

void czk_fr_packed_unpack(const czk_fr_packed *v, czk_fr *out, czk_pool *pool) {
    if (!v || !v->n_chunks) return;
    unpack_job j = {v, czk_fr_pack_table_get(), out};
    czk_pool_run(pool, v->n_chunks * CHUNK_GROUPS, 64, unpack_groups, &j);
}
