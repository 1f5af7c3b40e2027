/* czkd — choosing the prover backend (--backend cpu|cuda|auto). */
#include "czkd.h"

#include <stdio.h>

#include "czk/gpu.h"
#include "czk/log.h"
#include "czk/pool.h"

czk_err czkd_backend_open(czk_backend_kind kind, const int *devices, size_t n_devices, czk_backend **out, char *name,
                          size_t namelen, char *msg, size_t msglen) {
    *out = NULL; /* NULL: the engine's CPU backend on its own pool */
    snprintf(name, namelen, "cpu");
    if (kind == CZK_BACKEND_KIND_CPU) return CZK_OK;
    int gpus = czk_gpu_count();
    if (kind == CZK_BACKEND_KIND_AUTO && gpus == 0) {
        czk_log_info("backend auto: no CUDA device; using the CPU backend");
        return CZK_OK;
    }
    /* The engine drives one backend: the first device listed (or device 0). */
    int ordinal = n_devices ? devices[0] : 0;
    if (n_devices > 1)
        czk_log_warn("gpus.devices lists %zu devices; this czkd proves on one backend, device %d", n_devices,
                     ordinal);
    czk_backend_cuda_config bc = {ordinal, 0, CZK_G2_GPU, czk_pool_default()};
    char m[512] = "";
    czk_err e = czk_backend_cuda_open(out, &bc, m, sizeof m);
    if (e == CZK_OK) {
        snprintf(name, namelen, "cuda");
        czk_log_info("backend cuda on device %d: %s", ordinal, czk_backend_cuda_describe(*out));
        return CZK_OK;
    }
    *out = NULL;
    if (kind == CZK_BACKEND_KIND_CUDA) {
        snprintf(msg, msglen, "--backend cuda: the CUDA backend cannot be used on device %d: %s (%d CUDA device(s) "
                 "visible)", ordinal, m[0] ? m : czk_err_str(e), gpus);
        return e == CZK_OK ? CZK_ERR_UNSUPPORTED : e;
    }
    czk_log_warn("backend auto: the CUDA backend cannot be used (%s); using the CPU backend", m[0] ? m : czk_err_str(e));
    return CZK_OK;
}

