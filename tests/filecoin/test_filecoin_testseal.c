/* The test sealer (czk/filecoin_testseal.h), checked by code of its own
 * here: every path of a seal hashes from its leaf to its tree's root
 * (SHA-256 for tree_d, Poseidon for tree_c and tree_r_last, recomputed
 * level by level with filecoin-hashers' node hash), column leaves are
 * their columns' Poseidon hashes, replica leaves the encoding of the last
 * label and the data, every challenged label is create_label of its parent
 * columns, comm_r = Poseidon-2(comm_c, comm_r_last), replica_id re-derives
 * from miner, sector, ticket, comm_d and porep_id, the challenges are
 * czk_fil_challenges_interactive's and the parents the SDR graph's, the
 * stated claims those czk_fil_c1_derive_claims derives. A full
 * seal also matches a whole-sector recomputation (data, labels, the three
 * roots). Then the C1 encoder's JSON (bare and cuzk's envelope) decodes to
 * the same values and passes czk_fil_c1_validate and check_request, and a
 * 2 KiB seal satisfies porep-2k in CHECK mode. Sizes: 2 KiB full (V1,
 * V1_1, synthetic, NI) and sparse, 32 GiB V1_1 sparse (all 10 partitions;
 * time and peak RSS printed); with CZK_TESTSEAL_LARGE=1 also 64 GiB, 32 GiB
 * V1 and 512 MiB sparse and 8 MiB full (both in CHECK mode too);
 * CZK_TESTSEAL_CIRCUIT_BIG=N checks the first N partitions of the 32 (and
 * with LARGE 64) GiB seals against porep-32g/-64g in CHECK mode (130 M
 * constraints each: ~90 s and 4 GiB per partition). */
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "czk/circuit_porep.h"
#include "czk/filecoin.h"
#include "czk/filecoin_c1.h"
#include "czk/filecoin_graph.h"
#include "czk/filecoin_testseal.h"
#include "czk/fr.h"
#include "czk/gadget_por.h"
#include "czk/poseidon.h"
#include "test.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double rss_mib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* the root a path reaches from leaf */
static bool path_root(czk_hasher h, const czk_fil_path *p, const uint8_t leaf[32], uint8_t out[32]) {
    czk_fr cur;
    if (!czk_domain_to_fr(&cur, leaf)) return false;
    for (size_t l = 0; l < p->n_levels; l++) {
        const czk_fil_path_level *lv = &p->levels[l];
        czk_fr ch[8];
        unsigned s = 0;
        if (lv->index >= lv->arity) return false;
        for (unsigned j = 0; j < lv->arity; j++) {
            if (j == lv->index)
                ch[j] = cur;
            else if (!czk_domain_to_fr(&ch[j], lv->siblings[s++]))
                return false;
        }
        if (czk_hasher_node(h, &cur, ch, lv->arity) != CZK_OK) return false;
    }
    czk_domain_from_fr(out, &cur);
    return true;
}

/* the index a path's positions spell */
static uint64_t path_index(const czk_fil_path *p) {
    uint64_t idx = 0, w = 1;
    for (size_t l = 0; l < p->n_levels; l++) {
        idx += w * p->levels[l].index;
        w *= p->levels[l].arity;
    }
    return idx;
}

static bool column_hash(const uint8_t (*rows)[32], size_t n, uint8_t out[32]) {
    czk_fr in[16], h;
    for (size_t i = 0; i < n; i++)
        if (!czk_fr_from_bytes_le(&in[i], rows[i])) return false;
    if (czk_poseidon_hash(&h, in, (unsigned)n) != CZK_OK) return false;
    czk_fr_to_bytes_le(out, &h);
    return true;
}

