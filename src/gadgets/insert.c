/* czk — storage-proofs-core gadgets::insertion (insert, insert_2/4/8,
 * select, pick). See gadget_insert.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_insert.h"
#include "gadget_internal.h"

czk_err czk_pick(czk_cs *cs, czk_num *out, const czk_boolean *condition, const czk_num *a, const czk_num *b) {
    bool cv = false, has = czk_boolean_value(condition, &cv) && (cv ? a->has_value : b->has_value);
    czk_num c;
    czk_var av = a->var, bv = b->var; /* out may alias a or b */
    czk_cs_push_namespace(cs, "pick result");
    czk_err e = czk_num_alloc(cs, &c, has ? (cv ? &a->value : &b->value) : NULL);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, "pick", NULL, NULL, NULL);
    } else { /* (b - a) · condition = b - c */
        czk_lc la = {0}, lb = {0}, lc = {0};
        czk_lc_add(&la, bv, NULL);
        czk_lc_sub(&la, av, NULL);
        czk_boolean_lc(&lb, condition, NULL);
        czk_lc_add(&lc, bv, NULL);
        czk_lc_sub(&lc, c.var, NULL);
        czk_cs_enforce(cs, "pick", &la, &lb, &lc);
        czk_lc_free(&la);
        czk_lc_free(&lb);
        czk_lc_free(&lc);
    }
    *out = c;
    return CZK_OK;
}

czk_err czk_select(czk_cs *cs, czk_num *out, const czk_num *from, size_t n_from, const czk_boolean *bits,
                   size_t n_bits) {
    if (n_bits >= 31 || ((size_t)1 << n_bits) != n_from)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "select: %zu elements for %zu bits", n_from, n_bits);
    czk_num *state = malloc(n_from * sizeof *state);
    if (!state) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "select: out of memory");
    memcpy(state, from, n_from * sizeof *state);
    size_t half = n_from / 2;
    czk_err e = CZK_OK;
    for (size_t i = 0; i < n_bits && !e; i++, half /= 2) {
        const czk_boolean *bit = &bits[n_bits - 1 - i];
        for (size_t j = 0; j < half && !e; j++) {
            char name[48] = "pick";
            if (czk_cs_get_mode(cs) == CZK_CS_CHECK) snprintf(name, sizeof name, "pick %zu, %zu", i, j);
            czk_cs_push_namespace(cs, name);
            /* state[j] is overwritten after state[j] and state[half + j] were read */
            e = czk_pick(cs, &state[j], bit, &state[half + j], &state[j]);
            czk_cs_pop_namespace(cs);
        }
    }
    if (!e) *out = state[0];
    free(state);
    return e;
}

