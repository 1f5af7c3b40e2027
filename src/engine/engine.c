/* czk — the engine's lifecycle and its job API: create (budget, pool,
 * backend, threads), submit (validation, de-duplication by request id,
 * refusal of what could never fit), await, cancel, statistics and shutdown
 * (drain or abandon, every thread joined). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_internal.h"

void czk_engine_config_default(czk_engine_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->partition_workers = 2;
    cfg->gpu_workers = 2;
    cfg->finalizers = 1;
    cfg->result_keep_count = 1024;
    cfg->result_keep_ms = 600000;
}

static void cond_init_mono(pthread_cond_t *cv) {
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(cv, &a);
    pthread_condattr_destroy(&a);
}

/* Sets stopping, wakes and joins every thread. */
static void stop_threads(czk_engine *e) {
    pthread_mutex_lock(&e->mu);
    e->stopping = true;
    pthread_cond_broadcast(&e->cv_work);
    pthread_cond_broadcast(&e->cv_gpu_item);
    pthread_cond_broadcast(&e->cv_gpu_space);
    pthread_cond_broadcast(&e->cv_fin_item);
    pthread_cond_broadcast(&e->cv_fin_space);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < e->n_threads; i++) pthread_join(e->threads[i], NULL);
    e->n_threads = 0;
}

static void engine_free(czk_engine *e) {
    while (e->circuits) {
        eng_circuit *c = e->circuits;
        e->circuits = c->next;
        eng_circuit_free(e, c);
    }
    for (size_t i = 0; i < ENG_HASH; i++) {
        eng_job *j = e->by_id[i];
        while (j) {
            eng_job *next = j->id_next;
            eng_job_free(j);
            j = next;
        }
    }
    if (e->has_fixed_res) czk_budget_release(&e->fixed_res);
    if (e->own_backend) czk_backend_close(e->backend);
    czk_pool_destroy(e->pool);
    if (e->budget) czk_budget_destroy(e->budget);
    free(e->threads);
    pthread_mutex_destroy(&e->mu);
    pthread_mutex_destroy(&e->reg_mu);
    pthread_cond_destroy(&e->cv_work);
    pthread_cond_destroy(&e->cv_gpu_item);
    pthread_cond_destroy(&e->cv_gpu_space);
    pthread_cond_destroy(&e->cv_fin_item);
    pthread_cond_destroy(&e->cv_fin_space);
    pthread_cond_destroy(&e->cv_done);
    pthread_cond_destroy(&e->cv_gauge);
    pthread_mutex_destroy(&e->gauge_mu);
    free(e);
}

