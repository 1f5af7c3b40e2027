/* czk — the NTT's tables on the device, cached in the czk_gpu.
 *
 * tw[e] = ω_N^e for e < N/2 with N = 2^tw_log the largest domain seen (a
 * smaller domain uses ω_n = ω_N^(N/n) by striding), then the passes' roots
 * of unity of orders up to 2^10 (czk_gpu_launch_roots); the coset tables of
 * the last domain size hold g^p and g^-p split as hi[p >> s]·lo[p & (2^s -
 * 1)], with 1/n and 1/Z(g) folded into the hi tables where a sequence
 * needs them (the CS_* slots of gpu_host.h). */
#include <stdlib.h>

#include "gpu_host.h"

static void fr_powers(czk_fr *out, const czk_fr *base, const czk_fr *start, size_t count) {
    czk_fr p = *start;
    for (size_t k = 0; k < count; k++) {
        out[k] = p;
        czk_fr_mul(&p, &p, base);
    }
}

/* Uploads host tables and waits for the copy (the host buffer is freed after). */
static czk_err upload_sync(czk_gpu *g, void *dst, const void *src, size_t bytes, char *msg, size_t msglen) {
    CZK_CUDA_CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, g->stream));
    CZK_CUDA_CK(cudaStreamSynchronize(g->stream));
    return CZK_OK;
}

/* Makes tw cover transforms of 2^log_n points. */
static czk_err ensure_twiddles(czk_gpu *g, unsigned log_n, char *msg, size_t msglen) {
    unsigned t = log_n < 1 ? 1 : log_n;
    if (g->ntt.tw && g->ntt.tw_log >= t) return CZK_OK;
    czk_gpu_mem_free(g, g->ntt.tw, g->ntt.tw_bytes);
    g->ntt.tw = NULL;
    size_t half = (size_t)1 << (t - 1);
    unsigned s = t - 1 < 12 ? t - 1 : 12;
    size_t lo_len = (size_t)1 << s, hi_len = half >> s;
    czk_fr w, ws, one = CZK_FR_ONE;
    czk_fr_root_of_unity(&w, (int)t);
    czk_fr *h = malloc((lo_len + hi_len) * sizeof(czk_fr));
    if (!h) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    fr_powers(h, &w, &one, lo_len);
    ws = h[lo_len - 1];
    czk_fr_mul(&ws, &ws, &w); /* ω^(2^s) */
    fr_powers(h + lo_len, &ws, &one, hi_len);
    void *tmp = NULL, *tw = NULL;
    size_t tw_bytes = (half + czk_gpu_roots_count()) * sizeof(czk_fr), tmp_bytes = (lo_len + hi_len) * sizeof(czk_fr);
    czk_err e = czk_gpu_mem_alloc(g, &tw, tw_bytes, "the twiddle table", msg, msglen);
    if (e == CZK_OK) e = czk_gpu_mem_alloc(g, &tmp, tmp_bytes, "the twiddle table", msg, msglen);
    if (e == CZK_OK) e = upload_sync(g, tmp, h, tmp_bytes, msg, msglen);
    if (e == CZK_OK) {
        cudaError_t ce = czk_gpu_launch_table(tw, (char *)tmp + lo_len * sizeof(czk_fr), tmp, s, half, g->stream);
        if (ce == cudaSuccess) ce = czk_gpu_launch_roots(tw, t, g->stream);
        if (ce == cudaSuccess) ce = cudaStreamSynchronize(g->stream);
        if (ce != cudaSuccess) e = CZK_CUDA_ERR(ce, "the twiddle kernels");
    }
    free(h);
    czk_gpu_mem_free(g, tmp, tmp_bytes);
    if (e != CZK_OK) {
        czk_gpu_mem_free(g, tw, tw_bytes);
        return e;
    }
    g->ntt.tw = tw;
    g->ntt.tw_bytes = tw_bytes;
    g->ntt.tw_log = t;
    return CZK_OK;
}