static void check_column(const czk_fil_column *col, uint32_t want, size_t layers, const uint8_t comm_c[32],
                         const char *what) {
    uint8_t leaf[32], root[32];
    CHECK_MSG(col->index == want, "%s: column %u, parent %u", what, col->index, want);
    CHECK(col->n_rows == layers);
    CHECK(column_hash((const uint8_t(*)[32])col->rows, col->n_rows, leaf));
    CHECK_MSG(path_root(CZK_HASHER_POSEIDON, &col->path, leaf, root) && !memcmp(root, comm_c, 32), "%s: path", what);
    CHECK(path_index(&col->path) == col->index);
}

/* Everything a seal states, recomputed; plus the labels against full
 * (layers · nodes · 32, or NULL). */
static void check_seal(const czk_fil_c1 *c1, const czk_fil_testseal_opts *o, const uint8_t *full) {
    const czk_fil_seal_proof *p = o->proof;
    char msg[256] = "";
    uint8_t porep_id[32], prover[32], rid[32], ticket[32], seed[32];
    czk_fil_porep_id(p, porep_id);
    czk_fil_prover_id(o->miner_id, prover);
    czk_fil_testseal_ticket(o->seed, ticket);
    czk_fil_testseal_seed(o->seed, seed);
    CHECK(!memcmp(c1->ticket, ticket, 32) && !memcmp(c1->seed, seed, 32));
    CHECK(czk_fil_replica_id(prover, o->sector_number, ticket, c1->comm_d, porep_id, rid) == CZK_OK);
    CHECK_MSG(!memcmp(rid, c1->replica_id, 32), "replica_id does not re-derive");
    CHECK(c1->proof == p && c1->n_partitions == p->partitions);
    czk_fil_graph g;
    CHECK(czk_fil_graph_init(&g, p->nodes, porep_id, p->api, msg, sizeof msg) == CZK_OK);
    const uint8_t *comm_c = c1->partitions[0].comm_c, *comm_r_last = c1->partitions[0].comm_r_last;
    czk_fr in[2], h;
    uint8_t comm_r[32];
    CHECK(czk_fr_from_bytes_le(&in[0], comm_c) && czk_fr_from_bytes_le(&in[1], comm_r_last));
    CHECK(czk_poseidon_hash(&h, in, 2) == CZK_OK);
    czk_fr_to_bytes_le(comm_r, &h);
    CHECK_MSG(!memcmp(comm_r, c1->comm_r, 32), "comm_r != H(comm_c, comm_r_last)");
    size_t L = p->layers, cpp = p->challenges_per_partition;
    uint64_t *want = malloc(cpp * sizeof *want);
    for (size_t k = 0; k < c1->n_partitions; k++) {
        const czk_fil_porep_partition *part = &c1->partitions[k];
        CHECK(!memcmp(part->comm_c, comm_c, 32) && !memcmp(part->comm_r_last, comm_r_last, 32));
        CHECK(!memcmp(part->comm_r, c1->comm_r, 32) && !memcmp(part->comm_d, c1->comm_d, 32) &&
              !memcmp(part->replica_id, c1->replica_id, 32));
        CHECK(part->n_challenges == cpp);
        if (p->feature == CZK_FIL_FEATURE_NONE)
            CHECK(czk_fil_challenges_interactive(p->nodes, c1->replica_id, c1->seed, (uint32_t)k, (uint32_t)cpp, want,
                                                 msg, sizeof msg) == CZK_OK);
        for (size_t i = 0; i < part->n_challenges; i++) {
            const czk_fil_porep_challenge *c = &part->challenges[i];
            const czk_fil_c1_claims *cl = &c1->claims[k][i];
            uint8_t root[32], leaf[32];
            if (p->feature == CZK_FIL_FEATURE_NONE)
                CHECK_MSG(c->node == want[i], "partition %zu challenge %zu: node %llu, not %llu", k, i,
                          (unsigned long long)c->node, (unsigned long long)want[i]);
            CHECK(path_root(CZK_HASHER_SHA256, &c->comm_d_path, c->data_leaf, root) && !memcmp(root, c1->comm_d, 32));
            CHECK(path_index(&c->comm_d_path) == c->node && path_index(&c->comm_r_last_path) == c->node &&
                  path_index(&c->comm_c_path) == c->node);
            CHECK(cl->n_rows == L);
            CHECK(czk_fil_encode(cl->c_x_rows[L - 1], c->data_leaf, leaf) == CZK_OK);
            CHECK_MSG(path_root(CZK_HASHER_POSEIDON, &c->comm_r_last_path, leaf, root) && !memcmp(root, comm_r_last, 32),
                      "partition %zu challenge %zu: comm_r_last path", k, i);
            CHECK(column_hash((const uint8_t(*)[32])cl->c_x_rows, L, leaf));
            CHECK_MSG(path_root(CZK_HASHER_POSEIDON, &c->comm_c_path, leaf, root) && !memcmp(root, comm_c, 32),
                      "partition %zu challenge %zu: c_x path", k, i);
            uint32_t par[CZK_FIL_DEGREE];
            czk_fil_graph_parents(&g, (uint32_t)c->node, par);
            for (int j = 0; j < CZK_FIL_DRG_PARENTS; j++) check_column(&c->drg_parents[j], par[j], L, comm_c, "drg");
            for (int j = 0; j < CZK_FIL_EXP_PARENTS; j++) check_column(&c->exp_parents[j], par[6 + j], L, comm_c, "exp");
            for (size_t l = 1; l <= L; l++) {
                uint8_t pl[CZK_FIL_DEGREE][32] = {{0}}, lab[32];
                for (int j = 0; j < CZK_FIL_DRG_PARENTS; j++) memcpy(pl[j], c->drg_parents[j].rows[l - 1], 32);
                for (int j = 0; l > 1 && j < CZK_FIL_EXP_PARENTS; j++) memcpy(pl[6 + j], c->exp_parents[j].rows[l - 2], 32);
                CHECK(czk_fil_label_hash(c1->replica_id, (uint32_t)l, c->node, (const uint8_t(*)[32])pl, lab) == CZK_OK);
                CHECK_MSG(!memcmp(lab, cl->c_x_rows[l - 1], 32), "partition %zu challenge %zu: label of layer %zu", k, i, l);
                if (full) {
                    CHECK(!memcmp(cl->c_x_rows[l - 1], full + 32 * ((l - 1) * p->nodes + c->node), 32));
                    for (int j = 0; j < CZK_FIL_DRG_PARENTS; j++)
                        CHECK(!memcmp(c->drg_parents[j].rows[l - 1], full + 32 * ((l - 1) * p->nodes + par[j]), 32));
                }
            }
        }
    }
    free(want);
}

