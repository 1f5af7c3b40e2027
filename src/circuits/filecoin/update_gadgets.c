/* czk — storage-proofs-update src/gadgets.rs (allocated_num_to_allocated_bits,
 * apex_por, gen_challenge_bits, get_challenge_high_bits, label_r_new) and
 * the hashes the update circuits call (filecoin-hashers' Sha256Function::
 * hash2_circuit, neptune's poseidon_hash on POSEIDON_CONSTANTS_GEN_RANDOMNESS),
 * in bellperson's order. See update_internal.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_insert.h"
#include "czk/gadget_poseidon.h"
#include "czk/gadget_sha256.h"
#include "czk/gadget_uint32.h"
#include "update_internal.h"

void update_push_ns(czk_cs *cs, const char *fmt, ...) {
    if (czk_cs_get_mode(cs) != CZK_CS_CHECK) {
        czk_cs_push_namespace(cs, NULL);
        return;
    }
    char name[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    czk_cs_push_namespace(cs, name);
}

unsigned update_log2(uint64_t x) { return x ? (unsigned)(63 - __builtin_clzll(x)) : 0; }

const czk_poseidon_constants *update_gen_randomness_constants(void) {
    return czk_poseidon_constants_gen_randomness();
}

czk_err update_hash_gen_randomness(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b) {
    const czk_poseidon_constants *c = update_gen_randomness_constants();
    if (!c) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "the gen-randomness Poseidon constants are missing");
    const czk_num pre[2] = {*a, *b};
    return czk_poseidon_hash_gadget_with(cs, out, pre, c);
}

czk_err update_alloc_domain(czk_cs *cs, czk_num *out, const char *ns, const uint8_t *bytes, const char *input_ns,
                            const char *what) {
    czk_fr v;
    if (bytes && !czk_domain_to_fr(&v, bytes))
        return czk_cs_error(cs, CZK_ERR_NOT_CANONICAL, "%s is not a canonical field element", what);
    czk_cs_push_namespace(cs, ns);
    czk_err e = czk_num_alloc(cs, out, bytes ? &v : NULL);
    czk_cs_pop_namespace(cs);
    if (e || !input_ns) return e;
    czk_cs_push_namespace(cs, input_ns);
    e = czk_num_inputize(cs, out);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err update_sha256_hash2(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b) {
    czk_boolean pre[512], le[256], digest[256], packed[256];
    const czk_num *x[2] = {a, b};
    static const char *const ns[2] = {"a_bits", "b_bits"};
    czk_err e = CZK_OK;
    for (unsigned i = 0; i < 2 && !e; i++) {
        czk_cs_push_namespace(cs, ns[i]);
        e = czk_num_to_bits_le(cs, le, x[i]);
        czk_cs_pop_namespace(cs);
        le[255] = czk_boolean_constant(false);
        for (unsigned byte = 0; byte < 32; byte++)
            for (unsigned k = 0; k < 8; k++) pre[256 * i + 8 * byte + k] = le[8 * byte + 7 - k];
    }
    if (e) return e;
    czk_cs_push_namespace(cs, "hash");
    e = czk_sha256(cs, digest, pre, 512);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    for (unsigned byte = 0; byte < 32; byte++)
        for (unsigned k = 0; k < 8; k++) packed[8 * byte + k] = digest[8 * byte + 7 - k];
    czk_cs_push_namespace(cs, "pack_le");
    e = czk_multipack_pack_bits(cs, out, packed, UPDATE_FR_CAPACITY);
    czk_cs_pop_namespace(cs);
    return e;
}

/* "name": (Σ 2^i·bits_i) · ONE = v. */
static void enforce_binary_decomp(czk_cs *cs, const char *name, const czk_bit *bits, size_t n, czk_var v) {
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    czk_fr pow2 = CZK_FR_ONE;
    for (size_t i = 0; i < n; i++) {
        czk_lc_add(&la, bits[i].var, &pow2);
        czk_fr_dbl(&pow2, &pow2);
    }
    czk_lc_add(&lb, CZK_VAR_ONE, NULL);
    czk_lc_add(&lc, v, NULL);
    czk_cs_enforce(cs, name, &la, &lb, &lc);
    czk_lc_free(&la);
    czk_lc_free(&lb);
    czk_lc_free(&lc);
}

czk_err update_num_to_allocated_bits(czk_cs *cs, czk_bit out[UPDATE_FR_NUM_BITS], const czk_num *num) {
    czk_err e = czk_field_into_allocated_bits_le(cs, out, num->has_value ? &num->value : NULL);
    if (e) return e;
    enforce_binary_decomp(cs, "binary decomp", out, UPDATE_FR_NUM_BITS, num->var);
    return CZK_OK;
}

