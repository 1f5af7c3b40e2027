/* czk — private to the GPU MSM's host files (gpu_msm.c: the run and the
 * entry points; msm_scalars.c: the scalars' prep and compaction): the
 * profile, the device buffers of one call, the prepared scalars. C only. */
#ifndef CZK_GPU_MSM_HOST_H
#define CZK_GPU_MSM_HOST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/gpu.h"
#include "gpu_err.h"
#include "gpu_internal.h"

/* CZK_GPU_MSM_PROFILE=1: each stage is waited for and its time printed to
 * stderr (for tuning; it slows the call). */
enum { P_PREP, P_COMPACT, P_ONES, P_SORT, P_PAIRS, P_CHUNKS, P_FIX, P_SUMS, P_HOST, P_COUNT };
typedef struct {
    int on;
    double t0, acc[P_COUNT];
} msm_prof;
static inline double prof_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static inline void prof_start(msm_prof *prof) {
    memset(prof, 0, sizeof *prof);
    const char *penv = getenv("CZK_GPU_MSM_PROFILE");
    prof->on = penv && penv[0] == '1';
    prof->t0 = prof_now();
}

static inline void prof_mark(msm_prof *p, int stage, cudaStream_t st) {
    if (!p->on) return;
    cudaStreamSynchronize(st);
    double t = prof_now();
    p->acc[stage] += t - p->t0;
    p->t0 = t;
}

enum { B_SCALARS, B_WORDS, B_PREFIX, B_SCANTEMP, B_SCAL, B_CLS, B_CNT, B_SELTEMP, B_ONESIDX, B_BIGIDX, B_SCALBIG, B_KIN,
       B_KOUT, B_VIN, B_VOUT, B_TEMP, B_PART, B_BUCK, B_SEG, B_ONES0, B_ONES1, B_JAC, B_PARTS, B_PARTS2, B_KOUT2, B_VOUT2,
       B_RANGE, B_PTS, B_PSCR, B_COUNT };

typedef struct {
    czk_gpu *g;
    void *p[B_COUNT];
    size_t bytes[B_COUNT];
} msm_bufs;

static inline czk_err buf_alloc(msm_bufs *b, int k, size_t bytes, const char *what, char *msg, size_t msglen) {
    czk_err e = (czk_err)czk_gpu_dev_alloc(b->g, &b->p[k], bytes, what, msg, msglen);
    if (e == CZK_OK) b->bytes[k] = bytes;
    return e;
}

static inline void buf_free(msm_bufs *b, int k) {
    czk_gpu_dev_free(b->g, b->p[k], b->bytes[k]);
    b->p[k] = NULL;
    b->bytes[k] = 0;
}

/* e = call (a czk_err); on error to out */
#define CKE(call)                  \
    do {                           \
        e = (call);                \
        if (e != CZK_OK) goto out; \
    } while (0)

/* Prepared scalars: a call's prep and compaction, kept for every MSM over
 * the same scalars and density (B in G1 and in G2). b holds B_SCAL or
 * B_SCALBIG, B_ONESIDX and B_BIGIDX; scal: the big scalars' canonical
 * values, gathered (mbig of them) or by base index (nset, read through
 * bidx when gather); bidx NULL when every scalar is big. */
struct czk_gpu_msm_scalars {
    msm_bufs b;
    size_t n, nset, mones, mbig;
    int gather;
    const void *scal;
    const uint32_t *bidx;
    double t_prep, t_compact; /* profiled (ms), shown by the first MSM */
    int shown;
};

/* Prep and compaction of n device scalars (msm_scalars.c, which says how). */
czk_err czk_gpu_msm_scalars_prep(czk_gpu *g, const void *dscalars, size_t scal_bytes, size_t n,
                                 const czk_bitmap *density, const czk_gpu_density *dd, size_t nset,
                                 czk_gpu_msm_scalars *sc, msm_prof *prof, char *msg, size_t msglen);
/* Frees the buffers of sc (not sc). */
void czk_gpu_msm_scalars_release(czk_gpu_msm_scalars *sc);
/* cudaSetDevice(g's ordinal) as a czk_err. */
czk_err czk_gpu_msm_set_device(const czk_gpu *g, char *msg, size_t msglen);

#endif
