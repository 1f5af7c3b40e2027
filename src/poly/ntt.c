/* czk — the number-theoretic transform over Fr (see include/czk/poly.h).
 *
 * Structure. The kernel is an in-place radix-2 decimation-in-frequency (DIF)
 * transform, natural order in and bit-reversed out, on at most 2^leaf_log
 * contiguous points, with per-stage twiddle tables (stage h: ω_{2h}^j, j < h).
 * Its transpose is the decimation-in-time (DIT) kernel, bit-reversed in and
 * natural out, with the same tables.
 *
 * Larger transforms are four-step levels: N = R·C points viewed as R rows of
 * C contiguous points, t = m·C + lo. A DIF level runs
 *   1. for each column lo: an R-point DIF over m (columns are gathered, B at
 *      a time, into per-thread scratch so the kernel works in cache);
 *   2. multiplies position (ρ, lo) by ω_N^(lo·rev_R(ρ));
 *   3. an in-place C-point DIF of each row (a leaf or, when C is still larger
 *      than the leaf, another level).
 * The result is the full N-point DIF in bit-reversed order: position ρ·C + κ
 * holds X[rev_C(κ)·R + rev_R(ρ)] = X[rev_N(ρ·C + κ)]. A DIT level is the same
 * operators transposed and in reverse order: rows, twiddles, columns.
 *
 * Every value is an exact field element, so results do not depend on the
 * order of operations or the thread count. Columns (step 1-2) and rows
 * (step 3) are independent and spread over the pool. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "czk/mem.h"
#include "czk/poly.h"
#include "ntt_internal.h"

/* Scratch per column batch: at most 2^16 points (2 MiB), at least 2 columns
 * (a cache line), at most 16 (512 bytes of each row per visit). */
#define COLUMN_SCRATCH_LOG 16
#define BATCH_LOG_MAX 4

static _Atomic bool test_no_scratch;

void czk_poly_test_no_scratch(bool on) { atomic_store(&test_no_scratch, on); }

/* ---- kernels ------------------------------------------------------------ */

/* In-place 2^lg-point DIF, natural in, bit-reversed out. (n/2)·lg
 * butterflies, a multiplication in each except j = 0 of every stage. */
static void leaf_dif(czk_fr *x, unsigned lg, const czk_fr *tw) {
    size_t n = (size_t)1 << lg;
    for (size_t h = n >> 1; h >= 1; h >>= 1) {
        const czk_fr *w = tw + h - 1;
        for (size_t b = 0; b < n; b += 2 * h) {
            czk_fr *u = x + b, *v = x + b + h;
            czk_fr t;
            poly_fr_sub(&t, &u[0], &v[0]);
            poly_fr_add(&u[0], &u[0], &v[0]);
            v[0] = t;
            for (size_t j = 1; j < h; j++) {
                poly_fr_sub(&t, &u[j], &v[j]);
                poly_fr_add(&u[j], &u[j], &v[j]);
                czk_fr_mul(&v[j], &t, &w[j]);
            }
        }
    }
}

/* The transpose of leaf_dif: bit-reversed in, natural out. */
static void leaf_dit(czk_fr *x, unsigned lg, const czk_fr *tw) {
    size_t n = (size_t)1 << lg;
    for (size_t h = 1; h < n; h <<= 1) {
        const czk_fr *w = tw + h - 1;
        for (size_t b = 0; b < n; b += 2 * h) {
            czk_fr *u = x + b, *v = x + b + h;
            czk_fr t = v[0];
            poly_fr_sub(&v[0], &u[0], &t);
            poly_fr_add(&u[0], &u[0], &t);
            for (size_t j = 1; j < h; j++) {
                czk_fr_mul(&t, &v[j], &w[j]);
                poly_fr_sub(&v[j], &u[j], &t);
                poly_fr_add(&u[j], &u[j], &t);
            }
        }
    }
}

/* ---- scaling hooks -------------------------------------------------------- */

/* x[i] *= factor(p0 + i), i < len: 2 multiplications per point with tables
 * (1 with a constant), plus one per run of equal hi. */
