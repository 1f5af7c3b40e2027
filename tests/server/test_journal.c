/* The job journal (src/server/journal.h): jobs survive a reopen with their
 * inputs, pending jobs come back in acceptance order, a job ends exactly
 * once (also with threads racing to end it), results expire and are
 * deleted with their spool files, totals survive the purge, foreign files
 * are refused, one process per state directory, stray spool files are
 * swept; and a child process that adds jobs in a loop is killed with
 * SIGKILL at arbitrary moments: every job whose add returned is there, with
 * its input, after the reopen. Names: a job is found by its request id
 * (any string, Curio's spaces and brackets too) or, without one, by its
 * generated name; generated names are reserved; an ended job's request id
 * can be taken again; rows written before names existed keep theirs. A
 * full disk (SQLite's writes made to fail with ENOSPC through the unix VFS's
 * xSetSystemCall) is reported as the state folder being full
 * (CZK_ERR_NO_SPACE), at open and at an add, and the journal works again once
 * there is room. Adds past journal.max_disk_size or journal.max_disk_share are
 * refused naming the limit and leave nothing behind; ends are never refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "../../src/server/journal.h"
#include "full_disk.h"
#include "test.h"

static char root[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void subdir(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", root, name); }

static bool file_exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}

static void write_file(const char *p, const char *text) {
    FILE *f = fopen(p, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static bool input_is(czk_journal *j, uint64_t id, const char *want) {
    uint8_t *in = NULL;
    size_t len = 0;
    char msg[256];
    if (czk_journal_read_input(j, id, &in, &len, msg, sizeof msg) != CZK_OK) return false;
    bool ok = len == strlen(want) && !memcmp(in, want, len);
    free(in);
    return ok;
}

static void test_basic(void) {
    char dir[300], msg[512] = "";
    subdir(dir, sizeof dir, "basic");
    czk_journal *j = NULL;
    CHECK_MSG(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK, "open: %s", msg);
    if (!j) return;
    uint64_t ids[5] = {0};
    const char *inputs[5] = {"11", "22", "", "44", "55"};
    for (int i = 0; i < 5; i++) {
        char rid[16];
        snprintf(rid, sizeof rid, "r%d", i);
        czk_err e = czk_journal_add(j, i % 2 ? rid : NULL, "demo", i % 4, (const uint8_t *)inputs[i],
                                    strlen(inputs[i]), &ids[i], msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "add %d: %s", i, msg);
        if (i) CHECK(ids[i] > ids[i - 1]);
    }
    uint64_t dup;
    CHECK(czk_journal_add(j, "r1", "demo", 1, (const uint8_t *)"1", 1, &dup, msg, sizeof msg) == CZK_ERR_MISMATCH);
    czk_journal_job jj;
    CHECK(czk_journal_find_request(j, "r3", &jj) == CZK_OK && jj.id == ids[3] && jj.priority == 3);
    CHECK(czk_journal_find_request(j, "nope", &jj) == CZK_ERR_NOT_FOUND);
    CHECK(czk_journal_find_request(j, "", &jj) == CZK_ERR_NOT_FOUND);
    CHECK(czk_journal_get(j, 987654, &jj) == CZK_ERR_NOT_FOUND);

    /* end job 1: exactly once; spool file gone */
    static const uint8_t proof[192] = {1, 2, 3};
    static const uint8_t pub[64] = {9, 8, 7};
    czk_journal_end_info end = {0};
    end.state = CZK_JOURNAL_DONE;
    end.proof = proof;
    end.proof_len = sizeof proof;
    end.public_inputs = pub;
    end.public_len = sizeof pub;
    end.n_partitions = 1;
    end.total_ms = 1234;
    end.srs_load_ms = 5;
    bool first = false;
    CHECK(czk_journal_end(j, ids[1], &end, &first, msg, sizeof msg) == CZK_OK && first);
    czk_journal_end_info again = {0};
    again.state = CZK_JOURNAL_FAILED;
    snprintf(again.message, sizeof again.message, "late");
    CHECK(czk_journal_end(j, ids[1], &again, &first, msg, sizeof msg) == CZK_OK && !first);
    CHECK(czk_journal_end(j, 987654, &again, &first, msg, sizeof msg) == CZK_ERR_NOT_FOUND && !first);
    char spool[400];
    snprintf(spool, sizeof spool, "%s/spool/%llu.in", dir, (unsigned long long)ids[1]);
    CHECK(!file_exists(spool));
    snprintf(spool, sizeof spool, "%s/spool/%llu.in", dir, (unsigned long long)ids[0]);
    CHECK(file_exists(spool));
    CHECK(czk_journal_get_end(j, ids[0], NULL, &end) == CZK_ERR_BUSY);
    CHECK(czk_journal_mark_cancel(j, ids[4], msg, sizeof msg) == CZK_OK);
    czk_journal_close(j);

    /* reopen: everything is still there */
    j = NULL;
    CHECK_MSG(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK, "reopen: %s", msg);
    if (!j) return;
    czk_journal_end_info got;
    CHECK(czk_journal_get_end(j, ids[1], &jj, &got) == CZK_OK);
    CHECK(got.state == CZK_JOURNAL_DONE && got.proof_len == 192 && !memcmp(got.proof, proof, 192) &&
          got.public_len == 64 && !memcmp(got.public_inputs, pub, 64) && got.total_ms == 1234 &&
          got.srs_load_ms == 5 && got.n_partitions == 1 && got.ended_ms > 0);
    CHECK(!strcmp(jj.request_id, "r1") && !strcmp(jj.circuit_id, "demo"));
    czk_journal_end_free(&got);
    czk_journal_job *pend = NULL;
    size_t n = 0;
    CHECK(czk_journal_list_pending(j, &pend, &n, msg, sizeof msg) == CZK_OK);
    CHECK_MSG(n == 4, "%zu pending", n);
    if (n == 4) {
        CHECK(pend[0].id == ids[0] && pend[1].id == ids[2] && pend[2].id == ids[3] && pend[3].id == ids[4]);
        CHECK(!pend[0].cancel_requested && pend[3].cancel_requested);
        CHECK(pend[1].input_len == 0);
    }
    free(pend);
    CHECK(input_is(j, ids[0], "11") && input_is(j, ids[2], "") && input_is(j, ids[3], "44"));
    uint8_t *in;
    size_t len;
    CHECK(czk_journal_read_input(j, ids[1], &in, &len, msg, sizeof msg) == CZK_ERR_NOT_FOUND);

    /* a damaged spool file is noticed */
    snprintf(spool, sizeof spool, "%s/spool/%llu.in", dir, (unsigned long long)ids[3]);
    write_file(spool, "45");
    CHECK(czk_journal_read_input(j, ids[3], &in, &len, msg, sizeof msg) == CZK_ERR_FORMAT);
    unlink(spool);
    CHECK(czk_journal_read_input(j, ids[3], &in, &len, msg, sizeof msg) == CZK_ERR_IO);

    /* remove (a refused submission) */
    CHECK(czk_journal_remove(j, ids[2], msg, sizeof msg) == CZK_OK);
    CHECK(czk_journal_get(j, ids[2], &jj) == CZK_ERR_NOT_FOUND);

    /* a second process (here: a second open) is refused */
    czk_journal *j2 = NULL;
    CHECK(czk_journal_open(&j2, dir, msg, sizeof msg) == CZK_ERR_IO && strstr(msg, "in use"));

    /* retention: end the rest, purge as if much later */
    czk_journal_end_info f = {0};
    f.state = CZK_JOURNAL_FAILED;
    f.err = 5;
    snprintf(f.message, sizeof f.message, "broken");
    CHECK(czk_journal_end(j, ids[0], &f, &first, msg, sizeof msg) == CZK_OK && first);
    f.state = CZK_JOURNAL_CANCELLED;
    CHECK(czk_journal_end(j, ids[4], &f, &first, msg, sizeof msg) == CZK_OK && first);
    czk_journal_counts c;
    CHECK(czk_journal_get_counts(j, &c) == CZK_OK);
    CHECK_MSG(c.done == 1 && c.failed == 1 && c.cancelled == 1 && c.pending == 1 && c.rows == 4,
              "done %llu failed %llu cancelled %llu pending %llu rows %llu", (unsigned long long)c.done,
              (unsigned long long)c.failed, (unsigned long long)c.cancelled, (unsigned long long)c.pending,
              (unsigned long long)c.rows);
    size_t deleted = 99;
    CHECK(czk_journal_purge(j, czk_journal_now_ms(), 3600000, &deleted, msg, sizeof msg) == CZK_OK && deleted == 0);
    CHECK(czk_journal_purge(j, czk_journal_now_ms() + 7200000, 3600000, &deleted, msg, sizeof msg) == CZK_OK);
    CHECK_MSG(deleted == 3, "purged %zu", deleted);
    CHECK(czk_journal_get_end(j, ids[1], &jj, &got) == CZK_ERR_NOT_FOUND);
    CHECK(czk_journal_get(j, ids[3], &jj) == CZK_OK && jj.state == CZK_JOURNAL_PENDING); /* pending: kept */
    CHECK(czk_journal_find_request(j, "r1", &jj) == CZK_ERR_NOT_FOUND); /* the request id is free again */
    CHECK(czk_journal_get_counts(j, &c) == CZK_OK && c.done == 1 && c.failed == 1 && c.cancelled == 1 && c.rows == 1);
    /* ids are never reused */
    uint64_t id6 = 0;
    CHECK(czk_journal_add(j, "r1", "demo", 1, (const uint8_t *)"6", 1, &id6, msg, sizeof msg) == CZK_OK &&
          id6 > ids[4]);
    czk_journal_close(j);
}

