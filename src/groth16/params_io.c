/* czk — bellperson's parameter files (Parameters::write/read): the vk, then
 * h, l, a, b_g1 (G1) and b_g2 (G2), each a u32 big-endian count followed by
 * uncompressed points. Points are encoded and decoded in parallel. */
#include "czk/groth16_io.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "czk/mem.h"
#include "io_internal.h"

#define G1U CZK_G1_UNCOMPRESSED_BYTES
#define G2U CZK_G2_UNCOMPRESSED_BYTES
#define N_SECTIONS 5
#define WRITE_CHUNK ((size_t)1 << 16) /* points encoded per write when streaming to a file */

static const char *const SECTION_NAME[N_SECTIONS] = {"h", "l", "a", "b_g1", "b_g2"};

static int section_is_g2(int s) { return s == 4; }
static size_t section_point_bytes(int s) { return section_is_g2(s) ? G2U : G1U; }

static void *section_array(const czk_params *p, int s, size_t *n) {
    switch (s) {
    case 0: *n = p->n_h; return p->h;
    case 1: *n = p->n_l; return p->l;
    case 2: *n = p->n_a; return p->a;
    case 3: *n = p->n_b_g1; return p->b_g1;
    default: *n = p->n_b_g2; return p->b_g2;
    }
}

void czk_params_free(czk_params *p) {
    if (!p) return;
    czk_vk_free(&p->vk);
    czk_mem_free(p->h);
    czk_mem_free(p->l);
    czk_mem_free(p->a);
    czk_mem_free(p->b_g1);
    czk_mem_free(p->b_g2);
    *p = (czk_params){0};
}

/* ---- encoding ------------------------------------------------------------------ */

static size_t grain_for(size_t n, czk_pool *pool) {
    size_t g = n / ((size_t)czk_pool_slots(pool) * 16);
    if (g < 64) g = 64;
    if (g > 65536) g = 65536;
    return g;
}

typedef struct {
    const void *points;
    uint8_t *out;
    int g2;
} encode_ctx;

static void encode_task(void *vctx, size_t begin, size_t end, int worker) {
    const encode_ctx *c = vctx;
    for (size_t i = begin; i < end; i++) {
        if (c->g2) czk_g2_to_uncompressed(c->out + i * G2U, (const czk_g2_affine *)c->points + i);
        else czk_g1_to_uncompressed(c->out + i * G1U, (const czk_g1_affine *)c->points + i);
    }
}

static void encode_points(uint8_t *out, const void *points, size_t n, int g2, czk_pool *pool) {
    encode_ctx c = {points, out, g2};
    czk_pool_run(pool, n, grain_for(n, pool), encode_task, &c);
}

/* Every point must be writable in a form bellperson's reader accepts. */
static czk_err check_params(const czk_params *p, char *msg, size_t msglen) {
    if (!p) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params: no parameters given");
    czk_err e = czk_io_vk_check(&p->vk, msg, msglen);
    if (e != CZK_OK) return e;
    for (int s = 0; s < N_SECTIONS; s++) {
        size_t n;
        const void *a = section_array(p, s, &n);
        if (n > UINT32_MAX)
            return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                               "params: section %s has %zu points, more than a u32 count holds", SECTION_NAME[s], n);
        if (n > 0 && !a)
            return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params: section %s: %zu points but no array",
                               SECTION_NAME[s], n);
        for (size_t i = 0; i < n; i++) {
            bool inf = section_is_g2(s) ? czk_g2_affine_is_infinity((const czk_g2_affine *)a + i)
                                        : czk_g1_affine_is_infinity((const czk_g1_affine *)a + i);
            if (inf)
                return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                                   "params: section %s, point %zu is the point at infinity, which bellperson's "
                                   "reader rejects",
                                   SECTION_NAME[s], i);
        }
    }
    return CZK_OK;
}

size_t czk_params_encoded_size(const czk_params *p) {
    size_t total = czk_vk_encoded_size(p->vk.n_ic);
    for (int s = 0; s < N_SECTIONS; s++) {
        size_t n;
        section_array(p, s, &n);
        total += 4 + n * section_point_bytes(s);
    }
    return total;
}

