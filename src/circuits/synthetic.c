/* czk — the synthetic circuit: always satisfiable, shaped by a profile.
 *
 * Each circuit row allocates one new variable v and is one of:
 *   bool  (1 - v)·v = 0         v a free bit             nnz (2, 1, 0)
 *   xor   (2x)·y = x + y - v    v = x XOR y, x, y bits   nnz (1, 1, 3)
 *   and   x·y = v               v = x AND y              nnz (1, 1, 1)
 *   lin   (Σ c_i a_i)·y = v + Σ d_j z_j                  nnz (kA, 1, kC)
 * where y is a boolean-constrained bit (so B holds only bool variables and
 * ONE, as in PoRep where the b_aux density equals the share of such bits),
 * and A draws first from variables that have not been in A yet, so that
 * almost every variable is (PoRep's a_aux density is 99.7 %). The last
 * inputs - 1 rows allocate the public inputs, each the packing of 8 bits:
 * (Σ 2^t b_t)·ONE = input. The kind of each row and every index and
 * coefficient come from a generator seeded by the shape alone (coefficients
 * from a pool of 2,048 fixed values); only the free
 * bits come from the instance seed, so the R1CS is the same for every seed.
 * Row-kind shares and kA, kC are solved from the profile's averages. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "circuits.h"

#define PACK_BITS 8

/* PoRep 32 GiB partition, bellperson's R1CS (../shared/reference/filecoin). */
#define POREP_CONSTRAINTS 130278541.0
#define POREP_INPUTS 328.0
#define POREP_AUX 130169893.0
#define POREP_NNZ_A 309405051.0 /* includes one entry per input row */
#define POREP_NNZ_B 130327340.0
#define POREP_NNZ_C 282656500.0
#define POREP_B_AUX 33112281.0
#define POREP_DOMAIN 134217728.0 /* 2^27 */
/* Share of 0/1 witness values, measured on the real circuit: partition 0
 * of a 32 GiB sector (sparse test seal, bench_porep_witness): of 130,169,893
 * aux values 51.38 % are 0 and 47.31 % are 1 (it was estimated at 0.95
 * before the circuit existed). */
#define POREP_BINARY_FRACTION 0.9869

czk_err czk_synthetic_profile_porep(czk_synthetic_profile *p, unsigned k) {
    if (k < 10 || k > 27) return CZK_ERR_INVALID_ARGUMENT;
    double scale = ldexp(1.0, (int)k) / POREP_DOMAIN;
    size_t total = (size_t)floor((POREP_CONSTRAINTS + POREP_INPUTS) * scale);
    size_t inputs = (size_t)llround(POREP_INPUTS * scale);
    if (inputs < 2) inputs = 2;
    p->inputs = inputs;
    p->constraints = total - inputs;
    p->nnz_a = (POREP_NNZ_A - POREP_INPUTS) / POREP_CONSTRAINTS;
    p->nnz_b = POREP_NNZ_B / POREP_CONSTRAINTS;
    p->nnz_c = POREP_NNZ_C / POREP_CONSTRAINTS;
    p->bool_fraction = POREP_B_AUX / POREP_AUX;
    p->binary_fraction = POREP_BINARY_FRACTION;
    return CZK_OK;
}

typedef struct {
    double p_bool, p_xor, p_and; /* cumulative thresholds follow from these */
    double k_a, k_c;             /* average A and C terms of a lin row */
} shape;

static void solve_shape(shape *s, const czk_synthetic_profile *p) {
    double pl = 1.0 - p->binary_fraction;
    if (pl < 0.01) pl = 0.01;
    s->p_bool = p->bool_fraction;
    double pxa = 1.0 - s->p_bool - pl; /* xor + and */
    if (pxa < 0) pxa = 0;
    /* C: 3 p_xor + p_and + k_c pl = nnz_c, with k_c = 2 when possible */
    double px = (p->nnz_c - pxa - 2.0 * pl) / 2.0;
    if (px < 0) px = 0;
    if (px > pxa) px = pxa;
    s->p_xor = px;
    s->p_and = pxa - px;
    s->k_c = (p->nnz_c - 3.0 * px - s->p_and) / pl;
    if (s->k_c < 1) s->k_c = 1;
    s->k_a = (p->nnz_a - 2.0 * s->p_bool - pxa) / pl;
    if (s->k_a < 1) s->k_a = 1;
}

