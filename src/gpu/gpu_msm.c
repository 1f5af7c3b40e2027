/* czk — G1 and G2 MSM on the device (include/czk/gpu.h, and the
 * device-scalar entry points of gpu_internal.h): the host sequence of the
 * kernels in msm.cu / msm_g2.cu and the last reduction on the host, generic
 * over the group through a table of sizes and host point functions.
 *
 * One call: upload the scalars (and the density words with their per-word
 * ranks), prep (canonical scalars by base index, classed 0 / 1 / big and
 * counted); compaction (CUB select: the ones' and the big scalars' base
 * indices, the big scalars gathered when at most half are big; skipped
 * when all are big; both in msm_scalars.c); the ones' sum (a flat pass over their list, then a
 * tree of partial sums); Pippenger over the m_big big scalars only, c
 * chosen from m_big: per window of c bits: digits, CUB radix sort by
 * bucket (on a second stream, a window ahead), for G1 from 2^23 big scalars
 * the pairing rounds (affine additions with shared inversions, which
 * shorten the sorted list: msm_pairs.cuh), chunks + fix (bucket sums);
 * then the window sums on the device (each window's Σ_k (k+1)·B_k: parts of
 * 2^glog buckets by running sums, then a tree of warps and blocks; see
 * msm_window_glog), which the host combines by Horner (c doublings and one
 * addition per window). The _dev entry points start from scalars already on
 * the device (no upload, not freed). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msm_host.h"

#define MSM_SLICE_MAX 256 /* most sorted pairs per thread of the chunks kernel */

static const char *prof_name[P_COUNT] = {"upload+prep", "compact", "ones",     "digits+sort", "pairs",
                                         "chunks",      "fix",     "sums",     "host"};

/* Resident bases of either group; the public handles of the two groups are
 * this struct under two names (so that a G1 handle cannot be passed for a
 * G2 one). */
typedef struct {
    czk_gpu *g;
    void *p;
    size_t count;
} msm_bases;

struct czk_gpu_g1_bases {
    msm_bases b;
};

struct czk_gpu_g2_bases {
    msm_bases b;
};

/* What the sequence needs of a group: the kernels' grp, the host layouts,
 * the host's Jacobian functions, and the threads the window sums' parts
 * kernel aims at (log2; see msm_window_glog). */
typedef struct {
    int grp;
    size_t aff_bytes, jac_bytes;
    unsigned parts_threads_log;
    void (*set_inf)(void *r);
    void (*add)(void *r, const void *a, const void *b);
    void (*dbl)(void *r, const void *a);
} msm_group;

/* a host Jacobian point of either group */
typedef union {
    czk_g1 g1;
    czk_g2 g2;
} msm_point;

static void g1_set_inf(void *r) { czk_g1_set_infinity(r); }
static void g1_add(void *r, const void *a, const void *b) { czk_g1_add(r, a, b); }
static void g1_dbl(void *r, const void *a) { czk_g1_dbl(r, a); }
static void g2_set_inf(void *r) { czk_g2_set_infinity(r); }
static void g2_add(void *r, const void *a, const void *b) { czk_g2_add(r, a, b); }
static void g2_dbl(void *r, const void *a) { czk_g2_dbl(r, a); }

static const msm_group GROUP_G1 = {0, sizeof(czk_g1_affine), sizeof(czk_g1), 18, g1_set_inf, g1_add, g1_dbl};
static const msm_group GROUP_G2 = {1, sizeof(czk_g2_affine), sizeof(czk_g2), 16, g2_set_inf, g2_add, g2_dbl};

/* Window bits for m scalars: lg m - 3 from 4 to 16, then for G1 fewer
 * windows at the price of more buckets: 20 from 2^24 (13 windows instead
 * of 16), 22 from 2^26 (12; 4.5 GiB of buckets). On an H200: 2^24 147 ms
 * at c = 20 against 154 ms at 16 and 19; 2^27 945 ms at 22, 960 ms at 20.
 * CZK_GPU_MSM_WINDOW=c (4 … 22) overrides it (for tuning). */
static int msm_window(size_t m, int grp) {
    const char *env = getenv("CZK_GPU_MSM_WINDOW");
    if (env && env[0]) {
        int c = atoi(env);
        if (c >= 4 && c <= 22) return c;
    }
    int lg = 0;
    while (lg < 62 && ((size_t)2 << lg) <= m) lg++;
    if (grp == 0 && lg >= 24) return lg >= 26 ? 22 : 20;
    int c = lg - 3;
    return c < 4 ? 4 : c > 16 ? 16 : c;
}

