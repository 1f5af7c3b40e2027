/* czk — the cuzk.v1.ProvingEngine methods on the service: each decoded
 * request (grpc_codec.c) becomes service calls and a response; waits for a
 * job are cut into slices of AWAIT_SLICE_MS so that a stopping server and a
 * call the client gave up on are noticed. The transport is grpc_server.c. */
#include <grpc/byte_buffer.h>
#include <grpc/grpc.h>
#include <grpc/support/time.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/log.h"
#include "grpc_call.h"
#include "grpc_security.h"

/* ---- handlers ---------------------------------------------------------------------- */

/* Client gone (cancelled, deadline passed) or server stopping? Polls the
 * call's queue without blocking. */
static grpc_status_code interrupted(call_ctx *c, char *msg, size_t msglen) {
    if (atomic_load(&c->srv->stopping)) {
        snprintf(msg, msglen, "the server is shutting down");
        return GRPC_STATUS_UNAVAILABLE;
    }
    if (!c->close_done) czk_grpc_call_wait(c, TAG_POLL, gpr_time_0(GPR_CLOCK_MONOTONIC));
    if (c->close_done) {
        snprintf(msg, msglen, "the call was cancelled by the client");
        return GRPC_STATUS_CANCELLED;
    }
    return GRPC_STATUS_OK;
}

/* Waits for a job in slices. GRPC_STATUS_OK with *timed_out when the job did
 * not end within timeout_ms (< 0: no limit); otherwise the job ended (res). */
static grpc_status_code await_job(call_ctx *c, const char *job_id, long timeout_ms, czk_service_result *res,
                                  bool *timed_out, char *msg, size_t msglen) {
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *timed_out = false;
    for (;;) {
        grpc_status_code st = interrupted(c, msg, msglen);
        if (st != GRPC_STATUS_OK) return st;
        long slice = AWAIT_SLICE_MS;
        if (timeout_ms >= 0) {
            struct timespec t;
            clock_gettime(CLOCK_MONOTONIC, &t);
            long spent = (long)(t.tv_sec - t0.tv_sec) * 1000 + (long)(t.tv_nsec - t0.tv_nsec) / 1000000;
            long left = timeout_ms - spent;
            if (left < 0) left = 0;
            if (left < slice) slice = left;
        }
        czk_service_result_free(res);
        memset(res, 0, sizeof *res);
        msg[0] = 0;
        czk_err e = czk_service_await(c->srv->svc, job_id, slice, res, msg, msglen);
        if (e == CZK_ERR_TIMEOUT) {
            if (timeout_ms >= 0 && slice < AWAIT_SLICE_MS) {
                *timed_out = true;
                return GRPC_STATUS_OK;
            }
            continue;
        }
        if (e != CZK_OK) {
            if (!msg[0]) snprintf(msg, msglen, "await: %s", czk_err_str(e));
            return czk_grpc_status_for(e, CZK_GRPC_AWAIT);
        }
        return GRPC_STATUS_OK;
    }
}

/* Fills an AwaitProofResponse (pointers into res and the caller's arrays). */
static void await_response(Cuzk__V1__AwaitProofResponse *r, const char *job_id, const czk_service_result *res,
                           bool timed_out, ProtobufCBinaryData *pubs) {
    r->job_id = (char *)job_id;
    if (timed_out) {
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
        return;
    }
    switch (res->state) {
    case CZK_SERVICE_JOB_DONE: r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED; break;
    case CZK_SERVICE_JOB_FAILED: r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED; break;
    case CZK_SERVICE_JOB_CANCELLED: r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED; break;
    default: r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN; break;
    }
    if (res->state != CZK_SERVICE_JOB_DONE) r->error_message = (char *)res->message;
    if (res->state == CZK_SERVICE_JOB_DONE) {
        r->proof.data = res->proof;
        r->proof.len = res->proof_len;
        for (size_t i = 0; i < res->n_public; i++) {
            pubs[i].data = res->public_inputs + 32 * i;
            pubs[i].len = 32;
        }
        r->n_public_inputs = res->n_public;
        r->public_inputs = pubs;
    }
    r->queue_wait_ms = res->queue_wait_ms;
    r->srs_load_ms = res->srs_load_ms;
    r->synthesis_ms = res->synthesis_ms;
    r->gpu_compute_ms = res->gpu_ms;
    r->total_ms = res->total_ms;
}

