/* czk — staged uploads (gpu_stage.h): pageable host memory to the device
 * through two pinned host buffers on a copy stream, the copy into one
 * buffer running (on a pool) while the DMA engine empties the other; and
 * packed uploads (czk/fr_pack.h), whose packed chunks cross PCIe as they are
 * and are unpacked on the device. */
#include <stdlib.h>
#include <string.h>

#include "czk/fr_pack.h"
#include "gpu_host.h"

/* Two pinned host buffers and a copy stream; for packed uploads two device
 * buffers that receive the packed chunks, after the table of small values
 * (NULL: every chunk goes as it is), and a stream of the device's highest
 * priority for the unpacking kernels: on the copy stream, each unpack
 * waited for room on SMs that H's transforms held, and every later DMA
 * waited behind it. */
#define STAGE_SMALL_BYTES ((size_t)2048)
struct czk_gpu_stager {
    czk_gpu *g;
    cudaStream_t copy;
    void *pin[2];
    cudaEvent_t pin_ev[2];
    cudaEvent_t up_ev;
    void *packed;
    size_t packed_bytes;
    cudaStream_t unpack;      /* made with packed */
    cudaEvent_t land_ev[2];   /* a packed chunk is in device buffer k */
    cudaEvent_t unpack_ev[2]; /* device buffer k is unpacked, free again */
    size_t chunks_packed;     /* chunks that went packed, since the stager was opened */
    bool pack_plain;          /* CZK_GPU_PACK=1 or a: plain vectors packed on their way */
    bool pack_off;            /* CZK_GPU_PACK=a: plain uploads but where czk_gpu_poly_h_staged turns it off */
    bool packed_tried;        /* stager_packed_buffers ran */
};

czk_gpu *czk_gpu_stager_device(const czk_gpu_stager *st) { return st->g; }
cudaStream_t czk_gpu_stager_stream(const czk_gpu_stager *st) { return st->copy; }

bool czk_gpu_stager_set_pack_off(czk_gpu_stager *st, bool off) {
    const bool was = st->pack_off;
    st->pack_off = off;
    return was;
}

/* The device side of packed uploads: two device buffers for packed chunks
 * after the table of small values, an unpacking stream of the device's
 * highest priority and its events. Only where the cap leaves 16 times their
 * size free (a small cap is for the partition itself): else st->packed
 * stays NULL and CZK_OK (packed chunks are then unpacked on the host). */
static czk_err stager_packed_buffers(czk_gpu_stager *st, char *msg, size_t msglen) {
    czk_gpu *g = st->g;
    const size_t bytes = STAGE_SMALL_BYTES + 2 * CZK_GPU_STAGE_BYTES, used = czk_gpu_mem_used(g);
    if (st->packed || st->packed_tried) return CZK_OK;
    st->packed_tried = true;
    if (used > g->mem.cap || g->mem.cap - used < 16 * bytes) return CZK_OK;
    if (czk_gpu_mem_alloc(g, &st->packed, bytes, "the packed upload buffers", NULL, 0) != CZK_OK) {
        st->packed = NULL;
        return CZK_OK;
    }
    st->packed_bytes = bytes;
    int lo = 0, hi = 0;
    cudaError_t ce = cudaDeviceGetStreamPriorityRange(&lo, &hi);
    if (ce == cudaSuccess) ce = cudaStreamCreateWithPriority(&st->unpack, cudaStreamNonBlocking, hi);
    for (int k = 0; k < 2 && ce == cudaSuccess; k++) {
        ce = cudaEventCreateWithFlags(&st->land_ev[k], cudaEventDisableTiming);
        if (ce == cudaSuccess) ce = cudaEventCreateWithFlags(&st->unpack_ev[k], cudaEventDisableTiming);
    }
    /* both device buffers start free */
    for (int k = 0; k < 2 && ce == cudaSuccess; k++) ce = cudaEventRecord(st->unpack_ev[k], st->unpack);
    /* the table every packer uses, host-packed vectors' too */
    const czk_fr_pack_table *t = czk_fr_pack_table_get();
    if (ce == cudaSuccess) ce = cudaMemcpy(st->packed, t->small, sizeof t->small, cudaMemcpyHostToDevice);
    if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        if (st->unpack) cudaStreamDestroy(st->unpack);
        for (int k = 0; k < 2; k++) {
            if (st->land_ev[k]) cudaEventDestroy(st->land_ev[k]);
            if (st->unpack_ev[k]) cudaEventDestroy(st->unpack_ev[k]);
            st->land_ev[k] = st->unpack_ev[k] = NULL;
        }
        st->unpack = NULL;
        czk_gpu_mem_free(g, st->packed, bytes);
        st->packed = NULL;
        st->packed_bytes = 0;
        return CZK_CUDA_ERR(ce, "the packed upload buffers");
    }
    return CZK_OK;
}

