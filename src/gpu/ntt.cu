/* czk — NTT kernels over Fr: radix-2^k decimation-in-frequency passes in
 * shared memory and their transposes (decimation in time, bit-reversed in,
 * natural out), a bit-reversal with per-position factors, and the
 * element-wise kernels of the H computation (see gpu_internal.h).
 *
 * A pass on bits [b, b+k) of chunks of m = 2^(b+k) points: a block loads
 * 2^k rows (stride 2^b) of 2^c_log adjacent columns u, runs the k radix-2
 * Gentleman–Sande stages of a 2^k-point DIF with root ω_{2^k}, and multiplies
 * the value that lands at row v (frequency q = rev_k(v)) by ω_m^(u·q) before
 * writing it back in place: exactly what k in-place radix-2 DIF stages leave.
 * After the passes down to b = 0 the vector holds the transform in
 * bit-reversed order.
 *
 * Inside a pass the values are lazy (fr.cuh: in [0, 2r], congruent): the
 * stages' products skip their final subtraction and the sums and
 * differences wrap at 2r. A pass whose output another pass reads
 * (lazy_out) stores them lazy too, its twiddle product lazy and the sign
 * of a twiddle ω^E = -tw[E - N/2] applied as 2r minus the product (16
 * instructions, no branch, where fr_mul(fr_neg(tw), x) took a divergent
 * 25 and a final subtraction); the last pass of a transform stores
 * canonical values, and every kernel that reads a lazy vector reads it
 * as a product's b or into its stages. */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "fr.cuh"
#include "gpu_internal.h"

#define DIF_MAX_LOG 10 /* points per block: 2^(k + c_log) <= 2^10, 512 threads */

/* ω_N^E (or ω_N^-E) = ±tw[tw_index(…)] from tw[e] = ω_N^e, e < N/2, with
 * ω_N^(N/2) = -1: *neg set where it is minus. */
static __device__ __forceinline__ uint32_t tw_index(unsigned tw_log, uint32_t e, int inverse, bool *neg) {
    const uint32_t mask = (uint32_t)((1ull << tw_log) - 1), half = (uint32_t)(1ull << (tw_log - 1));
    if (inverse) e = (0u - e) & mask;
    *neg = e >= half;
    return *neg ? e - half : e;
}

static __device__ __forceinline__ fr_t tw_get(const fr_t *tw, unsigned tw_log, uint32_t e, int inverse) {
    bool neg;
    const fr_t t = fr_ldg(tw + tw_index(tw_log, e, inverse, &neg));
    return neg ? fr_neg(t) : t;
}

/* rt: the pass's roots ω_{2^k}^(±e), e < 2^(k-1) (roots_kernel).
 *
 * DIT (false: the DIF pass above): the same pass transposed. The DIF
 * network of all passes is P·F (F the DFT matrix, P the bit reversal), and
 * its transpose F·P takes bit-reversed input to natural output. Transposing
 * reverses the order of everything: passes from b = 0 upward, and in each
 * the factor ω_m^(u·q) first, then the stages from the last to the first,
 * each butterfly (x0 + x1, (x0 - x1)·w) becoming (x0 + w·x1, x0 - w·x1). */
/* The block's points in shared memory as two arrays of 16-byte halves
 * (limbs 0-3 at lo[l], 4-7 at hi[l]): a quarter warp reading 8 adjacent
 * points then reads 128 contiguous bytes, one wavefront, where 32-byte
 * points put the 8 lanes' 16-byte reads 32 bytes apart, two ways on every
 * bank, and up to ten on the strided rows of a stage (ncu on an H200: 9.8
 * ways on average, the shared-memory pipe the pass's limit). hi starts 64
 * bytes past a multiple of 128, so lo[l] and hi[l] fall on different banks. */
struct split_sm {
    uint4 *lo, *hi;
    __device__ __forceinline__ fr_t get(unsigned l) const {
        const uint4 a = lo[l], b = hi[l];
        fr_t r;
        r.l[0] = a.x, r.l[1] = a.y, r.l[2] = a.z, r.l[3] = a.w;
        r.l[4] = b.x, r.l[5] = b.y, r.l[6] = b.z, r.l[7] = b.w;
        return r;
    }
    __device__ __forceinline__ void put(unsigned l, const fr_t &v) const {
        lo[l] = make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]);
        hi[l] = make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]);
    }
};
#define SPLIT_PAD 4 /* uint4s between lo's end and hi */

