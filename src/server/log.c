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

void czk_log(czk_log_level l, const char *job_id, long partition, const char *fmt, ...) {
    if ((int)l < atomic_load(&log_level) || l >= CZK_LOG_OFF) return;
    char line[2048];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%S", &tm);
    n += (size_t)snprintf(line + n, sizeof line - n, ".%03ldZ %s ", ts.tv_nsec / 1000000, TAGS[l]);
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
    n = n + (size_t)k < sizeof line - 1 ? n + (size_t)k : sizeof line - 2;
    /* one event, one line: newlines inside the message become spaces */
    for (size_t i = 0; i < n; i++)
        if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
    line[n++] = '\n';
    FILE *f = atomic_load(&log_stream);
    if (!f) f = stderr;
    pthread_mutex_lock(&log_mu);
    fwrite(line, 1, n, f);
    fflush(f);
    pthread_mutex_unlock(&log_mu);
}
