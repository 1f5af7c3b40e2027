/* czk — internal: the variable-base MSM (include/czk/msm.h), written once for
 * G1 and G2. Not a public header.
 *
 * The including file defines what xyzz.h needs, plus
 *   JAC_ADD(r, a, b), JAC_DBL(r, a), JAC_SET_INF(r)   Jacobian group law
 *   MSM_IS_G2                                          0 or 1 (window choice)
 * and gets the static function msm_run() used by its exported wrappers.
 *
 * Stages of one call:
 *   1. scan (parallel over index chunks): classify scalar i; write the
 *      canonical scalar to scal[rank(i)] (0 for scalars 0 and 1), sum the
 *      bases of scalars equal to one into a per-chunk XYZZ accumulator;
 *   2. Pippenger (parallel over tasks = window × point range): per task,
 *      2^(c-1) XYZZ buckets filled with mixed additions, then reduced by the
 *      running-sum trick (2 additions per bucket) to the window's sum;
 *   3. combine: Horner over windows (c doublings each) plus the ones' sum. */
#include <string.h>

#include "czk/bitmap.h"
#include "czk/mem.h"
#include "czk/msm.h"
#include "czk/pool.h"
#include "xyzz.h"
#include "batch_affine.h"

/* ---- signed digits -------------------------------------------------------- */

/* Booth digit of window w for a canonical 4-limb scalar k < 2^255:
 * d = bits[cw, cw+c) + bit(cw-1) - 2^c·bit(cw+c-1), |d| <= 2^(c-1), and
 * Σ_w d_w·2^(cw) = k provided c·W >= 256 (the top window's top bit is 0).
 * Windows are independent: no carry runs between them. */
static inline int booth_digit(const uint64_t k[4], int w, int c) {
    int lo = c * w - 1;
    uint64_t v;
    if (lo < 0) {
        v = k[0] << 1;
    } else {
        int word = lo >> 6, sh = lo & 63;
        v = k[word] >> sh;
        if (sh + c + 1 > 64 && word < 3) v |= k[word + 1] << (64 - sh);
    }
    v &= (2ULL << c) - 1; /* c + 1 bits: borrow-in at bit 0 */
    int top = (int)(v >> c);
    return (int)(v >> 1) + (int)(v & 1) - (top << c);
}

/* ---- stage 1: scan ---------------------------------------------------------- */

typedef struct {
    const AFF *bases;
    const czk_fr *scalars;
    const czk_bitmap *density;
    size_t n, grain;
    bool split01;
    uint64_t (*scal)[4]; /* canonical scalars by base index */
    xyzz *ones;          /* per chunk */
    size_t *rest;        /* per chunk: scalars other than 0 and 1 */
} scan_ctx;

static void scan_task(void *vctx, size_t begin, size_t end, int worker) {
    (void)worker;
    scan_ctx *cx = vctx;
    size_t chunk = begin / cx->grain;
    const czk_bitmap *d = cx->density;
    size_t j = d ? czk_bitmap_rank(d, begin) : begin;
    size_t rest = 0;
    xyzz acc;
    xyzz_set_inf(&acc);
    for (size_t i = begin; i < end; i++) {
        if (d && !czk_bitmap_get(d, i)) continue;
        const czk_fr *s = &cx->scalars[i];
        uint64_t *out = cx->scal[j];
        if ((s->l[0] | s->l[1] | s->l[2] | s->l[3]) == 0) {
            out[0] = out[1] = out[2] = out[3] = 0;
        } else if (cx->split01 && s->l[0] == CZK_FR_ONE.l[0] && s->l[1] == CZK_FR_ONE.l[1] &&
                   s->l[2] == CZK_FR_ONE.l[2] && s->l[3] == CZK_FR_ONE.l[3]) {
            out[0] = out[1] = out[2] = out[3] = 0;
            const AFF *b = &cx->bases[j];
            if (!aff_xy_is_inf(b)) xyzz_add_xy(&acc, &b->x, &b->y, false);
        } else {
            czk_fr_to_canonical(out, s);
            rest++;
        }
        j++;
    }
    cx->ones[chunk] = acc;
    cx->rest[chunk] = rest;
}

