/* czk — gpu_err.h: the GPU host code's error messages. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpu_err.h"

czk_err czk_fail(char *msg, size_t msglen, czk_err err, const char *fmt, ...) {
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return err;
}

czk_err czk_cuda_fail(cudaError_t ce, const char *what, const char *file, int line, char *msg, size_t msglen) {
    (void)cudaGetLastError();
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    if (ce == cudaErrorMemoryAllocation)
        return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "GPU out of memory in %s (%s:%d): %s", what, base, line,
                        cudaGetErrorString(ce));
    return czk_fail(msg, msglen, CZK_ERR_IO, "CUDA error in %s (%s:%d): %s", what, base, line, cudaGetErrorString(ce));
}
