/* czk — the GPU host code's one way to report an error: a czk_err and, where
 * the caller gave a buffer, a message (include/czk/gpu.h: never the
 * process). czk_fail formats the message; CZK_CUDA_CK returns the czk_err of
 * a failed CUDA call from a function with `char *msg, size_t msglen` in
 * scope, the message naming the call and where it is. */
#ifndef CZK_GPU_ERR_H
#define CZK_GPU_ERR_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "czk/err.h"

/* Writes the printf-like message into msg (when msg and msglen are set)
 * and returns err. */
czk_err czk_fail(char *msg, size_t msglen, czk_err err, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The czk_err of CUDA error ce (CZK_ERR_NO_MEMORY for
 * cudaErrorMemoryAllocation, else CZK_ERR_IO), with the message "CUDA
 * error in WHAT (FILE:LINE): the error's text" ("GPU out of memory in …"
 * for the first); CUDA's last error is cleared. what names the call, or
 * the sequence of launches, that failed. */
czk_err czk_cuda_fail(cudaError_t ce, const char *what, const char *file, int line, char *msg, size_t msglen);

/* czk_cuda_fail at this place in the source (msg, msglen in scope) */
#define CZK_CUDA_ERR(ce, what) czk_cuda_fail((ce), (what), __FILE__, __LINE__, msg, msglen)

/* Returns the czk_err of call when it is not cudaSuccess. */
#define CZK_CUDA_CK(call)                                          \
    do {                                                           \
        const cudaError_t ce_ = (call);                            \
        if (ce_ != cudaSuccess) return CZK_CUDA_ERR(ce_, #call);   \
    } while (0)

/* The same for functions that clean up: sets e (a czk_err in scope) and
 * jumps to out. */
#define CZK_CUDA_CK_OUT(call)                                      \
    do {                                                           \
        const cudaError_t ce_ = (call);                            \
        if (ce_ != cudaSuccess) {                                  \
            e = CZK_CUDA_ERR(ce_, #call);                          \
            goto out;                                              \
        }                                                          \
    } while (0)

#endif
