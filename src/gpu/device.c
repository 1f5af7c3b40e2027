/* czk — the CUDA backend's devices (include/czk/gpu.h): counting, opening
 * and closing one, its description and accessors. The handle itself is
 * in gpu_host.h. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_host.h"

int czk_gpu_count(void) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

cudaStream_t czk_gpu_stream(const czk_gpu *g) { return g->stream; }
int czk_gpu_ordinal(const czk_gpu *g) { return g->ordinal; }

czk_err czk_gpu_mem_info(int ordinal, size_t *free_bytes, size_t *total_bytes, char *msg, size_t msglen) {
    CZK_CUDA_CK(cudaSetDevice(ordinal));
    CZK_CUDA_CK(cudaMemGetInfo(free_bytes, total_bytes));
    return CZK_OK;
}

/* An environment knob within [lo, hi], else def. */
static unsigned env_knob(const char *name, unsigned lo, unsigned hi, unsigned def) {
    const char *s = getenv(name);
    const int v = s ? atoi(s) : 0;
    return s && v >= (int)lo && v <= (int)hi ? (unsigned)v : def;
}

czk_err czk_gpu_open(czk_gpu **out, int ordinal, size_t mem_cap_bytes, char *msg, size_t msglen) {
    *out = NULL;
    int count = czk_gpu_count();
    if (ordinal < 0 || ordinal >= count)
        return czk_fail(msg, msglen, count ? CZK_ERR_INVALID_ARGUMENT : CZK_ERR_UNSUPPORTED,
                        "no CUDA device %d (%d found)", ordinal, count);
    struct cudaDeviceProp prop;
    size_t free_b = 0, total_b = 0;
    CZK_CUDA_CK(cudaSetDevice(ordinal));
    CZK_CUDA_CK(cudaGetDeviceProperties(&prop, ordinal));
    CZK_CUDA_CK(cudaMemGetInfo(&free_b, &total_b));
    czk_gpu *g = calloc(1, sizeof *g);
    if (!g) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    g->ordinal = ordinal;
    g->mem.cap = mem_cap_bytes ? mem_cap_bytes : free_b;
    g->ntt.cs_log = ~0u;
    g->knobs.dif_max = env_knob("CZK_GPU_NTT_K", 1, 10, 8);
    g->knobs.blk_log = env_knob("CZK_GPU_NTT_BLOCK_LOG", 8, 10, 9);
    g->knobs.separate_bitrev = env_knob("CZK_GPU_NTT_BITREV", 1, 1, 0);
    snprintf(g->desc, sizeof g->desc, "%s (sm_%d%d, %zu GiB)", prop.name, prop.major, prop.minor,
             (size_t)((total_b + (1u << 29)) >> 30));
    const cudaError_t ce = cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking);
    if (ce != cudaSuccess) {
        free(g);
        return CZK_CUDA_ERR(ce, "cudaStreamCreateWithFlags");
    }
    pthread_mutex_init(&g->mem.mu, NULL);
    *out = g;
    return CZK_OK;
}

void czk_gpu_close(czk_gpu *g) {
    if (!g) return;
    cudaSetDevice(g->ordinal);
    cudaStreamSynchronize(g->stream);
    czk_gpu_stager_close(g->stager);
    czk_gpu_ntt_tables_free(g);
    czk_gpu_trim(g);
    cudaStreamDestroy(g->stream);
    pthread_mutex_destroy(&g->mem.mu);
    free(g);
}

const char *czk_gpu_describe(const czk_gpu *g) { return g ? g->desc : "no GPU"; }
