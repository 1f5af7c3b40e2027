/* The budget bounds what is really allocated, not only what is reserved:
 * for each built-in circuit kind (demo, synthetic-10, every gadget-* but
 * gadget-sha256-512, whose block gadget-sha256-block stands for it), the engine
 * runs jobs on a gated CPU backend that fills every stage (two partition
 * workers holding synthesized partitions, one in the GPU queue, one inside
 * start, three pending handles waiting for finish), and the bytes held in
 * czk_mem buffers are compared with the bytes reserved in the budget:
 *
 *   sum over tags of (czk_mem_in_use(tag) - its value when the engine was idle)
 *     <= czk_budget_reserved - the resident charge (parameters, R1CS)
 *
 * sampled with the budget's lock held (czk_engine_probe_budget: no
 * reservation changes during a sample, so the comparison is of one instant)
 * at every stage boundary (each partition event; before and after the gates
 * and the CPU backend's start and finish), in the fully loaded state, and by
 * a thread sampling all along. The resident charge itself must cover the
 * czk_mem bytes of the parameters and R1CS the engine holds. Every proof is
 * verified. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "czk/engine.h"
#include "test.h"

#define WAIT_MS 60000

/* ---- a gate with permits: n threads may pass, then the rest wait ------------------- */

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int permits; /* < 0: open */
} gate;

static void gate_init(gate *g, int permits) {
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->permits = permits;
}

static void gate_set(gate *g, int permits) {
    pthread_mutex_lock(&g->mu);
    g->permits = permits;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static void gate_pass(gate *g) {
    pthread_mutex_lock(&g->mu);
    while (g->permits == 0) pthread_cond_wait(&g->cv, &g->mu);
    if (g->permits > 0) g->permits--;
    pthread_mutex_unlock(&g->mu);
}

/* ---- the sample ----------------------------------------------------------------------- */

static czk_engine *E;                    /* the engine being sampled */
static size_t base_mem[CZK_MEM__COUNT];  /* czk_mem gauges with the engine idle */
static size_t base_reserved;             /* the resident charge */

static struct {
    pthread_mutex_t mu;
    long samples, violations;
    size_t max_alloc, max_reserved;
    size_t max_tag[CZK_MEM__COUNT];
    char first[512]; /* the first violation */
} S = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, {0}, ""};

/* Called with the budget's lock held. */
static void check_sample(void *ctx, size_t reserved) {
    const char *where = ctx;
    size_t now[CZK_MEM__COUNT], alloc = 0;
    for (int t = 0; t < CZK_MEM__COUNT; t++) {
        now[t] = czk_mem_in_use((czk_mem_tag)t);
        /* a gauge below its idle value (something older freed) counts 0 */
        size_t d = now[t] > base_mem[t] ? now[t] - base_mem[t] : 0;
        now[t] = d;
        alloc += d;
    }
    size_t for_parts = reserved > base_reserved ? reserved - base_reserved : 0;
    pthread_mutex_lock(&S.mu);
    S.samples++;
    if (alloc > S.max_alloc) S.max_alloc = alloc;
    if (for_parts > S.max_reserved) S.max_reserved = for_parts;
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        if (now[t] > S.max_tag[t]) S.max_tag[t] = now[t];
    if (alloc > for_parts) {
        if (S.violations++ == 0)
            snprintf(S.first, sizeof S.first,
                     "at %s: %zu bytes allocated (synth %zu, abc %zu, aux %zu, pending %zu, srs %zu, r1cs %zu) "
                     "but %zu reserved for partitions",
                     where, alloc, now[CZK_MEM_SYNTH], now[CZK_MEM_ABC], now[CZK_MEM_AUX], now[CZK_MEM_PENDING],
                     now[CZK_MEM_SRS], now[CZK_MEM_R1CS], for_parts);
    }
    pthread_mutex_unlock(&S.mu);
}

static void sample(const char *where) {
    if (E) czk_engine_probe_budget(E, check_sample, (void *)where);
}

static void on_event(void *ctx, uint64_t job_id, const char *request_id, size_t partition, czk_partition_event ev,
                     double seconds) {
    (void)ctx, (void)job_id, (void)request_id, (void)partition, (void)seconds;
    static const char *names[] = {"event synth_start", "event synth_end", "event gpu_start",
                                  "event gpu_end",     "event proved",    "event failed"};
    sample((unsigned)ev < 6 ? names[ev] : "event ?");
}

/* ---- a sampling CPU backend: start and finish behind gates ------------------------- */

static czk_backend *cpu;
static gate start_gate, finish_gate;

