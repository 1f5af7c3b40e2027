/* czk — the proving service (include/czk/service.h): the engine, the journal
 * and SRS residency behind one thread-safe API.
 *
 * Where a job's end is committed: whichever thread first sees the engine
 * report it — a caller of czk_service_await, or the service's completer
 * thread, which waits on the unfinished job most likely to end next (highest
 * priority, then oldest) and, at most a second later, looks at every other
 * one, so a job nobody awaits is journalled promptly too. The journal's
 * pending-guarded update makes the first commit the only one.
 *
 * A job the engine abandoned because the service is closing
 * (CZK_ERR_SHUTDOWN) is not an end: it stays pending in the journal and is
 * re-queued by the next open.
 *
 * The re-queueing is the restorer thread's, which open starts and close
 * joins: loading the parameters of those jobs may take minutes, and the
 * daemon answers (status, await, cancel) meanwhile. Submit, preload and
 * evict wait for it (czk_svc_wait_restored), so that the earlier run's jobs
 * keep their places ahead of new ones and their loads are not raced for the
 * budget. A cancel of a job not yet re-queued is journalled, and the
 * restorer, which reads the job's row again under submit_mu just before it
 * hands the job to the engine, ends it cancelled. */
#define _GNU_SOURCE
#include "czk/service.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "czk/circuit.h"
#include "czk/groth16_io.h"
#include "czk/instance.h"
#include "czk/log.h"
#include "journal.h"
#include "service_internal.h"

#define DEFAULT_QUEUE_LIMIT 1024
#define DEFAULT_MAX_INPUT ((size_t)256 << 20)
#define DEFAULT_KEEP_MS (24L * 3600 * 1000)
#define PURGE_EVERY_MS 60000
#define SWEEP_EVERY_MS 1000

