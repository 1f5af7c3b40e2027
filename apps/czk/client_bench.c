/* czk — benchmarks against a running czkd over gRPC:
 *   bench batch   N proofs, J at a time (submit + await), every proof verified;
 *                 of a built-in circuit, or Curio's PoRep requests cycling
 *                 through C1 files (--c1)
 *   bench stress  mixed priorities and cancellations for a while */
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"

typedef struct {
    double rtt_s;
    double done_at; /* cli_now() when its await returned */
    uint64_t queue, srs, synth, gpu, total;
    int status; /* AwaitProofResponse status; -1 for an RPC error */
    bool verified;
    char request_id[192];
} job_rec;

typedef struct {
    czk_grpc_client *c;
    const char *circuit;
    uint64_t seed0;
    Cuzk__V1__Priority prio;
    const client_vk *vk;
    const client_c1 *c1s;  /* batch --c1: proofs cycle through these */
    size_t n_c1;
    char run_id[64];
    double t_start;        /* batch: cli_now() when the first job was sent */
    double end_time;       /* stress: stop starting jobs at this time */
    double cancel_rate;    /* stress */
    size_t count;          /* batch */
    atomic_size_t next;
    pthread_mutex_t mu;
    job_rec *recs;         /* batch: count entries */
    size_t submitted, done, completed, verified, invalid, failed, cancelled, timeouts, errors, busy;
    size_t cancel_sent, cancel_was_running;
    char first_error[CLIENT_MSG + 256];
    client_progress prog;
} bench;

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void note_error(bench *b, const char *fmt, const char *a, const char *c) {
    pthread_mutex_lock(&b->mu);
    b->errors++;
    if (!b->first_error[0]) snprintf(b->first_error, sizeof b->first_error, fmt, a, c);
    pthread_mutex_unlock(&b->mu);
}

/* SubmitProof, retried while the queue is full (until deadline); the job id
 * (malloc'd) or NULL after an error (counted). */
static char *submit_request(bench *b, Cuzk__V1__SubmitProofRequest *rq, double deadline) {
    char msg[CLIENT_MSG];
    for (;;) {
        ProtobufCMessage *resp = NULL;
        double left = deadline - cli_now();
        long timeout = left > 60 ? 60000 : left < 1 ? 1000 : (long)(left * 1000);
        int st = czk_grpc_client_unary(b->c, "SubmitProof", &rq->base, &cuzk__v1__submit_proof_response__descriptor,
                                       timeout, &resp, msg, sizeof msg);
        if (st == CZK_GRPC_OK) {
            char *id = strdup(((Cuzk__V1__SubmitProofResponse *)resp)->job_id);
            protobuf_c_message_free_unpacked(resp, NULL);
            pthread_mutex_lock(&b->mu);
            b->submitted++;
            pthread_mutex_unlock(&b->mu);
            return id;
        }
        if (st == 8 /* RESOURCE_EXHAUSTED: the queue is full */ && cli_now() < deadline) {
            pthread_mutex_lock(&b->mu);
            b->busy++;
            pthread_mutex_unlock(&b->mu);
            sleep_ms(20);
            continue;
        }
        note_error(b, "SubmitProof: %s: %s", czk_grpc_code_name(st), msg);
        return NULL;
    }
}

/* submit_request of the built-in circuit with this input (a decimal seed) */
static char *submit_one(bench *b, const char *input, const char *rid, Cuzk__V1__Priority prio, double deadline) {
    Cuzk__V1__SubmitProofRequest rq = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    rq.circuit_id = (char *)b->circuit;
    rq.circuit_input.data = (uint8_t *)input;
    rq.circuit_input.len = strlen(input);
    rq.request_id = (char *)rid;
    rq.priority = prio;
    return submit_request(b, &rq, deadline);
}

static Cuzk__V1__AwaitProofResponse *await_one(bench *b, const char *job_id, uint64_t timeout_ms) {
    Cuzk__V1__AwaitProofRequest rq = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    rq.job_id = (char *)job_id;
    rq.timeout_ms = timeout_ms;
    ProtobufCMessage *resp = NULL;
    char msg[CLIENT_MSG];
    int st = czk_grpc_client_unary(b->c, "AwaitProof", &rq.base, &cuzk__v1__await_proof_response__descriptor, -1,
                                   &resp, msg, sizeof msg);
    if (st != CZK_GRPC_OK) {
        note_error(b, "AwaitProof: %s: %s", czk_grpc_code_name(st), msg);
        return NULL;
    }
    return (Cuzk__V1__AwaitProofResponse *)resp;
}

