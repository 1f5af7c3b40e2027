/* czk — benchmark harness: runs a body repeatedly, reports the median,
 * minimum and maximum ns per operation, prints a table row and appends CSV. */
#ifndef CZK_BENCH_H
#define CZK_BENCH_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
    const char *name;
    double median_ns, min_ns, max_ns;
    long ops_per_rep;
    int reps;
} bench_result;

/* fn(ctx, iters) runs the operation iters times. The harness calibrates iters
 * so one repeat takes about target_ms, then takes `reps` repeats. */
typedef void (*bench_fn)(void *ctx, long iters);

/* Monotonic clock in nanoseconds. */
double bench_now_ns(void);
/* qsort comparator for doubles (ascending). */
int bench_cmp_double(const void *a, const void *b);

bench_result bench_run(const char *name, bench_fn fn, void *ctx, int reps, double target_ms);
void bench_print_header(void);
void bench_print(const bench_result *r, double anchor_ns);
/* Opens bench/results/<file> (creating the folder) and writes the header. */
FILE *bench_csv_open(const char *file);
void bench_csv_row(FILE *f, const bench_result *r, double anchor_ns);

#endif
