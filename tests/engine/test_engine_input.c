/* Jobs whose instance is data (czk_engine_submit_input, the path Filecoin's
 * C1 inputs take): a three-partition circuit that reads each partition's
 * seed from its input proves what the seed circuit proves for those seeds
 * (public inputs compared, proofs verified); the input's bytes are held in
 * the budget while the job lives and given back at its end; the input is
 * freed exactly once whether the job is done, refused at submit (wrong kind
 * of circuit, no room in the budget), cancelled while held at synthesis, or
 * abandoned by a shutdown. No sleeps are used for synchronization. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "czk/engine.h"
#include "czk/groth16_io.h"
#include "gate.h"
#include "test.h"

#define WAIT_MS 60000
#define PARTS 3

typedef struct {
    uint64_t seeds[PARTS];
    atomic_int *freed;
} toy_input;

static atomic_int n_freed;
static czk_err (*demo_synth)(czk_cs *, const czk_circuit *, size_t, uint64_t);

static gate data_gate; /* the data synthesizer waits here while it is closed */

static czk_err data_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, const void *input) {
    gate_pass(&data_gate);
    const toy_input *in = input;
    return demo_synth(cs, c, partition, in->seeds[partition]);
}

static void toy_free(void *p) {
    toy_input *in = p;
    atomic_fetch_add(in->freed, 1);
    free(in);
}

static czk_circuit_input toy(uint64_t base, size_t claimed_bytes) {
    toy_input *in = calloc(1, sizeof *in);
    if (in) {
        for (int i = 0; i < PARTS; i++) in->seeds[i] = base + 10 * (uint64_t)i;
        in->freed = &n_freed;
    }
    return (czk_circuit_input){.data = in, .free_fn = toy_free, .bytes = claimed_bytes};
}

static czk_prepared_vk pvk;

static bool add_circuits(czk_engine *e) {
    char msg[512] = "";
    czk_circuit c;
    if (czk_circuit_find(&c, "demo", msg, sizeof msg) != CZK_OK) return false;
    demo_synth = c.synthesize;
    czk_circuit d = c;
    snprintf(d.id, sizeof d.id, "demo-data");
    d.partitions = PARTS;
    d.synthesize_input = data_synthesize;
    czk_circuit *cs[2] = {&c, &d};
    czk_toxic t;
    czk_toxic_from_seed(&t, 11);
    for (int i = 0; i < 2; i++) {
        czk_r1cs r1cs;
        czk_params params;
        czk_prover_key key;
        if (czk_circuit_record(cs[i], &r1cs, msg, sizeof msg) != CZK_OK ||
            czk_groth16_setup(&params, &r1cs, &t, czk_pool_default(), msg, sizeof msg) != CZK_OK ||
            czk_prover_key_init(&key, &r1cs, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "setup: %s\n", msg);
            return false;
        }
        if (i == 1 && czk_vk_prepare(&pvk, &params.vk) != CZK_OK) return false;
        czk_err err = czk_engine_register_circuit(e, cs[i], &params, &key, msg, sizeof msg);
        CHECK_MSG(err == CZK_OK, "register %s: %s", cs[i]->id, msg);
        if (err != CZK_OK) return false;
    }
    return true;
}

static size_t reserved(czk_engine *e) {
    czk_engine_stats st;
    czk_engine_stats_get(e, &st);
    return st.budget_reserved;
}

/* The public input (y) of partition p of the demo circuit for one seed. */
static bool demo_public(size_t p, uint64_t seed, czk_fr *y) {
    czk_circuit c;
    char msg[256];
    czk_witness w;
    if (czk_circuit_find(&c, "demo", msg, sizeof msg) != CZK_OK ||
        czk_circuit_witness(&c, p, seed, &w, msg, sizeof msg) != CZK_OK || w.n_input != 2)
        return false;
    *y = w.input[1];
    czk_witness_free(&w);
    return true;
}

static void test_done(czk_engine *e) {
    char msg[512] = "";
    size_t before = reserved(e);
    gate_set(&data_gate, false);
    czk_circuit_input in = toy(100, (size_t)8 << 20);
    uint64_t id = 0;
    czk_err err = czk_engine_submit_input(e, "data-1", "demo-data", &in, CZK_PRIO_NORMAL, &id, msg, sizeof msg);
    CHECK_MSG(err == CZK_OK && id, "submit_input: %s", msg);
    gate_wait_waiting(&data_gate, 1); /* a partition is in synthesis: the job is alive */
    CHECK_MSG(reserved(e) >= before + ((size_t)8 << 20), "the input's bytes are not in the budget (%zu, %zu)",
              reserved(e), before);
    CHECK(atomic_load(&n_freed) == 0);
    gate_set(&data_gate, true);
    czk_job_result r;
    err = czk_engine_await(e, id, WAIT_MS, &r);
    CHECK_MSG(err == CZK_OK && r.status == CZK_JOB_DONE, "await: %s %s", czk_err_str(err), r.message);
    CHECK(atomic_load(&n_freed) == 1);
    CHECK_MSG(reserved(e) == before, "the budget holds %zu bytes after the job, %zu before", reserved(e), before);
    if (err == CZK_OK && r.n_partitions == PARTS && r.n_public == 1) {
        for (int p = 0; p < PARTS; p++) {
            czk_fr y;
            CHECK(demo_public((size_t)p, 100 + 10 * (uint64_t)p, &y) && czk_fr_equal(&y, &r.public_inputs[p]));
            czk_proof proof;
            CHECK(czk_proof_decode(&proof, r.proofs + p * CZK_PROOF_BYTES, msg, sizeof msg) == CZK_OK &&
                  czk_verify(&pvk, &proof, &r.public_inputs[p], 1) == CZK_OK);
        }
        /* partitions differ: their inputs picked different seeds */
        CHECK(!czk_fr_equal(&r.public_inputs[0], &r.public_inputs[1]));
    }
    czk_job_result_free(&r);
}

