/* czk — private interface between the GPU host code (C: gpu_host.h's files,
 * gpu_msm.c, msm_scalars.c, backend_cuda.c) and the kernels (ntt.cu, msm.cu,
 * msm_g2.cu, unpack.cu): launch functions with C linkage. Every launcher enqueues
 * on `s` and returns the launch's cudaError_t (cudaSuccess or the error of
 * cudaGetLastError). Device buffers of Fr are arrays of 32-byte elements in
 * the host's byte layout (czk_fr). */
#ifndef CZK_GPU_INTERNAL_H
#define CZK_GPU_INTERNAL_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* tw[e] = hi[e >> s_log]·lo[e & (2^s_log - 1)] for e < count. */
cudaError_t czk_gpu_launch_table(void *tw, const void *hi, const void *lo, unsigned s_log, size_t count,
                                 cudaStream_t s);

/* One radix-2^k pass of an in-place decimation-in-frequency transform of
 * 2^log_n points (natural in, bit-reversed out after every pass down to
 * b = 0): stages with half-sizes 2^(b+k-1) … 2^b. tw holds ω_N^e for
 * e < N/2, N = 2^tw_log >= 2^log_n, followed by the roots tables
 * (czk_gpu_launch_roots); inverse uses ω^-1. c_log columns per block
 * (c_log <= b, k + c_log <= 10). dit: the same pass transposed; the DIF's
 * passes run in the reverse order (from b = 0 up) take bit-reversed input
 * to the transform in natural order. mb (DIF only, else NULL): each point
 * x first becomes x·mb at its index (H's a·b fused into the first pass of
 * its inverse transform). lazy_out: the pass writes values in [0, 2r]
 * (ntt.cu), for a pass kernel to read next (any of this file's pass
 * kernels takes them); else canonical ones, as the last pass of a
 * transform must. x's values may be lazy but for mb's pass. */
cudaError_t czk_gpu_launch_pass(void *x, unsigned log_n, unsigned b, unsigned k, unsigned c_log, const void *tw,
                                unsigned tw_log, int inverse, int dit, const void *mb, int lazy_out, cudaStream_t s);
/* H's fused middle on 2^log_n points: the inverse DIF's last pass (b = 0,
 * k stages), x[i] *= f(rev(i)) with f(j) = hi[j >> s_log]·lo[j mod
 * 2^s_log] (rev over log_n bits), and the forward DIT's first pass (b = 0,
 * k stages); 1 <= k <= 10. */
cudaError_t czk_gpu_launch_pass_fused(void *x, unsigned log_n, unsigned k, const void *tw, unsigned tw_log,
                                      const void *hi, const void *lo, unsigned s_log, cudaStream_t s);

/* The DIF's last pass (b = 0, k stages) from x into out in natural order
 * (out != x), with a factor at each output index i by mode: 0 none, 1
 * *scalar, 2 f(i) = hi[i >> s_log]·lo[i mod 2^s_log], 3 out[i] =
 * y[rev i]·f(i) - X[rev i]·(*scalar), X the pass's result (H's last step;
 * y another vector, left as it is). scalar is a host pointer, passed by
 * value. */
cudaError_t czk_gpu_launch_pass_rev(const void *x, void *out, unsigned log_n, unsigned k, const void *tw,
                                    unsigned tw_log, int inverse, int mode, const void *scalar, const void *y,
                                    const void *hi, const void *lo, unsigned s_log, cudaStream_t s);

/* The small root tables of the passes, czk_gpu_roots_count() elements
 * after the N/2 of tw (N = 2^tw_log), computed from those. */
size_t czk_gpu_roots_count(void);
cudaError_t czk_gpu_launch_roots(void *tw, unsigned tw_log, cudaStream_t s);

/* The bit-reversal permutation on log_n bits, in place, with a factor at
 * each output position i: mode 0 none, 1 the scalar *scalar (a host
 * pointer, passed by value), 2 hi[i >> s_log]·lo[i & (2^s_log - 1)]. */
cudaError_t czk_gpu_launch_bitrev(void *x, unsigned log_n, int mode, const void *scalar, const void *hi,
                                  const void *lo, unsigned s_log, cudaStream_t s);

