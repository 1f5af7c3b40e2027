/* czk — the pairing rounds of the G1 bucket accumulation: affine additions
 * with one shared inversion per round (Montgomery's trick), which shorten
 * a window's sorted (bucket, point) list before msm_chunks_kernel sums it
 * in XYZZ.
 *
 * Why: a mixed XYZZ addition costs 8 products and 2 squarings; an affine
 * addition P + Q costs 2 products and a squaring once 1/(x_Q - x_P) is
 * known, and a batch of them shares one inversion for 3 more products each.
 *
 * The list: slot s of the m sorted pairs holds keys[s] (the bucket, nb for
 * a zero digit) and vals[s] (base index, bit 31 the sign). Round r = 1, 2,
 * … pairs slot s = j·2^r with slot q = s + 2^(r-1) (candidate j) when both
 * are in the same bucket (keys are sorted, so every slot between them is
 * too), both are finite and x_s != x_q (so the sum is finite and not a
 * doubling). Then P_s + P_q goes to pts[s/2] (vals[s] = PAIR_SUM) and slot
 * q dies (vals[q] = PAIR_DEAD). Every other candidate is left as it is.
 * The slots of round r's candidates are multiples of 2^(r-1): left slots
 * of every earlier round, which never die, so a candidate's slots are
 * always live. Each point stays counted exactly once, in a live slot of its
 * own bucket, and msm_chunks_kernel sums the live slots of each run (it
 * skips the dead ones): the bucket sums are unchanged. After R rounds about
 * m/2^R slots are live, plus those left at run edges.
 *
 * The shared inversion is a tree over the candidates: at level 0, thread t
 * of T takes candidates j = k·T + t, k < PAIR_G0 (so a warp's loads and
 * stores are adjacent), and writes the prefix products of their d = x_q -
 * x_s (1 for a candidate left alone) and their total; each level above
 * does the same over the totals below with groups of PAIR_G, up to a
 * single value, which the host inverts (czk_fp_inv: a single device thread
 * took about 0.6 ms, the host round trip about 30 µs); the levels are then
 * walked down, each turning its prefix products and the inverse of its
 * total into the inverses of its values; level 0 does the additions on the
 * way down. Prefixes are stored k-major (pre[k·T + t]).
 *
 * Every function here is one thread's work; the kernels in msm.cu call
 * them, and tests/gpu/test_msm_pairs_emulated.cpp calls them in loops on
 * the host (PTX emulated) against the CPU's group law. G1 only. */
#ifndef CZK_GPU_MSM_PAIRS_CUH
#define CZK_GPU_MSM_PAIRS_CUH

#include "g1.cuh"

#define PAIR_DEAD 0xffffffffu /* vals of a slot whose point was added into another */
#define PAIR_SUM 0x40000000u  /* vals of slot s whose point is pts[s/2] */
#define PAIR_IDX 0x3fffffffu  /* a base index (the pairing rounds need indices < 2^30) */
#define PAIR_G0 16            /* candidates per thread at level 0 */
#define PAIR_G 8              /* values per thread at the levels above (their threads are few, */
                              /* so their serial chains add up: 8 rather than 32) */

struct pair_round {
    const uint32_t *keys;
    uint32_t *vals;
    size_t m;  /* slots */
    uint32_t nb; /* keys >= nb: zero digits */
    unsigned r;  /* the round, from 1 */
    const g1_aff_t *bases;
    g1_aff_t *pts; /* m/2 rounded up */
};

/* The round's candidates: slots j·2^r < m. */
static __host__ __device__ inline size_t pair_candidates(size_t m, unsigned r) {
    return (m + ((size_t)1 << r) - 1) >> r;
}

/* The point of live slot s (vals v): false at infinity. Y: y wanted. */
template <bool Y>
static __device__ __forceinline__ bool pair_point(const pair_round &c, size_t s, uint32_t v, fp_t &x, fp_t &y) {
    if (v & PAIR_SUM) {
        const g1_aff_t *p = c.pts + (s >> 1);
        x = fp_load(&p->x);
        if (Y) y = fp_load(&p->y);
        return true;
    }
    const g1_aff_t *b = c.bases + (v & PAIR_IDX);
    x = fp_ldg(&b->x);
    if (Y || fp_is_zero(x)) { /* infinity is (0, 0); without Y, y only to tell it from x = 0 */
        y = fp_ldg(&b->y);
        if (fp_is_zero(x) && fp_is_zero(y)) return false;
    }
    if (Y && (v >> 31)) y = fp_neg(y);
    return true;
}

/* Candidate j's points, when they are to be added (see above). */
template <bool Y>
static __device__ __forceinline__ bool pair_load(const pair_round &c, size_t j, fp_t &x1, fp_t &y1, fp_t &x2,
                                                 fp_t &y2) {
    const size_t s = j << c.r, q = s + ((size_t)1 << (c.r - 1));
    if (q >= c.m) return false;
    const uint32_t k = c.keys[s];
    if (k >= c.nb || c.keys[q] != k) return false;
    if (!pair_point<Y>(c, s, c.vals[s], x1, y1) || !pair_point<Y>(c, q, c.vals[q], x2, y2)) return false;
    return !fp_equal(x1, x2);
}

/* Level 0 up, thread t of T0 = ceil(J / PAIR_G0): prefix products of the
 * d of its candidates into pre, their total into tot[t]. */
