/* The proving engine on the CPU backend: many concurrent multi-partition jobs
 * of mixed sizes (every proof verified independently, the budget's
 * high-water mark within the budget, every flight counter back to zero),
 * priorities, cancellation at each stage (held there deterministically by a
 * gated synthesizer and a slow backend whose start and finish wait on gates
 * the test opens), injected failures, the bound on a/b/c sets in flight,
 * request de-duplication, result expiry, refusals at submit, eviction and
 * both shutdown modes. No sleeps are used for synchronization. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "czk/engine.h"
#include "czk/groth16_io.h"
#include "gate.h"
#include "test.h"

#define WAIT_MS 60000 /* a generous bound on waits that must succeed */

/* ---- a gated synthesizer (demo behind the gate in witness mode) ------------------- */

static gate synth_gate;
static czk_err (*demo_synth)(czk_cs *, const czk_circuit *, size_t, uint64_t);

static czk_err gated_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    if (czk_cs_get_mode(cs) == CZK_CS_WITNESS) gate_pass(&synth_gate);
    return demo_synth(cs, c, partition, seed);
}

/* ---- a slow backend: the CPU backend behind two gates ---------------------------- */

typedef struct {
    czk_backend *cpu;
    gate start, finish;
} slow_impl;

static czk_err slow_start(czk_backend *be, czk_backend_pending **out, const czk_params *params, czk_assignment *asg,
                          const czk_fr *r, const czk_fr *s, char *msg, size_t msglen) {
    slow_impl *x = be->impl;
    gate_pass(&x->start);
    return czk_backend_start(x->cpu, out, params, asg, r, s, msg, msglen);
}
static size_t slow_pending_bytes(const czk_backend_pending *p) {
    return czk_pending_bytes((const czk_pending *)p); /* the CPU backend's handle */
}
static czk_err slow_finish(czk_backend *be, czk_backend_pending *p, czk_proof *out, char *msg, size_t msglen) {
    slow_impl *x = be->impl;
    gate_pass(&x->finish);
    return czk_backend_finish(x->cpu, p, out, msg, msglen);
}
static void slow_destroy(czk_backend *be, czk_backend_pending *p) {
    slow_impl *x = be->impl;
    czk_backend_destroy(x->cpu, p);
}
static void slow_close(czk_backend *be) {
    slow_impl *x = be->impl;
    czk_backend_close(x->cpu);
}
static const czk_backend_ops SLOW_OPS = {"slow-cpu", slow_start, slow_pending_bytes, slow_finish, slow_destroy, NULL,
                                         slow_close, false, false, false};

/* ---- helpers ------------------------------------------------------------------------ */

#define MAX_CIRCUITS 16
static struct {
    char id[64];
    czk_prepared_vk pvk;
} vks[MAX_CIRCUITS];
static int n_vks;

static const czk_prepared_vk *vk_of(const char *id) {
    for (int i = 0; i < n_vks; i++)
        if (!strcmp(vks[i].id, id)) return &vks[i].pvk;
    return NULL;
}

/* Sets up (development parameters) and registers base circuit `base` as `id`
 * with `partitions` partitions; gated: the gated synthesizer. Keeps the
 * prepared vk for independent verification. */
static bool add_circuit(czk_engine *e, const char *base, const char *id, size_t partitions, bool gated) {
    char msg[512] = "";
    czk_circuit c;
    if (czk_circuit_find(&c, base, msg, sizeof msg) != CZK_OK) return false;
    snprintf(c.id, sizeof c.id, "%s", id);
    c.partitions = partitions;
    if (gated) {
        demo_synth = c.synthesize;
        c.synthesize = gated_synthesize;
    }
    czk_r1cs r1cs;
    czk_toxic t;
    czk_toxic_from_seed(&t, 7);
    czk_params params;
    czk_prover_key key;
    gate_set(&synth_gate, true); /* recording does not wait, but be safe */
    if (czk_circuit_record(&c, &r1cs, msg, sizeof msg) != CZK_OK ||
        czk_groth16_setup(&params, &r1cs, &t, czk_pool_default(), msg, sizeof msg) != CZK_OK ||
        czk_prover_key_init(&key, &r1cs, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "setup of %s failed: %s\n", id, msg);
        return false;
    }
    if (!vk_of(id)) {
        if (n_vks == MAX_CIRCUITS || czk_vk_prepare(&vks[n_vks].pvk, &params.vk) != CZK_OK) return false;
        snprintf(vks[n_vks].id, sizeof vks[n_vks].id, "%s", id);
        n_vks++;
    }
    czk_err err = czk_engine_register_circuit(e, &c, &params, &key, msg, sizeof msg);
    CHECK_MSG(err == CZK_OK, "register %s: %s", id, msg);
    if (err != CZK_OK) {
        czk_params_free(&params);
        czk_prover_key_free(&key);
        return false;
    }
    CHECK(params.h == NULL && key.r1cs.a.row_ptr == NULL); /* moved into the engine */
    return true;
}

static bool engine_pack_abc;     /* make_engine's config.pack_abc */
static int engine_critical_workers; /* and config.critical_workers */

