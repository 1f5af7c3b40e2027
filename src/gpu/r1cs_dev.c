/* czk — the compact R1CS on the device (gpu_internal.h's czk_gpu_r1cs*):
 * its arrays uploaded as they are through a stager's pinned buffers, plus
 * per matrix the rows longer than CZK_GPU_SPMV_SHORT_MAX terms, which
 * spmv.cu gives a warp each; and the evaluation of a, b, c from a witness
 * already on the device. */
#include <stdlib.h>
#include <string.h>

#include "gpu_host.h"

typedef struct {
    void *row_ptr, *col, *coeff, *long_rows;
    size_t b_row, b_col, b_coeff, b_long, n_long;
} dev_matrix;

struct czk_gpu_r1cs {
    czk_gpu *g;
    size_t n_inputs, n_aux, n_constraints;
    dev_matrix m[3];
    void *dict;
    size_t b_dict;
};

static size_t matrix_bytes(const czk_csr_compact *m, size_t rows) {
    return 4 * (rows + 1) + 6 * (size_t)m->nnz + 4 * ((size_t)m->nnz / (CZK_GPU_SPMV_SHORT_MAX + 1));
}

size_t czk_gpu_r1cs_bytes(const czk_r1cs_compact *r) {
    if (!r) return 0;
    return matrix_bytes(&r->a, r->n_constraints) + matrix_bytes(&r->b, r->n_constraints) +
           matrix_bytes(&r->c, r->n_constraints) + r->n_dict * sizeof(czk_fr);
}

size_t czk_gpu_r1cs_dev_bytes(const czk_gpu_r1cs *d) {
    if (!d) return 0;
    size_t b = d->b_dict;
    for (int k = 0; k < 3; k++) b += d->m[k].b_row + d->m[k].b_col + d->m[k].b_coeff + d->m[k].b_long;
    return b;
}

void czk_gpu_r1cs_free(czk_gpu_r1cs *d) {
    if (!d) return;
    for (int k = 0; k < 3; k++) {
        dev_matrix *m = &d->m[k];
        if (m->row_ptr) czk_gpu_mem_free(d->g, m->row_ptr, m->b_row);
        if (m->col) czk_gpu_mem_free(d->g, m->col, m->b_col);
        if (m->coeff) czk_gpu_mem_free(d->g, m->coeff, m->b_coeff);
        if (m->long_rows) czk_gpu_mem_free(d->g, m->long_rows, m->b_long);
    }
    if (d->dict) czk_gpu_mem_free(d->g, d->dict, d->b_dict);
    free(d);
}

/* bytes of src to a new device block *dst (NULL for 0 bytes) through st */
static czk_err put(czk_gpu *g, czk_gpu_stager *st, void **dst, size_t *have, const void *src, size_t bytes,
                   const char *what, czk_pool *pool, char *msg, size_t msglen) {
    *dst = NULL;
    *have = 0;
    if (bytes == 0) return CZK_OK;
    czk_err e = czk_gpu_mem_alloc(g, dst, bytes, what, msg, msglen);
    if (e != CZK_OK) {
        *dst = NULL;
        return e;
    }
    *have = bytes;
    return czk_gpu_stage_copy(st, *dst, src, bytes, pool, msg, msglen);
}

/* the rows of m longer than CZK_GPU_SPMV_SHORT_MAX terms (malloc; *n of them) */
static uint32_t *long_rows(const czk_csr_compact *m, size_t rows, size_t *n) {
    size_t count = 0;
    for (size_t i = 0; i < rows; i++) count += m->row_ptr[i + 1] - m->row_ptr[i] > CZK_GPU_SPMV_SHORT_MAX;
    *n = count;
    if (!count) return NULL;
    uint32_t *out = malloc(count * sizeof *out);
    if (!out) return NULL;
    count = 0;
    for (size_t i = 0; i < rows; i++)
        if (m->row_ptr[i + 1] - m->row_ptr[i] > CZK_GPU_SPMV_SHORT_MAX) out[count++] = (uint32_t)i;
    return out;
}

