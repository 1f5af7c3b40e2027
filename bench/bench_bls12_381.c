/* czk — BLS12-381 arithmetic benchmarks (single thread). */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "czk/fp.h"
#include "czk/fr.h"

typedef struct {
    czk_rng rng;
    czk_fp fa, fb;
    czk_fr ra, rb;
} ctx_t;

static void b_fp_mul(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_fp_mul(&x->fa, &x->fa, &x->fb);
}
static void b_fp_sqr(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_fp_sqr(&x->fa, &x->fa);
}
static void b_fp_add(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_fp_add(&x->fa, &x->fa, &x->fb);
}
static void b_fp_inv(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_fp_inv(&x->fa, &x->fa);
}
static void b_fr_mul(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_fr_mul(&x->ra, &x->ra, &x->rb);
}

int main(int argc, char **argv) {
    int reps = 11;
    double target_ms = 50;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            reps = 3;
            target_ms = 5;
        }
    }
    ctx_t c;
    czk_rng_seed(&c.rng, 42);
    czk_fp_random(&c.fa, &c.rng);
    czk_fp_random(&c.fb, &c.rng);
    czk_fr_random(&c.ra, &c.rng);
    czk_fr_random(&c.rb, &c.rng);

    FILE *csv = bench_csv_open("bls12_381.csv");
    printf("czk BLS12-381 arithmetic, single thread, fp impl: %s\n",
           czk_fp_get_impl() == CZK_FP_IMPL_ADX ? "adx" : "portable");
    bench_print_header();
    struct {
        const char *name;
        bench_fn fn;
        double anchor;
    } rows[] = {
        {"fp_mul", b_fp_mul, 0},   {"fp_sqr", b_fp_sqr, 0}, {"fp_add", b_fp_add, 0},
        {"fp_inverse", b_fp_inv, 0}, {"fr_mul", b_fr_mul, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bench_result r = bench_run(rows[i].name, rows[i].fn, &c, reps, target_ms);
        bench_print(&r, rows[i].anchor);
        bench_csv_row(csv, &r, rows[i].anchor);
    }
    if (csv) fclose(csv);
    return 0;
}
