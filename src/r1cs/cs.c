/* czk — constraint systems in their three modes (recording, witness-only,
 * checking) and the drivers that run a circuit in each.
 *
 * WITNESS mode is the hot path for 130M-variable circuits: an alloc is a
 * bounds check and a 32-byte store into a growable czk_mem buffer, enforce
 * only counts, namespaces only count their depth. COUNT mode is RECORD
 * without the matrices: per constraint it adds the LCs' term counts and sets
 * density bits, so a 130M-constraint circuit is measured in bounded memory.
 * RECORD with the compact flag (czk_r1cs_compact_record) writes u32 offsets,
 * u32 columns and u16 dictionary indices instead of the CSR: to circuits it
 * is RECORD mode. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compact_dict.h"
#include "czk/r1cs.h"
#include "czk/r1cs_compact.h"
#include "vec.h"

/* While recording, an aux column is stored as its index with this bit set;
 * the final column (index + n_inputs) is known only once synthesis ends. */
#define AUX_BIT 0x80000000u
#define MAX_VARS ((size_t)AUX_BIT - 1) /* n_inputs + n_aux must stay below */

typedef struct {
    r1cs_vec row_ptr; /* uint64_t */
    r1cs_vec col;     /* uint32_t */
    r1cs_vec coeff;   /* czk_fr */
} matrix;

typedef struct {
    r1cs_vec row_ptr; /* uint32_t */
    r1cs_vec col;     /* uint32_t */
    r1cs_vec coeff;   /* uint16_t: dictionary index */
} cmatrix;

struct czk_cs {
    czk_cs_mode mode;
    czk_err err; /* sticky: the first internal failure */
    bool has_msg;
    char msg[256];

    size_t n_input, n_aux, n_constraints;
    bool values_known;  /* values are stored in input/aux */
    r1cs_vec input;     /* czk_fr */
    r1cs_vec aux;       /* czk_fr */
    czk_mem_tag value_tag;
    bool fixed_aux;     /* aux is a slice of a caller's buffer: it never grows
                         * (czk_witness_generate_parts) */

    matrix m[3]; /* RECORD: A, B, C */
    /* RECORD with compact set (czk_r1cs_compact_record): the compact A, B, C
     * and their dictionary instead of m */
    bool compact;
    cmatrix cm[3];
    czk_r1cs_dict dict;
    /* COUNT: terms per matrix and the density bitmaps (uint64_t words):
     * a_aux, b_input, b_aux */
    uint64_t nnz[3];
    r1cs_vec dens[3];

    size_t depth;       /* namespace depth (all modes) */
    char *path;         /* CHECK: current namespace path, NUL-terminated */
    size_t path_len, path_cap;
    size_t *ns_start;   /* CHECK: path_len before each push */
    size_t ns_cap;
    bool unsatisfied;
    char *fail_path;    /* CHECK: malloc'd path of the first failing constraint */
};

/* ---- errors ---------------------------------------------------------------- */

static void set_msgv(czk_cs *cs, const char *fmt, va_list ap) {
    if (cs->has_msg) return;
    vsnprintf(cs->msg, sizeof cs->msg, fmt, ap);
    cs->has_msg = true;
}

