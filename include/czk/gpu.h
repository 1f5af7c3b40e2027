/* czk — the CUDA backend's host interface (C). Present in every build:
 * without CUDA (or without a device) czk_gpu_count() is 0 and czk_gpu_open
 * fails with CZK_ERR_UNSUPPORTED, so callers and tests can fall back or skip.
 *
 * Every function checks every CUDA call; a device error or a device
 * out-of-memory fails the call with a message, never the process. */
#ifndef CZK_GPU_H
#define CZK_GPU_H

#include <stddef.h>
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/poly.h"

typedef struct czk_gpu czk_gpu;

/* Number of usable CUDA devices (0 without CUDA or a driver). */
int czk_gpu_count(void);

/* Opens device `ordinal`: creates its streams and takes no other memory.
 * mem_cap_bytes > 0 caps what czk may allocate on it (tests use a tiny cap
 * to force out-of-memory paths); 0 means the device's free memory. */
czk_err czk_gpu_open(czk_gpu **out, int ordinal, size_t mem_cap_bytes, char *msg, size_t msglen);
void czk_gpu_close(czk_gpu *g);
/* "NVIDIA H200 (sm_90, 139 GiB)" */
const char *czk_gpu_describe(const czk_gpu *g);

typedef enum {
    CZK_GPU_NTT_FORWARD = 0, /* czk_ntt */
    CZK_GPU_NTT_INVERSE,     /* czk_intt */
    CZK_GPU_NTT_COSET,       /* czk_coset_ntt */
    CZK_GPU_NTT_COSET_INVERSE /* czk_coset_intt */
} czk_gpu_ntt_kind;

/* The same transform as the CPU functions in poly.h on d->n host values,
 * bit-identical; the data goes to the device and back. */
czk_err czk_gpu_ntt(czk_gpu *g, const czk_domain *d, czk_fr *a, czk_gpu_ntt_kind kind, char *msg, size_t msglen);
/* czk_poly_h on the device: a, b, c are d->n host values; on return a[0..n-2]
 * hold h's coefficients, bit-identical to czk_poly_h (b and c unchanged). */
czk_err czk_gpu_poly_h(czk_gpu *g, const czk_domain *d, czk_fr *a, const czk_fr *b, const czk_fr *c, char *msg,
                       size_t msglen);

/* Bytes czk holds on the device now (data buffers and cached tables). */
size_t czk_gpu_mem_used(const czk_gpu *g);
/* The device's free and total memory as the driver reports them. */
czk_err czk_gpu_mem_info(int ordinal, size_t *free_bytes, size_t *total_bytes, char *msg, size_t msglen);

/* Device-resident vectors of Fr, for callers that chain work on the device
 * (and for benchmarks): allocated against g's cap, freed with
 * czk_gpu_vec_free (NULL is ignored). */
typedef struct czk_gpu_vec czk_gpu_vec;
czk_err czk_gpu_vec_alloc(czk_gpu *g, size_t n, czk_gpu_vec **out, char *msg, size_t msglen);
void czk_gpu_vec_free(czk_gpu_vec *v);
/* Copies v's n elements from / to the host. */
czk_err czk_gpu_vec_upload(czk_gpu_vec *v, const czk_fr *src, char *msg, size_t msglen);
czk_err czk_gpu_vec_download(const czk_gpu_vec *v, czk_fr *dst, char *msg, size_t msglen);
/* czk_gpu_ntt on a device vector of d->n elements (v->n >= d->n); returns
 * when the transform is done. */
czk_err czk_gpu_ntt_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *v, czk_gpu_ntt_kind kind, char *msg,
                        size_t msglen);
/* czk_gpu_poly_h on device vectors: a receives h, b and c are clobbered. */
czk_err czk_gpu_poly_h_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c,
                           char *msg, size_t msglen);

#endif
