/* czk — benchmark harness: runs a body repeatedly, reports the median,
 * minimum and maximum ns per operation, prints a table row and appends CSV. */
#ifndef CZK_BENCH_H
#define CZK_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/g2.h"

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

/* n scalars from an xorshift stream seeded with seed, each limb drawn in
 * turn and the top limb reduced below r's (so the value is < r); with
 * binary > 0, that fraction of them is 0 or 1 instead (a witness's mix).
 * Benchmarks only: not a random number generator for anything else. */
void bench_fill_fr(czk_fr *v, size_t n, uint64_t seed, double binary);
/* n values with the classes of an R1CS vector: the fractions zero, one and
 * small (k·1 for 2 <= |k| <= 16, either sign), the rest other values as
 * bench_fill_fr draws them. */
void bench_fill_fr_mix(czk_fr *v, size_t n, uint64_t seed, double zero, double one, double small);
/* The classes of a SHA-256 circuit's a, b and c (which 0, 1, 2; counted over
 * gadget-sha256-512, docs/benchmarks.md): a 49.6 % zero, 19.6 % one, 30.8 %
 * small; b 50.4 % zero, 49.6 % one; c 81.3 % zero, 3.3 % one, 15.3 % small;
 * about 0.1 % other values in a and c. */
void bench_fill_fr_sha(czk_fr *v, size_t n, uint64_t seed, int which);
/* n affine points for MSM benchmarks: the 2^16 distinct points G + i·2G
 * repeated (malloc; NULL when out of memory). */
czk_g1_affine *bench_g1_points(size_t n);
czk_g2_affine *bench_g2_points(size_t n);

#endif