static czk_engine *make_engine(int pw, int gw, int ft, int cap, czk_backend *be, const char *faults) {
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.pack_abc = engine_pack_abc;
    cfg.critical_workers = engine_critical_workers;
    cfg.budget_bytes = (size_t)512 << 20;
    cfg.partition_workers = pw;
    cfg.gpu_workers = gw;
    cfg.finalizers = ft;
    cfg.gpu_queue_capacity = cap;
    cfg.threads = 2;
    cfg.verify_results = true;
    cfg.backend = be;
    cfg.faults = faults ? faults : "";
    czk_engine *e = NULL;
    char msg[512] = "";
    czk_err err = czk_engine_create(&e, &cfg, msg, sizeof msg);
    CHECK_MSG(err == CZK_OK, "engine create: %s", msg);
    return e;
}

static czk_backend *slow_open(slow_impl *x) {
    static czk_backend be;
    CHECK(czk_backend_cpu_open(&x->cpu, NULL) == CZK_OK);
    gate_init(&x->start, true);
    gate_init(&x->finish, true);
    be.ops = &SLOW_OPS;
    be.impl = x;
    return &be;
}

/* Every flight counter is zero, no partition byte is reserved, the czk_mem
 * gauges of per-partition buffers read zero. */
static void check_idle(czk_engine *e, const char *when) {
    czk_engine_stats s;
    czk_engine_stats_get(e, &s);
    for (int f = 0; f < CZK_FLIGHT__COUNT; f++)
        CHECK_MSG(s.now[f] == 0, "%s: flight counter %s = %lld", when, czk_flight_name((czk_flight)f),
                  (long long)s.now[f]);
    CHECK_MSG(s.budget_reserved == s.budget_resident, "%s: %zu bytes reserved, resident %zu", when,
              s.budget_reserved, s.budget_resident);
    CHECK_MSG(s.budget_high_water <= s.budget_total, "%s: budget high water %zu > %zu", when, s.budget_high_water,
              s.budget_total);
    static const czk_mem_tag tags[] = {CZK_MEM_SYNTH, CZK_MEM_ABC, CZK_MEM_AUX, CZK_MEM_PENDING};
    for (size_t i = 0; i < 4; i++)
        CHECK_MSG(s.mem_in_use[tags[i]] == 0, "%s: czk_mem %s holds %zu bytes", when, czk_mem_tag_name(tags[i]),
                  s.mem_in_use[tags[i]]);
    CHECK(s.gpu_queue_len == 0 && s.finalize_queue_len == 0 && s.queued_partitions == 0 && s.jobs_active == 0);
}

/* Checks a done job: every partition's proof verifies with its public inputs. */
static void check_proofs(const czk_job_result *r) {
    const czk_prepared_vk *pvk = vk_of(r->circuit_id);
    CHECK(pvk != NULL && r->proofs != NULL && r->verified);
    if (!pvk || !r->proofs) return;
    for (size_t i = 0; i < r->n_partitions; i++) {
        czk_proof p;
        char msg[256];
        CHECK(czk_proof_decode(&p, r->proofs + i * CZK_PROOF_BYTES, msg, sizeof msg) == CZK_OK);
        czk_err v = czk_verify(pvk, &p, r->public_inputs + i * r->n_public, r->n_public);
        CHECK_MSG(v == CZK_OK, "job %llu (%s seed %llu) partition %zu does not verify", (unsigned long long)r->job_id,
                  r->circuit_id, (unsigned long long)r->seed, i);
        const czk_partition_timeline *t = &r->timeline[i];
        CHECK(t->synth_start <= t->synth_end && t->synth_end <= t->queued && t->queued <= t->gpu_start &&
              t->gpu_start <= t->gpu_end && t->gpu_end <= t->finalize_end && t->finalize_end <= r->total_s);
    }
    if (r->n_partitions > 1 && r->n_public)
        CHECK(memcmp(r->public_inputs, r->public_inputs + r->n_public, r->n_public * sizeof(czk_fr)) != 0);
}

static uint64_t submit(czk_engine *e, const char *rq, const char *id, uint64_t seed, czk_priority prio) {
    uint64_t job = 0;
    char msg[512] = "";
    czk_err err = czk_engine_submit(e, rq, id, seed, prio, &job, msg, sizeof msg);
    CHECK_MSG(err == CZK_OK, "submit %s seed %llu: %s", id, (unsigned long long)seed, msg);
    return job;
}

static czk_err await_job(czk_engine *e, uint64_t job, czk_job_result *r) {
    return czk_engine_await(e, job, WAIT_MS, r);
}

/* ---- the tests ------------------------------------------------------------------------ */