static bool name_is(czk_journal *j, const char *name, uint64_t id) {
    czk_journal_job jj;
    char got[CZK_JOURNAL_REQUEST_MAX];
    if (czk_journal_find_name(j, name, &jj) != CZK_OK || jj.id != id) return false;
    czk_journal_job_name(&jj, got);
    return !strcmp(got, name);
}

static void test_names(void) {
    char dir[300], msg[512] = "";
    subdir(dir, sizeof dir, "names");
    czk_journal *j = NULL;
    CHECK_MSG(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK, "open: %s", msg);
    if (!j) return;
    static const char curio[] = "wdpost-1000-0-[12 34 56 78 90 12 34 56]";
    uint64_t a = 0, b = 0, c = 0, d = 0, x = 0;
    CHECK(czk_journal_add(j, curio, "demo", 2, (const uint8_t *)"1", 1, &a, msg, sizeof msg) == CZK_OK);
    CHECK(czk_journal_add(j, NULL, "demo", 2, (const uint8_t *)"2", 1, &b, msg, sizeof msg) == CZK_OK);
    char gen[64];
    snprintf(gen, sizeof gen, "czk-%llu", (unsigned long long)b);
    CHECK(name_is(j, curio, a) && name_is(j, gen, b));
    uint64_t gid = 0;
    CHECK(czk_journal_name_is_generated(gen, &gid) && gid == b);
    CHECK(!czk_journal_name_is_generated("czk-", NULL) && !czk_journal_name_is_generated("czk-1x", NULL) &&
          !czk_journal_name_is_generated("czk-99999999999999999999", NULL) &&
          !czk_journal_name_is_generated("xczk-1", NULL) && !czk_journal_name_is_generated(curio, NULL));
    czk_journal_job jj;
    /* a generated name of a job that has a request id names nothing */
    snprintf(gen, sizeof gen, "czk-%llu", (unsigned long long)a);
    CHECK(czk_journal_find_name(j, gen, &jj) == CZK_ERR_NOT_FOUND);
    CHECK(czk_journal_find_name(j, "czk-987654", &jj) == CZK_ERR_NOT_FOUND);
    CHECK(czk_journal_find_name(j, "", &jj) == CZK_ERR_NOT_FOUND);
    /* the generated form is reserved */
    CHECK(czk_journal_add(j, "czk-77", "demo", 2, (const uint8_t *)"3", 1, &x, msg, sizeof msg) ==
              CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "reserved"));
    CHECK(czk_journal_add(j, "czk-77x", "demo", 2, (const uint8_t *)"3", 1, &c, msg, sizeof msg) == CZK_OK);
    CHECK(name_is(j, "czk-77x", c));
    /* a pending job keeps its request id; an ended one gives it up */
    CHECK(czk_journal_add(j, curio, "demo", 2, (const uint8_t *)"4", 1, &x, msg, sizeof msg) == CZK_ERR_MISMATCH);
    czk_journal_end_info end = {0};
    end.state = CZK_JOURNAL_FAILED;
    bool first = false;
    CHECK(czk_journal_end(j, a, &end, &first, msg, sizeof msg) == CZK_OK && first);
    CHECK(czk_journal_add(j, curio, "demo", 2, (const uint8_t *)"1", 1, &d, msg, sizeof msg) == CZK_OK && d > a);
    CHECK(name_is(j, curio, d) && czk_journal_get(j, a, &jj) == CZK_ERR_NOT_FOUND);
    czk_journal_counts cn;
    CHECK(czk_journal_get_counts(j, &cn) == CZK_OK && cn.failed == 1 && cn.rows == 3);
    czk_journal_close(j);

    /* a row written before names existed: a caller's request id of the
     * generated form keeps naming its own job, even when that name is also
     * the generated name of another row */
    sqlite3 *db = NULL;
    char path[400];
    snprintf(path, sizeof path, "%s/journal.sqlite", dir);
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    char sql[200];
    snprintf(sql, sizeof sql, "UPDATE jobs SET request_id = 'czk-%llu' WHERE id = %llu", (unsigned long long)b,
             (unsigned long long)c);
    CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    j = NULL;
    CHECK_MSG(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK, "reopen: %s", msg);
    if (!j) return;
    snprintf(gen, sizeof gen, "czk-%llu", (unsigned long long)b);
    CHECK(czk_journal_find_name(j, gen, &jj) == CZK_OK && jj.id == c);
    CHECK(name_is(j, curio, d));
    czk_journal_close(j);
}

