/* czk — variable-base MSM benchmark: ns per point (one base·scalar pair) for
 * G1 and G2 at 2^16 and 2^20, random scalars and a PoRep-like mix, on one
 * thread (NULL pool) and on a pool of 2 threads.
 *
 * Anchors: blst's Pippenger, one thread, on this project's 2-core CI machine
 * kind (G1 13.7 µs/point at 2^16 and 10.5 µs/point at 2^20, G2 30.8 µs/point
 * at 2^16); the goal is a ratio <= 1.5 on the single-thread rows.
 *
 * The PoRep-like mix is the synthetic circuit's (docs/groth16.md): 95% of the
 * values are bits, half zeros and half ones, and 5% random field elements.
 * The real fractions of a 32 GiB partition's witness are not in the
 * reference figures; 0.95 is our estimate for a SHA-256-dominated circuit.
 *
 * Options: --quick (2^16 only, fewer repeats), --window C (force the window). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/msm.h"

/* n subgroup points P0 + i·Q, made affine 2^14 at a time. */
#define POINTS(G, JAC, AFF, GEN)                                                  \
    static AFF *G##_points(size_t n, czk_rng *rng) {                              \
        AFF *a = malloc(n * sizeof *a);                                           \
        size_t chunk = (size_t)1 << 14;                                           \
        JAC *t = malloc(chunk * sizeof *t);                                       \
        JAC p, q, g;                                                              \
        czk_fr k;                                                                 \
        czk_##G##_from_affine(&g, &GEN);                                          \
        czk_fr_random(&k, rng);                                                   \
        czk_##G##_mul_fr(&p, &g, &k);                                             \
        czk_fr_random(&k, rng);                                                   \
        czk_##G##_mul_fr(&q, &g, &k);                                             \
        for (size_t i = 0; i < n; i += chunk) {                                   \
            size_t m = n - i < chunk ? n - i : chunk;                             \
            for (size_t j = 0; j < m; j++) {                                      \
                t[j] = p;                                                         \
                czk_##G##_add(&p, &p, &q);                                        \
            }                                                                     \
            czk_##G##_batch_to_affine(a + i, t, m);                               \
        }                                                                         \
        free(t);                                                                  \
        return a;                                                                 \
    }
POINTS(g1, czk_g1, czk_g1_affine, CZK_G1_GENERATOR)
POINTS(g2, czk_g2, czk_g2_affine, CZK_G2_GENERATOR)

typedef struct {
    bool g2;
    const void *bases;
    const czk_fr *scalars;
    size_t n;
    czk_pool *pool;
    czk_msm_opts opts;
} job;

static void run_once(const job *j) {
    czk_err e;
    if (j->g2) {
        czk_g2 r;
        e = czk_msm_g2_ex(&r, j->bases, j->scalars, j->n, NULL, j->pool, &j->opts);
    } else {
        czk_g1 r;
        e = czk_msm_g1_ex(&r, j->bases, j->scalars, j->n, NULL, j->pool, &j->opts);
    }
    if (e != CZK_OK) {
        fprintf(stderr, "msm failed: %s\n", czk_err_str(e));
        exit(1);
    }
}

/* `reps` timed runs (no calibration run: one MSM is long enough), ns per point. */
static bench_result measure(const char *name, const job *j, int reps) {
    double s[16];
    if (reps > 16) reps = 16;
    for (int i = 0; i < reps; i++) {
        double t0 = bench_now_ns();
        run_once(j);
        s[i] = (bench_now_ns() - t0) / (double)j->n;
    }
    qsort(s, (size_t)reps, sizeof(double), bench_cmp_double);
    bench_result r = {name, s[reps / 2], s[0], s[reps - 1], (long)j->n, reps};
    return r;
}

int main(int argc, char **argv) {
    bool quick = false;
    int window = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            quick = true;
        } else if (!strcmp(argv[i], "--window") && i + 1 < argc) {
            window = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_msm [--quick] [--window C]\n");
            return 2;
        }
    }
    czk_rng rng;
    czk_rng_seed(&rng, 42);
    czk_pool *pool2;
    if (czk_pool_create(&pool2, 2) != CZK_OK) return 1;

    size_t big = quick ? (size_t)1 << 16 : (size_t)1 << 20;
    size_t small = (size_t)1 << 16;
    printf("variable-base MSM, ns per point (op = one base·scalar pair); 1t = calling thread,\n"
           "2t = pool of 2; porep = 47.5%% zeros, 47.5%% ones, 5%% random. Repeats per row in the\n"
           "reps column of the CSV: %s.\n\n",
           quick ? "quick mode, 2^16 only" : "G1 2^20: 3, G2 2^20: 1 (one run takes 10-20 s)");
    bench_print_header();
    FILE *csv = bench_csv_open("msm.csv");

    czk_fr *rnd = malloc(big * sizeof *rnd), *porep = malloc(big * sizeof *porep);
    for (size_t i = 0; i < big; i++) {
        czk_fr_random(&rnd[i], &rng);
        uint64_t v = czk_rng_next(&rng) % 40;
        if (v < 19) czk_fr_set_zero(&porep[i]);
        else if (v < 38) czk_fr_set_one(&porep[i]);
        else czk_fr_random(&porep[i], &rng);
    }

    for (int g = 0; g < 2; g++) {
        bool g2 = g == 1;
        void *bases = g2 ? (void *)g2_points(big, &rng) : (void *)g1_points(big, &rng);
        struct {
            const char *name;
            size_t n;
            const czk_fr *s;
            czk_pool *pool;
            int reps;
            double anchor;
        } rows[] = {
            {g2 ? "G2 2^16 random 1t" : "G1 2^16 random 1t", small, rnd, NULL, quick ? 3 : 5,
             g2 ? 30800 : 13700},
            {g2 ? "G2 2^16 random 2t" : "G1 2^16 random 2t", small, rnd, pool2, quick ? 3 : 5, 0},
            {g2 ? "G2 2^20 random 1t" : "G1 2^20 random 1t", big, rnd, NULL, g2 ? 1 : 3,
             g2 ? 0 : 10500},
            {g2 ? "G2 2^20 random 2t" : "G1 2^20 random 2t", big, rnd, pool2, g2 ? 1 : 3, 0},
            {g2 ? "G2 2^20 porep 1t" : "G1 2^20 porep 1t", big, porep, NULL, g2 ? 1 : 3, 0},
            {g2 ? "G2 2^20 porep 2t" : "G1 2^20 porep 2t", big, porep, pool2, g2 ? 1 : 3, 0},
        };
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
            if (quick && k >= 2) continue; /* the 2^20 rows */
            job j = {g2, bases, rows[k].s, rows[k].n, rows[k].pool, {.window = window}};
            bench_result r = measure(rows[k].name, &j, rows[k].reps);
            bench_print(&r, rows[k].anchor);
            bench_csv_row(csv, &r, rows[k].anchor);
        }
        free(bases);
    }
    if (csv) fclose(csv);
    free(rnd);
    free(porep);
    czk_pool_destroy(pool2);
    return 0;
}