static grpc_status_code submit(call_ctx *c, const czk_grpc_request *rq, char job_id[CZK_JOB_ID_MAX], uint32_t *qpos,
                               char *msg, size_t msglen) {
    czk_err e = czk_service_submit(c->srv->svc, &rq->submit, job_id, qpos, msg, msglen);
    if (e == CZK_OK) return GRPC_STATUS_OK;
    if (!msg[0]) snprintf(msg, msglen, "submit: %s", czk_err_str(e));
    return czk_grpc_status_for(e, rq->method);
}

static void handle_submit(call_ctx *c, const czk_grpc_request *rq) {
    char msg[MSG] = "", id[CZK_JOB_ID_MAX] = "";
    uint32_t qpos = 0;
    grpc_status_code st = submit(c, rq, id, &qpos, msg, sizeof msg);
    Cuzk__V1__SubmitProofResponse r = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
    r.job_id = id;
    r.queue_position = qpos;
    czk_grpc_call_finish(c, st, msg, &r.base);
}

static void handle_await(call_ctx *c, const czk_grpc_request *rq) {
    char msg[MSG] = "";
    czk_service_result res;
    memset(&res, 0, sizeof res);
    bool timed_out;
    grpc_status_code st = await_job(c, rq->job_id, rq->timeout_ms, &res, &timed_out, msg, sizeof msg);
    Cuzk__V1__AwaitProofResponse r = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    ProtobufCBinaryData *pubs = NULL;
    if (st == GRPC_STATUS_OK) {
        pubs = calloc(res.n_public ? res.n_public : 1, sizeof *pubs);
        if (!pubs) {
            st = GRPC_STATUS_RESOURCE_EXHAUSTED;
            snprintf(msg, sizeof msg, "out of memory");
        } else {
            await_response(&r, rq->job_id, &res, timed_out, pubs);
        }
    }
    czk_grpc_call_finish(c, st, msg, &r.base);
    free(pubs);
    czk_service_result_free(&res);
}

static void handle_prove(call_ctx *c, const czk_grpc_request *rq) {
    char msg[MSG] = "", job_id[CZK_JOB_ID_MAX] = "";
    uint32_t qpos = 0;
    czk_service_result res;
    memset(&res, 0, sizeof res);
    bool timed_out = false;
    ProtobufCBinaryData *pubs = NULL;
    Cuzk__V1__AwaitProofResponse ar = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    Cuzk__V1__ProveResponse r = CUZK__V1__PROVE_RESPONSE__INIT;
    grpc_status_code st = submit(c, rq, job_id, &qpos, msg, sizeof msg);
    if (st == GRPC_STATUS_OK) st = await_job(c, job_id, -1, &res, &timed_out, msg, sizeof msg);
    if (st == GRPC_STATUS_OK) {
        pubs = calloc(res.n_public ? res.n_public : 1, sizeof *pubs);
        if (!pubs) {
            st = GRPC_STATUS_RESOURCE_EXHAUSTED;
            snprintf(msg, sizeof msg, "out of memory");
        } else {
            await_response(&ar, job_id, &res, timed_out, pubs);
            r.result = &ar;
        }
    }
    czk_grpc_call_finish(c, st, msg, &r.base);
    free(pubs);
    czk_service_result_free(&res);
}

