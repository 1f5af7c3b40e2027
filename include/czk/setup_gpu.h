/* czk — development Groth16 parameters made on a GPU and written straight
 * to their files: the same .params and .vk bytes as czk_groth16_setup
 * followed by czk_params_write and czk_vk_write from the same toxic waste,
 * for circuits far larger than host memory holds as points (porep-32g:
 * 130M constraints, a 47 GB params file).
 *
 * The scalars are made on the host pool (czk/setup_scalars.h, from the
 * compact R1CS); every query point k·g (g the toxic g1 or g2) on the
 * device from a window table of g, one thread per point, then converted
 * to the file's uncompressed bytes with one inversion per 32 points. The
 * points go through the device in chunks and are written in file order
 * (czk/params_writer.h) while the next chunk is computed, so the host
 * holds the scalars (u, v, w: 3 × 32 B per variable, each freed after its
 * last query, and the Lagrange basis, 32 B per domain point, until u, v,
 * w exist) and two pinned chunks of bytes, never the points.
 * Host memory for porep-32g: about 17 GB of scalars at the peak besides
 * the R1CS, plus 2 × (chunk · 224 B) pinned; device memory about
 * chunk · 736 B (2^22 points: 3 GB) and the two 1.5 MB tables.
 * Available in every build; without CUDA or a device it fails with
 * CZK_ERR_UNSUPPORTED. */
#ifndef CZK_SETUP_GPU_H
#define CZK_SETUP_GPU_H

#include <stddef.h>

#include "czk/err.h"
#include "czk/groth16.h"
#include "czk/pool.h"
#include "czk/r1cs_compact.h"

/* One line of progress (no newline), e.g. "a: 130169893 points, …". */
typedef void (*czk_setup_log_fn)(void *ctx, const char *line);

typedef struct {
    int ordinal;         /* the CUDA device */
    size_t chunk;        /* points per device chunk; 0: 2^22 */
    int replace;         /* 0: never over an existing file (checked first, and again when each is linked in) */
    czk_setup_log_fn log; /* NULL: silent */
    void *log_ctx;
} czk_gpu_setup_opts;

/* Writes params_path and vk_path (each through a temporary name beside it,
 * fsynced, then moved into place) for r and t; per-stage timings go to
 * opts->log as they end (Lagrange basis, u v w, ext, each query's points
 * with its device, wait and write seconds). Errors: as czk_groth16_setup
 * for the circuit and toxic waste (CZK_ERR_INVALID_ARGUMENT: no ONE input,
 * γ or δ zero, τ in the domain, an unconstrained aux variable, g1 or g2 the
 * identity); CZK_ERR_IO (a file exists and replace is 0, or cannot be
 * written: nothing is left under either name); CZK_ERR_NO_MEMORY (host or
 * device); CZK_ERR_UNSUPPORTED without CUDA or that device. */
czk_err czk_gpu_setup_write(const czk_r1cs_compact *r, const czk_toxic *t, const char *params_path,
                            const char *vk_path, const czk_gpu_setup_opts *opts, czk_pool *pool, char *msg,
                            size_t msglen);

#endif