czk_err czk_gpu_stager_open(czk_gpu *g, czk_gpu_stager **out, char *msg, size_t msglen) {
    *out = NULL;
    if (!g) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    CZK_CUDA_CK(cudaSetDevice(g->ordinal));
    czk_gpu_stager *st = calloc(1, sizeof *st);
    if (!st) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    st->g = g;
    cudaError_t ce = cudaStreamCreateWithFlags(&st->copy, cudaStreamNonBlocking);
    if (ce != cudaSuccess) {
        free(st);
        return CZK_CUDA_ERR(ce, "cudaStreamCreateWithFlags (copies)");
    }
    int made_ev = 0;
    for (int k = 0; k < 2 && ce == cudaSuccess; k++) {
        ce = cudaHostAlloc(&st->pin[k], CZK_GPU_STAGE_BYTES, cudaHostAllocDefault);
        if (ce == cudaSuccess) ce = cudaEventCreateWithFlags(&st->pin_ev[k], cudaEventDisableTiming);
        if (ce == cudaSuccess) made_ev++;
    }
    if (ce == cudaSuccess) ce = cudaEventCreateWithFlags(&st->up_ev, cudaEventDisableTiming);
    if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        for (int k = 0; k < 2; k++)
            if (st->pin[k]) cudaFreeHost(st->pin[k]);
        for (int k = 0; k < made_ev; k++) cudaEventDestroy(st->pin_ev[k]);
        cudaStreamDestroy(st->copy);
        free(st);
        return CZK_CUDA_ERR(ce, "the pinned staging buffers");
    }
    /* packing plain uploads on the fly: CZK_GPU_PACK=1 (every upload) or
     * CZK_GPU_PACK=a (a's upload in czk_gpu_poly_h_staged only, the one the
     * GPU idles through). Off by default: on an H200 at 2^27 they made start
     * no faster (docs/gpu.md says why). Their device buffers are made here
     * for them, else at the first upload of an already packed vector. */
    const char *pack = getenv("CZK_GPU_PACK");
    st->pack_off = pack && pack[0] == 'a';
    st->pack_plain = pack && (pack[0] == '1' || pack[0] == 'a');
    if (st->pack_plain) {
        const czk_err e = stager_packed_buffers(st, msg, msglen);
        if (e != CZK_OK) {
            czk_gpu_stager_close(st);
            return e;
        }
    }
    *out = st;
    return CZK_OK;
}

size_t czk_gpu_stager_chunks_packed(const czk_gpu_stager *st) { return st ? st->chunks_packed : 0; }

size_t czk_gpu_chunks_packed(czk_gpu *g) {
    if (!g) return 0;
    pthread_mutex_lock(&g->mem.mu);
    const size_t n = g->mem.chunks_packed;
    pthread_mutex_unlock(&g->mem.mu);
    return n;
}

void czk_gpu_stager_close(czk_gpu_stager *st) {
    if (!st) return;
    cudaSetDevice(st->g->ordinal);
    cudaStreamSynchronize(st->copy);
    for (int k = 0; k < 2; k++) {
        cudaFreeHost(st->pin[k]);
        cudaEventDestroy(st->pin_ev[k]);
    }
    cudaEventDestroy(st->up_ev);
    if (st->unpack) {
        cudaStreamSynchronize(st->unpack);
        cudaStreamDestroy(st->unpack);
    }
    for (int k = 0; k < 2; k++) {
        if (st->land_ev[k]) cudaEventDestroy(st->land_ev[k]);
        if (st->unpack_ev[k]) cudaEventDestroy(st->unpack_ev[k]);
    }
    cudaStreamDestroy(st->copy);
    if (st->packed) czk_gpu_mem_free(st->g, st->packed, st->packed_bytes);
    free(st);
}

