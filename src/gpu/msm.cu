/* czk — G1 MSM kernels (Pippenger with signed digits); the host sequence is
 * in msm_g1.c, the launchers' contracts in gpu_internal.h.
 *
 * Per call: prep turns the (density-filtered) Montgomery scalars into
 * canonical ones indexed like the bases, setting the ones apart; per window,
 * digits writes (bucket, point) pairs, CUB sorts them by bucket, chunks sums
 * fixed-length slices of the sorted list (runs wholly inside a slice go to
 * their bucket, runs crossing a slice edge to two partial slots per slice)
 * and fix completes the buckets whose run crossed an edge; then segments
 * reduces each window's buckets in 2^k-bucket segments (running sums) for
 * the host to finish, and ones / xyzz_reduce sum the ones' bases. */
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>

#include "fr.cuh"
#include "g1.cuh"
#include "gpu_internal.h"

#define MSM_THREADS 128

/* prep: i < n; words / prefix NULL without a density map. The canonical
 * value is s·1 (Montgomery reduction of s); the scalar 1 (split01) is
 * flagged and stored as 0, so it makes no digits. */
__global__ void msm_prep_kernel(const fr_t *scalars, size_t n, const unsigned long long *words,
                                const unsigned long long *prefix, fr_t *scal, uint8_t *isone, int split01) {
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    size_t j = i;
    if (words) {
        const unsigned long long w = words[i >> 6], below = (1ull << (i & 63)) - 1;
        if (!((w >> (i & 63)) & 1)) return;
        j = (size_t)prefix[i >> 6] + (size_t)__popcll(w & below);
    }
    fr_t one;
#pragma unroll
    for (int k = 0; k < 8; k++) one.l[k] = k == 0;
    fr_t c = fr_mul(fr_ldg(scalars + i), one);
    uint32_t hi = 0;
#pragma unroll
    for (int k = 1; k < 8; k++) hi |= c.l[k];
    const bool is1 = split01 && hi == 0 && c.l[0] == 1;
    if (is1) c.l[0] = 0;
    fr_store(scal + j, c);
    isone[j] = is1;
}

/* Booth digit of window w (see src/msm/pippenger.h): bits [cw-1, cw+c) of
 * k < 2^255 give d in [-2^(c-1), 2^(c-1)]; key |d|-1, or nb for d = 0;
 * val: the point's index, bit 31 set for d < 0. */
__global__ void msm_digits_kernel(const uint32_t *scal, size_t m, int w, int c, uint32_t *keys, uint32_t *vals) {
    const size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (j >= m) return;
    const uint32_t *k = scal + 8 * j;
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
    keys[j] = d == 0 ? nb : (uint32_t)(d > 0 ? d : -d) - 1;
    vals[j] = (uint32_t)j | (d < 0 ? 0x80000000u : 0u);
}

static __device__ __forceinline__ void add_base(g1_xyzz_t &acc, const g1_aff_t *bases, uint32_t v) {
    const g1_aff_t *b = bases + (v & 0x7fffffffu);
    const fp_t x = fp_ldg(&b->x), y = fp_ldg(&b->y);
    if (!aff_is_inf(x, y)) xyzz_add_aff(acc, x, y, (v >> 31) != 0);
}

/* One slice [tL, tL+L) of a window's sorted pairs per thread, at most 128
 * registers (4 blocks of 128 per SM; no spills; measured on an H200 the
 * same speed as 161 registers: the Fp multiplications bound it). */
__global__ void __launch_bounds__(MSM_THREADS, 4) msm_chunks_kernel(const uint32_t *keys, const uint32_t *vals, size_t m,
                                                                 unsigned L, uint32_t nb, const g1_aff_t *bases,
                                                                 g1_xyzz_t *buckets, g1_xyzz_t *partial) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t start = t * L;
    if (start >= m) return;
    const size_t end = start + L < m ? start + L : m;
    size_t pos = start;
    while (pos < end) {
        const uint32_t k = keys[pos];
        if (k >= nb) break;
        const size_t run = pos;
        g1_xyzz_t acc;
        xyzz_set_inf(acc);
        for (; pos < end && keys[pos] == k; pos++) add_base(acc, bases, vals[pos]);
        const bool before = run == start && start > 0 && keys[start - 1] == k;
        const bool after = pos == end && end < m && keys[end] == k;
        if (!before && !after) xyzz_store(buckets + k, acc);
        else xyzz_store(partial + 2 * t + (run == start ? 0 : 1), acc);
    }
}

