/* czk — bincode 1.3 reader and writer, and MerkleProof in it (bincode.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bincode.h"
#include "czk/fr.h"

/* ---- reader ------------------------------------------------------------------ */

void czk_bc_reader_init(czk_bc_reader *r, const uint8_t *data, size_t len, const char *root, char *msg,
                        size_t msglen) {
    memset(r, 0, sizeof *r);
    r->p = data;
    r->len = data ? len : 0;
    r->msg = msg;
    r->msglen = msglen;
    if (root) {
        snprintf(r->path, sizeof r->path, "%s", root);
        r->path_len = strlen(r->path);
    }
    if (msg && msglen) msg[0] = 0;
}

size_t czk_bc_enter(czk_bc_reader *r, const char *fmt, ...) {
    const size_t mark = r->path_len;
    if (r->path_len + 1 < sizeof r->path) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->path + r->path_len, sizeof r->path - r->path_len, fmt, ap);
        va_end(ap);
        r->path_len = strlen(r->path);
    }
    return mark;
}

void czk_bc_leave(czk_bc_reader *r, size_t mark) {
    if (mark < sizeof r->path) r->path_len = mark, r->path[mark] = 0;
}

czk_err czk_bc_fail(czk_bc_reader *r, czk_err e, const char *field, const char *fmt, ...) {
    if (!r->msg || !r->msglen) return e;
    int n = snprintf(r->msg, r->msglen, "%s%s%s: ", r->path, field && r->path_len ? "." : "", field ? field : "");
    if (n < 0) n = 0;
    if ((size_t)n < r->msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->msg + n, r->msglen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return e;
}

static czk_err need(czk_bc_reader *r, const char *field, size_t n) {
    if (r->len - r->pos >= n) return CZK_OK;
    return czk_bc_fail(r, CZK_ERR_FORMAT, field, "truncated: needs %zu bytes at offset %zu, %zu left", n, r->pos,
                       r->len - r->pos);
}

czk_err czk_bc_bytes(czk_bc_reader *r, const char *field, void *out, size_t n) {
    czk_err e = need(r, field, n);
    if (e) return e;
    memcpy(out, r->p + r->pos, n);
    r->pos += n;
    return CZK_OK;
}

czk_err czk_bc_u8(czk_bc_reader *r, const char *field, uint8_t *out) { return czk_bc_bytes(r, field, out, 1); }

czk_err czk_bc_u32(czk_bc_reader *r, const char *field, uint32_t *out) {
    uint8_t b[4];
    czk_err e = czk_bc_bytes(r, field, b, 4);
    if (e) return e;
    *out = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return CZK_OK;
}

czk_err czk_bc_u64(czk_bc_reader *r, const char *field, uint64_t *out) {
    uint8_t b[8];
    czk_err e = czk_bc_bytes(r, field, b, 8);
    if (e) return e;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    *out = v;
    return CZK_OK;
}

czk_err czk_bc_len(czk_bc_reader *r, const char *field, uint64_t max, size_t min_elem, uint64_t *out) {
    const size_t at = r->pos;
    uint64_t n;
    czk_err e = czk_bc_u64(r, field, &n);
    if (e) return e;
    if (n > max)
        return czk_bc_fail(r, CZK_ERR_FORMAT, field, "length %llu at offset %zu is above the limit %llu",
                           (unsigned long long)n, at, (unsigned long long)max);
    if (min_elem && n > (r->len - r->pos) / min_elem)
        return czk_bc_fail(r, CZK_ERR_FORMAT, field,
                           "truncated: length %llu at offset %zu needs at least %llu bytes, %zu left",
                           (unsigned long long)n, at, (unsigned long long)(n * min_elem), r->len - r->pos);
    *out = n;
    return CZK_OK;
}

czk_err czk_bc_tag(czk_bc_reader *r, const char *field, uint32_t n_variants, uint32_t *out) {
    const size_t at = r->pos;
    uint32_t t;
    czk_err e = czk_bc_u32(r, field, &t);
    if (e) return e;
    if (t >= n_variants)
        return czk_bc_fail(r, CZK_ERR_FORMAT, field, "variant tag %u at offset %zu, the enum has %u", t, at,
                           n_variants);
    *out = t;
    return CZK_OK;
}

czk_err czk_bc_option(czk_bc_reader *r, const char *field, bool *some) {
    const size_t at = r->pos;
    uint8_t t;
    czk_err e = czk_bc_u8(r, field, &t);
    if (e) return e;
    if (t > 1) return czk_bc_fail(r, CZK_ERR_FORMAT, field, "Option tag %u at offset %zu is neither 0 nor 1", t, at);
    *some = t == 1;
    return CZK_OK;
}

czk_err czk_bc_domain(czk_bc_reader *r, const char *field, czk_bc_domain_kind kind, uint8_t out[32]) {
    const size_t at = r->pos;
    czk_err e = czk_bc_bytes(r, field, out, 32);
    if (e) return e;
    if (kind == CZK_BC_POSEIDON) {
        czk_fr x;
        if (!czk_fr_from_bytes_le(&x, out))
            return czk_bc_fail(r, CZK_ERR_NOT_CANONICAL, field, "the Poseidon domain at offset %zu is not below r", at);
    } else if (kind == CZK_BC_SHA256 && (out[31] & 0xc0)) {
        return czk_bc_fail(r, CZK_ERR_NOT_CANONICAL, field,
                           "the SHA-256 domain at offset %zu has a top bit set (byte 31 is 0x%02x)", at, out[31]);
    }
    return CZK_OK;
}

czk_err czk_bc_end(czk_bc_reader *r) {
    if (r->pos == r->len) return CZK_OK;
    return czk_bc_fail(r, CZK_ERR_FORMAT, NULL, "%zu trailing bytes at offset %zu", r->len - r->pos, r->pos);
}

/* ---- writer ------------------------------------------------------------------ */

void czk_bc_w_bytes(czk_bc_writer *w, const void *data, size_t n) {
    if (w->oom || n == 0) return;
    if (n > w->cap - w->len) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap - w->len < n) {
            if (cap > SIZE_MAX / 2) {
                w->oom = true;
                return;
            }
            cap *= 2;
        }
        uint8_t *p = realloc(w->p, cap);
        if (!p) {
            w->oom = true;
            return;
        }
        w->p = p, w->cap = cap;
    }
    memcpy(w->p + w->len, data, n);
    w->len += n;
}

