/* czk — the CUDA prover backend in a build without CUDA: unavailable. */
#include <stdio.h>
#include <string.h>

#include "czk/backend.h"

czk_err czk_backend_cuda_open(czk_backend **out, const czk_backend_cuda_config *cfg, char *msg, size_t msglen) {
    (void)cfg;
    *out = NULL;
    if (msg && msglen) snprintf(msg, msglen, "this build of czk has no CUDA backend (nvcc was not found)");
    return CZK_ERR_UNSUPPORTED;
}

void czk_backend_cuda_timings_get(czk_backend *be, czk_backend_cuda_timings *out) {
    (void)be;
    memset(out, 0, sizeof *out);
}

const char *czk_backend_cuda_describe(czk_backend *be) {
    (void)be;
    return "";
}

bool czk_backend_cuda_device_get(czk_backend *be, czk_backend_cuda_device *out) {
    (void)be;
    memset(out, 0, sizeof *out);
    return false;
}

size_t czk_backend_cuda_mem_used(czk_backend *be) {
    (void)be;
    return 0;
}

czk_err czk_backend_cuda_params_load_opts(czk_backend *be, const char *path, const czk_params_load_options *opts,
                                          czk_params *out, czk_params_load_stats *stats, char *msg, size_t msglen) {
    (void)be, (void)path, (void)opts;
    if (out) memset(out, 0, sizeof *out);
    if (stats) memset(stats, 0, sizeof *stats);
    if (msg && msglen) snprintf(msg, msglen, "this build of czk has no CUDA backend (nvcc was not found)");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_backend_cuda_params_load(czk_backend *be, const char *path, czk_params *out, char *msg, size_t msglen) {
    return czk_backend_cuda_params_load_opts(be, path, NULL, out, NULL, msg, msglen);
}
