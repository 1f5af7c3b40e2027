/* czk — the job journal (src/server/journal.h): SQLite rows plus spool files. */
#define _GNU_SOURCE
#include "journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

struct czk_journal {
    sqlite3 *db;
    pthread_mutex_t mu;
    char *state_dir;
    char *spool_dir;
    int lock_fd; /* flock on <state_dir>/lock: one process per state directory */
    double max_share;   /* of the bytes in use and free (czk_journal_set_disk_limit) */
    uint64_t max_bytes; /* 0: none */
};

#define FORMAT_NAME "czk-journal"
#define FORMAT_VERSION 1

static const char SCHEMA[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE counters(key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "CREATE TABLE jobs("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " request_id TEXT UNIQUE,"
    " circuit_id TEXT NOT NULL,"
    " priority INTEGER NOT NULL,"
    " input_len INTEGER NOT NULL,"
    " input_sha256 BLOB NOT NULL,"
    " submitted_ms INTEGER NOT NULL,"
    " cancel_requested INTEGER NOT NULL DEFAULT 0,"
    " state INTEGER NOT NULL DEFAULT 0,"
    " err INTEGER, message TEXT, proof BLOB, public_inputs BLOB, n_partitions INTEGER,"
    " queue_wait_ms INTEGER, srs_load_ms INTEGER, synthesis_ms INTEGER, gpu_ms INTEGER, total_ms INTEGER,"
    " ended_ms INTEGER);"
    "CREATE INDEX jobs_ended ON jobs(state, ended_ms);"
    "INSERT INTO meta VALUES('format', '" FORMAT_NAME "');"
    "INSERT INTO meta VALUES('version', '1');"
    "INSERT INTO counters VALUES('done', 0), ('failed', 0), ('cancelled', 0);";

uint64_t czk_journal_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void set_msg(char *msg, size_t msglen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_msg(char *msg, size_t msglen, const char *fmt, ...) {
    if (!msg || !msglen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
}

/* Whether a failure in the state folder dir is its file system being full:
 * SQLITE_FULL, or an I/O error (SQLite reports a full disk while growing the
 * WAL index as "disk I/O error") whose system error is ENOSPC or EDQUOT, or
 * for which statvfs finds no block or inode left for this process.
 * sys_errno is only looked at for an I/O error: SQLite keeps it from then. */
static bool folder_full(const char *dir, int sqlite_code, int sys_errno) {
    if (sqlite_code == SQLITE_FULL) return true;
    if (sqlite_code != SQLITE_IOERR && sqlite_code != SQLITE_CANTOPEN) return false;
    if (sys_errno == ENOSPC || sys_errno == EDQUOT) return true;
    struct statvfs vs;
    return statvfs(dir, &vs) == 0 && (vs.f_bavail == 0 || (vs.f_files > 0 && vs.f_favail == 0));
}

#define FULL_FMT "the state folder %s is full (no space left on device): "

static czk_err db_err(czk_journal *j, const char *what, char *msg, size_t msglen) {
    int code = sqlite3_errcode(j->db), sys = sqlite3_system_errno(j->db);
    if (folder_full(j->state_dir, code, sys))
        set_msg(msg, msglen, FULL_FMT "journal %s/journal.sqlite: %s: %s", j->state_dir, j->state_dir, what,
                sqlite3_errmsg(j->db));
    else
        set_msg(msg, msglen, "journal %s/journal.sqlite: %s: %s", j->state_dir, what, sqlite3_errmsg(j->db));
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) return CZK_ERR_FORMAT;
    return folder_full(j->state_dir, code, sys) ? CZK_ERR_NO_SPACE : CZK_ERR_IO;
}

static bool errno_full(int en) { return en == ENOSPC || en == EDQUOT; }

static int exec(czk_journal *j, const char *sql) { return sqlite3_exec(j->db, sql, NULL, NULL, NULL); }

/* ---- the journal's disk ------------------------------------------------------------ */

#define ROW_BYTES 4096 /* what a job's row and its pages add beside its input, counted at an add */

static uint64_t file_bytes(const char *dir, const char *name) {
    char p[PATH_MAX];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

/* What the journal holds now (under j->mu): journal.sqlite with its -wal and
 * -shm files, and the spool files of the pending jobs. */
static uint64_t disk_used(czk_journal *j) {
    uint64_t n = file_bytes(j->state_dir, "journal.sqlite") + file_bytes(j->state_dir, "journal.sqlite-wal") +
                 file_bytes(j->state_dir, "journal.sqlite-shm");
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(j->db, "SELECT coalesce(sum(input_len), 0) FROM jobs WHERE state = 0", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n += (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

czk_err czk_journal_set_disk_limit(czk_journal *j, double share, uint64_t max_bytes) {
    if (!(share > 0 && share <= 1)) return CZK_ERR_INVALID_ARGUMENT;
    pthread_mutex_lock(&j->mu);
    j->max_share = share;
    j->max_bytes = max_bytes;
    pthread_mutex_unlock(&j->mu);
    return CZK_OK;
}

czk_err czk_journal_disk(czk_journal *j, czk_journal_disk_info *out) {
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&j->mu);
    out->used_bytes = disk_used(j);
    struct statvfs vs;
    bool have_free = statvfs(j->state_dir, &vs) == 0;
    if (have_free) out->free_bytes = (uint64_t)vs.f_bavail * vs.f_frsize;
    out->full = have_free && (vs.f_bavail == 0 || (vs.f_files > 0 && vs.f_favail == 0));
    double l = j->max_share * (double)(out->used_bytes + out->free_bytes);
    out->limit_bytes = !have_free ? UINT64_MAX : l >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)l;
    out->by_size = j->max_bytes && j->max_bytes <= out->limit_bytes;
    if (out->by_size) out->limit_bytes = j->max_bytes;
    out->max_share = j->max_share;
    pthread_mutex_unlock(&j->mu);
    return have_free ? CZK_OK : CZK_ERR_IO;
}

/* Whether a job of input_len bytes fits (under j->mu): the folder has room
 * for it, and the journal stays within its limit. CZK_ERR_NO_SPACE with a
 * message naming the folder and the limit otherwise. */
static czk_err check_room(czk_journal *j, size_t input_len, char *msg, size_t msglen) {
    const uint64_t used = disk_used(j), need = (uint64_t)input_len + ROW_BYTES, after = used + need;
    struct statvfs vs;
    if (statvfs(j->state_dir, &vs) != 0) { /* the write itself will tell */
        if (j->max_bytes && after > j->max_bytes) goto over_size;
        return CZK_OK;
    }
    const uint64_t free_b = (uint64_t)vs.f_bavail * vs.f_frsize;
    if (need > free_b || (vs.f_files > 0 && vs.f_favail == 0)) {
        set_msg(msg, msglen, FULL_FMT "a job of %zu bytes needs about %" PRIu64 " bytes, %" PRIu64 " are free",
                j->state_dir, input_len, need, free_b);
        return CZK_ERR_NO_SPACE;
    }
    const double share_limit = j->max_share * (double)(used + free_b);
    if (j->max_bytes && (double)j->max_bytes <= share_limit) {
        if (after > j->max_bytes) goto over_size;
        return CZK_OK;
    }
    if ((double)after > share_limit) {
        set_msg(msg, msglen,
                "the journal in the state folder %s is at its limit: with a job of %zu bytes it would hold %" PRIu64
                " bytes, more than journal.max_disk_share %g of the %" PRIu64 " bytes it holds and finds free "
                "(%" PRIu64 " bytes); finished results leave it as they expire",
                j->state_dir, input_len, after, j->max_share, used + free_b, (uint64_t)share_limit);
        return CZK_ERR_NO_SPACE;
    }
    return CZK_OK;
over_size:
    set_msg(msg, msglen,
            "the journal in the state folder %s is at its limit: with a job of %zu bytes it would hold %" PRIu64
            " bytes, more than journal.max_disk_size (%" PRIu64 " bytes); finished results leave it as they expire",
            j->state_dir, input_len, after, j->max_bytes);
    return CZK_ERR_NO_SPACE;
}

static void rollback(czk_journal *j) { exec(j, "ROLLBACK"); }

static int fsync_dir(const char *dir) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

static int mkdir_p(const char *path) {
    char buf[PATH_MAX];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
            buf[i] = c;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static void spool_path(const czk_journal *j, uint64_t id, bool tmp, char *out, size_t cap) {
    snprintf(out, cap, "%s/%" PRIu64 ".in%s", j->spool_dir, id, tmp ? ".tmp" : "");
}

static bool write_all(int fd, const uint8_t *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* spool/<id>.in: temporary file, fsync, rename, fsync of the directory. */
static czk_err spool_write(czk_journal *j, uint64_t id, const uint8_t *in, size_t len, char *msg, size_t msglen) {
    char tmp[PATH_MAX], fin[PATH_MAX];
    spool_path(j, id, true, tmp, sizeof tmp);
    spool_path(j, id, false, fin, sizeof fin);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        int en = errno;
        if (errno_full(en)) {
            set_msg(msg, msglen, FULL_FMT "spool %s: %s", j->state_dir, tmp, strerror(en));
            return CZK_ERR_NO_SPACE;
        }
        set_msg(msg, msglen, "spool %s: %s", tmp, strerror(en));
        return CZK_ERR_IO;
    }
    bool ok = write_all(fd, in, len) && fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok || rename(tmp, fin) != 0 || fsync_dir(j->spool_dir) != 0) {
        if (ok) e = errno;
        unlink(tmp);
        unlink(fin);
        if (errno_full(e)) {
            set_msg(msg, msglen, FULL_FMT "spool %s: %s", j->state_dir, fin, strerror(e));
            return CZK_ERR_NO_SPACE;
        }
        set_msg(msg, msglen, "spool %s: %s", fin, strerror(e));
        return CZK_ERR_IO;
    }
    return CZK_OK;
}

/* Deletes temporary spool files and files of jobs that are not pending. */
static void spool_sweep(czk_journal *j) {
    DIR *d = opendir(j->spool_dir);
    if (!d) return;
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(j->db, "SELECT state FROM jobs WHERE id = ?", -1, &st, NULL);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char *end = NULL;
        errno = 0;
        unsigned long long id = strtoull(de->d_name, &end, 10);
        bool keep = false;
        if (errno == 0 && end != de->d_name && !strcmp(end, ".in") && st) {
            sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
            keep = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == CZK_JOURNAL_PENDING;
            sqlite3_reset(st);
        }
        if (!keep) unlinkat(dirfd(d), de->d_name, 0);
    }
    sqlite3_finalize(st);
    closedir(d);
}

static czk_err check_or_create_schema(czk_journal *j, char *msg, size_t msglen) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(j->db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'", -1, &st, NULL) !=
            SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return db_err(j, "reading the schema", msg, msglen);
    }
    int tables = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (tables == 0) {
        if (exec(j, "BEGIN IMMEDIATE") != SQLITE_OK) return db_err(j, "creating the schema", msg, msglen);
        if (exec(j, SCHEMA) != SQLITE_OK) {
            czk_err e = db_err(j, "creating the schema", msg, msglen);
            rollback(j);
            return e;
        }
        if (exec(j, "COMMIT") != SQLITE_OK) return db_err(j, "creating the schema", msg, msglen);
        return CZK_OK;
    }
    char format[64] = "", version[16] = "";
    if (sqlite3_prepare_v2(j->db, "SELECT key, value FROM meta", -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *k = (const char *)sqlite3_column_text(st, 0), *v = (const char *)sqlite3_column_text(st, 1);
            if (k && v && !strcmp(k, "format")) snprintf(format, sizeof format, "%s", v);
            if (k && v && !strcmp(k, "version")) snprintf(version, sizeof version, "%s", v);
        }
    }
    sqlite3_finalize(st);
    if (strcmp(format, FORMAT_NAME) != 0) {
        set_msg(msg, msglen, "%s/journal.sqlite is an SQLite database but not a czk journal", j->state_dir);
        return CZK_ERR_FORMAT;
    }
    if (atoi(version) != FORMAT_VERSION) {
        set_msg(msg, msglen, "%s/journal.sqlite is a czk journal of version %s; this czk reads version %d",
                j->state_dir, version, FORMAT_VERSION);
        return CZK_ERR_FORMAT;
    }
    return CZK_OK;
}

czk_err czk_journal_open(czk_journal **out, const char *state_dir, char *msg, size_t msglen) {
    *out = NULL;
    if (!state_dir || !*state_dir) {
        set_msg(msg, msglen, "no state directory given");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_journal *j = calloc(1, sizeof *j);
    if (!j) return CZK_ERR_NO_MEMORY;
    j->lock_fd = -1;
    j->max_share = CZK_JOURNAL_DEFAULT_DISK_SHARE;
    pthread_mutex_init(&j->mu, NULL);
    size_t n = strlen(state_dir) + 16;
    j->state_dir = strdup(state_dir);
    j->spool_dir = malloc(n);
    char *dbpath = malloc(n + 16), *lockpath = malloc(n);
    czk_err e = CZK_ERR_NO_MEMORY;
    if (!j->state_dir || !j->spool_dir || !dbpath || !lockpath) goto fail;
    snprintf(j->spool_dir, n, "%s/spool", state_dir);
    snprintf(dbpath, n + 16, "%s/journal.sqlite", state_dir);
    snprintf(lockpath, n, "%s/lock", state_dir);
    e = CZK_ERR_IO;
    if (mkdir_p(state_dir) != 0 || mkdir_p(j->spool_dir) != 0) {
        int en = errno;
        if (errno_full(en)) {
            set_msg(msg, msglen, FULL_FMT "%s", state_dir, strerror(en));
            e = CZK_ERR_NO_SPACE;
        } else {
            set_msg(msg, msglen, "state directory %s: %s", state_dir, strerror(en));
        }
        goto fail;
    }
    j->lock_fd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (j->lock_fd < 0) {
        int en = errno;
        if (errno_full(en)) {
            set_msg(msg, msglen, FULL_FMT "%s: %s", state_dir, lockpath, strerror(en));
            e = CZK_ERR_NO_SPACE;
        } else {
            set_msg(msg, msglen, "state directory %s: %s: %s", state_dir, lockpath, strerror(en));
        }
        goto fail;
    }
    if (flock(j->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            set_msg(msg, msglen, "state directory %s is in use by another process (%s is locked)", state_dir,
                    lockpath);
        else
            set_msg(msg, msglen, "state directory %s: cannot lock %s: %s", state_dir, lockpath, strerror(errno));
        goto fail;
    }
    if (sqlite3_open_v2(dbpath, &j->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK) {
        int en = errno, code = j->db ? sqlite3_errcode(j->db) : SQLITE_CANTOPEN;
        if (folder_full(state_dir, code, j->db ? sqlite3_system_errno(j->db) : en)) {
            set_msg(msg, msglen, FULL_FMT "journal %s: %s", state_dir, dbpath,
                    j->db ? sqlite3_errmsg(j->db) : "cannot open");
            e = CZK_ERR_NO_SPACE;
        } else
            set_msg(msg, msglen, "journal %s: %s", dbpath, j->db ? sqlite3_errmsg(j->db) : "cannot open");
        goto fail;
    }
    sqlite3_busy_timeout(j->db, 10000);
    sqlite3_extended_result_codes(j->db, 0);
    {
        sqlite3_stmt *st = NULL;
        bool wal = false;
        if (sqlite3_prepare_v2(j->db, "PRAGMA journal_mode=WAL", -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW) {
            const char *mode = (const char *)sqlite3_column_text(st, 0);
            wal = mode && !strcmp(mode, "wal");
        }
        sqlite3_finalize(st);
        if (!wal) {
            e = db_err(j, "switching to WAL mode", msg, msglen);
            goto fail;
        }
    }
    if (exec(j, "PRAGMA synchronous=FULL") != SQLITE_OK) {
        e = db_err(j, "setting synchronous=FULL", msg, msglen);
        goto fail;
    }
    if ((e = check_or_create_schema(j, msg, msglen)) != CZK_OK) goto fail;
    fsync_dir(state_dir);
    spool_sweep(j);
    free(dbpath);
    free(lockpath);
    *out = j;
    return CZK_OK;
fail:
    free(dbpath);
    free(lockpath);
    czk_journal_close(j);
    return e;
}

void czk_journal_close(czk_journal *j) {
    if (!j) return;
    if (j->db) sqlite3_close_v2(j->db);
    if (j->lock_fd >= 0) close(j->lock_fd); /* releases the flock */
    pthread_mutex_destroy(&j->mu);
    free(j->state_dir);
    free(j->spool_dir);
    free(j);
}

bool czk_journal_name_is_generated(const char *name, uint64_t *id) {
    size_t np = sizeof CZK_JOURNAL_GENERATED_PREFIX - 1;
    if (!name || strncmp(name, CZK_JOURNAL_GENERATED_PREFIX, np) != 0) return false;
    const char *d = name + np;
    if (!*d || strlen(d) > 20) return false;
    uint64_t v = 0;
    for (const char *p = d; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        unsigned x = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - x) / 10) return false;
        v = v * 10 + x;
    }
    if (id) *id = v;
    return true;
}

void czk_journal_name_of(const char *request_id, uint64_t id, char out[CZK_JOURNAL_REQUEST_MAX]) {
    if (request_id && *request_id) snprintf(out, CZK_JOURNAL_REQUEST_MAX, "%s", request_id);
    else snprintf(out, CZK_JOURNAL_REQUEST_MAX, CZK_JOURNAL_GENERATED_PREFIX "%" PRIu64, id);
}

void czk_journal_job_name(const czk_journal_job *job, char out[CZK_JOURNAL_REQUEST_MAX]) {
    czk_journal_name_of(job->request_id, job->id, out);
}

/* Deletes an ended row holding request_id (inside the add's transaction):
 * the new job takes its name. */
static czk_err release_ended_name(czk_journal *j, const char *request_id, char *msg, size_t msglen) {
    sqlite3_stmt *st = NULL;
    czk_err e = CZK_OK;
    if (sqlite3_prepare_v2(j->db, "DELETE FROM jobs WHERE request_id = ? AND state != 0", -1, &st, NULL) !=
        SQLITE_OK) {
        e = db_err(j, "replace", msg, msglen);
    } else {
        sqlite3_bind_text(st, 1, request_id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE) e = db_err(j, "replace", msg, msglen);
    }
    sqlite3_finalize(st);
    return e;
}

czk_err czk_journal_add(czk_journal *j, const char *request_id, const char *circuit_id, int priority,
                        const uint8_t *input, size_t input_len, uint64_t *id, char *msg, size_t msglen) {
    if (request_id && !*request_id) request_id = NULL;
    if ((request_id && strlen(request_id) >= CZK_JOURNAL_REQUEST_MAX) || !circuit_id || strlen(circuit_id) >= 64) {
        set_msg(msg, msglen, "request id or circuit id too long");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (request_id && czk_journal_name_is_generated(request_id, NULL)) {
        set_msg(msg, msglen, "request id '%s' has the form of a generated job id (" CZK_JOURNAL_GENERATED_PREFIX
                             "<number>), which is reserved",
                request_id);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    uint8_t digest[32];
    SHA256(input_len ? input : (const uint8_t *)"", input_len, digest);
    pthread_mutex_lock(&j->mu);
    czk_err e = CZK_OK;
    sqlite3_stmt *st = NULL;
    if ((e = check_room(j, input_len, msg, msglen)) != CZK_OK) goto out;
    if (exec(j, "BEGIN IMMEDIATE") != SQLITE_OK) {
        e = db_err(j, "begin", msg, msglen);
        goto out;
    }
    if (request_id && (e = release_ended_name(j, request_id, msg, msglen)) != CZK_OK) {
        rollback(j);
        goto out;
    }
    if (sqlite3_prepare_v2(j->db,
                           "INSERT INTO jobs(request_id, circuit_id, priority, input_len, input_sha256, submitted_ms)"
                           " VALUES(?, ?, ?, ?, ?, ?)",
                           -1, &st, NULL) != SQLITE_OK) {
        e = db_err(j, "insert", msg, msglen);
        rollback(j);
        goto out;
    }
    if (request_id) sqlite3_bind_text(st, 1, request_id, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(st, 1);
    sqlite3_bind_text(st, 2, circuit_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, priority);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)input_len);
    sqlite3_bind_blob(st, 5, digest, 32, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)czk_journal_now_ms());
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
        bool dup = rc == SQLITE_CONSTRAINT;
        e = dup ? CZK_ERR_MISMATCH : db_err(j, "insert", msg, msglen);
        if (dup) set_msg(msg, msglen, "request id '%s' is already taken", request_id ? request_id : "");
        rollback(j);
        goto out;
    }
    uint64_t new_id = (uint64_t)sqlite3_last_insert_rowid(j->db);
    if ((e = spool_write(j, new_id, input, input_len, msg, msglen)) != CZK_OK) {
        rollback(j);
        goto out;
    }
    if (exec(j, "COMMIT") != SQLITE_OK) {
        e = db_err(j, "commit", msg, msglen);
        rollback(j);
        char p[PATH_MAX];
        spool_path(j, new_id, false, p, sizeof p);
        unlink(p);
        goto out;
    }
    *id = new_id;
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&j->mu);
    return e;
}

czk_err czk_journal_remove(czk_journal *j, uint64_t id, char *msg, size_t msglen) {
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st = NULL;
    czk_err e = CZK_OK;
    if (sqlite3_prepare_v2(j->db, "DELETE FROM jobs WHERE id = ? AND state = 0", -1, &st, NULL) != SQLITE_OK) {
        e = db_err(j, "remove", msg, msglen);
    } else {
        sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
        if (sqlite3_step(st) != SQLITE_DONE) e = db_err(j, "remove", msg, msglen);
    }
    sqlite3_finalize(st);
    char p[PATH_MAX];
    spool_path(j, id, false, p, sizeof p);
    if (e == CZK_OK) unlink(p);
    pthread_mutex_unlock(&j->mu);
    return e;
}

#define JOB_COLUMNS "id, request_id, circuit_id, priority, input_len, input_sha256, submitted_ms, cancel_requested, state"

static void read_job(sqlite3_stmt *st, czk_journal_job *out) {
    memset(out, 0, sizeof *out);
    out->id = (uint64_t)sqlite3_column_int64(st, 0);
    const char *r = (const char *)sqlite3_column_text(st, 1);
    snprintf(out->request_id, sizeof out->request_id, "%s", r ? r : "");
    const char *c = (const char *)sqlite3_column_text(st, 2);
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s", c ? c : "");
    out->priority = sqlite3_column_int(st, 3);
    out->input_len = (size_t)sqlite3_column_int64(st, 4);
    if (sqlite3_column_bytes(st, 5) == 32) memcpy(out->input_sha256, sqlite3_column_blob(st, 5), 32);
    out->submitted_ms = (uint64_t)sqlite3_column_int64(st, 6);
    out->cancel_requested = sqlite3_column_int(st, 7) != 0;
    out->state = (czk_journal_state)sqlite3_column_int(st, 8);
}

static czk_err get_by(czk_journal *j, const char *where, uint64_t id, const char *rid, czk_journal_job *out) {
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT " JOB_COLUMNS " FROM jobs WHERE %s", where);
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st = NULL;
    czk_err e = CZK_ERR_NOT_FOUND;
    if (sqlite3_prepare_v2(j->db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (rid) sqlite3_bind_text(st, 1, rid, -1, SQLITE_TRANSIENT);
        else sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            read_job(st, out);
            e = CZK_OK;
        } else if (rc != SQLITE_DONE) {
            e = CZK_ERR_IO;
        }
    } else {
        e = CZK_ERR_IO;
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&j->mu);
    return e;
}

czk_err czk_journal_get(czk_journal *j, uint64_t id, czk_journal_job *out) {
    return get_by(j, "id = ?", id, NULL, out);
}

czk_err czk_journal_find_request(czk_journal *j, const char *request_id, czk_journal_job *out) {
    if (!request_id || !*request_id) return CZK_ERR_NOT_FOUND;
    return get_by(j, "request_id = ?", 0, request_id, out);
}

/* A request id of the generated form can only come from a journal written
 * before such ids were reserved: it is looked up first, so that job keeps
 * its name. */
czk_err czk_journal_find_name(czk_journal *j, const char *name, czk_journal_job *out) {
    uint64_t id;
    czk_err e = czk_journal_find_request(j, name, out);
    if (e != CZK_ERR_NOT_FOUND || !czk_journal_name_is_generated(name, &id)) return e;
    return get_by(j, "id = ? AND request_id IS NULL", id, NULL, out);
}

czk_err czk_journal_read_input(czk_journal *j, uint64_t id, uint8_t **input, size_t *len, char *msg,
                               size_t msglen) {
    *input = NULL;
    *len = 0;
    czk_journal_job job;
    czk_err e = czk_journal_get(j, id, &job);
    if (e != CZK_OK || job.state != CZK_JOURNAL_PENDING) {
        set_msg(msg, msglen, "job %" PRIu64 " is not a pending job", id);
        return e == CZK_OK ? CZK_ERR_NOT_FOUND : e;
    }
    char p[PATH_MAX];
    spool_path(j, id, false, p, sizeof p);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        set_msg(msg, msglen, "job %" PRIu64 ": spool file %s: %s", id, p, strerror(errno));
        return CZK_ERR_IO;
    }
    uint8_t *buf = malloc(job.input_len ? job.input_len : 1);
    if (!buf) {
        close(fd);
        return CZK_ERR_NO_MEMORY;
    }
    size_t got = 0;
    for (;;) {
        uint8_t extra;
        ssize_t r = got < job.input_len ? read(fd, buf + got, job.input_len - got) : read(fd, &extra, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        if (got >= job.input_len) {
            got++; /* longer than recorded */
            break;
        }
        got += (size_t)r;
    }
    close(fd);
    uint8_t digest[32];
    SHA256(got ? buf : (const uint8_t *)"", got == job.input_len ? got : 0, digest);
    if (got != job.input_len || memcmp(digest, job.input_sha256, 32) != 0) {
        set_msg(msg, msglen, "job %" PRIu64 ": spool file %s does not match the journal (length or SHA-256)", id, p);
        free(buf);
        return CZK_ERR_FORMAT;
    }
    *input = buf;
    *len = got;
    return CZK_OK;
}

czk_err czk_journal_list_pending(czk_journal *j, czk_journal_job **out, size_t *n, char *msg, size_t msglen) {
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st = NULL;
    czk_err e = CZK_OK;
    size_t cap = 0;
    if (sqlite3_prepare_v2(j->db, "SELECT " JOB_COLUMNS " FROM jobs WHERE state = 0 ORDER BY id", -1, &st, NULL) !=
        SQLITE_OK) {
        e = db_err(j, "listing pending jobs", msg, msglen);
        goto out;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            czk_journal_job *p = realloc(*out, cap * sizeof *p);
            if (!p) {
                e = CZK_ERR_NO_MEMORY;
                goto out;
            }
            *out = p;
        }
        read_job(st, &(*out)[(*n)++]);
    }
    if (rc != SQLITE_DONE) e = db_err(j, "listing pending jobs", msg, msglen);
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&j->mu);
    if (e != CZK_OK) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return e;
}

czk_err czk_journal_mark_cancel(czk_journal *j, uint64_t id, char *msg, size_t msglen) {
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st = NULL;
    czk_err e = CZK_OK;
    if (sqlite3_prepare_v2(j->db, "UPDATE jobs SET cancel_requested = 1 WHERE id = ? AND state = 0", -1, &st, NULL) !=
        SQLITE_OK) {
        e = db_err(j, "cancel", msg, msglen);
    } else {
        sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
        if (sqlite3_step(st) != SQLITE_DONE) e = db_err(j, "cancel", msg, msglen);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&j->mu);
    return e;
}

static const char *counter_key(czk_journal_state s) {
    return s == CZK_JOURNAL_DONE ? "done" : s == CZK_JOURNAL_FAILED ? "failed" : "cancelled";
}

czk_err czk_journal_end(czk_journal *j, uint64_t id, czk_journal_end_info *end, bool *first, char *msg,
                        size_t msglen) {
    *first = false;
    if (end->state == CZK_JOURNAL_PENDING || end->state > CZK_JOURNAL_CANCELLED) {
        set_msg(msg, msglen, "not an end state");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    end->ended_ms = czk_journal_now_ms();
    pthread_mutex_lock(&j->mu);
    czk_err e = CZK_OK;
    sqlite3_stmt *st = NULL, *ct = NULL;
    if (exec(j, "BEGIN IMMEDIATE") != SQLITE_OK) {
        e = db_err(j, "begin", msg, msglen);
        goto out;
    }
    if (sqlite3_prepare_v2(j->db,
                           "UPDATE jobs SET state = ?, err = ?, message = ?, proof = ?, public_inputs = ?,"
                           " n_partitions = ?, queue_wait_ms = ?, srs_load_ms = ?, synthesis_ms = ?, gpu_ms = ?,"
                           " total_ms = ?, ended_ms = ? WHERE id = ? AND state = 0",
                           -1, &st, NULL) != SQLITE_OK) {
        e = db_err(j, "end", msg, msglen);
        rollback(j);
        goto out;
    }
    sqlite3_bind_int(st, 1, (int)end->state);
    sqlite3_bind_int(st, 2, end->err);
    sqlite3_bind_text(st, 3, end->message, -1, SQLITE_TRANSIENT);
    if (end->proof_len) sqlite3_bind_blob64(st, 4, end->proof, end->proof_len, SQLITE_STATIC);
    else sqlite3_bind_null(st, 4);
    if (end->public_len) sqlite3_bind_blob64(st, 5, end->public_inputs, end->public_len, SQLITE_STATIC);
    else sqlite3_bind_null(st, 5);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)end->n_partitions);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)end->queue_wait_ms);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)end->srs_load_ms);
    sqlite3_bind_int64(st, 9, (sqlite3_int64)end->synthesis_ms);
    sqlite3_bind_int64(st, 10, (sqlite3_int64)end->gpu_ms);
    sqlite3_bind_int64(st, 11, (sqlite3_int64)end->total_ms);
    sqlite3_bind_int64(st, 12, (sqlite3_int64)end->ended_ms);
    sqlite3_bind_int64(st, 13, (sqlite3_int64)id);
    if (sqlite3_step(st) != SQLITE_DONE) {
        e = db_err(j, "end", msg, msglen);
        rollback(j);
        goto out;
    }
    if (sqlite3_changes(j->db) == 1) {
        char sql[96];
        snprintf(sql, sizeof sql, "UPDATE counters SET value = value + 1 WHERE key = '%s'", counter_key(end->state));
        if (exec(j, sql) != SQLITE_OK) {
            e = db_err(j, "end", msg, msglen);
            rollback(j);
            goto out;
        }
        *first = true;
    } else if (sqlite3_prepare_v2(j->db, "SELECT 1 FROM jobs WHERE id = ?", -1, &ct, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(ct, 1, (sqlite3_int64)id);
        if (sqlite3_step(ct) != SQLITE_ROW) {
            set_msg(msg, msglen, "no job %" PRIu64 " in the journal", id);
            e = CZK_ERR_NOT_FOUND;
        }
    }
    if (exec(j, "COMMIT") != SQLITE_OK) {
        e = db_err(j, "commit", msg, msglen);
        rollback(j);
        *first = false;
        goto out;
    }
    if (*first) {
        char p[PATH_MAX];
        spool_path(j, id, false, p, sizeof p);
        unlink(p);
    }
out:
    sqlite3_finalize(st);
    sqlite3_finalize(ct);
    pthread_mutex_unlock(&j->mu);
    return e;
}