void czk_bc_w_u8(czk_bc_writer *w, uint8_t v) { czk_bc_w_bytes(w, &v, 1); }

void czk_bc_w_u32(czk_bc_writer *w, uint32_t v) {
    const uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    czk_bc_w_bytes(w, b, 4);
}

void czk_bc_w_u64(czk_bc_writer *w, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    czk_bc_w_bytes(w, b, 8);
}

czk_err czk_bc_writer_take(czk_bc_writer *w, uint8_t **out, size_t *len) {
    if (w->oom) {
        czk_bc_writer_free(w);
        *out = NULL, *len = 0;
        return CZK_ERR_NO_MEMORY;
    }
    *out = w->p, *len = w->len;
    memset(w, 0, sizeof *w);
    return CZK_OK;
}

void czk_bc_writer_free(czk_bc_writer *w) {
    free(w->p);
    memset(w, 0, sizeof *w);
}

/* ---- MerkleProof ---------------------------------------------------------------- */

czk_err czk_bc_tree_shape_r(uint64_t nodes, uint8_t base, uint8_t sub, uint8_t top, czk_bc_tree_shape *out) {
    memset(out, 0, sizeof *out);
    if ((base != 2 && base != 4 && base != 8) || (sub != 0 && sub != 2 && sub != 4 && sub != 8) ||
        (top != 0 && top != 2 && top != 4 && top != 8) || (top && !sub))
        return CZK_ERR_INVALID_ARGUMENT;
    uint64_t leaves = nodes;
    if (sub) {
        if (leaves % sub) return CZK_ERR_INVALID_ARGUMENT;
        leaves /= sub;
    }
    if (top) {
        if (leaves % top) return CZK_ERR_INVALID_ARGUMENT;
        leaves /= top;
    }
    uint32_t levels = 0;
    while (leaves > 1) {
        if (leaves % base) return CZK_ERR_INVALID_ARGUMENT;
        leaves /= base, levels++;
    }
    if (leaves != 1) return CZK_ERR_INVALID_ARGUMENT;
    *out = (czk_bc_tree_shape){CZK_BC_POSEIDON, base, sub, top, levels};
    return CZK_OK;
}

