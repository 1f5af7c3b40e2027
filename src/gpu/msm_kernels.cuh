/* czk — the MSM point kernels (see msm.cu), templates over the coordinate
 * field F, and template launchers; instantiated for G1 in msm.cu and for G2
 * in msm_g2.cu (two translation units, compiled in parallel). */
#ifndef CZK_GPU_MSM_KERNELS_CUH
#define CZK_GPU_MSM_KERNELS_CUH

#include <cuda_runtime.h>

#include "g1.cuh"
#include "g2.cuh"
#include "msm_slice.cuh"
#include "msm_sums.cuh"

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

/* Bucket b < nb: infinity when empty (stored here); listed when its run
 * crossed a slice edge, in short (up to FIX_SERIAL edges, *nshort of them)
 * or else in long (*nlong); untouched otherwise (chunks wrote it). The
 * sums are left to msm_fix_short_kernel over the short list: done here, a
 * warp paid for an addition whenever one of its 32 buckets needed one (a
 * quarter of the H MSM's buckets do, about every warp). Each warp takes
 * its places in a list with one atomic. */
template <class F>
__global__ void __launch_bounds__(256) msm_fix_scan_kernel(const uint2 *range, unsigned L, uint32_t nb,
                                                           xyzz_t<F> *buckets, uint32_t *nshort,
                                                           uint32_t *short_list, uint32_t *nlong,
                                                           uint32_t *long_list) {
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x & 31;
    bool is_short = false, is_long = false;
    if (b < nb) {
        const uint2 r = range[b];
        if (r.x == r.y) {
            xyzz_t<F> inf;
            xyzz_set_inf(inf);
            xyzz_store(buckets + b, inf);
        } else {
            const size_t t0 = r.x / L, t1 = (r.y - 1) / L;
            is_long = t1 - t0 > FIX_SERIAL;
            is_short = t1 != t0 && !is_long;
        }
    }
    const unsigned below = (1u << lane) - 1;
    const unsigned ms = __ballot_sync(0xffffffffu, is_short), ml = __ballot_sync(0xffffffffu, is_long);
    uint32_t bs = 0, bl = 0;
    if (lane == 0) {
        if (ms) bs = atomicAdd(nshort, (uint32_t)__popc(ms));
        if (ml) bl = atomicAdd(nlong, (uint32_t)__popc(ml));
    }
    bs = __shfl_sync(0xffffffffu, bs, 0);
    bl = __shfl_sync(0xffffffffu, bl, 0);
    if (is_short) short_list[bs + __popc(ms & below)] = b;
    if (is_long) long_list[bl + __popc(ml & below)] = b;
}

/* Grid-stride over the *nshort listed buckets: each one's partials summed
 * in a row (at most FIX_SERIAL + 1). */
template <class F>
__global__ void __launch_bounds__(MSM_THREADS) msm_fix_short_kernel(const uint2 *range, unsigned L,
                                                                    const uint32_t *nshort, const uint32_t *list,
                                                                    xyzz_t<F> *buckets, const xyzz_t<F> *partial) {
    const uint32_t n = *nshort;
    for (uint32_t q = blockIdx.x * blockDim.x + threadIdx.x; q < n; q += gridDim.x * blockDim.x) {
        const uint32_t b = list[q];
        const uint2 r = range[b];
        const size_t s = r.x, e = r.y, t0 = s / L, t1 = (e - 1) / L;
        xyzz_t<F> acc;
        xyzz_load(acc, partial + 2 * t0 + (s == t0 * L ? 0 : 1));
        for (size_t t = t0 + 1; t <= t1; t++) {
            xyzz_t<F> p;
            xyzz_load(p, partial + 2 * t);
            xyzz_add(acc, p);
        }
        xyzz_store(buckets + b, acc);
    }
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

/* Thread (w, p) of W·P: over part p of window w (its G = nb/P buckets B_i,
 * i local), t = Σ (i+1)·B_i and r = Σ B_i (running_sums), XYZZ in
 * out[2(wP+p)] and out[2(wP+p)+1]. */
template <class F>
__global__ void __launch_bounds__(MSM_THREADS) msm_parts_kernel(const xyzz_t<F> *buckets, unsigned W, uint32_t nb,
                                                                uint32_t P, xyzz_t<F> *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= (size_t)W * P) return;
    const size_t w = t / P, s = t % P, G = nb / P;
    const xyzz_t<F> *bk = buckets + w * nb + s * G;
    xyzz_t<F> run, tot;
    running_sums(bk, G, run, tot);
    xyzz_store(out + 2 * t, tot);
    xyzz_store(out + 2 * t + 1, run);
}

/* Block b: group b of the tree (tree_group, msm_sums.cuh), in shared
 * memory the warps' sums. */
