/* czk — the engine's flight counters: gauges with high-water marks, updated
 * lock-free (one atomic add, then a compare-and-swap loop that only raises
 * the mark), and the names the status API exports them under. */
#include <errno.h>
#include <time.h>

#include "engine_internal.h"

void eng_flight_add(czk_engine *e, czk_flight f, long long delta) {
    eng_gauge *g = &e->flight[f];
    long long v = atomic_fetch_add(&g->now, delta) + delta;
    long long h = atomic_load(&g->high);
    while (v > h && !atomic_compare_exchange_weak(&g->high, &h, v)) {
    }
    if (atomic_load(&e->gauge_waiters) > 0) {
        pthread_mutex_lock(&e->gauge_mu);
        pthread_cond_broadcast(&e->cv_gauge);
        pthread_mutex_unlock(&e->gauge_mu);
    }
}

czk_err czk_engine_wait_flight(czk_engine *e, czk_flight f, int64_t value, long timeout_ms) {
    if (!e || (unsigned)f >= CZK_FLIGHT__COUNT) return CZK_ERR_INVALID_ARGUMENT;
    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    if (timeout_ms > 0) {
        dl.tv_sec += timeout_ms / 1000;
        dl.tv_nsec += (timeout_ms % 1000) * 1000000;
        if (dl.tv_nsec >= 1000000000) {
            dl.tv_sec++;
            dl.tv_nsec -= 1000000000;
        }
    }
    czk_err err = CZK_OK;
    pthread_mutex_lock(&e->gauge_mu);
    atomic_fetch_add(&e->gauge_waiters, 1);
    while (atomic_load(&e->flight[f].now) < value) {
        if (timeout_ms == 0) {
            err = CZK_ERR_TIMEOUT;
            break;
        }
        if (timeout_ms < 0) pthread_cond_wait(&e->cv_gauge, &e->gauge_mu);
        else if (pthread_cond_timedwait(&e->cv_gauge, &e->gauge_mu, &dl) == ETIMEDOUT &&
                 atomic_load(&e->flight[f].now) < value) {
            err = CZK_ERR_TIMEOUT;
            break;
        }
    }
    atomic_fetch_sub(&e->gauge_waiters, 1);
    pthread_mutex_unlock(&e->gauge_mu);
    return err;
}

void czk_engine_probe_budget(czk_engine *e, czk_budget_probe_fn fn, void *ctx) { czk_budget_probe(e->budget, fn, ctx); }

czk_budget *czk_engine_budget(czk_engine *e) { return e->budget; }

int64_t eng_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

const char *czk_flight_name(czk_flight f) {
    static const char *names[CZK_FLIGHT__COUNT] = {"reserving",  "synthesizing", "witness",
                                                   "abc",        "gpu_queued",   "gpu",
                                                   "pending",    "finalizing",   "reservations"};
    return (unsigned)f < CZK_FLIGHT__COUNT ? names[f] : "unknown";
}

const char *czk_stage_name(czk_stage s) {
    static const char *names[CZK_STAGE__COUNT] = {"synth", "gpu", "finish", "verify"};
    return (unsigned)s < CZK_STAGE__COUNT ? names[s] : "unknown";
}

const char *czk_job_status_name(czk_job_status s) {
    static const char *names[] = {"queued", "running", "done", "failed", "cancelled"};
    return (unsigned)s <= CZK_JOB_CANCELLED ? names[s] : "unknown";
}

const char *czk_partition_event_name(czk_partition_event ev) {
    switch (ev) {
    case CZK_PART_SYNTH_START: return "synthesis started";
    case CZK_PART_SYNTH_END: return "synthesized";
    case CZK_PART_GPU_START: return "gpu start";
    case CZK_PART_GPU_END: return "gpu done";
    case CZK_PART_PROVED: return "proved";
    case CZK_PART_FAILED: return "failed";
    }
    return "?";
}
