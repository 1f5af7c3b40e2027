/* czk — the CUDA backend's host interface (C). Present in every build:
 * without CUDA (or without a device) czk_gpu_count() is 0 and czk_gpu_open
 * fails with CZK_ERR_UNSUPPORTED, so callers and tests can fall back or skip.
 *
 * Every function checks every CUDA call; a device error or a device
 * out-of-memory fails the call with a message, never the process: a device
 * out-of-memory (or the byte cap) gives CZK_ERR_NO_MEMORY, another CUDA
 * error CZK_ERR_IO, and the message names the failing call and where it is
 * in src/gpu (docs/gpu.md). */
#ifndef CZK_GPU_H
#define CZK_GPU_H

#include <stddef.h>
#include "czk/err.h"
#include "czk/bitmap.h"
#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/g2.h"
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
 * when the transform is done. Where v->n == d->n and the device has room
 * for a second vector, the transform is written into a new block that
 * becomes v's (the old one is freed): device pointers taken to v before
 * the call are stale after it. */
czk_err czk_gpu_ntt_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *v, czk_gpu_ntt_kind kind, char *msg,
                        size_t msglen);
/* czk_gpu_poly_h on device vectors: a receives h, b and c are clobbered.
 * Where a and b have the same size, h is written into b's block and a and
 * b exchange blocks: device pointers taken to them before are stale. */
czk_err czk_gpu_poly_h_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c,
                           char *msg, size_t msglen);

/* ---- G1 multi-scalar multiplication ------------------------------------------
 * czk_msm_g1 on the device: r = Σ k_i·P_i with the same layout (scalars[0, n)
 * Montgomery czk_fr, density NULL or >= n bits, bases packed by density
 * rank, (0, 0) = infinity) and the same group element as the CPU, so the
 * affine results are byte-identical. Pippenger with signed digits (16 bits
 * below 2^24 scalars, 20 bits from 2^24, 22 from 2^26; CZK_GPU_MSM_WINDOW
 * overrides), (bucket, point) pairs sorted per window with CUB on a second
 * stream (overlapping the previous window's buckets), scalars equal to one
 * summed apart; the window sums are reduced on the device in segments, the
 * Horner over windows runs on the host.
 * Device memory for m participating scalars: 32 n (the uploaded scalars,
 * freed after the first kernel) + 49 m bytes + a second pair buffer (8 m)
 * + CUB's sort space (about 8 m) + partial sums (144 m bytes below 2^19
 * scalars, 72 MiB from 2^19 to 2^25, 2.25 m above) + buckets (96 MiB below
 * 2^24 scalars, about 1.2 GiB from 2^24, 4.5 GiB from 2^26; where the wide
 * window's buckets do not fit the cap it falls back to 16 bits), plus 96 m
 * for the bases when they are uploaded by the call.
 * Errors: CZK_ERR_INVALID_ARGUMENT as czk_msm_g1 (and m >= 2^31);
 * CZK_ERR_NO_MEMORY over the cap or when the device is full, with nothing
 * left allocated; r is untouched on error. */
czk_err czk_gpu_msm_g1(czk_gpu *g, czk_g1 *r, const czk_g1_affine *bases, const czk_fr *scalars, size_t n,
                       const czk_bitmap *density, char *msg, size_t msglen);

/* Device-resident G1 bases (an SRS query kept on the device across calls),
 * allocated against g's cap; free with czk_gpu_g1_bases_free (NULL ignored). */
typedef struct czk_gpu_g1_bases czk_gpu_g1_bases;
czk_err czk_gpu_g1_bases_upload(czk_gpu *g, const czk_g1_affine *bases, size_t count, czk_gpu_g1_bases **out,
                                char *msg, size_t msglen);
void czk_gpu_g1_bases_free(czk_gpu_g1_bases *b);
/* czk_gpu_msm_g1 with resident bases (the density-packed array; it must hold
 * at least the number of participating scalars). */
czk_err czk_gpu_msm_g1_resident(czk_gpu *g, czk_g1 *r, const czk_gpu_g1_bases *bases, const czk_fr *scalars,
                                size_t n, const czk_bitmap *density, char *msg, size_t msglen);

/* ---- G2 multi-scalar multiplication ------------------------------------------
 * czk_msm_g2 on the device, the same contract as czk_gpu_msm_g1 (layout,
 * byte-identical affine result, errors): the same Pippenger pipeline over
 * G2 (XYZZ buckets over Fp2, Karatsuba multiplications on the device, the
 * last reduction with czk_g2_add / czk_g2_dbl on the host).
 * Device memory for m participating scalars: 32 n (the uploaded scalars,
 * freed after the first kernel) + 49 m bytes + CUB's sort space (about
 * 8 m) + partial sums (288 m bytes below 2^19 scalars, 144 MiB from 2^19
 * to 2^25, 4.5 m above) + buckets and window sums (204 MiB from 2^19
 * scalars on, less below), plus 192 m for the bases when they are uploaded
 * by the call: at 2^25 scalars, about 2.2 GiB besides the 6 GiB of
 * resident bases.
 * Errors: CZK_ERR_INVALID_ARGUMENT as czk_msm_g2 (and m >= 2^31);
 * CZK_ERR_NO_MEMORY over the cap or when the device is full, with nothing
 * left allocated; r is untouched on error. */
czk_err czk_gpu_msm_g2(czk_gpu *g, czk_g2 *r, const czk_g2_affine *bases, const czk_fr *scalars, size_t n,
                       const czk_bitmap *density, char *msg, size_t msglen);

/* Device-resident G2 bases (192 bytes each), allocated against g's cap;
 * free with czk_gpu_g2_bases_free (NULL ignored). */
typedef struct czk_gpu_g2_bases czk_gpu_g2_bases;
czk_err czk_gpu_g2_bases_upload(czk_gpu *g, const czk_g2_affine *bases, size_t count, czk_gpu_g2_bases **out,
                                char *msg, size_t msglen);
void czk_gpu_g2_bases_free(czk_gpu_g2_bases *b);
/* czk_gpu_msm_g2 with resident bases (the density-packed array; it must hold
 * at least the number of participating scalars). */
czk_err czk_gpu_msm_g2_resident(czk_gpu *g, czk_g2 *r, const czk_gpu_g2_bases *bases, const czk_fr *scalars,
                                size_t n, const czk_bitmap *density, char *msg, size_t msglen);

#endif
