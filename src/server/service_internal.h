/* czk — what the files of src/server share beyond include/czk/service.h:
 * the service's state (service.c: jobs, open/close; srs.c: parameter
 * residency; status.c: snapshots) and a few helpers. */
#ifndef CZK_SERVER_SERVICE_INTERNAL_H
#define CZK_SERVER_SERVICE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/circuit.h"
#include "czk/err.h"
#include "czk/service.h"
#include "journal.h"

typedef struct svc_job {
    uint64_t id, engine_id;   /* the journal's row, the engine's job */
    char name[CZK_JOB_ID_MAX]; /* the id callers know it by (czk_journal_job_name) */
    char circuit_id[64];
    czk_priority prio;
    size_t n_partitions;
    uint64_t srs_load_ms;
    double accepted_s; /* monotonic */
    bool ending;       /* a thread is committing its end */
    /* ended, but its end could not be journalled (a full disk): the end is
     * kept here (proof and public inputs malloc'd), awaits are answered from
     * it, and the completer journals it once it can (service.c) */
    bool held;
    double held_s;     /* monotonic: since when */
    czk_journal_end_info held_end;
    struct svc_job *next;
} svc_job;

typedef struct srs_entry {
    char id[64];
    bool loaded, loading;
    uint64_t size_bytes, load_ms;
    uint64_t need_bytes; /* while loading: what its budget check admitted (0 before it) */
    double load_start_s; /* while loading: when it began (monotonic) */
    struct srs_entry *next;
} srs_entry;

struct czk_service {
    czk_service_config cfg;
    char *state_dir, *param_cache;
    czk_engine *engine;
    czk_journal *journal;
    pthread_mutex_t mu; /* everything below */
    pthread_cond_t cv;
    pthread_mutex_t submit_mu; /* orders submissions and evictions */
    svc_job *jobs;             /* unfinished jobs, in acceptance order */
    size_t n_jobs;
    srs_entry *srs;
    size_t n_held;             /* jobs whose end is held (svc_job.held) */
    double held_tried_s;       /* when the held ends were last tried */
    bool accepting, closing, closed;
    int users;
    pthread_t completer;
    bool completer_started;
    double opened_s;
    uint64_t last_purge_ms;
    char backend[32];
    /* the re-queueing of the earlier run's unfinished jobs (service.c) */
    czk_journal_job *restore; /* the jobs, in journal order (NULL when done) */
    size_t n_restore, restore_done;
    bool restoring;
    char restore_loading[64]; /* the circuit it is loading */
    double restore_start_s, restore_end_s;
    pthread_t restorer;
    bool restorer_started;
};

/* The input payload of the built-in circuits: 1 to 20 ASCII digits, a value
 * that fits in 64 bits. CZK_ERR_INVALID_ARGUMENT with a message otherwise. */
czk_err czk_service_parse_seed(const uint8_t *in, size_t len, uint64_t *seed, char *msg, size_t msglen);

/* Filecoin jobs (filecoin_jobs.c). The journal's payload of a Filecoin
 * job is the whole request (czk_svc_fil_frame makes it, czk_svc_fil_unframe
 * reads it back into a request that borrows the payload's bytes: free it
 * with czk_fil_request_free before the payload; CZK_ERR_FORMAT for another
 * payload). */
bool czk_svc_fil_is_payload(const uint8_t *in, size_t len);
czk_err czk_svc_fil_frame(const czk_fil_request *r, uint8_t **out, size_t *out_len);
czk_err czk_svc_fil_unframe(const uint8_t *in, size_t len, czk_fil_request *r);
/* Decodes and checks the request (czk_fil_request_prepare) and makes the
 * engine's input of it (*circuit_id: its circuit, e.g. "porep-32g"). Errors
 * as czk_fil_request_prepare's, with a message naming the field. */
czk_err czk_svc_fil_prepare(const czk_fil_request *r, czk_circuit_input *out, const char **circuit_id, char *msg,
                            size_t msglen);

/* A public call begins / ends: false once the service is closed (close
 * waits until every call has ended). */
bool czk_svc_enter(czk_service *s);
void czk_svc_leave(czk_service *s);
/* Waits until the earlier run's jobs are re-queued (czk_service_open);
 * false, with a message, when the service is closing or stops accepting
 * before then. */
bool czk_svc_wait_restored(czk_service *s, char *msg, size_t msglen);
double czk_svc_now_s(void); /* monotonic */
uint64_t czk_svc_ms_of(double seconds);
/* Under s->mu. */
srs_entry *czk_svc_find_srs(czk_service *s, const char *id);
/* Makes circuit_id resident (one loader at a time per circuit; others wait
 * for it). *load_ms: 0 when it already was. */
czk_err czk_svc_ensure_loaded(czk_service *s, const char *circuit_id, bool *already, uint64_t *load_ms, char *msg,
                              size_t msglen);

#endif
