/* czk — H on the device (include/czk/gpu.h's czk_gpu_poly_h*, gpu_stage.h's
 * czk_gpu_poly_h_staged): the coefficients of (a·b - c)/Z on the coset gD,
 * the same values as bellperson's execute_fft (see src/poly/poly_h.c) in
 * six transforms instead of seven. Interpolation on gD is linear, and c's
 * interpolant there is c's own polynomial (degree < n), so
 *   h = (iNTT_coset(A_g·B_g) - iNTT(c)) / Z(g),
 * A_g, B_g the coset evaluations of a's and b's polynomials: c needs only
 * its inverse transform, and needs it only at the end, so that a start's
 * last upload (c) is followed by one transform instead of three. Exact
 * field arithmetic: the same h for any a, b, c, satisfied or not.
 *
 * a and b each go through an inverse DIF (coefficients in bit-reversed
 * order), the factor g^i/n on coefficient i and a forward DIT (the coset
 * evaluations in natural order); the inverse DIF's last pass, the factor
 * and the DIT's first pass are one kernel (czk_gpu_launch_pass_fused). a·b
 * is done by the first pass of its inverse DIF; c gets an inverse DIF whose
 * last pass writes h[i] = AB[rev i]·g^-i/(n·Z) - C[rev i]/(n·Z) (or, in
 * place, a bit reversal does; enqueue_h_c). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gpu_host.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* a's or b's inverse DIF, the factor g^i/n and the forward DIT, in place */
static cudaError_t enqueue_h_input(czk_gpu *g, const czk_domain *d, void *x) {
    const unsigned L = d->log_n;
    if (L == 0)
        return czk_gpu_launch_scale(x, d->n, czk_gpu_cs_hi(g, CS_GHI_N), czk_gpu_cs_lo(g, CS_GLO), g->ntt.cs_s, 0,
                                    g->stream);
    cudaError_t ce = czk_gpu_run_passes(g, x, L, 1, 0, 1, NULL);
    if (ce == cudaSuccess)
        ce = czk_gpu_launch_pass_fused(x, L, czk_gpu_last_pass_k(g, L), g->ntt.tw, g->ntt.tw_log,
                                       czk_gpu_cs_hi(g, CS_GHI_N), czk_gpu_cs_lo(g, CS_GLO), g->ntt.cs_s, g->stream);
    if (ce == cudaSuccess) ce = czk_gpu_run_passes(g, x, L, 0, 1, 1, NULL);
    return ce;
}

/* the inverse DIF of A_g·B_g, into a (a and b transformed by enqueue_h_input) */
static cudaError_t enqueue_h_ab(czk_gpu *g, const czk_domain *d, void *a, const void *b) {
    const unsigned L = d->log_n;
    return L ? czk_gpu_run_passes(g, a, L, 1, 0, 0, b) : czk_gpu_launch_mul(a, b, d->n, g->stream);
}

/* c's inverse DIF, then h into a (enqueue_h_ab done). Where b is free
 * for it (b is a's size), c's last pass writes h in natural order into b,
 * and a and b swap their buffers (pass_rev, mode 3); else c's passes run in
 * place and a bit reversal writes h into a. */
static cudaError_t enqueue_h_c(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c) {
    const unsigned L = d->log_n;
    if (L >= 1 && b && b->n == a->n && !g->knobs.separate_bitrev) {
        const cudaError_t ce = czk_gpu_run_dif_to(g, c->p, b->p, L, 1, 3, &g->ntt.cs_nz, a->p,
                                                  czk_gpu_cs_hi(g, CS_GIHI_NZ), czk_gpu_cs_lo(g, CS_GILO));
        if (ce == cudaSuccess) {
            void *t = a->p;
            a->p = b->p;
            b->p = t;
        }
        return ce;
    }
    cudaError_t ce = czk_gpu_run_passes(g, c->p, L, 1, 0, 0, NULL);
    if (ce == cudaSuccess)
        ce = czk_gpu_launch_bitrev_sub(a->p, c->p, L, &g->ntt.cs_nz, czk_gpu_cs_hi(g, CS_GIHI_NZ),
                                       czk_gpu_cs_lo(g, CS_GILO), g->ntt.cs_s, g->stream);
    return ce;
}

static cudaError_t enqueue_h(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c) {
    cudaError_t ce = enqueue_h_input(g, d, a->p);
    if (ce == cudaSuccess) ce = enqueue_h_input(g, d, b->p);
    if (ce == cudaSuccess) ce = enqueue_h_ab(g, d, a->p, b->p);
    if (ce == cudaSuccess) ce = enqueue_h_c(g, d, a, b, c);
    return ce;
}

czk_err czk_gpu_poly_h_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c,
                           char *msg, size_t msglen) {
    if (!g || !a || !b || !c || a->g != g || b->g != g || c->g != g)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = czk_gpu_ntt_prepare(g, d, 1, msg, msglen);
    if (e != CZK_OK) return e;
    if (a->n < d->n || b->n < d->n || c->n < d->n)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "device vector shorter than the domain");
    CZK_CUDA_CK(enqueue_h(g, d, a, b, c));
    CZK_CUDA_CK(cudaStreamSynchronize(g->stream));
    return CZK_OK;
}

