/* czk — field-element gadgets exact to bellpepper-core 0.2 gadgets::num
 * (AllocatedNum, Num). See gadget_num.h. */
#include "czk/gadget_num.h"
#include "gadget_internal.h"

/* ---- AllocatedNum ------------------------------------------------------------ */

czk_err czk_num_alloc(czk_cs *cs, czk_num *out, const czk_fr *value) {
    out->has_value = value != NULL;
    if (value) out->value = *value;
    else czk_fr_set_zero(&out->value);
    return czk_cs_alloc(cs, &out->var, "num", value);
}

czk_err czk_num_alloc_input(czk_cs *cs, czk_num *out, const czk_fr *value) {
    out->has_value = value != NULL;
    if (value) out->value = *value;
    else czk_fr_set_zero(&out->value);
    return czk_cs_alloc_input(cs, &out->var, "input num", value);
}

/* Enforces (x) · (y) = (z), each a single variable with coefficient 1, the
 * shape of most AllocatedNum constraints. */
static void enforce_vvv(czk_cs *cs, const char *name, czk_var x, czk_var y, czk_var z) {
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    czk_lc_add(&la, x, NULL);
    czk_lc_add(&lb, y, NULL);
    czk_lc_add(&lc, z, NULL);
    czk_cs_enforce(cs, name, &la, &lb, &lc);
    czk_lc_free(&la);
    czk_lc_free(&lb);
    czk_lc_free(&lc);
}

czk_err czk_num_inputize(czk_cs *cs, const czk_num *a) {
    czk_var in;
    czk_err e = czk_cs_alloc_input(cs, &in, "input variable", a->has_value ? &a->value : NULL);
    if (e) return e;
    enforce_vvv(cs, "enforce input is correct", in, CZK_VAR_ONE, a->var);
    return CZK_OK;
}

czk_err czk_num_add(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b) {
    czk_num r = {.has_value = a->has_value && b->has_value};
    if (r.has_value) czk_fr_add(&r.value, &a->value, &b->value);
    czk_err e = czk_cs_alloc(cs, &r.var, "sum num", r.has_value ? &r.value : NULL);
    if (e) return e;
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, "addition constraint", NULL, NULL, NULL);
    } else { /* (a + b) · ONE = sum */
        czk_lc la = {0}, lb = {0}, lc = {0};
        czk_lc_add(&la, a->var, NULL);
        czk_lc_add(&la, b->var, NULL);
        czk_lc_add(&lb, CZK_VAR_ONE, NULL);
        czk_lc_add(&lc, r.var, NULL);
        czk_cs_enforce(cs, "addition constraint", &la, &lb, &lc);
        czk_lc_free(&la);
        czk_lc_free(&lb);
        czk_lc_free(&lc);
    }
    *out = r;
    return CZK_OK;
}

czk_err czk_num_mul(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b) {
    czk_num r = {.has_value = a->has_value && b->has_value};
    if (r.has_value) czk_fr_mul(&r.value, &a->value, &b->value);
    czk_err e = czk_cs_alloc(cs, &r.var, "product num", r.has_value ? &r.value : NULL);
    if (e) return e;
    enforce_vvv(cs, "multiplication constraint", a->var, b->var, r.var);
    *out = r;
    return CZK_OK;
}

czk_err czk_num_square(czk_cs *cs, czk_num *out, const czk_num *a) {
    czk_num r = {.has_value = a->has_value};
    if (r.has_value) czk_fr_sqr(&r.value, &a->value);
    czk_err e = czk_cs_alloc(cs, &r.var, "squared num", r.has_value ? &r.value : NULL);
    if (e) return e;
    enforce_vvv(cs, "squaring constraint", a->var, a->var, r.var);
    *out = r;
    return CZK_OK;
}

czk_err czk_num_assert_nonzero(czk_cs *cs, const czk_num *a) {
    czk_fr inv;
    if (a->has_value) {
        if (czk_fr_is_zero(&a->value))
            return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "assert_nonzero: the value is zero (division by zero)");
        czk_fr_inv(&inv, &a->value);
    }
    czk_var v;
    czk_err e = czk_cs_alloc(cs, &v, "ephemeral inverse", a->has_value ? &inv : NULL);
    if (e) return e;
    enforce_vvv(cs, "nonzero assertion constraint", a->var, v, CZK_VAR_ONE);
    return CZK_OK;
}

/* "unpacking constraint": 0 · 0 = Σ 2^i·bits[i] - a. */
static void enforce_unpacking(czk_cs *cs, const czk_bit *bits, const czk_num *a) {
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, "unpacking constraint", NULL, NULL, NULL);
        return;
    }
    czk_lc lc = {0};
    czk_fr coeff = CZK_FR_ONE;
    for (int i = 0; i < 255; i++) {
        czk_lc_add(&lc, bits[i].var, &coeff);
        czk_fr_dbl(&coeff, &coeff);
    }
    czk_lc_sub(&lc, a->var, NULL);
    czk_cs_enforce(cs, "unpacking constraint", NULL, NULL, &lc);
    czk_lc_free(&lc);
}