/* The k radix-2 stages of a pass over the block's 2^(k + c_log) points in
 * shared memory (2^c_log columns of 2^k rows), one butterfly per thread and
 * stage, lazy values in and out; DIT: the transposed stages, last first.
 *
 * Butterfly (grp, lo) of a stage of span hh = 2^sh pairs rows v0 = grp·2hh
 * + lo and v0 + hh, with root ω^lo (none for lo = 0). Thread p takes lo =
 * p mod hh, grp = p / hh, except with 4 or more columns in the stages of
 * small span: there lo's bits come from p's bits w … w+sh-1 (w = 5 - c_log:
 * tid's bits from 5 up, the warp's number), so every lane of a warp has
 * the same lo and the warps with lo = 0 skip the product, where otherwise
 * every warp held lanes with lo != 0 and paid for it. That saves a 1/hh
 * share of a stage's products for hh = 2, 4, 8, 16: at k = 7, c_log = 3,
 * 0.94 of a stage's products of the 6 stages that have any (16 %).
 *
 * With fewer columns the mapping costs more than it saves: a quarter warp's
 * 8 lanes (16-byte accesses) then vary in row bits above the lowest, which
 * puts 2 or 4 of them on one bank group (a model of the accesses: 2,816
 * wavefronts a block at k = 9, c_log = 1, against 1,408), and an NTT 2^27
 * in passes of 9 stages took 41.2 ms against 39.9 on an H200. An XOR
 * swizzle of the slots made every stage free of conflicts (1,152), but its
 * index arithmetic cost more: 40.3 ms, and passes of 7 stages (c_log = 3,
 * no conflicts to remove) went from 38.2 to 40.1 ms. The passes are bound
 * by instruction issue, not by shared memory. */
/* One stage s of stages() below. */
template <bool DIT>
static __device__ __forceinline__ void stage_one(const split_sm &sm, unsigned s, unsigned k, unsigned c_log, unsigned uc,
                                                 unsigned p, unsigned w, const fr_t *rt) {
    const unsigned j = DIT ? k - 1 - s : s;
    const unsigned sh = k - 1 - j, hh = 1u << sh;
    unsigned lo, grp;
    if (w && sh && w + sh <= k - 1) {
        lo = (p >> w) & (hh - 1);
        grp = (p & ((1u << w) - 1)) | ((p >> (w + sh)) << w);
    } else {
        lo = p & (hh - 1);
        grp = p >> sh;
    }
    const unsigned v0 = (grp << (sh + 1)) | lo;
    const unsigned i0 = (v0 << c_log) | uc, i1 = ((v0 + hh) << c_log) | uc;
    const fr_t x0 = sm.get(i0);
    fr_t x1 = sm.get(i1);
    if (DIT) {
        if (lo) x1 = fr_mul_lazy(fr_ldg(rt + (lo << j)), x1);
        sm.put(i0, fr_add_lazy(x0, x1));
        sm.put(i1, fr_sub_lazy(x0, x1));
    } else {
        fr_t y1 = fr_sub_lazy(x0, x1);
        sm.put(i0, fr_add_lazy(x0, x1));
        if (lo) y1 = fr_mul_lazy(fr_ldg(rt + (lo << j)), y1); /* lo·2^j < 2^(k-1) */
        sm.put(i1, y1);
    }
    __syncthreads();
}

/* K > 0: k = K and c_log = C known to the compiler, the stages unrolled
 * with their shifts and masks folded (pass_kernel's specializations). */
template <bool DIT, int K = 0, int C = 0>
static __device__ __forceinline__ void stages(const split_sm &sm, unsigned k, unsigned c_log, unsigned tid,
                                              const fr_t *rt) {
    if (K) k = K, c_log = C;
    const unsigned uc = tid & ((1u << c_log) - 1), p = tid >> c_log;
    const unsigned w = c_log >= 2 && c_log < 5 ? 5 - c_log : 0;
    if constexpr (K > 0) {
#pragma unroll
        for (unsigned s = 0; s < (unsigned)K; s++) stage_one<DIT>(sm, s, K, C, uc, p, w, rt);
    } else {
        for (unsigned s = 0; s < k; s++) stage_one<DIT>(sm, s, k, c_log, uc, p, w, rt);
    }
}

/* mb (DIF only, else NULL): the pass first sets each point x to x·mb at its
 * index (H's a·b, fused into the first pass of its inverse).
 *
 * Three blocks of 512 threads per SM (PASS_MINB): at most 40 registers. The
 * DIF pass used 42, which the allocator rounds to 48, so only two blocks fit
 * (50 % occupancy). With 40 it does not spill (the DIT pass spills 36 bytes
 * and the fused kernel 28). On an H200: NTT 2^27 41.7 -> 39.8 ms, H on
 * device data 260 -> 246 ms. */
