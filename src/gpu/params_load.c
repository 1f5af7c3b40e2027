/* czk — a params file streamed to the device (params_load.h): the file is
 * read into two pinned buffers in turn (czk_params_stream_read), each
 * buffer's DMA to the query's final place on the device overlapping the
 * read into the other; a kernel on a second stream decodes each chunk in
 * place once it has landed (the uncompressed encodings and the resident
 * affine layout are the same size). The host never holds more than the
 * two buffers, the vk and the inputs' few A and B points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/groth16_io.h"
#include "czk/mem.h"
#include "gpu_err.h"
#include "gpu_internal.h"
#include "gpu_stage.h"
#include "params_load.h"

#define CHUNK_DEFAULT ((size_t)256 << 20)
#define CHUNK_MIN ((size_t)1 << 20)

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void czk_params_device_free(struct czk_params_device *d) {
    if (!d) return;
    czk_params_free(&d->inputs);
    free(d);
}

void czk_gpu_params_bases_free(czk_gpu_params_bases *b) {
    if (!b) return;
    czk_gpu_g1_bases_free(b->h);
    czk_gpu_g1_bases_free(b->l);
    czk_gpu_g1_bases_free(b->a);
    czk_gpu_g1_bases_free(b->b_g1);
    czk_gpu_g2_bases_free(b->b_g2);
    memset(b, 0, sizeof *b);
}

typedef struct {
    czk_gpu *g;
    int curve;
    cudaStream_t copy, dec;
    uint8_t *pin[2];
    size_t cap;
    cudaEvent_t done[2]; /* the DMA out of pin[k] is over */
    bool used[2];
    int slot;
    void *dev[CZK_PARAMS_N_SECTIONS];
    size_t bytes[CZK_PARAMS_N_SECTIONS];
    unsigned long long *bad; /* device: one report a section */
    czk_params_layout lay;
    struct czk_params_device *host; /* the inputs' points */
    size_t n_prefix;                /* how many of a, b_g1, b_g2 it keeps (the vk's n_ic) */
    double t_read0, read_s, wait_s;
} loader;

static czk_err l_begin(void *ctx, const czk_params_layout *lay, char *msg, size_t msglen) {
    loader *L = ctx;
    L->lay = *lay;
    size_t total = 0;
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS; s++) {
        L->bytes[s] = lay->n[s] * czk_params_section_point_bytes((czk_params_section)s);
        total += L->bytes[s];
    }
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS; s++) {
        if (!L->bytes[s]) continue;
        char inner[256] = "";
        const czk_err e = (czk_err)czk_gpu_dev_alloc(L->g, &L->dev[s], L->bytes[s], "the params' queries", inner,
                                                     sizeof inner);
        if (e != CZK_OK) {
            L->dev[s] = NULL;
            return czk_fail(msg, msglen, e,
                            "the parameters' queries need %.2f GiB on the device (h %.2f, l %.2f, a %.2f, b_g1 "
                            "%.2f, b_g2 %.2f GiB), czk holds %.2f GiB of its cap of %.2f GiB there: at section %s: %s",
                            total / 1073741824.0, L->bytes[0] / 1073741824.0, L->bytes[1] / 1073741824.0,
                            L->bytes[2] / 1073741824.0, L->bytes[3] / 1073741824.0, L->bytes[4] / 1073741824.0,
                            czk_gpu_mem_used(L->g) / 1073741824.0, czk_gpu_mem_cap(L->g) / 1073741824.0,
                            czk_params_section_name((czk_params_section)s), inner);
        }
    }
    /* the pinned buffers: no larger than the largest section */
    size_t largest = CZK_G2_UNCOMPRESSED_BYTES;
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS; s++) largest = L->bytes[s] > largest ? L->bytes[s] : largest;
    if (L->cap > largest) L->cap = largest;
    for (int k = 0; k < 2; k++) {
        const cudaError_t ce = cudaHostAlloc((void **)&L->pin[k], L->cap, cudaHostAllocDefault);
        if (ce != cudaSuccess) {
            L->pin[k] = NULL;
            (void)cudaGetLastError();
            return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "cannot pin 2 x %zu MiB of host memory to read the "
                            "parameters: %s", L->cap >> 20, cudaGetErrorString(ce));
        }
    }
    /* the inputs' points: as many as the vk has IC points */
    L->n_prefix = (size_t)((lay->vk_bytes - czk_vk_encoded_size(0)) / CZK_G1_UNCOMPRESSED_BYTES);
    czk_params *in = &L->host->inputs;
    const size_t na = L->n_prefix < lay->n[CZK_PARAMS_A] ? L->n_prefix : lay->n[CZK_PARAMS_A];
    const size_t nb = L->n_prefix < lay->n[CZK_PARAMS_B_G1] ? L->n_prefix : lay->n[CZK_PARAMS_B_G1];
    const size_t nb2 = L->n_prefix < lay->n[CZK_PARAMS_B_G2] ? L->n_prefix : lay->n[CZK_PARAMS_B_G2];
    in->a = na ? czk_mem_alloc(na * sizeof *in->a, CZK_MEM_SRS) : NULL;
    in->b_g1 = nb ? czk_mem_alloc(nb * sizeof *in->b_g1, CZK_MEM_SRS) : NULL;
    in->b_g2 = nb2 ? czk_mem_alloc(nb2 * sizeof *in->b_g2, CZK_MEM_SRS) : NULL;
    in->n_a = na, in->n_b_g1 = nb, in->n_b_g2 = nb2;
    if ((na && !in->a) || (nb && !in->b_g1) || (nb2 && !in->b_g2))
        return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory for the inputs' A and B points");
    L->t_read0 = now_s();
    return CZK_OK;
}

