/* The C1 output (filecoin_c1.h): encode → decode round trips of made-up
 * partitions (Single, Sub and Top proofs of random arities), also after
 * jansson re-serializes the JSON with other key order, white space and
 * unknown fields, bare and in cuzk's envelope; a consistent 2 KiB C1 sealed
 * here with native hashes (tree_d, labels, tree_c, tree_r_last, comm_r, the
 * proof's challenges and SDR parents; its tree_d and labels agree with
 * comm_d.c's and labels.c's, which are pinned to rust-fil-proofs' vectors)
 * validates and passes the request check, and each tampering is refused
 * with its own message (a flipped label or column row, a wrong sibling,
 * comm_r, sector size, envelope SectorSize, path length, challenge or
 * parent; truncated JSON, a non-canonical value …); any one character of
 * its text changed is refused; a 13-partition NI-PoRep C1 validates on any
 * number of threads; the decoded size equals the expected one. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

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
    out[31] &= 0x3f; /* < 2^254 < r */
}

/* ---- made-up partitions --------------------------------------------------- */

static void rand_path(czk_fil_path *p, czk_fil_c1_merkle *m, int kind) {
    m->kind = (uint8_t)kind;
    m->n_base = (uint8_t)(1 + czk_rng_next(&rng) % 5);
    m->n_sub = kind >= 1 ? 1 : 0;
    m->n_top = kind == 2 ? 1 : 0;
    p->n_levels = (size_t)m->n_base + m->n_sub + m->n_top;
    p->levels = calloc(p->n_levels, sizeof *p->levels);
    for (size_t l = 0; l < p->n_levels; l++) {
        p->levels[l].arity = (uint8_t)(2 + czk_rng_next(&rng) % 7);
        p->levels[l].index = (uint8_t)(czk_rng_next(&rng) % p->levels[l].arity);
        for (unsigned j = 0; j + 1 < p->levels[l].arity; j++) rand_fr(p->levels[l].siblings[j]);
    }
    rand_fr(m->leaf);
    rand_fr(m->root);
}

static void rand_column(czk_fil_column *c, czk_fil_c1_merkle *m, size_t layers, int kind) {
    c->index = (uint32_t)czk_rng_next(&rng);
    c->n_rows = layers;
    c->rows = malloc(layers * 32);
    for (size_t i = 0; i < layers; i++) rand_fr(c->rows[i]);
    rand_path(&c->path, m, kind);
}

static void made_up(czk_fil_c1 *c1) {
    memset(c1, 0, sizeof *c1);
    c1->proof = czk_fil_seal_proof_get(czk_rng_next(&rng) % czk_fil_seal_proof_count());
    c1->shape_sector_size = c1->proof->sector_size;
    rand_fr(c1->comm_r), rand_fr(c1->comm_d), rand_fr(c1->replica_id);
    czk_rng_bytes(&rng, c1->seed, 32);
    czk_rng_bytes(&rng, c1->ticket, 32);
    c1->n_partitions = 1 + czk_rng_next(&rng) % 3;
    c1->partitions = calloc(c1->n_partitions, sizeof *c1->partitions);
    c1->claims = calloc(c1->n_partitions, sizeof *c1->claims);
    size_t layers = 1 + czk_rng_next(&rng) % 11;
    for (size_t k = 0; k < c1->n_partitions; k++) {
        czk_fil_porep_partition *p = &c1->partitions[k];
        p->n_challenges = 1 + czk_rng_next(&rng) % 3;
        p->challenges = calloc(p->n_challenges, sizeof *p->challenges);
        c1->claims[k] = calloc(p->n_challenges, sizeof **c1->claims);
        for (size_t i = 0; i < p->n_challenges; i++) {
            czk_fil_porep_challenge *c = &p->challenges[i];
            czk_fil_c1_claims *cl = &c1->claims[k][i];
            int kind = (int)(czk_rng_next(&rng) % 3);
            c->node = (uint32_t)czk_rng_next(&rng);
            rand_path(&c->comm_d_path, &cl->comm_d, 0);
            memcpy(c->data_leaf, cl->comm_d.leaf, 32);
            rand_path(&c->comm_r_last_path, &cl->comm_r_last, kind);
            rand_path(&c->comm_c_path, &cl->c_x, kind);
            cl->n_rows = (uint8_t)layers;
            for (size_t l = 0; l < layers; l++) rand_fr(cl->c_x_rows[l]);
            for (int j = 0; j < CZK_FIL_DRG_PARENTS; j++) rand_column(&c->drg_parents[j], &cl->drg[j], layers, kind);
            for (int j = 0; j < CZK_FIL_EXP_PARENTS; j++) rand_column(&c->exp_parents[j], &cl->exp[j], layers, kind);
        }
        memcpy(p->replica_id, c1->replica_id, 32);
        memcpy(p->comm_d, c1->comm_d, 32);
        memcpy(p->comm_r, c1->comm_r, 32);
        memcpy(p->comm_c, c1->claims[k][0].c_x.root, 32);
        memcpy(p->comm_r_last, c1->claims[k][0].comm_r_last.root, 32);
    }
}