static void set_msg(char *msg, size_t msglen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_msg(char *msg, size_t msglen, const char *fmt, ...) {
    if (!msg || !msglen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
}

double czk_svc_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t czk_svc_ms_of(double s) { return s > 0 ? (uint64_t)(s * 1000.0 + 0.5) : 0; }

void czk_service_config_default(czk_service_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    czk_engine_config_default(&cfg->engine);
    cfg->queue_limit = DEFAULT_QUEUE_LIMIT;
    cfg->max_input_bytes = DEFAULT_MAX_INPUT;
    cfg->result_keep_ms = DEFAULT_KEEP_MS;
    cfg->journal_max_disk_share = CZK_JOURNAL_DEFAULT_DISK_SHARE;
}

/* ---- small helpers ------------------------------------------------------------------ */

bool czk_svc_enter(czk_service *s) {
    pthread_mutex_lock(&s->mu);
    bool ok = !s->closed;
    if (ok) s->users++;
    pthread_mutex_unlock(&s->mu);
    return ok;
}

void czk_svc_leave(czk_service *s) {
    pthread_mutex_lock(&s->mu);
    if (--s->users == 0) pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

bool czk_svc_wait_restored(czk_service *s, char *msg, size_t msglen) {
    pthread_mutex_lock(&s->mu);
    while (s->restoring && s->accepting && !s->closing) pthread_cond_wait(&s->cv, &s->mu);
    bool ok = !s->restoring && !s->closing; /* not while stopping before it ended */
    pthread_mutex_unlock(&s->mu);
    if (!ok) set_msg(msg, msglen, "the service is shutting down");
    return ok;
}

/* The engine knows a job by a request id that the service makes unique per
 * journal row: "<row id>:<job id>" (a retry under the same job id is a new
 * row, so the engine never mistakes it for the earlier attempt). */
static void engine_request_id(char out[CZK_JOB_ID_MAX + 24], uint64_t row, const char *name) {
    snprintf(out, CZK_JOB_ID_MAX + 24, "%" PRIu64 ":%s", row, name);
}

/* The engine's partition events as log lines, under the job's id. */
static void log_partition_event(void *ctx, uint64_t engine_id, const char *request_id, size_t partition,
                                czk_partition_event ev, double seconds) {
    (void)ctx;
    (void)engine_id;
    const char *colon = request_id ? strchr(request_id, ':') : NULL;
    const char *id = colon ? colon + 1 : request_id;
    czk_log_level level = ev == CZK_PART_FAILED ? CZK_LOG_WARN : ev == CZK_PART_SYNTH_START || ev == CZK_PART_GPU_START
                                                                     ? CZK_LOG_DEBUG
                                                                     : CZK_LOG_INFO;
    if (seconds > 0)
        czk_log(level, id, (long)partition, "%s in %.3f s", czk_partition_event_name(ev), seconds);
    else
        czk_log(level, id, (long)partition, "%s", czk_partition_event_name(ev));
}

static svc_job *find_job(czk_service *s, uint64_t id) {
    for (svc_job *j = s->jobs; j; j = j->next)
        if (j->id == id) return j;
    return NULL;
}

/* UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing
 * above U+10FFFF (what proto3 strings and JSON require). */
static bool utf8_valid(const char *str) {
    const unsigned char *p = (const unsigned char *)str;
    while (*p) {
        unsigned c = *p, n;
        uint32_t cp;
        if (c < 0x80) {
            p++;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            n = 1, cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2, cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3, cp = c & 0x07;
        } else {
            return false;
        }
        for (unsigned i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80) return false;
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        p += n + 1;
    }
    return true;
}

/* The journal row of the job a caller names: an unfinished job of this run
 * first, then the journal. CZK_ERR_NOT_FOUND with a message otherwise. */
static czk_err resolve_job(czk_service *s, const char *name, uint64_t *row, char *msg, size_t msglen) {
    if (!name) name = "";
    if (*name && strlen(name) < CZK_JOB_ID_MAX) {
        pthread_mutex_lock(&s->mu);
        for (svc_job *j = s->jobs; j; j = j->next)
            if (!strcmp(j->name, name)) {
                *row = j->id;
                pthread_mutex_unlock(&s->mu);
                return CZK_OK;
            }
        pthread_mutex_unlock(&s->mu);
        czk_journal_job jj;
        czk_err e = czk_journal_find_name(s->journal, name, &jj);
        if (e == CZK_OK) {
            *row = jj.id;
            return CZK_OK;
        }
        if (e != CZK_ERR_NOT_FOUND) {
            set_msg(msg, msglen, "job '%s': the journal could not be read", name);
            return e;
        }
    }
    char shown[2 * CZK_JOB_ID_MAX];
    czk_log_format_job(shown, sizeof shown, name);
    set_msg(msg, msglen, "no job %s (unknown, or its result expired)", *name ? shown : "''");
    return CZK_ERR_NOT_FOUND;
}

static void unlink_job(czk_service *s, svc_job *job) {
    for (svc_job **p = &s->jobs; *p; p = &(*p)->next)
        if (*p == job) {
            *p = job->next;
            s->n_jobs--;
            return;
        }
}

static void append_job(czk_service *s, svc_job *job) {
    svc_job **p = &s->jobs;
    while (*p) p = &(*p)->next;
    job->next = NULL;
    *p = job;
    s->n_jobs++;
}

srs_entry *czk_svc_find_srs(czk_service *s, const char *id) {
    for (srs_entry *e = s->srs; e; e = e->next)
        if (!strcmp(e->id, id)) return e;
    return NULL;
}

/* Jobs ahead of `job` in the engine's order (priority, then acceptance). */
static uint32_t queue_position(czk_service *s, const svc_job *job) {
    uint32_t n = 0;
    for (svc_job *j = s->jobs; j; j = j->next)
        if (j != job && (j->prio > job->prio || (j->prio == job->prio && j->id < job->id))) n++;
    return n;
}

/* The payload of the built-in circuits: an ASCII decimal seed. */
czk_err czk_service_parse_seed(const uint8_t *in, size_t len, uint64_t *seed, char *msg, size_t msglen) {
    if (len == 0 || len > 20) {
        set_msg(msg, msglen, "the input must be a decimal seed of 1 to 20 digits (got %zu bytes)", len);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (in[i] < '0' || in[i] > '9') {
            set_msg(msg, msglen, "the input must be a decimal seed: byte %zu is not a digit", i);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        unsigned d = in[i] - '0';
        if (v > (UINT64_MAX - d) / 10) {
            set_msg(msg, msglen, "the seed does not fit in 64 bits");
            return CZK_ERR_INVALID_ARGUMENT;
        }
        v = v * 10 + d;
    }
    *seed = v;
    return CZK_OK;
}

/* ---- job ends ----------------------------------------------------------------------- */

/* Commits the end the engine reported for job `id` (outcome: what
 * czk_engine_await returned). CZK_OK once the end is in the journal (by this
 * thread or another), CZK_ERR_SHUTDOWN for a job abandoned by the shutdown
 * (left pending), or the journal's error. */
static czk_err finish_job(czk_service *s, uint64_t id, czk_err outcome, const czk_job_result *r, char *msg,
                          size_t msglen) {
    if (outcome == CZK_ERR_SHUTDOWN) {
        set_msg(msg, msglen, "the service is shutting down; the job will be re-queued on the next start");
        return CZK_ERR_SHUTDOWN;
    }
    pthread_mutex_lock(&s->mu);
    svc_job *job = find_job(s, id);
    if (job && job->ending) {
        while ((job = find_job(s, id)) && job->ending) pthread_cond_wait(&s->cv, &s->mu);
        pthread_mutex_unlock(&s->mu);
        return CZK_OK; /* the other thread committed it or holds it (or failed to: then it is ours again) */
    }
    if (!job || job->held) { /* journalled, or its end is in memory */
        pthread_mutex_unlock(&s->mu);
        return CZK_OK;
    }
    job->ending = true;
    uint64_t srs_ms = job->srs_load_ms;
    char name[CZK_JOB_ID_MAX];
    memcpy(name, job->name, sizeof name);
    pthread_mutex_unlock(&s->mu);

    czk_journal_end_info end;
    memset(&end, 0, sizeof end);
    end.state = outcome == CZK_OK ? CZK_JOURNAL_DONE
                : outcome == CZK_ERR_CANCELLED ? CZK_JOURNAL_CANCELLED
                                               : CZK_JOURNAL_FAILED;
    end.err = (int)outcome;
    uint8_t *pub = NULL;
    if (outcome == CZK_ERR_NOT_FOUND)
        snprintf(end.message, sizeof end.message, "the engine no longer knows job %s", name);
    else
        snprintf(end.message, sizeof end.message, "%s", r->message);
    if (outcome == CZK_OK) {
        size_t n_fr = r->n_partitions * r->n_public;
        end.proof = r->proofs;
        end.proof_len = r->n_partitions * CZK_PROOF_BYTES;
        end.n_partitions = r->n_partitions;
        if (n_fr) {
            pub = malloc(n_fr * CZK_FR_BYTES);
            if (!pub) {
                pthread_mutex_lock(&s->mu);
                if ((job = find_job(s, id))) job->ending = false;
                pthread_cond_broadcast(&s->cv);
                pthread_mutex_unlock(&s->mu);
                return CZK_ERR_NO_MEMORY;
            }
            for (size_t i = 0; i < n_fr; i++) czk_fr_to_bytes_le(pub + i * CZK_FR_BYTES, &r->public_inputs[i]);
            end.public_inputs = pub;
            end.public_len = n_fr * CZK_FR_BYTES;
        }
    }
    if (outcome != CZK_ERR_NOT_FOUND) {
        end.queue_wait_ms = czk_svc_ms_of(r->queue_wait_s);
        end.synthesis_ms = czk_svc_ms_of(r->synthesis_s);
        end.gpu_ms = czk_svc_ms_of(r->gpu_s);
        end.total_ms = czk_svc_ms_of(r->total_s) + srs_ms;
    }
    end.srs_load_ms = srs_ms;
    bool first = false;
    char jmsg[512] = "";
    czk_err e = czk_journal_end(s->journal, id, &end, &first, jmsg, sizeof jmsg);
    /* not journalled: the end is held (its proof copied) and delivered from
     * memory; retry_held journals it later */
    bool held = false;
    if (e != CZK_OK && e != CZK_ERR_NOT_FOUND) {
        uint8_t *proof = end.proof_len ? malloc(end.proof_len) : NULL;
        if (proof || !end.proof_len) {
            if (proof) memcpy(proof, end.proof, end.proof_len);
            end.proof = proof;
            pub = NULL; /* the held end's now */
            held = true;
        }
    }
    free(pub);
    pthread_mutex_lock(&s->mu);
    job = find_job(s, id);
    if (job) {
        if (e == CZK_OK || e == CZK_ERR_NOT_FOUND) {
            unlink_job(s, job);
            free(job);
        } else if (held) {
            job->held = true;
            job->held_s = czk_svc_now_s();
            job->held_end = end;
            s->n_held++;
            job->ending = false;
        } else {
            job->ending = false; /* not committed: a later await or sweep tries again */
        }
    } else if (held) {
        czk_journal_end_free(&end);
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (held) {
        czk_log(CZK_LOG_ERROR, name, CZK_LOG_NO_PART,
                "ended (%s), but its end could not be journalled: %s; it is delivered from memory and journalled "
                "once there is room (tried every %d s)",
                end.state == CZK_JOURNAL_DONE ? "done" : end.state == CZK_JOURNAL_FAILED ? "failed" : "cancelled", jmsg,
                SWEEP_EVERY_MS / 1000);
        return CZK_OK;
    }
    if (e != CZK_OK && e != CZK_ERR_NOT_FOUND) {
        czk_log(CZK_LOG_ERROR, name, CZK_LOG_NO_PART, "could not journal the end: %s", jmsg);
        set_msg(msg, msglen, "job %s: could not journal its end: %s", name, jmsg);
        return e;
    }
    if (first && r->timeline && czk_log_get_level() <= CZK_LOG_DEBUG)
        for (size_t p = 0; p < r->n_partitions; p++) {
            const czk_partition_timeline *t = &r->timeline[p];
            czk_log(CZK_LOG_DEBUG, name, (long)p,
                    "synthesis %.3f..%.3f s, queued %.3f, gpu %.3f..%.3f s, finalized %.3f s (after submit)",
                    t->synth_start, t->synth_end, t->queued, t->gpu_start, t->gpu_end, t->finalize_end);
        }
    if (first) {
        if (end.state == CZK_JOURNAL_DONE)
            czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART,
                    "done: %zu partition(s), queue %" PRIu64 " ms, synthesis %" PRIu64 " ms, gpu %" PRIu64
                    " ms, total %" PRIu64 " ms",
                    r->n_partitions, end.queue_wait_ms, end.synthesis_ms, end.gpu_ms, end.total_ms);
        else
            czk_log(end.state == CZK_JOURNAL_CANCELLED ? CZK_LOG_INFO : CZK_LOG_WARN, name, CZK_LOG_NO_PART, "%s: %s",
                    end.state == CZK_JOURNAL_CANCELLED ? "cancelled" : "failed",
                    end.message[0] ? end.message : czk_err_str(outcome));
    }
    return CZK_OK;
}

/* Ends a pending journal job that never reached the engine (re-queue). */
static void end_unstarted(czk_service *s, const czk_journal_job *jj, czk_journal_state state, czk_err err,
                          const char *why) {
    czk_journal_end_info end;
    memset(&end, 0, sizeof end);
    end.state = state;
    end.err = (int)err;
    snprintf(end.message, sizeof end.message, "%s", why);
    bool first = false;
    char m[256], name[CZK_JOB_ID_MAX];
    czk_journal_job_name(jj, name);
    if (czk_journal_end(s->journal, jj->id, &end, &first, m, sizeof m) != CZK_OK)
        czk_log(CZK_LOG_ERROR, name, CZK_LOG_NO_PART, "could not journal the end: %s", m);
    else
        czk_log(CZK_LOG_WARN, name, CZK_LOG_NO_PART, "%s", why);
}

/* ---- the completer thread ------------------------------------------------------------- */

typedef struct {
    uint64_t id, engine_id;
} job_ref;

/* Every unfinished job (not being ended) checked without waiting. */
static void sweep(czk_service *s) {
    pthread_mutex_lock(&s->mu);
    size_t n = 0;
    job_ref *refs = s->n_jobs ? malloc(s->n_jobs * sizeof *refs) : NULL;
    if (refs)
        for (svc_job *j = s->jobs; j; j = j->next)
            if (!j->ending && !j->held) refs[n++] = (job_ref){j->id, j->engine_id};
    pthread_mutex_unlock(&s->mu);
    for (size_t i = 0; i < n; i++) {
        czk_job_result r;
        memset(&r, 0, sizeof r);
        czk_err e = czk_engine_await(s->engine, refs[i].engine_id, 0, &r);
        if (e != CZK_ERR_TIMEOUT) finish_job(s, refs[i].id, e, &r, NULL, 0);
        czk_job_result_free(&r);
    }
    free(refs);
}

/* Journals the ends held in memory (finish_job), oldest first; each one
 * that goes in leaves the table. One line says what is still held. */
static void retry_held(czk_service *s) {
    pthread_mutex_lock(&s->mu);
    s->held_tried_s = czk_svc_now_s();
    size_t n = 0;
    uint64_t *ids = s->n_held ? malloc(s->n_held * sizeof *ids) : NULL;
    if (ids)
        for (svc_job *j = s->jobs; j && n < s->n_held; j = j->next)
            if (j->held && !j->ending) ids[n++] = j->id;
    pthread_mutex_unlock(&s->mu);
    size_t left = 0;
    char jmsg[512] = "";
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&s->mu);
        svc_job *job = find_job(s, ids[i]);
        if (!job || !job->held || job->ending) {
            pthread_mutex_unlock(&s->mu);
            continue;
        }
        job->ending = true; /* the held end is read by this thread only, until ending is cleared */
        pthread_mutex_unlock(&s->mu);
        bool first = false;
        czk_journal_end_info end = job->held_end;
        czk_err e = czk_journal_end(s->journal, ids[i], &end, &first, jmsg, sizeof jmsg);
        pthread_mutex_lock(&s->mu);
        job->ending = false;
        double held_for = czk_svc_now_s() - job->held_s;
        char name[CZK_JOB_ID_MAX];
        memcpy(name, job->name, sizeof name);
        if (e == CZK_OK || e == CZK_ERR_NOT_FOUND) {
            unlink_job(s, job);
            s->n_held--;
            czk_journal_end_free(&job->held_end);
            free(job);
        } else {
            left++;
        }
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        if (e == CZK_OK)
            czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART, "its end is journalled now (it was held in memory for %.1f s)",
                    held_for);
    }
    free(ids);
    if (left)
        czk_log_error("journal: %zu ended job(s) held in memory, not journalled yet: %s", left, jmsg);
}

static void maybe_purge(czk_service *s) {
    uint64_t now = czk_journal_now_ms();
    if (now - s->last_purge_ms < PURGE_EVERY_MS) return;
    s->last_purge_ms = now;
    size_t n = 0;
    char m[256];
    if (czk_journal_purge(s->journal, now, (uint64_t)s->cfg.result_keep_ms, &n, m, sizeof m) != CZK_OK)
        czk_log_warn("journal purge: %s", m);
    else if (n)
        czk_log_info("journal: %zu expired result(s) deleted", n);
}

static void *completer_main(void *arg) {
    czk_service *s = arg;
    double last_sweep = czk_svc_now_s();
    pthread_mutex_lock(&s->mu);
    while (!s->closing) {
        bool retry = s->n_held && czk_svc_now_s() - s->held_tried_s >= SWEEP_EVERY_MS / 1000.0;
        pthread_mutex_unlock(&s->mu);
        maybe_purge(s);
        if (retry) retry_held(s);
        pthread_mutex_lock(&s->mu);
        svc_job *head = NULL;
        for (svc_job *j = s->jobs; j; j = j->next)
            if (!j->ending && !j->held && (!head || j->prio > head->prio)) head = j;
        if (!head) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_sec += s->n_held ? SWEEP_EVERY_MS / 1000 : PURGE_EVERY_MS / 1000;
            if (!s->closing) pthread_cond_timedwait(&s->cv, &s->mu, &ts);
            continue;
        }
        job_ref ref = {head->id, head->engine_id};
        pthread_mutex_unlock(&s->mu);
        czk_job_result r;
        memset(&r, 0, sizeof r);
        czk_err e = czk_engine_await(s->engine, ref.engine_id, SWEEP_EVERY_MS, &r);
        czk_err fe = e == CZK_ERR_TIMEOUT ? CZK_OK : finish_job(s, ref.id, e, &r, NULL, 0);
        czk_job_result_free(&r);
        if (e == CZK_ERR_TIMEOUT || czk_svc_now_s() - last_sweep >= SWEEP_EVERY_MS / 1000.0) {
            sweep(s);
            last_sweep = czk_svc_now_s();
        }
        pthread_mutex_lock(&s->mu);
        if (fe != CZK_OK && !s->closing) {
            /* the journal refused the end (or the job was abandoned): try
             * again in a while, not in a tight loop */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_sec += SWEEP_EVERY_MS / 1000;
            pthread_cond_timedwait(&s->cv, &s->mu, &ts);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- open / close --------------------------------------------------------------------- */

/* Puts journal job jj into the engine (after a restart; the restorer's).
 * A job it cannot put there because the service is closing stays pending
 * in the journal, for the next start. */
static void requeue(czk_service *s, const czk_journal_job *jj) {
    char m[512] = "", why[700];
    if (jj->cancel_requested) {
        end_unstarted(s, jj, CZK_JOURNAL_CANCELLED, CZK_ERR_CANCELLED, "cancelled (before a restart)");
        return;
    }
    uint8_t *in = NULL;
    size_t len = 0;
    uint64_t seed = 0, load_ms = 0;
    bool al;
    czk_circuit c;
    czk_err e;
    czk_circuit_input cin = {0};
    czk_fil_request fil = {0};
    if ((e = czk_journal_read_input(s->journal, jj->id, &in, &len, m, sizeof m)) == CZK_OK) {
        if (czk_svc_fil_is_payload(in, len)) {
            const char *cid = NULL;
            if ((e = czk_svc_fil_unframe(in, len, &fil)) != CZK_OK)
                snprintf(m, sizeof m, "its journalled Filecoin request is malformed");
            else if ((e = czk_svc_fil_prepare(&fil, &cin, &cid, m, sizeof m)) == CZK_OK &&
                     strcmp(cid, jj->circuit_id) != 0) {
                snprintf(m, sizeof m, "its request is for %s, the journal says %s", cid, jj->circuit_id);
                e = CZK_ERR_MISMATCH;
            }
        } else {
            e = czk_service_parse_seed(in, len, &seed, m, sizeof m);
        }
    }
    czk_fil_kind kind = fil.kind;
    uint64_t sector_number = fil.sector_number, miner_id = fil.miner_id;
    czk_fil_request_free(&fil); /* it borrowed in's bytes; the prepared input holds copies */
    char rid[CZK_JOB_ID_MAX + 24], name[CZK_JOB_ID_MAX];
    czk_journal_job_name(jj, name);
    if (e == CZK_OK && (e = czk_circuit_find(&c, jj->circuit_id, m, sizeof m)) == CZK_OK) {
        pthread_mutex_lock(&s->mu);
        snprintf(s->restore_loading, sizeof s->restore_loading, "%s", c.id);
        pthread_mutex_unlock(&s->mu);
        e = czk_svc_ensure_loaded(s, jj->circuit_id, &al, &load_ms, m, sizeof m);
        pthread_mutex_lock(&s->mu);
        s->restore_loading[0] = 0;
        pthread_mutex_unlock(&s->mu);
    }
    free(in);
    if (e == CZK_ERR_SHUTDOWN) {
        czk_circuit_input_release(&cin);
        czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART, "not re-queued (the service is shutting down): stays in the journal");
        return;
    }
    if (e != CZK_OK) {
        czk_circuit_input_release(&cin);
        snprintf(why, sizeof why, "could not be re-queued: %s", m);
        end_unstarted(s, jj, CZK_JOURNAL_FAILED, e, why);
        return;
    }
    svc_job *job = calloc(1, sizeof *job);
    czk_priority prio = jj->priority >= CZK_PRIO_LOW && jj->priority <= CZK_PRIO_CRITICAL ? (czk_priority)jj->priority
                                                                                          : CZK_PRIO_NORMAL;
    engine_request_id(rid, jj->id, name);
    size_t n_parts = cin.partitions ? cin.partitions : c.partitions;
    /* under submit_mu from the second look at the row to the job's listing,
     * so that a cancel (czk_service_cancel) finds it in one place or the other */
    pthread_mutex_lock(&s->submit_mu);
    czk_journal_job now;
    if (czk_journal_get(s->journal, jj->id, &now) == CZK_OK && now.cancel_requested) {
        pthread_mutex_unlock(&s->submit_mu);
        free(job);
        czk_circuit_input_release(&cin);
        end_unstarted(s, jj, CZK_JOURNAL_CANCELLED, CZK_ERR_CANCELLED, "cancelled (before it was re-queued)");
        return;
    }
    if (!job) {
        czk_circuit_input_release(&cin);
    } else if (cin.data) {
        e = czk_engine_submit_input(s->engine, rid, jj->circuit_id, &cin, prio, &job->engine_id, m, sizeof m);
    } else {
        e = czk_engine_submit(s->engine, rid, jj->circuit_id, seed, prio, &job->engine_id, m, sizeof m);
    }
    if (!job || e != CZK_OK) {
        pthread_mutex_unlock(&s->submit_mu);
        free(job);
        if (e == CZK_ERR_SHUTDOWN) {
            czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART,
                    "not re-queued (the service is shutting down): stays in the journal");
            return;
        }
        snprintf(why, sizeof why, "could not be re-queued: %s", job ? m : "out of memory");
        end_unstarted(s, jj, CZK_JOURNAL_FAILED, job ? e : CZK_ERR_NO_MEMORY, why);
        return;
    }
    job->id = jj->id;
    memcpy(job->name, name, sizeof job->name);
    snprintf(job->circuit_id, sizeof job->circuit_id, "%s", jj->circuit_id);
    job->prio = prio;
    job->n_partitions = n_parts;
    job->srs_load_ms = load_ms;
    job->accepted_s = czk_svc_now_s();
    pthread_mutex_lock(&s->mu);
    append_job(s, job);
    pthread_cond_broadcast(&s->cv); /* an await of it waits for it to be listed */
    pthread_mutex_unlock(&s->mu);
    pthread_mutex_unlock(&s->submit_mu);
    if (kind == CZK_FIL_KIND_POREP_C2)
        czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART, "re-queued: %s, sector %" PRIu64 " of miner %" PRIu64,
                jj->circuit_id, sector_number, miner_id);
    else if (kind != CZK_FIL_KIND_NONE)
        czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART, "re-queued: %s, %s of miner %" PRIu64, jj->circuit_id,
                czk_fil_kind_name(kind), miner_id);
    else
        czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART, "re-queued: %s seed %" PRIu64, jj->circuit_id, seed);
}