static czk_err l_buffer(void *ctx, uint8_t **buf, size_t *cap, char *msg, size_t msglen) {
    loader *L = ctx;
    const double t0 = now_s();
    if (L->used[L->slot]) CZK_CUDA_CK(cudaEventSynchronize(L->done[L->slot]));
    const double t1 = now_s();
    L->wait_s += t1 - t0;
    L->t_read0 = t1;
    *buf = L->pin[L->slot];
    *cap = L->cap;
    return CZK_OK;
}

/* The inputs' points of section s among [first, first + count): decoded
 * on the host as czk_params_read decodes them (trusted: on the curve, no
 * subgroup check). */
static czk_err keep_inputs(loader *L, czk_params_section s, size_t first, size_t count, const uint8_t *buf,
                           char *msg, size_t msglen) {
    czk_params *in = &L->host->inputs;
    size_t keep = s == CZK_PARAMS_A ? in->n_a : s == CZK_PARAMS_B_G1 ? in->n_b_g1 : s == CZK_PARAMS_B_G2 ? in->n_b_g2 : 0;
    const size_t psize = czk_params_section_point_bytes(s);
    for (size_t i = first; i < keep && i < first + count; i++) {
        const uint8_t *p = buf + (i - first) * psize;
        czk_err e;
        bool inf;
        if (s == CZK_PARAMS_B_G2) {
            e = czk_g2_decode_uncompressed(&in->b_g2[i], p, CZK_DECODE_TRUSTED);
            inf = e == CZK_OK && czk_g2_affine_is_infinity(&in->b_g2[i]);
        } else {
            czk_g1_affine *dst = s == CZK_PARAMS_A ? &in->a[i] : &in->b_g1[i];
            e = czk_g1_decode_uncompressed(dst, p, CZK_DECODE_TRUSTED);
            inf = e == CZK_OK && czk_g1_affine_is_infinity(dst);
        }
        if (e != CZK_OK || inf)
            return czk_fail(msg, msglen, CZK_ERR_FORMAT, "params: section %s, point %zu of %zu (offset %llu): %s",
                            czk_params_section_name(s), i, L->lay.n[s],
                            (unsigned long long)(L->lay.offset[s] + (unsigned long long)i * psize),
                            inf ? "point at infinity (bellperson rejects it)" : czk_err_str(e));
    }
    return CZK_OK;
}

