/* czk — NTTs on the device (include/czk/gpu.h's czk_gpu_ntt*): the plan of
 * a transform's passes and the sequences of pass launches (ntt.cu).
 *
 * A transform of 2^log_n points is an in-place DIF, bit-reversed out, or
 * its transpose (DIT), bit-reversed in and natural out: passes of at most
 * knobs.dif_max stages, the DIT's in the reverse order. Where a second
 * buffer is free, the DIF's last pass writes its points out of place in
 * natural order (czk_gpu_launch_pass_rev) instead of a bit reversal after
 * it. */
#include <stdlib.h>

#include "gpu_host.h"

/* The passes of a 2^log_n-point transform: pass i runs ks[i] stages on bits
 * [bs[i], bs[i] + ks[i]), from the top bits down to bs = 0. */
static unsigned pass_plan(const czk_gpu *g, unsigned log_n, unsigned *ks, unsigned *bs) {
    unsigned npass = (log_n + g->knobs.dif_max - 1) / g->knobs.dif_max, b = log_n;
    for (unsigned i = 0; i < npass; i++) {
        ks[i] = log_n / npass + (i < log_n % npass ? 1 : 0);
        b -= ks[i];
        bs[i] = b;
    }
    return npass;
}

cudaError_t czk_gpu_run_passes(czk_gpu *g, void *x, unsigned log_n, int inverse, int dit, int without_b0,
                               const void *mb) {
    if (log_n == 0) return cudaSuccess;
    unsigned ks[32], bs[32];
    const unsigned npass = pass_plan(g, log_n, ks, bs);
    for (unsigned t = 0; t < npass; t++) {
        const unsigned i = dit ? npass - 1 - t : t, k = ks[i];
        if (without_b0 && bs[i] == 0) continue;
        unsigned room = g->knobs.blk_log > k ? g->knobs.blk_log - k : 0, c = bs[i] < room ? bs[i] : room;
        /* lazy but for the transform's last pass (the DIF's at b = 0, the
         * DIT's at the top); passes that another kernel completes (without_b0)
         * are never the last */
        const int last = dit ? i == 0 : bs[i] == 0;
        cudaError_t ce = czk_gpu_launch_pass(x, log_n, bs[i], k, c, g->ntt.tw, g->ntt.tw_log, inverse, dit,
                                             t ? NULL : mb, !last, g->stream);
        if (ce != cudaSuccess) return ce;
    }
    return cudaSuccess;
}

static cudaError_t run_dif(czk_gpu *g, void *x, unsigned log_n, int inverse) {
    return czk_gpu_run_passes(g, x, log_n, inverse, 0, 0, NULL);
}

unsigned czk_gpu_last_pass_k(const czk_gpu *g, unsigned log_n) {
    unsigned ks[32], bs[32];
    return ks[pass_plan(g, log_n, ks, bs) - 1];
}

/* where the in-place DIF and a bit reversal would read and write every
 * point once more; x is left holding the other passes' work */
cudaError_t czk_gpu_run_dif_to(czk_gpu *g, void *x, void *out, unsigned log_n, int inverse, int mode,
                               const void *scalar, const void *y, const void *hi, const void *lo) {
    cudaError_t ce = czk_gpu_run_passes(g, x, log_n, inverse, 0, 1, NULL);
    if (ce != cudaSuccess) return ce;
    return czk_gpu_launch_pass_rev(x, out, log_n, czk_gpu_last_pass_k(g, log_n), g->ntt.tw, g->ntt.tw_log, inverse,
                                   mode, scalar, y, hi, lo, g->ntt.cs_s, g->stream);
}

/* The transform `kind` of x (2^d->log_n points, log_n >= 1) into out in
 * natural order (czk_gpu_run_dif_to), where enqueue_ntt works in place. */
static cudaError_t enqueue_ntt_to(czk_gpu *g, const czk_domain *d, void *x, void *out, czk_gpu_ntt_kind kind) {
    const unsigned L = d->log_n;
    switch (kind) {
    case CZK_GPU_NTT_INVERSE:
        return czk_gpu_run_dif_to(g, x, out, L, 1, 1, &d->n_inv, NULL, NULL, NULL);
    case CZK_GPU_NTT_COSET_INVERSE:
        return czk_gpu_run_dif_to(g, x, out, L, 1, 2, NULL, NULL, czk_gpu_cs_hi(g, CS_GIHI_N), czk_gpu_cs_lo(g, CS_GILO));
    case CZK_GPU_NTT_COSET: {
        cudaError_t ce =
            czk_gpu_launch_scale(x, d->n, czk_gpu_cs_hi(g, CS_GHI), czk_gpu_cs_lo(g, CS_GLO), g->ntt.cs_s, 0, g->stream);
        return ce != cudaSuccess ? ce : czk_gpu_run_dif_to(g, x, out, L, 0, 0, NULL, NULL, NULL, NULL);
    }
    default:
        return czk_gpu_run_dif_to(g, x, out, L, 0, 0, NULL, NULL, NULL, NULL);
    }
}

