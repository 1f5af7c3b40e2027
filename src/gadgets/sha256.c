/* czk — bellperson's gadgets::sha256 (sha256_compression_function,
 * sha256_block_no_padding, sha256). See gadget_sha256.h.
 *
 * Two implementations of the same R1CS:
 *  - the bit-level one (RECORD and CHECK modes) follows bellperson line by
 *    line on czk_uint32 values;
 *  - the word-level one (WITNESS mode) keeps each 32-bit word as three
 *    masks (value, constant bits, negated bits) and, for every gadget,
 *    allocates exactly the aux variables bellperson's would, in its order,
 *    and counts its constraints. Bits that meet a constant go through the
 *    Boolean gadgets (their constant folding), the rest are done inline. */
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_sha256.h"
#include "gadget_internal.h"

static const uint32_t ROUND_CONSTANTS[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void czk_sha256_iv(czk_uint32 out[8]) {
    for (int i = 0; i < 8; i++) out[i] = czk_uint32_constant(IV[i]);
}

/* ======================= bit-level (RECORD / CHECK) ======================= */

/* bellperson's Maybe: a concrete word or the operands of a deferred addmany. */
typedef struct {
    bool deferred;
    czk_uint32 concrete;
    czk_uint32 ops[8];
    size_t n;
} maybe_word;

/* Maybe::compute in namespace `ns`, with `other` appended when non-NULL. */
static czk_err maybe_compute(czk_multieq *m, czk_uint32 *out, maybe_word *mw, const char *ns,
                             const czk_uint32 *other) {
    if (!mw->deferred) {
        *out = mw->concrete;
        return CZK_OK;
    }
    if (other) mw->ops[mw->n++] = *other;
    czk_cs_push_namespace(m->cs, ns);
    czk_err e = czk_uint32_addmany(m, out, mw->ops, mw->n);
    czk_cs_pop_namespace(m->cs);
    return e;
}

/* a ^ rotr(a, r1) ... : s = rotr(x, r0) xor rotr(x, r1) xor (shift ? shr(x, r2) : rotr(x, r2)) */
static czk_err sigma(czk_cs *cs, czk_uint32 *out, const czk_uint32 *x, unsigned r0, unsigned r1, unsigned r2,
                     bool shift, const char *ns1, const char *ns2) {
    czk_uint32 s = czk_uint32_rotr(x, r0), t = czk_uint32_rotr(x, r1);
    czk_cs_push_namespace(cs, ns1);
    czk_err e = czk_uint32_xor(cs, &s, &s, &t);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    t = shift ? czk_uint32_shr(x, r2) : czk_uint32_rotr(x, r2);
    czk_cs_push_namespace(cs, ns2);
    e = czk_uint32_xor(cs, out, &s, &t);
    czk_cs_pop_namespace(cs);
    return e;
}

typedef struct {
    czk_uint32 w[64];
    maybe_word a, e;
    czk_uint32 b, c, d, f, g, h, new_a, new_e, s0, s1, ch, maj, cur[8], res[8];
} bit_state;

static czk_err compress_bits(czk_cs *cs, czk_uint32 out[8], const czk_boolean input[512], const czk_uint32 state[8]) {
    bit_state *S = malloc(sizeof *S);
    if (!S) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "sha256: out of memory");
    memcpy(S->cur, state, sizeof S->cur);
    for (int t = 0; t < 16; t++) czk_uint32_from_bits_be(&S->w[t], input + 32 * t);
    czk_multieq m;
    czk_multieq_init(&m, cs);
    czk_err e = CZK_OK;
    for (int i = 16; i < 64 && !e; i++) {
        czk_gadget_push_ns_idx(cs, "w extension %ld", i);
        e = sigma(cs, &S->s0, &S->w[i - 15], 7, 18, 3, true, "first xor for s0", "second xor for s0");
        if (!e) e = sigma(cs, &S->s1, &S->w[i - 2], 17, 19, 10, true, "first xor for s1", "second xor for s1");
        if (!e) {
            czk_uint32 ops[4] = {S->w[i - 16], S->s0, S->w[i - 7], S->s1};
            czk_cs_push_namespace(cs, "computation of w[i]");
            e = czk_uint32_addmany(&m, &S->w[i], ops, 4);
            czk_cs_pop_namespace(cs);
        }
        czk_cs_pop_namespace(cs);
    }
    S->a = (maybe_word){.deferred = false, .concrete = S->cur[0]};
    S->b = S->cur[1], S->c = S->cur[2], S->d = S->cur[3];
    S->e = (maybe_word){.deferred = false, .concrete = S->cur[4]};
    S->f = S->cur[5], S->g = S->cur[6], S->h = S->cur[7];
    for (int i = 0; i < 64 && !e; i++) {
        czk_gadget_push_ns_idx(cs, "compression round %ld", i);
        e = maybe_compute(&m, &S->new_e, &S->e, "deferred e computation", NULL);
        if (!e) e = sigma(cs, &S->s1, &S->new_e, 6, 11, 25, false, "first xor for s1", "second xor for s1");
        if (!e) {
            czk_cs_push_namespace(cs, "ch");
            e = czk_uint32_sha256_ch(cs, &S->ch, &S->new_e, &S->f, &S->g);
            czk_cs_pop_namespace(cs);
        }
        if (!e) e = maybe_compute(&m, &S->new_a, &S->a, "deferred a computation", NULL);
        if (!e) e = sigma(cs, &S->s0, &S->new_a, 2, 13, 22, false, "first xor for s0", "second xor for s0");
        if (!e) {
            czk_cs_push_namespace(cs, "maj");
            e = czk_uint32_sha256_maj(cs, &S->maj, &S->new_a, &S->b, &S->c);
            czk_cs_pop_namespace(cs);
        }
        czk_cs_pop_namespace(cs);
        if (e) break;
        /* temp1 = [h, S1, ch, k, w]; e = temp1 ++ [d]; a = temp1 ++ [S0, maj] */
        czk_uint32 temp1[5] = {S->h, S->s1, S->ch, czk_uint32_constant(ROUND_CONSTANTS[i]), S->w[i]};
        S->h = S->g;
        S->g = S->f;
        S->f = S->new_e;
        S->e.deferred = true;
        memcpy(S->e.ops, temp1, sizeof temp1);
        S->e.ops[5] = S->d;
        S->e.n = 6;
        S->d = S->c;
        S->c = S->b;
        S->b = S->new_a;
        S->a.deferred = true;
        memcpy(S->a.ops, temp1, sizeof temp1);
        S->a.ops[5] = S->s0;
        S->a.ops[6] = S->maj;
        S->a.n = 7;
    }
    if (!e) e = maybe_compute(&m, &S->res[0], &S->a, "deferred h0 computation", &S->cur[0]);
    const czk_uint32 *fin[8] = {NULL, &S->b, &S->c, &S->d, NULL, &S->f, &S->g, &S->h};
    static const char *const ns[8] = {NULL, "new h1", "new h2", "new h3", NULL, "new h5", "new h6", "new h7"};
    for (int k = 1; k < 8 && !e; k++) {
        if (k == 4) {
            e = maybe_compute(&m, &S->res[4], &S->e, "deferred h4 computation", &S->cur[4]);
            continue;
        }
        czk_uint32 ops[2] = {S->cur[k], *fin[k]};
        czk_cs_push_namespace(cs, ns[k]);
        e = czk_uint32_addmany(&m, &S->res[k], ops, 2);
        czk_cs_pop_namespace(cs);
    }
    czk_multieq_finish(&m);
    if (!e) memcpy(out, S->res, sizeof S->res);
    free(S);
    return e;
}