/* Counts a finished job (verifying it: against c1 when it was a C1's) and
 * fills rec. */
static void tally(bench *b, const Cuzk__V1__AwaitProofResponse *r, job_rec *rec, bool cancelled_by_us,
                  const client_c1 *c1) {
    char msg[CLIENT_MSG] = "";
    bool ok = false;
    if (r->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED && b->vk) {
        if (c1) {
            char inner[CLIENT_MSG - 128] = "";
            ok = client_c1_verify(c1, b->vk, r->proof.data, r->proof.len, inner, sizeof inner) == CZK_OK;
            if (!ok) snprintf(msg, sizeof msg, "job %s (%s): %s", r->job_id, c1->path, inner);
        } else {
            ok = client_verify(b->vk, r, msg, sizeof msg) == CZK_OK;
        }
    }
    pthread_mutex_lock(&b->mu);
    switch (r->status) {
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED:
        b->completed++;
        if (!b->vk) break;
        if (ok) b->verified++;
        else {
            b->invalid++;
            if (!b->first_error[0]) snprintf(b->first_error, sizeof b->first_error, "%s", msg);
        }
        break;
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED:
        b->cancelled++;
        if (!cancelled_by_us) {
            b->failed++;
            if (!b->first_error[0])
                snprintf(b->first_error, sizeof b->first_error, "job %s was cancelled, not by us: %s", r->job_id,
                         r->error_message);
        }
        break;
    case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT:
        b->failed++; /* a wait without a limit does not time out */
        if (!b->first_error[0]) snprintf(b->first_error, sizeof b->first_error, "job %s: TIMEOUT without a limit", r->job_id);
        break;
    default:
        b->failed++;
        if (!b->first_error[0])
            snprintf(b->first_error, sizeof b->first_error, "job %s %s: %s", r->job_id,
                     client_await_status_name(r->status), r->error_message);
        break;
    }
    b->done++;
    pthread_mutex_unlock(&b->mu);
    if (rec) {
        rec->status = r->status;
        rec->verified = ok;
        rec->queue = r->queue_wait_ms;
        rec->srs = r->srs_load_ms;
        rec->synth = r->synthesis_ms;
        rec->gpu = r->gpu_compute_ms;
        rec->total = r->total_ms;
    }
}

static void *batch_worker(void *arg) {
    bench *b = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&b->next, 1);
        if (i >= b->count) break;
        job_rec *rec = &b->recs[i];
        rec->status = -1;
        const client_c1 *c1 = b->n_c1 ? &b->c1s[i % b->n_c1] : NULL;
        double t0 = cli_now();
        char *id;
        if (c1) {
            /* Curio's request; its id made unique per proof (a finished
             * job's id would return that job's proof again) */
            snprintf(rec->request_id, sizeof rec->request_id, "%s-%s-%zu", c1->request_id, b->run_id, i);
            Cuzk__V1__SubmitProofRequest rq = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
            client_c1_request(c1, rec->request_id, &rq);
            rq.priority = b->prio;
            id = submit_request(b, &rq, t0 + 600);
        } else {
            char input[32];
            snprintf(input, sizeof input, "%llu", (unsigned long long)(b->seed0 + i));
            snprintf(rec->request_id, sizeof rec->request_id, "%s-%zu", b->run_id, i);
            id = submit_one(b, input, rec->request_id, b->prio, t0 + 600);
        }
        Cuzk__V1__AwaitProofResponse *r = id ? await_one(b, id, 0) : NULL;
        rec->done_at = cli_now();
        rec->rtt_s = rec->done_at - t0;
        if (r) {
            tally(b, r, rec, false, c1);
            protobuf_c_message_free_unpacked(&r->base, NULL);
        } else {
            pthread_mutex_lock(&b->mu);
            b->done++;
            pthread_mutex_unlock(&b->mu);
        }
        free(id);
        pthread_mutex_lock(&b->mu);
        char extra[96];
        snprintf(extra, sizeof extra, "%zu/%zu proofs, %zu verified", b->done, b->count, b->verified);
        client_progress_show(&b->prog, (double)b->done, (double)b->count, extra);
        pthread_mutex_unlock(&b->mu);
    }
    return NULL;
}