static void scale_run(const poly_scale *sc, czk_fr *x, size_t p0, size_t len) {
    if (!sc->hi) {
        for (size_t i = 0; i < len; i++) czk_fr_mul(&x[i], &x[i], &sc->s);
        return;
    }
    size_t mask = ((size_t)1 << sc->lb) - 1;
    size_t i = 0;
    while (i < len) {
        size_t p = p0 + i, lo = p & mask;
        size_t run = mask + 1 - lo;
        if (run > len - i) run = len - i;
        czk_fr t = sc->hi[p >> sc->lb];
        if (sc->has_s) czk_fr_mul(&t, &t, &sc->s);
        for (size_t k = 0; k < run; k++) {
            czk_fr f;
            czk_fr_mul(&f, &t, &sc->lo[lo + k]);
            czk_fr_mul(&x[i + k], &x[i + k], &f);
        }
        i += run;
    }
}

static void scale_one(const poly_scale *sc, czk_fr *x, size_t p) { scale_run(sc, x, p, 1); }

/* ---- four-step levels ----------------------------------------------------- */

typedef struct {
    unsigned leaf;
    const czk_fr *tw;    /* stage tables, forward or inverse */
    const czk_fr *roots; /* roots[k] = ω_{2^k}^(±1) */
    const poly_scale *post;
} plan;

static unsigned batch_log(unsigned lg_rows, unsigned lg_cols) {
    int b = COLUMN_SCRATCH_LOG - (int)lg_rows;
    if (b > BATCH_LOG_MAX) b = BATCH_LOG_MAX;
    if (b < 1) b = 1;
    if ((unsigned)b > lg_cols) b = (int)lg_cols;
    return (unsigned)b;
}

/* Scratch points one thread needs for a 2^lg transform with leaf bound
 * `limit` (0 for a leaf). */
static size_t scratch_points(unsigned lg, unsigned limit, unsigned leaf) {
    if (lg <= limit) return 0;
    unsigned row = poly_split_row(lg, limit), col = lg - row;
    size_t mine = (size_t)1 << (col + batch_log(col, row));
    size_t inner = scratch_points(row, leaf + POLY_ROW_SLACK, leaf);
    return mine > inner ? mine : inner;
}

/* Multiplies gathered column c (rows in bit-reversed order) by ω_N^(lo·k1)
 * at row rev(k1), for lo = lo0 + c, c < B: R - 1 multiplications for the
 * factors and R - 1 for applying them, per column. */
static void twiddle_columns(const plan *pl, czk_fr *s, unsigned lg, unsigned lg_rows, unsigned blog,
                            size_t lo0) {
    size_t R = (size_t)1 << lg_rows, B = (size_t)1 << blog;
    const czk_fr *wN = &pl->roots[lg];
    czk_fr step;
    uint64_t e = (uint64_t)lo0;
    czk_fr_pow(&step, wN, &e, 1);
    for (size_t c = 0; c < B; c++) {
        if (lo0 + c != 0) {
            czk_fr *col = s + c * R, w = step;
            for (size_t k1 = 1; k1 < R; k1++) {
                czk_fr *y = &col[poly_bitrev(k1, lg_rows)];
                czk_fr_mul(y, y, &w);
                if (k1 + 1 < R) czk_fr_mul(&w, &w, &step);
            }
        }
        czk_fr_mul(&step, &step, wN);
    }
}

/* Steps 1-2 (DIF) or 2-3 reversed (DIT) of one batch of B adjacent columns of
 * the 2^lg-point level at x (absolute position base); s holds R·B points. */