czk_err czk_engine_create(czk_engine **out, const czk_engine_config *cfg_in, char *msg, size_t msglen) {
    *out = NULL;
    czk_engine_config cfg;
    if (cfg_in) cfg = *cfg_in;
    else czk_engine_config_default(&cfg);
    if (cfg.partition_workers < 1 || cfg.gpu_workers < 1 || cfg.finalizers < 1 || cfg.gpu_queue_capacity < 0 ||
        cfg.partition_workers > 1024 || cfg.gpu_workers > 1024 || cfg.finalizers > 1024 || cfg.result_keep_ms < 0 ||
        cfg.critical_workers < 0 || cfg.critical_workers > 64) {
        ENG_MSG(msg, msglen, "partition_workers, gpu_workers and finalizers must be in [1, 1024], "
                             "critical_workers in [0, 64], gpu_queue_capacity and result_keep_ms >= 0");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (!cfg.gpu_queue_capacity) cfg.gpu_queue_capacity = cfg.gpu_workers;
    if (!cfg.result_keep_count) cfg.result_keep_count = 1024;
    if (!cfg.result_keep_ms) cfg.result_keep_ms = 600000;
    eng_faults faults;
    const char *fs = cfg.faults ? cfg.faults : getenv("CZK_FAULT");
    czk_err err = eng_faults_parse(&faults, fs, msg, msglen);
    if (err != CZK_OK) return err;
    cfg.faults = NULL; /* parsed; the string is not kept */

    size_t bytes = cfg.budget_bytes;
    if (!bytes) {
        size_t margin = cfg.budget_margin_bytes;
        if (!margin && czk_budget_auto_bytes(&bytes, 0, NULL, 0) == CZK_OK) margin = bytes / 10;
        if ((err = czk_budget_auto_bytes(&bytes, margin, msg, msglen)) != CZK_OK) return err;
        cfg.budget_bytes = bytes;
    }

    czk_engine *e = calloc(1, sizeof *e);
    if (!e) return CZK_ERR_NO_MEMORY;
    e->cfg = cfg;
    e->faults = faults;
    pthread_mutex_init(&e->mu, NULL);
    pthread_mutex_init(&e->reg_mu, NULL);
    pthread_cond_init(&e->cv_work, NULL);
    pthread_cond_init(&e->cv_gpu_item, NULL);
    pthread_cond_init(&e->cv_gpu_space, NULL);
    pthread_cond_init(&e->cv_fin_item, NULL);
    pthread_cond_init(&e->cv_fin_space, NULL);
    cond_init_mono(&e->cv_done);
    cond_init_mono(&e->cv_gauge);
    pthread_mutex_init(&e->gauge_mu, NULL);
    e->gpu_q.cap = (size_t)cfg.gpu_queue_capacity;
    e->fin_q.cap = (size_t)cfg.finalizers + (size_t)cfg.gpu_workers;
    e->next_id = 1;
    e->accepting = true;
    e->t_start = eng_now_ns();
    if ((err = czk_budget_create(&e->budget, bytes)) != CZK_OK ||
        (err = czk_pool_create(&e->pool, cfg.threads)) != CZK_OK) {
        ENG_MSG(msg, msglen, "creating the budget or the thread pool failed: %s", czk_err_str(err));
        engine_free(e);
        return err;
    }
    if (cfg.backend) {
        e->backend = cfg.backend;
    } else if ((err = czk_backend_cpu_open(&e->backend, e->pool)) != CZK_OK) {
        ENG_MSG(msg, msglen, "opening the CPU backend failed: %s", czk_err_str(err));
        engine_free(e);
        return err;
    } else {
        e->own_backend = true;
    }
    size_t be_fixed = e->backend->host_fixed_bytes, fixed = be_fixed + cfg.outside_fixed_bytes;
    if (fixed < be_fixed) fixed = SIZE_MAX;
    if (fixed) {
        if (!czk_budget_try_reserve(e->budget, fixed, &e->fixed_res)) {
            ENG_MSG(msg, msglen,
                    "the budget (%zu bytes, %.1f MiB) cannot hold the fixed host memory: the %s backend's %zu bytes "
                    "(%.1f MiB: its pinned staging buffers) and %zu bytes (%.1f MiB) held outside the engine (czkd: "
                    "the gRPC receive buffers, daemon.receive_buffer)",
                    bytes, bytes / 1048576.0, czk_backend_name(e->backend), be_fixed, be_fixed / 1048576.0,
                    cfg.outside_fixed_bytes, cfg.outside_fixed_bytes / 1048576.0);
            engine_free(e);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        e->has_fixed_res = true;
        e->resident_total += fixed;
    }
    int n = cfg.partition_workers + cfg.critical_workers + cfg.gpu_workers + cfg.finalizers;
    e->threads = calloc((size_t)n, sizeof *e->threads);
    if (!e->threads) {
        engine_free(e);
        return CZK_ERR_NO_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        const int pw = cfg.partition_workers, cw = cfg.critical_workers, gw = cfg.gpu_workers;
        void *(*fn)(void *) = i < pw             ? eng_partition_worker
                              : i < pw + cw      ? eng_critical_worker
                              : i < pw + cw + gw ? eng_gpu_worker
                                                 : eng_finalizer;
        if (pthread_create(&e->threads[i], NULL, fn, e) != 0) {
            stop_threads(e);
            engine_free(e);
            ENG_MSG(msg, msglen, "cannot start the engine's threads");
            return CZK_ERR_NO_MEMORY;
        }
        e->n_threads = i + 1;
    }
    *out = e;
    return CZK_OK;
}

void czk_engine_shutdown(czk_engine *e, czk_shutdown_mode mode) {
    if (!e) return;
    pthread_mutex_lock(&e->mu);
    if (!e->accepting) {
        /* someone else shuts down: wait until they are done */
        while (!e->shut_down) pthread_cond_wait(&e->cv_done, &e->mu);
        pthread_mutex_unlock(&e->mu);
        return;
    }
    e->accepting = false;
    eng_part *dropped = NULL;
    if (mode == CZK_SHUTDOWN_ABANDON) {
        e->hold_prune = true;
        for (size_t i = 0; i < ENG_HASH; i++)
            for (eng_job *j = e->by_id[i]; j; j = j->id_next)
                if (j->status < CZK_JOB_DONE)
                    eng_job_abort(e, j, CZK_ERR_SHUTDOWN, "the engine shut down before the job finished", &dropped);
        e->hold_prune = false;
        eng_jobs_prune(e);
    }
    pthread_mutex_unlock(&e->mu);
    eng_parts_drop(e, dropped);
    pthread_mutex_lock(&e->mu);
    while (e->n_active) pthread_cond_wait(&e->cv_done, &e->mu);
    pthread_mutex_unlock(&e->mu);
    stop_threads(e);
    pthread_mutex_lock(&e->mu);
    e->shut_down = true;
    pthread_cond_broadcast(&e->cv_done);
    pthread_mutex_unlock(&e->mu);
}

void czk_engine_destroy(czk_engine *e) {
    if (!e) return;
    czk_engine_shutdown(e, CZK_SHUTDOWN_ABANDON);
    engine_free(e);
}

static void input_drop(const czk_circuit_input *in) {
    if (!in) return;
    czk_circuit_input x = *in;
    czk_circuit_input_release(&x);
}

/* czk_engine_submit and czk_engine_submit_input: input NULL for a seed. */
static czk_err submit(czk_engine *e, const char *request_id, const char *circuit_id, uint64_t seed,
                      const czk_circuit_input *input, czk_priority prio, uint64_t *job_id, char *msg, size_t msglen) {
    if (job_id) *job_id = 0;
    if (!e || !circuit_id || !job_id || (int)prio < CZK_PRIO_LOW || (int)prio > CZK_PRIO_CRITICAL ||
        (input && !input->data)) {
        ENG_MSG(msg, msglen, "bad argument: engine, circuit id and job id are required; priority LOW..CRITICAL");
        input_drop(input);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_err err = CZK_OK;
    pthread_mutex_lock(&e->mu);
    eng_jobs_prune(e);
    eng_circuit *c = NULL;
    eng_job *j = NULL;
    if (!e->accepting) {
        err = CZK_ERR_SHUTDOWN;
        ENG_MSG(msg, msglen, "the engine is shutting down");
        goto out;
    }
    if (request_id && (j = eng_job_find_request(e, request_id))) {
        if (strcmp(j->circuit_id, circuit_id) || j->seed != seed || !j->input.data != !input) {
            err = CZK_ERR_MISMATCH;
            ENG_MSG(msg, msglen, "request '%s' is job %llu of circuit '%s' seed %llu, not '%s' seed %llu", request_id,
                    (unsigned long long)j->id, j->circuit_id, (unsigned long long)j->seed, circuit_id,
                    (unsigned long long)seed);
        } else {
            *job_id = j->id;
        }
        goto out;
    }
    if (!(c = eng_circuit_find(e, circuit_id))) {
        err = CZK_ERR_NOT_FOUND;
        ENG_MSG(msg, msglen, "no circuit '%s' is registered", circuit_id);
        goto out;
    }
    if (!input != !c->c.synthesize_input) {
        err = CZK_ERR_INVALID_ARGUMENT;
        ENG_MSG(msg, msglen, input ? "circuit '%s' takes a seed, not input data" : "circuit '%s' takes input data, not a seed",
                circuit_id);
        goto out;
    }
    size_t total = czk_budget_total(e->budget), room = total - e->resident_total;
    if (c->est_bytes > room) {
        /* not the request's fault: the budget is configured too small */
        err = CZK_ERR_PRECONDITION;
        ENG_MSG(msg, msglen,
                "the memory budget (%zu bytes, %.3g GiB) is too small for one partition of '%s', which needs %zu "
                "bytes (%.3g GiB) of working memory; the budget leaves %zu bytes (%.3g GiB) after %zu resident bytes "
                "of parameters and R1CS: the job could never run; raise the budget to at least %zu bytes",
                total, total / 1073741824.0, circuit_id, c->est_bytes, c->est_bytes / 1073741824.0, room,
                room / 1073741824.0, e->resident_total, e->resident_total + c->est_bytes);
        goto out;
    }
    size_t n_parts = input && input->partitions ? input->partitions : c->c.partitions;
    czk_reservation input_res;
    bool has_input_res = false;
    if (input && input->bytes) {
        if (!czk_budget_try_reserve(e->budget, input->bytes, &input_res)) {
            err = CZK_ERR_BUSY;
            ENG_MSG(msg, msglen, "the memory budget has no room now for the job's input (%zu bytes, %.1f MiB)",
                    input->bytes, input->bytes / 1048576.0);
            goto out;
        }
        has_input_res = true;
    }
    j = calloc(1, sizeof *j);
    if (j) {
        j->proofs = calloc(n_parts, sizeof *j->proofs);
        j->tl = calloc(n_parts, sizeof *j->tl);
        j->pub = c->n_public ? calloc(n_parts * c->n_public, sizeof(czk_fr)) : NULL;
        j->request_id = request_id ? strdup(request_id) : NULL;
    }
    if (!j || !j->proofs || !j->tl || (c->n_public && !j->pub) || (request_id && !j->request_id)) {
        eng_job_free(j);
        if (has_input_res) czk_budget_release(&input_res);
        err = CZK_ERR_NO_MEMORY;
        ENG_MSG(msg, msglen, "out of memory for a job");
        goto out;
    }
    j->id = e->next_id++;
    j->circ = c;
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", circuit_id);
    j->seed = seed;
    if (input) {
        j->input = *input;
        j->input_res = input_res;
        j->has_input_res = has_input_res;
        input = NULL; /* the job's now */
    }
    j->prio = prio;
    j->n_parts = n_parts;
    j->n_public = c->n_public;
    j->status = CZK_JOB_QUEUED;
    atomic_init(&j->abort, false);
    j->t_submit = eng_now_ns();
    c->users++;
    e->n_active++;
    e->submitted++;
    eng_job_insert(e, j);
    eng_sched_push(e, j);
    *job_id = j->id;
out:
    pthread_mutex_unlock(&e->mu);
    input_drop(input); /* a refused submission's */
    return err;
}

czk_err czk_engine_submit(czk_engine *e, const char *request_id, const char *circuit_id, uint64_t seed,
                          czk_priority prio, uint64_t *job_id, char *msg, size_t msglen) {
    return submit(e, request_id, circuit_id, seed, NULL, prio, job_id, msg, msglen);
}

czk_err czk_engine_submit_input(czk_engine *e, const char *request_id, const char *circuit_id,
                                const czk_circuit_input *input, czk_priority prio, uint64_t *job_id, char *msg,
                                size_t msglen) {
    if (!input) {
        ENG_MSG(msg, msglen, "bad argument: no input");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    return submit(e, request_id, circuit_id, 0, input, prio, job_id, msg, msglen);
}

czk_err czk_engine_await(czk_engine *e, uint64_t job_id, long timeout_ms, czk_job_result *out) {
    if (out) memset(out, 0, sizeof *out);
    if (!e) return CZK_ERR_INVALID_ARGUMENT;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    if (timeout_ms > 0) {
        deadline.tv_sec += timeout_ms / 1000;
        deadline.tv_nsec += (timeout_ms % 1000) * 1000000;
        if (deadline.tv_nsec >= 1000000000) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000;
        }
    }
    pthread_mutex_lock(&e->mu);
    eng_jobs_prune(e);
    eng_job *j = eng_job_find(e, job_id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return CZK_ERR_NOT_FOUND;
    }
    j->awaiters++;
    while (j->status < CZK_JOB_DONE && timeout_ms != 0) {
        if (timeout_ms < 0) pthread_cond_wait(&e->cv_done, &e->mu);
        else if (pthread_cond_timedwait(&e->cv_done, &e->mu, &deadline) == ETIMEDOUT) break;
    }
    j->awaiters--;
    czk_err err;
    if (j->status < CZK_JOB_DONE) {
        err = CZK_ERR_TIMEOUT;
        if (out) {
            out->job_id = j->id;
            out->status = j->status;
        }
    } else {
        err = j->err;
        if (out) {
            czk_err ce = eng_job_copy_result(j, out);
            if (ce != CZK_OK) err = ce;
        }
    }
    if (j->forgotten && j->awaiters == 0) eng_job_free(j);
    pthread_mutex_unlock(&e->mu);
    return err;
}

czk_err czk_engine_cancel(czk_engine *e, uint64_t job_id) {
    if (!e) return CZK_ERR_INVALID_ARGUMENT;
    pthread_mutex_lock(&e->mu);
    eng_job *j = eng_job_find(e, job_id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return CZK_ERR_NOT_FOUND;
    }
    eng_part *dropped = NULL;
    eng_job_abort(e, j, CZK_ERR_CANCELLED, "cancelled", &dropped);
    pthread_mutex_unlock(&e->mu);
    eng_parts_drop(e, dropped);
    return CZK_OK;
}

void czk_engine_stats_get(czk_engine *e, czk_engine_stats *s) {
    memset(s, 0, sizeof *s);
    for (int f = 0; f < CZK_FLIGHT__COUNT; f++) {
        s->now[f] = atomic_load(&e->flight[f].now);
        s->high_water[f] = atomic_load(&e->flight[f].high);
    }
    for (int t = 0; t < CZK_MEM__COUNT; t++) {
        s->mem_in_use[t] = czk_mem_in_use((czk_mem_tag)t);
        s->mem_high_water[t] = czk_mem_high_water((czk_mem_tag)t);
    }
    s->budget_total = czk_budget_total(e->budget);
    s->budget_reserved = czk_budget_reserved(e->budget);
    s->budget_high_water = czk_budget_high_water(e->budget);
    s->budget_waiters = czk_budget_waiters(e->budget);
    for (int k = 0; k < CZK_STAGE__COUNT; k++) s->busy_s[k] = (double)atomic_load(&e->busy_ns[k]) * 1e-9;
    s->uptime_s = (double)(eng_now_ns() - e->t_start) * 1e-9;
    pthread_mutex_lock(&e->mu);
    eng_jobs_prune(e);
    s->budget_resident = e->resident_total;
    s->queued_jobs = e->sched_jobs;
    s->queued_partitions = e->sched_parts;
    s->gpu_queue_len = e->gpu_q.len;
    s->finalize_queue_len = e->fin_q.len;
    s->jobs_active = e->n_active;
    s->results_kept = e->n_ended;
    for (eng_circuit *c = e->circuits; c; c = c->next) s->circuits++;
    s->jobs_submitted = e->submitted;
    s->jobs_done = e->done;
    s->jobs_failed = e->failed;
    s->jobs_cancelled = e->cancelled;
    s->partitions_proved = e->proved;
    pthread_mutex_unlock(&e->mu);
    s->partition_workers = e->cfg.partition_workers;
    s->gpu_workers = e->cfg.gpu_workers;
    s->finalizers = e->cfg.finalizers;
    s->gpu_queue_capacity = e->cfg.gpu_queue_capacity;
}

void czk_engine_stats_reset_high_water(czk_engine *e) {
    for (int f = 0; f < CZK_FLIGHT__COUNT; f++) atomic_store(&e->flight[f].high, atomic_load(&e->flight[f].now));
}
