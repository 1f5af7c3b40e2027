/* The parameters of a circuit against the budget and the config, and the
 * service while an earlier run's jobs are re-queued (docs/daemon.md,
 * "Parameters, the budget and restarts"):
 *  - without generate_dev_params a missing parameter file is refused
 *    (FAILED_PRECONDITION naming the file and how to make it) and nothing is
 *    written to the cache; a Filecoin circuit's is never made, with it or
 *    without;
 *  - what a load will hold is checked against the budget before it begins:
 *    FAILED_PRECONDITION when the budget could never hold it,
 *    RESOURCE_EXHAUSTED when the resident circuits leave too little (and
 *    after EvictSRS it loads), each naming the budget and the need; a
 *    refused load never began (the on_load hook was not called, and no
 *    parameter, R1CS or setup buffer was ever allocated in this process).
 *    For development parameters from the circuit's shape before it is
 *    recorded; for files in the cache from their sizes, which is exact: a
 *    budget one byte short is refused, one a MiB above loads;
 *  - a reopen whose parameter load is held (on_load waits on a gate): open
 *    returns, status says "restoring" and names the circuit, await waits
 *    and times out (that of a job which had ended answers at once), a cancel of a job not yet re-queued ends it cancelled,
 *    a new submit waits until the re-queueing is done and is then proved
 *    with the earlier jobs; a close during the held load waits for it and
 *    leaves the jobs in the journal, which the next open proves.
 * The unfinished jobs come from child processes killed with SIGKILL while
 * their backend holds the jobs (none of them had ended). No sleeps are used
 * for synchronization: the waits that must not end are given 300 ms. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../src/server/grpc_internal.h"
#include "czk/backend.h"
#include "czk/circuit.h"
#include "czk/log.h"
#include "czk/mem.h"
#include "czk/service.h"
#include "gated_backend.h"
#include "test.h"

#define WAIT_MS 60000
#define MiB ((size_t)1 << 20)
#define N_CRASH 4

typedef char jid[CZK_JOB_ID_MAX];

static char root[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

/* ---- the on_load hook: counts the loads that began, holds the demo circuit's while closed ---- */

#define HELD "demo"

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool open;
    int calls, waiting;
} load_gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, true, 0, 0};

static void on_load(void *ctx, const char *circuit_id) {
    (void)ctx;
    pthread_mutex_lock(&load_gate.mu);
    load_gate.calls++;
    bool hold = !strcmp(circuit_id, HELD);
    load_gate.waiting += hold;
    pthread_cond_broadcast(&load_gate.cv);
    while (hold && !load_gate.open) pthread_cond_wait(&load_gate.cv, &load_gate.mu);
    load_gate.waiting -= hold;
    pthread_mutex_unlock(&load_gate.mu);
}

static void load_gate_set(bool open) {
    pthread_mutex_lock(&load_gate.mu);
    load_gate.open = open;
    pthread_cond_broadcast(&load_gate.cv);
    pthread_mutex_unlock(&load_gate.mu);
}

static int load_calls(void) {
    pthread_mutex_lock(&load_gate.mu);
    int n = load_gate.calls;
    pthread_mutex_unlock(&load_gate.mu);
    return n;
}

static void deadline_in(struct timespec *ts, long ms) {
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) ts->tv_sec++, ts->tv_nsec -= 1000000000L;
}

static double mono_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits (at most 10 s) until the demo circuit's load is held at the gate. */
static bool load_wait_held(void) {
    struct timespec dl;
    deadline_in(&dl, 10000);
    pthread_mutex_lock(&load_gate.mu);
    int rc = 0;
    while (load_gate.waiting == 0 && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&load_gate.cv, &load_gate.mu, &dl);
    bool held = load_gate.waiting > 0;
    pthread_mutex_unlock(&load_gate.mu);
    return held;
}

/* ---- helpers ---------------------------------------------------------------------------- */

static void config(czk_service_config *cfg, const char *state, const char *params, size_t budget, bool generate) {
    czk_service_config_default(cfg);
    cfg->state_dir = state;
    cfg->param_cache = params;
    cfg->generate_dev_params = generate;
    cfg->on_load = on_load;
    cfg->queue_limit = 64;
    cfg->engine.budget_bytes = budget;
    cfg->engine.partition_workers = 1;
    cfg->engine.gpu_workers = 1;
    cfg->engine.finalizers = 1;
    cfg->engine.gpu_queue_capacity = 1;
    cfg->engine.threads = 2;
    cfg->engine.faults = "";
    cfg->engine.backend = &gated_be;
}

