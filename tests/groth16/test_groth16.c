/* Groth16 end to end on the CPU: prove → verify round trips on the demo
 * circuit and on synthetic circuits of many sizes (powers of two among them),
 * rejections (wrong input, altered proof, another vk), the split API
 * (start + finish = prove; a/b/c released inside start; destroy frees all),
 * batch verification, and an unsatisfied witness named by its constraint. */
#include <string.h>

#include "czk/backend.h"
#include "czk/circuit.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/instance.h"
#include "czk/mem.h"
#include "test.h"

typedef struct {
    czk_circuit c;
    czk_params params;
    czk_prover_key key;
    czk_prepared_vk pvk;
} keys;

static bool make_keys(keys *k, const czk_circuit *c, uint64_t seed, czk_pool *pool) {
    char msg[512];
    k->c = *c;
    czk_r1cs r1cs;
    czk_toxic t;
    czk_toxic_from_seed(&t, seed);
    if (czk_circuit_record(c, &r1cs, msg, sizeof msg) != CZK_OK ||
        czk_groth16_setup(&k->params, &r1cs, &t, pool, msg, sizeof msg) != CZK_OK ||
        czk_prover_key_init(&k->key, &r1cs, msg, sizeof msg) != CZK_OK || czk_vk_prepare(&k->pvk, &k->params.vk) != CZK_OK) {
        fprintf(stderr, "make_keys(%s): %s\n", c->id, msg);
        return false;
    }
    return true;
}

static void free_keys(keys *k) {
    czk_prepared_vk_free(&k->pvk);
    czk_prover_key_free(&k->key);
    czk_params_free(&k->params);
}

static bool all_in_flight_zero(void) {
    return czk_mem_in_use(CZK_MEM_ABC) == 0 && czk_mem_in_use(CZK_MEM_SYNTH) == 0 &&
           czk_mem_in_use(CZK_MEM_PENDING) == 0 && czk_mem_in_use(CZK_MEM_AUX) == 0;
}

/* prove → verify, plus the rejections */
static void round_trip(keys *k, keys *other, uint64_t seed, czk_pool *pool) {
    char msg[512] = "";
    czk_proof proof;
    czk_fr *in = NULL;
    size_t n = 0;
    czk_err e = czk_prove_instance(&proof, &in, &n, &k->params, &k->key, &k->c, 0, seed, NULL, NULL, pool, msg,
                                   sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s seed %llu: %s", k->c.id, (unsigned long long)seed, msg);
    if (e != CZK_OK) return;
    CHECK(all_in_flight_zero());
    CHECK_MSG(czk_verify(&k->pvk, &proof, in, n) == CZK_OK, "%s: valid proof rejected", k->c.id);
    /* wrong public input */
    if (n) {
        czk_fr_add(&in[0], &in[0], &CZK_FR_ONE);
        CHECK(czk_verify(&k->pvk, &proof, in, n) == CZK_ERR_PROOF_INVALID);
        czk_fr_sub(&in[0], &in[0], &CZK_FR_ONE);
    }
    CHECK(czk_verify(&k->pvk, &proof, in, n + 1) == CZK_ERR_INVALID_ARGUMENT);
    /* altered proof bytes: every single-byte change is rejected, by the
     * decoder or by the pairing check */
    uint8_t bytes[CZK_PROOF_BYTES];
    czk_proof_encode(bytes, &proof);
    int positions[] = {5, 47, 60, 140, 150, 191};
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        uint8_t bad[CZK_PROOF_BYTES];
        memcpy(bad, bytes, sizeof bad);
        bad[positions[i]] ^= 0x01;
        czk_proof q;
        if (czk_proof_decode(&q, bad, msg, sizeof msg) == CZK_OK)
            CHECK_MSG(czk_verify(&k->pvk, &q, in, n) == CZK_ERR_PROOF_INVALID, "altered byte %d accepted",
                      positions[i]);
    }
    /* A and C swapped */
    czk_proof sw = proof;
    sw.a = proof.c;
    sw.c = proof.a;
    CHECK(czk_verify(&k->pvk, &sw, in, n) == CZK_ERR_PROOF_INVALID);
    /* another vk */
    if (other) CHECK(czk_verify(&other->pvk, &proof, in, n) != CZK_OK);
    free(in);
}

