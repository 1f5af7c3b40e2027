/* czk — boolean gadgets exact to bellpepper-core 0.2 gadgets::boolean
 * (AllocatedBit, Boolean, u64_into_boolean_vec_le,
 * field_into_allocated_bits_le). See gadget_boolean.h. */
#include <stdarg.h>
#include <stdio.h>

#include "czk/gadget_boolean.h"
#include "gadget_internal.h"

void czk_gadget_push_ns_idx(czk_cs *cs, const char *fmt, long i) {
    if (czk_cs_get_mode(cs) != CZK_CS_CHECK) {
        czk_cs_push_namespace(cs, NULL);
        return;
    }
    char buf[96];
    snprintf(buf, sizeof buf, fmt, i);
    czk_cs_push_namespace(cs, buf);
}

/* ---- AllocatedBit ---------------------------------------------------------- */

/* Allocates aux `name` holding value (unknown unless has). */
static czk_err alloc_bit_var(czk_cs *cs, czk_var *v, const char *name, bool has, bool value) {
    return czk_cs_alloc(cs, v, name, has ? gadget_fr_bit(value) : NULL);
}

/* A new bit v with (ONE - f - v) · v = 0: bellperson's AllocatedBit::alloc
 * (f absent) and alloc_conditionally (f = must_be_false, which forces v = 0
 * when f is 1). */
static czk_err bit_alloc_unless(czk_cs *cs, czk_bit *out, const bool *value, const czk_bit *must_be_false) {
    czk_err e;
    out->has_value = value != NULL;
    out->value = value ? *value : false;
    if ((e = alloc_bit_var(cs, &out->var, "boolean", out->has_value, out->value))) return e;
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, "boolean constraint", NULL, NULL, NULL);
        return CZK_OK;
    }
    czk_lc a = {0}, b = {0};
    czk_lc_add(&a, CZK_VAR_ONE, NULL);
    if (must_be_false) czk_lc_sub(&a, must_be_false->var, NULL);
    czk_lc_sub(&a, out->var, NULL);
    czk_lc_add(&b, out->var, NULL);
    czk_cs_enforce(cs, "boolean constraint", &a, &b, NULL);
    czk_lc_free(&a);
    czk_lc_free(&b);
    return CZK_OK;
}

czk_err czk_bit_alloc(czk_cs *cs, czk_bit *out, const bool *value) { return bit_alloc_unless(cs, out, value, NULL); }

czk_err czk_bit_alloc_conditionally(czk_cs *cs, czk_bit *out, const bool *value, const czk_bit *must_be_false) {
    return bit_alloc_unless(cs, out, value, must_be_false);
}

typedef enum { OP_XOR, OP_AND, OP_AND_NOT, OP_NOR } bit_op;

/* The four two-input AllocatedBit gadgets: one aux, then one constraint. */
static czk_err bit_binop(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b, bit_op op) {
    static const char *const rname[] = {"xor result", "and result", "and not result", "nor result"};
    static const char *const cname[] = {"xor constraint", "and constraint", "and not constraint", "nor constraint"};
    bool has = a->has_value && b->has_value, v = false;
    if (has) {
        switch (op) {
        case OP_XOR: v = a->value ^ b->value; break;
        case OP_AND: v = a->value & b->value; break;
        case OP_AND_NOT: v = a->value & !b->value; break;
        case OP_NOR: v = !a->value & !b->value; break;
        }
    }
    czk_var r;
    czk_err e = alloc_bit_var(cs, &r, rname[op], has, v);
    if (e) return e;
    /* copy inputs first: out may alias a or b */
    czk_var av = a->var, bv = b->var;
    out->var = r;
    out->has_value = has;
    out->value = v;
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, cname[op], NULL, NULL, NULL);
        return CZK_OK;
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    switch (op) {
    case OP_XOR: /* (a + a) · b = a + b - c */
        czk_lc_add(&la, av, NULL);
        czk_lc_add(&la, av, NULL);
        czk_lc_add(&lb, bv, NULL);
        czk_lc_add(&lc, av, NULL);
        czk_lc_add(&lc, bv, NULL);
        czk_lc_sub(&lc, r, NULL);
        break;
    case OP_AND: /* a · b = c */
        czk_lc_add(&la, av, NULL);
        czk_lc_add(&lb, bv, NULL);
        czk_lc_add(&lc, r, NULL);
        break;
    case OP_AND_NOT: /* a · (ONE - b) = c */
        czk_lc_add(&la, av, NULL);
        czk_lc_add(&lb, CZK_VAR_ONE, NULL);
        czk_lc_sub(&lb, bv, NULL);
        czk_lc_add(&lc, r, NULL);
        break;
    case OP_NOR: /* (ONE - a) · (ONE - b) = c */
        czk_lc_add(&la, CZK_VAR_ONE, NULL);
        czk_lc_sub(&la, av, NULL);
        czk_lc_add(&lb, CZK_VAR_ONE, NULL);
        czk_lc_sub(&lb, bv, NULL);
        czk_lc_add(&lc, r, NULL);
        break;
    }
    czk_cs_enforce(cs, cname[op], &la, &lb, &lc);
    czk_lc_free(&la);
    czk_lc_free(&lb);
    czk_lc_free(&lc);
    return CZK_OK;
}

