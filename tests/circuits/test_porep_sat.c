/* The StackedCircuit on consistent inputs sealed here (porep_sealer.c:
 * SDR labels, trees D, C and R_last, the partition's paths and columns):
 *  - porep-2k (64 nodes, 8-0-0, 2 layers, 2 challenges drawn as the
 *    verifier draws them for StackedDrg2KiBV1_1): CHECK mode satisfied
 *    through the circuit provider's synthesize_input; the witness's public
 *    inputs equal czk_fil_porep_public_inputs (the verifier's); a flipped
 *    parent label row, data leaf or comm_r fails with the constraint's name;
 *  - an 8-4-2 tree (64 nodes, 1 challenge): CHECK satisfied (sub and top
 *    levels) and the public inputs are the challenged node's and its
 *    parents' indices;
 *  - stacked_circuit.rs's base-8 tree (8 nodes): the witness satisfies the
 *    recorded blank circuit (WITNESS mode's word-level SHA-256 path against
 *    the R1CS). */
#include <string.h>
#include <time.h>

#include "czk/circuit.h"
#include "czk/filecoin_porep.h"
#include "porep_sealer.c"
#include "test.h"

typedef struct {
    const czk_porep_shape *s;
    const czk_fil_porep_partition *p;
} ctx;

static czk_err synth(czk_cs *cs, void *v) {
    const ctx *x = v;
    return czk_porep_synthesize(cs, x->s, x->p);
}

static void check_fails(const czk_circuit *c, czk_fil_porep_partition *p, const char *what, const char *want) {
    char msg[512] = "";
    czk_err e = czk_circuit_check_input(c, 0, p, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_UNSATISFIED, "%s: %s", what, czk_err_str(e));
    CHECK_MSG(!strcmp(msg, want), "%s: failed at '%s', want '%s'", what, msg, want);
    printf("%s: %s\n", what, msg);
}

static void porep_2k(czk_rng *rng) {
    const czk_fil_seal_proof *proof = czk_fil_seal_proof_get(5); /* StackedDrg2KiBV1_1 */
    CHECK(proof && !strcmp(proof->circuit_id, "porep-2k"));
    czk_circuit c;
    char msg[512] = "";
    CHECK(czk_circuit_find(&c, "porep-2k", msg, sizeof msg) == CZK_OK);
    czk_porep_shape s;
    CHECK(czk_porep_circuit_shape(&c, &s, msg, sizeof msg) == CZK_OK);
    uint8_t porep_id[32], rid[32];
    czk_fil_porep_id(proof, porep_id);
    czk_fr v;
    czk_fr_random(&v, rng);
    czk_fr_to_bytes_le(rid, &v);
    sealer_sector x;
    CHECK(sealer_seal(&x, &s, porep_id, proof->api, rid, rng));

    czk_fil_porep_instance inst = {.proof = proof};
    memcpy(inst.replica_id, rid, 32);
    memcpy(inst.comm_d, x.comm_d, 32);
    memcpy(inst.comm_r, x.comm_r, 32);
    for (int i = 0; i < 32; i++) inst.seed[i] = (uint8_t)czk_rng_next(rng);
    uint64_t nodes[2];
    CHECK(czk_fil_porep_challenges(&inst, 0, nodes, msg, sizeof msg) == CZK_OK);
    czk_fil_porep_partition p;
    CHECK(sealer_partition(&x, nodes, &p));

    czk_err e = czk_circuit_check_input(&c, 0, &p, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "porep-2k check: %s", msg);
    printf("porep-2k, challenges %llu and %llu: %s\n", (unsigned long long)nodes[0], (unsigned long long)nodes[1],
           e == CZK_OK ? "satisfied" : msg);

    czk_witness w;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    e = czk_circuit_witness_input(&c, 0, &p, &w, msg, sizeof msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("porep-2k witness: %zu aux in %.2f s\n", w.n_aux,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    CHECK_MSG(e == CZK_OK, "porep-2k witness: %s", msg);
    if (!e) {
        size_t n = czk_fil_porep_input_count(proof);
        czk_fr want[64];
        CHECK(n + 1 == w.n_input && n < 64);
        CHECK(czk_fil_porep_public_inputs(&inst, 0, want, msg, sizeof msg) == CZK_OK);
        size_t same = 0;
        for (size_t i = 0; i < n && i + 1 < w.n_input; i++) same += czk_fr_equal(&w.input[i + 1], &want[i]);
        CHECK_MSG(same == n, "%zu of %zu public inputs equal the verifier's", same, n);
        printf("public inputs equal to the verifier's: %zu of %zu\n", same, n);
        czk_witness_free(&w);
    }

    p.challenges[0].drg_parents[0].rows[0][0] ^= 1;
    check_fails(&c, &p, "flipped label row", "challenge_0/drg_parent_0_inclusion/enforce root is correct");
    p.challenges[0].drg_parents[0].rows[0][0] ^= 1;
    p.challenges[1].exp_parents[7].rows[1][5] ^= 0x10;
    check_fails(&c, &p, "flipped expander label row", "challenge_1/exp_parent_7_inclusion/enforce root is correct");
    p.challenges[1].exp_parents[7].rows[1][5] ^= 0x10;
    p.challenges[1].data_leaf[3] ^= 4;
    check_fails(&c, &p, "flipped data leaf", "challenge_1/comm_d_inclusion/enforce root is correct");
    p.challenges[1].data_leaf[3] ^= 4;
    p.comm_r[0] ^= 1;
    check_fails(&c, &p, "flipped comm_r", "enforce comm_r = H(comm_c || comm_r_last)");
    p.comm_r[0] ^= 1;
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_OK);

    /* inputs that do not fit the shape, or values that are not field elements, are refused */
    p.n_challenges = 1;
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    p.n_challenges = 2;
    uint8_t keep[32];
    memcpy(keep, p.challenges[0].exp_parents[2].rows[0], 32);
    memset(p.challenges[0].exp_parents[2].rows[0], 0xff, 32);
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_ERR_NOT_CANONICAL);
    CHECK_MSG(strstr(msg, "column row") != NULL, "%s", msg);
    memcpy(p.challenges[0].exp_parents[2].rows[0], keep, 32);
    p.challenges[1].drg_parents[4].n_rows = 3;
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    p.challenges[1].drg_parents[4].n_rows = 2;
    uint8_t idx = p.challenges[0].comm_r_last_path.levels[1].index;
    p.challenges[0].comm_r_last_path.levels[1].index = 8;
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    p.challenges[0].comm_r_last_path.levels[1].index = idx;
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_OK);
    CHECK(czk_circuit_check_input(&c, 1, &p, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT); /* porep-2k has 1 */
    /* a path of the wrong length is refused before synthesis goes wrong */
    p.challenges[0].comm_c_path.n_levels--;
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    p.challenges[0].comm_c_path.n_levels++;
    czk_fil_porep_partition_free(&p);
    sealer_free(&x);
}