static uint8_t *dup_blob(sqlite3_stmt *st, int col, size_t *len) {
    *len = (size_t)sqlite3_column_bytes(st, col);
    const void *b = sqlite3_column_blob(st, col);
    if (!*len || !b) {
        *len = 0;
        return NULL;
    }
    uint8_t *p = malloc(*len);
    if (p) memcpy(p, b, *len);
    else *len = 0;
    return p;
}

czk_err czk_journal_get_end(czk_journal *j, uint64_t id, czk_journal_job *job, czk_journal_end_info *end) {
    memset(end, 0, sizeof *end);
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st = NULL;
    czk_err e = CZK_ERR_NOT_FOUND;
    if (sqlite3_prepare_v2(j->db,
                           "SELECT " JOB_COLUMNS ", err, message, proof, public_inputs, n_partitions, queue_wait_ms,"
                           " srs_load_ms, synthesis_ms, gpu_ms, total_ms, ended_ms FROM jobs WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK) {
        e = CZK_ERR_IO;
        goto out;
    }
    sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        e = rc == SQLITE_DONE ? CZK_ERR_NOT_FOUND : CZK_ERR_IO;
        goto out;
    }
    czk_journal_job tmp;
    if (!job) job = &tmp;
    read_job(st, job);
    if (job->state == CZK_JOURNAL_PENDING) {
        e = CZK_ERR_BUSY;
        goto out;
    }
    end->state = job->state;
    end->err = sqlite3_column_int(st, 9);
    const char *m = (const char *)sqlite3_column_text(st, 10);
    snprintf(end->message, sizeof end->message, "%s", m ? m : "");
    end->proof = dup_blob(st, 11, &end->proof_len);
    end->public_inputs = dup_blob(st, 12, &end->public_len);
    end->n_partitions = (uint64_t)sqlite3_column_int64(st, 13);
    end->queue_wait_ms = (uint64_t)sqlite3_column_int64(st, 14);
    end->srs_load_ms = (uint64_t)sqlite3_column_int64(st, 15);
    end->synthesis_ms = (uint64_t)sqlite3_column_int64(st, 16);
    end->gpu_ms = (uint64_t)sqlite3_column_int64(st, 17);
    end->total_ms = (uint64_t)sqlite3_column_int64(st, 18);
    end->ended_ms = (uint64_t)sqlite3_column_int64(st, 19);
    e = CZK_OK;
    if ((end->proof_len && !end->proof) || (end->public_len && !end->public_inputs)) {
        czk_journal_end_free(end);
        e = CZK_ERR_NO_MEMORY;
    }
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&j->mu);
    return e;
}

