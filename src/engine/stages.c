/* czk — the pipeline's threads.
 *
 * Partition workers (pw): take the most urgent partition, reserve its
 * estimate in the budget (waiting by the job's priority), synthesize the
 * witness, evaluate a, b, c and push the partition into the bounded GPU
 * queue. The worker is the partition's permit: it takes no other partition
 * until the push has succeeded, so finished syntheses never pile up.
 * GPU workers (gw): backend start, which frees a, b, c; the reservation is
 * shrunk to what the pending handle and finish still need right after start
 * returns; the handle goes to the bounded finalizer queue.
 * Finalizers (ft): backend finish, the reservation given back (finish freed
 * the rest), the proof handed to the job; the finalizer that delivers a
 * job's last partition verifies the job (when configured) and ends it.
 *
 * At every stage boundary a partition of an aborted job (failed or
 * cancelled) is dropped: what it holds is freed, then its bytes go back to
 * the budget, then it is retired from its job. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static double since_submit(const eng_job *j) { return (double)(eng_now_ns() - j->t_submit) * 1e-9; }

static void busy_add(czk_engine *e, czk_stage s, int64_t t0) {
    atomic_fetch_add(&e->busy_ns[s], eng_now_ns() - t0);
}

static void queue_push(eng_queue *q, eng_part *p) {
    p->next = NULL;
    if (q->tail) q->tail->next = p;
    else q->head = p;
    q->tail = p;
    q->len++;
}

/* The GPU queue: by priority, FIFO within one (behind the last of its
 * priority or above). */
static void queue_push_prio(eng_queue *q, eng_part *p) {
    if (!q->tail || q->tail->job->prio >= p->job->prio) {
        queue_push(q, p);
        return;
    }
    eng_part **at = &q->head;
    while (*at && (*at)->job->prio >= p->job->prio) at = &(*at)->next;
    p->next = *at;
    *at = p;
    q->len++;
}

static eng_part *queue_pop(eng_queue *q) {
    eng_part *p = q->head;
    if (!p) return NULL;
    q->head = p->next;
    if (!q->head) q->tail = NULL;
    q->len--;
    p->next = NULL;
    return p;
}

/* Whether p may enter the GPU queue now: no more urgent partition waits to
 * enter (waiters go in by priority), and there is room, or p is CRITICAL and
 * takes one of the critical workers' places beyond the capacity, ahead of a
 * less urgent partition. So at most capacity + critical_workers partitions
 * are queued, and a CRITICAL one never waits behind a queue of others. */
static bool gpu_q_admits(const czk_engine *e, const eng_part *p) {
    const eng_queue *q = &e->gpu_q;
    for (int pr = (int)p->job->prio + 1; pr <= CZK_PRIO_CRITICAL; pr++)
        if (e->door_waiting[pr]) return false;
    if (q->len < q->cap) return true;
    return p->job->prio == CZK_PRIO_CRITICAL && q->len < q->cap + (size_t)e->cfg.critical_workers && q->tail &&
           q->tail->job->prio < CZK_PRIO_CRITICAL;
}

static void flight(czk_engine *e, czk_flight f, long long d) { eng_flight_add(e, f, d); }

static void free_abc(czk_engine *e, eng_part *p) {
    if (!p->has_abc) return;
    czk_mem_free(p->a);
    czk_mem_free(p->b);
    czk_mem_free(p->c);
    czk_fr_packed_free(p->a_packed);
    czk_fr_packed_free(p->b_packed);
    czk_fr_packed_free(p->c_packed);
    p->a = p->b = p->c = NULL;
    p->a_packed = p->b_packed = p->c_packed = NULL;
    p->has_abc = false;
    flight(e, CZK_FLIGHT_ABC, -1);
}

static void free_witness(czk_engine *e, eng_part *p) {
    czk_witness_free(&p->w);
    czk_fr_packed_free(p->aux_packed);
    p->aux_packed = NULL;
    if (!p->has_witness) return;
    p->has_witness = false;
    flight(e, CZK_FLIGHT_WITNESS, -1);
}

