/* czk — the CUDA prover backend (include/czk/backend.h).
 *
 * start, under the device lock:
 *   bases of the params resident on the device (uploaded at the first
 *   partition, kept until forget; when they do not fit, uploaded for each
 *   MSM and freed after it);
 *   a, b, c staged through pinned memory, each freed on the host as soon as
 *   it is on the device, their transforms overlapping the next upload;
 *   H by NTTs on the device; the H MSM on the device-resident H, while a
 *   thread uploads the witness (once, through the pinned buffers);
 *   the L, A, B-in-G1 (and B-in-G2) MSMs on it.
 * An assignment with a compact R1CS instead of a, b, c: the R1CS resident
 * beside the bases (uploaded at its first start, keyed by its pointer,
 * dropped with the params by forget), the witness uploaded first, a, b, c
 * made from it by spmv.cu's kernels, then H and the MSMs as above (the
 * witness already there); where the R1CS does not fit, a, b, c are made
 * on the host before the lock (or, when the device turns out too full,
 * under it) and go as given ones.
 * finish: B in G2 on the CPU when so configured, then the assembly.
 *
 * The backend is shared by the engine's GPU workers: the per-device lock
 * serializes the device work of one device; everything else (checks, the
 * domain, the pending state, finish) runs outside it. A start that finds the
 * lock taken stages a, b, c to the device while it waits (prestage), once
 * the holder's own uploads are over: the copies overlap the other worker's
 * kernels instead of idling the GPU under the lock. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/backend.h"
#include "czk/gpu.h"
#include "czk/mem.h"
#include "czk/msm.h"
#include "czk/poly.h"
#include "gpu_err.h"
#include "gpu_internal.h"
#include "gpu_stage.h"
#include "params_load.h"

#define MAX_DEVICES 64
/* One lock per device ordinal for the whole process (GNU range initializer). */
static pthread_mutex_t device_locks[MAX_DEVICES] = {[0 ... MAX_DEVICES - 1] = PTHREAD_MUTEX_INITIALIZER};

/* The bases of one params on the device. */
typedef struct resident {
    const czk_params *params;
    czk_gpu_g1_bases *h, *l, *a, *b_g1;
    czk_gpu_g2_bases *b_g2;
    struct czk_params_device *dev; /* params loaded to the device: their host part (owned), matched by
                                      pointer as params are (params is NULL until a start binds it) */
    struct resident *next;
} resident;

/* A compact R1CS on the device, keyed by the host czk_r1cs_compact's
 * pointer; it goes with the params it was first proved with (forget). */
typedef struct dev_r1cs {
    const czk_r1cs_compact *key;
    const czk_params *params;
    const struct czk_params_device *pdev; /* params->device then */
    czk_gpu_r1cs *d;
    struct dev_r1cs *next;
} dev_r1cs;

typedef struct {
    czk_backend_cuda_config cfg;
    czk_gpu *gpu;
    dev_r1cs *r1cs;    /* as res: changed under the device lock and mu */
    bool abc_host;     /* CZK_GPU_ABC=host at open: a, b, c from an R1CS always on the host */
    bool abc_host_logged;
    pthread_mutex_t mu; /* domains, timings; with the device lock, changes of res */
    resident *res;      /* changed under the device lock and mu; read under either */
    czk_domain *dom[CZK_DOMAIN_MAX_LOG + 1];
    czk_backend_cuda_timings t;
    /* one start at a time stages while it waits for the device lock (so the
     * device holds at most one staged partition beside the running one),
     * with staging buffers kept from one time to the next */
    pthread_mutex_t stage_mu;
    czk_gpu_stager *stager; /* under stage_mu; made at the first prestage */
    bool uploads_done;       /* the device lock holder's own uploads are over (under mu) */
    pthread_cond_t holder_cv; /* signalled, under mu, when they end and when the lock is let go */
} cuda_backend;

typedef struct {
    const czk_params *params;
    czk_prove_sums sums;
    czk_fr r, s;
    /* B in G2 on the CPU: the witness (owned) and the b densities */
    czk_fr *input, *aux;
    size_t n_input, n_aux;
    const czk_bitmap *b_input_density, *b_aux_density;
} cuda_pending;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void resident_free(resident *r) {
    if (!r) return;
    czk_gpu_g1_bases_free(r->h);
    czk_gpu_g1_bases_free(r->l);
    czk_gpu_g1_bases_free(r->a);
    czk_gpu_g1_bases_free(r->b_g1);
    czk_gpu_g2_bases_free(r->b_g2);
    czk_params_device_free(r->dev);
    free(r);
}

/* Params loaded to the device (czk_backend_cuda_params_load): their entry,
 * which the load made, taken out of the list and bound to p (the czk_params
 * may have moved since: the engine keeps its own copy); the caller links
 * it again. Under the device lock. */
static czk_err resident_adopt(cuda_backend *cb, const czk_params *p, resident **out, char *msg, size_t msglen) {
    pthread_mutex_lock(&cb->mu);
    resident **pr = &cb->res;
    while (*pr && (*pr)->dev != p->device) pr = &(*pr)->next;
    resident *r = *pr;
    if (r) *pr = r->next;
    pthread_mutex_unlock(&cb->mu);
    if (!r)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT,
                        "these parameters' queries were loaded to a GPU by another backend, or forgotten since: "
                        "load them again (czk_backend_cuda_params_load)");
    r->params = p;
    r->next = NULL;
    *out = r;
    return CZK_OK;
}

/* Uploads the queries of params (b_g2 only when B in G2 runs on the GPU).
 * Empty queries stay NULL. */
static czk_err resident_make(cuda_backend *cb, const czk_params *p, resident **out, char *msg, size_t msglen) {
    *out = NULL;
    if (p->device) return resident_adopt(cb, p, out, msg, msglen);
    resident *r = calloc(1, sizeof *r);
    if (!r) {
        return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    }
    r->params = p;
    czk_err e = CZK_OK;
    if (p->n_h) e = czk_gpu_g1_bases_upload(cb->gpu, p->h, p->n_h, &r->h, msg, msglen);
    if (e == CZK_OK && p->n_l) e = czk_gpu_g1_bases_upload(cb->gpu, p->l, p->n_l, &r->l, msg, msglen);
    if (e == CZK_OK && p->n_a) e = czk_gpu_g1_bases_upload(cb->gpu, p->a, p->n_a, &r->a, msg, msglen);
    if (e == CZK_OK && p->n_b_g1) e = czk_gpu_g1_bases_upload(cb->gpu, p->b_g1, p->n_b_g1, &r->b_g1, msg, msglen);
    if (e == CZK_OK && p->n_b_g2 && cb->cfg.g2 == CZK_G2_GPU)
        e = czk_gpu_g2_bases_upload(cb->gpu, p->b_g2, p->n_b_g2, &r->b_g2, msg, msglen);
    if (e != CZK_OK) {
        resident_free(r);
        return e;
    }
    *out = r;
    return CZK_OK;
}