static czk_service *open_at(const char *state, const char *params, size_t budget, bool generate) {
    czk_service_config cfg;
    config(&cfg, state, params, budget, generate);
    czk_service *s = NULL;
    char msg[512] = "";
    czk_err e = czk_service_open(&s, &cfg, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "open %s: %s: %s", state, czk_err_str(e), msg);
    return s;
}

static czk_err submit(czk_service *s, const char *rid, const char *circuit, const char *seed, jid id, char *msg,
                      size_t msglen) {
    czk_service_request req = {.request_id = rid, .circuit_id = circuit, .input = (const uint8_t *)seed,
                               .input_len = strlen(seed), .priority = CZK_PRIO_NORMAL};
    uint32_t qp;
    return czk_service_submit(s, &req, id, &qp, msg, msglen);
}

static czk_err preload(czk_service *s, const char *circuit, char *msg, size_t msglen) {
    bool already;
    uint64_t ms;
    msg[0] = 0;
    return czk_service_preload(s, circuit, &already, &ms, msg, msglen);
}

static czk_service_job_state await_state(czk_service *s, const char *id, char *message, size_t mlen) {
    czk_service_result r;
    char msg[512] = "";
    czk_err e = czk_service_await(s, id, WAIT_MS, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "await %s: %s: %s", id, czk_err_str(e), msg);
    if (message) snprintf(message, mlen, "%s", r.message);
    czk_service_job_state st = r.state;
    czk_service_result_free(&r);
    return st;
}

static bool exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static uint64_t file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* No parameter, R1CS or setup buffer has been allocated in this process
 * since high-water marks hw were taken. */
static size_t hw[CZK_MEM__COUNT];
static void hw_take(void) {
    for (int t = 0; t < CZK_MEM__COUNT; t++) hw[t] = czk_mem_high_water((czk_mem_tag)t);
}
static void check_nothing_allocated(const char *what) {
    static const czk_mem_tag tags[] = {CZK_MEM_SRS, CZK_MEM_R1CS, CZK_MEM_AUX};
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
        CHECK_MSG(czk_mem_high_water(tags[i]) == hw[tags[i]], "%s: %s buffers were allocated (high water %zu, was %zu)",
                  what, czk_mem_tag_name(tags[i]), czk_mem_high_water(tags[i]), hw[tags[i]]);
}

/* ---- a child that leaves N_CRASH jobs unfinished in a journal ---------------------------- */

/* Runs before this process has threads. The child makes the development
 * parameters of demo and synthetic-10, proves done-0 (synthetic-10), holds
 * its backend closed and submits rs-1 … rs-N_CRASH (demo); once the last
 * submit returned it is killed with SIGKILL. */
static bool crash_child(const char *state, const char *params) {
    int fds[2];
    if (pipe(fds) != 0) return false;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        if (czk_backend_cpu_open(&cpu_be, NULL) != CZK_OK) _exit(2);
        czk_service *s = open_at(state, params, 512 * MiB, true);
        char ok = 'x', msg[512];
        if (s && preload(s, "synthetic-10", msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "child: preload synthetic-10: %s\n", msg);
            _exit(3);
        }
        jid done;
        if (s && (submit(s, "done-0", "synthetic-10", "300", done, msg, sizeof msg) != CZK_OK ||
                  await_state(s, done, NULL, 0) != CZK_SERVICE_JOB_DONE)) {
            fprintf(stderr, "child: done-0: %s\n", msg);
            _exit(3);
        }
        gate_set(false);
        for (int i = 1; s && i <= N_CRASH; i++) {
            char rid[16], seed[16];
            jid id;
            snprintf(rid, sizeof rid, "rs-%d", i);
            snprintf(seed, sizeof seed, "%d", 300 + i);
            if (submit(s, rid, "demo", seed, id, msg, sizeof msg) != CZK_OK) {
                fprintf(stderr, "child: submit %s: %s\n", rid, msg);
                _exit(4);
            }
        }
        if (s) {
            gate_wait_waiting(1); /* rs-1 is held inside start, the others queued behind it */
            ok = 'k';
        }
        if (write(fds[1], &ok, 1) != 1) _exit(5);
        for (;;) pause();
    }
    close(fds[1]);
    char c = 0;
    bool ok = read(fds[0], &c, 1) == 1 && c == 'k';
    close(fds[0]);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    CHECK_MSG(ok && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child for %s failed (%d)", state, status);
    return ok;
}