/* 50+ concurrent jobs of 1..4 partitions of demo and synthetic-10 */
static void test_many_jobs(czk_rng *rng) {
    czk_engine *e = make_engine(2, 2, 1, 0, NULL, NULL);
    if (!e) return;
    static const char *ids[8] = {"demo-p1", "demo-p2", "demo-p3", "demo-p4", "syn10-p1", "syn10-p2", "syn10-p3",
                                 "syn10-p4"};
    for (int i = 0; i < 8; i++)
        if (!add_circuit(e, i < 4 ? "demo" : "synthetic-10", ids[i], (size_t)(i % 4) + 1, false)) goto out;
    long n = test_cases(60);
    if (n < 12) n = 12;
    uint64_t *jobs = calloc((size_t)n, sizeof *jobs);
    for (long i = 0; i < n; i++) {
        uint64_t r = czk_rng_next(rng);
        jobs[i] = submit(e, NULL, ids[r % 8], 1000 + (uint64_t)i, (czk_priority)((r >> 8) % 4));
    }
    size_t parts = 0;
    for (long i = 0; i < n; i++) {
        czk_job_result r;
        czk_err err = await_job(e, jobs[i], &r);
        CHECK_MSG(err == CZK_OK && r.status == CZK_JOB_DONE, "job %ld: %s (%s)", i, czk_err_str(err), r.message);
        if (err == CZK_OK) check_proofs(&r);
        CHECK(r.total_s >= r.queue_wait_s && r.gpu_s > 0 && r.synthesis_s > 0);
        parts += r.n_partitions;
        czk_job_result_free(&r);
    }
    free(jobs);
    check_idle(e, "after the mixed jobs");
    czk_engine_stats s;
    czk_engine_stats_get(e, &s);
    CHECK(s.jobs_done == (uint64_t)n && s.partitions_proved == parts && s.jobs_failed == 0);
    CHECK(s.high_water[CZK_FLIGHT_ABC] <= 2 + 2 + 2);
    CHECK(s.high_water[CZK_FLIGHT_SYNTHESIZING] <= 2);
    CHECK(s.busy_s[CZK_STAGE_SYNTH] > 0 && s.busy_s[CZK_STAGE_GPU] > 0 && s.busy_s[CZK_STAGE_VERIFY] > 0);
    printf("  %ld jobs, %zu partitions; budget high water %.1f of %.1f MiB; a/b/c sets at most %lld\n", n, parts,
           s.budget_high_water / 1048576.0, s.budget_total / 1048576.0, (long long)s.high_water[CZK_FLIGHT_ABC]);
out:
    czk_engine_destroy(e);
}

/* A CRITICAL job submitted behind 20 NORMAL ones ends before them. */
static void test_priority(void) {
    czk_engine *e = make_engine(1, 1, 1, 0, NULL, NULL);
    if (!e || !add_circuit(e, "demo", "gated", 1, true)) goto out;
    gate_set(&synth_gate, false);
    uint64_t first = submit(e, NULL, "gated", 1, CZK_PRIO_NORMAL);
    gate_wait_waiting(&synth_gate, 1); /* the one worker holds it */
    uint64_t normal[20];
    for (int i = 0; i < 20; i++) normal[i] = submit(e, NULL, "gated", 100 + (uint64_t)i, CZK_PRIO_NORMAL);
    uint64_t low = submit(e, NULL, "gated", 50, CZK_PRIO_LOW);
    uint64_t crit = submit(e, NULL, "gated", 99, CZK_PRIO_CRITICAL);
    gate_set(&synth_gate, true);
    czk_job_result rc, r;
    CHECK(await_job(e, crit, &rc) == CZK_OK);
    CHECK(await_job(e, first, &r) == CZK_OK);
    czk_job_result_free(&r);
    uint64_t last_normal = 0;
    for (int i = 0; i < 20; i++) {
        CHECK(await_job(e, normal[i], &r) == CZK_OK);
        CHECK_MSG(rc.end_seq < r.end_seq, "CRITICAL ended %llu-th, NORMAL %d ended %llu-th",
                  (unsigned long long)rc.end_seq, i, (unsigned long long)r.end_seq);
        if (i) CHECK_MSG(r.end_seq > last_normal, "NORMAL jobs out of order");
        last_normal = r.end_seq;
        czk_job_result_free(&r);
    }
    CHECK(await_job(e, low, &r) == CZK_OK);
    CHECK(r.end_seq > last_normal);
    czk_job_result_free(&r);
    czk_job_result_free(&rc);
    check_idle(e, "after the priority test");
out:
    czk_engine_destroy(e);
}

/* Under load, as a WinningPoSt meets PoRep: the one GPU worker held in
 * start (L0), the GPU queue of one full (L1), the one partition worker at
 * its door with a synthesized partition (L2), more queued (L3). A CRITICAL
 * job is synthesized by the critical worker at once and enters the full
 * queue ahead of L1: it is proved right after L0, before L1, L2 and L3.
 * (Without the critical worker it would wait for the partition worker;
 * without the priority queue, for L1 to leave the queue.) */