/* The domain of 2^log points, made once per size (the GPU uses only its
 * scalars: n, 1/n, the coset and Z). */
static czk_err domain_get(cuda_backend *cb, size_t n, const czk_domain **out, char *msg, size_t msglen) {
    unsigned lg = 0;
    while (((size_t)1 << lg) < n) lg++;
    pthread_mutex_lock(&cb->mu);
    czk_err e = CZK_OK;
    if (!cb->dom[lg]) {
        czk_domain *d = malloc(sizeof *d);
        if (!d) {
            e = CZK_ERR_NO_MEMORY;
        } else if ((e = czk_domain_init(d, n)) != CZK_OK) {
            free(d);
        } else {
            cb->dom[lg] = d;
        }
        if (e != CZK_OK) (void)czk_fail(msg, msglen, e, "the evaluation domain of %zu points: %s", n, czk_err_str(e));
    }
    *out = cb->dom[lg];
    pthread_mutex_unlock(&cb->mu);
    return e;
}

/* ---- MSMs over resident or per-call bases ------------------------------------ */


/* One group's device MSM entry points, so that the streaming below is
 * written once for G1 and G2. */
typedef struct {
    size_t point_bytes; /* affine */
    czk_err (*upload)(czk_gpu *g, const void *bases, size_t count, void **out, char *msg, size_t msglen);
    void (*release)(void *b);
    const void *(*ptr)(const void *b);
    czk_err (*msm)(czk_gpu *g, void *r, const void *dev_bases, size_t n_bases, const void *dev_scalars, size_t n,
                   const czk_bitmap *density, char *msg, size_t msglen);
    czk_err (*prepared)(czk_gpu *g, void *r, const void *dev_bases, size_t n_bases, czk_gpu_msm_scalars *sc,
                        char *msg, size_t msglen);
    void (*add)(void *r, const void *a);
    void (*zero)(void *r);
} group_ops;

static czk_err g1_upload(czk_gpu *g, const void *b, size_t n, void **out, char *msg, size_t msglen) {
    return czk_gpu_g1_bases_upload(g, b, n, (czk_gpu_g1_bases **)out, msg, msglen);
}
static void g1_release(void *b) { czk_gpu_g1_bases_free(b); }
static const void *g1_ptr(const void *b) { return czk_gpu_g1_bases_ptr(b); }
static czk_err g1_msm(czk_gpu *g, void *r, const void *db, size_t nb, const void *ds, size_t n, const czk_bitmap *d,
                      char *msg, size_t msglen) {
    return czk_gpu_msm_g1_dev(g, r, db, nb, ds, n, d, msg, msglen);
}
static czk_err g1_prepared(czk_gpu *g, void *r, const void *db, size_t nb, czk_gpu_msm_scalars *sc, char *msg,
                           size_t msglen) {
    return czk_gpu_msm_g1_prepared(g, r, db, nb, sc, msg, msglen);
}
static void g1_add(void *r, const void *a) { czk_g1_add(r, r, a); }
static void g1_zero(void *r) { czk_g1_set_infinity(r); }
static const group_ops G1_OPS = {sizeof(czk_g1_affine), g1_upload, g1_release, g1_ptr, g1_msm, g1_prepared,
                                 g1_add, g1_zero};

static czk_err g2_upload(czk_gpu *g, const void *b, size_t n, void **out, char *msg, size_t msglen) {
    return czk_gpu_g2_bases_upload(g, b, n, (czk_gpu_g2_bases **)out, msg, msglen);
}
static void g2_release(void *b) { czk_gpu_g2_bases_free(b); }
static const void *g2_ptr(const void *b) { return czk_gpu_g2_bases_ptr(b); }
static czk_err g2_msm(czk_gpu *g, void *r, const void *db, size_t nb, const void *ds, size_t n, const czk_bitmap *d,
                      char *msg, size_t msglen) {
    return czk_gpu_msm_g2_dev(g, r, db, nb, ds, n, d, msg, msglen);
}
static czk_err g2_prepared(czk_gpu *g, void *r, const void *db, size_t nb, czk_gpu_msm_scalars *sc, char *msg,
                           size_t msglen) {
    return czk_gpu_msm_g2_prepared(g, r, db, nb, sc, msg, msglen);
}
static void g2_add(void *r, const void *a) { czk_g2_add(r, r, a); }
static void g2_zero(void *r) { czk_g2_set_infinity(r); }
static const group_ops G2_OPS = {sizeof(czk_g2_affine), g2_upload, g2_release, g2_ptr, g2_msm, g2_prepared,
                                 g2_add, g2_zero};

#define STREAM_MIN_CHUNK ((size_t)1 << 12) /* scalars; a multiple of 64 */

/* r = Σ scalars[i]·q[off + rank(i)] over i < n (scalars on the device),
 * with the bases q resident (res) or, where they are not, uploaded in
 * chunks of scalars that fit next to the MSM's scratch: the whole range
 * first, then halves until it fits (a chunk starts at a multiple of 64, so
 * the density words of a chunk are a view into the caller's). */
static czk_err msm_any(cuda_backend *cb, const group_ops *G, void *r, const void *res, const void *q, size_t nq,
                       size_t off, const void *dscal, size_t n, const czk_bitmap *density, char *msg,
                       size_t msglen) {
    size_t used = density ? (n ? czk_bitmap_rank(density, n) : 0) : n;
    G->zero(r);
    if (used == 0) return CZK_OK;
    if (off > nq || used > nq - off) {
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "an MSM needs %zu bases, the query has %zu", off + used, nq);
    }
    if (res)
        return G->msm(cb->gpu, r, (const char *)G->ptr(res) + off * G->point_bytes, nq - off, dscal, n, density, msg,
                      msglen);
    union {
        czk_g1 g1;
        czk_g2 g2;
    } part;
    size_t chunk = n, i0 = 0;
    while (i0 < n) {
        size_t i1 = n - i0 > chunk ? i0 + chunk : n;
        size_t b0 = density ? czk_bitmap_rank(density, i0) : i0;
        size_t b1 = density ? czk_bitmap_rank(density, i1) : i1;
        czk_err e = CZK_OK;
        if (b1 > b0) {
            void *tmp = NULL;
            e = G->upload(cb->gpu, (const char *)q + (off + b0) * G->point_bytes, b1 - b0, &tmp, msg, msglen);
            if (e == CZK_OK) {
                czk_bitmap view = {density ? density->words + i0 / 64 : NULL, i1 - i0};
                e = G->msm(cb->gpu, &part, G->ptr(tmp), b1 - b0, (const char *)dscal + i0 * sizeof(czk_fr), i1 - i0,
                           density ? &view : NULL, msg, msglen);
            }
            G->release(tmp);
            if (e == CZK_ERR_NO_MEMORY && chunk > STREAM_MIN_CHUNK) {
                chunk = ((chunk / 2) + 63) & ~(size_t)63; /* retry this chunk smaller */
                continue;
            }
            if (e != CZK_OK) return e;
            G->add(r, &part);
            pthread_mutex_lock(&cb->mu);
            cb->t.streamed_chunks++;
            pthread_mutex_unlock(&cb->mu);
        }
        i0 = i1;
    }
    return CZK_OK;
}