static void handle_cancel(call_ctx *c, const czk_grpc_request *rq) {
    char msg[MSG] = "";
    bool was_running = false;
    czk_err e = czk_service_cancel(c->srv->svc, rq->job_id, &was_running, msg, sizeof msg);
    if (e != CZK_OK && !msg[0]) snprintf(msg, sizeof msg, "cancel: %s", czk_err_str(e));
    Cuzk__V1__CancelProofResponse r = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
    r.was_running = was_running;
    czk_grpc_call_finish(c, czk_grpc_status_for(e, CZK_GRPC_CANCEL), msg, &r.base);
}

static void handle_status(call_ctx *c) {
    czk_service_status st;
    memset(&st, 0, sizeof st);
    czk_err e = czk_service_status_get(c->srv->svc, &st);
    if (e != CZK_OK) {
        czk_grpc_call_finish(c, czk_grpc_status_for(e, CZK_GRPC_STATUS), czk_err_str(e), NULL);
        return;
    }
    char *json = czk_service_status_json(c->srv->svc);
    /* the device the engine's backend proves on, as the backend reports it
     * (none with the CPU backend): the service never asks CUDA itself */
    Cuzk__V1__GPUStatus gpu, *gpu_ptrs[1] = {&gpu};
    cuzk__v1__gpustatus__init(&gpu);
    size_t ngpu = st.gpu.present ? 1 : 0;
    if (ngpu) {
        gpu.ordinal = (uint32_t)st.gpu.dev.ordinal;
        gpu.name = st.gpu.device;
        gpu.vram_total_bytes = st.gpu.dev.vram_total_bytes;
        gpu.vram_free_bytes = st.gpu.dev.vram_free_bytes;
    }
    Cuzk__V1__SRSStatus *srs = calloc(st.n_srs ? st.n_srs : 1, sizeof *srs);
    Cuzk__V1__SRSStatus **srs_ptrs = calloc(st.n_srs ? st.n_srs : 1, sizeof *srs_ptrs);
    if (!srs || !srs_ptrs) {
        free(srs);
        free(srs_ptrs);
        free(json);
        czk_service_status_free(&st);
        czk_grpc_call_finish(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL);
        return;
    }
    for (size_t i = 0; i < st.n_srs; i++) {
        cuzk__v1__srsstatus__init(&srs[i]);
        srs[i].circuit_id = st.srs[i].circuit_id;
        srs[i].tier = CUZK__V1__SRSSTATUS__TIER__HOT;
        srs[i].size_bytes = st.srs[i].size_bytes;
        srs[i].ref_count = st.srs[i].ref_count;
        srs_ptrs[i] = &srs[i];
    }
    /* a queue per circuit (resident or with unfinished jobs): jobs not started, jobs running */
    size_t nq_cap = st.n_srs + st.n_jobs, nq = 0;
    Cuzk__V1__QueueStatus *qs = calloc(nq_cap ? nq_cap : 1, sizeof *qs);
    Cuzk__V1__QueueStatus **q_ptrs = calloc(nq_cap ? nq_cap : 1, sizeof *q_ptrs);
    if (!qs || !q_ptrs) {
        free(qs);
        free(q_ptrs);
        free(srs);
        free(srs_ptrs);
        free(json);
        czk_service_status_free(&st);
        czk_grpc_call_finish(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL);
        return;
    }
    for (size_t i = 0; i < st.n_srs + st.n_jobs; i++) {
        bool is_job = i >= st.n_srs;
        const char *id = is_job ? st.jobs[i - st.n_srs].circuit_id : st.srs[i].circuit_id;
        size_t k = 0;
        while (k < nq && strcmp(qs[k].proof_kind, id) != 0) k++;
        if (k == nq) {
            cuzk__v1__queue_status__init(&qs[nq]);
            qs[nq].proof_kind = (char *)id;
            q_ptrs[nq] = &qs[nq];
            nq++;
        }
        if (is_job) {
            if (st.jobs[i - st.n_srs].status == CZK_JOB_QUEUED) qs[k].pending++;
            else qs[k].in_progress++;
        }
    }

    Cuzk__V1__GetStatusResponse r = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    r.n_gpus = ngpu;
    r.gpus = gpu_ptrs;
    r.n_loaded_srs = st.n_srs;
    r.loaded_srs = srs_ptrs;
    r.n_queues = nq;
    r.queues = q_ptrs;
    r.total_proofs_completed = st.jobs_completed;
    r.total_proofs_failed = st.jobs_failed;
    r.uptime_seconds = st.uptime_s > 0 ? (uint64_t)st.uptime_s : 0;
    /* cuzk's pinned-memory budget; czk's one memory budget is its counterpart */
    r.pinned_memory_bytes = st.engine.budget_reserved;
    r.pinned_memory_limit_bytes = st.engine.budget_total;
    r.status_json = json ? json : (char *)"";
    czk_grpc_call_finish(c, GRPC_STATUS_OK, "", &r.base);
    free(qs);
    free(q_ptrs);
    free(srs);
    free(srs_ptrs);
    free(json);
    czk_service_status_free(&st);
}