static void release_res(czk_engine *e, eng_part *p) {
    if (!p->has_res) return;
    czk_budget_release(&p->res);
    p->has_res = false;
    flight(e, CZK_FLIGHT_RESERVATIONS, -1);
}

void eng_part_drop(czk_engine *e, eng_part *p) {
    if (p->pending) {
        czk_backend_destroy(e->backend, p->pending);
        p->pending = NULL;
        flight(e, CZK_FLIGHT_PENDING, -1);
    }
    free_abc(e, p);
    free_witness(e, p);
    if (p->in_pw) flight(e, CZK_FLIGHT_SYNTHESIZING, -1);
    if (p->in_gpu_q) flight(e, CZK_FLIGHT_GPU_QUEUED, -1);
    if (p->in_fin) flight(e, CZK_FLIGHT_FINALIZING, -1);
    release_res(e, p); /* only now: the memory is gone */
    pthread_mutex_lock(&e->mu);
    eng_job *j = p->job;
    j->tl[p->index] = p->tl;
    eng_job_retire(e, j);
    pthread_mutex_unlock(&e->mu);
    free(p);
}

void eng_parts_drop(czk_engine *e, eng_part *list) {
    while (list) {
        eng_part *next = list->next;
        eng_part_drop(e, list);
        list = next;
    }
}

static void event(const czk_engine *e, const eng_part *p, czk_partition_event ev, double seconds) {
    if (e->cfg.on_event) e->cfg.on_event(e->cfg.event_ctx, p->job->id, p->job->request_id, p->index, ev, seconds);
}