/* pick in namespace `name` */
static czk_err npick(czk_cs *cs, const char *name, czk_num *out, const czk_boolean *cond, const czk_num *a,
                     const czk_num *b) {
    czk_cs_push_namespace(cs, name);
    czk_err e = czk_pick(cs, out, cond, a, b);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err czk_insert_2(czk_cs *cs, czk_num out[2], const czk_num *element, const czk_boolean bits[1],
                     const czk_num elements[1]) {
    czk_num r[2];
    czk_err e = npick(cs, "binary insert 0", &r[0], &bits[0], &elements[0], element);
    if (!e) e = npick(cs, "binary insert 1", &r[1], &bits[0], element, &elements[0]);
    if (!e) memcpy(out, r, sizeof r);
    return e;
}

czk_err czk_insert_4(czk_cs *cs, czk_num out[4], const czk_num *element, const czk_boolean bits[2],
                     const czk_num elements[3]) {
    const czk_boolean *b0 = &bits[0], *b1 = &bits[1];
    const czk_num *a = element, *b = &elements[0], *c = &elements[1], *d = &elements[2];
    czk_num t, p[4];
    czk_err e;
    if ((e = npick(cs, "p0_x0", &t, b0, b, a))) return e;
    if ((e = npick(cs, "p0", &p[0], b1, b, &t))) return e;
    if ((e = npick(cs, "p1_x0", &t, b0, a, b))) return e;
    if ((e = npick(cs, "p1", &p[1], b1, c, &t))) return e;
    if ((e = npick(cs, "p2_x1", &t, b0, d, a))) return e;
    if ((e = npick(cs, "p2", &p[2], b1, &t, c))) return e;
    if ((e = npick(cs, "p3_x1", &t, b0, a, d))) return e;
    if ((e = npick(cs, "p3", &p[3], b1, &t, d))) return e;
    memcpy(out, p, sizeof p);
    return CZK_OK;
}

czk_err czk_insert_8(czk_cs *cs, czk_num out[8], const czk_num *element, const czk_boolean bits[3],
                     const czk_num elements[7]) {
    const czk_boolean *b0 = &bits[0], *b1 = &bits[1], *b2 = &bits[2];
    if (b0->kind != CZK_BOOLEAN_IS || b1->kind != CZK_BOOLEAN_IS)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "insert_8: bits must be allocated and unnegated");
    const czk_num *a = element, *b = &elements[0], *c = &elements[1], *d = &elements[2], *e_ = &elements[3],
                  *f = &elements[4], *g = &elements[5], *h = &elements[6];
    czk_bit nor_bit, and_bit;
    czk_err e;
    czk_cs_push_namespace(cs, "b0 nor b1");
    e = czk_bit_nor(cs, &nor_bit, &b0->bit, &b1->bit);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_cs_push_namespace(cs, "b0 and b1");
    e = czk_bit_and(cs, &and_bit, &b0->bit, &b1->bit);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_boolean nor = czk_boolean_is(&nor_bit), and = czk_boolean_is(&and_bit);
    czk_num t, u, p[8];
    if ((e = npick(cs, "p0_xx0", &t, &nor, a, b))) return e;
    if ((e = npick(cs, "p0", &p[0], b2, b, &t))) return e;
    if ((e = npick(cs, "p1_x00", &t, b0, a, b))) return e;
    if ((e = npick(cs, "p1_xx0", &u, b1, c, &t))) return e;
    if ((e = npick(cs, "p1", &p[1], b2, c, &u))) return e;
    if ((e = npick(cs, "p2_x10", &t, b0, d, a))) return e;
    if ((e = npick(cs, "p2_xx0", &u, b1, &t, c))) return e;
    if ((e = npick(cs, "p2", &p[2], b2, d, &u))) return e;
    if ((e = npick(cs, "p3_xx0", &t, &and, a, d))) return e;
    if ((e = npick(cs, "p3", &p[3], b2, e_, &t))) return e;
    if ((e = npick(cs, "p4_xx1", &t, &nor, a, f))) return e;
    if ((e = npick(cs, "p4", &p[4], b2, &t, e_))) return e;
    if ((e = npick(cs, "p5_x01", &t, b0, a, f))) return e;
    if ((e = npick(cs, "p5_xx1", &u, b1, g, &t))) return e;
    if ((e = npick(cs, "p5", &p[5], b2, &u, f))) return e;
    if ((e = npick(cs, "p6_x11", &t, b0, h, a))) return e;
    if ((e = npick(cs, "p6_xx1", &u, b1, &t, g))) return e;
    if ((e = npick(cs, "p6", &p[6], b2, &u, g))) return e;
    if ((e = npick(cs, "p7_xx1", &t, &and, a, h))) return e;
    if ((e = npick(cs, "p7", &p[7], b2, &t, h))) return e;
    memcpy(out, p, sizeof p);
    return CZK_OK;
}

czk_err czk_insert(czk_cs *cs, czk_num *out, const czk_num *element, const czk_boolean *bits, size_t n_bits,
                   const czk_num *elements, size_t n_elements) {
    size_t size = n_elements + 1;
    if (n_bits >= 31 || ((size_t)1 << n_bits) != size)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "insert: %zu elements for %zu bits", n_elements, n_bits);
    if (size == 2) return czk_insert_2(cs, out, element, bits, elements);
    if (size == 4) return czk_insert_4(cs, out, element, bits, elements);
    if (size == 8) return czk_insert_8(cs, out, element, bits, elements);
    czk_num *choices = malloc(size * sizeof *choices), *res = malloc(size * sizeof *res);
    czk_err e = CZK_OK;
    if (!choices || !res) e = czk_cs_error(cs, CZK_ERR_NO_MEMORY, "insert: out of memory");
    for (size_t pos = 0; pos < size && !e; pos++) {
        /* potential result for index: elements[..index] ++ [element] ++ elements[index..] */
        for (size_t index = 0; index < size; index++)
            choices[index] = pos < index ? elements[pos] : pos == index ? *element : elements[pos - 1];
        czk_gadget_push_ns_idx(cs, "choice at %ld", (long)pos);
        e = czk_select(cs, &res[pos], choices, size, bits, n_bits);
        czk_cs_pop_namespace(cs);
    }
    if (!e) memcpy(out, res, size * sizeof *res);
    free(choices);
    free(res);
    return e;
}