czk_err czk_params_encode(const czk_params *p, uint8_t *out, size_t cap, size_t *len, czk_pool *pool, char *msg,
                          size_t msglen) {
    if (!len) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params: len must not be NULL");
    *len = p ? czk_params_encoded_size(p) : 0;
    czk_err e = check_params(p, msg, msglen);
    if (e != CZK_OK || !out) return e;
    if (cap < *len)
        return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                           "params: the buffer holds %zu bytes, the parameters need %zu", cap, *len);
    czk_io_vk_put(out, &p->vk);
    uint8_t *o = out + czk_vk_encoded_size(p->vk.n_ic);
    for (int s = 0; s < N_SECTIONS; s++) {
        size_t n;
        const void *a = section_array(p, s, &n);
        czk_io_put_u32(o, (uint32_t)n);
        o += 4;
        encode_points(o, a, n, section_is_g2(s), pool);
        o += n * section_point_bytes(s);
    }
    return CZK_OK;
}

czk_err czk_params_write(const czk_params *p, const char *path, char *msg, size_t msglen) {
    czk_err e = check_params(p, msg, msglen);
    if (e != CZK_OK) return e;
    size_t vk_len = czk_vk_encoded_size(p->vk.n_ic);
    size_t buf_len = WRITE_CHUNK * G2U > vk_len ? WRITE_CHUNK * G2U : vk_len;
    uint8_t *buf = malloc(buf_len);
    if (!buf) return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "params: out of memory (%zu bytes)", buf_len);
    czk_io_out o;
    e = czk_io_out_open(&o, path, msg, msglen);
    if (e != CZK_OK) {
        free(buf);
        return e;
    }
    czk_pool *pool = czk_pool_default();
    czk_io_vk_put(buf, &p->vk);
    czk_io_out_write(&o, buf, vk_len);
    for (int s = 0; s < N_SECTIONS && !o.failed; s++) {
        size_t n;
        const uint8_t *a = section_array(p, s, &n);
        int g2 = section_is_g2(s);
        size_t psize = section_point_bytes(s);
        size_t esize = g2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
        uint8_t cnt[4];
        czk_io_put_u32(cnt, (uint32_t)n);
        czk_io_out_write(&o, cnt, 4);
        for (size_t i = 0; i < n && !o.failed; i += WRITE_CHUNK) {
            size_t k = n - i < WRITE_CHUNK ? n - i : WRITE_CHUNK;
            encode_points(buf, a + i * esize, k, g2, pool);
            czk_io_out_write(&o, buf, k * psize);
        }
    }
    free(buf);
    return czk_io_out_commit(&o, msg, msglen);
}

/* ---- decoding ------------------------------------------------------------------ */

typedef struct {
    size_t offset; /* of the first point */
    size_t n;
} section_span;

/* Counts against the bytes left, section by section, and no trailing bytes.
 * Reads only the counts. */
static czk_err layout(section_span span[N_SECTIONS], const uint8_t *in, size_t len, char *msg, size_t msglen) {
    size_t off;
    czk_err e = czk_io_vk_layout(in, len, &off, "params: vk", msg, msglen);
    if (e != CZK_OK) return e;
    for (int s = 0; s < N_SECTIONS; s++) {
        if (len - off < 4)
            return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                               "params: truncated at the count of section %s: it needs bytes [%zu, %zu), the data "
                               "has %zu",
                               SECTION_NAME[s], off, off + 4, len);
        size_t n = czk_io_get_u32(in + off);
        off += 4;
        size_t psize = section_point_bytes(s);
        size_t left = len - off;
        if (n > left / psize)
            return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                               "params: section %s: count %zu needs %zu bytes of points at offset %zu, only %zu "
                               "bytes are left",
                               SECTION_NAME[s], n, n * psize, off, left);
        span[s] = (section_span){off, n};
        off += n * psize;
    }
    if (off != len)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                           "params: %zu trailing bytes after the last section (b_g2 ends at offset %zu)", len - off,
                           off);
    return CZK_OK;
}

typedef struct {
    const uint8_t *in;
    void *out;
    int g2;
    czk_decode_mode mode;
    atomic_size_t bad; /* lowest index of a rejected point, SIZE_MAX if none */
} decode_ctx;

/* One point: the decoder's verdict, with infinity rejected as bellperson does
 * (reported as CZK_ERR__COUNT). */