typedef struct {
    char *dst;
    const char *src;
} copy_job;

static void copy_part(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    copy_job *j = ctx;
    memcpy(j->dst + begin, j->src + begin, end - begin);
}

/* len bytes from src into pinned buffer slot on pool, in parts of a
 * sixteenth (64 KiB to 1 MiB): a packed chunk of a few MB then takes every
 * core, not one (on an H200's host, a's packed upload in H was bound by
 * the one-core copy: 23 ms for 2^27 values) */
static void pin_copy(czk_gpu_stager *st, int slot, const void *src, size_t len, czk_pool *pool) {
    copy_job j = {st->pin[slot], src};
    size_t grain = len / 16;
    grain = grain < ((size_t)64 << 10) ? (size_t)64 << 10 : grain > ((size_t)1 << 20) ? (size_t)1 << 20 : grain;
    czk_pool_run(pool, len, grain, copy_part, &j);
}

/* the DMA of len bytes of pinned buffer slot to dst on the copy stream;
 * pin_ev[slot] marks the buffer free again */
static czk_err stage_dma(czk_gpu_stager *st, int slot, void *dst, size_t len, char *msg, size_t msglen) {
    CZK_CUDA_CK(cudaMemcpyAsync(dst, st->pin[slot], len, cudaMemcpyHostToDevice, st->copy));
    CZK_CUDA_CK(cudaEventRecord(st->pin_ev[slot], st->copy));
    return CZK_OK;
}

/* one chunk of len bytes: copied into pinned buffer slot on pool, then its
 * DMA to dst */
static czk_err stage_chunk(czk_gpu_stager *st, int slot, void *dst, const void *src, size_t len, czk_pool *pool,
                           char *msg, size_t msglen) {
    pin_copy(st, slot, src, len, pool);
    return stage_dma(st, slot, dst, len, msg, msglen);
}

/* the host buffer is free once both pinned buffers have been copied out
 * of; the caller frees src after this returns, so wait for the copies.
 * up_ev, on the copy stream, comes after the last unpack too. */
static czk_err stage_done(czk_gpu_stager *st, char *msg, size_t msglen) {
    for (int k = 0; k < 2; k++) CZK_CUDA_CK(cudaEventSynchronize(st->pin_ev[k]));
    if (st->unpack)
        for (int k = 0; k < 2; k++) CZK_CUDA_CK(cudaStreamWaitEvent(st->copy, st->unpack_ev[k], 0));
    CZK_CUDA_CK(cudaEventRecord(st->up_ev, st->copy));
    return CZK_OK;
}

/* up_ev marks the completion of the last chunk's DMA. */
czk_err czk_gpu_stage_copy(czk_gpu_stager *st, void *dst, const void *src, size_t bytes, czk_pool *pool, char *msg,
                           size_t msglen) {
    int slot = 0;
    for (size_t off = 0; off < bytes; off += CZK_GPU_STAGE_BYTES, slot ^= 1) {
        const size_t len = bytes - off < CZK_GPU_STAGE_BYTES ? bytes - off : CZK_GPU_STAGE_BYTES;
        CZK_CUDA_CK(cudaEventSynchronize(st->pin_ev[slot]));
        const czk_err e = stage_chunk(st, slot, (char *)dst + off, (const char *)src + off, len, pool, msg, msglen);
        if (e != CZK_OK) return e;
    }
    return stage_done(st, msg, msglen);
}

/* The packed chunk of len values in pinned buffer slot (bytes long) to
 * the device's packed buffer slot on the copy stream (once that buffer's
 * last unpack is done), and its unpack into dst on the unpack stream. */
