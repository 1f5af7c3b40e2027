/* czk — bellperson's gadgets::multipack. See gadget_uint32.h. */
#include <stdio.h>

#include "czk/gadget_uint32.h"
#include "gadget_internal.h"

/* Num of bits[0..n) with coefficients 1, 2, 4, ... (Num::add_bool_with_coeff);
 * only its value when the cs needs no LC. */
static void pack_num(czk_cs *cs, czk_num_lc *num, const czk_boolean *bits, size_t n) {
    czk_num_lc_zero(num);
    czk_fr coeff = CZK_FR_ONE;
    bool lcs = czk_cs_needs_lc(cs);
    for (size_t j = 0; j < n; j++) {
        bool v;
        if (lcs) czk_num_lc_add_bool_with_coeff(num, &bits[j], &coeff);
        else if (!czk_boolean_value(&bits[j], &v)) num->has_value = false;
        else if (v && num->has_value) czk_fr_add(&num->value, &num->value, &coeff);
        czk_fr_dbl(&coeff, &coeff);
    }
}

/* num · ONE = v */
static void enforce_packing(czk_cs *cs, const char *name, const czk_num_lc *num, czk_var v) {
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    czk_num_lc_lc(&la, num, NULL);
    czk_lc_add(&lb, CZK_VAR_ONE, NULL);
    czk_lc_add(&lc, v, NULL);
    czk_cs_enforce(cs, name, &la, &lb, &lc);
    czk_lc_free(&la);
    czk_lc_free(&lb);
    czk_lc_free(&lc);
}

czk_err czk_multipack_pack_into_inputs(czk_cs *cs, const czk_boolean *bits, size_t n) {
    bool check = czk_cs_get_mode(cs) == CZK_CS_CHECK;
    for (size_t i = 0, off = 0; off < n; i++, off += CZK_MULTIPACK_CAPACITY) {
        size_t len = n - off < CZK_MULTIPACK_CAPACITY ? n - off : CZK_MULTIPACK_CAPACITY;
        czk_num_lc num;
        pack_num(cs, &num, bits + off, len);
        char name[48] = "input";
        if (check) snprintf(name, sizeof name, "input %zu", i);
        czk_var in;
        czk_err e = czk_cs_alloc_input(cs, &in, name, num.has_value ? &num.value : NULL);
        if (e) {
            czk_num_lc_free(&num);
            return e;
        }
        if (check) snprintf(name, sizeof name, "packing constraint %zu", i);
        enforce_packing(cs, check ? name : "packing constraint", &num, in);
        czk_num_lc_free(&num);
    }
    return CZK_OK;
}

czk_err czk_multipack_pack_bits(czk_cs *cs, czk_num *out, const czk_boolean *bits, size_t n) {
    czk_num_lc num;
    pack_num(cs, &num, bits, n < CZK_MULTIPACK_CAPACITY ? n : CZK_MULTIPACK_CAPACITY);
    czk_cs_push_namespace(cs, "input");
    czk_err e = czk_num_alloc(cs, out, num.has_value ? &num.value : NULL);
    czk_cs_pop_namespace(cs);
    if (!e) enforce_packing(cs, "packing constraint", &num, out->var);
    czk_num_lc_free(&num);
    return e;
}

void czk_multipack_bytes_to_bits(bool *out, const uint8_t *bytes, size_t n) {
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 8; j++) out[8 * i + (size_t)j] = (bytes[i] >> (7 - j)) & 1;
}

void czk_multipack_bytes_to_bits_le(bool *out, const uint8_t *bytes, size_t n) {
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 8; j++) out[8 * i + (size_t)j] = (bytes[i] >> j) & 1;
}

size_t czk_multipack_compute(czk_fr *out, const bool *bits, size_t n) {
    size_t k = 0;
    for (size_t off = 0; off < n; off += CZK_MULTIPACK_CAPACITY, k++) {
        size_t len = n - off < CZK_MULTIPACK_CAPACITY ? n - off : CZK_MULTIPACK_CAPACITY;
        czk_fr cur, coeff = CZK_FR_ONE;
        czk_fr_set_zero(&cur);
        for (size_t j = 0; j < len; j++) {
            if (bits[off + j]) czk_fr_add(&cur, &cur, &coeff);
            czk_fr_dbl(&coeff, &coeff);
        }
        out[k] = cur;
    }
    return k;
}
