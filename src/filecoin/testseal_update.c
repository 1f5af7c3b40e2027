/* czk — the SnapDeals test sealer (include/czk/filecoin_testseal_update.h).
 * A tree is evaluated lazily over the classes of its nodes: nodes of one
 * level whose subtrees hold the same leaves share one value, computed once
 * (memo per level), so a periodic 32 GiB sector costs what its distinct
 * subtrees cost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bincode.h"
#include "czk/filecoin_testseal.h"
#include "czk/filecoin_testseal_update.h"
#include "czk/filecoin_update.h"
#include "czk/poseidon.h"
#include "snap_internal.h"
#include "testseal_internal.h"

#define TAG_R_OLD 4u

#define FAIL(code, ...)                                        \
    do {                                                       \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
        e = (code);                                            \
        goto done;                                             \
    } while (0)

void czk_fil_testseal_update_old(uint64_t seed, uint64_t period, uint64_t i, uint8_t out[32]) {
    czk_fil_ts_arbitrary(seed, TAG_R_OLD, 0, period ? i % period : i, out);
}

typedef enum { LEAF_D, LEAF_R_OLD, LEAF_R_NEW } leaf_kind;

typedef struct {
    leaf_kind kind;
    czk_hasher hasher;
    unsigned n_levels;
    uint8_t arity[CZK_FIL_TS_MAX_LEVELS];
    uint64_t span[CZK_FIL_TS_MAX_LEVELS + 1]; /* leaves below a node of the level */
    uint64_t nodes, period, region;           /* region: nodes sharing one rho (tree_r_new), else nodes */
    bool full;                                /* period == nodes: every node is its own class */
    uint8_t (*memo[CZK_FIL_TS_MAX_LEVELS + 1])[32];
    uint8_t *have[CZK_FIL_TS_MAX_LEVELS + 1];
    size_t count[CZK_FIL_TS_MAX_LEVELS + 1];
    /* leaves */
    uint64_t seed;
    const czk_fr *rho; /* per region (LEAF_R_NEW) */
    uint64_t hashed;
    czk_err err;
} vtree;

static size_t class_of(const vtree *t, unsigned l, uint64_t index) {
    const uint64_t span = t->span[l], i0 = index * span;
    if (t->full || span > t->region) return (size_t)index;
    if (span <= t->period) return (size_t)((i0 / t->region) * (t->period / span) + (i0 % t->period) / span);
    return (size_t)(i0 / t->region);
}

static size_t class_count(const vtree *t, unsigned l) {
    const uint64_t span = t->span[l], regions = t->nodes / t->region;
    if (t->full || span > t->region) return (size_t)(t->nodes / span);
    if (span <= t->period) return (size_t)(regions * (t->period / span));
    return (size_t)regions;
}

static void leaf_value(vtree *t, uint64_t i, uint8_t out[32]) {
    if (t->kind == LEAF_D) {
        czk_fil_testseal_data(t->seed, t->period, i, out);
        return;
    }
    czk_fil_testseal_update_old(t->seed, t->period, i, out);
    if (t->kind == LEAF_R_OLD) return;
    uint8_t d[32];
    czk_fil_testseal_data(t->seed, t->period, i, d);
    czk_fr o, x;
    czk_domain_to_fr(&o, out);
    czk_domain_to_fr(&x, d);
    czk_fr_mul(&x, &x, &t->rho[i / t->region]);
    czk_fr_add(&o, &o, &x);
    czk_domain_from_fr(out, &o);
}

