/* czk — the proving engine: jobs of multi-partition circuits go through a
 * scheduler (priority, FIFO within), partition workers (witness-only
 * synthesis and a, b, c), a bounded GPU queue, GPU workers (backend start)
 * and finalizers (backend finish, assembly, optional self-verification),
 * with every byte of a partition reserved in one memory budget before it is
 * allocated.
 *
 * Guarantees:
 *  - Bounded flight: a partition worker holds its partition (and its
 *    reservation) until the GPU queue has accepted it, so at most
 *    partition_workers + gpu_queue_capacity + gpu_workers a/b/c sets are
 *    alive at once.
 *  - Budget: a partition's working memory (czk_engine_partition_estimate) is
 *    reserved before the witness is synthesized; a/b/c's share is given back
 *    right after the backend's start (which freed them) returns; the rest
 *    after finish. Parameters and R1CS of registered circuits are charged for
 *    as long as they are registered. Bytes go back to the budget only after
 *    the memory was freed.
 *  - Jobs are independent: a failed or cancelled partition fails only its
 *    job; the job's other partitions are dropped at their next stage
 *    boundary and everything the job held is released before await reports
 *    the job finished.
 *  - Results are kept for result_keep_ms after the job ended and at most
 *    result_keep_count of them (oldest forgotten first); then
 *    CZK_ERR_NOT_FOUND.
 *  - Every function is thread-safe and returns an error (with a message
 *    where it takes a buffer) rather than aborting on bad input. */
#ifndef CZK_ENGINE_H
#define CZK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/backend.h"
#include "czk/budget.h"
#include "czk/circuit.h"
#include "czk/err.h"
#include "czk/groth16.h"
#include "czk/instance.h"
#include "czk/mem.h"

typedef struct czk_engine czk_engine;

/* The stage boundaries a partition passes, for live logs and tools. */
typedef enum {
    CZK_PART_SYNTH_START = 0, /* a partition worker starts its witness */
    CZK_PART_SYNTH_END,       /* witness and a, b, c done (seconds: their time) */
    CZK_PART_GPU_START,       /* a GPU worker calls the backend's start */
    CZK_PART_GPU_END,         /* start returned successfully (seconds: its time) */
    CZK_PART_PROVED,          /* finish returned a proof (seconds: finish's time) */
    CZK_PART_FAILED           /* the partition failed at some stage (seconds: 0) */
} czk_partition_event;

const char *czk_partition_event_name(czk_partition_event ev);

/* Called from the engine's threads with no engine lock held; it must be
 * quick and must not call back into the engine. request_id is the job's
 * (NULL when it was submitted without one). */
typedef void (*czk_partition_event_fn)(void *ctx, uint64_t job_id, const char *request_id, size_t partition,
                                       czk_partition_event ev, double seconds);

