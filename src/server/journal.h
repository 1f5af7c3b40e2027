/* czk — the job journal (private to src/server): every accepted job and its
 * end, durable in <state_dir>.
 *
 *   <state_dir>/journal.sqlite   one row per job (SQLite, WAL mode,
 *                                synchronous=FULL: a commit is on disk when
 *                                sqlite3_step returns, so a job reported
 *                                accepted survives power loss too, not only
 *                                a crash of the process, which WAL with
 *                                NORMAL would already survive)
 *   <state_dir>/spool/<id>.in    the job's input payload
 *
 * Adding a job writes the payload to spool/<id>.in.tmp, fsyncs it, renames
 * it to <id>.in and fsyncs the directory, all inside the transaction that
 * inserts the row; the row's commit is the moment the job exists. A crash
 * before the commit leaves at most a spool file without a row, which the
 * next open deletes. Ids come from an AUTOINCREMENT key: never reused, even
 * after rows were purged.
 *
 * Names. A job is known to callers by its name: its request id, or, for a
 * job submitted without one, the generated name "czk-<id>" (the row keeps
 * request_id NULL, so journals written before names existed read the same).
 * Request ids of that form are refused by czk_journal_add, so a generated
 * name never collides with a caller's. A request id names at most one row:
 * adding a job under the request id of an ended job replaces that row (the
 * caller retries, or reuses its id for new content); under the request id of
 * a pending job the add is refused.
 *
 * A job ends exactly once: czk_journal_end changes a row from pending to its
 * end in one statement guarded by the pending state, and says whether this
 * call was the one that ended it. Its spool file is deleted after the end is
 * committed. Totals of ended jobs are kept apart from the rows, so they
 * survive the purge of expired rows.
 *
 * Every function is thread-safe (one connection behind a mutex). */
#ifndef CZK_SERVER_JOURNAL_H
#define CZK_SERVER_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"

typedef struct czk_journal czk_journal;

typedef enum {
    CZK_JOURNAL_PENDING = 0, /* accepted, not ended */
    CZK_JOURNAL_DONE,
    CZK_JOURNAL_FAILED,
    CZK_JOURNAL_CANCELLED
} czk_journal_state;

#define CZK_JOURNAL_REQUEST_MAX 256 /* request ids (and names) are shorter than this */
#define CZK_JOURNAL_GENERATED_PREFIX "czk-"

typedef struct {
    uint64_t id;
    char request_id[CZK_JOURNAL_REQUEST_MAX]; /* "" for none */
    char circuit_id[64];
    int priority;
    size_t input_len;
    uint8_t input_sha256[32];
    uint64_t submitted_ms;    /* wall clock, ms since the epoch */
    bool cancel_requested;    /* a cancel was accepted; the end may not be committed yet */
    czk_journal_state state;
} czk_journal_job;

/* How a job ended. */
typedef struct {
    czk_journal_state state; /* DONE, FAILED or CANCELLED */
    int err;                 /* a czk_err */
    char message[512];
    const uint8_t *proof;    /* borrowed when writing; malloc'd when read */
    size_t proof_len;
    const uint8_t *public_inputs;
    size_t public_len;
    uint64_t n_partitions;
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_ms, total_ms;
    uint64_t ended_ms;       /* wall clock; filled by czk_journal_end */
} czk_journal_end_info;

/* Opens (creating when missing) state_dir, its spool directory and the
 * journal; deletes spool files that belong to no pending row.
 * CZK_ERR_NO_SPACE when its folder is full, CZK_ERR_IO for a directory or
 * database that cannot be used otherwise,
 * CZK_ERR_FORMAT for a file that is not a czk journal. */
czk_err czk_journal_open(czk_journal **out, const char *state_dir, char *msg, size_t msglen);
void czk_journal_close(czk_journal *j);

/* The journal's disk. Before an add, the journal measures what it holds in
 * the state folder (journal.sqlite, its -wal and -shm files, the spool files
 * of pending jobs) and the folder's free space (statvfs, what this process
 * may use), and refuses the job (CZK_ERR_NO_SPACE, the message naming the
 * folder and the limit) when the folder has no room for its input and a
 * row, or when the journal would then hold more than max_share of its bytes
 * and the free ones together, or more than max_bytes (0: no such cap). The
 * end of a job is never refused so: it shrinks the journal (its spool file
 * goes). Default: share CZK_JOURNAL_DEFAULT_DISK_SHARE, no cap.
 * CZK_ERR_INVALID_ARGUMENT unless 0 < share <= 1. */
#define CZK_JOURNAL_DEFAULT_DISK_SHARE 0.5
czk_err czk_journal_set_disk_limit(czk_journal *j, double share, uint64_t max_bytes);