/* The restorer: the earlier run's unfinished jobs re-queued in journal
 * order (their original order), until the service closes (those it has not
 * reached stay pending in the journal). */
static void *restore_main(void *arg) {
    czk_service *s = arg;
    size_t i = 0;
    for (;; i++) {
        pthread_mutex_lock(&s->mu);
        s->restore_done = i;
        bool stop = s->closing || i == s->n_restore;
        pthread_mutex_unlock(&s->mu);
        if (stop) break;
        requeue(s, &s->restore[i]);
    }
    pthread_mutex_lock(&s->mu);
    s->restoring = false;
    s->restore_end_s = czk_svc_now_s();
    double secs = s->restore_end_s - s->restore_start_s;
    size_t n = s->n_restore;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (i == n)
        czk_log_info("journal: the %zu unfinished job(s) of the earlier run dealt with in %.1f s; new jobs are "
                     "accepted",
                     n, secs);
    else
        czk_log_info("journal: re-queueing stopped by the shutdown after %zu of %zu job(s); the rest stay in the "
                     "journal",
                     i, n);
    return NULL;
}

/* The engine, the journal, the job and parameter lists, the locks and s
 * itself: what open made and close (or open's failure) takes apart, with
 * no thread of the service left running. */
static void service_free(czk_service *s) {
    if (s->engine) czk_engine_destroy(s->engine);
    czk_journal_close(s->journal);
    while (s->jobs) {
        svc_job *j = s->jobs;
        s->jobs = j->next;
        if (j->held) czk_journal_end_free(&j->held_end);
        free(j);
    }
    while (s->srs) {
        srs_entry *x = s->srs;
        s->srs = x->next;
        free(x);
    }
    free(s->restore);
    pthread_mutex_destroy(&s->submit_mu);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s->state_dir);
    free(s->param_cache);
    free(s);
}