/* ======================= word-level (WITNESS) ============================ */

/* A word: v = logical bit values, c = constant bits, n = Not bits (0 on
 * constants); an allocated bit's variable holds v ^ n. A word produced by
 * addmany (sum) has Is bits on variables base.index + i. */
typedef struct {
    uint32_t v, c, n;
    bool sum;
    czk_var base;
} ww;

typedef struct {
    czk_cs *cs;
    size_t bits_used; /* the MultiEq */
    czk_err err;
} wctx;

static inline void w_alloc(wctx *x, czk_var *v, bool value) {
    czk_var t;
    czk_err e = czk_cs_alloc(x->cs, v ? v : &t, NULL, gadget_fr_bit(value));
    if (e && !x->err) x->err = e;
}

static inline void w_count(wctx *x, int k) {
    for (int i = 0; i < k; i++) czk_cs_enforce(x->cs, NULL, NULL, NULL, NULL);
}

static inline ww w_const(uint32_t v) { return (ww){v, 0xffffffffu, 0, false, {0, 0}}; }

static inline uint32_t rotr32(uint32_t x, unsigned r) { return r ? x >> r | x << (32 - r) : x; }

static inline ww w_rotr(ww a, unsigned r) {
    return (ww){rotr32(a.v, r), rotr32(a.c, r), rotr32(a.n, r), false, {0, 0}};
}