typedef struct {
    uint64_t used_bytes;  /* held by the journal now */
    uint64_t free_bytes;  /* free in the folder for this process */
    uint64_t limit_bytes; /* the most it may hold now (UINT64_MAX when statvfs failed and no cap is set) */
    double max_share;
    bool by_size;         /* limit_bytes is the cap, not the share */
    bool full;            /* no block or inode left */
} czk_journal_disk_info;
/* The figures above (CZK_ERR_IO when statvfs failed: free_bytes 0). */
czk_err czk_journal_disk(czk_journal *j, czk_journal_disk_info *out);

/* Makes a job durable (see above) and returns its id. request_id NULL or ""
 * for none; an ended job with the same request id is replaced in the same
 * transaction. CZK_ERR_MISMATCH when a pending job holds request_id (use
 * czk_journal_find_request first), CZK_ERR_INVALID_ARGUMENT for a request id
 * of the generated form or one too long, CZK_ERR_NO_SPACE when the folder is
 * full or the journal at its limit (above), CZK_ERR_IO when it could not be
 * written otherwise. Every function that writes reports a full folder as
 * CZK_ERR_NO_SPACE with "the state folder DIR is full (no space left on
 * device): …". */
czk_err czk_journal_add(czk_journal *j, const char *request_id, const char *circuit_id, int priority,
                        const uint8_t *input, size_t input_len, uint64_t *id, char *msg, size_t msglen);
/* Removes a pending job that was never started (its submission was refused
 * after it was made durable): row and spool file. */
czk_err czk_journal_remove(czk_journal *j, uint64_t id, char *msg, size_t msglen);

/* The job with this id / request id; CZK_ERR_NOT_FOUND when there is none. */
czk_err czk_journal_get(czk_journal *j, uint64_t id, czk_journal_job *out);
czk_err czk_journal_find_request(czk_journal *j, const char *request_id, czk_journal_job *out);
/* The job a caller names (a request id, or a generated name of a job without
 * one); CZK_ERR_NOT_FOUND when there is none. */
czk_err czk_journal_find_name(czk_journal *j, const char *name, czk_journal_job *out);
/* The name of a job (its request id, else "czk-<id>"); czk_journal_name_of
 * for a row's request id (NULL or "" for none) and id. */
void czk_journal_job_name(const czk_journal_job *job, char out[CZK_JOURNAL_REQUEST_MAX]);
void czk_journal_name_of(const char *request_id, uint64_t id, char out[CZK_JOURNAL_REQUEST_MAX]);
/* Whether name has the generated form "czk-<decimal id>" (*id: that id; may
 * be NULL). Such names are reserved: no request id has this form. */
bool czk_journal_name_is_generated(const char *name, uint64_t *id);
/* The job's input (malloc'd; freed by the caller). CZK_ERR_NOT_FOUND when the
 * job is unknown or ended, CZK_ERR_IO / CZK_ERR_FORMAT when the spool file is
 * missing or does not match the row (length or SHA-256). */
czk_err czk_journal_read_input(czk_journal *j, uint64_t id, uint8_t **input, size_t *len, char *msg,
                               size_t msglen);

/* Pending jobs in the order they were accepted (malloc'd array). */
czk_err czk_journal_list_pending(czk_journal *j, czk_journal_job **out, size_t *n, char *msg, size_t msglen);

/* Records that a cancel of a pending job was accepted (a job re-queued after
 * a restart with this flag set is ended as cancelled instead). */
czk_err czk_journal_mark_cancel(czk_journal *j, uint64_t id, char *msg, size_t msglen);

/* Ends a pending job with *end (end->ended_ms is set to now). *first: this
 * call ended it (false: it had already ended, and nothing changed).
 * CZK_ERR_NOT_FOUND for an unknown id. */
czk_err czk_journal_end(czk_journal *j, uint64_t id, czk_journal_end_info *end, bool *first, char *msg,
                        size_t msglen);
/* The end of an ended job (proof and public_inputs malloc'd: free with
 * czk_journal_end_free). CZK_ERR_NOT_FOUND when unknown, CZK_ERR_BUSY while
 * pending. */
czk_err czk_journal_get_end(czk_journal *j, uint64_t id, czk_journal_job *job, czk_journal_end_info *end);
void czk_journal_end_free(czk_journal_end_info *end);

/* Deletes rows (and any spool file left) of jobs that ended before
 * now_ms - keep_ms. *deleted: how many (may be NULL). */
czk_err czk_journal_purge(czk_journal *j, uint64_t now_ms, uint64_t keep_ms, size_t *deleted, char *msg,
                          size_t msglen);

typedef struct {
    uint64_t done, failed, cancelled; /* ended over the journal's life */
    uint64_t pending;
    uint64_t rows;                    /* rows kept now */
} czk_journal_counts;
czk_err czk_journal_get_counts(czk_journal *j, czk_journal_counts *out);

/* Wall clock in ms since the epoch. */
uint64_t czk_journal_now_ms(void);

#endif