czk_err czk_gpu_poly_h(czk_gpu *g, const czk_domain *d, czk_fr *a, const czk_fr *b, const czk_fr *c, char *msg,
                       size_t msglen) {
    if (!g || !a || !b || !c) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = czk_gpu_ntt_prepare(g, d, 1, msg, msglen);
    if (e != CZK_OK) return e;
    czk_gpu_vec *v[3] = {NULL, NULL, NULL};
    const czk_fr *src[3] = {a, b, c};
    for (int k = 0; k < 3 && e == CZK_OK; k++) e = czk_gpu_vec_alloc(g, d->n, &v[k], msg, msglen);
    /* uploads are queued in order; the kernels of a start behind its copy */
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        const cudaError_t ce =
            cudaMemcpyAsync(v[k]->p, src[k], d->n * sizeof(czk_fr), cudaMemcpyHostToDevice, g->stream);
        if (ce != cudaSuccess) e = CZK_CUDA_ERR(ce, "the upload of a, b, c");
    }
    if (e == CZK_OK) {
        const cudaError_t ce = enqueue_h(g, d, v[0], v[1], v[2]);
        if (ce != cudaSuccess) e = CZK_CUDA_ERR(ce, "the H kernels");
    }
    if (e == CZK_OK) e = czk_gpu_vec_download(v[0], a, msg, msglen);
    for (int k = 0; k < 3; k++) czk_gpu_vec_free(v[k]);
    return e;
}

czk_err czk_gpu_poly_h_staged(czk_gpu *g, const czk_domain *d, czk_fr *const src[3],
                              const czk_fr_packed *const psrc[3], czk_gpu_vec *pre[3], size_t n_have, czk_pool *pool,
                              czk_gpu_vec **h_out, void (*done)(int k, void *ctx), void *ctx, char *msg,
                              size_t msglen) {
    *h_out = NULL;
    czk_gpu_vec *v[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
        if (pre) v[k] = pre[k], pre[k] = NULL; /* ours from here on */
    }
    czk_err e = CZK_OK;
    if (!g || !d || n_have > d->n) e = CZK_ERR_INVALID_ARGUMENT;
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        const czk_fr_packed *pk = psrc ? psrc[k] : NULL;
        if (v[k] ? v[k]->g != g || v[k]->n != d->n : (!src[k] == !pk || (pk && pk->n != n_have)))
            e = CZK_ERR_INVALID_ARGUMENT;
    }
    if (e != CZK_OK) {
        for (int k = 0; k < 3; k++) czk_gpu_vec_free(v[k]);
        return czk_fail(msg, msglen, e, "invalid argument");
    }
    e = czk_gpu_ntt_prepare(g, d, 1, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_own_stager(g, msg, msglen);
    int staged[3] = {v[0] == NULL, v[1] == NULL, v[2] == NULL};
    for (int k = 0; k < 3 && e == CZK_OK; k++)
        if (staged[k]) e = czk_gpu_vec_alloc(g, d->n, &v[k], msg, msglen);
    /* CZK_GPU_H_PROFILE=1: the host's time in each staged upload and in the
     * wait for the last kernels, on stderr (for tuning) */
    const int prof = getenv("CZK_GPU_H_PROFILE") && getenv("CZK_GPU_H_PROFILE")[0] == '1';
    double tp[5] = {0};
    tp[0] = now_ms();
    /* vector k's kernels run while vector k+1 is staged: a's and b's
     * transforms, then the inverse of a·b while c is staged, so that c's
     * upload is followed by one transform (enqueue_h_c) */
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        if (staged[k]) {
            /* CZK_GPU_PACK=a: a goes packed, while nothing runs on the GPU */
            const bool off = k == 0 ? czk_gpu_stager_set_pack_off(g->stager, false) : false;
            e = czk_gpu_vec_upload_staged(v[k], src[k], psrc ? psrc[k] : NULL, n_have, pool, msg, msglen);
            if (k == 0) czk_gpu_stager_set_pack_off(g->stager, off);
            if (e != CZK_OK) break;
            if (done) done(k, ctx);
        }
        tp[k + 1] = now_ms();
        cudaError_t ce = k < 2 ? enqueue_h_input(g, d, v[k]->p) : enqueue_h_c(g, d, v[0], v[1], v[2]);
        if (ce == cudaSuccess && k == 1) ce = enqueue_h_ab(g, d, v[0]->p, v[1]->p);
        if (ce != cudaSuccess) e = CZK_CUDA_ERR(ce, "the H kernels");
    }
    if (e == CZK_OK) {
        unsigned L = d->log_n;
        const cudaError_t ce = cudaStreamSynchronize(g->stream);
        if (ce != cudaSuccess) e = CZK_CUDA_ERR(ce, "the H kernels");
        tp[4] = now_ms();
        if (prof)
            fprintf(stderr, "gpu H 2^%u staged: upload a %.1f ms, b %.1f ms, c %.1f ms, then kernels %.1f ms\n", L,
                    tp[1] - tp[0], tp[2] - tp[1], tp[3] - tp[2], tp[4] - tp[3]);
    }
    czk_gpu_vec_free(v[1]);
    czk_gpu_vec_free(v[2]);
    if (e != CZK_OK) {
        czk_gpu_vec_free(v[0]);
        return e;
    }
    *h_out = v[0];
    return CZK_OK;
}