static void column_batch(const plan *pl, bool dit, czk_fr *x, unsigned lg, unsigned lg_rows,
                         size_t base, const poly_scale *pre, size_t batch, czk_fr *s) {
    unsigned lg_cols = lg - lg_rows, blog = batch_log(lg_rows, lg_cols);
    size_t R = (size_t)1 << lg_rows, C = (size_t)1 << lg_cols, B = (size_t)1 << blog;
    size_t lo0 = batch << blog;
    for (size_t m = 0; m < R; m++) {
        const czk_fr *src = x + m * C + lo0;
        for (size_t c = 0; c < B; c++) s[c * R + m] = src[c];
    }
    if (pre) {
        for (size_t c = 0; c < B; c++)
            for (size_t m = 0; m < R; m++) scale_one(pre, &s[c * R + m], base + m * C + lo0 + c);
    }
    if (dit) {
        twiddle_columns(pl, s, lg, lg_rows, blog, lo0);
        for (size_t c = 0; c < B; c++) leaf_dit(s + c * R, lg_rows, pl->tw);
    } else {
        for (size_t c = 0; c < B; c++) leaf_dif(s + c * R, lg_rows, pl->tw);
        twiddle_columns(pl, s, lg, lg_rows, blog, lo0);
    }
    for (size_t m = 0; m < R; m++) {
        czk_fr *dst = x + m * C + lo0;
        for (size_t c = 0; c < B; c++) dst[c] = s[c * R + m];
    }
}

/* A whole 2^lg-point transform with leaf bound `limit` on one thread; s holds
 * scratch_points(lg, limit) points. */
static void transform_serial(const plan *pl, bool dit, czk_fr *x, unsigned lg, unsigned limit,
                             size_t base, const poly_scale *pre, czk_fr *s) {
    if (lg <= limit) {
        size_t n = (size_t)1 << lg;
        if (pre) scale_run(pre, x, base, n);
        if (dit) leaf_dit(x, lg, pl->tw);
        else leaf_dif(x, lg, pl->tw);
        if (pl->post) scale_run(pl->post, x, base, n);
        return;
    }
    unsigned row = poly_split_row(lg, limit), col = lg - row;
    unsigned row_limit = pl->leaf + POLY_ROW_SLACK;
    size_t batches = ((size_t)1 << row) >> batch_log(col, row);
    size_t rows = (size_t)1 << col;
    if (!dit)
        for (size_t b = 0; b < batches; b++) column_batch(pl, false, x, lg, col, base, pre, b, s);
    for (size_t r = 0; r < rows; r++)
        transform_serial(pl, dit, x + (r << row), row, row_limit, base + (r << row), dit ? pre : NULL,
                         s);
    if (dit)
        for (size_t b = 0; b < batches; b++) column_batch(pl, true, x, lg, col, base, NULL, b, s);
}

typedef struct {
    const plan *pl;
    bool dit;
    czk_fr *x;
    unsigned lg, row, col;
    const poly_scale *pre;
    czk_fr *scratch;
    size_t slot_points;
} level_job;

static void columns_task(void *ctx, size_t b, size_t e, int worker) {
    const level_job *j = ctx;
    czk_fr *s = j->scratch + (size_t)worker * j->slot_points;
    for (size_t i = b; i < e; i++)
        column_batch(j->pl, j->dit, j->x, j->lg, j->col, 0, j->dit ? NULL : j->pre, i, s);
}

static void rows_task(void *ctx, size_t b, size_t e, int worker) {
    const level_job *j = ctx;
    czk_fr *s = j->scratch + (size_t)worker * j->slot_points;
    for (size_t r = b; r < e; r++)
        transform_serial(j->pl, j->dit, j->x + (r << j->row), j->row, j->pl->leaf + POLY_ROW_SLACK,
                         r << j->row, j->dit ? j->pre : NULL, s);
}

/* The transform of the whole domain on the pool; pre and post are applied
 * inside its first and last passes. post is for DIF only (a DIT's last pass
 * is a column pass, which has no hook): it is ignored for a DIT. */
