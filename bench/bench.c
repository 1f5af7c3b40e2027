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

/* the cut of a uniform 64-bit draw for probability p (1 and above: all) */
static uint64_t cut_of(double p) {
    const double x = p * 18446744073709551616.0;
    return p <= 0 ? 0 : x >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)x;
}

/* an "other" value: each limb drawn in turn from the xorshift stream s, the
 * top one reduced below r's */
static void draw_other(czk_fr *v, uint64_t *s) {
    for (int k = 0; k < 4; k++) {
        *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
        v->l[k] = k == 3 ? *s % 0x73eda753299d7d48ull : *s;
    }
}

void bench_fill_fr(czk_fr *v, size_t n, uint64_t s, double binary) {
    const uint64_t cut = cut_of(binary);
    for (size_t i = 0; i < n; i++) {
        if (cut) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            if (s < cut) {
                v[i] = (s & 1) ? CZK_FR_ONE : (czk_fr){{0}};
                continue;
            }
        }
        draw_other(&v[i], &s);
    }
}

void bench_fill_fr_mix(czk_fr *v, size_t n, uint64_t s, double zero, double one, double small) {
    czk_fr k1[17]; /* k·1, k <= 16 */
    czk_fr_set_zero(&k1[0]);
    for (int k = 1; k <= 16; k++) czk_fr_add(&k1[k], &k1[k - 1], &CZK_FR_ONE);
    const uint64_t c0 = cut_of(zero), c1 = cut_of(zero + one), c2 = cut_of(zero + one + small);
    s |= 1;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        if (s < c0) {
            v[i] = k1[0];
        } else if (s < c1) {
            v[i] = k1[1];
        } else if (s < c2) {
            const int k = 2 + (int)((s >> 8) % 15);
            v[i] = k1[k];
            if ((s >> 4) & 1) czk_fr_neg(&v[i], &v[i]);
        } else {
            draw_other(&v[i], &s);
        }
    }
}

void bench_fill_fr_sha(czk_fr *v, size_t n, uint64_t seed, int which) {
    if (which == 0) bench_fill_fr_mix(v, n, seed, 0.496, 0.196, 0.307);
    else if (which == 1) bench_fill_fr_mix(v, n, seed, 0.504, 0.496, 0);
    else bench_fill_fr_mix(v, n, seed, 0.813, 0.033, 0.153);
}

#define BENCH_DISTINCT ((size_t)1 << 16)

czk_g1_affine *bench_g1_points(size_t n) {
    size_t d = n < BENCH_DISTINCT ? n : BENCH_DISTINCT;
    czk_g1_affine *v = malloc((n ? n : 1) * sizeof *v);
    czk_g1 *jac = malloc((d ? d : 1) * sizeof *jac);
    if (!v || !jac) {
        free(v);
        free(jac);
        return NULL;
    }
    czk_g1 p, q;
    czk_g1_from_affine(&p, &CZK_G1_GENERATOR);
    czk_g1_dbl(&q, &p);
    for (size_t i = 0; i < d; i++) {
        jac[i] = p;
        czk_g1_add(&p, &p, &q);
    }
    czk_g1_batch_to_affine(v, jac, d);
    for (size_t i = d; i < n; i++) v[i] = v[i % d];
    free(jac);
    return v;
}

czk_g2_affine *bench_g2_points(size_t n) {
    size_t d = n < BENCH_DISTINCT ? n : BENCH_DISTINCT;
    czk_g2_affine *v = malloc((n ? n : 1) * sizeof *v);
    czk_g2 *jac = malloc((d ? d : 1) * sizeof *jac);
    if (!v || !jac) {
        free(v);
        free(jac);
        return NULL;
    }
    czk_g2 p, q;
    czk_g2_from_affine(&p, &CZK_G2_GENERATOR);
    czk_g2_dbl(&q, &p);
    for (size_t i = 0; i < d; i++) {
        jac[i] = p;
        czk_g2_add(&p, &p, &q);
    }
    czk_g2_batch_to_affine(v, jac, d);
    for (size_t i = d; i < n; i++) v[i] = v[i % d];
    free(jac);
    return v;
}
