/* The engine with a backend that evaluates a, b, c itself (device_abc) and
 * takes the witness packed (packed_witness), as the CUDA backend does: the
 * partition reaches start with no a, b, c (plain or packed), the compact
 * R1CS, the aux values packed and its reservation shrunk by what packing
 * gave back; every proof verifies; nothing is left reserved or in flight.
 * Runs here on a wrapper of the CPU backend (czk_prove_start accepts the
 * same assignment). Also: a compact prover key on the plain CPU backend
 * (a, b, c evaluated on the host from the compact form) proves the same. */
#include <stdatomic.h>
#include <string.h>

#include "czk/engine.h"
#include "czk/instance.h"
#include "test.h"

static czk_backend_ops wrap_ops;
static const czk_backend_ops *cpu_ops;
static czk_engine *the_engine;
static size_t plain_aux_bytes, estimate;
static atomic_int starts, bad_form, packed_seen, shrunk;

static czk_err wrap_start(czk_backend *be, czk_backend_pending **out, const czk_params *params, czk_assignment *asg,
                          const czk_fr *r, const czk_fr *s, char *msg, size_t msglen) {
    atomic_fetch_add(&starts, 1);
    if (asg->a || asg->b || asg->c || asg->a_packed || asg->b_packed || asg->c_packed || !asg->r1cs)
        atomic_fetch_add(&bad_form, 1);
    if (asg->aux_packed && !asg->aux) atomic_fetch_add(&packed_seen, 1);
    czk_engine_stats st;
    czk_engine_stats_get(the_engine, &st);
    /* one partition in flight (pw = gw = 1): what it holds now is the
     * estimate less the plain aux values plus their packed bytes */
    size_t held = st.budget_reserved - st.budget_resident;
    if (held + plain_aux_bytes / 2 < estimate) atomic_fetch_add(&shrunk, 1);
    return cpu_ops->start(be, out, params, asg, r, s, msg, msglen);
}

static czk_engine *make(czk_backend *be) {
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = (size_t)1 << 30;
    cfg.partition_workers = 1;
    cfg.gpu_workers = 1;
    cfg.threads = 2;
    cfg.faults = "";
    cfg.verify_results = true;
    cfg.backend = be;
    char msg[256] = "";
    czk_engine *e = NULL;
    czk_err err = czk_engine_create(&e, &cfg, msg, sizeof msg);
    CHECK_MSG(err == CZK_OK, "engine: %s", msg);
    return e;
}

/* Registers circuit id with a compact key and proves `jobs` jobs. */
static void run(czk_backend *be, const char *id, int jobs, bool wrapped) {
    char msg[512] = "";
    czk_circuit c;
    czk_r1cs r1cs;
    czk_r1cs_compact rc;
    czk_toxic t;
    czk_params params;
    czk_prover_key key;
    czk_toxic_from_seed(&t, 11);
    CHECK(czk_circuit_find(&c, id, msg, sizeof msg) == CZK_OK);
    CHECK(czk_circuit_record(&c, &r1cs, msg, sizeof msg) == CZK_OK);
    CHECK(czk_groth16_setup(&params, &r1cs, &t, czk_pool_default(), msg, sizeof msg) == CZK_OK);
    czk_r1cs_free(&r1cs);
    CHECK_MSG(czk_circuit_record_compact(&c, &rc, msg, sizeof msg) == CZK_OK, "compact: %s", msg);
    CHECK(czk_prover_key_init_compact(&key, &rc, msg, sizeof msg) == CZK_OK && czk_prover_key_is_compact(&key));
    czk_engine *e = make(be);
    if (!e) return;
    the_engine = e;
    CHECK_MSG(czk_engine_register_circuit(e, &c, &params, &key, msg, sizeof msg) == CZK_OK, "register: %s", msg);
    estimate = czk_engine_partition_estimate(e, id);
    plain_aux_bytes = 32 * key.r1cs.n_aux;
    for (int i = 0; i < jobs; i++) {
        uint64_t jid = 0;
        CHECK(czk_engine_submit(e, NULL, id, 100 + (uint64_t)i, CZK_PRIO_NORMAL, &jid, msg, sizeof msg) == CZK_OK);
        czk_job_result r;
        CHECK(czk_engine_await(e, jid, 120000, &r) == CZK_OK);
        CHECK_MSG(r.status == CZK_JOB_DONE && r.verified, "%s job %d: status %d verified %d: %s", id, i, r.status,
                  r.verified, r.message);
        czk_job_result_free(&r);
    }
    czk_engine_stats st;
    czk_engine_stats_get(e, &st);
    CHECK_MSG(st.budget_reserved == st.budget_resident, "%s idle: reserved %zu, resident %zu", id, st.budget_reserved,
              st.budget_resident);
    czk_engine_destroy(e);
    (void)wrapped;
}

int main(void) {
    czk_backend *be = NULL;
    CHECK(czk_backend_cpu_open(&be, NULL) == CZK_OK);
    if (!be) return test_finish("engine_device_abc");

    /* the plain CPU backend: a, b, c evaluated from the compact key on the host */
    run(be, "synthetic-12", 2, false);
    CHECK(atomic_load(&starts) == 0);

    /* the wrapper: a, b, c left to the backend, the witness packed */
    cpu_ops = be->ops;
    wrap_ops = *be->ops;
    wrap_ops.start = wrap_start;
    wrap_ops.device_abc = true;
    wrap_ops.packed_witness = true;
    be->ops = &wrap_ops;
    run(be, "synthetic-12", 3, true);
    CHECK_MSG(atomic_load(&starts) == 3 && atomic_load(&bad_form) == 0, "starts %d, with a, b, c or no r1cs %d",
              atomic_load(&starts), atomic_load(&bad_form));
    CHECK_MSG(atomic_load(&packed_seen) == 3, "starts with the witness packed: %d of 3", atomic_load(&packed_seen));
    CHECK_MSG(atomic_load(&shrunk) == 3, "starts with the reservation shrunk by the packing: %d of 3",
              atomic_load(&shrunk));
    run(be, "demo", 1, true); /* a witness that does not pack: kept plain, still proved */
    be->ops = cpu_ops;
    czk_backend_close(be);
    printf("engine_device_abc: %d starts with a, b, c left to the backend\n", atomic_load(&starts));
    return test_finish("engine_device_abc");
}