czk_err czk_service_open(czk_service **out, const czk_service_config *cfg, char *msg, size_t msglen) {
    *out = NULL;
    if (!cfg || !cfg->state_dir || !*cfg->state_dir || !cfg->param_cache || !*cfg->param_cache) {
        set_msg(msg, msglen, "the service needs a state directory and a param cache");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_service *s = calloc(1, sizeof *s);
    if (!s) return CZK_ERR_NO_MEMORY;
    s->cfg = *cfg;
    if (!s->cfg.queue_limit) s->cfg.queue_limit = DEFAULT_QUEUE_LIMIT;
    if (!s->cfg.max_input_bytes) s->cfg.max_input_bytes = DEFAULT_MAX_INPUT;
    if (s->cfg.result_keep_ms <= 0) s->cfg.result_keep_ms = DEFAULT_KEEP_MS;
    if (s->cfg.journal_max_disk_share == 0) s->cfg.journal_max_disk_share = CZK_JOURNAL_DEFAULT_DISK_SHARE;
    s->state_dir = strdup(cfg->state_dir);
    s->param_cache = strdup(cfg->param_cache);
    s->cfg.state_dir = s->state_dir;
    s->cfg.param_cache = s->param_cache;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    pthread_mutex_init(&s->submit_mu, NULL);
    s->opened_s = czk_svc_now_s();
    snprintf(s->backend, sizeof s->backend, "%s", cfg->engine.backend ? czk_backend_name(cfg->engine.backend) : "cpu");
    czk_err e;
    if (!s->state_dir || !s->param_cache) {
        e = CZK_ERR_NO_MEMORY;
        goto fail;
    }
    if ((e = czk_journal_open(&s->journal, s->state_dir, msg, msglen)) != CZK_OK) goto fail;
    if (czk_journal_set_disk_limit(s->journal, s->cfg.journal_max_disk_share, s->cfg.journal_max_disk_bytes) !=
        CZK_OK) {
        set_msg(msg, msglen, "journal_max_disk_share %g is not in (0, 1]", s->cfg.journal_max_disk_share);
        e = CZK_ERR_INVALID_ARGUMENT;
        goto fail;
    }
    /* The engine keeps results until the completer has journalled them;
     * the journal serves them afterwards. */
    czk_engine_config ec = cfg->engine;
    ec.on_event = log_partition_event;
    ec.event_ctx = s;
    ec.result_keep_ms = 3600L * 1000;
    ec.result_keep_count = s->cfg.queue_limit + 1024;
    if ((e = czk_engine_create(&s->engine, &ec, msg, msglen)) != CZK_OK) goto fail;
    s->accepting = true;
    s->last_purge_ms = czk_journal_now_ms();
    {
        size_t n = 0;
        char m[256];
        if (czk_journal_purge(s->journal, s->last_purge_ms, (uint64_t)s->cfg.result_keep_ms, &n, m, sizeof m) != CZK_OK)
            czk_log_warn("journal purge: %s", m);
    }
    czk_journal_job *pending = NULL;
    size_t n_pending = 0;
    if ((e = czk_journal_list_pending(s->journal, &pending, &n_pending, msg, msglen)) != CZK_OK) goto fail;
    if (pthread_create(&s->completer, NULL, completer_main, s) != 0) {
        free(pending);
        set_msg(msg, msglen, "could not start the completer thread");
        e = CZK_ERR_NO_MEMORY;
        goto fail;
    }
    s->completer_started = true;
    if (n_pending) {
        czk_log_info("journal: %zu unfinished job(s) from an earlier run; re-queueing them (new jobs wait until "
                     "then)",
                     n_pending);
        s->restore = pending;
        s->n_restore = n_pending;
        s->restoring = true;
        s->restore_start_s = czk_svc_now_s();
        if (pthread_create(&s->restorer, NULL, restore_main, s) != 0) {
            s->restoring = false;
            set_msg(msg, msglen, "could not start the thread that re-queues the earlier run's jobs");
            e = CZK_ERR_NO_MEMORY;
            goto fail;
        }
        s->restorer_started = true;
    } else {
        free(pending);
    }
    czk_log_info("service open: state %s, params %s, backend %s, queue limit %zu", s->state_dir, s->param_cache,
                 s->backend, s->cfg.queue_limit);
    if (s->cfg.generate_dev_params)
        czk_log_warn("development parameters (NOT a trusted setup) are made for a built-in circuit whose parameter "
                     "file is missing (srs.generate_dev_params)");
    *out = s;
    return CZK_OK;
fail:
    pthread_mutex_lock(&s->mu);
    s->accepting = false;
    s->closing = true; /* the completer leaves */
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (s->completer_started) pthread_join(s->completer, NULL);
    service_free(s);
    return e;
}

void czk_service_stop_accepting(czk_service *s) {
    if (!s) return;
    pthread_mutex_lock(&s->mu);
    bool was = s->accepting;
    s->accepting = false;
    pthread_cond_broadcast(&s->cv); /* calls waiting for the re-queueing give up */
    pthread_mutex_unlock(&s->mu);
    if (was) czk_log_info("service: no longer accepting jobs");
}

czk_budget *czk_service_budget(czk_service *s) { return czk_engine_budget(s->engine); }

void czk_service_close(czk_service *s) {
    if (!s) return;
    czk_service_stop_accepting(s);
    pthread_mutex_lock(&s->mu);
    s->closing = true; /* the completer leaves; loaders give up */
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    /* Ends every unfinished job in the engine with CZK_ERR_SHUTDOWN (not
     * journalled: re-queued next time); waiters wake up. */
    czk_engine_shutdown(s->engine, CZK_SHUTDOWN_ABANDON);
    if (s->restorer_started) {
        /* a load in progress is not interrupted: the restorer stops once it
         * has ended (and the engine refuses the circuit) */
        pthread_mutex_lock(&s->mu);
        if (s->restoring && s->restore_loading[0])
            czk_log_info("waiting for the parameters of %s to finish loading", s->restore_loading);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->restorer, NULL);
    }
    if (s->completer_started) pthread_join(s->completer, NULL);
    sweep(s); /* jobs that really ended before the shutdown are journalled */
    pthread_mutex_lock(&s->mu);
    s->closed = true;
    while (s->users > 0) pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    if (s->n_held) retry_held(s);
    pthread_mutex_lock(&s->mu);
    for (svc_job *j = s->jobs; j; j = j->next)
        if (j->held)
            czk_log(CZK_LOG_WARN, j->name, CZK_LOG_NO_PART,
                    "its end was never journalled: the job stays pending in the journal and is proved again on the "
                    "next start");
    size_t left = s->n_jobs;
    pthread_mutex_unlock(&s->mu);
    if (left) czk_log_info("service closed: %zu unfinished job(s) stay in the journal", left);
    else czk_log_info("service closed");
    service_free(s);
}

