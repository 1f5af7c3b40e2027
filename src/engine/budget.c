/* czk — the memory budget (see include/czk/budget.h).
 *
 * Waiters form a list ordered by (priority descending, arrival ascending);
 * only the head may take bytes, and it does so itself after waking: every
 * change that frees bytes or removes the head broadcasts the condition, and
 * each waiter re-checks "am I the head, and do my bytes fit?" under the lock.
 * Broadcast rather than signal keeps this free of lost wake-ups at the cost
 * of spurious ones, which are harmless with few waiters (one per partition
 * worker). */
#include "czk/budget.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct waiter {
    czk_priority prio;
    uint64_t seq;
    struct waiter *next;
} waiter;

struct czk_budget {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t total, reserved, high_water;
    waiter *head; /* ordered: prio desc, seq asc */
    size_t nwaiters;
    uint64_t next_seq;
};

czk_err czk_budget_create(czk_budget **out, size_t total_bytes) {
    *out = NULL;
    if (total_bytes == 0) return CZK_ERR_INVALID_ARGUMENT;
    czk_budget *b = calloc(1, sizeof *b);
    if (!b) return CZK_ERR_NO_MEMORY;
    pthread_mutex_init(&b->mu, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&b->cv, &attr);
    pthread_condattr_destroy(&attr);
    b->total = total_bytes;
    *out = b;
    return CZK_OK;
}

void czk_budget_destroy(czk_budget *b) {
    if (!b) return;
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
    free(b);
}

/* A number from a file holding one integer (or "max"); 0 when absent. */
static uint64_t read_limit(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[64] = "";
    uint64_t v = 0;
    if (fgets(buf, sizeof buf, f) && strncmp(buf, "max", 3) != 0) v = strtoull(buf, NULL, 10);
    fclose(f);
    return v;
}

czk_err czk_budget_auto_bytes(size_t *out, size_t margin_bytes, char *msg, size_t msglen) {
    uint64_t mem = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            unsigned long long kb;
            if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
                mem = (uint64_t)kb * 1024;
                break;
            }
        }
        fclose(f);
    }
    if (!mem) {
        if (msg && msglen) snprintf(msg, msglen, "cannot read MemTotal from /proc/meminfo");
        return CZK_ERR_IO;
    }
    /* cgroup v2, then v1; absurd v1 "unlimited" values are above MemTotal */
    uint64_t cg = read_limit("/sys/fs/cgroup/memory.max");
    if (!cg) cg = read_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (cg && cg < mem) mem = cg;
    if (mem <= margin_bytes) {
        if (msg && msglen)
            snprintf(msg, msglen, "a safety margin of %zu bytes leaves no budget out of %" PRIu64 " bytes", margin_bytes,
                     mem);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    *out = (size_t)(mem - margin_bytes);
    return CZK_OK;
}

static void take(czk_budget *b, size_t bytes) {
    b->reserved += bytes;
    if (b->reserved > b->high_water) b->high_water = b->reserved;
}

static void unlink_waiter(czk_budget *b, waiter *w) {
    for (waiter **p = &b->head; *p; p = &(*p)->next) {
        if (*p == w) {
            *p = w->next;
            b->nwaiters--;
            return;
        }
    }
}