/* The claims the sealer stated equal those czk_fil_c1_derive_claims
 * derives from its partitions. */
static void check_claims(const czk_fil_c1 *c1) {
    czk_fil_c1 d = *c1;
    char msg[256] = "";
    d.claims = NULL;
    CHECK_MSG(czk_fil_c1_derive_claims(&d, msg, sizeof msg) == CZK_OK, "derive_claims: %s", msg);
    for (size_t k = 0; d.claims && k < c1->n_partitions; k++) {
        for (size_t i = 0; d.claims[k] && i < c1->partitions[k].n_challenges; i++)
            CHECK_MSG(!memcmp(&d.claims[k][i], &c1->claims[k][i], sizeof d.claims[k][i]),
                      "partition %zu challenge %zu: claims differ from derive_claims'", k, i);
        free(d.claims[k]);
    }
    free(d.claims);
}

/* A whole-sector recomputation of a full seal: data, labels, the roots. */
static uint8_t *check_full(const czk_fil_c1 *c1, const czk_fil_testseal_opts *o) {
    const czk_fil_seal_proof *p = o->proof;
    uint64_t n = p->nodes;
    size_t L = p->layers;
    char msg[256] = "";
    uint8_t porep_id[32];
    czk_fil_porep_id(p, porep_id);
    czk_fil_graph g;
    CHECK(czk_fil_graph_init(&g, n, porep_id, p->api, msg, sizeof msg) == CZK_OK);
    uint8_t *labels = malloc(L * n * 32);
    czk_fr *lv = malloc(n * sizeof *lv), *rv = malloc(n * sizeof *rv);
    czk_fr *dv = malloc(n * sizeof *dv);
    CHECK(czk_fil_labels_compute(&g, c1->replica_id, (uint32_t)L, labels, msg, sizeof msg) == CZK_OK);
    for (uint64_t i = 0; i < n; i++) {
        uint8_t d[32], rows[16][32], e[32];
        czk_fil_testseal_data(o->seed, n, i, d);
        CHECK((d[31] & 0xc0) == 0);
        CHECK(czk_domain_to_fr(&dv[i], d));
        for (size_t l = 0; l < L; l++) memcpy(rows[l], labels + 32 * (l * n + i), 32);
        uint8_t ch[32];
        CHECK(column_hash((const uint8_t(*)[32])rows, L, ch));
        CHECK(czk_domain_to_fr(&lv[i], ch));
        CHECK(czk_fil_encode(rows[L - 1], d, e) == CZK_OK);
        CHECK(czk_domain_to_fr(&rv[i], e));
    }
    /* tree_d: binary SHA-256; tree_c / tree_r_last: the proof's octree */
    for (uint64_t w = n; w > 1; w /= 2)
        for (uint64_t i = 0; i < w / 2; i++) CHECK(czk_hasher_node(CZK_HASHER_SHA256, &dv[i], &dv[2 * i], 2) == CZK_OK);
    uint64_t base = n / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1);
    for (int t = 0; t < 2; t++) {
        czk_fr *v = t ? rv : lv;
        uint64_t w = n;
        while (w > 1) {
            unsigned a = w > n / base ? p->tree_base : w > (p->tree_top ? p->tree_top : 1) ? p->tree_sub : p->tree_top;
            for (uint64_t i = 0; i < w / a; i++) CHECK(czk_hasher_node(CZK_HASHER_POSEIDON, &v[i], &v[a * i], a) == CZK_OK);
            w /= a;
        }
    }
    uint8_t r[32];
    czk_domain_from_fr(r, &dv[0]);
    CHECK_MSG(!memcmp(r, c1->comm_d, 32), "comm_d is not the whole data's");
    czk_domain_from_fr(r, &lv[0]);
    CHECK_MSG(!memcmp(r, c1->partitions[0].comm_c, 32), "comm_c is not the whole tree_c's");
    czk_domain_from_fr(r, &rv[0]);
    CHECK_MSG(!memcmp(r, c1->partitions[0].comm_r_last, 32), "comm_r_last is not the whole tree_r_last's");
    free(lv);
    free(rv);
    free(dv);
    return labels;
}