uint32_t czk_bc_shape_variant(const czk_bc_tree_shape *s) { return s->top_arity ? 2u : s->sub_arity ? 1u : 0u; }

size_t czk_bc_shape_levels(const czk_bc_tree_shape *s) {
    return (size_t)s->base_levels + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
}

uint64_t czk_bc_path_index(const czk_fil_path *path) {
    uint64_t pos = 0, mult = 1;
    for (size_t l = 0; l < path->n_levels; l++) {
        pos += mult * path->levels[l].index;
        mult *= path->levels[l].arity;
    }
    return pos;
}

static const char *const VARIANT[3] = {"Single", "Sub", "Top"};

/* One InclusionPath of n levels of arity into levels[0 .. n). */
static czk_err read_inclusion(czk_bc_reader *r, const char *name, czk_bc_domain_kind kind, uint8_t arity, size_t n,
                              czk_fil_path_level *levels) {
    const size_t m0 = czk_bc_enter(r, "%s", name);
    uint64_t got;
    /* a PathElement is at least its hashes' length and its index */
    czk_err e = czk_bc_len(r, "path", UINT32_MAX, 16, &got);
    if (!e && got != n)
        e = czk_bc_fail(r, CZK_ERR_MISMATCH, "path", "%llu levels, the tree has %zu here", (unsigned long long)got, n);
    for (size_t l = 0; !e && l < n; l++) {
        const size_t m1 = czk_bc_enter(r, ".path[%zu]", l);
        czk_fil_path_level *lv = &levels[l];
        memset(lv, 0, sizeof *lv);
        lv->arity = arity;
        uint64_t h, idx;
        e = czk_bc_len(r, "hashes", UINT32_MAX, 32, &h);
        if (!e && h != (uint64_t)arity - 1)
            e = czk_bc_fail(r, CZK_ERR_MISMATCH, "hashes", "%llu hashes, the arity %u takes %u",
                            (unsigned long long)h, arity, arity - 1u);
        for (unsigned j = 0; !e && j + 1u < arity; j++) {
            char f[24];
            snprintf(f, sizeof f, "hashes[%u]", j);
            e = czk_bc_domain(r, f, kind, lv->siblings[j]);
        }
        if (!e) e = czk_bc_u64(r, "index", &idx);
        if (!e && idx >= arity)
            e = czk_bc_fail(r, CZK_ERR_FORMAT, "index", "%llu is not below the arity %u", (unsigned long long)idx,
                            arity);
        if (!e) lv->index = (uint8_t)idx;
        if (!e) czk_bc_leave(r, m1);
    }
    if (!e) czk_bc_leave(r, m0);
    return e;
}