czk_err czk_budget_reserve(czk_budget *b, size_t bytes, czk_priority prio, const atomic_bool *cancelled,
                           long timeout_ms, czk_reservation *out, char *msg, size_t msglen) {
    out->budget = b;
    out->bytes = 0;
    if (bytes > b->total) {
        if (msg && msglen)
            snprintf(msg, msglen, "a reservation of %zu bytes can never fit in a budget of %zu bytes", bytes, b->total);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (bytes == 0) return CZK_OK;
    struct timespec deadline;
    if (timeout_ms >= 0) {
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_sec += timeout_ms / 1000;
        deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
    }
    pthread_mutex_lock(&b->mu);
    waiter self = {prio, b->next_seq++, NULL};
    waiter **p = &b->head;
    while (*p && (*p)->prio >= prio) p = &(*p)->next;
    self.next = *p;
    *p = &self;
    b->nwaiters++;
    czk_err e = CZK_OK;
    for (;;) {
        if (cancelled && atomic_load(cancelled)) {
            e = CZK_ERR_CANCELLED;
            break;
        }
        if (b->head == &self && b->total - b->reserved >= bytes) break;
        int rc = timeout_ms >= 0 ? pthread_cond_timedwait(&b->cv, &b->mu, &deadline)
                                 : pthread_cond_wait(&b->cv, &b->mu);
        if (rc == ETIMEDOUT && !(b->head == &self && b->total - b->reserved >= bytes)) {
            e = CZK_ERR_TIMEOUT;
            break;
        }
    }
    unlink_waiter(b, &self);
    if (e == CZK_OK) {
        take(b, bytes);
        out->bytes = bytes;
    } else if (msg && msglen) {
        snprintf(msg, msglen, "%s while waiting for %zu bytes of the memory budget",
                 e == CZK_ERR_CANCELLED ? "cancelled" : "timed out", bytes);
    }
    /* the head changed: the next waiter may fit now */
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
    return e;
}

static bool reserve_now(czk_budget *b, size_t bytes, bool ahead_of_waiters, czk_reservation *out) {
    out->budget = b;
    out->bytes = 0;
    pthread_mutex_lock(&b->mu);
    bool ok = (ahead_of_waiters || !b->head) && b->total - b->reserved >= bytes;
    if (ok) {
        take(b, bytes);
        out->bytes = bytes;
    }
    pthread_mutex_unlock(&b->mu);
    return ok;
}

bool czk_budget_try_reserve(czk_budget *b, size_t bytes, czk_reservation *out) {
    return reserve_now(b, bytes, false, out);
}

bool czk_budget_charge(czk_budget *b, size_t bytes, czk_reservation *out) { return reserve_now(b, bytes, true, out); }

void czk_budget_shrink(czk_reservation *r, size_t new_bytes) {
    if (!r->budget || new_bytes >= r->bytes) return;
    czk_budget *b = r->budget;
    pthread_mutex_lock(&b->mu);
    b->reserved -= r->bytes - new_bytes;
    r->bytes = new_bytes;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

void czk_budget_release(czk_reservation *r) { czk_budget_shrink(r, 0); }

void czk_budget_transfer(czk_reservation *dst, czk_reservation *src, size_t bytes) {
    if (bytes > src->bytes) bytes = src->bytes;
    if (!dst->budget) dst->budget = src->budget;
    src->bytes -= bytes;
    dst->bytes += bytes;
}

void czk_budget_interrupt(czk_budget *b) {
    pthread_mutex_lock(&b->mu);
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

void czk_budget_probe(czk_budget *b, czk_budget_probe_fn fn, void *ctx) {
    pthread_mutex_lock(&b->mu);
    fn(ctx, b->reserved);
    pthread_mutex_unlock(&b->mu);
}

size_t czk_budget_total(const czk_budget *b) { return b->total; }

#define LOCKED_READ(field)                                      \
    size_t v;                                                   \
    pthread_mutex_lock((pthread_mutex_t *)&b->mu);              \
    v = b->field;                                               \
    pthread_mutex_unlock((pthread_mutex_t *)&b->mu);            \
    return v;

size_t czk_budget_reserved(const czk_budget *b) { LOCKED_READ(reserved) }
size_t czk_budget_high_water(const czk_budget *b) { LOCKED_READ(high_water) }
size_t czk_budget_waiters(const czk_budget *b) { LOCKED_READ(nwaiters) }

const char *czk_priority_name(czk_priority p) {
    switch (p) {
    case CZK_PRIO_LOW: return "low";
    case CZK_PRIO_NORMAL: return "normal";
    case CZK_PRIO_HIGH: return "high";
    case CZK_PRIO_CRITICAL: return "critical";
    }
    return "?";
}
