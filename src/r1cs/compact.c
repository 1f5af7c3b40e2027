/* czk — the compact R1CS (include/czk/r1cs_compact.h): its coefficient
 * dictionary, conversions from and to the CSR, sizes and densities. The
 * recording mode is in cs.c, evaluation in compact_eval.c, files in
 * compact_file.c. */
#include <stdlib.h>
#include <string.h>

#include "compact_dict.h"
#include "czk/mem.h"
#include "czk/r1cs_compact.h"

/* ---- dictionary ------------------------------------------------------------ */

static size_t hash_slot(const czk_fr *v, size_t mask) {
    uint64_t h = v->l[0] ^ (v->l[1] * 0x9e3779b97f4a7c15ULL) ^ (v->l[2] * 0xc2b2ae3d27d4eb4fULL) ^
                 (v->l[3] * 0x165667b19e3779f9ULL);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (size_t)h & mask;
}

static void slot_insert(uint32_t *slots, size_t n_slots, const czk_fr *vals, uint32_t i) {
    size_t mask = n_slots - 1, s = hash_slot(&vals[i], mask);
    while (slots[s]) s = (s + 1) & mask;
    slots[s] = i + 1;
}

/* Appends v as a new entry (no lookup); false when out of memory. */
static bool dict_append(czk_r1cs_dict *d, const czk_fr *v) {
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 256;
        czk_fr *p = d->vals ? czk_mem_realloc(d->vals, cap * sizeof(czk_fr))
                            : czk_mem_alloc(cap * sizeof(czk_fr), CZK_MEM_R1CS);
        if (!p) return false;
        d->vals = p;
        d->cap = cap;
    }
    if (2 * (d->n + 1) > d->n_slots) {
        size_t ns = d->n_slots ? 2 * d->n_slots : 1024;
        uint32_t *s = calloc(ns, sizeof *s);
        if (!s) return false;
        for (size_t i = 0; i < d->n; i++) slot_insert(s, ns, d->vals, (uint32_t)i);
        free(d->slots);
        d->slots = s;
        d->n_slots = ns;
    }
    d->vals[d->n] = *v;
    slot_insert(d->slots, d->n_slots, d->vals, (uint32_t)d->n);
    d->n++;
    return true;
}

czk_err czk_r1cs_dict_init(czk_r1cs_dict *d) {
    memset(d, 0, sizeof *d);
    czk_fr_neg(&d->minus_one, &CZK_FR_ONE);
    if (!dict_append(d, &CZK_FR_ONE) || !dict_append(d, &d->minus_one)) {
        czk_r1cs_dict_free(d);
        return CZK_ERR_NO_MEMORY;
    }
    return CZK_OK;
}

void czk_r1cs_dict_free(czk_r1cs_dict *d) {
    czk_mem_free(d->vals);
    free(d->slots);
    memset(d, 0, sizeof *d);
}

czk_err czk_r1cs_dict_add_slow(czk_r1cs_dict *d, const czk_fr *v, uint16_t *idx) {
    size_t mask = d->n_slots - 1;
    for (size_t s = hash_slot(v, mask); d->slots[s]; s = (s + 1) & mask) {
        uint32_t i = d->slots[s] - 1;
        if (!memcmp(&d->vals[i], v, sizeof *v)) {
            *idx = (uint16_t)i;
            return CZK_OK;
        }
    }
    if (d->n >= CZK_R1CS_COMPACT_DICT_MAX) return CZK_ERR_UNSUPPORTED;
    if (!dict_append(d, v)) return CZK_ERR_NO_MEMORY;
    *idx = (uint16_t)(d->n - 1);
    return CZK_OK;
}

czk_fr *czk_r1cs_dict_take(czk_r1cs_dict *d, size_t *n) {
    czk_fr *p = czk_mem_realloc(d->vals, d->n * sizeof(czk_fr));
    if (!p) return NULL;
    *n = d->n;
    d->vals = NULL;
    d->n = d->cap = 0;
    return p;
}

/* ---- conversions ----------------------------------------------------------- */

void czk_r1cs_compact_free(czk_r1cs_compact *r) {
    czk_csr_compact *m[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++) {
        czk_mem_free(m[k]->row_ptr);
        czk_mem_free(m[k]->col);
        czk_mem_free(m[k]->coeff);
    }
    czk_mem_free(r->dict);
    memset(r, 0, sizeof *r);
}

size_t czk_r1cs_compact_bytes(const czk_r1cs_compact *r) {
    size_t total = r->n_dict * sizeof(czk_fr);
    const czk_csr_compact *m[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++)
        if (m[k]->row_ptr) total += (r->n_constraints + 1) * 4 + (size_t)m[k]->nnz * 6;
    return total;
}

static void put_msg(char *msg, size_t msglen, const char *text) {
    if (msg && msglen) {
        size_t n = strlen(text);
        if (n >= msglen) n = msglen - 1;
        memcpy(msg, text, n);
        msg[n] = 0;
    }
}