/* floor(x) + Bernoulli(frac(x)) */
static size_t draw_count(double x, czk_rng *g) {
    double f = floor(x);
    double u = (double)(czk_rng_next(g) >> 11) * 0x1.0p-53;
    return (size_t)f + (u < x - f);
}

static size_t draw_index(czk_rng *g, size_t n) { return (size_t)(czk_rng_next(g) % n); }

/* A coefficient of a lin row: one of COEFF_POOL fixed non-zero values (value
 * i is drawn from a generator seeded by i alone), so that, as in PoRep (2,466
 * distinct coefficients), the circuit's coefficients fit the compact R1CS's
 * dictionary (czk/r1cs_compact.h) at every size. */
#define COEFF_POOL 2048u
static void draw_coeff(czk_fr *c, czk_rng *g) {
    czk_rng v;
    czk_rng_seed(&v, 0x636f656666ULL ^ ((uint64_t)draw_index(g, COEFF_POOL) << 32));
    do czk_fr_random(c, &v);
    while (czk_fr_is_zero(c));
}

typedef struct {
    uint32_t *v;
    size_t len, cap, head; /* head: FIFO read position */
} vec;

static bool vec_push(vec *q, uint32_t x) {
    if (q->len == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 1024;
        uint32_t *n = realloc(q->v, cap * sizeof *n);
        if (!n) return false;
        q->v = n;
        q->cap = cap;
    }
    q->v[q->len++] = x;
    return true;
}

typedef struct {
    czk_cs *cs;
    bool lcs;
    czk_rng shape_rng, value_rng;
    vec bools;   /* aux indices of boolean-constrained bits (in B) */
    vec bits;    /* aux indices of all 0/1 variables */
    vec fresh;   /* variables not yet in A (FIFO), aux indices */
    vec fresh_bits;
    size_t n_aux;
    czk_lc a, b, c;
} gen;

static czk_var aux_var(uint32_t i) { return (czk_var){i, 0}; }

static bool value_of(gen *g, czk_var v, czk_fr *out) { return czk_cs_value(g->cs, v, out); }

/* Takes a variable for A: the oldest one never in A, else a random one. */
static uint32_t take_for_a(gen *g, vec *fresh, const vec *pool_all) {
    if (fresh->head < fresh->len) return fresh->v[fresh->head++];
    return pool_all->v[draw_index(&g->shape_rng, pool_all->len)];
}

static czk_err new_aux(gen *g, const czk_fr *value, uint32_t *idx) {
    czk_var v;
    czk_err e = czk_cs_alloc(g->cs, &v, NULL, value);
    if (e != CZK_OK) return e;
    *idx = v.index;
    g->n_aux++;
    return CZK_OK;
}

static czk_err row_bool(gen *g) {
    czk_fr val;
    if (czk_rng_next(&g->value_rng) & 1) czk_fr_set_one(&val);
    else czk_fr_set_zero(&val);
    uint32_t v;
    czk_err e = new_aux(g, &val, &v);
    if (e != CZK_OK) return e;
    if (g->lcs) {
        czk_fr minus_one;
        czk_fr_neg(&minus_one, &CZK_FR_ONE);
        czk_lc_clear(&g->a);
        czk_lc_clear(&g->b);
        czk_lc_clear(&g->c);
        czk_lc_add(&g->a, CZK_VAR_ONE, NULL);
        czk_lc_add(&g->a, aux_var(v), &minus_one);
        czk_lc_add(&g->b, aux_var(v), NULL);
    }
    czk_cs_enforce(g->cs, "bool", &g->a, &g->b, &g->c);
    if (!vec_push(&g->bools, v) || !vec_push(&g->bits, v)) return CZK_ERR_NO_MEMORY;
    return CZK_OK;
}

