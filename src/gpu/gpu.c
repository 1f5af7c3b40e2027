/* czk — the CUDA backend's host side (see include/czk/gpu.h): devices, the
 * byte cap on what czk allocates, cached twiddle and coset tables, and the
 * NTT / H sequences of kernel launches (src/gpu/ntt.cu).
 *
 * Tables: tw[e] = ω_N^e for e < N/2 with N = 2^tw_log the largest domain seen
 * (a smaller domain uses ω_n = ω_N^(N/n) by striding), then the passes'
 * roots of unity of orders up to 2^10 (czk_gpu_launch_roots); the coset tables of the
 * last domain size hold g^p and g^-p split as hi[p >> s]·lo[p & (2^s - 1)],
 * with 1/n and 1/Z(g) folded into the hi tables where a sequence needs them. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/gpu.h"
#include "czk/fr_pack.h"
#include "gpu_internal.h"
#include "gpu_stage.h"

#define GPU_CACHE_MAX 64

struct czk_gpu {
    int ordinal;
    size_t cap, used;
    cudaStream_t stream;
    char desc[320];
    void *tw;
    unsigned tw_log;
    size_t tw_bytes;
    /* coset tables for domains of 2^cs_log points (cs_log = ~0u: none) */
    void *cs;
    size_t cs_bytes;
    unsigned cs_log, cs_s;
    size_t cs_lo_len, cs_hi_len;
    czk_fr cs_nz; /* 1/(n·Z(g)) of that domain (H's factor on c) */
    unsigned dif_max; /* largest k of a pass (CZK_GPU_NTT_K, default 8: see stages() in ntt.cu) */
    unsigned blk_log; /* a pass block's points, log2 (CZK_GPU_NTT_BLOCK_LOG, 8 … 10, default 9) */
    int separate_bitrev; /* CZK_GPU_NTT_BITREV=1: transforms in place, then a bit reversal (tests, benchmarks) */
    /* the staged uploads of the device's lock holder (gpu_stage.h), made at
     * the first one */
    czk_gpu_stager *stager;
    size_t chunks_packed;   /* upload chunks of all its stagers that went packed (under mem_mu) */
    pthread_mutex_t mem_mu; /* cap, used and the cache, shared with the threads staging before the lock */
    /* freed blocks kept for reuse by an allocation of the same size (a
     * partition allocates the same sizes as the one before): cudaFree waits
     * for the whole device, copy streams included, so under a thread's
     * staged uploads every free stalled the MSMs (on an H200 at 2^27, a
     * partition's witness MSMs took 325 ms instead of 254). Not counted in
     * used; used + cached stays within cap (the cache is trimmed first). */
    struct {
        void *p;
        size_t bytes;
    } cache[GPU_CACHE_MAX];
    unsigned ncache;
    size_t cached;
};

/* Staged uploads: two pinned host buffers and a copy stream; for packed
 * uploads (czk/fr_pack.h) two device buffers that receive the packed chunks,
 * after the table of small values (NULL: every chunk goes as it is), and a
 * stream of the device's highest priority for the unpacking kernels: on the
 * copy stream, each unpack waited for room on SMs that H's transforms held,
 * and every later DMA waited behind it. */
#define STAGE_SMALL_BYTES ((size_t)2048)
struct czk_gpu_stager {
    czk_gpu *g;
    cudaStream_t copy;
    void *pin[2];
    cudaEvent_t pin_ev[2];
    cudaEvent_t up_ev;
    void *packed;
    size_t packed_bytes;
    cudaStream_t unpack;      /* made with packed */
    cudaEvent_t land_ev[2];   /* a packed chunk is in device buffer k */
    cudaEvent_t unpack_ev[2]; /* device buffer k is unpacked, free again */
    size_t chunks_packed; /* chunks that went packed, since the stager was opened */
    bool pack_plain;      /* CZK_GPU_PACK=1 or a: plain vectors packed on their way */
    bool pack_off;        /* CZK_GPU_PACK=a: plain uploads but where czk_gpu_poly_h_staged turns it off */
    bool packed_tried;    /* stager_packed_buffers ran */
};

struct czk_gpu_vec {
    czk_gpu *g;
    void *p;
    size_t n;
};

/* coset table slots: lo tables of cs_lo_len, then hi tables of cs_hi_len */
enum { CS_GLO, CS_GILO, CS_LO_COUNT };
enum { CS_GHI, CS_GHI_N, CS_GIHI_N, CS_GIHI_NZ, CS_HI_COUNT };

static czk_err fail(char *msg, size_t msglen, czk_err e, const char *fmt, const char *a, const char *b) {
    if (msg && msglen) snprintf(msg, msglen, fmt, a, b);
    return e;
}

/* Maps a CUDA error to czk_err with a message naming what failed. */
static czk_err cuda_fail(cudaError_t ce, const char *what, char *msg, size_t msglen) {
    if (ce == cudaErrorMemoryAllocation)
        return fail(msg, msglen, CZK_ERR_NO_MEMORY, "GPU out of memory in %s: %s", what, cudaGetErrorString(ce));
    return fail(msg, msglen, CZK_ERR_IO, "CUDA error in %s: %s", what, cudaGetErrorString(ce));
}

#define CK(call, what)                                                     \
    do {                                                                   \
        cudaError_t ce_ = (call);                                          \
        if (ce_ != cudaSuccess) {                                          \
            (void)cudaGetLastError();                                      \
            return cuda_fail(ce_, what, msg, msglen);                      \
        }                                                                  \
    } while (0)

int czk_gpu_count(void) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

/* Takes cache entries out (under mem_mu) until at most keep bytes stay
 * cached; their pointers go to out (GPU_CACHE_MAX of room), to be freed
 * with cudaFree outside the lock. Returns how many. */
static unsigned cache_trim(czk_gpu *g, size_t keep, void **out) {
    unsigned n = 0;
    while (g->ncache && g->cached > keep) {
        g->ncache--;
        g->cached -= g->cache[g->ncache].bytes;
        out[n++] = g->cache[g->ncache].p;
    }
    return n;
}

static void free_all(void **p, unsigned n) {
    for (unsigned i = 0; i < n; i++) cudaFree(p[i]);
}

/* Device memory against g's cap: a cached block of the same size, else
 * cudaMalloc (the cache trimmed first so that used + cached stays within
 * the cap, and emptied for a retry when the device is full);
 * CZK_ERR_NO_MEMORY beyond the cap or when the device is full. */
static czk_err dev_alloc(czk_gpu *g, void **p, size_t bytes, const char *what, char *msg, size_t msglen) {
    *p = NULL;
    void *victims[GPU_CACHE_MAX];
    unsigned nv = 0;
    /* the bytes are counted first, so that two threads cannot both pass the cap */
    pthread_mutex_lock(&g->mem_mu);
    const size_t used = g->used;
    const int over = bytes > g->cap || used > g->cap - bytes;
    if (!over) {
        g->used += bytes;
        for (unsigned i = 0; i < g->ncache; i++) {
            if (g->cache[i].bytes != bytes) continue;
            *p = g->cache[i].p;
            g->cached -= bytes;
            g->cache[i] = g->cache[--g->ncache];
            break;
        }
        if (!*p) nv = cache_trim(g, g->cap - g->used, victims);
    }
    pthread_mutex_unlock(&g->mem_mu);
    if (over) {
        if (msg && msglen)
            snprintf(msg, msglen, "GPU memory cap reached in %s: %zu bytes needed, %zu of %zu in use", what, bytes,
                     used, g->cap);
        return CZK_ERR_NO_MEMORY;
    }
    if (*p) return CZK_OK;
    free_all(victims, nv);
    cudaError_t ce = cudaMalloc(p, bytes ? bytes : 1);
    if (ce == cudaErrorMemoryAllocation) { /* the cache may hold what is missing */
        (void)cudaGetLastError();
        pthread_mutex_lock(&g->mem_mu);
        nv = cache_trim(g, 0, victims);
        pthread_mutex_unlock(&g->mem_mu);
        if (nv) {
            free_all(victims, nv);
            ce = cudaMalloc(p, bytes ? bytes : 1);
        }
    }
    if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        *p = NULL;
        pthread_mutex_lock(&g->mem_mu);
        g->used -= bytes;
        pthread_mutex_unlock(&g->mem_mu);
        if (ce == cudaErrorMemoryAllocation && msg && msglen) {
            snprintf(msg, msglen, "GPU out of memory in %s: %zu bytes needed, czk holds %zu", what, bytes, used);
            return CZK_ERR_NO_MEMORY;
        }
        return cuda_fail(ce, what, msg, msglen);
    }
    return CZK_OK;
}

