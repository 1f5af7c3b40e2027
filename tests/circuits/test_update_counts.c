/* The empty-sector-update circuits' structure against rust-fil-proofs' own
 * figures: storage-proofs-update tests/circuit.rs (1 KiB … 32 KiB with their
 * TreeR shapes 8-4-0, 8-0-0, 8-2-0, 8-4-0, 8-8-0, 8-8-2: 1,248,389 /
 * 1,705,039 / 2,165,109 / 2,620,359 / 6,300,021 / 6,760,091 constraints)
 * and tests/circuit_poseidon.rs (1 KiB and 8 KiB, 8-4-0: 32,164 and 47,974),
 * each with 4 public inputs besides ONE (PublicInputs::to_vec); the gadget
 * counts of src/gadgets.rs's tests (gen_challenge_bits 568 per digest and
 * 4,544 / 5,680 at 512 MiB / 32 GiB; apex_por 317,654 / 5,808,515). Counted
 * with czk_r1cs_count (COUNT mode, the blank circuit); 2 KiB also recorded,
 * to check COUNT against RECORD. The constants.rs facts against the
 * registered table. The circuit ids resolve with their partitions. */
#include <string.h>
#include <time.h>

#include "../../src/circuits/filecoin/update_internal.h"
#include "czk/filecoin_post.h"
#include "test.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static czk_err blank(czk_cs *cs, void *ctx) { return czk_update_synthesize(cs, ctx, NULL); }