czk_err czk_num_to_bits_le(czk_cs *cs, czk_boolean out[255], const czk_num *a) {
    czk_bit bits[255];
    czk_err e = czk_field_into_allocated_bits_le(cs, bits, a->has_value ? &a->value : NULL);
    if (e) return e;
    enforce_unpacking(cs, bits, a);
    for (int i = 0; i < 255; i++) out[i] = czk_boolean_is(&bits[i]);
    return CZK_OK;
}

/* kary_and inside to_bits_le_strict: AND the bits left to right, the k-th
 * AND (k >= 1) in namespace "and k". */
static czk_err kary_and(czk_cs *cs, czk_bit *out, const czk_bit *v, size_t n) {
    czk_bit cur = v[0];
    for (size_t i = 1; i < n; i++) {
        czk_gadget_push_ns_idx(cs, "and %ld", (long)i);
        czk_err e = czk_bit_and(cs, &cur, &cur, &v[i]);
        czk_cs_pop_namespace(cs);
        if (e) return e;
    }
    *out = cur;
    return CZK_OK;
}

czk_err czk_num_to_bits_le_strict(czk_cs *cs, czk_boolean out[255], const czk_num *a) {
    uint64_t av[CZK_FR_LIMBS] = {0}, bv[CZK_FR_LIMBS];
    if (a->has_value) czk_fr_to_canonical(av, &a->value);
    czk_fr m1;
    czk_fr_neg(&m1, &CZK_FR_ONE);
    czk_fr_to_canonical(bv, &m1); /* r - 1 */
    czk_bit result[256]; /* big-endian */
    czk_bit run[256], last_run;
    size_t nres = 0, nrun = 0;
    bool have_last = false, found_one = false;
    long i = 0;
    czk_err e;
    for (int k = 255; k >= 0; k--) {
        bool b = (bv[k / 64] >> (k % 64)) & 1, abit = (av[k / 64] >> (k % 64)) & 1;
        found_one |= b;
        if (!found_one) continue;
        if (b) {
            czk_gadget_push_ns_idx(cs, "bit %ld", i);
            e = czk_bit_alloc(cs, &result[nres], a->has_value ? &abit : NULL);
            czk_cs_pop_namespace(cs);
            if (e) return e;
            run[nrun++] = result[nres++];
        } else {
            if (nrun) {
                if (have_last) run[nrun++] = last_run;
                czk_gadget_push_ns_idx(cs, "run ending at %ld", i);
                e = kary_and(cs, &last_run, run, nrun);
                czk_cs_pop_namespace(cs);
                if (e) return e;
                have_last = true;
                nrun = 0;
            }
            czk_gadget_push_ns_idx(cs, "bit %ld", i);
            e = czk_bit_alloc_conditionally(cs, &result[nres], a->has_value ? &abit : NULL, &last_run);
            czk_cs_pop_namespace(cs);
            if (e) return e;
            nres++;
        }
        i++;
    }
    /* r - 1 has 255 significant bits and ends in a run of zeros */
    if (nres != 255 || nrun != 0) return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "to_bits_le_strict: bad modulus");
    czk_bit le[255];
    for (int k = 0; k < 255; k++) le[k] = result[254 - k];
    enforce_unpacking(cs, le, a);
    for (int k = 0; k < 255; k++) out[k] = czk_boolean_is(&le[k]);
    return CZK_OK;
}

czk_err czk_num_conditionally_reverse(czk_cs *cs, czk_num *out_c, czk_num *out_d, const czk_num *a,
                                      const czk_num *b, const czk_boolean *condition) {
    bool cv = false, has = czk_boolean_value(condition, &cv) && a->has_value && b->has_value;
    czk_num an = *a, bn = *b, c, d;
    czk_err e = CZK_OK;
    bool lcs = czk_cs_needs_lc(cs);
    czk_lc la = {0}, lb = {0}, lc = {0};
    for (int k = 0; k < 2; k++) {
        const czk_num *x = k ? &bn : &an, *y = k ? &an : &bn; /* k = 0: (a, b); k = 1: (b, a) */
        czk_num *res = k ? &d : &c;
        czk_cs_push_namespace(cs, k ? "conditional reversal result 2" : "conditional reversal result 1");
        e = czk_num_alloc(cs, res, has ? (cv ? &y->value : &x->value) : NULL);
        czk_cs_pop_namespace(cs);
        if (e) break;
        const char *name = k ? "second conditional reversal" : "first conditional reversal";
        if (!lcs) {
            czk_cs_enforce(cs, name, NULL, NULL, NULL);
            continue;
        }
        /* (x - y) · condition = x - res */
        czk_lc_clear(&la), czk_lc_clear(&lb), czk_lc_clear(&lc);
        czk_lc_add(&la, x->var, NULL);
        czk_lc_sub(&la, y->var, NULL);
        czk_boolean_lc(&lb, condition, NULL);
        czk_lc_add(&lc, x->var, NULL);
        czk_lc_sub(&lc, res->var, NULL);
        czk_cs_enforce(cs, name, &la, &lb, &lc);
    }
    czk_lc_free(&la), czk_lc_free(&lb), czk_lc_free(&lc);
    if (e) return e;
    *out_c = c;
    *out_d = d;
    return CZK_OK;
}

