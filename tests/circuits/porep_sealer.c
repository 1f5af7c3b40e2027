/* See porep_sealer.h. Included by the tests that use it (one translation
 * unit per test executable). */
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_por.h"
#include "porep_sealer.h"

static bool tree_build(sealer_tree *t, czk_hasher h, const unsigned *arity, size_t levels, czk_fr *leaves,
                       size_t n) {
    memset(t, 0, sizeof *t);
    t->levels = levels;
    t->nodes[0] = leaves;
    for (size_t l = 0; l < levels; l++) {
        t->arity[l] = arity[l];
        size_t m = n / arity[l];
        t->nodes[l + 1] = malloc(m * sizeof(czk_fr));
        if (!t->nodes[l + 1]) return false;
        for (size_t k = 0; k < m; k++)
            if (czk_hasher_node(h, &t->nodes[l + 1][k], &t->nodes[l][k * arity[l]], arity[l]) != CZK_OK) return false;
        n = m;
    }
    return n == 1;
}

static void tree_free(sealer_tree *t) {
    for (size_t l = 0; l <= t->levels; l++) free(t->nodes[l]);
    memset(t, 0, sizeof *t);
}

static bool tree_path(const sealer_tree *t, uint64_t c, czk_fil_path *p) {
    p->n_levels = t->levels;
    p->levels = calloc(t->levels ? t->levels : 1, sizeof *p->levels);
    if (!p->levels) return false;
    uint64_t pos = c;
    for (size_t l = 0; l < t->levels; l++) {
        unsigned a = t->arity[l];
        uint64_t first = pos / a * a;
        czk_fil_path_level *pl = &p->levels[l];
        pl->arity = (uint8_t)a;
        pl->index = (uint8_t)(pos % a);
        for (unsigned i = 0, k = 0; i < a; i++)
            if (i != pl->index) czk_fr_to_bytes_le(pl->siblings[k++], &t->nodes[l][first + i]);
        pos /= a;
    }
    return true;
}

static const uint8_t *label_at(const sealer_sector *x, uint32_t layer, uint64_t node) {
    return x->labels + ((size_t)(layer - 1) * x->s.nodes + node) * 32;
}

bool sealer_seal(sealer_sector *x, const czk_porep_shape *s, const uint8_t porep_id[32], czk_fil_api api,
                 const uint8_t replica_id[32], czk_rng *rng) {
    memset(x, 0, sizeof *x);
    x->s = *s;
    memcpy(x->replica_id, replica_id, 32);
    char msg[160];
    if (czk_fil_graph_init(&x->g, s->nodes, porep_id, api, msg, sizeof msg) != CZK_OK) return false;
    size_t n = s->nodes;
    x->data = malloc(n * 32);
    x->labels = malloc((size_t)s->layers * n * 32);
    czk_fr *d = malloc(n * sizeof *d), *c = malloc(n * sizeof *c), *r = malloc(n * sizeof *r);
    if (!x->data || !x->labels || !d || !c || !r) return false;
    for (size_t i = 0; i < n * 32; i++) x->data[i] = (uint8_t)czk_rng_next(rng);
    for (size_t i = 0; i < n; i++) x->data[32 * i + 31] &= 0x3f;
    if (czk_fil_labels_compute(&x->g, replica_id, s->layers, x->labels, msg, sizeof msg) != CZK_OK) return false;
    for (size_t i = 0; i < n; i++) {
        uint8_t enc[32];
        czk_fr col[11];
        if (!czk_domain_to_fr(&d[i], &x->data[32 * i])) return false;
        if (czk_fil_encode(label_at(x, s->layers, i), &x->data[32 * i], enc) != CZK_OK) return false;
        if (!czk_domain_to_fr(&r[i], enc)) return false;
        for (uint32_t l = 1; l <= s->layers; l++)
            if (!czk_domain_to_fr(&col[l - 1], label_at(x, l, i))) return false;
        if (czk_hasher_node(CZK_HASHER_POSEIDON, &c[i], col, s->layers) != CZK_OK) return false;
    }
    unsigned ad[64], ac[64];
    size_t ld = czk_porep_tree_d_levels(s), lb = czk_porep_base_levels(s), lc = lb;
    for (size_t l = 0; l < ld; l++) ad[l] = 2;
    for (size_t l = 0; l < lb; l++) ac[l] = s->tree_base;
    if (s->tree_sub) ac[lc++] = s->tree_sub;
    if (s->tree_top) ac[lc++] = s->tree_top;
    if (!tree_build(&x->td, CZK_HASHER_SHA256, ad, ld, d, n)) return false;
    if (!tree_build(&x->tc, CZK_HASHER_POSEIDON, ac, lc, c, n)) return false;
    if (!tree_build(&x->tr, CZK_HASHER_POSEIDON, ac, lc, r, n)) return false;
    czk_fr_to_bytes_le(x->comm_d, &x->td.nodes[ld][0]);
    czk_fr_to_bytes_le(x->comm_c, &x->tc.nodes[lc][0]);
    czk_fr_to_bytes_le(x->comm_r_last, &x->tr.nodes[lc][0]);
    czk_fr pair[2] = {x->tc.nodes[lc][0], x->tr.nodes[lc][0]}, cr;
    if (czk_hasher_node(CZK_HASHER_POSEIDON, &cr, pair, 2) != CZK_OK) return false;
    czk_fr_to_bytes_le(x->comm_r, &cr);
    return true;
}

