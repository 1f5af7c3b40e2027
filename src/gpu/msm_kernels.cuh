/* czk — the MSM point kernels (see msm.cu), templates over the coordinate
 * field F, and template launchers; instantiated for G1 in msm.cu and for G2
 * in msm_g2.cu (two translation units, compiled in parallel). */
#ifndef CZK_GPU_MSM_KERNELS_CUH
#define CZK_GPU_MSM_KERNELS_CUH

#include <cuda_runtime.h>

#include "g1.cuh"
#include "g2.cuh"
#include "msm_slice.cuh"

#define MSM_THREADS 128

/* The slices, one per thread (msm_slice.cuh). G1 (MINB 4): at most 128
 * registers; G2 (MINB 2): at most 255, twice the state. */
template <class F, int MINB, bool PAIRS>
__global__ void __launch_bounds__(MSM_THREADS, MINB) msm_chunks_kernel(const uint32_t *keys, const uint32_t *vals,
                                                                    size_t m, unsigned L, uint32_t nb,
                                                                    const aff_t<F> *bases, const aff_t<F> *pts,
                                                                    xyzz_t<F> *buckets, xyzz_t<F> *partial) {
    msm_chunks_slice<F, PAIRS>(blockIdx.x * (size_t)blockDim.x + threadIdx.x, keys, vals, m, L, nb, bases, pts, buckets,
                     partial);
}

/* range[k] = (first, end) of key k's run in the m sorted keys, for the
 * keys k < nb present; the others keep the zeroed (empty) range. */
static __global__ void __launch_bounds__(256) msm_bounds_kernel(const uint32_t *keys, uint32_t m, uint32_t nb,
                                                                uint2 *range) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    const uint32_t k = keys[i];
    if (k >= nb) return;
    if (i == 0 || keys[i - 1] != k) range[k].x = i;
    if (i + 1 == m || keys[i + 1] != k) range[k].y = i + 1;
}

/* A bucket whose run crosses more than FIX_SERIAL slice edges is summed
 * by a block of msm_fix_long_kernel, not by one thread (a window whose
 * few buckets hold all the points, e.g. the top window when c does not
 * divide 255 well, or repeated scalars, made the fix one long serial chain:
 * 100 ms for 207K G1 points at c = 14). */
#define FIX_SERIAL 32
#define FIX_LONG_THREADS 128

/* Bucket b < nb: infinity when empty; the sum of its partials when its run
 * crossed a slice edge (at most FIX_SERIAL; the longer ones are appended
 * to list, *nlong of them); untouched otherwise (chunks wrote it). */
template <class F>
__global__ void __launch_bounds__(MSM_THREADS) msm_fix_kernel(const uint2 *range, unsigned L, uint32_t nb,
                                                              xyzz_t<F> *buckets, const xyzz_t<F> *partial,
                                                              uint32_t *nlong, uint32_t *list) {
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb) return;
    const uint2 r = range[b];
    const size_t s = r.x, e = r.y;
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
    if (s == e) {
        xyzz_store(buckets + b, acc);
        return;
    }
    const size_t t0 = s / L, t1 = (e - 1) / L;
    if (t0 == t1) return;
    if (t1 - t0 > FIX_SERIAL) {
        list[atomicAdd(nlong, 1u)] = b;
        return;
    }
    xyzz_load(acc, partial + 2 * t0 + (s == t0 * L ? 0 : 1));
    for (size_t t = t0 + 1; t <= t1; t++) {
        xyzz_t<F> q;
        xyzz_load(q, partial + 2 * t);
        xyzz_add(acc, q);
    }
    xyzz_store(buckets + b, acc);
}

/* Block q (grid-stride over the *nlong listed buckets): the bucket's
 * partials summed by FIX_LONG_THREADS threads (strided), then a tree in
 * shared memory (half the block's points). */