/* The value of node (l, index); t->err set on failure. */
static const uint8_t *node_value(vtree *t, unsigned l, uint64_t index) {
    const size_t c = class_of(t, l, index);
    if (t->have[l][c]) return t->memo[l][c];
    if (l == 0) {
        leaf_value(t, index, t->memo[0][c]);
    } else {
        const unsigned a = t->arity[l - 1];
        czk_fr ch[CZK_FIL_MAX_ARITY], h;
        for (unsigned j = 0; j < a; j++) {
            const uint8_t *v = node_value(t, l - 1, index * a + j);
            if (t->err || !czk_domain_to_fr(&ch[j], v)) {
                if (!t->err) t->err = CZK_ERR_NOT_CANONICAL;
                return t->memo[l][c];
            }
        }
        if ((t->err = czk_hasher_node(t->hasher, &h, ch, a))) return t->memo[l][c];
        czk_domain_from_fr(t->memo[l][c], &h);
        t->hashed++;
    }
    t->have[l][c] = 1;
    return t->memo[l][c];
}

static void vtree_free(vtree *t) {
    for (unsigned l = 0; l <= CZK_FIL_TS_MAX_LEVELS; l++) {
        free(t->memo[l]);
        free(t->have[l]);
    }
    memset(t, 0, sizeof *t);
}

static czk_err vtree_init(vtree *t, leaf_kind kind, czk_hasher h, const uint8_t *arity, unsigned n_levels,
                          uint64_t nodes, uint64_t period, uint64_t region, uint64_t seed, const czk_fr *rho) {
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->hasher = h;
    t->n_levels = n_levels;
    memcpy(t->arity, arity, n_levels);
    t->nodes = nodes;
    t->period = period;
    t->region = region;
    t->full = period == nodes;
    t->seed = seed;
    t->rho = rho;
    t->span[0] = 1;
    for (unsigned l = 0; l < n_levels; l++) t->span[l + 1] = t->span[l] * arity[l];
    for (unsigned l = 0; l <= n_levels; l++) {
        t->count[l] = class_count(t, l);
        t->memo[l] = malloc(t->count[l] * sizeof *t->memo[l]);
        t->have[l] = calloc(t->count[l], 1);
        if (!t->memo[l] || !t->have[l]) {
            vtree_free(t);
            return CZK_ERR_NO_MEMORY;
        }
    }
    return CZK_OK;
}