/* Back to the cache (cudaFree when it is full). The compute stream is
 * waited for first: a block may be reused at once by another thread's
 * copies, so no queued kernel may still touch it (callers wait for their
 * other streams themselves: the MSM's sort stream, the stagers' copies). */
static void dev_free(czk_gpu *g, void *p, size_t bytes) {
    if (!p) return;
    cudaStreamSynchronize(g->stream);
    pthread_mutex_lock(&g->mem_mu);
    g->used -= bytes;
    const int keep = g->ncache < GPU_CACHE_MAX;
    if (keep) {
        g->cache[g->ncache].p = p;
        g->cache[g->ncache].bytes = bytes;
        g->ncache++;
        g->cached += bytes;
    }
    pthread_mutex_unlock(&g->mem_mu);
    if (!keep) cudaFree(p);
}

void czk_gpu_trim(czk_gpu *g) {
    if (!g) return;
    void *victims[GPU_CACHE_MAX];
    pthread_mutex_lock(&g->mem_mu);
    const unsigned nv = cache_trim(g, 0, victims);
    pthread_mutex_unlock(&g->mem_mu);
    free_all(victims, nv);
}

int czk_gpu_dev_alloc(czk_gpu *g, void **p, size_t bytes, const char *what, char *msg, size_t msglen) {
    return (int)dev_alloc(g, p, bytes, what, msg, msglen);
}
void czk_gpu_dev_free(czk_gpu *g, void *p, size_t bytes) { dev_free(g, p, bytes); }
cudaStream_t czk_gpu_stream(const czk_gpu *g) { return g->stream; }
int czk_gpu_ordinal(const czk_gpu *g) { return g->ordinal; }

czk_err czk_gpu_mem_info(int ordinal, size_t *free_bytes, size_t *total_bytes, char *msg, size_t msglen) {
    CK(cudaSetDevice(ordinal), "cudaSetDevice");
    CK(cudaMemGetInfo(free_bytes, total_bytes), "cudaMemGetInfo");
    return CZK_OK;
}

czk_err czk_gpu_open(czk_gpu **out, int ordinal, size_t mem_cap_bytes, char *msg, size_t msglen) {
    *out = NULL;
    int count = czk_gpu_count();
    if (ordinal < 0 || ordinal >= count) {
        if (msg && msglen) snprintf(msg, msglen, "no CUDA device %d (%d found)", ordinal, count);
        return count ? CZK_ERR_INVALID_ARGUMENT : CZK_ERR_UNSUPPORTED;
    }
    struct cudaDeviceProp prop;
    size_t free_b = 0, total_b = 0;
    CK(cudaSetDevice(ordinal), "cudaSetDevice");
    CK(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
    CK(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    czk_gpu *g = calloc(1, sizeof *g);
    if (!g) return fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory%s%s", "", "");
    g->ordinal = ordinal;
    g->cap = mem_cap_bytes ? mem_cap_bytes : free_b;
    g->cs_log = ~0u;
    g->dif_max = 8;
    const char *kenv = getenv("CZK_GPU_NTT_K");
    if (kenv && atoi(kenv) >= 1 && atoi(kenv) <= 10) g->dif_max = (unsigned)atoi(kenv);
    g->blk_log = 9;
    const char *benv = getenv("CZK_GPU_NTT_BLOCK_LOG");
    if (benv && atoi(benv) >= 8 && atoi(benv) <= 10) g->blk_log = (unsigned)atoi(benv);
    const char *renv = getenv("CZK_GPU_NTT_BITREV");
    g->separate_bitrev = renv && atoi(renv) == 1;
    snprintf(g->desc, sizeof g->desc, "%s (sm_%d%d, %zu GiB)", prop.name, prop.major, prop.minor,
             (size_t)((total_b + (1u << 29)) >> 30));
    cudaError_t ce = cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking);
    if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        free(g);
        return cuda_fail(ce, "cudaStreamCreate", msg, msglen);
    }
    pthread_mutex_init(&g->mem_mu, NULL);
    *out = g;
    return CZK_OK;
}

void czk_gpu_close(czk_gpu *g) {
    if (!g) return;
    cudaSetDevice(g->ordinal);
    cudaStreamSynchronize(g->stream);
    czk_gpu_stager_close(g->stager);
    dev_free(g, g->tw, g->tw_bytes);
    dev_free(g, g->cs, g->cs_bytes);
    czk_gpu_trim(g);
    cudaStreamDestroy(g->stream);
    pthread_mutex_destroy(&g->mem_mu);
    free(g);
}

const char *czk_gpu_describe(const czk_gpu *g) { return g ? g->desc : "no GPU"; }

size_t czk_gpu_mem_used(const czk_gpu *g) {
    if (!g) return 0;
    pthread_mutex_lock((pthread_mutex_t *)&g->mem_mu);
    const size_t used = g->used;
    pthread_mutex_unlock((pthread_mutex_t *)&g->mem_mu);
    return used;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void fr_powers(czk_fr *out, const czk_fr *base, const czk_fr *start, size_t count) {
    czk_fr p = *start;
    for (size_t k = 0; k < count; k++) {
        out[k] = p;
        czk_fr_mul(&p, &p, base);
    }
}

/* Uploads host tables and waits for the copy (the host buffer is freed after). */
static czk_err upload_sync(czk_gpu *g, void *dst, const void *src, size_t bytes, char *msg, size_t msglen) {
    CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, g->stream), "cudaMemcpy (tables)");
    CK(cudaStreamSynchronize(g->stream), "cudaStreamSynchronize (tables)");
    return CZK_OK;
}

/* Makes tw cover transforms of 2^log_n points. */
static czk_err ensure_twiddles(czk_gpu *g, unsigned log_n, char *msg, size_t msglen) {
    unsigned t = log_n < 1 ? 1 : log_n;
    if (g->tw && g->tw_log >= t) return CZK_OK;
    dev_free(g, g->tw, g->tw_bytes);
    g->tw = NULL;
    size_t half = (size_t)1 << (t - 1);
    unsigned s = t - 1 < 12 ? t - 1 : 12;
    size_t lo_len = (size_t)1 << s, hi_len = half >> s;
    czk_fr w, ws, one = CZK_FR_ONE;
    czk_fr_root_of_unity(&w, (int)t);
    czk_fr *h = malloc((lo_len + hi_len) * sizeof(czk_fr));
    if (!h) return fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory%s%s", "", "");
    fr_powers(h, &w, &one, lo_len);
    ws = h[lo_len - 1];
    czk_fr_mul(&ws, &ws, &w); /* ω^(2^s) */
    fr_powers(h + lo_len, &ws, &one, hi_len);
    void *tmp = NULL, *tw = NULL;
    size_t tw_bytes = (half + czk_gpu_roots_count()) * sizeof(czk_fr), tmp_bytes = (lo_len + hi_len) * sizeof(czk_fr);
    czk_err e = dev_alloc(g, &tw, tw_bytes, "the twiddle table", msg, msglen);
    if (e == CZK_OK) e = dev_alloc(g, &tmp, tmp_bytes, "the twiddle table", msg, msglen);
    if (e == CZK_OK) e = upload_sync(g, tmp, h, tmp_bytes, msg, msglen);
    if (e == CZK_OK) {
        cudaError_t ce = czk_gpu_launch_table(tw, (char *)tmp + lo_len * sizeof(czk_fr), tmp, s, half, g->stream);
        if (ce == cudaSuccess) ce = czk_gpu_launch_roots(tw, t, g->stream);
        if (ce == cudaSuccess) ce = cudaStreamSynchronize(g->stream);
        if (ce != cudaSuccess) {
            (void)cudaGetLastError();
            e = cuda_fail(ce, "the twiddle kernel", msg, msglen);
        }
    }
    free(h);
    dev_free(g, tmp, tmp_bytes);
    if (e != CZK_OK) {
        dev_free(g, tw, tw_bytes);
        return e;
    }
    g->tw = tw;
    g->tw_bytes = tw_bytes;
    g->tw_log = t;
    return CZK_OK;
}