/* H's last step, in place on x: x[i] = x[rev(i)]·f(i) - y[rev(i)]·s (rev
 * on log_n bits, f as in mode 2 above, s = *scalar, a host pointer passed
 * by value); y is another vector, left as it is. */
cudaError_t czk_gpu_launch_bitrev_sub(void *x, const void *y, unsigned log_n, const void *scalar, const void *hi,
                                      const void *lo, unsigned s_log, cudaStream_t s);

/* x[i] *= hi[f >> s_log]·lo[f & (2^s_log - 1)], i < n, with f = i, or
 * f = rev(i) on rev_log bits when rev_log > 0 (n = 2^rev_log). */
cudaError_t czk_gpu_launch_scale(void *x, size_t n, const void *hi, const void *lo, unsigned s_log, unsigned rev_log,
                                 cudaStream_t s);

/* a[i] = a[i]·b[i], i < n. */
cudaError_t czk_gpu_launch_mul(void *a, const void *b, size_t n, cudaStream_t s);

/* ---- G1 and G2 MSM (msm.cu; the host sequence in gpu_msm.c) ---------------
 * grp selects the group of the point kernels: 0 G1 (Fp), 1 G2 (Fp2). */

/* Shared with gpu_msm.c (defined in devmem.c and device.c): allocation against g's cap
 * (CZK_ERR_NO_MEMORY beyond it), its release, g's stream and device. */
struct czk_gpu;
int czk_gpu_dev_alloc(struct czk_gpu *g, void **p, size_t bytes, const char *what, char *msg, size_t msglen);
void czk_gpu_dev_free(struct czk_gpu *g, void *p, size_t bytes);
cudaStream_t czk_gpu_stream(const struct czk_gpu *g);
int czk_gpu_ordinal(const struct czk_gpu *g);

/* Bytes of one XYZZ point (4 Fp: 192, or 4 Fp2: 384). */
size_t czk_gpu_msm_xyzz_bytes(int grp);
/* For i < n whose density bit is set (words NULL: every i), j = rank(i)
 * (prefix[i/64] + set bits of words[i/64] below i): scal[j] = scalars[i]
 * canonical (32 B) and cls[j] its class: 0 zero, 1 one (split01; scal[j]
 * is then stored as 0), 2 any other. count (NULL: not counted; else two
 * zeroed uint32) gets += the number of class 1 and class 2 scalars. */
cudaError_t czk_gpu_launch_msm_prep(const void *scalars, size_t n, const void *words, const void *prefix,
                                   void *scal, void *cls, int split01, uint32_t *count, cudaStream_t s);
/* out = the j < m with cls[j] == v, increasing (cub::DeviceSelect::If; its
 * count to *nsel, a device uint32); temp NULL: sets *temp_bytes only. */
cudaError_t czk_gpu_msm_select(void *temp, size_t *temp_bytes, const void *cls, int v, uint32_t *out,
                               uint32_t *nsel, size_t m, cudaStream_t s);
/* prefix[k] = the set bits of words[0 … k), k < nw (cub::DeviceScan; its
 * temporary storage as czk_gpu_msm_select's). */
cudaError_t czk_gpu_density_prefix(void *temp, size_t *temp_bytes, const void *words, size_t nw, void *prefix,
                                   cudaStream_t s);
/* out[i] = scal[idx[i]] (32 B each), i < m. */
cudaError_t czk_gpu_launch_msm_gather(const void *scal, const uint32_t *idx, size_t m, void *out, cudaStream_t s);
/* keys[i] = |d_i| - 1 (2^(c-1) for d_i = 0), vals[i] = j_i | (d_i < 0) << 31,
 * i < m < 2^31: j_i = idx[i] (idx NULL: i), d_i the signed c-bit digit of
 * window w of scal[gather ? j_i : i]. */
cudaError_t czk_gpu_launch_msm_digits(const void *scal, const uint32_t *idx, int gather, size_t m, int w, int c,
                                     uint32_t *keys, uint32_t *vals, cudaStream_t s);
