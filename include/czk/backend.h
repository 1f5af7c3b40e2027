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
    void (*close)(czk_backend *be);
} czk_backend_ops;

struct czk_backend {
    const czk_backend_ops *ops;
    void *impl;
};

/* The CPU backend: czk_prove_start / czk_prove_finish on pool (NULL: the
 * calling thread). */
czk_err czk_backend_cpu_open(czk_backend **out, czk_pool *pool);

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
static inline void czk_backend_close(czk_backend *be) {
    if (be) be->ops->close(be);
}

#endif