czk_err czk_bit_xor(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b) {
    return bit_binop(cs, out, a, b, OP_XOR);
}
czk_err czk_bit_and(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b) {
    return bit_binop(cs, out, a, b, OP_AND);
}
czk_err czk_bit_and_not(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b) {
    return bit_binop(cs, out, a, b, OP_AND_NOT);
}
czk_err czk_bit_nor(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b) {
    return bit_binop(cs, out, a, b, OP_NOR);
}

/* ---- Boolean ---------------------------------------------------------------- */

czk_boolean czk_boolean_constant(bool value) {
    czk_boolean b = {0};
    b.kind = CZK_BOOLEAN_CONSTANT;
    b.value = value;
    return b;
}

czk_boolean czk_boolean_is(const czk_bit *bit) {
    czk_boolean b = {0};
    b.kind = CZK_BOOLEAN_IS;
    b.bit = *bit;
    return b;
}

czk_boolean czk_boolean_not(const czk_boolean *b) {
    czk_boolean r = *b;
    switch (b->kind) {
    case CZK_BOOLEAN_CONSTANT: r.value = !b->value; break;
    case CZK_BOOLEAN_IS: r.kind = CZK_BOOLEAN_NOT; break;
    case CZK_BOOLEAN_NOT: r.kind = CZK_BOOLEAN_IS; break;
    }
    return r;
}

bool czk_boolean_value(const czk_boolean *b, bool *out) {
    switch (b->kind) {
    case CZK_BOOLEAN_CONSTANT: *out = b->value; return true;
    case CZK_BOOLEAN_IS: *out = b->bit.value; return b->bit.has_value;
    case CZK_BOOLEAN_NOT: *out = !b->bit.value; return b->bit.has_value;
    }
    return false;
}

static void boolean_lc_signed(czk_lc *lc, const czk_boolean *b, const czk_fr *coeff, bool sub) {
    czk_fr c = coeff ? *coeff : CZK_FR_ONE, nc;
    if (sub) czk_fr_neg(&c, &c);
    switch (b->kind) {
    case CZK_BOOLEAN_CONSTANT:
        if (b->value) czk_lc_add(lc, CZK_VAR_ONE, &c);
        break;
    case CZK_BOOLEAN_IS: czk_lc_add(lc, b->bit.var, &c); break;
    case CZK_BOOLEAN_NOT:
        czk_fr_neg(&nc, &c);
        czk_lc_add(lc, CZK_VAR_ONE, &c);
        czk_lc_add(lc, b->bit.var, &nc);
        break;
    }
}

void czk_boolean_lc(czk_lc *lc, const czk_boolean *b, const czk_fr *coeff) { boolean_lc_signed(lc, b, coeff, false); }
void czk_boolean_lc_sub(czk_lc *lc, const czk_boolean *b, const czk_fr *coeff) { boolean_lc_signed(lc, b, coeff, true); }

