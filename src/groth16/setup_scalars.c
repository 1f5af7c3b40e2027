/* czk — the scalars of Groth16 parameter generation (czk/setup_scalars.h):
 * the QAP polynomials at τ per variable (a transposed sparse product split
 * by column ranges), h's powers, the ext values of l and ic, and the vk's
 * fixed points. */
#include "czk/setup_scalars.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SET_MSG(...)                                           \
    do {                                                       \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
    } while (0)

/* ---- u, v, w -------------------------------------------------------------- */

/* One matrix in either form: CSR (row64, coeff) or compact (row32, idx, dict). */
typedef struct {
    const uint64_t *row64;
    const uint32_t *row32;
    const uint32_t *col;
    const czk_fr *coeff;
    const uint16_t *idx;
    const czk_fr *dict;
    czk_fr *out;
} qap_matrix;

typedef struct {
    qap_matrix m[3];
    size_t rows, nv, nranges;
    const czk_fr *lag;
} qap_ctx;

static void qap_scan(const qap_matrix *m, size_t rows, const czk_fr *lag, uint32_t lo, uint32_t span) {
    for (size_t i = 0; i < rows; i++) {
        const uint64_t b = m->row64 ? m->row64[i] : m->row32[i];
        const uint64_t e = m->row64 ? m->row64[i + 1] : m->row32[i + 1];
        for (uint64_t k = b; k < e; k++) {
            const uint32_t c = m->col[k];
            if (c - lo >= span) continue;
            czk_fr *o = &m->out[c];
            if (m->coeff) {
                czk_fr t;
                czk_fr_mul(&t, &m->coeff[k], &lag[i]);
                czk_fr_add(o, o, &t);
            } else if (m->idx[k] == 0) {
                czk_fr_add(o, o, &lag[i]);
            } else if (m->idx[k] == 1) {
                czk_fr_sub(o, o, &lag[i]);
            } else {
                czk_fr t;
                czk_fr_mul(&t, &m->dict[m->idx[k]], &lag[i]);
                czk_fr_add(o, o, &t);
            }
        }
    }
}

static void qap_task(void *vctx, size_t begin, size_t end, int worker) {
    const qap_ctx *c = vctx;
    (void)worker;
    for (size_t r = begin; r < end; r++) {
        const uint32_t lo = (uint32_t)(c->nv * r / c->nranges), hi = (uint32_t)(c->nv * (r + 1) / c->nranges);
        for (int j = 0; j < 3; j++) {
            memset(c->m[j].out + lo, 0, (size_t)(hi - lo) * sizeof(czk_fr));
            qap_scan(&c->m[j], c->rows, c->lag, lo, hi - lo);
        }
    }
}

static void qap_run(qap_ctx *c, size_t ni, czk_pool *pool) {
    size_t slots = (size_t)czk_pool_slots(pool);
    c->nranges = c->nv < slots ? (c->nv ? c->nv : 1) : slots;
    czk_pool_run(pool, c->nranges, 1, qap_task, c);
    for (size_t i = 0; i < ni; i++) czk_fr_add(&c->m[0].out[i], &c->m[0].out[i], &c->lag[c->rows + i]);
}

void czk_setup_qap_csr(const czk_r1cs *r, const czk_fr *lagrange, czk_fr *u, czk_fr *v, czk_fr *w, czk_pool *pool) {
    const czk_csr *m[3] = {&r->a, &r->b, &r->c};
    czk_fr *out[3] = {u, v, w};
    qap_ctx c = {.rows = r->n_constraints, .nv = r->n_inputs + r->n_aux, .lag = lagrange};
    for (int j = 0; j < 3; j++)
        c.m[j] = (qap_matrix){.row64 = m[j]->row_ptr, .col = m[j]->col, .coeff = m[j]->coeff, .out = out[j]};
    qap_run(&c, r->n_inputs, pool);
}