/* Makes the coset tables describe d. */
static czk_err ensure_coset(czk_gpu *g, const czk_domain *d, char *msg, size_t msglen) {
    if (g->cs && g->cs_log == d->log_n) return CZK_OK;
    dev_free(g, g->cs, g->cs_bytes);
    g->cs = NULL;
    g->cs_log = ~0u;
    unsigned L = d->log_n, s = (L + 1) / 2;
    size_t lo_len = (size_t)1 << s, hi_len = (size_t)1 << (L - s);
    size_t total = CS_LO_COUNT * lo_len + CS_HI_COUNT * hi_len;
    czk_fr *h = malloc(total * sizeof(czk_fr));
    if (!h) return fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory%s%s", "", "");
    czk_fr *lo = h, *hi = h + CS_LO_COUNT * lo_len;
    czk_fr one = CZK_FR_ONE, gs, gis, z, zn;
    fr_powers(lo + CS_GLO * lo_len, &d->coset, &one, lo_len);
    fr_powers(lo + CS_GILO * lo_len, &d->coset_inv, &one, lo_len);
    czk_fr_mul(&gs, &lo[CS_GLO * lo_len + lo_len - 1], &d->coset);      /* g^(2^s) */
    czk_fr_mul(&gis, &lo[CS_GILO * lo_len + lo_len - 1], &d->coset_inv); /* g^-(2^s) */
    czk_domain_z(d, &d->coset, &z);
    czk_fr_inv(&z, &z);
    czk_fr_mul(&zn, &z, &d->n_inv);
    fr_powers(hi + CS_GHI * hi_len, &gs, &one, hi_len);
    fr_powers(hi + CS_GHI_N * hi_len, &gs, &d->n_inv, hi_len);
    fr_powers(hi + CS_GIHI_N * hi_len, &gis, &d->n_inv, hi_len);
    fr_powers(hi + CS_GIHI_NZ * hi_len, &gis, &zn, hi_len);
    void *cs = NULL;
    size_t bytes = total * sizeof(czk_fr);
    czk_err e = dev_alloc(g, &cs, bytes, "the coset tables", msg, msglen);
    if (e == CZK_OK) e = upload_sync(g, cs, h, bytes, msg, msglen);
    free(h);
    if (e != CZK_OK) {
        dev_free(g, cs, bytes);
        return e;
    }
    g->cs = cs;
    g->cs_bytes = bytes;
    g->cs_log = L;
    g->cs_s = s;
    g->cs_lo_len = lo_len;
    g->cs_hi_len = hi_len;
    g->cs_nz = zn;
    return CZK_OK;
}

static const void *cs_lo(const czk_gpu *g, int slot) {
    return (const char *)g->cs + (size_t)slot * g->cs_lo_len * sizeof(czk_fr);
}
static const void *cs_hi(const czk_gpu *g, int slot) {
    return (const char *)g->cs + (CS_LO_COUNT * g->cs_lo_len + (size_t)slot * g->cs_hi_len) * sizeof(czk_fr);
}

/* In-place DIF of 2^log_n points, bit-reversed out (dit 0), or its
 * transpose, bit-reversed in and natural out (dit 1): passes of at most
 * dif_max stages, the DIT's in the reverse order. */
/* The passes of a 2^log_n-point transform: pass i runs ks[i] stages on bits
 * [bs[i], bs[i] + ks[i]), from the top bits down to bs = 0. */
static unsigned pass_plan(const czk_gpu *g, unsigned log_n, unsigned *ks, unsigned *bs) {
    unsigned npass = (log_n + g->dif_max - 1) / g->dif_max, b = log_n;
    for (unsigned i = 0; i < npass; i++) {
        ks[i] = log_n / npass + (i < log_n % npass ? 1 : 0);
        b -= ks[i];
        bs[i] = b;
    }
    return npass;
}

/* without_b0: all passes but the one at b = 0 (the DIF's last, the DIT's
 * first), which czk_gpu_launch_pass_fused runs; mb: x·mb fused into the
 * DIF's first pass (log_n > 0) */
static cudaError_t run_passes_but(czk_gpu *g, void *x, unsigned log_n, int inverse, int dit, int without_b0,
                                  const void *mb) {
    if (log_n == 0) return cudaSuccess;
    unsigned ks[32], bs[32];
    const unsigned npass = pass_plan(g, log_n, ks, bs);
    for (unsigned t = 0; t < npass; t++) {
        const unsigned i = dit ? npass - 1 - t : t, k = ks[i];
        if (without_b0 && bs[i] == 0) continue;
        unsigned room = g->blk_log > k ? g->blk_log - k : 0, c = bs[i] < room ? bs[i] : room;
        /* lazy but for the transform's last pass (the DIF's at b = 0, the
         * DIT's at the top); passes that another kernel completes (without_b0)
         * are never the last */
        const int last = dit ? i == 0 : bs[i] == 0;
        cudaError_t ce = czk_gpu_launch_pass(x, log_n, bs[i], k, c, g->tw, g->tw_log, inverse, dit, t ? NULL : mb,
                                             !last, g->stream);
        if (ce != cudaSuccess) return ce;
    }
    return cudaSuccess;
}

static cudaError_t run_dif(czk_gpu *g, void *x, unsigned log_n, int inverse) {
    return run_passes_but(g, x, log_n, inverse, 0, 0, NULL);
}

/* the stages of the last pass (b = 0) of a 2^log_n-point transform */
static unsigned last_pass_k(const czk_gpu *g, unsigned log_n) {
    unsigned ks[32], bs[32];
    return ks[pass_plan(g, log_n, ks, bs) - 1];
}

/* The DIF of x (2^log_n points, log_n >= 1) with its last pass out of
 * place: each point lands at its natural index in out (out != x), with the
 * factor of czk_gpu_launch_pass_rev's mode (hi, lo: g's coset tables);
 * where the in-place DIF and a bit reversal would read and write every
 * point once more. x is left holding the other passes' work. */
static cudaError_t run_dif_to(czk_gpu *g, void *x, void *out, unsigned log_n, int inverse, int mode,
                              const void *scalar, const void *y, const void *hi, const void *lo) {
    cudaError_t ce = run_passes_but(g, x, log_n, inverse, 0, 1, NULL);
    if (ce != cudaSuccess) return ce;
    return czk_gpu_launch_pass_rev(x, out, log_n, last_pass_k(g, log_n), g->tw, g->tw_log, inverse, mode, scalar, y,
                                   hi, lo, g->cs_s, g->stream);
}

/* The transform `kind` of x (2^d->log_n points, log_n >= 1) into out in
 * natural order (run_dif_to), where enqueue_ntt works in place. */
