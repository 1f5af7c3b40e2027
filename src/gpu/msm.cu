/* czk — G1 and G2 MSM kernels (Pippenger with signed digits), templates over
 * the coordinate field (fp_t: G1, fp2_t: G2); the host sequence is in
 * gpu_msm.c, the launchers' contracts in gpu_internal.h (grp 0: G1, 1: G2).
 *
 * Per call: prep turns the (density-filtered) Montgomery scalars into
 * canonical ones indexed like the bases, classed (0, 1, big) and counted;
 * select lists the ones' and the big scalars' indices (gather packs the
 * big scalars); per window, digits writes (bucket, point) pairs for the
 * big scalars, CUB sorts them by bucket, for large G1 windows the pairing
 * rounds add pairs of the sorted list's points affinely (msm_pairs.cuh,
 * one inversion per round, shared through a tree of prefix products whose
 * top the host inverts), chunks sums
 * fixed-length slices of the sorted list (runs wholly inside a slice go to
 * their bucket, runs crossing a slice edge to two partial slots per slice)
 * and fix completes the buckets whose run crossed an edge; then the window
 * sums: each window's buckets in parts (running sums), the parts' sums
 * combined by warps and blocks in a tree, one Jacobian point per window
 * for the host's Horner; ones / xyzz_reduce sum the ones' bases (a flat
 * pass over their index list, then a tree).
 *
 * This file: the scalar kernels, the sort, and the point kernels for G1; the
 * point kernels are in msm_kernels.cuh, their G2 instances in msm_g2.cu.
 * G1's kernels inline the Fp products, but for the tree of the window sums
 * and the ones' reductions, which take fpc_t (out-of-line product;
 * inlined, they spill). */
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

extern "C" {
#include "czk/fp.h"
}

#include "fr.cuh"
#include "gpu_internal.h"
#include "msm_kernels.cuh"

/* prep: i < n; words / prefix NULL without a density map. The canonical
 * value is s·1 (Montgomery reduction of s); the scalar 1 (split01) is
 * class 1 and stored as 0, so it makes no digits; 0 is class 0, the rest
 * class 2. count: the block's class 1 and 2 scalars added (one atomic per
 * block and class), so every thread reaches the block's counts. */
__global__ void __launch_bounds__(256) msm_prep_kernel(const fr_t *scalars, size_t n, const unsigned long long *words,
                                                       const unsigned long long *prefix, fr_t *scal, uint8_t *cls,
                                                       int split01, uint32_t *count) {
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    bool in = i < n;
    size_t j = i;
    if (in && words) {
        const unsigned long long w = words[i >> 6], below = (1ull << (i & 63)) - 1;
        in = (w >> (i & 63)) & 1;
        j = (size_t)prefix[i >> 6] + (size_t)__popcll(w & below);
    }
    int k = 0;
    if (in) {
        fr_t one;
#pragma unroll
        for (int q = 0; q < 8; q++) one.l[q] = q == 0;
        fr_t c = fr_mul(fr_ldg(scalars + i), one);
        uint32_t hi = 0;
#pragma unroll
        for (int q = 1; q < 8; q++) hi |= c.l[q];
        const bool is1 = split01 && hi == 0 && c.l[0] == 1;
        if (is1) c.l[0] = 0;
        k = is1 ? 1 : (hi == 0 && c.l[0] == 0) ? 0 : 2;
        fr_store(scal + j, c);
        cls[j] = (uint8_t)k;
    }
    if (count) {
        const int n1 = __syncthreads_count(k == 1), n2 = __syncthreads_count(k == 2);
        if (threadIdx.x == 0) {
            if (n1) atomicAdd(count, (uint32_t)n1);
            if (n2) atomicAdd(count + 1, (uint32_t)n2);
        }
    }
}

/* Booth digit of window w (see src/msm/pippenger.h): bits [cw-1, cw+c) of
 * k < 2^255 give d in [-2^(c-1), 2^(c-1)]; key |d|-1, or nb for d = 0;
 * val: the point's index (idx[i], or i), bit 31 set for d < 0; k is
 * scal[idx[i]] when gather, else scal[i]. */