/* Threads racing to end the same job: one wins. */
typedef struct {
    czk_journal *j;
    uint64_t id;
    int state;
    bool first;
    pthread_barrier_t *bar;
} racer;

static void *race_main(void *arg) {
    racer *r = arg;
    czk_journal_end_info e = {0};
    e.state = (czk_journal_state)r->state;
    char msg[256];
    pthread_barrier_wait(r->bar);
    if (czk_journal_end(r->j, r->id, &e, &r->first, msg, sizeof msg) != CZK_OK) r->first = false;
    return NULL;
}

static void test_race(void) {
    char dir[300], msg[512];
    subdir(dir, sizeof dir, "race");
    czk_journal *j = NULL;
    CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK);
    if (!j) return;
    for (int round = 0; round < 5; round++) {
        uint64_t id;
        CHECK(czk_journal_add(j, NULL, "demo", 1, (const uint8_t *)"1", 1, &id, msg, sizeof msg) == CZK_OK);
        enum { N = 6 };
        pthread_t t[N];
        racer r[N];
        pthread_barrier_t bar;
        pthread_barrier_init(&bar, NULL, N);
        for (int i = 0; i < N; i++) {
            r[i] = (racer){j, id, 1 + i % 3, false, &bar};
            pthread_create(&t[i], NULL, race_main, &r[i]);
        }
        int winners = 0, state = -1;
        for (int i = 0; i < N; i++) {
            pthread_join(t[i], NULL);
            if (r[i].first) {
                winners++;
                state = r[i].state;
            }
        }
        pthread_barrier_destroy(&bar);
        CHECK_MSG(winners == 1, "round %d: %d threads ended the job", round, winners);
        czk_journal_job jj;
        czk_journal_end_info end;
        CHECK(czk_journal_get_end(j, id, &jj, &end) == CZK_OK && (int)end.state == state);
        czk_journal_end_free(&end);
    }
    czk_journal_counts c;
    CHECK(czk_journal_get_counts(j, &c) == CZK_OK && c.done + c.failed + c.cancelled == 5);
    czk_journal_close(j);
}