static czk_err l_chunk(void *ctx, czk_params_section s, size_t first, size_t count, uint8_t *buf, char *msg,
                       size_t msglen) {
    loader *L = ctx;
    L->read_s += now_s() - L->t_read0;
    const size_t psize = czk_params_section_point_bytes(s);
    const int k = L->slot;
    char *dst = (char *)L->dev[s] + first * psize;
    CZK_CUDA_CK(cudaMemcpyAsync(dst, buf, count * psize, cudaMemcpyHostToDevice, L->copy));
    CZK_CUDA_CK(cudaEventRecord(L->done[k], L->copy));
    L->used[k] = true;
    L->slot ^= 1;
    CZK_CUDA_CK(cudaStreamWaitEvent(L->dec, L->done[k], 0));
    CZK_CUDA_CK(czk_gpu_launch_params_decode(dst, count, s == CZK_PARAMS_B_G2, first, L->curve, L->bad + s, L->dec));
    /* the host reads the buffer while the DMA does: both only read it */
    return keep_inputs(L, s, first, count, buf, msg, msglen);
}

static const char *reason_text(unsigned why) {
    switch (why) {
    case CZK_GPU_PARAMS_BAD_COMPRESSION: return czk_err_str(CZK_ERR_COMPRESSION_FLAG);
    case CZK_GPU_PARAMS_BAD_INFINITY_NOT_ZERO: return czk_err_str(CZK_ERR_INFINITY_NOT_ZERO);
    case CZK_GPU_PARAMS_BAD_SORT: return czk_err_str(CZK_ERR_SORT_FLAG);
    case CZK_GPU_PARAMS_BAD_INFINITY: return "point at infinity (bellperson rejects it)";
    case CZK_GPU_PARAMS_BAD_NOT_CANONICAL: return czk_err_str(CZK_ERR_NOT_CANONICAL);
    case CZK_GPU_PARAMS_BAD_NOT_ON_CURVE: return czk_err_str(CZK_ERR_NOT_ON_CURVE);
    default: return "refused";
    }
}

/* After the last chunk: every copy and decode done, then the first refused
 * point of each section, in file order. */
static czk_err finish_checks(loader *L, const char *path, char *msg, size_t msglen) {
    CZK_CUDA_CK(cudaStreamSynchronize(L->copy));
    CZK_CUDA_CK(cudaStreamSynchronize(L->dec));
    unsigned long long bad[CZK_PARAMS_N_SECTIONS];
    CZK_CUDA_CK(cudaMemcpy(bad, L->bad, sizeof bad, cudaMemcpyDeviceToHost));
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS; s++) {
        if (bad[s] == ~0ull) continue;
        const size_t i = (size_t)(bad[s] >> 8);
        const size_t psize = czk_params_section_point_bytes((czk_params_section)s);
        return czk_fail(msg, msglen, CZK_ERR_FORMAT, "%s: params: section %s, point %zu of %zu (offset %llu): %s",
                        path, czk_params_section_name((czk_params_section)s), i, L->lay.n[s],
                        (unsigned long long)(L->lay.offset[s] + (unsigned long long)i * psize),
                        reason_text((unsigned)(bad[s] & 0xff)));
    }
    return CZK_OK;
}

static czk_err loader_open(loader *L, czk_gpu *g, const czk_params_load_options *o, char *msg, size_t msglen) {
    memset(L, 0, sizeof *L);
    L->g = g;
    L->curve = o && o->check_curve;
    L->cap = o && o->chunk_bytes ? o->chunk_bytes : CHUNK_DEFAULT;
    if (L->cap < CHUNK_MIN) L->cap = CHUNK_MIN;
    CZK_CUDA_CK(cudaSetDevice(czk_gpu_ordinal(g)));
    CZK_CUDA_CK(cudaStreamCreateWithFlags(&L->copy, cudaStreamNonBlocking));
    CZK_CUDA_CK(cudaStreamCreateWithFlags(&L->dec, cudaStreamNonBlocking));
    for (int k = 0; k < 2; k++) CZK_CUDA_CK(cudaEventCreateWithFlags(&L->done[k], cudaEventDisableTiming));
    czk_err e = (czk_err)czk_gpu_dev_alloc(g, (void **)&L->bad, CZK_PARAMS_N_SECTIONS * sizeof *L->bad,
                                           "the params' decode reports", msg, msglen);
    if (e != CZK_OK) {
        L->bad = NULL;
        return e;
    }
    CZK_CUDA_CK(cudaMemsetAsync(L->bad, 0xff, CZK_PARAMS_N_SECTIONS * sizeof *L->bad, L->dec));
    L->host = calloc(1, sizeof *L->host);
    if (!L->host) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    return CZK_OK;
}

