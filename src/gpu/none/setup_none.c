/* czk — the GPU setup in a build without CUDA: unsupported. */
#include <stdio.h>

#include "czk/setup_gpu.h"

czk_err czk_gpu_setup_write(const czk_r1cs_compact *r, const czk_toxic *t, const char *params_path,
                            const char *vk_path, const czk_gpu_setup_opts *opts, czk_pool *pool, char *msg,
                            size_t msglen) {
    (void)r, (void)t, (void)params_path, (void)vk_path, (void)opts, (void)pool;
    if (msg && msglen) snprintf(msg, msglen, "this build of czk has no CUDA backend (nvcc was not found)");
    return CZK_ERR_UNSUPPORTED;
}