czk_err update_apex_por(czk_cs *cs, const czk_num *apex_leafs, size_t n_apex, const czk_bit *partition_bits,
                        size_t n_bits, const czk_num *partition_path, const czk_num *comm_d) {
    if (!n_apex || (n_apex & (n_apex - 1)))
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "apex_por: %zu apex leaves (a power of two)", n_apex);
    czk_num *row = malloc(n_apex * sizeof *row);
    if (!row) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "apex_por: out of memory");
    memcpy(row, apex_leafs, n_apex * sizeof *row);
    czk_err e = CZK_OK;
    size_t n = n_apex;
    for (unsigned r = 0; n > 1 && !e; r++, n /= 2)
        for (size_t i = 0; i < n / 2 && !e; i++) {
            update_push_ns(cs, "apex_tree generation hash (tree_row=%u, siblings=%zu)", r, i);
            czk_num h;
            e = update_sha256_hash2(cs, &h, &row[2 * i], &row[2 * i + 1]);
            czk_cs_pop_namespace(cs);
            row[i] = h; /* row[2i], row[2i + 1] are read before row[i] is written */
        }
    czk_num root = row[0];
    free(row);
    if (e) return e;
    czk_por_shape d = {.hasher = CZK_HASHER_SHA256, .base_arity = 2, .base_levels = n_bits};
    czk_cs_push_namespace(cs, "partition-tree por");
    e = czk_por_no_challenge_input(cs, &d, partition_bits, &root, partition_path, comm_d);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err update_gen_challenge_bits(czk_cs *cs, czk_bit *out, const czk_num *comm_r_new, const czk_num *partition,
                                  size_t challenges, size_t bits_per_challenge) {
    if (!bits_per_challenge || bits_per_challenge > UPDATE_FR_CAPACITY)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "gen_challenge_bits: %zu bits per challenge",
                            bits_per_challenge);
    const size_t per_digest = UPDATE_FR_CAPACITY / bits_per_challenge;
    /* (challenges as f32 / per_digest as f32).ceil(): exact for these sizes */
    const uint64_t digests = (challenges + per_digest - 1) / per_digest;
    czk_fr f_digests;
    czk_fr_from_u64(&f_digests, digests);
    size_t generated = 0;
    czk_err e = CZK_OK;
    for (uint64_t j = 0; j < digests && !e; j++) {
        czk_fr f_j, v;
        czk_fr_from_u64(&f_j, j);
        if (partition->has_value) {
            czk_fr_mul(&v, &partition->value, &f_digests);
            czk_fr_add(&v, &v, &f_j);
        }
        czk_num index, digest;
        update_push_ns(cs, "digest_index_%llu", (unsigned long long)j);
        e = czk_num_alloc(cs, &index, partition->has_value ? &v : NULL);
        czk_cs_pop_namespace(cs);
        if (e) break;
        char name[96] = "digest_index == k * digests_per_partition + j";
        if (czk_cs_get_mode(cs) == CZK_CS_CHECK)
            snprintf(name, sizeof name, "digest_index_%llu == k * digests_per_partition + %llu",
                     (unsigned long long)j, (unsigned long long)j);
        if (czk_cs_needs_lc(cs)) {
            czk_lc la = {0}, lb = {0}, lc = {0};
            czk_lc_add(&la, partition->var, &f_digests);
            czk_lc_add(&la, CZK_VAR_ONE, &f_j); /* kept when j = 0: an explicit zero term */
            czk_lc_add(&lb, CZK_VAR_ONE, NULL);
            czk_lc_add(&lc, index.var, NULL);
            czk_cs_enforce(cs, name, &la, &lb, &lc);
            czk_lc_free(&la);
            czk_lc_free(&lb);
            czk_lc_free(&lc);
        } else {
            czk_cs_enforce(cs, name, NULL, NULL, NULL);
        }
        update_push_ns(cs, "digest_%llu", (unsigned long long)j);
        e = update_hash_gen_randomness(cs, &digest, comm_r_new, &index);
        czk_cs_pop_namespace(cs);
        if (e) break;
        czk_bit bits[UPDATE_FR_NUM_BITS];
        update_push_ns(cs, "digest_%llu_bits", (unsigned long long)j);
        e = update_num_to_allocated_bits(cs, bits, &digest);
        czk_cs_pop_namespace(cs);
        if (e) break;
        size_t take = j == digests - 1 ? challenges - generated : per_digest;
        for (size_t c = 0; c < take; c++, generated++)
            memcpy(&out[generated * bits_per_challenge], &bits[c * bits_per_challenge],
                   bits_per_challenge * sizeof *bits);
    }
    return e;
}