static int cmp_u64(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
    return a < c ? -1 : a > c;
}

/* median, mean, max of one field over the completed jobs */
static void stage_row(const char *name, const job_rec *recs, size_t n, size_t off) {
    uint64_t *v = malloc((n ? n : 1) * sizeof *v);
    size_t k = 0;
    double sum = 0;
    for (size_t i = 0; i < n && v; i++) {
        if (recs[i].status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) continue;
        uint64_t x = *(const uint64_t *)((const char *)&recs[i] + off);
        v[k++] = x;
        sum += (double)x;
    }
    if (k == 0) {
        printf("  %-22s %10s %10s %10s\n", name, "-", "-", "-");
    } else {
        qsort(v, k, sizeof *v, cmp_u64);
        printf("  %-22s %10llu %10.1f %10llu\n", name, (unsigned long long)v[k / 2], sum / (double)k,
               (unsigned long long)v[k - 1]);
    }
    free(v);
}

static const char *human_bytes(char buf[32], double x) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (x >= 1024 && u < 4) {
        x /= 1024;
        u++;
    }
    snprintf(buf, 32, u ? "%.1f %s" : "%.0f %s", x, units[u]);
    return buf;
}

/* Numeric leaves whose path contains "rss" (status_json names them as it
 * likes: rss_bytes, rss_peak_bytes, …). */
static void print_rss(json_t *j, char *path, size_t plen, size_t cap, int *printed) {
    if (json_is_object(j)) {
        const char *key;
        json_t *v;
        json_object_foreach(j, key, v) {
            int w = snprintf(path + plen, cap - plen, "%s%s", plen ? "." : "", key);
            if (w < 0 || (size_t)w >= cap - plen) continue;
            print_rss(v, path, plen + (size_t)w, cap, printed);
            path[plen] = 0;
        }
        return;
    }
    if (!json_is_number(j) || !strstr(path, "rss")) return;
    char b[32];
    printf("  %-30s %14s\n", path, human_bytes(b, json_number_value(j)));
    (*printed)++;
}

static double jnum(json_t *o, const char *key) {
    json_t *v = o ? json_object_get(o, key) : NULL;
    return v && json_is_number(v) ? json_number_value(v) : -1;
}

/* The daemon's memory counters from GetStatus's status_json: RSS, the
 * budget, the per-tag gauges (which must read zero when idle) and the
 * buffer-flight high-water marks. */
static void print_memory(czk_grpc_client *c) {
    char msg[CLIENT_MSG] = "";
    char *js = client_status_json(c, msg, sizeof msg);
    if (!js) {
        printf("daemon memory: not available (%s)\n", msg[0] ? msg : "no status_json");
        return;
    }
    json_error_t err;
    json_t *root = json_loads(js, 0, &err);
    free(js);
    if (!root) {
        printf("daemon memory: status_json does not parse (%s)\n", err.text);
        return;
    }
    char path[512] = "", b1[32], b2[32], b3[32], b4[32];
    int printed = 0;
    printf("daemon memory (GetStatus status_json):\n");
    print_rss(root, path, 0, sizeof path, &printed);
    if (!printed) printf("  %-30s %14s\n", "peak RSS", "not reported");
    json_t *mem = json_object_get(root, "memory");
    if (json_is_object(mem)) {
        printf("  %-30s %s total, %s reserved, %s high water, %s resident\n", "budget",
               human_bytes(b1, jnum(mem, "budget_total")), human_bytes(b2, jnum(mem, "budget_reserved")),
               human_bytes(b3, jnum(mem, "budget_high_water")), human_bytes(b4, jnum(mem, "budget_resident")));
        json_t *tags = json_object_get(mem, "tags");
        if (json_is_object(tags)) {
            printf("  %-30s %14s %14s\n", "buffers by stage", "in use", "high water");
            const char *key;
            json_t *v;
            json_object_foreach(tags, key, v) {
                printf("    %-28s %14s %14s\n", key, human_bytes(b1, jnum(v, "in_use")),
                       human_bytes(b2, jnum(v, "high_water")));
            }
        }
    }
    json_t *flight = json_object_get(root, "flight");
    if (json_is_object(flight)) {
        printf("  %-30s", "in flight now / high water");
        const char *key;
        json_t *v;
        json_object_foreach(flight, key, v) printf(" %s %.0f/%.0f", key, jnum(v, "now"), jnum(v, "high_water"));
        printf("\n");
    }
    json_decref(root);
}

