/* czk — internal: the engine's shared state (engine module only).
 *
 * Locking: one engine mutex `mu` guards the circuit list, the job table, the
 * scheduler queues, the GPU and finalizer queues and every job field except
 * `abort` (atomic, read without the lock at stage boundaries) and the
 * partition timelines (written only by the thread holding the partition).
 * The budget has its own lock, taken after mu or without it, never the other
 * way round; blocking budget waits happen without mu. Flight counters are
 * atomics (counters.c). */
#ifndef CZK_ENGINE_INTERNAL_H
#define CZK_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "czk/engine.h"

/* ---- counters.c ---------------------------------------------------------------- */

typedef struct {
    atomic_llong now, high;
} eng_gauge;

struct czk_engine;
/* Adds delta to flight counter f (raising its high-water mark) and wakes
 * czk_engine_wait_flight callers, without a lost wake-up: the counter is
 * changed before the waiter count is read (both sequentially consistent),
 * and waiters count themselves before reading the counter. */
void eng_flight_add(struct czk_engine *e, czk_flight f, long long delta);
int64_t eng_now_ns(void);

/* ---- fault.c -------------------------------------------------------------------- */

typedef enum { FAULT_SYNTH = 0, FAULT_START, FAULT_FINISH, FAULT__COUNT } eng_fault_stage;

#define ENG_MAX_FAULTS 16
typedef struct {
    eng_fault_stage stage[ENG_MAX_FAULTS];
    uint64_t seed[ENG_MAX_FAULTS];
    int n;
} eng_faults;

/* Parses "stage:seed[,stage:seed...]" (stages synth, start, finish); an
 * empty or NULL string is no faults. */
czk_err eng_faults_parse(eng_faults *f, const char *s, char *msg, size_t msglen);
bool eng_fault_hit(const eng_faults *f, eng_fault_stage stage, uint64_t seed);

/* ---- circuits (registry.c) -------------------------------------------------------- */

typedef struct eng_circuit {
    czk_circuit c;
    czk_params params;
    czk_prover_key key;
    czk_prepared_vk pvk;
    size_t n_public;        /* inputs without ONE */
    size_t domain;          /* evaluation domain (power of two) */
    size_t est_bytes;       /* one partition's reservation */
    size_t est_after_start; /* upper bound kept from start's return to finish's end */
    bool device_abc;        /* the backend evaluates a, b, c from key.compact on its device */
    size_t resident_bytes;  /* parameters + R1CS + densities */
    czk_reservation resident;
    size_t users;           /* jobs not yet ended */
    struct eng_circuit *next;
} eng_circuit;

/* ---- jobs and partitions ---------------------------------------------------------- */

typedef struct eng_job {
    uint64_t id;
    char *request_id; /* malloc, or NULL */
    eng_circuit *circ; /* NULL once the job ended */
    char circuit_id[64];
    uint64_t seed;
    czk_circuit_input input;     /* data circuits: the instance (data NULL otherwise) */
    czk_reservation input_res;   /* input.bytes of the budget until the job ends */
    bool has_input_res;
    czk_priority prio;
    size_t n_parts;
    size_t next_part;   /* scheduler cursor: partitions taken so far */
    size_t inflight;    /* taken and not yet retired (a finishing job counts one until verified) */
    size_t done_parts;
    czk_job_status status;
    atomic_bool abort;  /* failed or cancelled: drop work at the next boundary */
    czk_err err;
    char msg[512];
    czk_proof *proofs;  /* n_parts */
    czk_fr *pub;        /* n_parts × circ->n_public */
    size_t n_public;
    czk_partition_timeline *tl; /* n_parts */
    bool verified;
    int64_t t_submit, t_first, t_end;
    uint64_t end_seq;
    double synth_s, gpu_s, finish_s;
    /* links */
    struct eng_job *q_next;         /* scheduler FIFO */
    bool in_sched;
    struct eng_job *id_next, *rq_next; /* hash chains */
    struct eng_job *f_prev, *f_next;   /* ended-jobs list (oldest first) */
    int awaiters;
    bool forgotten; /* removed from the table; freed by the last awaiter */
} eng_job;

/* One partition travelling through the stages. What it holds is in the
 * has_* flags, so dropping it at any point frees exactly that. */
typedef struct eng_part {
    eng_job *job;
    size_t index;
    czk_reservation res;
    czk_witness w;
    czk_fr *a, *b, *c;
    czk_fr_packed *a_packed, *b_packed, *c_packed; /* in place of a, b, c (czk_engine_config.pack_abc) */
    czk_fr_packed *aux_packed; /* the witness's aux values in place of w.aux (a packed_witness backend) */
    czk_backend_pending *pending;
    czk_proof proof;
    bool has_witness;  /* a witness buffer is alive (in w, or inside the pending handle) */
    bool has_abc, has_res, in_pw, in_gpu_q, in_fin;
    czk_partition_timeline tl;
    double synth_s, gpu_s, finish_s;
    struct eng_part *next;
} eng_part;