/* The pairing rounds (msm_pairs.cuh) for m big scalars of nset: G1 only,
 * base indices below 2^30; from 2^23 big scalars 2 rounds, from 2^25
 * three. Measured on an H200 (random scalars, G1 MSM in ms, rounds 0 / 2
 * / 3): 2^22 44.4 / 45.3 / 48.7, 2^24 133.6 / 122.0 / 122.1, 2^26 497 /
 * 449 / 441, 2^27 920 / 798 / 774; with fewer big scalars each round's
 * fixed costs (a dozen launches, the host's inversion) do not pay (the
 * PoRep mix's 6.7 M big scalars at 2^27: 176 / 174 / 175, 840 K at 2^24:
 * 30.6 / 40.2 / 43.7). CZK_GPU_MSM_PAIRS=R (0 … 8) sets the rounds and
 * CZK_GPU_MSM_PAIRS_MIN=m the least big scalars (for tests and tuning). */
static unsigned msm_pair_rounds(const msm_group *G, size_t m, size_t nset) {
    if (G->grp != 0 || nset >= ((size_t)1 << 30) || m < 2) return 0;
    size_t min = (size_t)1 << 23;
    const char *env = getenv("CZK_GPU_MSM_PAIRS_MIN");
    if (env && env[0]) min = (size_t)strtoull(env, NULL, 10);
    if (m < min) return 0;
    env = getenv("CZK_GPU_MSM_PAIRS");
    if (env && env[0]) {
        const int v = atoi(env);
        return v < 0 ? 0 : v > 8 ? 8 : (unsigned)v;
    }
    return m >= ((size_t)1 << 25) ? 3 : 2;
}

/* Common checks: r, the pointers, the density map's length; *nset = the
 * participating scalars (< 2^31). */
static czk_err check_args(const void *r, const void *bases, const void *scalars, size_t n, const czk_bitmap *density,
                          size_t *nset, char *msg, size_t msglen) {
    if (!r || (n > 0 && (!bases || !scalars)) || (density && density->nbits < n))
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    *nset = density ? (n ? czk_bitmap_rank(density, n) : 0) : n;
    if (*nset >= ((size_t)1 << 31))
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "GPU MSM: 2^31 or more scalars");
    return CZK_OK;
}

/* From the window bits c: W windows of nb buckets. */
static void msm_shape(int c, unsigned *W, uint32_t *nb) {
    *W = (256u + (unsigned)c - 1) / (unsigned)c;
    *nb = 1u << (c - 1);
}

/* The window sums' parts: 2^glog buckets each, glog the least that leaves
 * at most 2^G->parts_threads_log parts in all (G1: 2^18, six waves of the
 * parts kernel at 255 registers on an H200, so the H MSM's 12 windows of
 * 2^21 buckets get parts of 128 as before the tree; G2: 2^16), but at
 * least 16 buckets (32 additions in a row for each part, against about 15
 * and log2 of the part for each level of the tree above it), and at most
 * the whole window. */
static unsigned msm_window_glog(const msm_group *G, unsigned W, int c) {
    const unsigned whole = (unsigned)c - 1; /* a window's nb = 2^(c-1) buckets */
    unsigned glog = 4;
    while (((size_t)W << whole >> glog) > ((size_t)1 << G->parts_threads_log)) glog++;
    const char *env = getenv("CZK_GPU_MSM_SUMS_GLOG"); /* for tuning: parts of 2^k buckets */
    if (env && env[0] && atoi(env) >= 0 && atoi(env) <= 24) glog = (unsigned)atoi(env);
    return glog < whole ? glog : whole;
}

/* The MSM over device bases (nset of them used) and the prepared scalars
 * sc (nset > 0, the device current): the ones' sum, then Pippenger over
 * the big scalars, and the host's Horner. sc is read only. */