/* b zeroed but for c1s / n_c1 */
static int open_bench_steps(const char *cmd, cli_args *a, bench *b, client_vk *vk, int *jobs) {
    memset(vk, 0, sizeof *vk);
    pthread_mutex_init(&b->mu, NULL);
    b->circuit = cli_get(a, "circuit") ? cli_get(a, "circuit") : "demo";
    if (b->n_c1) b->circuit = b->c1s[0].proof->circuit_id;
    const char *js = cli_get(a, "jobs"), *seed = cli_get(a, "seed"), *prio = cli_get(a, "priority");
    uint64_t v = 2;
    if (js && (!cli_parse_u64(js, &v) || v < 1 || v > 1024)) {
        fprintf(stderr, "czk bench %s: -j must be 1 … 1024, not '%s'\n", cmd, js);
        return CLI_USAGE;
    }
    *jobs = (int)v;
    b->seed0 = 1000;
    if (seed && !cli_parse_u64(seed, &b->seed0)) {
        fprintf(stderr, "czk bench %s: --seed must be a non-negative integer, not '%s'\n", cmd, seed);
        return CLI_USAGE;
    }
    b->prio = CUZK__V1__PRIORITY__NORMAL;
    if (prio && !client_parse_priority(prio, &b->prio)) {
        fprintf(stderr, "czk bench %s: --priority must be low, normal, high or critical\n", cmd);
        return CLI_USAGE;
    }
    char msg[CLIENT_MSG] = "";
    const char *verify = cli_get(a, "verify"), *preload = cli_get(a, "preload");
    if ((verify && strcmp(verify, "yes") && strcmp(verify, "no")) ||
        (preload && strcmp(preload, "yes") && strcmp(preload, "no"))) {
        fprintf(stderr, "czk bench %s: --verify and --preload are yes or no\n", cmd);
        return CLI_USAGE;
    }
    snprintf(b->run_id, sizeof b->run_id, "bench-%ld-%ld", (long)getpid(), (long)time(NULL));
    int rc = client_open(cmd, a, true, &b->c);
    if (rc != CLI_OK) return rc;
    {
        /* reach the daemon (waiting up to 30 s for one that is starting) */
        Cuzk__V1__GetStatusRequest rq = CUZK__V1__GET_STATUS_REQUEST__INIT;
        ProtobufCMessage *resp = NULL;
        int st = czk_grpc_client_unary(b->c, "GetStatus", &rq.base, &cuzk__v1__get_status_response__descriptor,
                                       30000, &resp, msg, sizeof msg);
        if (st == 4 /* DEADLINE_EXCEEDED */)
            snprintf(msg, sizeof msg, "no czkd answered at %s within 30 s", client_addr(cmd, a));
        if (st != CZK_GRPC_OK) return client_rpc_fail("bench", st, msg);
        protobuf_c_message_free_unpacked(resp, NULL);
    }
    /* the parameters resident first (and, for a built-in circuit, created with
     * their vk in the daemon's cache): the clock then measures proving */
    if (!preload || !strcmp(preload, "yes")) {
        Cuzk__V1__PreloadSrsRequest rq = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        rq.circuit_id = (char *)b->circuit;
        ProtobufCMessage *resp = NULL;
        double t0 = cli_now();
        int st = czk_grpc_client_unary(b->c, "PreloadSRS", &rq.base, &cuzk__v1__preload_srs_response__descriptor, -1,
                                       &resp, msg, sizeof msg);
        if (st != CZK_GRPC_OK) return client_rpc_fail("bench", st, msg);
        const Cuzk__V1__PreloadSrsResponse *r = (const Cuzk__V1__PreloadSrsResponse *)resp;
        if (r->already_loaded) printf("parameters of %s: already resident\n", b->circuit);
        else printf("parameters of %s: loaded in %.3f s\n", b->circuit, cli_now() - t0);
        protobuf_c_message_free_unpacked(resp, NULL);
    }
    if (!verify || !strcmp(verify, "yes")) {
        czk_err e = b->n_c1 ? client_c1_vk_load(vk, cli_get(a, "vk"), client_param_cache(a), &b->c1s[0], msg, sizeof msg)
                            : client_vk_load(vk, cli_get(a, "vk"), client_param_cache(a), b->circuit, msg, sizeof msg);
        if (e != CZK_OK) {
            fprintf(stderr, "czk bench %s: %s (give --vk FILE, or --verify no)\n", cmd, msg);
            return CLI_USAGE;
        }
        b->vk = vk;
    }
    client_progress_init(&b->prog);
    return CLI_OK;
}

