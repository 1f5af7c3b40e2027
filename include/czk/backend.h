/* czk — the prover backend interface: what the engine knows about how a
 * proof is computed. A backend turns (parameters, assignment, r, s) into a
 * pending handle (`start`: the heavy work — NTT/H and the MSMs on the GPU for
 * the CUDA backend), and a pending handle into a proof (`finish`: the CPU
 * tail); `destroy` is the error path. The contract of czk_prove_start holds
 * for every backend: start owns the assignment's buffers and frees a, b, c
 * before it returns; the pending handle holds only what finish needs and
 * says how many bytes that is. */
#ifndef CZK_BACKEND_H
#define CZK_BACKEND_H

#include "czk/groth16.h"

typedef struct czk_backend czk_backend;
typedef struct czk_backend_pending czk_backend_pending;

typedef struct {
    const char *name;
    czk_err (*start)(czk_backend *be, czk_backend_pending **out, const czk_params *params, czk_assignment *asg,
                     const czk_fr *r, const czk_fr *s, char *msg, size_t msglen);
    size_t (*pending_bytes)(const czk_backend_pending *p);
    /* consumes p, also on error */
    czk_err (*finish)(czk_backend *be, czk_backend_pending *p, czk_proof *out, char *msg, size_t msglen);
    void (*destroy)(czk_backend *be, czk_backend_pending *p);
    /* params are about to be freed: drop anything kept for them (the CUDA
     * backend's resident bases). NULL when the backend keeps nothing. */
    void (*forget)(czk_backend *be, const czk_params *params);
    void (*close)(czk_backend *be);
    /* start takes packed a, b, c (czk_assignment's a_packed …) without
     * making them plain on the host (the CUDA backend uploads them packed),
     * so a partition that keeps them packed needs only their packed bytes */
    bool packed_abc;
    /* start evaluates a, b, c on its device from asg->r1cs (czk_assignment:
     * a, b, c absent, r1cs set), keeping the compact R1CS resident there */
    bool device_abc;
    /* start takes aux_packed without making it plain on the host (the CUDA
     * backend uploads it packed, when B in G2 runs on the GPU) */
    bool packed_witness;
} czk_backend_ops;

struct czk_backend {
    const czk_backend_ops *ops;
    void *impl;
    /* host memory the backend may hold for its whole life outside czk_mem
     * and outside any partition (the CUDA backend's pinned staging buffers,
     * 4 × CZK_GPU_STAGE_BYTES): the engine charges it to the budget as
     * resident from its creation on (0 for the CPU backend) */
    size_t host_fixed_bytes;
};

/* The CPU backend: czk_prove_start / czk_prove_finish on pool (NULL: the
 * calling thread). */
czk_err czk_backend_cpu_open(czk_backend **out, czk_pool *pool);

/* The CUDA backend on one device. start runs under the device's lock (one
 * per ordinal, shared by every backend of the process): a, b, c go to the
 * device through pinned staging buffers (their host buffers are freed as
 * soon as each is on the device; a start that finds the lock taken stages
 * them while it waits, where the device has room for them beside a running
 * partition), H by NTTs, then the H, L, A and B G1 MSMs
 * (and B in G2 when g2 is CZK_G2_GPU) over bases uploaded once per params
 * and kept resident until forget; the host work of the final MSM reductions
 * runs outside the lock. finish does B in G2 on the CPU when g2 is
 * CZK_G2_CPU, then the assembly. A device out-of-memory fails the
 * partition with CZK_ERR_NO_MEMORY and a message; nothing leaks. Where the
 * bases do not fit next to a partition's working set (a, b, c, the witness
 * and MSM scratch) they are not kept: each MSM streams its bases in chunks
 * of scalars, the whole range first, halved until a chunk fits.
 * An assignment that gives a, b, c as a compact R1CS (asg->r1cs): the
 * R1CS goes to the device at the first start that gives it (keyed by its
 * pointer, kept until forget of those params or close, counted in
 * czk_backend_cuda_mem_used), the witness (plain, or aux_packed through the
 * device's unpacking) is uploaded first and a kernel computes a, b, c
 * there; where the R1CS does not fit beside the bases and a partition's
 * working set (or CZK_GPU_ABC=host at open), a, b, c are evaluated on the
 * host (czk_r1cs_compact_eval_abc_packed) and uploaded as given ones are,
 * logged once and counted (host_abc_starts).
 * Without CUDA or a device: CZK_ERR_UNSUPPORTED. */
