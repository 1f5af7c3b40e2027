/* czk — the job table: jobs by id and by request id (chained hashes), the
 * end of a job (failed, cancelled or done), the retention of ended jobs'
 * results (bounded by count and age, oldest forgotten first) and copies of
 * results for await. Everything here runs under the engine mutex. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/groth16_io.h"
#include "engine_internal.h"

static size_t id_slot(uint64_t id) { return (size_t)(id * 0x9e3779b97f4a7c15ULL >> 54) % ENG_HASH; }

static size_t rq_slot(const char *s) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ULL;
    return (size_t)(h % ENG_HASH);
}

eng_job *eng_job_find(czk_engine *e, uint64_t id) {
    for (eng_job *j = e->by_id[id_slot(id)]; j; j = j->id_next)
        if (j->id == id) return j;
    return NULL;
}

eng_job *eng_job_find_request(czk_engine *e, const char *request_id) {
    for (eng_job *j = e->by_rq[rq_slot(request_id)]; j; j = j->rq_next)
        if (!strcmp(j->request_id, request_id)) return j;
    return NULL;
}

void eng_job_insert(czk_engine *e, eng_job *j) {
    size_t s = id_slot(j->id);
    j->id_next = e->by_id[s];
    e->by_id[s] = j;
    if (j->request_id) {
        size_t r = rq_slot(j->request_id);
        j->rq_next = e->by_rq[r];
        e->by_rq[r] = j;
    }
}

static void table_remove(czk_engine *e, eng_job *j) {
    for (eng_job **pp = &e->by_id[id_slot(j->id)]; *pp; pp = &(*pp)->id_next)
        if (*pp == j) {
            *pp = j->id_next;
            break;
        }
    if (j->request_id)
        for (eng_job **pp = &e->by_rq[rq_slot(j->request_id)]; *pp; pp = &(*pp)->rq_next)
            if (*pp == j) {
                *pp = j->rq_next;
                break;
            }
}

void eng_job_free(eng_job *j) {
    if (!j) return;
    czk_circuit_input_release(&j->input); /* a job that never ended */
    if (j->has_input_res) czk_budget_release(&j->input_res);
    free(j->request_id);
    free(j->proofs);
    free(j->pub);
    free(j->tl);
    free(j);
}

/* Unlinks the partitions of j from q onto *out; returns how many. */
static size_t queue_unlink_job(eng_queue *q, const eng_job *j, eng_part **out) {
    size_t n = 0;
    eng_part *prev = NULL, *p = q->head;
    while (p) {
        eng_part *next = p->next;
        if (p->job == j) {
            if (prev) prev->next = next;
            else q->head = next;
            if (q->tail == p) q->tail = prev;
            q->len--;
            p->next = *out;
            *out = p;
            n++;
        } else {
            prev = p;
        }
        p = next;
    }
    return n;
}

void eng_job_abort(czk_engine *e, eng_job *j, czk_err err, const char *msg, eng_part **dropped) {
    if (atomic_load(&j->abort) || j->status >= CZK_JOB_DONE) return;
    atomic_store(&j->abort, true);
    j->err = err;
    snprintf(j->msg, sizeof j->msg, "%s", msg);
    eng_sched_remove(e, j);
    queue_unlink_job(&e->gpu_q, j, dropped); /* their gauges fall in eng_part_drop */
    queue_unlink_job(&e->fin_q, j, dropped);
    pthread_cond_broadcast(&e->cv_gpu_space);
    pthread_cond_broadcast(&e->cv_fin_space);
    czk_budget_interrupt(e->budget); /* a worker reserving for this job returns */
    if (j->inflight == 0) eng_job_end(e, j);
}

void eng_job_retire(czk_engine *e, eng_job *j) {
    j->inflight--;
    if (j->inflight == 0 && atomic_load(&j->abort) && !j->in_sched && j->status < CZK_JOB_DONE) eng_job_end(e, j);
}