template <class F>
__global__ void __launch_bounds__(FIX_LONG_THREADS) msm_fix_long_kernel(const uint2 *range, unsigned L,
                                                                        const uint32_t *nlong, const uint32_t *list,
                                                                        xyzz_t<F> *buckets,
                                                                        const xyzz_t<F> *partial) {
    __shared__ xyzz_t<F> sh[FIX_LONG_THREADS / 2];
    const uint32_t n = *nlong;
    const unsigned tid = threadIdx.x;
    for (uint32_t q = blockIdx.x; q < n; q += gridDim.x) {
        const uint32_t b = list[q];
        const uint2 r = range[b];
        const size_t s = r.x, e = r.y, t0 = s / L, t1 = (e - 1) / L;
        xyzz_t<F> acc, p;
        xyzz_set_inf(acc);
        if (tid == 0) xyzz_load(acc, partial + 2 * t0 + (s == t0 * L ? 0 : 1));
        for (size_t t = t0 + 1 + tid; t <= t1; t += FIX_LONG_THREADS) {
            xyzz_load(p, partial + 2 * t);
            xyzz_add(acc, p);
        }
        for (unsigned w = FIX_LONG_THREADS / 2; w > 0; w >>= 1) {
            if (tid >= w && tid < 2 * w) xyzz_store(sh + (tid - w), acc);
            __syncthreads();
            if (tid < w) {
                xyzz_load(p, sh + tid);
                xyzz_add(acc, p);
            }
            __syncthreads();
        }
        if (tid == 0) xyzz_store(buckets + b, acc);
    }
}

/* Over the G buckets B_i at bk: run = Σ B_i and tot = Σ (i+1)·B_i, by a
 * running sum from the top (2 additions per bucket). */
template <class F>
static __device__ __forceinline__ void running_sums(const xyzz_t<F> *bk, size_t G, xyzz_t<F> &run, xyzz_t<F> &tot) {
    xyzz_t<F> q;
    xyzz_set_inf(run);
    xyzz_set_inf(tot);
    for (size_t i = G; i-- > 0;) {
        xyzz_load(q, bk + i);
        xyzz_add(run, q);
        xyzz_add(tot, run);
    }
}

/* Thread (w, s): over the G = nb/S buckets B_i of segment s of window w,
 * R = Σ B_i and T = Σ (i+1)·B_i (i local, running_sums); out[2(wS+s)] = T,
 * out[2(wS+s)+1] = R. */
template <class F>
__global__ void __launch_bounds__(MSM_THREADS) msm_segments_kernel(const xyzz_t<F> *buckets, unsigned W, uint32_t nb,
                                                                   unsigned S, jac_t<F> *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= (size_t)W * S) return;
    const size_t w = t / S, s = t % S, G = nb / S;
    const xyzz_t<F> *bk = buckets + w * nb + s * G;
    xyzz_t<F> run, tot;
    running_sums(bk, G, run, tot);
    xyzz_store_jac(out + 2 * t, tot);
    xyzz_store_jac(out + 2 * t + 1, run);
}

/* The segments' sums in two steps, for groups whose additions are slow
 * (G2): each segment of G = nb/S buckets is cut into k parts of g = G/k.
 * Thread (w, s, j) of msm_parts_kernel: t_j = Σ (i+1)·B_i and r_j = Σ B_i
 * over part j (i local), XYZZ in out[2(wSk+sk+j)], out[2(...)+1]; thread
 * (w, s) of msm_combine_kernel: T = Σ_j t_j + g·Σ_j j·r_j, R = Σ_j r_j,
 * which are segments' T and R (Jacobian, same layout). Serial additions:
 * 2g + 3k + log2 g instead of 2G. */
template <class F>
__global__ void __launch_bounds__(MSM_THREADS) msm_parts_kernel(const xyzz_t<F> *buckets, unsigned W, uint32_t nb,
                                                                unsigned P, xyzz_t<F> *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= (size_t)W * P) return;
    const size_t w = t / P, s = t % P, G = nb / P;
    const xyzz_t<F> *bk = buckets + w * nb + s * G;
    xyzz_t<F> run, tot;
    running_sums(bk, G, run, tot);
    xyzz_store(out + 2 * t, tot);
    xyzz_store(out + 2 * t + 1, run);
}

template <class F>
__global__ void __launch_bounds__(MSM_THREADS) msm_combine_kernel(const xyzz_t<F> *parts, unsigned WS, unsigned k,
                                                                  unsigned glog, jac_t<F> *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= WS) return;
    const xyzz_t<F> *p = parts + 2 * t * k;
    /* g·Σ_j j·r_j and R first, then the t_j onto it: three points live, not four */
    xyzz_t<F> run, acc, q;
    xyzz_set_inf(run);
    xyzz_set_inf(acc);
    for (unsigned j = k; j-- > 0;) {
        xyzz_load(q, p + 2 * j + 1);
        xyzz_add(run, q);
        if (j > 0) xyzz_add(acc, run);
    }
    xyzz_store_jac(out + 2 * t + 1, run);
    for (unsigned i = 0; i < glog; i++) xyzz_dbl(acc);
    for (unsigned j = 0; j < k; j++) {
        xyzz_load(q, p + 2 * j);
        xyzz_add(acc, q);
    }
    xyzz_store_jac(out + 2 * t, acc);
}

