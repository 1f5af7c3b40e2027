/* czk — the service's status as JSON (GET /status, GetStatus) and as
 * Prometheus text (GET /metrics, GetMetrics).
 *
 * JSON layout (every number an integer unless it is seconds):
 *   uptime_s, backend, queue_limit
 *   process    {rss_bytes, rss_peak_bytes}: the daemon's resident set now and at its peak
 *   pipeline   {partition_workers, gpu_workers, finalizers, gpu_queue_capacity,
 *               queued_jobs, queued_partitions, gpu_queue_len, finalize_queue_len,
 *               busy_s: {synth, gpu, finish, verify}}
 *   partitions {queued, reserving, synthesizing, gpu_queued, gpu, finalizing}:
 *               partitions by stage now
 *   gpu_workers [{worker, busy}]: the first `gpu` workers are busy (the engine
 *               counts partitions inside backend start, not per worker)
 *   memory     {budget_total, budget_reserved, budget_high_water, budget_resident,
 *               budget_waiters, tags: {synth: {in_use, high_water}, …}}
 *   flight     {reserving: {now, high_water}, …}: every flight counter
 *   jobs       {pending, completed, failed, cancelled, submitted_this_run,
 *               active: [{job_id, circuit_id, state, priority, partitions, age_s}]}
 *   srs        [{circuit_id, size_bytes, ref_count}]
 *   srs_loading [{circuit_id, need_bytes, seconds}]: parameter loads in progress
 *   startup    {state: "restoring" | "ready", jobs, requeued, loading, seconds}:
 *               the re-queueing of the earlier run's unfinished jobs (new jobs
 *               wait while it is "restoring"; loading: the circuit it loads)
 *   gpu        (the CUDA backend only) {device, partitions, lock_busy, prestaged,
 *               streamed_chunks, packed_chunks, device_bytes, start_s: {bases, abc_h, msm_h,
 *               witness, msm_g1, msm_g2, lock_wait, prestage, total}}: start's
 *               stages summed over partitions (czk_backend_cuda_timings) */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/mem.h"
#include "czk/service.h"
#include "service_internal.h"

typedef struct {
    uint64_t id, engine_id;
} job_ref;