/* ---- the tests ------------------------------------------------------------------------ */

/* Without generate_dev_params, a missing file is FAILED_PRECONDITION naming
 * it and how to make it, and the cache stays untouched; a Filecoin circuit's
 * file is never made, even with it. */
static void test_no_generation(void) {
    char state[400], params[400], msg[1024], want[1024];
    snprintf(state, sizeof state, "%s/nogen-state", root);
    snprintf(params, sizeof params, "%s/nogen-params", root);
    int calls = load_calls();
    czk_service *s = open_at(state, params, 512 * MiB, false);
    if (!s) return;
    czk_err e = preload(s, "demo", msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_PRECONDITION && czk_grpc_status_for(e, CZK_GRPC_PRELOAD) == GRPC_STATUS_FAILED_PRECONDITION,
              "preload without the file: %s: %s", czk_err_str(e), msg);
    snprintf(want, sizeof want, "%s/demo.params is missing; `czk setup --circuit demo --out %s` writes development ones",
             params, params);
    CHECK_MSG(strstr(msg, want) && strstr(msg, "srs.generate_dev_params = true (--generate-dev-params true)"), "%s",
              msg);
    jid id;
    e = submit(s, "nogen-1", "demo", "1", id, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_PRECONDITION && czk_grpc_status_for(e, CZK_GRPC_SUBMIT) == GRPC_STATUS_FAILED_PRECONDITION &&
                  strstr(msg, want),
              "submit without the file: %s: %s", czk_err_str(e), msg);
    czk_service_status st;
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    CHECK_MSG(st.jobs_pending == 0 && st.n_srs == 0 && st.n_loading == 0, "pending %llu, %zu resident",
              (unsigned long long)st.jobs_pending, st.n_srs);
    czk_service_status_free(&st);
    czk_service_close(s);
    CHECK_MSG(!exists(params), "%s was created", params);

    /* a Filecoin circuit: never made up, whatever the config says */
    s = open_at(state, params, 512 * MiB, true);
    if (!s) return;
    e = preload(s, "porep-2k", msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_PRECONDITION && strstr(msg, "Filecoin's v28 file") && strstr(msg, params),
              "preload porep-2k: %s: %s", czk_err_str(e), msg);
    czk_service_close(s);
    CHECK_MSG(!exists(params), "%s was created", params);
    CHECK_MSG(load_calls() == calls, "%d load(s) began", load_calls() - calls);
    check_nothing_allocated("no generation");
}

/* Development parameters whose setup cannot fit the budget: refused from
 * the circuit's shape, before it is recorded. */
static void test_budget_generation(void) {
    char state[400], params[400], msg[1024];
    snprintf(state, sizeof state, "%s/gen-state", root);
    snprintf(params, sizeof params, "%s/gen-params", root);
    int calls = load_calls();
    czk_service *s = open_at(state, params, 8 * MiB, true);
    if (!s) return;
    czk_err e = preload(s, "synthetic-14", msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_PRECONDITION && czk_grpc_status_for(e, CZK_GRPC_PRELOAD) == GRPC_STATUS_FAILED_PRECONDITION,
              "preload synthetic-14 under 8 MiB: %s: %s", czk_err_str(e), msg);
    CHECK_MSG(strstr(msg, "the memory budget (8388608 bytes, 0.00781 GiB) is too small for the parameters of "
                          "synthetic-14: making development parameters (setup's buffers) takes ") &&
                  strstr(msg, "raise the budget to at least"),
              "%s", msg);
    jid id;
    e = submit(s, "gen-1", "synthetic-14", "1", id, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_PRECONDITION && czk_grpc_status_for(e, CZK_GRPC_SUBMIT) == GRPC_STATUS_FAILED_PRECONDITION,
              "submit synthetic-14 under 8 MiB: %s: %s", czk_err_str(e), msg);
    czk_service_close(s);
    CHECK_MSG(!exists(params), "%s was created", params);
    CHECK_MSG(load_calls() == calls, "%d load(s) began", load_calls() - calls);
    check_nothing_allocated("generation over the budget");
}

/* The shape the pre-recording check assumes of a synthetic circuit (one
 * variable per row besides ONE, a domain of rows + inputs) is its recorded
 * one. */