static czk_err msm_run(czk_gpu *g, const msm_group *G, void *r, const void *dbases, const czk_gpu_msm_scalars *sc,
                       msm_prof *pprof, char *msg, size_t msglen) {
    msm_bufs b;
    memset(&b, 0, sizeof b);
    b.g = g;
    czk_err e = CZK_OK;
    cudaStream_t st = czk_gpu_stream(g), st2 = NULL;
    cudaEvent_t ev[4] = {NULL, NULL, NULL, NULL};
    char *seg = NULL;
    const size_t xb = czk_gpu_msm_xyzz_bytes(G->grp), jb = G->jac_bytes;
    int c = 0;
    size_t L = 0;
    const size_t n = sc->n, nset = sc->nset, mones = sc->mones, mbig = sc->mbig;
    const void *dscal = sc->scal;
    const uint32_t *bidx = sc->bidx;
    const int gather = sc->gather;
    msm_prof prof = *pprof;

    /* ones: T partials (a flat sum over their list), then sums of 16 partials until one is left */
    if (mones) {
        const size_t T = czk_gpu_msm_ones_threads(G->grp, mones), LR = 16;
        CKE(buf_alloc(&b, B_ONES0, T * xb, "the MSM ones", msg, msglen));
        CKE(buf_alloc(&b, B_ONES1, (T + LR - 1) / LR * xb, "the MSM ones", msg, msglen));
        CKE(buf_alloc(&b, B_JAC, jb, "the MSM ones", msg, msglen));
        CZK_CUDA_CK_OUT(czk_gpu_launch_msm_ones(G->grp, dbases, sc->b.p[B_ONESIDX], mones, b.p[B_ONES0], st));
        void *in = b.p[B_ONES0], *o = b.p[B_ONES1];
        for (size_t k = T; k > 1; k = (k + LR - 1) / LR) {
            CZK_CUDA_CK_OUT(czk_gpu_launch_msm_xyzz_reduce(G->grp, in, k, (unsigned)LR, o, st));
            void *t = in;
            in = o;
            o = t;
        }
        CZK_CUDA_CK_OUT(czk_gpu_launch_msm_to_jac(G->grp, in, b.p[B_JAC], st));
        prof_mark(&prof, P_ONES, st);
    }

    /* Pippenger over the big scalars */
    unsigned W = 0, glog = 0, pr = 0;
    uint32_t nb = 0;
    if (mbig) {
        c = msm_window(mbig, G->grp);
        msm_shape(c, &W, &nb);
        /* about 2^17 threads per window for the chunks kernel (two waves on an H200) */
        L = mbig >> 17;
        L = L < 4 ? 4 : L > MSM_SLICE_MAX ? MSM_SLICE_MAX : L;
        const size_t nch = (mbig + L - 1) / L;
        size_t temp_bytes = 0;
        CZK_CUDA_CK_OUT(czk_gpu_msm_sort(NULL, &temp_bytes, NULL, NULL, NULL, NULL, mbig, c, st));
        CKE(buf_alloc(&b, B_KIN, mbig * 4, "the MSM digits", msg, msglen));
        CKE(buf_alloc(&b, B_KOUT, mbig * 4, "the MSM digits", msg, msglen));
        CKE(buf_alloc(&b, B_VIN, mbig * 4, "the MSM digits", msg, msglen));
        CKE(buf_alloc(&b, B_VOUT, mbig * 4, "the MSM digits", msg, msglen));
        CKE(buf_alloc(&b, B_TEMP, temp_bytes, "the MSM sort", msg, msglen));
        CKE(buf_alloc(&b, B_PART, 2 * nch * xb, "the MSM partial sums", msg, msglen));
        e = buf_alloc(&b, B_BUCK, (size_t)W * nb * xb, "the MSM buckets", msg, msglen);
        if (e == CZK_ERR_NO_MEMORY && c > 16) { /* the wide windows' buckets do not fit: 16 bits */
            c = 16;
            msm_shape(c, &W, &nb);
            e = buf_alloc(&b, B_BUCK, (size_t)W * nb * xb, "the MSM buckets", msg, msglen);
        }
        if (e != CZK_OK) goto out;
        glog = msm_window_glog(G, W, c);
        const size_t nparts = (size_t)nb >> glog, nparts2 = czk_gpu_msm_window_sums_pairs2(nparts);
        CKE(buf_alloc(&b, B_SEG, (size_t)W * jb, "the MSM window sums", msg, msglen));
        CKE(buf_alloc(&b, B_PARTS, 2 * (size_t)W * nparts * xb, "the MSM window sums", msg, msglen));
        CKE(buf_alloc(&b, B_PARTS2, 2 * (size_t)W * nparts2 * xb, "the MSM window sums", msg, msglen));
        CKE(buf_alloc(&b, B_RANGE, (size_t)nb * 16 + 16, "the MSM buckets", msg, msglen));
        /* the pairing rounds' sums and scratch: without the memory, no rounds */
        pr = msm_pair_rounds(G, mbig, nset);
        if (pr) {
            e = buf_alloc(&b, B_PTS, (mbig + 1) / 2 * G->aff_bytes, "the MSM pair sums", msg, msglen);
            if (e == CZK_OK)
                e = buf_alloc(&b, B_PSCR, czk_gpu_msm_pairs_scratch(mbig), "the MSM pair sums", msg, msglen);
            if (e == CZK_ERR_NO_MEMORY) {
                buf_free(&b, B_PTS);
                buf_free(&b, B_PSCR);
                pr = 0;
                e = CZK_OK;
            }
            if (e != CZK_OK) goto out;
        }
        /* Windows: digits and sort on a second stream st2 into one of two sorted
         * pair buffers while the bucket kernels of the window before run on st
         * (the sort is memory bound, the buckets compute bound); events order
         * them both ways. Profiled, or without the memory for the second
         * buffer: one stream, one buffer. */
        if (!prof.on) {
            e = buf_alloc(&b, B_KOUT2, mbig * 4, "the MSM digits", msg, msglen);
            if (e == CZK_OK) e = buf_alloc(&b, B_VOUT2, mbig * 4, "the MSM digits", msg, msglen);
            if (e == CZK_ERR_NO_MEMORY) {
                buf_free(&b, B_KOUT2);
                buf_free(&b, B_VOUT2);
                e = CZK_OK;
            }
            if (e != CZK_OK) goto out;
        }
        if (b.p[B_VOUT2]) {
            CZK_CUDA_CK_OUT(cudaStreamCreateWithFlags(&st2, cudaStreamNonBlocking));
            for (int k = 0; k < 4; k++)
                CZK_CUDA_CK_OUT(cudaEventCreateWithFlags(&ev[k], cudaEventDisableTiming));
        }
        for (unsigned w = 0; w < W; w++) {
            const int bi = st2 ? (int)(w & 1) : 0; /* ev[bi]: pairs bi sorted, ev[2 + bi]: pairs bi used */
            uint32_t *kin = b.p[B_KIN], *vin = b.p[B_VIN];
            uint32_t *kout = b.p[bi ? B_KOUT2 : B_KOUT], *vout = b.p[bi ? B_VOUT2 : B_VOUT];
            cudaStream_t ss = st2 ? st2 : st;
            void *buck = (char *)b.p[B_BUCK] + (size_t)w * nb * xb;
            size_t tb = temp_bytes;
            if (st2 && w >= 2) CZK_CUDA_CK_OUT(cudaStreamWaitEvent(st2, ev[2 + bi], 0));
            CZK_CUDA_CK_OUT(czk_gpu_launch_msm_digits(dscal, bidx, gather, mbig, (int)w, c, kin, vin, ss));
            CZK_CUDA_CK_OUT(czk_gpu_msm_sort(b.p[B_TEMP], &tb, kin, kout, vin, vout, mbig, c, ss));
            if (st2) {
                CZK_CUDA_CK_OUT(cudaEventRecord(ev[bi], st2));
                CZK_CUDA_CK_OUT(cudaStreamWaitEvent(st, ev[bi], 0));
            }
            prof_mark(&prof, P_SORT, st);
            if (pr) {
                CZK_CUDA_CK_OUT(czk_gpu_launch_msm_pairs(kout, vout, mbig, nb, pr, dbases, b.p[B_PTS], b.p[B_PSCR], st));
                prof_mark(&prof, P_PAIRS, st);
            }
            CZK_CUDA_CK_OUT(czk_gpu_launch_msm_chunks(G->grp, kout, vout, mbig, (unsigned)L, nb, dbases, pr ? b.p[B_PTS] : NULL,
                                          buck, b.p[B_PART], st));
            prof_mark(&prof, P_CHUNKS, st);
            CZK_CUDA_CK_OUT(czk_gpu_launch_msm_fix(G->grp, kout, mbig, (unsigned)L, nb, b.p[B_RANGE], buck, b.p[B_PART], st));
            prof_mark(&prof, P_FIX, st);
            if (st2) CZK_CUDA_CK_OUT(cudaEventRecord(ev[2 + bi], st));
        }
        CZK_CUDA_CK_OUT(czk_gpu_launch_msm_window_sums(G->grp, b.p[B_BUCK], W, nb, glog, b.p[B_PARTS], b.p[B_PARTS2],
                                           b.p[B_SEG], st));
        seg = malloc((size_t)W * jb);
        if (!seg) {
            e = czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
            goto out;
        }
        CZK_CUDA_CK_OUT(cudaMemcpyAsync(seg, b.p[B_SEG], (size_t)W * jb, cudaMemcpyDeviceToHost, st));
    }
    msm_point ones;
    G->set_inf(&ones);
    if (mones)
        CZK_CUDA_CK_OUT(cudaMemcpyAsync(&ones, b.p[B_JAC], jb, cudaMemcpyDeviceToHost, st));
    CZK_CUDA_CK_OUT(cudaStreamSynchronize(st));
    prof_mark(&prof, P_SUMS, st);

    /* host: the windows by Horner */
    {
        msm_point acc;
        G->set_inf(&acc);
        for (unsigned w = W; mbig && w-- > 0;) {
            if (w != W - 1)
                for (int k = 0; k < c; k++) G->dbl(&acc, &acc);
            G->add(&acc, &acc, seg + (size_t)w * jb);
        }
        G->add(&acc, &acc, &ones);
        memcpy(r, &acc, jb);
    }
    prof_mark(&prof, P_HOST, st);
    if (prof.on) {
        fprintf(stderr, "gpu msm g%d n=%zu m=%zu big=%zu ones=%zu c=%d slice=%zu rounds=%u:", G->grp + 1, n, nset, mbig,
                mones, c, L, pr);
        for (int k = 0; k < P_COUNT; k++)
            fprintf(stderr, " %s %.2f ms%s", prof_name[k], prof.acc[k], k < P_COUNT - 1 ? "," : "\n");
    }
out:
    if (e != CZK_OK) {
        if (st2) cudaStreamSynchronize(st2);
        cudaStreamSynchronize(st);
    }
    for (int k = 0; k < 4; k++)
        if (ev[k]) cudaEventDestroy(ev[k]);
    if (st2) cudaStreamDestroy(st2);
    (void)cudaGetLastError();
    for (int k = 0; k < B_COUNT; k++) buf_free(&b, k);
    free(seg);
    return e;
}