#define PASS_MINB 3
/* K > 0: a specialization for k = K, c_log = C (the arguments ignored);
 * czk_gpu_launch_pass says which. */
template <bool DIT, int K, int C>
__global__ void __launch_bounds__(512, PASS_MINB) pass_kernel(fr_t *x, unsigned b, unsigned k, unsigned c_log, const fr_t *tw,
                                                   unsigned tw_log, const fr_t *rt, int inverse, const fr_t *mb,
                                                   int lazy_out) {
    if (K) k = K, c_log = C;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const unsigned npts = 1u << (k + c_log);
    const split_sm sm = {(uint4 *)smem_raw, (uint4 *)smem_raw + npts + SPLIT_PAD};
    const unsigned nthreads = 1u << (k + c_log - 1), tid = threadIdx.x;
    const unsigned cmask = (1u << c_log) - 1;
    const size_t blk = blockIdx.x;
    const unsigned ug_log = b - c_log;
    const size_t chunk = blk >> ug_log;
    const size_t ug = blk & ((((size_t)1) << ug_log) - 1);
    fr_t *base = x + (chunk << (b + k)) + (ug << c_log);

#pragma unroll
    for (int h = 0; h < 2; h++) {
        const unsigned l = tid + h * nthreads, v = l >> c_log;
        const size_t at = ((size_t)v << b) + (l & cmask);
        fr_t val = fr_load(base + at);
        if (!DIT && mb) val = fr_mul(val, fr_ldg(mb + (size_t)(base - x) + at));
        if (DIT) { /* val may be lazy: the product's b */
            const uint32_t e = ((uint32_t)(ug << c_log) + (l & cmask)) * (__brev(v) >> (32 - k));
            if (e) val = fr_mul(tw_get(tw, tw_log, e << (tw_log - b - k), inverse), val);
        }
        sm.put(l, val);
    }
    __syncthreads();

    stages<DIT, K, C>(sm, k, c_log, tid, rt);

#pragma unroll
    for (int h = 0; h < 2; h++) {
        const unsigned l = tid + h * nthreads, v = l >> c_log;
        fr_t val = sm.get(l);
        uint32_t e = 0;
        if (!DIT) e = ((uint32_t)(ug << c_log) + (l & cmask)) * (__brev(v) >> (32 - k));
        if (lazy_out) {
            if (e) {
                bool neg;
                const uint32_t t = tw_index(tw_log, e << (tw_log - b - k), inverse, &neg);
                const fr_t p = fr_mul_lazy(fr_ldg(tw + t), val), q = fr_2r_minus(p);
#pragma unroll
                for (int i = 0; i < 8; i++) val.l[i] = neg ? q.l[i] : p.l[i];
            }
        } else {
            /* fr_mul takes the lazy value as its b and reduces fully */
            val = e ? fr_mul(tw_get(tw, tw_log, e << (tw_log - b - k), inverse), val) : fr_canonical(val);
        }
        fr_store(base + ((size_t)v << b) + (l & cmask), val);
    }
}

/* f(i) = hi[i >> s_log]·lo[i mod 2^s_log] (the tables of czk_gpu, e.g. g^i/n) */
static __device__ __forceinline__ fr_t factor_of(size_t i, const fr_t *hi, const fr_t *lo, unsigned s_log) {
    return fr_mul(fr_ldg(hi + (i >> s_log)), fr_ldg(lo + (i & ((((size_t)1) << s_log) - 1))));
}

/* The middle of H's inverse-then-coset transform, in one pass over each
 * block of 2^k adjacent points: the last pass of the inverse DIF (b = 0,
 * roots rt_dif), the factor f(rev(i)) of each point i (rev over log_n
 * bits: the DIF's output is bit-reversed), and the first pass of the
 * forward DIT (b = 0, roots rt_dit). At b = 0 neither pass has a factor
 * between passes, so this is exactly pass_kernel<false>, scale_kernel and
 * pass_kernel<true>, with one load and one store instead of three. */