static void test_critical_under_load(void) {
    slow_impl x;
    czk_backend *be = slow_open(&x);
    engine_critical_workers = 1;
    czk_engine *e = make_engine(1, 1, 1, 1, be, NULL);
    engine_critical_workers = 0;
    if (!e || !add_circuit(e, "demo", "demo-p1", 1, false)) goto out;
    gate_set(&x.start, false);
    uint64_t load[4];
    for (int i = 0; i < 4; i++) load[i] = submit(e, NULL, "demo-p1", 200 + (uint64_t)i, CZK_PRIO_NORMAL);
    gate_wait_waiting(&x.start, 1);
    CHECK(czk_engine_wait_flight(e, CZK_FLIGHT_GPU_QUEUED, 1, WAIT_MS) == CZK_OK);
    CHECK(czk_engine_wait_flight(e, CZK_FLIGHT_ABC, 3, WAIT_MS) == CZK_OK); /* L0 in start, L1 queued, L2 at the door */
    uint64_t crit = submit(e, NULL, "demo-p1", 299, CZK_PRIO_CRITICAL);
    czk_err w = czk_engine_wait_flight(e, CZK_FLIGHT_GPU_QUEUED, 2, 10000);
    CHECK_MSG(w == CZK_OK, "the CRITICAL partition did not enter the full GPU queue: %s", czk_err_str(w));
    gate_set(&x.start, true);
    czk_job_result rc, r;
    CHECK(await_job(e, crit, &rc) == CZK_OK && rc.status == CZK_JOB_DONE);
    for (int i = 0; i < 4; i++) {
        CHECK(await_job(e, load[i], &r) == CZK_OK && r.status == CZK_JOB_DONE);
        if (i == 0) CHECK_MSG(r.end_seq < rc.end_seq, "L0 (in start) ended after the CRITICAL job");
        else
            CHECK_MSG(rc.end_seq < r.end_seq, "CRITICAL ended %llu-th, L%d (queued before it) %llu-th",
                      (unsigned long long)rc.end_seq, i, (unsigned long long)r.end_seq);
        czk_job_result_free(&r);
    }
    czk_job_result_free(&rc);
    check_idle(e, "after the critical-under-load test");
out:
    czk_engine_destroy(e);
    czk_backend_close(be);
}

/* Cancellation while queued, synthesizing, in the GPU queue, in start,
 * pending in the finalizer queue and in finish: everything is released. */
static void test_cancel(void) {
    slow_impl x;
    czk_backend *be = slow_open(&x);
    czk_engine *e = make_engine(1, 1, 1, 1, be, NULL);
    czk_job_result r;
    if (!e || !add_circuit(e, "demo", "gated", 1, true) || !add_circuit(e, "demo", "demo-p1", 1, false)) goto out;

    /* queued and synthesizing */
    gate_set(&synth_gate, false);
    uint64_t a = submit(e, NULL, "gated", 1, CZK_PRIO_NORMAL);
    gate_wait_waiting(&synth_gate, 1);
    uint64_t b = submit(e, NULL, "gated", 2, CZK_PRIO_NORMAL);
    CHECK(czk_engine_cancel(e, b) == CZK_OK);
    CHECK(await_job(e, b, &r) == CZK_ERR_CANCELLED && r.status == CZK_JOB_CANCELLED);
    CHECK(!strcmp(r.message, "cancelled") && r.proofs == NULL && r.timeline[0].synth_start == 0);
    czk_job_result_free(&r);
    CHECK(czk_engine_cancel(e, a) == CZK_OK);
    CHECK(czk_engine_await(e, a, 0, &r) == CZK_ERR_TIMEOUT && r.status == CZK_JOB_RUNNING);
    gate_set(&synth_gate, true); /* the worker returns and drops it */
    CHECK(await_job(e, a, &r) == CZK_ERR_CANCELLED);
    czk_job_result_free(&r);
    check_idle(e, "after cancelling queued and synthesizing jobs");

    /* in start and in the GPU queue */
    gate_set(&x.start, false);
    uint64_t c = submit(e, NULL, "demo-p1", 3, CZK_PRIO_NORMAL);
    gate_wait_waiting(&x.start, 1);
    uint64_t d = submit(e, NULL, "demo-p1", 4, CZK_PRIO_NORMAL);
    CHECK(czk_engine_wait_flight(e, CZK_FLIGHT_GPU_QUEUED, 1, WAIT_MS) == CZK_OK);
    CHECK(czk_engine_cancel(e, d) == CZK_OK);
    CHECK(await_job(e, d, &r) == CZK_ERR_CANCELLED); /* freed from the queue at once */
    czk_job_result_free(&r);
    czk_engine_stats s;
    czk_engine_stats_get(e, &s);
    CHECK(s.now[CZK_FLIGHT_GPU_QUEUED] == 0 && s.now[CZK_FLIGHT_ABC] == 1 && s.now[CZK_FLIGHT_GPU] == 1);
    CHECK(czk_engine_cancel(e, c) == CZK_OK);
    CHECK(czk_engine_await(e, c, 0, NULL) == CZK_ERR_TIMEOUT);
    gate_set(&x.start, true); /* start returns; the pending handle is destroyed */
    CHECK(await_job(e, c, &r) == CZK_ERR_CANCELLED);
    czk_job_result_free(&r);
    check_idle(e, "after cancelling in start and in the GPU queue");

    /* pending: one in finish, one in the finalizer queue */
    gate_set(&x.finish, false);
    uint64_t f1 = submit(e, NULL, "demo-p1", 5, CZK_PRIO_NORMAL);
    gate_wait_waiting(&x.finish, 1);
    uint64_t f2 = submit(e, NULL, "demo-p1", 6, CZK_PRIO_NORMAL);
    CHECK(czk_engine_wait_flight(e, CZK_FLIGHT_PENDING, 2, WAIT_MS) == CZK_OK);
    CHECK(czk_engine_cancel(e, f2) == CZK_OK);
    CHECK(await_job(e, f2, &r) == CZK_ERR_CANCELLED);
    czk_job_result_free(&r);
    czk_engine_stats_get(e, &s);
    CHECK(s.now[CZK_FLIGHT_PENDING] == 1 && s.now[CZK_FLIGHT_ABC] == 0);
    CHECK(czk_engine_cancel(e, f1) == CZK_OK);
    gate_set(&x.finish, true);
    CHECK(await_job(e, f1, &r) == CZK_ERR_CANCELLED);
    czk_job_result_free(&r);
    check_idle(e, "after cancelling pending partitions");

    /* the engine goes on; cancelling an ended job changes nothing */
    uint64_t g = submit(e, NULL, "demo-p1", 7, CZK_PRIO_NORMAL);
    CHECK(await_job(e, g, &r) == CZK_OK && r.verified);
    check_proofs(&r);
    czk_job_result_free(&r);
    CHECK(czk_engine_cancel(e, g) == CZK_OK);
    CHECK(czk_engine_await(e, g, 0, NULL) == CZK_OK);
    CHECK(czk_engine_cancel(e, 999999) == CZK_ERR_NOT_FOUND);
    check_idle(e, "at the end of the cancel test");
out:
    czk_engine_destroy(e);
    czk_backend_close(be);
}