typedef enum { CZK_G2_GPU = 0, CZK_G2_CPU } czk_g2_where;
typedef struct {
    int ordinal;          /* the device */
    size_t mem_cap_bytes; /* 0: the device's free memory (see czk_gpu_open) */
    czk_g2_where g2;      /* where B in G2 runs (default: the GPU) */
    czk_pool *pool;       /* host threads for CPU B in G2 and the assembly (NULL: the caller) */
} czk_backend_cuda_config;

czk_err czk_backend_cuda_open(czk_backend **out, const czk_backend_cuda_config *cfg, char *msg, size_t msglen);

/* Seconds spent in start by stage, summed over partitions (for benchmarks
 * and status). The stages run one after the other under the device lock,
 * except that the uploads of a, b, c overlap the NTTs (abc_h_s covers both)
 * and the witness upload overlaps the H MSM. */
typedef struct {
    unsigned long partitions;
    unsigned long streamed_chunks; /* MSMs over bases uploaded for the call (not resident), by chunk */
    double lock_wait_s; /* waiting for the device lock (staging a, b, c meanwhile included) */
    unsigned long lock_busy; /* starts that found the device lock taken */
    unsigned long prestaged; /* of their a, b, c: the vectors staged to the device while waiting (one start
                                at a time stages) */
    double prestage_s;       /* the time those took */
    unsigned long packed_chunks; /* upload chunks that crossed PCIe packed (CZK_GPU_PACK; docs/gpu.md) */
    double bases_s;     /* uploading resident bases (first partition of a params) */
    double abc_h_s;     /* staging a, b, c to the device and H by NTTs */
    double msm_h_s;     /* the H MSM */
    double witness_s;   /* staging the witness: what is left of it after the H MSM, which it overlaps */
    double msm_g1_s;    /* L, A and B in G1 */
    double msm_g2_s;    /* B in G2 (0 when it runs on the CPU) */
    double start_s;     /* the whole of start */
    /* a, b, c from the compact R1CS (asg->r1cs) */
    double r1cs_up_s;    /* uploading compact R1CSs to the device (once per R1CS) */
    double witness_up_s; /* the witness's upload before a, b, c on the device */
    double abc_device_s; /* a, b, c = A·w, B·w, C·w on the device (the kernels) */
    unsigned long host_abc_starts; /* starts that evaluated a, b, c from the R1CS on the host instead */
    double host_abc_s;   /* the time those evaluations took */
} czk_backend_cuda_timings;

/* Zeroes for a backend that is not the CUDA one. */
void czk_backend_cuda_timings_get(czk_backend *be, czk_backend_cuda_timings *out);
/* "NVIDIA H200 (sm_90, 139 GiB)"; "" for another backend. */
const char *czk_backend_cuda_describe(czk_backend *be);
/* Bytes the backend holds on its device (resident bases, tables). */
size_t czk_backend_cuda_mem_used(czk_backend *be);
/* The device the CUDA backend proves on, for status: its ordinal and its
 * memory as the driver reports it now. false for another backend (then
 * *out is zeroed); vram_* stay 0 when the driver cannot be asked. */
typedef struct {
    int ordinal;
    size_t vram_total_bytes, vram_free_bytes;
} czk_backend_cuda_device;
bool czk_backend_cuda_device_get(czk_backend *be, czk_backend_cuda_device *out);