static bool path_eq(const czk_fil_path *a, const czk_fil_path *b) {
    if (a->n_levels != b->n_levels) return false;
    for (size_t l = 0; l < a->n_levels; l++) {
        const czk_fil_path_level *x = &a->levels[l], *y = &b->levels[l];
        if (x->arity != y->arity || x->index != y->index || memcmp(x->siblings, y->siblings, (x->arity - 1u) * 32u))
            return false;
    }
    return true;
}

static bool column_eq(const czk_fil_column *a, const czk_fil_column *b) {
    return a->index == b->index && a->n_rows == b->n_rows && !memcmp(a->rows, b->rows, a->n_rows * 32) &&
           path_eq(&a->path, &b->path);
}

static bool c1_eq(const czk_fil_c1 *a, const czk_fil_c1 *b) {
    if (a->proof != b->proof || a->shape_sector_size != b->shape_sector_size || a->n_partitions != b->n_partitions)
        return false;
    if (memcmp(a->comm_r, b->comm_r, 32) || memcmp(a->comm_d, b->comm_d, 32) || memcmp(a->replica_id, b->replica_id, 32) ||
        memcmp(a->seed, b->seed, 32) || memcmp(a->ticket, b->ticket, 32))
        return false;
    for (size_t k = 0; k < a->n_partitions; k++) {
        const czk_fil_porep_partition *x = &a->partitions[k], *y = &b->partitions[k];
        if (x->n_challenges != y->n_challenges || memcmp(x->comm_c, y->comm_c, 32) ||
            memcmp(x->comm_r_last, y->comm_r_last, 32) || memcmp(x->replica_id, y->replica_id, 32))
            return false;
        for (size_t i = 0; i < x->n_challenges; i++) {
            const czk_fil_porep_challenge *c = &x->challenges[i], *d = &y->challenges[i];
            if (c->node != d->node || memcmp(c->data_leaf, d->data_leaf, 32) || !path_eq(&c->comm_d_path, &d->comm_d_path) ||
                !path_eq(&c->comm_r_last_path, &d->comm_r_last_path) || !path_eq(&c->comm_c_path, &d->comm_c_path))
                return false;
            for (int j = 0; j < CZK_FIL_DRG_PARENTS; j++)
                if (!column_eq(&c->drg_parents[j], &d->drg_parents[j])) return false;
            for (int j = 0; j < CZK_FIL_EXP_PARENTS; j++)
                if (!column_eq(&c->exp_parents[j], &d->exp_parents[j])) return false;
            if (memcmp(&a->claims[k][i], &b->claims[k][i], sizeof a->claims[k][i])) return false;
        }
    }
    return true;
}

/* jansson's reading and writing of the same JSON: keys sorted, indented,
 * an unknown field added at the top and in every object holding "index". */
static void add_unknown(json_t *v) {
    if (json_is_object(v)) {
        const char *key;
        json_t *x;
        json_object_foreach(v, key, x) add_unknown(x);
        if (json_object_get(v, "index")) json_object_set_new(v, "zz_unknown", json_pack("{s:[i,s,n]}", "a", 1, "b"));
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) add_unknown(x);
    }
}

static char *reformat(const char *text, size_t len) {
    json_error_t err;
    json_t *j = json_loadb(text, len, 0, &err);
    if (!j) return NULL;
    add_unknown(j);
    json_object_set_new(j, "extra", json_string("ignored"));
    char *s = json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS);
    json_decref(j);
    return s;
}

static void test_round_trips(void) {
    long n = test_cases(20);
    for (long t = 0; t < n; t++) {
        czk_fil_c1 a, b;
        char msg[512], *json, *json2;
        size_t len, len2;
        made_up(&a);
        bool env = t % 2;
        a.sector_num = env ? czk_rng_next(&rng) : 0;
        a.sector_size = env ? a.proof->sector_size : 0;
        a.enveloped = env;
        CHECK(czk_fil_c1_encode(&a, env, &json, &len, msg, sizeof msg) == CZK_OK);
        czk_err e = czk_fil_c1_decode(&b, json, len, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "case %ld: %s", t, msg);
        if (e == CZK_OK) {
            CHECK_MSG(c1_eq(&a, &b), "case %ld: decoded differs", t);
            CHECK(b.enveloped == env && b.sector_num == a.sector_num && b.sector_size == a.sector_size);
            CHECK(czk_fil_c1_encode(&b, env, &json2, &len2, msg, sizeof msg) == CZK_OK);
            CHECK(len2 == len && memcmp(json, json2, len) == 0);
            free(json2);
            CHECK(czk_fil_c1_bytes(&b) > 0);
        }
        czk_fil_c1_free(&b);
        if (!env) {
            char *re = reformat(json, len);
            CHECK(re != NULL);
            e = czk_fil_c1_decode(&b, re, strlen(re), msg, sizeof msg);
            CHECK_MSG(e == CZK_OK, "reformatted case %ld: %s", t, msg);
            if (e == CZK_OK) CHECK(c1_eq(&a, &b));
            czk_fil_c1_free(&b);
            free(re);
        }
        free(json);
        czk_fil_c1_free(&a);
    }
}

/* ---- a consistent 2 KiB C1, sealed natively ----------------------------- */

#define NODES 64

