/* A consistent 32 GiB C1 (StackedDrg32GiBV1_1: 10 partitions × 18
 * challenges, 11 layers, tree_c and tree_r_last 8-8-0 so every column and
 * replica proof is a Sub proof of 9 + 1 levels, tree_d 30 binary levels)
 * built on sparse trees: only the challenged nodes and their 14 parents have
 * leaves, every other subtree is a default value per level. Its labels are
 * create_label of random parent columns, its challenges and parents those of
 * the proof. It validates (on 1 and 4 threads), survives the JSON round trip
 * (≈ 38 MB) with the expected decoded size, and a changed sub-level sibling,
 * base level sibling or Sub/Single variant is refused. The same at 64 GiB
 * (StackedDrg64GiBV1_1, Top proofs with a top level of arity 2) validates,
 * and a changed top-level sibling or index is refused. Prints the times.
 * Skipped when CZK_TEST_SCALE < 1. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/filecoin_c1.h"
#include "czk/filecoin_graph.h"
#include "czk/filecoin_porep.h"
#include "czk/fr.h"
#include "czk/poseidon.h"
#include "test.h"
#include <openssl/evp.h>

static czk_rng rng;

static void rand_fr(uint8_t out[32]) {
    czk_rng_bytes(&rng, out, 32);
    out[31] &= 0x3f;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- sparse trees ------------------------------------------------------------ */

typedef struct {
    uint64_t idx;
    uint8_t v[32];
} ent;

#define MAXL 32
typedef struct {
    bool sha;
    size_t n_levels; /* path levels */
    unsigned arity[MAXL];
    ent *lv[MAXL + 1];
    size_t cnt[MAXL + 1];
    uint8_t dflt[MAXL + 1][32];
} sparse;

static void hash_kids(bool sha, unsigned a, const uint8_t (*kids)[32], uint8_t out[32]) {
    if (sha) {
        unsigned len;
        EVP_Digest(kids, 32u * a, out, &len, EVP_sha256(), NULL);
        out[31] &= 0x3f;
        return;
    }
    czk_fr in[8], o;
    for (unsigned i = 0; i < a; i++) czk_fr_from_bytes_le(&in[i], kids[i]);
    czk_poseidon_hash(&o, in, a);
    czk_fr_to_bytes_le(out, &o);
}

static int ent_cmp(const void *a, const void *b) {
    uint64_t x = ((const ent *)a)->idx, y = ((const ent *)b)->idx;
    return x < y ? -1 : x > y;
}

static const uint8_t *lookup(const sparse *t, size_t l, uint64_t idx) {
    ent key = {idx, {0}};
    const ent *e = bsearch(&key, t->lv[l], t->cnt[l], sizeof key, ent_cmp);
    return e ? e->v : t->dflt[l];
}

/* leaves: n entries with distinct indices (sorted here) */
static void sparse_build(sparse *t, bool sha, const unsigned *arity, size_t n_levels, ent *leaves, size_t n) {
    memset(t, 0, sizeof *t);
    t->sha = sha;
    t->n_levels = n_levels;
    memcpy(t->arity, arity, n_levels * sizeof *arity);
    qsort(leaves, n, sizeof *leaves, ent_cmp);
    t->lv[0] = leaves;
    t->cnt[0] = n;
    for (size_t l = 0; l < n_levels; l++) {
        unsigned a = arity[l];
        uint8_t kids[8][32];
        for (unsigned j = 0; j < a; j++) memcpy(kids[j], t->dflt[l], 32);
        hash_kids(sha, a, (const uint8_t(*)[32])kids, t->dflt[l + 1]);
        t->lv[l + 1] = malloc(t->cnt[l] * sizeof(ent));
        size_t m = 0;
        for (size_t i = 0; i < t->cnt[l];) {
            uint64_t parent = t->lv[l][i].idx / a;
            for (unsigned j = 0; j < a; j++) memcpy(kids[j], t->dflt[l], 32);
            for (; i < t->cnt[l] && t->lv[l][i].idx / a == parent; i++) memcpy(kids[t->lv[l][i].idx % a], t->lv[l][i].v, 32);
            t->lv[l + 1][m].idx = parent;
            hash_kids(sha, a, (const uint8_t(*)[32])kids, t->lv[l + 1][m].v);
            m++;
        }
        t->cnt[l + 1] = m;
    }
}