/* open_bench_steps, and on failure what it made taken apart again */
static int open_bench(const char *cmd, cli_args *a, bench *b, client_vk *vk, int *jobs) {
    const client_c1 *c1s = b->c1s;
    size_t n_c1 = b->n_c1;
    memset(b, 0, sizeof *b);
    b->c1s = c1s;
    b->n_c1 = n_c1;
    int rc = open_bench_steps(cmd, a, b, vk, jobs);
    if (rc != CLI_OK) {
        if (b->c) czk_grpc_client_close(b->c);
        b->c = NULL;
        client_vk_free(vk);
        pthread_mutex_destroy(&b->mu);
    }
    return rc;
}

static void close_bench(bench *b, client_vk *vk) {
    czk_grpc_client_close(b->c);
    client_vk_free(vk);
    free(b->recs);
    pthread_mutex_destroy(&b->mu);
}

static int run_threads(bench *b, int jobs, void *(*fn)(void *)) {
    pthread_t *t = calloc((size_t)jobs, sizeof *t);
    if (!t) return -1;
    int started = 0;
    for (int i = 0; i < jobs; i++)
        if (pthread_create(&t[i], NULL, fn, b) == 0) started++;
        else break;
    for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
    free(t);
    return started;
}

/* Nearest-rank percentiles of the completed jobs' client round trips. */
static void latency_row(const job_rec *recs, size_t n) {
    double *v = malloc((n ? n : 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < n && v; i++)
        if (recs[i].status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) v[k++] = recs[i].rtt_s;
    if (k == 0) {
        printf("  %-22s -\n", "latency (s)");
        free(v);
        return;
    }
    for (size_t i = 1; i < k; i++) /* insertion sort: n is small */
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    static const double ps[] = {0.50, 0.90, 0.99};
    printf("  %-22s", "latency (s)");
    for (size_t i = 0; i < 3; i++) {
        size_t r = (size_t)ceil(ps[i] * (double)k);
        printf(" p%02.0f %.3f", ps[i] * 100, v[(r ? r : 1) - 1]);
    }
    printf(" max %.3f  (submit -> await, per proof)\n", v[k - 1]);
    free(v);
}

/* One row per proof: index, C1 file, request id, status, verified, round
 * trip and the daemon's stage times. */
static bool write_csv(const char *path, const bench *b) {
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "proof,c1,request_id,status,verified,latency_s,queue_ms,srs_ms,synthesis_ms,gpu_ms,total_ms,done_s\n");
    for (size_t i = 0; i < b->count; i++) {
        const job_rec *r = &b->recs[i];
        fprintf(f, "%zu,%s,%s,%s,%s,%.6f,%llu,%llu,%llu,%llu,%llu,%.6f\n", i,
                b->n_c1 ? b->c1s[i % b->n_c1].path : "", r->request_id,
                r->status < 0 ? "RPC_ERROR" : client_await_status_name(r->status), r->verified ? "yes" : "no",
                r->rtt_s, (unsigned long long)r->queue, (unsigned long long)r->srs, (unsigned long long)r->synth,
                (unsigned long long)r->gpu, (unsigned long long)r->total, r->done_at - b->t_start);
    }
    return fclose(f) == 0;
}

/* The --c1 options, each a file or a comma-separated list of files, loaded
 * (client_c1_load); all of one registered proof. */