static cudaError_t enqueue_ntt_to(czk_gpu *g, const czk_domain *d, void *x, void *out, czk_gpu_ntt_kind kind) {
    const unsigned L = d->log_n;
    switch (kind) {
    case CZK_GPU_NTT_INVERSE:
        return run_dif_to(g, x, out, L, 1, 1, &d->n_inv, NULL, NULL, NULL);
    case CZK_GPU_NTT_COSET_INVERSE:
        return run_dif_to(g, x, out, L, 1, 2, NULL, NULL, cs_hi(g, CS_GIHI_N), cs_lo(g, CS_GILO));
    case CZK_GPU_NTT_COSET: {
        cudaError_t ce = czk_gpu_launch_scale(x, d->n, cs_hi(g, CS_GHI), cs_lo(g, CS_GLO), g->cs_s, 0, g->stream);
        return ce != cudaSuccess ? ce : run_dif_to(g, x, out, L, 0, 0, NULL, NULL, NULL, NULL);
    }
    default:
        return run_dif_to(g, x, out, L, 0, 0, NULL, NULL, NULL, NULL);
    }
}

/* Enqueues the transform `kind` of x (2^d->log_n points) on g's stream; the
 * tables must be ready. */
static cudaError_t enqueue_ntt(czk_gpu *g, const czk_domain *d, void *x, czk_gpu_ntt_kind kind) {
    unsigned L = d->log_n;
    cudaError_t ce = cudaSuccess;
    switch (kind) {
    case CZK_GPU_NTT_FORWARD:
        ce = run_dif(g, x, L, 0);
        if (ce == cudaSuccess) ce = czk_gpu_launch_bitrev(x, L, 0, NULL, NULL, NULL, 0, g->stream);
        break;
    case CZK_GPU_NTT_INVERSE:
        ce = run_dif(g, x, L, 1);
        if (ce == cudaSuccess) ce = czk_gpu_launch_bitrev(x, L, 1, &d->n_inv, NULL, NULL, 0, g->stream);
        break;
    case CZK_GPU_NTT_COSET:
        ce = czk_gpu_launch_scale(x, d->n, cs_hi(g, CS_GHI), cs_lo(g, CS_GLO), g->cs_s, 0, g->stream);
        if (ce == cudaSuccess) ce = run_dif(g, x, L, 0);
        if (ce == cudaSuccess) ce = czk_gpu_launch_bitrev(x, L, 0, NULL, NULL, NULL, 0, g->stream);
        break;
    case CZK_GPU_NTT_COSET_INVERSE:
        ce = run_dif(g, x, L, 1);
        if (ce == cudaSuccess)
            ce = czk_gpu_launch_bitrev(x, L, 2, NULL, cs_hi(g, CS_GIHI_N), cs_lo(g, CS_GILO), g->cs_s, g->stream);
        break;
    default:
        ce = cudaErrorInvalidValue;
    }
    return ce;
}

static czk_err check_domain(const czk_domain *d, char *msg, size_t msglen) {
    if (!d || d->n == 0 || d->n != (size_t)1 << d->log_n || d->log_n > 31)
        return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid domain%s%s", "", "");
    return CZK_OK;
}

static czk_err prepare(czk_gpu *g, const czk_domain *d, int coset, char *msg, size_t msglen) {
    czk_err e = check_domain(d, msg, msglen);
    if (e != CZK_OK) return e;
    CK(cudaSetDevice(g->ordinal), "cudaSetDevice");
    e = ensure_twiddles(g, d->log_n, msg, msglen);
    if (e == CZK_OK && coset) e = ensure_coset(g, d, msg, msglen);
    return e;
}

czk_err czk_gpu_vec_alloc(czk_gpu *g, size_t n, czk_gpu_vec **out, char *msg, size_t msglen) {
    *out = NULL;
    if (!g || n == 0) return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    CK(cudaSetDevice(g->ordinal), "cudaSetDevice");
    czk_gpu_vec *v = calloc(1, sizeof *v);
    if (!v) return fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory%s%s", "", "");
    czk_err e = dev_alloc(g, &v->p, n * sizeof(czk_fr), "a device vector", msg, msglen);
    if (e != CZK_OK) {
        free(v);
        return e;
    }
    v->g = g;
    v->n = n;
    *out = v;
    return CZK_OK;
}

void czk_gpu_vec_free(czk_gpu_vec *v) {
    if (!v) return;
    cudaSetDevice(v->g->ordinal);
    cudaStreamSynchronize(v->g->stream);
    dev_free(v->g, v->p, v->n * sizeof(czk_fr));
    free(v);
}

czk_err czk_gpu_vec_upload(czk_gpu_vec *v, const czk_fr *src, char *msg, size_t msglen) {
    CK(cudaSetDevice(v->g->ordinal), "cudaSetDevice");
    CK(cudaMemcpyAsync(v->p, src, v->n * sizeof(czk_fr), cudaMemcpyHostToDevice, v->g->stream), "upload");
    CK(cudaStreamSynchronize(v->g->stream), "upload");
    return CZK_OK;
}

czk_err czk_gpu_vec_download(const czk_gpu_vec *v, czk_fr *dst, char *msg, size_t msglen) {
    CK(cudaSetDevice(v->g->ordinal), "cudaSetDevice");
    CK(cudaMemcpyAsync(dst, v->p, v->n * sizeof(czk_fr), cudaMemcpyDeviceToHost, v->g->stream), "download");
    CK(cudaStreamSynchronize(v->g->stream), "download");
    return CZK_OK;
}

static int is_coset(czk_gpu_ntt_kind kind) { return kind == CZK_GPU_NTT_COSET || kind == CZK_GPU_NTT_COSET_INVERSE; }

czk_err czk_gpu_ntt_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *v, czk_gpu_ntt_kind kind, char *msg,
                        size_t msglen) {
    if (!g || !v || v->g != g || (unsigned)kind > CZK_GPU_NTT_COSET_INVERSE)
        return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    czk_err e = prepare(g, d, is_coset(kind), msg, msglen);
    if (e != CZK_OK) return e;
    if (v->n < d->n) return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "device vector shorter than the domain%s%s", "", "");
    /* out of place where a second vector of v's size fits (then the two
     * swap), in place with a separate bit reversal where it does not */
    const size_t bytes = v->n * sizeof(czk_fr);
    void *out = NULL;
    if (d->log_n >= 1 && v->n == d->n && !g->separate_bitrev && dev_alloc(g, &out, bytes, "", NULL, 0) != CZK_OK)
        out = NULL;
    if (!out) {
        CK(enqueue_ntt(g, d, v->p, kind), "the NTT kernels");
        CK(cudaStreamSynchronize(g->stream), "the NTT kernels");
        return CZK_OK;
    }
    cudaError_t ce = enqueue_ntt_to(g, d, v->p, out, kind);
    if (ce == cudaSuccess) ce = cudaStreamSynchronize(g->stream);
    if (ce == cudaSuccess) {
        void *t = v->p;
        v->p = out;
        out = t;
    } else {
        (void)cudaGetLastError();
    }
    dev_free(g, out, bytes);
    return ce == cudaSuccess ? CZK_OK : cuda_fail(ce, "the NTT kernels", msg, msglen);
}