static const uint8_t *sparse_root(const sparse *t) { return t->lv[t->n_levels][0].v; }

static void sparse_path(const sparse *t, uint64_t node, czk_fil_path *p) {
    p->n_levels = t->n_levels;
    p->levels = calloc(p->n_levels, sizeof *p->levels);
    for (size_t l = 0; l < t->n_levels; l++) {
        unsigned a = t->arity[l];
        czk_fil_path_level *lv = &p->levels[l];
        lv->arity = (uint8_t)a;
        lv->index = (uint8_t)(node % a);
        uint64_t first = node - lv->index;
        for (unsigned j = 0, s = 0; j < a; j++)
            if (j != lv->index) memcpy(lv->siblings[s++], lookup(t, l, first + j), 32);
        node /= a;
    }
}

static void sparse_free(sparse *t) {
    for (size_t l = 0; l <= t->n_levels; l++) free(t->lv[l]);
}

/* ---- the C1 -------------------------------------------------------------------- */

#define K 10
#define C 18
#define LAYERS 11

/* create_label (labeling_proof.rs) of the challenge's node from its parent
 * columns: layer 1 the 6 DRG rows of layer 1, later layers the 6 DRG rows of
 * the layer and the 8 expander rows of the layer below, repeated to 37. */
static void label(const uint8_t rid[32], const czk_fil_porep_challenge *c, size_t layer, uint8_t out[32]) {
    uint8_t buf[64 + 37 * 32] = {0};
    memcpy(buf, rid, 32);
    buf[35] = (uint8_t)layer;
    for (int i = 0; i < 8; i++) buf[36 + i] = (uint8_t)(c->node >> (56 - 8 * i));
    size_t m = layer == 1 ? 6 : 14;
    for (size_t j = 0; j < 37; j++) {
        size_t i = j % m;
        memcpy(buf + 64 + 32 * j, i < 6 ? c->drg_parents[i].rows[layer - 1] : c->exp_parents[i - 6].rows[layer - 2], 32);
    }
    unsigned len;
    EVP_Digest(buf, sizeof buf, out, &len, EVP_sha256(), NULL);
    out[31] &= 0x3f;
}