static int load_c1s(cli_args *a, client_c1 **out, size_t *n_out) {
    size_t n = 0, cap = 0;
    client_c1 *v = NULL;
    int rc = CLI_OK;
    for (int i = 0; i < a->n && rc == CLI_OK; i++) {
        if (strcmp(a->opts[i].name, "c1")) continue;
        const char *s = a->opts[i].value;
        while (rc == CLI_OK) {
            size_t len = strcspn(s, ",");
            if (len) {
                if (n == cap) {
                    client_c1 *nv = realloc(v, (cap = cap ? 2 * cap : 4) * sizeof *v);
                    if (!nv) {
                        rc = CLI_FAIL;
                        break;
                    }
                    v = nv;
                }
                char *path = strndup(s, len);
                rc = path ? client_c1_load("bench batch", a, path, &v[n]) : CLI_FAIL;
                if (rc == CLI_OK) n++;
                else free(path);
                if (rc == CLI_OK && v[n - 1].proof != v[0].proof) {
                    fprintf(stderr, "czk bench batch: %s is %s, %s is %s: give C1 outputs of one registered proof\n",
                            v[0].path, v[0].proof->name, path, v[n - 1].proof->name);
                    rc = CLI_USAGE;
                }
            }
            if (!s[len]) break;
            s += len + 1;
        }
    }
    if (rc != CLI_OK) {
        for (size_t i = 0; i < n; i++) {
            free((char *)v[i].path);
            client_c1_free(&v[i]);
        }
        free(v);
        return rc;
    }
    *out = v;
    *n_out = n;
    return CLI_OK;
}

static void free_c1s(client_c1 *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free((char *)v[i].path);
        client_c1_free(&v[i]);
    }
    free(v);
}

int cmd_client_bench_batch(int argc, char **argv) {
    static const char *const known[] = {CLIENT_CONN_OPTS, "count", "jobs", "circuit", "seed", "priority", "vk",
                                        "param-cache", "verify", "preload", "c1", "registered-proof", "sector-number",
                                        "miner-id", "csv", NULL};
    char **av = client_argv_dash_j(argc, argv);
    if (!av) return CLI_FAIL;
    cli_args a;
    bool parsed = cli_parse(&a, argc, av, 3, known) && !a.npos;
    if (!parsed) {
        free(av);
        return CLI_USAGE;
    }
    uint64_t count = 8;
    const char *cs = cli_get(&a, "count"), *csv = cli_get(&a, "csv");
    if (cs && (!cli_parse_u64(cs, &count) || count < 1 || count > 1000000)) {
        fprintf(stderr, "czk bench batch: --count must be 1 … 10^6, not '%s'\n", cs);
        free(av);
        return CLI_USAGE;
    }
    bench b;
    memset(&b, 0, sizeof b);
    client_c1 *c1s = NULL;
    size_t n_c1 = 0;
    int rc = CLI_OK;
    if (cli_get(&a, "c1") && cli_get(&a, "circuit")) {
        fprintf(stderr, "czk bench batch: --c1 or --circuit, not both\n");
        rc = CLI_USAGE;
    } else if (cli_get(&a, "c1")) {
        rc = load_c1s(&a, &c1s, &n_c1);
    }
    if (rc != CLI_OK) {
        free(av);
        return rc;
    }
    b.c1s = c1s;
    b.n_c1 = n_c1;
    client_vk vk;
    int jobs;
    rc = open_bench("batch", &a, &b, &vk, &jobs);
    if (rc != CLI_OK) {
        free_c1s(c1s, n_c1);
        free(av);
        return rc;
    }
    b.count = (size_t)count;
    b.recs = calloc(b.count, sizeof *b.recs);
    if (!b.recs) {
        close_bench(&b, &vk);
        free_c1s(c1s, n_c1);
        free(av);
        return CLI_FAIL;
    }
    atomic_init(&b.next, 0);
    if (n_c1)
        printf("czk bench batch: %zu PoRep proofs (%s) cycling through %zu C1 file%s, %d at a time, via %s%s\n",
               b.count, c1s[0].proof->name, n_c1, n_c1 == 1 ? "" : "s", jobs, client_addr("bench", &a),
               b.vk ? ", every proof verified" : ", proofs NOT verified");
    else
        printf("czk bench batch: %zu proofs of %s, %d at a time, via %s%s\n", b.count, b.circuit, jobs,
               client_addr("bench", &a), b.vk ? ", every proof verified" : ", proofs NOT verified");
    fflush(stdout);
    double t0 = cli_now();
    b.t_start = t0;
    run_threads(&b, jobs, batch_worker);
    double wall = cli_now() - t0;
    client_progress_end(&b.prog);

    printf("\n  %-22s %zu of %zu completed", "proofs", b.completed, b.count);
    if (b.vk) printf(", %zu verified, %zu invalid", b.verified, b.invalid);
    printf(", %zu failed, %zu rpc errors, %zu busy retries\n", b.failed, b.errors, b.busy);
    printf("  %-22s %.3f s, %.3f s/proof, %.2f proofs/s\n", "wall", wall, wall / (double)b.count,
           (double)b.count / wall);
    latency_row(b.recs, b.count);
    if (csv && !write_csv(csv, &b)) fprintf(stderr, "czk bench batch: cannot write %s\n", csv);
    printf("\n  %-22s %10s %10s %10s\n", "stage (ms)", "median", "mean", "max");
    stage_row("queue wait", b.recs, b.count, offsetof(job_rec, queue));
    stage_row("srs load", b.recs, b.count, offsetof(job_rec, srs));
    stage_row("synthesis", b.recs, b.count, offsetof(job_rec, synth));
    stage_row("gpu compute", b.recs, b.count, offsetof(job_rec, gpu));
    stage_row("total (daemon)", b.recs, b.count, offsetof(job_rec, total));
    /* the client's round trip, in ms, in the same table */
    for (size_t i = 0; i < b.count; i++) b.recs[i].total = (uint64_t)llround(b.recs[i].rtt_s * 1000.0);
    stage_row("submit -> await (client)", b.recs, b.count, offsetof(job_rec, total));
    printf("\n");
    print_memory(b.c);
    if (b.first_error[0]) fprintf(stderr, "czk bench batch: %s\n", b.first_error);
    rc = (b.completed == b.count && b.invalid == 0 && b.errors == 0 && (!b.vk || b.verified == b.count)) ? CLI_OK
                                                                                                          : CLI_FAIL;
    if (csv && rc == CLI_OK && access(csv, F_OK) != 0) rc = CLI_FAIL;
    if (rc == CLI_OK && b.vk) printf("all %zu proofs verified\n", b.count);
    close_bench(&b, &vk);
    free_c1s(c1s, n_c1);
    free(av);
    return rc;
}

