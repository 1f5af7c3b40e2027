/* czk — the proving service: what czkd serves, independent of the wire.
 * It owns an engine (include/czk/engine.h), the durable job journal and the
 * SRS residency of circuits, and is what the gRPC server (cuzk.v1) and the
 * HTTP status server call. Every function is thread-safe.
 *
 * Durability: czk_service_submit returns only after the job is durable —
 * its input payload written to the spool directory (temporary file, fsync,
 * rename, fsync of the directory) and its row committed to the SQLite
 * journal (WAL mode). On open, unfinished jobs of an earlier run are
 * re-queued (in their original order and priority) and finished results are
 * retrievable until their retention expires. A job ends exactly once: its
 * end (proof bytes, public inputs, or the error) is committed to the journal
 * before await reports it — unless the journal cannot take it (a full state
 * folder): then the end is kept in memory and await reports it at once (a
 * WinningPoSt does not wait for disk space), and it is journalled as soon as
 * a retry, once a second, succeeds. Closed before that, the job stays
 * pending in the journal and is proved again on the next open.
 *
 * Job ids are strings (cuzk's): a job submitted with a request id has that
 * id; one submitted without gets "czk-<n>", n from the journal, never reused
 * across restarts of the same state directory. Request ids of that form are
 * refused, so the two never collide. Ids are valid UTF-8 of 1 to
 * CZK_JOB_ID_MAX - 1 bytes without NUL; any string is a well-formed id to
 * await or cancel (an unknown one is CZK_ERR_NOT_FOUND). */
#ifndef CZK_SERVICE_H
#define CZK_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/budget.h"
#include "czk/engine.h"
#include "czk/filecoin_request.h"
#include "czk/err.h"

typedef struct czk_service czk_service;

#define CZK_JOB_ID_MAX 256 /* job ids (request ids) are shorter than this */

typedef struct {
    const char *state_dir;   /* journal.sqlite and spool/ (created when missing) */
    const char *param_cache; /* where <circuit id>.params files are found (and created for
                                built-in circuits when absent, if generate_dev_params) */
    czk_engine_config engine; /* budget, workers, threads, backend (borrowed) */
    size_t queue_limit;       /* unfinished jobs at most; more: CZK_ERR_BUSY (0: 1024) */
    size_t max_input_bytes;   /* largest accepted input payload (0: 256 MiB) */
    long result_keep_ms;      /* finished results retrievable this long (0: 24 h) */
    double journal_max_disk_share;   /* the journal's share of its bytes and the state folder's free ones
                                        (0: 0.5; czk_journal_set_disk_limit) */
    uint64_t journal_max_disk_bytes; /* an absolute cap on the journal's bytes (0: none) */
    /* Parameters (srs.c). generate_dev_params: a built-in circuit (never a
     * Filecoin one) whose <id>.params is missing gets development
     * parameters, made and saved in param_cache (NOT a trusted setup);
     * false (the default): CZK_ERR_PRECONDITION naming the file and how to
     * make it. on_load, for tests: called with the circuit's id from the
     * loading thread once a load has passed the budget check, before
     * anything is read or made (it may block, to hold the load). */
    bool generate_dev_params;
    void (*on_load)(void *ctx, const char *circuit_id);
    void *on_load_ctx;
} czk_service_config;

void czk_service_config_default(czk_service_config *cfg);

/* Opens (creating when missing) the state directory, replays the journal and
 * starts the engine. CZK_ERR_IO with a message for a state directory that
 * cannot be used, CZK_ERR_FORMAT for a journal of another kind.
 *
 * The unfinished jobs of an earlier run are re-queued by a thread of the
 * service, after open has returned (their parameters may take minutes to
 * load): meanwhile status says so (czk_service_status.startup), await and
 * cancel work on every job, and submit, preload and evict wait until the
 * last of those jobs is back in the queue (or has failed to come back), so
 * that they keep their order ahead of new work. */
czk_err czk_service_open(czk_service **out, const czk_service_config *cfg, char *msg, size_t msglen);

/* Stops accepting (CZK_ERR_SHUTDOWN), lets running partitions finish or
 * leaves unfinished jobs in the journal to be re-queued on the next open,
 * joins every thread and frees everything. NULL is ignored. */
