/* czk — the GPU setup's host sequence (czk/setup_gpu.h): the scalars on
 * the pool, then each query in file order through the device in chunks,
 * double-buffered in pinned memory so that the file is written while the
 * next chunk is computed. One stream: the device buffers are single, the
 * stream orders their reuse; the host waits on a chunk's event only
 * before writing its bytes or refilling its pinned slot. */
#define _GNU_SOURCE
#include "czk/setup_gpu.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "czk/mem.h"
#include "czk/params_writer.h"
#include "czk/setup_scalars.h"
#include "gpu_host.h"
#include "setup_kernels.h"

#define DEFAULT_CHUNK ((size_t)1 << 22)
#define FR_BYTES sizeof(czk_fr)

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    const czk_gpu_setup_opts *o;
    czk_gpu *g;
    cudaStream_t s;
    czk_pool *pool;
    czk_params_writer *w;
    size_t chunk;
    void *d_table[2], *d_in, *d_pts, *d_pre, *d_out;
    size_t b_table[2], b_in, b_pts, b_pre, b_out;
    uint8_t *pin_in[2], *pin_out[2];
    cudaEvent_t done[2], k0[2], k1[2];
    /* h's scalars are made into the pinned slots */
    czk_fr h_coeff, tau;
} run_ctx;