static void transform(const czk_domain *d, czk_fr *a, bool inverse, bool dit, const poly_scale *pre,
                      const poly_scale *post, czk_pool *pool) {
    if (dit) post = NULL;
    plan pl = {d->leaf_log, inverse ? d->tw_inv : d->tw_fwd, inverse ? d->root_inv : d->root, post};
    unsigned lg = d->log_n;
    if (lg <= d->leaf_log) {
        transform_serial(&pl, dit, a, lg, d->leaf_log, 0, pre, NULL);
        return;
    }
    level_job j = {&pl, dit, a, lg, poly_split_row(lg, d->leaf_log), 0, pre, NULL, 0};
    j.col = lg - j.row;
    j.slot_points = scratch_points(lg, d->leaf_log, d->leaf_log);
    size_t slots = (size_t)czk_pool_slots(pool);
    if (!atomic_load(&test_no_scratch))
        j.scratch = czk_mem_alloc(slots * j.slot_points * sizeof(czk_fr), CZK_MEM_AUX);
    if (!j.scratch) {
        /* no memory for the column scratch: the serial in-place transform */
        if (pre) scale_run(pre, a, 0, d->n);
        if (dit) czk_poly_dit_simple(a, lg, &pl.roots[lg]);
        else czk_poly_dif_simple(a, lg, &pl.roots[lg]);
        if (post) scale_run(post, a, 0, d->n);
        return;
    }
    size_t batches = ((size_t)1 << j.row) >> batch_log(j.col, j.row);
    size_t rows = (size_t)1 << j.col;
    if (!dit) czk_pool_run(pool, batches, 0, columns_task, &j);
    czk_pool_run(pool, rows, 0, rows_task, &j);
    if (dit) czk_pool_run(pool, batches, 0, columns_task, &j);
    czk_mem_free(j.scratch);
}

/* ---- the simple reference ------------------------------------------------- */

void czk_poly_dif_simple(czk_fr *a, unsigned log_n, const czk_fr *w) {
    size_t n = (size_t)1 << log_n;
    czk_fr wm = *w; /* ω_{2h} for the current stage */
    for (size_t h = n >> 1; h >= 1; h >>= 1) {
        for (size_t b = 0; b < n; b += 2 * h) {
            czk_fr wj = CZK_FR_ONE;
            for (size_t j = 0; j < h; j++) {
                czk_fr t;
                czk_fr_sub(&t, &a[b + j], &a[b + j + h]);
                czk_fr_add(&a[b + j], &a[b + j], &a[b + j + h]);
                czk_fr_mul(&a[b + j + h], &t, &wj);
                czk_fr_mul(&wj, &wj, &wm);
            }
        }
        czk_fr_sqr(&wm, &wm);
    }
}

void czk_poly_dit_simple(czk_fr *a, unsigned log_n, const czk_fr *w) {
    size_t n = (size_t)1 << log_n;
    czk_fr roots[CZK_DOMAIN_MAX_LOG + 1]; /* roots[k] = ω_{2^k} */
    if (log_n > CZK_DOMAIN_MAX_LOG) return;
    roots[log_n] = *w;
    for (unsigned k = log_n; k > 0; k--) czk_fr_sqr(&roots[k - 1], &roots[k]);
    unsigned s = 1;
    for (size_t h = 1; h < n; h <<= 1, s++) {
        for (size_t b = 0; b < n; b += 2 * h) {
            czk_fr wj = CZK_FR_ONE;
            for (size_t j = 0; j < h; j++) {
                czk_fr t;
                czk_fr_mul(&t, &a[b + j + h], &wj);
                czk_fr_sub(&a[b + j + h], &a[b + j], &t);
                czk_fr_add(&a[b + j], &a[b + j], &t);
                czk_fr_mul(&wj, &wj, &roots[s]);
            }
        }
    }
}

/* ---- bit reversal --------------------------------------------------------- */

/* Tiles: i = (a, b, c) with a the top TILE_LOG bits, c the low TILE_LOG bits
 * and b the middle ones; rev(i) = (rev c, rev b, rev a). The 2^TILE_LOG rows
 * of 2^TILE_LOG contiguous points with a given b (a tile) trade places with
 * the tile of rev b, transposed and reversed on both axes: each tile is
 * copied out (contiguous rows of 512 bytes) and written back, so every point
 * is read and written once in whole cache lines. */
#define TILE_LOG 4
#define TILE ((size_t)1 << TILE_LOG)

typedef struct {
    czk_fr *a;
    unsigned bits;
} bitrev_job;

static void bitrev_simple_task(void *ctx, size_t b, size_t e, int worker) {
    (void)worker;
    const bitrev_job *j = ctx;
    for (size_t i = b; i < e; i++) {
        size_t r = poly_bitrev(i, j->bits);
        if (i < r) {
            czk_fr t = j->a[i];
            j->a[i] = j->a[r];
            j->a[r] = t;
        }
    }
}