__global__ void msm_digits_kernel(const uint32_t *scal, const uint32_t *idx, int gather, size_t m, int w, int c,
                                  uint32_t *keys, uint32_t *vals) {
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= m) return;
    const uint32_t j = idx ? __ldg(idx + i) : (uint32_t)i;
    const uint32_t *k = scal + 8 * (size_t)(gather ? j : (uint32_t)i);
    const int lo = c * w - 1;
    unsigned long long v;
    if (lo < 0) {
        v = (unsigned long long)k[0] << 1;
    } else {
        const int word = lo >> 5, sh = lo & 31;
        v = k[word];
        if (word < 7) v |= (unsigned long long)k[word + 1] << 32;
        v >>= sh;
    }
    v &= (2ull << c) - 1;
    const int top = (int)(v >> c);
    const int d = (int)(v >> 1) + (int)(v & 1) - (top << c);
    const uint32_t nb = 1u << (c - 1);
    keys[i] = d == 0 ? nb : (uint32_t)(d > 0 ? d : -d) - 1;
    vals[i] = j | (d < 0 ? 0x80000000u : 0u);
}

/* out[i] = scal[idx[i]], 32 B each */
__global__ void msm_gather_kernel(const uint4 *scal, const uint32_t *idx, size_t m, uint4 *out) {
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= m) return;
    const size_t j = __ldg(idx + i);
    const uint4 a = __ldg(scal + 2 * j), b = __ldg(scal + 2 * j + 1);
    out[2 * i] = a;
    out[2 * i + 1] = b;
}

/* the select's predicate over base indices: cls[j] == v */
struct msm_cls_is {
    const uint8_t *cls;
    uint8_t v;
    __host__ __device__ bool operator()(const uint32_t j) const { return cls[j] == v; }
};

extern "C" size_t czk_gpu_msm_xyzz_bytes(int grp) { return grp ? sizeof(g2_xyzz_t) : sizeof(g1_xyzz_t); }

