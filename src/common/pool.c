/* czk — worker pool (see include/czk/pool.h).
 *
 * Jobs wait in a FIFO list under one mutex. A pool thread takes a chunk of
 * the oldest job that still has unclaimed chunks; the calling thread works on
 * its own job only. Completion is counted per job and signalled on the job's
 * condition variable, so callers never poll. */
#include "czk/pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct job {
    czk_pool_task task;
    void *ctx;
    size_t n, grain, next; /* next: first unclaimed item */
    size_t pending;        /* chunks claimed but not finished, plus unclaimed ones */
    int slots_used;        /* worker ids handed out so far */
    pthread_cond_t done;
    struct job *prev, *nextjob;
} job;

struct czk_pool {
    pthread_mutex_t mu;
    pthread_cond_t work;
    job *head, *tail; /* jobs with unclaimed chunks */
    bool stop;
    int nthreads; /* pool threads, not counting callers */
    pthread_t *threads;
};

static void unlink_job(czk_pool *p, job *j) {
    if (j->prev) j->prev->nextjob = j->nextjob;
    else p->head = j->nextjob;
    if (j->nextjob) j->nextjob->prev = j->prev;
    else p->tail = j->prev;
    j->prev = j->nextjob = NULL;
}

/* Claims the next chunk of j; the mutex is held. Returns false when none left. */
static bool claim(czk_pool *p, job *j, size_t *begin, size_t *end) {
    if (j->next >= j->n) return false;
    *begin = j->next;
    *end = j->next + j->grain < j->n ? j->next + j->grain : j->n;
    j->next = *end;
    if (j->next >= j->n) unlink_job(p, j);
    return true;
}

static void finish_chunk(job *j) {
    if (--j->pending == 0) pthread_cond_broadcast(&j->done);
}

/* Runs chunks of j with worker id `id` until it has none left; mutex held on
 * entry and exit. */
static void work_on(czk_pool *p, job *j, int id) {
    size_t b, e;
    while (claim(p, j, &b, &e)) {
        pthread_mutex_unlock(&p->mu);
        j->task(j->ctx, b, e, id);
        pthread_mutex_lock(&p->mu);
        finish_chunk(j);
    }
}

static void *pool_main(void *arg) {
    czk_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && !p->head) pthread_cond_wait(&p->work, &p->mu);
        if (p->stop) break;
        job *j = p->head;
        int id = j->slots_used++;
        work_on(p, j, id);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

czk_err czk_pool_create(czk_pool **out, int threads) {
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    czk_pool *p = calloc(1, sizeof *p);
    if (!p) return CZK_ERR_NO_MEMORY;
    p->nthreads = threads - 1;
    p->threads = calloc((size_t)(p->nthreads > 0 ? p->nthreads : 1), sizeof(pthread_t));
    if (!p->threads) {
        free(p);
        return CZK_ERR_NO_MEMORY;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    for (int i = 0; i < p->nthreads; i++) {
        if (pthread_create(&p->threads[i], NULL, pool_main, p) != 0) {
            p->nthreads = i;
            czk_pool_destroy(p);
            return CZK_ERR_NO_MEMORY;
        }
    }
    *out = p;
    return CZK_OK;
}

void czk_pool_destroy(czk_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    free(p->threads);
    free(p);
}

int czk_pool_slots(const czk_pool *p) { return p ? p->nthreads + 1 : 1; }

void czk_pool_run(czk_pool *p, size_t n, size_t grain, czk_pool_task task, void *ctx) {
    if (n == 0) return;
    if (!p || p->nthreads == 0) {
        task(ctx, 0, n, 0);
        return;
    }
    if (grain == 0) {
        size_t chunks = (size_t)czk_pool_slots(p) * 4;
        grain = (n + chunks - 1) / chunks;
    }
    if (grain >= n) {
        task(ctx, 0, n, 0);
        return;
    }
    job j = {task, ctx, n, grain, 0, (n + grain - 1) / grain, 0, PTHREAD_COND_INITIALIZER, NULL, NULL};
    pthread_mutex_lock(&p->mu);
    j.prev = p->tail;
    if (p->tail) p->tail->nextjob = &j;
    else p->head = &j;
    p->tail = &j;
    /* the caller takes the last id so pool threads can count up from 0 */
    int caller_id = p->nthreads;
    pthread_cond_broadcast(&p->work);
    work_on(p, &j, caller_id);
    while (j.pending > 0) pthread_cond_wait(&j.done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    pthread_cond_destroy(&j.done);
}

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static czk_pool *default_pool;

static void default_init(void) {
    const char *env = getenv("CZK_THREADS");
    int n = env ? atoi(env) : 0;
    if (czk_pool_create(&default_pool, n) != CZK_OK) default_pool = NULL;
}

czk_pool *czk_pool_default(void) {
    pthread_once(&default_once, default_init);
    return default_pool;
}