static __device__ __forceinline__ size_t lower_bound(const uint32_t *keys, size_t m, uint32_t x) {
    size_t lo = 0, hi = m;
    while (lo < hi) {
        const size_t mid = (lo + hi) >> 1;
        if (keys[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Bucket b < nb: infinity when empty; the sum of its partials when its run
 * crossed a slice edge; untouched otherwise (chunks wrote it). */
__global__ void __launch_bounds__(MSM_THREADS) msm_fix_kernel(const uint32_t *keys, size_t m, unsigned L, uint32_t nb,
                                                              g1_xyzz_t *buckets, const g1_xyzz_t *partial) {
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb) return;
    const size_t s = lower_bound(keys, m, b), e = lower_bound(keys, m, b + 1);
    g1_xyzz_t acc;
    xyzz_set_inf(acc);
    if (s == e) {
        xyzz_store(buckets + b, acc);
        return;
    }
    const size_t t0 = s / L, t1 = (e - 1) / L;
    if (t0 == t1) return;
    xyzz_load(acc, partial + 2 * t0 + (s == t0 * L ? 0 : 1));
    for (size_t t = t0 + 1; t <= t1; t++) {
        g1_xyzz_t q;
        xyzz_load(q, partial + 2 * t);
        xyzz_add(acc, q);
    }
    xyzz_store(buckets + b, acc);
}

/* Thread (w, s): over the G = nb/S buckets B_i of segment s of window w,
 * R = Σ B_i and T = Σ (i+1)·B_i (i local), by a running sum from the top
 * (2 additions per bucket); out[2(wS+s)] = T, out[2(wS+s)+1] = R. */
__global__ void __launch_bounds__(MSM_THREADS) msm_segments_kernel(const g1_xyzz_t *buckets, unsigned W, uint32_t nb,
                                                                   unsigned S, g1_jac_t *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= (size_t)W * S) return;
    const size_t w = t / S, s = t % S, G = nb / S;
    const g1_xyzz_t *bk = buckets + w * nb + s * G;
    g1_xyzz_t run, tot, q;
    xyzz_set_inf(run);
    xyzz_set_inf(tot);
    for (size_t i = G; i-- > 0;) {
        xyzz_load(q, bk + i);
        xyzz_add(run, q);
        xyzz_add(tot, run);
    }
    xyzz_store_jac(out + 2 * t, tot);
    xyzz_store_jac(out + 2 * t + 1, run);
}

/* Thread t: the sum of the bases j in [tL, tL+L) flagged as ones. */
__global__ void __launch_bounds__(MSM_THREADS) msm_ones_kernel(const g1_aff_t *bases, const uint8_t *isone, size_t m,
                                                               unsigned L, g1_xyzz_t *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t start = t * L;
    if (start >= m) return;
    const size_t end = start + L < m ? start + L : m;
    g1_xyzz_t acc;
    xyzz_set_inf(acc);
    for (size_t j = start; j < end; j++)
        if (isone[j]) add_base(acc, bases, (uint32_t)j);
    xyzz_store(out + t, acc);
}

/* Thread t: out[t] = Σ in[tL .. tL+L). */
__global__ void __launch_bounds__(MSM_THREADS) msm_xyzz_reduce_kernel(const g1_xyzz_t *in, size_t count, unsigned L,
                                                                      g1_xyzz_t *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t start = t * L;
    if (start >= count) return;
    const size_t end = start + L < count ? start + L : count;
    g1_xyzz_t acc, q;
    xyzz_set_inf(acc);
    for (size_t j = start; j < end; j++) {
        xyzz_load(q, in + j);
        xyzz_add(acc, q);
    }
    xyzz_store(out + t, acc);
}

__global__ void msm_to_jac_kernel(const g1_xyzz_t *in, g1_jac_t *out) {
    g1_xyzz_t p;
    xyzz_load(p, in);
    xyzz_store_jac(out, p);
}

static unsigned blocks_for(size_t n, unsigned threads) { return (unsigned)((n + threads - 1) / threads); }

extern "C" size_t czk_gpu_msm_xyzz_bytes(void) { return sizeof(g1_xyzz_t); }

extern "C" cudaError_t czk_gpu_launch_msm_prep(const void *scalars, size_t n, const void *words, const void *prefix,
                                               void *scal, void *isone, int split01, cudaStream_t s) {
    msm_prep_kernel<<<blocks_for(n, 256), 256, 0, s>>>((const fr_t *)scalars, n, (const unsigned long long *)words,
                                                       (const unsigned long long *)prefix, (fr_t *)scal,
                                                       (uint8_t *)isone, split01);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_msm_digits(const void *scal, size_t m, int w, int c, uint32_t *keys,
                                                 uint32_t *vals, cudaStream_t s) {
    msm_digits_kernel<<<blocks_for(m, 256), 256, 0, s>>>((const uint32_t *)scal, m, w, c, keys, vals);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_msm_sort(void *temp, size_t *temp_bytes, const uint32_t *keys_in, uint32_t *keys_out,
                                        const uint32_t *vals_in, uint32_t *vals_out, size_t m, int bits,
                                        cudaStream_t s) {
    return cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, keys_in, keys_out, vals_in, vals_out, (int)m, 0, bits,
                                           s);
}

extern "C" cudaError_t czk_gpu_launch_msm_chunks(const uint32_t *keys, const uint32_t *vals, size_t m, unsigned L,
                                                 uint32_t nb, const void *bases, void *buckets, void *partial,
                                                 cudaStream_t s) {
    const size_t nchunks = (m + L - 1) / L;
    msm_chunks_kernel<<<blocks_for(nchunks, MSM_THREADS), MSM_THREADS, 0, s>>>(
        keys, vals, m, L, nb, (const g1_aff_t *)bases, (g1_xyzz_t *)buckets, (g1_xyzz_t *)partial);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_msm_fix(const uint32_t *keys, size_t m, unsigned L, uint32_t nb, void *buckets,
                                              const void *partial, cudaStream_t s) {
    msm_fix_kernel<<<blocks_for(nb, MSM_THREADS), MSM_THREADS, 0, s>>>(keys, m, L, nb, (g1_xyzz_t *)buckets,
                                                                        (const g1_xyzz_t *)partial);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_msm_segments(const void *buckets, unsigned W, uint32_t nb, unsigned S, void *out,
                                                   cudaStream_t s) {
    /* few threads, each with a long serial chain: one warp per block spreads them over the SMs */
    msm_segments_kernel<<<blocks_for((size_t)W * S, 32), 32, 0, s>>>(
        (const g1_xyzz_t *)buckets, W, nb, S, (g1_jac_t *)out);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_msm_ones(const void *bases, const void *isone, size_t m, unsigned L, void *out,
                                               cudaStream_t s) {
    msm_ones_kernel<<<blocks_for((m + L - 1) / L, MSM_THREADS), MSM_THREADS, 0, s>>>(
        (const g1_aff_t *)bases, (const uint8_t *)isone, m, L, (g1_xyzz_t *)out);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_msm_xyzz_reduce(const void *in, size_t count, unsigned L, void *out,
                                                      cudaStream_t s) {
    msm_xyzz_reduce_kernel<<<blocks_for((count + L - 1) / L, MSM_THREADS), MSM_THREADS, 0, s>>>(
        (const g1_xyzz_t *)in, count, L, (g1_xyzz_t *)out);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_msm_to_jac(const void *in, void *out, cudaStream_t s) {
    msm_to_jac_kernel<<<1, 1, 0, s>>>((const g1_xyzz_t *)in, (g1_jac_t *)out);
    return cudaGetLastError();
}