typedef struct {
    eng_part *head, *tail;
    size_t len, cap;
} eng_queue;

#define ENG_HASH 1024

struct czk_engine {
    czk_engine_config cfg;
    czk_reservation fixed_res; /* the backend's host_fixed_bytes, resident for the engine's life */
    bool has_fixed_res;
    pthread_mutex_t mu;
    pthread_cond_t cv_work;      /* the scheduler has a partition, or stopping */
    pthread_cond_t cv_gpu_item, cv_gpu_space;
    pthread_cond_t cv_fin_item, cv_fin_space;
    pthread_cond_t cv_done;      /* a job ended */
    czk_budget *budget;
    czk_pool *pool;
    czk_backend *backend;
    bool own_backend;
    eng_faults faults;

    pthread_mutex_t reg_mu;      /* serializes registrations (taken before mu) */
    eng_circuit *circuits;
    size_t resident_total;

    eng_job *sched_head[4], *sched_tail[4]; /* by priority */
    size_t sched_jobs, sched_parts;
    eng_queue gpu_q, fin_q;
    size_t door_waiting[4]; /* synthesized partitions waiting to enter gpu_q, by priority */

    eng_job *by_id[ENG_HASH], *by_rq[ENG_HASH];
    eng_job *ended_head, *ended_tail;
    size_t n_ended, n_active;
    uint64_t next_id;

    bool accepting, stopping, shut_down;
    bool hold_prune; /* shutdown walks the table: nothing is freed meanwhile */
    pthread_t *threads;
    int n_threads;

    eng_gauge flight[CZK_FLIGHT__COUNT];
    pthread_mutex_t gauge_mu;
    pthread_cond_t cv_gauge;
    atomic_int gauge_waiters;
    uint64_t end_seq;
    atomic_llong busy_ns[CZK_STAGE__COUNT];
    uint64_t submitted, done, failed, cancelled, proved;
    int64_t t_start;
};

/* scheduler.c (under mu) */
void eng_sched_push(czk_engine *e, eng_job *j);
void eng_sched_remove(czk_engine *e, eng_job *j);
/* The most urgent job's next partition of priority min_prio or above
 * (taken: cursor and inflight advanced), or NULL when nothing is queued. */
eng_job *eng_sched_take(czk_engine *e, czk_priority min_prio, size_t *index);

/* job.c (under mu unless said otherwise) */
eng_job *eng_job_find(czk_engine *e, uint64_t id);
eng_job *eng_job_find_request(czk_engine *e, const char *request_id);
void eng_job_insert(czk_engine *e, eng_job *j);
/* Fails (err, msg) or cancels the job once: it leaves the scheduler, its
 * queued partitions are unlinked into *dropped for the caller to free
 * without mu (eng_part_drop), and it ends when its last partition retires. */
void eng_job_abort(czk_engine *e, eng_job *j, czk_err err, const char *msg, eng_part **dropped);
/* A partition left the pipeline (proved or dropped): inflight--, the job
 * ends when nothing of it is left. */
void eng_job_retire(czk_engine *e, eng_job *j);
/* Ends the job (DONE, FAILED or CANCELLED by its err). */
void eng_job_end(czk_engine *e, eng_job *j);
/* Forgets ended jobs beyond the retention limits. */
void eng_jobs_prune(czk_engine *e);
void eng_job_free(eng_job *j);
czk_err eng_job_copy_result(const eng_job *j, czk_job_result *out);

/* stages.c */
/* A partition worker (any job) and a critical worker (CRITICAL jobs only). */
void *eng_partition_worker(void *arg);
void *eng_critical_worker(void *arg);
void *eng_gpu_worker(void *arg);
void *eng_finalizer(void *arg);
/* Frees whatever p holds, gives its bytes back, retires it from its job.
 * Takes mu itself: call without it. */
void eng_part_drop(czk_engine *e, eng_part *p);
/* Drops a whole list linked by next (without mu). */
void eng_parts_drop(czk_engine *e, eng_part *list);

/* registry.c (under mu) */
eng_circuit *eng_circuit_find(czk_engine *e, const char *id);
void eng_circuit_free(czk_engine *e, eng_circuit *c);

#define ENG_MSG(msg, msglen, ...)                                  \
    do {                                                           \
        if ((msg) && (msglen)) snprintf((msg), (msglen), __VA_ARGS__); \
    } while (0)

#endif
