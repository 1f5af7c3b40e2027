/* czk — BLS12-381 arithmetic benchmarks (single thread).
 *
 * Anchors: blst (assembly, single thread) measured on this project's 2-core
 * CI machine kind (see docs/benchmarks.md); the goal is a ratio <= 1.5. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "czk/fp.h"
#include "czk/fp2.h"
#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/pairing.h"

typedef struct {
    czk_rng rng;
    czk_fp fa, fb;
    czk_fp2 f2a, f2b;
    czk_fr ra, rb;
    czk_g1 p1;
    czk_g1_affine a1;
    czk_g2 p2;
    czk_g2_affine a2;
    czk_g1_affine pa[3];
    czk_g2_affine qa[3];
    czk_fp12 gt;
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
static void b_fp2_mul(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_fp2_mul(&x->f2a, &x->f2a, &x->f2b);
}
static void b_fr_mul(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_fr_mul(&x->ra, &x->ra, &x->rb);
}
static void b_g1_madd(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_g1_add_affine(&x->p1, &x->p1, &x->a1);
}
static void b_g1_dbl(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_g1_dbl(&x->p1, &x->p1);
}
static void b_g1_add(void *c, long n) {
    ctx_t *x = c;
    czk_g1 q;
    czk_g1_from_affine(&q, &x->a1);
    czk_g1_dbl(&q, &q);
    for (long i = 0; i < n; i++) czk_g1_add(&x->p1, &x->p1, &q);
}
static void b_g1_mul(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) {
        czk_g1_mul_fr(&x->p1, &x->p1, &x->ra);
        x->ra.l[0] ^= (uint64_t)i; /* vary the scalar; stays below r */
    }
}
static void b_g2_madd(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_g2_add_affine(&x->p2, &x->p2, &x->a2);
}
static void b_g2_dbl(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_g2_dbl(&x->p2, &x->p2);
}
static void b_g2_mul(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) {
        czk_g2_mul_fr(&x->p2, &x->p2, &x->ra);
        x->ra.l[0] ^= (uint64_t)i;
    }
}
static void b_g1_subgroup(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) x->gt.c0.c0.c0.l[0] += czk_g1_affine_in_subgroup(&x->pa[i % 3]);
}
static void b_g2_subgroup(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) x->gt.c0.c0.c0.l[0] += czk_g2_affine_in_subgroup(&x->qa[i % 3]);
}
static void b_pairing(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_pairing(&x->gt, &x->pa[i % 3], &x->qa[i % 3]);
}
static void b_miller(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_miller_loop(&x->gt, &x->pa[i % 3], &x->qa[i % 3]);
}
static void b_final_exp(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_final_exponentiation(&x->gt, &x->gt);
}
static void b_multi_pairing3(void *c, long n) {
    ctx_t *x = c;
    for (long i = 0; i < n; i++) czk_multi_pairing(&x->gt, x->pa, x->qa, 3);
}

int main(int argc, char **argv) {
    int reps = 11;
    double target_ms = 100;
    const char *csv_name = "bls12_381.csv";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            reps = 3;
            target_ms = 10;
        } else if (!strcmp(argv[i], "--portable")) {
            czk_fp_set_impl(CZK_FP_IMPL_PORTABLE);
            csv_name = "bls12_381_portable.csv";
        } else {
            fprintf(stderr, "usage: bench_bls12_381 [--quick] [--portable]\n");
            return 2;
        }
    }
    ctx_t c;
    czk_rng_seed(&c.rng, 42);
    czk_fp_random(&c.fa, &c.rng);
    czk_fp_random(&c.fb, &c.rng);
    czk_fp2_random(&c.f2a, &c.rng);
    czk_fp2_random(&c.f2b, &c.rng);
    czk_fr_random(&c.ra, &c.rng);
    czk_fr_random(&c.rb, &c.rng);
    czk_g1 g1;
    czk_g2 g2;
    czk_g1_from_affine(&g1, &CZK_G1_GENERATOR);
    czk_g2_from_affine(&g2, &CZK_G2_GENERATOR);
    for (int i = 0; i < 3; i++) {
        czk_fr k;
        czk_g1 t1;
        czk_g2 t2;
        czk_fr_random(&k, &c.rng);
        czk_g1_mul_fr(&t1, &g1, &k);
        czk_g1_to_affine(&c.pa[i], &t1);
        czk_fr_random(&k, &c.rng);
        czk_g2_mul_fr(&t2, &g2, &k);
        czk_g2_to_affine(&c.qa[i], &t2);
    }
    c.a1 = c.pa[0];
    c.a2 = c.qa[0];
    czk_g1_from_affine(&c.p1, &c.pa[1]);
    czk_g2_from_affine(&c.p2, &c.qa[1]);
    czk_pairing(&c.gt, &c.pa[0], &c.qa[0]);

    FILE *csv = bench_csv_open(csv_name);
    printf("czk BLS12-381 arithmetic, single thread, multiplication path: %s\n",
           czk_fp_get_impl() == CZK_FP_IMPL_ADX ? "mulx/adx assembly" : "portable C");
    printf("median of %d repeats; anchor = blst on the same machine kind (docs/benchmarks.md)\n", reps);
    bench_print_header();
    struct {
        const char *name;
        bench_fn fn;
        double anchor;
    } rows[] = {
        {"fp_mul", b_fp_mul, 0},
        {"fp_sqr", b_fp_sqr, 0},
        {"fp_add", b_fp_add, 0},
        {"fp_inverse", b_fp_inv, 0},
        {"fp2_mul", b_fp2_mul, 0},
        {"fr_mul", b_fr_mul, 0},
        {"g1_add_mixed", b_g1_madd, 671},
        {"g1_double", b_g1_dbl, 500},
        {"g1_add", b_g1_add, 0},
        {"g1_scalar_mul", b_g1_mul, 138000},
        {"g1_subgroup_check", b_g1_subgroup, 0},
        {"g2_add_mixed", b_g2_madd, 0},
        {"g2_double", b_g2_dbl, 0},
        {"g2_scalar_mul", b_g2_mul, 320000},
        {"g2_subgroup_check", b_g2_subgroup, 0},
        {"miller_loop", b_miller, 0},
        {"final_exponentiation", b_final_exp, 0},
        {"pairing", b_pairing, 1070000},
        {"multi_pairing_3", b_multi_pairing3, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bench_result r = bench_run(rows[i].name, rows[i].fn, &c, reps, target_ms);
        bench_print(&r, rows[i].anchor);
        bench_csv_row(csv, &r, rows[i].anchor);
    }
    if (csv) {
        fclose(csv);
        printf("CSV: bench/results/%s\n", csv_name);
    }
    /* keep the results observable so nothing is optimised away */
    return c.gt.c0.c0.c0.l[0] == 0x5a5a5a5a5a5a5a5aULL && c.p1.x.l[0] == 1 ? 3 : 0;
}