__global__ void __launch_bounds__(512, PASS_MINB) pass_fused_kernel(fr_t *x, unsigned k, const fr_t *rt_dif, const fr_t *rt_dit,
                                                         const fr_t *hi, const fr_t *lo, unsigned s_log,
                                                         unsigned log_n) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const unsigned npts = 1u << k, nthreads = npts >> 1, tid = threadIdx.x;
    const split_sm sm = {(uint4 *)smem_raw, (uint4 *)smem_raw + npts + SPLIT_PAD};
    const size_t first = (size_t)blockIdx.x << k;
    fr_t *base = x + first;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const unsigned l = tid + h * nthreads;
        sm.put(l, fr_load(base + l));
    }
    __syncthreads();
    stages<false>(sm, k, 0, tid, rt_dif);
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const unsigned l = tid + h * nthreads;
        const size_t fi = __brev((unsigned)(first + l)) >> (32 - log_n);
        sm.put(l, fr_mul_lazy(factor_of(fi, hi, lo, s_log), sm.get(l)));
    }
    __syncthreads();
    stages<true>(sm, k, 0, tid, rt_dit);
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const unsigned l = tid + h * nthreads;
        fr_store(base + l, fr_canonical(sm.get(l)));
    }
}

/* rev_bits(x, n): x's low n bits reversed (n <= 32). */
static __device__ __forceinline__ size_t rev_bits(size_t x, unsigned n) {
    return n ? (size_t)(__brev((unsigned)x) >> (32 - n)) : 0;
}

/* The DIF's last pass (b = 0, k stages) out of place, into natural order:
 * what pass_kernel<false> and the bit reversal after it do, with one read
 * and one write of each point instead of three of each. The value at
 * bit-reversed position q = chunk·2^k + v goes to out[rev(q)] (rev over
 * log_n bits) = out[rev_k(v)·2^(log_n-k) + rev(chunk)], times a factor by
 * mode: 0 none, 1 scalar, 2 f(i) at its natural index i (factor_of), 3 it
 * becomes y[q]·f(i) - value·scalar (H's last step, y read where x is).
 *
 * A block takes the 2^c_log chunks blk + col·2^cb (cb = log_n - k - c_log)
 * as its columns: their rev(chunk) are rev_cb(blk)·2^c_log + rev(col), so a
 * row's columns land side by side in out, runs of 2^c_log points (64 bytes
 * for c_log = 1), where single chunks would scatter 32-byte points, a
 * partial write of every 64-byte DRAM atom. */
template <int MODE>
__global__ void __launch_bounds__(512, PASS_MINB) pass_rev_kernel(const fr_t *x, fr_t *out, unsigned log_n, unsigned k,
                                                       unsigned c_log, const fr_t *rt, fr_t scalar,
                                                       const fr_t *y, const fr_t *hi, const fr_t *lo,
                                                       unsigned s_log) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const unsigned npts = 1u << (k + c_log);
    const split_sm sm = {(uint4 *)smem_raw, (uint4 *)smem_raw + npts + SPLIT_PAD};
    const unsigned nthreads = npts >> 1, tid = threadIdx.x, cmask = (1u << c_log) - 1;
    const unsigned cb = log_n - k - c_log;
    const size_t blk = blockIdx.x;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const unsigned l = tid + h * nthreads, v = l >> c_log;
        const size_t chunk = blk | ((size_t)(l & cmask) << cb);
        sm.put(l, fr_load(x + (chunk << k) + v));
    }
    __syncthreads();
    stages<false>(sm, k, c_log, tid, rt);
    const size_t rblk = rev_bits(blk, cb) << c_log;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const unsigned l = tid + h * nthreads, v = l >> c_log, col = l & cmask;
        const size_t i = (rev_bits(v, k) << (log_n - k)) | rblk | rev_bits(col, c_log);
        fr_t val = sm.get(l);
        if (MODE == 0) {
            val = fr_canonical(val);
        } else if (MODE == 1) {
            val = fr_mul(scalar, val);
        } else if (MODE == 2) {
            val = fr_mul(factor_of(i, hi, lo, s_log), val);
        } else {
            const size_t q = ((blk | ((size_t)col << cb)) << k) + v;
            val = fr_sub(fr_mul(fr_ldg(y + q), factor_of(i, hi, lo, s_log)), fr_mul(scalar, val));
        }
        fr_store(out + i, val);
    }
}

/* rt[(inv·(DIF_MAX_LOG+1) + k)·RT_LEN + e] = ω_{2^k}^e (inv: ω_{2^k}^-e)
 * for 1 <= k <= min(tw_log, DIF_MAX_LOG), e < 2^(k-1): the roots of a
 * pass's stages in a small table, without the sign fold of tw_get. */
