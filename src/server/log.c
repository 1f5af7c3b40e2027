/* czk — the daemon's log (include/czk/log.h). */
#include "czk/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define CZK_LOG_JOB_SHOWN 256 /* job ids are shorter; escapes may double them */

static atomic_int log_level = CZK_LOG_INFO;
static FILE *_Atomic log_stream;
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;

/* Repeated warnings and errors (czk_log_set_repeat_interval_ms): the lines
 * written lately, by their text after the timestamp, under log_mu. A line
 * with no slot takes a free one, else the one written longest ago (whose
 * count of dropped repeats is written first). */
#define REPEAT_SLOTS 16
#define LINE_MAX_BYTES 2048
static atomic_long repeat_ms = CZK_LOG_REPEAT_MS_DEFAULT;
static struct {
    size_t len;           /* 0: free */
    char text[LINE_MAX_BYTES]; /* "ERROR job=… message" */
    double written_s;     /* monotonic: when it was last written */
    unsigned long dropped; /* repeats since */
} repeats[REPEAT_SLOTS];

void czk_log_set_repeat_interval_ms(long ms) { atomic_store(&repeat_ms, ms > 0 ? ms : 0); }

static const char *const NAMES[] = {"trace", "debug", "info", "warn", "error", "off"};
static const char *const TAGS[] = {"TRACE", "DEBUG", "INFO ", "WARN ", "ERROR", "OFF  "};

czk_err czk_log_level_parse(czk_log_level *out, const char *s, char *msg, size_t msglen) {
    for (int i = 0; i <= CZK_LOG_OFF; i++)
        if (s && !strcasecmp(s, NAMES[i])) {
            *out = (czk_log_level)i;
            return CZK_OK;
        }
    if (s && !strcasecmp(s, "warning")) {
        *out = CZK_LOG_WARN;
        return CZK_OK;
    }
    if (msglen) snprintf(msg, msglen, "log level must be trace, debug, info, warn, error or off, not '%s'", s ? s : "");
    return CZK_ERR_INVALID_ARGUMENT;
}

const char *czk_log_level_name(czk_log_level l) {
    return (unsigned)l <= CZK_LOG_OFF ? NAMES[l] : "?";
}

void czk_log_set_level(czk_log_level l) { atomic_store(&log_level, (int)l); }
czk_log_level czk_log_get_level(void) { return (czk_log_level)atomic_load(&log_level); }
void czk_log_set_stream(FILE *f) { atomic_store(&log_stream, f); }

static bool plain_job_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("._:/@+-", c);
}

void czk_log_format_job(char *out, size_t cap, const char *id) {
    if (!cap) return;
    size_t n = 0;
    bool plain = *id != 0;
    for (const char *p = id; *p && plain; p++) plain = plain_job_char((unsigned char)*p);
    if (plain) {
        snprintf(out, cap, "%s", id);
        return;
    }
    /* quoted: room for the closing quote and NUL is kept at every step */
    if (cap < 3) {
        out[0] = 0;
        return;
    }
    out[n++] = '"';
    for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
        char esc[5];
        size_t k;
        if (*p == '"' || *p == '\\') k = (size_t)snprintf(esc, sizeof esc, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) k = (size_t)snprintf(esc, sizeof esc, "\\x%02x", *p);
        else esc[0] = (char)*p, k = 1;
        if (n + k + 2 > cap) break;
        memcpy(out + n, esc, k);
        n += k;
    }
    out[n++] = '"';
    out[n] = 0;
}

static double mono_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "2026-11-30T16:41:24.738Z " into out (at least 32 bytes); its length. */
static size_t stamp(char *out, size_t cap) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(out, cap, "%Y-%m-%dT%H:%M:%S", &tm);
    n += (size_t)snprintf(out + n, cap - n, ".%03ldZ ", ts.tv_nsec / 1000000);
    return n;
}

