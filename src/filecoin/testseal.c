/* czk — the test sealer (include/czk/filecoin_testseal.h): a C1 output from
 * a seed, in full or sparse mode. Facts from rust-fil-proofs:
 * storage-proofs-porep stacked/vanilla/proof.rs (prove_layers_generate: the
 * openings of one challenge; transform_and_replicate_layers: tree_d, the
 * labels, tree_c over the columns, tree_r_last over the encoded last
 * layer, comm_r = hash2(comm_c, comm_r_last)), hash.rs (hash_single_column),
 * filecoin-proofs api/seal.rs (seal_pre_commit_phase1 and
 * seal_commit_phase1_inner: the replica_id from
 * prover id, sector id, ticket, comm_d and porep_id; the output's fields). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/filecoin_graph.h"
#include "czk/filecoin_porep.h"
#include "czk/filecoin_testseal.h"
#include "czk/fr.h"
#include "czk/pool.h"
#include "czk/poseidon.h"
#include "prim.h"
#include "testseal_internal.h"

#define FAIL(code, ...)                                        \
    do {                                                       \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
        return code;                                           \
    } while (0)

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void czk_fil_testseal_ticket(uint64_t seed, uint8_t out[32]) { czk_fil_ts_derive("ticket", seed, out); }

void czk_fil_testseal_seed(uint64_t seed, uint8_t out[32]) { czk_fil_ts_derive("seed", seed, out); }

/* data nodes [first, first + count) of the unrepeated stream */
static void data_block(uint64_t seed, uint64_t first, uint64_t count, uint8_t *out) {
    static const char dst[] = "czk-testseal/data";
    uint8_t key[32], nonce[12] = {0}, s[8];
    for (int i = 0; i < 8; i++) s[i] = (uint8_t)(seed >> (8 * i));
    const void *p[2] = {dst, s};
    const size_t l[2] = {sizeof dst - 1, 8};
    if (!czk_fil_sha256(p, l, 2, key)) memset(key, 0, 32); /* libcrypto out of memory */
    czk_fil_chacha20_keystream(key, nonce, 32 * first, out, (size_t)(32 * count));
    for (uint64_t i = 0; i < count; i++) out[32 * i + 31] &= 0x3f;
}

void czk_fil_testseal_data(uint64_t seed, uint64_t period, uint64_t i, uint8_t out[32]) {
    data_block(seed, period ? i % period : i, 1, out);
}

bool czk_fil_testseal_parse_size(const char *s, uint64_t *bytes) {
    static const struct {
        const char *name;
        uint64_t v;
    } names[] = {{"2KiB", 2048ull}, {"8MiB", 8ull << 20}, {"512MiB", 512ull << 20}, {"32GiB", 32ull << 30},
                 {"64GiB", 64ull << 30}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(s, names[i].name)) {
            *bytes = names[i].v;
            return true;
        }
    char *end;
    if (!*s || *s < '0' || *s > '9') return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end) return false;
    *bytes = v;
    return true;
}

/* ---- fills -------------------------------------------------------------------- */

typedef struct {
    uint64_t seed;
    uint32_t tag;
} arb_fill;

static void fill_arbitrary(const void *ctx, unsigned level, uint64_t index, uint8_t out[32]) {
    const arb_fill *f = ctx;
    czk_fil_ts_arbitrary(f->seed, f->tag, level, index, out);
}

/* tree_d over periodic data: below the block's height the block tree's node
 * at the index modulo the level's width, above it every node of a level is
 * the same (the hash of two copies of the level below). */
typedef struct {
    const czk_fil_ts_tree *block; /* the whole tree over one period */
    unsigned block_levels;
    uint8_t chain[CZK_FIL_TS_MAX_LEVELS + 1][32];
} periodic_fill;

static void fill_periodic(const void *ctx, unsigned level, uint64_t index, uint8_t out[32]) {
    const periodic_fill *f = ctx;
    if (level >= f->block_levels) {
        memcpy(out, f->chain[level], 32);
        return;
    }
    uint64_t width = (uint64_t)1 << (f->block_levels - level);
    memcpy(out, czk_fil_ts_tree_node(f->block, level, index % width), 32);
}

/* ---- the seal's state ------------------------------------------------------------ */