void czk_setup_qap_compact(const czk_r1cs_compact *r, const czk_fr *lagrange, czk_fr *u, czk_fr *v, czk_fr *w,
                           czk_pool *pool) {
    const czk_csr_compact *m[3] = {&r->a, &r->b, &r->c};
    czk_fr *out[3] = {u, v, w};
    qap_ctx c = {.rows = r->n_constraints, .nv = r->n_inputs + r->n_aux, .lag = lagrange};
    for (int j = 0; j < 3; j++)
        c.m[j] = (qap_matrix){.row32 = m[j]->row_ptr, .col = m[j]->col, .idx = m[j]->coeff, .dict = r->dict,
                              .out = out[j]};
    qap_run(&c, r->n_inputs, pool);
}

/* ---- h's powers ------------------------------------------------------------- */

typedef struct {
    czk_fr *out;
    size_t first;
    const czk_fr *coeff, *tau;
} powers_ctx;

static void powers_task(void *vctx, size_t begin, size_t end, int worker) {
    const powers_ctx *c = vctx;
    (void)worker;
    const uint64_t e = (uint64_t)(c->first + begin);
    czk_fr acc;
    czk_fr_pow(&acc, c->tau, &e, 1);
    czk_fr_mul(&acc, &acc, c->coeff);
    for (size_t i = begin; i < end; i++) {
        c->out[i] = acc;
        czk_fr_mul(&acc, &acc, c->tau);
    }
}

void czk_setup_powers(czk_fr *out, size_t first, size_t count, const czk_fr *first_coeff, const czk_fr *tau,
                      czk_pool *pool) {
    powers_ctx c = {out, first, first_coeff, tau};
    size_t grain = count / ((size_t)czk_pool_slots(pool) * 4) + 1;
    if (grain < 4096) grain = 4096;
    czk_pool_run(pool, count, grain, powers_task, &c);
}