czk_err czk_service_status_get(czk_service *s, czk_service_status *out) {
    memset(out, 0, sizeof *out);
    if (!czk_svc_enter(s)) return CZK_ERR_SHUTDOWN;
    czk_engine_stats_get(s->engine, &out->engine);
    czk_journal_counts jc;
    czk_journal_get_counts(s->journal, &jc);
    out->jobs_completed = jc.done;
    out->jobs_failed = jc.failed;
    out->jobs_cancelled = jc.cancelled;
    snprintf(out->backend, sizeof out->backend, "%s", s->backend);
    czk_backend *be = s->cfg.engine.backend;
    if (be && !strcmp(czk_backend_name(be), "cuda")) {
        out->gpu.present = true;
        snprintf(out->gpu.device, sizeof out->gpu.device, "%s", czk_backend_cuda_describe(be));
        czk_backend_cuda_timings_get(be, &out->gpu.t);
        out->gpu.device_bytes = czk_backend_cuda_mem_used(be);
        czk_backend_cuda_device_get(be, &out->gpu.dev);
    }
    out->queue_limit = s->cfg.queue_limit;
    czk_err e = CZK_OK;
    job_ref *refs = NULL;
    pthread_mutex_lock(&s->mu);
    double now = czk_svc_now_s();
    out->uptime_s = now - s->opened_s;
    out->jobs_pending = s->n_jobs;
    out->startup.restoring = s->restoring;
    out->startup.jobs = s->n_restore;
    out->startup.requeued = s->restore_done;
    snprintf(out->startup.loading, sizeof out->startup.loading, "%s", s->restore_loading);
    if (s->n_restore) out->startup.seconds = (s->restoring ? now : s->restore_end_s) - s->restore_start_s;
    size_t n_srs = 0, n_loading = 0;
    for (srs_entry *x = s->srs; x; x = x->next) n_srs += x->loaded, n_loading += x->loading;
    if (n_srs && !(out->srs = calloc(n_srs, sizeof *out->srs))) e = CZK_ERR_NO_MEMORY;
    if (n_loading && !(out->loading = calloc(n_loading, sizeof *out->loading))) e = CZK_ERR_NO_MEMORY;
    for (srs_entry *x = s->srs; x && e == CZK_OK; x = x->next) {
        if (!x->loading) continue;
        czk_service_loading *o = &out->loading[out->n_loading++];
        snprintf(o->circuit_id, sizeof o->circuit_id, "%s", x->id);
        o->need_bytes = x->need_bytes;
        o->seconds = now - x->load_start_s;
    }
    if (s->n_jobs && (!(out->jobs = calloc(s->n_jobs, sizeof *out->jobs)) || !(refs = calloc(s->n_jobs, sizeof *refs))))
        e = CZK_ERR_NO_MEMORY;
    if (e == CZK_OK) {
        for (srs_entry *x = s->srs; x; x = x->next) {
            if (!x->loaded) continue;
            czk_service_srs *o = &out->srs[out->n_srs++];
            snprintf(o->circuit_id, sizeof o->circuit_id, "%s", x->id);
            o->size_bytes = x->size_bytes;
            for (svc_job *j = s->jobs; j; j = j->next) o->ref_count += !strcmp(j->circuit_id, x->id);
        }
        for (svc_job *j = s->jobs; j; j = j->next) {
            czk_service_job_info *o = &out->jobs[out->n_jobs];
            refs[out->n_jobs++] = (job_ref){j->id, j->engine_id};
            memcpy(o->job_id, j->name, sizeof o->job_id);
            snprintf(o->circuit_id, sizeof o->circuit_id, "%s", j->circuit_id);
            o->priority = j->prio;
            o->status = CZK_JOB_QUEUED;
            o->n_partitions = j->n_partitions;
            o->age_s = now - j->accepted_s;
        }
    }
    pthread_mutex_unlock(&s->mu);
    for (size_t i = 0; e == CZK_OK && i < out->n_jobs; i++) {
        czk_job_result r;
        memset(&r, 0, sizeof r);
        czk_err x = czk_engine_await(s->engine, refs[i].engine_id, 0, &r);
        out->jobs[i].status = x == CZK_ERR_TIMEOUT ? r.status : CZK_JOB_RUNNING; /* ended: being journalled */
        czk_job_result_free(&r);
    }
    free(refs);
    czk_svc_leave(s);
    if (e != CZK_OK) czk_service_status_free(out);
    return e;
}

void czk_service_status_free(czk_service_status *st) {
    if (!st) return;
    free(st->srs);
    free(st->jobs);
    free(st->loading);
    st->srs = NULL;
    st->jobs = NULL;
    st->loading = NULL;
    st->n_srs = st->n_jobs = st->n_loading = 0;
}

static json_t *jint(uint64_t v) { return json_integer((json_int_t)v); }

/* the stages of czk_backend_cuda_timings, in its order (JSON keys and the
 * metrics' stage label) */
#define GPU_N_STAGES 9
static const char *const GPU_STAGES[GPU_N_STAGES] = {"bases",  "abc_h",     "msm_h",    "witness", "msm_g1",
                                                     "msm_g2", "lock_wait", "prestage", "total"};

static void gpu_stage_seconds(const czk_backend_cuda_timings *t, double out[GPU_N_STAGES]) {
    const double v[GPU_N_STAGES] = {t->bases_s,  t->abc_h_s,     t->msm_h_s,    t->witness_s, t->msm_g1_s,
                                    t->msm_g2_s, t->lock_wait_s, t->prestage_s, t->start_s};
    memcpy(out, v, sizeof v);
}