czk_err czk_gpu_ntt(czk_gpu *g, const czk_domain *d, czk_fr *a, czk_gpu_ntt_kind kind, char *msg, size_t msglen) {
    if (!g || !a || (unsigned)kind > CZK_GPU_NTT_COSET_INVERSE)
        return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    czk_err e = prepare(g, d, is_coset(kind), msg, msglen);
    if (e != CZK_OK) return e;
    czk_gpu_vec *v = NULL;
    e = czk_gpu_vec_alloc(g, d->n, &v, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_vec_upload(v, a, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_ntt_vec(g, d, v, kind, msg, msglen);
    if (e == CZK_OK) e = czk_gpu_vec_download(v, a, msg, msglen);
    czk_gpu_vec_free(v);
    return e;
}

/* H on device buffers: the coefficients of (a·b - c)/Z on the coset gD,
 * the same values as bellperson's execute_fft (see poly_h.c) in six
 * transforms instead of seven. Interpolation on gD is linear, and c's
 * interpolant there is c's own polynomial (degree < n), so
 *   h = (iNTT_coset(A_g·B_g) - iNTT(c)) / Z(g),
 * A_g, B_g the coset evaluations of a's and b's polynomials: c needs only
 * its inverse transform, and needs it only at the end, so that a start's
 * last upload (c) is followed by one transform instead of three. Exact
 * field arithmetic: the same h for any a, b, c, satisfied or not.
 *
 * a and b each go through an inverse DIF (coefficients in bit-reversed
 * order), the factor g^i/n on coefficient i and a forward DIT (the coset
 * evaluations in natural order); the inverse DIF's last pass, the factor
 * and the DIT's first pass are one kernel (czk_gpu_launch_pass_fused). a·b
 * is done by the first pass of its inverse DIF; c gets an inverse DIF whose
 * last pass writes h[i] = AB[rev i]·g^-i/(n·Z) - C[rev i]/(n·Z) (or, in
 * place, a bit reversal does; enqueue_h_c). */
static cudaError_t enqueue_h_input(czk_gpu *g, const czk_domain *d, void *x) {
    const unsigned L = d->log_n;
    if (L == 0) return czk_gpu_launch_scale(x, d->n, cs_hi(g, CS_GHI_N), cs_lo(g, CS_GLO), g->cs_s, 0, g->stream);
    cudaError_t ce = run_passes_but(g, x, L, 1, 0, 1, NULL);
    if (ce == cudaSuccess)
        ce = czk_gpu_launch_pass_fused(x, L, last_pass_k(g, L), g->tw, g->tw_log, cs_hi(g, CS_GHI_N), cs_lo(g, CS_GLO), g->cs_s,
                                       g->stream);
    if (ce == cudaSuccess) ce = run_passes_but(g, x, L, 0, 1, 1, NULL);
    return ce;
}

/* the inverse DIF of A_g·B_g, into a (a and b transformed by enqueue_h_input) */
static cudaError_t enqueue_h_ab(czk_gpu *g, const czk_domain *d, void *a, const void *b) {
    const unsigned L = d->log_n;
    return L ? run_passes_but(g, a, L, 1, 0, 0, b) : czk_gpu_launch_mul(a, b, d->n, g->stream);
}

/* c's inverse DIF, then h into a (enqueue_h_ab done). Where b is free
 * for it (b is a's size), c's last pass writes h in natural order into b,
 * and a and b swap their buffers (pass_rev, mode 3); else c's passes run in
 * place and a bit reversal writes h into a. */
static cudaError_t enqueue_h_c(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c) {
    const unsigned L = d->log_n;
    if (L >= 1 && b && b->n == a->n && !g->separate_bitrev) {
        const cudaError_t ce =
            run_dif_to(g, c->p, b->p, L, 1, 3, &g->cs_nz, a->p, cs_hi(g, CS_GIHI_NZ), cs_lo(g, CS_GILO));
        if (ce == cudaSuccess) {
            void *t = a->p;
            a->p = b->p;
            b->p = t;
        }
        return ce;
    }
    cudaError_t ce = run_dif(g, c->p, L, 1);
    if (ce == cudaSuccess)
        ce = czk_gpu_launch_bitrev_sub(a->p, c->p, L, &g->cs_nz, cs_hi(g, CS_GIHI_NZ), cs_lo(g, CS_GILO), g->cs_s,
                                       g->stream);
    return ce;
}

static cudaError_t enqueue_h(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c) {
    cudaError_t ce = enqueue_h_input(g, d, a->p);
    if (ce == cudaSuccess) ce = enqueue_h_input(g, d, b->p);
    if (ce == cudaSuccess) ce = enqueue_h_ab(g, d, a->p, b->p);
    if (ce == cudaSuccess) ce = enqueue_h_c(g, d, a, b, c);
    return ce;
}

czk_err czk_gpu_poly_h_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c,
                           char *msg, size_t msglen) {
    if (!g || !a || !b || !c || a->g != g || b->g != g || c->g != g)
        return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    czk_err e = prepare(g, d, 1, msg, msglen);
    if (e != CZK_OK) return e;
    if (a->n < d->n || b->n < d->n || c->n < d->n)
        return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "device vector shorter than the domain%s%s", "", "");
    CK(enqueue_h(g, d, a, b, c), "the H kernels");
    CK(cudaStreamSynchronize(g->stream), "the H kernels");
    return CZK_OK;
}

czk_err czk_gpu_poly_h(czk_gpu *g, const czk_domain *d, czk_fr *a, const czk_fr *b, const czk_fr *c, char *msg,
                       size_t msglen) {
    if (!g || !a || !b || !c) return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    czk_err e = prepare(g, d, 1, msg, msglen);
    if (e != CZK_OK) return e;
    czk_gpu_vec *v[3] = {NULL, NULL, NULL};
    const czk_fr *src[3] = {a, b, c};
    for (int k = 0; k < 3 && e == CZK_OK; k++) e = czk_gpu_vec_alloc(g, d->n, &v[k], msg, msglen);
    /* uploads are queued in order; the kernels of a start behind its copy */
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        cudaError_t ce = cudaMemcpyAsync(v[k]->p, src[k], d->n * sizeof(czk_fr), cudaMemcpyHostToDevice, g->stream);
        if (ce != cudaSuccess) {
            (void)cudaGetLastError();
            e = cuda_fail(ce, "upload of a, b, c", msg, msglen);
        }
    }
    if (e == CZK_OK) {
        cudaError_t ce = enqueue_h(g, d, v[0], v[1], v[2]);
        if (ce != cudaSuccess) {
            (void)cudaGetLastError();
            e = cuda_fail(ce, "the H kernels", msg, msglen);
        }
    }
    if (e == CZK_OK) e = czk_gpu_vec_download(v[0], a, msg, msglen);
    for (int k = 0; k < 3; k++) czk_gpu_vec_free(v[k]);
    return e;
}

/* ---- staged uploads and H from host vectors (gpu_stage.h) --------------------- */

void *czk_gpu_vec_ptr(czk_gpu_vec *v) { return v ? v->p : NULL; }

size_t czk_gpu_mem_cap(const czk_gpu *g) { return g ? g->cap : 0; }

/* The device side of packed uploads: two device buffers for packed chunks
 * after the table of small values, an unpacking stream of the device's
 * highest priority and its events. Only where the cap leaves 16 times their
 * size free (a small cap is for the partition itself): else st->packed
 * stays NULL and CZK_OK (packed chunks are then unpacked on the host). */
static czk_err stager_packed_buffers(czk_gpu_stager *st, char *msg, size_t msglen) {
    czk_gpu *g = st->g;
    const size_t bytes = STAGE_SMALL_BYTES + 2 * CZK_GPU_STAGE_BYTES, used = czk_gpu_mem_used(g);
    if (st->packed || st->packed_tried) return CZK_OK;
    st->packed_tried = true;
    if (used > g->cap || g->cap - used < 16 * bytes) return CZK_OK;
    if (czk_gpu_dev_alloc(g, &st->packed, bytes, "the packed upload buffers", NULL, 0) != CZK_OK) {
        st->packed = NULL;
        return CZK_OK;
    }
    st->packed_bytes = bytes;
    int lo = 0, hi = 0;
    cudaError_t ce = cudaDeviceGetStreamPriorityRange(&lo, &hi);
    if (ce == cudaSuccess) ce = cudaStreamCreateWithPriority(&st->unpack, cudaStreamNonBlocking, hi);
    for (int k = 0; k < 2 && ce == cudaSuccess; k++) {
        ce = cudaEventCreateWithFlags(&st->land_ev[k], cudaEventDisableTiming);
        if (ce == cudaSuccess) ce = cudaEventCreateWithFlags(&st->unpack_ev[k], cudaEventDisableTiming);
    }
    /* both device buffers start free */
    for (int k = 0; k < 2 && ce == cudaSuccess; k++) ce = cudaEventRecord(st->unpack_ev[k], st->unpack);
    /* the table every packer uses, host-packed vectors' too */
    const czk_fr_pack_table *t = czk_fr_pack_table_get();
    if (ce == cudaSuccess) ce = cudaMemcpy(st->packed, t->small, sizeof t->small, cudaMemcpyHostToDevice);
    if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        if (st->unpack) cudaStreamDestroy(st->unpack);
        for (int k = 0; k < 2; k++) {
            if (st->land_ev[k]) cudaEventDestroy(st->land_ev[k]);
            if (st->unpack_ev[k]) cudaEventDestroy(st->unpack_ev[k]);
            st->land_ev[k] = st->unpack_ev[k] = NULL;
        }
        st->unpack = NULL;
        czk_gpu_dev_free(g, st->packed, bytes);
        st->packed = NULL;
        st->packed_bytes = 0;
        return cuda_fail(ce, "the packed upload buffers", msg, msglen);
    }
    return CZK_OK;
}