/* a tree of arity a over n leaves: level 0 the leaves */
typedef struct {
    unsigned arity;
    size_t n_levels;
    uint8_t (*lv[8])[32];
    size_t width[8];
} tree;

static void node_hash(unsigned a, bool sha, const uint8_t (*kids)[32], uint8_t out[32]) {
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

static void tree_build(tree *t, unsigned a, bool sha, const uint8_t (*leaves)[32], size_t n) {
    memset(t, 0, sizeof *t);
    t->arity = a;
    t->lv[0] = malloc(n * 32);
    memcpy(t->lv[0], leaves, n * 32);
    t->width[0] = n;
    size_t l = 0;
    while (t->width[l] > 1) {
        size_t w = t->width[l] / a;
        t->lv[l + 1] = malloc(w * 32);
        for (size_t i = 0; i < w; i++) node_hash(a, sha, (const uint8_t(*)[32])t->lv[l][i * a], t->lv[l + 1][i]);
        t->width[++l] = w;
    }
    t->n_levels = l + 1;
}

static void tree_free(tree *t) {
    for (size_t l = 0; l < t->n_levels; l++) free(t->lv[l]);
}

static const uint8_t *tree_root(const tree *t) { return t->lv[t->n_levels - 1][0]; }

static void tree_path(const tree *t, size_t node, czk_fil_path *p) {
    p->n_levels = t->n_levels - 1;
    p->levels = calloc(p->n_levels, sizeof *p->levels);
    for (size_t l = 0; l + 1 < t->n_levels; l++) {
        czk_fil_path_level *lv = &p->levels[l];
        lv->arity = (uint8_t)t->arity;
        lv->index = (uint8_t)(node % t->arity);
        size_t first = node - lv->index;
        for (unsigned j = 0, s = 0; j < t->arity; j++)
            if (j != lv->index) memcpy(lv->siblings[s++], t->lv[l][first + j], 32);
        node /= t->arity;
    }
}

typedef struct {
    const czk_fil_seal_proof *proof;
    uint64_t miner, sector;
    uint8_t labels[2][NODES][32];
    uint8_t data[NODES][32];
    tree td, tc, tr;
} sealed;

static void label_of(const uint8_t rid[32], const czk_fil_graph *g, uint8_t labels[2][NODES][32], size_t layer,
                     uint32_t node, uint8_t out[32]) {
    uint32_t par[CZK_FIL_DEGREE];
    czk_fil_graph_parents(g, node, par);
    uint8_t buf[64 + 37 * 32] = {0};
    memcpy(buf, rid, 32);
    buf[35] = (uint8_t)layer;
    for (int i = 0; i < 4; i++) buf[40 + i] = (uint8_t)(node >> (24 - 8 * i));
    size_t m = layer == 1 ? 6 : 14;
    for (size_t j = 0; j < 37; j++) {
        size_t i = j % m;
        const uint8_t *v = i < 6 ? labels[layer - 1][par[i]] : labels[layer - 2][par[i]];
        memcpy(buf + 64 + 32 * j, v, 32);
    }
    unsigned len;
    EVP_Digest(buf, sizeof buf, out, &len, EVP_sha256(), NULL);
    out[31] &= 0x3f;
}

static void fill_column(const sealed *s, uint32_t node, czk_fil_column *c) {
    c->index = node;
    c->n_rows = 2;
    c->rows = malloc(2 * 32);
    memcpy(c->rows[0], s->labels[0][node], 32);
    memcpy(c->rows[1], s->labels[1][node], 32);
    tree_path(&s->tc, node, &c->path);
}

/* seals a random 2 KiB sector of the registered proof id (a 2 KiB one) and builds its C1 */
static void seal(sealed *s, czk_fil_c1 *c1, uint64_t id) {
    memset(c1, 0, sizeof *c1);
    s->proof = czk_fil_seal_proof_get(id);
    s->miner = 1000 + czk_rng_next(&rng) % 1000;
    s->sector = czk_rng_next(&rng) % 100000;
    c1->proof = s->proof;
    c1->shape_sector_size = s->proof->sector_size;
    for (size_t i = 0; i < NODES; i++) rand_fr(s->data[i]);
    tree_build(&s->td, 2, true, (const uint8_t(*)[32])s->data, NODES);
    memcpy(c1->comm_d, tree_root(&s->td), 32);
    /* the test's tree_d against comm_d.c's (pinned to pieces.rs' zero comm_d) */
    uint8_t root[32], zero[NODES][32] = {{0}};
    CHECK(czk_fil_tree_d_root(&s->data[0][0], NODES, root, NULL, 0) == CZK_OK && !memcmp(root, c1->comm_d, 32));
    tree zt;
    tree_build(&zt, 2, true, (const uint8_t(*)[32])zero, NODES);
    CHECK(czk_fil_comm_d_zero(2048, root, NULL, 0) == CZK_OK && !memcmp(root, tree_root(&zt), 32));
    tree_free(&zt);
    czk_rng_bytes(&rng, c1->ticket, 32);
    czk_rng_bytes(&rng, c1->seed, 32);
    uint8_t prover[32], porep_id[32];
    czk_fil_prover_id(s->miner, prover);
    czk_fil_porep_id(s->proof, porep_id);
    czk_fil_replica_id(prover, s->sector, c1->ticket, c1->comm_d, porep_id, c1->replica_id);
    czk_fil_graph g;
    char msg[256];
    CHECK(czk_fil_graph_init(&g, NODES, porep_id, s->proof->api, msg, sizeof msg) == CZK_OK);
    /* the labels as the sealer computes them (labels.c, pinned to rust-fil-proofs' vectors); every node's
     * but node 0's (hashed without parents when sealing) is create_label of its parents as the check computes it */
    CHECK(czk_fil_labels_compute(&g, c1->replica_id, 2, &s->labels[0][0][0], msg, sizeof msg) == CZK_OK);
    for (size_t l = 1; l <= 2; l++)
        for (uint32_t v = 1; v < NODES; v++) {
            uint8_t lab[32];
            label_of(c1->replica_id, &g, s->labels, l, v, lab);
            CHECK_MSG(memcmp(lab, s->labels[l - 1][v], 32) == 0, "layer %zu node %u", l, v);
        }
    uint8_t cols[NODES][32], enc[NODES][32];
    for (size_t v = 0; v < NODES; v++) {
        czk_fr in[2], o, d;
        czk_fr_from_bytes_le(&in[0], s->labels[0][v]);
        czk_fr_from_bytes_le(&in[1], s->labels[1][v]);
        czk_poseidon_hash(&o, in, 2);
        czk_fr_to_bytes_le(cols[v], &o);
        czk_fr_from_bytes_le(&d, s->data[v]);
        czk_fr_add(&o, &in[1], &d);
        czk_fr_to_bytes_le(enc[v], &o);
    }
    tree_build(&s->tc, 8, false, (const uint8_t(*)[32])cols, NODES);
    tree_build(&s->tr, 8, false, (const uint8_t(*)[32])enc, NODES);
    czk_fr rr[2], cr;
    czk_fr_from_bytes_le(&rr[0], tree_root(&s->tc));
    czk_fr_from_bytes_le(&rr[1], tree_root(&s->tr));
    czk_poseidon_hash(&cr, rr, 2);
    czk_fr_to_bytes_le(c1->comm_r, &cr);

    c1->n_partitions = s->proof->partitions;
    c1->partitions = calloc(c1->n_partitions, sizeof *c1->partitions);
    czk_fil_porep_instance inst = {s->proof, {0}, {0}, {0}, {0}};
    memcpy(inst.replica_id, c1->replica_id, 32);
    memcpy(inst.comm_d, c1->comm_d, 32);
    memcpy(inst.comm_r, c1->comm_r, 32);
    memcpy(inst.seed, c1->seed, 32);
    for (size_t k = 0; k < c1->n_partitions; k++) {
        czk_fil_porep_partition *p = &c1->partitions[k];
        memcpy(p->replica_id, c1->replica_id, 32);
        memcpy(p->comm_d, c1->comm_d, 32);
        memcpy(p->comm_r, c1->comm_r, 32);
        memcpy(p->comm_c, tree_root(&s->tc), 32);
        memcpy(p->comm_r_last, tree_root(&s->tr), 32);
        uint64_t nodes[8];
        CHECK(czk_fil_porep_challenges(&inst, (uint32_t)k, nodes, msg, sizeof msg) == CZK_OK);
        p->n_challenges = s->proof->challenges_per_partition;
        p->challenges = calloc(p->n_challenges, sizeof *p->challenges);
        for (size_t i = 0; i < p->n_challenges; i++) {
            czk_fil_porep_challenge *c = &p->challenges[i];
            uint32_t v = (uint32_t)nodes[i], par[CZK_FIL_DEGREE];
            c->node = v;
            memcpy(c->data_leaf, s->data[v], 32);
            tree_path(&s->td, v, &c->comm_d_path);
            tree_path(&s->tr, v, &c->comm_r_last_path);
            tree_path(&s->tc, v, &c->comm_c_path);
            czk_fil_graph_parents(&g, v, par);
            for (int j = 0; j < 6; j++) fill_column(s, par[j], &c->drg_parents[j]);
            for (int j = 0; j < 8; j++) fill_column(s, par[6 + j], &c->exp_parents[j]);
        }
    }
    CHECK_MSG(czk_fil_c1_derive_claims(c1, msg, sizeof msg) == CZK_OK, "%s", msg);
}

static void sealed_free(sealed *s) {
    tree_free(&s->td);
    tree_free(&s->tc);
    tree_free(&s->tr);
}

/* decodes text, expecting CZK_OK from the decoder, then the validator's e and message */
static void expect_validate(const char *what, const czk_fil_c1 *c1, czk_err want, const char *needle) {
    char msg[512];
    czk_err e = czk_fil_c1_validate(c1, msg, sizeof msg);
    CHECK_MSG(e == want && (!needle || strstr(msg, needle)), "%s: %s (%s), wanted %s with \"%s\"", what, czk_err_str(e),
              msg, czk_err_str(want), needle ? needle : "");
    if (e == want && needle) printf("  %-28s refused: %s\n", what, msg);
}

static void expect_decode_fail(const char *what, const char *text, size_t len, czk_err want, const char *needle) {
    czk_fil_c1 c;
    char msg[512];
    czk_err e = czk_fil_c1_decode(&c, text, len, msg, sizeof msg);
    CHECK_MSG(e == want && strstr(msg, needle), "%s: %s (%s), wanted %s with \"%s\"", what, czk_err_str(e), msg,
              czk_err_str(want), needle);
    if (e == want) printf("  %-28s refused: %s\n", what, msg);
    CHECK(c.partitions == NULL && c.n_partitions == 0);
    czk_fil_c1_free(&c);
}

/* JSON edits through jansson: the value at a path of keys and indices */
static json_t *at(json_t *j, const char *path) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, "/"); tok && j; tok = strtok(NULL, "/")) {
        if (tok[0] >= '0' && tok[0] <= '9') j = json_array_get(j, (size_t)atoi(tok));
        else j = json_object_get(j, tok);
    }
    return j;
}

