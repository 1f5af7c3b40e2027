/* The Fallback PoSt circuit on consistent inputs built here: per sector
 * random leaves, the whole Poseidon tree_r_last of the shape's arities
 * (czk_fil_ts_tree_build), a random comm_c, comm_r = Poseidon2(comm_c,
 * comm_r_last) and random challenged leaves with their paths.
 *  - wpost-2k (2 sectors x 10) and winning-2k (66 x 1) through the
 *    provider: CHECK satisfied; the witness's public inputs are, per
 *    sector, comm_r then each challenge (computed here, not by the
 *    circuit); a flipped leaf, sibling, comm_r or comm_r_last fails at the
 *    named constraint; inputs that do not fit are refused with a message;
 *  - a partition of 1 real sector of 2 satisfies wpost-2k (the last sector
 *    repeated) and its inputs repeat that sector's;
 *  - an 8-4-2 tree (512 nodes, sub and top levels): CHECK satisfied;
 *  - the WITNESS-mode witness satisfies the recorded blank R1CS, and a
 *    Groth16 proof of it on development parameters verifies against the
 *    public inputs computed here (and not against altered ones). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../src/filecoin/testseal_internal.h"
#include "czk/circuit_post.h"
#include "czk/groth16.h"
#include "czk/instance.h"
#include "test.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void random_domain(uint8_t out[32], czk_rng *rng) {
    czk_fr v;
    czk_fr_random(&v, rng);
    czk_domain_from_fr(out, &v);
}

/* One sector of shape s with random leaves and challenges. */
static bool make_sector(czk_fil_post_sector *out, const czk_post_shape *s, uint64_t id, czk_rng *rng) {
    memset(out, 0, sizeof *out);
    uint8_t arity[CZK_FIL_TS_MAX_LEVELS];
    unsigned levels = 0;
    for (uint64_t n = s->nodes / (s->tree_sub ? s->tree_sub : 1) / (s->tree_top ? s->tree_top : 1); n > 1;
         n /= s->tree_base)
        arity[levels++] = s->tree_base;
    if (s->tree_sub) arity[levels++] = s->tree_sub;
    if (s->tree_top) arity[levels++] = s->tree_top;
    czk_fil_ts_node *leaves = malloc(s->nodes * sizeof *leaves);
    if (!leaves) return false;
    for (uint64_t i = 0; i < s->nodes; i++) {
        leaves[i].index = i;
        random_domain(leaves[i].v, rng);
    }
    czk_fil_ts_tree t;
    char msg[256];
    if (czk_fil_ts_tree_build(&t, CZK_HASHER_POSEIDON, arity, levels, leaves, s->nodes, NULL, NULL, msg, sizeof msg))
        return false;
    out->sector_id = id;
    random_domain(out->comm_c, rng);
    memcpy(out->comm_r_last, czk_fil_ts_tree_root(&t), 32);
    czk_fr kids[2], r;
    bool ok = czk_domain_to_fr(&kids[0], out->comm_c) && czk_domain_to_fr(&kids[1], out->comm_r_last) &&
              czk_hasher_node(CZK_HASHER_POSEIDON, &r, kids, 2) == CZK_OK;
    czk_domain_from_fr(out->comm_r, &r);
    out->n_challenges = s->challenges;
    out->challenges = calloc(s->challenges, sizeof *out->challenges);
    out->leaves = calloc(s->challenges, sizeof *out->leaves);
    out->paths = calloc(s->challenges, sizeof *out->paths);
    ok = ok && out->challenges && out->leaves && out->paths;
    for (uint32_t j = 0; ok && j < s->challenges; j++) {
        out->challenges[j] = czk_rng_next(rng) % s->nodes;
        ok = czk_fil_ts_tree_path(&t, out->challenges[j], &out->paths[j], out->leaves[j]) == CZK_OK;
    }
    czk_fil_ts_tree_free(&t);
    return ok;
}

static bool make_partition(czk_fil_post_partition *p, const czk_post_shape *s, uint64_t registered, size_t n,
                           czk_rng *rng) {
    memset(p, 0, sizeof *p);
    p->registered_proof = registered;
    p->sectors = calloc(n, sizeof *p->sectors);
    if (!p->sectors) return false;
    p->n_sectors = n;
    for (size_t i = 0; i < n; i++)
        if (!make_sector(&p->sectors[i], s, 1000 + i, rng)) return false;
    return true;
}

/* The public inputs as the verifier lays them out (compound.rs
 * generate_public_inputs): per circuit sector comm_r then each challenge
 * (PoRCompound, private root), the last real sector repeated. */