static czk_err decode_one(const decode_ctx *c, size_t i) {
    if (c->g2) {
        czk_g2_affine *r = (czk_g2_affine *)c->out + i;
        czk_err e = czk_g2_decode_uncompressed(r, c->in + i * G2U, c->mode);
        if (e == CZK_OK && czk_g2_affine_is_infinity(r)) e = CZK_ERR__COUNT;
        return e;
    }
    czk_g1_affine *r = (czk_g1_affine *)c->out + i;
    czk_err e = czk_g1_decode_uncompressed(r, c->in + i * G1U, c->mode);
    if (e == CZK_OK && czk_g1_affine_is_infinity(r)) e = CZK_ERR__COUNT;
    return e;
}

static void decode_task(void *vctx, size_t begin, size_t end, int worker) {
    decode_ctx *c = vctx;
    for (size_t i = begin; i < end; i++) {
        if (i > atomic_load_explicit(&c->bad, memory_order_relaxed)) return;
        if (decode_one(c, i) == CZK_OK) continue;
        size_t cur = atomic_load(&c->bad);
        while (i < cur && !atomic_compare_exchange_weak(&c->bad, &cur, i)) {
        }
        return;
    }
}

czk_err czk_params_decode(czk_params *out, const uint8_t *in, size_t len, czk_decode_mode mode, czk_pool *pool,
                          char *msg, size_t msglen) {
    if (!out) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params: no output given");
    *out = (czk_params){0};
    if (!in && len > 0) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params: no input given");
    if (mode != CZK_DECODE_CHECKED && mode != CZK_DECODE_TRUSTED)
        return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params: unknown decode mode %d", (int)mode);
    section_span span[N_SECTIONS];
    czk_err e = layout(span, in, len, msg, msglen);
    if (e != CZK_OK) return e;

    czk_params p = {0};
    size_t used;
    e = czk_io_vk_parse(&p.vk, in, len, &used, "params: vk", msg, msglen);
    if (e != CZK_OK) return e;

    void **arrays[N_SECTIONS] = {(void **)&p.h, (void **)&p.l, (void **)&p.a, (void **)&p.b_g1, (void **)&p.b_g2};
    size_t *counts[N_SECTIONS] = {&p.n_h, &p.n_l, &p.n_a, &p.n_b_g1, &p.n_b_g2};
    for (int s = 0; s < N_SECTIONS; s++) {
        size_t n = span[s].n;
        if (n == 0) continue;
        int g2 = section_is_g2(s);
        size_t esize = g2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
        void *arr = czk_mem_alloc(n * esize, CZK_MEM_SRS);
        if (!arr) {
            czk_params_free(&p);
            return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "params: out of memory for %zu points of section %s",
                               n, SECTION_NAME[s]);
        }
        *arrays[s] = arr;
        *counts[s] = n;
        decode_ctx c = {in + span[s].offset, arr, g2, mode, SIZE_MAX};
        czk_pool_run(pool, n, grain_for(n, pool), decode_task, &c);
        size_t bad = atomic_load(&c.bad);
        if (bad != SIZE_MAX) {
            czk_err why = decode_one(&c, bad);
            size_t off = span[s].offset + bad * section_point_bytes(s);
            if (why == CZK_ERR__COUNT)
                czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                            "params: section %s, point %zu of %zu (offset %zu): point at infinity (bellperson "
                            "rejects it)",
                            SECTION_NAME[s], bad, n, off);
            else
                czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "params: section %s, point %zu of %zu (offset %zu): %s",
                            SECTION_NAME[s], bad, n, off, czk_err_str(why));
            czk_params_free(&p);
            return CZK_ERR_FORMAT;
        }
    }
    *out = p;
    return CZK_OK;
}

czk_err czk_params_read(czk_params *out, const char *path, czk_decode_mode mode, czk_pool *pool, char *msg,
                        size_t msglen) {
    if (!out) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params: no output given");
    *out = (czk_params){0};
    czk_io_map m;
    czk_err e = czk_io_map_open(&m, path, msg, msglen);
    if (e != CZK_OK) return e;
    char inner[512] = "";
    e = czk_params_decode(out, m.data, m.len, mode, pool, inner, sizeof inner);
    czk_io_map_close(&m);
    if (e != CZK_OK) czk_io_fail(e, msg, msglen, "%s: %s", path, inner);
    return e;
}