static void handle_metrics(call_ctx *c) {
    char *text = czk_service_metrics_text(c->srv->svc);
    if (!text) {
        czk_grpc_call_finish(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL);
        return;
    }
    Cuzk__V1__GetMetricsResponse r = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    r.prometheus_text = text;
    czk_grpc_call_finish(c, GRPC_STATUS_OK, "", &r.base);
    free(text);
}

static void handle_preload(call_ctx *c, const czk_grpc_request *rq) {
    char msg[MSG] = "";
    bool already = false;
    uint64_t ms = 0;
    czk_err e = czk_service_preload(c->srv->svc, rq->circuit_id, &already, &ms, msg, sizeof msg);
    if (e != CZK_OK && !msg[0]) snprintf(msg, sizeof msg, "preload %s: %s", rq->circuit_id, czk_err_str(e));
    Cuzk__V1__PreloadSrsResponse r = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
    r.already_loaded = already;
    r.load_time_ms = ms;
    czk_grpc_call_finish(c, czk_grpc_status_for(e, CZK_GRPC_PRELOAD), msg, &r.base);
}

static void handle_evict(call_ctx *c, const czk_grpc_request *rq) {
    char msg[MSG] = "";
    bool was = false;
    uint64_t freed = 0;
    czk_err e = czk_service_evict(c->srv->svc, rq->circuit_id, &was, &freed, msg, sizeof msg);
    if (e != CZK_OK && !msg[0]) snprintf(msg, sizeof msg, "evict %s: %s", rq->circuit_id, czk_err_str(e));
    Cuzk__V1__EvictSrsResponse r = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
    r.was_loaded = was;
    r.freed_bytes = freed;
    czk_grpc_call_finish(c, czk_grpc_status_for(e, CZK_GRPC_EVICT), msg, &r.base);
}

void czk_grpc_dispatch(call_ctx *c, const czk_grpc_request *rq) {
    char why[MSG] = "";
    grpc_status_code auth = czk_grpc_security_authorize(c->srv->sec, &c->md, why, sizeof why);
    if (auth != GRPC_STATUS_OK) {
        czk_grpc_call_finish(c, auth, why, NULL);
        return;
    }
    switch (rq->method) {
    case CZK_GRPC_SUBMIT: handle_submit(c, rq); break;
    case CZK_GRPC_AWAIT: handle_await(c, rq); break;
    case CZK_GRPC_PROVE: handle_prove(c, rq); break;
    case CZK_GRPC_CANCEL: handle_cancel(c, rq); break;
    case CZK_GRPC_STATUS: handle_status(c); break;
    case CZK_GRPC_METRICS: handle_metrics(c); break;
    case CZK_GRPC_PRELOAD: handle_preload(c, rq); break;
    case CZK_GRPC_EVICT: handle_evict(c, rq); break;
    default: czk_grpc_call_finish(c, GRPC_STATUS_UNIMPLEMENTED, "unknown method", NULL); break;
    }
}
