/* czk — a, b, c from the compact R1CS: the values and buffers of
 * czk_r1cs_eval_abc and czk_r1cs_eval_abc_packed (eval.c), with the same
 * structure (rows split over the pool, the packed form a chunk at a time). */
#include <string.h>

#include "czk/mem.h"
#include "czk/r1cs_compact.h"

/* Σ dict[coeff]·w[col] over one row: index 0 (one) adds, index 1 (minus
 * one) subtracts, any other multiplies. Cost: one Fr add or sub per entry
 * plus one Fr mul per entry whose index is above 1. */
static inline void row_dot(czk_fr *out, const czk_csr_compact *m, const czk_fr *dict, size_t row,
                           const czk_fr *input, size_t n_input, const czk_fr *aux) {
    czk_fr acc = {{0}}, t;
    for (uint32_t j = m->row_ptr[row], end = m->row_ptr[row + 1]; j < end; j++) {
        uint32_t col = m->col[j];
        const czk_fr *x = col < n_input ? &input[col] : &aux[col - n_input];
        uint16_t k = m->coeff[j];
        if (k == 0) {
            czk_fr_add(&acc, &acc, x);
        } else if (k == 1) {
            czk_fr_sub(&acc, &acc, x);
        } else {
            czk_fr_mul(&t, x, &dict[k]);
            czk_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

/* rows [base + begin, base + end) into a, b, c at [begin, end) */
typedef struct {
    const czk_r1cs_compact *r;
    const czk_witness *w;
    czk_fr *a, *b, *c;
    size_t base;
} eval_job;

static void eval_rows(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    const eval_job *job = ctx;
    const czk_r1cs_compact *r = job->r;
    const czk_fr *in = job->w->input, *aux = job->w->aux;
    size_t nc = r->n_constraints, ni = r->n_inputs;
    for (size_t k = begin; k < end; k++) {
        const size_t i = job->base + k;
        if (i < nc) {
            row_dot(&job->a[k], &r->a, r->dict, i, in, ni, aux);
            row_dot(&job->b[k], &r->b, r->dict, i, in, ni, aux);
            row_dot(&job->c[k], &r->c, r->dict, i, in, ni, aux);
        } else {
            job->a[k] = in[i - nc];
            czk_fr_set_zero(&job->b[k]);
            czk_fr_set_zero(&job->c[k]);
        }
    }
}

static bool counts_match(const czk_r1cs_compact *r, const czk_witness *w) {
    return r->n_inputs == w->n_input && r->n_aux == w->n_aux && r->n_inputs >= 1 && w->input &&
           (r->n_aux == 0 || w->aux);
}

czk_err czk_r1cs_compact_eval_abc(const czk_r1cs_compact *r, const czk_witness *w, czk_fr **a, czk_fr **b,
                                  czk_fr **c, czk_pool *pool) {
    *a = *b = *c = NULL;
    if (!counts_match(r, w)) return CZK_ERR_MISMATCH;
    size_t n = r->n_constraints + r->n_inputs;
    if (n > SIZE_MAX / sizeof(czk_fr)) return CZK_ERR_NO_MEMORY;
    /* room for the whole evaluation domain, zero beyond n, as eval.c */
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

czk_err czk_r1cs_compact_eval_abc_packed(const czk_r1cs_compact *r, const czk_witness *w, czk_fr_packed **a,
                                         czk_fr_packed **b, czk_fr_packed **c, czk_pool *pool) {
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