/* ---- stage 2: buckets --------------------------------------------------------- */

typedef struct {
    const AFF *bases;
    const uint64_t (*scal)[4];
    size_t m;        /* number of bases / scalars */
    int c, ranges;   /* window bits, point ranges per window */
    bool batch;      /* affine buckets with batched additions (batch_affine.h) */
    uint8_t *mem;    /* per worker: `stride` bytes of bucket state */
    size_t stride;
    JAC *sums;       /* [window][range] */
} bucket_ctx;

static inline void bucket_add(xyzz *buckets, ba_state *ba, const AFF *b, int d) {
    if (aff_xy_is_inf(b)) return;
    size_t k = (size_t)(d > 0 ? d : -d) - 1;
    if (ba) ba_add(ba, k, b, d < 0);
    else xyzz_add_xy(&buckets[k], &b->x, &b->y, d < 0);
}

/* One window over one point range: one bucket addition per non-zero digit
 * (batched affine, 6M, or XYZZ mixed, 8M + 2S), then about 2^c additions for
 * the reduction. The next point's bucket and base are prefetched while the
 * current one is added. */
static void bucket_task(void *vctx, size_t begin, size_t end, int worker) {
    bucket_ctx *cx = vctx;
    int c = cx->c;
    size_t nb = (size_t)1 << (c - 1);
    uint8_t *mem = cx->mem + (size_t)worker * cx->stride;
    xyzz *bk = (xyzz *)mem;
    ba_state st, *ba = cx->batch ? &st : NULL;
    for (size_t t = begin; t < end; t++) {
        int w = (int)(t / (size_t)cx->ranges), rg = (int)(t % (size_t)cx->ranges);
        size_t lo = cx->m * (size_t)rg / (size_t)cx->ranges;
        size_t hi = cx->m * (size_t)(rg + 1) / (size_t)cx->ranges;
        if (ba) ba_init(ba, mem, nb);
        else
            for (size_t i = 0; i < nb; i++) xyzz_set_inf(&bk[i]);

        /* pending: the last non-zero digit found, added once the next is found */
        size_t pj = 0;
        int pd = 0;
        for (size_t j = lo; j < hi; j++) {
            int d = booth_digit(cx->scal[j], w, c);
            if (d == 0) continue;
            size_t k = (size_t)(d > 0 ? d : -d) - 1;
            if (ba) __builtin_prefetch(&ba->acc[k]);
            else __builtin_prefetch(&bk[k]);
            __builtin_prefetch(&cx->bases[j]);
            if (pd) bucket_add(bk, ba, &cx->bases[pj], pd);
            pj = j;
            pd = d;
        }
        if (pd) bucket_add(bk, ba, &cx->bases[pj], pd);

        /* Σ_i (i+1)·B_i = Σ_k (Σ_{i>=k} B_i) */
        xyzz run, tot;
        if (ba) {
            ba_reduce(&tot, ba, nb);
        } else {
            xyzz_set_inf(&run);
            xyzz_set_inf(&tot);
            for (size_t i = nb; i-- > 0;) {
                xyzz_add(&run, &bk[i]);
                xyzz_add(&tot, &run);
            }
        }
        xyzz_to_jac(&cx->sums[t], &tot);
    }
}

/* Fewest buckets for which the batched affine path is used: with fewer, the
 * queue (nb / 16 additions) is too short to spread the inversion. */
#define MSM_BATCH_MIN_BUCKETS 256

/* ---- window choice and memory ------------------------------------------------- */