static void test_synthetic_shape(void) {
    for (unsigned k = 10; k <= 12; k++) {
        char id[32], msg[256];
        snprintf(id, sizeof id, "synthetic-%u", k);
        czk_circuit c;
        czk_r1cs r;
        if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK || czk_circuit_record(&c, &r, msg, sizeof msg) != CZK_OK) {
            CHECK_MSG(false, "%s: %s", id, msg);
            continue;
        }
        size_t rows = c.profile.constraints + c.profile.inputs, n = 1;
        while (n < rows) n *= 2;
        CHECK_MSG(r.n_inputs + r.n_aux == c.profile.constraints + 1 && r.n_constraints == c.profile.constraints &&
                      r.n_inputs == c.profile.inputs && n == ((size_t)1 << k),
                  "%s: %zu inputs, %zu aux, %zu rows; the profile says %zu inputs, %zu rows", id, r.n_inputs, r.n_aux,
                  r.n_constraints, c.profile.inputs, c.profile.constraints);
        czk_r1cs_free(&r);
    }
}

/* Files in the cache: their sizes are the need (exact: one byte short of
 * the budget is refused, a MiB above loads); a second circuit the resident
 * one leaves no room for is RESOURCE_EXHAUSTED until that one is evicted. */
static void test_budget_files(void) {
    char state[400], params[400], msg[1024], path[500];
    snprintf(state, sizeof state, "%s/files-state", root);
    snprintf(params, sizeof params, "%s/files-params", root);
    czk_service *s = open_at(state, params, 512 * MiB, true);
    if (!s) return;
    CHECK_MSG(preload(s, "synthetic-13", msg, sizeof msg) == CZK_OK, "make synthetic-13: %s", msg);
    CHECK_MSG(preload(s, "synthetic-14", msg, sizeof msg) == CZK_OK, "make synthetic-14: %s", msg);
    czk_service_close(s);
    uint64_t need[2];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/synthetic-%d.params", params, 13 + i);
        need[i] = file_size(path);
        snprintf(path, sizeof path, "%s/synthetic-%d.r1cs", params, 13 + i);
        need[i] += file_size(path);
    }
    CHECK(need[0] > MiB && need[1] > need[0]);

    /* one byte short: never */
    int calls = load_calls();
    s = open_at(state, params, need[1] - 1, false);
    if (!s) return;
    czk_err e = preload(s, "synthetic-14", msg, sizeof msg);
    char want[200];
    snprintf(want, sizeof want, "raise the budget to at least %llu bytes", (unsigned long long)need[1]);
    CHECK_MSG(e == CZK_ERR_PRECONDITION && strstr(msg, "is too small for the parameters of synthetic-14: reading ") &&
                  strstr(msg, "synthetic-14.r1cs takes ") && strstr(msg, want),
              "preload one byte short: %s: %s", czk_err_str(e), msg);
    CHECK_MSG(load_calls() == calls, "a refused load began");
    czk_service_close(s);

    /* a MiB above: it loads; then no room for the other until it is evicted */
    s = open_at(state, params, need[1] + MiB, false);
    if (!s) return;
    CHECK_MSG(preload(s, "synthetic-14", msg, sizeof msg) == CZK_OK, "preload a MiB above: %s", msg);
    CHECK(load_calls() == calls + 1);
    czk_service_status st;
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    /* the need does not overstate what the circuit holds (beyond the files' headers) */
    CHECK_MSG(st.n_srs == 1 && st.srs[0].size_bytes + 4096 >= need[1], "resident %llu bytes, need %llu",
              st.n_srs ? (unsigned long long)st.srs[0].size_bytes : 0ULL, (unsigned long long)need[1]);
    czk_service_status_free(&st);
    e = preload(s, "synthetic-13", msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_NO_MEMORY && czk_grpc_status_for(e, CZK_GRPC_PRELOAD) == GRPC_STATUS_RESOURCE_EXHAUSTED &&
                  strstr(msg, "has no room now for the parameters of synthetic-13: reading ") &&
                  strstr(msg, "1 circuit(s), which EvictSRS frees"),
              "preload beside the resident one: %s: %s", czk_err_str(e), msg);
    jid id;
    e = submit(s, "files-1", "synthetic-13", "5", id, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_NO_MEMORY && czk_grpc_status_for(e, CZK_GRPC_SUBMIT) == GRPC_STATUS_RESOURCE_EXHAUSTED,
              "submit beside the resident one: %s: %s", czk_err_str(e), msg);
    CHECK_MSG(load_calls() == calls + 1, "a refused load began");
    bool was;
    uint64_t freed;
    CHECK(czk_service_evict(s, "synthetic-14", &was, &freed, msg, sizeof msg) == CZK_OK && was);
    CHECK_MSG(preload(s, "synthetic-13", msg, sizeof msg) == CZK_OK, "preload after the evict: %s", msg);
    CHECK(load_calls() == calls + 2);
    czk_service_close(s);
}