static size_t expected_inputs(czk_fr *out, const czk_post_shape *s, const czk_fil_post_partition *p) {
    size_t n = 0;
    for (uint32_t i = 0; i < s->sectors; i++) {
        const czk_fil_post_sector *x = &p->sectors[i < p->n_sectors ? i : p->n_sectors - 1];
        if (!czk_domain_to_fr(&out[n++], x->comm_r)) return 0;
        for (uint32_t j = 0; j < s->challenges; j++) czk_fr_from_u64(&out[n++], x->challenges[j]);
    }
    return n;
}

static void inputs_equal(const czk_circuit *c, const czk_post_shape *s, const czk_fil_post_partition *p,
                         const char *what) {
    char msg[512] = "";
    czk_witness w;
    czk_err e = czk_circuit_witness_input(c, 0, p, &w, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s witness: %s", what, msg);
    if (e) return;
    size_t n = czk_post_input_count(s) - 1;
    czk_fr *want = malloc(n * sizeof *want);
    CHECK(want && expected_inputs(want, s, p) == n && w.n_input == n + 1);
    size_t same = 0;
    for (size_t i = 0; want && i < n && i + 1 < w.n_input; i++) same += czk_fr_equal(&w.input[i + 1], &want[i]);
    CHECK_MSG(same == n, "%s: %zu of %zu public inputs as expected", what, same, n);
    printf("%s: %zu aux, public inputs as expected: %zu of %zu\n", what, w.n_aux, same, n);
    free(want);
    czk_witness_free(&w);
}

static void check_fails(const czk_circuit *c, const czk_fil_post_partition *p, const char *what, const char *want) {
    char msg[512] = "";
    czk_err e = czk_circuit_check_input(c, 0, p, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_UNSATISFIED, "%s: %s (%s)", what, czk_err_str(e), msg);
    CHECK_MSG(!strcmp(msg, want), "%s: failed at '%s', want '%s'", what, msg, want);
    printf("%s: %s\n", what, msg);
}

static void check_refused(const czk_circuit *c, size_t partition, const czk_fil_post_partition *p, czk_err want,
                          const char *what) {
    char msg[512] = "";
    czk_err e = czk_circuit_check_input(c, partition, p, msg, sizeof msg);
    CHECK_MSG(e == want, "%s: %s, want %s (%s)", what, czk_err_str(e), czk_err_str(want), msg);
    CHECK_MSG(msg[0], "%s: no message", what);
}

static void find(czk_circuit *c, czk_post_shape *s, const char *id) {
    char msg[512] = "";
    CHECK_MSG(czk_circuit_find(c, id, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(czk_post_circuit_shape(c, s, msg, sizeof msg) == CZK_OK);
}

static void wpost_2k(czk_rng *rng) {
    czk_circuit c;
    czk_post_shape s;
    find(&c, &s, "wpost-2k");
    CHECK(s.sectors == 2 && s.challenges == 10 && s.nodes == 64);
    czk_fil_post_partition p;
    CHECK(make_partition(&p, &s, 5, 2, rng)); /* StackedDrgWindow2KiBV1 */
    char msg[512] = "";
    czk_err e = czk_circuit_check_input(&c, 0, &p, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "wpost-2k: %s", msg);
    printf("wpost-2k, 2 sectors x 10 challenges: %s\n", e == CZK_OK ? "satisfied" : msg);
    inputs_equal(&c, &s, &p, "wpost-2k");
    p.registered_proof = 10; /* StackedDrgWindow2KiBV1_2: the same circuit */
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_OK);

    uint8_t *b = &p.sectors[1].leaves[3][0];
    *b ^= 1;
    check_fails(&c, &p, "flipped leaf", "outer namespace/sector_1/challenge_inclusion_3/enforce root is correct");
    *b ^= 1;
    b = &p.sectors[0].paths[7].levels[1].siblings[4][2];
    *b ^= 0x20;
    check_fails(&c, &p, "flipped sibling", "outer namespace/sector_0/challenge_inclusion_7/enforce root is correct");
    *b ^= 0x20;
    p.sectors[1].comm_r[0] ^= 1;
    check_fails(&c, &p, "flipped comm_r", "outer namespace/sector_1/enforce_comm_c_comm_r_last_hash_comm_r");
    p.sectors[1].comm_r[0] ^= 1;
    p.sectors[0].comm_r_last[5] ^= 8;
    check_fails(&c, &p, "flipped comm_r_last", "outer namespace/sector_0/enforce_comm_c_comm_r_last_hash_comm_r");
    p.sectors[0].comm_r_last[5] ^= 8;
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_OK);

    /* inputs that do not fit are refused, with a message */
    check_refused(&c, 1, &p, CZK_ERR_INVALID_ARGUMENT, "partition 1");
    check_refused(&c, 0, NULL, CZK_ERR_INVALID_ARGUMENT, "no input");
    p.registered_proof = 0;
    check_refused(&c, 0, &p, CZK_ERR_MISMATCH, "a winning proof's input");
    p.registered_proof = 5;
    p.sectors[1].n_challenges = 9;
    check_refused(&c, 0, &p, CZK_ERR_INVALID_ARGUMENT, "9 challenges");
    p.sectors[1].n_challenges = 10;
    p.sectors[0].challenges[2] ^= 1;
    check_refused(&c, 0, &p, CZK_ERR_INVALID_ARGUMENT, "a challenge its path does not open");
    p.sectors[0].challenges[2] ^= 1;
    uint8_t keep[32];
    memcpy(keep, p.sectors[1].leaves[0], 32);
    memset(p.sectors[1].leaves[0], 0xff, 32);
    check_refused(&c, 0, &p, CZK_ERR_NOT_CANONICAL, "a leaf >= r");
    memcpy(p.sectors[1].leaves[0], keep, 32);
    memcpy(keep, p.sectors[0].comm_c, 32);
    memset(p.sectors[0].comm_c, 0xff, 32);
    check_refused(&c, 0, &p, CZK_ERR_NOT_CANONICAL, "comm_c >= r");
    memcpy(p.sectors[0].comm_c, keep, 32);
    free(p.sectors[0].challenges); /* no challenges: the paths alone are checked */
    p.sectors[0].challenges = NULL;
    uint8_t idx = p.sectors[0].paths[4].levels[0].index;
    p.sectors[0].paths[4].levels[0].index = 8;
    check_refused(&c, 0, &p, CZK_ERR_INVALID_ARGUMENT, "a path index >= arity");
    p.sectors[0].paths[4].levels[0].index = idx;
    p.sectors[0].paths[4].levels[1].arity = 4;
    check_refused(&c, 0, &p, CZK_ERR_INVALID_ARGUMENT, "a path level of arity 4");
    p.sectors[0].paths[4].levels[1].arity = 8;
    p.sectors[0].paths[4].n_levels = 1;
    check_refused(&c, 0, &p, CZK_ERR_INVALID_ARGUMENT, "a path of 1 level");
    p.sectors[0].paths[4].n_levels = 2;
    CHECK(czk_circuit_check_input(&c, 0, &p, msg, sizeof msg) == CZK_OK);
    p.n_sectors = 0;
    check_refused(&c, 0, &p, CZK_ERR_INVALID_ARGUMENT, "no sectors");
    p.n_sectors = 2;

    /* padding: one real sector of two */
    czk_fil_post_partition one = p;
    one.n_sectors = 1;
    e = czk_circuit_check_input(&c, 0, &one, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "wpost-2k, 1 sector of 2: %s", msg);
    printf("wpost-2k, 1 real sector of 2: %s\n", e == CZK_OK ? "satisfied" : msg);
    p.sectors[0].leaves[9][1] ^= 1;
    check_fails(&c, &one, "padded, flipped leaf", "outer namespace/sector_0/challenge_inclusion_9/enforce root is correct");
    p.sectors[0].leaves[9][1] ^= 1;
    czk_fil_post_sector *big = realloc(p.sectors, 3 * sizeof *big); /* 3 sectors of 2 */
    CHECK(big);
    if (big) {
        p.sectors = big;
        memset(&p.sectors[2], 0, sizeof p.sectors[2]);
        p.n_sectors = 3;
        check_refused(&c, 0, &p, CZK_ERR_INVALID_ARGUMENT, "3 sectors");
        p.n_sectors = 2;
    }
    czk_fil_post_sector only = p.sectors[0];
    only.challenges = calloc(10, sizeof *only.challenges);
    if (only.challenges) {
        for (int j = 0; j < 10; j++) {
            const czk_fil_path *q = &only.paths[j];
            only.challenges[j] = q->levels[0].index + 8u * q->levels[1].index;
        }
        czk_fil_post_partition single = {.registered_proof = 5, .n_sectors = 1, .sectors = &only};
        inputs_equal(&c, &s, &single, "wpost-2k, 1 real sector");
        free(only.challenges);
    }
    czk_fil_post_partition_free(&p);
}

static void winning_2k(czk_rng *rng) {
    czk_circuit c;
    czk_post_shape s;
    find(&c, &s, "winning-2k");
    CHECK(s.sectors == 66 && s.challenges == 1);
    czk_fil_post_partition p;
    CHECK(make_partition(&p, &s, 0, 66, rng)); /* StackedDrgWinning2KiBV1 */
    char msg[512] = "";
    double t0 = now();
    czk_err e = czk_circuit_check_input(&c, 0, &p, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "winning-2k: %s", msg);
    printf("winning-2k, 66 sectors x 1 challenge: %s (%.2f s)\n", e == CZK_OK ? "satisfied" : msg, now() - t0);
    inputs_equal(&c, &s, &p, "winning-2k");
    p.sectors[65].leaves[0][0] ^= 1;
    check_fails(&c, &p, "winning, flipped leaf", "outer namespace/sector_65/challenge_inclusion_0/enforce root is correct");
    p.sectors[65].leaves[0][0] ^= 1;
    p.sectors[40].paths[0].levels[0].siblings[0][0] ^= 1;
    check_fails(&c, &p, "winning, flipped sibling",
                "outer namespace/sector_40/challenge_inclusion_0/enforce root is correct");
    p.sectors[40].paths[0].levels[0].siblings[0][0] ^= 1;
    p.sectors[12].comm_r[3] ^= 2;
    check_fails(&c, &p, "winning, flipped comm_r", "outer namespace/sector_12/enforce_comm_c_comm_r_last_hash_comm_r");
    p.sectors[12].comm_r[3] ^= 2;
    czk_fil_post_partition_free(&p);
}

typedef struct {
    const czk_post_shape *s;
    const czk_fil_post_partition *p;
} ctx;

static czk_err synth(czk_cs *cs, void *v) {
    const ctx *x = v;
    return czk_post_synthesize(cs, x->s, x->p);
}

static void sub_top(czk_rng *rng) {
    const czk_post_shape s = {512, 2, 3, 8, 4, 2};
    czk_fil_post_partition p;
    CHECK(make_partition(&p, &s, 0, 2, rng));
    ctx x = {&s, &p};
    char msg[512] = "";
    czk_err e = czk_cs_check(synth, &x, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "8-4-2: %s", msg);
    printf("8-4-2 tree, 2 sectors x 3 challenges: %s\n", e == CZK_OK ? "satisfied" : msg);
    p.sectors[1].paths[2].levels[3].siblings[0][0] ^= 1; /* the top level's sibling */
    e = czk_cs_check(synth, &x, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_UNSATISFIED &&
                  !strcmp(msg, "outer namespace/sector_1/challenge_inclusion_2/enforce root is correct"),
              "8-4-2 flipped top sibling: %s", msg);
    czk_fil_post_partition_free(&p);
}

/* czk_post_witness (the sectors in parallel, what czkd runs) against the
 * sequential WITNESS-mode synthesis, value for value: winning-2k (66
 * sectors, 5 real), wpost-2k (2 sectors, 1 and 2 real), the 8-4-2 shape,
 * on the default pool and on the calling thread; a refused input the same
 * way as synthesize_input refuses it. */
static void witness_parallel(czk_rng *rng) {
    static const struct {
        const char *id; /* NULL: the 8-4-2 shape */
        uint64_t registered;
        size_t real;
    } cases[] = {{"winning-2k", 0, 66}, {"winning-2k", 0, 5}, {"wpost-2k", 5, 1}, {"wpost-2k", 5, 2}, {NULL, 0, 2}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        czk_circuit c;
        czk_post_shape s = {512, 2, 3, 8, 4, 2};
        if (cases[k].id) find(&c, &s, cases[k].id);
        czk_fil_post_partition p;
        CHECK(make_partition(&p, &s, cases[k].registered, cases[k].real, rng));
        ctx x = {&s, &p};
        char msg[512] = "";
        czk_witness seq, par;
        CHECK_MSG(czk_witness_generate(&seq, synth, &x, msg, sizeof msg) == CZK_OK, "%s", msg);
        for (int on_pool = 0; on_pool < 2; on_pool++) {
            czk_err e = czk_post_witness(&par, &s, &p, on_pool ? czk_pool_default() : NULL, msg, sizeof msg);
            CHECK_MSG(e == CZK_OK, "case %zu: %s", k, msg);
            if (e) continue;
            bool same = par.n_input == seq.n_input && par.n_aux == seq.n_aux &&
                        !memcmp(par.input, seq.input, seq.n_input * sizeof(czk_fr)) &&
                        !memcmp(par.aux, seq.aux, seq.n_aux * sizeof(czk_fr));
            CHECK_MSG(same, "case %zu (%s, %zu real sectors, %s): the parallel witness differs", k,
                      cases[k].id ? cases[k].id : "8-4-2", cases[k].real, on_pool ? "pool" : "one thread");
            czk_witness_free(&par);
        }
        printf("%s, %zu real sectors: parallel witness = sequential (%zu inputs, %zu aux)\n",
               cases[k].id ? cases[k].id : "8-4-2", cases[k].real, seq.n_input, seq.n_aux);
        czk_witness_free(&seq);
        if (cases[k].id && !strcmp(cases[k].id, "wpost-2k") && cases[k].real == 2) {
            /* through the provider: the same refusals as synthesize_input */
            CHECK(czk_circuit_witness_input(&c, 1, &p, &par, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
                  strstr(msg, "partition 1, a request holds partition 0 only"));
            p.sectors[1].n_challenges = 9;
            CHECK(czk_circuit_witness_input(&c, 0, &p, &par, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
                  strstr(msg, "has 9 challenges, the circuit 10"));
            p.sectors[1].n_challenges = 10;
        }
        czk_fil_post_partition_free(&p);
    }
}

/* The witness against the recorded R1CS, then a proof on development
 * parameters verified against the inputs computed here. */
static void prove_verify(czk_rng *rng) {
    czk_circuit c;
    czk_post_shape s;
    find(&c, &s, "wpost-2k");
    czk_fil_post_partition p;
    CHECK(make_partition(&p, &s, 5, 2, rng));
    char msg[512] = "";
    czk_r1cs r;
    czk_witness w;
    CHECK_MSG(czk_circuit_record(&c, &r, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK_MSG(czk_circuit_witness_input(&c, 0, &p, &w, msg, sizeof msg) == CZK_OK, "%s", msg);
    czk_err e = czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "wpost-2k witness on the recorded R1CS: %s", msg);
    printf("wpost-2k witness (%zu aux) satisfies the recorded R1CS (%zu constraints): %s\n", w.n_aux,
           r.n_constraints, e == CZK_OK ? "yes" : msg);

    double t0 = now();
    czk_toxic t;
    czk_toxic_from_seed(&t, czk_rng_next(rng));
    czk_params params;
    czk_prover_key key;
    czk_prepared_vk pvk;
    czk_pool *pool = czk_pool_default();
    e = czk_groth16_setup(&params, &r, &t, pool, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "setup: %s", msg);
    if (e) goto out;
    double t1 = now();
    CHECK(czk_prover_key_init(&key, &r, msg, sizeof msg) == CZK_OK);
    CHECK(czk_vk_prepare(&pvk, &params.vk) == CZK_OK);
    czk_fr *a, *b, *cc;
    CHECK(czk_prover_key_eval_abc(&key, &w, &a, &b, &cc, pool) == CZK_OK);
    czk_assignment asg = {w.input, w.n_input, w.aux, w.n_aux, a, b, cc,
                          key.r1cs.n_constraints + key.r1cs.n_inputs, &key.a_aux, &key.b_input, &key.b_aux,
                          NULL, NULL, NULL, NULL, NULL};
    w.input = w.aux = NULL; /* the prover owns them now */
    czk_proof proof;
    czk_fr rr, ss;
    czk_fr_random(&rr, rng);
    czk_fr_random(&ss, rng);
    e = czk_prove(&proof, &params, &asg, &rr, &ss, pool, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "prove: %s", msg);
    double t2 = now();
    size_t n = czk_post_input_count(&s) - 1;
    czk_fr want[64];
    CHECK(n <= 64 && expected_inputs(want, &s, &p) == n);
    if (!e) {
        czk_err v = czk_verify(&pvk, &proof, want, n);
        CHECK_MSG(v == CZK_OK, "the proof does not verify");
        czk_fr_add(&want[n - 1], &want[n - 1], &CZK_FR_ONE); /* another challenge */
        CHECK(czk_verify(&pvk, &proof, want, n) == CZK_ERR_PROOF_INVALID);
        printf("wpost-2k proof: %s (setup %.2f s, prove %.2f s)\n", v == CZK_OK ? "verifies" : czk_err_str(v),
               t1 - t0, t2 - t1);
    }
    czk_prepared_vk_free(&pvk);
    czk_prover_key_free(&key);
    czk_params_free(&params);
out:
    czk_r1cs_free(&r);
    czk_witness_free(&w);
    czk_fil_post_partition_free(&p);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_post_sat");
    wpost_2k(&rng);
    winning_2k(&rng);
    sub_top(&rng);
    witness_parallel(&rng);
    if (test_cases(10) >= 10) prove_verify(&rng); /* not in the sanitizer passes (CZK_TEST_SCALE < 1): slow there */
    return test_finish("test_post_sat");
}