static czk_err row_xor_and(gen *g, bool is_xor) {
    uint32_t x = take_for_a(g, &g->fresh_bits, &g->bits);
    uint32_t y = g->bools.v[draw_index(&g->shape_rng, g->bools.len)];
    if (y == x) y = g->bools.v[(draw_index(&g->shape_rng, g->bools.len))];
    czk_fr vx, vy, vv, t;
    if (!value_of(g, aux_var(x), &vx) || !value_of(g, aux_var(y), &vy)) return CZK_ERR_SYNTHESIS;
    czk_fr_mul(&t, &vx, &vy);
    if (is_xor) { /* x + y - 2xy */
        czk_fr_add(&vv, &vx, &vy);
        czk_fr_sub(&vv, &vv, &t);
        czk_fr_sub(&vv, &vv, &t);
    } else {
        vv = t;
    }
    uint32_t v;
    czk_err e = new_aux(g, &vv, &v);
    if (e != CZK_OK) return e;
    if (g->lcs) {
        czk_fr two, minus_one;
        czk_fr_dbl(&two, &CZK_FR_ONE);
        czk_fr_neg(&minus_one, &CZK_FR_ONE);
        czk_lc_clear(&g->a);
        czk_lc_clear(&g->b);
        czk_lc_clear(&g->c);
        czk_lc_add(&g->a, aux_var(x), is_xor ? &two : NULL);
        czk_lc_add(&g->b, aux_var(y), NULL);
        if (is_xor) {
            czk_lc_add(&g->c, aux_var(x), NULL);
            czk_lc_add(&g->c, aux_var(y), NULL);
            czk_lc_add(&g->c, aux_var(v), &minus_one);
        } else {
            czk_lc_add(&g->c, aux_var(v), NULL);
        }
    }
    czk_cs_enforce(g->cs, is_xor ? "xor" : "and", &g->a, &g->b, &g->c);
    if (!vec_push(&g->bits, v) || !vec_push(&g->fresh_bits, v)) return CZK_ERR_NO_MEMORY;
    return CZK_OK;
}

static czk_err row_lin(gen *g, const shape *s) {
    size_t ka = draw_count(s->k_a, &g->shape_rng), kc = draw_count(s->k_c, &g->shape_rng);
    if (ka < 1) ka = 1;
    if (kc < 1) kc = 1;
    czk_fr acc_a, acc_c, t, coeff, val;
    czk_fr_set_zero(&acc_a);
    czk_fr_set_zero(&acc_c);
    if (g->lcs) {
        czk_lc_clear(&g->a);
        czk_lc_clear(&g->b);
        czk_lc_clear(&g->c);
    }
    for (size_t i = 0; i < ka; i++) {
        uint32_t x;
        if (g->fresh.head < g->fresh.len) x = g->fresh.v[g->fresh.head++];
        else if (g->fresh_bits.head < g->fresh_bits.len) x = g->fresh_bits.v[g->fresh_bits.head++];
        else x = (uint32_t)draw_index(&g->shape_rng, g->n_aux);
        draw_coeff(&coeff, &g->shape_rng);
        if (!value_of(g, aux_var(x), &val)) return CZK_ERR_SYNTHESIS;
        czk_fr_mul(&t, &val, &coeff);
        czk_fr_add(&acc_a, &acc_a, &t);
        if (g->lcs) czk_lc_add(&g->a, aux_var(x), &coeff);
    }
    czk_var y = (czk_rng_next(&g->shape_rng) & 3) == 0 ? CZK_VAR_ONE
                                                         : aux_var(g->bools.v[draw_index(&g->shape_rng, g->bools.len)]);
    czk_fr vy;
    if (!value_of(g, y, &vy)) return CZK_ERR_SYNTHESIS;
    for (size_t j = 1; j < kc; j++) {
        uint32_t z = (uint32_t)draw_index(&g->shape_rng, g->n_aux);
        draw_coeff(&coeff, &g->shape_rng);
        if (!value_of(g, aux_var(z), &val)) return CZK_ERR_SYNTHESIS;
        czk_fr_mul(&t, &val, &coeff);
        czk_fr_add(&acc_c, &acc_c, &t);
        if (g->lcs) czk_lc_add(&g->c, aux_var(z), &coeff);
    }
    /* v = A·y - Σ d_j z_j */
    czk_fr_mul(&val, &acc_a, &vy);
    czk_fr_sub(&val, &val, &acc_c);
    uint32_t v;
    czk_err e = new_aux(g, &val, &v);
    if (e != CZK_OK) return e;
    if (g->lcs) {
        czk_lc_add(&g->b, y, NULL);
        czk_lc_add(&g->c, aux_var(v), NULL);
    }
    czk_cs_enforce(g->cs, "lin", &g->a, &g->b, &g->c);
    if (!vec_push(&g->fresh, v)) return CZK_ERR_NO_MEMORY;
    return CZK_OK;
}

