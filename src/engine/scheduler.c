/* czk — the scheduler: one FIFO of jobs per priority. A job stays queued
 * while it has partitions not yet taken; partition workers take the next
 * partition of the head of the most urgent non-empty FIFO, so a CRITICAL job
 * overtakes everything queued below it (partitions already taken finish
 * first), and jobs of one priority start in submission order. All functions
 * run under the engine mutex. */
#include "engine_internal.h"

void eng_sched_push(czk_engine *e, eng_job *j) {
    int p = (int)j->prio;
    j->q_next = NULL;
    if (e->sched_tail[p]) e->sched_tail[p]->q_next = j;
    else e->sched_head[p] = j;
    e->sched_tail[p] = j;
    j->in_sched = true;
    e->sched_jobs++;
    e->sched_parts += j->n_parts - j->next_part;
    pthread_cond_broadcast(&e->cv_work);
}

void eng_sched_remove(czk_engine *e, eng_job *j) {
    if (!j->in_sched) return;
    int p = (int)j->prio;
    eng_job *prev = NULL;
    for (eng_job *x = e->sched_head[p]; x; prev = x, x = x->q_next) {
        if (x != j) continue;
        if (prev) prev->q_next = x->q_next;
        else e->sched_head[p] = x->q_next;
        if (e->sched_tail[p] == x) e->sched_tail[p] = prev;
        break;
    }
    j->q_next = NULL;
    j->in_sched = false;
    e->sched_jobs--;
    e->sched_parts -= j->n_parts - j->next_part;
}

eng_job *eng_sched_take(czk_engine *e, czk_priority min_prio, size_t *index) {
    for (int p = CZK_PRIO_CRITICAL; p >= (int)min_prio; p--) {
        eng_job *j = e->sched_head[p];
        if (!j) continue;
        *index = j->next_part++;
        j->inflight++;
        e->sched_parts--;
        if (j->status == CZK_JOB_QUEUED) {
            j->status = CZK_JOB_RUNNING;
            j->t_first = eng_now_ns();
        }
        if (j->next_part == j->n_parts) {
            e->sched_head[p] = j->q_next;
            if (!e->sched_head[p]) e->sched_tail[p] = NULL;
            j->q_next = NULL;
            j->in_sched = false;
            e->sched_jobs--;
        }
        return j;
    }
    return NULL;
}