czk_err czk_gpu_stager_open(czk_gpu *g, czk_gpu_stager **out, char *msg, size_t msglen) {
    *out = NULL;
    if (!g) return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    CK(cudaSetDevice(g->ordinal), "cudaSetDevice");
    czk_gpu_stager *st = calloc(1, sizeof *st);
    if (!st) return fail(msg, msglen, CZK_ERR_NO_MEMORY, "out of host memory%s%s", "", "");
    st->g = g;
    cudaError_t ce = cudaStreamCreateWithFlags(&st->copy, cudaStreamNonBlocking);
    if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        free(st);
        return cuda_fail(ce, "cudaStreamCreate (copies)", msg, msglen);
    }
    int made_ev = 0;
    for (int k = 0; k < 2 && ce == cudaSuccess; k++) {
        ce = cudaHostAlloc(&st->pin[k], CZK_GPU_STAGE_BYTES, cudaHostAllocDefault);
        if (ce == cudaSuccess) ce = cudaEventCreateWithFlags(&st->pin_ev[k], cudaEventDisableTiming);
        if (ce == cudaSuccess) made_ev++;
    }
    if (ce == cudaSuccess) ce = cudaEventCreateWithFlags(&st->up_ev, cudaEventDisableTiming);
    if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        for (int k = 0; k < 2; k++)
            if (st->pin[k]) cudaFreeHost(st->pin[k]);
        for (int k = 0; k < made_ev; k++) cudaEventDestroy(st->pin_ev[k]);
        cudaStreamDestroy(st->copy);
        free(st);
        return cuda_fail(ce, "pinned staging buffers", msg, msglen);
    }
    /* packing plain uploads on the fly: CZK_GPU_PACK=1 (every upload) or
     * CZK_GPU_PACK=a (a's upload in czk_gpu_poly_h_staged only, the one the
     * GPU idles through). Off by default: on an H200 at 2^27 they made start
     * no faster (docs/gpu.md says why). Their device buffers are made here
     * for them, else at the first upload of an already packed vector. */
    const char *pack = getenv("CZK_GPU_PACK");
    st->pack_off = pack && pack[0] == 'a';
    st->pack_plain = pack && (pack[0] == '1' || pack[0] == 'a');
    if (st->pack_plain) {
        const czk_err e = stager_packed_buffers(st, msg, msglen);
        if (e != CZK_OK) {
            czk_gpu_stager_close(st);
            return e;
        }
    }
    *out = st;
    return CZK_OK;
}

size_t czk_gpu_stager_chunks_packed(const czk_gpu_stager *st) { return st ? st->chunks_packed : 0; }

size_t czk_gpu_chunks_packed(czk_gpu *g) {
    if (!g) return 0;
    pthread_mutex_lock(&g->mem_mu);
    const size_t n = g->chunks_packed;
    pthread_mutex_unlock(&g->mem_mu);
    return n;
}

void czk_gpu_stager_close(czk_gpu_stager *st) {
    if (!st) return;
    cudaSetDevice(st->g->ordinal);
    cudaStreamSynchronize(st->copy);
    for (int k = 0; k < 2; k++) {
        cudaFreeHost(st->pin[k]);
        cudaEventDestroy(st->pin_ev[k]);
    }
    cudaEventDestroy(st->up_ev);
    if (st->unpack) {
        cudaStreamSynchronize(st->unpack);
        cudaStreamDestroy(st->unpack);
    }
    for (int k = 0; k < 2; k++) {
        if (st->land_ev[k]) cudaEventDestroy(st->land_ev[k]);
        if (st->unpack_ev[k]) cudaEventDestroy(st->unpack_ev[k]);
    }
    cudaStreamDestroy(st->copy);
    if (st->packed) czk_gpu_dev_free(st->g, st->packed, st->packed_bytes);
    free(st);
}

typedef struct {
    char *dst;
    const char *src;
} copy_job;

static void copy_part(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    copy_job *j = ctx;
    memcpy(j->dst + begin, j->src + begin, end - begin);
}

/* len bytes from src into pinned buffer slot on pool, in parts of a
 * sixteenth (64 KiB to 1 MiB): a packed chunk of a few MB then takes every
 * core, not one (on an H200's host, a's packed upload in H was bound by
 * the one-core copy: 23 ms for 2^27 values) */
static void pin_copy(czk_gpu_stager *st, int slot, const void *src, size_t len, czk_pool *pool) {
    copy_job j = {st->pin[slot], src};
    size_t grain = len / 16;
    grain = grain < ((size_t)64 << 10) ? (size_t)64 << 10 : grain > ((size_t)1 << 20) ? (size_t)1 << 20 : grain;
    czk_pool_run(pool, len, grain, copy_part, &j);
}

/* the DMA of len bytes of pinned buffer slot to dst on the copy stream;
 * pin_ev[slot] marks the buffer free again */
static czk_err stage_dma(czk_gpu_stager *st, int slot, void *dst, size_t len, char *msg, size_t msglen) {
    CK(cudaMemcpyAsync(dst, st->pin[slot], len, cudaMemcpyHostToDevice, st->copy), "the staged upload");
    CK(cudaEventRecord(st->pin_ev[slot], st->copy), "the staged upload");
    return CZK_OK;
}

/* one chunk of len bytes: copied into pinned buffer slot on pool, then its
 * DMA to dst */
static czk_err stage_chunk(czk_gpu_stager *st, int slot, void *dst, const void *src, size_t len, czk_pool *pool,
                           char *msg, size_t msglen) {
    pin_copy(st, slot, src, len, pool);
    return stage_dma(st, slot, dst, len, msg, msglen);
}

/* the host buffer is free once both pinned buffers have been copied out
 * of; the caller frees src after this returns, so wait for the copies.
 * up_ev, on the copy stream, comes after the last unpack too. */
static czk_err stage_done(czk_gpu_stager *st, char *msg, size_t msglen) {
    for (int k = 0; k < 2; k++) CK(cudaEventSynchronize(st->pin_ev[k]), "the staged upload");
    if (st->unpack)
        for (int k = 0; k < 2; k++) CK(cudaStreamWaitEvent(st->copy, st->unpack_ev[k], 0), "the staged upload");
    CK(cudaEventRecord(st->up_ev, st->copy), "the staged upload");
    return CZK_OK;
}

/* Copies bytes from pageable src to device dst in chunks through the two
 * pinned buffers on the copy stream: the memcpy of chunk i+1 runs while the
 * DMA of chunk i does. Returns when the last chunk was handed to the DMA
 * engine (src may then be freed); up_ev marks its completion. */
static czk_err stage_copy(czk_gpu_stager *st, void *dst, const void *src, size_t bytes, czk_pool *pool, char *msg,
                          size_t msglen) {
    int slot = 0;
    for (size_t off = 0; off < bytes; off += CZK_GPU_STAGE_BYTES, slot ^= 1) {
        const size_t len = bytes - off < CZK_GPU_STAGE_BYTES ? bytes - off : CZK_GPU_STAGE_BYTES;
        CK(cudaEventSynchronize(st->pin_ev[slot]), "the staged upload");
        const czk_err e = stage_chunk(st, slot, (char *)dst + off, (const char *)src + off, len, pool, msg, msglen);
        if (e != CZK_OK) return e;
    }
    return stage_done(st, msg, msglen);
}