static json_t *status_to_json(const czk_service_status *st) {
    const czk_engine_stats *e = &st->engine;
    json_t *o = json_object();
    json_object_set_new(o, "uptime_s", json_real(st->uptime_s));
    json_object_set_new(o, "backend", json_string(st->backend));
    json_object_set_new(o, "queue_limit", jint(st->queue_limit));
    size_t rss, rss_peak;
    czk_mem_process_rss(&rss, &rss_peak);
    json_t *proc = json_object();
    json_object_set_new(proc, "rss_bytes", jint(rss));
    json_object_set_new(proc, "rss_peak_bytes", jint(rss_peak));
    json_object_set_new(o, "process", proc);

    json_t *p = json_object();
    json_object_set_new(p, "partition_workers", json_integer(e->partition_workers));
    json_object_set_new(p, "gpu_workers", json_integer(e->gpu_workers));
    json_object_set_new(p, "finalizers", json_integer(e->finalizers));
    json_object_set_new(p, "gpu_queue_capacity", json_integer(e->gpu_queue_capacity));
    json_object_set_new(p, "queued_jobs", jint(e->queued_jobs));
    json_object_set_new(p, "queued_partitions", jint(e->queued_partitions));
    json_object_set_new(p, "gpu_queue_len", jint(e->gpu_queue_len));
    json_object_set_new(p, "finalize_queue_len", jint(e->finalize_queue_len));
    json_t *busy = json_object();
    for (int s = 0; s < CZK_STAGE__COUNT; s++)
        json_object_set_new(busy, czk_stage_name((czk_stage)s), json_real(e->busy_s[s]));
    json_object_set_new(p, "busy_s", busy);
    json_object_set_new(o, "pipeline", p);

    json_t *parts = json_object();
    json_object_set_new(parts, "queued", jint(e->queued_partitions));
    json_object_set_new(parts, "reserving", json_integer(e->now[CZK_FLIGHT_RESERVING]));
    json_object_set_new(parts, "synthesizing", json_integer(e->now[CZK_FLIGHT_SYNTHESIZING]));
    json_object_set_new(parts, "gpu_queued", json_integer(e->now[CZK_FLIGHT_GPU_QUEUED]));
    json_object_set_new(parts, "gpu", json_integer(e->now[CZK_FLIGHT_GPU]));
    json_object_set_new(parts, "finalizing", json_integer(e->now[CZK_FLIGHT_FINALIZING]));
    json_object_set_new(o, "partitions", parts);

    json_t *gw = json_array();
    for (int w = 0; w < e->gpu_workers; w++) {
        json_t *x = json_object();
        json_object_set_new(x, "worker", json_integer(w));
        json_object_set_new(x, "busy", json_boolean(w < e->now[CZK_FLIGHT_GPU]));
        json_array_append_new(gw, x);
    }
    json_object_set_new(o, "gpu_workers", gw);

    json_t *m = json_object();
    json_object_set_new(m, "budget_total", jint(e->budget_total));
    json_object_set_new(m, "budget_reserved", jint(e->budget_reserved));
    json_object_set_new(m, "budget_high_water", jint(e->budget_high_water));
    json_object_set_new(m, "budget_resident", jint(e->budget_resident));
    json_object_set_new(m, "budget_waiters", jint(e->budget_waiters));
    json_t *tags = json_object();
    for (int t = 0; t < CZK_MEM__COUNT; t++) {
        json_t *x = json_object();
        json_object_set_new(x, "in_use", jint(e->mem_in_use[t]));
        json_object_set_new(x, "high_water", jint(e->mem_high_water[t]));
        json_object_set_new(tags, czk_mem_tag_name((czk_mem_tag)t), x);
    }
    json_object_set_new(m, "tags", tags);
    json_object_set_new(o, "memory", m);

    json_t *fl = json_object();
    for (int f = 0; f < CZK_FLIGHT__COUNT; f++) {
        json_t *x = json_object();
        json_object_set_new(x, "now", json_integer(e->now[f]));
        json_object_set_new(x, "high_water", json_integer(e->high_water[f]));
        json_object_set_new(fl, czk_flight_name((czk_flight)f), x);
    }
    json_object_set_new(o, "flight", fl);

    json_t *jobs = json_object();
    json_object_set_new(jobs, "pending", jint(st->jobs_pending));
    json_object_set_new(jobs, "completed", jint(st->jobs_completed));
    json_object_set_new(jobs, "failed", jint(st->jobs_failed));
    json_object_set_new(jobs, "cancelled", jint(st->jobs_cancelled));
    json_object_set_new(jobs, "submitted_this_run", jint(e->jobs_submitted));
    json_t *act = json_array();
    for (size_t i = 0; i < st->n_jobs; i++) {
        const czk_service_job_info *j = &st->jobs[i];
        json_t *x = json_object();
        json_object_set_new(x, "job_id", json_string(j->job_id)); /* UTF-8: checked at submit */
        json_object_set_new(x, "circuit_id", json_string(j->circuit_id));
        json_object_set_new(x, "state", json_string(czk_job_status_name(j->status)));
        json_object_set_new(x, "priority", json_string(czk_priority_name(j->priority)));
        json_object_set_new(x, "partitions", jint(j->n_partitions));
        json_object_set_new(x, "age_s", json_real(j->age_s));
        json_array_append_new(act, x);
    }
    json_object_set_new(jobs, "active", act);
    json_object_set_new(o, "jobs", jobs);

    json_t *srs = json_array();
    for (size_t i = 0; i < st->n_srs; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "circuit_id", json_string(st->srs[i].circuit_id));
        json_object_set_new(x, "size_bytes", jint(st->srs[i].size_bytes));
        json_object_set_new(x, "ref_count", jint(st->srs[i].ref_count));
        json_array_append_new(srs, x);
    }
    json_object_set_new(o, "srs", srs);
    json_t *ld = json_array();
    for (size_t i = 0; i < st->n_loading; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "circuit_id", json_string(st->loading[i].circuit_id));
        json_object_set_new(x, "need_bytes", jint(st->loading[i].need_bytes));
        json_object_set_new(x, "seconds", json_real(st->loading[i].seconds));
        json_array_append_new(ld, x);
    }
    json_object_set_new(o, "srs_loading", ld);
    json_t *su = json_object();
    json_object_set_new(su, "state", json_string(st->startup.restoring ? "restoring" : "ready"));
    json_object_set_new(su, "jobs", jint(st->startup.jobs));
    json_object_set_new(su, "requeued", jint(st->startup.requeued));
    json_object_set_new(su, "loading", json_string(st->startup.loading));
    json_object_set_new(su, "seconds", json_real(st->startup.seconds));
    json_object_set_new(o, "startup", su);
    if (st->gpu.present) {
        const czk_backend_cuda_timings *t = &st->gpu.t;
        json_t *g = json_object(), *ss = json_object();
        json_object_set_new(g, "device", json_string(st->gpu.device));
        json_object_set_new(g, "partitions", jint(t->partitions));
        json_object_set_new(g, "lock_busy", jint(t->lock_busy));
        json_object_set_new(g, "prestaged", jint(t->prestaged));
        json_object_set_new(g, "streamed_chunks", jint(t->streamed_chunks));
        json_object_set_new(g, "packed_chunks", jint(t->packed_chunks));
        json_object_set_new(g, "device_bytes", jint(st->gpu.device_bytes));
        double secs[GPU_N_STAGES];
        gpu_stage_seconds(t, secs);
        for (size_t i = 0; i < GPU_N_STAGES; i++)
            json_object_set_new(ss, GPU_STAGES[i], json_real(secs[i]));
        json_object_set_new(g, "start_s", ss);
        json_object_set_new(o, "gpu", g);
    }
    return o;
}

