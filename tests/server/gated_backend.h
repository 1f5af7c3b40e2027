/* A prover backend for the service tests that holds every partition at
 * `start` until the test opens its gate (no sleeps), then proves it with the
 * CPU backend cpu_be (opened by the test). gate_wait_waiting(n) returns once
 * n partitions wait at the gate. Header-only: each test includes it once. */
#ifndef CZK_TEST_GATED_BACKEND_H
#define CZK_TEST_GATED_BACKEND_H

#include <pthread.h>
#include <stdbool.h>

#include "czk/backend.h"

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool open;
    int waiting;
} gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, true, 0};

static czk_backend *cpu_be;

static void gate_set(bool open) {
    pthread_mutex_lock(&gate.mu);
    gate.open = open;
    pthread_cond_broadcast(&gate.cv);
    pthread_mutex_unlock(&gate.mu);
}

static void gate_wait_waiting(int n) {
    pthread_mutex_lock(&gate.mu);
    while (gate.waiting < n) pthread_cond_wait(&gate.cv, &gate.mu);
    pthread_mutex_unlock(&gate.mu);
}

static czk_err gated_start(czk_backend *be, czk_backend_pending **out, const czk_params *params, czk_assignment *asg,
                           const czk_fr *r, const czk_fr *s, char *msg, size_t msglen) {
    (void)be;
    pthread_mutex_lock(&gate.mu);
    gate.waiting++;
    pthread_cond_broadcast(&gate.cv);
    while (!gate.open) pthread_cond_wait(&gate.cv, &gate.mu);
    gate.waiting--;
    pthread_mutex_unlock(&gate.mu);
    return czk_backend_start(cpu_be, out, params, asg, r, s, msg, msglen);
}
static size_t gated_pending_bytes(const czk_backend_pending *p) { return czk_pending_bytes((const czk_pending *)p); }
static czk_err gated_finish(czk_backend *be, czk_backend_pending *p, czk_proof *out, char *msg, size_t msglen) {
    (void)be;
    return czk_backend_finish(cpu_be, p, out, msg, msglen);
}
static void gated_destroy(czk_backend *be, czk_backend_pending *p) {
    (void)be;
    czk_backend_destroy(cpu_be, p);
}
static void gated_close(czk_backend *be) { (void)be; }
static const czk_backend_ops GATED_OPS = {.name = "gated-cpu",
                                          .start = gated_start,
                                          .pending_bytes = gated_pending_bytes,
                                          .finish = gated_finish,
                                          .destroy = gated_destroy,
                                          .close = gated_close};
static czk_backend gated_be = {&GATED_OPS, NULL, 0};

#endif