/* prep and run for one MSM (arguments as scalars_prep's, plus the group,
 * the result and the bases) */
static czk_err msm_core(czk_gpu *g, const msm_group *G, void *r, const void *dbases, const void *dscalars,
                        size_t scal_bytes, size_t n, const czk_bitmap *density, size_t nset, char *msg,
                        size_t msglen) {
    msm_prof prof;
    prof_start(&prof);
    czk_gpu_msm_scalars sc;
    czk_err e = czk_gpu_msm_scalars_prep(g, dscalars, scal_bytes, n, density, NULL, nset, &sc, &prof, msg, msglen);
    if (e != CZK_OK) return e;
    e = msm_run(g, G, r, dbases, &sc, &prof, msg, msglen);
    czk_gpu_msm_scalars_release(&sc);
    return e;
}

static czk_err msm_prepared(czk_gpu *g, const msm_group *G, void *r, const void *dev_bases, size_t n_bases,
                            czk_gpu_msm_scalars *sc, char *msg, size_t msglen) {
    if (!g || !r || !sc || sc->b.g != g || (sc->nset && !dev_bases))
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    if (sc->nset > n_bases)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "GPU MSM: more scalars than device bases");
    if (!sc->nset) {
        G->set_inf(r);
        return CZK_OK;
    }
    czk_err e = czk_gpu_msm_set_device(g, msg, msglen);
    if (e != CZK_OK) return e;
    msm_prof prof;
    prof_start(&prof);
    if (!sc->shown) { /* the prep's times, with the first MSM over it */
        prof.acc[P_PREP] = sc->t_prep;
        prof.acc[P_COMPACT] = sc->t_compact;
        sc->shown = 1;
    }
    return msm_run(g, G, r, dev_bases, sc, &prof, msg, msglen);
}