/* ---- submit / await / cancel ----------------------------------------------------------- */

static bool same_request(const czk_journal_job *jj, const char *circuit_id, const uint8_t *digest, size_t len) {
    return !strcmp(jj->circuit_id, circuit_id) && jj->input_len == len && !memcmp(jj->input_sha256, digest, 32);
}

/* An earlier job with this request id that answers this request: CZK_OK
 * (the same circuit and input, unfinished or done), CZK_ERR_MISMATCH (an
 * unfinished job with other content), or CZK_ERR_NOT_FOUND (none, or one
 * that ended and that the new job replaces: done with other content, failed
 * or cancelled). */
static czk_err idempotent(czk_service *s, const czk_service_request *req, const char *circuit_id,
                          const uint8_t *digest, size_t payload_len, char job_id[CZK_JOB_ID_MAX], uint32_t *queue_pos,
                          char *msg, size_t msglen) {
    czk_journal_job jj;
    if (!req->request_id || !*req->request_id) return CZK_ERR_NOT_FOUND;
    if (czk_journal_find_request(s->journal, req->request_id, &jj) != CZK_OK) return CZK_ERR_NOT_FOUND;
    bool same = same_request(&jj, circuit_id, digest, payload_len);
    if (jj.state == CZK_JOURNAL_FAILED || jj.state == CZK_JOURNAL_CANCELLED ||
        (jj.state == CZK_JOURNAL_DONE && !same))
        return CZK_ERR_NOT_FOUND;
    if (!same) {
        char shown[2 * CZK_JOB_ID_MAX];
        czk_log_format_job(shown, sizeof shown, req->request_id);
        set_msg(msg, msglen, "job %s is unfinished and was submitted with a different circuit or input", shown);
        return CZK_ERR_MISMATCH;
    }
    czk_journal_job_name(&jj, job_id);
    pthread_mutex_lock(&s->mu);
    svc_job *j = find_job(s, jj.id);
    *queue_pos = j ? queue_position(s, j) : 0;
    pthread_mutex_unlock(&s->mu);
    return CZK_OK;
}