#define RT_LEN (1u << (DIF_MAX_LOG - 1))
__global__ void roots_kernel(fr_t *rt, const fr_t *tw, unsigned tw_log) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned e = i % RT_LEN, k = (i / RT_LEN) % (DIF_MAX_LOG + 1), inv = i / (RT_LEN * (DIF_MAX_LOG + 1));
    if (inv > 1 || k < 1 || k > tw_log || e >= (1u << (k - 1))) return;
    fr_store(rt + i, tw_get(tw, tw_log, e << (tw_log - k), (int)inv));
}

__global__ void table_kernel(fr_t *tw, const fr_t *hi, const fr_t *lo, unsigned s_log, size_t count) {
    const size_t mask = (((size_t)1) << s_log) - 1;
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < count; e += (size_t)gridDim.x * blockDim.x)
        fr_store(tw + e, fr_mul(fr_ldg(hi + (e >> s_log)), fr_ldg(lo + (e & mask))));
}

static __device__ __forceinline__ fr_t factor_at(size_t i, int mode, const fr_t &scalar, const fr_t *hi,
                                                 const fr_t *lo, unsigned s_log) {
    return mode == 1 ? scalar : factor_of(i, hi, lo, s_log);
}

/* The bit reversals by pairwise swaps, for fewer than 2^(2·BR_T) points
 * (bitrev_tile_kernel does the larger ones). */
__global__ void bitrev_kernel(fr_t *x, unsigned log_n, size_t n, int mode, fr_t scalar, const fr_t *hi,
                              const fr_t *lo, unsigned s_log) {
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    const size_t j = log_n ? (size_t)(__brev((unsigned)i) >> (32 - log_n)) : 0;
    if (i < j) {
        fr_t a = fr_load(x + i), c = fr_load(x + j);
        if (mode) {
            c = fr_mul(c, factor_at(i, mode, scalar, hi, lo, s_log));
            a = fr_mul(a, factor_at(j, mode, scalar, hi, lo, s_log));
        }
        fr_store(x + i, c);
        fr_store(x + j, a);
    } else if (i == j && mode) {
        fr_store(x + i, fr_mul(fr_load(x + i), factor_at(i, mode, scalar, hi, lo, s_log)));
    }
}

/* H's last step: x[i] = x[rev(i)]·f(i) - y[rev(i)]·s in place (rev over
 * log_n bits), y another vector, left as it is; small sizes as above. */
__global__ void bitrev_sub_kernel(fr_t *x, const fr_t *y, unsigned log_n, size_t n, fr_t s, const fr_t *hi,
                                  const fr_t *lo, unsigned s_log) {
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    const size_t j = log_n ? (size_t)(__brev((unsigned)i) >> (32 - log_n)) : 0;
    if (i > j) return;
    const fr_t xi = fr_load(x + i), yj = fr_ldg(y + j);
    if (i == j) {
        fr_store(x + i, fr_sub(fr_mul(xi, factor_of(i, hi, lo, s_log)), fr_mul(yj, s)));
        return;
    }
    const fr_t xj = fr_load(x + j), yi = fr_ldg(y + i);
    fr_store(x + i, fr_sub(fr_mul(xj, factor_of(i, hi, lo, s_log)), fr_mul(yj, s)));
    fr_store(x + j, fr_sub(fr_mul(xi, factor_of(j, hi, lo, s_log)), fr_mul(yi, s)));
}

/* The same permutations by tiles, for log_n >= 2·BR_T: index i = (h, m, l)
 * with h its top BR_T bits, l its low BR_T bits; rev(i) = (rev l, rev m,
 * rev h), so tile m (all h, l) goes whole to tile rev(m), transposed. The
 * block of m <= rev(m) loads both tiles (rows of 2^BR_T adjacent points)
 * into shared memory and writes each to the other's place: every global
 * read and write is a run of 2^BR_T points, where the pairwise swap reads
 * and writes single scattered points (0.74 ms of a 5.1 ms NTT at 2^24 on
 * an H200, at 41 % of the memory bandwidth). MODE 0: x[i] = x[rev i]; 1:
 * times s; 2: times f(i) (factor_of); 3: x[rev i]·f(i) - y[rev i]·s. */
#define BR_T 4
#define BR_W (1u << BR_T)
#define BR_ROW (2 * BR_W + 1) /* uint4s a tile row: 2 a point, 1 of padding */

static __device__ __forceinline__ void br_put(uint4 *t, unsigned row, unsigned col, const fr_t &v) {
    uint4 *p = t + row * BR_ROW + 2 * col;
    p[0] = make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]);
    p[1] = make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]);
}