/* r = the MSM of prepared scalars sc over resident bases res (a query of
 * nq points) from base off */
static czk_err msm_prepared(cuda_backend *cb, const group_ops *G, void *r, const void *res, size_t nq, size_t off,
                            czk_gpu_msm_scalars *sc, char *msg, size_t msglen) {
    const size_t used = czk_gpu_msm_scalars_count(sc);
    if (off > nq || used > nq - off) {
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "an MSM needs %zu bases, the query has %zu", off + used, nq);
    }
    return G->prepared(cb->gpu, r, (const char *)G->ptr(res) + off * G->point_bytes, nq - off, sc, msg, msglen);
}

static czk_err msm1(cuda_backend *cb, czk_g1 *r, const czk_gpu_g1_bases *res, const czk_g1_affine *q, size_t nq,
                    size_t off, const void *dscal, size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    return msm_any(cb, &G1_OPS, r, res, q, nq, off, dscal, n, density, msg, msglen);
}

static czk_err msm2(cuda_backend *cb, czk_g2 *r, const czk_gpu_g2_bases *res, const czk_g2_affine *q, size_t nq,
                    size_t off, const void *dscal, size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    return msm_any(cb, &G2_OPS, r, res, q, nq, off, dscal, n, density, msg, msglen);
}

/* ---- start ----------------------------------------------------------------------- */

static void free_host_abc(int k, void *ctx) {
    czk_assignment *asg = ctx;
    czk_fr **v[3] = {&asg->a, &asg->b, &asg->c};
    czk_fr_packed **pv[3] = {&asg->a_packed, &asg->b_packed, &asg->c_packed};
    czk_mem_free(*v[k]);
    *v[k] = NULL;
    czk_fr_packed_free(*pv[k]);
    *pv[k] = NULL;
}

/* The witness upload, on a thread of its own while the H MSM's kernels run
 * (the copy engine and the host copies into the pinned buffers are idle
 * then); the device vectors are allocated before it starts, so the thread
 * touches only the holder's stager and the device accounting. At its end
 * the holder's uploads are over (cb->uploads_done): a start waiting for the
 * device lock may stage its a, b, c from then on, without sharing the copy
 * engine and the host copies with them (on an H200 at 2^27 that made two
 * workers slower than one). */
typedef struct {
    cuda_backend *cb;
    czk_gpu_vec *win, *waux;
    const czk_assignment *asg;
    bool witness_done;       /* the witness is on the device already (a, b, c made there): densities only */
    bool densities;          /* also the aux densities of A and B (with resident bases) */
    czk_gpu_density da, db; /* zeroed where not made: the MSMs then upload the map each */
    czk_err e;
    char msg[256];
} witness_upload;

/* input and aux (plain, or aux_packed unpacked on the device) into win
 * and waux through st; returns when they are there */
static czk_err witness_to_device(cuda_backend *cb, czk_gpu_stager *st, const czk_assignment *asg, czk_gpu_vec *win,
                                 czk_gpu_vec *waux, char *msg, size_t msglen) {
    czk_err e = czk_gpu_vec_upload_via(st, win, asg->input, asg->n_input, cb->cfg.pool, msg, msglen);
    if (e == CZK_OK && waux)
        e = asg->aux_packed ? czk_gpu_vec_upload_packed_via(st, waux, asg->aux_packed, cb->cfg.pool, msg, msglen)
                            : czk_gpu_vec_upload_via(st, waux, asg->aux, asg->n_aux, cb->cfg.pool, msg, msglen);
    return e;
}

static void *witness_upload_run(void *arg) {
    witness_upload *w = arg;
    czk_gpu_stager *st = NULL;
    w->e = czk_gpu_holder_stager(w->cb->gpu, &st, w->msg, sizeof w->msg);
    if (w->e == CZK_OK && !w->witness_done)
        w->e = witness_to_device(w->cb, st, w->asg, w->win, w->waux, w->msg, sizeof w->msg);
    /* the densities' words and prefix counts, made once here rather than by
     * each MSM from pageable memory (A's took 8 ms more than L's prep); a
     * failure only leaves that to the MSMs */
    if (w->e == CZK_OK && w->densities && w->asg->n_aux) {
        if (w->asg->a_aux_density)
            (void)czk_gpu_density_upload_via(st, w->asg->a_aux_density, w->asg->n_aux, w->cb->cfg.pool, &w->da, NULL, 0);
        if (w->asg->b_aux_density)
            (void)czk_gpu_density_upload_via(st, w->asg->b_aux_density, w->asg->n_aux, w->cb->cfg.pool, &w->db, NULL, 0);
    }
    pthread_mutex_lock(&w->cb->mu);
    w->cb->uploads_done = true;
    pthread_cond_broadcast(&w->cb->holder_cv);
    pthread_mutex_unlock(&w->cb->mu);
    return NULL;
}

/* The inputs' share of A, B in G1 and B in G2 (n_input scalars, a few
 * hundred for Filecoin's circuits) on the host, on a thread of its own
 * while the device runs the aux MSMs: on the device each is a whole MSM
 * call (on an H200, 5–10 ms for PoRep's 328 inputs: 52 windows of 5 bits,
 * each a handful of launches, then the host's window sums), on the host
 * pool about a millisecond. Up to HOST_INPUT_MAX inputs; more go to the
 * device with the aux. */
#define HOST_INPUT_MAX ((size_t)1 << 12)
typedef struct {
    const czk_params *params;
    const czk_assignment *asg;
    czk_pool *pool;
    bool g2;
    czk_g1 a, b_g1;
    czk_g2 b_g2;
    czk_err e;
} input_msms;

static void *input_msms_run(void *arg) {
    input_msms *x = arg;
    const czk_assignment *asg = x->asg;
    czk_g2_set_infinity(&x->b_g2);
    x->e = czk_msm_g1(&x->a, x->params->a, asg->input, asg->n_input, NULL, x->pool);
    if (x->e == CZK_OK)
        x->e = czk_msm_g1(&x->b_g1, x->params->b_g1, asg->input, asg->n_input, asg->b_input_density, x->pool);
    if (x->e == CZK_OK && x->g2)
        x->e = czk_msm_g2(&x->b_g2, x->params->b_g2, asg->input, asg->n_input, asg->b_input_density, x->pool);
    return NULL;
}

/* L, A and B in G1 (and B in G2 on the GPU) over the witness on the device
 * (the inputs' share on the host, see input_msms). */
