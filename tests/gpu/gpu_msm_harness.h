/* Shared by the GPU MSM tests (test_gpu_msm.c for G1, test_gpu_msm_g2.c for
 * G2): the seeded rng and CPU pool, scalar mixes, subgroup points, density
 * bitmaps, projective-to-affine conversion, and the checks common to both
 * groups (test_size, test_equal_opposite, test_windows) built on the test's
 * own check_one.
 * The including test names its group first:
 *
 *     #define GPU_MSM_GROUP g1                 (or g2: czk_g1_* / czk_g2_*)
 *     #define GPU_MSM_GENERATOR CZK_G1_GENERATOR
 *     #define GPU_MSM_SIZE_TAG ""              (optional: test_size's line prefix)
 *     #include "gpu_msm_harness.h"
 *
 * Included by one test executable (one translation unit) each, hence the
 * static definitions. */
#ifndef CZK_TESTS_GPU_MSM_HARNESS_H
#define CZK_TESTS_GPU_MSM_HARNESS_H

#if !defined(GPU_MSM_GROUP) || !defined(GPU_MSM_GENERATOR)
#error "define GPU_MSM_GROUP (g1 or g2) and GPU_MSM_GENERATOR before including gpu_msm_harness.h"
#endif

#ifndef GPU_MSM_SIZE_TAG
#define GPU_MSM_SIZE_TAG ""
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "czk/bitmap.h"
#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/gpu.h"
#include "czk/msm.h"
#include "czk/pool.h"
#include "czk/rng.h"
#include "test.h"

/* GPU_MSM_FN(_add) is czk_g1_add or czk_g2_add, by GPU_MSM_GROUP. */
#define GPU_MSM_CAT3_(a, b, c) a##b##c
#define GPU_MSM_CAT3(a, b, c) GPU_MSM_CAT3_(a, b, c)
#define GPU_MSM_FN(suffix) GPU_MSM_CAT3(czk_, GPU_MSM_GROUP, suffix)

typedef GPU_MSM_CAT3(czk_, GPU_MSM_GROUP, ) gpu_msm_point;        /* czk_g1 / czk_g2 */
typedef GPU_MSM_CAT3(czk_, GPU_MSM_GROUP, _affine) gpu_msm_affine; /* czk_g1_affine / czk_g2_affine */

static czk_rng rng;
static czk_pool *pool;

/* MIX_BITS: PoRep witness-shaped (47.5% zero, 47.5% one, 5% random);
 * MIX_ALMOST: random but for 1 in 64 zero or one (the big scalars read
 * through their index list, not gathered) */
typedef enum { MIX_RANDOM, MIX_01, MIX_BITS, MIX_ALMOST, MIX_ZERO, MIX_ONE, MIX_MINUS_ONE, MIX_SMALL } scalar_mix;
static const char *mix_name[] = {"random", "01", "bits", "almost", "zero", "one", "r-1", "small"};

static void make_scalars(czk_fr *s, size_t n, scalar_mix mix) {
    czk_fr minus_one;
    czk_fr_neg(&minus_one, &CZK_FR_ONE);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = czk_rng_next(&rng);
        switch (mix) {
        case MIX_RANDOM: czk_fr_random(&s[i], &rng); break;
        case MIX_01: /* ~40% zero, ~40% one, ~15% random, ~5% r - 1 */
            if (v % 20 < 8) czk_fr_set_zero(&s[i]);
            else if (v % 20 < 16) czk_fr_set_one(&s[i]);
            else if (v % 20 < 19) czk_fr_random(&s[i], &rng);
            else s[i] = minus_one;
            break;
        case MIX_BITS:
            if (v % 40 < 19) czk_fr_set_zero(&s[i]);
            else if (v % 40 < 38) czk_fr_set_one(&s[i]);
            else czk_fr_random(&s[i], &rng);
            break;
        case MIX_ALMOST:
            if (v % 128 == 0) czk_fr_set_zero(&s[i]);
            else if (v % 128 == 1) czk_fr_set_one(&s[i]);
            else czk_fr_random(&s[i], &rng);
            break;
        case MIX_ZERO: czk_fr_set_zero(&s[i]); break;
        case MIX_ONE: czk_fr_set_one(&s[i]); break;
        case MIX_MINUS_ONE: s[i] = minus_one; break;
        case MIX_SMALL: czk_fr_from_u64(&s[i], v % 5); break;
        }
    }
}

/* n subgroup points P0 + i·Q (random P0, Q); about 1 in 8 at infinity when inf. */
static gpu_msm_affine *make_points(size_t n, int inf) {
    gpu_msm_affine *a = malloc(n * sizeof *a);
    gpu_msm_point *j = malloc(n * sizeof *j);
    CHECK(a && j);
    gpu_msm_point p, q, g;
    czk_fr k;
    GPU_MSM_FN(_from_affine)(&g, &GPU_MSM_GENERATOR);
    czk_fr_random(&k, &rng);
    GPU_MSM_FN(_mul_fr)(&p, &g, &k);
    czk_fr_random(&k, &rng);
    GPU_MSM_FN(_mul_fr)(&q, &g, &k);
    for (size_t i = 0; i < n; i++) {
        j[i] = p;
        GPU_MSM_FN(_add)(&p, &p, &q);
    }
    GPU_MSM_FN(_batch_to_affine)(a, j, n);
    if (inf)
        for (size_t i = 0; i < n; i++)
            if (czk_rng_next(&rng) % 8 == 0) GPU_MSM_FN(_affine_set_infinity)(&a[i]);
    free(j);
    return a;
}