static char *edited(const char *json, size_t len, void (*edit)(json_t *)) {
    json_error_t err;
    json_t *j = json_loadb(json, len, 0, &err);
    edit(j);
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return s;
}

#define VP "vanilla_proofs/StackedDrg2KiBV1/0/1/"
static void ed_row(json_t *j) {
    json_t *v = at(j, VP "replica_column_proofs/drg_parents/2/column/rows/0/0");
    json_array_set_new(at(j, VP "replica_column_proofs/drg_parents/2/column/rows/0"), 0,
                       json_integer(json_integer_value(v) ^ 1));
}
static void ed_noncanon(json_t *j) {
    json_t *a = at(j, VP "comm_r_last_proof/data/Single/path/path/1/hashes/3");
    for (size_t i = 0; i < 32; i++) json_array_set_new(a, i, json_integer(255));
}
static void ed_wide(json_t *j) { json_array_set_new(at(j, "comm_d"), 4, json_integer(256)); }
static void ed_short(json_t *j) { json_array_remove(at(j, "seed"), 31); }
static void ed_variant(json_t *j) {
    json_t *v = at(j, VP "comm_d_proofs/data");
    json_object_set(v, "Sub", json_object_get(v, "Single"));
    json_object_del(v, "Single");
}
static void ed_label_node(json_t *j) { json_object_set_new(at(j, VP "labeling_proofs/1"), "node", json_integer(1000000)); }
static void ed_missing(json_t *j) { json_object_del(at(j, VP ""), "encoding_proof"); }
static void ed_proof_name(json_t *j) { json_object_set_new(j, "registered_proof", json_string("StackedDrg32GiBV1_1")); }
static void ed_unknown_name(json_t *j) { json_object_set_new(j, "registered_proof", json_string("StackedDrg1KiBV1")); }
static void ed_index(json_t *j) {
    json_object_set_new(at(j, VP "comm_d_proofs/data/Single/path/path/0"), "index", json_integer(2));
}

