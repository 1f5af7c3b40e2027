/* czk — the MSM's window sums (launch_window_sums in msm_kernels.cuh) as
 * device functions over the coordinate field F: each part's running sums,
 * and one group of the tree that combines the parts' (t, r) pairs, over a
 * lane exchange X (on the device warp_lanes: warp shuffles and the block's
 * barrier; tests/gpu/test_msm_sums_emulated.cpp runs the same code on host
 * threads). */
#ifndef CZK_GPU_MSM_SUMS_CUH
#define CZK_GPU_MSM_SUMS_CUH

#include "xyzz.cuh"

#define MSM_TREE_MAX 256 /* most pairs (threads) in one group of the tree */

/* The pairs of one group of the tree when Q pairs a window are left (Q a
 * power of two): all of them up to MSM_TREE_MAX. */
static inline unsigned tree_group_pairs(size_t Q) { return Q < MSM_TREE_MAX ? (unsigned)Q : MSM_TREE_MAX; }

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

#ifndef MONT_HOST_EMULATION
/* The device's lane exchange: lane(), down(v, d) (lane + d's v, or its
 * own where lane + d >= 32: __shfl_down_sync word by word, the whole warp
 * taking part) and sync() (the block's barrier). */
struct warp_lanes {
    static __device__ __forceinline__ unsigned lane() { return threadIdx.x & 31; }
    template <class T> static __device__ __forceinline__ T down(const T &v, unsigned d) {
        T r;
        const uint32_t *s = reinterpret_cast<const uint32_t *>(&v);
        uint32_t *o = reinterpret_cast<uint32_t *>(&r);
#pragma unroll
        for (unsigned i = 0; i < sizeof(T) / 4; i++) o[i] = __shfl_down_sync(0xffffffffu, s[i], d);
        return r;
    }
    static __device__ __forceinline__ void sync() { __syncthreads(); }
};
#endif

/* A warp's lanes hold (t_j, r_j) of consecutive parts j of 2^glog buckets
 * each (t_j = Σ (i+1)·B_i, r_j = Σ B_i over the part, i local). On lane 0
 * at the end: t = Σ_j t_j + 2^glog·Σ_j j·r_j, the same sum over all the
 * lanes' buckets; R = Σ_j r_j is stored to r_out (when not NULL) by lane 0.
 * Σ_j j·r_j is Σ_{j ≥ 1} of the suffix sums Σ_{l ≥ j} r_l: a scan and two
 * reductions, 15 additions in a row instead of 3·32. All lanes take part. */
template <class F, class X>
static __device__ __forceinline__ void warp_window_sum(xyzz_t<F> &t, xyzz_t<F> &r, unsigned glog, xyzz_t<F> *r_out) {
    const unsigned lane = X::lane();
    xyzz_t<F> o;
    for (unsigned d = 1; d < 32; d <<= 1) { /* r ← Σ_{l ≥ lane} r_l */
        o = X::down(r, d);
        if (lane + d < 32) xyzz_add(r, o);
    }
    if (lane == 0) {
        if (r_out) xyzz_store(r_out, r);
        xyzz_set_inf(r);
    }
    for (unsigned d = 16; d > 0; d >>= 1) { /* lane 0: Σ_{j ≥ 1} of the suffix sums, and Σ t_j */
        o = X::down(r, d);
        if (lane + d < 32) xyzz_add(r, o);
        o = X::down(t, d);
        if (lane + d < 32) xyzz_add(t, o);
    }
    if (lane == 0) {
        for (unsigned k = 0; k < glog; k++) xyzz_dbl(r);
        xyzz_add(t, r);
    }
}

/* Thread j of `threads` (max(P, 32)) for group b of P pairs (P a power of
 * two up to MSM_TREE_MAX): in[2(bP+j)] = t_j, in[2(bP+j)+1] = r_j, each pair
 * over 2^glog consecutive buckets, the group's pairs in order. The group's
 * T = Σ_j t_j + 2^glog·Σ_j j·r_j and R = Σ_j r_j: each warp reduces its 32
 * pairs (warp_window_sum), then warp 0 the warps' sums (each over
 * 2^(glog+5) buckets), through sh (2·threads/32 points). FINAL: T alone,
 * Jacobian, to out[b] (jac_t); else T and R, XYZZ, to out[2b] and
 * out[2b+1]. */
template <class F, bool FINAL, class X>
static __device__ __forceinline__ void tree_group(const xyzz_t<F> *in, unsigned P, unsigned glog, void *out,
                                                  size_t b, unsigned j, unsigned threads, xyzz_t<F> *sh) {
    const unsigned warp = j >> 5, nw = (threads + 31) >> 5;
    xyzz_t<F> *r_out = FINAL ? NULL : (xyzz_t<F> *)out + 2 * b + 1;
    xyzz_t<F> t, r;
    if (j < P) {
        xyzz_load(t, in + 2 * (b * P + j));
        xyzz_load(r, in + 2 * (b * P + j) + 1);
    } else {
        xyzz_set_inf(t);
        xyzz_set_inf(r);
    }
    if (nw > 1) {
        warp_window_sum<F, X>(t, r, glog, sh + 2 * warp + 1);
        if ((j & 31) == 0) xyzz_store(sh + 2 * warp, t);
        X::sync();
        if (warp != 0) return;
        if (j < nw) {
            xyzz_load(t, sh + 2 * j);
            xyzz_load(r, sh + 2 * j + 1);
        } else {
            xyzz_set_inf(t);
            xyzz_set_inf(r);
        }
        glog += 5;
    }
    warp_window_sum<F, X>(t, r, glog, r_out);
    if (j != 0) return;
    if (FINAL) xyzz_store_jac((jac_t<F> *)out + b, t);
    else xyzz_store((xyzz_t<F> *)out + 2 * b, t);
}

#endif
