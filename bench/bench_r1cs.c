/* czk — constraint-system benchmarks: witness-only alloc/enforce, recording
 * and checking per constraint, and a·b·c evaluation of a 2^20-row R1CS
 * (single thread and the default pool). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "czk/mem.h"
#include "czk/pool.h"
#include "czk/r1cs.h"

typedef struct {
    long n;
    bool enforce, build_lcs;
    czk_fr vals[64];
    volatile size_t sink;
} circ;

/* n × (alloc; optionally a·b = c with LCs of 2, 1 and 1 terms) */
static czk_err circuit(czk_cs *cs, void *p) {
    circ *c = p;
    czk_var prev = CZK_VAR_ONE, v;
    czk_lc la = {0}, lb = {0}, lc = {0};
    bool lcs = c->build_lcs && czk_cs_needs_lc(cs);
    czk_err e = CZK_OK;
    for (long i = 0; i < c->n; i++) {
        if ((e = czk_cs_alloc(cs, &v, "v", &c->vals[i & 63]))) break;
        if (!c->enforce) continue;
        if (lcs) {
            czk_lc_clear(&la), czk_lc_clear(&lb), czk_lc_clear(&lc);
            czk_lc_add(&la, prev, NULL);
            czk_lc_add(&la, v, &c->vals[3]);
            czk_lc_add(&lb, CZK_VAR_ONE, NULL);
            czk_lc_add(&lc, v, NULL);
            czk_cs_enforce(cs, "c", &la, &lb, &lc);
        } else {
            czk_cs_enforce(cs, "c", NULL, NULL, NULL);
        }
        prev = v;
    }
    czk_lc_free(&la), czk_lc_free(&lb), czk_lc_free(&lc);
    c->sink += czk_cs_num_aux(cs);
    return e;
}

static void b_witness_alloc(void *ctx, long iters) {
    circ *c = ctx;
    czk_witness w;
    c->n = iters, c->enforce = false;
    if (czk_witness_generate(&w, circuit, c, NULL, 0) == CZK_OK) czk_witness_free(&w);
}

static void b_witness_alloc_reserved(void *ctx, long iters) {
    circ *c = ctx;
    czk_witness w;
    c->n = iters, c->enforce = false;
    if (czk_witness_generate_reserve(&w, circuit, c, 1, (size_t)iters, NULL, 0) == CZK_OK) czk_witness_free(&w);
}

static void b_witness_alloc_enforce(void *ctx, long iters) {
    circ *c = ctx;
    czk_witness w;
    c->n = iters, c->enforce = true, c->build_lcs = true;
    if (czk_witness_generate(&w, circuit, c, NULL, 0) == CZK_OK) czk_witness_free(&w);
}

static void b_record(void *ctx, long iters) {
    circ *c = ctx;
    czk_r1cs r;
    c->n = iters, c->enforce = true, c->build_lcs = true;
    if (czk_r1cs_record(&r, circuit, c, NULL, 0) == CZK_OK) czk_r1cs_free(&r);
}

static void b_check(void *ctx, long iters) {
    circ *c = ctx;
    c->n = iters, c->enforce = true, c->build_lcs = true;
    (void)czk_cs_check(circuit, c, NULL, 0);
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* median ns per row of eval_abc over `reps` runs */
static double time_eval(const czk_r1cs *r, const czk_witness *w, czk_pool *pool, int reps) {
    double t[16];
    for (int i = 0; i < reps; i++) {
        czk_fr *a, *b, *c;
        double t0 = now_ns();
        if (czk_r1cs_eval_abc(r, w, &a, &b, &c, pool) != CZK_OK) return -1;
        t[i] = now_ns() - t0;
        czk_mem_free(a), czk_mem_free(b), czk_mem_free(c);
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2] / (double)(r->n_constraints + r->n_inputs);
}

int main(void) {
    circ c = {0};
    czk_rng rng;
    czk_rng_seed(&rng, 1);
    for (int i = 0; i < 64; i++) czk_fr_random(&c.vals[i], &rng);
    czk_fr_set_one(&c.vals[3]);
    FILE *csv = bench_csv_open("r1cs.csv");
    printf("czk constraint systems, single thread (per op: one variable or one constraint)\n");
    bench_print_header();
    struct {
        const char *name;
        bench_fn fn;
    } rows[] = {
        {"witness_alloc", b_witness_alloc},
        {"witness_alloc_reserved", b_witness_alloc_reserved},
        {"witness_alloc+enforce", b_witness_alloc_enforce},
        {"record_alloc+constraint", b_record},
        {"check_alloc+constraint", b_check},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bench_result r = bench_run(rows[i].name, rows[i].fn, &c, 7, 200);
        bench_print(&r, 0);
        bench_csv_row(csv, &r, 0);
    }
    if (csv) fclose(csv);

    /* eval_abc on 2^20 constraints of the benchmark circuit (a: 2 terms, one
     * coefficient not one; b: 1; c: 1) with random values */
    for (int i = 0; i < 64; i++) czk_fr_random(&c.vals[i], &rng);
    c.n = 1 << 20, c.enforce = true, c.build_lcs = true;
    czk_r1cs r;
    czk_witness w;
    if (czk_r1cs_record(&r, circuit, &c, NULL, 0) != CZK_OK || czk_witness_generate(&w, circuit, &c, NULL, 0) != CZK_OK)
        return 1;
    czk_pool *pool = czk_pool_default();
    double one = time_eval(&r, &w, NULL, 5), many = time_eval(&r, &w, pool, 5);
    printf("eval_abc 2^20 rows (nnz A %llu, B %llu, C %llu): 1 thread %.1f ns/row (%.2f Mrows/s); %d threads "
           "%.1f ns/row (%.2f Mrows/s)\n",
           (unsigned long long)r.a.nnz, (unsigned long long)r.b.nnz, (unsigned long long)r.c.nnz, one, 1e3 / one,
           czk_pool_slots(pool), many, 1e3 / many);
    czk_witness_free(&w);
    czk_r1cs_free(&r);
    return 0;
}