czk_err czk_gpu_r1cs_upload(czk_gpu *g, czk_gpu_stager *st, const czk_r1cs_compact *r, czk_pool *pool,
                            czk_gpu_r1cs **out, char *msg, size_t msglen) {
    *out = NULL;
    if (!g || !st || !r || !r->dict || r->n_dict < 2 || r->n_constraints >= UINT32_MAX)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    CZK_CUDA_CK(cudaSetDevice(g->ordinal));
    czk_gpu_r1cs *d = calloc(1, sizeof *d);
    if (!d) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    d->g = g;
    d->n_inputs = r->n_inputs;
    d->n_aux = r->n_aux;
    d->n_constraints = r->n_constraints;
    const czk_csr_compact *hm[3] = {&r->a, &r->b, &r->c};
    const size_t rows = r->n_constraints;
    czk_err e = put(g, st, &d->dict, &d->b_dict, r->dict, r->n_dict * sizeof(czk_fr), "the R1CS's dictionary", pool,
                    msg, msglen);
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        const czk_csr_compact *h = hm[k];
        dev_matrix *m = &d->m[k];
        if (!h->row_ptr || (h->nnz && (!h->col || !h->coeff)) || h->row_ptr[rows] != h->nnz) {
            e = czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "the compact R1CS's matrix %c is malformed", "ABC"[k]);
            break;
        }
        e = put(g, st, &m->row_ptr, &m->b_row, h->row_ptr, 4 * (rows + 1), "the R1CS's row offsets", pool, msg,
                msglen);
        if (e == CZK_OK)
            e = put(g, st, &m->col, &m->b_col, h->col, 4 * (size_t)h->nnz, "the R1CS's columns", pool, msg, msglen);
        if (e == CZK_OK)
            e = put(g, st, &m->coeff, &m->b_coeff, h->coeff, 2 * (size_t)h->nnz, "the R1CS's coefficients", pool,
                    msg, msglen);
        if (e != CZK_OK) break;
        /* the last DMAs above are in flight meanwhile */
        uint32_t *lr = long_rows(h, rows, &m->n_long);
        if (m->n_long && !lr) {
            e = czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
            break;
        }
        /* a staged copy has read its source when it returns */
        e = put(g, st, &m->long_rows, &m->b_long, lr, m->n_long * sizeof *lr, "the R1CS's long rows", pool, msg,
                msglen);
        free(lr);
    }
    if (e == CZK_OK) {
        const cudaError_t ce = cudaStreamSynchronize(czk_gpu_stager_stream(st));
        if (ce != cudaSuccess) e = CZK_CUDA_ERR(ce, "the R1CS's upload");
    }
    if (e != CZK_OK) {
        cudaStreamSynchronize(czk_gpu_stager_stream(st));
        (void)cudaGetLastError();
        czk_gpu_r1cs_free(d);
        return e;
    }
    *out = d;
    return CZK_OK;
}

czk_err czk_gpu_r1cs_eval_dev(const czk_gpu_r1cs *d, const void *din, const void *daux, void *const out[3],
                              size_t n_out, int wait, char *msg, size_t msglen) {
    if (!d || !din || (d->n_aux && !daux) || !out[0] || !out[1] || !out[2] ||
        n_out < d->n_constraints + d->n_inputs)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_gpu *g = d->g;
    CZK_CUDA_CK(cudaSetDevice(g->ordinal));
    for (int k = 0; k < 3; k++) {
        const dev_matrix *m = &d->m[k];
        CZK_CUDA_CK(czk_gpu_launch_spmv(m->row_ptr, m->col, m->coeff, d->dict, din, d->n_inputs, daux,
                                        d->n_constraints, d->n_constraints + d->n_inputs, n_out, k == 0, out[k],
                                        g->stream));
        CZK_CUDA_CK(czk_gpu_launch_spmv_long(m->long_rows, m->n_long, m->row_ptr, m->col, m->coeff, d->dict, din,
                                             d->n_inputs, daux, out[k], g->stream));
    }
    if (wait) CZK_CUDA_CK(cudaStreamSynchronize(g->stream));
    return CZK_OK;
}

czk_err czk_gpu_r1cs_eval(czk_gpu *g, const czk_r1cs_compact *r, const czk_witness *w, czk_fr *a, czk_fr *b,
                          czk_fr *c, size_t n_out, czk_pool *pool, char *msg, size_t msglen) {
    if (!g || !r || !w || !a || !b || !c) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    if (w->n_input != r->n_inputs || w->n_aux != r->n_aux || !w->input || (w->n_aux && !w->aux))
        return czk_fail(msg, msglen, CZK_ERR_MISMATCH, "the witness has %zu inputs and %zu aux, the R1CS %zu and %zu",
                        w->n_input, w->n_aux, r->n_inputs, r->n_aux);
    czk_gpu_stager *st = NULL;
    czk_gpu_r1cs *d = NULL;
    czk_gpu_vec *win = NULL, *waux = NULL, *v[3] = {NULL, NULL, NULL};
    czk_err e = czk_gpu_holder_stager(g, &st, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_r1cs_upload(g, st, r, pool, &d, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_vec_alloc(g, w->n_input, &win, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_vec_upload(win, w->input, msg, msglen);
    if (e == CZK_OK && w->n_aux) e = czk_gpu_vec_alloc(g, w->n_aux, &waux, msg, msglen);
    if (e == CZK_OK && waux) e = czk_gpu_vec_upload(waux, w->aux, msg, msglen);
    for (int k = 0; k < 3 && e == CZK_OK; k++) e = czk_gpu_vec_alloc(g, n_out, &v[k], msg, msglen);
    if (e == CZK_OK) {
        void *const o[3] = {v[0]->p, v[1]->p, v[2]->p};
        e = czk_gpu_r1cs_eval_dev(d, win->p, waux ? waux->p : NULL, o, n_out, 1, msg, msglen);
    }
    czk_fr *dst[3] = {a, b, c};
    for (int k = 0; k < 3 && e == CZK_OK; k++) e = czk_gpu_vec_download(v[k], dst[k], msg, msglen);
    for (int k = 0; k < 3; k++) czk_gpu_vec_free(v[k]);
    czk_gpu_vec_free(win);
    czk_gpu_vec_free(waux);
    czk_gpu_r1cs_free(d);
    return e;
}
