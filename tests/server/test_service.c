/* The proving service end to end on the demo circuit, in a temporary state
 * directory and param cache: development parameters created on first use,
 * submit/await with proofs and public inputs verified independently,
 * job ids (the request id, Curio's shapes included, or a generated one),
 * request-id idempotency and reuse after a job ended, bad requests, cancel (queued and running), the
 * queue limit, preload/evict (BUSY while in use), close + reopen (the
 * jobs left unfinished are re-queued and each job ends exactly once),
 * threads submitting and awaiting at once (one shared request id), and a
 * child process killed with SIGKILL while submitting: every job whose
 * submit returned is proved after the reopen. A budget too small for one
 * partition is refused as a configuration problem (FAILED_PRECONDITION naming
 * the budget and the need); on a full disk (full_disk.h) the service does not
 * open and says the state folder is full, and when the disk fills while it
 * runs a submit is refused (RESOURCE_EXHAUSTED), a job that ends is delivered
 * from memory and journalled once there is room, with a bounded number of
 * log lines meanwhile. Padding (a C1 output with white space past its bound,
 * a field the kind does not read) is refused at submit and never journalled. A backend whose start waits
 * on a gate the test opens holds jobs in place; no sleeps are used for
 * synchronization. */
#define _GNU_SOURCE
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/server/grpc_internal.h"
#include "../../src/server/journal.h"
#include "czk/backend.h"
#include "czk/filecoin_c1.h"
#include "czk/filecoin_testseal.h"
#include "czk/groth16_io.h"
#include "czk/log.h"
#include "czk/service.h"
#include "full_disk.h"
#include "gated_backend.h"
#include "test.h"

#define WAIT_MS 60000

typedef char jid[CZK_JOB_ID_MAX]; /* a job id */

/* ---- helpers --------------------------------------------------------------------- */

static char root[256], state_dir[300], param_cache[300], crash_dir[300];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void service_config(czk_service_config *cfg, const char *dir, size_t queue_limit, size_t budget) {
    czk_service_config_default(cfg);
    cfg->state_dir = dir;
    cfg->param_cache = param_cache;
    cfg->generate_dev_params = true; /* the demo circuit's, made on first use */
    cfg->queue_limit = queue_limit;
    cfg->engine.budget_bytes = budget;
    cfg->engine.partition_workers = 1;
    cfg->engine.gpu_workers = 1;
    cfg->engine.finalizers = 1;
    cfg->engine.gpu_queue_capacity = 1;
    cfg->engine.threads = 2;
    cfg->engine.verify_results = true;
    cfg->engine.faults = "";
    cfg->engine.backend = &gated_be;
}

static czk_service *open_service_at(const char *dir, size_t queue_limit) {
    czk_service_config cfg;
    service_config(&cfg, dir, queue_limit, (size_t)512 << 20);
    czk_service *s = NULL;
    char msg[512] = "";
    czk_err e = czk_service_open(&s, &cfg, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "open: %s: %s", czk_err_str(e), msg);
    return s;
}

static czk_err submit(czk_service *s, const char *rid, const char *circuit, const char *seed, czk_priority prio,
                      jid id, char *msg, size_t msglen) {
    czk_service_request req = {.request_id = rid, .circuit_id = circuit, .input = (const uint8_t *)seed,
                               .input_len = strlen(seed), .priority = prio};
    uint32_t qp;
    return czk_service_submit(s, &req, id, &qp, msg, msglen);
}

static czk_prepared_vk pvk;
static bool have_vk;

/* Every partition proof of a done result verifies with its public inputs. */
static bool verify_result(const czk_service_result *r) {
    if (!have_vk) {
        char path[400], msg[256];
        czk_params p;
        snprintf(path, sizeof path, "%s/demo.params", param_cache);
        if (czk_params_read(&p, path, CZK_DECODE_CHECKED, NULL, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "%s\n", msg);
            return false;
        }
        have_vk = czk_vk_prepare(&pvk, &p.vk) == CZK_OK;
        czk_params_free(&p);
        if (!have_vk) return false;
    }
    if (r->state != CZK_SERVICE_JOB_DONE || !r->n_partitions || r->proof_len != r->n_partitions * CZK_PROOF_BYTES ||
        r->n_public % r->n_partitions)
        return false;
    size_t per = r->n_public / r->n_partitions;
    if (per + 1 != pvk.n_ic) return false;
    for (size_t p = 0; p < r->n_partitions; p++) {
        czk_proof proof;
        char msg[256];
        if (czk_proof_decode(&proof, r->proof + p * CZK_PROOF_BYTES, msg, sizeof msg) != CZK_OK) return false;
        czk_fr in[16];
        if (per > 16) return false;
        for (size_t i = 0; i < per; i++)
            if (!czk_fr_from_bytes_le(&in[i], r->public_inputs + (p * per + i) * CZK_FR_BYTES)) return false;
        if (czk_verify(&pvk, &proof, in, per) != CZK_OK) return false;
    }
    return true;
}