static void count_one(const char *name, uint64_t nodes, bool poseidon, size_t constraints) {
    czk_update_shape s;
    CHECK(czk_update_shape_for_nodes(&s, nodes, poseidon) == CZK_OK);
    czk_r1cs_counts k;
    char msg[256] = "";
    double t0 = now();
    czk_err e = czk_r1cs_count(&k, blank, &s, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", name, msg);
    printf("%-14s constraints %zu (expected %zu), inputs %zu, aux %zu, nnz %llu/%llu/%llu, density %zu/%zu/%zu, "
           "%.2f s\n",
           name, k.n_constraints, constraints, k.n_inputs, k.n_aux, (unsigned long long)k.nnz_a,
           (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c, k.a_aux_density, k.b_input_density,
           k.b_aux_density, now() - t0);
    CHECK_MSG(k.n_constraints == constraints, "%s: %zu constraints", name, k.n_constraints);
    CHECK_MSG(k.n_inputs == 5, "%s: %zu inputs", name, k.n_inputs);
    CHECK(k.n_inputs == czk_update_input_count(&s));
}

/* ---- the gadgets alone (gadgets.rs tests) ---------------------------------- */

typedef struct {
    uint64_t nodes;
    size_t parts, apex;
    size_t before, after;
} gadget_ctx;

/* test_gen_challenge_bits_gadget: comm_r_new, k, k's bits, then the gadget */
static czk_err gen_bits_circuit(czk_cs *cs, void *ctx) {
    gadget_ctx *g = ctx;
    czk_num comm_r_new, k;
    czk_bit bits[UPDATE_FR_NUM_BITS];
    czk_err e = czk_num_alloc(cs, &comm_r_new, NULL);
    if (!e) e = czk_num_alloc(cs, &k, NULL);
    if (!e) e = update_num_to_allocated_bits(cs, bits, &k);
    if (e) return e;
    unsigned cbl = update_log2(g->nodes), pbl = update_log2(czk_update_partition_count(g->nodes));
    size_t n = czk_update_challenge_count(g->nodes);
    czk_bit *out = malloc(n * (cbl - pbl) * sizeof *out);
    if (!out) return CZK_ERR_NO_MEMORY;
    g->before = czk_cs_num_constraints(cs);
    e = update_gen_challenge_bits(cs, out, &comm_r_new, &k, n, cbl - pbl);
    g->after = czk_cs_num_constraints(cs);
    free(out);
    return e;
}

/* test_apex_por_gadget: comm_d, partition bits, apex leaves, path, gadget */
static czk_err apex_circuit(czk_cs *cs, void *ctx) {
    gadget_ctx *g = ctx;
    czk_num comm_d, leafs[128], path[4];
    czk_bit bits[4];
    size_t pbl = update_log2(g->parts);
    czk_err e = czk_num_alloc(cs, &comm_d, NULL);
    for (size_t i = 0; i < pbl && !e; i++) e = czk_bit_alloc(cs, &bits[i], NULL);
    for (size_t i = 0; i < g->apex && !e; i++) e = czk_num_alloc(cs, &leafs[i], NULL);
    for (size_t i = 0; i < pbl && !e; i++) e = czk_num_alloc(cs, &path[i], NULL);
    if (e) return e;
    g->before = czk_cs_num_constraints(cs);
    e = update_apex_por(cs, leafs, g->apex, bits, pbl, path, &comm_d);
    g->after = czk_cs_num_constraints(cs);
    return e;
}

static void gadget_counts(void) {
    static const struct {
        uint64_t nodes;
        size_t expect;
    } gen[] = {{32, 568}, {1024, 568}, {1 << 18, 568}, {1 << 24, 4544}, {1 << 30, 5680}, {1ull << 31, 5680}};
    char msg[256] = "";
    czk_r1cs_counts k;
    for (size_t i = 0; i < sizeof gen / sizeof gen[0]; i++) {
        gadget_ctx g = {.nodes = gen[i].nodes};
        CHECK_MSG(czk_r1cs_count(&k, gen_bits_circuit, &g, msg, sizeof msg) == CZK_OK, "%s", msg);
        CHECK_MSG(g.after - g.before == gen[i].expect, "gen_challenge_bits at %llu nodes: %zu constraints",
                  (unsigned long long)gen[i].nodes, g.after - g.before);
    }
    /* test_apex_por_gadget_small_sector_sizes (2 KiB: 1 partition of 8; 16 KiB: 2 of 128) and the 16 KiB
     * hard-coded ones (4 of 16, 8 of 8) */
    static const struct {
        size_t parts, apex, expect;
    } apex[] = {{1, 8, 317654}, {2, 128, 5808515}, {4, 16, 771448}, {8, 8, 453797}};
    for (size_t i = 0; i < sizeof apex / sizeof apex[0]; i++) {
        gadget_ctx g = {.parts = apex[i].parts, .apex = apex[i].apex};
        CHECK_MSG(czk_r1cs_count(&k, apex_circuit, &g, msg, sizeof msg) == CZK_OK, "%s", msg);
        CHECK_MSG(g.after - g.before == apex[i].expect, "apex_por %zu x %zu: %zu constraints", apex[i].parts,
                  apex[i].apex, g.after - g.before);
    }
}

/* ---- constants.rs against the registered table ------------------------------ */

static void constants(void) {
    for (uint64_t i = 0; i < czk_fil_update_proof_count(); i++) {
        const czk_fil_update_proof *p = czk_fil_update_proof_get(i);
        uint64_t nodes = p->sector_size / 32, hsel;
        uint8_t b, s, t;
        CHECK(czk_update_partition_count(nodes) == p->partitions);
        CHECK(czk_update_challenge_count(nodes) == p->challenges_per_partition);
        CHECK(czk_update_h_default(nodes) == p->h);
        CHECK(czk_update_tree_r_arities(nodes, &b, &s, &t) && b == p->tree_base && s == p->tree_sub &&
              t == p->tree_top);
        CHECK(czk_update_h_select(nodes, p->h, &hsel) == CZK_OK && hsel == (nodes <= 1024 ? 1u : 8u));
        czk_circuit c;
        char msg[256] = "";
        CHECK_MSG(czk_circuit_find(&c, p->circuit_id, msg, sizeof msg) == CZK_OK, "%s", msg);
        CHECK(c.partitions == p->partitions && c.synthesize_input);
        if (p->circuit_id_poseidon) {
            CHECK_MSG(czk_circuit_find(&c, p->circuit_id_poseidon, msg, sizeof msg) == CZK_OK, "%s", msg);
            CHECK(c.partitions == 1);
            czk_update_shape sh;
            CHECK(czk_update_circuit_shape(&c, &sh, msg, sizeof msg) == CZK_OK && sh.poseidon);
        }
    }
    uint32_t hs[CZK_UPDATE_HS];
    czk_update_hs(1 << 30, hs);
    CHECK(hs[0] == 7 && hs[5] == 12);
    uint64_t hsel;
    CHECK(czk_update_h_select(1 << 30, 13, &hsel) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_update_challenge_count_poseidon(1 << 30) == 1376);
    CHECK(czk_update_apex_leaf_count(256) == 8 && czk_update_apex_leaf_count(512) == 128);
    CHECK(!czk_update_nodes_allowed(1 << 12) && czk_update_partition_count(1 << 12) == 0);
    czk_update_shape bad;
    CHECK(czk_update_shape_for_nodes(&bad, 64, false) == CZK_OK);
    bad.tree_sub = 2;
    char msg[256];
    CHECK(czk_update_shape_check(&bad, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    czk_circuit c;
    CHECK(czk_circuit_find(&c, "snap-poseidon-2k", msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
}

/* COUNT against RECORD on 2 KiB. */
static void count_vs_record(void) {
    czk_update_shape s;
    CHECK(czk_update_shape_for_nodes(&s, 64, false) == CZK_OK);
    czk_r1cs r;
    czk_r1cs_counts k;
    char msg[256] = "";
    CHECK_MSG(czk_r1cs_record(&r, blank, &s, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK_MSG(czk_r1cs_count(&k, blank, &s, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(r.n_constraints == k.n_constraints && r.n_inputs == k.n_inputs && r.n_aux == k.n_aux);
    CHECK(r.a.nnz == k.nnz_a && r.b.nnz == k.nnz_b && r.c.nnz == k.nnz_c);
    czk_r1cs_free(&r);
}

int main(void) {
    constants();
    gadget_counts();
    count_vs_record();
    static const struct {
        const char *name;
        uint64_t nodes;
        bool poseidon;
        size_t constraints;
    } X[] = {
        {"1 KiB", 32, false, 1248389},       {"2 KiB", 64, false, 1705039},   {"4 KiB", 128, false, 2165109},
        {"8 KiB", 256, false, 2620359},      {"16 KiB", 512, false, 6300021}, {"32 KiB", 1024, false, 6760091},
        {"poseidon 1 KiB", 32, true, 32164}, {"poseidon 8 KiB", 256, true, 47974},
    };
    for (size_t i = 0; i < sizeof X / sizeof X[0]; i++) count_one(X[i].name, X[i].nodes, X[i].poseidon, X[i].constraints);
    return test_finish("test_update_counts");
}