czk_err czk_gpu_msm_g1_prepared(czk_gpu *g, czk_g1 *r, const void *dev_bases, size_t n_bases,
                                czk_gpu_msm_scalars *sc, char *msg, size_t msglen) {
    return msm_prepared(g, &GROUP_G1, r, dev_bases, n_bases, sc, msg, msglen);
}

czk_err czk_gpu_msm_g2_prepared(czk_gpu *g, czk_g2 *r, const void *dev_bases, size_t n_bases,
                                czk_gpu_msm_scalars *sc, char *msg, size_t msglen) {
    return msm_prepared(g, &GROUP_G2, r, dev_bases, n_bases, sc, msg, msglen);
}

/* msm_core with host scalars: uploads them into a buffer the core frees
 * after its first kernel. */
static czk_err msm_core_host_one(czk_gpu *g, const msm_group *G, void *r, const void *dbases, const czk_fr *scalars,
                                 size_t n, const czk_bitmap *density, size_t nset, char *msg, size_t msglen) {
    void *d = NULL;
    size_t bytes = n * sizeof(czk_fr);
    czk_err e = (czk_err)czk_gpu_dev_alloc(g, &d, bytes, "the MSM scalars", msg, msglen);
    if (e != CZK_OK) return e;
    cudaError_t ce = cudaMemcpyAsync(d, scalars, bytes, cudaMemcpyHostToDevice, czk_gpu_stream(g));
    if (ce != cudaSuccess) {
        e = CZK_CUDA_ERR(ce, "the scalar upload");
        cudaStreamSynchronize(czk_gpu_stream(g));
        czk_gpu_dev_free(g, d, bytes);
        return e;
    }
    return msm_core(g, G, r, dbases, d, bytes, n, density, nset, msg, msglen);
}

/* Where a host-scalar MSM is split (see msm_core_host): the first n_a
 * scalars, a multiple of 64 (a density map's word), or 0 for no split.
 * From 2^25 participating scalars, n_a = n/8: on an H200 a 2^24 MSM's
 * kernels take longer than the upload of 7·2^24 scalars, which is then
 * hidden. CZK_GPU_MSM_SPLIT=k sets n_a = n/k (0 or 1: never split) and
 * CZK_GPU_MSM_SPLIT_MIN=m the least participating scalars (for tests and
 * tuning). */
static size_t msm_split_at(size_t n, size_t nset) {
    size_t k = 8, min = (size_t)1 << 25;
    const char *env = getenv("CZK_GPU_MSM_SPLIT");
    if (env && env[0]) k = (size_t)strtoull(env, NULL, 10);
    env = getenv("CZK_GPU_MSM_SPLIT_MIN");
    if (env && env[0]) min = (size_t)strtoull(env, NULL, 10);
    if (k < 2 || nset < min) return 0;
    const size_t na = n / k & ~(size_t)63;
    return na >= 64 && na < n ? na : 0;
}

