/* czk — what the CUDA prover backend (backend_cuda.c) needs from gpu.c
 * beyond include/czk/gpu.h: uploads through pinned staging buffers on a
 * copy stream, and H computed from host a, b, c with the uploads of b and c
 * overlapped with the transforms of a and b. The czk_gpu is not
 * thread-safe: callers hold the device lock, but for the stagers below. */
#ifndef CZK_GPU_STAGE_H
#define CZK_GPU_STAGE_H

#include "czk/bitmap.h"
#include "czk/fr_pack.h"
#include "czk/gpu.h"
#include "czk/pool.h"

/* Returns the device memory that g keeps cached from freed blocks (kept
 * for reuse by the next allocations of the same sizes) to the device. */
void czk_gpu_trim(czk_gpu *g);

/* Size of each of the two pinned staging buffers of a stager. A CUDA
 * backend has at most two stagers (its device's lock holder's and the one
 * that stages while waiting for the lock): up to 256 MiB of page-locked
 * host memory, its czk_backend.host_fixed_bytes, which the engine charges
 * to its budget (czk/budget.h). */
#define CZK_GPU_STAGE_BYTES ((size_t)64 << 20)

/* The byte cap on what czk allocates on g (czk_gpu_open's mem_cap_bytes,
 * or the device's free memory when it was opened). */
size_t czk_gpu_mem_cap(const czk_gpu *g);

/* The device pointer of v (n Montgomery czk_fr). */
void *czk_gpu_vec_ptr(czk_gpu_vec *v);

/* A set of staging buffers of its own (two pinned buffers of
 * CZK_GPU_STAGE_BYTES and a copy stream) for a thread that uploads without
 * the device lock: a GPU worker staging its next partition while another
 * worker's kernels run. The device memory accounting of g is thread-safe;
 * nothing else of g is touched. */
typedef struct czk_gpu_stager czk_gpu_stager;
czk_err czk_gpu_stager_open(czk_gpu *g, czk_gpu_stager **out, char *msg, size_t msglen);
void czk_gpu_stager_close(czk_gpu_stager *st);
/* Copies count values from pageable host memory into v through st's pinned
 * buffers (the copies into them on pool, NULL: the calling thread, while
 * the DMA engine empties the other one) and zero-fills v beyond them;
 * returns when the data is on the device (src may be freed then). */
czk_err czk_gpu_vec_upload_via(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr *src, size_t count, czk_pool *pool,
                               char *msg, size_t msglen);
/* The same from a packed vector (czk/fr_pack.h, src->n values): its packed
 * chunks cross PCIe as they are and are unpacked on the device (the
 * stager's device buffers for them are made at the first such upload,
 * where the cap leaves room; else the host unpacks each chunk); its plain
 * chunks go as czk_gpu_vec_upload_via's, copied on pool. */
czk_err czk_gpu_vec_upload_packed_via(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr_packed *src, czk_pool *pool,
                                      char *msg, size_t msglen);
/* The first n bits of host density map d to the device (gpu_internal.h's
 * czk_gpu_density, *out zeroed on error): its words through st's pinned
 * buffers (copied on pool), then their prefix counts by a scan on st's copy
 * stream; returns when both are on the device. n > 0. */
struct czk_gpu_density;
czk_err czk_gpu_density_upload_via(czk_gpu_stager *st, const czk_bitmap *d, size_t n, czk_pool *pool,
                                   struct czk_gpu_density *out, char *msg, size_t msglen);
/* Where the stager has device buffers for packed uploads (CZK_GPU_PACK=1
 * set when it is opened, and not under a small cap; off by default, see
 * docs/gpu.md), the uploads go in chunks of up to CZK_FR_PACK_MAX values,
 * and a chunk whose values are mostly small multiples of one crosses PCIe
 * packed (czk/fr_pack.h) and is unpacked on the device.
 * The number of chunks that went packed since st was opened: */
size_t czk_gpu_stager_chunks_packed(const czk_gpu_stager *st);
/* The same over every stager of device g, since it was opened. */
size_t czk_gpu_chunks_packed(czk_gpu *g);

/* The lock holder's own stager (the one czk_gpu_poly_h_staged uses), made
 * at its first use: for a thread of the lock holder that uploads with
 * czk_gpu_vec_upload_via while the holder's thread runs kernels (never
 * while czk_gpu_poly_h_staged runs). */
czk_err czk_gpu_holder_stager(czk_gpu *g, czk_gpu_stager **out, char *msg, size_t msglen);

/* czk_poly_h of host a = src[0], b = src[1], c = src[2], n_have values each
 * (zero beyond, up to d->n), or of packed ones where psrc (NULL: none) has
 * psrc[k] in place of src[k] (then src[k] is NULL): on success *h_out is a device vector of d->n
 * values whose first d->n - 1 are H's coefficients, bit-identical to
 * czk_poly_h. pre (NULL, or entries NULL where not): vectors of d->n values
 * already on the device in place of src[k] (czk_gpu_vec_upload_via); the
 * call takes them over (frees them or returns one as *h_out, also on error)
 * and sets pre[k] to NULL. done(k, ctx) is called as soon as src[k] is no
 * longer needed (its host buffer may be freed then); the transforms of each
 * vector start behind its own upload, so uploads overlap compute. */
czk_err czk_gpu_poly_h_staged(czk_gpu *g, const czk_domain *d, czk_fr *const src[3],
                              const czk_fr_packed *const psrc[3], czk_gpu_vec *pre[3], size_t n_have, czk_pool *pool,
                              czk_gpu_vec **h_out, void (*done)(int k, void *ctx), void *ctx, char *msg,
                              size_t msglen);

#endif
