/* czk — the GPU MSM's prepared scalars (gpu_internal.h): the prep kernel
 * (canonical scalars by base index, classed 0 / 1 / big and counted) and
 * the compaction by class, done once per call or once for several MSMs
 * over the same scalars (B in G1 and in G2). */
#include "msm_host.h"

czk_err czk_gpu_msm_set_device(const czk_gpu *g, char *msg, size_t msglen) {
    cudaError_t ce = cudaSetDevice(czk_gpu_ordinal(g));
    return ce == cudaSuccess ? CZK_OK : CZK_CUDA_ERR(ce, "cudaSetDevice");
}

void czk_gpu_msm_scalars_release(czk_gpu_msm_scalars *sc) {
    for (int k = 0; k < B_COUNT; k++) buf_free(&sc->b, k);
}

/* Prep and compaction of n device scalars (Montgomery czk_fr) into sc,
 * nset of them participating (checked; > 0; the device current): by the
 * device density dd, else by the host map density (its words uploaded and
 * their prefix counts made on the device), else all. When scal_bytes > 0
 * the call owns dscalars (scal_bytes allocated against g's cap) and frees
 * it after the prep kernel or on error. On error sc holds nothing.
 *
 * After prep, the scalars are compacted by class: the ones' base indices
 * (their sum: msm_ones_kernel, flat over the list) and, unless every
 * scalar is big (neither 0 nor 1), the big ones' indices; Pippenger runs
 * over the m_big big scalars only, its window chosen from m_big. With at
 * most half of them big, their canonical scalars are gathered into a dense
 * array (and the full one freed); else digits reads them through the index
 * list. */
czk_err czk_gpu_msm_scalars_prep(czk_gpu *g, const void *dscalars, size_t scal_bytes, size_t n,
                                 const czk_bitmap *density, const czk_gpu_density *dd, size_t nset,
                                 czk_gpu_msm_scalars *sc, msm_prof *prof, char *msg, size_t msglen) {
    memset(sc, 0, sizeof *sc);
    msm_bufs *b = &sc->b;
    b->g = g;
    sc->n = n;
    sc->nset = nset;
    if (scal_bytes) {
        b->p[B_SCALARS] = (void *)(uintptr_t)dscalars;
        b->bytes[B_SCALARS] = scal_bytes;
    }
    czk_err e = CZK_OK;
    cudaStream_t st = czk_gpu_stream(g);
    size_t mones = 0, mbig = 0;

    /* canonical scalars, their classes and counts */
    CKE(buf_alloc(b, B_SCAL, nset * sizeof(czk_fr), "the MSM scalars", msg, msglen));
    CKE(buf_alloc(b, B_CLS, nset, "the MSM scalars", msg, msglen));
    CKE(buf_alloc(b, B_CNT, 4 * sizeof(uint32_t), "the MSM scalars", msg, msglen));
    CZK_CUDA_CK_OUT(cudaMemsetAsync(b->p[B_CNT], 0, 4 * sizeof(uint32_t), st));
    const void *words = dd ? dd->words : NULL, *prefix = dd ? dd->prefix : NULL;
    if (!dd && density) { /* the words up, their prefix counts on the device */
        const size_t nw = (n + 63) / 64;
        size_t tb = 0;
        CKE(buf_alloc(b, B_WORDS, nw * 8, "the density map", msg, msglen));
        CKE(buf_alloc(b, B_PREFIX, nw * 8, "the density map", msg, msglen));
        CZK_CUDA_CK_OUT(cudaMemcpyAsync(b->p[B_WORDS], density->words, nw * 8, cudaMemcpyHostToDevice, st));
        CZK_CUDA_CK_OUT(czk_gpu_density_prefix(NULL, &tb, b->p[B_WORDS], nw, b->p[B_PREFIX], st));
        CKE(buf_alloc(b, B_SCANTEMP, tb ? tb : 1, "the density map", msg, msglen));
        CZK_CUDA_CK_OUT(czk_gpu_density_prefix(b->p[B_SCANTEMP], &tb, b->p[B_WORDS], nw, b->p[B_PREFIX], st));
        words = b->p[B_WORDS];
        prefix = b->p[B_PREFIX];
    }
    uint32_t cnt[2] = {0, 0};
    CZK_CUDA_CK_OUT(czk_gpu_launch_msm_prep(dscalars, n, words, prefix, b->p[B_SCAL], b->p[B_CLS], 1, b->p[B_CNT], st));
    CZK_CUDA_CK_OUT(cudaMemcpyAsync(cnt, b->p[B_CNT], sizeof cnt, cudaMemcpyDeviceToHost, st));
    CZK_CUDA_CK_OUT(cudaStreamSynchronize(st));
    prof_mark(prof, P_PREP, st);
    buf_free(b, B_SCALARS);
    buf_free(b, B_WORDS);
    buf_free(b, B_PREFIX);
    buf_free(b, B_SCANTEMP);
    mones = cnt[0];
    mbig = cnt[1];
    if (mones + mbig > nset) {
        e = czk_fail(msg, msglen, CZK_ERR_IO, "GPU MSM: inconsistent scalar counts");
        goto out;
    }
    /* compaction */
    const void *dscal = b->p[B_SCAL];
    const uint32_t *bidx = NULL;
    const int gather = mbig < nset && 2 * mbig > nset; /* digits reads scal[bidx[i]] */
    if (mones || (mbig && mbig < nset)) {
        size_t tb = 0;
        CZK_CUDA_CK_OUT(czk_gpu_msm_select(NULL, &tb, b->p[B_CLS], 1, NULL, NULL, nset, st));
        CKE(buf_alloc(b, B_SELTEMP, tb ? tb : 1, "the MSM select", msg, msglen));
        uint32_t *dcnt = b->p[B_CNT];
        if (mones) {
            size_t t = tb;
            CKE(buf_alloc(b, B_ONESIDX, mones * 4, "the MSM ones", msg, msglen));
            CZK_CUDA_CK_OUT(czk_gpu_msm_select(b->p[B_SELTEMP], &t, b->p[B_CLS], 1, b->p[B_ONESIDX], dcnt + 2, nset, st));
        }
        if (mbig && mbig < nset) {
            size_t t = tb;
            CKE(buf_alloc(b, B_BIGIDX, mbig * 4, "the MSM digits", msg, msglen));
            CZK_CUDA_CK_OUT(czk_gpu_msm_select(b->p[B_SELTEMP], &t, b->p[B_CLS], 2, b->p[B_BIGIDX], dcnt + 3, nset, st));
            bidx = b->p[B_BIGIDX];
            if (!gather) {
                CKE(buf_alloc(b, B_SCALBIG, mbig * sizeof(czk_fr), "the MSM scalars", msg, msglen));
                CZK_CUDA_CK_OUT(czk_gpu_launch_msm_gather(b->p[B_SCAL], bidx, mbig, b->p[B_SCALBIG], st));
            }
        }
        CZK_CUDA_CK_OUT(cudaStreamSynchronize(st));
        buf_free(b, B_SELTEMP);
        if (b->p[B_SCALBIG]) {
            buf_free(b, B_SCAL);
            dscal = b->p[B_SCALBIG];
        }
    }
    buf_free(b, B_CLS);
    if (!mbig) buf_free(b, B_SCAL);
    prof_mark(prof, P_COMPACT, st);
    sc->mones = mones;
    sc->mbig = mbig;
    sc->gather = gather;
    sc->scal = mbig ? dscal : NULL;
    sc->bidx = bidx;
out:
    if (e != CZK_OK) {
        cudaStreamSynchronize(st);
        (void)cudaGetLastError();
        czk_gpu_msm_scalars_release(sc);
    }
    return e;
}


