/* czk — NTT and H (bellperson's execute_fft) benchmarks.
 *
 * Sizes 2^20 and 2^22 (2^16 with --quick), on 1 thread (NULL pool) and on a
 * 2-thread pool. Rows: the natural-order forward NTT, the same without its
 * bit-reversal (DIF, bit-reversed out), and the full H computation (7
 * transforms). The anchor of a 2-thread row is the 1-thread row of the same
 * operation, so its ratio is the parallel time over the serial time.
 * CSV: bench/results/poly.csv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/mem.h"
#include "czk/poly.h"
#include "czk/pool.h"

typedef struct {
    czk_domain d;
    czk_fr *a, *b, *c;
    czk_pool *pool;
} ctx_t;

static void b_ntt(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_ntt(&x->d, x->a, x->pool);
}
static void b_dif(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_ntt_dif(&x->d, x->a, false, x->pool);
}
static void b_h(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_poly_h(&x->d, x->a, x->b, x->c, x->pool);
}

int main(int argc, char **argv) {
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    static const unsigned full[] = {20, 22}, small[] = {16};
    const unsigned *lgs = quick ? small : full;
    size_t nlg = quick ? 1 : 2;
    int reps = quick ? 5 : 3;

    czk_pool *p2 = NULL;
    if (czk_pool_create(&p2, 2) != CZK_OK) return 1;
    FILE *csv = bench_csv_open("poly.csv");
    bench_print_header();

    static const struct {
        const char *name;
        bench_fn fn;
    } ops[] = {{"ntt", b_ntt}, {"ntt_dif (no bitrev)", b_dif}, {"h", b_h}};
    static char names[64][64];
    int name_i = 0;
    for (size_t l = 0; l < nlg; l++) {
        ctx_t x;
        if (czk_domain_init(&x.d, (size_t)1 << lgs[l]) != CZK_OK) return 1;
        size_t n = x.d.n;
        /* as the prover holds them: czk_mem buffers (mapped, huge-page hint) */
        x.a = czk_mem_alloc(n * sizeof(czk_fr), CZK_MEM_ABC);
        x.b = czk_mem_alloc(n * sizeof(czk_fr), CZK_MEM_ABC);
        x.c = czk_mem_alloc(n * sizeof(czk_fr), CZK_MEM_ABC);
        if (!x.a || !x.b || !x.c) return 1;
        czk_rng rng;
        czk_rng_seed(&rng, 1);
        for (size_t i = 0; i < n; i++) {
            czk_fr_random(&x.a[i], &rng);
            czk_fr_random(&x.b[i], &rng);
            czk_fr_random(&x.c[i], &rng);
        }
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            double anchor = 0;
            for (int t = 1; t <= 2; t++) {
                x.pool = t == 1 ? NULL : p2;
                char *name = names[name_i++];
                snprintf(name, sizeof names[0], "%s 2^%u %dt", ops[o].name, lgs[l], t);
                bench_result r = bench_run(name, ops[o].fn, &x, reps, 1.0);
                bench_print(&r, anchor);
                bench_csv_row(csv, &r, anchor);
                if (t == 1) anchor = r.median_ns;
            }
        }
        czk_mem_free(x.a);
        czk_mem_free(x.b);
        czk_mem_free(x.c);
        czk_domain_free(&x.d);
    }
    if (csv) fclose(csv);
    czk_pool_destroy(p2);
    return 0;
}
