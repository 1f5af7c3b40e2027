/* czk — evaluation of a recorded R1CS on a witness (the a, b, c vectors of
 * the prover), bellperson's density bitmaps, and a satisfaction check. */
#include <stdio.h>
#include <string.h>

#include "czk/mem.h"
#include "czk/r1cs.h"
#include "vec.h"

/* Σ coeff·w[col] over one CSR row; a coefficient equal to one skips its
 * multiplication (as bellperson's eval does). Cost: one Fr add per entry plus
 * one Fr mul per entry whose coefficient is not one. */
static inline void row_dot(czk_fr *out, const czk_csr *m, size_t row, const czk_fr *input, size_t n_input,
                           const czk_fr *aux) {
    czk_fr acc = {{0}}, t;
    for (uint64_t j = m->row_ptr[row], end = m->row_ptr[row + 1]; j < end; j++) {
        uint32_t col = m->col[j];
        const czk_fr *x = col < n_input ? &input[col] : &aux[col - n_input];
        if (czk_fr_is_one(&m->coeff[j])) {
            czk_fr_add(&acc, &acc, x);
        } else {
            czk_fr_mul(&t, x, &m->coeff[j]);
            czk_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

/* rows [base + begin, base + end) into a, b, c at [begin, end) */
typedef struct {
    const czk_r1cs *r;
    const czk_witness *w;
    czk_fr *a, *b, *c;
    size_t base;
} eval_job;

static void eval_rows(void *ctx, size_t begin, size_t end, int worker) {
    const eval_job *job = ctx;
    const czk_r1cs *r = job->r;
    const czk_fr *in = job->w->input, *aux = job->w->aux;
    size_t nc = r->n_constraints, ni = r->n_inputs;
    for (size_t k = begin; k < end; k++) {
        const size_t i = job->base + k;
        if (i < nc) {
            row_dot(&job->a[k], &r->a, i, in, ni, aux);
            row_dot(&job->b[k], &r->b, i, in, ni, aux);
            row_dot(&job->c[k], &r->c, i, in, ni, aux);
        } else {
            job->a[k] = in[i - nc];
            czk_fr_set_zero(&job->b[k]);
            czk_fr_set_zero(&job->c[k]);
        }
    }
}

static bool counts_match(const czk_r1cs *r, const czk_witness *w) {
    return r->n_inputs == w->n_input && r->n_aux == w->n_aux && r->n_inputs >= 1 && w->input &&
           (r->n_aux == 0 || w->aux);
}

czk_err czk_r1cs_eval_abc(const czk_r1cs *r, const czk_witness *w, czk_fr **a, czk_fr **b, czk_fr **c,
                          czk_pool *pool) {
    *a = *b = *c = NULL;
    if (!counts_match(r, w)) return CZK_ERR_MISMATCH;
    size_t n = r->n_constraints + r->n_inputs;
    if (n > SIZE_MAX / sizeof(czk_fr)) return CZK_ERR_NO_MEMORY;
    /* Room for the whole evaluation domain (the next power of two), zero
     * beyond n, so that the prover's NTTs can work in place without a copy. */
    size_t cap = 1;
    while (cap < n) cap <<= 1;
    eval_job job = {r, w, czk_mem_alloc(cap * sizeof(czk_fr), CZK_MEM_ABC),
                    czk_mem_alloc(cap * sizeof(czk_fr), CZK_MEM_ABC), czk_mem_alloc(cap * sizeof(czk_fr), CZK_MEM_ABC),
                    0};
    if (!job.a || !job.b || !job.c) {
        czk_mem_free(job.a);
        czk_mem_free(job.b);
        czk_mem_free(job.c);
        return CZK_ERR_NO_MEMORY;
    }
    czk_pool_run(pool, n, 4096, eval_rows, &job);
    *a = job.a;
    *b = job.b;
    *c = job.c;
    return CZK_OK;
}

czk_err czk_r1cs_eval_abc_packed(const czk_r1cs *r, const czk_witness *w, czk_fr_packed **a, czk_fr_packed **b,
                                 czk_fr_packed **c, czk_pool *pool) {
    *a = *b = *c = NULL;
    if (!counts_match(r, w)) return CZK_ERR_MISMATCH;
    const size_t n = r->n_constraints + r->n_inputs, len = n < CZK_FR_PACK_MAX ? n : CZK_FR_PACK_MAX;
    czk_fr_packed *v[3] = {NULL, NULL, NULL};
    /* one chunk of rows at a time, evaluated into these, then packed */
    eval_job job = {r, w, czk_mem_alloc(len * sizeof(czk_fr), CZK_MEM_ABC),
                    czk_mem_alloc(len * sizeof(czk_fr), CZK_MEM_ABC), czk_mem_alloc(len * sizeof(czk_fr), CZK_MEM_ABC),
                    0};
    czk_err e = job.a && job.b && job.c ? CZK_OK : CZK_ERR_NO_MEMORY;
    for (int k = 0; k < 3 && e == CZK_OK; k++) e = czk_fr_packed_new(&v[k], n, CZK_MEM_ABC);
    for (size_t i = 0; e == CZK_OK && i < v[0]->n_chunks; i++) {
        job.base = v[0]->chunks[i].off;
        czk_pool_run(pool, v[0]->chunks[i].n, 4096, eval_rows, &job);
        czk_fr *out[3] = {job.a, job.b, job.c};
        for (int k = 0; k < 3 && e == CZK_OK; k++) e = czk_fr_packed_set_chunk(v[k], i, out[k], CZK_MEM_ABC, pool);
    }
    czk_mem_free(job.a);
    czk_mem_free(job.b);
    czk_mem_free(job.c);
    if (e != CZK_OK) {
        for (int k = 0; k < 3; k++) czk_fr_packed_free(v[k]);
        return e;
    }
    *a = v[0], *b = v[1], *c = v[2];
    return CZK_OK;
}

czk_err czk_r1cs_density(const czk_r1cs *r, czk_bitmap *a_aux, czk_bitmap *b_input, czk_bitmap *b_aux) {
    memset(a_aux, 0, sizeof *a_aux);
    memset(b_input, 0, sizeof *b_input);
    memset(b_aux, 0, sizeof *b_aux);
    czk_err e = czk_bitmap_init(a_aux, r->n_aux);
    if (!e) e = czk_bitmap_init(b_input, r->n_inputs);
    if (!e) e = czk_bitmap_init(b_aux, r->n_aux);
    if (e) {
        czk_bitmap_free(a_aux);
        czk_bitmap_free(b_input);
        czk_bitmap_free(b_aux);
        return e;
    }
    size_t ni = r->n_inputs;
    for (uint64_t j = 0; j < r->a.nnz; j++)
        if (r->a.col[j] >= ni && !czk_fr_is_zero(&r->a.coeff[j])) czk_bitmap_set(a_aux, r->a.col[j] - ni);
    for (uint64_t j = 0; j < r->b.nnz; j++) {
        if (czk_fr_is_zero(&r->b.coeff[j])) continue;
        uint32_t col = r->b.col[j];
        if (col < ni) czk_bitmap_set(b_input, col);
        else czk_bitmap_set(b_aux, col - ni);
    }
    return CZK_OK;
}

czk_err czk_r1cs_is_satisfied(const czk_r1cs *r, const czk_witness *w, char *msg, size_t msglen) {
    if (!counts_match(r, w)) {
        if (msg && msglen)
            snprintf(msg, msglen, "witness has %zu inputs and %zu aux, the R1CS %zu and %zu", w->n_input, w->n_aux,
                     r->n_inputs, r->n_aux);
        return CZK_ERR_MISMATCH;
    }
    for (size_t i = 0; i < r->n_constraints; i++) {
        czk_fr va, vb, vc;
        row_dot(&va, &r->a, i, w->input, r->n_inputs, w->aux);
        row_dot(&vb, &r->b, i, w->input, r->n_inputs, w->aux);
        row_dot(&vc, &r->c, i, w->input, r->n_inputs, w->aux);
        czk_fr_mul(&va, &va, &vb);
        if (!czk_fr_equal(&va, &vc)) {
            if (msg && msglen) snprintf(msg, msglen, "constraint %zu is not satisfied", i);
            return CZK_ERR_UNSATISFIED;
        }
    }
    return CZK_OK;
}
