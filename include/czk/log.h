/* czk — the daemon's log: one line per event on stderr (or a stream the
 * program picks), with a UTC timestamp, the level, and the job id and
 * partition when the event concerns one:
 *
 *   2026-11-30T16:00:23.123Z INFO  job=porep-1000-5 part=3 proved in 1.52 s
 *
 * Lines are written whole (one write per line), so lines of concurrent
 * threads never interleave. Every function is thread-safe. */
#ifndef CZK_LOG_H
#define CZK_LOG_H

#include <stdint.h>
#include <stdio.h>
#include "czk/err.h"

typedef enum {
    CZK_LOG_TRACE = 0,
    CZK_LOG_DEBUG,
    CZK_LOG_INFO,
    CZK_LOG_WARN,
    CZK_LOG_ERROR,
    CZK_LOG_OFF /* as a level: log nothing */
} czk_log_level;

/* "trace", "debug", "info", "warn" (or "warning"), "error", "off",
 * case-insensitive. CZK_ERR_INVALID_ARGUMENT with a message otherwise. */
czk_err czk_log_level_parse(czk_log_level *out, const char *s, char *msg, size_t msglen);
const char *czk_log_level_name(czk_log_level l);

/* Events below `l` are dropped (default CZK_LOG_INFO). */
void czk_log_set_level(czk_log_level l);
czk_log_level czk_log_get_level(void);
/* Where lines go (NULL: stderr, the default). The stream stays the
 * caller's. */
void czk_log_set_stream(FILE *f);

/* No job: NULL. No partition: partition < 0. A job id made only of
 * [A-Za-z0-9._:/@+-] is written as it is (job=porep-1000-5); any other is
 * quoted, with '"' and '\\' escaped and control bytes as \xNN
 * (job="wdpost-1000-0-[12 34]"), so that one line stays one event. */
#define CZK_LOG_NO_JOB NULL
#define CZK_LOG_NO_PART (-1L)

void czk_log(czk_log_level l, const char *job_id, long partition, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Repeated warnings and errors: a WARN or ERROR line whose text (level,
 * job, partition and message) equals one written less than the interval
 * before is dropped and counted; once the interval has passed since that
 * line was written, the next line logged (any) first writes it again with
 * " (repeated N times in the last T s)", N the lines dropped, and starts a
 * new interval. So a fault that repeats writes one line per interval, and
 * its count. Lines below WARN are always written. Up to 16 different lines
 * are followed at once (a 17th takes the place of the one written longest
 * ago, its count written first). 0 turns it off. */
#define CZK_LOG_REPEAT_MS_DEFAULT 5000
void czk_log_set_repeat_interval_ms(long ms);
/* The job id as czk_log writes it (NUL-terminated, truncated to cap). */
void czk_log_format_job(char *out, size_t cap, const char *job_id);

#define czk_log_info(...) czk_log(CZK_LOG_INFO, CZK_LOG_NO_JOB, CZK_LOG_NO_PART, __VA_ARGS__)
#define czk_log_warn(...) czk_log(CZK_LOG_WARN, CZK_LOG_NO_JOB, CZK_LOG_NO_PART, __VA_ARGS__)
#define czk_log_error(...) czk_log(CZK_LOG_ERROR, CZK_LOG_NO_JOB, CZK_LOG_NO_PART, __VA_ARGS__)
#define czk_log_debug(...) czk_log(CZK_LOG_DEBUG, CZK_LOG_NO_JOB, CZK_LOG_NO_PART, __VA_ARGS__)

#endif