static czk_service_job_state await_state(czk_service *s, const char *id, bool check_proof) {
    czk_service_result r;
    char msg[512] = "";
    czk_err e = czk_service_await(s, id, WAIT_MS, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "await %s: %s: %s", id, czk_err_str(e), msg);
    if (check_proof && r.state == CZK_SERVICE_JOB_DONE)
        CHECK_MSG(verify_result(&r), "job %s: proof does not verify", id);
    czk_service_job_state st = r.state;
    czk_service_result_free(&r);
    return st;
}

/* ---- the tests --------------------------------------------------------------------- */

static void test_basic(czk_service *s) {
    char msg[512] = "";
    jid id = "", id2 = "";
    czk_err e = submit(s, NULL, "demo", "5", CZK_PRIO_NORMAL, id, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && czk_journal_name_is_generated(id, NULL), "submit: %s: %s (id '%s')", czk_err_str(e), msg,
              id);
    char path[400];
    snprintf(path, sizeof path, "%s/demo.params", param_cache);
    struct stat st;
    CHECK_MSG(stat(path, &st) == 0, "development parameters were not saved to %s", path);

    czk_service_result r;
    e = czk_service_await(s, id, WAIT_MS, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && r.state == CZK_SERVICE_JOB_DONE, "await: %s %d: %s", czk_err_str(e), r.state, msg);
    CHECK(r.proof_len == CZK_PROOF_BYTES && r.n_partitions == 1 && r.n_public == 1);
    CHECK(!strcmp(r.circuit_id, "demo"));
    CHECK_MSG(verify_result(&r), "the proof does not verify");
    CHECK(r.total_ms >= r.srs_load_ms);
    uint8_t first[CZK_PROOF_BYTES] = {0};
    if (r.proof_len == CZK_PROOF_BYTES) memcpy(first, r.proof, CZK_PROOF_BYTES);
    czk_service_result_free(&r);
    /* the result stays readable (from the journal), identical */
    e = czk_service_await(s, id, 0, &r, msg, sizeof msg);
    CHECK(e == CZK_OK && r.state == CZK_SERVICE_JOB_DONE && r.proof_len == CZK_PROOF_BYTES &&
          !memcmp(r.proof, first, CZK_PROOF_BYTES));
    czk_service_result_free(&r);

    /* idempotency: the request id is the job id; while the job runs, the
     * same content is the same job and other content is refused */
    gate_set(false);
    e = submit(s, "req-1", "demo", "7", CZK_PRIO_HIGH, id, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && !strcmp(id, "req-1"), "submit req-1: %s (id '%s')", msg, id);
    gate_wait_waiting(1);
    e = submit(s, "req-1", "demo", "7", CZK_PRIO_HIGH, id2, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && !strcmp(id2, id), "resubmit req-1: %s (%s vs %s)", czk_err_str(e), id2, id);
    e = submit(s, "req-1", "demo", "8", CZK_PRIO_HIGH, id2, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_MISMATCH, "req-1 with another input: %s", czk_err_str(e));
    e = submit(s, "req-1", "synthetic-10", "7", CZK_PRIO_HIGH, id2, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_MISMATCH, "req-1 with another circuit: %s", czk_err_str(e));
    gate_set(true);
    CHECK(await_state(s, id, true) == CZK_SERVICE_JOB_DONE);
    e = submit(s, "req-1", "demo", "7", CZK_PRIO_HIGH, id2, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && !strcmp(id2, id), "resubmit of a finished req-1: %s", czk_err_str(e));
    /* once it ended, the id can carry new content: a new job replaces it */
    czk_service_result r1;
    CHECK(czk_service_await(s, "req-1", 0, &r1, msg, sizeof msg) == CZK_OK && r1.state == CZK_SERVICE_JOB_DONE);
    e = submit(s, "req-1", "demo", "9", CZK_PRIO_HIGH, id2, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && !strcmp(id2, "req-1"), "req-1 reused after its end: %s", czk_err_str(e));
    CHECK(await_state(s, "req-1", true) == CZK_SERVICE_JOB_DONE);
    czk_service_result r2;
    CHECK(czk_service_await(s, "req-1", 0, &r2, msg, sizeof msg) == CZK_OK && r2.state == CZK_SERVICE_JOB_DONE);
    CHECK_MSG(r1.n_public == 1 && r2.n_public == 1 && memcmp(r1.public_inputs, r2.public_inputs, 32) != 0,
              "req-1 still answers with its first job's result");
    czk_service_result_free(&r1);
    czk_service_result_free(&r2);

    /* Curio's ids, spaces and brackets included; generated ids are reserved */
    static const char curio[] = "wdpost-1000-0-[12 34 56 78 90 12 34 56]";
    e = submit(s, curio, "demo", "11", CZK_PRIO_HIGH, id2, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && !strcmp(id2, curio), "submit %s: %s", curio, msg);
    CHECK(await_state(s, curio, true) == CZK_SERVICE_JOB_DONE);
    bool wr0 = true;
    CHECK(czk_service_cancel(s, curio, &wr0, msg, sizeof msg) == CZK_OK && !wr0);
    CHECK(submit(s, "czk-1", "demo", "1", CZK_PRIO_NORMAL, id2, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "reserved"));
    CHECK(submit(s, "bad-\xc3(", "demo", "1", CZK_PRIO_NORMAL, id2, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "UTF-8"));
    CHECK(submit(s, "caf\xc3\xa9-1", "demo", "12", CZK_PRIO_NORMAL, id2, msg, sizeof msg) == CZK_OK);
    CHECK(await_state(s, "caf\xc3\xa9-1", false) == CZK_SERVICE_JOB_DONE);

    /* bad requests */
    CHECK(submit(s, NULL, "no-such-circuit", "1", CZK_PRIO_NORMAL, id2, msg, sizeof msg) ==
          CZK_ERR_INVALID_ARGUMENT);
    CHECK(submit(s, NULL, "demo", "12x", CZK_PRIO_NORMAL, id2, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(msg, "digit") != NULL);
    CHECK(submit(s, NULL, "demo", "", CZK_PRIO_NORMAL, id2, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(submit(s, NULL, "demo", "99999999999999999999", CZK_PRIO_NORMAL, id2, msg, sizeof msg) ==
          CZK_ERR_INVALID_ARGUMENT);
    CHECK(submit(s, NULL, "demo", "1", (czk_priority)9, id2, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);

    /* unknown ids, cancel of an ended job */
    bool wr = true;
    static const char *const unknown[] = {"999999", "czk-999999", "porep-1-2", "", "a b [c]"};
    for (size_t u = 0; u < sizeof unknown / sizeof *unknown; u++) {
        CHECK(czk_service_await(s, unknown[u], 0, &r, msg, sizeof msg) == CZK_ERR_NOT_FOUND);
        CHECK(czk_service_cancel(s, unknown[u], &wr, msg, sizeof msg) == CZK_ERR_NOT_FOUND);
    }
    CHECK(czk_service_await(s, "req-1", 0, &r, msg, sizeof msg) == CZK_OK);
    czk_service_result_free(&r);
    /* the generated id of a job that has a request id names nothing */
    CHECK(czk_service_await(s, NULL, 0, &r, msg, sizeof msg) == CZK_ERR_NOT_FOUND);
    CHECK(czk_service_cancel(s, id, &wr, msg, sizeof msg) == CZK_OK && !wr);
    CHECK(await_state(s, id, false) == CZK_SERVICE_JOB_DONE);

    /* preload of a resident circuit */
    bool already = false;
    uint64_t ms = 0;
    CHECK(czk_service_preload(s, "demo", &already, &ms, msg, sizeof msg) == CZK_OK && already);
    CHECK(czk_service_preload(s, "nope", &already, &ms, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
}

/* Jobs held by the gate: cancel, queue limit, evict refused. Returns the ids
 * of the 8 jobs (jobs[0] running and cancelled, jobs[7] cancelled). */
static void test_held(czk_service *s, jid jobs[8]) {
    char msg[512] = "";
    gate_set(false);
    czk_err e = submit(s, NULL, "demo", "100", CZK_PRIO_NORMAL, jobs[0], msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "submit: %s", msg);
    gate_wait_waiting(1); /* job 0 is inside start */
    for (int i = 1; i < 8; i++) {
        char seed[16];
        snprintf(seed, sizeof seed, "%d", 100 + i);
        /* one with a Curio-shaped id: it must survive the restart too */
        e = submit(s, i == 2 ? "wdpost-1000-2-[1 2 3 4]" : NULL, "demo", seed, CZK_PRIO_NORMAL, jobs[i], msg,
                   sizeof msg);
        CHECK_MSG(e == CZK_OK, "submit %d: %s", i, msg);
    }
    jid extra;
    e = submit(s, NULL, "demo", "200", CZK_PRIO_NORMAL, extra, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_BUSY, "submit over the queue limit: %s", czk_err_str(e));

    bool was = true;
    uint64_t freed = 1;
    e = czk_service_evict(s, "demo", &was, &freed, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_BUSY, "evict in use: %s", czk_err_str(e));

    czk_service_status st;
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    CHECK(st.jobs_pending == 8 && st.n_jobs == 8 && st.jobs && !strcmp(st.jobs[0].job_id, jobs[0]));
    if (st.n_jobs == 8) CHECK(st.jobs[0].status == CZK_JOB_RUNNING && st.jobs[7].status == CZK_JOB_QUEUED);
    CHECK(st.n_srs == 1 && st.srs && st.srs[0].ref_count == 8 && st.srs[0].size_bytes > 0);
    czk_service_status_free(&st);
    char *json = czk_service_status_json(s);
    char want[CZK_JOB_ID_MAX + 64];
    snprintf(want, sizeof want, "\"active\":[{\"job_id\":\"%.255s\"", jobs[0]);
    CHECK_MSG(json && strstr(json, want), "status JSON without %s", want);
    free(json);

    czk_service_result r;
    e = czk_service_await(s, jobs[0], 0, &r, msg, sizeof msg);
    CHECK(e == CZK_ERR_TIMEOUT && r.state == CZK_SERVICE_JOB_PENDING);
    czk_service_result_free(&r);

    /* cancel a queued job: it ends at once */
    e = czk_service_cancel(s, jobs[7], &was, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && !was, "cancel queued: %s", czk_err_str(e));
    CHECK(await_state(s, jobs[7], false) == CZK_SERVICE_JOB_CANCELLED);
    /* cancel the running one: it ends at its next stage boundary */
    e = czk_service_cancel(s, jobs[0], &was, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && was, "cancel running: %s was_running %d", czk_err_str(e), was);
}

static czk_service *open_service(size_t queue_limit) { return open_service_at(state_dir, queue_limit); }

/* A child process submits jobs in a loop and reports each id once its
 * submit returned; it is killed with SIGKILL. Runs before this process has
 * threads. Returns the ids reported (malloc'd). */
static jid *crash_child(size_t *n) {
    *n = 0;
    int fds[2];
    if (pipe(fds) != 0) return NULL;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        czk_service *s = open_service_at(crash_dir, 1024);
        if (!s) _exit(3);
        for (unsigned i = 0;; i++) {
            char seed[16], msg[256];
            jid id = "";
            snprintf(seed, sizeof seed, "%u", 500 + i);
            if (submit(s, NULL, "demo", seed, (czk_priority)(i % 4), id, msg, sizeof msg) != CZK_OK) _exit(4);
            if (write(fds[1], id, sizeof id) != (ssize_t)sizeof id) _exit(5);
        }
    }
    close(fds[1]);
    size_t cap = 64;
    jid *ids = malloc(cap * sizeof *ids), id;
    /* ids of sizeof(jid) bytes: a pipe write of up to PIPE_BUF bytes is atomic */
    while (*n < 12 && read(fds[0], id, sizeof id) == (ssize_t)sizeof id) memcpy(ids[(*n)++], id, sizeof id);
    kill(pid, SIGKILL);
    while (read(fds[0], id, sizeof id) == (ssize_t)sizeof id) {
        if (*n == cap) ids = realloc(ids, (cap *= 2) * sizeof *ids);
        memcpy(ids[(*n)++], id, sizeof id);
    }
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child ended otherwise (%d)", status);
    return ids;
}

typedef struct {
    czk_service *s;
} closer;

/* Threads submitting and awaiting at once; all of them also submit one
 * shared request id, which must name one job. */
typedef struct {
    czk_service *s;
    int t;
    jid dup_id;
    int done;
} worker;

static void *worker_main(void *arg) {
    worker *w = arg;
    char msg[512];
    jid ids[4];
    for (int i = 0; i < 4; i++) {
        char rid[32], seed[16];
        snprintf(rid, sizeof rid, "w%d-%d", w->t, i);
        snprintf(seed, sizeof seed, "%d", 1000 + w->t * 10 + i);
        czk_err e = submit(w->s, rid, "demo", seed, (czk_priority)(i % 4), ids[i], msg, sizeof msg);
        if (e == CZK_OK && i == 1) e = submit(w->s, "shared", "demo", "77", CZK_PRIO_HIGH, w->dup_id, msg, sizeof msg);
        if (e != CZK_OK) {
            fprintf(stderr, "thread %d: submit %d: %s: %s\n", w->t, i, czk_err_str(e), msg);
            return NULL;
        }
    }
    for (int i = 0; i < 4; i++) {
        czk_service_result r;
        if (czk_service_await(w->s, ids[i], WAIT_MS, &r, msg, sizeof msg) == CZK_OK &&
            r.state == CZK_SERVICE_JOB_DONE && verify_result(&r))
            w->done++;
        czk_service_result_free(&r);
    }
    return NULL;
}

static void test_concurrent(czk_service *s) {
    enum { T = 4 };
    pthread_t th[T];
    worker w[T];
    for (int t = 0; t < T; t++) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].s = s;
        w[t].t = t;
        pthread_create(&th[t], NULL, worker_main, &w[t]);
    }
    for (int t = 0; t < T; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < T; t++) {
        CHECK_MSG(w[t].done == 4, "thread %d: %d of 4 jobs done", t, w[t].done);
        CHECK_MSG(!strcmp(w[t].dup_id, "shared"), "thread %d: the shared request id gave job '%s'", t, w[t].dup_id);
    }
    CHECK(await_state(s, w[0].dup_id, true) == CZK_SERVICE_JOB_DONE);
}

static void *close_main(void *arg) {
    closer *c = arg;
    gate_set(true);
    czk_service_close(c->s);
    return NULL;
}

/* Status and metrics: the CUDA backend's section only where it is the
 * backend (here the CPU one: absent), and rendered from a made-up snapshot
 * with every stage present. */
static void test_status_gpu(czk_service *s) {
    char *json = czk_service_status_json(s), *text = czk_service_metrics_text(s);
    CHECK(json && text && !strstr(json, "\"prestaged\"") && !strstr(text, "czk_gpu_start_seconds_total"));
    free(json);
    free(text);
    czk_service_status st;
    memset(&st, 0, sizeof st);
    snprintf(st.backend, sizeof st.backend, "cuda");
    st.gpu.present = true;
    snprintf(st.gpu.device, sizeof st.gpu.device, "NVIDIA H200 (sm_90, 140 GiB)");
    st.gpu.t = (czk_backend_cuda_timings){.partitions = 3, .streamed_chunks = 0, .lock_busy = 2, .prestaged = 5,
                                          .packed_chunks = 7,
                                          .lock_wait_s = 1.25, .prestage_s = 0.75, .bases_s = 6.5, .abc_h_s = 1.5,
                                          .msm_h_s = 2.5, .witness_s = 0.125, .msm_g1_s = 0.75, .msm_g2_s = 0.375,
                                          .start_s = 12.0};
    st.gpu.device_bytes = 47244640256ull;
    json = czk_service_status_render_json(&st);
    text = czk_service_status_render_metrics(&st);
    CHECK_MSG(json && strstr(json, "\"gpu\":{\"device\":\"NVIDIA H200 (sm_90, 140 GiB)\",\"partitions\":3,"
                                   "\"lock_busy\":2,\"prestaged\":5,\"streamed_chunks\":0,"
                                   "\"packed_chunks\":7,\"device_bytes\":47244640256,\"start_s\":{\"bases\":6.5,\"abc_h\":1.5,"
                                   "\"msm_h\":2.5,\"witness\":0.125,\"msm_g1\":0.75,\"msm_g2\":0.375,"
                                   "\"lock_wait\":1.25,\"prestage\":0.75,\"total\":12.0}}"),
              "status JSON: %s", json ? json : "(null)");
    static const char *const lines[] = {
        "czk_gpu_start_seconds_total{stage=\"bases\"} 6.500\n", "czk_gpu_start_seconds_total{stage=\"msm_h\"} 2.500\n",
        "czk_gpu_start_seconds_total{stage=\"msm_g2\"} 0.375\n", "czk_gpu_start_seconds_total{stage=\"total\"} 12.000\n",
        "czk_gpu_partitions_total 3\n", "czk_gpu_lock_busy_total 2\n", "czk_gpu_prestaged_total 5\n",
        "czk_gpu_streamed_chunks_total 0\n", "czk_gpu_packed_chunks_total 7\n", "czk_gpu_device_bytes 47244640256\n",
        "# TYPE czk_gpu_start_seconds_total counter\n", "# TYPE czk_gpu_device_bytes gauge\n"};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        CHECK_MSG(text && strstr(text, lines[i]), "metrics without %s", lines[i]);
    free(json);
    free(text);
}

/* A budget too small for one partition is a configuration problem, not a bad
 * request: FAILED_PRECONDITION naming the budget and what a partition needs. */
static void test_small_budget(void) {
    char dir[400], msg[1024] = "";
    snprintf(dir, sizeof dir, "%s/small-budget", root);
    czk_service_config cfg;
    service_config(&cfg, dir, 8, (size_t)4 << 20);
    czk_service *s = NULL;
    czk_err e = czk_service_open(&s, &cfg, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "open with a 4 MiB budget: %s: %s", czk_err_str(e), msg);
    if (!s) return;
    jid id;
    msg[0] = 0;
    e = submit(s, "small-1", "demo", "1", CZK_PRIO_NORMAL, id, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_PRECONDITION && czk_grpc_status_for(e, CZK_GRPC_SUBMIT) == GRPC_STATUS_FAILED_PRECONDITION &&
                  czk_grpc_status_for(e, CZK_GRPC_PROVE) == GRPC_STATUS_FAILED_PRECONDITION,
              "submit under a 4 MiB budget: %s: %s", czk_err_str(e), msg);
    CHECK_MSG(strstr(msg, "memory budget (4194304 bytes, 0.00391 GiB)") &&
                  strstr(msg, "one partition of 'demo', which needs ") && strstr(msg, "raise the budget"),
              "%s", msg);
    czk_service_status st;
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    CHECK_MSG(st.jobs_pending == 0 && st.jobs_failed == 0, "pending %llu failed %llu after the refusal",
              (unsigned long long)st.jobs_pending, (unsigned long long)st.jobs_failed);
    czk_service_status_free(&st);
    czk_service_close(s);
}

static uint64_t completed(czk_service *s) {
    czk_service_status st;
    if (czk_service_status_get(s, &st) != CZK_OK) return UINT64_MAX;
    uint64_t n = st.jobs_completed;
    czk_service_status_free(&st);
    return n;
}

static size_t count_lines(FILE *f, const char *needle) {
    fflush(f);
    rewind(f);
    char buf[4096];
    size_t n = 0;
    while (fgets(buf, sizeof buf, f)) n += strstr(buf, needle) != NULL;
    fseek(f, 0, SEEK_END);
    return n;
}

/* The disk fills while czkd runs: a submit is refused RESOURCE_EXHAUSTED
 * saying the state folder is full; a job that ends meanwhile is delivered to
 * its await from memory (and cancelling it changes nothing); the failure is
 * logged a bounded number of times while the disk stays full; once there is
 * room the end is journalled, and after a reopen the result is the journal's
 * (the same proof, nothing proved again). */
static void test_full_while_running(void) {
    char dir[400], want[500], msg[1024] = "";
    snprintf(dir, sizeof dir, "%s/full-run", root);
    snprintf(want, sizeof want, "the state folder %s is full (no space left on device)", dir);
    czk_service *s = open_service_at(dir, 8);
    if (!s) return;
    gate_set(false);
    jid a, b;
    CHECK_MSG(submit(s, "disk-a", "demo", "5", CZK_PRIO_CRITICAL, a, msg, sizeof msg) == CZK_OK, "%s", msg);
    gate_wait_waiting(1);
    FILE *log = tmpfile();
    czk_log_set_stream(log);
    czk_log_level level = czk_log_get_level();
    czk_log_set_level(CZK_LOG_INFO);
    full_disk_room = 0;
    msg[0] = 0;
    czk_err e = submit(s, "disk-b", "demo", "6", CZK_PRIO_NORMAL, b, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_NO_SPACE && czk_grpc_status_for(e, CZK_GRPC_SUBMIT) == GRPC_STATUS_RESOURCE_EXHAUSTED &&
                  czk_grpc_status_for(e, CZK_GRPC_PROVE) == GRPC_STATUS_RESOURCE_EXHAUSTED && strstr(msg, want),
              "submit on a full disk: %s: %s", czk_err_str(e), msg);
    uint64_t done_before = completed(s);
    gate_set(true);
    czk_service_result r;
    e = czk_service_await(s, a, 10000, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && r.state == CZK_SERVICE_JOB_DONE && verify_result(&r) && !strcmp(r.job_id, "disk-a") &&
                  !strcmp(r.circuit_id, "demo"),
              "await on a full disk: %s (state %d): %s", czk_err_str(e), (int)r.state, msg);
    uint8_t proof[4 * CZK_PROOF_BYTES];
    size_t proof_len = r.proof_len <= sizeof proof ? r.proof_len : 0;
    if (proof_len) memcpy(proof, r.proof, proof_len);
    czk_service_result_free(&r);
    /* again, and a cancel: it ended */
    e = czk_service_await(s, a, 0, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && r.state == CZK_SERVICE_JOB_DONE && r.proof_len == proof_len &&
                  !memcmp(r.proof, proof, proof_len),
              "second await: %s", czk_err_str(e));
    czk_service_result_free(&r);
    bool was_running = true;
    CHECK(czk_service_cancel(s, a, &was_running, msg, sizeof msg) == CZK_OK && !was_running);
    CHECK_MSG(completed(s) == done_before, "journalled on a full disk?");
    /* the retries (every second) while the disk stays full: the job's line and one
     * for the retries (then one per 5 s), not one per retry */
    struct timespec t = {3, 500000000L};
    nanosleep(&t, NULL);
    size_t errors = count_lines(log, "ERROR");
    CHECK_MSG(errors >= 1 && errors <= 3, "%zu ERROR lines in 3.5 s of a full disk", errors);
    CHECK(count_lines(log, "job=disk-a ended (done), but its end could not be journalled: ") == 1);
    /* room again: journalled within a few retries */
    full_disk_room = -1;
    uint64_t n = 0;
    for (int i = 0; i < 500 && (n = completed(s)) == done_before; i++) {
        struct timespec d = {0, 20000000L};
        nanosleep(&d, NULL);
    }
    CHECK_MSG(n == done_before + 1, "not journalled once there was room (%llu completed)", (unsigned long long)n);
    CHECK(count_lines(log, "job=disk-a its end is journalled now") == 1);
    czk_log_set_stream(NULL);
    czk_log_set_level(level);
    if (getenv("CZK_TEST_VERBOSE")) { /* what czkd would have logged */
        rewind(log);
        char buf[4096];
        while (fgets(buf, sizeof buf, log)) fputs(buf, stderr);
    }
    fclose(log);
    czk_service_close(s);
    s = open_service_at(dir, 8);
    if (!s) return;
    e = czk_service_await(s, a, 0, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && r.state == CZK_SERVICE_JOB_DONE && r.proof_len == proof_len && proof_len &&
                  !memcmp(r.proof, proof, proof_len),
              "await after the reopen: %s: %s", czk_err_str(e), msg);
    czk_service_result_free(&r);
    czk_service_status st;
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    CHECK_MSG(st.jobs_pending == 0 && st.jobs_completed == 1, "pending %llu completed %llu after the reopen",
              (unsigned long long)st.jobs_pending, (unsigned long long)st.jobs_completed);
    czk_service_status_free(&st);
    czk_service_close(s);
}

/* The journal's disk limit from the service's configuration: a submit past
 * it is RESOURCE_EXHAUSTED naming the limit; a share outside (0, 1] does not
 * open. */
static void test_disk_limit(void) {
    char dir[400], msg[1024] = "";
    snprintf(dir, sizeof dir, "%s/limit", root);
    czk_service_config cfg;
    service_config(&cfg, dir, 8, (size_t)512 << 20);
    cfg.journal_max_disk_share = 2;
    czk_service *s = NULL;
    czk_err e = czk_service_open(&s, &cfg, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT && !s && strstr(msg, "journal_max_disk_share 2"), "%s: %s",
              czk_err_str(e), msg);
    for (int by_size = 1; by_size >= 0; by_size--) {
        cfg.journal_max_disk_share = by_size ? 1.0 : 1e-9;
        cfg.journal_max_disk_bytes = by_size ? 4096 : 0;
        s = NULL;
        CHECK((e = czk_service_open(&s, &cfg, msg, sizeof msg)) == CZK_OK);
        if (!s) return;
        jid id;
        msg[0] = 0;
        e = submit(s, NULL, "demo", "3", CZK_PRIO_NORMAL, id, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_NO_SPACE && czk_grpc_status_for(e, CZK_GRPC_SUBMIT) == GRPC_STATUS_RESOURCE_EXHAUSTED &&
                      strstr(msg, by_size ? "journal.max_disk_size (4096 bytes)" : "journal.max_disk_share 1e-09"),
                  "submit past the journal's limit: %s: %s", czk_err_str(e), msg);
        czk_service_close(s);
    }
}

/* Padding is refused at submit, before it reaches the journal: a valid
 * 2 KiB C1 output followed by 200 KB of white space (INVALID_ARGUMENT naming
 * vanilla_proof, its size and the bound), a field the kind does not read. */
static void test_padding(void) {
    char dir[400], msg[1024] = "";
    snprintf(dir, sizeof dir, "%s/padding", root);
    czk_service *s = open_service_at(dir, 8);
    if (!s) return;
    const czk_fil_seal_proof *p = czk_fil_seal_proof_get(5); /* StackedDrg2KiBV1_1 */
    czk_fil_testseal_opts o = {.proof = p, .miner_id = 1000, .sector_number = 42, .seed = 7};
    czk_fil_c1 c1;
    char *env = NULL;
    size_t len = 0;
    CHECK_MSG(czk_fil_testseal(&o, &c1, NULL, msg, sizeof msg) == CZK_OK &&
                  czk_fil_c1_encode(&c1, true, &env, &len, msg, sizeof msg) == CZK_OK,
              "testseal: %s", msg);
    czk_fil_c1_free(&c1);
    size_t padded = len + 200000;
    uint8_t *buf = env ? malloc(padded) : NULL;
    if (buf) {
        memcpy(buf, env, len);
        memset(buf + len, ' ', padded - len);
        czk_service_request req = {.request_id = "porep-1000-42", .priority = CZK_PRIO_NORMAL};
        req.fil = (czk_fil_request){.borrowed = 1, .kind = CZK_FIL_KIND_POREP_C2, .registered_proof = p->id,
                                    .sector_size = p->sector_size, .sector_number = 42, .miner_id = 1000,
                                    .vanilla_proof = {buf, padded}};
        jid id;
        uint32_t qp;
        msg[0] = 0;
        czk_err e = czk_service_submit(s, &req, id, &qp, msg, sizeof msg);
        char want[200];
        snprintf(want, sizeof want, "vanilla_proof has %zu bytes; the C1 output of StackedDrg2KiBV1_1 (registered_proof 5) "
                 "takes at most ", padded);
        CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT && czk_grpc_status_for(e, CZK_GRPC_SUBMIT) == GRPC_STATUS_INVALID_ARGUMENT &&
                      strstr(msg, want),
                  "a padded C1: %s: %s", czk_err_str(e), msg);
        /* a WinningPoSt carrying a C1 field */
        uint8_t rnd[32] = {0}, *proof = calloc(1, 164064);
        czk_fil_bytes one = {proof, 164064};
        req.request_id = "winning-1";
        req.fil = (czk_fil_request){.borrowed = 1, .kind = CZK_FIL_KIND_WINNING_POST, .registered_proof = 3,
                                    .miner_id = 1000, .randomness = {rnd, 32}, .n_vanilla_proofs = 1,
                                    .vanilla_proofs = &one, .vanilla_proof = {buf, 1000}};
        msg[0] = 0;
        e = czk_service_submit(s, &req, id, &qp, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT &&
                      strstr(msg, "vanilla_proof has 1000 bytes; WINNING_POST does not use the field (it must be empty)"),
                  "a WinningPoSt with vanilla_proof: %s: %s", czk_err_str(e), msg);
        free(proof);
    }
    free(buf);
    free(env);
    czk_service_close(s);
    czk_journal *j = NULL;
    czk_journal_counts n = {0};
    CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK && czk_journal_get_counts(j, &n) == CZK_OK &&
          n.rows == 0);
    czk_journal_close(j);
}

/* czkd on a full disk does not start, and says the state folder is full
 * (SQLite alone says "disk I/O error" or "database or disk is full"). */
static void test_full_disk(void) {
    if (!full_disk_install()) {
        printf("service: SQLite's VFS cannot override write calls; full-disk test skipped\n");
        return;
    }
    char dir[400], want[500], msg[1024];
    for (int fresh = 1; fresh >= 0; fresh--) {
        snprintf(dir, sizeof dir, "%s/full", root);
        czk_service_config cfg;
        service_config(&cfg, dir, 8, (size_t)512 << 20);
        czk_service *s = NULL;
        if (!fresh) { /* a state folder made while there was room */
            czk_err e = czk_service_open(&s, &cfg, msg, sizeof msg);
            CHECK_MSG(e == CZK_OK, "open with room: %s", msg);
            czk_service_close(s);
            s = NULL;
        }
        msg[0] = 0;
        full_disk_room = 0;
        czk_err e = czk_service_open(&s, &cfg, msg, sizeof msg);
        full_disk_room = -1;
        snprintf(want, sizeof want, "the state folder %s is full (no space left on device)", dir);
        CHECK_MSG(e == CZK_ERR_NO_SPACE && !s && strstr(msg, want), "open of the %s state folder on a full disk: %s: %s",
                  fresh ? "new" : "existing", czk_err_str(e), msg);
        if (s) czk_service_close(s);
    }
    test_full_while_running();
    full_disk_remove();
}

int main(void) {
    czk_log_set_level(getenv("CZK_TEST_VERBOSE") ? CZK_LOG_DEBUG : CZK_LOG_WARN);
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/czk-service-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(state_dir, sizeof state_dir, "%s/state", root);
    snprintf(param_cache, sizeof param_cache, "%s/params", root);
    snprintf(crash_dir, sizeof crash_dir, "%s/crash", root);
    if (czk_backend_cpu_open(&cpu_be, NULL) != CZK_OK) return 1;
    size_t n_crash = 0;
    jid *crash_ids = crash_child(&n_crash);
    CHECK(crash_ids && n_crash >= 12);

    test_small_budget();
    test_disk_limit();
    test_padding();
    test_full_disk();
    czk_service *s = open_service(8);
    if (!s) return test_finish("service");
    test_basic(s);
    test_status_gpu(s);
    jid jobs[8];
    memset(jobs, 0, sizeof jobs);
    test_held(s, jobs);

    /* close while jobs are held: the gate opens as close begins, so a few
     * may finish; the rest stay pending in the journal */
    closer c = {s};
    pthread_t t;
    pthread_create(&t, NULL, close_main, &c);
    pthread_join(t, NULL);
    czk_journal *j = NULL;
    char msg[512];
    CHECK(czk_journal_open(&j, state_dir, msg, sizeof msg) == CZK_OK);
    czk_journal_counts before = {0};
    if (j) czk_journal_get_counts(j, &before);
    czk_journal_close(j);
    CHECK_MSG(before.pending >= 1, "nothing left unfinished by the close (%llu pending)",
              (unsigned long long)before.pending);
    printf("service: %llu job(s) left pending by close\n", (unsigned long long)before.pending);

    s = open_service(32);
    if (!s) return test_finish("service");
    CHECK(await_state(s, jobs[0], false) == CZK_SERVICE_JOB_CANCELLED);
    CHECK(await_state(s, jobs[7], false) == CZK_SERVICE_JOB_CANCELLED);
    CHECK(!strcmp(jobs[2], "wdpost-1000-2-[1 2 3 4]"));
    for (int i = 1; i < 7; i++) CHECK_MSG(await_state(s, jobs[i], true) == CZK_SERVICE_JOB_DONE, "job %d", i);
    czk_service_status st;
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    /* each job ended exactly once: 5 done before, 6 done and 2 cancelled now */
    CHECK_MSG(st.jobs_completed == 11 && st.jobs_cancelled == 2 && st.jobs_failed == 0 && st.jobs_pending == 0,
              "completed %llu cancelled %llu failed %llu pending %llu", (unsigned long long)st.jobs_completed,
              (unsigned long long)st.jobs_cancelled, (unsigned long long)st.jobs_failed,
              (unsigned long long)st.jobs_pending);
    czk_service_status_free(&st);

    /* evict, now that nothing uses it; then load again */
    bool was = false, already = true;
    uint64_t freed = 0, ms = 0;
    CHECK(czk_service_evict(s, "demo", &was, &freed, msg, sizeof msg) == CZK_OK && was && freed > 0);
    CHECK(czk_service_evict(s, "demo", &was, &freed, msg, sizeof msg) == CZK_OK && !was && freed == 0);
    CHECK(czk_service_preload(s, "demo", &already, &ms, msg, sizeof msg) == CZK_OK && !already);
    jid id;
    CHECK(submit(s, NULL, "demo", "42", CZK_PRIO_LOW, id, msg, sizeof msg) == CZK_OK);
    CHECK(await_state(s, id, true) == CZK_SERVICE_JOB_DONE);
    test_concurrent(s);
    CHECK(czk_service_status_get(s, &st) == CZK_OK);
    CHECK_MSG(st.jobs_completed == 11 + 1 + 16 + 1 && st.jobs_pending == 0, "completed %llu",
              (unsigned long long)st.jobs_completed);
    czk_service_status_free(&st);
    czk_service_stop_accepting(s);
    CHECK(submit(s, NULL, "demo", "43", CZK_PRIO_LOW, id, msg, sizeof msg) == CZK_ERR_SHUTDOWN);
    czk_service_close(s);

    /* after the SIGKILL: every job whose submit returned is there and ends
     * (re-queued when it had not) with a valid proof */
    s = open_service_at(crash_dir, 1024);
    if (s) {
        for (size_t i = 0; i < n_crash; i++)
            CHECK_MSG(await_state(s, crash_ids[i], true) == CZK_SERVICE_JOB_DONE, "job %s of the killed child",
                      crash_ids[i]);
        czk_service_close(s);
    }
    printf("service: %zu jobs of a child killed with SIGKILL all proved after the reopen\n", n_crash);
    free(crash_ids);

    if (have_vk) czk_prepared_vk_free(&pvk);
    czk_backend_close(cpu_be);
    if (!test_failures) nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return test_finish("service");
}