czk_err update_challenge_high_bits(czk_cs *cs, czk_num *out, const czk_bit *c_bits, size_t bit_len,
                                   const czk_bit h_select_bits[CZK_UPDATE_HS], const uint32_t hs[CZK_UPDATE_HS]) {
    czk_num zeros[CZK_UPDATE_HS];
    bool lcs = czk_cs_needs_lc(cs), check = czk_cs_get_mode(cs) == CZK_CS_CHECK;
    czk_err e = CZK_OK;
    for (unsigned k = 0; k < CZK_UPDATE_HS && !e; k++) {
        const uint32_t h = hs[k];
        if (h > bit_len || h > UPDATE_FR_CAPACITY)
            return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "get_challenge_high_bits: h %u of %zu bits", h,
                                bit_len);
        czk_boolean high[UPDATE_FR_CAPACITY];
        for (uint32_t i = 0; i < h; i++) high[i] = czk_boolean_is(&c_bits[bit_len - h + i]);
        czk_num c_high;
        update_push_ns(cs, "c_high (h=%u, k=%u)", h, k);
        e = czk_multipack_pack_bits(cs, &c_high, high, h);
        czk_cs_pop_namespace(cs);
        if (e) break;
        const czk_bit *sel = &h_select_bits[k];
        czk_fr v, zero;
        czk_fr_set_zero(&zero);
        const czk_fr *pv = NULL;
        if (sel->has_value) pv = !sel->value ? &zero : c_high.has_value ? &c_high.value : NULL;
        if (pv) v = *pv;
        update_push_ns(cs, "c_high_or_zero (h=%u, k=%u)", h, k);
        e = czk_num_alloc(cs, &zeros[k], pv ? &v : NULL);
        czk_cs_pop_namespace(cs);
        if (e) break;
        char name[96] = "c_high_or_zero == c_high * h_select_bit";
        if (check) snprintf(name, sizeof name, "c_high_or_zero == c_high * h_select_bit (h=%u, k=%u)", h, k);
        if (lcs) {
            czk_lc la = {0}, lb = {0}, lc = {0};
            czk_lc_add(&la, c_high.var, NULL);
            czk_lc_add(&lb, sel->var, NULL);
            czk_lc_add(&lc, zeros[k].var, NULL);
            czk_cs_enforce(cs, name, &la, &lb, &lc);
            czk_lc_free(&la);
            czk_lc_free(&lb);
            czk_lc_free(&lc);
        } else {
            czk_cs_enforce(cs, name, NULL, NULL, NULL);
        }
    }
    if (e) return e;
    czk_fr sum;
    bool known = true;
    czk_fr_set_zero(&sum);
    for (unsigned k = 0; k < CZK_UPDATE_HS; k++) {
        if (!zeros[k].has_value) known = false;
        else czk_fr_add(&sum, &sum, &zeros[k].value);
    }
    czk_cs_push_namespace(cs, "c_high_selected");
    e = czk_num_alloc(cs, out, known ? &sum : NULL);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    const char *name = "c_high_selected == dot(c_highs, h_select_bits)";
    if (!lcs) {
        czk_cs_enforce(cs, name, NULL, NULL, NULL);
        return CZK_OK;
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    for (unsigned k = 0; k < CZK_UPDATE_HS; k++) czk_lc_add(&la, zeros[k].var, NULL);
    czk_lc_add(&lb, CZK_VAR_ONE, NULL);
    czk_lc_add(&lc, out->var, NULL);
    czk_cs_enforce(cs, name, &la, &lb, &lc);
    czk_lc_free(&la);
    czk_lc_free(&lb);
    czk_lc_free(&lc);
    return CZK_OK;
}

czk_err update_label_r_new(czk_cs *cs, czk_num *out, const czk_num *label_r_old, const czk_num *label_d_new,
                           const czk_num *rho) {
    czk_num prod;
    czk_cs_push_namespace(cs, "label_d_new * rho");
    czk_err e = czk_num_mul(cs, &prod, label_d_new, rho);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_fr v;
    bool known = label_r_old->has_value && prod.has_value;
    if (known) czk_fr_add(&v, &label_r_old->value, &prod.value);
    czk_cs_push_namespace(cs, "label_r_new");
    e = czk_num_alloc(cs, out, known ? &v : NULL);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    const char *name = "label_r_new == label_r_old + label_d_new * rho";
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, name, NULL, NULL, NULL);
        return CZK_OK;
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    czk_lc_add(&la, label_r_old->var, NULL);
    czk_lc_add(&la, prod.var, NULL);
    czk_lc_add(&lb, CZK_VAR_ONE, NULL);
    czk_lc_add(&lc, out->var, NULL);
    czk_cs_enforce(cs, name, &la, &lb, &lc);
    czk_lc_free(&la);
    czk_lc_free(&lb);
    czk_lc_free(&lc);
    return CZK_OK;
}
