/* The worker pool: every item runs exactly once, worker ids are in range and
 * unique per job at any moment, several callers can share one pool. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "czk/pool.h"
#include "test.h"

typedef struct {
    size_t n;
    atomic_int *hits;
    atomic_int *busy; /* per worker id: chunks running now */
    int slots;
    atomic_int bad_id, overlap;
} job_ctx;

static void task(void *c, size_t b, size_t e, int w) {
    job_ctx *x = c;
    if (w < 0 || w >= x->slots) {
        atomic_fetch_add(&x->bad_id, 1);
        return;
    }
    if (atomic_fetch_add(&x->busy[w], 1) != 0) atomic_fetch_add(&x->overlap, 1);
    for (size_t i = b; i < e; i++) atomic_fetch_add(&x->hits[i], 1);
    atomic_fetch_sub(&x->busy[w], 1);
}

static void run_one(czk_pool *pool, size_t n, size_t grain) {
    job_ctx x = {.n = n, .slots = czk_pool_slots(pool)};
    x.hits = calloc(n ? n : 1, sizeof(atomic_int));
    x.busy = calloc((size_t)x.slots, sizeof(atomic_int));
    czk_pool_run(pool, n, grain, task, &x);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) wrong += atomic_load(&x.hits[i]) != 1;
    CHECK_MSG(wrong == 0, "n=%zu grain=%zu: %zu items not run exactly once", n, grain, wrong);
    CHECK(atomic_load(&x.bad_id) == 0);
    CHECK(atomic_load(&x.overlap) == 0);
    free(x.hits);
    free(x.busy);
}

static czk_pool *shared;

static void *caller(void *arg) {
    size_t seed = (size_t)arg;
    for (int k = 0; k < 50; k++) run_one(shared, 1000 + seed * 37 + (size_t)k * 13, (size_t)(k % 7));
    return NULL;
}

int main(void) {
    run_one(NULL, 1000, 0);
    czk_pool *p;
    CHECK(czk_pool_create(&p, 4) == CZK_OK);
    CHECK(czk_pool_slots(p) == 4);
    size_t sizes[] = {0, 1, 2, 3, 7, 100, 4096, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t g = 0; g < 5; g++) run_one(p, sizes[i], g * 17);
    shared = p;
    pthread_t t[4];
    for (size_t i = 0; i < 4; i++) pthread_create(&t[i], NULL, caller, (void *)i);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    czk_pool_destroy(p);
    czk_pool *one;
    CHECK(czk_pool_create(&one, 1) == CZK_OK);
    run_one(one, 5000, 10);
    czk_pool_destroy(one);
    CHECK(czk_pool_default() != NULL);
    run_one(czk_pool_default(), 12345, 0);
    return test_finish("test_pool");
}