extern "C" cudaError_t czk_gpu_launch_msm_prep(const void *scalars, size_t n, const void *words, const void *prefix,
                                               void *scal, void *cls, int split01, uint32_t *count, cudaStream_t s) {
    msm_prep_kernel<<<blocks_for(n, 256), 256, 0, s>>>((const fr_t *)scalars, n, (const unsigned long long *)words,
                                                       (const unsigned long long *)prefix, (fr_t *)scal,
                                                       (uint8_t *)cls, split01, count);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_msm_select(void *temp, size_t *temp_bytes, const void *cls, int v, uint32_t *out,
                                          uint32_t *nsel, size_t m, cudaStream_t s) {
    msm_cls_is pred = {(const uint8_t *)cls, (uint8_t)v};
    return cub::DeviceSelect::If(temp, *temp_bytes, thrust::counting_iterator<uint32_t>(0), out, nsel, (int)m, pred,
                                 s);
}

/* a density word's set bits */
struct msm_popc {
    __device__ unsigned long long operator()(const unsigned long long w) const { return (unsigned long long)__popcll(w); }
};

extern "C" cudaError_t czk_gpu_density_prefix(void *temp, size_t *temp_bytes, const void *words, size_t nw,
                                              void *prefix, cudaStream_t s) {
    const auto in = thrust::make_transform_iterator((const unsigned long long *)words, msm_popc());
    return cub::DeviceScan::ExclusiveSum(temp, *temp_bytes, in, (unsigned long long *)prefix, nw, s);
}

extern "C" cudaError_t czk_gpu_launch_msm_gather(const void *scal, const uint32_t *idx, size_t m, void *out,
                                                 cudaStream_t s) {
    msm_gather_kernel<<<blocks_for(m, 256), 256, 0, s>>>((const uint4 *)scal, idx, m, (uint4 *)out);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_msm_digits(const void *scal, const uint32_t *idx, int gather, size_t m, int w,
                                                 int c, uint32_t *keys, uint32_t *vals, cudaStream_t s) {
    msm_digits_kernel<<<blocks_for(m, 256), 256, 0, s>>>((const uint32_t *)scal, idx, gather, m, w, c, keys, vals);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_msm_sort(void *temp, size_t *temp_bytes, const uint32_t *keys_in, uint32_t *keys_out,
                                        const uint32_t *vals_in, uint32_t *vals_out, size_t m, int bits,
                                        cudaStream_t s) {
    return cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, keys_in, keys_out, vals_in, vals_out, (int)m, 0, bits,
                                           s);
}

/* The point kernels for group grp: G1 here, G2 in msm_g2.cu. */
extern "C" cudaError_t czk_gpu_launch_msm_chunks(int grp, const uint32_t *keys, const uint32_t *vals, size_t m,
                                                 unsigned L, uint32_t nb, const void *bases, const void *pts,
                                                 void *buckets, void *partial, cudaStream_t s) {
    if (grp) /* G2 has no pairing rounds */
        return pts ? cudaErrorNotSupported : czk_gpu_msm_g2_chunks(keys, vals, m, L, nb, bases, buckets, partial, s);
    /* 4 blocks per SM (at most 128 registers): on an H200 as fast as 3 blocks
     * with the next base prefetched (168 registers) */
    return pts ? launch_chunks<fp_t, 4, true>(keys, vals, m, L, nb, bases, pts, buckets, partial, s)
               : launch_chunks<fp_t, 4, false>(keys, vals, m, L, nb, bases, NULL, buckets, partial, s);
}

/* ---- the pairing rounds (msm_pairs.cuh), G1 ---- */

#define PAIR_THREADS 128

__global__ void __launch_bounds__(PAIR_THREADS) msm_pair_up0_kernel(pair_round c, size_t J, size_t T0, fp_t *pre,
                                                                    fp_t *tot) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t < T0) pair_up0(c, J, T0, t, pre, tot);
}

__global__ void __launch_bounds__(PAIR_THREADS) msm_pair_up_kernel(const fp_t *in, size_t n, size_t T, fp_t *pre,
                                                                   fp_t *tot) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t < T) pair_up(in, n, T, t, pre, tot);
}

__global__ void __launch_bounds__(PAIR_THREADS) msm_pair_down_kernel(fp_t *in, size_t n, size_t T, const fp_t *pre,
                                                                     const fp_t *inv) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t < T) pair_down(in, n, T, t, pre, inv);
}

__global__ void __launch_bounds__(PAIR_THREADS) msm_pair_add0_kernel(pair_round c, size_t J, size_t T0,
                                                                     const fp_t *pre, const fp_t *inv) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t < T0) pair_add0(c, J, T0, t, pre, inv);
}

extern "C" size_t czk_gpu_msm_pairs_scratch(size_t m) {
    size_t T[PAIR_MAX_LEVELS], off[PAIR_MAX_LEVELS + 1];
    if (m < 2) return 0;
    const unsigned L = pair_tree(pair_candidates(m, 1), T, off);
    return off[L] * sizeof(fp_t);
}

