/* czk — device memory of the CUDA backend: the byte cap on what czk
 * allocates on a device, the cache of freed blocks (gpu_host.h says why),
 * and device vectors (czk_gpu_vec, include/czk/gpu.h). */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_host.h"

/* Takes cache entries out (under mem.mu) until at most keep bytes stay
 * cached; their pointers go to out (GPU_CACHE_MAX of room), to be freed
 * with cudaFree outside the lock. Returns how many. */
static unsigned cache_trim(czk_gpu *g, size_t keep, void **out) {
    unsigned n = 0;
    while (g->mem.ncache && g->mem.cached > keep) {
        g->mem.ncache--;
        g->mem.cached -= g->mem.cache[g->mem.ncache].bytes;
        out[n++] = g->mem.cache[g->mem.ncache].p;
    }
    return n;
}

static void free_all(void **p, unsigned n) {
    for (unsigned i = 0; i < n; i++) cudaFree(p[i]);
}

czk_err czk_gpu_mem_alloc(czk_gpu *g, void **p, size_t bytes, const char *what, char *msg, size_t msglen) {
    *p = NULL;
    void *victims[GPU_CACHE_MAX];
    unsigned nv = 0;
    /* the bytes are counted first, so that two threads cannot both pass the cap */
    pthread_mutex_lock(&g->mem.mu);
    const size_t used = g->mem.used;
    const int over = bytes > g->mem.cap || used > g->mem.cap - bytes;
    if (!over) {
        g->mem.used += bytes;
        for (unsigned i = 0; i < g->mem.ncache; i++) {
            if (g->mem.cache[i].bytes != bytes) continue;
            *p = g->mem.cache[i].p;
            g->mem.cached -= bytes;
            g->mem.cache[i] = g->mem.cache[--g->mem.ncache];
            break;
        }
        if (!*p) nv = cache_trim(g, g->mem.cap - g->mem.used, victims);
    }
    pthread_mutex_unlock(&g->mem.mu);
    if (over)
        return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY,
                        "GPU memory cap reached in %s: %zu bytes needed, %zu of %zu in use", what, bytes, used,
                        g->mem.cap);
    if (*p) return CZK_OK;
    free_all(victims, nv);
    cudaError_t ce = cudaMalloc(p, bytes ? bytes : 1);
    if (ce == cudaErrorMemoryAllocation) { /* the cache may hold what is missing */
        (void)cudaGetLastError();
        pthread_mutex_lock(&g->mem.mu);
        nv = cache_trim(g, 0, victims);
        pthread_mutex_unlock(&g->mem.mu);
        if (nv) {
            free_all(victims, nv);
            ce = cudaMalloc(p, bytes ? bytes : 1);
        }
    }
    if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        *p = NULL;
        pthread_mutex_lock(&g->mem.mu);
        g->mem.used -= bytes;
        pthread_mutex_unlock(&g->mem.mu);
        if (ce == cudaErrorMemoryAllocation)
            return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "GPU out of memory in %s: %zu bytes needed, czk holds %zu",
                            what, bytes, used);
        return CZK_CUDA_ERR(ce, what);
    }
    return CZK_OK;
}

/* The compute stream is waited for first: a block may be reused at once
 * by another thread's copies, so no queued kernel may still touch it
 * (callers wait for their other streams themselves: the MSM's sort stream,
 * the stagers' copies). */
void czk_gpu_mem_free(czk_gpu *g, void *p, size_t bytes) {
    if (!p) return;
    cudaStreamSynchronize(g->stream);
    pthread_mutex_lock(&g->mem.mu);
    g->mem.used -= bytes;
    const int keep = g->mem.ncache < GPU_CACHE_MAX;
    if (keep) {
        g->mem.cache[g->mem.ncache].p = p;
        g->mem.cache[g->mem.ncache].bytes = bytes;
        g->mem.ncache++;
        g->mem.cached += bytes;
    }
    pthread_mutex_unlock(&g->mem.mu);
    if (!keep) cudaFree(p);
}

void czk_gpu_trim(czk_gpu *g) {
    if (!g) return;
    void *victims[GPU_CACHE_MAX];
    pthread_mutex_lock(&g->mem.mu);
    const unsigned nv = cache_trim(g, 0, victims);
    pthread_mutex_unlock(&g->mem.mu);
    free_all(victims, nv);
}

int czk_gpu_dev_alloc(czk_gpu *g, void **p, size_t bytes, const char *what, char *msg, size_t msglen) {
    return (int)czk_gpu_mem_alloc(g, p, bytes, what, msg, msglen);
}
void czk_gpu_dev_free(czk_gpu *g, void *p, size_t bytes) { czk_gpu_mem_free(g, p, bytes); }

size_t czk_gpu_mem_used(const czk_gpu *g) {
    if (!g) return 0;
    pthread_mutex_lock((pthread_mutex_t *)&g->mem.mu);
    const size_t used = g->mem.used;
    pthread_mutex_unlock((pthread_mutex_t *)&g->mem.mu);
    return used;
}

size_t czk_gpu_mem_cap(const czk_gpu *g) { return g ? g->mem.cap : 0; }

/* ---- device vectors ---- */

czk_err czk_gpu_vec_alloc(czk_gpu *g, size_t n, czk_gpu_vec **out, char *msg, size_t msglen) {
    *out = NULL;
    if (!g || n == 0) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    CZK_CUDA_CK(cudaSetDevice(g->ordinal));
    czk_gpu_vec *v = calloc(1, sizeof *v);
    if (!v) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    czk_err e = czk_gpu_mem_alloc(g, &v->p, n * sizeof(czk_fr), "a device vector", msg, msglen);
    if (e != CZK_OK) {
        free(v);
        return e;
    }
    v->g = g;
    v->n = n;
    *out = v;
    return CZK_OK;
}

void czk_gpu_vec_free(czk_gpu_vec *v) {
    if (!v) return;
    cudaSetDevice(v->g->ordinal);
    cudaStreamSynchronize(v->g->stream);
    czk_gpu_mem_free(v->g, v->p, v->n * sizeof(czk_fr));
    free(v);
}

czk_err czk_gpu_vec_upload(czk_gpu_vec *v, const czk_fr *src, char *msg, size_t msglen) {
    CZK_CUDA_CK(cudaSetDevice(v->g->ordinal));
    CZK_CUDA_CK(cudaMemcpyAsync(v->p, src, v->n * sizeof(czk_fr), cudaMemcpyHostToDevice, v->g->stream));
    CZK_CUDA_CK(cudaStreamSynchronize(v->g->stream));
    return CZK_OK;
}

czk_err czk_gpu_vec_download(const czk_gpu_vec *v, czk_fr *dst, char *msg, size_t msglen) {
    CZK_CUDA_CK(cudaSetDevice(v->g->ordinal));
    CZK_CUDA_CK(cudaMemcpyAsync(dst, v->p, v->n * sizeof(czk_fr), cudaMemcpyDeviceToHost, v->g->stream));
    CZK_CUDA_CK(cudaStreamSynchronize(v->g->stream));
    return CZK_OK;
}

void *czk_gpu_vec_ptr(czk_gpu_vec *v) { return v ? v->p : NULL; }