czk_err czk_setup_h_coeff(czk_fr *coeff, const czk_domain *dom, const czk_toxic *t, char *msg, size_t msglen) {
    if (czk_fr_is_zero(&t->delta)) {
        SET_MSG("delta must be non-zero");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_fr z, delta_inv;
    czk_domain_z(dom, &t->tau, &z);
    if (czk_fr_is_zero(&z)) {
        SET_MSG("tau is in the evaluation domain (Z(tau) = 0): every h point would be the identity");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_fr_inv(&delta_inv, &t->delta);
    czk_fr_mul(coeff, &z, &delta_inv);
    return CZK_OK;
}

/* ---- ext ------------------------------------------------------------------------ */

typedef struct {
    czk_fr *w;
    const czk_fr *u, *v;
    size_t ni;
    const czk_toxic *t;
    czk_fr gamma_inv, delta_inv;
    atomic_size_t zero; /* lowest aux index whose ext is zero, SIZE_MAX if none */
} ext_ctx;

static void ext_task(void *vctx, size_t begin, size_t end, int worker) {
    ext_ctx *c = vctx;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        czk_fr t, *w = &c->w[i];
        czk_fr_mul(&t, &c->u[i], &c->t->beta);
        czk_fr_add(w, w, &t);
        czk_fr_mul(&t, &c->v[i], &c->t->alpha);
        czk_fr_add(w, w, &t);
        czk_fr_mul(w, w, i < c->ni ? &c->gamma_inv : &c->delta_inv);
        if (i >= c->ni && czk_fr_is_zero(w)) {
            size_t cur = atomic_load(&c->zero);
            while (i - c->ni < cur && !atomic_compare_exchange_weak(&c->zero, &cur, i - c->ni)) {
            }
        }
    }
}

czk_err czk_setup_ext(czk_fr *w, const czk_fr *u, const czk_fr *v, size_t ni, size_t nv, const czk_toxic *t,
                      czk_pool *pool, char *msg, size_t msglen) {
    if (czk_fr_is_zero(&t->gamma) || czk_fr_is_zero(&t->delta)) {
        SET_MSG("gamma and delta must be non-zero");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    ext_ctx c = {.w = w, .u = u, .v = v, .ni = ni, .t = t};
    atomic_init(&c.zero, SIZE_MAX);
    czk_fr_inv(&c.gamma_inv, &t->gamma);
    czk_fr_inv(&c.delta_inv, &t->delta);
    size_t grain = nv / ((size_t)czk_pool_slots(pool) * 8) + 1;
    if (grain < 4096) grain = 4096;
    czk_pool_run(pool, nv, grain, ext_task, &c);
    size_t z = atomic_load(&c.zero);
    if (z != SIZE_MAX) {
        SET_MSG("aux variable %zu is unconstrained (its L query point is the identity)", z);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    return CZK_OK;
}

/* ---- zero scalars ------------------------------------------------------------ */

typedef struct {
    const czk_fr *x;
    atomic_size_t count;
} count_ctx;

static void count_task(void *vctx, size_t begin, size_t end, int worker) {
    count_ctx *c = vctx;
    (void)worker;
    size_t k = 0;
    for (size_t i = begin; i < end; i++) k += !czk_fr_is_zero(&c->x[i]);
    atomic_fetch_add(&c->count, k);
}

size_t czk_setup_count_nonzero(const czk_fr *x, size_t n, czk_pool *pool) {
    count_ctx c = {.x = x};
    atomic_init(&c.count, 0);
    czk_pool_run(pool, n, 1 << 16, count_task, &c);
    return atomic_load(&c.count);
}

size_t czk_setup_compact_nonzero(czk_fr *x, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (czk_fr_is_zero(&x[i])) continue;
        if (k != i) x[k] = x[i];
        k++;
    }
    return k;
}

/* ---- the vk ------------------------------------------------------------------ */

void czk_setup_vk_fixed(czk_vk *vk, const czk_toxic *t) {
    czk_g1 p1;
    czk_g2 p2;
    czk_g1_mul_fr(&p1, &t->g1, &t->alpha);
    czk_g1_to_affine(&vk->alpha_g1, &p1);
    czk_g1_mul_fr(&p1, &t->g1, &t->beta);
    czk_g1_to_affine(&vk->beta_g1, &p1);
    czk_g1_mul_fr(&p1, &t->g1, &t->delta);
    czk_g1_to_affine(&vk->delta_g1, &p1);
    czk_g2_mul_fr(&p2, &t->g2, &t->beta);
    czk_g2_to_affine(&vk->beta_g2, &p2);
    czk_g2_mul_fr(&p2, &t->g2, &t->gamma);
    czk_g2_to_affine(&vk->gamma_g2, &p2);
    czk_g2_mul_fr(&p2, &t->g2, &t->delta);
    czk_g2_to_affine(&vk->delta_g2, &p2);
}

/* ---- window tables ------------------------------------------------------------ */

#define TABLE_FN(NAME, JAC, AFF, ADD, BATCH, SETINF)                                     \
    czk_err NAME(AFF *out, const JAC *p) {                                               \
        JAC *row = malloc(256 * sizeof(JAC));                                            \
        if (!row) return CZK_ERR_NO_MEMORY;                                              \
        JAC base = *p;                                                                   \
        for (int w = 0; w < 32; w++) {                                                   \
            row[1] = base;                                                               \
            for (int j = 2; j < 256; j++) ADD(&row[j], &row[j - 1], &base);              \
            ADD(&row[0], &row[255], &base); /* 256·base */                                \
            base = row[0];                                                               \
            SETINF(&out[w * 256]);                                                       \
            BATCH(&out[w * 256 + 1], &row[1], 255);                                      \
        }                                                                                \
        free(row);                                                                       \
        return CZK_OK;                                                                   \
    }
TABLE_FN(czk_setup_table_g1, czk_g1, czk_g1_affine, czk_g1_add, czk_g1_batch_to_affine, czk_g1_affine_set_infinity)
TABLE_FN(czk_setup_table_g2, czk_g2, czk_g2_affine, czk_g2_add, czk_g2_batch_to_affine, czk_g2_affine_set_infinity)