template <class F, bool FINAL>
__global__ void __launch_bounds__(MSM_TREE_MAX) msm_tree_kernel(const xyzz_t<F> *in, unsigned P, unsigned glog,
                                                                void *out) {
    __shared__ xyzz_t<F> sh[2 * (MSM_TREE_MAX / 32)];
    tree_group<F, FINAL, warp_lanes>(in, P, glog, out, blockIdx.x, threadIdx.x, blockDim.x, sh);
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

/* range: nb·16 + 16 bytes of scratch: the runs' bounds (nb uint2,
 * msm_bounds_kernel), the counts of long and short runs (16 B), and their
 * lists (nb uint32 each). m / L slices. */
template <class F>
static inline cudaError_t launch_fix(const uint32_t *keys, size_t m, unsigned L, uint32_t nb, void *range,
                                     void *buckets, const void *partial, cudaStream_t s) {
    uint32_t *nlong = (uint32_t *)((char *)range + (size_t)nb * sizeof(uint2)), *nshort = nlong + 1;
    uint32_t *long_list = nlong + 4, *short_list = long_list + nb;
    cudaError_t ce = cudaMemsetAsync(range, 0, (size_t)nb * sizeof(uint2) + 16, s);
    if (ce != cudaSuccess) return ce;
    msm_bounds_kernel<<<blocks_for(m, 256), 256, 0, s>>>(keys, (uint32_t)m, nb, (uint2 *)range);
    ce = cudaGetLastError();
    if (ce != cudaSuccess) return ce;
    msm_fix_scan_kernel<F><<<blocks_for(nb, 256), 256, 0, s>>>((const uint2 *)range, L, nb, (xyzz_t<F> *)buckets,
                                                                nshort, short_list, nlong, long_list);
    ce = cudaGetLastError();
    if (ce != cudaSuccess) return ce;
    /* at most nb short runs: up to about 8 blocks per SM of an H200 */
    const size_t most_short = blocks_for(nb, MSM_THREADS);
    msm_fix_short_kernel<F><<<most_short < 1056 ? (unsigned)most_short : 1056, MSM_THREADS, 0, s>>>(
        (const uint2 *)range, L, nshort, short_list, (xyzz_t<F> *)buckets, (const xyzz_t<F> *)partial);
    ce = cudaGetLastError();
    if (ce != cudaSuccess) return ce;
    /* at most one long run per FIX_SERIAL slices; 2 blocks per SM of an H200 at most */
    const size_t slices = (m + L - 1) / L, most = slices / FIX_SERIAL + 1;
    const unsigned grid = most < 264 ? (unsigned)most : 264;
    msm_fix_long_kernel<F><<<grid, FIX_LONG_THREADS, 0, s>>>((const uint2 *)range, L, nlong, long_list,
                                                            (xyzz_t<F> *)buckets, (const xyzz_t<F> *)partial);
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

/* Each window's Σ_k (k+1)·B_k (Jacobian, out[w]) from its nb buckets, in
 * parts of 2^glog buckets (2^glog <= nb): msm_parts_kernel, then
 * msm_tree_kernel over groups of up to MSM_TREE_MAX pairs until one is left
 * per window. parts: 2·W·(nb >> glog) XYZZ; parts2: 2·W·(nb >> glog) /
 * tree_group_pairs(nb >> glog) XYZZ. F: the parts kernel's field, FC: the tree's (same
 * layout). */
template <class F, class FC>
static inline cudaError_t launch_window_sums(const void *buckets, unsigned W, uint32_t nb, unsigned glog, void *parts,
                                             void *parts2, void *out, cudaStream_t s) {
    size_t Q = nb >> glog; /* pairs per window */
    /* few threads, each with a long serial chain: one warp per block spreads them over the SMs */
    msm_parts_kernel<F><<<blocks_for((size_t)W * Q, 32), 32, 0, s>>>((const xyzz_t<F> *)buckets, W, nb,
                                                                     (uint32_t)Q, (xyzz_t<F> *)parts);
    cudaError_t ce = cudaGetLastError();
    const xyzz_t<FC> *in = (const xyzz_t<FC> *)parts;
    void *o = parts2;
    while (ce == cudaSuccess) {
        const unsigned P = tree_group_pairs(Q), threads = P < 32 ? 32 : P;
        const unsigned groups = (unsigned)(W * (Q / P));
        if (Q == P) {
            msm_tree_kernel<FC, true><<<groups, threads, 0, s>>>(in, P, glog, out);
            return cudaGetLastError();
        }
        msm_tree_kernel<FC, false><<<groups, threads, 0, s>>>(in, P, glog, o);
        ce = cudaGetLastError();
        void *next = (void *)in;
        in = (const xyzz_t<FC> *)o;
        o = next;
        Q /= P;
        for (unsigned p = P; p > 1; p >>= 1) glog++;
    }
    return ce;
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
cudaError_t czk_gpu_msm_g2_window_sums(const void *buckets, unsigned W, uint32_t nb, unsigned glog, void *parts,
                                       void *parts2, void *out, cudaStream_t s);
size_t czk_gpu_msm_g2_ones_threads(size_t m);
cudaError_t czk_gpu_msm_g2_ones(const void *bases, const uint32_t *idx, size_t m, void *out, cudaStream_t s);
cudaError_t czk_gpu_msm_g2_xyzz_reduce(const void *in, size_t count, unsigned L, void *out, cudaStream_t s);
cudaError_t czk_gpu_msm_g2_to_jac(const void *in, void *out, cudaStream_t s);

#endif