/* Enqueues the transform `kind` of x (2^d->log_n points) on g's stream; the
 * tables must be ready. */
static cudaError_t enqueue_ntt(czk_gpu *g, const czk_domain *d, void *x, czk_gpu_ntt_kind kind) {
    unsigned L = d->log_n;
    cudaError_t ce = cudaSuccess;
    switch (kind) {
    case CZK_GPU_NTT_FORWARD:
        ce = run_dif(g, x, L, 0);
        if (ce == cudaSuccess) ce = czk_gpu_launch_bitrev(x, L, 0, NULL, NULL, NULL, 0, g->stream);
        break;
    case CZK_GPU_NTT_INVERSE:
        ce = run_dif(g, x, L, 1);
        if (ce == cudaSuccess) ce = czk_gpu_launch_bitrev(x, L, 1, &d->n_inv, NULL, NULL, 0, g->stream);
        break;
    case CZK_GPU_NTT_COSET:
        ce = czk_gpu_launch_scale(x, d->n, czk_gpu_cs_hi(g, CS_GHI), czk_gpu_cs_lo(g, CS_GLO), g->ntt.cs_s, 0, g->stream);
        if (ce == cudaSuccess) ce = run_dif(g, x, L, 0);
        if (ce == cudaSuccess) ce = czk_gpu_launch_bitrev(x, L, 0, NULL, NULL, NULL, 0, g->stream);
        break;
    case CZK_GPU_NTT_COSET_INVERSE:
        ce = run_dif(g, x, L, 1);
        if (ce == cudaSuccess)
            ce = czk_gpu_launch_bitrev(x, L, 2, NULL, czk_gpu_cs_hi(g, CS_GIHI_N), czk_gpu_cs_lo(g, CS_GILO),
                                       g->ntt.cs_s, g->stream);
        break;
    default:
        ce = cudaErrorInvalidValue;
    }
    return ce;
}

static int is_coset(czk_gpu_ntt_kind kind) { return kind == CZK_GPU_NTT_COSET || kind == CZK_GPU_NTT_COSET_INVERSE; }

czk_err czk_gpu_ntt_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *v, czk_gpu_ntt_kind kind, char *msg,
                        size_t msglen) {
    if (!g || !v || v->g != g || (unsigned)kind > CZK_GPU_NTT_COSET_INVERSE)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = czk_gpu_ntt_prepare(g, d, is_coset(kind), msg, msglen);
    if (e != CZK_OK) return e;
    if (v->n < d->n) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "device vector shorter than the domain");
    /* out of place where a second vector of v's size fits (then the two
     * swap), in place with a separate bit reversal where it does not */
    const size_t bytes = v->n * sizeof(czk_fr);
    void *out = NULL;
    if (d->log_n >= 1 && v->n == d->n && !g->knobs.separate_bitrev &&
        czk_gpu_mem_alloc(g, &out, bytes, "", NULL, 0) != CZK_OK)
        out = NULL;
    if (!out) {
        CZK_CUDA_CK(enqueue_ntt(g, d, v->p, kind));
        CZK_CUDA_CK(cudaStreamSynchronize(g->stream));
        return CZK_OK;
    }
    cudaError_t ce = enqueue_ntt_to(g, d, v->p, out, kind);
    if (ce == cudaSuccess) ce = cudaStreamSynchronize(g->stream);
    if (ce == cudaSuccess) {
        void *t = v->p;
        v->p = out;
        out = t;
    } else {
        (void)cudaGetLastError();
    }
    czk_gpu_mem_free(g, out, bytes);
    return ce == cudaSuccess ? CZK_OK : CZK_CUDA_ERR(ce, "the NTT kernels");
}

czk_err czk_gpu_ntt(czk_gpu *g, const czk_domain *d, czk_fr *a, czk_gpu_ntt_kind kind, char *msg, size_t msglen) {
    if (!g || !a || (unsigned)kind > CZK_GPU_NTT_COSET_INVERSE)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = czk_gpu_ntt_prepare(g, d, is_coset(kind), msg, msglen);
    if (e != CZK_OK) return e;
    czk_gpu_vec *v = NULL;
    e = czk_gpu_vec_alloc(g, d->n, &v, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_vec_upload(v, a, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_ntt_vec(g, d, v, kind, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_vec_download(v, a, msg, msglen);
    czk_gpu_vec_free(v);
    return e;
}