/* ---- stress ------------------------------------------------------------------------ */

static uint64_t xorshift(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static void *stress_worker(void *arg) {
    bench *b = arg;
    uint64_t rng = (uint64_t)(uintptr_t)&rng ^ (uint64_t)(cli_now() * 1e9);
    xorshift(&rng);
    while (cli_now() < b->end_time) {
        size_t i = atomic_fetch_add(&b->next, 1);
        char input[32], rid[96];
        snprintf(input, sizeof input, "%llu", (unsigned long long)(b->seed0 + i));
        snprintf(rid, sizeof rid, "%s-%zu", b->run_id, i);
        Cuzk__V1__Priority prio = (Cuzk__V1__Priority)(1 + xorshift(&rng) % 4);
        char *id = submit_one(b, input, rid, prio, b->end_time + 5);
        if (!id) {
            sleep_ms(50);
            continue;
        }
        bool cancel = (double)(xorshift(&rng) % 1000) < b->cancel_rate * 1000.0;
        if (cancel) {
            sleep_ms((long)(xorshift(&rng) % 30));
            Cuzk__V1__CancelProofRequest rq = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
            rq.job_id = id;
            ProtobufCMessage *resp = NULL;
            char msg[CLIENT_MSG];
            int st = czk_grpc_client_unary(b->c, "CancelProof", &rq.base, &cuzk__v1__cancel_proof_response__descriptor,
                                           60000, &resp, msg, sizeof msg);
            if (st != CZK_GRPC_OK) {
                note_error(b, "CancelProof: %s: %s", czk_grpc_code_name(st), msg);
            } else {
                pthread_mutex_lock(&b->mu);
                b->cancel_sent++;
                if (((Cuzk__V1__CancelProofResponse *)resp)->was_running) b->cancel_was_running++;
                pthread_mutex_unlock(&b->mu);
                protobuf_c_message_free_unpacked(resp, NULL);
            }
        } else if (xorshift(&rng) % 8 == 0) {
            /* a short wait that may time out first */
            Cuzk__V1__AwaitProofResponse *r = await_one(b, id, 1);
            if (r && r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT) {
                tally(b, r, NULL, false, NULL);
                protobuf_c_message_free_unpacked(&r->base, NULL);
                free(id);
                continue;
            }
            if (r) {
                pthread_mutex_lock(&b->mu);
                b->timeouts++;
                pthread_mutex_unlock(&b->mu);
                protobuf_c_message_free_unpacked(&r->base, NULL);
            }
        }
        Cuzk__V1__AwaitProofResponse *r = await_one(b, id, 0);
        if (r) {
            tally(b, r, NULL, cancel, NULL);
            protobuf_c_message_free_unpacked(&r->base, NULL);
        }
        free(id);
        pthread_mutex_lock(&b->mu);
        char extra[128];
        snprintf(extra, sizeof extra, "%zu done: %zu proved, %zu cancelled, %zu failed", b->done, b->completed,
                 b->cancelled, b->failed);
        double total = b->end_time - b->prog.t0;
        client_progress_show(&b->prog, cli_now() - b->prog.t0 > total ? total : cli_now() - b->prog.t0, total, extra);
        pthread_mutex_unlock(&b->mu);
    }
    return NULL;
}

int cmd_client_bench_stress(int argc, char **argv) {
    static const char *const known[] = {CLIENT_CONN_OPTS, "duration", "jobs", "circuit", "seed", "vk", "param-cache",
                                        "verify", "cancel-rate", "preload", NULL};
    char **av = client_argv_dash_j(argc, argv);
    if (!av) return CLI_FAIL;
    cli_args a;
    if (!cli_parse(&a, argc, av, 3, known) || a.npos) {
        free(av);
        return CLI_USAGE;
    }
    uint64_t dur = 10;
    const char *ds = cli_get(&a, "duration"), *cr = cli_get(&a, "cancel-rate");
    if (ds && (!cli_parse_u64(ds, &dur) || dur < 1 || dur > 86400)) {
        fprintf(stderr, "czk bench stress: --duration must be 1 … 86400 seconds, not '%s'\n", ds);
        free(av);
        return CLI_USAGE;
    }
    double rate = 0.25;
    if (cr) {
        char *end;
        rate = strtod(cr, &end);
        if (*end || !(rate >= 0 && rate <= 1)) {
            fprintf(stderr, "czk bench stress: --cancel-rate must be 0 … 1, not '%s'\n", cr);
            free(av);
            return CLI_USAGE;
        }
    }
    bench b;
    memset(&b, 0, sizeof b);
    client_vk vk;
    int jobs;
    int rc = open_bench("stress", &a, &b, &vk, &jobs);
    if (rc != CLI_OK) {
        free(av);
        return rc;
    }
    if (!cli_get(&a, "jobs")) jobs = 4;
    b.cancel_rate = rate;
    atomic_init(&b.next, 0);
    b.seed0 = (uint64_t)time(NULL) * 1000;
    if (cli_get(&a, "seed")) cli_parse_u64(cli_get(&a, "seed"), &b.seed0);
    printf("czk bench stress: %llu s of %s, %d clients, mixed priorities, %.0f%% cancelled, via %s\n",
           (unsigned long long)dur, b.circuit, jobs, rate * 100, client_addr("bench", &a));
    fflush(stdout);
    double t0 = cli_now();
    b.end_time = t0 + (double)dur;
    run_threads(&b, jobs, stress_worker);
    double wall = cli_now() - t0;
    client_progress_end(&b.prog);
    printf("\n  %-24s %zu (%zu ended)\n", "jobs submitted", b.submitted, b.done);
    printf("  %-24s %zu (%zu verified, %zu invalid)\n", "completed", b.completed, b.verified, b.invalid);
    printf("  %-24s %zu sent (%zu while running), %zu jobs ended CANCELLED\n", "cancellations", b.cancel_sent,
           b.cancel_was_running, b.cancelled);
    printf("  %-24s %zu\n", "timeouts (1 ms waits)", b.timeouts);
    printf("  %-24s %zu\n", "failed", b.failed);
    printf("  %-24s %zu\n", "rpc errors", b.errors);
    printf("  %-24s %zu\n", "busy retries", b.busy);
    printf("  %-24s %.1f s, %.3f s/proof\n", "wall", wall, b.completed ? wall / (double)b.completed : 0.0);
    printf("\n");
    print_memory(b.c);
    if (b.first_error[0]) fprintf(stderr, "czk bench stress: %s\n", b.first_error);
    rc = (b.invalid == 0 && b.failed == 0 && b.errors == 0 && b.completed > 0) ? CLI_OK : CLI_FAIL;
    close_bench(&b, &vk);
    free(av);
    return rc;
}