static __device__ __forceinline__ void pair_up0(const pair_round &c, size_t J, size_t T0, size_t t, fp_t *pre,
                                                fp_t *tot) {
    fp_t run = fp_one();
    bool any = false;
    for (unsigned k = 0; k < PAIR_G0; k++) {
        const size_t j = k * T0 + t;
        if (j >= J) break;
        fp_t x1, y1, x2, y2;
        if (pair_load<false>(c, j, x1, y1, x2, y2)) {
            const fp_t d = fp_sub(x2, x1);
            run = any ? fp_mul(run, d) : d;
            any = true;
        }
        fp_store(pre + k * T0 + t, run);
    }
    fp_store(tot + t, run);
}

/* A level above, thread t of T = ceil(n / PAIR_G) over the n values in. */
static __device__ __forceinline__ void pair_up(const fp_t *in, size_t n, size_t T, size_t t, fp_t *pre, fp_t *tot) {
    fp_t run = fp_one();
    for (unsigned k = 0; k < PAIR_G; k++) {
        const size_t j = k * T + t;
        if (j >= n) break;
        const fp_t v = fp_load(in + j);
        run = k ? fp_mul(run, v) : v;
        fp_store(pre + k * T + t, run);
    }
    fp_store(tot + t, run);
}

/* The values of thread t of T over n (j = k·T + t < n): at most the
 * group size, as T = ceil(n / G). */
static __device__ __forceinline__ unsigned pair_count(size_t n, size_t T, size_t t) {
    return t < n ? (unsigned)((n - t + T - 1) / T) : 0;
}

/* A level above, down: with inv[t] the inverse of thread t's total, its
 * values in[j] are replaced by their inverses. */
static __device__ __forceinline__ void pair_down(fp_t *in, size_t n, size_t T, size_t t, const fp_t *pre,
                                                 const fp_t *inv) {
    const unsigned cnt = pair_count(n, T, t);
    if (!cnt) return;
    fp_t run = fp_load(inv + t);
    for (unsigned k = cnt; k-- > 0;) {
        const size_t j = k * T + t;
        if (k) {
            const fp_t v = fp_load(in + j);
            fp_store(in + j, fp_mul(run, fp_load(pre + (k - 1) * T + t)));
            run = fp_mul(run, v);
        } else {
            fp_store(in + j, run);
        }
    }
}

/* Level 0 down, thread t: inv[t] the inverse of its total; each candidate
 * that is added gets 1/d from the prefixes, and the sum is written. */
static __device__ __forceinline__ void pair_add0(const pair_round &c, size_t J, size_t T0, size_t t, const fp_t *pre,
                                                 const fp_t *inv) {
    const unsigned cnt = pair_count(J, T0, t);
    if (!cnt) return;
    fp_t run = fp_load(inv + t);
    for (unsigned k = cnt; k-- > 0;) {
        const size_t j = k * T0 + t;
        fp_t x1, y1, x2, y2;
        if (!pair_load<true>(c, j, x1, y1, x2, y2)) continue;
        fp_t id = run; /* 1/d */
        if (k) {
            id = fp_mul(run, fp_load(pre + (k - 1) * T0 + t));
            run = fp_mul(run, fp_sub(x2, x1));
        }
        const fp_t lam = fp_mul(fp_sub(y2, y1), id);
        const fp_t x3 = fp_sub(fp_sub(fp_sqr(lam), x1), x2);
        const fp_t y3 = fp_sub(fp_mul(lam, fp_sub(x1, x3)), y1);
        const size_t s = j << c.r, q = s + ((size_t)1 << (c.r - 1));
        g1_aff_t *o = c.pts + (s >> 1);
        fp_store(&o->x, x3);
        fp_store(&o->y, y3);
        c.vals[s] = PAIR_SUM;
        c.vals[q] = PAIR_DEAD;
    }
}

/* The tree's sizes for J candidates: T[0] = ceil(J / PAIR_G0), T[l] =
 * ceil(T[l-1] / PAIR_G) until 1; returns the levels (T[0 .. levels-1]).
 * Scratch: each level l holds its prefixes (G·T[l] values, G = PAIR_G0 at
 * level 0, else PAIR_G) and then its totals (T[l]); off[l] is where level l
 * starts, in fp_t; the whole takes off[levels]. */
#define PAIR_MAX_LEVELS 16
static __host__ __device__ inline unsigned pair_tree(size_t J, size_t T[PAIR_MAX_LEVELS],
                                                     size_t off[PAIR_MAX_LEVELS + 1]) {
    unsigned L = 0;
    size_t t = (J + PAIR_G0 - 1) / PAIR_G0, at = 0;
    for (;;) {
        T[L] = t;
        off[L] = at;
        at += (L ? PAIR_G : PAIR_G0) * t + t;
        L++;
        if (t <= 1 || L == PAIR_MAX_LEVELS) break;
        t = (t + PAIR_G - 1) / PAIR_G;
    }
    off[L] = at;
    return L;
}

/* Level l's prefixes and totals in the scratch sc (pair_tree's T, off). */
static __host__ __device__ inline fp_t *pair_pre(fp_t *sc, const size_t *off, unsigned l) { return sc + off[l]; }
static __host__ __device__ inline fp_t *pair_tot(fp_t *sc, const size_t *T, const size_t *off, unsigned l) {
    return sc + off[l] + (l ? PAIR_G : PAIR_G0) * T[l];
}

#endif