/* Injected failures fail only their job, with the reason. */
static void test_faults(void) {
    czk_engine *e = make_engine(2, 2, 1, 0, NULL, "synth:2, start:5,finish:7");
    czk_job_result r;
    if (!e || !add_circuit(e, "demo", "demo-p2", 2, false)) goto out;
    uint64_t jobs[8];
    for (int i = 0; i < 8; i++) jobs[i] = submit(e, NULL, "demo-p2", (uint64_t)i + 1, CZK_PRIO_NORMAL);
    for (int i = 0; i < 8; i++) {
        czk_err err = await_job(e, jobs[i], &r);
        uint64_t seed = (uint64_t)i + 1;
        if (seed == 2) {
            CHECK_MSG(err == CZK_ERR_SYNTHESIS && strstr(r.message, "synthesis failed: injected fault (synth:2)"),
                      "%s: %s", czk_err_str(err), r.message);
        } else if (seed == 5) {
            CHECK_MSG(err == CZK_ERR_IO && strstr(r.message, "backend start failed"), "%s", r.message);
        } else if (seed == 7) {
            CHECK_MSG(err == CZK_ERR_IO && strstr(r.message, "backend finish failed"), "%s", r.message);
        } else {
            CHECK_MSG(err == CZK_OK, "seed %llu: %s", (unsigned long long)seed, r.message);
            if (err == CZK_OK) check_proofs(&r);
        }
        if (err != CZK_OK) CHECK(r.status == CZK_JOB_FAILED && r.proofs == NULL && !strncmp(r.message, "partition ", 10));
        czk_job_result_free(&r);
    }
    check_idle(e, "after injected failures");
    czk_engine_stats s;
    czk_engine_stats_get(e, &s);
    CHECK(s.jobs_failed == 3 && s.jobs_done == 5);
out:
    czk_engine_destroy(e);

    /* from the environment, and a bad fault string */
    setenv("CZK_FAULT", "synth:3", 1);
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = (size_t)256 << 20;
    cfg.threads = 2;
    char msg[256] = "";
    CHECK(czk_engine_create(&e, &cfg, msg, sizeof msg) == CZK_OK);
    unsetenv("CZK_FAULT");
    if (e && add_circuit(e, "demo", "demo-p1", 1, false)) {
        uint64_t j = submit(e, NULL, "demo-p1", 3, CZK_PRIO_HIGH);
        CHECK(await_job(e, j, &r) == CZK_ERR_SYNTHESIS);
        czk_job_result_free(&r);
    }
    czk_engine_destroy(e);
    cfg.faults = "explode:3";
    CHECK(czk_engine_create(&e, &cfg, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "explode"));
    cfg.faults = "synth:x";
    CHECK(czk_engine_create(&e, &cfg, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
}

/* Partition events: each partition of a proved job passes synth start, synth
 * end, gpu start, gpu end, proved, in that order; a failing one reports
 * failed; the request id travels with them. */
#define EV_MAX 64
static struct {
    pthread_mutex_t mu;
    int n;
    struct {
        uint64_t job;
        char rid[16];
        size_t part;
        czk_partition_event ev;
    } e[EV_MAX];
} evlog = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void on_event(void *ctx, uint64_t job, const char *rid, size_t part, czk_partition_event ev, double sec) {
    (void)ctx;
    (void)sec;
    pthread_mutex_lock(&evlog.mu);
    if (evlog.n < EV_MAX) {
        evlog.e[evlog.n].job = job;
        snprintf(evlog.e[evlog.n].rid, sizeof evlog.e[0].rid, "%s", rid ? rid : "");
        evlog.e[evlog.n].part = part;
        evlog.e[evlog.n].ev = ev;
        evlog.n++;
    }
    pthread_mutex_unlock(&evlog.mu);
}

static void test_events(void) {
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = (size_t)256 << 20;
    cfg.threads = 2;
    cfg.faults = "start:9";
    cfg.on_event = on_event;
    czk_engine *e = NULL;
    char msg[256] = "";
    CHECK(czk_engine_create(&e, &cfg, msg, sizeof msg) == CZK_OK);
    if (!e || !add_circuit(e, "demo", "demo-ev", 2, false)) {
        czk_engine_destroy(e);
        return;
    }
    czk_job_result r;
    uint64_t ok = submit(e, "events-ok", "demo-ev", 3, CZK_PRIO_NORMAL);
    CHECK(await_job(e, ok, &r) == CZK_OK);
    czk_job_result_free(&r);
    uint64_t bad = submit(e, "events-bad", "demo-ev", 9, CZK_PRIO_NORMAL);
    CHECK(await_job(e, bad, &r) == CZK_ERR_IO);
    czk_job_result_free(&r);
    czk_engine_destroy(e);
    static const czk_partition_event want[] = {CZK_PART_SYNTH_START, CZK_PART_SYNTH_END, CZK_PART_GPU_START,
                                               CZK_PART_GPU_END, CZK_PART_PROVED};
    for (size_t part = 0; part < 2; part++) {
        size_t k = 0;
        for (int i = 0; i < evlog.n; i++)
            if (evlog.e[i].job == ok && evlog.e[i].part == part) {
                CHECK_MSG(k < 5 && evlog.e[i].ev == want[k], "partition %zu: event %zu is %s", part, k,
                          czk_partition_event_name(evlog.e[i].ev));
                CHECK(!strcmp(evlog.e[i].rid, "events-ok"));
                k++;
            }
        CHECK_MSG(k == 5, "partition %zu of the proved job: %zu events", part, k);
    }
    int failed = 0;
    for (int i = 0; i < evlog.n; i++)
        if (evlog.e[i].job == bad) {
            CHECK(evlog.e[i].ev != CZK_PART_PROVED && evlog.e[i].ev != CZK_PART_GPU_END);
            failed += evlog.e[i].ev == CZK_PART_FAILED;
        }
    CHECK_MSG(failed >= 1, "the failing job reported no failed partition");
}

/* With a slow backend, a/b/c sets alive never exceed pw + capacity + gw. */
static void test_flight_bound(void) {
    slow_impl x;
    czk_backend *be = slow_open(&x);
    czk_engine *e = make_engine(2, 1, 1, 1, be, NULL);
    if (!e || !add_circuit(e, "demo", "demo-p1", 1, false)) goto out;
    gate_set(&x.start, false);
    uint64_t jobs[8];
    for (int i = 0; i < 8; i++) jobs[i] = submit(e, NULL, "demo-p1", (uint64_t)i, CZK_PRIO_NORMAL);
    gate_wait_waiting(&x.start, 1);
    CHECK(czk_engine_wait_flight(e, CZK_FLIGHT_ABC, 4, WAIT_MS) == CZK_OK); /* 1 in start, 1 queued, 2 held */
    czk_engine_stats s;
    czk_engine_stats_get(e, &s);
    CHECK_MSG(s.now[CZK_FLIGHT_ABC] == 4 && s.now[CZK_FLIGHT_SYNTHESIZING] == 2 && s.queued_partitions == 4,
              "abc %lld, synthesizing %lld, queued %zu", (long long)s.now[CZK_FLIGHT_ABC],
              (long long)s.now[CZK_FLIGHT_SYNTHESIZING], s.queued_partitions);
    gate_set(&x.start, true);
    for (int i = 0; i < 8; i++) {
        czk_job_result r;
        CHECK(await_job(e, jobs[i], &r) == CZK_OK);
        czk_job_result_free(&r);
    }
    czk_engine_stats_get(e, &s);
    CHECK_MSG(s.high_water[CZK_FLIGHT_ABC] <= 4 && s.high_water[CZK_FLIGHT_GPU_QUEUED] <= 1 &&
                  s.high_water[CZK_FLIGHT_SYNTHESIZING] <= 2,
              "high water: abc %lld, queued %lld", (long long)s.high_water[CZK_FLIGHT_ABC],
              (long long)s.high_water[CZK_FLIGHT_GPU_QUEUED]);
    CHECK(s.budget_high_water <= s.budget_total);
    check_idle(e, "after the flight-bound test");
out:
    czk_engine_destroy(e);
    czk_backend_close(be);
}

/* pack_abc: with starts held (1 partition at the start gate, 1 queued, 2
 * synthesized and waiting), the 4 partitions' a, b, c take a fraction of
 * their plain bytes, the reservations shrink only where the backend takes
 * them packed, and every proof verifies. */
static void test_packed_abc(void) {
    static czk_backend_ops ops[3];
    size_t abc[3] = {0}, reserved[3] = {0};
    for (int way = 0; way < 3; way++) { /* plain; packed, CPU-like backend; packed, backend takes them */
        slow_impl x;
        czk_backend *be = slow_open(&x);
        ops[way] = SLOW_OPS;
        ops[way].packed_abc = way == 2;
        be->ops = &ops[way];
        engine_pack_abc = way > 0;
        czk_engine *e = make_engine(2, 1, 1, 1, be, NULL);
        engine_pack_abc = false;
        if (!e || !add_circuit(e, "synthetic-10", "syn10-packed", 1, false)) goto out;
        gate_set(&x.start, false);
        uint64_t jobs[6];
        for (int i = 0; i < 6; i++) jobs[i] = submit(e, NULL, "syn10-packed", 50 + (uint64_t)i, CZK_PRIO_NORMAL);
        gate_wait_waiting(&x.start, 1);
        CHECK(czk_engine_wait_flight(e, CZK_FLIGHT_ABC, 4, WAIT_MS) == CZK_OK);
        czk_engine_stats s;
        czk_engine_stats_get(e, &s);
        abc[way] = s.mem_in_use[CZK_MEM_ABC];
        reserved[way] = s.budget_reserved - s.budget_resident;
        gate_set(&x.start, true);
        for (int i = 0; i < 6; i++) {
            czk_job_result r;
            czk_err err = await_job(e, jobs[i], &r);
            CHECK_MSG(err == CZK_OK && r.status == CZK_JOB_DONE, "way %d job %d: %s", way, i, r.message);
            if (err == CZK_OK) check_proofs(&r);
            czk_job_result_free(&r);
        }
        check_idle(e, "after the packed a, b, c");
    out:
        czk_engine_destroy(e);
        czk_backend_close(be);
    }
    printf("  a, b, c of 4 waiting partitions: %zu bytes plain, %zu packed; reserved %zu, %zu, %zu bytes\n", abc[0],
           abc[1], reserved[0], reserved[1], reserved[2]);
    CHECK_MSG(abc[1] > 0 && 4 * abc[1] < abc[0] && 4 * abc[2] < abc[0], "a, b, c bytes: %zu plain, %zu and %zu packed",
              abc[0], abc[1], abc[2]);
    CHECK_MSG(reserved[1] == reserved[0] && reserved[2] < reserved[0] && reserved[0] - reserved[2] >= abc[0] - abc[2] - abc[0] / 4,
              "reserved: %zu plain, %zu packed, %zu packed with a backend that takes them", reserved[0], reserved[1],
              reserved[2]);
}

/* Request ids, expiry, refusals, eviction. */
static void test_requests(void) {
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = (size_t)256 << 20;
    cfg.threads = 2;
    cfg.result_keep_count = 2;
    czk_engine *e = NULL;
    char msg[512] = "";
    czk_job_result r;
    CHECK(czk_engine_create(&e, &cfg, msg, sizeof msg) == CZK_OK);
    if (!e || !add_circuit(e, "demo", "demo-p1", 1, false) || !add_circuit(e, "demo", "gated", 1, true)) goto out;

    uint64_t j1 = submit(e, "req-1", "demo-p1", 5, CZK_PRIO_NORMAL), j1b = 0;
    CHECK(czk_engine_submit(e, "req-1", "demo-p1", 5, CZK_PRIO_HIGH, &j1b, msg, sizeof msg) == CZK_OK && j1b == j1);
    CHECK(czk_engine_submit(e, "req-1", "demo-p1", 6, CZK_PRIO_NORMAL, &j1b, msg, sizeof msg) == CZK_ERR_MISMATCH);
    CHECK(await_job(e, j1, &r) == CZK_OK);
    czk_job_result_free(&r);
    uint64_t j2 = submit(e, "req-2", "demo-p1", 5, CZK_PRIO_NORMAL); /* ends after j1 */
    CHECK(j2 != j1);
    CHECK(await_job(e, j2, &r) == CZK_OK);
    czk_job_result_free(&r);
    CHECK(czk_engine_submit(e, "req-1", "demo-p1", 5, CZK_PRIO_NORMAL, &j1b, msg, sizeof msg) == CZK_OK && j1b == j1);
    czk_engine_stats s;
    czk_engine_stats_get(e, &s);
    CHECK(s.jobs_submitted == 2 && s.partitions_proved == 2); /* no work twice */

    /* at most 2 results are kept: a third ends, the first is forgotten */
    uint64_t j3 = submit(e, NULL, "demo-p1", 9, CZK_PRIO_NORMAL);
    CHECK(await_job(e, j3, NULL) == CZK_OK);
    CHECK(czk_engine_await(e, j1, 0, &r) == CZK_ERR_NOT_FOUND);
    czk_job_result_free(&r);
    CHECK(czk_engine_await(e, j2, 0, NULL) == CZK_OK);
    uint64_t j1c = submit(e, "req-1", "demo-p1", 5, CZK_PRIO_NORMAL); /* a new job now */
    CHECK(j1c != j1 && await_job(e, j1c, NULL) == CZK_OK);

    /* eviction is refused while a job uses the circuit */
    gate_set(&synth_gate, false);
    uint64_t jg = submit(e, NULL, "gated", 1, CZK_PRIO_NORMAL);
    gate_wait_waiting(&synth_gate, 1);
    CHECK(czk_engine_evict_circuit(e, "gated", msg, sizeof msg) == CZK_ERR_BUSY && strstr(msg, "in use"));
    CHECK(czk_engine_await(e, jg, 1, NULL) == CZK_ERR_TIMEOUT); /* the timeout is honoured */
    gate_set(&synth_gate, true);
    CHECK(await_job(e, jg, NULL) == CZK_OK);
    CHECK(czk_engine_evict_circuit(e, "gated", msg, sizeof msg) == CZK_OK);
    CHECK(czk_engine_evict_circuit(e, "gated", msg, sizeof msg) == CZK_ERR_NOT_FOUND);
    CHECK(czk_engine_submit(e, NULL, "gated", 1, CZK_PRIO_NORMAL, &j1b, msg, sizeof msg) == CZK_ERR_NOT_FOUND);
    CHECK(czk_engine_submit(e, NULL, "demo-p1", 1, (czk_priority)7, &j1b, msg, sizeof msg) ==
          CZK_ERR_INVALID_ARGUMENT);
    check_idle(e, "after the request tests");
out:
    czk_engine_destroy(e);

    /* results expire after result_keep_ms */
    cfg.result_keep_count = 0;
    cfg.result_keep_ms = 50;
    CHECK(czk_engine_create(&e, &cfg, msg, sizeof msg) == CZK_OK);
    if (e && add_circuit(e, "demo", "demo-p1", 1, false)) {
        uint64_t j = submit(e, NULL, "demo-p1", 1, CZK_PRIO_NORMAL);
        czk_err first = await_job(e, j, NULL); /* normally in time; a very slow machine may miss it */
        CHECK(first == CZK_OK || first == CZK_ERR_NOT_FOUND);
        struct timespec ts = {0, 120 * 1000000}; /* let the result age (not a synchronization) */
        nanosleep(&ts, NULL);
        CHECK(czk_engine_await(e, j, 0, NULL) == CZK_ERR_NOT_FOUND);
        czk_engine_stats s2;
        czk_engine_stats_get(e, &s2);
        CHECK(s2.results_kept == 0);
    }
    czk_engine_destroy(e);

    /* a budget too small for one partition: refused at submit */
    cfg = (czk_engine_config){0};
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = (size_t)4 << 20;
    cfg.threads = 2;
    CHECK(czk_engine_create(&e, &cfg, msg, sizeof msg) == CZK_OK);
    if (e && add_circuit(e, "demo", "demo-p1", 1, false)) {
        uint64_t j = 0;
        msg[0] = 0;
        CHECK(czk_engine_submit(e, NULL, "demo-p1", 1, CZK_PRIO_NORMAL, &j, msg, sizeof msg) ==
              CZK_ERR_PRECONDITION);
        CHECK_MSG(strstr(msg, "could never run") && strstr(msg, "memory budget (4194304 bytes, 0.00391 GiB)") && j == 0,
                  "%s", msg);
        CHECK(czk_engine_partition_estimate(e, "demo-p1") > cfg.budget_bytes);
        check_idle(e, "after a refused submit");
    }
    czk_engine_destroy(e);
}

/* Drain finishes every job; abandon cancels them; no thread is left. */
static void *shutdown_thread(void *arg) {
    czk_engine_shutdown(arg, CZK_SHUTDOWN_ABANDON);
    return NULL;
}

static void test_shutdown(void) {
    czk_engine *e = make_engine(1, 1, 1, 0, NULL, NULL);
    czk_job_result r;
    char msg[256];
    if (!e || !add_circuit(e, "demo", "demo-p2", 2, false) || !add_circuit(e, "demo", "gated", 1, true)) goto out;
    uint64_t jobs[4];
    for (int i = 0; i < 4; i++) jobs[i] = submit(e, NULL, "demo-p2", (uint64_t)i, CZK_PRIO_NORMAL);
    czk_engine_shutdown(e, CZK_SHUTDOWN_DRAIN);
    for (int i = 0; i < 4; i++) {
        CHECK(czk_engine_await(e, jobs[i], 0, &r) == CZK_OK);
        check_proofs(&r);
        czk_job_result_free(&r);
    }
    uint64_t j;
    CHECK(czk_engine_submit(e, NULL, "demo-p2", 1, CZK_PRIO_NORMAL, &j, msg, sizeof msg) == CZK_ERR_SHUTDOWN);
    check_idle(e, "after a draining shutdown");
    czk_engine_shutdown(e, CZK_SHUTDOWN_DRAIN); /* twice is fine */
out:
    czk_engine_destroy(e);

    e = make_engine(1, 1, 1, 0, NULL, NULL);
    if (!e || !add_circuit(e, "demo", "gated", 1, true)) {
        czk_engine_destroy(e);
        return;
    }
    gate_set(&synth_gate, false);
    uint64_t a = submit(e, NULL, "gated", 1, CZK_PRIO_NORMAL);
    gate_wait_waiting(&synth_gate, 1);
    uint64_t b = submit(e, NULL, "gated", 2, CZK_PRIO_NORMAL);
    pthread_t t;
    pthread_create(&t, NULL, shutdown_thread, e);
    CHECK(await_job(e, b, &r) == CZK_ERR_SHUTDOWN && r.status == CZK_JOB_CANCELLED); /* dropped at once */
    czk_job_result_free(&r);
    gate_set(&synth_gate, true);
    pthread_join(t, NULL);
    CHECK(czk_engine_await(e, a, 0, &r) == CZK_ERR_SHUTDOWN && strstr(r.message, "shut down"));
    czk_job_result_free(&r);
    check_idle(e, "after an abandoning shutdown");
    czk_engine_destroy(e);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "engine");
    gate_init(&synth_gate, true);
    test_requests();
    test_faults();
    test_events();
    test_cancel();
    test_flight_bound();
    test_packed_abc();
    test_priority();
    test_critical_under_load();
    test_shutdown();
    test_many_jobs(&rng);
    for (int i = 0; i < n_vks; i++) czk_prepared_vk_free(&vks[i].pvk);
    return test_finish("engine");
}