void sealer_free(sealer_sector *x) {
    free(x->data);
    free(x->labels);
    tree_free(&x->td);
    tree_free(&x->tc);
    tree_free(&x->tr);
    memset(x, 0, sizeof *x);
}

static bool column(const sealer_sector *x, uint32_t node, czk_fil_column *out) {
    out->index = node;
    out->n_rows = x->s.layers;
    out->rows = malloc(x->s.layers * sizeof *out->rows);
    if (!out->rows) return false;
    for (uint32_t l = 1; l <= x->s.layers; l++) memcpy(out->rows[l - 1], label_at(x, l, node), 32);
    return tree_path(&x->tc, node, &out->path);
}

bool sealer_partition(const sealer_sector *x, const uint64_t *nodes, czk_fil_porep_partition *out) {
    memset(out, 0, sizeof *out);
    memcpy(out->replica_id, x->replica_id, 32);
    memcpy(out->comm_d, x->comm_d, 32);
    memcpy(out->comm_r, x->comm_r, 32);
    memcpy(out->comm_c, x->comm_c, 32);
    memcpy(out->comm_r_last, x->comm_r_last, 32);
    out->n_challenges = x->s.challenges;
    out->challenges = calloc(x->s.challenges, sizeof *out->challenges);
    if (!out->challenges) return false;
    for (uint32_t i = 0; i < x->s.challenges; i++) {
        czk_fil_porep_challenge *ch = &out->challenges[i];
        uint64_t v = nodes[i];
        ch->node = v;
        memcpy(ch->data_leaf, &x->data[32 * v], 32);
        if (!tree_path(&x->td, v, &ch->comm_d_path) || !tree_path(&x->tr, v, &ch->comm_r_last_path) ||
            !tree_path(&x->tc, v, &ch->comm_c_path))
            return false;
        uint32_t drg[CZK_FIL_DRG_DEGREE], exp[CZK_FIL_EXP_DEGREE];
        czk_fil_graph_drg_parents(&x->g, (uint32_t)v, drg);
        czk_fil_graph_exp_parents(&x->g, (uint32_t)v, exp);
        for (int k = 0; k < CZK_FIL_DRG_DEGREE; k++)
            if (!column(x, drg[k], &ch->drg_parents[k])) return false;
        for (int k = 0; k < CZK_FIL_EXP_DEGREE; k++)
            if (!column(x, exp[k], &ch->exp_parents[k])) return false;
    }
    return true;
}