void czk_service_close(czk_service *s);

/* The engine's memory budget (czk_engine_budget), for the bytes a server
 * holds for the service: the gRPC server charges each request message to it
 * while the message is handled. Valid until czk_service_close. */
czk_budget *czk_service_budget(czk_service *s);
/* The first half of close: refuse new submissions from now on. */
void czk_service_stop_accepting(czk_service *s);


typedef struct {
    const char *request_id;  /* idempotency key; NULL or "" for none */
    const char *circuit_id;  /* a circuit id known to czk_circuit_find (NULL for a Filecoin proof:
                                the registered proof names it) */
    const uint8_t *input;    /* the circuit's input payload (demo, synthetic-K, gadget-*: the ASCII
                                decimal seed); unused for a Filecoin proof */
    size_t input_len;
    czk_priority priority;
    czk_fil_request fil;     /* a Filecoin proof as Curio asks for it (kind NONE for czk's circuits);
                                submit reads it and keeps nothing of it */
} czk_service_request;

/* Submits a job; job_id receives its id (the request id, or a generated
 * one). The same request_id as an earlier job: while that job is unfinished,
 * or ended done, with the same circuit and input, returns it (no new work);
 * while it is unfinished with other content, CZK_ERR_MISMATCH; once it ended
 * (done with other content, failed or cancelled) the new job replaces it
 * under the same id (a retry). Errors (message in msg):
 * CZK_ERR_INVALID_ARGUMENT for an unknown circuit, a malformed input or
 * request id (too long, not UTF-8, of the generated form), CZK_ERR_BUSY at
 * queue_limit, CZK_ERR_SHUTDOWN once stopping, CZK_ERR_NO_SPACE when the state
 * folder is full or the journal at its disk limit, CZK_ERR_IO when the job
 * could not be made durable otherwise; the circuit's parameters as
 * czk_service_preload. *queue_position: unfinished jobs ahead of this one
 * (0 = next). */
czk_err czk_service_submit(czk_service *s, const czk_service_request *req, char job_id[CZK_JOB_ID_MAX],
                           uint32_t *queue_position, char *msg, size_t msglen);

typedef enum {
    CZK_SERVICE_JOB_PENDING = 0, /* queued or running */
    CZK_SERVICE_JOB_DONE,
    CZK_SERVICE_JOB_FAILED,
    CZK_SERVICE_JOB_CANCELLED
} czk_service_job_state;

typedef struct {
    char job_id[CZK_JOB_ID_MAX];
    czk_service_job_state state;
    czk_err err;              /* why it failed or was cancelled */
    char message[512];
    char circuit_id[64];
    uint8_t *proof;           /* done: n_partitions × CZK_PROOF_BYTES (malloc) */
    size_t proof_len;
    uint8_t *public_inputs;   /* done: n_public × 32 bytes, little-endian canonical Fr,
                                 partition after partition, ONE excluded (malloc) */
    size_t n_public;          /* 32-byte values in public_inputs, all partitions together
                                 (n_partitions × the circuit's inputs without ONE) */
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_ms, total_ms;
    size_t n_partitions;      /* done: proofs in proof (proof_len / CZK_PROOF_BYTES) */
} czk_service_result;

void czk_service_result_free(czk_service_result *r);

/* Waits at most timeout_ms (< 0: no limit) for the job to end and fills out.
 * Returns CZK_OK when it ended (whatever its state: see out->state),
 * CZK_ERR_TIMEOUT when it has not (out->state is PENDING), CZK_ERR_NOT_FOUND
 * for an unknown or expired id, CZK_ERR_SHUTDOWN when the service is closing
 * before the job ended (it will be re-queued on the next open). */
czk_err czk_service_await(czk_service *s, const char *job_id, long timeout_ms, czk_service_result *out, char *msg,
                          size_t msglen);

/* Cancels a job (see czk_engine_cancel); the cancellation is journalled.
 * *was_running: it had started (a partition taken). CZK_ERR_NOT_FOUND for an
 * unknown id; CZK_OK and nothing changes for a job that already ended. */
czk_err czk_service_cancel(czk_service *s, const char *job_id, bool *was_running, char *msg, size_t msglen);