static czk_err witness_msms(cuda_backend *cb, cuda_pending *p, const czk_params *params, const czk_assignment *asg,
                            const resident *res, const void *din, const void *daux, const czk_gpu_density *da,
                            const czk_gpu_density *db, double *g1_s, double *g2_s, char *msg, size_t msglen) {
    const size_t ni = asg->n_input, na = asg->n_aux;
    const size_t kb = czk_bitmap_count(asg->b_input_density);
    const double t0 = now_s();
    const bool gpu_g2 = cb->cfg.g2 == CZK_G2_GPU;
    /* the inputs on the host, where there are few of them */
    input_msms in = {.params = res && res->dev ? &res->dev->inputs : params, .asg = asg, .pool = cb->cfg.pool, .g2 = gpu_g2};
    pthread_t th;
    const bool host_inputs = ni <= HOST_INPUT_MAX;
    const bool threaded = host_inputs && pthread_create(&th, NULL, input_msms_run, &in) == 0;
    if (host_inputs && !threaded) input_msms_run(&in);
    if (host_inputs) { /* the device adds only the aux shares into these */
        czk_g1_set_infinity(&p->sums.a);
        czk_g1_set_infinity(&p->sums.b_g1);
        czk_g2_set_infinity(&p->sums.b_g2);
    }
    czk_g1 t;
    /* L */
    czk_err e = msm1(cb, &p->sums.l, res ? res->l : NULL, params->l, params->n_l, 0, daux, na, NULL, msg, msglen);
    /* A: inputs in full, then aux by the a density */
    if (e == CZK_OK && !host_inputs)
        e = msm1(cb, &p->sums.a, res ? res->a : NULL, params->a, params->n_a, 0, din, ni, NULL, msg, msglen);
    if (e == CZK_OK && res && da->g) {
        czk_gpu_msm_scalars *sc = NULL;
        e = czk_gpu_msm_scalars_make(cb->gpu, daux, na, da, &sc, msg, msglen);
        if (e == CZK_OK) e = msm_prepared(cb, &G1_OPS, &t, res->a, params->n_a, ni, sc, msg, msglen);
        czk_gpu_msm_scalars_free(sc);
        if (e == CZK_OK) czk_g1_add(&p->sums.a, &p->sums.a, &t);
    } else if (e == CZK_OK) {
        e = msm1(cb, &t, res ? res->a : NULL, params->a, params->n_a, ni, daux, na, asg->a_aux_density, msg, msglen);
        if (e == CZK_OK) czk_g1_add(&p->sums.a, &p->sums.a, &t);
    }
    /* B in G1 by the b densities */
    if (e == CZK_OK && !host_inputs)
        e = msm1(cb, &p->sums.b_g1, res ? res->b_g1 : NULL, params->b_g1, params->n_b_g1, 0, din, ni,
                 asg->b_input_density, msg, msglen);
    /* B's aux scalars prepared once for G1 and G2 (with resident bases and
     * the density on the device) */
    czk_gpu_msm_scalars *sb = NULL;
    const bool b_prepared = res && db->g && (!gpu_g2 || res->b_g2);
    if (e == CZK_OK && b_prepared) e = czk_gpu_msm_scalars_make(cb->gpu, daux, na, db, &sb, msg, msglen);
    if (e == CZK_OK) {
        e = b_prepared ? msm_prepared(cb, &G1_OPS, &t, res->b_g1, params->n_b_g1, kb, sb, msg, msglen)
                       : msm1(cb, &t, res ? res->b_g1 : NULL, params->b_g1, params->n_b_g1, kb, daux, na,
                              asg->b_aux_density, msg, msglen);
        if (e == CZK_OK) czk_g1_add(&p->sums.b_g1, &p->sums.b_g1, &t);
    }
    const double t1 = now_s();
    /* B in G2 */
    if (e == CZK_OK && gpu_g2) {
        czk_g2 t2;
        if (!host_inputs)
            e = msm2(cb, &p->sums.b_g2, res ? res->b_g2 : NULL, params->b_g2, params->n_b_g2, 0, din, ni,
                     asg->b_input_density, msg, msglen);
        if (e == CZK_OK) {
            e = b_prepared ? msm_prepared(cb, &G2_OPS, &t2, res->b_g2, params->n_b_g2, kb, sb, msg, msglen)
                           : msm2(cb, &t2, res ? res->b_g2 : NULL, params->b_g2, params->n_b_g2, kb, daux, na,
                                  asg->b_aux_density, msg, msglen);
            if (e == CZK_OK) czk_g2_add(&p->sums.b_g2, &p->sums.b_g2, &t2);
        }
    }
    czk_gpu_msm_scalars_free(sb);
    if (threaded) pthread_join(th, NULL);
    if (host_inputs && e == CZK_OK) {
        e = in.e;
        if (e != CZK_OK) (void)czk_fail(msg, msglen, e, "the inputs' MSMs on the host failed");
        czk_g1_add(&p->sums.a, &p->sums.a, &in.a);
        czk_g1_add(&p->sums.b_g1, &p->sums.b_g1, &in.b_g1);
        if (gpu_g2) czk_g2_add(&p->sums.b_g2, &p->sums.b_g2, &in.b_g2);
    }
    *g1_s = t1 - t0;
    *g2_s = now_s() - t1;
    return e;
}

/* ---- a, b, c from a compact R1CS (asg->r1cs) -------------------------------- */

static bool abc_absent(const czk_assignment *asg) {
    return !asg->a && !asg->b && !asg->c && !asg->a_packed && !asg->b_packed && !asg->c_packed;
}

/* the bytes of params' bases on the device, were they resident */
static size_t bases_bytes(const cuda_backend *cb, const czk_params *params) {
    return (params->n_h + params->n_l + params->n_a + params->n_b_g1) * sizeof(czk_g1_affine) +
           (cb->cfg.g2 == CZK_G2_GPU ? params->n_b_g2 * sizeof(czk_g2_affine) : 0);
}

/* what a partition that makes a, b, c on the device holds there at most
 * beside the bases and the R1CS: the witness through all of it, a, b, c,
 * then H and the MSM's scratch (device_work's bound), 256 MiB of slack */
static size_t device_abc_work(const czk_assignment *asg, const czk_domain *dom) {
    return (asg->n_input + asg->n_aux) * sizeof(czk_fr) + 5 * dom->n * sizeof(czk_fr) + ((size_t)256 << 20);
}

/* under mu or the device lock */
static dev_r1cs *r1cs_find(const cuda_backend *cb, const czk_r1cs_compact *key) {
    dev_r1cs *d = cb->r1cs;
    while (d && d->key != key) d = d->next;
    return d;
}

/* Whether start should make a, b, c of asg on the device: the R1CS is
 * there, or it fits with a partition's working set beside what the
 * device holds (and the params' bases, where they are still to come,
 * which go first). Read without the device lock: an estimate, which
 * device_abc checks again under it. */
static bool device_abc_planned(cuda_backend *cb, const czk_params *params, const czk_assignment *asg,
                               const czk_domain *dom) {
    if (cb->abc_host) return false;
    pthread_mutex_lock(&cb->mu);
    const bool have = r1cs_find(cb, asg->r1cs) != NULL;
    bool bases_there = params->device != NULL; /* loaded to the device: counted in used */
    for (const resident *r = cb->res; r && !bases_there; r = r->next) bases_there = r->params == params;
    pthread_mutex_unlock(&cb->mu);
    if (have) return true;
    const size_t need = czk_gpu_r1cs_bytes(asg->r1cs) + device_abc_work(asg, dom) +
                        (bases_there ? 0 : bases_bytes(cb, params));
    const size_t cap = czk_gpu_mem_cap(cb->gpu), used = czk_gpu_mem_used(cb->gpu);
    return used <= cap && cap - used >= need;
}