typedef struct {
    size_t budget_bytes;        /* 0: auto (czk_budget_auto_bytes minus budget_margin_bytes) */
    size_t budget_margin_bytes; /* auto only; 0: 10% of the auto size */
    size_t outside_fixed_bytes; /* host memory held outside the engine for its whole life, reserved
                                   from the budget at creation and counted as resident (czkd: the
                                   gRPC server's receive buffers, daemon.receive_buffer); 0: none */
    int partition_workers;      /* pw, >= 1 (default 2) */
    int gpu_workers;            /* gw, >= 1 (default 2) */
    int finalizers;             /* ft, >= 1 (default 1) */
    int gpu_queue_capacity;     /* >= 1; 0: one per GPU worker. The queue is ordered by priority
                                   (FIFO within one), and synthesized partitions waiting to enter it
                                   go in by priority */
    int critical_workers;       /* partition workers beside pw that synthesize only CRITICAL jobs
                                   (WinningPoSt), so that one never waits for a pw busy with PoRep;
                                   as many places beyond gpu_queue_capacity are kept for CRITICAL
                                   partitions, ahead of the others. 0 ... 64 (default 0; czkd's 1) */
    int threads;                /* the engine's czk_pool (SpMV, NTT, MSM); <= 0: one per CPU */
    bool verify_results;        /* czk_verify every partition proof before a job is done */
    bool pack_abc;              /* keep each partition's a, b, c packed (czk/fr_pack.h) from their
                                   evaluation to the backend's start; where the backend takes
                                   them packed (czk_backend_ops.packed_abc), the partition's
                                   reservation shrinks by the bytes that gave back */
    size_t result_keep_count;   /* finished results kept at most (0: 1024) */
    long result_keep_ms;        /* ... and for at most this long after they ended (0: 10 minutes) */
    czk_backend *backend;       /* NULL: the CPU backend on the engine's pool. Borrowed: the
                                   caller closes it after czk_engine_destroy */
    czk_partition_event_fn on_event; /* NULL: none */
    void *event_ctx;
    const char *faults;         /* fault injection for tests, e.g. "synth:2,start:5,finish:7"
                                   (fail that stage of every partition of jobs with that seed);
                                   NULL: the environment variable CZK_FAULT, if set */
} czk_engine_config;

/* The defaults above (budget auto). */
void czk_engine_config_default(czk_engine_config *cfg);

/* Starts the engine's threads. CZK_ERR_INVALID_ARGUMENT (with a message) for
 * a bad config or a fault string that does not parse. */
czk_err czk_engine_create(czk_engine **out, const czk_engine_config *cfg, char *msg, size_t msglen);

typedef enum {
    CZK_SHUTDOWN_DRAIN = 0, /* finish every job already submitted */
    CZK_SHUTDOWN_ABANDON    /* cancel every unfinished job (CZK_ERR_SHUTDOWN) */
} czk_shutdown_mode;

/* Refuses new submissions (CZK_ERR_SHUTDOWN), then drains or abandons the
 * jobs, waits until nothing is in flight and joins every thread. Results of
 * finished jobs stay readable until destroy. A second call does nothing. */
void czk_engine_shutdown(czk_engine *e, czk_shutdown_mode mode);
/* Shuts down (abandoning) if still running, evicts every circuit and frees
 * everything. NULL is ignored. */
void czk_engine_destroy(czk_engine *e);

/* ---- circuits ---------------------------------------------------------------- */

/* Registers circuit c (copied; its id names it, its `partitions` is the
 * number of proofs per job) with its parameters and prover key. On success
 * the engine owns *params and *key (their contents are moved out and the
 * caller's structs are zeroed); on failure they are untouched and still the
 * caller's. The parameters and R1CS are charged to the budget while
 * registered. Fails with CZK_ERR_INVALID_ARGUMENT when the id is taken,
 * CZK_ERR_MISMATCH when params and key belong to different circuits, and
 * CZK_ERR_NO_MEMORY when the resident charges would not leave room for one
 * partition of every circuit that unfinished jobs use (so that no accepted
 * job can be stranded). Whether one partition of c fits is checked at
 * submit. */
czk_err czk_engine_register_circuit(czk_engine *e, const czk_circuit *c, czk_params *params, czk_prover_key *key,
                                    char *msg, size_t msglen);
/* Frees a circuit and gives its charge back. CZK_ERR_BUSY while a job that
 * is not finished uses it; CZK_ERR_NOT_FOUND for an unknown id. */
czk_err czk_engine_evict_circuit(czk_engine *e, const char *circuit_id, char *msg, size_t msglen);

/* The bytes one partition of a registered circuit reserves (see
 * src/engine/registry.c for the formula); 0 when unknown. */
size_t czk_engine_partition_estimate(czk_engine *e, const char *circuit_id);

/* ---- jobs -------------------------------------------------------------------- */

typedef enum {
    CZK_JOB_QUEUED = 0, /* no partition started yet */
    CZK_JOB_RUNNING,
    CZK_JOB_DONE,       /* proved (and verified when configured) */
    CZK_JOB_FAILED,
    CZK_JOB_CANCELLED
} czk_job_status;

