#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

double bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_result bench_run(const char *name, bench_fn fn, void *ctx, int reps, double target_ms) {
    long iters = 1;
    for (;;) {
        double t0 = bench_now_ns();
        fn(ctx, iters);
        double dt = bench_now_ns() - t0;
        if (dt >= target_ms * 1e6 / 4 || iters > (1L << 40)) {
            double per = dt / (double)iters;
            long want = (long)(target_ms * 1e6 / (per > 0 ? per : 1));
            iters = want < 1 ? 1 : want;
            break;
        }
        iters *= 2;
    }
    double *samples = malloc(sizeof(double) * (size_t)reps);
    for (int i = 0; i < reps; i++) {
        double t0 = bench_now_ns();
        fn(ctx, iters);
        samples[i] = (bench_now_ns() - t0) / (double)iters;
    }
    qsort(samples, (size_t)reps, sizeof(double), bench_cmp_double);
    bench_result r = {name, samples[reps / 2], samples[0], samples[reps - 1], iters, reps};
    free(samples);
    return r;
}

void bench_print_header(void) {
    printf("%-28s %14s %14s %14s %12s %8s\n", "operation", "median ns/op", "min ns/op", "max ns/op",
           "anchor ns", "ratio");
}

void bench_print(const bench_result *r, double anchor_ns) {
    if (anchor_ns > 0)
        printf("%-28s %14.1f %14.1f %14.1f %12.0f %8.2f\n", r->name, r->median_ns, r->min_ns, r->max_ns,
               anchor_ns, r->median_ns / anchor_ns);
    else
        printf("%-28s %14.1f %14.1f %14.1f %12s %8s\n", r->name, r->median_ns, r->min_ns, r->max_ns, "-",
               "-");
    fflush(stdout);
}

FILE *bench_csv_open(const char *file) {
    mkdir("bench", 0755);
    mkdir("bench/results", 0755);
    char path[512];
    snprintf(path, sizeof path, "bench/results/%s", file);
    FILE *f = fopen(path, "w");
    if (f) fprintf(f, "operation,median_ns,min_ns,max_ns,reps,ops_per_rep,anchor_ns,ratio\n");
    return f;
}

void bench_csv_row(FILE *f, const bench_result *r, double anchor_ns) {
    if (!f) return;
    fprintf(f, "%s,%.1f,%.1f,%.1f,%d,%ld,%.0f,%.3f\n", r->name, r->median_ns, r->min_ns, r->max_ns, r->reps,
            r->ops_per_rep, anchor_ns, anchor_ns > 0 ? r->median_ns / anchor_ns : 0.0);
}