static czk_err stage_packed_chunk(czk_gpu_stager *st, int slot, czk_fr *dst, size_t len, size_t bytes, char *msg,
                                  size_t msglen) {
    void *dev = (char *)st->packed + STAGE_SMALL_BYTES + (size_t)slot * CZK_GPU_STAGE_BYTES;
    CZK_CUDA_CK(cudaStreamWaitEvent(st->copy, st->unpack_ev[slot], 0));
    CZK_CUDA_CK(cudaMemcpyAsync(dev, st->pin[slot], bytes, cudaMemcpyHostToDevice, st->copy));
    CZK_CUDA_CK(cudaEventRecord(st->pin_ev[slot], st->copy));
    CZK_CUDA_CK(cudaEventRecord(st->land_ev[slot], st->copy));
    CZK_CUDA_CK(cudaStreamWaitEvent(st->unpack, st->land_ev[slot], 0));
    CZK_CUDA_CK(czk_gpu_launch_unpack(dev, len, st->packed, dst, st->unpack));
    CZK_CUDA_CK(cudaEventRecord(st->unpack_ev[slot], st->unpack));
    st->chunks_packed++;
    pthread_mutex_lock(&st->g->mem.mu);
    st->g->mem.chunks_packed++;
    pthread_mutex_unlock(&st->g->mem.mu);
    return CZK_OK;
}

/* count Fr values from pageable src to device dst, like czk_gpu_stage_copy
 * but in chunks of up to CZK_FR_PACK_MAX values, each packed (czk/fr_pack.h)
 * into the pinned buffer when most of its values are small multiples of
 * one: then only the packed bytes cross PCIe, into the chunk's device
 * buffer (once its last unpack is done), and a kernel on the unpack stream
 * unpacks them into dst, while the copy stream goes on with the next chunk.
 * The other chunks are copied as they are. */
static czk_err stage_copy_fr(czk_gpu_stager *st, czk_fr *dst, const czk_fr *src, size_t count, czk_pool *pool,
                             char *msg, size_t msglen) {
    if (!st->packed || !st->pack_plain || st->pack_off)
        return czk_gpu_stage_copy(st, dst, src, count * sizeof(czk_fr), pool, msg, msglen);
    int slot = 0;
    for (size_t off = 0; off < count; off += CZK_FR_PACK_MAX, slot ^= 1) {
        const size_t len = count - off < CZK_FR_PACK_MAX ? count - off : CZK_FR_PACK_MAX;
        CZK_CUDA_CK(cudaEventSynchronize(st->pin_ev[slot]));
        const size_t packed =
            czk_fr_pack(czk_fr_pack_table_get(), src + off, len, st->pin[slot], CZK_GPU_STAGE_BYTES, pool);
        if (!packed) {
            const czk_err e = stage_chunk(st, slot, dst + off, src + off, len * sizeof(czk_fr), pool, msg, msglen);
            if (e != CZK_OK) return e;
            continue;
        }
        const czk_err e = stage_packed_chunk(st, slot, dst + off, len, packed, msg, msglen);
        if (e != CZK_OK) return e;
    }
    return stage_done(st, msg, msglen);
}

/* count = src->n values from the packed vector src (czk/fr_pack.h) to
 * device dst: its packed chunks cross PCIe as they are and are unpacked on
 * the device (as stage_copy_fr's), its plain chunks as czk_gpu_stage_copy's.
 * Where the device has no room for the packed chunks' buffers, the host
 * unpacks each chunk into the pinned buffer and it goes plain. */