czk_err czk_bc_merkle_read(czk_bc_reader *r, const char *field, const czk_bc_tree_shape *s, uint8_t leaf[32],
                           uint8_t root[32], czk_fil_path *path) {
    memset(path, 0, sizeof *path);
    const int dot = r->path_len && field && field[0] && field[0] != '[' && field[0] != '.';
    const size_t m0 = czk_bc_enter(r, "%s%s", dot ? "." : "", field ? field : "");
    const uint32_t want = czk_bc_shape_variant(s);
    const size_t n = czk_bc_shape_levels(s);
    uint32_t tag;
    czk_err e = czk_bc_tag(r, "data", 3, &tag);
    if (!e && tag != want)
        e = czk_bc_fail(r, CZK_ERR_MISMATCH, "data", "a %s proof, the tree takes %s", VARIANT[tag], VARIANT[want]);
    if (e) return e;
    path->levels = calloc(n ? n : 1, sizeof *path->levels);
    if (!path->levels) return czk_bc_fail(r, CZK_ERR_NO_MEMORY, NULL, "out of memory");
    path->n_levels = n;
    if (want == 0) {
        e = czk_bc_domain(r, "root", s->kind, root);
        if (!e) e = czk_bc_domain(r, "leaf", s->kind, leaf);
        if (!e) e = read_inclusion(r, "", s->kind, s->base_arity, s->base_levels, path->levels);
    } else {
        e = read_inclusion(r, ".base_proof", s->kind, s->base_arity, s->base_levels, path->levels);
        if (!e) e = read_inclusion(r, ".sub_proof", s->kind, s->sub_arity, 1, path->levels + s->base_levels);
        if (!e && want == 2)
            e = read_inclusion(r, ".top_proof", s->kind, s->top_arity, 1, path->levels + s->base_levels + 1);
        if (!e) e = czk_bc_domain(r, "root", s->kind, root);
        if (!e) e = czk_bc_domain(r, "leaf", s->kind, leaf);
    }
    if (e) {
        free(path->levels);
        memset(path, 0, sizeof *path);
        return e;
    }
    czk_bc_leave(r, m0);
    return CZK_OK;
}

static void write_inclusion(czk_bc_writer *w, const czk_fil_path_level *levels, size_t n) {
    czk_bc_w_u64(w, n);
    for (size_t l = 0; l < n; l++) {
        czk_bc_w_u64(w, (uint64_t)levels[l].arity - 1);
        for (unsigned j = 0; j + 1u < levels[l].arity; j++) czk_bc_w_bytes(w, levels[l].siblings[j], 32);
        czk_bc_w_u64(w, levels[l].index);
    }
}

/* inclusion: u64 length, then per level u64 hash count, the hashes, u64 index */
static size_t inclusion_bytes(size_t levels, unsigned arity) { return 8 + levels * (8 + (arity - 1) * 32u + 8); }

size_t czk_bc_merkle_bytes(const czk_bc_tree_shape *s) {
    const uint32_t v = czk_bc_shape_variant(s);
    size_t n = 4 + 64 + inclusion_bytes(s->base_levels, s->base_arity); /* tag, root and leaf, base */
    if (v >= 1) n += inclusion_bytes(1, s->sub_arity);
    if (v == 2) n += inclusion_bytes(1, s->top_arity);
    return n;
}

czk_err czk_bc_merkle_write(czk_bc_writer *w, const czk_bc_tree_shape *s, const uint8_t leaf[32],
                            const uint8_t root[32], const czk_fil_path *path) {
    const size_t n = czk_bc_shape_levels(s);
    if (path->n_levels != n || (n && !path->levels)) return CZK_ERR_INVALID_ARGUMENT;
    for (size_t l = 0; l < n; l++) {
        const unsigned a = l < s->base_levels ? s->base_arity : l == s->base_levels ? s->sub_arity : s->top_arity;
        if (path->levels[l].arity != a || path->levels[l].index >= a) return CZK_ERR_INVALID_ARGUMENT;
    }
    const uint32_t v = czk_bc_shape_variant(s);
    czk_bc_w_u32(w, v);
    if (v == 0) {
        czk_bc_w_bytes(w, root, 32);
        czk_bc_w_bytes(w, leaf, 32);
        write_inclusion(w, path->levels, n);
    } else {
        write_inclusion(w, path->levels, s->base_levels);
        write_inclusion(w, path->levels + s->base_levels, 1);
        if (v == 2) write_inclusion(w, path->levels + s->base_levels + 1, 1);
        czk_bc_w_bytes(w, root, 32);
        czk_bc_w_bytes(w, leaf, 32);
    }
    return w->oom ? CZK_ERR_NO_MEMORY : CZK_OK;
}