static void tile_load(czk_fr t[TILE][TILE], const czk_fr *x, size_t b, unsigned bits) {
    for (size_t a = 0; a < TILE; a++)
        memcpy(t[a], x + ((a << (bits - TILE_LOG)) | (b << TILE_LOG)), TILE * sizeof(czk_fr));
}

/* Writes tile b from the points of tile rev b held in t. */
static void tile_store_from(czk_fr *x, size_t b, unsigned bits, czk_fr t[TILE][TILE]) {
    for (size_t a = 0; a < TILE; a++) {
        czk_fr *row = x + ((a << (bits - TILE_LOG)) | (b << TILE_LOG));
        size_t ra = poly_bitrev(a, TILE_LOG);
        for (size_t c = 0; c < TILE; c++) row[c] = t[poly_bitrev(c, TILE_LOG)][ra];
    }
}

static void bitrev_tiles_task(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    const bitrev_job *j = ctx;
    unsigned mid = j->bits - 2 * TILE_LOG;
    czk_fr t1[TILE][TILE], t2[TILE][TILE];
    for (size_t b = begin; b < end; b++) {
        size_t rb = poly_bitrev(b, mid);
        if (rb < b) continue; /* done with its partner */
        tile_load(t1, j->a, b, j->bits);
        if (rb != b) {
            tile_load(t2, j->a, rb, j->bits);
            tile_store_from(j->a, rb, j->bits, t1);
            tile_store_from(j->a, b, j->bits, t2);
        } else {
            tile_store_from(j->a, b, j->bits, t1);
        }
    }
}

void czk_ntt_bitrev(czk_fr *a, unsigned log_n, czk_pool *pool) {
    if (!a || log_n < 2 || log_n > 63) return;
    bitrev_job j = {a, log_n};
    if (log_n < 2 * TILE_LOG + 2)
        czk_pool_run(pool, (size_t)1 << log_n, 0, bitrev_simple_task, &j);
    else
        czk_pool_run(pool, (size_t)1 << (log_n - 2 * TILE_LOG), 0, bitrev_tiles_task, &j);
}

/* ---- public transforms ---------------------------------------------------- */

void czk_poly_dif_scaled(const czk_domain *d, czk_fr *a, bool inverse, const poly_scale *pre,
                         const poly_scale *post, czk_pool *pool) {
    if (!d || !a || d->n == 0) return;
    transform(d, a, inverse, false, pre, post, pool);
}

void czk_ntt_dif(const czk_domain *d, czk_fr *a, bool inverse, czk_pool *pool) {
    czk_poly_dif_scaled(d, a, inverse, NULL, NULL, pool);
}

void czk_ntt_dit(const czk_domain *d, czk_fr *a, bool inverse, czk_pool *pool) {
    if (!d || !a || d->n == 0) return;
    transform(d, a, inverse, true, NULL, NULL, pool);
}

void czk_ntt(const czk_domain *d, czk_fr *a, czk_pool *pool) {
    if (!d || !a || d->n == 0) return;
    transform(d, a, false, false, NULL, NULL, pool);
    czk_ntt_bitrev(a, d->log_n, pool);
}

void czk_intt(const czk_domain *d, czk_fr *a, czk_pool *pool) {
    if (!d || !a || d->n == 0) return;
    poly_scale post = {NULL, NULL, 0, true, d->n_inv};
    transform(d, a, true, false, NULL, &post, pool);
    czk_ntt_bitrev(a, d->log_n, pool);
}

void czk_coset_ntt(const czk_domain *d, czk_fr *a, czk_pool *pool) {
    if (!d || !a || d->n == 0) return;
    poly_scale pre = {d->g_nat_hi, d->g_nat_lo, d->row_log, false, CZK_FR_ONE};
    transform(d, a, false, false, &pre, NULL, pool);
    czk_ntt_bitrev(a, d->log_n, pool);
}

void czk_coset_intt(const czk_domain *d, czk_fr *a, czk_pool *pool) {
    if (!d || !a || d->n == 0) return;
    poly_scale post = {d->gi_rev_hi, d->gi_rev_lo, d->row_log, true, d->n_inv};
    transform(d, a, true, false, NULL, &post, pool);
    czk_ntt_bitrev(a, d->log_n, pool);
}