static inline ww w_shr(ww a, unsigned r) {
    return (ww){a.v >> r, a.c >> r | ~(0xffffffffu >> r), a.n >> r, false, {0, 0}};
}

/* UInt32::xor: one "xor result" per bit where neither side is constant. */
static ww w_xor(wctx *x, ww a, ww b) {
    uint32_t m = ~a.c & ~b.c, under = a.v ^ a.n ^ b.v ^ b.n;
    int k = 0;
    for (uint32_t t = m; t; t &= t - 1, k++) w_alloc(x, NULL, (under >> __builtin_ctz(t)) & 1);
    w_count(x, k);
    ww r;
    r.v = a.v ^ b.v;
    r.c = a.c & b.c;
    r.n = (a.n ^ b.n ^ (a.c & a.v) ^ (b.c & b.v)) & ~r.c;
    r.sum = false;
    r.base = (czk_var){0, 0};
    return r;
}

static czk_boolean w_bit_to_boolean(ww a, int i) {
    bool v = (a.v >> i) & 1;
    if ((a.c >> i) & 1) return czk_boolean_constant(v);
    bool n = (a.n >> i) & 1;
    czk_bit bit = {{0, 0}, true, v ^ n}; /* the variable is never read in WITNESS mode */
    czk_boolean b = czk_boolean_is(&bit);
    return n ? czk_boolean_not(&b) : b;
}

static void w_set_bit(ww *r, int i, const czk_boolean *b) {
    uint32_t m = 1u << i;
    bool v = false;
    czk_boolean_value(b, &v);
    if (v) r->v |= m;
    if (b->kind == CZK_BOOLEAN_CONSTANT) r->c |= m;
    if (b->kind == CZK_BOOLEAN_NOT) r->n |= m;
}

/* UInt32::sha256_ch / sha256_maj per bit in bit order. */
static ww w_triop(wctx *x, ww a, ww b, ww c, bool maj) {
    ww r = {0, 0, 0, false, {0, 0}};
    uint32_t anyc = a.c | b.c | c.c;
    uint32_t val = maj ? (a.v & b.v) ^ (a.v & c.v) ^ (b.v & c.v) : (a.v & b.v) ^ (~a.v & c.v);
    uint32_t bc = b.v & c.v;
    for (int i = 0; i < 32; i++) {
        if (!((anyc >> i) & 1)) {
            w_alloc(x, NULL, (val >> i) & 1); /* "ch" / "maj" */
            if (maj) w_alloc(x, NULL, (bc >> i) & 1); /* "b and c": and/and_not/nor of logical values */
            w_count(x, maj ? 2 : 1);
            continue;
        }
        czk_boolean ba = w_bit_to_boolean(a, i), bb = w_bit_to_boolean(b, i), bcn = w_bit_to_boolean(c, i), out;
        czk_err e = maj ? czk_boolean_sha256_maj(x->cs, &out, &ba, &bb, &bcn)
                        : czk_boolean_sha256_ch(x->cs, &out, &ba, &bb, &bcn);
        if (e && !x->err) x->err = e;
        w_set_bit(&r, i, &out);
    }
    r.v = val; /* the logical value, whatever the representation */
    return r;
}