/* cub::DeviceRadixSort::SortPairs on the low `bits` bits of the keys (temp
 * NULL: sets *temp_bytes only). */
cudaError_t czk_gpu_msm_sort(void *temp, size_t *temp_bytes, const uint32_t *keys_in, uint32_t *keys_out,
                            const uint32_t *vals_in, uint32_t *vals_out, size_t m, int bits, cudaStream_t s);
/* Buckets (nb XYZZ) of one window from its m sorted pairs, in slices of L:
 * chunks writes the runs inside a slice and 2 partials per slice (partial:
 * 2·ceil(m/L) XYZZ); fix writes the rest of the nb buckets (range: nb·16
 * + 16 bytes of scratch: the runs' bounds, the short and long runs' lists). */
cudaError_t czk_gpu_launch_msm_chunks(int grp, const uint32_t *keys, const uint32_t *vals, size_t m, unsigned L,
                                     uint32_t nb, const void *bases, const void *pts, void *buckets, void *partial,
                                     cudaStream_t s);
/* The pairing rounds before chunks (G1, msm_pairs.cuh): `rounds` rounds of
 * affine additions over one window's m sorted pairs (base indices < 2^30),
 * sums into pts (ceil(m/2) affine points) and vals rewritten; chunks then
 * takes pts. scratch: czk_gpu_msm_pairs_scratch(m) bytes. */
size_t czk_gpu_msm_pairs_scratch(size_t m);
cudaError_t czk_gpu_launch_msm_pairs(const uint32_t *keys, uint32_t *vals, size_t m, uint32_t nb, unsigned rounds,
                                     const void *bases, void *pts, void *scratch, cudaStream_t s);
cudaError_t czk_gpu_launch_msm_fix(int grp, const uint32_t *keys, size_t m, unsigned L, uint32_t nb, void *range,
                                  void *buckets, const void *partial, cudaStream_t s);
/* out (W Jacobian): per window w of nb buckets B_k, Σ_k (k+1)·B_k, summed
 * in parts of 2^glog buckets (2^glog <= nb, a power of two) and then a
 * tree. Scratch: parts 2·W·(nb >> glog) XYZZ points, parts2 2·W·
 * czk_gpu_msm_window_sums_pairs2(nb >> glog). */
size_t czk_gpu_msm_window_sums_pairs2(size_t parts);
cudaError_t czk_gpu_launch_msm_window_sums(int grp, const void *buckets, unsigned W, uint32_t nb, unsigned glog,
                                          void *parts, void *parts2, void *out, cudaStream_t s);
/* The ones' sum in czk_gpu_msm_ones_threads(grp, m) = T partials:
 * out[t] (XYZZ) = Σ of the bases idx[i], i < m, i ≡ t (mod T). */
size_t czk_gpu_msm_ones_threads(int grp, size_t m);
cudaError_t czk_gpu_launch_msm_ones(int grp, const void *bases, const uint32_t *idx, size_t m, void *out,
                                   cudaStream_t s);
/* out[t] = Σ in[tL .. tL+L), t < ceil(count/L) (XYZZ). */
cudaError_t czk_gpu_launch_msm_xyzz_reduce(int grp, const void *in, size_t count, unsigned L, void *out,
                                          cudaStream_t s);
/* *out (Jacobian) = *in (XYZZ). */
cudaError_t czk_gpu_launch_msm_to_jac(int grp, const void *in, void *out, cudaStream_t s);

/* out[0 … n) from the packed form of czk/fr_pack.h at packed (n <=
 * CZK_FR_PACK_MAX), small: the table's 2·CZK_FR_PACK_SMALL + 1 values k·1 on
 * the device (unpack.cu). */
cudaError_t czk_gpu_launch_unpack(const void *packed, size_t n, const void *small, void *out, cudaStream_t s);

/* ---- a, b, c from the compact R1CS (spmv.cu; the host side in r1cs_dev.c) --
 * Rows of at most CZK_GPU_SPMV_SHORT_MAX terms take a thread each, longer
 * ones a warp each (their indices listed by the host at upload). Column v
 * is in[v] for v < n_in, else aux[v - n_in]; dict: Montgomery values. */