static void test_foreign(void) {
    char dir[300], path[400], msg[512] = "";
    czk_journal *j = NULL;
    /* not an SQLite file */
    subdir(dir, sizeof dir, "foreign1");
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/journal.sqlite", dir);
    write_file(path, "this is not a database, it is a text file that is long enough to have a header......\n");
    CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_ERR_FORMAT && !j);
    /* an SQLite file of something else */
    subdir(dir, sizeof dir, "foreign2");
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/journal.sqlite", dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sqlite3 '%s' 'CREATE TABLE t(x); INSERT INTO t VALUES(1);' 2>/dev/null", path);
    if (system(cmd) == 0) {
        CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_ERR_FORMAT && !j);
        CHECK(strstr(msg, "not a czk journal") != NULL);
    }
    /* a state directory that is a file */
    subdir(dir, sizeof dir, "afile");
    write_file(dir, "x");
    CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_ERR_IO && !j);
    /* stray spool files are swept at open */
    subdir(dir, sizeof dir, "sweep");
    CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK);
    uint64_t id;
    CHECK(czk_journal_add(j, NULL, "demo", 1, (const uint8_t *)"7", 1, &id, msg, sizeof msg) == CZK_OK);
    czk_journal_close(j);
    char a[400], b[400], keep[400];
    snprintf(a, sizeof a, "%s/spool/424242.in", dir);
    snprintf(b, sizeof b, "%s/spool/%llu.in.tmp", dir, (unsigned long long)id + 1);
    snprintf(keep, sizeof keep, "%s/spool/%llu.in", dir, (unsigned long long)id);
    write_file(a, "x");
    write_file(b, "y");
    CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK);
    CHECK(!file_exists(a) && !file_exists(b) && file_exists(keep));
    czk_journal_close(j);
}