/* The ones' sum, flat over their compacted base indices: thread t of T
 * adds the bases idx[t], idx[t + T], … (every lane adds one base per
 * iteration; a warp reads 32 consecutive indices, whose bases lie close
 * together). MINB as chunks. */
template <class F, int MINB>
__global__ void __launch_bounds__(MSM_THREADS, MINB) msm_ones_kernel(const aff_t<F> *bases, const uint32_t *idx,
                                                                  size_t m, xyzz_t<F> *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x, T = (size_t)gridDim.x * blockDim.x;
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
    for (size_t i = t; i < m; i += T) add_base(acc, bases, __ldg(idx + i));
    xyzz_store(out + t, acc);
}

/* Thread t: out[t] = Σ in[tL .. tL+L). */
template <class F>
__global__ void __launch_bounds__(MSM_THREADS) msm_xyzz_reduce_kernel(const xyzz_t<F> *in, size_t count, unsigned L,
                                                                      xyzz_t<F> *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t start = t * L;
    if (start >= count) return;
    const size_t end = start + L < count ? start + L : count;
    xyzz_t<F> acc, q;
    xyzz_set_inf(acc);
    for (size_t j = start; j < end; j++) {
        xyzz_load(q, in + j);
        xyzz_add(acc, q);
    }
    xyzz_store(out + t, acc);
}

template <class F> __global__ void msm_to_jac_kernel(const xyzz_t<F> *in, jac_t<F> *out) {
    xyzz_t<F> p;
    xyzz_load(p, in);
    xyzz_store_jac(out, p);
}

static inline unsigned blocks_for(size_t n, unsigned threads) { return (unsigned)((n + threads - 1) / threads); }

/* PAIRS: after the pairing rounds (pts their sums), else pts NULL */
template <class F, int MINB, bool PAIRS>
static inline cudaError_t launch_chunks(const uint32_t *keys, const uint32_t *vals, size_t m, unsigned L, uint32_t nb,
                                 const void *bases, const void *pts, void *buckets, void *partial, cudaStream_t s) {
    const size_t nchunks = (m + L - 1) / L;
    msm_chunks_kernel<F, MINB, PAIRS><<<blocks_for(nchunks, MSM_THREADS), MSM_THREADS, 0, s>>>(
        keys, vals, m, L, nb, (const aff_t<F> *)bases, (const aff_t<F> *)pts, (xyzz_t<F> *)buckets,
        (xyzz_t<F> *)partial);
    return cudaGetLastError();
}

/* range: nb·12 + 16 bytes of scratch: the runs' bounds (nb uint2,
 * msm_bounds_kernel), the count of long runs (16 B) and their list (nb
 * uint32). m / L slices. */
template <class F>
static inline cudaError_t launch_fix(const uint32_t *keys, size_t m, unsigned L, uint32_t nb, void *range,
                                     void *buckets, const void *partial, cudaStream_t s) {
    uint32_t *nlong = (uint32_t *)((char *)range + (size_t)nb * sizeof(uint2)), *list = nlong + 4;
    cudaError_t ce = cudaMemsetAsync(range, 0, (size_t)nb * sizeof(uint2) + 16, s);
    if (ce != cudaSuccess) return ce;
    msm_bounds_kernel<<<blocks_for(m, 256), 256, 0, s>>>(keys, (uint32_t)m, nb, (uint2 *)range);
    ce = cudaGetLastError();
    if (ce != cudaSuccess) return ce;
    msm_fix_kernel<F><<<blocks_for(nb, MSM_THREADS), MSM_THREADS, 0, s>>>((const uint2 *)range, L, nb,
                                                                           (xyzz_t<F> *)buckets,
                                                                           (const xyzz_t<F> *)partial, nlong, list);
    ce = cudaGetLastError();
    if (ce != cudaSuccess) return ce;
    /* at most one long run per FIX_SERIAL slices; 2 blocks per SM of an H200 at most */
    const size_t slices = (m + L - 1) / L, most = slices / FIX_SERIAL + 1;
    const unsigned grid = most < 264 ? (unsigned)most : 264;
    msm_fix_long_kernel<F><<<grid, FIX_LONG_THREADS, 0, s>>>((const uint2 *)range, L, nlong, list,
                                                            (xyzz_t<F> *)buckets, (const xyzz_t<F> *)partial);
    return cudaGetLastError();
}