/* a, b, c of asg from its R1CS on the host, packed (the witness made plain
 * first); logged the first time, counted */
static czk_err host_abc(cuda_backend *cb, czk_assignment *asg, const char *why, char *msg, size_t msglen) {
    const double t0 = now_s();
    czk_err e = czk_assignment_unpack_aux(asg, cb->cfg.pool);
    if (e != CZK_OK) return czk_fail(msg, msglen, e, "unpacking the aux values: %s", czk_err_str(e));
    e = czk_assignment_eval_abc(asg, true, cb->cfg.pool);
    if (e != CZK_OK) return czk_fail(msg, msglen, e, "evaluating a, b, c from the R1CS on the host: %s", czk_err_str(e));
    pthread_mutex_lock(&cb->mu);
    const bool first = !cb->abc_host_logged;
    cb->abc_host_logged = true;
    cb->t.host_abc_starts++;
    cb->t.host_abc_s += now_s() - t0;
    pthread_mutex_unlock(&cb->mu);
    if (first)
        fprintf(stderr, "czk: GPU %d: a, b, c are evaluated on the host (%s; the compact R1CS is %zu MiB on the device)\n",
                cb->cfg.ordinal, why, czk_gpu_r1cs_bytes(asg->r1cs) >> 20);
    return CZK_OK;
}

/* Under the device lock: asg's R1CS on the device (uploaded, and kept,
 * where it fits beside the working set), the witness into *win / *waux,
 * then a, b, c of the domain's size into abc (zero beyond n_abc).
 * CZK_ERR_NO_MEMORY where the device lacks the room for any of it (then
 * nothing is left allocated but a kept R1CS, and the caller evaluates on
 * the host). The host's aux is freed once on the device unless finish
 * needs it (B in G2 on the CPU). */
static czk_err device_abc(cuda_backend *cb, const czk_params *params, czk_assignment *asg, const czk_domain *dom,
                          czk_gpu_vec *abc[3], czk_gpu_vec **win, czk_gpu_vec **waux, char *msg, size_t msglen) {
    dev_r1cs *dr = r1cs_find(cb, asg->r1cs);
    const size_t work = device_abc_work(asg, dom);
    czk_gpu_stager *st = NULL;
    czk_err e = czk_gpu_holder_stager(cb->gpu, &st, msg, msglen);
    if (e != CZK_OK) return e;
    if (!dr) {
        const size_t cap = czk_gpu_mem_cap(cb->gpu), used = czk_gpu_mem_used(cb->gpu);
        if (used > cap || cap - used < work || cap - used - work < czk_gpu_r1cs_bytes(asg->r1cs))
            return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "the compact R1CS does not fit on the device");
        dr = calloc(1, sizeof *dr);
        if (!dr) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
        const double t0 = now_s();
        e = czk_gpu_r1cs_upload(cb->gpu, st, asg->r1cs, cb->cfg.pool, &dr->d, msg, msglen);
        if (e != CZK_OK) {
            free(dr);
            return e;
        }
        dr->key = asg->r1cs;
        dr->params = params;
        dr->pdev = params->device;
        pthread_mutex_lock(&cb->mu);
        dr->next = cb->r1cs;
        cb->r1cs = dr;
        cb->t.r1cs_up_s += now_s() - t0;
        pthread_mutex_unlock(&cb->mu);
    }
    const double t1 = now_s();
    e = czk_gpu_vec_alloc(cb->gpu, asg->n_input, win, msg, msglen);
    if (e == CZK_OK && asg->n_aux) e = czk_gpu_vec_alloc(cb->gpu, asg->n_aux, waux, msg, msglen);
    if (e == CZK_OK) e = witness_to_device(cb, st, asg, *win, *waux, msg, msglen);
    const double t2 = now_s();
    for (int k = 0; k < 3 && e == CZK_OK; k++) e = czk_gpu_vec_alloc(cb->gpu, dom->n, &abc[k], msg, msglen);
    if (e == CZK_OK) {
        void *const out[3] = {czk_gpu_vec_ptr(abc[0]), czk_gpu_vec_ptr(abc[1]), czk_gpu_vec_ptr(abc[2])};
        e = czk_gpu_r1cs_eval_dev(dr->d, czk_gpu_vec_ptr(*win), czk_gpu_vec_ptr(*waux), out, dom->n, 1, msg, msglen);
    }
    if (e != CZK_OK) {
        for (int k = 0; k < 3; k++) czk_gpu_vec_free(abc[k]), abc[k] = NULL;
        czk_gpu_vec_free(*win);
        czk_gpu_vec_free(*waux);
        *win = *waux = NULL;
        return e;
    }
    if (cb->cfg.g2 == CZK_G2_GPU) { /* the witness lives on the device from here on; the inputs stay for the host MSMs */
        czk_mem_free(asg->aux);
        czk_fr_packed_free(asg->aux_packed);
        asg->aux = NULL;
        asg->aux_packed = NULL;
    }
    pthread_mutex_lock(&cb->mu);
    cb->t.witness_up_s += t2 - t1;
    cb->t.abc_device_s += now_s() - t2;
    pthread_mutex_unlock(&cb->mu);
    return CZK_OK;
}

/* Everything on the device; the caller holds the device lock. pre: a, b, c
 * where prestage put them on the device (taken over: freed or used).
 *
 * The order: H (staging a, b, c with each one's transforms overlapping the
 * next upload), the H MSM while a thread uploads the witness, then the
 * witness MSMs. Tried on an H200 at 2^27 and not kept: the witness first,
 * then its MSMs while a thread stages a, b, c, then H and the H MSM (1,692
 * ms against 1,640: the witness upload is exposed then, and the MSMs ran
 * 70 ms slower under the copies, whose host threads take every core). */
