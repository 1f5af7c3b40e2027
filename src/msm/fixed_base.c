/* czk — fixed-base scalar multiplication (see include/czk/fixed_base.h).
 *
 * Window w = 8: table[i][j-1] = j·2^(8i)·G for i < 32, 1 <= j < 256, all
 * affine (one batch inversion per window row). k·G is then the sum of
 * table[i][digit_i - 1] over the non-zero base-256 digits of canonical k:
 * at most 32 mixed additions, no doublings. Written once for G1 and G2
 * through the TEMPLATE macro below. */
#include "czk/fixed_base.h"

#include <stdlib.h>

#define FB_WINDOWS 32
#define FB_ROW 255

#define CHUNK 256 /* points per batch normalisation in mul_many */

#define TEMPLATE(G, AFF, JAC)                                                                       \
    struct czk_##G##_fixed_base {                                                                    \
        AFF table[FB_WINDOWS][FB_ROW];                                                               \
    };                                                                                               \
                                                                                                     \
    czk_err czk_##G##_fixed_base_new(czk_##G##_fixed_base **out, const JAC *base) {                  \
        czk_##G##_fixed_base *t = malloc(sizeof *t);                                                 \
        JAC *row = malloc(sizeof(JAC) * FB_ROW);                                                     \
        if (!t || !row) {                                                                            \
            free(t);                                                                                 \
            free(row);                                                                               \
            return CZK_ERR_NO_MEMORY;                                                                \
        }                                                                                            \
        JAC step = *base; /* 2^(8i)·G */                                                             \
        for (int i = 0; i < FB_WINDOWS; i++) {                                                       \
            row[0] = step;                                                                           \
            for (int j = 1; j < FB_ROW; j++) czk_##G##_add(&row[j], &row[j - 1], &step);             \
            czk_##G##_batch_to_affine(t->table[i], row, FB_ROW);                                     \
            for (int k = 0; k < 8; k++) czk_##G##_dbl(&step, &step);                                 \
        }                                                                                            \
        free(row);                                                                                   \
        *out = t;                                                                                    \
        return CZK_OK;                                                                               \
    }                                                                                                \
                                                                                                     \
    void czk_##G##_fixed_base_free(czk_##G##_fixed_base *t) { free(t); }                             \
                                                                                                     \
    void czk_##G##_fixed_base_mul(JAC *r, const czk_##G##_fixed_base *t, const czk_fr *k) {          \
        uint64_t v[4];                                                                               \
        czk_fr_to_canonical(v, k);                                                                   \
        czk_##G##_set_infinity(r);                                                                   \
        for (int i = 0; i < FB_WINDOWS; i++) {                                                       \
            unsigned d = (unsigned)(v[i / 8] >> (8 * (i % 8))) & 0xff;                               \
            if (d) czk_##G##_add_affine(r, r, &t->table[i][d - 1]);                                  \
        }                                                                                            \
    }                                                                                                \
                                                                                                     \
    typedef struct {                                                                                 \
        AFF *out;                                                                                    \
        const czk_##G##_fixed_base *t;                                                               \
        const czk_fr *scalars;                                                                       \
        JAC *scratch; /* CHUNK per worker */                                                         \
    } G##_many_ctx;                                                                                  \
                                                                                                     \
    static void G##_many_task(void *c, size_t begin, size_t end, int worker) {                       \
        G##_many_ctx *x = c;                                                                         \
        JAC *tmp = x->scratch + (size_t)worker * CHUNK;                                              \
        for (size_t b = begin; b < end; b += CHUNK) {                                                \
            size_t m = end - b < CHUNK ? end - b : CHUNK;                                            \
            for (size_t i = 0; i < m; i++) czk_##G##_fixed_base_mul(&tmp[i], x->t, &x->scalars[b + i]); \
            czk_##G##_batch_to_affine(&x->out[b], tmp, m);                                           \
        }                                                                                            \
    }                                                                                                \
                                                                                                     \
    czk_err czk_##G##_fixed_base_mul_many(AFF *out, const czk_##G##_fixed_base *t, const czk_fr *scalars, \
                                          size_t n, czk_pool *pool) {                                \
        int slots = czk_pool_slots(pool);                                                            \
        JAC *scratch = malloc(sizeof(JAC) * CHUNK * (size_t)slots);                                  \
        if (!scratch) return CZK_ERR_NO_MEMORY;                                                      \
        G##_many_ctx x = {out, t, scalars, scratch};                                                 \
        czk_pool_run(pool, n, 4 * CHUNK, G##_many_task, &x);                                         \
        free(scratch);                                                                               \
        return CZK_OK;                                                                               \
    }

TEMPLATE(g1, czk_g1_affine, czk_g1)
TEMPLATE(g2, czk_g2_affine, czk_g2)
