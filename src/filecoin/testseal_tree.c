/* czk — the test sealer's partial Merkle trees (testseal_internal.h). A
 * level is a sorted array of (index, value); a parent is hashed once per
 * group of siblings that holds a node, with filecoin-hashers' node hash
 * (czk_hasher_node: SHA-256 trimmed to fr32, or Poseidon of the arity).
 * Cost: one hash per held node of every level above the leaves (levels of
 * 1,024 parents or more on czk_pool_default()); memory 40 bytes per held
 * node. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/fr.h"
#include "czk/pool.h"
#include "testseal_internal.h"

#define FAIL(code, ...)                                        \
    do {                                                       \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
        return code;                                           \
    } while (0)

static int by_index(const void *a, const void *b) {
    uint64_t x = ((const czk_fil_ts_node *)a)->index, y = ((const czk_fil_ts_node *)b)->index;
    return x < y ? -1 : x > y;
}

static const czk_fil_ts_node *find(const czk_fil_ts_node *v, size_t n, uint64_t index) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].index == index ? &v[lo] : NULL;
}

/* The value of (level, index): held, or the fill's. */
static void value_at(const czk_fil_ts_tree *t, unsigned level, uint64_t index, uint8_t out[32]) {
    const czk_fil_ts_node *x = find(t->level[level], t->count[level], index);
    if (x)
        memcpy(out, x->v, 32);
    else
        t->fill(t->fill_ctx, level, index, out);
}

/* One level's parents to hash: group j holds level l's nodes
 * [first[j], first[j + 1]), all children of parent index[j]. */
typedef struct {
    const czk_fil_ts_tree *t;
    unsigned l;
    const size_t *first;
    czk_fil_ts_node *out;
    _Atomic int err; /* the first failure's czk_err, CZK_OK until then */
} level_job;

static void hash_groups(void *ctx, size_t begin, size_t end, int worker) {
    level_job *j = ctx;
    const czk_fil_ts_tree *t = j->t;
    const czk_fil_ts_node *in = t->level[j->l];
    unsigned a = t->arity[j->l];
    for (size_t k = begin; k < end && atomic_load(&j->err) == CZK_OK; k++) {
        size_t i = j->first[k], stop = j->first[k + 1];
        uint64_t g = in[i].index / a;
        czk_fr ch[CZK_FIL_MAX_ARITY];
        czk_err e = CZK_OK;
        for (unsigned c = 0; c < a && e == CZK_OK; c++) {
            uint64_t idx = g * a + c;
            uint8_t v[32];
            if (i < stop && in[i].index == idx)
                memcpy(v, in[i++].v, 32);
            else if (t->fill)
                t->fill(t->fill_ctx, j->l, idx, v);
            else
                e = CZK_ERR_INVALID_ARGUMENT;
            if (e == CZK_OK && !czk_domain_to_fr(&ch[c], v)) e = CZK_ERR_NOT_CANONICAL;
        }
        czk_fr h;
        if (e == CZK_OK) e = czk_hasher_node(t->hasher, &h, ch, a);
        if (e != CZK_OK) {
            int none = CZK_OK;
            atomic_compare_exchange_strong(&j->err, &none, (int)e);
            return;
        }
        j->out[k].index = g;
        czk_domain_from_fr(j->out[k].v, &h);
    }
}

/* Level l + 1 from level l, the groups hashed on the default pool. */
static czk_err build_level(czk_fil_ts_tree *t, unsigned l, char *msg, size_t msglen) {
    const czk_fil_ts_node *in = t->level[l];
    size_t n = t->count[l];
    unsigned a = t->arity[l];
    size_t *first = malloc((n + 1) * sizeof *first);
    czk_fil_ts_node *out = malloc((n ? n : 1) * sizeof *out);
    if (!first || !out) {
        free(first);
        free(out);
        FAIL(CZK_ERR_NO_MEMORY, "partial tree: level %u of %zu nodes", l + 1, n);
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || in[i].index / a != in[i - 1].index / a) first[m++] = i;
    first[m] = n;
    level_job j = {t, l, first, out, CZK_OK};
    czk_pool_run(m >= 1024 ? czk_pool_default() : NULL, m, 256, hash_groups, &j);
    free(first);
    czk_err e = (czk_err)atomic_load(&j.err);
    if (e != CZK_OK) {
        free(out);
        FAIL(e, "partial tree: hashing level %u failed (%s)", l + 1,
             e == CZK_ERR_NOT_CANONICAL ? "a node is not a canonical Fr" : "a child missing, no fill, or hashing");
    }
    czk_fil_ts_node *fit = realloc(out, (m ? m : 1) * sizeof *out);
    t->level[l + 1] = fit ? fit : out;
    t->count[l + 1] = m;
    t->hashed += m;
    return CZK_OK;
}