/* Encoded bare and enveloped, decoded, validated; the JSON returned. */
static char *check_codec(const czk_fil_c1 *c1, const czk_fil_testseal_opts *o, bool validate_bare, size_t *json_len) {
    char *json = NULL;
    char msg[512] = "";
    size_t len = 0;
    for (int env = 0; env < 2; env++) {
        char *text = NULL;
        size_t n = 0;
        czk_err e = czk_fil_c1_encode(c1, env, &text, &n, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "encode: %s", msg);
        if (e) return NULL;
        czk_fil_c1 d;
        e = czk_fil_c1_decode(&d, text, n, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "decode (%s): %s", env ? "envelope" : "bare", msg);
        if (e == CZK_OK) {
            CHECK(d.enveloped == (env != 0));
            CHECK(!memcmp(d.comm_r, c1->comm_r, 32) && !memcmp(d.comm_d, c1->comm_d, 32) &&
                  !memcmp(d.replica_id, c1->replica_id, 32) && !memcmp(d.seed, c1->seed, 32) &&
                  !memcmp(d.ticket, c1->ticket, 32));
            CHECK(d.n_partitions == c1->n_partitions && d.proof == c1->proof);
            for (size_t k = 0; k < d.n_partitions && k < c1->n_partitions; k++) {
                CHECK(!memcmp(d.partitions[k].comm_c, c1->partitions[k].comm_c, 32));
                for (size_t i = 0; i < d.partitions[k].n_challenges && i < c1->partitions[k].n_challenges; i++) {
                    const czk_fil_porep_challenge *x = &d.partitions[k].challenges[i], *y = &c1->partitions[k].challenges[i];
                    CHECK(x->node == y->node && !memcmp(x->data_leaf, y->data_leaf, 32));
                    CHECK(x->comm_r_last_path.n_levels == y->comm_r_last_path.n_levels &&
                          !memcmp(x->comm_r_last_path.levels, y->comm_r_last_path.levels,
                                  y->comm_r_last_path.n_levels * sizeof *y->comm_r_last_path.levels));
                    CHECK(!memcmp(x->exp_parents[7].rows, y->exp_parents[7].rows, y->exp_parents[7].n_rows * 32));
                }
            }
            if (env) CHECK(d.sector_num == o->sector_number && d.sector_size == o->proof->sector_size);
            if (env || validate_bare) {
                double t0 = now();
                e = czk_fil_c1_validate(&d, msg, sizeof msg);
                CHECK_MSG(e == CZK_OK, "validate (%s): %s", env ? "envelope" : "bare", msg);
                printf("  czk_fil_c1_validate (%s): %s in %.2f s\n", env ? "envelope" : "bare", e ? msg : "ok", now() - t0);
            }
            e = czk_fil_c1_check_request(&d, o->proof->id, o->proof->sector_size, o->miner_id, o->sector_number, msg,
                                         sizeof msg);
            CHECK_MSG(e == CZK_OK, "check_request: %s", msg);
            czk_fil_c1_free(&d);
        }
        if (env)
            free(text);
        else {
            json = text;
            len = n;
        }
    }
    if (json_len) *json_len = len;
    return json;
}