static void test_sealed(void) {
    sealed s;
    czk_fil_c1 c1, d;
    char msg[512], *json, *env;
    size_t len, elen;
    seal(&s, &c1, 5);
    expect_validate("sealed C1", &c1, CZK_OK, NULL);
    CHECK(czk_fil_c1_encode(&c1, false, &json, &len, msg, sizeof msg) == CZK_OK);
    c1.sector_num = s.sector;
    CHECK(czk_fil_c1_encode(&c1, true, &env, &elen, msg, sizeof msg) == CZK_OK);
    printf("  2 KiB C1: %zu bytes of JSON, %zu in the envelope, %zu decoded\n", len, elen, czk_fil_c1_bytes(&c1));

    /* decode, bare and enveloped, validate, check the request */
    CHECK_MSG(czk_fil_c1_decode(&d, json, len, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(c1_eq(&c1, &d));
    expect_validate("decoded C1", &d, CZK_OK, NULL);
    CHECK(czk_fil_c1_bytes(&d) == czk_fil_c1_bytes_expected(s.proof));
    CHECK_MSG(czk_fil_c1_check_request(&d, 5, 2048, s.miner, s.sector, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(czk_fil_c1_check_request(&d, 5, 2048, s.miner + 1, s.sector, msg, sizeof msg) == CZK_ERR_MISMATCH &&
          strstr(msg, "replica_id"));
    CHECK(czk_fil_c1_check_request(&d, 8, 2048, s.miner, s.sector, msg, sizeof msg) == CZK_ERR_MISMATCH &&
          strstr(msg, "registered_proof"));
    czk_fil_c1_free(&d);
    CHECK_MSG(czk_fil_c1_decode(&d, env, elen, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(d.enveloped && d.sector_num == s.sector && d.sector_size == 2048);
    expect_validate("enveloped C1", &d, CZK_OK, NULL);
    CHECK(czk_fil_c1_check_request(&d, 5, 2048, s.miner, s.sector, msg, sizeof msg) == CZK_OK);
    CHECK(czk_fil_c1_check_request(&d, 5, 2048, s.miner, s.sector + 1, msg, sizeof msg) == CZK_ERR_MISMATCH &&
          strstr(msg, "SectorNum"));
    czk_fil_c1_free(&d);

    /* the validator's refusals, each on a decoded copy with one thing changed */
#define TAMPER(what, edit, want, needle)                                    \
    do {                                                                    \
        CHECK(czk_fil_c1_decode(&d, json, len, msg, sizeof msg) == CZK_OK); \
        edit;                                                               \
        expect_validate(what, &d, want, needle);                            \
        czk_fil_c1_free(&d);                                                \
    } while (0)
    czk_fil_porep_challenge *c;
    TAMPER("flipped label", d.claims[0][1].c_x_rows[1][0] ^= 1, CZK_ERR_MISMATCH,
           "vanilla_proofs[0][1].replica_column_proofs.c_x.column.rows[1]: label");
    TAMPER("flipped column row", (c = &d.partitions[0].challenges[0], c->exp_parents[3].rows[1][5] ^= 4), CZK_ERR_MISMATCH,
           "vanilla_proofs[0][0].replica_column_proofs.exp_parents[3].inclusion_proof: leaf");
    TAMPER("wrong sibling", d.partitions[0].challenges[1].comm_r_last_path.levels[1].siblings[2][0] ^= 1,
           CZK_ERR_MISMATCH, "vanilla_proofs[0][1].comm_r_last_proof: path hashes to");
    TAMPER("wrong column sibling", d.partitions[0].challenges[0].drg_parents[2].path.levels[0].siblings[0][1] ^= 1,
           CZK_ERR_MISMATCH, "vanilla_proofs[0][0].replica_column_proofs.drg_parents[2].inclusion_proof: path hashes to");
    TAMPER("wrong tree_d sibling", d.partitions[0].challenges[0].comm_d_path.levels[3].siblings[0][1] ^= 1,
           CZK_ERR_MISMATCH, "vanilla_proofs[0][0].comm_d_proofs: path hashes to");
    TAMPER("wrong comm_r", (d.comm_r[0] ^= 1, d.partitions[0].comm_r[0] ^= 1), CZK_ERR_MISMATCH,
           "comm_r: ");
    TAMPER("wrong comm_d", (d.comm_d[0] ^= 1, d.partitions[0].comm_d[0] ^= 1), CZK_ERR_MISMATCH,
           "vanilla_proofs[0][0].comm_d_proofs: root");
    TAMPER("another sector size", (d.proof = czk_fil_seal_proof_get(8)), CZK_ERR_MISMATCH,
           "vanilla_proofs: proofs of a 2048-byte sector, registered_proof StackedDrg32GiBV1_1");
    TAMPER("wrong path length",
           (c = &d.partitions[0].challenges[1], c->comm_c_path.n_levels--, d.claims[0][1].c_x.n_base--),
           CZK_ERR_MISMATCH, "vanilla_proofs[0][1].replica_column_proofs.c_x.inclusion_proof: path of 1 + 0 + 0 levels");
    TAMPER("wrong arity", d.partitions[0].challenges[0].comm_r_last_path.levels[0].arity = 4, CZK_ERR_MISMATCH,
           "vanilla_proofs[0][0].comm_r_last_proof: level 0 has 3 hashes");
    TAMPER("non-canonical sibling", memset(d.partitions[0].challenges[0].comm_c_path.levels[1].siblings[4], 0xff, 32),
           CZK_ERR_NOT_CANONICAL, "vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof: level 1 hashes[4]");
    TAMPER("wrong challenge", d.partitions[0].challenges[1].node ^= 1, CZK_ERR_MISMATCH,
           "vanilla_proofs[0][1].replica_column_proofs.c_x.column.index: challenges node");
    TAMPER("wrong parent", d.partitions[0].challenges[0].exp_parents[7].index ^= 1, CZK_ERR_MISMATCH,
           "vanilla_proofs[0][0].replica_column_proofs.exp_parents[7].column.index");
    TAMPER("wrong variant", d.claims[0][0].comm_r_last.kind = CZK_FIL_PROOF_SUB, CZK_ERR_MISMATCH,
           "vanilla_proofs[0][0].comm_r_last_proof: a Sub proof, the sector's tree takes Single");
    TAMPER("wrong comm_c", (d.partitions[0].comm_c[0] ^= 1), CZK_ERR_MISMATCH, "comm_r: ");
    TAMPER("wrong leaf", d.claims[0][1].comm_r_last.leaf[2] ^= 1, CZK_ERR_MISMATCH,
           "vanilla_proofs[0][1].comm_r_last_proof: leaf");
#undef TAMPER
    CHECK(czk_fil_c1_decode(&d, json, len, msg, sizeof msg) == CZK_OK);
    d.partitions[0].n_challenges = 1;
    expect_validate("missing challenge", &d, CZK_ERR_MISMATCH, "vanilla_proofs[0]: 1 challenges, StackedDrg2KiBV1_1 has 2");
    d.partitions[0].n_challenges = 2;
    czk_fil_c1_free(&d);

    /* an envelope whose SectorSize is not the proof's */
    c1.sector_size = 8 << 20;
    char *bad;
    size_t blen;
    CHECK(czk_fil_c1_encode(&c1, true, &bad, &blen, msg, sizeof msg) == CZK_OK);
    CHECK(czk_fil_c1_decode(&d, bad, blen, msg, sizeof msg) == CZK_OK);
    expect_validate("envelope SectorSize", &d, CZK_ERR_MISMATCH, "SectorSize: 8388608, registered_proof StackedDrg2KiBV1_1");
    czk_fil_c1_free(&d);
    free(bad);
    c1.sector_size = 0;

    /* the decoder's refusals */
    expect_decode_fail("truncated JSON", json, len - 100, CZK_ERR_FORMAT, "truncated");
    expect_decode_fail("truncated envelope", env, elen / 2, CZK_ERR_FORMAT, "Phase1Out");
    expect_decode_fail("empty input", "", 0, CZK_ERR_FORMAT, "truncated");
    char *tail = malloc(len + 3);
    memcpy(tail, json, len);
    memcpy(tail + len, " x", 3);
    expect_decode_fail("trailing garbage", tail, len + 2, CZK_ERR_FORMAT, "trailing characters");
    free(tail);
    struct {
        const char *what;
        void (*edit)(json_t *);
        czk_err want;
        const char *needle;
    } edits[] = {
        {"labeling vs column", ed_row, CZK_ERR_FORMAT,
         "vanilla_proofs[0][1]: labeling_proofs[0].parents[2]: not the label its parent's column holds"},
        {"non-canonical value", ed_noncanon, CZK_ERR_NOT_CANONICAL,
         "vanilla_proofs[0][1].comm_r_last_proof.data.Single.path.path[1].hashes[3]: not a canonical Fr"},
        {"byte above 255", ed_wide, CZK_ERR_FORMAT, "comm_d: 256 is above 255"},
        {"31-byte value", ed_short, CZK_ERR_FORMAT, "seed: 31 bytes, not 32"},
        {"wrong variant", ed_variant, CZK_ERR_FORMAT, "vanilla_proofs[0][1].comm_d_proofs.data.Sub: missing field \"base_proof\""},
        {"labeling node", ed_label_node, CZK_ERR_FORMAT, "labeling_proofs[1]: layer_index 2 node 1000000"},
        {"missing field", ed_missing, CZK_ERR_FORMAT, "vanilla_proofs[0][1]: missing field \"encoding_proof\""},
        {"unknown proof", ed_unknown_name, CZK_ERR_NOT_FOUND, "registered_proof: unknown registered proof"},
        {"index outside arity", ed_index, CZK_ERR_FORMAT, "comm_d_proofs.data.Single.path.path[0]: index 2 outside"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char *t = edited(json, len, edits[i].edit);
        expect_decode_fail(edits[i].what, t, strlen(t), edits[i].want, edits[i].needle);
        free(t);
    }
    /* a C1 whose registered proof names another sector size decodes, and is refused */
    char *t = edited(json, len, ed_proof_name);
    CHECK(czk_fil_c1_decode(&d, t, strlen(t), msg, sizeof msg) == CZK_OK);
    expect_validate("C1 of another size", &d, CZK_ERR_MISMATCH, "vanilla_proofs: proofs of a 2048-byte sector");
    czk_fil_c1_free(&d);
    free(t);
    /* envelope details: bad base64, a mix of the two forms */
    expect_decode_fail("bad base64", "{\"SectorNum\":1,\"Phase1Out\":\"e30*\",\"SectorSize\":2048}", 52, CZK_ERR_FORMAT,
                       "Phase1Out: not a base64 character");
    expect_decode_fail("unpadded base64", "{\"SectorNum\":1,\"Phase1Out\":\"e30\",\"SectorSize\":2048}", 51,
                       CZK_ERR_FORMAT, "Phase1Out: base64 of 3 characters");
    const char *nop1 = "{\"SectorNum\":1,\"SectorSize\":2048}";
    expect_decode_fail("envelope without Phase1Out", nop1, strlen(nop1), CZK_ERR_FORMAT, "missing field \"Phase1Out\"");
    const char *empty = "{\"SectorNum\":1,\"Phase1Out\":\"\",\"SectorSize\":2048}";
    expect_decode_fail("empty Phase1Out", empty, strlen(empty), CZK_ERR_FORMAT, "Phase1Out: truncated");
    const char *mixed = "{\"SectorNum\":1,\"comm_r\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}";
    expect_decode_fail("mixed envelope", mixed, strlen(mixed), CZK_ERR_FORMAT, "comm_r: an envelope");
    const char *dup = "{\"registered_proof\":\"StackedDrg2KiBV1\",\"registered_proof\":\"StackedDrg2KiBV1\"}";
    expect_decode_fail("duplicate field", dup, strlen(dup), CZK_ERR_FORMAT, "registered_proof: duplicate field");
    const char *nul = "{\"registered_proof\":\"StackedDrg2KiBV1\\u0000x\"}";
    expect_decode_fail("NUL in a name", nul, strlen(nul), CZK_ERR_FORMAT, "registered_proof: string longer than 63 bytes or holding a NUL");
    const char *nulkey = "{\"SectorNum\\u0000\":1}";
    expect_decode_fail("NUL in a key", nulkey, strlen(nulkey), CZK_ERR_FORMAT, "missing field \"registered_proof\"");
    const char *neg = "{\"SectorNum\":-1,\"Phase1Out\":\"\",\"SectorSize\":2048}";
    expect_decode_fail("negative SectorNum", neg, strlen(neg), CZK_ERR_FORMAT, "SectorNum: expected an unsigned integer");

    /* the expected size of a 32 GiB C1, for the budget */
    const czk_fil_seal_proof *p32 = czk_fil_seal_proof_get(8);
    printf("  expected decoded size: 2 KiB %zu bytes, 32 GiB %zu bytes (%.1f MiB)\n", czk_fil_c1_bytes_expected(s.proof),
           czk_fil_c1_bytes_expected(p32), czk_fil_c1_bytes_expected(p32) / 1048576.0);

    free(json);
    free(env);
    czk_fil_c1_free(&c1);
    sealed_free(&s);
}

/* Any one character of the sealed C1's text changed (outside the ticket and
 * seed, which no hash binds: the ticket is checked by the request check, a
 * changed seed may draw the same two challenges) is refused by the decoder
 * or the check, without a crash. */
static void test_mutations(void) {
    sealed s;
    czk_fil_c1 c1, d;
    char msg[512], *json;
    size_t len;
    seal(&s, &c1, 5);
    CHECK(czk_fil_c1_encode(&c1, false, &json, &len, msg, sizeof msg) == CZK_OK);
    const char *seed = strstr(json, "\"seed\":"), *ticket = strstr(json, "\"ticket\":");
    CHECK(seed && ticket && seed < ticket);
    size_t skip_from = (size_t)(seed - json); /* seed, then ticket, end the text */
    static const char alphabet[] = "0123456789 ,:[]{}\"anlu-.eE_";
    long n = test_cases(300), by_decoder = 0, by_check = 0;
    for (long t = 0; t < n; t++) {
        size_t at_ = czk_rng_next(&rng) % skip_from;
        char was = json[at_];
        char now = alphabet[czk_rng_next(&rng) % (sizeof alphabet - 1)];
        if (now == was) now = was == '0' ? '1' : '0';
        json[at_] = now;
        czk_err e = czk_fil_c1_decode(&d, json, len, msg, sizeof msg);
        if (e != CZK_OK) {
            by_decoder++;
            CHECK(msg[0] != '\0');
        } else {
            e = czk_fil_c1_validate_threads(&d, 2, msg, sizeof msg);
            CHECK_MSG(e != CZK_OK, "byte %zu '%c' -> '%c' accepted", at_, was, now);
            if (e != CZK_OK) by_check++;
            czk_fil_c1_free(&d);
        }
        json[at_] = was;
    }
    printf("  %ld one-character changes: %ld refused by the decoder, %ld by the check\n", n, by_decoder, by_check);
    free(json);
    czk_fil_c1_free(&c1);
    sealed_free(&s);
}

/* NI-PoRep at 2 KiB: 13 partitions of 2 challenges drawn from comm_r; the
 * threaded check finds the lowest failing partition whatever the threads. */
static void test_ni_threads(void) {
    sealed s;
    czk_fil_c1 c1, d;
    char msg[512], msg1[512], *json;
    size_t len;
    seal(&s, &c1, 15);
    CHECK(c1.n_partitions == 13);
    for (size_t t = 1; t <= 16; t *= 2)
        CHECK_MSG(czk_fil_c1_validate_threads(&c1, t, msg, sizeof msg) == CZK_OK, "%zu threads: %s", t, msg);
    CHECK(czk_fil_c1_encode(&c1, true, &json, &len, msg, sizeof msg) == CZK_OK);
    CHECK(czk_fil_c1_decode(&d, json, len, msg, sizeof msg) == CZK_OK);
    expect_validate("NI-PoRep C1", &d, CZK_OK, NULL);
    CHECK(czk_fil_c1_bytes(&d) == czk_fil_c1_bytes_expected(s.proof));
    d.partitions[9].challenges[1].drg_parents[4].path.levels[1].siblings[6][3] ^= 1;
    d.claims[5][0].c_x_rows[0][7] ^= 2;
    d.partitions[11].challenges[0].node ^= 1;
    CHECK(czk_fil_c1_validate(&d, msg1, sizeof msg1) == CZK_ERR_MISMATCH &&
          strstr(msg1, "vanilla_proofs[5][0].replica_column_proofs.c_x.column.rows[0]: label"));
    for (size_t t = 2; t <= 16; t *= 2)
        CHECK_MSG(czk_fil_c1_validate_threads(&d, t, msg, sizeof msg) == CZK_ERR_MISMATCH && !strcmp(msg, msg1),
                  "%zu threads: %s", t, msg);
    d.claims[5][0].c_x_rows[0][7] ^= 2;
    CHECK(czk_fil_c1_validate_threads(&d, 4, msg, sizeof msg) == CZK_ERR_MISMATCH &&
          strstr(msg, "vanilla_proofs[9][1].replica_column_proofs.drg_parents[4].inclusion_proof: path hashes to"));
    printf("  NI-PoRep 2 KiB: 13 partitions; refused: %s\n", msg);
    czk_fil_c1_free(&d);
    free(json);
    czk_fil_c1_free(&c1);
    sealed_free(&s);
}

int main(void) {
    test_seed_rng(&rng, "test_filecoin_c1");
    test_round_trips();
    long n = test_cases(3);
    for (long i = 0; i < n; i++) test_sealed();
    test_ni_threads();
    test_mutations();
    return test_finish("test_filecoin_c1");
}