czk_err czk_r1cs_compact_from_csr(czk_r1cs_compact *out, const czk_r1cs *r, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    const czk_csr *src[3] = {&r->a, &r->b, &r->c};
    czk_csr_compact *dst[3] = {&out->a, &out->b, &out->c};
    const size_t nc = r->n_constraints;
    for (int k = 0; k < 3; k++)
        if (src[k]->nnz > UINT32_MAX || nc >= UINT32_MAX) {
            put_msg(msg, msglen, "a matrix has 2^32 or more terms (or rows): beyond the compact form's 32-bit offsets");
            return CZK_ERR_UNSUPPORTED;
        }
    czk_r1cs_dict d;
    if (czk_r1cs_dict_init(&d)) {
        put_msg(msg, msglen, "out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    czk_err e = CZK_OK;
    for (int k = 0; k < 3 && !e; k++) {
        dst[k]->nnz = src[k]->nnz;
        dst[k]->row_ptr = czk_mem_alloc((nc + 1) * 4, CZK_MEM_R1CS);
        if (src[k]->nnz) {
            dst[k]->col = czk_mem_alloc(src[k]->nnz * 4, CZK_MEM_R1CS);
            dst[k]->coeff = czk_mem_alloc(src[k]->nnz * 2, CZK_MEM_R1CS);
        }
        if (!dst[k]->row_ptr || (src[k]->nnz && (!dst[k]->col || !dst[k]->coeff))) e = CZK_ERR_NO_MEMORY;
        else if (src[k]->nnz) memcpy(dst[k]->col, src[k]->col, src[k]->nnz * 4);
        if (!e)
            for (size_t i = 0; i <= nc; i++) dst[k]->row_ptr[i] = (uint32_t)src[k]->row_ptr[i];
    }
    /* the dictionary in the order a recording meets the values: row by row, A, B, C */
    for (size_t i = 0; i < nc && !e; i++)
        for (int k = 0; k < 3 && !e; k++)
            for (uint64_t j = src[k]->row_ptr[i]; j < src[k]->row_ptr[i + 1] && !e; j++)
                e = czk_r1cs_dict_add(&d, &src[k]->coeff[j], &dst[k]->coeff[j]);
    if (!e && !(out->dict = czk_r1cs_dict_take(&d, &out->n_dict))) e = CZK_ERR_NO_MEMORY;
    czk_r1cs_dict_free(&d);
    if (e) {
        put_msg(msg, msglen, e == CZK_ERR_UNSUPPORTED ? "more than 65536 distinct coefficients" : "out of memory");
        czk_r1cs_compact_free(out);
        return e;
    }
    out->n_inputs = r->n_inputs;
    out->n_aux = r->n_aux;
    out->n_constraints = nc;
    return CZK_OK;
}

czk_err czk_r1cs_compact_to_csr(czk_r1cs *out, const czk_r1cs_compact *r, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    const czk_csr_compact *src[3] = {&r->a, &r->b, &r->c};
    czk_csr *dst[3] = {&out->a, &out->b, &out->c};
    const size_t nc = r->n_constraints;
    for (int k = 0; k < 3; k++) {
        dst[k]->nnz = src[k]->nnz;
        dst[k]->row_ptr = czk_mem_alloc((nc + 1) * 8, CZK_MEM_R1CS);
        if (src[k]->nnz) {
            dst[k]->col = czk_mem_alloc(src[k]->nnz * 4, CZK_MEM_R1CS);
            dst[k]->coeff = czk_mem_alloc(src[k]->nnz * sizeof(czk_fr), CZK_MEM_R1CS);
        }
        if (!dst[k]->row_ptr || (src[k]->nnz && (!dst[k]->col || !dst[k]->coeff))) {
            czk_r1cs_free(out);
            put_msg(msg, msglen, "out of memory");
            return CZK_ERR_NO_MEMORY;
        }
        for (size_t i = 0; i <= nc; i++) dst[k]->row_ptr[i] = src[k]->row_ptr[i];
        if (src[k]->nnz) memcpy(dst[k]->col, src[k]->col, src[k]->nnz * 4);
        for (uint64_t j = 0; j < src[k]->nnz; j++) {
            if (src[k]->coeff[j] >= r->n_dict) {
                czk_r1cs_free(out);
                put_msg(msg, msglen, "a coefficient index is beyond the dictionary");
                return CZK_ERR_INVALID_ARGUMENT;
            }
            dst[k]->coeff[j] = r->dict[src[k]->coeff[j]];
        }
    }
    out->n_inputs = r->n_inputs;
    out->n_aux = r->n_aux;
    out->n_constraints = nc;
    return CZK_OK;
}

/* ---- densities ------------------------------------------------------------- */

czk_err czk_r1cs_compact_density(const czk_r1cs_compact *r, czk_bitmap *a_aux, czk_bitmap *b_input,
                                 czk_bitmap *b_aux) {
    memset(a_aux, 0, sizeof *a_aux);
    memset(b_input, 0, sizeof *b_input);
    memset(b_aux, 0, sizeof *b_aux);
    bool *zero = calloc(r->n_dict ? r->n_dict : 1, 1);
    czk_err e = zero ? CZK_OK : CZK_ERR_NO_MEMORY;
    if (!e) e = czk_bitmap_init(a_aux, r->n_aux);
    if (!e) e = czk_bitmap_init(b_input, r->n_inputs);
    if (!e) e = czk_bitmap_init(b_aux, r->n_aux);
    if (e) {
        free(zero);
        czk_bitmap_free(a_aux);
        czk_bitmap_free(b_input);
        czk_bitmap_free(b_aux);
        return e;
    }
    for (size_t i = 0; i < r->n_dict; i++) zero[i] = czk_fr_is_zero(&r->dict[i]);
    const size_t ni = r->n_inputs;
    for (uint64_t j = 0; j < r->a.nnz; j++)
        if (r->a.col[j] >= ni && !zero[r->a.coeff[j]]) czk_bitmap_set(a_aux, r->a.col[j] - ni);
    for (uint64_t j = 0; j < r->b.nnz; j++) {
        if (zero[r->b.coeff[j]]) continue;
        uint32_t col = r->b.col[j];
        if (col < ni) czk_bitmap_set(b_input, col);
        else czk_bitmap_set(b_aux, col - ni);
    }
    free(zero);
    return CZK_OK;
}