/* ---- a full disk (full_disk.h) ---- */

static bool says_full(const char *msg, const char *dir) {
    char want[400];
    snprintf(want, sizeof want, "the state folder %s is full (no space left on device)", dir);
    return strstr(msg, want) != NULL;
}

static void test_full_disk(void) {
    if (!full_disk_install()) {
        printf("journal: SQLite's VFS cannot override write calls; full-disk test skipped\n");
        return;
    }
    char dir[300], msg[512];
    /* open on a disk with `room` bytes left, from none upwards: each open
     * fails saying the folder is full, until there is room for the journal */
    int failed = 0, opened = 0;
    for (long long r = 0; r <= (1 << 20) && !opened; r = r ? r * 2 : 256) {
        char name[24];
        snprintf(name, sizeof name, "full-%lld", r % 100000000);
        subdir(dir, sizeof dir, name);
        czk_journal *j = NULL;
        msg[0] = 0;
        full_disk_room = r;
        czk_err e = czk_journal_open(&j, dir, msg, sizeof msg);
        full_disk_room = -1;
        if (e == CZK_OK) {
            opened = 1;
            czk_journal_close(j);
            break;
        }
        failed++;
        CHECK_MSG(e == CZK_ERR_NO_SPACE && !j && says_full(msg, dir), "open with %lld bytes of room: %s: %s", r,
                  czk_err_str(e), msg);
    }
    CHECK_MSG(failed >= 1 && opened, "%d open(s) failed, opened %d", failed, opened);
    /* the disk fills while the journal is open: an add fails saying so, and
     * works again once there is room */
    subdir(dir, sizeof dir, "full-later");
    czk_journal *j = NULL;
    CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK);
    if (j) {
        uint64_t id = 0;
        msg[0] = 0;
        full_disk_room = 0;
        czk_err e = czk_journal_add(j, "full-1", "demo", 1, (const uint8_t *)"7", 1, &id, msg, sizeof msg);
        full_disk_room = -1;
        CHECK_MSG(e == CZK_ERR_NO_SPACE && says_full(msg, dir), "add on a full disk: %s: %s", czk_err_str(e), msg);
        CHECK_MSG(czk_journal_add(j, "full-1", "demo", 1, (const uint8_t *)"7", 1, &id, msg, sizeof msg) == CZK_OK,
                  "add once there is room: %s", msg);
        CHECK(input_is(j, id, "7"));
        czk_journal_close(j);
    }
    /* czkd restarted on a full disk: the journal exists; reopening it fails saying the folder is full */
    for (long long r = 0; r <= 4096; r = r ? r * 4 : 1) {
        j = NULL;
        msg[0] = 0;
        full_disk_room = r;
        czk_err e = czk_journal_open(&j, dir, msg, sizeof msg);
        full_disk_room = -1;
        if (e == CZK_OK) {
            czk_journal_close(j);
            continue;
        }
        CHECK_MSG(e == CZK_ERR_NO_SPACE && !j && says_full(msg, dir), "reopen with %lld bytes of room: %s: %s", r,
                  czk_err_str(e), msg);
    }
    CHECK_MSG(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK, "reopen once there is room: %s", msg);
    if (j) {
        czk_journal_job got;
        CHECK(czk_journal_find_request(j, "full-1", &got) == CZK_OK);
        czk_journal_close(j);
    }
    full_disk_remove();
}

