/* czk — evaluation domains: parameters, twiddle and coset tables, Z(τ) and
 * the Lagrange basis at τ (see include/czk/poly.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "czk/poly.h"
#include "ntt_internal.h"

static void fr_pow_u64(czk_fr *r, const czk_fr *a, uint64_t e) { czk_fr_pow(r, a, &e, 1); }

/* Largest transform size (log) the in-cache kernels see for a 2^lg transform
 * with leaf bound `limit`: the leaves and the column transforms of every
 * four-step level. */
static unsigned plan_max_kernel_log(unsigned lg, unsigned limit, unsigned leaf) {
    if (lg <= limit) return lg;
    unsigned row = poly_split_row(lg, limit);
    unsigned col = lg - row;
    unsigned inner = plan_max_kernel_log(row, leaf + POLY_ROW_SLACK, leaf);
    return col > inner ? col : inner;
}

/* out[k] = base^k, k < count: count - 1 multiplications. */
static void fill_powers(czk_fr *out, const czk_fr *base, size_t count) {
    czk_fr p = CZK_FR_ONE;
    for (size_t k = 0; k < count; k++) {
        out[k] = p;
        czk_fr_mul(&p, &p, base);
    }
}

/* Stage tables for transforms of up to 2^lg points with the primitive 2^lg-th
 * root w: stage h at [h-1, 2h-1) holds ω_{2h}^j = w^(j·2^lg/(2h)), j < h.
 * The largest stage is computed by powers, the others copied by striding. */
static void fill_stage_tables(czk_fr *tw, unsigned lg, const czk_fr *w) {
    if (lg == 0) {
        tw[0] = CZK_FR_ONE;
        return;
    }
    size_t top = (size_t)1 << (lg - 1);
    fill_powers(tw + top - 1, w, top);
    for (size_t h = top >> 1; h >= 1; h >>= 1) {
        size_t stride = top / h;
        for (size_t j = 0; j < h; j++) tw[h - 1 + j] = tw[top - 1 + j * stride];
    }
}

/* out[i] = base^rev_bits(i), i < 2^bits, using pw as scratch for the powers. */
static void fill_rev_powers(czk_fr *out, const czk_fr *base, unsigned bits, czk_fr *pw) {
    size_t count = (size_t)1 << bits;
    fill_powers(pw, base, count);
    for (size_t i = 0; i < count; i++) out[i] = pw[poly_bitrev(i, bits)];
}

czk_err czk_domain_init_leaf(czk_domain *d, size_t min_size, unsigned leaf_log) {
    if (!d) return CZK_ERR_INVALID_ARGUMENT;
    memset(d, 0, sizeof *d);
    if (leaf_log < 1 || leaf_log > 20) return CZK_ERR_INVALID_ARGUMENT;
    unsigned lg = 0;
    while (((size_t)1 << lg) < min_size) {
        lg++;
        if (lg > CZK_DOMAIN_MAX_LOG) return CZK_ERR_UNSUPPORTED;
    }
    size_t n = (size_t)1 << lg;

    unsigned tw_log = plan_max_kernel_log(lg, leaf_log, leaf_log);
    unsigned lb = poly_split_row(lg, leaf_log), hb = lg - lb;
    size_t tw_len = (size_t)1 << tw_log; /* 2^tw_log - 1 entries used, at least 1 */
    size_t hi_len = (size_t)1 << hb, lo_len = (size_t)1 << lb;
    size_t total = 2 * tw_len + 3 * (hi_len + lo_len);
    size_t scratch_len = hi_len > lo_len ? hi_len : lo_len;
    czk_fr *mem = poly_alloc_points(total);
    czk_fr *pw = malloc(scratch_len * sizeof(czk_fr));
    if (!mem || !pw) {
        free(mem);
        free(pw);
        return CZK_ERR_NO_MEMORY;
    }

    d->n = n;
    d->log_n = lg;
    d->leaf_log = leaf_log;
    d->tw_log = tw_log;
    d->row_log = lb;
    czk_fr_root_of_unity(&d->omega, (int)lg);
    czk_fr_inv(&d->omega_inv, &d->omega);
    czk_fr nf;
    czk_fr_from_u64(&nf, (uint64_t)n);
    czk_fr_inv(&d->n_inv, &nf);
    czk_fr_from_u64(&d->coset, 7);
    czk_fr_inv(&d->coset_inv, &d->coset);

    d->root[lg] = d->omega;
    d->root_inv[lg] = d->omega_inv;
    for (unsigned k = lg; k > 0; k--) {
        czk_fr_sqr(&d->root[k - 1], &d->root[k]);
        czk_fr_sqr(&d->root_inv[k - 1], &d->root_inv[k]);
    }

    d->mem = mem;
    d->tw_fwd = mem;
    d->tw_inv = mem + tw_len;
    fill_stage_tables(d->tw_fwd, tw_log, &d->root[tw_log]);
    fill_stage_tables(d->tw_inv, tw_log, &d->root_inv[tw_log]);

    czk_fr *t = mem + 2 * tw_len;
    d->g_nat_hi = t, t += hi_len;
    d->g_nat_lo = t, t += lo_len;
    d->g_rev_hi = t, t += hi_len;
    d->g_rev_lo = t, t += lo_len;
    d->gi_rev_hi = t, t += hi_len;
    d->gi_rev_lo = t;

    /* g^p = g^(hi·2^lb) · g^lo */
    czk_fr g_lb = d->coset;
    for (unsigned k = 0; k < lb; k++) czk_fr_sqr(&g_lb, &g_lb);
    fill_powers(d->g_nat_hi, &g_lb, hi_len);
    fill_powers(d->g_nat_lo, &d->coset, lo_len);
    /* rev(p) = rev_lb(lo)·2^hb + rev_hb(hi) */
    for (int inv = 0; inv < 2; inv++) {
        const czk_fr *g = inv ? &d->coset_inv : &d->coset;
        czk_fr g_hb = *g;
        for (unsigned k = 0; k < hb; k++) czk_fr_sqr(&g_hb, &g_hb);
        fill_rev_powers(inv ? d->gi_rev_hi : d->g_rev_hi, g, hb, pw);
        fill_rev_powers(inv ? d->gi_rev_lo : d->g_rev_lo, &g_hb, lb, pw);
    }
    free(pw);
    return CZK_OK;
}

