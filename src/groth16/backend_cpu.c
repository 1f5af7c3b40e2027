/* czk — the CPU prover backend (see include/czk/backend.h): a thin adapter
 * over czk_prove_start / czk_prove_finish. */
#include <stdlib.h>

#include "czk/backend.h"

typedef struct {
    czk_pool *pool;
} cpu_backend;

static czk_err cpu_start(czk_backend *be, czk_backend_pending **out, const czk_params *params, czk_assignment *asg,
                         const czk_fr *r, const czk_fr *s, char *msg, size_t msglen) {
    cpu_backend *c = be->impl;
    czk_pending *p;
    czk_err e = czk_prove_start(&p, params, asg, r, s, c->pool, msg, msglen);
    *out = (czk_backend_pending *)p;
    return e;
}

static size_t cpu_pending_bytes(const czk_backend_pending *p) {
    return czk_pending_bytes((const czk_pending *)p);
}

static czk_err cpu_finish(czk_backend *be, czk_backend_pending *p, czk_proof *out, char *msg, size_t msglen) {
    cpu_backend *c = be->impl;
    return czk_prove_finish(out, (czk_pending *)p, c->pool, msg, msglen);
}

static void cpu_destroy(czk_backend *be, czk_backend_pending *p) {
    (void)be;
    czk_pending_destroy((czk_pending *)p);
}

static void cpu_close(czk_backend *be) {
    free(be->impl);
    free(be);
}

static const czk_backend_ops CPU_OPS = {"cpu", cpu_start, cpu_pending_bytes, cpu_finish, cpu_destroy, NULL,
                                        cpu_close, false, false, false};

czk_err czk_backend_cpu_open(czk_backend **out, czk_pool *pool) {
    *out = NULL;
    czk_backend *be = malloc(sizeof *be);
    cpu_backend *c = malloc(sizeof *c);
    if (!be || !c) {
        free(be);
        free(c);
        return CZK_ERR_NO_MEMORY;
    }
    c->pool = pool;
    be->ops = &CPU_OPS;
    be->host_fixed_bytes = 0;
    be->impl = c;
    *out = be;
    return CZK_OK;
}