/* ---- the journal's disk limit ---- */

static bool has_row(czk_journal *j, const char *rid) {
    czk_journal_job got;
    return czk_journal_find_request(j, rid, &got) == CZK_OK;
}

/* Adds are refused past journal.max_disk_size or journal.max_disk_share,
 * naming the folder and the limit, and leave nothing behind; ends are never
 * refused; raising the limit lets the same add through. */
static void test_disk_limit(void) {
    char dir[300], msg[512];
    subdir(dir, sizeof dir, "limit");
    czk_journal *j = NULL;
    CHECK(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK);
    if (!j) return;
    czk_journal_disk_info d;
    CHECK(czk_journal_disk(j, &d) == CZK_OK);
    CHECK_MSG(d.used_bytes > 0 && d.free_bytes > 0 && d.max_share == CZK_JOURNAL_DEFAULT_DISK_SHARE && !d.by_size &&
                  d.limit_bytes == (uint64_t)(0.5 * (double)(d.used_bytes + d.free_bytes)),
              "used %llu free %llu limit %llu", (unsigned long long)d.used_bytes, (unsigned long long)d.free_bytes,
              (unsigned long long)d.limit_bytes);
    CHECK(czk_journal_set_disk_limit(j, 0, 0) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_journal_set_disk_limit(j, 1.5, 0) == CZK_ERR_INVALID_ARGUMENT);

    /* an absolute cap 1 MiB above what it holds */
    size_t big_len = (size_t)2 << 20;
    uint8_t *big = malloc(big_len);
    if (!big) return;
    memset(big, '7', big_len);
    uint64_t cap = d.used_bytes + (1u << 20), id = 0, id_small = 0;
    CHECK(czk_journal_set_disk_limit(j, 1.0, cap) == CZK_OK);
    CHECK(czk_journal_disk(j, &d) == CZK_OK && d.by_size && d.limit_bytes == cap);
    CHECK_MSG(czk_journal_add(j, "small", "demo", 1, big, 100000, &id_small, msg, sizeof msg) == CZK_OK, "%s", msg);
    msg[0] = 0;
    czk_err e = czk_journal_add(j, "big", "demo", 1, big, big_len, &id, msg, sizeof msg);
    char want[400];
    snprintf(want, sizeof want, "more than journal.max_disk_size (%llu bytes)", (unsigned long long)cap);
    CHECK_MSG(e == CZK_ERR_NO_SPACE && strstr(msg, want) && strstr(msg, dir) && strstr(msg, "a job of 2097152 bytes"),
              "add past the cap: %s: %s", czk_err_str(e), msg);
    CHECK(!has_row(j, "big"));
    char spool[400];
    snprintf(spool, sizeof spool, "%s/spool/%llu.in", dir, (unsigned long long)(id_small + 1));
    CHECK(!file_exists(spool));
    /* a share far below what it holds */
    CHECK(czk_journal_set_disk_limit(j, 1e-9, 0) == CZK_OK);
    msg[0] = 0;
    e = czk_journal_add(j, "tiny", "demo", 1, (const uint8_t *)"7", 1, &id, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_NO_SPACE && strstr(msg, "more than journal.max_disk_share 1e-09 of the ") &&
                  strstr(msg, dir),
              "add past the share: %s: %s", czk_err_str(e), msg);
    CHECK(!has_row(j, "tiny"));
    /* an end is written whatever the limit */
    czk_journal_end_info end = {.state = CZK_JOURNAL_DONE};
    bool first = false;
    CHECK_MSG(czk_journal_end(j, id_small, &end, &first, msg, sizeof msg) == CZK_OK && first, "end: %s", msg);
    /* room again */
    CHECK(czk_journal_set_disk_limit(j, 1.0, 0) == CZK_OK);
    CHECK_MSG(czk_journal_add(j, "big", "demo", 1, big, big_len, &id, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(czk_journal_disk(j, &d) == CZK_OK && d.used_bytes >= big_len);
    free(big);
    czk_journal_close(j);
}

/* The child adds jobs in a loop and reports each id after its add returned;
 * the parent kills it with SIGKILL and checks every reported job. */
static void test_sigkill(void) {
    char dir[300], msg[512];
    subdir(dir, sizeof dir, "crash");
    uint64_t *seen = NULL;
    size_t n_seen = 0, cap = 0;
    for (int round = 0; round < 4; round++) {
        int fds[2];
        if (pipe(fds) != 0) return;
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            czk_journal *j = NULL;
            char m[512];
            if (czk_journal_open(&j, dir, m, sizeof m) != CZK_OK) _exit(3);
            for (unsigned i = 0;; i++) {
                char in[32], rid[32];
                uint64_t id;
                snprintf(rid, sizeof rid, "round%d-%u", round, i);
                if (czk_journal_add(j, rid, "demo", 1, (const uint8_t *)in,
                                    (size_t)snprintf(in, sizeof in, "%d%u", round + 1, i), &id, m, sizeof m) != CZK_OK)
                    _exit(4);
                if (write(fds[1], &id, sizeof id) != (ssize_t)sizeof id) _exit(5);
            }
        }
        close(fds[1]);
        /* let it run for a varying number of acknowledged adds */
        size_t want = 5 + (size_t)round * 7, got = 0;
        uint64_t id;
        while (got < want && read(fds[0], &id, sizeof id) == (ssize_t)sizeof id) {
            if (n_seen == cap) {
                cap = cap ? 2 * cap : 64;
                seen = realloc(seen, cap * sizeof *seen);
            }
            seen[n_seen++] = id;
            got++;
        }
        kill(pid, SIGKILL);
        /* ids acknowledged while being killed count too */
        while (read(fds[0], &id, sizeof id) == (ssize_t)sizeof id) {
            if (n_seen == cap) {
                cap = cap ? 2 * cap : 64;
                seen = realloc(seen, cap * sizeof *seen);
            }
            seen[n_seen++] = id;
        }
        close(fds[0]);
        int status;
        waitpid(pid, &status, 0);
        CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child ended otherwise (status %d)", status);
        czk_journal *j = NULL;
        CHECK_MSG(czk_journal_open(&j, dir, msg, sizeof msg) == CZK_OK, "reopen after SIGKILL: %s", msg);
        if (!j) break;
        size_t missing = 0;
        for (size_t i = 0; i < n_seen; i++) {
            czk_journal_job jj;
            uint8_t *in = NULL;
            size_t len;
            if (czk_journal_get(j, seen[i], &jj) != CZK_OK || jj.state != CZK_JOURNAL_PENDING ||
                czk_journal_read_input(j, seen[i], &in, &len, msg, sizeof msg) != CZK_OK) {
                missing++;
                if (missing < 5) fprintf(stderr, "job %llu lost: %s\n", (unsigned long long)seen[i], msg);
            }
            free(in);
        }
        CHECK_MSG(missing == 0, "round %d: %zu of %zu acknowledged jobs lost", round, missing, n_seen);
        czk_journal_job *pend = NULL;
        size_t np = 0;
        CHECK(czk_journal_list_pending(j, &pend, &np, msg, sizeof msg) == CZK_OK && np >= n_seen);
        for (size_t i = 1; i < np; i++) CHECK(pend[i].id > pend[i - 1].id);
        free(pend);
        czk_journal_close(j);
    }
    printf("journal: %zu acknowledged jobs survived 4 SIGKILLs\n", n_seen);
    free(seen);
}

int main(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/czk-journal-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    test_basic();
    test_names();
    test_race();
    test_foreign();
    test_full_disk();
    test_disk_limit();
    test_sigkill();
    if (!test_failures) nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return test_finish("journal");
}
