/* czk — private to the CUDA backend's host files (C only, never seen by
 * nvcc): the device handle, device vectors, and what the files of the
 * split share:
 *   device.c      devices, open / close / describe, accessors
 *   devmem.c      the byte cap, the free-block cache, czk_gpu_vec
 *   ntt_tables.c  twiddle and coset tables
 *   ntt_plan.c    the passes of a transform, czk_gpu_ntt*
 *   poly_h.c      H's sequences, czk_gpu_poly_h*
 *   stage.c       pinned double-buffered and packed uploads (gpu_stage.h)
 *   density.c     density words and their prefix counts on the device */
#ifndef CZK_GPU_HOST_H
#define CZK_GPU_HOST_H

#include <pthread.h>
#include <stdbool.h>

#include "czk/gpu.h"
#include "czk/poly.h"
#include "gpu_err.h"
#include "gpu_internal.h"
#include "gpu_stage.h"

#define GPU_CACHE_MAX 64

/* coset table slots: lo tables of cs_lo_len, then hi tables of cs_hi_len */
enum { CS_GLO, CS_GILO, CS_LO_COUNT };
enum { CS_GHI, CS_GHI_N, CS_GIHI_N, CS_GIHI_NZ, CS_HI_COUNT };

struct czk_gpu {
    int ordinal;
    cudaStream_t stream;
    char desc[320];
    /* devmem.c: what czk allocates on the device, against cap. The free
     * blocks are kept for reuse by an allocation of the same size (a
     * partition allocates the same sizes as the one before): cudaFree waits
     * for the whole device, copy streams included, so under a thread's
     * staged uploads every free stalled the MSMs (on an H200 at 2^27, a
     * partition's witness MSMs took 325 ms instead of 254). Not counted in
     * used; used + cached stays within cap (the cache is trimmed first). */
    struct {
        pthread_mutex_t mu; /* all of mem, shared with the threads staging before the lock */
        size_t cap, used;
        struct {
            void *p;
            size_t bytes;
        } cache[GPU_CACHE_MAX];
        unsigned ncache;
        size_t cached;
        size_t chunks_packed; /* upload chunks of all g's stagers that went packed */
    } mem;
    /* ntt_tables.c: tw[e] = ω_N^e for e < N/2 (N = 2^tw_log), then the
     * passes' roots tables; the coset tables of domains of 2^cs_log points
     * (cs_log = ~0u: none) */
    struct {
        void *tw;
        unsigned tw_log;
        size_t tw_bytes;
        void *cs;
        size_t cs_bytes;
        unsigned cs_log, cs_s;
        size_t cs_lo_len, cs_hi_len;
        czk_fr cs_nz; /* 1/(n·Z(g)) of that domain (H's factor on c) */
    } ntt;
    /* read once in czk_gpu_open */
    struct {
        unsigned dif_max;    /* largest k of a pass (CZK_GPU_NTT_K, 1 … 10, default 8: see stages() in ntt.cu) */
        unsigned blk_log;    /* a pass block's points, log2 (CZK_GPU_NTT_BLOCK_LOG, 8 … 10, default 9) */
        int separate_bitrev; /* CZK_GPU_NTT_BITREV=1: transforms in place, then a bit reversal (tests, benchmarks) */
    } knobs;
    /* stage.c: the staged uploads of the device's lock holder, made at the
     * first one */
    czk_gpu_stager *stager;
};

struct czk_gpu_vec {
    czk_gpu *g;
    void *p;
    size_t n;
};

/* ---- devmem.c ---- */
/* Device memory against g's cap: a cached block of the same size, else
 * cudaMalloc (the cache trimmed first so that used + cached stays within
 * the cap, and emptied for a retry when the device is full);
 * CZK_ERR_NO_MEMORY beyond the cap or when the device is full. */
czk_err czk_gpu_mem_alloc(czk_gpu *g, void **p, size_t bytes, const char *what, char *msg, size_t msglen);
/* Back to the cache (cudaFree when it is full), after the compute stream
 * (NULL ignored). */
void czk_gpu_mem_free(czk_gpu *g, void *p, size_t bytes);

/* ---- ntt_tables.c ---- */
/* Checks d, makes g's device current and its tables cover d (the coset
 * tables too when coset). */
czk_err czk_gpu_ntt_prepare(czk_gpu *g, const czk_domain *d, int coset, char *msg, size_t msglen);
/* The coset table of a slot above (the tables describe the last prepared coset domain). */
const void *czk_gpu_cs_lo(const czk_gpu *g, int slot);
const void *czk_gpu_cs_hi(const czk_gpu *g, int slot);
/* Frees g's tables (czk_gpu_close). */
void czk_gpu_ntt_tables_free(czk_gpu *g);

/* ---- ntt_plan.c ---- */
/* The passes of an in-place transform of 2^log_n points on g's stream
 * (inverse: ω^-1; dit: the DIF's passes transposed, in the reverse order),
 * all but the one at b = 0 when without_b0 (the DIF's last, the DIT's
 * first, which another kernel runs); mb: x·mb fused into the DIF's first
 * pass (log_n > 0). */
cudaError_t czk_gpu_run_passes(czk_gpu *g, void *x, unsigned log_n, int inverse, int dit, int without_b0,
                               const void *mb);
/* The stages of the last pass (b = 0) of a 2^log_n-point transform. */
unsigned czk_gpu_last_pass_k(const czk_gpu *g, unsigned log_n);
/* The DIF of x (2^log_n points, log_n >= 1) with its last pass out of
 * place into out in natural order, with czk_gpu_launch_pass_rev's factor
 * of mode (scalar, y, hi, lo as there; s_log from g's coset tables). */
cudaError_t czk_gpu_run_dif_to(czk_gpu *g, void *x, void *out, unsigned log_n, int inverse, int mode,
                               const void *scalar, const void *y, const void *hi, const void *lo);

/* ---- stage.c ---- */
/* The lock holder's stager, made at its first use. */
czk_err czk_gpu_own_stager(czk_gpu *g, char *msg, size_t msglen);
/* Sets whether plain uploads go unpacked where CZK_GPU_PACK=a asked for
 * packing (the stager's pack_off); returns the setting before. */
bool czk_gpu_stager_set_pack_off(czk_gpu_stager *st, bool off);
/* count values (src, or the packed psrc in its place) into v through the
 * holder's stager, zero beyond them; work queued on the compute stream
 * afterwards sees the data; src may be freed when this returns. */
czk_err czk_gpu_vec_upload_staged(czk_gpu_vec *v, const czk_fr *src, const czk_fr_packed *psrc, size_t count,
                                  czk_pool *pool, char *msg, size_t msglen);
/* bytes from pageable src to device dst through st's pinned buffers on
 * its copy stream (the copies into them on pool); returns when the last
 * chunk was handed to the DMA engine (src may then be freed). */
czk_err czk_gpu_stage_copy(czk_gpu_stager *st, void *dst, const void *src, size_t bytes, czk_pool *pool, char *msg,
                           size_t msglen);
czk_gpu *czk_gpu_stager_device(const czk_gpu_stager *st);
cudaStream_t czk_gpu_stager_stream(const czk_gpu_stager *st);

#endif