/* Loads a circuit's parameters from param_cache (and records its R1CS) and
 * registers it with the engine. *already_loaded when it was resident.
 * Before anything is read or made, what the load will hold in host memory
 * (the parameter file's points, the R1CS file, or setup's buffers for
 * development parameters) is checked against the budget:
 * CZK_ERR_PRECONDITION when the budget could never hold it (beside the
 * backend's fixed memory), CZK_ERR_NO_MEMORY when it cannot now (resident
 * circuits, other loads, a partition of the unfinished jobs), each message
 * naming the budget and the need. CZK_ERR_PRECONDITION too for a missing
 * parameter file that is not made here (a Filecoin circuit's, or any
 * without generate_dev_params), naming the file and how to make it. */
czk_err czk_service_preload(czk_service *s, const char *circuit_id, bool *already_loaded, uint64_t *load_ms,
                            char *msg, size_t msglen);
/* Evicts a resident circuit. CZK_ERR_BUSY while an unfinished job uses it;
 * *was_loaded false (and CZK_OK) when it was not resident. */
czk_err czk_service_evict(czk_service *s, const char *circuit_id, bool *was_loaded, uint64_t *freed_bytes,
                          char *msg, size_t msglen);

/* A snapshot for GetStatus, /status and /metrics. */
typedef struct {
    char circuit_id[64];
    uint64_t size_bytes;
    uint32_t ref_count; /* unfinished jobs using it */
} czk_service_srs;

/* An unfinished job, for the status page. */
typedef struct {
    char job_id[CZK_JOB_ID_MAX];
    char circuit_id[64];
    czk_priority priority;
    czk_job_status status; /* CZK_JOB_QUEUED or CZK_JOB_RUNNING */
    size_t n_partitions;
    double age_s;          /* since it was accepted (by this run, for a re-queued job) */
} czk_service_job_info;

/* The CUDA backend's own view (present only when the engine's backend is
 * the CUDA one): its device, start's stages summed over partitions
 * (czk_backend_cuda_timings) and what it holds on the device. */
typedef struct {
    bool present;
    czk_backend_cuda_device dev; /* ordinal, VRAM total and free */
    char device[160];
    czk_backend_cuda_timings t;
    size_t device_bytes;
} czk_service_gpu;

/* The re-queueing of an earlier run's unfinished jobs (czk_service_open). */
typedef struct {
    bool restoring;          /* not finished yet: submit, preload and evict wait for it */
    size_t jobs, requeued;   /* the jobs it found, those it has dealt with */
    char loading[64];        /* the circuit whose parameters it is loading ("" for none) */
    double seconds;          /* since it began, or how long it took */
} czk_service_startup;

/* A circuit whose parameters are being loaded (by a preload, a submit or the
 * re-queueing). */
typedef struct {
    char circuit_id[64];
    uint64_t need_bytes; /* what the budget check counted for it */
    double seconds;      /* since the load began */
} czk_service_loading;

typedef struct {
    czk_engine_stats engine;
    czk_service_gpu gpu;
    czk_service_srs *srs; /* malloc, n_srs entries */
    size_t n_srs;
    czk_service_startup startup;
    czk_service_loading *loading; /* malloc, n_loading entries */
    size_t n_loading;
    uint64_t jobs_completed, jobs_failed, jobs_cancelled; /* totals over the journal's life */
    uint64_t jobs_pending;
    double uptime_s;
    char backend[32];
    czk_service_job_info *jobs; /* malloc, n_jobs entries: the unfinished jobs, oldest first */
    size_t n_jobs;
    size_t queue_limit;
} czk_service_status;

czk_err czk_service_status_get(czk_service *s, czk_service_status *out);
void czk_service_status_free(czk_service_status *st);

/* The status as JSON (GET /status) and as Prometheus text (GET /metrics,
 * GetMetrics); malloc'd, NULL on allocation failure. */
char *czk_service_status_json(czk_service *s);
char *czk_service_metrics_text(czk_service *s);
/* The same texts of a snapshot (the two above: czk_service_status_get, then
 * these). */
char *czk_service_status_render_json(const czk_service_status *st);
char *czk_service_status_render_metrics(const czk_service_status *st);

#endif