czk_err czk_service_submit(czk_service *s, const czk_service_request *req, char job_id[CZK_JOB_ID_MAX],
                           uint32_t *queue_position_out, char *msg, size_t msglen) {
    uint32_t qp_dummy;
    uint32_t *qp = queue_position_out ? queue_position_out : &qp_dummy;
    job_id[0] = 0;
    *qp = 0;
    if (!req || (!req->circuit_id && req->fil.kind == CZK_FIL_KIND_NONE) || (!req->input && req->input_len) ||
        (req->circuit_id && req->fil.kind != CZK_FIL_KIND_NONE)) {
        set_msg(msg, msglen, "no circuit id or input");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (!czk_svc_enter(s)) {
        set_msg(msg, msglen, "the service is closed");
        return CZK_ERR_SHUTDOWN;
    }
    czk_err e;
    czk_circuit c;
    uint64_t seed = 0;
    /* the payload the journal keeps (a Filecoin job's: framed with the
     * request's facts) and, for a Filecoin job, its decoded input, ours
     * until the engine takes it */
    const char *circuit_id = req->circuit_id;
    const uint8_t *payload = req->input;
    size_t payload_len = req->input_len;
    uint8_t *framed = NULL;
    czk_circuit_input cin = {0};
    if (req->request_id && strlen(req->request_id) >= CZK_JOB_ID_MAX) {
        set_msg(msg, msglen, "request id longer than %d bytes", CZK_JOB_ID_MAX - 1);
        e = CZK_ERR_INVALID_ARGUMENT;
        goto out;
    }
    if (req->request_id && !utf8_valid(req->request_id)) {
        set_msg(msg, msglen, "request id is not valid UTF-8");
        e = CZK_ERR_INVALID_ARGUMENT;
        goto out;
    }
    if (req->request_id && czk_journal_name_is_generated(req->request_id, NULL)) {
        set_msg(msg, msglen,
                "request id '%s' has the form of a generated job id (" CZK_JOURNAL_GENERATED_PREFIX
                "<number>), reserved for the jobs submitted without one",
                req->request_id);
        e = CZK_ERR_INVALID_ARGUMENT;
        goto out;
    }
    if (req->priority < CZK_PRIO_LOW || req->priority > CZK_PRIO_CRITICAL) {
        set_msg(msg, msglen, "priority %d out of range", (int)req->priority);
        e = CZK_ERR_INVALID_ARGUMENT;
        goto out;
    }
    size_t in_bytes = req->fil.kind != CZK_FIL_KIND_NONE ? czk_fil_request_bytes(&req->fil) : req->input_len;
    if (in_bytes > s->cfg.max_input_bytes) {
        set_msg(msg, msglen, "input of %zu bytes is larger than the limit of %zu", in_bytes,
                s->cfg.max_input_bytes);
        e = CZK_ERR_INVALID_ARGUMENT;
        goto out;
    }
    if (req->fil.kind != CZK_FIL_KIND_NONE) {
        if ((e = czk_svc_fil_prepare(&req->fil, &cin, &circuit_id, msg, msglen)) != CZK_OK ||
            (e = czk_svc_fil_frame(&req->fil, &framed, &payload_len)) != CZK_OK)
            goto out;
        payload = framed;
    }
    if ((e = czk_circuit_find(&c, circuit_id, msg, msglen)) != CZK_OK) goto out;
    if (!cin.data && (e = czk_service_parse_seed(req->input, req->input_len, &seed, msg, msglen)) != CZK_OK) goto out;
    uint8_t digest[32];
    SHA256(payload_len ? payload : (const uint8_t *)"", payload_len, digest);
    /* after the earlier run's jobs (the wait may be long: their parameters
     * load meanwhile) */
    if (!czk_svc_wait_restored(s, msg, msglen)) {
        e = CZK_ERR_SHUTDOWN;
        goto out;
    }
    pthread_mutex_lock(&s->mu);
    bool accepting = s->accepting;
    pthread_mutex_unlock(&s->mu);
    if (!accepting) {
        set_msg(msg, msglen, "the service is shutting down");
        e = CZK_ERR_SHUTDOWN;
        goto out;
    }
    e = idempotent(s, req, c.id, digest, payload_len, job_id, qp, msg, msglen);
    if (e != CZK_ERR_NOT_FOUND) goto out;

    for (int attempt = 0;; attempt++) {
        bool al;
        uint64_t load_ms = 0;
        if ((e = czk_svc_ensure_loaded(s, c.id, &al, &load_ms, msg, msglen)) != CZK_OK) goto out;
        pthread_mutex_lock(&s->submit_mu);
        pthread_mutex_lock(&s->mu);
        srs_entry *ent = czk_svc_find_srs(s, c.id);
        bool loaded = ent && ent->loaded;
        size_t n_jobs = s->n_jobs;
        accepting = s->accepting;
        pthread_mutex_unlock(&s->mu);
        if (!loaded && attempt < 3) { /* evicted in between: load again */
            pthread_mutex_unlock(&s->submit_mu);
            continue;
        }
        if (!accepting) {
            set_msg(msg, msglen, "the service is shutting down");
            e = CZK_ERR_SHUTDOWN;
        } else if ((e = idempotent(s, req, c.id, digest, payload_len, job_id, qp, msg, msglen)) != CZK_ERR_NOT_FOUND) {
            /* a concurrent submission of the same request id won: its job
             * (CZK_OK) or CZK_ERR_MISMATCH */
            pthread_mutex_unlock(&s->submit_mu);
            goto out;
        } else if (n_jobs >= s->cfg.queue_limit) {
            set_msg(msg, msglen, "the queue is full (%zu unfinished jobs)", n_jobs);
            e = CZK_ERR_BUSY;
        } else {
            e = CZK_OK;
        }
        if (e != CZK_OK || !loaded) {
            if (e == CZK_OK) {
                set_msg(msg, msglen, "%s was evicted while submitting", c.id);
                e = CZK_ERR_BUSY;
            }
            pthread_mutex_unlock(&s->submit_mu);
            goto out;
        }
        svc_job *job = calloc(1, sizeof *job);
        if (!job) {
            pthread_mutex_unlock(&s->submit_mu);
            e = CZK_ERR_NO_MEMORY;
            goto out;
        }
        uint64_t id = 0;
        if ((e = czk_journal_add(s->journal, req->request_id, c.id, (int)req->priority, payload, payload_len,
                                 &id, msg, msglen)) != CZK_OK) {
            pthread_mutex_unlock(&s->submit_mu);
            free(job);
            if (e == CZK_ERR_MISMATCH) e = CZK_ERR_IO; /* cannot happen: checked under submit_mu */
            goto out;
        }
        czk_journal_name_of(req->request_id, id, job->name);
        memcpy(job_id, job->name, CZK_JOB_ID_MAX); /* job may end and be freed once it is listed */
        char rid[CZK_JOB_ID_MAX + 24];
        engine_request_id(rid, id, job->name);
        size_t n_parts = cin.partitions ? cin.partitions : c.partitions;
        if (cin.data) {
            e = czk_engine_submit_input(s->engine, rid, c.id, &cin, req->priority, &job->engine_id, msg, msglen);
            cin.data = NULL; /* the engine's, whatever it answered */
        } else {
            e = czk_engine_submit(s->engine, rid, c.id, seed, req->priority, &job->engine_id, msg, msglen);
        }
        if (e != CZK_OK) {
            char m2[256];
            if (czk_journal_remove(s->journal, id, m2, sizeof m2) != CZK_OK)
                czk_log(CZK_LOG_ERROR, job->name, CZK_LOG_NO_PART, "could not remove a refused job: %s", m2);
            pthread_mutex_unlock(&s->submit_mu);
            free(job);
            if (e == CZK_ERR_NOT_FOUND) e = CZK_ERR_BUSY; /* evicted in between */
            goto out;
        }
        job->id = id;
        snprintf(job->circuit_id, sizeof job->circuit_id, "%s", c.id);
        job->prio = req->priority;
        job->n_partitions = n_parts;
        job->srs_load_ms = load_ms;
        job->accepted_s = czk_svc_now_s();
        pthread_mutex_lock(&s->mu);
        append_job(s, job);
        *qp = queue_position(s, job);
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        pthread_mutex_unlock(&s->submit_mu);
        if (req->fil.kind == CZK_FIL_KIND_POREP_C2)
            czk_log(CZK_LOG_INFO, job_id, CZK_LOG_NO_PART,
                    "accepted: %s, sector %" PRIu64 " of miner %" PRIu64 ", %zu partition(s), priority %s, %u ahead",
                    c.id, req->fil.sector_number, req->fil.miner_id, n_parts, czk_priority_name(req->priority), *qp);
        else if (req->fil.kind != CZK_FIL_KIND_NONE)
            czk_log(CZK_LOG_INFO, job_id, CZK_LOG_NO_PART,
                    "accepted: %s, %s of miner %" PRIu64 ", %zu partition(s), priority %s, %u ahead", c.id,
                    czk_fil_kind_name(req->fil.kind), req->fil.miner_id, n_parts, czk_priority_name(req->priority),
                    *qp);
        else
            czk_log(CZK_LOG_INFO, job_id, CZK_LOG_NO_PART, "accepted: %s seed %" PRIu64 ", priority %s, %u ahead",
                    c.id, seed, czk_priority_name(req->priority), *qp);
        break;
    }
out:
    czk_circuit_input_release(&cin);
    free(framed);
    czk_svc_leave(s);
    return e;
}

static void fill_result(czk_service_result *out, const czk_journal_job *jj, const czk_journal_end_info *end) {
    czk_journal_job_name(jj, out->job_id);
    out->state = end->state == CZK_JOURNAL_DONE        ? CZK_SERVICE_JOB_DONE
                 : end->state == CZK_JOURNAL_CANCELLED ? CZK_SERVICE_JOB_CANCELLED
                                                       : CZK_SERVICE_JOB_FAILED;
    out->err = (czk_err)end->err;
    snprintf(out->message, sizeof out->message, "%s", end->message);
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s", jj->circuit_id);
    out->proof = (uint8_t *)end->proof;
    out->proof_len = end->proof_len;
    out->public_inputs = (uint8_t *)end->public_inputs;
    out->n_public = end->public_len / CZK_FR_BYTES;
    out->n_partitions = (size_t)end->n_partitions;
    out->queue_wait_ms = end->queue_wait_ms;
    out->srs_load_ms = end->srs_load_ms;
    out->synthesis_ms = end->synthesis_ms;
    out->gpu_ms = end->gpu_ms;
    out->total_ms = end->total_ms;
}

void czk_service_result_free(czk_service_result *r) {
    if (!r) return;
    free(r->proof);
    free(r->public_inputs);
    r->proof = r->public_inputs = NULL;
    r->proof_len = r->n_public = 0;
}

/* Fills out from job id's end when it is held in memory (finish_job): true
 * then, with *e CZK_OK (or CZK_ERR_NO_MEMORY). */
static bool held_result(czk_service *s, uint64_t id, czk_service_result *out, czk_err *e) {
    pthread_mutex_lock(&s->mu);
    svc_job *job = find_job(s, id);
    if (!job || !job->held) {
        pthread_mutex_unlock(&s->mu);
        return false;
    }
    czk_journal_job jj;
    memset(&jj, 0, sizeof jj);
    jj.id = job->id;
    snprintf(jj.circuit_id, sizeof jj.circuit_id, "%s", job->circuit_id);
    czk_journal_end_info end = job->held_end;
    uint8_t *proof = end.proof_len ? malloc(end.proof_len) : NULL, *pub = end.public_len ? malloc(end.public_len) : NULL;
    *e = (end.proof_len && !proof) || (end.public_len && !pub) ? CZK_ERR_NO_MEMORY : CZK_OK;
    if (*e == CZK_OK) {
        if (proof) memcpy(proof, end.proof, end.proof_len);
        if (pub) memcpy(pub, end.public_inputs, end.public_len);
        end.proof = proof;
        end.public_inputs = pub;
        fill_result(out, &jj, &end);
        snprintf(out->job_id, sizeof out->job_id, "%s", job->name);
    } else {
        free(proof);
        free(pub);
    }
    pthread_mutex_unlock(&s->mu);
    return true;
}

czk_err czk_service_await(czk_service *s, const char *name, long timeout_ms, czk_service_result *out, char *msg,
                          size_t msglen) {
    memset(out, 0, sizeof *out);
    snprintf(out->job_id, sizeof out->job_id, "%s", name ? name : "");
    out->state = CZK_SERVICE_JOB_PENDING;
    if (!czk_svc_enter(s)) {
        set_msg(msg, msglen, "the service is closed");
        return CZK_ERR_SHUTDOWN;
    }
    uint64_t job_id = 0;
    czk_err e = resolve_job(s, name, &job_id, msg, msglen);
    if (e != CZK_OK) goto out;
    if (held_result(s, job_id, out, &e)) goto out;
    pthread_mutex_lock(&s->mu);
    svc_job *job = find_job(s, job_id);
    bool restoring = !job && s->restoring;
    if (restoring) {
        /* pending in the journal: an earlier run's job not re-queued yet
         * (one that had ended is answered from the journal at once) */
        pthread_mutex_unlock(&s->mu);
        czk_journal_job jj;
        restoring = czk_journal_get(s->journal, job_id, &jj) == CZK_OK && jj.state == CZK_JOURNAL_PENDING;
        pthread_mutex_lock(&s->mu);
        job = find_job(s, job_id);
    }
    if (!job && restoring) {
        /* wait for the restorer to list it (or to end it), within the
         * caller's time */
        struct timespec dl;
        clock_gettime(CLOCK_REALTIME, &dl);
        long ms = timeout_ms > 0 ? timeout_ms : 0;
        dl.tv_sec += ms / 1000;
        dl.tv_nsec += (ms % 1000) * 1000000L;
        if (dl.tv_nsec >= 1000000000L) dl.tv_sec++, dl.tv_nsec -= 1000000000L;
        double t0 = czk_svc_now_s();
        while (!(job = find_job(s, job_id)) && s->restoring && !s->closing && timeout_ms != 0) {
            if (timeout_ms < 0) pthread_cond_wait(&s->cv, &s->mu);
            else if (pthread_cond_timedwait(&s->cv, &s->mu, &dl) == ETIMEDOUT) break;
        }
        if (timeout_ms > 0) {
            long spent = (long)((czk_svc_now_s() - t0) * 1000.0);
            timeout_ms = spent < timeout_ms ? timeout_ms - spent : 0;
        }
    }
    uint64_t eid = job ? job->engine_id : 0;
    if (job) snprintf(out->circuit_id, sizeof out->circuit_id, "%s", job->circuit_id);
    pthread_mutex_unlock(&s->mu);
    if (job) {
        czk_job_result r;
        memset(&r, 0, sizeof r);
        e = czk_engine_await(s->engine, eid, timeout_ms, &r);
        if (e == CZK_ERR_TIMEOUT) {
            czk_job_result_free(&r);
            set_msg(msg, msglen, "job %s has not ended yet", out->job_id);
            goto out;
        }
        e = finish_job(s, job_id, e, &r, msg, msglen);
        czk_job_result_free(&r);
        if (e != CZK_OK || held_result(s, job_id, out, &e)) goto out;
    }
    czk_journal_job jj;
    czk_journal_end_info end;
    e = czk_journal_get_end(s->journal, job_id, &jj, &end);
    if (e == CZK_ERR_NOT_FOUND) {
        set_msg(msg, msglen, "no job %s (unknown, or its result expired)", out->job_id);
    } else if (e == CZK_ERR_BUSY) {
        /* in the journal, not yet in this run's table (being submitted) */
        e = CZK_ERR_TIMEOUT;
        set_msg(msg, msglen, "job %s has not ended yet", out->job_id);
    } else if (e == CZK_OK) {
        fill_result(out, &jj, &end);
    } else {
        set_msg(msg, msglen, "job %s: the journal could not be read", out->job_id);
    }
out:
    czk_svc_leave(s);
    return e;
}

czk_err czk_service_cancel(czk_service *s, const char *name, bool *was_running, char *msg, size_t msglen) {
    bool wr = false;
    if (was_running) *was_running = false;
    if (!czk_svc_enter(s)) {
        set_msg(msg, msglen, "the service is closed");
        return CZK_ERR_SHUTDOWN;
    }
    uint64_t job_id = 0;
    czk_err e = resolve_job(s, name, &job_id, msg, msglen);
    if (e != CZK_OK) goto out;
    pthread_mutex_lock(&s->mu);
    svc_job *job = find_job(s, job_id);
    uint64_t eid = job ? job->engine_id : 0;
    bool restoring = s->restoring, ended = !job || job->held;
    pthread_mutex_unlock(&s->mu);
    if (!job && restoring) {
        /* perhaps an earlier run's job the restorer has not re-queued yet:
         * journalled under submit_mu, where the restorer reads the row again
         * before it hands the job to the engine (and then ends it cancelled) */
        pthread_mutex_lock(&s->submit_mu);
        pthread_mutex_lock(&s->mu);
        job = find_job(s, job_id);
        eid = job ? job->engine_id : 0;
        ended = !job || job->held;
        pthread_mutex_unlock(&s->mu);
        czk_journal_job jj;
        if (!job && czk_journal_get(s->journal, job_id, &jj) == CZK_OK && jj.state == CZK_JOURNAL_PENDING) {
            e = czk_journal_mark_cancel(s->journal, job_id, msg, msglen);
            pthread_mutex_unlock(&s->submit_mu);
            if (e == CZK_OK)
                czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART, "cancel requested (not re-queued yet after a restart)");
            goto out;
        }
        pthread_mutex_unlock(&s->submit_mu);
    }
    if (ended) goto out; /* ended (or being submitted): nothing to cancel */
    if ((e = czk_journal_mark_cancel(s->journal, job_id, msg, msglen)) != CZK_OK) goto out;
    czk_job_result r;
    memset(&r, 0, sizeof r);
    if (czk_engine_await(s->engine, eid, 0, &r) == CZK_ERR_TIMEOUT) wr = r.status == CZK_JOB_RUNNING;
    czk_job_result_free(&r);
    czk_engine_cancel(s->engine, eid);
    czk_log(CZK_LOG_INFO, name, CZK_LOG_NO_PART, "cancel requested (%s)", wr ? "running" : "queued");
out:
    if (was_running) *was_running = wr;
    czk_svc_leave(s);
    return e;
}