/* The packed chunk of len values in pinned buffer slot (bytes long) to
 * the device's packed buffer slot on the copy stream (once that buffer's
 * last unpack is done), and its unpack into dst on the unpack stream. */
static czk_err stage_packed_chunk(czk_gpu_stager *st, int slot, czk_fr *dst, size_t len, size_t bytes, char *msg,
                                  size_t msglen) {
    void *dev = (char *)st->packed + STAGE_SMALL_BYTES + (size_t)slot * CZK_GPU_STAGE_BYTES;
    CK(cudaStreamWaitEvent(st->copy, st->unpack_ev[slot], 0), "the staged upload");
    CK(cudaMemcpyAsync(dev, st->pin[slot], bytes, cudaMemcpyHostToDevice, st->copy), "the staged upload");
    CK(cudaEventRecord(st->pin_ev[slot], st->copy), "the staged upload");
    CK(cudaEventRecord(st->land_ev[slot], st->copy), "the staged upload");
    CK(cudaStreamWaitEvent(st->unpack, st->land_ev[slot], 0), "the staged upload");
    CK(czk_gpu_launch_unpack(dev, len, st->packed, dst, st->unpack), "the unpacking kernel");
    CK(cudaEventRecord(st->unpack_ev[slot], st->unpack), "the unpacking kernel");
    st->chunks_packed++;
    pthread_mutex_lock(&st->g->mem_mu);
    st->g->chunks_packed++;
    pthread_mutex_unlock(&st->g->mem_mu);
    return CZK_OK;
}

/* count Fr values from pageable src to device dst, like stage_copy but in
 * chunks of up to CZK_FR_PACK_MAX values, each packed (czk/fr_pack.h) into the
 * pinned buffer when most of its values are small multiples of one: then
 * only the packed bytes cross PCIe, into the chunk's device buffer (once
 * its last unpack is done), and a kernel on the unpack stream unpacks them
 * into dst, while the copy stream goes on with the next chunk. The other
 * chunks are copied as they are. */
static czk_err stage_copy_fr(czk_gpu_stager *st, czk_fr *dst, const czk_fr *src, size_t count, czk_pool *pool,
                             char *msg, size_t msglen) {
    if (!st->packed || !st->pack_plain || st->pack_off)
        return stage_copy(st, dst, src, count * sizeof(czk_fr), pool, msg, msglen);
    int slot = 0;
    for (size_t off = 0; off < count; off += CZK_FR_PACK_MAX, slot ^= 1) {
        const size_t len = count - off < CZK_FR_PACK_MAX ? count - off : CZK_FR_PACK_MAX;
        CK(cudaEventSynchronize(st->pin_ev[slot]), "the staged upload");
        const size_t packed = czk_fr_pack(czk_fr_pack_table_get(), src + off, len, st->pin[slot], CZK_GPU_STAGE_BYTES, pool);
        if (!packed) {
            const czk_err e = stage_chunk(st, slot, dst + off, src + off, len * sizeof(czk_fr), pool, msg, msglen);
            if (e != CZK_OK) return e;
            continue;
        }
        const czk_err e = stage_packed_chunk(st, slot, dst + off, len, packed, msg, msglen);
        if (e != CZK_OK) return e;
    }
    return stage_done(st, msg, msglen);
}

/* count = src->n values from the packed vector src (czk/fr_pack.h) to
 * device dst: its packed chunks cross PCIe as they are and are unpacked on
 * the device (as stage_copy_fr's), its plain chunks as stage_copy's. Where
 * the device has no room for the packed chunks' buffers, the host unpacks
 * each chunk into the pinned buffer and it goes plain. */
static czk_err stage_packed(czk_gpu_stager *st, czk_fr *dst, const czk_fr_packed *src, czk_pool *pool, char *msg,
                            size_t msglen) {
    czk_err e = stager_packed_buffers(st, msg, msglen);
    int slot = 0;
    for (size_t i = 0; i < src->n_chunks && e == CZK_OK; i++, slot ^= 1) {
        const czk_fr_chunk *c = &src->chunks[i];
        CK(cudaEventSynchronize(st->pin_ev[slot]), "the staged upload");
        if (!c->packed) { /* as stage_copy's chunks: copied on the pool */
            e = stage_chunk(st, slot, dst + c->off, c->data, c->bytes, pool, msg, msglen);
        } else if (st->packed) {
            pin_copy(st, slot, c->data, c->bytes, pool);
            e = stage_packed_chunk(st, slot, dst + c->off, c->n, c->bytes, msg, msglen);
        } else {
            czk_fr_unpack(czk_fr_pack_table_get(), c->data, c->n, st->pin[slot]);
            e = stage_dma(st, slot, dst + c->off, c->n * sizeof(czk_fr), msg, msglen);
        }
    }
    if (e != CZK_OK) return e;
    return stage_done(st, msg, msglen);
}

/* count values into v (zero beyond) on st's copy stream; up_ev marks the
 * end. On failure the copy stream is waited for, so that v may be freed
 * (and its block reused) at once. */
static czk_err stage_vec_try(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr *src, size_t count,
                             czk_pool *pool, char *msg, size_t msglen) {
    if (!st || !v || v->g != st->g || (count && !src) || count > v->n)
        return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    CK(cudaSetDevice(st->g->ordinal), "cudaSetDevice");
    if (count < v->n)
        CK(cudaMemsetAsync((czk_fr *)v->p + count, 0, (v->n - count) * sizeof(czk_fr), st->copy), "cudaMemset");
    return stage_copy_fr(st, v->p, src, count, pool, msg, msglen);
}

static czk_err stage_vec(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr *src, size_t count, czk_pool *pool,
                         char *msg, size_t msglen) {
    czk_err e = stage_vec_try(st, v, src, count, pool, msg, msglen);
    if (e != CZK_OK && st) {
        cudaStreamSynchronize(st->copy);
        if (st->unpack) cudaStreamSynchronize(st->unpack);
        (void)cudaGetLastError();
    }
    return e;
}

/* stage_vec for a packed source */
static czk_err stage_vec_packed_try(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr_packed *src, czk_pool *pool,
                                    char *msg, size_t msglen) {
    if (!st || !v || v->g != st->g || !src || src->n > v->n)
        return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    CK(cudaSetDevice(st->g->ordinal), "cudaSetDevice");
    if (src->n < v->n)
        CK(cudaMemsetAsync((czk_fr *)v->p + src->n, 0, (v->n - src->n) * sizeof(czk_fr), st->copy), "cudaMemset");
    return stage_packed(st, v->p, src, pool, msg, msglen);
}

static czk_err stage_vec_packed(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr_packed *src, czk_pool *pool,
                                char *msg, size_t msglen) {
    czk_err e = stage_vec_packed_try(st, v, src, pool, msg, msglen);
    if (e != CZK_OK && st) {
        cudaStreamSynchronize(st->copy);
        if (st->unpack) cudaStreamSynchronize(st->unpack);
        (void)cudaGetLastError();
    }
    return e;
}

czk_err czk_gpu_vec_upload_packed_via(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr_packed *src, czk_pool *pool,
                                      char *msg, size_t msglen) {
    czk_err e = stage_vec_packed(st, v, src, pool, msg, msglen);
    if (e != CZK_OK) return e;
    CK(cudaEventSynchronize(st->up_ev), "the staged upload");
    return CZK_OK;
}

czk_err czk_gpu_vec_upload_via(czk_gpu_stager *st, czk_gpu_vec *v, const czk_fr *src, size_t count, czk_pool *pool,
                               char *msg, size_t msglen) {
    czk_err e = stage_vec(st, v, src, count, pool, msg, msglen);
    if (e != CZK_OK) return e;
    CK(cudaEventSynchronize(st->up_ev), "the staged upload");
    return CZK_OK;
}

/* the words, then the scan on the copy stream into prefix (its scratch
 * after the nw counts) */