typedef struct {
    const czk_porep_shape *s;
    const czk_fil_porep_partition *p;
} circuit_in;

static czk_err synth(czk_cs *cs, void *v) {
    const circuit_in *x = v;
    return czk_porep_synthesize(cs, x->s, x->p);
}

/* partitions [0, n) (0: all) in CHECK mode */
static void check_circuit(const czk_fil_c1 *c1, size_t n) {
    czk_porep_shape s;
    czk_porep_shape_from_proof(&s, c1->proof);
    char msg[512] = "";
    for (size_t k = 0; k < c1->n_partitions && (n == 0 || k < n); k++) {
        circuit_in x = {&s, &c1->partitions[k]};
        double t0 = now();
        czk_err e = czk_cs_check(synth, &x, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s partition %zu: circuit CHECK: %s", c1->proof->name, k, msg);
        printf("  %s partition %zu satisfies %s in CHECK mode: %s (%.1f s)\n", c1->proof->name, k,
               c1->proof->circuit_id, e == CZK_OK ? "yes" : "NO", now() - t0);
    }
}

static void seal_one(uint64_t id, bool sparse, uint64_t seed, size_t circuit) {
    czk_fil_testseal_opts o = {.proof = czk_fil_seal_proof_get(id),
                               .miner_id = 1000 + id,
                               .sector_number = 42 + seed,
                               .seed = seed,
                               .sparse = sparse};
    czk_fil_c1 c1;
    czk_fil_testseal_stats st;
    char msg[512] = "";
    czk_err e = czk_fil_testseal(&o, &c1, &st, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s %s: %s", o.proof->name, sparse ? "sparse" : "full", msg);
    if (e) return;
    printf("%-36s %-6s %7.2f s, %llu labels, %llu columns, %llu tree nodes, working set %.1f MiB, peak RSS %.0f MiB\n",
           o.proof->name, sparse ? "sparse" : "full", st.seconds, (unsigned long long)st.labels_hashed,
           (unsigned long long)st.columns, (unsigned long long)st.tree_nodes, st.peak_bytes / 1048576.0, rss_mib());
    bool small = o.proof->nodes <= CZK_FIL_TESTSEAL_FULL_MAX_NODES;
    if (sparse) { /* bounded: a few MiB and seconds at any size (generous for sanitizer builds) */
        CHECK_MSG(st.peak_bytes < 16u << 20, "sparse working set %zu bytes", st.peak_bytes);
        CHECK_MSG(st.seconds < 300, "sparse seal took %.1f s", st.seconds);
        CHECK_MSG(rss_mib() < 1024, "peak RSS %.0f MiB", rss_mib());
    }
    double t0 = now();
    uint8_t *full = sparse ? NULL : check_full(&c1, &o);
    check_seal(&c1, &o, full);
    check_claims(&c1);
    free(full);
    printf("  recomputed here in %.2f s\n", now() - t0);
    size_t n = 0;
    t0 = now();
    char *json = check_codec(&c1, &o, small, &n);
    printf("  encoded (%zu bytes of JSON), decoded and validated in %.2f s\n", n, now() - t0);
    /* the same seed seals the same sector */
    czk_fil_c1 again;
    if (json && small && czk_fil_testseal(&o, &again, NULL, msg, sizeof msg) == CZK_OK) {
        char *j2 = NULL;
        size_t n2 = 0;
        CHECK(czk_fil_c1_encode(&again, false, &j2, &n2, msg, sizeof msg) == CZK_OK);
        CHECK(j2 && n2 == n && !memcmp(j2, json, n));
        free(j2);
        czk_fil_c1_free(&again);
    }
    free(json);
    if (circuit) check_circuit(&c1, circuit == SIZE_MAX ? 0 : circuit);
    czk_fil_c1_free(&c1);
}

static void check_refusals(void) {
    czk_fil_c1 c1;
    char msg[256] = "";
    czk_fil_testseal_opts o = {.proof = czk_fil_seal_proof_get(8), .miner_id = 1000, .sector_number = 1, .seed = 1};
    CHECK(czk_fil_testseal(&o, &c1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(c1.n_partitions == 0 && c1.partitions == NULL);
    o.proof = czk_fil_seal_proof_get(10); /* synthetic 2 KiB */
    o.sparse = true;
    CHECK(czk_fil_testseal(&o, &c1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    o.proof = NULL;
    CHECK(czk_fil_testseal(&o, &c1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    uint64_t b = 0;
    CHECK(czk_fil_testseal_parse_size("32GiB", &b) && b == 32ull << 30);
    CHECK(czk_fil_testseal_parse_size("2048", &b) && b == 2048);
    CHECK(!czk_fil_testseal_parse_size("2KB", &b) && !czk_fil_testseal_parse_size("", &b));
}

/* A sector sealed from its data and ticket given explicitly is the one the
 * seed gives; zero-extension is set_len's; one flipped bit moves comm_d. */
static void check_given_data(uint64_t seed) {
    const czk_fil_seal_proof *p = czk_fil_seal_proof_get(5); /* StackedDrg2KiBV1_1 */
    size_t n = (size_t)p->sector_size;
    uint8_t *data = malloc(n), ticket[32];
    for (uint64_t i = 0; i < p->nodes; i++) czk_fil_testseal_data(seed, p->nodes, i, data + 32 * i);
    czk_fil_testseal_ticket(seed, ticket);
    char msg[512] = "";
    czk_fil_c1 a, b, c;
    czk_fil_testseal_opts o = {.proof = p, .miner_id = 1000, .sector_number = 3, .seed = seed};
    CHECK_MSG(czk_fil_testseal(&o, &a, NULL, msg, sizeof msg) == CZK_OK, "%s", msg);
    o.seed = seed + 1; /* nothing may come from the seed now */
    o.data = data;
    o.data_len = n;
    o.ticket = ticket;
    CHECK_MSG(czk_fil_testseal(&o, &b, NULL, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(!memcmp(a.comm_d, b.comm_d, 32) && !memcmp(a.comm_r, b.comm_r, 32) && !memcmp(a.ticket, b.ticket, 32));
    CHECK(!memcmp(a.replica_id, b.replica_id, 32));
    czk_fil_c1_free(&b);
    /* a ticket with its top bits set is hashed as given: another replica_id */
    uint8_t t2[32];
    memcpy(t2, ticket, 32);
    t2[31] |= 0xc0;
    o.ticket = t2;
    CHECK_MSG(czk_fil_testseal(&o, &b, NULL, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(!memcmp(a.comm_d, b.comm_d, 32) && memcmp(a.replica_id, b.replica_id, 32) && !memcmp(b.ticket, t2, 32));
    czk_fil_c1_free(&b);
    o.ticket = ticket;
    /* one bit of one node (the seed picks which) */
    size_t node = (size_t)(seed % p->nodes), bit = (size_t)(seed / p->nodes % 254);
    data[32 * node + bit / 8] ^= (uint8_t)(1u << (bit % 8));
    CHECK_MSG(czk_fil_testseal(&o, &b, NULL, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK_MSG(memcmp(a.comm_d, b.comm_d, 32) && memcmp(a.comm_r, b.comm_r, 32), "node %zu bit %zu", node, bit);
    czk_fil_c1_free(&b);
    /* shorter data is zero-extended */
    memset(data + n - 96, 0, 96);
    CHECK_MSG(czk_fil_testseal(&o, &b, NULL, msg, sizeof msg) == CZK_OK, "%s", msg);
    o.data_len = n - 96;
    CHECK_MSG(czk_fil_testseal(&o, &c, NULL, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(!memcmp(b.comm_d, c.comm_d, 32) && !memcmp(b.comm_r, c.comm_r, 32));
    czk_fil_c1_free(&b);
    czk_fil_c1_free(&c);
    /* refused: a node that is not fr32, longer data, data in sparse mode */
    o.data_len = n;
    data[32 * 7 + 31] |= 0x40;
    CHECK(czk_fil_testseal(&o, &b, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "node 7"));
    data[32 * 7 + 31] &= 0x3f;
    o.data_len = n + 1;
    CHECK(czk_fil_testseal(&o, &b, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "more than"));
    o.data_len = n;
    o.sparse = true;
    CHECK(czk_fil_testseal(&o, &b, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "sparse"));
    czk_fil_c1_free(&a);
    free(data);
}

int main(void) {
    check_refusals();
    {
        czk_rng rng;
        check_given_data(test_seed_rng(&rng, "test_filecoin_testseal"));
    }
    const char *cb = getenv("CZK_TESTSEAL_CIRCUIT_BIG"); /* partitions of the 32/64 GiB seals to CHECK */
    size_t nbig = cb && *cb ? (size_t)strtoull(cb, NULL, 10) : 0;
    seal_one(5, false, 1, SIZE_MAX); /* StackedDrg2KiBV1_1 */
    seal_one(0, false, 2, 0);        /* StackedDrg2KiBV1: API 1.0's graph */
    seal_one(5, true, 3, SIZE_MAX);
    seal_one(10, false, 4, 0); /* synthetic challenges */
    seal_one(15, false, 5, 0); /* NI-PoRep: 13 partitions */
    seal_one(8, true, 6, nbig); /* StackedDrg32GiBV1_1, all 10 partitions */
    const char *large = getenv("CZK_TESTSEAL_LARGE");
    if (large && *large && strcmp(large, "0")) {
        seal_one(9, true, 7, nbig);      /* 64 GiB, 8-8-2 */
        seal_one(3, true, 8, 0);         /* 32 GiB, API 1.0 */
        seal_one(7, true, 10, SIZE_MAX); /* 512 MiB sparse */
        seal_one(6, false, 9, SIZE_MAX); /* 8 MiB full */
    }
    return test_finish("test_filecoin_testseal");
}