/* The path of leaf c (filecoin_vanilla.h) and its value. */
static czk_err vtree_path(vtree *t, uint64_t c, czk_fil_path *out, uint8_t leaf[32]) {
    out->levels = calloc(t->n_levels, sizeof *out->levels);
    if (!out->levels) return CZK_ERR_NO_MEMORY;
    out->n_levels = t->n_levels;
    memcpy(leaf, node_value(t, 0, c), 32);
    uint64_t idx = c;
    for (unsigned l = 0; l < t->n_levels && !t->err; l++) {
        const unsigned a = t->arity[l];
        czk_fil_path_level *lv = &out->levels[l];
        lv->arity = (uint8_t)a;
        lv->index = (uint8_t)(idx % a);
        for (unsigned j = 0, s = 0; j < a; j++)
            if (j != lv->index) memcpy(lv->siblings[s++], node_value(t, l, idx - lv->index + j), 32);
        idx /= a;
    }
    return t->err;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static czk_err bytes32(czk_fil_bytes *b, const uint8_t v[32]) {
    b->data = malloc(32);
    if (!b->data) return CZK_ERR_NO_MEMORY;
    memcpy(b->data, v, 32);
    b->len = 32;
    return CZK_OK;
}

czk_err czk_fil_testseal_update(const czk_fil_testseal_update_opts *o, czk_fil_request *out,
                                czk_fil_testseal_update_info *info, char *msg, size_t msglen) {
    const double t0 = now_seconds();
    memset(out, 0, sizeof *out);
    czk_fil_testseal_update_info inf = {0};
    vtree d = {0}, ro = {0}, rn = {0};
    czk_fr *rho = NULL;
    uint64_t *chal = NULL;
    czk_fil_update_partition part = {0};
    czk_err e = CZK_OK;
    czk_fil_update_facts f;
    czk_bc_tree_shape s;
    const czk_fil_update_proof *p = o ? o->proof : NULL;
    if (!p || czk_fil_update_facts_get(p->sector_size / 32, &f) ||
        czk_bc_tree_shape_r(f.nodes, p->tree_base, p->tree_sub, p->tree_top, &s))
        FAIL(CZK_ERR_INVALID_ARGUMENT, "testseal --kind snap: not a registered update proof of storage-proofs-update");
    const uint64_t nodes = f.nodes;
    if (!o->sparse && nodes > CZK_FIL_TESTSEAL_UPDATE_FULL_MAX_NODES)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "%s: full mode goes up to 8 MiB; use sparse mode", p->name);
    const uint64_t period =
        o->sparse && nodes > CZK_FIL_TESTSEAL_UPDATE_PERIOD ? CZK_FIL_TESTSEAL_UPDATE_PERIOD : nodes;
    const uint32_t h_enc = o->h ? o->h : p->h;
    if (h_enc > f.challenge_bits || h_enc > 24)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "%s: h %u exceeds the %u bits of a node index", p->name, h_enc,
             f.challenge_bits);
    const unsigned shr = f.challenge_bits - h_enc;
    inf.period = period;

    /* the arities: tree D binary; TreeR base levels, then sub, then top */
    uint8_t ad[CZK_FIL_TS_MAX_LEVELS], ar[CZK_FIL_TS_MAX_LEVELS];
    const unsigned nd = f.challenge_bits, nr = (unsigned)czk_bc_shape_levels(&s);
    for (unsigned l = 0; l < nd; l++) ad[l] = 2;
    for (unsigned l = 0; l < nr; l++)
        ar[l] = l < s.base_levels ? s.base_arity : l == s.base_levels ? s.sub_arity : s.top_arity;

    /* old sector and new data */
    czk_fil_ts_derive("update-comm_c", o->seed, inf.comm_c);
    if ((e = vtree_init(&d, LEAF_D, CZK_HASHER_SHA256, ad, nd, nodes, period, nodes, o->seed, NULL)) ||
        (e = vtree_init(&ro, LEAF_R_OLD, CZK_HASHER_POSEIDON, ar, nr, nodes, period, nodes, o->seed, NULL)))
        FAIL(e, "out of memory");
    memcpy(inf.comm_d_new, node_value(&d, nd, 0), 32);
    memcpy(inf.root_r_old, node_value(&ro, nr, 0), 32);
    if ((e = d.err ? d.err : ro.err)) FAIL(e, "tree_d_new / tree_r_old: %s", czk_err_str(e));
    czk_fr a, b, h;
    czk_domain_to_fr(&a, inf.comm_c);
    czk_domain_to_fr(&b, inf.root_r_old);
    /* comm_r_old: TreeRHasher::Function::hash2, Poseidon-2 with the MerkleTree tag */
    const czk_fr pre[2] = {a, b};
    if ((e = czk_poseidon_hash(&h, pre, 2))) FAIL(e, "poseidon: %s", czk_err_str(e));
    czk_fr_to_bytes_le(inf.comm_r_old, &h);

    /* the encoding */
    if ((e = czk_fil_update_phi(inf.comm_d_new, inf.comm_r_old, inf.phi))) FAIL(e, "phi: %s", czk_err_str(e));
    const uint64_t regions = (uint64_t)1 << h_enc;
    rho = malloc(regions * sizeof *rho);
    if (!rho) FAIL(CZK_ERR_NO_MEMORY, "out of memory");
    czk_fr phi;
    czk_fr_from_bytes_le(&phi, inf.phi);
    for (uint64_t i = 0; i < regions; i++)
        if ((e = czk_fil_update_rho_fr(&phi, (uint32_t)i, &rho[i]))) FAIL(e, "rho: out of memory");
    /* a rho region: the nodes sharing one high-bits value */
    const uint64_t region = (uint64_t)1 << shr;
    if ((e = vtree_init(&rn, LEAF_R_NEW, CZK_HASHER_POSEIDON, ar, nr, nodes, period, region, o->seed, rho)))
        FAIL(e, "out of memory");
    memcpy(inf.root_r_new, node_value(&rn, nr, 0), 32);
    if ((e = rn.err)) FAIL(e, "tree_r_new: %s", czk_err_str(e));
    czk_domain_to_fr(&b, inf.root_r_new);
    const czk_fr pre2[2] = {a, b};
    if ((e = czk_poseidon_hash(&h, pre2, 2))) FAIL(e, "poseidon: %s", czk_err_str(e));
    czk_fr_to_bytes_le(inf.comm_r_new, &h);

    /* the request and its partition proofs */
    out->kind = CZK_FIL_KIND_SNAP;
    out->registered_proof = p->id;
    if ((e = bytes32(&out->comm_r_old, inf.comm_r_old)) || (e = bytes32(&out->comm_r_new, inf.comm_r_new)) ||
        (e = bytes32(&out->comm_d_new, inf.comm_d_new)))
        FAIL(e, "out of memory");
    out->vanilla_proofs = calloc(f.partitions, sizeof *out->vanilla_proofs);
    chal = malloc(f.challenges * sizeof *chal);
    if (!out->vanilla_proofs || !chal) FAIL(CZK_ERR_NO_MEMORY, "out of memory");
    out->n_vanilla_proofs = f.partitions;
    const unsigned apex_height = f.challenge_bits - f.partition_bits - f.apex_bits;
    for (uint32_t k = 0; k < f.partitions; k++) {
        if ((e = czk_fil_update_challenges(nodes, inf.comm_r_new, k, f.challenges, chal)))
            FAIL(e, "challenges: %s", czk_err_str(e));
        part = (czk_fil_update_partition){.registered_proof = p->id, .k = k, .h = p->h};
        memcpy(part.comm_r_old, inf.comm_r_old, 32);
        memcpy(part.comm_d_new, inf.comm_d_new, 32);
        memcpy(part.comm_r_new, inf.comm_r_new, 32);
        memcpy(part.comm_c, inf.comm_c, 32);
        memcpy(part.root_r_old, inf.root_r_old, 32);
        memcpy(part.root_r_new, inf.root_r_new, 32);
        part.apex_leafs = malloc(f.apex_leaves * sizeof *part.apex_leafs);
        part.challenges = calloc(f.challenges, sizeof *part.challenges);
        if (!part.apex_leafs || !part.challenges) FAIL(CZK_ERR_NO_MEMORY, "out of memory");
        part.n_apex = f.apex_leaves;
        part.n_challenges = f.challenges;
        for (uint32_t i = 0; i < f.apex_leaves; i++)
            memcpy(part.apex_leafs[i], node_value(&d, apex_height, (uint64_t)k * f.apex_leaves + i), 32);
        for (uint32_t c = 0; c < f.challenges; c++) {
            czk_fil_update_challenge *ch = &part.challenges[c];
            ch->node = chal[c];
            if ((e = vtree_path(&ro, chal[c], &ch->path_r_old, ch->leaf_r_old)) ||
                (e = vtree_path(&d, chal[c], &ch->path_d_new, ch->leaf_d_new)) ||
                (e = vtree_path(&rn, chal[c], &ch->path_r_new, ch->leaf_r_new)))
                FAIL(e, "challenge %u of partition %u: %s", c, k, czk_err_str(e));
        }
        if ((e = czk_fil_update_encode_partition(p, &part, &out->vanilla_proofs[k])))
            FAIL(e, "partition %u: encoding: %s", k, czk_err_str(e));
        czk_fil_update_partition_free(&part);
    }
    inf.hashed = d.hashed + ro.hashed + rn.hashed;
    inf.seconds = now_seconds() - t0;
    if (info) *info = inf;
done:
    czk_fil_update_partition_free(&part);
    vtree_free(&d);
    vtree_free(&ro);
    vtree_free(&rn);
    free(rho);
    free(chal);
    if (e) czk_fil_request_free(out), memset(out, 0, sizeof *out);
    return e;
}