/* UInt32::addmany with the compression's MultiEq. */
static ww w_addmany(wctx *x, const ww *ops, size_t n) {
    uint64_t sum = 0;
    uint32_t allc = 0xffffffffu;
    for (size_t k = 0; k < n; k++) {
        sum += ops[k].v;
        allc &= ops[k].c;
    }
    if (allc == 0xffffffffu) return w_const((uint32_t)sum);
    uint64_t max_value = (uint64_t)n * UINT32_MAX;
    ww r = {(uint32_t)sum, 0, 0, true, {0, 0}};
    size_t i = 0;
    for (; max_value; max_value >>= 1, i++) w_alloc(x, i == 0 ? &r.base : NULL, (sum >> i) & 1);
    w_count(x, (int)i); /* boolean constraints */
    if (CZK_MULTIPACK_CAPACITY <= x->bits_used + i) {
        w_count(x, 1);
        x->bits_used = 0;
    }
    x->bits_used += i;
    return r;
}

typedef struct {
    bool deferred;
    ww concrete;
    ww ops[8];
    size_t n;
} maybe_ww;

static ww w_maybe(wctx *x, maybe_ww *m, const ww *other) {
    if (!m->deferred) return m->concrete;
    if (other) m->ops[m->n++] = *other;
    return w_addmany(x, m->ops, m->n);
}

/* sigma with rotations r0, r1 and a rotation or shift r2 */
static inline ww w_sigma(wctx *x, ww a, unsigned r0, unsigned r1, unsigned r2, bool shift) {
    ww s = w_xor(x, w_rotr(a, r0), w_rotr(a, r1));
    return w_xor(x, s, shift ? w_shr(a, r2) : w_rotr(a, r2));
}

static void compress_words(wctx *x, ww out[8], const ww in[16], const ww cur[8]) {
    ww w[64];
    memcpy(w, in, 16 * sizeof *w);
    x->bits_used = 0;
    for (int i = 16; i < 64; i++) {
        ww s0 = w_sigma(x, w[i - 15], 7, 18, 3, true);
        ww s1 = w_sigma(x, w[i - 2], 17, 19, 10, true);
        ww ops[4] = {w[i - 16], s0, w[i - 7], s1};
        w[i] = w_addmany(x, ops, 4);
    }
    maybe_ww a = {.deferred = false, .concrete = cur[0]}, e = {.deferred = false, .concrete = cur[4]};
    ww b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];
    for (int i = 0; i < 64; i++) {
        ww ne = w_maybe(x, &e, NULL);
        ww s1 = w_sigma(x, ne, 6, 11, 25, false);
        ww ch = w_triop(x, ne, f, g, false);
        ww na = w_maybe(x, &a, NULL);
        ww s0 = w_sigma(x, na, 2, 13, 22, false);
        ww maj = w_triop(x, na, b, c, true);
        ww t1[5] = {h, s1, ch, w_const(ROUND_CONSTANTS[i]), w[i]};
        h = g, g = f, f = ne;
        e.deferred = true;
        memcpy(e.ops, t1, sizeof t1);
        e.ops[5] = d;
        e.n = 6;
        d = c, c = b, b = na;
        a.deferred = true;
        memcpy(a.ops, t1, sizeof t1);
        a.ops[5] = s0;
        a.ops[6] = maj;
        a.n = 7;
    }
    ww res[8];
    res[0] = w_maybe(x, &a, &cur[0]);
    const ww fin[8] = {{0}, b, c, d, {0}, f, g, h};
    for (int k = 1; k < 8; k++) {
        if (k == 4) {
            res[4] = w_maybe(x, &e, &cur[4]);
            continue;
        }
        ww ops[2] = {cur[k], fin[k]};
        res[k] = w_addmany(x, ops, 2);
    }
    if (x->bits_used > 0) w_count(x, 1); /* MultiEq's Drop */
    x->bits_used = 0;
    memcpy(out, res, sizeof res);
}

/* czk_uint32 → word; false when a value is unknown. */
static bool word_from_uint32(ww *r, const czk_uint32 *a) {
    *r = (ww){0, 0, 0, false, {0, 0}};
    for (int i = 0; i < 32; i++) {
        bool v;
        if (!czk_boolean_value(&a->bits[i], &v)) return false;
        w_set_bit(r, i, &a->bits[i]);
    }
    return true;
}