extern "C" cudaError_t czk_gpu_launch_msm_pairs(const uint32_t *keys, uint32_t *vals, size_t m, uint32_t nb,
                                                unsigned rounds, const void *bases, void *pts, void *scratch,
                                                cudaStream_t s) {
    fp_t *sc = (fp_t *)scratch;
    for (unsigned r = 1; r <= rounds && ((size_t)1 << (r - 1)) < m; r++) {
        const pair_round c = {keys, vals, m, nb, r, (const g1_aff_t *)bases, (g1_aff_t *)pts};
        size_t T[PAIR_MAX_LEVELS], off[PAIR_MAX_LEVELS + 1];
        const size_t J = pair_candidates(m, r);
        const unsigned L = pair_tree(J, T, off);
#define PRE(l) pair_pre(sc, off, l)
#define TOT(l) pair_tot(sc, T, off, l)
        msm_pair_up0_kernel<<<blocks_for(T[0], PAIR_THREADS), PAIR_THREADS, 0, s>>>(c, J, T[0], PRE(0), TOT(0));
        for (unsigned l = 1; l < L; l++)
            msm_pair_up_kernel<<<blocks_for(T[l], PAIR_THREADS), PAIR_THREADS, 0, s>>>(TOT(l - 1), T[l - 1], T[l],
                                                                                     PRE(l), TOT(l));
        /* the top total, inverted on the host: the copy into pageable memory
         * returns when it is done, the copy back when it is staged */
        czk_fp top;
        cudaError_t ce = cudaMemcpyAsync(&top, TOT(L - 1), sizeof top, cudaMemcpyDeviceToHost, s);
        if (ce != cudaSuccess) return ce;
        czk_fp_inv(&top, &top);
        ce = cudaMemcpyAsync(TOT(L - 1), &top, sizeof top, cudaMemcpyHostToDevice, s);
        if (ce != cudaSuccess) return ce;
        for (unsigned l = L; l-- > 1;)
            msm_pair_down_kernel<<<blocks_for(T[l], PAIR_THREADS), PAIR_THREADS, 0, s>>>(TOT(l - 1), T[l - 1], T[l],
                                                                                       PRE(l), TOT(l));
        msm_pair_add0_kernel<<<blocks_for(T[0], PAIR_THREADS), PAIR_THREADS, 0, s>>>(c, J, T[0], PRE(0), TOT(0));
#undef PRE
#undef TOT
        ce = cudaGetLastError();
        if (ce != cudaSuccess) return ce;
    }
    return cudaSuccess;
}

extern "C" cudaError_t czk_gpu_launch_msm_fix(int grp, const uint32_t *keys, size_t m, unsigned L, uint32_t nb,
                                              void *range, void *buckets, const void *partial, cudaStream_t s) {
    return grp ? czk_gpu_msm_g2_fix(keys, m, L, nb, range, buckets, partial, s)
               : launch_fix<fp_t>(keys, m, L, nb, range, buckets, partial, s);
}

/* the tree's first level leaves a pair per group of the parts */
extern "C" size_t czk_gpu_msm_window_sums_pairs2(size_t parts) { return parts / tree_group_pairs(parts); }

extern "C" cudaError_t czk_gpu_launch_msm_window_sums(int grp, const void *buckets, unsigned W, uint32_t nb,
                                                      unsigned glog, void *parts, void *parts2, void *out,
                                                      cudaStream_t s) {
    return grp ? czk_gpu_msm_g2_window_sums(buckets, W, nb, glog, parts, parts2, out, s)
               : launch_window_sums<fp_t, fpc_t>(buckets, W, nb, glog, parts, parts2, out, s);
}

extern "C" size_t czk_gpu_msm_ones_threads(int grp, size_t m) {
    return grp ? czk_gpu_msm_g2_ones_threads(m) : ones_threads<4>(m);
}

extern "C" cudaError_t czk_gpu_launch_msm_ones(int grp, const void *bases, const uint32_t *idx, size_t m, void *out,
                                               cudaStream_t s) {
    return grp ? czk_gpu_msm_g2_ones(bases, idx, m, out, s) : launch_ones<fp_t, 4>(bases, idx, m, out, s);
}

extern "C" cudaError_t czk_gpu_launch_msm_xyzz_reduce(int grp, const void *in, size_t count, unsigned L, void *out,
                                                      cudaStream_t s) {
    return grp ? czk_gpu_msm_g2_xyzz_reduce(in, count, L, out, s) : launch_xyzz_reduce<fpc_t>(in, count, L, out, s);
}

extern "C" cudaError_t czk_gpu_launch_msm_to_jac(int grp, const void *in, void *out, cudaStream_t s) {
    return grp ? czk_gpu_msm_g2_to_jac(in, out, s) : launch_to_jac<fpc_t>(in, out, s);
}