typedef struct {
    czk_service *s;
    const char *state, *params;
    czk_err e;
    jid id;
    char msg[512];
    bool done;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} call;

static void call_done(call *c) {
    pthread_mutex_lock(&c->mu);
    c->done = true;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

/* Whether the call ended within ms. */
static bool call_wait(call *c, long ms) {
    struct timespec dl;
    deadline_in(&dl, ms);
    pthread_mutex_lock(&c->mu);
    int rc = 0;
    while (!c->done && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&c->cv, &c->mu, &dl);
    bool d = c->done;
    pthread_mutex_unlock(&c->mu);
    return d;
}

static void *open_main(void *arg) {
    call *c = arg;
    czk_service_config cfg;
    config(&cfg, c->state, c->params, 512 * MiB, false);
    c->e = czk_service_open(&c->s, &cfg, c->msg, sizeof c->msg);
    call_done(c);
    return NULL;
}

static void *submit_main(void *arg) {
    call *c = arg;
    c->e = submit(c->s, "new-1", "synthetic-10", "77", c->id, c->msg, sizeof c->msg);
    call_done(c);
    return NULL;
}

static void *close_main(void *arg) {
    call *c = arg;
    czk_service_close(c->s);
    call_done(c);
    return NULL;
}

/* Opens the service on state with the parameter load held: open must
 * return while it is held. NULL (the gate opened again) when it does not. */
static czk_service *open_held(const char *state, const char *params) {
    load_gate_set(false);
    call oc = {.state = state, .params = params, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    pthread_t t;
    pthread_create(&t, NULL, open_main, &oc);
    bool returned = call_wait(&oc, 10000);
    CHECK_MSG(returned, "open did not return within 10 s while the parameter load was held");
    bool held = returned && load_wait_held();
    CHECK_MSG(!returned || held, "no parameter load began after the reopen");
    if (!returned || !held) load_gate_set(true);
    pthread_join(t, NULL);
    CHECK_MSG(oc.e == CZK_OK, "reopen: %s: %s", czk_err_str(oc.e), oc.msg);
    if (oc.e == CZK_OK && (!returned || !held)) {
        czk_service_close(oc.s);
        return NULL;
    }
    return oc.e == CZK_OK ? oc.s : NULL;
}

/* A reopen while the parameters of the earlier run's jobs load. */
static void test_restart_held(const char *state, const char *params) {
    char msg[512] = "";
    int calls = load_calls();
    czk_service *s = open_held(state, params);
    if (!s) return;

    czk_service_status st;
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    CHECK_MSG(st.startup.restoring && st.startup.jobs == N_CRASH && st.startup.requeued == 0 &&
                  !strcmp(st.startup.loading, "demo") && st.n_loading == 1 && !strcmp(st.loading[0].circuit_id, "demo"),
              "status while loading: restoring %d, %zu of %zu jobs, loading '%s', %zu load(s)", st.startup.restoring,
              st.startup.requeued, st.startup.jobs, st.startup.loading, st.n_loading);
    czk_service_status_free(&st);
    char *json = czk_service_status_json(s);
    CHECK_MSG(json && strstr(json, "\"state\":\"restoring\"") && strstr(json, "\"srs_loading\":[{\"circuit_id\":\"demo\""),
              "status JSON while loading: %s", json ? json : "(none)");
    free(json);
    char *metrics = czk_service_metrics_text(s);
    CHECK(metrics && strstr(metrics, "czk_startup_restoring 1\n") && strstr(metrics, "czk_srs_loading 1\n"));
    free(metrics);

    /* await: waits, and runs out */
    czk_service_result r;
    czk_err e = czk_service_await(s, "rs-1", 50, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_TIMEOUT && r.state == CZK_SERVICE_JOB_PENDING, "await while loading: %s: %s",
              czk_err_str(e), msg);
    czk_service_result_free(&r);
    /* await of a job that had ended before the restart: answered at once */
    double t0 = mono_s();
    e = czk_service_await(s, "done-0", 5000, &r, msg, sizeof msg);
    double waited = mono_s() - t0;
    CHECK_MSG(e == CZK_OK && r.state == CZK_SERVICE_JOB_DONE && waited < 1.0,
              "await of a job that had ended, while loading: %s after %.1f s: %s", czk_err_str(e), waited, msg);
    czk_service_result_free(&r);
    /* cancel of a job not re-queued yet */
    bool was = true;
    e = czk_service_cancel(s, "rs-4", &was, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && !was, "cancel while loading: %s: %s", czk_err_str(e), msg);
    /* a new submit waits for the re-queueing, even one of another circuit,
     * whose load would not wait for the held one */
    call sc = {.s = s, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    pthread_t t;
    pthread_create(&t, NULL, submit_main, &sc);
    CHECK_MSG(!call_wait(&sc, 300), "a submit answered while the earlier jobs were being re-queued: %s: %s",
              czk_err_str(sc.e), sc.msg);

    load_gate_set(true);
    pthread_join(t, NULL);
    CHECK_MSG(sc.e == CZK_OK && !strcmp(sc.id, "new-1"), "submit after the re-queueing: %s: %s", czk_err_str(sc.e),
              sc.msg);
    char m[512];
    for (int i = 1; i < N_CRASH; i++) {
        char id[16];
        snprintf(id, sizeof id, "rs-%d", i);
        CHECK_MSG(await_state(s, id, NULL, 0) == CZK_SERVICE_JOB_DONE, "%s", id);
    }
    CHECK(await_state(s, "rs-4", m, sizeof m) == CZK_SERVICE_JOB_CANCELLED);
    CHECK_MSG(!strcmp(m, "cancelled (before it was re-queued)"), "rs-4: %s", m);
    CHECK(await_state(s, "new-1", NULL, 0) == CZK_SERVICE_JOB_DONE);
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    CHECK_MSG(!st.startup.restoring && st.startup.requeued == N_CRASH && st.n_loading == 0 &&
                  st.jobs_completed == N_CRASH + 1 && st.jobs_cancelled == 1 && st.jobs_failed == 0,
              "after: restoring %d, %zu re-queued, completed %llu cancelled %llu failed %llu", st.startup.restoring,
              st.startup.requeued, (unsigned long long)st.jobs_completed, (unsigned long long)st.jobs_cancelled,
              (unsigned long long)st.jobs_failed);
    czk_service_status_free(&st);
    CHECK(load_calls() == calls + 2); /* demo, then synthetic-10 */
    czk_service_close(s);
}

/* A close while the load is held waits for it, and leaves the jobs to the
 * next open. */
static void test_close_held(const char *state, const char *params) {
    czk_service *s = open_held(state, params);
    if (!s) return;
    call cc = {.s = s, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    pthread_t t;
    pthread_create(&t, NULL, close_main, &cc);
    CHECK_MSG(!call_wait(&cc, 300), "close returned while a load was held");
    load_gate_set(true);
    pthread_join(t, NULL);
    s = open_at(state, params, 512 * MiB, false);
    if (!s) return;
    for (int i = 1; i <= N_CRASH; i++) {
        char id[16];
        snprintf(id, sizeof id, "rs-%d", i);
        CHECK_MSG(await_state(s, id, NULL, 0) == CZK_SERVICE_JOB_DONE, "%s after the close and a reopen", id);
    }
    czk_service_status st;
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    CHECK_MSG(st.jobs_completed == N_CRASH + 1 && st.jobs_failed == 0 && st.jobs_cancelled == 0,
              "completed %llu failed %llu cancelled %llu", (unsigned long long)st.jobs_completed,
              (unsigned long long)st.jobs_failed, (unsigned long long)st.jobs_cancelled);
    czk_service_status_free(&st);
    czk_service_close(s);
}

int main(void) {
    czk_log_set_level(getenv("CZK_TEST_VERBOSE") ? CZK_LOG_DEBUG : CZK_LOG_ERROR);
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/czk-srs-load-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    char held_state[400], close_state[400], crash_params[400];
    snprintf(held_state, sizeof held_state, "%s/held-state", root);
    snprintf(close_state, sizeof close_state, "%s/close-state", root);
    snprintf(crash_params, sizeof crash_params, "%s/crash-params", root);
    bool held_ok = crash_child(held_state, crash_params);
    bool close_ok = crash_child(close_state, crash_params);
    if (czk_backend_cpu_open(&cpu_be, NULL) != CZK_OK) return 1;
    hw_take();

    test_no_generation();
    test_budget_generation();
    test_synthetic_shape();
    test_budget_files();
    if (held_ok) test_restart_held(held_state, crash_params);
    if (close_ok) test_close_held(close_state, crash_params);

    czk_backend_close(cpu_be);
    if (!test_failures) nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return test_finish("srs_load");
}