static bool is_const(const czk_boolean *b, bool v) { return b->kind == CZK_BOOLEAN_CONSTANT && b->value == v; }

/* Boolean::xor. Match arms in bellpepper's order. */
czk_err czk_boolean_xor(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b) {
    if (is_const(a, false)) return *out = *b, CZK_OK;
    if (is_const(b, false)) return *out = *a, CZK_OK;
    if (is_const(a, true)) return *out = czk_boolean_not(b), CZK_OK;
    if (is_const(b, true)) return *out = czk_boolean_not(a), CZK_OK;
    czk_bit r;
    czk_err e;
    if (a->kind != b->kind) {
        /* (is, not) | (not, is) → xor(is, not.not()).not() = Not(xor(is.bit, not.bit)) */
        const czk_boolean *is = a->kind == CZK_BOOLEAN_IS ? a : b, *nt = a->kind == CZK_BOOLEAN_IS ? b : a;
        if ((e = czk_bit_xor(cs, &r, &is->bit, &nt->bit))) return e;
        czk_boolean t = czk_boolean_is(&r);
        *out = czk_boolean_not(&t);
        return CZK_OK;
    }
    if ((e = czk_bit_xor(cs, &r, &a->bit, &b->bit))) return e;
    *out = czk_boolean_is(&r);
    return CZK_OK;
}

/* Boolean::and. */
czk_err czk_boolean_and(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b) {
    if (is_const(a, false) || is_const(b, false)) return *out = czk_boolean_constant(false), CZK_OK;
    if (is_const(a, true)) return *out = *b, CZK_OK;
    if (is_const(b, true)) return *out = *a, CZK_OK;
    czk_bit r;
    czk_err e;
    if (a->kind == CZK_BOOLEAN_IS && b->kind == CZK_BOOLEAN_NOT) e = czk_bit_and_not(cs, &r, &a->bit, &b->bit);
    else if (a->kind == CZK_BOOLEAN_NOT && b->kind == CZK_BOOLEAN_IS) e = czk_bit_and_not(cs, &r, &b->bit, &a->bit);
    else if (a->kind == CZK_BOOLEAN_NOT) e = czk_bit_nor(cs, &r, &a->bit, &b->bit);
    else e = czk_bit_and(cs, &r, &a->bit, &b->bit);
    if (e) return e;
    *out = czk_boolean_is(&r);
    return CZK_OK;
}

/* Boolean::or: NOT(AND(NOT a, NOT b)) in namespace "not and (not a) (not b)". */
czk_err czk_boolean_or(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b) {
    czk_boolean na = czk_boolean_not(a), nb = czk_boolean_not(b), t;
    czk_cs_push_namespace(cs, "not and (not a) (not b)");
    czk_err e = czk_boolean_and(cs, &t, &na, &nb);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    *out = czk_boolean_not(&t);
    return CZK_OK;
}

/* The value of a boolean whose value may be unknown. */
static bool bval(const czk_boolean *b, bool *has) {
    bool v = false;
    if (!czk_boolean_value(b, &v)) *has = false;
    return v;
}

/* NOT(AND(x, y)) */
static czk_err nand_into(czk_cs *cs, czk_boolean *out, const czk_boolean *x, const czk_boolean *y) {
    czk_boolean t;
    czk_err e = czk_boolean_and(cs, &t, x, y);
    if (e) return e;
    *out = czk_boolean_not(&t);
    return CZK_OK;
}