typedef struct {
    const czk_fil_seal_proof *p;
    uint64_t seed, period;
    uint8_t *data; /* period nodes */
    czk_fil_graph graph;
    czk_fil_ts_tree block_d, tree_d, tree_c, tree_r;
    bool tree_d_own; /* tree_d is not the block tree */
    periodic_fill pf;
    arb_fill fill_c, fill_r;
    czk_fil_ts_columns cols;
    uint64_t *challenges; /* partitions · challenges_per_partition */
    czk_fil_testseal_stats st;
    size_t live, peak;
    const uint8_t *given; /* the options' data (full mode), given_len bytes */
    size_t given_len;
} seal;

static void account(seal *s, ptrdiff_t bytes) {
    s->live = (size_t)((ptrdiff_t)s->live + bytes);
    if (s->live > s->peak) s->peak = s->live;
}

static void seal_free(seal *s) {
    free(s->data);
    czk_fil_ts_tree_free(&s->block_d);
    if (s->tree_d_own) czk_fil_ts_tree_free(&s->tree_d);
    czk_fil_ts_tree_free(&s->tree_c);
    czk_fil_ts_tree_free(&s->tree_r);
    czk_fil_ts_columns_free(&s->cols);
    free(s->challenges);
}

static const uint8_t *data_at(const seal *s, uint64_t node) { return s->data + 32 * (node % s->period); }