static int u64_cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* proof 8 (32 GiB, 8-8-0) or 9 (64 GiB, 8-8-2) */
static void build(czk_fil_c1 *c1, uint64_t id) {
    const czk_fil_seal_proof *p = czk_fil_seal_proof_get(id);
    CHECK(p->partitions == K && p->challenges_per_partition == C && p->layers == LAYERS && p->tree_sub == 8);
    memset(c1, 0, sizeof *c1);
    c1->proof = p;
    c1->shape_sector_size = p->sector_size;
    rand_fr(c1->replica_id);
    czk_rng_bytes(&rng, c1->ticket, 32);
    uint8_t porep_id[32];
    czk_fil_porep_id(p, porep_id);
    czk_fil_graph g;
    char msg[256];
    CHECK(czk_fil_graph_init(&g, p->nodes, porep_id, p->api, msg, sizeof msg) == CZK_OK);
    /* challenges distinct and no challenge a parent (else the seed is redrawn); a
     * node that is the parent of several challenges (or twice of one) has one column */
    static uint64_t nodes[K][C];
    static uint32_t par[K][C][CZK_FIL_DEGREE];
    static uint64_t all[K * C * 15], uniq[K * C * 14];
    size_t n_uniq = 0;
    czk_fil_porep_instance inst = {p, {0}, {0}, {0}, {0}};
    memcpy(inst.replica_id, c1->replica_id, 32);
    for (;;) {
        czk_rng_bytes(&rng, c1->seed, 32);
        memcpy(inst.seed, c1->seed, 32);
        size_t n = 0;
        n_uniq = 0;
        for (uint32_t k = 0; k < K; k++) {
            CHECK(czk_fil_porep_challenges(&inst, k, nodes[k], msg, sizeof msg) == CZK_OK);
            for (size_t i = 0; i < C; i++) {
                czk_fil_graph_parents(&g, (uint32_t)nodes[k][i], par[k][i]);
                for (int j = 0; j < CZK_FIL_DEGREE; j++) all[n++] = par[k][i][j];
            }
        }
        qsort(all, n, sizeof *all, u64_cmp);
        for (size_t i = 0; i < n; i++)
            if (!n_uniq || uniq[n_uniq - 1] != all[i]) uniq[n_uniq++] = all[i];
        bool clash = false;
        for (size_t k = 0; k < K; k++)
            for (size_t i = 0; i < C; i++) {
                clash |= bsearch(&nodes[k][i], uniq, n_uniq, sizeof *uniq, u64_cmp) != NULL;
                for (size_t k2 = 0; k2 <= k; k2++)
                    for (size_t i2 = 0; i2 < (k2 == k ? i : C); i2++) clash |= nodes[k2][i2] == nodes[k][i];
            }
        if (!clash) break;
    }
    /* the parents' columns: random labels, one column per node */
    uint8_t (*urows)[LAYERS][32] = malloc(n_uniq * sizeof *urows);
    for (size_t u = 0; u < n_uniq; u++)
        for (int l = 0; l < LAYERS; l++) rand_fr(urows[u][l]);
    c1->n_partitions = K;
    c1->partitions = calloc(K, sizeof *c1->partitions);
    ent *lc = malloc(K * C * 15 * sizeof *lc), *ld = malloc(K * C * sizeof *ld), *lr = malloc(K * C * sizeof *lr);
    size_t nc = 0, nd = 0;
    for (size_t k = 0; k < K; k++) {
        czk_fil_porep_partition *pt = &c1->partitions[k];
        pt->n_challenges = C;
        pt->challenges = calloc(C, sizeof *pt->challenges);
        for (size_t i = 0; i < C; i++) {
            czk_fil_porep_challenge *c = &pt->challenges[i];
            c->node = nodes[k][i];
            rand_fr(c->data_leaf);
            for (int j = 0; j < CZK_FIL_DEGREE; j++) {
                czk_fil_column *col = j < 6 ? &c->drg_parents[j] : &c->exp_parents[j - 6];
                col->index = par[k][i][j];
                col->n_rows = LAYERS;
                col->rows = malloc(LAYERS * 32);
                uint64_t key = col->index;
                const uint64_t *u = bsearch(&key, uniq, n_uniq, sizeof *uniq, u64_cmp);
                memcpy(col->rows, urows[u - uniq], LAYERS * 32);
            }
            uint8_t labels[LAYERS][32];
            for (size_t l = 1; l <= LAYERS; l++) label(c1->replica_id, c, l, labels[l - 1]);
            czk_fr in[LAYERS], o, d;
            for (int l = 0; l < LAYERS; l++) czk_fr_from_bytes_le(&in[l], labels[l]);
            czk_poseidon_hash(&o, in, LAYERS);
            lc[nc].idx = c->node;
            czk_fr_to_bytes_le(lc[nc++].v, &o);
            ld[nd].idx = c->node;
            memcpy(ld[nd].v, c->data_leaf, 32);
            czk_fr_from_bytes_le(&d, c->data_leaf);
            czk_fr_add(&o, &in[LAYERS - 1], &d);
            lr[nd].idx = c->node;
            czk_fr_to_bytes_le(lr[nd++].v, &o);
        }
    }
    for (size_t u = 0; u < n_uniq; u++) {
        czk_fr in[LAYERS], o;
        for (int l = 0; l < LAYERS; l++) czk_fr_from_bytes_le(&in[l], urows[u][l]);
        czk_poseidon_hash(&o, in, LAYERS);
        lc[nc].idx = uniq[u];
        czk_fr_to_bytes_le(lc[nc++].v, &o);
    }
    free(urows);
    /* tree_c and tree_r_last: 9 base levels of 8, the sub level of 8, the top level of 2 at 64 GiB */
    unsigned ar[11] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 2}, a2[31];
    size_t nr = p->tree_top ? 11 : 10, nd2 = p->tree_top ? 31 : 30;
    for (int i = 0; i < 31; i++) a2[i] = 2;
    sparse tc, td, tr;
    sparse_build(&tc, false, ar, nr, lc, nc);
    sparse_build(&tr, false, ar, nr, lr, nd);
    sparse_build(&td, true, a2, nd2, ld, nd);
    memcpy(c1->comm_d, sparse_root(&td), 32);
    czk_fr rr[2], cr;
    czk_fr_from_bytes_le(&rr[0], sparse_root(&tc));
    czk_fr_from_bytes_le(&rr[1], sparse_root(&tr));
    czk_poseidon_hash(&cr, rr, 2);
    czk_fr_to_bytes_le(c1->comm_r, &cr);
    for (size_t k = 0; k < K; k++) {
        czk_fil_porep_partition *pt = &c1->partitions[k];
        memcpy(pt->replica_id, c1->replica_id, 32);
        memcpy(pt->comm_d, c1->comm_d, 32);
        memcpy(pt->comm_r, c1->comm_r, 32);
        memcpy(pt->comm_c, sparse_root(&tc), 32);
        memcpy(pt->comm_r_last, sparse_root(&tr), 32);
        for (size_t i = 0; i < C; i++) {
            czk_fil_porep_challenge *c = &pt->challenges[i];
            sparse_path(&td, c->node, &c->comm_d_path);
            sparse_path(&tr, c->node, &c->comm_r_last_path);
            sparse_path(&tc, c->node, &c->comm_c_path);
            for (int j = 0; j < CZK_FIL_DEGREE; j++) {
                czk_fil_column *col = j < 6 ? &c->drg_parents[j] : &c->exp_parents[j - 6];
                sparse_path(&tc, col->index, &col->path);
            }
        }
    }
    sparse_free(&tc);
    sparse_free(&tr);
    sparse_free(&td);
    CHECK_MSG(czk_fil_c1_derive_claims(c1, msg, sizeof msg) == CZK_OK, "%s", msg);
}