static void logf_(const run_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(const run_ctx *c, const char *fmt, ...) {
    if (!c->o->log) return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    c->o->log(c->o->log_ctx, line);
}

static const char *const SECTION[CZK_PW_SECTIONS] = {"h", "l", "a", "b_g1", "b_g2"};

typedef struct {
    double t_start, t_fill, t_wait, t_write;
    float kernels_ms;
} query_times;

/* Waits for the chunk in slot, adds its kernel time, writes its bytes. */
static czk_err flush(run_ctx *c, int section, int slot, size_t cnt, query_times *q, char *msg, size_t msglen) {
    double t = now_s();
    CZK_CUDA_CK(cudaEventSynchronize(c->done[slot]));
    q->t_wait += now_s() - t;
    float ms = 0;
    CZK_CUDA_CK(cudaEventElapsedTime(&ms, c->k0[slot], c->k1[slot]));
    q->kernels_ms += ms;
    t = now_s();
    czk_err e = czk_params_writer_put_encoded(c->w, section, c->pin_out[slot], cnt, msg, msglen);
    q->t_write += now_s() - t;
    return e;
}

/* The points of one section: scalars src[0 … n) (src NULL: h's powers,
 * h_coeff·τ^i), in chunks through the device into the writer. Chunk k
 * uses pinned slot k mod 2; its bytes are written after chunk k + 1 is
 * queued, so before slot k mod 2 is refilled. */
static czk_err run_query(run_ctx *c, int section, const czk_fr *src, size_t n, char *msg, size_t msglen) {
    const int grp = section == CZK_PW_B_G2;
    const size_t pb = grp ? CZK_G2_UNCOMPRESSED_BYTES : CZK_G1_UNCOMPRESSED_BYTES;
    query_times q = {.t_start = now_s()};
    int pending = -1;
    size_t pending_cnt = 0;
    czk_err e = CZK_OK;
    for (size_t first = 0, k = 0; first < n; k++) {
        const int slot = (int)(k & 1);
        const size_t cnt = n - first < c->chunk ? n - first : c->chunk;
        double t = now_s();
        if (src) memcpy(c->pin_in[slot], src + first, cnt * FR_BYTES);
        else czk_setup_powers((czk_fr *)c->pin_in[slot], first, cnt, &c->h_coeff, &c->tau, c->pool);
        q.t_fill += now_s() - t;
        CZK_CUDA_CK(cudaMemcpyAsync(c->d_in, c->pin_in[slot], cnt * FR_BYTES, cudaMemcpyHostToDevice, c->s));
        CZK_CUDA_CK(cudaEventRecord(c->k0[slot], c->s));
        CZK_CUDA_CK(czk_gpu_launch_setup_mul(grp, c->d_table[grp], c->d_in, cnt, c->d_pts, c->s));
        CZK_CUDA_CK(czk_gpu_launch_setup_affine(grp, c->d_pts, cnt, c->d_pre, c->d_out, c->s));
        CZK_CUDA_CK(cudaEventRecord(c->k1[slot], c->s));
        CZK_CUDA_CK(cudaMemcpyAsync(c->pin_out[slot], c->d_out, cnt * pb, cudaMemcpyDeviceToHost, c->s));
        CZK_CUDA_CK(cudaEventRecord(c->done[slot], c->s));
        if (pending >= 0 && (e = flush(c, section, pending, pending_cnt, &q, msg, msglen)) != CZK_OK) return e;
        pending = slot;
        pending_cnt = cnt;
        first += cnt;
    }
    if (pending >= 0) e = flush(c, section, pending, pending_cnt, &q, msg, msglen);
    else e = czk_params_writer_put_encoded(c->w, section, NULL, 0, msg, msglen);
    if (e != CZK_OK) return e;
    logf_(c, "%s: %zu points in %.2f s (kernels %.2f s, waiting for the device %.2f s, scalars %.2f s, write %.2f s)",
          SECTION[section], n, now_s() - q.t_start, q.kernels_ms / 1e3, q.t_wait, q.t_fill, q.t_write);
    return CZK_OK;
}

static czk_err alloc_dev(run_ctx *c, void **p, size_t *b, size_t bytes, const char *what, char *msg, size_t msglen) {
    *b = bytes;
    return czk_gpu_mem_alloc(c->g, p, bytes, what, msg, msglen);
}

static czk_err device_setup(run_ctx *c, const czk_toxic *t, char *msg, size_t msglen) {
    czk_err e;
    CZK_CUDA_CK(cudaSetDevice(czk_gpu_ordinal(c->g)));
    c->s = czk_gpu_stream(c->g);
    for (int i = 0; i < 2; i++) {
        CZK_CUDA_CK(cudaEventCreate(&c->done[i]));
        CZK_CUDA_CK(cudaEventCreate(&c->k0[i]));
        CZK_CUDA_CK(cudaEventCreate(&c->k1[i]));
        CZK_CUDA_CK(cudaHostAlloc((void **)&c->pin_in[i], c->chunk * FR_BYTES, cudaHostAllocDefault));
        CZK_CUDA_CK(cudaHostAlloc((void **)&c->pin_out[i], c->chunk * CZK_G2_UNCOMPRESSED_BYTES, cudaHostAllocDefault));
    }
    if ((e = alloc_dev(c, &c->d_in, &c->b_in, c->chunk * FR_BYTES, "setup scalars", msg, msglen)) ||
        (e = alloc_dev(c, &c->d_pts, &c->b_pts, c->chunk * czk_gpu_setup_xyzz_bytes(1), "setup points", msg, msglen)) ||
        (e = alloc_dev(c, &c->d_pre, &c->b_pre, c->chunk * czk_gpu_setup_fe_bytes(1), "setup prefix products", msg,
                       msglen)) ||
        (e = alloc_dev(c, &c->d_out, &c->b_out, c->chunk * CZK_G2_UNCOMPRESSED_BYTES, "setup bytes", msg, msglen)) ||
        (e = alloc_dev(c, &c->d_table[0], &c->b_table[0], CZK_SETUP_TABLE_POINTS * sizeof(czk_g1_affine),
                       "g1 table", msg, msglen)) ||
        (e = alloc_dev(c, &c->d_table[1], &c->b_table[1], CZK_SETUP_TABLE_POINTS * sizeof(czk_g2_affine),
                       "g2 table", msg, msglen)))
        return e;
    czk_g1_affine *t1 = czk_mem_alloc(CZK_SETUP_TABLE_POINTS * sizeof(czk_g1_affine), CZK_MEM_AUX);
    czk_g2_affine *t2 = czk_mem_alloc(CZK_SETUP_TABLE_POINTS * sizeof(czk_g2_affine), CZK_MEM_AUX);
    e = !t1 || !t2 ? czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory for the window tables") : CZK_OK;
    if (!e) e = czk_setup_table_g1(t1, &t->g1);
    if (!e) e = czk_setup_table_g2(t2, &t->g2);
    if (!e) {
        cudaError_t ce = cudaMemcpy(c->d_table[0], t1, c->b_table[0], cudaMemcpyHostToDevice);
        if (ce == cudaSuccess) ce = cudaMemcpy(c->d_table[1], t2, c->b_table[1], cudaMemcpyHostToDevice);
        if (ce != cudaSuccess) e = CZK_CUDA_ERR(ce, "the window tables' upload");
    }
    czk_mem_free(t1);
    czk_mem_free(t2);
    return e;
}

static void device_release(run_ctx *c) {
    if (!c->g) return;
    cudaSetDevice(czk_gpu_ordinal(c->g));
    cudaStreamSynchronize(c->s);
    void **p[6] = {&c->d_in, &c->d_pts, &c->d_pre, &c->d_out, &c->d_table[0], &c->d_table[1]};
    size_t b[6] = {c->b_in, c->b_pts, c->b_pre, c->b_out, c->b_table[0], c->b_table[1]};
    for (int i = 0; i < 6; i++)
        if (*p[i]) czk_gpu_mem_free(c->g, *p[i], b[i]);
    for (int i = 0; i < 2; i++) {
        if (c->pin_in[i]) cudaFreeHost(c->pin_in[i]);
        if (c->pin_out[i]) cudaFreeHost(c->pin_out[i]);
        if (c->done[i]) cudaEventDestroy(c->done[i]);
        if (c->k0[i]) cudaEventDestroy(c->k0[i]);
        if (c->k1[i]) cudaEventDestroy(c->k1[i]);
    }
    czk_gpu_close(c->g);
    c->g = NULL;
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

czk_err czk_gpu_setup_write(const czk_r1cs_compact *r, const czk_toxic *t, const char *params_path,
                            const char *vk_path, const czk_gpu_setup_opts *opts, czk_pool *pool, char *msg,
                            size_t msglen) {
    static const czk_gpu_setup_opts defaults = {0};
    if (!opts) opts = &defaults;
    if (!r || !t || !params_path || !vk_path)
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "gpu setup: no circuit, toxic waste or path");
    const size_t ni = r->n_inputs, na = r->n_aux, nc = r->n_constraints, nv = ni + na;
    if (ni == 0) return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "the circuit has no ONE input");
    if (czk_fr_is_zero(&t->gamma) || czk_fr_is_zero(&t->delta))
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "gamma and delta must be non-zero");
    if (czk_g1_is_infinity(&t->g1) || czk_g2_is_infinity(&t->g2))
        return czk_fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "the toxic g1 and g2 must not be the identity");
    if (!opts->replace && (exists(params_path) || exists(vk_path)))
        return czk_fail(msg, msglen, CZK_ERR_IO, "%s exists; not overwriting it",
                        exists(params_path) ? params_path : vk_path);
    czk_domain dom;
    czk_err e = czk_domain_init(&dom, nc + ni);
    if (e != CZK_OK)
        return czk_fail(msg, msglen, e, "%zu constraints + %zu inputs exceed the largest evaluation domain", nc, ni);
    run_ctx c = {.o = opts, .pool = pool, .chunk = opts->chunk ? opts->chunk : DEFAULT_CHUNK, .tau = t->tau};
    c.chunk = (c.chunk + CZK_GPU_SETUP_GROUP - 1) / CZK_GPU_SETUP_GROUP * CZK_GPU_SETUP_GROUP;
    czk_fr *L = NULL, *u = NULL, *v = NULL, *w = NULL;
    czk_vk vk = {0};
    int params_written = 0;
    double t0 = now_s();

    if ((e = czk_setup_h_coeff(&c.h_coeff, &dom, t, msg, msglen)) != CZK_OK) goto out;
    if ((e = czk_gpu_open(&c.g, opts->ordinal, 0, msg, msglen)) != CZK_OK) goto out;
    logf_(&c, "device %s; domain 2^%u, %zu constraints, %zu inputs, %zu aux", czk_gpu_describe(c.g),
          (unsigned)__builtin_ctzll(dom.n), nc, ni, na);

    /* the scalars */
    L = czk_mem_alloc(dom.n * FR_BYTES, CZK_MEM_AUX);
    u = czk_mem_alloc(nv * FR_BYTES, CZK_MEM_AUX);
    v = czk_mem_alloc(nv * FR_BYTES, CZK_MEM_AUX);
    w = czk_mem_alloc(nv * FR_BYTES, CZK_MEM_AUX);
    if (!L || !u || !v || !w) {
        e = czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory for the scalars of %zu variables", nv);
        goto out;
    }
    double ts = now_s();
    czk_domain_lagrange_at(&dom, &t->tau, L, pool);
    logf_(&c, "Lagrange basis at tau: %.2f s", now_s() - ts);
    ts = now_s();
    czk_setup_qap_compact(r, L, u, v, w, pool);
    czk_mem_free(L);
    L = NULL;
    logf_(&c, "u, v, w over %llu + %llu + %llu non-zeros: %.2f s", (unsigned long long)r->a.nnz,
          (unsigned long long)r->b.nnz, (unsigned long long)r->c.nnz, now_s() - ts);
    ts = now_s();
    if ((e = czk_setup_ext(w, u, v, ni, nv, t, pool, msg, msglen)) != CZK_OK) goto out;
    const size_t n_a = czk_setup_count_nonzero(u, nv, pool), n_b = czk_setup_count_nonzero(v, nv, pool);
    /* the vk: six fixed points and ic = ext of the inputs, on the CPU */
    czk_setup_vk_fixed(&vk, t);
    vk.n_ic = ni;
    czk_g1 *icj = czk_mem_alloc(ni * sizeof(czk_g1), CZK_MEM_AUX);
    vk.ic = czk_mem_alloc(ni * sizeof(czk_g1_affine), CZK_MEM_SRS);
    if (!icj || !vk.ic) {
        czk_mem_free(icj);
        e = czk_fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory for the vk");
        goto out;
    }
    for (size_t i = 0; i < ni; i++) czk_g1_mul_fr(&icj[i], &t->g1, &w[i]);
    czk_g1_batch_to_affine(vk.ic, icj, ni);
    czk_mem_free(icj);
    logf_(&c, "ext, counts (a %zu, b %zu) and the vk: %.2f s", n_a, n_b, now_s() - ts);

    ts = now_s();
    if ((e = device_setup(&c, t, msg, msglen)) != CZK_OK) goto out;
    logf_(&c, "device buffers and window tables: %.2f s (chunks of %zu points)", now_s() - ts, c.chunk);
    const size_t counts[CZK_PW_SECTIONS] = {dom.n - 1, na, n_a, n_b, n_b};
    if ((e = czk_params_writer_open(&c.w, params_path, &vk, counts, !opts->replace, msg, msglen)) != CZK_OK) goto out;
    if ((e = run_query(&c, CZK_PW_H, NULL, dom.n - 1, msg, msglen)) != CZK_OK) goto out;
    if ((e = run_query(&c, CZK_PW_L, w + ni, na, msg, msglen)) != CZK_OK) goto out;
    czk_mem_free(w);
    w = NULL;
    ts = now_s();
    czk_setup_compact_nonzero(u, nv);
    czk_setup_compact_nonzero(v, nv);
    logf_(&c, "zero scalars of a and b dropped: %.2f s", now_s() - ts);
    if ((e = run_query(&c, CZK_PW_A, u, n_a, msg, msglen)) != CZK_OK) goto out;
    czk_mem_free(u);
    u = NULL;
    if ((e = run_query(&c, CZK_PW_B_G1, v, n_b, msg, msglen)) != CZK_OK) goto out;
    if ((e = run_query(&c, CZK_PW_B_G2, v, n_b, msg, msglen)) != CZK_OK) goto out;
    czk_mem_free(v);
    v = NULL;
    ts = now_s();
    uint64_t bytes = czk_params_writer_bytes(c.w);
    e = czk_params_writer_commit(c.w, msg, msglen);
    c.w = NULL;
    if (e != CZK_OK) goto out;
    params_written = 1;
    if ((e = czk_params_writer_vk(&vk, vk_path, !opts->replace, msg, msglen)) != CZK_OK) goto out;
    logf_(&c, "fsync and rename: %.2f s; %llu bytes in %.2f s in all", now_s() - ts, (unsigned long long)bytes,
          now_s() - t0);

out:
    if (e != CZK_OK && params_written) unlink(params_path);
    czk_params_writer_abort(c.w);
    device_release(&c);
    czk_mem_free(L);
    czk_mem_free(u);
    czk_mem_free(v);
    czk_mem_free(w);
    czk_vk_free(&vk);
    czk_domain_free(&dom);
    return e;
}