static __device__ __forceinline__ fr_t br_get(const uint4 *t, unsigned row, unsigned col) {
    const uint4 *p = t + row * BR_ROW + 2 * col, a = p[0], b = p[1];
    fr_t r;
    r.l[0] = a.x, r.l[1] = a.y, r.l[2] = a.z, r.l[3] = a.w;
    r.l[4] = b.x, r.l[5] = b.y, r.l[6] = b.z, r.l[7] = b.w;
    return r;
}

template <int MODE>
__global__ void __launch_bounds__(BR_W *BR_W) bitrev_tile_kernel(fr_t *x, const fr_t *y, unsigned log_n, fr_t s,
                                                                 const fr_t *hi, const fr_t *lo, unsigned s_log) {
    __shared__ uint4 sx[2][BR_W * BR_ROW];
    __shared__ uint4 sy[MODE == 3 ? 2 : 1][MODE == 3 ? BR_W * BR_ROW : 1];
    const unsigned mbits = log_n - 2 * BR_T;
    const size_t m = blockIdx.x, mr = mbits ? (size_t)(__brev((unsigned)m) >> (32 - mbits)) : 0;
    if (m > mr) return;
    const unsigned r = threadIdx.x >> BR_T, c = threadIdx.x & (BR_W - 1);
    const unsigned rr = __brev(r) >> (32 - BR_T), rc = __brev(c) >> (32 - BR_T);
    const size_t stride = (size_t)1 << (log_n - BR_T);
    const int tiles = m == mr ? 1 : 2;
    for (int q = 0; q < tiles; q++) {
        const size_t i = r * stride + ((q ? mr : m) << BR_T) + c;
        br_put(sx[q], r, c, fr_load(x + i));
        if (MODE == 3) br_put(sy[q], r, c, fr_ldg(y + i));
    }
    __syncthreads();
    /* destination (r, c) of tile rev(m) is source (rev c, rev r) of tile m */
    for (int q = 0; q < tiles; q++) {
        const size_t i = r * stride + ((q ? m : mr) << BR_T) + c;
        fr_t v = br_get(sx[q], rc, rr);
        if (MODE == 1) v = fr_mul(v, s);
        if (MODE >= 2) v = fr_mul(v, factor_of(i, hi, lo, s_log));
        if (MODE == 3) v = fr_sub(v, fr_mul(br_get(sy[q], rc, rr), s));
        fr_store(x + i, v);
    }
}

static cudaError_t launch_bitrev_tile(int mode, fr_t *x, const fr_t *y, unsigned log_n, const fr_t &s,
                                      const fr_t *hi, const fr_t *lo, unsigned s_log, cudaStream_t st) {
    const unsigned blocks = 1u << (log_n - 2 * BR_T), threads = BR_W * BR_W;
    switch (mode) {
    case 0: bitrev_tile_kernel<0><<<blocks, threads, 0, st>>>(x, y, log_n, s, hi, lo, s_log); break;
    case 1: bitrev_tile_kernel<1><<<blocks, threads, 0, st>>>(x, y, log_n, s, hi, lo, s_log); break;
    case 2: bitrev_tile_kernel<2><<<blocks, threads, 0, st>>>(x, y, log_n, s, hi, lo, s_log); break;
    default: bitrev_tile_kernel<3><<<blocks, threads, 0, st>>>(x, y, log_n, s, hi, lo, s_log); break;
    }
    return cudaGetLastError();
}

/* x[i] *= f(i), or f(rev(i)) over rev_log bits when rev_log > 0 */
__global__ void scale_kernel(fr_t *x, size_t n, const fr_t *hi, const fr_t *lo, unsigned s_log, unsigned rev_log) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const size_t fi = rev_log ? (size_t)(__brev((unsigned)i) >> (32 - rev_log)) : i;
        fr_store(x + i, fr_mul(fr_load(x + i), factor_at(fi, 2, fr_t(), hi, lo, s_log)));
    }
}

__global__ void mul_kernel(fr_t *a, const fr_t *b, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        fr_store(a + i, fr_mul(fr_load(a + i), fr_ldg(b + i)));
}

static unsigned grid_for(size_t n, unsigned threads) {
    size_t g = (n + threads - 1) / threads;
    const size_t cap = (size_t)1 << 20;
    return (unsigned)(g < 1 ? 1 : g > cap ? cap : g);
}

extern "C" cudaError_t czk_gpu_launch_table(void *tw, const void *hi, const void *lo, unsigned s_log, size_t count,
                                            cudaStream_t s) {
    table_kernel<<<grid_for(count, 256), 256, 0, s>>>((fr_t *)tw, (const fr_t *)hi, (const fr_t *)lo, s_log, count);
    return cudaGetLastError();
}