int main(void) {
    if (getenv("CZK_TEST_SCALE") && atof(getenv("CZK_TEST_SCALE")) < 1) {
        printf("test_filecoin_c1_32g: SKIP (CZK_TEST_SCALE < 1)\n");
        return TEST_SKIP;
    }
    test_seed_rng(&rng, "test_filecoin_c1_32g");
    czk_fil_c1 c1, d;
    char msg[512], *json;
    size_t len;
    double t0 = now();
    build(&c1, 8);
    double t1 = now();
    czk_err e = czk_fil_c1_validate(&c1, msg, sizeof msg);
    double t2 = now();
    CHECK_MSG(e == CZK_OK, "%s", msg);
    e = czk_fil_c1_validate_threads(&c1, 4, msg, sizeof msg);
    double t3 = now();
    CHECK_MSG(e == CZK_OK, "4 threads: %s", msg);
    CHECK(czk_fil_c1_encode(&c1, true, &json, &len, msg, sizeof msg) == CZK_OK);
    double t4 = now();
    e = czk_fil_c1_decode(&d, json, len, msg, sizeof msg);
    double t5 = now();
    CHECK_MSG(e == CZK_OK, "%s", msg);
    printf("  32 GiB C1: built in %.2f s; validated in %.2f s (1 thread), %.2f s (4 threads); envelope of %zu bytes "
           "encoded in %.2f s, decoded in %.2f s; %zu bytes decoded (expected %zu)\n",
           t1 - t0, t2 - t1, t3 - t2, len, t4 - t3, t5 - t4, czk_fil_c1_bytes(&d),
           czk_fil_c1_bytes_expected(c1.proof));
    free(json);
    if (e == CZK_OK) {
        CHECK(czk_fil_c1_bytes(&d) == czk_fil_c1_bytes_expected(c1.proof));
        CHECK_MSG(czk_fil_c1_validate_threads(&d, 2, msg, sizeof msg) == CZK_OK, "%s", msg);
        czk_fil_porep_challenge *c = &d.partitions[7].challenges[11];
        c->exp_parents[5].path.levels[9].siblings[6][0] ^= 1; /* the sub level */
        CHECK(czk_fil_c1_validate_threads(&d, 4, msg, sizeof msg) == CZK_ERR_MISMATCH &&
              strstr(msg, "vanilla_proofs[7][11].replica_column_proofs.exp_parents[5].inclusion_proof: path hashes to"));
        printf("  refused: %s\n", msg);
        c->exp_parents[5].path.levels[9].siblings[6][0] ^= 1;
        c->comm_r_last_path.levels[4].siblings[1][2] ^= 1; /* a base level */
        CHECK(czk_fil_c1_validate(&d, msg, sizeof msg) == CZK_ERR_MISMATCH &&
              strstr(msg, "vanilla_proofs[7][11].comm_r_last_proof: path hashes to"));
        c->comm_r_last_path.levels[4].siblings[1][2] ^= 1;
        d.claims[3][2].c_x.kind = CZK_FIL_PROOF_SINGLE;
        CHECK(czk_fil_c1_validate(&d, msg, sizeof msg) == CZK_ERR_MISMATCH &&
              strstr(msg, "vanilla_proofs[3][2].replica_column_proofs.c_x.inclusion_proof: a Single proof, the sector's "
                          "tree takes Sub"));
        printf("  refused: %s\n", msg);
        d.claims[3][2].c_x.kind = CZK_FIL_PROOF_SUB;
        d.claims[3][2].c_x.n_base = 10, d.claims[3][2].c_x.n_sub = 0;
        CHECK(czk_fil_c1_validate(&d, msg, sizeof msg) == CZK_ERR_MISMATCH && strstr(msg, "path of 10 + 0 + 0 levels"));
        printf("  refused: %s\n", msg);
        czk_fil_c1_free(&d);
    }
    czk_fil_c1_free(&c1);

    /* 64 GiB: Top proofs (9 + 1 + 1 levels, the top of arity 2), validated on the struct */
    t0 = now();
    build(&c1, 9);
    t1 = now();
    e = czk_fil_c1_validate_threads(&c1, 4, msg, sizeof msg);
    t2 = now();
    CHECK_MSG(e == CZK_OK, "64 GiB: %s", msg);
    printf("  64 GiB C1: built in %.2f s, validated in %.2f s (4 threads)\n", t1 - t0, t2 - t1);
    CHECK(c1.claims[0][0].comm_r_last.kind == CZK_FIL_PROOF_TOP && c1.partitions[0].challenges[0].comm_r_last_path.n_levels == 11);
    czk_fil_porep_challenge *c = &c1.partitions[0].challenges[3];
    c->drg_parents[1].path.levels[10].siblings[0][0] ^= 1; /* the top level */
    CHECK(czk_fil_c1_validate(&c1, msg, sizeof msg) == CZK_ERR_MISMATCH &&
          strstr(msg, "vanilla_proofs[0][3].replica_column_proofs.drg_parents[1].inclusion_proof: path hashes to"));
    printf("  refused: %s\n", msg);
    c->drg_parents[1].path.levels[10].siblings[0][0] ^= 1;
    c->comm_c_path.levels[10].index ^= 1;
    CHECK(czk_fil_c1_validate(&c1, msg, sizeof msg) == CZK_ERR_MISMATCH &&
          strstr(msg, "vanilla_proofs[0][3].replica_column_proofs.c_x.inclusion_proof: path selects node"));
    printf("  refused: %s\n", msg);
    czk_fil_c1_free(&c1);
    return test_finish("test_filecoin_c1_32g");
}