czk_err czk_fil_ts_tree_build(czk_fil_ts_tree *t, czk_hasher h, const uint8_t *arity, unsigned n_levels,
                              czk_fil_ts_node *leaves, size_t n, czk_fil_ts_fill_fn fill, const void *fill_ctx,
                              char *msg, size_t msglen) {
    memset(t, 0, sizeof *t);
    if (!leaves || n == 0 || n_levels == 0 || n_levels > CZK_FIL_TS_MAX_LEVELS) {
        free(leaves);
        FAIL(CZK_ERR_INVALID_ARGUMENT, "partial tree: %zu leaves, %u levels", n, n_levels);
    }
    for (unsigned l = 0; l < n_levels; l++)
        if (arity[l] != 2 && arity[l] != 4 && arity[l] != 8) {
            free(leaves);
            FAIL(CZK_ERR_INVALID_ARGUMENT, "partial tree: arity %u at level %u", arity[l], l);
        }
    t->hasher = h;
    t->n_levels = n_levels;
    memcpy(t->arity, arity, n_levels);
    t->fill = fill;
    t->fill_ctx = fill_ctx;
    qsort(leaves, n, sizeof *leaves, by_index);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && leaves[m - 1].index == leaves[i].index) {
            if (memcmp(leaves[m - 1].v, leaves[i].v, 32) != 0) {
                uint64_t idx = leaves[i].index;
                free(leaves);
                memset(t, 0, sizeof *t);
                FAIL(CZK_ERR_MISMATCH, "partial tree: two values for leaf %llu", (unsigned long long)idx);
            }
            continue;
        }
        leaves[m++] = leaves[i];
    }
    t->level[0] = leaves;
    t->count[0] = m;
    for (unsigned l = 0; l < n_levels; l++) {
        czk_err e = build_level(t, l, msg, msglen);
        if (e != CZK_OK) {
            czk_fil_ts_tree_free(t);
            return e;
        }
    }
    if (t->count[n_levels] != 1) {
        czk_fil_ts_tree_free(t);
        FAIL(CZK_ERR_INVALID_ARGUMENT, "partial tree: leaves beyond the tree's width");
    }
    return CZK_OK;
}

const uint8_t *czk_fil_ts_tree_root(const czk_fil_ts_tree *t) { return t->level[t->n_levels][0].v; }

const uint8_t *czk_fil_ts_tree_node(const czk_fil_ts_tree *t, unsigned level, uint64_t index) {
    if (level > t->n_levels) return NULL;
    const czk_fil_ts_node *x = find(t->level[level], t->count[level], index);
    return x ? x->v : NULL;
}

czk_err czk_fil_ts_tree_path(const czk_fil_ts_tree *t, uint64_t leaf, czk_fil_path *out, uint8_t value[32]) {
    memset(out, 0, sizeof *out);
    const czk_fil_ts_node *x = find(t->level[0], t->count[0], leaf);
    if (!x) return CZK_ERR_NOT_FOUND;
    if (value) memcpy(value, x->v, 32);
    out->levels = calloc(t->n_levels, sizeof *out->levels);
    if (!out->levels) return CZK_ERR_NO_MEMORY;
    out->n_levels = t->n_levels;
    uint64_t idx = leaf;
    for (unsigned l = 0; l < t->n_levels; l++) {
        unsigned a = t->arity[l];
        czk_fil_path_level *lv = &out->levels[l];
        lv->arity = (uint8_t)a;
        lv->index = (uint8_t)(idx % a);
        uint64_t g = idx / a;
        unsigned s = 0;
        for (unsigned j = 0; j < a; j++)
            if (j != lv->index) value_at(t, l, g * a + j, lv->siblings[s++]);
        idx = g;
    }
    return CZK_OK;
}

size_t czk_fil_ts_tree_bytes(const czk_fil_ts_tree *t) {
    size_t n = 0;
    for (unsigned l = 0; l <= t->n_levels; l++) n += t->count[l] * sizeof(czk_fil_ts_node);
    return n;
}

void czk_fil_ts_tree_free(czk_fil_ts_tree *t) {
    for (unsigned l = 0; l <= CZK_FIL_TS_MAX_LEVELS; l++) free(t->level[l]);
    memset(t, 0, sizeof *t);
}

static unsigned log_of(uint64_t x, unsigned base) {
    unsigned n = 0;
    while (x > 1) {
        x /= base;
        n++;
    }
    return n;
}

unsigned czk_fil_ts_shape_r(const czk_fil_seal_proof *p, uint8_t arity[CZK_FIL_TS_MAX_LEVELS]) {
    uint64_t base_leaves = p->nodes / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1);
    unsigned n = log_of(base_leaves, p->tree_base);
    for (unsigned l = 0; l < n; l++) arity[l] = p->tree_base;
    if (p->tree_sub) arity[n++] = p->tree_sub;
    if (p->tree_top) arity[n++] = p->tree_top;
    return n;
}

unsigned czk_fil_ts_shape_d(const czk_fil_seal_proof *p, uint8_t arity[CZK_FIL_TS_MAX_LEVELS]) {
    unsigned n = log_of(p->nodes, 2);
    for (unsigned l = 0; l < n; l++) arity[l] = 2;
    return n;
}