/* Boolean::sha256_ch, constant folding arms in bellpepper's order. */
czk_err czk_boolean_sha256_ch(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b,
                              const czk_boolean *c) {
    bool has = true;
    bool av = bval(a, &has), bv = bval(b, &has), cv = bval(c, &has);
    bool chv = (av & bv) ^ (!av & cv);
    bool ac = a->kind == CZK_BOOLEAN_CONSTANT, bc = b->kind == CZK_BOOLEAN_CONSTANT,
         cc = c->kind == CZK_BOOLEAN_CONSTANT;
    if (ac && bc && cc) return *out = czk_boolean_constant(chv), CZK_OK;
    if (is_const(a, false)) return *out = *c, CZK_OK;
    if (is_const(b, false)) {
        czk_boolean na = czk_boolean_not(a);
        return czk_boolean_and(cs, out, &na, c);
    }
    if (is_const(c, false)) return czk_boolean_and(cs, out, a, b);
    if (is_const(c, true)) {
        czk_boolean nb = czk_boolean_not(b);
        return nand_into(cs, out, a, &nb);
    }
    if (is_const(b, true)) {
        czk_boolean na = czk_boolean_not(a), nc = czk_boolean_not(c);
        return nand_into(cs, out, &na, &nc);
    }
    /* a may still be Constant(true): it then enters the LCs as ONE */
    czk_var ch;
    czk_err e = alloc_bit_var(cs, &ch, "ch", has, chv);
    if (e) return e;
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, "ch computation", NULL, NULL, NULL);
    } else { /* (b - c) · a = ch - c */
        czk_lc la = {0}, lb = {0}, lc = {0};
        czk_boolean_lc(&la, b, NULL);
        czk_boolean_lc_sub(&la, c, NULL);
        czk_boolean_lc(&lb, a, NULL);
        czk_lc_add(&lc, ch, NULL);
        czk_boolean_lc_sub(&lc, c, NULL);
        czk_cs_enforce(cs, "ch computation", &la, &lb, &lc);
        czk_lc_free(&la);
        czk_lc_free(&lb);
        czk_lc_free(&lc);
    }
    czk_bit r = {ch, has, has && chv};
    *out = czk_boolean_is(&r);
    return CZK_OK;
}

/* Boolean::sha256_maj: "maj" is allocated before the "b and c" AND. */
czk_err czk_boolean_sha256_maj(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b,
                               const czk_boolean *c) {
    bool has = true;
    bool av = bval(a, &has), bv = bval(b, &has), cv = bval(c, &has);
    bool mv = (av & bv) ^ (av & cv) ^ (bv & cv);
    bool ac = a->kind == CZK_BOOLEAN_CONSTANT, bc = b->kind == CZK_BOOLEAN_CONSTANT,
         cc = c->kind == CZK_BOOLEAN_CONSTANT;
    if (ac && bc && cc) return *out = czk_boolean_constant(mv), CZK_OK;
    if (is_const(a, false)) return czk_boolean_and(cs, out, b, c);
    if (is_const(b, false)) return czk_boolean_and(cs, out, a, c);
    if (is_const(c, false)) return czk_boolean_and(cs, out, a, b);
    if (is_const(c, true)) {
        czk_boolean na = czk_boolean_not(a), nb = czk_boolean_not(b);
        return nand_into(cs, out, &na, &nb);
    }
    if (is_const(b, true)) {
        czk_boolean na = czk_boolean_not(a), nc = czk_boolean_not(c);
        return nand_into(cs, out, &na, &nc);
    }
    if (is_const(a, true)) {
        czk_boolean nb = czk_boolean_not(b), nc = czk_boolean_not(c);
        return nand_into(cs, out, &nb, &nc);
    }
    czk_var maj;
    czk_err e = alloc_bit_var(cs, &maj, "maj", has, mv);
    if (e) return e;
    czk_boolean bcv;
    czk_cs_push_namespace(cs, "b and c");
    e = czk_boolean_and(cs, &bcv, b, c);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, "maj computation", NULL, NULL, NULL);
    } else { /* (2bc - b - c) · a = bc - maj */
        czk_lc la = {0}, lb = {0}, lc = {0};
        czk_boolean_lc(&la, &bcv, NULL);
        czk_boolean_lc(&la, &bcv, NULL);
        czk_boolean_lc_sub(&la, b, NULL);
        czk_boolean_lc_sub(&la, c, NULL);
        czk_boolean_lc(&lb, a, NULL);
        czk_boolean_lc(&lc, &bcv, NULL);
        czk_lc_sub(&lc, maj, NULL);
        czk_cs_enforce(cs, "maj computation", &la, &lb, &lc);
        czk_lc_free(&la);
        czk_lc_free(&lb);
        czk_lc_free(&lc);
    }
    czk_bit r = {maj, has, has && mv};
    *out = czk_boolean_is(&r);
    return CZK_OK;
}

