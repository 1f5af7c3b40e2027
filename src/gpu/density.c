/* czk — a density map on the device (gpu_internal.h's czk_gpu_density, an
 * MSM input): its words through a stager's pinned buffers, then for each
 * word the set bits of the words before it, by a scan on the stager's copy
 * stream. */
#include <string.h>

#include "gpu_host.h"

/* the words, then the scan on the copy stream into prefix (its scratch
 * after the nw counts) */
static czk_err density_try(czk_gpu_stager *st, const czk_bitmap *d, size_t nw, czk_pool *pool, czk_gpu_density *out,
                           char *msg, size_t msglen) {
    czk_gpu *g = czk_gpu_stager_device(st);
    cudaStream_t copy = czk_gpu_stager_stream(st);
    size_t tb = 0;
    CZK_CUDA_CK(czk_gpu_density_prefix(NULL, &tb, NULL, nw, NULL, copy));
    const size_t scratch_at = (out->words_bytes + 255) & ~(size_t)255;
    czk_err e = czk_gpu_mem_alloc(g, &out->words, out->words_bytes, "the density map", msg, msglen);
    if (e != CZK_OK) return e;
    e = czk_gpu_mem_alloc(g, &out->prefix, scratch_at + tb, "the density map", msg, msglen);
    if (e != CZK_OK) return e;
    out->prefix_bytes = scratch_at + tb;
    e = czk_gpu_stage_copy(st, out->words, d->words, out->words_bytes, pool, msg, msglen);
    if (e != CZK_OK) return e;
    CZK_CUDA_CK(czk_gpu_density_prefix((char *)out->prefix + scratch_at, &tb, out->words, nw, out->prefix, copy));
    CZK_CUDA_CK(cudaStreamSynchronize(copy));
    return CZK_OK;
}

czk_err czk_gpu_density_upload_via(czk_gpu_stager *st, const czk_bitmap *d, size_t n, czk_pool *pool,
                                   czk_gpu_density *out, char *msg, size_t msglen) {
    if (out) memset(out, 0, sizeof *out);
    if (!st || !d || !out || !n || d->nbits < n)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_gpu *g = czk_gpu_stager_device(st);
    CZK_CUDA_CK(cudaSetDevice(g->ordinal));
    const size_t nw = (n + 63) / 64;
    out->g = g;
    out->n = n;
    out->nset = czk_bitmap_rank(d, n);
    out->words_bytes = nw * 8;
    czk_err e = density_try(st, d, nw, pool, out, msg, msglen);
    if (e != CZK_OK) {
        cudaStreamSynchronize(czk_gpu_stager_stream(st));
        (void)cudaGetLastError();
        czk_gpu_density_free(out);
    }
    return e;
}

void czk_gpu_density_free(czk_gpu_density *d) {
    if (!d || !d->g) return;
    cudaSetDevice(d->g->ordinal);
    czk_gpu_mem_free(d->g, d->words, d->words_bytes);
    czk_gpu_mem_free(d->g, d->prefix, d->prefix_bytes);
    memset(d, 0, sizeof *d);
}
