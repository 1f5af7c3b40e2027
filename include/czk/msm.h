/* czk — multi-scalar multiplication (variable base): r = Σ k_i·P_i over G1 or
 * G2, by Pippenger's bucket method with signed (Booth) window digits.
 *
 * Layout (bellperson's density-filtered queries): scalars[0, n) are all the
 * assignment values; when `density` is given, only the i with bit i set take
 * part, and their bases are stored packed: scalar i goes with
 * bases[rank(i)], rank(i) = number of set bits below i. With density NULL,
 * scalar i goes with bases[i]. Bases are points of the curve (of the
 * order-r subgroup in practice); the point at infinity (x = y = 0) is
 * allowed and contributes nothing. Scalars are czk_fr (Montgomery form).
 *
 * How the work is done (SupraSeal's 0/1 split): one scan classifies the
 * scalars; zeros are skipped, the bases of scalars equal to one are summed
 * with mixed additions during the scan, and only the other scalars go
 * through Pippenger, whose window is chosen from their count. Buckets are
 * affine points filled by batched additions (Montgomery's trick: 6M per
 * addition plus one inversion per 16..512), with XYZZ coordinates (mixed add
 * 8M + 2S) for the additions a batch cannot take and for small windows.
 *
 * Threads: the scan and the Pippenger windows (split further into point
 * ranges when the window count does not divide evenly over the threads) run
 * on `pool` (NULL: the calling thread only). The result is the same group
 * element for every thread count (bit-identical after conversion to affine).
 *
 * Temporary memory, all czk_mem buffers tagged CZK_MEM_AUX and freed before
 * return: 32 bytes per participating scalar (its canonical value, 0 for
 * the scalars 0 and 1, indexed like the bases) plus, per thread, the bucket state of
 * one window: 2^(c-1) buckets of 289 B (G1) or 577 B (G2) each (affine
 * bucket, XYZZ overflow bucket, flag) and a queue of 512 additions; c <= 16,
 * so at most 9.1 MiB per thread for G1 and 18.1 MiB for G2 (the default
 * window stays at c <= 15 for G1: 4.6 MiB), plus a few KiB.
 * czk_msm_aux_bytes gives the bound. At n = 2^27 with 2 threads, G1:
 * 4 GiB + 19 MiB at most.
 *
 * Errors: CZK_ERR_INVALID_ARGUMENT when r is NULL, or n > 0 and bases or
 * scalars is NULL, or density has fewer than n bits (bits at and above n are
 * ignored); CZK_ERR_NO_MEMORY when a buffer cannot be allocated. r is
 * untouched on error. */
#ifndef CZK_MSM_H
#define CZK_MSM_H

#include <stdbool.h>
#include <stddef.h>
#include "czk/bitmap.h"
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/pool.h"

/* Largest window the implementation uses (bits per signed digit). */
#define CZK_MSM_MAX_WINDOW 16

czk_err czk_msm_g1(czk_g1 *r, const czk_g1_affine *bases, const czk_fr *scalars, size_t n,
                   const czk_bitmap *density, czk_pool *pool);
czk_err czk_msm_g2(czk_g2 *r, const czk_g2_affine *bases, const czk_fr *scalars, size_t n,
                   const czk_bitmap *density, czk_pool *pool);

/* Knobs for tests, benchmarks and tuning; the zero value gives the defaults
 * of czk_msm_g1/g2. */
typedef struct {
    int window;        /* window bits c in [1, CZK_MSM_MAX_WINDOW]; 0: chosen by size */
    bool no_split01;   /* true: scalars equal to 1 go through Pippenger too */
    bool no_batch_affine; /* true: XYZZ buckets only (no batched affine additions) */
} czk_msm_opts;

/* As czk_msm_g1 / czk_msm_g2 with explicit options (opts NULL = defaults);
 * CZK_ERR_INVALID_ARGUMENT also for a window outside [0, CZK_MSM_MAX_WINDOW]. */
czk_err czk_msm_g1_ex(czk_g1 *r, const czk_g1_affine *bases, const czk_fr *scalars, size_t n,
                      const czk_bitmap *density, czk_pool *pool, const czk_msm_opts *opts);
czk_err czk_msm_g2_ex(czk_g2 *r, const czk_g2_affine *bases, const czk_fr *scalars, size_t n,
                      const czk_bitmap *density, czk_pool *pool, const czk_msm_opts *opts);

/* The window the default chooses for m scalars going through Pippenger on
 * `threads` threads (g2: for G2, whose bucket additions cost relatively more). */
int czk_msm_window(size_t m, int threads, bool g2);

/* Upper bound of the temporary bytes one call with n participating scalars
 * takes on `threads` threads (for budget reservations). */
size_t czk_msm_aux_bytes(size_t n, int threads, bool g2);

#endif