static czk_err density_try(czk_gpu_stager *st, const czk_bitmap *d, size_t nw, czk_pool *pool, czk_gpu_density *out,
                           char *msg, size_t msglen) {
    czk_gpu *g = st->g;
    size_t tb = 0;
    CK(czk_gpu_density_prefix(NULL, &tb, NULL, nw, NULL, st->copy), "the density prefix (size)");
    const size_t scratch_at = (out->words_bytes + 255) & ~(size_t)255;
    czk_err e = dev_alloc(g, &out->words, out->words_bytes, "the density map", msg, msglen);
    if (e != CZK_OK) return e;
    e = dev_alloc(g, &out->prefix, scratch_at + tb, "the density map", msg, msglen);
    if (e != CZK_OK) return e;
    out->prefix_bytes = scratch_at + tb;
    e = stage_copy(st, out->words, d->words, out->words_bytes, pool, msg, msglen);
    if (e != CZK_OK) return e;
    CK(czk_gpu_density_prefix((char *)out->prefix + scratch_at, &tb, out->words, nw, out->prefix, st->copy),
       "the density prefix");
    CK(cudaStreamSynchronize(st->copy), "the density prefix");
    return CZK_OK;
}

czk_err czk_gpu_density_upload_via(czk_gpu_stager *st, const czk_bitmap *d, size_t n, czk_pool *pool,
                                   czk_gpu_density *out, char *msg, size_t msglen) {
    if (out) memset(out, 0, sizeof *out);
    if (!st || !d || !out || !n || d->nbits < n)
        return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    CK(cudaSetDevice(st->g->ordinal), "cudaSetDevice");
    const size_t nw = (n + 63) / 64;
    out->g = st->g;
    out->n = n;
    out->nset = czk_bitmap_rank(d, n);
    out->words_bytes = nw * 8;
    czk_err e = density_try(st, d, nw, pool, out, msg, msglen);
    if (e != CZK_OK) {
        cudaStreamSynchronize(st->copy);
        (void)cudaGetLastError();
        czk_gpu_density_free(out);
    }
    return e;
}

void czk_gpu_density_free(czk_gpu_density *d) {
    if (!d || !d->g) return;
    cudaSetDevice(d->g->ordinal);
    dev_free(d->g, d->words, d->words_bytes);
    dev_free(d->g, d->prefix, d->prefix_bytes);
    memset(d, 0, sizeof *d);
}

/* the lock holder's stager, made at its first use */
static czk_err own_stager(czk_gpu *g, char *msg, size_t msglen) {
    return g->stager ? CZK_OK : czk_gpu_stager_open(g, &g->stager, msg, msglen);
}

czk_err czk_gpu_holder_stager(czk_gpu *g, czk_gpu_stager **out, char *msg, size_t msglen) {
    *out = NULL;
    if (!g) return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    czk_err e = own_stager(g, msg, msglen);
    if (e == CZK_OK) *out = g->stager;
    return e;
}

/* Copies count values from pageable host memory into v through the holder's
 * staging buffers and zero-fills v beyond them; the copies into the staging
 * buffers run on pool while the DMA engine empties the other buffer; src
 * may be freed when this returns; work queued on the compute stream
 * afterwards sees the data. */
static czk_err vec_upload_staged(czk_gpu_vec *v, const czk_fr *src, const czk_fr_packed *psrc, size_t count,
                                 czk_pool *pool, char *msg, size_t msglen) {
    if (!v) return fail(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "invalid argument%s%s", "", "");
    czk_gpu *g = v->g;
    czk_err e = own_stager(g, msg, msglen);
    if (e == CZK_OK)
        e = psrc ? stage_vec_packed(g->stager, v, psrc, pool, msg, msglen)
                 : stage_vec(g->stager, v, src, count, pool, msg, msglen);
    if (e != CZK_OK) return e;
    /* later work on the compute stream sees the data */
    CK(cudaStreamWaitEvent(g->stream, g->stager->up_ev, 0), "cudaStreamWaitEvent");
    return CZK_OK;
}

czk_err czk_gpu_poly_h_staged(czk_gpu *g, const czk_domain *d, czk_fr *const src[3],
                              const czk_fr_packed *const psrc[3], czk_gpu_vec *pre[3], size_t n_have, czk_pool *pool,
                              czk_gpu_vec **h_out, void (*done)(int k, void *ctx), void *ctx, char *msg,
                              size_t msglen) {
    *h_out = NULL;
    czk_gpu_vec *v[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
        if (pre) v[k] = pre[k], pre[k] = NULL; /* ours from here on */
    }
    czk_err e = CZK_OK;
    if (!g || !d || n_have > d->n) e = CZK_ERR_INVALID_ARGUMENT;
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        const czk_fr_packed *pk = psrc ? psrc[k] : NULL;
        if (v[k] ? v[k]->g != g || v[k]->n != d->n : (!src[k] == !pk || (pk && pk->n != n_have)))
            e = CZK_ERR_INVALID_ARGUMENT;
    }
    if (e != CZK_OK) {
        for (int k = 0; k < 3; k++) czk_gpu_vec_free(v[k]);
        return fail(msg, msglen, e, "invalid argument%s%s", "", "");
    }
    e = prepare(g, d, 1, msg, msglen);
    if (e == CZK_OK) e = own_stager(g, msg, msglen);
    int staged[3] = {v[0] == NULL, v[1] == NULL, v[2] == NULL};
    for (int k = 0; k < 3 && e == CZK_OK; k++)
        if (staged[k]) e = czk_gpu_vec_alloc(g, d->n, &v[k], msg, msglen);
    /* CZK_GPU_H_PROFILE=1: the host's time in each staged upload and in the
     * wait for the last kernels, on stderr (for tuning) */
    const int prof = getenv("CZK_GPU_H_PROFILE") && getenv("CZK_GPU_H_PROFILE")[0] == '1';
    double tp[5] = {0};
    tp[0] = now_ms();
    /* vector k's kernels run while vector k+1 is staged: a's and b's
     * transforms, then the inverse of a·b while c is staged, so that c's
     * upload is followed by one transform (enqueue_h_c) */
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        if (staged[k]) {
            /* CZK_GPU_PACK=a: a goes packed, while nothing runs on the GPU */
            const bool off = g->stager->pack_off;
            if (k == 0) g->stager->pack_off = false;
            e = vec_upload_staged(v[k], src[k], psrc ? psrc[k] : NULL, n_have, pool, msg, msglen);
            g->stager->pack_off = off;
            if (e != CZK_OK) break;
            if (done) done(k, ctx);
        }
        tp[k + 1] = now_ms();
        cudaError_t ce = k < 2 ? enqueue_h_input(g, d, v[k]->p) : enqueue_h_c(g, d, v[0], v[1], v[2]);
        if (ce == cudaSuccess && k == 1) ce = enqueue_h_ab(g, d, v[0]->p, v[1]->p);
        if (ce != cudaSuccess) {
            (void)cudaGetLastError();
            e = cuda_fail(ce, "the H kernels", msg, msglen);
        }
    }
    if (e == CZK_OK) {
        unsigned L = d->log_n;
        cudaError_t ce = cudaStreamSynchronize(g->stream);
        if (ce != cudaSuccess) {
            (void)cudaGetLastError();
            e = cuda_fail(ce, "the H kernels", msg, msglen);
        }
        tp[4] = now_ms();
        if (prof)
            fprintf(stderr, "gpu H 2^%u staged: upload a %.1f ms, b %.1f ms, c %.1f ms, then kernels %.1f ms\n", L,
                    tp[1] - tp[0], tp[2] - tp[1], tp[3] - tp[2], tp[4] - tp[3]);
    }
    czk_gpu_vec_free(v[1]);
    czk_gpu_vec_free(v[2]);
    if (e != CZK_OK) {
        czk_gpu_vec_free(v[0]);
        return e;
    }
    *h_out = v[0];
    return CZK_OK;
}
