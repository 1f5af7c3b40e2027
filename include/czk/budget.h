/* czk — the memory budget: one byte budget per engine that bounds the host
 * memory in flight (exactly what, below). Reservations are taken before
 * memory is allocated and shrunk as buffers are freed. Waiters are served
 * strictly in order of priority, then age (a large request at the head is
 * not overtaken by smaller ones behind it, so it cannot starve); every
 * release re-examines the head under the lock, so no wake-up is lost. A
 * request larger than the whole budget fails at once
 * (CZK_ERR_INVALID_ARGUMENT with a message), never hangs.
 *
 * It bounds what its users reserve: in the engine, the backend's fixed host
 * memory (the CUDA backend's pinned staging buffers, 4 × 64 MiB of
 * page-locked memory, czk_backend.host_fixed_bytes), the resident circuits
 * and each partition's host memory; in czkd also gRPC's receive buffers and
 * each arrived request message (czk_budget_charge). Device memory is not host memory: the
 * CUDA backend's mem_cap_bytes bounds it (docs/engine.md). */
#ifndef CZK_BUDGET_H
#define CZK_BUDGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"

typedef enum { CZK_PRIO_LOW = 0, CZK_PRIO_NORMAL = 1, CZK_PRIO_HIGH = 2, CZK_PRIO_CRITICAL = 3 } czk_priority;
/* "low", "normal", "high", "critical"; "?" out of range. */
const char *czk_priority_name(czk_priority p);

typedef struct czk_budget czk_budget;

/* A budget of total_bytes (> 0). */
czk_err czk_budget_create(czk_budget **out, size_t total_bytes);
/* Destroys an idle budget (no reservation held, no waiter). */
void czk_budget_destroy(czk_budget *b);

/* "auto": the smaller of MemTotal (/proc/meminfo) and the cgroup memory limit
 * (v2 memory.max or v1 memory.limit_in_bytes, when set), minus margin_bytes.
 * CZK_ERR_INVALID_ARGUMENT when the margin leaves nothing. */
czk_err czk_budget_auto_bytes(size_t *out, size_t margin_bytes, char *msg, size_t msglen);

/* A held reservation: bytes it still holds. Moving it between threads is
 * fine; using one reservation from two threads at once is not. */
typedef struct {
    czk_budget *budget;
    size_t bytes;
} czk_reservation;

/* Blocks until `bytes` can be reserved for a waiter of this priority, then
 * fills *out. CZK_ERR_INVALID_ARGUMENT at once when bytes exceeds the total;
 * CZK_ERR_CANCELLED when *cancelled (may be NULL) is true on entry or becomes
 * true while waiting (czk_budget_interrupt wakes the waiter to notice);
 * CZK_ERR_TIMEOUT after timeout_ms (< 0: no limit). bytes = 0 succeeds at
 * once. On error *out holds nothing. */
czk_err czk_budget_reserve(czk_budget *b, size_t bytes, czk_priority prio, const atomic_bool *cancelled,
                           long timeout_ms, czk_reservation *out, char *msg, size_t msglen);
/* Non-blocking: succeeds only when no one waits and the bytes are free. */
bool czk_budget_try_reserve(czk_budget *b, size_t bytes, czk_reservation *out);
/* Non-blocking, ahead of any waiter: for bytes that are in memory already
 * (a request message that has arrived), which are either counted at once or
 * dropped at once. Succeeds when the bytes are free. */
bool czk_budget_charge(czk_budget *b, size_t bytes, czk_reservation *out);
/* Gives back all but new_bytes (new_bytes <= r->bytes) and wakes waiters. */
void czk_budget_shrink(czk_reservation *r, size_t new_bytes);
/* Gives back everything (r->bytes becomes 0); a zeroed reservation is fine. */
void czk_budget_release(czk_reservation *r);
/* Moves `bytes` of src into dst (same budget): ownership changes hands
 * without releasing, so nobody can take them in between. */
void czk_budget_transfer(czk_reservation *dst, czk_reservation *src, size_t bytes);
/* Wakes every waiter so that those whose cancel flag is set return. */
void czk_budget_interrupt(czk_budget *b);

/* For tests: calls fn(ctx, reserved) with the budget's lock held, reserved being
 * every byte now reserved. No reservation is taken, shrunk or released while
 * fn runs, so where bytes are reserved before their memory is allocated and
 * given back only after it was freed, the memory allocated at any moment
 * during fn is at most `reserved`: fn can compare them (czk_mem_in_use) at one
 * instant. fn must be quick and must not call into the budget. */
typedef void (*czk_budget_probe_fn)(void *ctx, size_t reserved);
void czk_budget_probe(czk_budget *b, czk_budget_probe_fn fn, void *ctx);

size_t czk_budget_total(const czk_budget *b);
size_t czk_budget_reserved(const czk_budget *b);
size_t czk_budget_high_water(const czk_budget *b);
size_t czk_budget_waiters(const czk_budget *b);

#endif