/* pass_kernel's arguments */
struct pass_args {
    fr_t *x;
    unsigned b, k, c_log;
    const fr_t *tw;
    unsigned tw_log;
    const fr_t *rt;
    int inverse;
    const fr_t *mb;
    int lazy_out;
};

template <bool DIT, int K, int C>
static void launch_pass_kc(const pass_args &a, size_t blocks, unsigned threads, size_t smem, cudaStream_t s) {
    pass_kernel<DIT, K, C><<<(unsigned)blocks, threads, smem, s>>>(a.x, a.b, a.k, a.c_log, a.tw, a.tw_log, a.rt,
                                                                   a.inverse, a.mb, a.lazy_out);
}

/* The specializations: the (k, c_log) of the passes in blocks of 2^9
 * points, which 2^20 … 2^28 take (2^27: 7, 7, 7, 6; 2^24: 8, 8, 8);
 * CZK_GPU_NTT_GENERIC=1 (for comparison; 2: the DIT passes only) and every
 * other shape: the kernel with k and c_log as arguments. */
template <bool DIT>
static void launch_pass_shaped(const pass_args &a, size_t blocks, unsigned threads, size_t smem, cudaStream_t s) {
    static const int generic_env = getenv("CZK_GPU_NTT_GENERIC") ? atoi(getenv("CZK_GPU_NTT_GENERIC")) : 0;
    const bool generic = generic_env == 1 || (generic_env == 2 && DIT);
    if (!generic && a.k == 7 && a.c_log == 2) launch_pass_kc<DIT, 7, 2>(a, blocks, threads, smem, s);
    else if (!generic && a.k == 6 && a.c_log == 3) launch_pass_kc<DIT, 6, 3>(a, blocks, threads, smem, s);
    else if (!generic && a.k == 8 && a.c_log == 1) launch_pass_kc<DIT, 8, 1>(a, blocks, threads, smem, s);
    else launch_pass_kc<DIT, 0, 0>(a, blocks, threads, smem, s);
}