void czk_journal_end_free(czk_journal_end_info *end) {
    free((void *)end->proof);
    free((void *)end->public_inputs);
    end->proof = end->public_inputs = NULL;
    end->proof_len = end->public_len = 0;
}

czk_err czk_journal_purge(czk_journal *j, uint64_t now_ms, uint64_t keep_ms, size_t *deleted, char *msg,
                          size_t msglen) {
    if (deleted) *deleted = 0;
    uint64_t cutoff = now_ms > keep_ms ? now_ms - keep_ms : 0;
    pthread_mutex_lock(&j->mu);
    czk_err e = CZK_OK;
    sqlite3_stmt *sel = NULL, *del = NULL;
    uint64_t *ids = NULL;
    size_t n = 0, cap = 0;
    if (sqlite3_prepare_v2(j->db, "SELECT id FROM jobs WHERE state != 0 AND ended_ms < ?", -1, &sel, NULL) !=
        SQLITE_OK) {
        e = db_err(j, "purge", msg, msglen);
        goto out;
    }
    sqlite3_bind_int64(sel, 1, (sqlite3_int64)cutoff);
    while (sqlite3_step(sel) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            uint64_t *p = realloc(ids, cap * sizeof *p);
            if (!p) {
                e = CZK_ERR_NO_MEMORY;
                goto out;
            }
            ids = p;
        }
        ids[n++] = (uint64_t)sqlite3_column_int64(sel, 0);
    }
    if (!n) goto out;
    if (sqlite3_prepare_v2(j->db, "DELETE FROM jobs WHERE state != 0 AND ended_ms < ?", -1, &del, NULL) !=
        SQLITE_OK) {
        e = db_err(j, "purge", msg, msglen);
        goto out;
    }
    sqlite3_bind_int64(del, 1, (sqlite3_int64)cutoff);
    if (sqlite3_step(del) != SQLITE_DONE) {
        e = db_err(j, "purge", msg, msglen);
        goto out;
    }
    if (deleted) *deleted = (size_t)sqlite3_changes(j->db);
    for (size_t i = 0; i < n; i++) {
        char p[PATH_MAX];
        spool_path(j, ids[i], false, p, sizeof p);
        unlink(p);
    }
out:
    sqlite3_finalize(sel);
    sqlite3_finalize(del);
    free(ids);
    pthread_mutex_unlock(&j->mu);
    return e;
}

czk_err czk_journal_get_counts(czk_journal *j, czk_journal_counts *out) {
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *st = NULL;
    czk_err e = CZK_OK;
    if (sqlite3_prepare_v2(j->db, "SELECT key, value FROM counters", -1, &st, NULL) != SQLITE_OK) {
        e = CZK_ERR_IO;
        goto out;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(st, 0);
        uint64_t v = (uint64_t)sqlite3_column_int64(st, 1);
        if (!k) continue;
        if (!strcmp(k, "done")) out->done = v;
        else if (!strcmp(k, "failed")) out->failed = v;
        else if (!strcmp(k, "cancelled")) out->cancelled = v;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(j->db, "SELECT count(*), coalesce(sum(state = 0), 0) FROM jobs", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        out->rows = (uint64_t)sqlite3_column_int64(st, 0);
        out->pending = (uint64_t)sqlite3_column_int64(st, 1);
    } else {
        e = CZK_ERR_IO;
    }
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(&j->mu);
    return e;
}