const char *czk_job_status_name(czk_job_status s);

/* Submits a job: every partition of instance `seed` of a registered circuit.
 * A request_id (NULL: none) names the request: submitting the same id again
 * while its job is known returns that job (*job_id) and does no work twice
 * (CZK_ERR_MISMATCH when the circuit or seed differ). Refused at once, with a
 * message: an unregistered circuit (CZK_ERR_NOT_FOUND), a partition whose
 * estimate exceeds the budget left after the resident charges
 * (CZK_ERR_PRECONDITION naming the budget and what one partition needs: it
 * could never run; the budget is configured too small), an engine shutting down
 * (CZK_ERR_SHUTDOWN), a priority out of range (CZK_ERR_INVALID_ARGUMENT). */
czk_err czk_engine_submit(czk_engine *e, const char *request_id, const char *circuit_id, uint64_t seed,
                          czk_priority prio, uint64_t *job_id, char *msg, size_t msglen);
/* The same for a circuit whose instance is data (czk_circuit.synthesize_input):
 * the engine owns *input from this call on, whatever it returns (see
 * czk_circuit_input), and holds input->bytes of the budget until the job has
 * ended; CZK_ERR_BUSY (with a message) when the budget has no room for them
 * now, CZK_ERR_INVALID_ARGUMENT when the circuit takes no input. A
 * request_id names one job: the engine does not compare inputs. */
czk_err czk_engine_submit_input(czk_engine *e, const char *request_id, const char *circuit_id,
                                const czk_circuit_input *input, czk_priority prio, uint64_t *job_id, char *msg,
                                size_t msglen);

/* One partition's timeline, seconds after the job was submitted (0 for a
 * point it never reached). */
typedef struct {
    double synth_start, synth_end, queued, gpu_start, gpu_end, finalize_end;
} czk_partition_timeline;

typedef struct {
    uint64_t job_id;
    czk_job_status status;
    czk_err err;         /* CZK_OK for a done job; otherwise why it failed or was cancelled */
    char message[512];   /* the reason, for a failed or cancelled job */
    char circuit_id[64];
    uint64_t seed;
    czk_priority priority;
    size_t n_partitions;
    uint8_t *proofs;     /* done: n_partitions × CZK_PROOF_BYTES, partition order (malloc) */
    czk_fr *public_inputs; /* done: n_partitions rows of n_public (without ONE) (malloc) */
    size_t n_public;
    bool verified;       /* each partition passed czk_verify */
    czk_partition_timeline *timeline; /* n_partitions entries (malloc) */
    double queue_wait_s; /* submit → first partition taken by a partition worker */
    double synthesis_s;  /* summed over partitions: synthesis + a/b/c */
    double gpu_s;        /* summed: backend start */
    double finalize_s;   /* summed: backend finish */
    double total_s;      /* submit → end */
    uint64_t end_seq;    /* the order in which jobs ended: 1, 2, … (for ordering checks) */
} czk_job_result;

/* Frees what a result holds and zeroes it; a zeroed result is fine. */
void czk_job_result_free(czk_job_result *r);

/* Waits until the job has ended, at most timeout_ms (< 0: no limit), and
 * fills *out (may be NULL) with a copy of its result. Returns the job's
 * outcome: CZK_OK for a proved job, its error for a failed one,
 * CZK_ERR_CANCELLED / CZK_ERR_SHUTDOWN for a cancelled one; CZK_ERR_TIMEOUT
 * when it has not ended in time (*out then carries only job_id and status);
 * CZK_ERR_NOT_FOUND for an unknown or forgotten job. */
czk_err czk_engine_await(czk_engine *e, uint64_t job_id, long timeout_ms, czk_job_result *out);