char *czk_service_status_render_json(const czk_service_status *st) {
    json_t *o = status_to_json(st);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

char *czk_service_status_json(czk_service *s) {
    czk_service_status st;
    if (czk_service_status_get(s, &st) != CZK_OK) return NULL;
    char *text = czk_service_status_render_json(&st);
    czk_service_status_free(&st);
    return text;
}

/* ---- Prometheus text --------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t len, cap;
    bool failed;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf ? b->buf + b->len : NULL, b->buf ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if (b->buf && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + (size_t)n + 1) cap *= 2;
        char *p = realloc(b->buf, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->buf = p;
        b->cap = cap;
    }
}

static void metric(sbuf *b, const char *name, const char *type, const char *help) {
    sb_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

char *czk_service_metrics_text(czk_service *s) {
    czk_service_status st;
    if (czk_service_status_get(s, &st) != CZK_OK) return NULL;
    char *text = czk_service_status_render_metrics(&st);
    czk_service_status_free(&st);
    return text;
}

/* The CUDA backend's counters and start's stages. */
static void gpu_metrics(sbuf *b, const czk_service_gpu *g) {
    const czk_backend_cuda_timings *t = &g->t;
    metric(b, "czk_gpu_start_seconds_total", "counter",
           "Seconds of the CUDA backend's start by stage, summed over partitions (total: the whole of start).");
    double secs[GPU_N_STAGES];
    gpu_stage_seconds(t, secs);
    for (size_t i = 0; i < GPU_N_STAGES; i++)
        sb_printf(b, "czk_gpu_start_seconds_total{stage=\"%s\"} %.3f\n", GPU_STAGES[i], secs[i]);
    metric(b, "czk_gpu_partitions_total", "counter", "Partitions whose start the CUDA backend completed.");
    sb_printf(b, "czk_gpu_partitions_total %lu\n", t->partitions);
    metric(b, "czk_gpu_lock_busy_total", "counter", "Starts that found the device lock taken.");
    sb_printf(b, "czk_gpu_lock_busy_total %lu\n", t->lock_busy);
    metric(b, "czk_gpu_prestaged_total", "counter", "Vectors a, b, c staged to the device while waiting for its lock.");
    sb_printf(b, "czk_gpu_prestaged_total %lu\n", t->prestaged);
    metric(b, "czk_gpu_streamed_chunks_total", "counter", "MSMs over bases uploaded for the call, by chunk.");
    sb_printf(b, "czk_gpu_streamed_chunks_total %lu\n", t->streamed_chunks);
    metric(b, "czk_gpu_packed_chunks_total", "counter", "Upload chunks that crossed PCIe packed (CZK_GPU_PACK).");
    sb_printf(b, "czk_gpu_packed_chunks_total %lu\n", t->packed_chunks);
    metric(b, "czk_gpu_device_bytes", "gauge", "Device memory the CUDA backend holds (resident bases, tables, work).");
    sb_printf(b, "czk_gpu_device_bytes %zu\n", g->device_bytes);
}

char *czk_service_status_render_metrics(const czk_service_status *st) {
    const czk_engine_stats *e = &st->engine;
    sbuf b = {0};
    metric(&b, "czk_uptime_seconds", "gauge", "Seconds since the service opened.");
    sb_printf(&b, "czk_uptime_seconds %.3f\n", st->uptime_s);
    size_t rss, rss_peak;
    czk_mem_process_rss(&rss, &rss_peak);
    metric(&b, "czk_process_resident_bytes", "gauge", "Resident set of the daemon now and at its peak.");
    sb_printf(&b, "czk_process_resident_bytes{kind=\"now\"} %llu\n", (unsigned long long)rss);
    sb_printf(&b, "czk_process_resident_bytes{kind=\"peak\"} %llu\n", (unsigned long long)rss_peak);
    metric(&b, "czk_jobs_total", "counter", "Jobs ended over the journal's life, by outcome.");
    sb_printf(&b, "czk_jobs_total{outcome=\"completed\"} %llu\n", (unsigned long long)st->jobs_completed);
    sb_printf(&b, "czk_jobs_total{outcome=\"failed\"} %llu\n", (unsigned long long)st->jobs_failed);
    sb_printf(&b, "czk_jobs_total{outcome=\"cancelled\"} %llu\n", (unsigned long long)st->jobs_cancelled);
    metric(&b, "czk_jobs_pending", "gauge", "Accepted jobs that have not ended.");
    sb_printf(&b, "czk_jobs_pending %llu\n", (unsigned long long)st->jobs_pending);
    metric(&b, "czk_queue_limit", "gauge", "Unfinished jobs accepted at most.");
    sb_printf(&b, "czk_queue_limit %zu\n", st->queue_limit);
    metric(&b, "czk_partitions_proved_total", "counter", "Partitions proved by this run.");
    sb_printf(&b, "czk_partitions_proved_total %llu\n", (unsigned long long)e->partitions_proved);
    metric(&b, "czk_queued_partitions", "gauge", "Partitions not yet taken by a partition worker.");
    sb_printf(&b, "czk_queued_partitions %zu\n", e->queued_partitions);
    metric(&b, "czk_gpu_queue_length", "gauge", "Partitions waiting for a GPU worker.");
    sb_printf(&b, "czk_gpu_queue_length %zu\n", e->gpu_queue_len);
    metric(&b, "czk_finalize_queue_length", "gauge", "Partitions waiting for a finalizer.");
    sb_printf(&b, "czk_finalize_queue_length %zu\n", e->finalize_queue_len);
    metric(&b, "czk_workers", "gauge", "Threads of each pipeline stage.");
    sb_printf(&b, "czk_workers{stage=\"partition\"} %d\n", e->partition_workers);
    sb_printf(&b, "czk_workers{stage=\"gpu\"} %d\n", e->gpu_workers);
    sb_printf(&b, "czk_workers{stage=\"finalize\"} %d\n", e->finalizers);
    metric(&b, "czk_flight", "gauge", "Buffer-flight counters: partitions or buffers at each stage now.");
    for (int f = 0; f < CZK_FLIGHT__COUNT; f++)
        sb_printf(&b, "czk_flight{counter=\"%s\"} %lld\n", czk_flight_name((czk_flight)f), (long long)e->now[f]);
    metric(&b, "czk_flight_high_water", "gauge", "Highest value of each buffer-flight counter.");
    for (int f = 0; f < CZK_FLIGHT__COUNT; f++)
        sb_printf(&b, "czk_flight_high_water{counter=\"%s\"} %lld\n", czk_flight_name((czk_flight)f),
                  (long long)e->high_water[f]);
    metric(&b, "czk_stage_busy_seconds_total", "counter", "Seconds spent in each stage, summed over its threads.");
    for (int s2 = 0; s2 < CZK_STAGE__COUNT; s2++)
        sb_printf(&b, "czk_stage_busy_seconds_total{stage=\"%s\"} %.3f\n", czk_stage_name((czk_stage)s2),
                  e->busy_s[s2]);
    metric(&b, "czk_budget_bytes", "gauge", "The memory budget: total, reserved, resident parameters, high water.");
    sb_printf(&b, "czk_budget_bytes{kind=\"total\"} %zu\n", e->budget_total);
    sb_printf(&b, "czk_budget_bytes{kind=\"reserved\"} %zu\n", e->budget_reserved);
    sb_printf(&b, "czk_budget_bytes{kind=\"resident\"} %zu\n", e->budget_resident);
    sb_printf(&b, "czk_budget_bytes{kind=\"high_water\"} %zu\n", e->budget_high_water);
    metric(&b, "czk_budget_waiters", "gauge", "Reservations waiting for budget.");
    sb_printf(&b, "czk_budget_waiters %zu\n", e->budget_waiters);
    metric(&b, "czk_memory_bytes", "gauge", "Bytes held by czk buffers, by tag.");
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        sb_printf(&b, "czk_memory_bytes{tag=\"%s\"} %zu\n", czk_mem_tag_name((czk_mem_tag)t), e->mem_in_use[t]);
    metric(&b, "czk_memory_high_water_bytes", "gauge", "Highest bytes held by czk buffers, by tag.");
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        sb_printf(&b, "czk_memory_high_water_bytes{tag=\"%s\"} %zu\n", czk_mem_tag_name((czk_mem_tag)t),
                  e->mem_high_water[t]);
    metric(&b, "czk_srs_bytes", "gauge", "Resident parameters (and R1CS) by circuit.");
    for (size_t i = 0; i < st->n_srs; i++)
        sb_printf(&b, "czk_srs_bytes{circuit=\"%s\"} %llu\n", st->srs[i].circuit_id,
                  (unsigned long long)st->srs[i].size_bytes);
    metric(&b, "czk_srs_ref_count", "gauge", "Unfinished jobs using each resident circuit.");
    for (size_t i = 0; i < st->n_srs; i++)
        sb_printf(&b, "czk_srs_ref_count{circuit=\"%s\"} %u\n", st->srs[i].circuit_id, st->srs[i].ref_count);
    metric(&b, "czk_srs_loading", "gauge", "Circuits whose parameters are being loaded.");
    sb_printf(&b, "czk_srs_loading %zu\n", st->n_loading);
    metric(&b, "czk_startup_restoring", "gauge",
           "1 while the earlier run's unfinished jobs are being re-queued (new jobs wait), else 0.");
    sb_printf(&b, "czk_startup_restoring %d\n", st->startup.restoring ? 1 : 0);
    if (st->gpu.present) gpu_metrics(&b, &st->gpu);
    if (b.failed) {
        free(b.buf);
        return NULL;
    }
    return b.buf;
}