static void test_split_api(keys *k, czk_pool *pool) {
    char msg[512] = "";
    czk_fr r, s;
    czk_rng rng;
    czk_rng_seed(&rng, 99);
    czk_fr_random(&r, &rng);
    czk_fr_random(&s, &rng);
    czk_proof one, two;
    CHECK(czk_prove_instance(&one, NULL, NULL, &k->params, &k->key, &k->c, 0, 5, &r, &s, pool, msg, sizeof msg) ==
          CZK_OK);

    /* by hand: witness, a/b/c, start, then look at the accounting */
    czk_witness w;
    czk_fr *a, *b, *c;
    CHECK(czk_circuit_witness(&k->c, 0, 5, &w, msg, sizeof msg) == CZK_OK);
    CHECK(czk_r1cs_eval_abc(&k->key.r1cs, &w, &a, &b, &c, pool) == CZK_OK);
    CHECK(czk_mem_in_use(CZK_MEM_ABC) > 0);
    czk_assignment asg = {w.input, w.n_input, w.aux, w.n_aux, a, b, c,
                          k->key.r1cs.n_constraints + k->key.r1cs.n_inputs, &k->key.a_aux, &k->key.b_input,
                          &k->key.b_aux, NULL, NULL, NULL, NULL, NULL};
    czk_pending *p;
    CHECK(czk_prove_start(&p, &k->params, &asg, &r, &s, pool, msg, sizeof msg) == CZK_OK);
    CHECK_MSG(czk_mem_in_use(CZK_MEM_ABC) == 0 && czk_mem_buffers(CZK_MEM_ABC) == 0,
              "a/b/c still held after start: %zu bytes", czk_mem_in_use(CZK_MEM_ABC));
    CHECK(asg.a == NULL && asg.b == NULL && asg.c == NULL);
    size_t held = czk_pending_bytes(p);
    CHECK(held > 0 && held >= czk_mem_in_use(CZK_MEM_SYNTH));
    CHECK(czk_prove_finish(&two, p, pool, msg, sizeof msg) == CZK_OK);
    CHECK(all_in_flight_zero());
    uint8_t e1[CZK_PROOF_BYTES], e2[CZK_PROOF_BYTES];
    czk_proof_encode(e1, &one);
    czk_proof_encode(e2, &two);
    CHECK_MSG(!memcmp(e1, e2, sizeof e1), "start+finish differs from czk_prove for the same r, s");

    /* through the backend interface: the same proof, the same accounting */
    czk_backend *be;
    CHECK(czk_backend_cpu_open(&be, pool) == CZK_OK);
    CHECK(!strcmp(czk_backend_name(be), "cpu"));
    CHECK(czk_circuit_witness(&k->c, 0, 5, &w, msg, sizeof msg) == CZK_OK);
    CHECK(czk_r1cs_eval_abc(&k->key.r1cs, &w, &a, &b, &c, pool) == CZK_OK);
    czk_assignment asgb = {w.input, w.n_input, w.aux, w.n_aux, a, b, c,
                           k->key.r1cs.n_constraints + k->key.r1cs.n_inputs, &k->key.a_aux, &k->key.b_input,
                           &k->key.b_aux, NULL, NULL, NULL, NULL, NULL};
    czk_backend_pending *bp;
    czk_proof three;
    CHECK(czk_backend_start(be, &bp, &k->params, &asgb, &r, &s, msg, sizeof msg) == CZK_OK);
    CHECK(czk_mem_in_use(CZK_MEM_ABC) == 0);
    CHECK(czk_backend_pending_bytes(be, bp) == held);
    CHECK(czk_backend_finish(be, bp, &three, msg, sizeof msg) == CZK_OK);
    czk_proof_encode(e2, &three);
    CHECK_MSG(!memcmp(e1, e2, sizeof e1), "the CPU backend's proof differs from czk_prove");
    czk_backend_close(be);
    CHECK(all_in_flight_zero());

    /* destroy without finish releases everything */
    CHECK(czk_circuit_witness(&k->c, 0, 6, &w, msg, sizeof msg) == CZK_OK);
    CHECK(czk_r1cs_eval_abc(&k->key.r1cs, &w, &a, &b, &c, pool) == CZK_OK);
    czk_assignment asg2 = {w.input, w.n_input, w.aux, w.n_aux, a, b, c,
                           k->key.r1cs.n_constraints + k->key.r1cs.n_inputs, &k->key.a_aux, &k->key.b_input,
                           &k->key.b_aux, NULL, NULL, NULL, NULL, NULL};
    CHECK(czk_prove_start(&p, &k->params, &asg2, &r, &s, pool, msg, sizeof msg) == CZK_OK);
    czk_pending_destroy(p);
    CHECK(all_in_flight_zero());

    /* a start that fails (mismatched shapes) still frees what it was given */
    CHECK(czk_circuit_witness(&k->c, 0, 7, &w, msg, sizeof msg) == CZK_OK);
    CHECK(czk_r1cs_eval_abc(&k->key.r1cs, &w, &a, &b, &c, pool) == CZK_OK);
    czk_assignment asg3 = {w.input, w.n_input - 1, w.aux, w.n_aux, a, b, c,
                           k->key.r1cs.n_constraints + k->key.r1cs.n_inputs, &k->key.a_aux, &k->key.b_input,
                           &k->key.b_aux, NULL, NULL, NULL, NULL, NULL};
    CHECK(czk_prove_start(&p, &k->params, &asg3, &r, &s, pool, msg, sizeof msg) == CZK_ERR_MISMATCH);
    CHECK(p == NULL);
    CHECK(all_in_flight_zero());
}