static czk_err device_work(cuda_backend *cb, cuda_pending *p, const czk_params *params, czk_assignment *asg,
                           const czk_domain *dom, czk_gpu_vec *pre[3], char *msg, size_t msglen) {
    czk_err e = CZK_OK;
    czk_gpu_vec *hv = NULL, *win = NULL, *waux = NULL;
    resident *res = NULL; /* NULL: the bases are streamed for each MSM */
    witness_upload wu;
    memset(&wu, 0, sizeof wu);
    double t0 = now_s(), t1;
    for (res = cb->res; res && res->params != params; res = res->next) {}
    /* the bases stay resident only where a partition's working set still
     * fits beside them: a, b, c on the device, then H with the witness
     * (uploaded during the H MSM) and the MSM's scratch (about 3n at 2^27).
     * Not counted: the H MSM's pairing rounds (about 2.25n more), which run
     * only where there is room left; resident bases are worth more. */
    size_t bases = bases_bytes(cb, params);
    size_t work = 5 * dom->n * sizeof(czk_fr) + ((size_t)256 << 20);
    size_t cap = czk_gpu_mem_cap(cb->gpu), used = czk_gpu_mem_used(cb->gpu);
    bool fits = used <= cap && cap - used >= work && cap - used - work >= bases;
    if (!res && (fits || params->device)) { /* device-loaded params: only resident */
        e = resident_make(cb, params, &res, msg, msglen);
        if (e == CZK_ERR_NO_MEMORY) {
            res = NULL; /* the device is too small to keep them after all */
            e = CZK_OK;
        } else if (e != CZK_OK) {
            goto out;
        } else {
            pthread_mutex_lock(&cb->mu);
            res->next = cb->res;
            cb->res = res;
            pthread_mutex_unlock(&cb->mu);
        }
    }
    /* a, b, c from the R1CS: on the device from the witness uploaded
     * first, or (no room for the R1CS) evaluated on the host here */
    const bool witness_first = asg->r1cs && abc_absent(asg);
    if (witness_first) {
        e = device_abc(cb, params, asg, dom, pre, &win, &waux, msg, msglen);
        if (e == CZK_ERR_NO_MEMORY) e = host_abc(cb, asg, "no room on the device for the R1CS and a partition", msg, msglen);
        if (e != CZK_OK) goto out;
    }
    t1 = now_s();

    /* H */
    czk_fr *src[3] = {asg->a, asg->b, asg->c};
    const czk_fr_packed *psrc[3] = {asg->a_packed, asg->b_packed, asg->c_packed};
    e = czk_gpu_poly_h_staged(cb->gpu, dom, src, psrc, pre, asg->n_abc, cb->cfg.pool, &hv, free_host_abc, asg, msg,
                              msglen);
    if (e != CZK_OK) goto out;
    double t2 = now_s();
    /* the witness: allocated here, uploaded on a thread during the H MSM
     * (unless a, b, c were made from it on the device) */
    wu.witness_done = win != NULL;
    if (!win) e = czk_gpu_vec_alloc(cb->gpu, asg->n_input, &win, msg, msglen);
    if (e == CZK_OK && asg->n_aux && !waux) e = czk_gpu_vec_alloc(cb->gpu, asg->n_aux, &waux, msg, msglen);
    if (e != CZK_OK) goto out;
    wu.cb = cb;
    wu.win = win;
    wu.waux = waux;
    wu.asg = asg;
    wu.densities = res != NULL;
    pthread_t wt;
    bool threaded = pthread_create(&wt, NULL, witness_upload_run, &wu) == 0;
    if (!threaded) witness_upload_run(&wu);
    e = msm1(cb, &p->sums.h, res ? res->h : NULL, params->h, params->n_h, 0, czk_gpu_vec_ptr(hv), dom->n - 1, NULL,
             msg, msglen);
    double t3 = now_s();
    if (threaded) pthread_join(wt, NULL);
    czk_gpu_vec_free(hv);
    hv = NULL;
    if (e == CZK_OK && wu.e != CZK_OK) {
        e = czk_fail(msg, msglen, wu.e, "%s", wu.msg);
    }
    if (e != CZK_OK) goto out;
    double t4 = now_s(), t_g1 = 0, t_g2 = 0;
    e = witness_msms(cb, p, params, asg, res, czk_gpu_vec_ptr(win), czk_gpu_vec_ptr(waux), &wu.da, &wu.db, &t_g1,
                     &t_g2, msg, msglen);
    if (e != CZK_OK) goto out;
    pthread_mutex_lock(&cb->mu);
    cb->t.partitions++;
    cb->t.bases_s += t1 - t0;
    cb->t.abc_h_s += t2 - t1;
    cb->t.msm_h_s += t3 - t2;
    cb->t.witness_s += t4 - t3; /* what the upload added after the H MSM */
    cb->t.msm_g1_s += t_g1;
    cb->t.msm_g2_s += t_g2;
    pthread_mutex_unlock(&cb->mu);
out:
    for (int k = 0; k < 3; k++) czk_gpu_vec_free(pre[k]); /* left when H was not reached */
    czk_gpu_vec_free(hv);
    czk_gpu_vec_free(win);
    czk_gpu_vec_free(waux);
    czk_gpu_density_free(&wu.da);
    czk_gpu_density_free(&wu.db);
    return e;
}

/* The device lock is taken: while waiting for it, once its holder's own
 * uploads are over, a, b, c go to the device one after the other (each host
 * buffer freed once its copy is there), until the lock comes free or the
 * device lacks the room. Only one start of the backend does so at a time
 * (another just waits), only where the params' bases are resident already
 * (the first partition of a params uploads them under the lock), and only
 * where each vector leaves room for a whole partition's working set beside
 * it (the lock holder's, whatever it has allocated so far), so that staging
 * never makes the running partition fail for memory. Any failure here just
 * leaves the rest to the usual staging under the lock. Returns holding the
 * lock. */
static void prestage(cuda_backend *cb, const czk_params *params, czk_assignment *asg, const czk_domain *dom,
                     czk_gpu_vec *pre[3], pthread_mutex_t *lock) {
    bool locked = false, go = false, mine = pthread_mutex_trylock(&cb->stage_mu) == 0;
    if (mine) {
        pthread_mutex_lock(&cb->mu);
        for (;;) {
            bool resident_now = false;
            for (const resident *r = cb->res; r; r = r->next) resident_now |= r->params == params;
            if (!resident_now) break;
            if (cb->uploads_done) {
                go = true;
                break;
            }
            if (pthread_mutex_trylock(lock) == 0) {
                locked = true;
                break;
            }
            /* timed: a holder of another backend on this device never signals */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 2000000;
            if (ts.tv_nsec >= 1000000000) ts.tv_sec++, ts.tv_nsec -= 1000000000;
            pthread_cond_timedwait(&cb->holder_cv, &cb->mu, &ts);
        }
        pthread_mutex_unlock(&cb->mu);
        if (go && !cb->stager && czk_gpu_stager_open(cb->gpu, &cb->stager, NULL, 0) != CZK_OK) cb->stager = NULL;
    }
    czk_gpu_stager *st = go && !abc_absent(asg) ? cb->stager : NULL; /* none to stage: made on the device */
    const size_t vec = dom->n * sizeof(czk_fr), work = 5 * vec + ((size_t)256 << 20);
    czk_fr **src[3] = {&asg->a, &asg->b, &asg->c};
    czk_fr_packed **psrc[3] = {&asg->a_packed, &asg->b_packed, &asg->c_packed};
    unsigned staged = 0;
    double t0 = now_s();
    for (int k = 0; st && k < 3 && !locked; k++) {
        const size_t cap = czk_gpu_mem_cap(cb->gpu), used = czk_gpu_mem_used(cb->gpu);
        if (used > cap || cap - used < vec + work) break;
        if (czk_gpu_vec_alloc(cb->gpu, dom->n, &pre[k], NULL, 0) != CZK_OK) break;
        const czk_err ue = *psrc[k] ? czk_gpu_vec_upload_packed_via(st, pre[k], *psrc[k], cb->cfg.pool, NULL, 0)
                                    : czk_gpu_vec_upload_via(st, pre[k], *src[k], asg->n_abc, cb->cfg.pool, NULL, 0);
        if (ue != CZK_OK) {
            czk_gpu_vec_free(pre[k]);
            pre[k] = NULL;
            break;
        }
        free_host_abc(k, asg);
        staged++;
        locked = pthread_mutex_trylock(lock) == 0;
    }
    double t1 = now_s();
    if (mine) pthread_mutex_unlock(&cb->stage_mu);
    if (!locked) pthread_mutex_lock(lock);
    pthread_mutex_lock(&cb->mu);
    cb->t.lock_busy++;
    cb->t.prestaged += staged;
    cb->t.prestage_s += t1 - t0;
    pthread_mutex_unlock(&cb->mu);
}

