/* czk — bellperson's UInt32 (gadgets::uint32). See gadget_uint32.h. */
#include "czk/gadget_uint32.h"
#include "gadget_internal.h"

czk_uint32 czk_uint32_constant(uint32_t value) {
    czk_uint32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = czk_boolean_constant((value >> i) & 1);
    r.has_value = true;
    r.value = value;
    return r;
}

czk_err czk_uint32_alloc(czk_cs *cs, czk_uint32 *out, const uint32_t *value) {
    czk_err e = czk_u32_into_boolean_vec_le(cs, out->bits, value);
    out->has_value = value != NULL;
    out->value = value ? *value : 0;
    return e;
}

/* The value of bits (least significant first); false when one is unknown. */
static bool bits_value(const czk_boolean *bits, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 31; i >= 0; i--) {
        bool b;
        if (!czk_boolean_value(&bits[i], &b)) return false;
        v = v << 1 | (uint32_t)b;
    }
    *out = v;
    return true;
}

void czk_uint32_from_bits_be(czk_uint32 *out, const czk_boolean bits[32]) {
    czk_boolean le[32];
    for (int i = 0; i < 32; i++) le[i] = bits[31 - i];
    czk_uint32_from_bits(out, le);
}

void czk_uint32_into_bits_be(czk_boolean bits[32], const czk_uint32 *a) {
    czk_boolean t[32];
    for (int i = 0; i < 32; i++) t[i] = a->bits[31 - i];
    for (int i = 0; i < 32; i++) bits[i] = t[i];
}

void czk_uint32_from_bits(czk_uint32 *out, const czk_boolean bits[32]) {
    czk_uint32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = bits[i];
    r.has_value = bits_value(r.bits, &r.value);
    if (!r.has_value) r.value = 0;
    *out = r;
}

czk_uint32 czk_uint32_rotr(const czk_uint32 *a, unsigned by) {
    by %= 32;
    czk_uint32 r;
    for (unsigned i = 0; i < 32; i++) r.bits[i] = a->bits[(i + by) % 32];
    r.has_value = a->has_value;
    r.value = a->has_value ? (by ? (a->value >> by | a->value << (32 - by)) : a->value) : 0;
    return r;
}

czk_uint32 czk_uint32_shr(const czk_uint32 *a, unsigned by) {
    by %= 32;
    czk_uint32 r;
    for (unsigned i = 0; i < 32; i++) r.bits[i] = i + by < 32 ? a->bits[i + by] : czk_boolean_constant(false);
    r.has_value = a->has_value;
    r.value = a->has_value ? a->value >> by : 0;
    return r;
}

czk_err czk_uint32_xor(czk_cs *cs, czk_uint32 *out, const czk_uint32 *a, const czk_uint32 *b) {
    czk_uint32 r;
    r.has_value = a->has_value && b->has_value;
    r.value = r.has_value ? a->value ^ b->value : 0;
    for (int i = 0; i < 32; i++) {
        czk_gadget_push_ns_idx(cs, "xor of bit %ld", i);
        czk_err e = czk_boolean_xor(cs, &r.bits[i], &a->bits[i], &b->bits[i]);
        czk_cs_pop_namespace(cs);
        if (e) return e;
    }
    *out = r;
    return CZK_OK;
}

typedef czk_err (*triop_fn)(czk_cs *, czk_boolean *, const czk_boolean *, const czk_boolean *, const czk_boolean *);

/* UInt32::triop */
static czk_err triop(czk_cs *cs, czk_uint32 *out, const czk_uint32 *a, const czk_uint32 *b, const czk_uint32 *c,
                     bool maj) {
    czk_uint32 r;
    r.has_value = a->has_value && b->has_value && c->has_value;
    r.value = 0;
    if (r.has_value)
        r.value = maj ? (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value)
                      : (a->value & b->value) ^ (~a->value & c->value);
    triop_fn fn = maj ? czk_boolean_sha256_maj : czk_boolean_sha256_ch;
    for (int i = 0; i < 32; i++) {
        czk_gadget_push_ns_idx(cs, maj ? "maj %ld" : "ch %ld", i);
        czk_err e = fn(cs, &r.bits[i], &a->bits[i], &b->bits[i], &c->bits[i]);
        czk_cs_pop_namespace(cs);
        if (e) return e;
    }
    *out = r;
    return CZK_OK;
}

czk_err czk_uint32_sha256_ch(czk_cs *cs, czk_uint32 *out, const czk_uint32 *a, const czk_uint32 *b,
                             const czk_uint32 *c) {
    return triop(cs, out, a, b, c, false);
}

czk_err czk_uint32_sha256_maj(czk_cs *cs, czk_uint32 *out, const czk_uint32 *a, const czk_uint32 *b,
                              const czk_uint32 *c) {
    return triop(cs, out, a, b, c, true);
}

czk_err czk_uint32_addmany(czk_multieq *m, czk_uint32 *out, const czk_uint32 *ops, size_t n) {
    czk_cs *cs = m->cs;
    if (n < 2 || n > 10) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "addmany: %zu operands", n);
    uint64_t max_value = (uint64_t)n * UINT32_MAX, sum = 0;
    bool has = true, all_constants = true, lcs = czk_cs_needs_lc(cs);
    czk_lc lhs = {0}, rhs = {0};
    for (size_t k = 0; k < n; k++) {
        if (ops[k].has_value) sum += ops[k].value;
        else has = false;
        czk_fr coeff = CZK_FR_ONE;
        for (int i = 0; i < 32; i++) {
            if (lcs) czk_boolean_lc(&lhs, &ops[k].bits[i], &coeff);
            all_constants &= ops[k].bits[i].kind == CZK_BOOLEAN_CONSTANT;
            if (lcs) czk_fr_dbl(&coeff, &coeff);
        }
    }
    if (all_constants && has) {
        czk_lc_free(&lhs);
        *out = czk_uint32_constant((uint32_t)sum);
        return CZK_OK;
    }
    czk_uint32 r;
    r.has_value = has;
    r.value = has ? (uint32_t)sum : 0;
    czk_fr coeff = CZK_FR_ONE;
    size_t i = 0;
    czk_err e = CZK_OK;
    for (; max_value != 0; max_value >>= 1, i++) {
        bool v = (sum >> i) & 1;
        czk_bit b;
        czk_gadget_push_ns_idx(cs, "result bit %ld", (long)i);
        e = czk_bit_alloc(cs, &b, has ? &v : NULL);
        czk_cs_pop_namespace(cs);
        if (e) break;
        if (lcs) {
            czk_lc_add(&rhs, b.var, &coeff);
            czk_fr_dbl(&coeff, &coeff);
        }
        if (i < 32) r.bits[i] = czk_boolean_is(&b);
    }
    if (!e) czk_multieq_enforce_equal(m, i, lcs ? &lhs : NULL, lcs ? &rhs : NULL);
    czk_lc_free(&lhs);
    czk_lc_free(&rhs);
    if (e) return e;
    *out = r;
    return CZK_OK;
}