/* a, b, c packed (czk_assignment_pack_abc, what the engine keeps for a
 * waiting partition): the same proof as plain ones, through czk_prove_start
 * and the CPU backend; the packed bytes are fewer and freed by start; a
 * half-packed assignment and a packed one of the wrong length. */
static void test_packed_abc(keys *k, czk_pool *pool) {
    char msg[512] = "";
    czk_fr r, s;
    czk_rng rng;
    czk_rng_seed(&rng, 77);
    czk_fr_random(&r, &rng);
    czk_fr_random(&s, &rng);
    czk_proof plain;
    CHECK(czk_prove_instance(&plain, NULL, NULL, &k->params, &k->key, &k->c, 0, 3, &r, &s, pool, msg, sizeof msg) ==
          CZK_OK);
    uint8_t e1[CZK_PROOF_BYTES], e2[CZK_PROOF_BYTES];
    czk_proof_encode(e1, &plain);
    czk_backend *be;
    CHECK(czk_backend_cpu_open(&be, pool) == CZK_OK);
    for (int way = 0; way < 3; way++) {
        czk_witness w;
        czk_fr *a, *b, *c;
        CHECK(czk_circuit_witness(&k->c, 0, 3, &w, msg, sizeof msg) == CZK_OK);
        CHECK(czk_r1cs_eval_abc(&k->key.r1cs, &w, &a, &b, &c, pool) == CZK_OK);
        czk_assignment asg = {w.input, w.n_input, w.aux, w.n_aux, a, b, c,
                              k->key.r1cs.n_constraints + k->key.r1cs.n_inputs, &k->key.a_aux, &k->key.b_input,
                              &k->key.b_aux, NULL, NULL, NULL, NULL, NULL};
        const size_t before = czk_assignment_abc_bytes(&asg);
        size_t saved = 0;
        if (way == 2) { /* only b packed: a and c stay plain */
            czk_fr *keep_a = asg.a, *keep_c = asg.c;
            asg.a = asg.c = NULL;
            CHECK(czk_assignment_pack_abc(&asg, NULL, &saved) == CZK_OK);
            asg.a = keep_a, asg.c = keep_c;
            CHECK(asg.b_packed && !asg.b && !asg.a_packed && !asg.c_packed);
        } else {
            CHECK(czk_assignment_pack_abc(&asg, pool, &saved) == CZK_OK);
            CHECK(asg.a_packed && asg.b_packed && asg.c_packed && !asg.a && !asg.b && !asg.c);
        }
        CHECK_MSG(saved > 0 && czk_assignment_abc_bytes(&asg) == before - saved &&
                      czk_mem_in_use(CZK_MEM_ABC) == czk_assignment_abc_bytes(&asg),
                  "packing gave back %zu of %zu bytes", saved, before);
        czk_proof got;
        if (way == 1) {
            czk_backend_pending *bp;
            CHECK(czk_backend_start(be, &bp, &k->params, &asg, &r, &s, msg, sizeof msg) == CZK_OK);
            CHECK(czk_mem_in_use(CZK_MEM_ABC) == 0 && !asg.a_packed && !asg.b_packed && !asg.c_packed);
            CHECK(czk_backend_finish(be, bp, &got, msg, sizeof msg) == CZK_OK);
        } else {
            czk_pending *p;
            CHECK(czk_prove_start(&p, &k->params, &asg, &r, &s, pool, msg, sizeof msg) == CZK_OK);
            CHECK(czk_mem_in_use(CZK_MEM_ABC) == 0 && !asg.a_packed && !asg.b_packed && !asg.c_packed);
            CHECK(czk_prove_finish(&got, p, pool, msg, sizeof msg) == CZK_OK);
        }
        czk_proof_encode(e2, &got);
        CHECK_MSG(!memcmp(e1, e2, sizeof e1), "packed a, b, c (way %d): a different proof", way);
        CHECK(all_in_flight_zero());
    }
    czk_backend_close(be);

    /* both forms of a, or a packed vector of another length: refused, freed */
    for (int bad = 0; bad < 2; bad++) {
        czk_witness w;
        czk_fr *a, *b, *c;
        CHECK(czk_circuit_witness(&k->c, 0, 4, &w, msg, sizeof msg) == CZK_OK);
        CHECK(czk_r1cs_eval_abc(&k->key.r1cs, &w, &a, &b, &c, pool) == CZK_OK);
        const size_t n_abc = k->key.r1cs.n_constraints + k->key.r1cs.n_inputs;
        czk_assignment asg = {w.input, w.n_input, w.aux, w.n_aux, a, b, c, n_abc, &k->key.a_aux, &k->key.b_input,
                              &k->key.b_aux, NULL, NULL, NULL, NULL, NULL};
        CHECK(czk_fr_packed_make(&asg.a_packed, a, bad ? n_abc - 1 : n_abc, CZK_MEM_ABC, pool) == CZK_OK &&
              asg.a_packed);
        if (bad) {
            czk_mem_free(asg.a);
            asg.a = NULL;
        }
        czk_pending *p = NULL;
        msg[0] = 0;
        CHECK(czk_prove_start(&p, &k->params, &asg, &r, &s, pool, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
        CHECK_MSG(p == NULL && msg[0], "bad %d: %s", bad, msg);
        CHECK(all_in_flight_zero());
    }
}

static void test_batch(keys *k, czk_pool *pool) {
    enum { N = 4 };
    char msg[512];
    czk_proof proofs[N];
    czk_fr inputs[N * 8];
    size_t n = 0;
    for (int j = 0; j < N; j++) {
        czk_fr *in;
        CHECK(czk_prove_instance(&proofs[j], &in, &n, &k->params, &k->key, &k->c, 0, (uint64_t)j + 100, NULL, NULL,
                                 pool, msg, sizeof msg) == CZK_OK);
        CHECK(n <= 8);
        memcpy(&inputs[(size_t)j * n], in, n * sizeof(czk_fr));
        free(in);
    }
    /* rows are n apart */
    czk_fr packed[N * 8];
    for (int j = 0; j < N; j++) memcpy(&packed[(size_t)j * n], &inputs[(size_t)j * n], n * sizeof(czk_fr));
    CHECK(czk_verify_batch(&k->pvk, proofs, N, packed, n) == CZK_OK);
    czk_proof saved = proofs[2];
    proofs[2].c = proofs[1].c;
    CHECK(czk_verify_batch(&k->pvk, proofs, N, packed, n) == CZK_ERR_PROOF_INVALID);
    proofs[2] = saved;
    if (n) {
        czk_fr_add(&packed[n], &packed[n], &CZK_FR_ONE);
        CHECK(czk_verify_batch(&k->pvk, proofs, N, packed, n) == CZK_ERR_PROOF_INVALID);
    }
}

/* A circuit whose witness is wrong for seed 666: y = x^2 + 1 claimed as x^2. */
static czk_err broken_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    (void)c;
    (void)partition;
    czk_fr x, y;
    czk_fr_from_u64(&x, seed + 3);
    czk_fr_sqr(&y, &x);
    if (seed == 666) czk_fr_add(&y, &y, &CZK_FR_ONE);
    czk_var vx, vy;
    czk_err e;
    if ((e = czk_cs_alloc_input(cs, &vy, "y", &y)) != CZK_OK) return e;
    czk_cs_push_namespace(cs, "broken");
    if ((e = czk_cs_alloc(cs, &vx, "x", &x)) != CZK_OK) return e;
    czk_lc a, cc;
    czk_lc_init(&a);
    czk_lc_init(&cc);
    czk_lc_add(&a, vx, NULL);
    czk_lc_add(&cc, vy, NULL);
    czk_cs_enforce(cs, "square", &a, &a, &cc);
    czk_lc_free(&a);
    czk_lc_free(&cc);
    czk_cs_pop_namespace(cs);
    return CZK_OK;
}

static void test_unsatisfied(czk_pool *pool) {
    czk_circuit c;
    memset(&c, 0, sizeof c);
    snprintf(c.id, sizeof c.id, "broken");
    c.partitions = 1;
    c.synthesize = broken_synthesize;
    keys k;
    if (!make_keys(&k, &c, 3, pool)) {
        CHECK(false);
        return;
    }
    char msg[512] = "";
    czk_proof proof;
    CHECK(czk_prove_instance(&proof, NULL, NULL, &k.params, &k.key, &c, 0, 5, NULL, NULL, pool, msg, sizeof msg) ==
          CZK_OK);
    czk_err e = czk_prove_instance(&proof, NULL, NULL, &k.params, &k.key, &c, 0, 666, NULL, NULL, pool, msg, sizeof msg);
    CHECK(e == CZK_ERR_UNSATISFIED);
    CHECK_MSG(strstr(msg, "broken/square") != NULL, "message: %s", msg);
    CHECK(all_in_flight_zero());
    free_keys(&k);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_groth16");
    czk_pool *pool;
    CHECK(czk_pool_create(&pool, 2) == CZK_OK);
    char msg[256];

    keys demo, demo2;
    czk_circuit c;
    CHECK(czk_circuit_find(&c, "demo", msg, sizeof msg) == CZK_OK);
    CHECK(make_keys(&demo, &c, 1, pool));
    CHECK(make_keys(&demo2, &c, 2, pool));
    round_trip(&demo, &demo2, 42, pool);
    round_trip(&demo, NULL, czk_rng_next(&rng), pool);
    test_split_api(&demo, pool);

    /* synthetic circuits: domain exactly filled (a power of two), one past it,
     * and random sizes */
    czk_circuit s;
    CHECK(czk_circuit_find(&s, "synthetic-10", msg, sizeof msg) == CZK_OK);
    size_t totals[] = {64, 65, 127, 128, 256, 300, 1024, 1025, 40 + (size_t)(czk_rng_next(&rng) % 900)};
    size_t ins[] = {2, 3, 5, 2, 4, 9, 3, 2, 1 + (size_t)(czk_rng_next(&rng) % 8) + 1};
    keys prev;
    bool have_prev = false;
    for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++) {
        czk_circuit t = s;
        t.profile.inputs = ins[i];
        t.profile.constraints = totals[i] - ins[i];
        snprintf(t.id, sizeof t.id, "synthetic-test-%zu", totals[i]);
        keys k;
        if (!make_keys(&k, &t, 10 + i, pool)) {
            CHECK_MSG(false, "setup for %zu rows", totals[i]);
            continue;
        }
        CHECK(k.params.n_h + 1 == (size_t)1 << (64 - __builtin_clzll((unsigned long long)totals[i] - 1)));
        round_trip(&k, have_prev ? &prev : NULL, czk_rng_next(&rng), pool);
        if (have_prev) free_keys(&prev);
        prev = k;
        have_prev = true;
    }
    if (have_prev) {
        test_packed_abc(&prev, pool);
        test_batch(&prev, pool);
        free_keys(&prev);
    }
    test_unsatisfied(pool);
    free_keys(&demo);
    free_keys(&demo2);
    czk_pool_destroy(pool);
    CHECK(all_in_flight_zero());
    return test_finish("test_groth16");
}