template <class F>
static inline cudaError_t launch_segments(const void *buckets, unsigned W, uint32_t nb, unsigned S, void *out,
                                   cudaStream_t s) {
    /* few threads, each with a long serial chain: one warp per block spreads them over the SMs */
    msm_segments_kernel<F><<<blocks_for((size_t)W * S, 32), 32, 0, s>>>((const xyzz_t<F> *)buckets, W, nb, S,
                                                                        (jac_t<F> *)out);
    return cudaGetLastError();
}

/* The ones' threads: one wave of MINB blocks per SM, fewer for small m. */
template <int MINB> static inline size_t ones_threads(size_t m) {
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) !=
                                                  cudaSuccess || sms <= 0)
        sms = 1;
    const size_t wave = (size_t)sms * MINB * MSM_THREADS;
    const size_t need = (m + MSM_THREADS - 1) / MSM_THREADS * MSM_THREADS;
    return need < wave ? (need ? need : MSM_THREADS) : wave;
}

template <class F, int MINB>
static inline cudaError_t launch_ones(const void *bases, const uint32_t *idx, size_t m, void *out, cudaStream_t s) {
    const size_t T = ones_threads<MINB>(m);
    msm_ones_kernel<F, MINB><<<(unsigned)(T / MSM_THREADS), MSM_THREADS, 0, s>>>((const aff_t<F> *)bases, idx, m,
                                                                                (xyzz_t<F> *)out);
    return cudaGetLastError();
}

template <class F>
static inline cudaError_t launch_xyzz_reduce(const void *in, size_t count, unsigned L, void *out, cudaStream_t s) {
    msm_xyzz_reduce_kernel<F><<<blocks_for((count + L - 1) / L, MSM_THREADS), MSM_THREADS, 0, s>>>(
        (const xyzz_t<F> *)in, count, L, (xyzz_t<F> *)out);
    return cudaGetLastError();
}

/* F: the parts kernel's field, FC: the combine kernel's (same layout) */
template <class F, class FC>
static inline cudaError_t launch_segments2(const void *buckets, unsigned W, uint32_t nb, unsigned S, unsigned k,
                                          void *parts, void *out, cudaStream_t s) {
    const unsigned P = S * k;
    unsigned glog = 0;
    while ((1u << glog) < nb / P) glog++;
    msm_parts_kernel<F><<<blocks_for((size_t)W * P, 32), 32, 0, s>>>((const xyzz_t<F> *)buckets, W, nb, P,
                                                                     (xyzz_t<F> *)parts);
    cudaError_t ce = cudaGetLastError();
    if (ce != cudaSuccess) return ce;
    msm_combine_kernel<FC><<<blocks_for((size_t)W * S, 32), 32, 0, s>>>((const xyzz_t<FC> *)parts, W * S, k, glog,
                                                                        (jac_t<FC> *)out);
    return cudaGetLastError();
}

template <class F> static inline cudaError_t launch_to_jac(const void *in, void *out, cudaStream_t s) {
    msm_to_jac_kernel<F><<<1, 1, 0, s>>>((const xyzz_t<F> *)in, (jac_t<F> *)out);
    return cudaGetLastError();
}

/* The G2 launchers (msm_g2.cu), with the contracts of gpu_internal.h. */
cudaError_t czk_gpu_msm_g2_chunks(const uint32_t *keys, const uint32_t *vals, size_t m, unsigned L, uint32_t nb,
                                  const void *bases, void *buckets, void *partial, cudaStream_t s);
cudaError_t czk_gpu_msm_g2_fix(const uint32_t *keys, size_t m, unsigned L, uint32_t nb, void *range,
                               void *buckets, const void *partial, cudaStream_t s);
cudaError_t czk_gpu_msm_g2_segments2(const void *buckets, unsigned W, uint32_t nb, unsigned S, unsigned k,
                                     void *parts, void *out, cudaStream_t s);
size_t czk_gpu_msm_g2_ones_threads(size_t m);
cudaError_t czk_gpu_msm_g2_ones(const void *bases, const uint32_t *idx, size_t m, void *out, cudaStream_t s);
cudaError_t czk_gpu_msm_g2_xyzz_reduce(const void *in, size_t count, unsigned L, void *out, cudaStream_t s);
cudaError_t czk_gpu_msm_g2_to_jac(const void *in, void *out, cudaStream_t s);

#endif