/* (Σ 2^t b_t)·ONE = input, b_t random bits. */
static czk_err row_pack(gen *g) {
    czk_fr acc, pow2, val, t;
    czk_fr_set_zero(&acc);
    czk_fr_set_one(&pow2);
    if (g->lcs) {
        czk_lc_clear(&g->a);
        czk_lc_clear(&g->b);
        czk_lc_clear(&g->c);
    }
    for (int i = 0; i < PACK_BITS; i++) {
        uint32_t b = take_for_a(g, &g->fresh_bits, &g->bits);
        if (!value_of(g, aux_var(b), &val)) return CZK_ERR_SYNTHESIS;
        czk_fr_mul(&t, &val, &pow2);
        czk_fr_add(&acc, &acc, &t);
        if (g->lcs) czk_lc_add(&g->a, aux_var(b), &pow2);
        czk_fr_dbl(&pow2, &pow2);
    }
    czk_var in;
    czk_err e = czk_cs_alloc_input(g->cs, &in, "packed", &acc);
    if (e != CZK_OK) return e;
    if (g->lcs) {
        czk_lc_add(&g->b, CZK_VAR_ONE, NULL);
        czk_lc_add(&g->c, in, NULL);
    }
    czk_cs_enforce(g->cs, "pack", &g->a, &g->b, &g->c);
    return CZK_OK;
}

czk_err czk_synthetic_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    const czk_synthetic_profile *p = &c->profile;
    shape s;
    solve_shape(&s, p);
    gen g;
    memset(&g, 0, sizeof g);
    g.cs = cs;
    g.lcs = czk_cs_needs_lc(cs);
    czk_rng_seed(&g.shape_rng, 0x73796e7468657469ULL ^ p->constraints ^ ((uint64_t)p->inputs << 40));
    czk_rng_seed(&g.value_rng, seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)partition));
    czk_lc_init(&g.a);
    czk_lc_init(&g.b);
    czk_lc_init(&g.c);
    size_t packs = p->inputs - 1;
    size_t rows = p->constraints > packs ? p->constraints - packs : 0;
    czk_err e = CZK_OK;
    czk_cs_push_namespace(cs, "synthetic");
    for (size_t r = 0; r < rows && e == CZK_OK; r++) {
        double u = (double)(czk_rng_next(&g.shape_rng) >> 11) * 0x1.0p-53;
        if (r < 16 || u < s.p_bool) e = row_bool(&g);
        else if (u < s.p_bool + s.p_xor) e = row_xor_and(&g, true);
        else if (u < s.p_bool + s.p_xor + s.p_and) e = row_xor_and(&g, false);
        else e = row_lin(&g, &s);
    }
    for (size_t i = 0; i < packs && e == CZK_OK; i++) e = row_pack(&g);
    czk_cs_pop_namespace(cs);
    czk_lc_free(&g.a);
    czk_lc_free(&g.b);
    czk_lc_free(&g.c);
    free(g.bools.v);
    free(g.bits.v);
    free(g.fresh.v);
    free(g.fresh_bits.v);
    return e;
}
