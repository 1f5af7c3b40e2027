/* Fixtures for the Groth16 file tests: random subgroup points, points outside
 * the subgroup, small random parameters, temporary paths. Static functions,
 * included by each test_*io*.c. */
#ifndef CZK_TEST_IO_FIXTURES_H
#define CZK_TEST_IO_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czk/fp2.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/mem.h"
#include "test.h"

static inline void fx_g1(czk_g1_affine *out, czk_rng *rng) {
    czk_fr k;
    czk_g1 g, r;
    do czk_fr_random(&k, rng);
    while (czk_fr_is_zero(&k));
    czk_g1_from_affine(&g, &CZK_G1_GENERATOR);
    czk_g1_mul_fr(&r, &g, &k);
    czk_g1_to_affine(out, &r);
}

static inline void fx_g2(czk_g2_affine *out, czk_rng *rng) {
    czk_fr k;
    czk_g2 g, r;
    do czk_fr_random(&k, rng);
    while (czk_fr_is_zero(&k));
    czk_g2_from_affine(&g, &CZK_G2_GENERATOR);
    czk_g2_mul_fr(&r, &g, &k);
    czk_g2_to_affine(out, &r);
}

/* A point on the curve, outside the order-r subgroup. */
static inline void fx_g1_outside(czk_g1_affine *out, czk_rng *rng) {
    czk_fp x, y, rhs, b;
    czk_fp_from_u64(&b, 4);
    for (;;) {
        czk_fp_random(&x, rng);
        czk_fp_sqr(&rhs, &x);
        czk_fp_mul(&rhs, &rhs, &x);
        czk_fp_add(&rhs, &rhs, &b);
        if (!czk_fp_sqrt(&y, &rhs)) continue;
        czk_g1_affine a = {x, y};
        if (czk_g1_affine_in_subgroup(&a)) continue;
        *out = a;
        return;
    }
}

static inline void fx_g2_outside(czk_g2_affine *out, czk_rng *rng) {
    czk_fp2 x, y, rhs, b;
    czk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    for (;;) {
        czk_fp2_random(&x, rng);
        czk_fp2_sqr(&rhs, &x);
        czk_fp2_mul(&rhs, &rhs, &x);
        czk_fp2_add(&rhs, &rhs, &b);
        if (!czk_fp2_sqrt(&y, &rhs)) continue;
        czk_g2_affine a = {x, y};
        if (czk_g2_affine_in_subgroup(&a)) continue;
        *out = a;
        return;
    }
}

/* p as 48 big-endian bytes. */
static inline void fx_modulus_be(uint8_t out[48]) {
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++) out[47 - (8 * i + j)] = (uint8_t)(CZK_FP_MODULUS.l[i] >> (8 * j));
}

/* Random vk with n_ic IC points (czk_mem buffer); alpha_g1 and gamma_g2 at
 * infinity when with_infinity (allowed by bellperson's reader). */
static inline void fx_vk(czk_vk *vk, size_t n_ic, int with_infinity, czk_rng *rng) {
    fx_g1(&vk->alpha_g1, rng);
    fx_g1(&vk->beta_g1, rng);
    fx_g2(&vk->beta_g2, rng);
    fx_g2(&vk->gamma_g2, rng);
    fx_g1(&vk->delta_g1, rng);
    fx_g2(&vk->delta_g2, rng);
    if (with_infinity) {
        czk_g1_affine_set_infinity(&vk->alpha_g1);
        czk_g2_affine_set_infinity(&vk->gamma_g2);
    }
    vk->n_ic = n_ic;
    vk->ic = n_ic ? czk_mem_alloc(n_ic * sizeof *vk->ic, CZK_MEM_SRS) : NULL;
    for (size_t i = 0; i < n_ic; i++) fx_g1(&vk->ic[i], rng);
}

/* n G1 subgroup points: a random point and its successive multiples. */
static inline czk_g1_affine *fx_g1_array(size_t n, czk_rng *rng) {
    if (n == 0) return NULL;
    czk_g1_affine *a = czk_mem_alloc(n * sizeof *a, CZK_MEM_SRS);
    czk_g1_affine base;
    fx_g1(&base, rng);
    czk_g1 acc;
    czk_g1_from_affine(&acc, &base);
    for (size_t i = 0; i < n; i++) {
        czk_g1_to_affine(&a[i], &acc);
        czk_g1_add_affine(&acc, &acc, &base);
    }
    return a;
}

static inline czk_g2_affine *fx_g2_array(size_t n, czk_rng *rng) {
    if (n == 0) return NULL;
    czk_g2_affine *a = czk_mem_alloc(n * sizeof *a, CZK_MEM_SRS);
    czk_g2_affine base;
    fx_g2(&base, rng);
    czk_g2 acc;
    czk_g2_from_affine(&acc, &base);
    for (size_t i = 0; i < n; i++) {
        czk_g2_to_affine(&a[i], &acc);
        czk_g2_add_affine(&acc, &acc, &base);
    }
    return a;
}

static inline void fx_params(czk_params *p, size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b_g1,
                             size_t n_b_g2, int with_infinity, czk_rng *rng) {
    memset(p, 0, sizeof *p);
    fx_vk(&p->vk, n_ic, with_infinity, rng);
    p->h = fx_g1_array(p->n_h = n_h, rng);
    p->l = fx_g1_array(p->n_l = n_l, rng);
    p->a = fx_g1_array(p->n_a = n_a, rng);
    p->b_g1 = fx_g1_array(p->n_b_g1 = n_b_g1, rng);
    p->b_g2 = fx_g2_array(p->n_b_g2 = n_b_g2, rng);
}

static inline int fx_vk_equal(const czk_vk *a, const czk_vk *b) {
    if (!czk_g1_affine_equal(&a->alpha_g1, &b->alpha_g1) || !czk_g1_affine_equal(&a->beta_g1, &b->beta_g1) ||
        !czk_g2_affine_equal(&a->beta_g2, &b->beta_g2) || !czk_g2_affine_equal(&a->gamma_g2, &b->gamma_g2) ||
        !czk_g1_affine_equal(&a->delta_g1, &b->delta_g1) || !czk_g2_affine_equal(&a->delta_g2, &b->delta_g2) ||
        a->n_ic != b->n_ic)
        return 0;
    for (size_t i = 0; i < a->n_ic; i++)
        if (!czk_g1_affine_equal(&a->ic[i], &b->ic[i])) return 0;
    return 1;
}

/* A fresh temporary directory (removed by fx_tmpdir_remove) and paths in it. */
static inline char *fx_tmpdir(void) {
    const char *base = getenv("TMPDIR");
    char *t = malloc(512);
    snprintf(t, 512, "%s/czk_io_XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(t)) {
        perror("mkdtemp");
        exit(1);
    }
    return t;
}

static inline void fx_path(char *out, size_t cap, const char *dir, const char *name) {
    snprintf(out, cap, "%s/%s", dir, name);
}

static inline void fx_write_raw(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n)) {
        perror(path);
        exit(1);
    }
    fclose(f);
}

static inline uint8_t *fx_read_raw(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        fclose(f);
        return NULL;
    }
    b[len] = 0;
    fclose(f);
    *n = (size_t)len;
    return b;
}

static inline void fx_tmpdir_remove(char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    free(dir);
}

#endif