extern "C" cudaError_t czk_gpu_launch_pass(void *x, unsigned log_n, unsigned b, unsigned k, unsigned c_log,
                                           const void *tw, unsigned tw_log, int inverse, int dit, const void *mb,
                                           int lazy_out, cudaStream_t s) {
    if (k < 1 || k + c_log > DIF_MAX_LOG || c_log > b || b + k > log_n || tw_log < log_n || (dit && mb))
        return cudaErrorInvalidValue;
    const unsigned threads = 1u << (k + c_log - 1);
    const size_t blocks = (size_t)1 << (log_n - k - c_log);
    const size_t smem = ((size_t)sizeof(fr_t) << (k + c_log)) + SPLIT_PAD * sizeof(uint4);
    const fr_t *rt = (const fr_t *)tw + ((size_t)1 << (tw_log - 1)) + ((size_t)(inverse ? 1 : 0) * (DIF_MAX_LOG + 1) + k) * RT_LEN;
    const pass_args a = {(fr_t *)x, b, k, c_log, (const fr_t *)tw, tw_log, rt, inverse ? 1 : 0, (const fr_t *)mb,
                         lazy_out};
    if (dit) launch_pass_shaped<true>(a, blocks, threads, smem, s);
    else launch_pass_shaped<false>(a, blocks, threads, smem, s);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_pass_fused(void *x, unsigned log_n, unsigned k, const void *tw, unsigned tw_log,
                                                 const void *hi, const void *lo, unsigned s_log, cudaStream_t s) {
    if (k < 1 || k > DIF_MAX_LOG || k > log_n || tw_log < log_n || log_n > 32) return cudaErrorInvalidValue;
    const size_t smem = ((size_t)sizeof(fr_t) << k) + SPLIT_PAD * sizeof(uint4);
    const fr_t *rt = (const fr_t *)tw + ((size_t)1 << (tw_log - 1));
    pass_fused_kernel<<<(unsigned)((size_t)1 << (log_n - k)), 1u << (k - 1), smem, s>>>(
        (fr_t *)x, k, rt + ((size_t)1 * (DIF_MAX_LOG + 1) + k) * RT_LEN, rt + (size_t)k * RT_LEN, (const fr_t *)hi,
        (const fr_t *)lo, s_log, log_n);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_pass_rev(const void *x, void *out, unsigned log_n, unsigned k, const void *tw,
                                               unsigned tw_log, int inverse, int mode, const void *scalar,
                                               const void *y, const void *hi, const void *lo, unsigned s_log,
                                               cudaStream_t s) {
    if (k < 1 || k > DIF_MAX_LOG || k > log_n || log_n > 31 || tw_log < log_n || x == out || mode < 0 || mode > 3 ||
        (mode == 3 && (y == out || y == x)))
        return cudaErrorInvalidValue;
    const unsigned room = DIF_MAX_LOG - k, c_log = log_n - k < room ? log_n - k : room;
    const size_t smem = ((size_t)sizeof(fr_t) << (k + c_log)) + SPLIT_PAD * sizeof(uint4);
    const fr_t *rt = (const fr_t *)tw + ((size_t)1 << (tw_log - 1)) + ((size_t)(inverse ? 1 : 0) * (DIF_MAX_LOG + 1) + k) * RT_LEN;
    fr_t sc = fr_t();
    if (mode == 1 || mode == 3) sc = *(const fr_t *)scalar;
    const unsigned blocks = (unsigned)((size_t)1 << (log_n - k - c_log)), threads = 1u << (k + c_log - 1);
#define PASS_REV(M)                                                                                              \
    pass_rev_kernel<M><<<blocks, threads, smem, s>>>((const fr_t *)x, (fr_t *)out, log_n, k, c_log, rt, sc,      \
                                                     (const fr_t *)y, (const fr_t *)hi, (const fr_t *)lo, s_log)
    switch (mode) {
    case 0: PASS_REV(0); break;
    case 1: PASS_REV(1); break;
    case 2: PASS_REV(2); break;
    default: PASS_REV(3); break;
    }
#undef PASS_REV
    return cudaGetLastError();
}

extern "C" size_t czk_gpu_roots_count(void) { return (size_t)2 * (DIF_MAX_LOG + 1) * RT_LEN; }

extern "C" cudaError_t czk_gpu_launch_roots(void *tw, unsigned tw_log, cudaStream_t s) {
    const unsigned count = (unsigned)czk_gpu_roots_count();
    roots_kernel<<<(count + 255) / 256, 256, 0, s>>>((fr_t *)tw + ((size_t)1 << (tw_log - 1)), (const fr_t *)tw,
                                                     tw_log);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_bitrev(void *x, unsigned log_n, int mode, const void *scalar, const void *hi,
                                             const void *lo, unsigned s_log, cudaStream_t s) {
    const size_t n = (size_t)1 << log_n;
    fr_t sc = fr_t();
    if (mode == 1) sc = *(const fr_t *)scalar;
    if (log_n >= 2 * BR_T && log_n <= 31 && mode >= 0 && mode <= 2)
        return launch_bitrev_tile(mode, (fr_t *)x, NULL, log_n, sc, (const fr_t *)hi, (const fr_t *)lo, s_log, s);
    const unsigned threads = 256;
    bitrev_kernel<<<(unsigned)((n + threads - 1) / threads), threads, 0, s>>>(
        (fr_t *)x, log_n, n, mode, sc, (const fr_t *)hi, (const fr_t *)lo, s_log);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_bitrev_sub(void *x, const void *y, unsigned log_n, const void *scalar,
                                                 const void *hi, const void *lo, unsigned s_log, cudaStream_t s) {
    if (x == y || log_n > 31) return cudaErrorInvalidValue;
    if (log_n >= 2 * BR_T)
        return launch_bitrev_tile(3, (fr_t *)x, (const fr_t *)y, log_n, *(const fr_t *)scalar, (const fr_t *)hi,
                                  (const fr_t *)lo, s_log, s);
    const size_t n = (size_t)1 << log_n;
    const unsigned threads = 256;
    bitrev_sub_kernel<<<(unsigned)((n + threads - 1) / threads), threads, 0, s>>>(
        (fr_t *)x, (const fr_t *)y, log_n, n, *(const fr_t *)scalar, (const fr_t *)hi, (const fr_t *)lo, s_log);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_scale(void *x, size_t n, const void *hi, const void *lo, unsigned s_log,
                                            unsigned rev_log, cudaStream_t s) {
    scale_kernel<<<grid_for(n, 256), 256, 0, s>>>((fr_t *)x, n, (const fr_t *)hi, (const fr_t *)lo, s_log, rev_log);
    return cudaGetLastError();
}

extern "C" cudaError_t czk_gpu_launch_mul(void *a, const void *b, size_t n, cudaStream_t s) {
    mul_kernel<<<grid_for(n, 256), 256, 0, s>>>((fr_t *)a, (const fr_t *)b, n);
    return cudaGetLastError();
}