/* Writes slot i's text with its count of dropped repeats (under log_mu). */
static void write_dropped(FILE *f, size_t i, double now) {
    char line[LINE_MAX_BYTES + 128];
    size_t n = stamp(line, sizeof line), k = repeats[i].len;
    if (k > 0 && repeats[i].text[k - 1] == '\n') k--;
    memcpy(line + n, repeats[i].text, k);
    n += k;
    n += (size_t)snprintf(line + n, sizeof line - n, " (repeated %lu times in the last %.1f s)\n", repeats[i].dropped,
                          now - repeats[i].written_s);
    fwrite(line, 1, n, f);
    repeats[i].dropped = 0;
    repeats[i].written_s = now;
}

/* Whether the line (its text after the timestamp: body, blen bytes) is
 * written (under log_mu). Counts of dropped repeats whose interval passed
 * are written first, whatever line comes. */
static bool repeat_admit(FILE *f, const char *body, size_t blen, bool limited) {
    const double iv = (double)atomic_load(&repeat_ms) / 1000.0, now = mono_s();
    int same = -1, free_slot = -1, oldest = -1;
    for (int i = 0; i < REPEAT_SLOTS; i++) {
        if (!repeats[i].len) {
            if (free_slot < 0) free_slot = i;
            continue;
        }
        if (now - repeats[i].written_s >= iv) {
            if (repeats[i].dropped) write_dropped(f, (size_t)i, now);
            else repeats[i].len = 0; /* quiet for an interval: forgotten */
        }
        if (repeats[i].len == blen && !memcmp(repeats[i].text, body, blen)) same = i;
        else if (repeats[i].len && (oldest < 0 || repeats[i].written_s < repeats[oldest].written_s)) oldest = i;
        if (!repeats[i].len && free_slot < 0) free_slot = i;
    }
    if (!limited || iv <= 0) return true;
    if (same >= 0) {
        if (now - repeats[same].written_s < iv) {
            repeats[same].dropped++;
            return false;
        }
        repeats[same].written_s = now;
        return true;
    }
    int i = free_slot >= 0 ? free_slot : oldest;
    if (free_slot < 0 && repeats[i].dropped) write_dropped(f, (size_t)i, now);
    memcpy(repeats[i].text, body, blen);
    repeats[i].len = blen;
    repeats[i].written_s = now;
    repeats[i].dropped = 0;
    return true;
}

void czk_log(czk_log_level l, const char *job_id, long partition, const char *fmt, ...) {
    if ((int)l < atomic_load(&log_level) || l >= CZK_LOG_OFF) return;
    char line[LINE_MAX_BYTES + 64];
    size_t n = stamp(line, sizeof line);
    const size_t body = n;
    n += (size_t)snprintf(line + n, sizeof line - n, "%s ", TAGS[l]);
    if (job_id) {
        char shown[2 * CZK_LOG_JOB_SHOWN];
        czk_log_format_job(shown, sizeof shown, job_id);
        n += (size_t)snprintf(line + n, sizeof line - n, "job=%s ", shown);
    }
    if (partition >= 0) n += (size_t)snprintf(line + n, sizeof line - n, "part=%ld ", partition);
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line + n, sizeof line - n, fmt, ap);
    va_end(ap);
    if (k < 0) k = 0;
    n = n + (size_t)k < body + LINE_MAX_BYTES - 1 ? n + (size_t)k : body + LINE_MAX_BYTES - 2;
    /* one event, one line: newlines inside the message become spaces */
    for (size_t i = 0; i < n; i++)
        if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
    line[n++] = '\n';
    FILE *f = atomic_load(&log_stream);
    if (!f) f = stderr;
    pthread_mutex_lock(&log_mu);
    if (repeat_admit(f, line + body, n - body, l >= CZK_LOG_WARN)) fwrite(line, 1, n, f);
    fflush(f);
    pthread_mutex_unlock(&log_mu);
}
