/* czk — a params file loaded straight to the device (params_load.c, the
 * kernels in params_decode.cu), for the CUDA backend's
 * czk_backend_cuda_params_load. Internal to src/gpu. */
#ifndef CZK_GPU_PARAMS_LOAD_H
#define CZK_GPU_PARAMS_LOAD_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "params_decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes, in place, the n points at pts (16-byte aligned; G1: 96 bytes
 * each, g2: 192) from uncompressed encodings into the czk_g1_affine /
 * czk_g2_affine layout (Montgomery), with y^2 = x^3 + b checked when
 * curve. A refused point is reported as atomicMin(*bad, (first + i) << 8 |
 * reason) (so *bad, set to ~0 first, ends as the lowest refused index and
 * its reason); a refused point's bytes are left as they were. */
cudaError_t czk_gpu_launch_params_decode(void *pts, size_t n, int g2, size_t first, int curve,
                                         unsigned long long *bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#ifndef __CUDACC__
#include "czk/backend.h"
#include "czk/gpu.h"
#include "czk/groth16.h"

/* The host part of device-loaded params: host copies of the points the
 * inputs' MSMs read (the first min(n_ic, n) of a, b_g1 and b_g2, a few
 * hundred; backend_cuda.c runs those MSMs on the host); every other array
 * NULL. */
struct czk_params_device {
    czk_params inputs;
};
void czk_params_device_free(struct czk_params_device *d);

/* The five queries on the device, each NULL where empty. */
typedef struct {
    czk_gpu_g1_bases *h, *l, *a, *b_g1;
    czk_gpu_g2_bases *b_g2;
} czk_gpu_params_bases;

/* Streams the params file at path to g's device (czk_params_stream_read
 * into two pinned buffers of opts->chunk_bytes: the read of one overlaps
 * the DMA of the other; the points decoded in place on the device).
 * Allocates the five queries on g first (CZK_ERR_NO_MEMORY, naming the
 * sizes, when they do not fit). On success out has the vk, the counts and
 * out->device (malloc'd, the caller's), *bases the device queries (the
 * caller's), *stats the times. On error nothing is left allocated, out and
 * *bases are zeroed. Thread-safe against g's other users (only g's memory
 * accounting is shared; the copies run on streams of its own). */
czk_err czk_gpu_params_load(czk_gpu *g, const char *path, const czk_params_load_options *opts, czk_params *out,
                            czk_gpu_params_bases *bases, czk_params_load_stats *stats, char *msg, size_t msglen);
void czk_gpu_params_bases_free(czk_gpu_params_bases *b);
#endif

#endif