static unsigned log2_of(uint64_t x) {
    unsigned n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

/* The data block and the tree over it; comm_d from the block alone. */
static czk_err seal_data(seal *s, uint8_t comm_d[32], char *msg, size_t msglen) {
    uint64_t p = s->period;
    s->data = malloc((size_t)p * 32);
    czk_fil_ts_node *leaves = malloc((size_t)p * sizeof *leaves);
    if (!s->data || !leaves) {
        free(leaves);
        FAIL(CZK_ERR_NO_MEMORY, "testseal: data of %llu nodes", (unsigned long long)p);
    }
    if (s->given) {
        memcpy(s->data, s->given, s->given_len);
        memset(s->data + s->given_len, 0, (size_t)p * 32 - s->given_len);
    } else {
        data_block(s->seed, 0, p, s->data);
    }
    for (uint64_t i = 0; i < p; i++) {
        leaves[i].index = i;
        memcpy(leaves[i].v, s->data + 32 * i, 32);
    }
    uint8_t arity[CZK_FIL_TS_MAX_LEVELS];
    unsigned bl = log2_of(p), dl = czk_fil_ts_shape_d(s->p, arity);
    czk_err e = czk_fil_ts_tree_build(&s->block_d, CZK_HASHER_SHA256, arity, bl, leaves, p, NULL, NULL, msg, msglen);
    if (e != CZK_OK) return e;
    s->st.tree_nodes += s->block_d.hashed;
    account(s, (ptrdiff_t)(p * 32 + czk_fil_ts_tree_bytes(&s->block_d)));
    s->pf.block = &s->block_d;
    s->pf.block_levels = bl;
    memcpy(s->pf.chain[bl], czk_fil_ts_tree_root(&s->block_d), 32);
    for (unsigned l = bl; l < dl; l++) {
        czk_fr ch[2], h;
        czk_domain_to_fr(&ch[0], s->pf.chain[l]);
        ch[1] = ch[0];
        e = czk_hasher_node(CZK_HASHER_SHA256, &h, ch, 2);
        if (e != CZK_OK) FAIL(e, "testseal: tree_d hashing failed");
        czk_domain_from_fr(s->pf.chain[l + 1], &h);
        s->st.tree_nodes++;
    }
    memcpy(comm_d, s->pf.chain[dl], 32);
    return CZK_OK;
}

/* tree_d over the challenged leaves (or the block tree when the block is
 * the sector); its root must be comm_d. */
static czk_err seal_tree_d(seal *s, const uint8_t comm_d[32], char *msg, size_t msglen) {
    if (s->period == s->p->nodes) {
        s->tree_d = s->block_d;
        s->tree_d_own = false;
        return CZK_OK;
    }
    size_t n = (size_t)s->p->partitions * s->p->challenges_per_partition;
    czk_fil_ts_node *leaves = malloc(n * sizeof *leaves);
    if (!leaves) FAIL(CZK_ERR_NO_MEMORY, "testseal: tree_d leaves");
    for (size_t i = 0; i < n; i++) {
        leaves[i].index = s->challenges[i];
        memcpy(leaves[i].v, data_at(s, s->challenges[i]), 32);
    }
    uint8_t arity[CZK_FIL_TS_MAX_LEVELS];
    unsigned dl = czk_fil_ts_shape_d(s->p, arity);
    czk_err e = czk_fil_ts_tree_build(&s->tree_d, CZK_HASHER_SHA256, arity, dl, leaves, n, fill_periodic, &s->pf, msg,
                                      msglen);
    if (e != CZK_OK) return e;
    s->tree_d_own = true;
    s->st.tree_nodes += s->tree_d.hashed;
    account(s, (ptrdiff_t)czk_fil_ts_tree_bytes(&s->tree_d));
    if (memcmp(czk_fil_ts_tree_root(&s->tree_d), comm_d, 32) != 0)
        FAIL(CZK_ERR_MISMATCH, "testseal: the partial tree_d's root is not comm_d");
    return CZK_OK;
}

/* Full labels as columns (node-major). */
static czk_err seal_labels_full(seal *s, const uint8_t replica_id[32], char *msg, size_t msglen) {
    uint64_t n = s->p->nodes;
    uint32_t L = s->p->layers;
    uint8_t *labels = malloc((size_t)(n * L * 32));
    czk_fil_ts_columns *c = &s->cols;
    c->node = malloc((size_t)n * sizeof *c->node);
    c->rows = malloc((size_t)(n * L) * sizeof *c->rows);
    if (!labels || !c->node || !c->rows) {
        free(labels);
        FAIL(CZK_ERR_NO_MEMORY, "testseal: labels of %llu nodes", (unsigned long long)n);
    }
    account(s, (ptrdiff_t)(2 * n * L * 32 + n * 8));
    czk_err e = czk_fil_labels_compute(&s->graph, replica_id, L, labels, msg, msglen);
    if (e != CZK_OK) {
        free(labels);
        return e;
    }
    s->st.labels_hashed += n * L;
    c->layers = L;
    c->n = (size_t)n;
    for (uint64_t i = 0; i < n; i++) {
        c->node[i] = i;
        for (uint32_t l = 0; l < L; l++) memcpy(c->rows[i * L + l], labels + 32 * (l * n + i), 32);
    }
    free(labels);
    account(s, -(ptrdiff_t)(n * L * 32));
    return CZK_OK;
}

typedef struct {
    const czk_fil_ts_columns *c;
    czk_fil_ts_node *out;
    _Atomic int err;
} column_job;

static void hash_columns(void *ctx, size_t begin, size_t end, int worker) {
    column_job *j = ctx;
    uint32_t L = j->c->layers;
    for (size_t i = begin; i < end; i++) {
        j->out[i].index = j->c->node[i];
        czk_err e = czk_fil_ts_column_hash((const uint8_t(*)[32])j->c->rows[i * L], L, j->out[i].v);
        if (e != CZK_OK) {
            int none = CZK_OK;
            atomic_compare_exchange_strong(&j->err, &none, (int)e);
            return;
        }
    }
}

/* tree_c over every column held (column hashes on czk_pool_default()); tree_r_last over the encoded nodes of
 * every column (full) or of the challenged nodes (sparse). */
static czk_err seal_trees(seal *s, bool sparse, char *msg, size_t msglen) {
    const czk_fil_ts_columns *c = &s->cols;
    uint32_t L = c->layers;
    czk_fil_ts_node *lc = malloc(c->n * sizeof *lc);
    size_t nr = sparse ? (size_t)s->p->partitions * s->p->challenges_per_partition : c->n;
    czk_fil_ts_node *lr = malloc(nr * sizeof *lr);
    if (!lc || !lr) {
        free(lc);
        free(lr);
        FAIL(CZK_ERR_NO_MEMORY, "testseal: %zu tree leaves", c->n);
    }
    column_job cj = {c, lc, CZK_OK};
    czk_pool_run(c->n >= 1024 ? czk_pool_default() : NULL, c->n, 512, hash_columns, &cj);
    czk_err e = (czk_err)atomic_load(&cj.err);
    for (size_t i = 0; i < nr && e == CZK_OK; i++) {
        uint64_t node = sparse ? s->challenges[i] : c->node[i];
        lr[i].index = node;
        e = czk_fil_encode(czk_fil_ts_columns_find(c, node)[L - 1], data_at(s, node), lr[i].v);
    }
    if (e != CZK_OK) {
        free(lc);
        free(lr);
        FAIL(e, "testseal: column hash or encoding failed");
    }
    s->st.columns += c->n;
    uint8_t arity[CZK_FIL_TS_MAX_LEVELS];
    unsigned rl = czk_fil_ts_shape_r(s->p, arity);
    s->fill_c = (arb_fill){s->seed, CZK_FIL_TS_TAG_TREE_C};
    s->fill_r = (arb_fill){s->seed, CZK_FIL_TS_TAG_TREE_R};
    e = czk_fil_ts_tree_build(&s->tree_c, CZK_HASHER_POSEIDON, arity, rl, lc, c->n, fill_arbitrary, &s->fill_c, msg,
                              msglen);
    if (e != CZK_OK) {
        free(lr);
        return e;
    }
    e = czk_fil_ts_tree_build(&s->tree_r, CZK_HASHER_POSEIDON, arity, rl, lr, nr, fill_arbitrary, &s->fill_r, msg,
                              msglen);
    if (e != CZK_OK) return e;
    s->st.tree_nodes += s->tree_c.hashed + s->tree_r.hashed;
    account(s, (ptrdiff_t)(czk_fil_ts_tree_bytes(&s->tree_c) + czk_fil_ts_tree_bytes(&s->tree_r)));
    return CZK_OK;
}

static czk_err comm_r_of(const uint8_t comm_c[32], const uint8_t comm_r_last[32], uint8_t out[32]) {
    czk_fr in[2], h;
    if (!czk_fr_from_bytes_le(&in[0], comm_c) || !czk_fr_from_bytes_le(&in[1], comm_r_last)) return CZK_ERR_NOT_CANONICAL;
    czk_err e = czk_poseidon_hash(&h, in, 2);
    if (e == CZK_OK) czk_fr_to_bytes_le(out, &h);
    return e;
}

static czk_err seal_challenges(seal *s, const czk_fil_c1 *c1, char *msg, size_t msglen) {
    czk_fil_porep_instance in;
    memset(&in, 0, sizeof in);
    in.proof = s->p;
    memcpy(in.replica_id, c1->replica_id, 32);
    memcpy(in.comm_d, c1->comm_d, 32);
    memcpy(in.comm_r, c1->comm_r, 32);
    memcpy(in.seed, c1->seed, 32);
    size_t cpp = s->p->challenges_per_partition;
    s->challenges = malloc((size_t)s->p->partitions * cpp * sizeof *s->challenges);
    if (!s->challenges) FAIL(CZK_ERR_NO_MEMORY, "testseal: challenges");
    for (uint32_t k = 0; k < s->p->partitions; k++) {
        czk_err e = czk_fil_porep_challenges(&in, k, s->challenges + k * cpp, msg, msglen);
        if (e != CZK_OK) return e;
    }
    return CZK_OK;
}

/* ---- the openings of one challenge ------------------------------------------------- */

static void claim_r(const czk_fil_seal_proof *p, czk_fil_c1_merkle *m, unsigned levels) {
    m->kind = p->tree_top ? CZK_FIL_PROOF_TOP : p->tree_sub ? CZK_FIL_PROOF_SUB : CZK_FIL_PROOF_SINGLE;
    m->n_sub = p->tree_sub ? 1 : 0;
    m->n_top = p->tree_top ? 1 : 0;
    m->n_base = (uint8_t)(levels - m->n_sub - m->n_top);
}

static czk_err open_column(const seal *s, uint64_t node, czk_fil_column *col, czk_fil_path *path,
                           uint8_t (*rows)[32], czk_fil_c1_merkle *m) {
    uint32_t L = s->cols.layers;
    const uint8_t(*src)[32] = czk_fil_ts_columns_find(&s->cols, node);
    if (!src) return CZK_ERR_NOT_FOUND;
    if (col) {
        col->index = (uint32_t)node;
        col->n_rows = L;
        col->rows = malloc(L * sizeof *col->rows);
        if (!col->rows) return CZK_ERR_NO_MEMORY;
        memcpy(col->rows, src, L * sizeof *col->rows);
        path = &col->path;
    }
    if (rows) memcpy(rows, src, L * 32);
    czk_err e = czk_fil_ts_tree_path(&s->tree_c, node, path, m->leaf);
    if (e != CZK_OK) return e;
    claim_r(s->p, m, s->tree_c.n_levels);
    memcpy(m->root, czk_fil_ts_tree_root(&s->tree_c), 32);
    return CZK_OK;
}

static czk_err open_challenge(const seal *s, uint64_t node, czk_fil_porep_challenge *c, czk_fil_c1_claims *cl) {
    c->node = node;
    memcpy(c->data_leaf, data_at(s, node), 32);
    czk_err e = czk_fil_ts_tree_path(&s->tree_d, node, &c->comm_d_path, cl->comm_d.leaf);
    if (e != CZK_OK) return e;
    cl->comm_d.kind = CZK_FIL_PROOF_SINGLE;
    cl->comm_d.n_base = (uint8_t)s->tree_d.n_levels;
    memcpy(cl->comm_d.root, czk_fil_ts_tree_root(&s->tree_d), 32);
    e = czk_fil_ts_tree_path(&s->tree_r, node, &c->comm_r_last_path, cl->comm_r_last.leaf);
    if (e != CZK_OK) return e;
    claim_r(s->p, &cl->comm_r_last, s->tree_r.n_levels);
    memcpy(cl->comm_r_last.root, czk_fil_ts_tree_root(&s->tree_r), 32);
    cl->n_rows = (uint8_t)s->cols.layers;
    e = open_column(s, node, NULL, &c->comm_c_path, cl->c_x_rows, &cl->c_x);
    uint32_t par[CZK_FIL_DEGREE];
    czk_fil_graph_parents(&s->graph, (uint32_t)node, par);
    for (int k = 0; k < CZK_FIL_DRG_PARENTS && e == CZK_OK; k++)
        e = open_column(s, par[k], &c->drg_parents[k], NULL, NULL, &cl->drg[k]);
    for (int k = 0; k < CZK_FIL_EXP_PARENTS && e == CZK_OK; k++)
        e = open_column(s, par[CZK_FIL_DRG_PARENTS + k], &c->exp_parents[k], NULL, NULL, &cl->exp[k]);
    return e;
}

static czk_err seal_open(seal *s, czk_fil_c1 *c1, char *msg, size_t msglen) {
    size_t np = s->p->partitions, cpp = s->p->challenges_per_partition;
    c1->partitions = calloc(np, sizeof *c1->partitions);
    c1->claims = calloc(np, sizeof *c1->claims);
    if (!c1->partitions || !c1->claims) FAIL(CZK_ERR_NO_MEMORY, "testseal: partitions");
    c1->n_partitions = np;
    for (size_t k = 0; k < np; k++) {
        czk_fil_porep_partition *part = &c1->partitions[k];
        memcpy(part->replica_id, c1->replica_id, 32);
        memcpy(part->comm_d, c1->comm_d, 32);
        memcpy(part->comm_r, c1->comm_r, 32);
        memcpy(part->comm_c, czk_fil_ts_tree_root(&s->tree_c), 32);
        memcpy(part->comm_r_last, czk_fil_ts_tree_root(&s->tree_r), 32);
        part->challenges = calloc(cpp, sizeof *part->challenges);
        c1->claims[k] = calloc(cpp, sizeof **c1->claims);
        if (!part->challenges || !c1->claims[k]) FAIL(CZK_ERR_NO_MEMORY, "testseal: challenges");
        part->n_challenges = cpp;
        for (size_t i = 0; i < cpp; i++) {
            czk_err e = open_challenge(s, s->challenges[k * cpp + i], &part->challenges[i], &c1->claims[k][i]);
            if (e != CZK_OK) FAIL(e, "testseal: opening challenge %zu of partition %zu failed", i, k);
        }
    }
    return CZK_OK;
}

/* ---- the seal ------------------------------------------------------------------------ */

static czk_err seal_run(seal *s, const czk_fil_testseal_opts *o, czk_fil_c1 *c1, char *msg, size_t msglen) {
    const czk_fil_seal_proof *p = o->proof;
    uint8_t porep_id[32], prover_id[32];
    c1->proof = p;
    c1->shape_sector_size = p->sector_size;
    c1->sector_num = o->sector_number;
    c1->sector_size = p->sector_size;
    if (o->ticket) memcpy(c1->ticket, o->ticket, 32);
    else czk_fil_testseal_ticket(o->seed, c1->ticket);
    czk_fil_testseal_seed(o->seed, c1->seed);
    czk_fil_porep_id(p, porep_id);
    czk_fil_prover_id(o->miner_id, prover_id);
    czk_err e = czk_fil_graph_init(&s->graph, p->nodes, porep_id, p->api, msg, msglen);
    if (e != CZK_OK) return e;

    if ((e = seal_data(s, c1->comm_d, msg, msglen)) != CZK_OK) return e;
    e = czk_fil_replica_id(prover_id, o->sector_number, c1->ticket, c1->comm_d, porep_id, c1->replica_id);
    if (e != CZK_OK) FAIL(e, "testseal: replica_id failed");

    if (!o->sparse) {
        if ((e = seal_labels_full(s, c1->replica_id, msg, msglen)) != CZK_OK) return e;
        if ((e = seal_trees(s, false, msg, msglen)) != CZK_OK) return e;
        e = comm_r_of(czk_fil_ts_tree_root(&s->tree_c), czk_fil_ts_tree_root(&s->tree_r), c1->comm_r);
        if (e != CZK_OK) FAIL(e, "testseal: comm_r failed");
        if ((e = seal_challenges(s, c1, msg, msglen)) != CZK_OK) return e;
    } else {
        /* interactive challenges need no comm_r */
        if ((e = seal_challenges(s, c1, msg, msglen)) != CZK_OK) return e;
        size_t n = (size_t)p->partitions * p->challenges_per_partition;
        e = czk_fil_ts_columns_sparse(&s->cols, &s->graph, c1->replica_id, p->layers, o->seed, s->challenges, n,
                                      &s->st.labels_hashed, msg, msglen);
        if (e != CZK_OK) return e;
        account(s, (ptrdiff_t)(s->cols.n * (8 + 32 * (size_t)p->layers)));
        if ((e = seal_trees(s, true, msg, msglen)) != CZK_OK) return e;
        e = comm_r_of(czk_fil_ts_tree_root(&s->tree_c), czk_fil_ts_tree_root(&s->tree_r), c1->comm_r);
        if (e != CZK_OK) FAIL(e, "testseal: comm_r failed");
    }
    if ((e = seal_tree_d(s, c1->comm_d, msg, msglen)) != CZK_OK) return e;
    return seal_open(s, c1, msg, msglen);
}

czk_err czk_fil_testseal(const czk_fil_testseal_opts *o, czk_fil_c1 *out, czk_fil_testseal_stats *stats,
                         char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (stats) memset(stats, 0, sizeof *stats);
    if (!o || !o->proof) FAIL(CZK_ERR_INVALID_ARGUMENT, "testseal: no registered proof");
    const czk_fil_seal_proof *p = o->proof;
    if (!o->sparse && p->nodes > CZK_FIL_TESTSEAL_FULL_MAX_NODES)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "testseal: full SDR only up to 8 MiB (%s has %llu nodes): use sparse mode",
             p->name, (unsigned long long)p->nodes);
    if (o->sparse && p->feature != CZK_FIL_FEATURE_NONE)
        FAIL(CZK_ERR_INVALID_ARGUMENT,
             "testseal: %s draws its challenges from comm_r, which a sparse seal fixes only after opening them: "
             "sparse mode needs an interactive proof (ids 0-9)",
             p->name);
    if (o->data && o->sparse) FAIL(CZK_ERR_INVALID_ARGUMENT, "testseal: given data needs full mode, not sparse");
    if (o->data && o->data_len > p->sector_size)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "testseal: the data has %zu bytes, more than the %llu-byte sector", o->data_len,
             (unsigned long long)p->sector_size);
    for (size_t i = 31; o->data && i < o->data_len; i += 32)
        if (o->data[i] & 0xc0)
            FAIL(CZK_ERR_INVALID_ARGUMENT,
                 "testseal: node %zu of the data (byte %zu = 0x%02x) has its top two bits set: not fr32-padded", i / 32,
                 i, o->data[i]);
    double t0 = now();
    seal s;
    memset(&s, 0, sizeof s);
    s.p = p;
    s.seed = o->seed;
    s.given = o->data;
    s.given_len = o->data ? o->data_len : 0;
    s.period = o->sparse && p->nodes > CZK_FIL_TESTSEAL_DATA_PERIOD ? CZK_FIL_TESTSEAL_DATA_PERIOD : p->nodes;
    czk_err e = seal_run(&s, o, out, msg, msglen);
    s.st.seconds = now() - t0;
    s.st.peak_bytes = s.peak;
    if (stats) *stats = s.st;
    seal_free(&s);
    if (e != CZK_OK) czk_fil_c1_free(out);
    return e;
}
