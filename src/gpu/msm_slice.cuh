/* czk — one thread's slice of a window's sorted pairs in the bucket
 * accumulation (msm_chunks_kernel in msm_kernels.cuh), generic over the
 * coordinate field F: device functions only, so that
 * tests/gpu/test_msm_pairs_emulated.cpp runs it on the host after the
 * pairing rounds (msm_pairs.cuh). */
#ifndef CZK_GPU_MSM_SLICE_CUH
#define CZK_GPU_MSM_SLICE_CUH

#include "msm_pairs.cuh"

template <class F>
static __device__ __forceinline__ void add_base(xyzz_t<F> &acc, const aff_t<F> *bases, uint32_t v) {
    const aff_t<F> *b = bases + (v & 0x7fffffffu);
    const F x = fe_ldg(&b->x), y = fe_ldg(&b->y);
    if (!aff_is_inf(x, y)) xyzz_add_aff(acc, x, y, (v >> 31) != 0);
}

/* Live slot pos of the sorted pairs after the pairing rounds (vals v,
 * msm_pairs.cuh): its pair sum pts[pos/2], or its base. One inlined
 * addition either way. */
template <class F>
static __device__ __forceinline__ void add_slot(xyzz_t<F> &acc, const aff_t<F> *bases, const aff_t<F> *pts,
                                                uint32_t v, size_t pos) {
    const aff_t<F> *b;
    bool neg = false;
    if (v & PAIR_SUM) {
        b = pts + (pos >> 1);
    } else {
        b = bases + (v & 0x7fffffffu);
        neg = (v >> 31) != 0;
    }
    const F x = fe_ldg(&b->x), y = fe_ldg(&b->y);
    if (!aff_is_inf(x, y)) xyzz_add_aff(acc, x, y, neg);
}

/* One slice [tL, tL+L) of a window's sorted pairs per thread, in one flat
 * loop: every lane adds one base per iteration, and a run's end (a store)
 * is the only divergence (a loop per run left the lanes whose runs ended
 * idle until the warp's longest run ended: the flat loop made this kernel
 * 1.8 times faster on an H200 at 2^24). After the pairing rounds each lane
 * skips the dead slots on its own, so that a warp's iterations are its
 * lanes' most live slots, not the union of their live positions. A run
 * wholly inside the slice goes to its bucket; one crossing the left edge
 * to partial slot 2t, one crossing only the right edge to 2t+1
 * (the fix kernels read them). PAIRS: after the pairing rounds, whose
 * sums are in pts (G1 only; without them the loop is the one before the
 * rounds existed: the skipping cost G2's kernel 3 %). msm_chunks_kernel
 * runs it for thread t. */
template <class F, bool PAIRS>
static __device__ __forceinline__ void msm_chunks_slice(size_t t, const uint32_t *keys, const uint32_t *vals,
                                                        size_t m, unsigned L, uint32_t nb, const aff_t<F> *bases,
                                                        const aff_t<F> *pts, xyzz_t<F> *buckets,
                                                        xyzz_t<F> *partial) {
    const size_t start = t * L;
    if (start >= m) return;
    const size_t end = start + L < m ? start + L : m;
    uint32_t k = keys[start];
    if (k >= nb) return;
    /* the slice's first run continues one of the slice before */
    bool before = start > 0 && keys[start - 1] == k, first = true;
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
    for (size_t pos = start; pos < end; pos++) {
        uint32_t v = 0;
        /* Each lane on to its own next live slot. A dead slot's point went
         * into an earlier slot of its run, so every key skipped here is k's
         * or kp's, and the dead slots a slice ends with are its last run's. */
        if (PAIRS) {
            v = vals[pos];
            while (v == PAIR_DEAD && pos + 1 < end) v = vals[++pos];
            if (v == PAIR_DEAD) break;
        }
        const uint32_t kp = keys[pos];
        if (kp != k) { /* the run of k ended inside the slice */
            if (before) xyzz_store(partial + 2 * t, acc);
            else xyzz_store(buckets + k, acc);
            before = first = false;
            k = kp;
            if (k >= nb) break; /* the zero digits, sorted last */
            xyzz_set_inf(acc);
        }
        if (PAIRS) add_slot(acc, bases, pts, v, pos);
        else add_base(acc, bases, vals[pos]);
    }
    if (k < nb) { /* the last run reaches the slice's end */
        const bool after = end < m && keys[end] == k;
        if (!before && !after) xyzz_store(buckets + k, acc);
        else xyzz_store(partial + 2 * t + (first ? 0 : 1), acc);
    }
}

#endif