/* 32 big-endian input bits → word (UInt32::from_bits_be). */
static bool word_from_bits_be(ww *r, const czk_boolean *bits) {
    *r = (ww){0, 0, 0, false, {0, 0}};
    for (int i = 0; i < 32; i++) {
        bool v;
        if (!czk_boolean_value(&bits[31 - i], &v)) return false;
        w_set_bit(r, i, &bits[31 - i]);
    }
    return true;
}

/* An output word (a constant or an addmany result) → czk_uint32. */
static void word_to_uint32(czk_uint32 *out, const ww *a) {
    out->has_value = true;
    out->value = a->v;
    for (int i = 0; i < 32; i++) {
        bool v = (a->v >> i) & 1;
        if (!a->sum) {
            out->bits[i] = czk_boolean_constant(v);
            continue;
        }
        czk_bit bit = {{a->base.index + (uint32_t)i, 0}, true, v};
        out->bits[i] = czk_boolean_is(&bit);
    }
}

static czk_err compress_witness(czk_cs *cs, czk_uint32 out[8], const czk_boolean input[512],
                                const czk_uint32 state[8]) {
    ww in[16], cur[8], res[8];
    for (int t = 0; t < 16; t++)
        if (!word_from_bits_be(&in[t], input + 32 * t))
            return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "sha256: an input bit has no value");
    for (int k = 0; k < 8; k++)
        if (!word_from_uint32(&cur[k], &state[k]))
            return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "sha256: a state bit has no value");
    wctx x = {cs, 0, CZK_OK};
    compress_words(&x, res, in, cur);
    if (x.err) return x.err;
    for (int k = 0; k < 8; k++) word_to_uint32(&out[k], &res[k]);
    return CZK_OK;
}

/* ======================= public API ====================================== */

czk_err czk_sha256_compression(czk_cs *cs, czk_uint32 out[8], const czk_boolean input[512],
                               const czk_uint32 state[8]) {
    if (!czk_cs_needs_lc(cs)) return compress_witness(cs, out, input, state);
    return compress_bits(cs, out, input, state);
}

czk_err czk_sha256_block_no_padding(czk_cs *cs, czk_boolean out[256], const czk_boolean input[512]) {
    czk_uint32 st[8];
    czk_sha256_iv(st);
    czk_err e = czk_sha256_compression(cs, st, input, st);
    if (e) return e;
    for (int k = 0; k < 8; k++) czk_uint32_into_bits_be(out + 32 * k, &st[k]);
    return CZK_OK;
}

czk_err czk_sha256(czk_cs *cs, czk_boolean out[256], const czk_boolean *input, size_t n_bits) {
    if (n_bits % 8) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "sha256: %zu bits is not whole bytes", n_bits);
    size_t total = (n_bits + 1 + 64 + 511) / 512 * 512;
    czk_boolean *p = malloc(total * sizeof *p);
    if (!p) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "sha256: out of memory");
    if (n_bits) memcpy(p, input, n_bits * sizeof *p);
    p[n_bits] = czk_boolean_constant(true);
    for (size_t i = n_bits + 1; i < total - 64; i++) p[i] = czk_boolean_constant(false);
    for (int i = 0; i < 64; i++) p[total - 64 + (size_t)i] = czk_boolean_constant(((uint64_t)n_bits >> (63 - i)) & 1);
    czk_uint32 st[8];
    czk_sha256_iv(st);
    czk_err e = CZK_OK;
    for (size_t blk = 0; blk < total / 512 && !e; blk++) {
        czk_gadget_push_ns_idx(cs, "block %ld", (long)blk);
        e = czk_sha256_compression(cs, st, p + 512 * blk, st);
        czk_cs_pop_namespace(cs);
    }
    free(p);
    if (e) return e;
    for (int k = 0; k < 8; k++) czk_uint32_into_bits_be(out + 32 * k, &st[k]);
    return CZK_OK;
}