#define CZK_GPU_SPMV_SHORT_MAX 16u
/* out[i], i < n_out: row i's Σ dict[coeff]·w[col] for i < n_rows (short rows
 * only), in[i - n_rows] for n_rows <= i < n_abc when input_rows (A's
 * bellperson input rows), else 0. */
cudaError_t czk_gpu_launch_spmv(const uint32_t *row_ptr, const uint32_t *col, const uint16_t *coeff,
                                const void *dict, const void *in, size_t n_in, const void *aux, size_t n_rows,
                                size_t n_abc, size_t n_out, int input_rows, void *out, cudaStream_t s);
/* out[rows[r]] = that row's sum, r < n_long (the long rows). */
cudaError_t czk_gpu_launch_spmv_long(const uint32_t *rows, size_t n_long, const uint32_t *row_ptr,
                                     const uint32_t *col, const uint16_t *coeff, const void *dict, const void *in,
                                     size_t n_in, const void *aux, void *out, cudaStream_t s);

/* ---- MSM entry points on device-resident scalars (gpu_msm.c) -------------
 * For the CUDA prover backend (backend_cuda.c); C only (not seen by nvcc).
 * czk_gpu_msm_g1 / czk_gpu_msm_g2 with everything but the density map
 * already on g's device: dev_scalars are n Montgomery czk_fr (32 B each,
 * the host layout; read only, not freed), dev_bases the density-packed
 * affine bases (czk_g1_affine / czk_g2_affine layout), n_bases of them.
 * density: NULL or a host bitmap of >= n bits. Errors as the host-scalar
 * functions: CZK_ERR_INVALID_ARGUMENT for NULL pointers (g, r; dev_bases and
 * dev_scalars when n > 0), a short density map, n_bases < the number of
 * participating scalars, or 2^31 of them; CZK_ERR_NO_MEMORY over the cap
 * (nothing left allocated); r untouched on error. The call returns when
 * the result is on the host; it runs on g's stream, so work queued there
 * earlier (e.g. the kernels that wrote dev_scalars) is ordered before it.
 * Device memory as czk_gpu_msm_g1 / _g2 less the uploaded scalars. */
#ifndef __CUDACC__
#include "czk/bitmap.h"
#include "czk/err.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/gpu.h"
czk_err czk_gpu_msm_g1_dev(czk_gpu *g, czk_g1 *r, const void *dev_bases, size_t n_bases, const void *dev_scalars,
                           size_t n, const czk_bitmap *density, char *msg, size_t msglen);
czk_err czk_gpu_msm_g2_dev(czk_gpu *g, czk_g2 *r, const void *dev_bases, size_t n_bases, const void *dev_scalars,
                           size_t n, const czk_bitmap *density, char *msg, size_t msglen);

/* A density map's first n bits on the device: its words and, for each
 * word, the set bits of the words before it (prefix, with the scan's
 * scratch after it); nset: the set bits of the first n. Made with
 * czk_gpu_density_upload_via (gpu_stage.h), freed with
 * czk_gpu_density_free (a zeroed one is ignored). */
typedef struct czk_gpu_density {
    czk_gpu *g;
    void *words, *prefix;
    size_t n, nset, words_bytes, prefix_bytes;
} czk_gpu_density;
void czk_gpu_density_free(czk_gpu_density *d);

/* Prepared MSM scalars: the prep and compaction of the _dev entry points,
 * done once for several MSMs over the same scalars (B in G1 and in G2).
 * dev_scalars: n Montgomery czk_fr on g's device, read by the make call
 * only; dd: NULL (all participate) or a device density of n bits on g.
 * The MSMs take dev_bases, n_bases of them (>= czk_gpu_msm_scalars_count);
 * errors as the _dev entry points'. The prepared scalars hold about 4.5 to
 * 36 bytes per participating scalar (by their classes) until freed (NULL
 * ignored). */
typedef struct czk_gpu_msm_scalars czk_gpu_msm_scalars;
czk_err czk_gpu_msm_scalars_make(czk_gpu *g, const void *dev_scalars, size_t n, const czk_gpu_density *dd,
                                 czk_gpu_msm_scalars **out, char *msg, size_t msglen);