static czk_err cuda_start(czk_backend *be, czk_backend_pending **out, const czk_params *params, czk_assignment *asg,
                          const czk_fr *r, const czk_fr *s, char *msg, size_t msglen) {
    cuda_backend *cb = be->impl;
    *out = NULL;
    size_t n = 0;
    const czk_domain *dom = NULL;
    czk_err e = czk_prove_check(params, asg, &n, msg, msglen);
    if (e == CZK_OK) e = domain_get(cb, n, &dom, msg, msglen);
    if (e != CZK_OK) {
        czk_assignment_release(asg);
        return e;
    }
    cuda_pending *p = czk_mem_alloc(sizeof *p, CZK_MEM_PENDING);
    if (!p) {
        czk_assignment_release(asg);
        return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
    }
    memset(p, 0, sizeof *p);
    p->params = params;
    p->r = *r;
    p->s = *s;

    /* B in G2 on the CPU: finish reads the plain aux. a, b, c from an R1CS
     * that will not be on the device: evaluated here, before the lock */
    if (cb->cfg.g2 == CZK_G2_CPU && (e = czk_assignment_unpack_aux(asg, cb->cfg.pool)) != CZK_OK)
        (void)czk_fail(msg, msglen, e, "unpacking the aux values: %s", czk_err_str(e));
    if (e == CZK_OK && asg->r1cs && abc_absent(asg) && !device_abc_planned(cb, params, asg, dom))
        e = host_abc(cb, asg, cb->abc_host ? "CZK_GPU_ABC=host" : "the R1CS does not fit on the device", msg, msglen);
    if (e != CZK_OK) {
        czk_assignment_release(asg);
        czk_mem_free(p);
        return e;
    }

    double tw = now_s();
    pthread_mutex_t *lock = &device_locks[cb->cfg.ordinal];
    czk_gpu_vec *pre[3] = {NULL, NULL, NULL};
    if (pthread_mutex_trylock(lock) != 0) prestage(cb, params, asg, dom, pre, lock);
    double tl = now_s();
    e = device_work(cb, p, params, asg, dom, pre, msg, msglen);
    pthread_mutex_lock(&cb->mu);
    cb->uploads_done = false; /* for the next holder */
    pthread_mutex_unlock(&cb->mu);
    pthread_mutex_unlock(lock);
    pthread_mutex_lock(&cb->mu);
    pthread_cond_broadcast(&cb->holder_cv); /* wakes a waiting start, which takes the lock now */
    cb->t.lock_wait_s += tl - tw;
    cb->t.start_s += now_s() - tw;
    pthread_mutex_unlock(&cb->mu);

    for (int k = 0; k < 3; k++) free_host_abc(k, asg);
    if (e != CZK_OK) {
        czk_assignment_release(asg);
        czk_mem_free(p);
        return e;
    }
    if (cb->cfg.g2 == CZK_G2_CPU) {
        p->input = asg->input;
        p->n_input = asg->n_input;
        p->aux = asg->aux;
        p->n_aux = asg->n_aux;
        p->b_input_density = asg->b_input_density;
        p->b_aux_density = asg->b_aux_density;
        asg->input = asg->aux = NULL;
    }
    czk_assignment_release(asg);
    *out = (czk_backend_pending *)p;
    return CZK_OK;
}

static size_t cuda_pending_bytes(const czk_backend_pending *bp) {
    const cuda_pending *p = (const cuda_pending *)bp;
    return p ? sizeof *p + czk_mem_size(p->input) + czk_mem_size(p->aux) : 0;
}

static void cuda_destroy(czk_backend *be, czk_backend_pending *bp) {
    (void)be;
    cuda_pending *p = (cuda_pending *)bp;
    if (!p) return;
    czk_mem_free(p->input);
    czk_mem_free(p->aux);
    czk_mem_free(p);
}

static czk_err cuda_finish(czk_backend *be, czk_backend_pending *bp, czk_proof *out, char *msg, size_t msglen) {
    cuda_backend *cb = be->impl;
    cuda_pending *p = (cuda_pending *)bp;
    if (cb->cfg.g2 == CZK_G2_CPU) {
        const czk_params *params = p->params;
        size_t k = czk_bitmap_count(p->b_input_density);
        czk_g2 t2;
        czk_err e = czk_msm_g2(&p->sums.b_g2, params->b_g2, p->input, p->n_input, p->b_input_density, cb->cfg.pool);
        if (e == CZK_OK)
            e = czk_msm_g2(&t2, params->b_g2 + k, p->aux, p->n_aux, p->b_aux_density, cb->cfg.pool);
        if (e != CZK_OK) {
            (void)czk_fail(msg, msglen, e, "the B MSM in G2 failed: %s", czk_err_str(e));
            cuda_destroy(be, bp);
            return e;
        }
        czk_g2_add(&p->sums.b_g2, &p->sums.b_g2, &t2);
    }
    czk_prove_assemble(out, &p->params->vk, &p->sums, &p->r, &p->s);
    cuda_destroy(be, bp);
    return CZK_OK;
}

static void cuda_forget(czk_backend *be, const czk_params *params) {
    cuda_backend *cb = be->impl;
    pthread_mutex_t *lock = &device_locks[cb->cfg.ordinal];
    pthread_mutex_lock(lock);
    resident *gone = NULL;
    pthread_mutex_lock(&cb->mu);
    for (resident **pr = &cb->res; *pr; pr = &(*pr)->next) {
        if ((*pr)->params == params || (params->device && (*pr)->dev == params->device)) {
            gone = *pr;
            *pr = gone->next;
            break;
        }
    }
    dev_r1cs *gone_r1cs = NULL;
    for (dev_r1cs **pr = &cb->r1cs; *pr;) {
        dev_r1cs *d = *pr;
        if (d->params == params || (params->device && d->pdev == params->device)) {
            *pr = d->next;
            d->next = gone_r1cs;
            gone_r1cs = d;
        } else {
            pr = &d->next;
        }
    }
    pthread_mutex_unlock(&cb->mu);
    resident_free(gone);
    while (gone_r1cs) {
        dev_r1cs *d = gone_r1cs;
        gone_r1cs = d->next;
        czk_gpu_r1cs_free(d->d);
        free(d);
    }
    czk_gpu_trim(cb->gpu); /* the bases' memory, and the partitions' cached blocks, back to the device */
    pthread_mutex_unlock(lock);
}