czk_err czk_domain_init(czk_domain *d, size_t min_size) {
    return czk_domain_init_leaf(d, min_size, POLY_LEAF_LOG);
}

void czk_domain_free(czk_domain *d) {
    if (!d) return;
    free(d->mem);
    memset(d, 0, sizeof *d);
}

void czk_domain_z(const czk_domain *d, const czk_fr *tau, czk_fr *out) {
    czk_fr t;
    fr_pow_u64(&t, tau, (uint64_t)d->n);
    czk_fr_sub(out, &t, &CZK_FR_ONE);
}

typedef struct {
    const czk_domain *d;
    czk_fr tau;
    czk_fr zn;     /* (τ^n - 1)/n */
    bool in_domain; /* τ^n = 1: τ is some ω^j */
    czk_fr *out;
} lagrange_ctx;

/* Chunk [b, e): batch inversion of τ - ω^i (prefix products in out, one
 * inversion, a backward pass recomputing ω^i by ω^-1), then ·ω^i·zn. */
static void lagrange_task(void *ctx, size_t b, size_t e, int worker) {
    (void)worker;
    const lagrange_ctx *lc = ctx;
    const czk_domain *d = lc->d;
    czk_fr *out = lc->out;
    czk_fr w;
    fr_pow_u64(&w, &d->omega, (uint64_t)b);
    if (lc->in_domain) {
        for (size_t i = b; i < e; i++) {
            out[i] = czk_fr_equal(&w, &lc->tau) ? CZK_FR_ONE : (czk_fr){{0}};
            czk_fr_mul(&w, &w, &d->omega);
        }
        return;
    }
    czk_fr acc = CZK_FR_ONE, den;
    for (size_t i = b; i < e; i++) {
        out[i] = acc;
        czk_fr_sub(&den, &lc->tau, &w);
        czk_fr_mul(&acc, &acc, &den);
        if (i + 1 < e) czk_fr_mul(&w, &w, &d->omega);
    }
    czk_fr inv;
    czk_fr_inv(&inv, &acc); /* 1/Π(τ - ω^i), nonzero since τ is not in the domain */
    czk_fr wz;
    czk_fr_mul(&wz, &w, &lc->zn);
    for (size_t i = e; i-- > b;) {
        czk_fr_sub(&den, &lc->tau, &w);
        czk_fr_mul(&out[i], &out[i], &inv); /* 1/(τ - ω^i) */
        czk_fr_mul(&inv, &inv, &den);
        czk_fr_mul(&out[i], &out[i], &wz);
        czk_fr_mul(&w, &w, &d->omega_inv);
        czk_fr_mul(&wz, &wz, &d->omega_inv);
    }
}

void czk_domain_lagrange_at(const czk_domain *d, const czk_fr *tau, czk_fr *out, czk_pool *pool) {
    if (!d || !tau || !out || d->n == 0) return;
    lagrange_ctx lc = {.d = d, .tau = *tau, .out = out};
    czk_fr z;
    czk_domain_z(d, tau, &z);
    lc.in_domain = czk_fr_is_zero(&z);
    czk_fr_mul(&lc.zn, &z, &d->n_inv);
    /* chunks of at least 1024 points keep the inversions negligible */
    size_t slots = (size_t)czk_pool_slots(pool);
    size_t grain = (d->n + 4 * slots - 1) / (4 * slots);
    if (grain < 1024) grain = 1024;
    czk_pool_run(pool, d->n, grain, lagrange_task, &lc);
}
