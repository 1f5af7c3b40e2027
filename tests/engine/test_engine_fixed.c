/* The budget holds a backend's fixed host memory (czk_backend.host_fixed_bytes:
 * the CUDA backend's pinned staging buffers): charged as resident from the
 * engine's creation, an engine whose budget cannot hold it refused with a
 * message, a job's partitions fitting only in what is left, and nothing
 * charged once the engine is gone. Runs on the CPU backend with the field
 * set by hand (the CUDA backend sets it to 4 × 64 MiB). The memory held
 * outside the engine (czk_engine_config.outside_fixed_bytes: czkd's gRPC
 * receive buffers) is charged beside it, the same way. */
#include <string.h>

#include "czk/engine.h"
#include "czk/groth16_io.h"
#include "test.h"

static czk_engine *make(czk_backend *be, size_t budget, size_t outside, czk_err *err, char *msg, size_t msglen) {
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = budget;
    cfg.outside_fixed_bytes = outside;
    cfg.partition_workers = 1;
    cfg.gpu_workers = 1;
    cfg.threads = 2;
    cfg.faults = "";
    cfg.backend = be;
    czk_engine *e = NULL;
    *err = czk_engine_create(&e, &cfg, msg, msglen);
    return e;
}

int main(void) {
    char msg[512] = "";
    czk_backend *be = NULL;
    CHECK(czk_backend_cpu_open(&be, NULL) == CZK_OK && be->host_fixed_bytes == 0);
    if (!be) return test_finish("engine_fixed");
    const size_t fixed = (size_t)96 << 20;
    be->host_fixed_bytes = fixed;

    /* a budget smaller than the fixed part: refused, saying why */
    czk_err err;
    czk_engine *e = make(be, (size_t)64 << 20, 0, &err, msg, sizeof msg);
    CHECK_MSG(!e && err == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "fixed host memory"), "small budget: %s", msg);
    /* ... and one that holds the backend's part but not the outside part too */
    const size_t outside = (size_t)64 << 20;
    e = make(be, (size_t)128 << 20, outside, &err, msg, sizeof msg);
    CHECK_MSG(!e && err == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "daemon.receive_buffer"), "outside part: %s", msg);

    /* charged as resident, before any circuit (the outside part as well) */
    e = make(be, (size_t)512 << 20, outside, &err, msg, sizeof msg);
    CHECK_MSG(e && err == CZK_OK, "engine: %s", msg);
    if (!e) return test_finish("engine_fixed");
    czk_engine_stats st;
    czk_engine_stats_get(e, &st);
    CHECK_MSG(st.budget_resident == fixed + outside && st.budget_reserved == fixed + outside,
              "resident %zu reserved %zu, fixed %zu + outside %zu", st.budget_resident, st.budget_reserved, fixed,
              outside);

    /* a circuit and a job fit in what is left, and prove */
    czk_circuit c;
    czk_r1cs r1cs;
    czk_toxic t;
    czk_params params;
    czk_prover_key key;
    czk_toxic_from_seed(&t, 5);
    CHECK(czk_circuit_find(&c, "demo", msg, sizeof msg) == CZK_OK &&
          czk_circuit_record(&c, &r1cs, msg, sizeof msg) == CZK_OK &&
          czk_groth16_setup(&params, &r1cs, &t, czk_pool_default(), msg, sizeof msg) == CZK_OK &&
          czk_prover_key_init(&key, &r1cs, msg, sizeof msg) == CZK_OK);
    CHECK_MSG(czk_engine_register_circuit(e, &c, &params, &key, msg, sizeof msg) == CZK_OK, "register: %s", msg);
    czk_engine_stats_get(e, &st);
    CHECK(st.budget_resident > fixed + outside);
    uint64_t id = 0;
    CHECK(czk_engine_submit(e, NULL, "demo", 3, CZK_PRIO_NORMAL, &id, msg, sizeof msg) == CZK_OK);
    czk_job_result r;
    CHECK(czk_engine_await(e, id, 60000, &r) == CZK_OK && r.status == CZK_JOB_DONE);
    czk_job_result_free(&r);
    czk_engine_stats_get(e, &st);
    CHECK_MSG(st.budget_reserved == st.budget_resident, "idle: reserved %zu, resident %zu", st.budget_reserved,
              st.budget_resident);
    czk_engine_destroy(e);
    czk_backend_close(be);
    printf("engine_fixed: %zu MiB of fixed backend memory charged as resident\n", fixed >> 20);
    return test_finish("engine_fixed");
}
