/* czk — a fixed pool of worker threads for long CPU work (SpMV, NTT, MSM,
 * setup). One pool can serve several callers at once: each call is a job
 * split into chunks; pool threads and the calling thread take chunks until
 * none are left, and the call returns when all of its chunks are done. */
#ifndef CZK_POOL_H
#define CZK_POOL_H

#include <stddef.h>
#include "czk/err.h"

typedef struct czk_pool czk_pool;

/* Runs the chunk [begin, end) of a job. `worker` is unique among the threads
 * running chunks of the same job at the same time, in [0, czk_pool_slots()):
 * use it to index per-thread scratch space. */
typedef void (*czk_pool_task)(void *ctx, size_t begin, size_t end, int worker);

/* threads <= 0 means one per online CPU. The pool has threads - 1 pool
 * threads: the caller of czk_pool_run is the last worker. */
czk_err czk_pool_create(czk_pool **out, int threads);
void czk_pool_destroy(czk_pool *pool);

/* Number of threads that may run one job's chunks at once (pool threads + the
 * caller); 1 for a NULL pool. */
int czk_pool_slots(const czk_pool *pool);

/* Runs task over [0, n) in chunks of `grain` items (grain 0: about 4 chunks
 * per slot). A NULL pool runs everything on the calling thread. */
void czk_pool_run(czk_pool *pool, size_t n, size_t grain, czk_pool_task task, void *ctx);

/* A process-wide pool, created on first use with CZK_THREADS threads (the
 * environment variable) or one per CPU. */
czk_pool *czk_pool_default(void);

#endif