static czk_err probe_start(czk_backend *be, czk_backend_pending **out, const czk_params *params, czk_assignment *asg,
                           const czk_fr *r, const czk_fr *s, char *msg, size_t msglen) {
    (void)be;
    sample("start: before the gate");
    gate_pass(&start_gate);
    sample("start: after the gate");
    czk_err e = czk_backend_start(cpu, out, params, asg, r, s, msg, msglen);
    sample("start: after the CPU backend's start");
    return e;
}
static size_t probe_pending_bytes(const czk_backend_pending *p) { return czk_pending_bytes((const czk_pending *)p); }
static czk_err probe_finish(czk_backend *be, czk_backend_pending *p, czk_proof *out, char *msg, size_t msglen) {
    (void)be;
    sample("finish: before the gate");
    gate_pass(&finish_gate);
    sample("finish: after the gate");
    czk_err e = czk_backend_finish(cpu, p, out, msg, msglen);
    sample("finish: after the CPU backend's finish");
    return e;
}
static void probe_destroy(czk_backend *be, czk_backend_pending *p) {
    (void)be;
    czk_backend_destroy(cpu, p);
}
static void probe_close(czk_backend *be) { (void)be; }
static const czk_backend_ops PROBE_OPS = {"probe-cpu", probe_start, probe_pending_bytes, probe_finish, probe_destroy,
                                          NULL,        probe_close, false, false, false};
static czk_backend probe_be = {&PROBE_OPS, NULL, 0};

/* ---- a thread that samples all along ---------------------------------------------- */

static atomic_bool sampler_stop;

static void *sampler_main(void *arg) {
    (void)arg;
    /* a short sleep, not sched_yield (which under load leaves it hardly
     * ever running): tens of thousands of samples a second, each window of
     * a millisecond (a job's verification) seen many times */
    const struct timespec pause = {0, 20000};
    while (!atomic_load(&sampler_stop)) {
        sample("the sampling thread");
        nanosleep(&pause, NULL);
    }
    return NULL;
}

/* ---- one circuit kind ------------------------------------------------------------- */

static bool register_kind(czk_engine *e, const char *id, size_t partitions) {
    char msg[512] = "";
    czk_circuit c;
    if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(0, "circuit %s: %s", id, msg);
        return false;
    }
    c.partitions = partitions;
    czk_r1cs r1cs;
    czk_toxic t;
    czk_toxic_from_seed(&t, 11);
    czk_params params;
    czk_prover_key key;
    if (czk_circuit_record(&c, &r1cs, msg, sizeof msg) != CZK_OK ||
        czk_groth16_setup(&params, &r1cs, &t, czk_pool_default(), msg, sizeof msg) != CZK_OK ||
        czk_prover_key_init(&key, &r1cs, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(0, "setup of %s: %s", id, msg);
        return false;
    }
    czk_err err = czk_engine_register_circuit(e, &c, &params, &key, msg, sizeof msg);
    CHECK_MSG(err == CZK_OK, "register %s: %s", id, msg);
    if (err != CZK_OK) {
        czk_params_free(&params);
        czk_prover_key_free(&key);
        return false;
    }
    return true;
}