/* ---- the entry points (gpu_internal.h) ---- */

czk_err czk_gpu_msm_scalars_make(czk_gpu *g, const void *dev_scalars, size_t n, const czk_gpu_density *dd,
                                 czk_gpu_msm_scalars **out, char *msg, size_t msglen) {
    if (!out) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    *out = NULL;
    if (!g || (n && !dev_scalars) || (dd && (dd->g != g || dd->n != n)))
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument");
    const size_t nset = dd ? dd->nset : n;
    if (nset >= ((size_t)1 << 31))
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "GPU MSM: 2^31 or more scalars");
    czk_gpu_msm_scalars *sc = calloc(1, sizeof *sc);
    if (!sc) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    sc->b.g = g;
    sc->n = n;
    czk_err e = CZK_OK;
    if (nset) {
        msm_prof prof;
        prof_start(&prof);
        e = czk_gpu_msm_set_device(g, msg, msglen);
        if (e == CZK_OK) e = czk_gpu_msm_scalars_prep(g, dev_scalars, 0, n, NULL, dd, nset, sc, &prof, msg, msglen);
        sc->t_prep = prof.acc[P_PREP];
        sc->t_compact = prof.acc[P_COMPACT];
    }
    if (e != CZK_OK) {
        free(sc);
        return e;
    }
    *out = sc;
    return CZK_OK;
}

size_t czk_gpu_msm_scalars_count(const czk_gpu_msm_scalars *sc) { return sc ? sc->nset : 0; }

void czk_gpu_msm_scalars_free(czk_gpu_msm_scalars *sc) {
    if (!sc) return;
    cudaSetDevice(czk_gpu_ordinal(sc->b.g));
    czk_gpu_msm_scalars_release(sc);
    free(sc);
}