static inline const char *czk_backend_name(const czk_backend *be) { return be->ops->name; }
static inline czk_err czk_backend_start(czk_backend *be, czk_backend_pending **out, const czk_params *params,
                                        czk_assignment *asg, const czk_fr *r, const czk_fr *s, char *msg,
                                        size_t msglen) {
    return be->ops->start(be, out, params, asg, r, s, msg, msglen);
}
static inline size_t czk_backend_pending_bytes(const czk_backend *be, const czk_backend_pending *p) {
    return be->ops->pending_bytes(p);
}
static inline czk_err czk_backend_finish(czk_backend *be, czk_backend_pending *p, czk_proof *out, char *msg,
                                         size_t msglen) {
    return be->ops->finish(be, p, out, msg, msglen);
}
static inline void czk_backend_destroy(czk_backend *be, czk_backend_pending *p) {
    if (p) be->ops->destroy(be, p);
}
static inline void czk_backend_forget(czk_backend *be, const czk_params *params) {
    if (be && be->ops->forget) be->ops->forget(be, params);
}
static inline void czk_backend_close(czk_backend *be) {
    if (be) be->ops->close(be);
}

/* ---- params loaded straight to the device (src/gpu/params_load.c) ------------ */

typedef struct {
    bool check_curve;   /* every query point checked on the device to be on its curve (cheap: a few
                           multiplications a point) */
    size_t chunk_bytes; /* each of the two pinned read buffers (0: 256 MiB; at least 1 MiB, at most the
                           largest query's bytes) */
    unsigned readers;   /* parallel reads per chunk (0: 4) */
} czk_params_load_options;

typedef struct {
    unsigned long long file_bytes;
    double seconds;  /* the whole load: open to the last point decoded */
    double read_s;   /* in read (the file to the pinned buffers) */
    double wait_s;   /* waiting for a pinned buffer's DMA to finish */
    double gb_per_s; /* file_bytes / seconds / 1e9 */
} czk_params_load_stats;

/* Loads the params file at path straight to the CUDA backend's device,
 * never holding a whole query on the host: out gets the vk (host, as
 * czk_params_read gives it) and the counts, and out->device the queries
 * (h … b_g2 stay NULL), which become be's resident bases: a start of be
 * with out (or a copy of it, e.g. the engine's) uses them and uploads
 * nothing; czk_backend_forget (or close) frees them. Host memory: the vk,
 * the inputs' few A and B points, and two pinned buffers while it runs.
 * The points are read as bellperson reads a trusted file (its digest is
 * checked elsewhere: `czk params check`): flags, coordinates < p, no point
 * at infinity, and no subgroup check; with opts->check_curve also on the
 * curve (czk_backend_cuda_params_load checks it). A refused point fails
 * the load with CZK_ERR_FORMAT naming its section, index and offset (the
 * first in file order, but that the inputs' A and B points, decoded on the
 * host as they are read, are named as soon as they are met).
 * Errors: CZK_ERR_UNSUPPORTED for a backend that is not CUDA (or a build
 * without it) and for B in G2 on the CPU (CZK_G2_CPU needs b_g2 on the
 * host); CZK_ERR_FORMAT for a truncated file or bad counts (before
 * anything is allocated on the device); CZK_ERR_IO when it cannot be
 * read; CZK_ERR_NO_MEMORY when the queries do not fit the device (the
 * message gives the sizes) or the pinned buffers cannot be had. On error
 * nothing is left allocated and *out is zeroed. stats may be NULL. */
czk_err czk_backend_cuda_params_load_opts(czk_backend *be, const char *path, const czk_params_load_options *opts,
                                          czk_params *out, czk_params_load_stats *stats, char *msg, size_t msglen);
czk_err czk_backend_cuda_params_load(czk_backend *be, const char *path, czk_params *out, char *msg, size_t msglen);

#endif