/* Boolean::enforce_equal. */
czk_err czk_boolean_enforce_equal(czk_cs *cs, const czk_boolean *a, const czk_boolean *b) {
    if (a->kind == CZK_BOOLEAN_CONSTANT && b->kind == CZK_BOOLEAN_CONSTANT)
        return a->value == b->value
                   ? CZK_OK
                   : czk_cs_error(cs, CZK_ERR_UNSATISFIED, "enforce_equal on two different constants");
    const char *name;
    const czk_boolean *x = NULL; /* the non-constant side when the other is constant */
    int kind;
    if (is_const(a, true) || is_const(b, true)) {
        name = "enforce equal to one", kind = 1, x = is_const(a, true) ? b : a;
    } else if (is_const(a, false) || is_const(b, false)) {
        name = "enforce equal to zero", kind = 0, x = is_const(a, false) ? b : a;
    } else {
        name = "enforce equal", kind = 2;
    }
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, name, NULL, NULL, NULL);
        return CZK_OK;
    }
    czk_lc lc = {0};
    if (kind == 1) { /* 0 · 0 = ONE - x */
        czk_lc_add(&lc, CZK_VAR_ONE, NULL);
        czk_boolean_lc_sub(&lc, x, NULL);
    } else if (kind == 0) { /* 0 · 0 = x */
        czk_boolean_lc(&lc, x, NULL);
    } else { /* 0 · 0 = a - b */
        czk_boolean_lc(&lc, a, NULL);
        czk_boolean_lc_sub(&lc, b, NULL);
    }
    czk_cs_enforce(cs, name, NULL, NULL, &lc);
    czk_lc_free(&lc);
    return CZK_OK;
}

/* ---- bit-vector helpers ------------------------------------------------------ */

static czk_err uint_into_booleans(czk_cs *cs, czk_boolean *out, int n, const uint64_t *value, const char *fmt) {
    for (int i = 0; i < n; i++) {
        bool v = value ? (*value >> i) & 1 : false;
        czk_bit bit;
        czk_gadget_push_ns_idx(cs, fmt, i);
        czk_err e = czk_bit_alloc(cs, &bit, value ? &v : NULL);
        czk_cs_pop_namespace(cs);
        if (e) return e;
        out[i] = czk_boolean_is(&bit);
    }
    return CZK_OK;
}

czk_err czk_u64_into_boolean_vec_le(czk_cs *cs, czk_boolean out[64], const uint64_t *value) {
    return uint_into_booleans(cs, out, 64, value, "bit %ld");
}

czk_err czk_u32_into_boolean_vec_le(czk_cs *cs, czk_boolean out[32], const uint32_t *value) {
    uint64_t v = value ? *value : 0;
    return uint_into_booleans(cs, out, 32, value ? &v : NULL, "allocated bit %ld");
}

czk_err czk_field_into_allocated_bits_le(czk_cs *cs, czk_bit out[255], const czk_fr *value) {
    uint64_t limbs[CZK_FR_LIMBS] = {0};
    if (value) czk_fr_to_canonical(limbs, value);
    for (int i = 0; i < 255; i++) {
        bool v = (limbs[i / 64] >> (i % 64)) & 1;
        czk_gadget_push_ns_idx(cs, "bit %ld", i);
        czk_err e = czk_bit_alloc(cs, &out[i], value ? &v : NULL);
        czk_cs_pop_namespace(cs);
        if (e) return e;
    }
    return CZK_OK;
}

czk_err czk_field_into_boolean_vec_le(czk_cs *cs, czk_boolean out[255], const czk_fr *value) {
    czk_bit bits[255];
    czk_err e = czk_field_into_allocated_bits_le(cs, bits, value);
    if (e) return e;
    for (int i = 0; i < 255; i++) out[i] = czk_boolean_is(&bits[i]);
    return CZK_OK;
}