static size_t make_density(czk_bitmap *d, size_t n, int percent) {
    CHECK(czk_bitmap_init(d, n) == CZK_OK);
    for (size_t i = 0; i < n; i++)
        if ((int)(czk_rng_next(&rng) % 100) < percent) czk_bitmap_set(d, i);
    return czk_bitmap_count(d);
}

static void to_affine(gpu_msm_affine *a, const gpu_msm_point *p) {
    if (GPU_MSM_FN(_is_infinity)(p)) GPU_MSM_FN(_affine_set_infinity)(a);
    else GPU_MSM_FN(_to_affine)(a, p);
}

/* One comparison of czk_gpu_msm_gN against czk_msm_gN; returns 1 when it
 * matched. Defined by the including test (after this header). */
static int check_one(czk_gpu *g, const char *what, const gpu_msm_affine *b, const czk_fr *s, size_t n,
                     const czk_bitmap *d);

static void test_size(czk_gpu *g, size_t n, int all_mixes) {
    gpu_msm_affine *b = make_points(n, 1);
    czk_fr *s = malloc(n * sizeof *s);
    int before = test_failures;
    char what[64];
    for (int mix = 0; mix <= MIX_SMALL; mix++) {
        if (!all_mixes && mix != MIX_RANDOM && mix != MIX_01 && mix != MIX_BITS) continue;
        make_scalars(s, n, (scalar_mix)mix);
        snprintf(what, sizeof what, "%s", mix_name[mix]);
        check_one(g, what, b, s, n, NULL);
        if (mix == MIX_RANDOM || mix == MIX_01 || mix == MIX_BITS) {
            czk_bitmap d;
            make_density(&d, n, mix == MIX_RANDOM ? 50 : 80);
            snprintf(what, sizeof what, "%s/density", mix_name[mix]);
            check_one(g, what, b, s, n, &d);
            czk_bitmap_free(&d);
        }
    }
    printf(GPU_MSM_SIZE_TAG "n=%-8zu %s\n", n, test_failures == before ? "ok" : "FAILED");
    fflush(stdout);
    free(s);
    free(b);
}

/* Equal and opposite bases: buckets add P + P and P + (-P). */
static void test_equal_opposite(czk_gpu *g) {
    size_t n = 3000;
    gpu_msm_affine *b = make_points(8, 0);
    gpu_msm_affine *bb = malloc(n * sizeof *bb);
    czk_fr *s = malloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        bb[i] = b[i % 3];
        if (i % 5 == 0) GPU_MSM_FN(_affine_neg)(&bb[i], &bb[i]);
    }
    make_scalars(s, n, MIX_SMALL);
    check_one(g, "equal/opposite small", bb, s, n, NULL);
    czk_fr k;
    czk_fr_random(&k, &rng);
    for (size_t i = 0; i < n; i++) s[i] = k;
    check_one(g, "equal/opposite one scalar", bb, s, n, NULL);
    for (size_t i = 0; i < n; i++) bb[i] = b[0];
    check_one(g, "all equal", bb, s, n, NULL);
    free(s), free(bb), free(b);
}

/* Each window of cs forced (CZK_GPU_MSM_WINDOW): random scalars, and
 * small ones over 8 bases repeated (many equal buckets, equal parts in the
 * window sums' tree), n of them. From 2^15 buckets a window has more than
 * one block of parts, and the tree more than one level. */
static void test_windows(czk_gpu *g, const unsigned *cs, size_t k, size_t n) {
    gpu_msm_affine *b = make_points(n, 1), *few = make_points(8, 0);
    czk_fr *s = malloc(n * sizeof *s);
    char what[64], cv[8];
    for (size_t i = 0; i < k; i++) {
        const int before = test_failures;
        snprintf(cv, sizeof cv, "%u", cs[i]);
        setenv("CZK_GPU_MSM_WINDOW", cv, 1);
        make_scalars(s, n, MIX_RANDOM);
        snprintf(what, sizeof what, "random, window %u", cs[i]);
        check_one(g, what, b, s, n, NULL);
        for (size_t j = 0; j < n; j++) b[j] = few[j % 8];
        make_scalars(s, n, MIX_SMALL);
        snprintf(what, sizeof what, "small over 8 bases, window %u", cs[i]);
        check_one(g, what, b, s, n, NULL);
        free(b);
        b = make_points(n, 1);
        printf(GPU_MSM_SIZE_TAG "window %-2u n=%zu %s\n", cs[i], n, test_failures == before ? "ok" : "FAILED");
        fflush(stdout);
    }
    unsetenv("CZK_GPU_MSM_WINDOW");
    free(s), free(b), free(few);
}

#endif