static void run_kind(const char *id, bool pack_abc) {
    enum { PW = 2, GW = 1, FT = 1, CAP = 1, PARTS = 4, JOBS = 2 };
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = (size_t)512 << 20;
    cfg.partition_workers = PW;
    cfg.gpu_workers = GW;
    cfg.finalizers = FT;
    cfg.gpu_queue_capacity = CAP;
    cfg.threads = 2;
    cfg.verify_results = true;
    cfg.pack_abc = pack_abc;
    cfg.backend = &probe_be;
    cfg.on_event = on_event;
    cfg.faults = "";
    char msg[512] = "";
    czk_engine *e = NULL;
    if (czk_engine_create(&e, &cfg, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(0, "engine create: %s", msg);
        return;
    }
    size_t srs0 = czk_mem_in_use(CZK_MEM_SRS) + czk_mem_in_use(CZK_MEM_R1CS);
    if (!register_kind(e, id, PARTS)) {
        czk_engine_destroy(e);
        return;
    }
    czk_engine_stats st;
    czk_engine_stats_get(e, &st);
    size_t srs = czk_mem_in_use(CZK_MEM_SRS) + czk_mem_in_use(CZK_MEM_R1CS) - srs0;
    CHECK_MSG(srs <= st.budget_resident, "%s: parameters and R1CS hold %zu bytes, %zu are charged", id, srs,
              st.budget_resident);
    CHECK(st.budget_reserved == st.budget_resident);
    base_reserved = st.budget_reserved;
    for (int t = 0; t < CZK_MEM__COUNT; t++) base_mem[t] = czk_mem_in_use((czk_mem_tag)t);
    pthread_mutex_lock(&S.mu);
    S.samples = S.violations = 0;
    S.max_alloc = S.max_reserved = 0;
    memset(S.max_tag, 0, sizeof S.max_tag);
    S.first[0] = 0;
    pthread_mutex_unlock(&S.mu);
    E = e;

    /* three partitions pass start, none passes finish: one in finish, two in
     * the finalizer queue (capacity ft + gw), one held at start, one in the
     * GPU queue, two held by the partition workers, one more waiting */
    gate_set(&start_gate, 3);
    gate_set(&finish_gate, 0);
    atomic_store(&sampler_stop, false);
    pthread_t sampler;
    pthread_create(&sampler, NULL, sampler_main, NULL);
    uint64_t jobs[JOBS];
    for (int i = 0; i < JOBS; i++) {
        czk_err err = czk_engine_submit(e, NULL, id, 40 + (uint64_t)i, CZK_PRIO_NORMAL, &jobs[i], msg, sizeof msg);
        CHECK_MSG(err == CZK_OK, "submit %s: %s", id, msg);
    }
    bool loaded = czk_engine_wait_flight(e, CZK_FLIGHT_PENDING, 3, WAIT_MS) == CZK_OK &&
                  czk_engine_wait_flight(e, CZK_FLIGHT_GPU, 1, WAIT_MS) == CZK_OK &&
                  czk_engine_wait_flight(e, CZK_FLIGHT_GPU_QUEUED, CAP, WAIT_MS) == CZK_OK &&
                  czk_engine_wait_flight(e, CZK_FLIGHT_ABC, PW + CAP + GW, WAIT_MS) == CZK_OK;
    CHECK_MSG(loaded, "%s: the stages did not fill up", id);
    czk_engine_stats_get(e, &st);
    CHECK_MSG(st.now[CZK_FLIGHT_PENDING] == 3 && st.now[CZK_FLIGHT_GPU] == 1 && st.now[CZK_FLIGHT_GPU_QUEUED] == CAP &&
                  st.now[CZK_FLIGHT_ABC] == PW + CAP + GW && st.now[CZK_FLIGHT_FINALIZING] == 3,
              "%s: loaded state: pending %lld, gpu %lld, queued %lld, abc %lld, finalizing %lld", id,
              (long long)st.now[CZK_FLIGHT_PENDING], (long long)st.now[CZK_FLIGHT_GPU],
              (long long)st.now[CZK_FLIGHT_GPU_QUEUED], (long long)st.now[CZK_FLIGHT_ABC],
              (long long)st.now[CZK_FLIGHT_FINALIZING]);
    sample("the loaded state");
    size_t loaded_alloc;
    pthread_mutex_lock(&S.mu);
    loaded_alloc = S.max_alloc;
    pthread_mutex_unlock(&S.mu);

    gate_set(&start_gate, -1);
    gate_set(&finish_gate, -1);
    for (int i = 0; i < JOBS; i++) {
        czk_job_result r;
        czk_err err = czk_engine_await(e, jobs[i], WAIT_MS, &r);
        CHECK_MSG(err == CZK_OK && r.verified, "%s job %d: %s %s", id, i, czk_err_str(err), r.message);
        czk_job_result_free(&r);
    }
    atomic_store(&sampler_stop, true);
    pthread_join(sampler, NULL);
    sample("idle again");
    E = NULL;

    pthread_mutex_lock(&S.mu);
    CHECK_MSG(S.violations == 0, "%s%s: %ld of %ld samples over the reservation; first %s", id,
              pack_abc ? " (pack_abc)" : "", S.violations, S.samples, S.first);
    CHECK_MSG(loaded_alloc > 0 && S.samples > 10, "%s: the samples saw nothing (%ld samples, %zu bytes loaded)", id,
              S.samples, loaded_alloc);
    printf("  %-20s %s: %6ld samples, peak %8zu bytes allocated of %8zu reserved for partitions "
           "(synth %zu, abc %zu, aux %zu, pending %zu)\n",
           id, pack_abc ? "packed" : "plain ", S.samples, S.max_alloc, S.max_reserved, S.max_tag[CZK_MEM_SYNTH],
           S.max_tag[CZK_MEM_ABC], S.max_tag[CZK_MEM_AUX], S.max_tag[CZK_MEM_PENDING]);
    pthread_mutex_unlock(&S.mu);
    czk_engine_stats_get(e, &st);
    CHECK_MSG(st.budget_reserved == st.budget_resident && st.budget_high_water <= st.budget_total,
              "%s: %zu reserved after the jobs, resident %zu", id, st.budget_reserved, st.budget_resident);
    czk_engine_destroy(e);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "engine_budget");
    gate_init(&start_gate, -1);
    gate_init(&finish_gate, -1);
    if (czk_backend_cpu_open(&cpu, NULL) != CZK_OK) {
        CHECK(0);
        return test_finish("engine_budget");
    }
    /* gadget-sha256-512 is two of gadget-sha256-block's blocks and twice its
     * time: the block stands for both */
    static const char *kinds[] = {"demo",
                                  "synthetic-10",
                                  "gadget-poseidon-2",
                                  "gadget-poseidon-4",
                                  "gadget-poseidon-8",
                                  "gadget-poseidon-11",
                                  "gadget-insert-2",
                                  "gadget-insert-4",
                                  "gadget-insert-8",
                                  "gadget-sha256-block"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        /* its setup and proofs take seconds, ten times that under the
         * sanitizers (which run with CZK_TEST_SCALE < 1) */
        if (!strcmp(kinds[i], "gadget-sha256-block") && test_cases(10) < 10) {
            printf("  %-20s skipped (CZK_TEST_SCALE < 1)\n", kinds[i]);
            continue;
        }
        run_kind(kinds[i], false);
    }
    run_kind("synthetic-10", true);
    czk_backend_close(cpu);
    return test_finish("engine_budget");
}