/* A job with fewer partitions than the circuit's (as an NI-PoRep sector has
 * more): the input says how many. */
static void test_partitions(czk_engine *e) {
    char msg[512] = "";
    czk_circuit_input in = toy(500, 0);
    in.partitions = 2;
    uint64_t id = 0;
    CHECK(czk_engine_submit_input(e, NULL, "demo-data", &in, CZK_PRIO_NORMAL, &id, msg, sizeof msg) == CZK_OK);
    czk_job_result r;
    CHECK(czk_engine_await(e, id, WAIT_MS, &r) == CZK_OK && r.n_partitions == 2 && r.n_public == 1);
    czk_fr y;
    CHECK(r.public_inputs && demo_public(1, 510, &y) && czk_fr_equal(&y, &r.public_inputs[1]));
    czk_job_result_free(&r);
}

static void test_refused(czk_engine *e) {
    char msg[512] = "";
    uint64_t id = 0;
    czk_circuit_input in = toy(1, 0);
    CHECK(czk_engine_submit_input(e, NULL, "demo", &in, CZK_PRIO_NORMAL, &id, msg, sizeof msg) ==
              CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "seed"));
    CHECK(atomic_load(&n_freed) == 3);
    CHECK(czk_engine_submit(e, NULL, "demo-data", 5, CZK_PRIO_NORMAL, &id, msg, sizeof msg) ==
          CZK_ERR_INVALID_ARGUMENT);
    in = toy(1, (size_t)1 << 40); /* more than the whole budget */
    CHECK(czk_engine_submit_input(e, NULL, "demo-data", &in, CZK_PRIO_NORMAL, &id, msg, sizeof msg) ==
              CZK_ERR_BUSY &&
          strstr(msg, "input"));
    CHECK(atomic_load(&n_freed) == 4);
    in = toy(1, 0);
    CHECK(czk_engine_submit_input(e, NULL, "no-such", &in, CZK_PRIO_NORMAL, &id, msg, sizeof msg) ==
          CZK_ERR_NOT_FOUND);
    CHECK(atomic_load(&n_freed) == 5);
}

static void test_cancel(czk_engine *e) {
    char msg[512] = "";
    size_t before = reserved(e);
    gate_set(&data_gate, false);
    czk_circuit_input in = toy(200, 4096);
    uint64_t id = 0;
    CHECK(czk_engine_submit_input(e, NULL, "demo-data", &in, CZK_PRIO_NORMAL, &id, msg, sizeof msg) == CZK_OK);
    gate_wait_waiting(&data_gate, 1);
    CHECK(czk_engine_cancel(e, id) == CZK_OK);
    CHECK(atomic_load(&n_freed) == 5); /* a partition still reads it */
    gate_set(&data_gate, true);
    czk_job_result r;
    CHECK(czk_engine_await(e, id, WAIT_MS, &r) == CZK_ERR_CANCELLED && r.status == CZK_JOB_CANCELLED);
    czk_job_result_free(&r);
    CHECK(atomic_load(&n_freed) == 6);
    CHECK(reserved(e) == before);
}

static void test_shutdown(czk_engine *e) {
    char msg[512] = "";
    gate_set(&data_gate, false);
    czk_circuit_input in = toy(300, 4096), in2 = toy(400, 4096);
    uint64_t id = 0, id2 = 0;
    CHECK(czk_engine_submit_input(e, NULL, "demo-data", &in, CZK_PRIO_NORMAL, &id, msg, sizeof msg) == CZK_OK);
    CHECK(czk_engine_submit_input(e, NULL, "demo-data", &in2, CZK_PRIO_LOW, &id2, msg, sizeof msg) == CZK_OK);
    gate_wait_waiting(&data_gate, 1);
    gate_set(&data_gate, true); /* the shutdown abandons them at their next boundary */
    czk_engine_shutdown(e, CZK_SHUTDOWN_ABANDON);
    CHECK(atomic_load(&n_freed) == 8);
}

int main(void) {
    gate_init(&data_gate, true);
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = (size_t)512 << 20;
    cfg.partition_workers = 1;
    cfg.gpu_workers = 1;
    cfg.threads = 2;
    cfg.faults = "";
    czk_engine *e = NULL;
    char msg[512] = "";
    CHECK_MSG(czk_engine_create(&e, &cfg, msg, sizeof msg) == CZK_OK, "engine: %s", msg);
    if (!e || !add_circuits(e)) return test_finish("engine_input");
    test_done(e);
    test_partitions(e);
    test_refused(e);
    test_cancel(e);
    test_shutdown(e);
    czk_engine_destroy(e);
    czk_prepared_vk_free(&pvk);
    printf("engine_input: %d inputs freed exactly once\n", atomic_load(&n_freed));
    return test_finish("engine_input");
}