static void set_msg(czk_cs *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_msg(czk_cs *cs, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    set_msgv(cs, fmt, ap);
    va_end(ap);
}

czk_err czk_cs_error(czk_cs *cs, czk_err code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    set_msgv(cs, fmt, ap);
    va_end(ap);
    return code;
}

static czk_err fail(czk_cs *cs, czk_err code, const char *what) {
    if (!cs->err) {
        cs->err = code;
        set_msg(cs, "%s", what);
    }
    return cs->err;
}

/* ---- queries --------------------------------------------------------------- */

bool czk_cs_needs_lc(const czk_cs *cs) { return cs->mode != CZK_CS_WITNESS; }
czk_cs_mode czk_cs_get_mode(const czk_cs *cs) { return cs->mode; }
size_t czk_cs_num_inputs(const czk_cs *cs) { return cs->n_input; }
size_t czk_cs_num_aux(const czk_cs *cs) { return cs->n_aux; }
size_t czk_cs_num_constraints(const czk_cs *cs) { return cs->n_constraints; }

bool czk_cs_value(const czk_cs *cs, czk_var v, czk_fr *out) {
    if (!cs->values_known) return false;
    if (v.is_input) {
        if (v.index >= cs->n_input) return false;
        *out = ((const czk_fr *)cs->input.p)[v.index];
    } else {
        if (v.index >= cs->n_aux) return false;
        *out = ((const czk_fr *)cs->aux.p)[v.index];
    }
    return true;
}

/* ---- allocation ------------------------------------------------------------ */

static void drop_values(czk_cs *cs) {
    cs->values_known = false;
    vec_free(&cs->input);
    vec_free(&cs->aux);
}

static czk_err alloc_slow(czk_cs *cs, r1cs_vec *vals, size_t *count, const czk_fr *value, const char *name,
                          bool input) {
    if (cs->err) return cs->err;
    if (cs->n_input + cs->n_aux >= MAX_VARS) return fail(cs, CZK_ERR_UNSUPPORTED, "more than 2^31 - 1 variables");
    if (cs->mode == CZK_CS_COUNT) {
        /* density bits for the new variable: a_aux and b_aux per aux, b_input per input */
        size_t words = (*count + 1 + 63) / 64;
        for (int k = input ? 1 : 0; k < 3; k += input ? 3 : 2) {
            r1cs_vec *d = &cs->dens[k];
            if (d->len < words) {
                if (!vec_reserve(d, words, sizeof(uint64_t), CZK_MEM_R1CS))
                    return fail(cs, CZK_ERR_NO_MEMORY, "out of memory for the density bitmaps");
                ((uint64_t *)d->p)[d->len++] = 0;
            }
        }
        (*count)++;
        return CZK_OK;
    }
    if (!value) {
        if (cs->mode != CZK_CS_RECORD) {
            cs->err = CZK_ERR_SYNTHESIS;
            set_msg(cs, "%s variable %zu (%s) has no value", input ? "input" : "aux", *count, name ? name : "?");
            return cs->err;
        }
        if (cs->values_known) drop_values(cs);
    } else if (cs->values_known) {
        if (vals == &cs->aux && cs->fixed_aux && vals->len >= vals->cap)
            return fail(cs, CZK_ERR_MISMATCH, "this part allocates more aux variables than part 0");
        if (!vec_reserve(vals, vals->len + 1, sizeof(czk_fr), cs->value_tag))
            return fail(cs, CZK_ERR_NO_MEMORY, "out of memory for the assignment");
        ((czk_fr *)vals->p)[vals->len++] = *value;
    }
    (*count)++;
    return CZK_OK;
}

czk_err czk_cs_alloc(czk_cs *cs, czk_var *out, const char *name, const czk_fr *value) {
    out->index = (uint32_t)cs->n_aux;
    out->is_input = 0;
    r1cs_vec *v = &cs->aux;
    /* fast path: a value, room in the buffer, no error, under the limit */
    if (value && cs->values_known && v->len < v->cap && !cs->err && cs->n_input + cs->n_aux < MAX_VARS) {
        ((czk_fr *)v->p)[v->len++] = *value;
        cs->n_aux++;
        return CZK_OK;
    }
    return alloc_slow(cs, v, &cs->n_aux, value, name, false);
}

czk_err czk_cs_alloc_input(czk_cs *cs, czk_var *out, const char *name, const czk_fr *value) {
    out->index = (uint32_t)cs->n_input;
    out->is_input = 1;
    return alloc_slow(cs, &cs->input, &cs->n_input, value, name, true);
}

/* ---- namespaces ------------------------------------------------------------ */

static bool path_reserve(czk_cs *cs, size_t need) {
    if (need <= cs->path_cap) return true;
    size_t cap = cs->path_cap ? cs->path_cap : 128;
    while (cap < need) cap *= 2;
    char *p = realloc(cs->path, cap);
    if (!p) return false;
    cs->path = p;
    cs->path_cap = cap;
    return true;
}

void czk_cs_push_namespace(czk_cs *cs, const char *name) {
    size_t d = cs->depth++;
    if (cs->mode != CZK_CS_CHECK || cs->err) return;
    if (d >= cs->ns_cap) {
        size_t cap = cs->ns_cap ? 2 * cs->ns_cap : 16;
        size_t *s = realloc(cs->ns_start, cap * sizeof *s);
        if (!s) {
            fail(cs, CZK_ERR_NO_MEMORY, "out of memory for a namespace");
            return;
        }
        cs->ns_start = s;
        cs->ns_cap = cap;
    }
    cs->ns_start[d] = cs->path_len;
    if (!name) name = "";
    size_t n = strlen(name);
    if (!path_reserve(cs, cs->path_len + n + 2)) {
        fail(cs, CZK_ERR_NO_MEMORY, "out of memory for a namespace");
        return;
    }
    if (cs->path_len) cs->path[cs->path_len++] = '/';
    memcpy(cs->path + cs->path_len, name, n);
    cs->path_len += n;
    cs->path[cs->path_len] = 0;
}

void czk_cs_pop_namespace(czk_cs *cs) {
    if (cs->depth == 0) return;
    cs->depth--;
    if (cs->mode != CZK_CS_CHECK || cs->err) return;
    cs->path_len = cs->ns_start[cs->depth];
    if (cs->path) cs->path[cs->path_len] = 0;
}

/* ---- constraints ----------------------------------------------------------- */

static bool lc_in_range(const czk_cs *cs, const czk_lc *lc) {
    for (size_t i = 0; i < lc->len; i++) {
        const czk_var v = lc->terms[i].var;
        if (v.index >= (v.is_input ? cs->n_input : cs->n_aux)) return false;
    }
    return true;
}

static bool record_row(matrix *m, const czk_lc *lc) {
    size_t n = lc ? lc->len : 0;
    if (!vec_reserve(&m->col, m->col.len + n, sizeof(uint32_t), CZK_MEM_R1CS) ||
        !vec_reserve(&m->coeff, m->coeff.len + n, sizeof(czk_fr), CZK_MEM_R1CS) ||
        !vec_reserve(&m->row_ptr, m->row_ptr.len + 1, sizeof(uint64_t), CZK_MEM_R1CS))
        return false;
    uint32_t *col = (uint32_t *)m->col.p + m->col.len;
    czk_fr *coeff = (czk_fr *)m->coeff.p + m->coeff.len;
    for (size_t i = 0; i < n; i++) {
        const czk_lc_term *t = &lc->terms[i];
        col[i] = t->var.is_input ? t->var.index : (t->var.index | AUX_BIT);
        coeff[i] = t->coeff;
    }
    m->col.len += n;
    m->coeff.len += n;
    ((uint64_t *)m->row_ptr.p)[m->row_ptr.len++] = (uint64_t)m->col.len;
    return true;
}

/* One row of the compact form: the same terms as record_row, each
 * coefficient as its dictionary index. The caller keeps the matrix under
 * 2^32 terms. CZK_ERR_NO_MEMORY, or CZK_ERR_UNSUPPORTED for a value that
 * would be dictionary entry CZK_R1CS_COMPACT_DICT_MAX. */
static czk_err record_row_compact(cmatrix *m, czk_r1cs_dict *d, const czk_lc *lc) {
    size_t n = lc ? lc->len : 0;
    if (!vec_reserve(&m->col, m->col.len + n, sizeof(uint32_t), CZK_MEM_R1CS) ||
        !vec_reserve(&m->coeff, m->coeff.len + n, sizeof(uint16_t), CZK_MEM_R1CS) ||
        !vec_reserve(&m->row_ptr, m->row_ptr.len + 1, sizeof(uint32_t), CZK_MEM_R1CS))
        return CZK_ERR_NO_MEMORY;
    uint32_t *col = (uint32_t *)m->col.p + m->col.len;
    uint16_t *coeff = (uint16_t *)m->coeff.p + m->coeff.len;
    for (size_t i = 0; i < n; i++) {
        const czk_lc_term *t = &lc->terms[i];
        col[i] = t->var.is_input ? t->var.index : (t->var.index | AUX_BIT);
        czk_err e = czk_r1cs_dict_add(d, &t->coeff, &coeff[i]);
        if (e) return e;
    }
    m->col.len += n;
    m->coeff.len += n;
    ((uint32_t *)m->row_ptr.p)[m->row_ptr.len++] = (uint32_t)m->col.len;
    return CZK_OK;
}

static inline void bit_set(r1cs_vec *d, uint32_t i) { ((uint64_t *)d->p)[i >> 6] |= 1ULL << (i & 63); }

/* COUNT: the terms of a, b, c and their density bits (non-zero coefficients
 * only, as czk_r1cs_density counts them). */
static void count_rows(czk_cs *cs, const czk_lc *const lcs[3]) {
    for (int k = 0; k < 3; k++)
        if (lcs[k]) cs->nnz[k] += lcs[k]->len;
    if (lcs[0])
        for (size_t i = 0; i < lcs[0]->len; i++) {
            const czk_lc_term *t = &lcs[0]->terms[i];
            if (!t->var.is_input && !czk_fr_is_zero(&t->coeff)) bit_set(&cs->dens[0], t->var.index);
        }
    if (lcs[1])
        for (size_t i = 0; i < lcs[1]->len; i++) {
            const czk_lc_term *t = &lcs[1]->terms[i];
            if (!czk_fr_is_zero(&t->coeff)) bit_set(&cs->dens[t->var.is_input ? 1 : 2], t->var.index);
        }
}

static void eval_or_zero(czk_fr *out, const czk_cs *cs, const czk_lc *lc) {
    if (lc) czk_lc_eval(out, lc, cs->input.p, cs->aux.p);
    else czk_fr_set_zero(out);
}

static void note_failure(czk_cs *cs, const char *name) {
    char idx[32];
    if (!name) {
        snprintf(idx, sizeof idx, "#%zu", cs->n_constraints);
        name = idx;
    }
    size_t n = strlen(name);
    char *p = malloc(cs->path_len + n + 2);
    if (!p) {
        fail(cs, CZK_ERR_NO_MEMORY, "out of memory for a constraint path");
        return;
    }
    size_t k = 0;
    if (cs->path_len) {
        memcpy(p, cs->path, cs->path_len);
        k = cs->path_len;
        p[k++] = '/';
    }
    memcpy(p + k, name, n + 1);
    cs->fail_path = p;
    cs->unsatisfied = true;
}

void czk_cs_enforce(czk_cs *cs, const char *name, const czk_lc *a, const czk_lc *b, const czk_lc *c) {
    if (cs->mode == CZK_CS_WITNESS) {
        cs->n_constraints++;
        return;
    }
    if (cs->err) return;
    const czk_lc *lcs[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        if (!lcs[k]) continue;
        if (lcs[k]->failed) {
            fail(cs, CZK_ERR_NO_MEMORY, "out of memory while building a linear combination");
            return;
        }
        if (!lc_in_range(cs, lcs[k])) {
            cs->err = CZK_ERR_SYNTHESIS;
            set_msg(cs, "constraint %zu (%s) uses a variable that was not allocated", cs->n_constraints,
                    name ? name : "?");
            return;
        }
    }
    if (cs->mode == CZK_CS_COUNT) {
        count_rows(cs, lcs);
    } else if (cs->mode == CZK_CS_RECORD && cs->compact) {
        for (int k = 0; k < 3; k++) {
            if (cs->cm[k].col.len + (lcs[k] ? lcs[k]->len : 0) > UINT32_MAX) {
                cs->err = CZK_ERR_UNSUPPORTED;
                set_msg(cs, "constraint %zu: matrix %c reaches 2^32 terms, beyond the compact form's 32-bit offsets",
                        cs->n_constraints, "ABC"[k]);
                return;
            }
            czk_err e = record_row_compact(&cs->cm[k], &cs->dict, lcs[k]);
            if (e == CZK_ERR_UNSUPPORTED) {
                cs->err = e;
                set_msg(cs, "constraint %zu: more than %u distinct coefficients, beyond the compact form's dictionary",
                        cs->n_constraints, CZK_R1CS_COMPACT_DICT_MAX);
                return;
            }
            if (e) {
                fail(cs, CZK_ERR_NO_MEMORY, "out of memory while recording constraints");
                return;
            }
        }
    } else if (cs->mode == CZK_CS_RECORD) {
        for (int k = 0; k < 3; k++)
            if (!record_row(&cs->m[k], lcs[k])) {
                fail(cs, CZK_ERR_NO_MEMORY, "out of memory while recording constraints");
                return;
            }
    } else if (!cs->unsatisfied) { /* CHECK */
        czk_fr va, vb, vc;
        eval_or_zero(&va, cs, a);
        eval_or_zero(&vb, cs, b);
        eval_or_zero(&vc, cs, c);
        czk_fr_mul(&va, &va, &vb);
        if (!czk_fr_equal(&va, &vc)) note_failure(cs, name);
    }
    cs->n_constraints++;
}

/* ---- drivers --------------------------------------------------------------- */

static void cs_init(czk_cs *cs, czk_cs_mode mode) {
    memset(cs, 0, sizeof *cs);
    cs->mode = mode;
    cs->values_known = mode != CZK_CS_COUNT;
    cs->value_tag = mode == CZK_CS_WITNESS ? CZK_MEM_SYNTH : CZK_MEM_AUX;
}

static void cs_free(czk_cs *cs) {
    vec_free(&cs->input);
    vec_free(&cs->aux);
    for (int k = 0; k < 3; k++) {
        vec_free(&cs->m[k].row_ptr);
        vec_free(&cs->m[k].col);
        vec_free(&cs->m[k].coeff);
        vec_free(&cs->cm[k].row_ptr);
        vec_free(&cs->cm[k].col);
        vec_free(&cs->cm[k].coeff);
    }
    czk_r1cs_dict_free(&cs->dict);
    for (int k = 0; k < 3; k++) vec_free(&cs->dens[k]);
    free(cs->path);
    free(cs->ns_start);
    free(cs->fail_path);
}

static void put_msg(char *msg, size_t msglen, const char *text) {
    if (msg && msglen) snprintf(msg, msglen, "%s", text);
}

/* Allocates ONE, runs fn, and settles the result: fn's error, else the sticky
 * error. msg gets the recorded message or the error's description. */
static void settle_msg(czk_cs *cs, czk_err e, char *msg, size_t msglen);
static czk_err run(czk_cs *cs, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen) {
    czk_var one;
    czk_err e = czk_cs_alloc_input(cs, &one, "ONE", &CZK_FR_ONE);
    if (!e) e = fn(cs, ctx);
    if (!e) e = cs->err;
    settle_msg(cs, e, msg, msglen);
    return e;
}
/* msg for a failed run: fn's error or the sticky one, with the recorded message */
static void settle_msg(czk_cs *cs, czk_err e, char *msg, size_t msglen) {
    if (e) {
        char buf[320];
        snprintf(buf, sizeof buf, "synthesis failed (%s)%s%s", czk_err_str(e), cs->has_msg ? ": " : "",
                 cs->has_msg ? cs->msg : "");
        put_msg(msg, msglen, buf);
    }
}

czk_err czk_r1cs_record(czk_r1cs *out, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    czk_cs *cs = malloc(sizeof *cs);
    if (!cs) return CZK_ERR_NO_MEMORY;
    cs_init(cs, CZK_CS_RECORD);
    czk_err e = CZK_OK;
    for (int k = 0; k < 3 && !e; k++) {
        if (!vec_reserve(&cs->m[k].row_ptr, 1, sizeof(uint64_t), CZK_MEM_R1CS)) e = CZK_ERR_NO_MEMORY;
        else ((uint64_t *)cs->m[k].row_ptr.p)[cs->m[k].row_ptr.len++] = 0;
    }
    if (e) put_msg(msg, msglen, "out of memory");
    else e = run(cs, fn, ctx, msg, msglen);
    if (!e) {
        uint32_t base = (uint32_t)cs->n_input;
        for (int k = 0; k < 3; k++) {
            matrix *m = &cs->m[k];
            uint32_t *col = m->col.p;
            for (size_t i = 0; i < m->col.len; i++)
                if (col[i] & AUX_BIT) col[i] = (col[i] & ~AUX_BIT) + base;
            if (!vec_shrink(&m->row_ptr, sizeof(uint64_t), CZK_MEM_R1CS) ||
                !vec_shrink(&m->col, sizeof(uint32_t), CZK_MEM_R1CS) ||
                !vec_shrink(&m->coeff, sizeof(czk_fr), CZK_MEM_R1CS)) {
                e = CZK_ERR_NO_MEMORY;
                put_msg(msg, msglen, "out of memory");
                break;
            }
        }
    }
    if (!e) {
        out->n_inputs = cs->n_input;
        out->n_aux = cs->n_aux;
        out->n_constraints = cs->n_constraints;
        czk_csr *dst[3] = {&out->a, &out->b, &out->c};
        for (int k = 0; k < 3; k++) {
            matrix *m = &cs->m[k];
            dst[k]->row_ptr = m->row_ptr.p;
            dst[k]->col = m->col.p;
            dst[k]->coeff = m->coeff.p;
            dst[k]->nnz = m->col.len;
            *m = (matrix){0};
        }
    }
    cs_free(cs);
    free(cs);
    return e;
}

czk_err czk_r1cs_compact_record(czk_r1cs_compact *out, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    czk_cs *cs = malloc(sizeof *cs);
    if (!cs) return CZK_ERR_NO_MEMORY;
    cs_init(cs, CZK_CS_RECORD);
    cs->compact = true;
    czk_err e = czk_r1cs_dict_init(&cs->dict);
    for (int k = 0; k < 3 && !e; k++) {
        if (!vec_reserve(&cs->cm[k].row_ptr, 1, sizeof(uint32_t), CZK_MEM_R1CS)) e = CZK_ERR_NO_MEMORY;
        else ((uint32_t *)cs->cm[k].row_ptr.p)[cs->cm[k].row_ptr.len++] = 0;
    }
    if (e) put_msg(msg, msglen, "out of memory");
    else e = run(cs, fn, ctx, msg, msglen);
    if (!e && cs->n_constraints >= UINT32_MAX) {
        e = CZK_ERR_UNSUPPORTED;
        put_msg(msg, msglen, "2^32 or more constraints: beyond the compact form");
    }
    if (!e) {
        uint32_t base = (uint32_t)cs->n_input;
        for (int k = 0; k < 3; k++) {
            cmatrix *m = &cs->cm[k];
            uint32_t *col = m->col.p;
            for (size_t i = 0; i < m->col.len; i++)
                if (col[i] & AUX_BIT) col[i] = (col[i] & ~AUX_BIT) + base;
            if (!vec_shrink(&m->row_ptr, sizeof(uint32_t), CZK_MEM_R1CS) ||
                !vec_shrink(&m->col, sizeof(uint32_t), CZK_MEM_R1CS) ||
                !vec_shrink(&m->coeff, sizeof(uint16_t), CZK_MEM_R1CS)) {
                e = CZK_ERR_NO_MEMORY;
                put_msg(msg, msglen, "out of memory");
                break;
            }
        }
    }
    if (!e && !(out->dict = czk_r1cs_dict_take(&cs->dict, &out->n_dict))) {
        e = CZK_ERR_NO_MEMORY;
        put_msg(msg, msglen, "out of memory");
    }
    if (!e) {
        out->n_inputs = cs->n_input;
        out->n_aux = cs->n_aux;
        out->n_constraints = cs->n_constraints;
        czk_csr_compact *dst[3] = {&out->a, &out->b, &out->c};
        for (int k = 0; k < 3; k++) {
            cmatrix *m = &cs->cm[k];
            dst[k]->row_ptr = m->row_ptr.p;
            dst[k]->col = m->col.p;
            dst[k]->coeff = m->coeff.p;
            dst[k]->nnz = m->col.len;
            *m = (cmatrix){0};
        }
    } else {
        czk_mem_free(out->dict);
        memset(out, 0, sizeof *out);
    }
    cs_free(cs);
    free(cs);
    return e;
}

void czk_r1cs_free(czk_r1cs *r) {
    czk_csr *m[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++) {
        czk_mem_free(m[k]->row_ptr);
        czk_mem_free(m[k]->col);
        czk_mem_free(m[k]->coeff);
    }
    memset(r, 0, sizeof *r);
}

czk_err czk_witness_generate_reserve(czk_witness *out, czk_synthesize_fn fn, void *ctx, size_t n_input_hint,
                                     size_t n_aux_hint, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    czk_cs *cs = malloc(sizeof *cs);
    if (!cs) return CZK_ERR_NO_MEMORY;
    cs_init(cs, CZK_CS_WITNESS);
    czk_err e = CZK_OK;
    if ((n_input_hint && !vec_reserve(&cs->input, n_input_hint, sizeof(czk_fr), CZK_MEM_SYNTH)) ||
        (n_aux_hint && !vec_reserve(&cs->aux, n_aux_hint, sizeof(czk_fr), CZK_MEM_SYNTH))) {
        e = CZK_ERR_NO_MEMORY;
        put_msg(msg, msglen, "out of memory reserving the witness");
    }
    if (!e) e = run(cs, fn, ctx, msg, msglen);
    if (!e) {
        out->input = cs->input.p;
        out->n_input = cs->n_input;
        out->aux = cs->n_aux ? cs->aux.p : NULL;
        out->n_aux = cs->n_aux;
        cs->input = (r1cs_vec){0};
        if (cs->n_aux) cs->aux = (r1cs_vec){0};
    }
    cs_free(cs);
    free(cs);
    return e;
}

czk_err czk_witness_generate(czk_witness *out, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen) {
    return czk_witness_generate_reserve(out, fn, ctx, 0, 0, msg, msglen);
}

/* ---- a witness of independent parts, in parallel ----------------------------- */

typedef struct {
    czk_witness_part_fn fn;
    void *ctx;
    size_t n_parts, per_chunk;     /* parts 1 … n_parts - 1, per_chunk of them a chunk */
    size_t in_per, aux_per, c_per; /* part 0's inputs (ONE not counted), aux, constraints */
    czk_fr *input, *aux;           /* the witness */
    czk_err *err;                  /* per chunk */
    char (*msg)[320];              /* per chunk */
} parts_job;

/* One chunk: its parts in a WITNESS system of their own (ONE, then the
 * parts), the aux values written into the chunk's slice of the witness. */
static czk_err parts_chunk(const parts_job *j, size_t b, size_t e, char *msg, size_t msglen) {
    czk_cs *cs = malloc(sizeof *cs);
    if (!cs) {
        put_msg(msg, msglen, "out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    cs_init(cs, CZK_CS_WITNESS);
    cs->fixed_aux = true;
    cs->aux.p = j->aux ? j->aux + b * j->aux_per : NULL;
    cs->aux.cap = (e - b) * j->aux_per;
    czk_err err = vec_reserve(&cs->input, 1 + (e - b) * j->in_per, sizeof(czk_fr), CZK_MEM_SYNTH)
                      ? CZK_OK
                      : fail(cs, CZK_ERR_NO_MEMORY, "out of memory for the inputs");
    czk_var one;
    if (!err) err = czk_cs_alloc_input(cs, &one, "ONE", &CZK_FR_ONE);
    for (size_t k = b; k < e && !err; k++) {
        err = j->fn(cs, j->ctx, k);
        if (!err) err = cs->err;
        size_t done = k - b + 1;
        if (!err && (cs->n_input != 1 + done * j->in_per || cs->n_aux != done * j->aux_per ||
                     cs->n_constraints != done * j->c_per)) {
            err = CZK_ERR_MISMATCH;
            set_msg(cs, "part %zu has %zu inputs, %zu aux and %zu constraints, part 0 %zu, %zu and %zu", k,
                    cs->n_input - 1 - (done - 1) * j->in_per, cs->n_aux - (done - 1) * j->aux_per,
                    cs->n_constraints - (done - 1) * j->c_per, j->in_per, j->aux_per, j->c_per);
        }
    }
    if (!err && j->in_per)
        memcpy(j->input + 1 + b * j->in_per, (const czk_fr *)cs->input.p + 1, (e - b) * j->in_per * sizeof(czk_fr));
    settle_msg(cs, err, msg, msglen);
    cs->aux = (r1cs_vec){0}; /* the witness's, not the system's */
    cs_free(cs);
    free(cs);
    return err;
}

static void parts_task(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    const parts_job *j = ctx;
    for (size_t ch = begin; ch < end; ch++) {
        size_t b = 1 + ch * j->per_chunk;
        size_t e = b + j->per_chunk < j->n_parts ? b + j->per_chunk : j->n_parts;
        j->err[ch] = parts_chunk(j, b, e, j->msg[ch], sizeof j->msg[ch]);
    }
}

typedef struct {
    czk_witness_part_fn fn;
    void *ctx;
} part0_ctx;
static czk_err part0(czk_cs *cs, void *ctx) {
    const part0_ctx *x = ctx;
    return x->fn(cs, x->ctx, 0);
}

czk_err czk_witness_generate_parts(czk_witness *out, czk_witness_part_fn fn, void *ctx, size_t n_parts,
                                   czk_pool *pool, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (!n_parts) {
        put_msg(msg, msglen, "a witness of parts needs at least one part");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    part0_ctx x0 = {fn, ctx};
    czk_cs *cs = malloc(sizeof *cs);
    if (!cs) return CZK_ERR_NO_MEMORY;
    cs_init(cs, CZK_CS_WITNESS);
    czk_err e = run(cs, part0, &x0, msg, msglen);
    parts_job j = {.fn = fn, .ctx = ctx, .n_parts = n_parts};
    if (!e) {
        j.in_per = cs->n_input - 1;
        j.aux_per = cs->n_aux;
        j.c_per = cs->n_constraints;
        if (j.in_per + j.aux_per && (j.in_per + j.aux_per > (MAX_VARS - 1) / n_parts)) {
            e = CZK_ERR_UNSUPPORTED;
            put_msg(msg, msglen, "more than 2^31 - 1 variables");
        }
    }
    size_t n_in = 1 + n_parts * j.in_per, n_aux = n_parts * j.aux_per;
    if (!e) {
        out->input = czk_mem_alloc(n_in * sizeof(czk_fr), CZK_MEM_SYNTH);
        out->aux = n_aux ? czk_mem_alloc(n_aux * sizeof(czk_fr), CZK_MEM_SYNTH) : NULL;
        if (!out->input || (n_aux && !out->aux)) {
            e = CZK_ERR_NO_MEMORY;
            put_msg(msg, msglen, "out of memory for the witness");
        }
    }
    if (!e) {
        memcpy(out->input, cs->input.p, (1 + j.in_per) * sizeof(czk_fr));
        if (j.aux_per) memcpy(out->aux, cs->aux.p, j.aux_per * sizeof(czk_fr));
    }
    cs_free(cs);
    free(cs);
    size_t rest = n_parts - 1, chunks = 0;
    if (!e && rest) {
        size_t want = 4 * (size_t)czk_pool_slots(pool);
        chunks = rest < want ? rest : want;
        j.per_chunk = (rest + chunks - 1) / chunks;
        chunks = (rest + j.per_chunk - 1) / j.per_chunk;
        j.input = out->input;
        j.aux = out->aux;
        j.err = calloc(chunks, sizeof *j.err);
        j.msg = calloc(chunks, sizeof *j.msg);
        if (!j.err || !j.msg) {
            e = CZK_ERR_NO_MEMORY;
            put_msg(msg, msglen, "out of memory");
        } else {
            czk_pool_run(pool, chunks, 1, parts_task, &j);
            for (size_t ch = 0; ch < chunks && !e; ch++)
                if ((e = j.err[ch])) put_msg(msg, msglen, j.msg[ch]);
        }
        free(j.err);
        free(j.msg);
    }
    if (e) {
        czk_witness_free(out);
        return e;
    }
    out->n_input = n_in;
    out->n_aux = n_aux;
    return CZK_OK;
}

void czk_witness_free(czk_witness *w) {
    czk_mem_free(w->input);
    czk_mem_free(w->aux);
    memset(w, 0, sizeof *w);
}

czk_err czk_cs_check(czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen) {
    czk_cs *cs = malloc(sizeof *cs);
    if (!cs) return CZK_ERR_NO_MEMORY;
    cs_init(cs, CZK_CS_CHECK);
    czk_err e = run(cs, fn, ctx, msg, msglen);
    if (!e && cs->unsatisfied) {
        e = CZK_ERR_UNSATISFIED;
        put_msg(msg, msglen, cs->fail_path);
    }
    cs_free(cs);
    free(cs);
    return e;
}

static size_t popcount_words(const r1cs_vec *d) {
    size_t n = 0;
    for (size_t i = 0; i < d->len; i++) n += (size_t)__builtin_popcountll(((const uint64_t *)d->p)[i]);
    return n;
}

czk_err czk_r1cs_count(czk_r1cs_counts *out, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    czk_cs *cs = malloc(sizeof *cs);
    if (!cs) return CZK_ERR_NO_MEMORY;
    cs_init(cs, CZK_CS_COUNT);
    czk_err e = run(cs, fn, ctx, msg, msglen);
    if (!e) {
        out->n_inputs = cs->n_input;
        out->n_aux = cs->n_aux;
        out->n_constraints = cs->n_constraints;
        out->nnz_a = cs->nnz[0];
        out->nnz_b = cs->nnz[1];
        out->nnz_c = cs->nnz[2];
        out->a_aux_density = popcount_words(&cs->dens[0]);
        out->b_input_density = popcount_words(&cs->dens[1]);
        out->b_aux_density = popcount_words(&cs->dens[2]);
    }
    cs_free(cs);
    free(cs);
    return e;
}