void czk_num_enforce_equal(czk_cs *cs, const char *name, const czk_num *a, const czk_num *b) {
    enforce_vvv(cs, name, a->var, CZK_VAR_ONE, b->var);
}

/* (x + y) · ONE = z */
static void enforce_sum_one(czk_cs *cs, const char *name, czk_var x, czk_var y, czk_var z) {
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    czk_lc_add(&la, x, NULL);
    czk_lc_add(&la, y, NULL);
    czk_lc_add(&lb, CZK_VAR_ONE, NULL);
    czk_lc_add(&lc, z, NULL);
    czk_cs_enforce(cs, name, &la, &lb, &lc);
    czk_lc_free(&la);
    czk_lc_free(&lb);
    czk_lc_free(&lc);
}

void czk_constraint_sum(czk_cs *cs, const char *name, const czk_num *a, const czk_num *b, const czk_num *sum) {
    enforce_sum_one(cs, name, a->var, b->var, sum->var);
}

void czk_constraint_difference(czk_cs *cs, const char *name, const czk_num *a, const czk_num *b,
                               const czk_num *difference) {
    enforce_sum_one(cs, name, difference->var, b->var, a->var);
}

czk_err czk_constraint_add(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b) {
    czk_num r;
    czk_fr v;
    bool has = a->has_value && b->has_value;
    if (has) czk_fr_add(&v, &a->value, &b->value);
    czk_cs_push_namespace(cs, "add_num");
    czk_err e = czk_num_alloc(cs, &r, has ? &v : NULL);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_constraint_sum(cs, "sum constraint", a, b, &r);
    *out = r;
    return CZK_OK;
}

czk_err czk_constraint_sub(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b) {
    czk_num r;
    czk_fr v;
    bool has = a->has_value && b->has_value;
    if (has) czk_fr_sub(&v, &a->value, &b->value);
    czk_cs_push_namespace(cs, "sub_num");
    czk_err e = czk_num_alloc(cs, &r, has ? &v : NULL);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_constraint_difference(cs, "subtraction constraint", a, b, &r);
    *out = r;
    return CZK_OK;
}

/* ---- Num ----------------------------------------------------------------------- */

void czk_num_lc_zero(czk_num_lc *n) {
    czk_lc_init(&n->lc);
    n->has_value = true;
    czk_fr_set_zero(&n->value);
}

void czk_num_lc_from_num(czk_num_lc *n, const czk_num *a) {
    czk_lc_init(&n->lc);
    czk_lc_add(&n->lc, a->var, NULL);
    n->has_value = a->has_value;
    n->value = a->value;
}

void czk_num_lc_free(czk_num_lc *n) { czk_lc_free(&n->lc); }

void czk_num_lc_add_bool_with_coeff(czk_num_lc *n, const czk_boolean *bit, const czk_fr *coeff) {
    bool v;
    if (n->has_value && czk_boolean_value(bit, &v)) {
        if (v) czk_fr_add(&n->value, &n->value, coeff ? coeff : &CZK_FR_ONE);
    } else {
        n->has_value = false;
    }
    czk_boolean_lc(&n->lc, bit, coeff);
}

void czk_num_lc_add(czk_num_lc *n, const czk_num_lc *other) {
    czk_lc_add_lc(&n->lc, &other->lc, NULL);
    if (n->has_value && other->has_value) czk_fr_add(&n->value, &n->value, &other->value);
    else n->has_value = false;
}

void czk_num_lc_scale(czk_num_lc *n, const czk_fr *s) {
    for (size_t i = 0; i < n->lc.len; i++) czk_fr_mul(&n->lc.terms[i].coeff, &n->lc.terms[i].coeff, s);
    if (n->has_value) czk_fr_mul(&n->value, &n->value, s);
}

void czk_num_lc_lc(czk_lc *out, const czk_num_lc *n, const czk_fr *coeff) { czk_lc_add_lc(out, &n->lc, coeff); }

bool czk_num_lc_value(const czk_num_lc *n, czk_fr *out) {
    if (n->has_value) *out = n->value;
    return n->has_value;
}