/* Makes the coset tables describe d. */
static czk_err ensure_coset(czk_gpu *g, const czk_domain *d, char *msg, size_t msglen) {
    if (g->ntt.cs && g->ntt.cs_log == d->log_n) return CZK_OK;
    czk_gpu_mem_free(g, g->ntt.cs, g->ntt.cs_bytes);
    g->ntt.cs = NULL;
    g->ntt.cs_log = ~0u;
    unsigned L = d->log_n, s = (L + 1) / 2;
    size_t lo_len = (size_t)1 << s, hi_len = (size_t)1 << (L - s);
    size_t total = CS_LO_COUNT * lo_len + CS_HI_COUNT * hi_len;
    czk_fr *h = malloc(total * sizeof(czk_fr));
    if (!h) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    czk_fr *lo = h, *hi = h + CS_LO_COUNT * lo_len;
    czk_fr one = CZK_FR_ONE, gs, gis, z, zn;
    fr_powers(lo + CS_GLO * lo_len, &d->coset, &one, lo_len);
    fr_powers(lo + CS_GILO * lo_len, &d->coset_inv, &one, lo_len);
    czk_fr_mul(&gs, &lo[CS_GLO * lo_len + lo_len - 1], &d->coset);      /* g^(2^s) */
    czk_fr_mul(&gis, &lo[CS_GILO * lo_len + lo_len - 1], &d->coset_inv); /* g^-(2^s) */
    czk_domain_z(d, &d->coset, &z);
    czk_fr_inv(&z, &z);
    czk_fr_mul(&zn, &z, &d->n_inv);
    fr_powers(hi + CS_GHI * hi_len, &gs, &one, hi_len);
    fr_powers(hi + CS_GHI_N * hi_len, &gs, &d->n_inv, hi_len);
    fr_powers(hi + CS_GIHI_N * hi_len, &gis, &d->n_inv, hi_len);
    fr_powers(hi + CS_GIHI_NZ * hi_len, &gis, &zn, hi_len);
    void *cs = NULL;
    size_t bytes = total * sizeof(czk_fr);
    czk_err e = czk_gpu_mem_alloc(g, &cs, bytes, "the coset tables", msg, msglen);
    if (e == CZK_OK) e = upload_sync(g, cs, h, bytes, msg, msglen);
    free(h);
    if (e != CZK_OK) {
        czk_gpu_mem_free(g, cs, bytes);
        return e;
    }
    g->ntt.cs = cs;
    g->ntt.cs_bytes = bytes;
    g->ntt.cs_log = L;
    g->ntt.cs_s = s;
    g->ntt.cs_lo_len = lo_len;
    g->ntt.cs_hi_len = hi_len;
    g->ntt.cs_nz = zn;
    return CZK_OK;
}

const void *czk_gpu_cs_lo(const czk_gpu *g, int slot) {
    return (const char *)g->ntt.cs + (size_t)slot * g->ntt.cs_lo_len * sizeof(czk_fr);
}
const void *czk_gpu_cs_hi(const czk_gpu *g, int slot) {
    return (const char *)g->ntt.cs + (CS_LO_COUNT * g->ntt.cs_lo_len + (size_t)slot * g->ntt.cs_hi_len) * sizeof(czk_fr);
}

czk_err czk_gpu_ntt_prepare(czk_gpu *g, const czk_domain *d, int coset, char *msg, size_t msglen) {
    if (!d || d->n == 0 || d->n != (size_t)1 << d->log_n || d->log_n > 31)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid domain");
    CZK_CUDA_CK(cudaSetDevice(g->ordinal));
    czk_err e = ensure_twiddles(g, d->log_n, msg, msglen);
    if (e == CZK_OK && coset) e = ensure_coset(g, d, msg, msglen);
    return e;
}

void czk_gpu_ntt_tables_free(czk_gpu *g) {
    czk_gpu_mem_free(g, g->ntt.tw, g->ntt.tw_bytes);
    czk_gpu_mem_free(g, g->ntt.cs, g->ntt.cs_bytes);
    g->ntt.tw = g->ntt.cs = NULL;
}
