/* The daemon's log (include/czk/log.h), its repeated lines: a WARN or ERROR
 * line logged again and again within the interval is written once; once the
 * interval has passed its count of dropped repeats is written with it, so a
 * fault repeating for a while writes about one line per interval, and every
 * occurrence is accounted for (written, or counted in a "repeated N times"
 * line). Lines that differ in level, job, partition or text are not merged;
 * INFO lines are never dropped; interval 0 drops nothing. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/log.h"
#include "test.h"

static FILE *out;

/* A new stream; counts left from before go to the old one (interval 0
 * writes every count at the next line). */
static void restart(long interval_ms) {
    czk_log_set_repeat_interval_ms(0);
    if (out) czk_log_info("next case");
    if (out) fclose(out);
    out = tmpfile();
    czk_log_set_stream(out);
    czk_log_set_repeat_interval_ms(interval_ms);
}

/* Lines written so far, and (optional) those containing `needle`. */
static size_t lines(const char *needle, size_t *with) {
    fflush(out);
    rewind(out);
    char buf[4096];
    size_t n = 0, w = 0;
    while (fgets(buf, sizeof buf, out)) {
        n++;
        if (needle && strstr(buf, needle)) w++;
    }
    fseek(out, 0, SEEK_END);
    if (with) *with = w;
    return n;
}

/* The sum of N over the "(repeated N times" lines. */
static unsigned long repeated_total(void) {
    fflush(out);
    rewind(out);
    char buf[4096];
    unsigned long sum = 0;
    while (fgets(buf, sizeof buf, out)) {
        const char *p = strstr(buf, " (repeated ");
        if (p) sum += strtoul(p + 11, NULL, 10);
    }
    fseek(out, 0, SEEK_END);
    return sum;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

int main(void) {
    czk_log_set_level(CZK_LOG_INFO);
    /* 10,000 identical errors within the default interval: one line */
    restart(CZK_LOG_REPEAT_MS_DEFAULT);
    for (int i = 0; i < 10000; i++)
        czk_log(CZK_LOG_ERROR, "job-1", CZK_LOG_NO_PART, "could not journal the end: %s", "disk I/O error");
    size_t with = 0;
    CHECK_MSG(lines("job=job-1 could not journal the end: disk I/O error", &with) == 1 && with == 1,
              "%zu lines for 10000 repeats", lines(NULL, NULL));
    /* other lines are not merged with it: another job, partition, level or text */
    czk_log(CZK_LOG_ERROR, "job-2", CZK_LOG_NO_PART, "could not journal the end: %s", "disk I/O error");
    czk_log(CZK_LOG_ERROR, "job-1", 3, "could not journal the end: %s", "disk I/O error");
    czk_log(CZK_LOG_WARN, "job-1", CZK_LOG_NO_PART, "could not journal the end: %s", "disk I/O error");
    czk_log(CZK_LOG_ERROR, "job-1", CZK_LOG_NO_PART, "could not journal the end: %s", "database or disk is full");
    CHECK_MSG(lines(NULL, NULL) == 5, "%zu lines", lines(NULL, NULL));
    /* INFO lines are all written */
    for (int i = 0; i < 3; i++) czk_log_info("service open");
    CHECK(lines("service open", &with) == 8 && with == 3);

    /* a fault repeating for 0.6 s with a 100 ms interval: a few lines, and
     * every occurrence accounted for */
    restart(100);
    unsigned long calls = 0;
    double t0 = now_s();
    while (now_s() - t0 < 0.6) {
        czk_log(CZK_LOG_ERROR, CZK_LOG_NO_JOB, CZK_LOG_NO_PART, "the state folder /x is full");
        calls++;
        sleep_ms(1);
    }
    size_t during = lines(NULL, NULL), counted = 0;
    lines(" (repeated ", &counted);
    CHECK_MSG(during >= 2 && during <= 9 && counted == during - 1,
              "%zu lines (%zu with a count) for %lu repeats in 0.6 s", during, counted, calls);
    /* the last interval's count comes with the next line logged after it */
    sleep_ms(150);
    czk_log_info("quiet now");
    CHECK_MSG(1 + repeated_total() == calls, "written once and counted %lu times, logged %lu times",
              repeated_total(), calls);
    printf("log: %lu repeats in 0.6 s (100 ms interval) took %zu lines\n", calls, lines(NULL, NULL) - 1);

    /* interval 0: nothing dropped */
    restart(0);
    for (int i = 0; i < 5; i++) czk_log_warn("again");
    CHECK(lines("again", &with) == 5 && with == 5);

    /* more different lines than slots: every one is still written at least
     * once, and counted repeats are written when their slot is taken */
    restart(CZK_LOG_REPEAT_MS_DEFAULT);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 20; i++) czk_log_warn("line %d", i);
    size_t n = lines(NULL, NULL);
    CHECK_MSG(n >= 20 && n <= 40, "%zu lines for 20 lines logged twice", n);
    for (int i = 0; i < 20; i++) {
        char needle[32];
        snprintf(needle, sizeof needle, "WARN  line %d\n", i);
        size_t w = 0;
        lines(needle, &w);
        CHECK_MSG(w >= 1, "line %d never written", i);
    }

    czk_log_set_stream(NULL);
    czk_log_set_repeat_interval_ms(CZK_LOG_REPEAT_MS_DEFAULT);
    fclose(out);
    return test_finish("log");
}