static int gcd_int(int a, int b) {
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static inline int windows_for(int c) { return (256 + c - 1) / c; }

/* Point ranges per window so that windows × ranges spreads evenly over the
 * threads (1 when the window count is a multiple of the thread count). */
static inline int ranges_for(int c, int threads, size_t m) {
    int w = windows_for(c);
    int r = threads / gcd_int(w, threads);
    while (r > 1 && m / (size_t)r < 64) r--;
    return r < 1 ? 1 : r;
}

/* ---- the whole MSM --------------------------------------------------------------- */

static czk_err msm_run(JAC *r, const AFF *bases, const czk_fr *scalars, size_t n,
                       const czk_bitmap *density, czk_pool *pool, const czk_msm_opts *opts) {
    czk_msm_opts o = {0, false, false};
    if (opts) o = *opts;
    if (!r || (n > 0 && (!bases || !scalars))) return CZK_ERR_INVALID_ARGUMENT;
    if (density && density->nbits < n) return CZK_ERR_INVALID_ARGUMENT;
    if (o.window < 0 || o.window > CZK_MSM_MAX_WINDOW) return CZK_ERR_INVALID_ARGUMENT;

    size_t nset = density ? (n ? czk_bitmap_rank(density, n) : 0) : n;
    if (nset == 0) {
        JAC_SET_INF(r);
        return CZK_OK;
    }
    int threads = czk_pool_slots(pool);
    czk_err err = CZK_ERR_NO_MEMORY;

    /* stage 1 */
    size_t nchunks = (size_t)threads * 8;
    size_t grain = (n + nchunks - 1) / nchunks;
    if (grain < 1024) grain = 1024;
    grain = (grain + 63) & ~(size_t)63;
    nchunks = (n + grain - 1) / grain;
    uint64_t (*scal)[4] = czk_mem_alloc(nset * 32, CZK_MEM_AUX);
    xyzz *ones = czk_mem_alloc(nchunks * sizeof(xyzz), CZK_MEM_AUX);
    size_t *rest = czk_mem_alloc(nchunks * sizeof(size_t), CZK_MEM_AUX);
    uint8_t *buckets = NULL;
    JAC *sums = NULL;
    if (!scal || !ones || !rest) goto out;
    scan_ctx sc = {bases, scalars, density, n, grain, !o.no_split01, scal, ones, rest};
    czk_pool_run(pool, n, grain, scan_task, &sc);
    size_t m = 0;
    xyzz one_sum;
    xyzz_set_inf(&one_sum);
    for (size_t k = 0; k < nchunks; k++) {
        m += rest[k];
        xyzz_add(&one_sum, &ones[k]);
    }

    JAC acc;
    JAC_SET_INF(&acc);
    if (m > 0) {
        /* stage 2 */
        int c = o.window ? o.window : czk_msm_window(m, threads, MSM_IS_G2);
        int nw = windows_for(c), nr = ranges_for(c, threads, nset);
        size_t nb = (size_t)1 << (c - 1);
        bool batch = !o.no_batch_affine && nb >= MSM_BATCH_MIN_BUCKETS;
        size_t stride = batch ? ba_bytes(nb) : BA_ALIGN(nb * sizeof(xyzz));
        buckets = czk_mem_alloc((size_t)threads * stride, CZK_MEM_AUX);
        sums = czk_mem_alloc((size_t)nw * (size_t)nr * sizeof(JAC), CZK_MEM_AUX);
        if (!buckets || !sums) goto out;
        bucket_ctx bc = {bases, (const uint64_t(*)[4])scal, nset, c, nr, batch, buckets, stride, sums};
        czk_pool_run(pool, (size_t)nw * (size_t)nr, 1, bucket_task, &bc);

        /* stage 3 */
        for (int w = nw - 1; w >= 0; w--) {
            if (w != nw - 1)
                for (int k = 0; k < c; k++) JAC_DBL(&acc, &acc);
            for (int k = 0; k < nr; k++) JAC_ADD(&acc, &acc, &sums[(size_t)w * (size_t)nr + (size_t)k]);
        }
    }
    JAC t;
    xyzz_to_jac(&t, &one_sum);
    JAC_ADD(&acc, &acc, &t);
    *r = acc;
    err = CZK_OK;
out:
    czk_mem_free(sums);
    czk_mem_free(buckets);
    czk_mem_free(rest);
    czk_mem_free(ones);
    czk_mem_free(scal);
    return err;
}