static void cuda_close(czk_backend *be) {
    cuda_backend *cb = be->impl;
    pthread_mutex_t *lock = &device_locks[cb->cfg.ordinal];
    pthread_mutex_lock(lock);
    while (cb->res) {
        resident *r = cb->res;
        cb->res = r->next;
        resident_free(r);
    }
    while (cb->r1cs) {
        dev_r1cs *d = cb->r1cs;
        cb->r1cs = d->next;
        czk_gpu_r1cs_free(d->d);
        free(d);
    }
    czk_gpu_stager_close(cb->stager);
    czk_gpu_close(cb->gpu);
    pthread_mutex_unlock(lock);
    for (size_t k = 0; k <= CZK_DOMAIN_MAX_LOG; k++) {
        if (cb->dom[k]) czk_domain_free(cb->dom[k]);
        free(cb->dom[k]);
    }
    pthread_mutex_destroy(&cb->mu);
    pthread_mutex_destroy(&cb->stage_mu);
    pthread_cond_destroy(&cb->holder_cv);
    free(cb);
    free(be);
}

static const czk_backend_ops CUDA_OPS = {"cuda", cuda_start, cuda_pending_bytes, cuda_finish, cuda_destroy,
                                         cuda_forget, cuda_close, true, true, true};

czk_err czk_backend_cuda_open(czk_backend **out, const czk_backend_cuda_config *cfg, char *msg, size_t msglen) {
    *out = NULL;
    if (!cfg || cfg->ordinal < 0 || cfg->ordinal >= MAX_DEVICES || (unsigned)cfg->g2 > CZK_G2_CPU) {
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid CUDA backend configuration");
    }
    czk_gpu *g = NULL;
    czk_err e = czk_gpu_open(&g, cfg->ordinal, cfg->mem_cap_bytes, msg, msglen);
    if (e != CZK_OK) return e;
    czk_backend *be = malloc(sizeof *be);
    cuda_backend *cb = calloc(1, sizeof *cb);
    if (!be || !cb) {
        free(be);
        free(cb);
        czk_gpu_close(g);
        return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    }
    cb->cfg = *cfg;
    cb->gpu = g;
    const char *abc = getenv("CZK_GPU_ABC");
    cb->abc_host = abc && !strcmp(abc, "host");
    pthread_mutex_init(&cb->mu, NULL);
    pthread_mutex_init(&cb->stage_mu, NULL);
    pthread_cond_init(&cb->holder_cv, NULL);
    be->ops = &CUDA_OPS;
    /* at most two stagers (the lock holder's and the one that stages while
     * waiting), two pinned buffers each: charged by the engine */
    be->host_fixed_bytes = 4 * CZK_GPU_STAGE_BYTES;
    be->impl = cb;
    *out = be;
    return CZK_OK;
}

void czk_backend_cuda_timings_get(czk_backend *be, czk_backend_cuda_timings *out) {
    memset(out, 0, sizeof *out);
    if (!be || be->ops != &CUDA_OPS) return;
    cuda_backend *cb = be->impl;
    pthread_mutex_lock(&cb->mu);
    *out = cb->t;
    pthread_mutex_unlock(&cb->mu);
    out->packed_chunks = (unsigned long)czk_gpu_chunks_packed(cb->gpu);
}

const char *czk_backend_cuda_describe(czk_backend *be) {
    if (!be || be->ops != &CUDA_OPS) return "";
    return czk_gpu_describe(((cuda_backend *)be->impl)->gpu);
}

bool czk_backend_cuda_device_get(czk_backend *be, czk_backend_cuda_device *out) {
    memset(out, 0, sizeof *out);
    if (!be || be->ops != &CUDA_OPS) return false;
    const cuda_backend *cb = be->impl;
    out->ordinal = cb->cfg.ordinal;
    char m[128];
    if (czk_gpu_mem_info(cb->cfg.ordinal, &out->vram_free_bytes, &out->vram_total_bytes, m, sizeof m) != CZK_OK)
        out->vram_free_bytes = out->vram_total_bytes = 0;
    return true;
}

size_t czk_backend_cuda_mem_used(czk_backend *be) {
    if (!be || be->ops != &CUDA_OPS) return 0;
    /* the device's accounting has a mutex of its own: no waiting for the
     * device lock (a status request would wait out a partition's kernels) */
    return czk_gpu_mem_used(((cuda_backend *)be->impl)->gpu);
}

/* ---- params loaded straight to the device (src/gpu/params_load.c) ---------- */

czk_err czk_backend_cuda_params_load_opts(czk_backend *be, const char *path, const czk_params_load_options *opts,
                                          czk_params *out, czk_params_load_stats *stats, char *msg, size_t msglen) {
    if (!out) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "no output given");
    memset(out, 0, sizeof *out);
    if (stats) memset(stats, 0, sizeof *stats);
    if (!be || be->ops != &CUDA_OPS) return czk_fail(msg, msglen, CZK_ERR_UNSUPPORTED, "not a CUDA backend");
    cuda_backend *cb = be->impl;
    if (cb->cfg.g2 == CZK_G2_CPU)
        return czk_fail(msg, msglen, CZK_ERR_UNSUPPORTED,
                        "B in G2 on the CPU (CZK_G2_CPU) reads b_g2 on the host, which parameters loaded to the "
                        "device do not have: prove B in G2 on the GPU, or read the parameters with czk_params_read");
    resident *r = calloc(1, sizeof *r);
    if (!r) return czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory");
    czk_gpu_params_bases b;
    /* no device lock: the load has streams of its own, and only the memory
     * accounting of the device is shared (thread-safe) */
    czk_err e = czk_gpu_params_load(cb->gpu, path, opts, out, &b, stats, msg, msglen);
    if (e != CZK_OK) {
        free(r);
        return e;
    }
    *r = (resident){NULL, b.h, b.l, b.a, b.b_g1, b.b_g2, out->device, NULL};
    pthread_mutex_t *lock = &device_locks[cb->cfg.ordinal];
    pthread_mutex_lock(lock);
    pthread_mutex_lock(&cb->mu);
    r->next = cb->res;
    cb->res = r;
    pthread_mutex_unlock(&cb->mu);
    pthread_mutex_unlock(lock);
    return CZK_OK;
}

czk_err czk_backend_cuda_params_load(czk_backend *be, const char *path, czk_params *out, char *msg, size_t msglen) {
    const czk_params_load_options o = {.check_curve = true};
    return czk_backend_cuda_params_load_opts(be, path, &o, out, NULL, msg, msglen);
}