/* The second part's scalar upload, on a thread of its own (a pageable
 * source makes cudaMemcpyAsync return only when the data is staged), on a
 * copy stream that first waits for the first part's upload (after), so
 * that the two do not share PCIe. */
typedef struct {
    int ordinal;
    void *dst;
    const void *src;
    size_t bytes;
    cudaEvent_t after;
    cudaError_t ce;
} msm_upload_job;

static void *msm_upload_run(void *p) {
    msm_upload_job *j = p;
    cudaStream_t cs = NULL;
    j->ce = cudaSetDevice(j->ordinal);
    if (j->ce == cudaSuccess) j->ce = cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking);
    if (j->ce == cudaSuccess) j->ce = cudaStreamWaitEvent(cs, j->after, 0);
    if (j->ce == cudaSuccess) j->ce = cudaMemcpyAsync(j->dst, j->src, j->bytes, cudaMemcpyHostToDevice, cs);
    if (cs) {
        const cudaError_t ce = cudaStreamSynchronize(cs);
        if (j->ce == cudaSuccess) j->ce = ce;
        cudaStreamDestroy(cs);
    }
    return NULL;
}

/* msm_core with host scalars. From msm_split_at's size on, in two parts
 * over consecutive scalars and bases: the first part's scalars are
 * uploaded, and its MSM runs while a thread uploads the second part's;
 * then the second part's MSM, and the sum of both. Only the first part's
 * upload is not overlapped (the 2^27 scalars of a G1 MSM take 80–114 ms
 * over an H200's PCIe, against about 650 ms of kernels). */
static czk_err msm_core_host(czk_gpu *g, const msm_group *G, void *r, const void *dbases, const czk_fr *scalars,
                             size_t n, const czk_bitmap *density, size_t nset, char *msg, size_t msglen) {
    const size_t na = msm_split_at(n, nset);
    if (!na) return msm_core_host_one(g, G, r, dbases, scalars, n, density, nset, msg, msglen);
    const size_t nb = n - na, wa = na / 64, bytes_a = na * sizeof(czk_fr), bytes_b = nb * sizeof(czk_fr);
    const size_t nset_a = density ? czk_bitmap_rank(density, na) : na, nset_b = nset - nset_a;
    cudaStream_t st = czk_gpu_stream(g);
    czk_bitmap density_b = {NULL, 0};
    void *da = NULL, *db = NULL;
    cudaEvent_t up_a = NULL;
    pthread_t th;
    int running = 0;
    msm_point ra, rb;
    G->set_inf(&ra);
    G->set_inf(&rb);
    czk_err e = CZK_OK;
    if (density) {
        density_b.words = density->words + wa;
        density_b.nbits = density->nbits - na;
    }
    CKE((czk_err)czk_gpu_dev_alloc(g, &da, bytes_a, "the MSM scalars", msg, msglen));
    CKE((czk_err)czk_gpu_dev_alloc(g, &db, bytes_b, "the MSM scalars", msg, msglen));
    CZK_CUDA_CK_OUT(cudaEventCreateWithFlags(&up_a, cudaEventDisableTiming));
    CZK_CUDA_CK_OUT(cudaMemcpyAsync(da, scalars, bytes_a, cudaMemcpyHostToDevice, st));
    CZK_CUDA_CK_OUT(cudaEventRecord(up_a, st));
    msm_upload_job job = {czk_gpu_ordinal(g), db, scalars + na, bytes_b, up_a, cudaSuccess};
    if (pthread_create(&th, NULL, msm_upload_run, &job) != 0) {
        e = czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "GPU MSM: cannot start the upload thread");
        goto out;
    }
    running = 1;
    if (nset_a) {
        e = msm_core(g, G, &ra, dbases, da, bytes_a, na, density, nset_a, msg, msglen);
        da = NULL; /* msm_core freed it */
    }
    pthread_join(th, NULL);
    running = 0;
    if (e == CZK_OK && job.ce != cudaSuccess) e = CZK_CUDA_ERR(job.ce, "the scalar upload (second part)");
    if (e == CZK_OK && nset_b) {
        e = msm_core(g, G, &rb, (const char *)dbases + nset_a * G->aff_bytes, db, bytes_b, nb,
                     density ? &density_b : NULL, nset_b, msg, msglen);
        db = NULL;
    }
    if (e == CZK_OK) G->add(r, &ra, &rb);
out:
    if (running) pthread_join(th, NULL);
    if (da || db) cudaStreamSynchronize(st);
    if (da) czk_gpu_dev_free(g, da, bytes_a);
    if (db) czk_gpu_dev_free(g, db, bytes_b);
    if (up_a) cudaEventDestroy(up_a);
    return e;
}