static void sub_top(czk_rng *rng) {
    const czk_porep_shape s = {64, 2, 1, 8, 4, 2};
    uint8_t porep_id[32], rid[32];
    memset(porep_id, 44, 32);
    czk_fr v;
    czk_fr_random(&v, rng);
    czk_fr_to_bytes_le(rid, &v);
    sealer_sector x;
    CHECK(sealer_seal(&x, &s, porep_id, CZK_FIL_API_1_1, rid, rng));
    uint64_t node = 1 + czk_rng_next(rng) % 63;
    czk_fil_porep_partition p;
    CHECK(sealer_partition(&x, &node, &p));
    ctx c = {&s, &p};
    char msg[512] = "";
    czk_err e = czk_cs_check(synth, &c, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "8-4-2: %s", msg);
    printf("8-4-2 tree, challenge %llu: %s\n", (unsigned long long)node, e == CZK_OK ? "satisfied" : msg);
    /* the inputs: replica_id, comm_d, comm_r, then the node, its 14 parents, the node three times
     * (each inclusion's packed index bits, base then sub then top, is the leaf's index) */
    czk_witness w;
    CHECK_MSG(czk_witness_generate(&w, synth, &c, msg, sizeof msg) == CZK_OK, "%s", msg);
    uint32_t par[CZK_FIL_DEGREE];
    czk_fil_graph_parents(&x.g, (uint32_t)node, par);
    uint64_t want[4 + 18];
    size_t n = 0;
    want[n++] = node;
    for (int k = 0; k < CZK_FIL_DEGREE; k++) want[n++] = par[k];
    want[n++] = node;
    want[n++] = node;
    want[n++] = node;
    CHECK(w.n_input == 4 + n);
    czk_fr f[3];
    CHECK(czk_domain_to_fr(&f[0], rid) && czk_domain_to_fr(&f[1], x.comm_d) && czk_domain_to_fr(&f[2], x.comm_r));
    size_t same = 0;
    for (size_t i = 0; i < 3 && i + 1 < w.n_input; i++) same += czk_fr_equal(&w.input[1 + i], &f[i]);
    for (size_t i = 0; i < n && 4 + i < w.n_input; i++) {
        czk_fr wi;
        czk_fr_from_u64(&wi, want[i]);
        same += czk_fr_equal(&w.input[4 + i], &wi);
    }
    CHECK_MSG(same == 3 + n, "8-4-2: %zu of %zu public inputs as expected", same, 3 + n);
    czk_witness_free(&w);
    czk_fil_porep_partition_free(&p);
    sealer_free(&x);
}

static void witness_vs_record(czk_rng *rng) {
    const czk_porep_shape s = {8, 2, 1, 8, 0, 0};
    uint8_t porep_id[32], rid[32];
    memset(porep_id, 44, 32);
    czk_fr v;
    czk_fr_random(&v, rng);
    czk_fr_to_bytes_le(rid, &v);
    sealer_sector x;
    CHECK(sealer_seal(&x, &s, porep_id, CZK_FIL_API_1_1, rid, rng));
    uint64_t node = 1 + czk_rng_next(rng) % 7;
    czk_fil_porep_partition p;
    CHECK(sealer_partition(&x, &node, &p));
    ctx blank = {&s, NULL}, full = {&s, &p};
    char msg[512] = "";
    czk_r1cs r;
    czk_witness w;
    CHECK(czk_r1cs_record(&r, synth, &blank, msg, sizeof msg) == CZK_OK);
    CHECK_MSG(czk_witness_generate(&w, synth, &full, msg, sizeof msg) == CZK_OK, "%s", msg);
    czk_err e = czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "base-8 witness on the recorded R1CS: %s", msg);
    printf("base-8 tree, challenge %llu: witness (%zu aux) satisfies the recorded R1CS (%zu constraints): %s\n",
           (unsigned long long)node, w.n_aux, r.n_constraints, e == CZK_OK ? "yes" : msg);
    /* one aux value off is caught */
    czk_fr_add(&w.aux[w.n_aux / 2], &w.aux[w.n_aux / 2], &CZK_FR_ONE);
    CHECK(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
    czk_witness_free(&w);
    czk_r1cs_free(&r);
    czk_fil_porep_partition_free(&p);
    sealer_free(&x);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_porep_sat");
    porep_2k(&rng);
    if (test_cases(10) >= 10) { /* not in the sanitizer passes (CZK_TEST_SCALE < 1): minutes there */
        sub_top(&rng);
        witness_vs_record(&rng);
    }
    return test_finish("test_porep_sat");
}