static czk_err stage_packed(czk_gpu_stager *st, czk_fr *dst, const czk_fr_packed *src, czk_pool *pool, char *msg,
                            size_t msglen) {
    czk_err e = stager_packed_buffers(st, msg, msglen);
    int slot = 0;
    for (size_t i = 0; i < src->n_chunks && e == CZK_OK; i++, slot ^= 1) {
        const czk_fr_chunk *c = &src->chunks[i];
        CZK_CUDA_CK(cudaEventSynchronize(st->pin_ev[slot]));
        if (!c->packed) { /* as czk_gpu_stage_copy's chunks: copied on the pool */
            e = stage_chunk(st, slot, dst + c->off, c->data, c->bytes, pool, msg, msglen);
        } else if (st->packed) {
            pin_copy(st, slot, c->data, c->bytes, pool);
            e = stage_packed_chunk(st, slot, dst + c->off, c->n, c->bytes, msg, msglen);
        } else {
            czk_fr_unpack(czk_fr_pack_table_get(), c->data, c->n, st->pin[slot]);
            e = stage_dma(st, slot, dst + c->off, c->n * sizeof(czk_fr), msg, msglen);
        }
    }
    if (e != CZK_OK) return e;
    return stage_done(st, msg, msglen);
}

/* count values (src), or the packed psrc's src->n, into v (zero beyond) on
 * st's copy stream; up_ev marks the end. */
static czk_err stage_vec_try(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr *src, const czk_fr_packed *psrc,
                             size_t count, czk_pool *pool, char *msg, size_t msglen) {
    if (psrc) count = psrc->n;
    if (!st || !v || v->g != st->g || (count && !src && !psrc) || count > v->n)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    CZK_CUDA_CK(cudaSetDevice(st->g->ordinal));
    if (count < v->n)
        CZK_CUDA_CK(cudaMemsetAsync((czk_fr *)v->p + count, 0, (v->n - count) * sizeof(czk_fr), st->copy));
    return psrc ? stage_packed(st, v->p, psrc, pool, msg, msglen) : stage_copy_fr(st, v->p, src, count, pool, msg, msglen);
}

/* stage_vec_try; on failure the copy stream is waited for, so that v may
 * be freed (and its block reused) at once */
static czk_err stage_vec(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr *src, const czk_fr_packed *psrc,
                         size_t count, czk_pool *pool, char *msg, size_t msglen) {
    czk_err e = stage_vec_try(st, v, src, psrc, count, pool, msg, msglen);
    if (e != CZK_OK && st) {
        cudaStreamSynchronize(st->copy);
        if (st->unpack) cudaStreamSynchronize(st->unpack);
        (void)cudaGetLastError();
    }
    return e;
}

czk_err czk_gpu_vec_upload_packed_via(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr_packed *src, czk_pool *pool,
                                      char *msg, size_t msglen) {
    if (!src) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = stage_vec(st, v, NULL, src, 0, pool, msg, msglen);
    if (e != CZK_OK) return e;
    CZK_CUDA_CK(cudaEventSynchronize(st->up_ev));
    return CZK_OK;
}

czk_err czk_gpu_vec_upload_via(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr *src, size_t count, czk_pool *pool,
                               char *msg, size_t msglen) {
    czk_err e = stage_vec(st, v, src, NULL, count, pool, msg, msglen);
    if (e != CZK_OK) return e;
    CZK_CUDA_CK(cudaEventSynchronize(st->up_ev));
    return CZK_OK;
}

czk_err czk_gpu_own_stager(czk_gpu *g, char *msg, size_t msglen) {
    return g->stager ? CZK_OK : czk_gpu_stager_open(g, &g->stager, msg, msglen);
}

czk_err czk_gpu_holder_stager(czk_gpu *g, czk_gpu_stager **out, char *msg, size_t msglen) {
    *out = NULL;
    if (!g) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = czk_gpu_own_stager(g, msg, msglen);
    if (e == CZK_OK) *out = g->stager;
    return e;
}

czk_err czk_gpu_vec_upload_staged(czk_gpu_vec *v, const czk_fr *src, const czk_fr_packed *psrc, size_t count,
                                  czk_pool *pool, char *msg, size_t msglen) {
    if (!v) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_gpu *g = v->g;
    czk_err e = czk_gpu_own_stager(g, msg, msglen);
    if (e == CZK_OK) e = stage_vec(g->stager, v, src, psrc, count, pool, msg, msglen);
    if (e != CZK_OK) return e;
    /* later work on the compute stream sees the data */
    CZK_CUDA_CK(cudaStreamWaitEvent(g->stream, g->stager->up_ev, 0));
    return CZK_OK;
}