/* Device bases: count affine points copied from the host (*p NULL on error). */
static czk_err bases_upload(czk_gpu *g, const msm_group *G, const void *bases, size_t count, void **p, char *msg,
                            size_t msglen) {
    *p = NULL;
    czk_err e = czk_gpu_msm_set_device(g, msg, msglen);
    if (e != CZK_OK) return e;
    size_t bytes = count * G->aff_bytes;
    e = (czk_err)czk_gpu_dev_alloc(g, p, bytes, "the MSM bases", msg, msglen);
    if (e != CZK_OK) return e;
    cudaStream_t st = czk_gpu_stream(g);
    cudaError_t ce = cudaMemcpyAsync(*p, bases, bytes, cudaMemcpyHostToDevice, st);
    if (ce == cudaSuccess) ce = cudaStreamSynchronize(st);
    if (ce != cudaSuccess) {
        e = CZK_CUDA_ERR(ce, "the bases upload");
        cudaStreamSynchronize(st);
        czk_gpu_dev_free(g, *p, bytes);
        *p = NULL;
    }
    return e;
}

static void bases_free(czk_gpu *g, const msm_group *G, void *p, size_t count) {
    if (!p) return;
    cudaSetDevice(czk_gpu_ordinal(g));
    cudaStreamSynchronize(czk_gpu_stream(g));
    czk_gpu_dev_free(g, p, count * G->aff_bytes);
}

/* The three entry points of each group: host bases, resident bases (rb:
 * their device pointer and count), device bases and scalars. */
static czk_err msm_host(czk_gpu *g, const msm_group *G, void *r, const void *bases, const czk_fr *scalars, size_t n,
                        const czk_bitmap *density, char *msg, size_t msglen) {
    size_t nset = 0;
    if (!g) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = check_args(r, bases, scalars, n, density, &nset, msg, msglen);
    if (e == CZK_OK && nset == 0) G->set_inf(r);
    if (e == CZK_OK && nset > 0) {
        void *db = NULL;
        e = bases_upload(g, G, bases, nset, &db, msg, msglen);
        if (e == CZK_OK) e = msm_core_host(g, G, r, db, scalars, n, density, nset, msg, msglen);
        bases_free(g, G, db, nset);
    }
    return e;
}

static czk_err msm_resident(czk_gpu *g, const msm_group *G, void *r, const msm_bases *rb, const czk_fr *scalars,
                            size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    size_t nset = 0;
    if (!g || !rb || !rb->p || rb->g != g) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = check_args(r, rb->p, scalars, n, density, &nset, msg, msglen);
    if (e == CZK_OK && nset > rb->count)
        e = czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "GPU MSM: more scalars than resident bases");
    if (e == CZK_OK && nset == 0) G->set_inf(r);
    if (e == CZK_OK && nset > 0) {
        e = czk_gpu_msm_set_device(g, msg, msglen);
        if (e == CZK_OK) e = msm_core_host(g, G, r, rb->p, scalars, n, density, nset, msg, msglen);
    }
    return e;
}

static czk_err msm_dev(czk_gpu *g, const msm_group *G, void *r, const void *dev_bases, size_t n_bases,
                       const void *dev_scalars, size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    size_t nset = 0;
    if (!g) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    czk_err e = check_args(r, dev_bases, dev_scalars, n, density, &nset, msg, msglen);
    if (e == CZK_OK && nset > n_bases)
        e = czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "GPU MSM: more scalars than device bases");
    if (e == CZK_OK && nset == 0) G->set_inf(r);
    if (e == CZK_OK && nset > 0) {
        e = czk_gpu_msm_set_device(g, msg, msglen);
        if (e == CZK_OK) e = msm_core(g, G, r, dev_bases, dev_scalars, 0, n, density, nset, msg, msglen);
    }
    return e;
}

/* Resident bases: count affine points of the group G uploaded into a new
 * *out (NULL on error). */
static czk_err msm_bases_make(czk_gpu *g, const msm_group *G, const void *bases, size_t count, msm_bases **out,
                              char *msg, size_t msglen) {
    if (!out) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    *out = NULL;
    if (!g || !bases || count == 0) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    msm_bases *b = calloc(1, sizeof *b);
    if (!b) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    czk_err e = bases_upload(g, G, bases, count, &b->p, msg, msglen);
    if (e != CZK_OK) {
        free(b);
        return e;
    }
    b->g = g;
    b->count = count;
    *out = b;
    return CZK_OK;
}

static void msm_bases_free(const msm_group *G, msm_bases *b) {
    if (!b) return;
    bases_free(b->g, G, b->p, b->count);
    free(b);
}