/* Everything the loader still holds: the streams are drained first, so no
 * copy or kernel touches what is freed. */
static void loader_close(loader *L) {
    if (L->copy) cudaStreamSynchronize(L->copy);
    if (L->dec) cudaStreamSynchronize(L->dec);
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS; s++)
        if (L->dev[s]) czk_gpu_dev_free(L->g, L->dev[s], L->bytes[s]);
    if (L->bad) czk_gpu_dev_free(L->g, L->bad, CZK_PARAMS_N_SECTIONS * sizeof *L->bad);
    for (int k = 0; k < 2; k++) {
        if (L->pin[k]) cudaFreeHost(L->pin[k]);
        if (L->done[k]) cudaEventDestroy(L->done[k]);
    }
    if (L->copy) cudaStreamDestroy(L->copy);
    if (L->dec) cudaStreamDestroy(L->dec);
    czk_params_device_free(L->host);
    (void)cudaGetLastError();
}

/* The device queries as handles; the loader lets go of each adopted one. */
static czk_err make_bases(loader *L, czk_gpu_params_bases *b, char *msg, size_t msglen) {
    czk_gpu_g1_bases **g1[4] = {&b->h, &b->l, &b->a, &b->b_g1};
    czk_err e = CZK_OK;
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS && e == CZK_OK; s++) {
        if (!L->dev[s]) continue;
        e = s == CZK_PARAMS_B_G2 ? czk_gpu_g2_bases_adopt(L->g, L->dev[s], L->lay.n[s], &b->b_g2, msg, msglen)
                                 : czk_gpu_g1_bases_adopt(L->g, L->dev[s], L->lay.n[s], g1[s], msg, msglen);
        if (e == CZK_OK) L->dev[s] = NULL;
    }
    if (e != CZK_OK) czk_gpu_params_bases_free(b);
    return e;
}

czk_err czk_gpu_params_load(czk_gpu *g, const char *path, const czk_params_load_options *opts, czk_params *out,
                            czk_gpu_params_bases *bases, czk_params_load_stats *stats, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    memset(bases, 0, sizeof *bases);
    if (stats) memset(stats, 0, sizeof *stats);
    if (!g || !path) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    const double t0 = now_s();
    loader L;
    czk_err e = loader_open(&L, g, opts, msg, msglen);
    czk_vk vk = {0};
    czk_params_layout lay;
    if (e == CZK_OK) {
        const czk_params_sink sink = {&L, l_begin, l_buffer, l_chunk};
        e = czk_params_stream_read(path, &vk, &lay, &sink, opts ? opts->readers : 0, msg, msglen);
    }
    if (e == CZK_OK) e = finish_checks(&L, path, msg, msglen);
    if (e == CZK_OK) e = make_bases(&L, bases, msg, msglen);
    if (e == CZK_OK) {
        out->vk = vk;
        out->n_h = lay.n[CZK_PARAMS_H];
        out->n_l = lay.n[CZK_PARAMS_L];
        out->n_a = lay.n[CZK_PARAMS_A];
        out->n_b_g1 = lay.n[CZK_PARAMS_B_G1];
        out->n_b_g2 = lay.n[CZK_PARAMS_B_G2];
        out->device = L.host;
        L.host = NULL;
        if (stats) {
            stats->file_bytes = lay.file_bytes;
            stats->seconds = now_s() - t0;
            stats->read_s = L.read_s;
            stats->wait_s = L.wait_s;
            stats->gb_per_s = stats->seconds > 0 ? (double)lay.file_bytes / stats->seconds / 1e9 : 0;
        }
    } else {
        czk_vk_free(&vk);
    }
    loader_close(&L);
    if (e != CZK_OK) czk_gpu_trim(g); /* the queries' blocks, cached by the frees, back to the device */
    return e;
}