/* Cancels a job at whatever stage its partitions are: queued partitions are
 * dropped, partitions in the GPU or finalizer queues freed at once, work in
 * progress abandoned at its next stage boundary; await returns
 * CZK_ERR_CANCELLED once all of it was released. CZK_OK also for a job that
 * already ended (nothing changes); CZK_ERR_NOT_FOUND for an unknown one. */
czk_err czk_engine_cancel(czk_engine *e, uint64_t job_id);

/* ---- statistics ---------------------------------------------------------------- */

typedef enum {
    CZK_FLIGHT_RESERVING = 0,  /* partitions taken by a partition worker, waiting for budget */
    CZK_FLIGHT_SYNTHESIZING,   /* partitions held by partition workers (reserved .. pushed) */
    CZK_FLIGHT_WITNESS,        /* witness buffers alive */
    CZK_FLIGHT_ABC,            /* a/b/c sets alive */
    CZK_FLIGHT_GPU_QUEUED,     /* partitions in the GPU queue */
    CZK_FLIGHT_GPU,            /* partitions inside backend start */
    CZK_FLIGHT_PENDING,        /* pending handles alive */
    CZK_FLIGHT_FINALIZING,     /* partitions queued for or inside backend finish */
    CZK_FLIGHT_RESERVATIONS,   /* partition reservations held */
    CZK_FLIGHT__COUNT
} czk_flight;

const char *czk_flight_name(czk_flight f);

typedef enum {
    CZK_STAGE_SYNTH = 0, /* witness + a/b/c */
    CZK_STAGE_GPU,       /* backend start */
    CZK_STAGE_FINISH,    /* backend finish */
    CZK_STAGE_VERIFY,
    CZK_STAGE__COUNT
} czk_stage;

const char *czk_stage_name(czk_stage s);

typedef struct {
    int64_t now[CZK_FLIGHT__COUNT];
    int64_t high_water[CZK_FLIGHT__COUNT];
    size_t mem_in_use[CZK_MEM__COUNT];     /* czk_mem gauges (process-wide) */
    size_t mem_high_water[CZK_MEM__COUNT];
    size_t budget_total, budget_reserved, budget_high_water, budget_waiters;
    size_t budget_resident;                /* parameters + R1CS of registered circuits */
    double busy_s[CZK_STAGE__COUNT];       /* summed over the stage's threads */
    double uptime_s;
    size_t queued_jobs;                    /* jobs with partitions not yet taken */
    size_t queued_partitions;              /* partitions not yet taken */
    size_t gpu_queue_len, finalize_queue_len;
    size_t jobs_active, results_kept, circuits;
    uint64_t jobs_submitted, jobs_done, jobs_failed, jobs_cancelled, partitions_proved;
    int partition_workers, gpu_workers, finalizers, gpu_queue_capacity;
} czk_engine_stats;

void czk_engine_stats_get(czk_engine *e, czk_engine_stats *out);
/* Waits until flight counter f reads at least `value` (timeout_ms < 0: no
 * limit): for tests and tools that need a partition held at a stage.
 * CZK_ERR_TIMEOUT when it did not happen in time. */
czk_err czk_engine_wait_flight(czk_engine *e, czk_flight f, int64_t value, long timeout_ms);
/* For tests: czk_budget_probe on the engine's budget (see czk/budget.h). It
 * may be called from any thread, also from on_event and from inside a
 * backend's start or finish, and is how tests check that the bytes really
 * allocated never exceed the bytes reserved for them
 * (tests/engine/test_engine_budget.c). */
void czk_engine_probe_budget(czk_engine *e, czk_budget_probe_fn fn, void *ctx);
/* The engine's budget, for charging memory held outside the engine (the
 * gRPC server's request messages); valid until czk_engine_destroy. */
czk_budget *czk_engine_budget(czk_engine *e);
/* Resets the high-water marks of the flight counters (and the budget's is
 * left alone): for measuring one phase. */
void czk_engine_stats_reset_high_water(czk_engine *e);

#endif