/* The public entry points of both groups over the generic bodies above.
 * A handle is allocated as an msm_bases, the first (only) member of the
 * public struct, so that its pointer converts to the handle's (C11
 * 6.7.2.1p15) and back. */
#define HANDLE_BASES(h) ((h) ? &(h)->b : NULL)

czk_err czk_gpu_msm_g1(czk_gpu *g, czk_g1 *r, const czk_g1_affine *bases, const czk_fr *scalars, size_t n,
                       const czk_bitmap *density, char *msg, size_t msglen) {
    return msm_host(g, &GROUP_G1, r, bases, scalars, n, density, msg, msglen);
}
czk_err czk_gpu_msm_g2(czk_gpu *g, czk_g2 *r, const czk_g2_affine *bases, const czk_fr *scalars, size_t n,
                       const czk_bitmap *density, char *msg, size_t msglen) {
    return msm_host(g, &GROUP_G2, r, bases, scalars, n, density, msg, msglen);
}

czk_err czk_gpu_msm_g1_resident(czk_gpu *g, czk_g1 *r, const czk_gpu_g1_bases *bases, const czk_fr *scalars,
                                size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    return msm_resident(g, &GROUP_G1, r, HANDLE_BASES(bases), scalars, n, density, msg, msglen);
}
czk_err czk_gpu_msm_g2_resident(czk_gpu *g, czk_g2 *r, const czk_gpu_g2_bases *bases, const czk_fr *scalars,
                                size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    return msm_resident(g, &GROUP_G2, r, HANDLE_BASES(bases), scalars, n, density, msg, msglen);
}

czk_err czk_gpu_msm_g1_dev(czk_gpu *g, czk_g1 *r, const void *dev_bases, size_t n_bases, const void *dev_scalars,
                           size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    return msm_dev(g, &GROUP_G1, r, dev_bases, n_bases, dev_scalars, n, density, msg, msglen);
}
czk_err czk_gpu_msm_g2_dev(czk_gpu *g, czk_g2 *r, const void *dev_bases, size_t n_bases, const void *dev_scalars,
                           size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    return msm_dev(g, &GROUP_G2, r, dev_bases, n_bases, dev_scalars, n, density, msg, msglen);
}

czk_err czk_gpu_g1_bases_upload(czk_gpu *g, const czk_g1_affine *bases, size_t count, czk_gpu_g1_bases **out,
                                char *msg, size_t msglen) {
    msm_bases *b = NULL;
    const czk_err e = msm_bases_make(g, &GROUP_G1, bases, count, out ? &b : NULL, msg, msglen);
    if (out) *out = (czk_gpu_g1_bases *)b;
    return e;
}
czk_err czk_gpu_g2_bases_upload(czk_gpu *g, const czk_g2_affine *bases, size_t count, czk_gpu_g2_bases **out,
                                char *msg, size_t msglen) {
    msm_bases *b = NULL;
    const czk_err e = msm_bases_make(g, &GROUP_G2, bases, count, out ? &b : NULL, msg, msglen);
    if (out) *out = (czk_gpu_g2_bases *)b;
    return e;
}

/* A handle over bases already on g's device (params_load.c): p holds
 * count points, allocated with czk_gpu_dev_alloc; the handle takes it over. */
static czk_err msm_bases_adopt(czk_gpu *g, void *p, size_t count, msm_bases **out, char *msg, size_t msglen) {
    *out = NULL;
    if (!g || !p || count == 0) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    msm_bases *b = calloc(1, sizeof *b);
    if (!b) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    *b = (msm_bases){g, p, count};
    *out = b;
    return CZK_OK;
}
czk_err czk_gpu_g1_bases_adopt(czk_gpu *g, void *p, size_t count, czk_gpu_g1_bases **out, char *msg, size_t msglen) {
    msm_bases *b = NULL;
    const czk_err e = msm_bases_adopt(g, p, count, &b, msg, msglen);
    *out = (czk_gpu_g1_bases *)b;
    return e;
}
czk_err czk_gpu_g2_bases_adopt(czk_gpu *g, void *p, size_t count, czk_gpu_g2_bases **out, char *msg, size_t msglen) {
    msm_bases *b = NULL;
    const czk_err e = msm_bases_adopt(g, p, count, &b, msg, msglen);
    *out = (czk_gpu_g2_bases *)b;
    return e;
}

void czk_gpu_g1_bases_free(czk_gpu_g1_bases *b) { msm_bases_free(&GROUP_G1, HANDLE_BASES(b)); }
void czk_gpu_g2_bases_free(czk_gpu_g2_bases *b) { msm_bases_free(&GROUP_G2, HANDLE_BASES(b)); }

const void *czk_gpu_g1_bases_ptr(const czk_gpu_g1_bases *b) { return b ? b->b.p : NULL; }
const void *czk_gpu_g2_bases_ptr(const czk_gpu_g2_bases *b) { return b ? b->b.p : NULL; }