void eng_job_end(czk_engine *e, eng_job *j) {
    if (j->err == CZK_OK) {
        j->status = CZK_JOB_DONE;
        e->done++;
    } else if (j->err == CZK_ERR_CANCELLED || j->err == CZK_ERR_SHUTDOWN) {
        j->status = CZK_JOB_CANCELLED;
        e->cancelled++;
    } else {
        j->status = CZK_JOB_FAILED;
        e->failed++;
    }
    if (j->status != CZK_JOB_DONE) {
        free(j->proofs);
        free(j->pub);
        j->proofs = NULL;
        j->pub = NULL;
    }
    /* no partition is in flight: the input has had its last use */
    czk_circuit_input_release(&j->input);
    if (j->has_input_res) czk_budget_release(&j->input_res);
    j->has_input_res = false;
    j->t_end = eng_now_ns();
    j->end_seq = ++e->end_seq;
    if (j->circ) j->circ->users--;
    j->circ = NULL;
    e->n_active--;
    j->f_next = NULL;
    j->f_prev = e->ended_tail;
    if (e->ended_tail) e->ended_tail->f_next = j;
    else e->ended_head = j;
    e->ended_tail = j;
    e->n_ended++;
    pthread_cond_broadcast(&e->cv_done);
    eng_jobs_prune(e);
}

void eng_jobs_prune(czk_engine *e) {
    if (e->hold_prune) return;
    int64_t now = eng_now_ns();
    int64_t keep_ns = (int64_t)e->cfg.result_keep_ms * 1000000;
    while (e->ended_head &&
           (e->n_ended > e->cfg.result_keep_count || now - e->ended_head->t_end > keep_ns)) {
        eng_job *j = e->ended_head;
        e->ended_head = j->f_next;
        if (e->ended_head) e->ended_head->f_prev = NULL;
        else e->ended_tail = NULL;
        e->n_ended--;
        table_remove(e, j);
        if (j->awaiters > 0) j->forgotten = true; /* the last awaiter frees it */
        else eng_job_free(j);
    }
}

czk_err eng_job_copy_result(const eng_job *j, czk_job_result *out) {
    memset(out, 0, sizeof *out);
    out->job_id = j->id;
    out->status = j->status;
    out->err = j->err;
    snprintf(out->message, sizeof out->message, "%s", j->msg);
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s", j->circuit_id);
    out->seed = j->seed;
    out->priority = j->prio;
    out->n_partitions = j->n_parts;
    if (j->status < CZK_JOB_DONE) return CZK_OK;
    out->end_seq = j->end_seq;
    out->verified = j->verified;
    double t0 = (double)j->t_submit;
    out->queue_wait_s = j->t_first ? ((double)j->t_first - t0) * 1e-9 : 0;
    out->total_s = ((double)j->t_end - t0) * 1e-9;
    out->synthesis_s = j->synth_s;
    out->gpu_s = j->gpu_s;
    out->finalize_s = j->finish_s;
    out->timeline = malloc(j->n_parts * sizeof *out->timeline);
    if (!out->timeline) return CZK_ERR_NO_MEMORY;
    memcpy(out->timeline, j->tl, j->n_parts * sizeof *out->timeline);
    if (j->status == CZK_JOB_DONE) {
        out->proofs = malloc(j->n_parts * CZK_PROOF_BYTES);
        out->n_public = j->n_public;
        if (j->n_public) out->public_inputs = malloc(j->n_parts * j->n_public * sizeof(czk_fr));
        if (!out->proofs || (j->n_public && !out->public_inputs)) {
            czk_job_result_free(out);
            return CZK_ERR_NO_MEMORY;
        }
        czk_proofs_encode(out->proofs, j->proofs, j->n_parts);
        if (j->n_public) memcpy(out->public_inputs, j->pub, j->n_parts * j->n_public * sizeof(czk_fr));
    }
    return CZK_OK;
}

void czk_job_result_free(czk_job_result *r) {
    if (!r) return;
    free(r->proofs);
    free(r->public_inputs);
    free(r->timeline);
    memset(r, 0, sizeof *r);
}