/* Fails p's job with "partition i: <why>" and drops p. */
static void part_fail(czk_engine *e, eng_part *p, czk_err err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void part_fail(czk_engine *e, eng_part *p, czk_err err, const char *fmt, ...) {
    char why[400], msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(msg, sizeof msg, "partition %zu: %s", p->index, why);
    event(e, p, CZK_PART_FAILED, 0);
    eng_part *dropped = NULL;
    pthread_mutex_lock(&e->mu);
    eng_job_abort(e, p->job, err, msg, &dropped);
    pthread_mutex_unlock(&e->mu);
    eng_parts_drop(e, dropped);
    eng_part_drop(e, p);
}

static bool aborted(const eng_part *p) { return atomic_load(&p->job->abort); }


/* ---- partition workers ----------------------------------------------------------- */

static bool synth_done(czk_engine *e, eng_part *p, int64_t t0) {
    p->tl.synth_end = since_submit(p->job);
    p->synth_s = (double)(eng_now_ns() - t0) * 1e-9;
    busy_add(e, CZK_STAGE_SYNTH, t0);
    event(e, p, CZK_PART_SYNTH_END, p->synth_s);
    return true;
}

/* Packs the witness's aux values (a 32 GiB PoRep partition's 4.2 GB are
 * 98.7 % zeros and ones: about 0.2 GB packed), frees the plain ones and
 * shrinks the reservation by what that gave back. Kept plain when they
 * would not pack. false when p was dropped. */
static bool pack_witness(czk_engine *e, eng_part *p, const eng_circuit *c) {
    (void)c;
    czk_fr_packed *v = NULL;
    czk_err err = czk_fr_packed_make(&v, p->w.aux, p->w.n_aux, CZK_MEM_SYNTH, e->pool);
    if (err != CZK_OK) {
        part_fail(e, p, err, "packing the witness failed: %s", czk_err_str(err));
        return false;
    }
    if (!v) return true;
    size_t plain = czk_mem_size(p->w.aux), packed = czk_fr_packed_bytes(v);
    czk_mem_free(p->w.aux);
    p->w.aux = NULL;
    p->aux_packed = v;
    if (plain > packed && p->res.bytes > plain - packed) czk_budget_shrink(&p->res, p->res.bytes - (plain - packed));
    return true;
}

/* Synthesis and a, b, c for a reserved partition; false when p was dropped. */
static bool synthesize(czk_engine *e, eng_part *p, const eng_circuit *c) {
    eng_job *j = p->job;
    char m[400] = "";
    int64_t t0 = eng_now_ns();
    p->tl.synth_start = since_submit(j);
    event(e, p, CZK_PART_SYNTH_START, 0);
    if (eng_fault_hit(&e->faults, FAULT_SYNTH, j->seed)) {
        part_fail(e, p, CZK_ERR_SYNTHESIS, "synthesis failed: injected fault (synth:%llu)",
                  (unsigned long long)j->seed);
        return false;
    }
    czk_err err = j->input.data ? czk_circuit_witness_input(&c->c, p->index, j->input.data, &p->w, m, sizeof m)
                                : czk_circuit_witness(&c->c, p->index, j->seed, &p->w, m, sizeof m);
    if (err != CZK_OK) {
        czk_witness_free(&p->w);
        part_fail(e, p, err, "synthesis failed: %s", m[0] ? m : czk_err_str(err));
        return false;
    }
    p->has_witness = true;
    flight(e, CZK_FLIGHT_WITNESS, 1);
    if (p->w.n_input != c->n_public + 1) {
        part_fail(e, p, CZK_ERR_MISMATCH, "the witness has %zu inputs, the circuit %zu", p->w.n_input,
                  c->n_public + 1);
        return false;
    }
    /* this partition's public inputs: a slot only this thread writes */
    if (c->n_public) memcpy(&j->pub[p->index * c->n_public], p->w.input + 1, c->n_public * sizeof(czk_fr));
    if (aborted(p)) {
        eng_part_drop(e, p);
        return false;
    }
    if (c->device_abc) {
        /* the backend evaluates a, b, c on its device: the partition waits as
         * its witness alone, packed where the backend takes it so */
        if (e->backend->ops->packed_witness && !pack_witness(e, p, c)) return false;
        return synth_done(e, p, t0);
    }
    /* pack_abc: evaluated straight into packed chunks, so that plain a, b, c
     * never exist whole */
    if (e->cfg.pack_abc)
        err = czk_prover_key_eval_abc_packed(&c->key, &p->w, &p->a_packed, &p->b_packed, &p->c_packed, e->pool);
    else
        err = czk_prover_key_eval_abc(&c->key, &p->w, &p->a, &p->b, &p->c, e->pool);
    if (err != CZK_OK) {
        part_fail(e, p, err, "evaluating a, b, c failed: %s (witness %zu inputs, %zu aux; circuit %zu, %zu)",
                  czk_err_str(err), p->w.n_input, p->w.n_aux, c->key.r1cs.n_inputs, c->key.r1cs.n_aux);
        return false;
    }
    if (e->cfg.pack_abc && e->backend->ops->packed_abc) {
        /* the estimate counted plain a, b, c of the domain's size */
        const size_t plain = 3 * c->domain * sizeof(czk_fr), packed = czk_fr_packed_bytes(p->a_packed) +
                                                                       czk_fr_packed_bytes(p->b_packed) +
                                                                       czk_fr_packed_bytes(p->c_packed);
        if (plain > packed && p->res.bytes > plain - packed)
            czk_budget_shrink(&p->res, p->res.bytes - (plain - packed));
    }
    p->has_abc = true;
    flight(e, CZK_FLIGHT_ABC, 1);
    return synth_done(e, p, t0);
}

static void *partition_worker(czk_engine *e, czk_priority min_prio) {
    for (;;) {
        size_t idx = 0;
        pthread_mutex_lock(&e->mu);
        eng_job *j;
        while (!(j = eng_sched_take(e, min_prio, &idx)) && !e->stopping) pthread_cond_wait(&e->cv_work, &e->mu);
        const eng_circuit *c = j ? j->circ : NULL; /* alive: the job has not ended */
        pthread_mutex_unlock(&e->mu);
        if (!j) break;
        eng_part *p = calloc(1, sizeof *p);
        if (!p) {
            eng_part *dropped = NULL;
            pthread_mutex_lock(&e->mu);
            eng_job_abort(e, j, CZK_ERR_NO_MEMORY, "out of memory for a partition", &dropped);
            eng_job_retire(e, j);
            pthread_mutex_unlock(&e->mu);
            eng_parts_drop(e, dropped);
            continue;
        }
        p->job = j;
        p->index = idx;
        p->in_pw = true;
        flight(e, CZK_FLIGHT_SYNTHESIZING, 1);
        flight(e, CZK_FLIGHT_RESERVING, 1);
        char m[400] = "";
        czk_err err = czk_budget_reserve(e->budget, c->est_bytes, j->prio, &j->abort, -1, &p->res, m, sizeof m);
        flight(e, CZK_FLIGHT_RESERVING, -1);
        if (err == CZK_ERR_CANCELLED || (err == CZK_OK && aborted(p))) {
            if (err == CZK_OK) {
                p->has_res = true;
                flight(e, CZK_FLIGHT_RESERVATIONS, 1);
            }
            eng_part_drop(e, p);
            continue;
        }
        if (err != CZK_OK) {
            part_fail(e, p, err, "reserving %zu bytes failed: %s", c->est_bytes, m);
            continue;
        }
        p->has_res = true;
        flight(e, CZK_FLIGHT_RESERVATIONS, 1);
        if (!synthesize(e, p, c)) continue;

        /* hold the partition until the GPU queue takes it */
        pthread_mutex_lock(&e->mu);
        e->door_waiting[p->job->prio]++;
        while (!gpu_q_admits(e, p) && !aborted(p)) pthread_cond_wait(&e->cv_gpu_space, &e->mu);
        e->door_waiting[p->job->prio]--;
        pthread_cond_broadcast(&e->cv_gpu_space); /* less urgent waiters may go now */
        if (aborted(p)) {
            pthread_mutex_unlock(&e->mu);
            eng_part_drop(e, p);
            continue;
        }
        p->tl.queued = since_submit(j);
        p->in_pw = false;
        p->in_gpu_q = true;
        flight(e, CZK_FLIGHT_SYNTHESIZING, -1);
        flight(e, CZK_FLIGHT_GPU_QUEUED, 1);
        queue_push_prio(&e->gpu_q, p);
        pthread_cond_signal(&e->cv_gpu_item);
        pthread_mutex_unlock(&e->mu);
    }
    return NULL;
}

void *eng_partition_worker(void *arg) { return partition_worker(arg, CZK_PRIO_LOW); }
void *eng_critical_worker(void *arg) { return partition_worker(arg, CZK_PRIO_CRITICAL); }

/* ---- GPU workers ------------------------------------------------------------------ */

void *eng_gpu_worker(void *arg) {
    czk_engine *e = arg;
    for (;;) {
        pthread_mutex_lock(&e->mu);
        while (!e->gpu_q.len && !e->stopping) pthread_cond_wait(&e->cv_gpu_item, &e->mu);
        eng_part *p = queue_pop(&e->gpu_q);
        if (p) {
            p->in_gpu_q = false;
            flight(e, CZK_FLIGHT_GPU_QUEUED, -1);
            pthread_cond_broadcast(&e->cv_gpu_space); /* waiters re-check gpu_q_admits */
        }
        const eng_circuit *c = p ? p->job->circ : NULL;
        pthread_mutex_unlock(&e->mu);
        if (!p) break;
        eng_job *j = p->job;
        if (aborted(p)) {
            eng_part_drop(e, p);
            continue;
        }
        if (eng_fault_hit(&e->faults, FAULT_START, j->seed)) {
            part_fail(e, p, CZK_ERR_IO, "backend start failed: injected fault (start:%llu)",
                      (unsigned long long)j->seed);
            continue;
        }
        czk_fr r, s;
        if (czk_fr_random_os(&r) != CZK_OK || czk_fr_random_os(&s) != CZK_OK) {
            part_fail(e, p, CZK_ERR_IO, "no randomness from the operating system");
            continue;
        }
        czk_assignment asg = {
            .input = p->w.input,
            .n_input = p->w.n_input,
            .aux = p->w.aux,
            .n_aux = p->w.n_aux,
            .a = p->a,
            .b = p->b,
            .c = p->c,
            .a_packed = p->a_packed,
            .b_packed = p->b_packed,
            .c_packed = p->c_packed,
            .aux_packed = p->aux_packed,
            .r1cs = c->device_abc ? &c->key.compact : NULL,
            .n_abc = c->key.r1cs.n_constraints + c->key.r1cs.n_inputs,
            .a_aux_density = &c->key.a_aux,
            .b_input_density = &c->key.b_input,
            .b_aux_density = &c->key.b_aux,
        };
        /* start owns every buffer from here on */
        p->a = p->b = p->c = NULL;
        p->a_packed = p->b_packed = p->c_packed = NULL;
        p->aux_packed = NULL;
        memset(&p->w, 0, sizeof p->w);
        char m[400] = "";
        flight(e, CZK_FLIGHT_GPU, 1);
        int64_t t0 = eng_now_ns();
        p->tl.gpu_start = since_submit(j);
        event(e, p, CZK_PART_GPU_START, 0);
        czk_err err = czk_backend_start(e->backend, &p->pending, &c->params, &asg, &r, &s, m, sizeof m);
        p->tl.gpu_end = since_submit(j);
        p->gpu_s = (double)(eng_now_ns() - t0) * 1e-9;
        busy_add(e, CZK_STAGE_GPU, t0);
        flight(e, CZK_FLIGHT_GPU, -1);
        if (p->has_abc) { /* freed inside start, also on error */
            p->has_abc = false;
            flight(e, CZK_FLIGHT_ABC, -1);
        }
        if (err != CZK_OK) {
            p->pending = NULL;
            free_witness(e, p); /* start freed it */
            part_fail(e, p, err, "backend start failed: %s", m[0] ? m : czk_err_str(err));
            continue;
        }
        flight(e, CZK_FLIGHT_PENDING, 1);
        event(e, p, CZK_PART_GPU_END, p->gpu_s);
        /* a, b, c are gone: keep only what the handle and finish need */
        size_t keep = czk_backend_pending_bytes(e->backend, p->pending) + c->est_after_start;
        if (keep < p->res.bytes) czk_budget_shrink(&p->res, keep);
        pthread_mutex_lock(&e->mu);
        while (e->fin_q.len >= e->fin_q.cap && !aborted(p)) pthread_cond_wait(&e->cv_fin_space, &e->mu);
        if (aborted(p)) {
            pthread_mutex_unlock(&e->mu);
            eng_part_drop(e, p);
            continue;
        }
        p->in_fin = true;
        flight(e, CZK_FLIGHT_FINALIZING, 1);
        queue_push(&e->fin_q, p);
        pthread_cond_signal(&e->cv_fin_item);
        pthread_mutex_unlock(&e->mu);
    }
    return NULL;
}

/* ---- finalizers -------------------------------------------------------------------- */

/* Verifies every partition of a job whose proofs are all in (without mu:
 * nothing writes them any more). */
static czk_err verify_job(czk_engine *e, eng_job *j, const eng_circuit *c, char *msg, size_t msglen) {
    int64_t t0 = eng_now_ns();
    czk_err err = CZK_OK;
    for (size_t i = 0; i < j->n_parts && err == CZK_OK; i++) {
        err = czk_verify(&c->pvk, &j->proofs[i], j->n_public ? &j->pub[i * j->n_public] : NULL, j->n_public);
        if (err != CZK_OK) snprintf(msg, msglen, "partition %zu: the proof does not verify (%s)", i, czk_err_str(err));
    }
    busy_add(e, CZK_STAGE_VERIFY, t0);
    return err;
}

void *eng_finalizer(void *arg) {
    czk_engine *e = arg;
    for (;;) {
        pthread_mutex_lock(&e->mu);
        while (!e->fin_q.len && !e->stopping) pthread_cond_wait(&e->cv_fin_item, &e->mu);
        eng_part *p = queue_pop(&e->fin_q);
        if (p) pthread_cond_signal(&e->cv_fin_space);
        pthread_mutex_unlock(&e->mu);
        if (!p) break;
        eng_job *j = p->job;
        if (aborted(p)) {
            eng_part_drop(e, p);
            continue;
        }
        if (eng_fault_hit(&e->faults, FAULT_FINISH, j->seed)) {
            part_fail(e, p, CZK_ERR_IO, "backend finish failed: injected fault (finish:%llu)",
                      (unsigned long long)j->seed);
            continue;
        }
        char m[400] = "";
        int64_t t0 = eng_now_ns();
        czk_err err = czk_backend_finish(e->backend, p->pending, &p->proof, m, sizeof m); /* consumes it */
        p->pending = NULL;
        flight(e, CZK_FLIGHT_PENDING, -1);
        p->has_witness = false; /* freed with the handle */
        flight(e, CZK_FLIGHT_WITNESS, -1);
        p->finish_s = (double)(eng_now_ns() - t0) * 1e-9;
        busy_add(e, CZK_STAGE_FINISH, t0);
        p->tl.finalize_end = since_submit(j);
        if (err != CZK_OK) {
            part_fail(e, p, err, "backend finish failed: %s", m[0] ? m : czk_err_str(err));
            continue;
        }
        p->in_fin = false;
        flight(e, CZK_FLIGHT_FINALIZING, -1);
        /* the job's verification allocates too (czk_verify's MSM scratch is
         * czk_mem): when p is the job's last partition, its reservation
         * covers that and goes back after it (tests/engine/test_engine_budget.c) */
        czk_reservation verify_res = {0};
        if (e->cfg.verify_results) czk_budget_transfer(&verify_res, &p->res, p->res.bytes);
        release_res(e, p);
        event(e, p, CZK_PART_PROVED, p->finish_s);

        bool last = false;
        const eng_circuit *c = NULL;
        pthread_mutex_lock(&e->mu);
        j->proofs[p->index] = p->proof;
        j->tl[p->index] = p->tl;
        j->synth_s += p->synth_s;
        j->gpu_s += p->gpu_s;
        j->finish_s += p->finish_s;
        j->done_parts++;
        e->proved++;
        if (!atomic_load(&j->abort) && j->done_parts == j->n_parts) {
            last = true; /* stays in flight until verified */
            c = j->circ;
        } else {
            czk_budget_release(&verify_res); /* before the job can end */
            eng_job_retire(e, j);
        }
        pthread_mutex_unlock(&e->mu);
        free(p);
        if (!last) continue;

        char vm[512] = "";
        czk_err verr = e->cfg.verify_results ? verify_job(e, j, c, vm, sizeof vm) : CZK_OK;
        czk_budget_release(&verify_res);
        eng_part *dropped = NULL;
        pthread_mutex_lock(&e->mu);
        j->verified = e->cfg.verify_results && verr == CZK_OK;
        if (verr != CZK_OK) eng_job_abort(e, j, CZK_ERR_PROOF_INVALID, vm, &dropped);
        j->inflight--;
        if (j->inflight == 0 && j->status < CZK_JOB_DONE) eng_job_end(e, j);
        pthread_mutex_unlock(&e->mu);
        eng_parts_drop(e, dropped);
    }
    return NULL;
}