size_t czk_gpu_msm_scalars_count(const czk_gpu_msm_scalars *sc);
czk_err czk_gpu_msm_g1_prepared(czk_gpu *g, czk_g1 *r, const void *dev_bases, size_t n_bases,
                                czk_gpu_msm_scalars *sc, char *msg, size_t msglen);
czk_err czk_gpu_msm_g2_prepared(czk_gpu *g, czk_g2 *r, const void *dev_bases, size_t n_bases,
                                czk_gpu_msm_scalars *sc, char *msg, size_t msglen);
void czk_gpu_msm_scalars_free(czk_gpu_msm_scalars *sc);
/* The device pointer of resident bases (count of them: the upload's count). */
const void *czk_gpu_g1_bases_ptr(const czk_gpu_g1_bases *b);
const void *czk_gpu_g2_bases_ptr(const czk_gpu_g2_bases *b);
/* Handles over count points already on g's device at p (czk_gpu_dev_alloc'd,
 * count · 96 or 192 bytes, in the resident layout): the handle owns p from
 * then on (freed by czk_gpu_g1/g2_bases_free); on error p is still the
 * caller's and *out NULL. */
czk_err czk_gpu_g1_bases_adopt(czk_gpu *g, void *p, size_t count, czk_gpu_g1_bases **out, char *msg, size_t msglen);
czk_err czk_gpu_g2_bases_adopt(czk_gpu *g, void *p, size_t count, czk_gpu_g2_bases **out, char *msg, size_t msglen);

/* A compact R1CS (czk/r1cs_compact.h) on g's device (r1cs_dev.c): its
 * arrays as they are on the host, the dictionary, and per matrix the list
 * of its long rows. */
#include "czk/r1cs_compact.h"
struct czk_gpu_stager;
typedef struct czk_gpu_r1cs czk_gpu_r1cs;
/* The device bytes czk_gpu_r1cs_upload will take for r, at most (the long
 * rows' lists counted at their largest). */
size_t czk_gpu_r1cs_bytes(const czk_r1cs_compact *r);
/* Uploads r through st's pinned buffers (the copies on pool): returns when
 * it is on the device. CZK_ERR_NO_MEMORY over g's cap (nothing left
 * allocated); the host side's r is only read. Costs a pass over the row
 * offsets on the host (the long rows) and the PCIe time of
 * czk_r1cs_compact_bytes(r). */
czk_err czk_gpu_r1cs_upload(czk_gpu *g, struct czk_gpu_stager *st, const czk_r1cs_compact *r, czk_pool *pool,
                            czk_gpu_r1cs **out, char *msg, size_t msglen);
/* Its device bytes (what the upload allocated). NULL: 0. */
size_t czk_gpu_r1cs_dev_bytes(const czk_gpu_r1cs *d);
void czk_gpu_r1cs_free(czk_gpu_r1cs *d); /* NULL ignored */
/* Enqueues on g's stream: out[k] (n_out >= n_constraints + n_inputs
 * values each, k = a, b, c) = A·w, B·w, C·w with bellperson's input rows,
 * zero beyond; din: the n_inputs input values on g's device, daux the n_aux
 * aux values (NULL when there are none). Work queued on g's stream later
 * sees the values; wait: returns when the kernels are done. */
czk_err czk_gpu_r1cs_eval_dev(const czk_gpu_r1cs *d, const void *din, const void *daux, void *const out[3],
                              size_t n_out, int wait, char *msg, size_t msglen);
/* For tests: r uploaded, w uploaded, a, b, c evaluated on the device and
 * downloaded into a, b, c (n_out >= n_constraints + n_inputs values each);
 * the device memory freed again. CZK_ERR_MISMATCH when w's counts are not
 * r's. */
czk_err czk_gpu_r1cs_eval(czk_gpu *g, const czk_r1cs_compact *r, const czk_witness *w, czk_fr *a, czk_fr *b,
                          czk_fr *c, size_t n_out, czk_pool *pool, char *msg, size_t msglen);
#endif

#ifdef __cplusplus
}
#endif

#endif
