/* czk tests — a gate: a test-controlled condition that threads wait on
 * (gate_pass blocks while it is closed), with a count of the threads
 * waiting so a test can wait until n of them are held (gate_wait_waiting),
 * instead of sleeping. Header-only. */
#ifndef CZK_TEST_GATE_H
#define CZK_TEST_GATE_H

#include <pthread.h>
#include <stdbool.h>

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool open;
    int waiting, passed;
} gate;

static inline void gate_init(gate *g, bool open) {
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->open = open;
    g->waiting = g->passed = 0;
}

static inline void gate_set(gate *g, bool open) {
    pthread_mutex_lock(&g->mu);
    g->open = open;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static inline void gate_pass(gate *g) {
    pthread_mutex_lock(&g->mu);
    g->waiting++;
    pthread_cond_broadcast(&g->cv);
    while (!g->open) pthread_cond_wait(&g->cv, &g->mu);
    g->waiting--;
    g->passed++;
    pthread_mutex_unlock(&g->mu);
}

/* Waits until n threads wait at the gate. */
static inline void gate_wait_waiting(gate *g, int n) {
    pthread_mutex_lock(&g->mu);
    while (g->waiting < n) pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

#endif
