/* The 32 GiB empty-sector-update partitions counted without recording them
 * (czk_r1cs_count), against storage-proofs-update's own figures
 * (tests/circuit.rs and circuit_poseidon.rs
 * test_empty_sector_update_constraints_32gib, BenchCS on the blank circuit):
 * snap-32g (16 partitions of 86 challenges, 8-8-0 TreeR) 81,049,499
 * constraints, snap-poseidon-32g (one partition of 1,376 challenges)
 * 22,305,906; 5 inputs each (ONE and PublicInputs::to_vec's four). Both
 * through the circuit provider, as `czk circuit info snap-32g` counts them.
 * About 30 s on the development machine. CZK_TEST_SCALE below 1 skips it. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/circuit_update.h"
#include "test.h"

static czk_err blank(czk_cs *cs, void *ctx) {
    const czk_circuit *c = ctx;
    return c->synthesize(cs, c, 0, 0);
}

static void count(const char *id, size_t partitions, size_t constraints) {
    czk_circuit c;
    char msg[256] = "";
    CHECK_MSG(czk_circuit_find(&c, id, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(c.partitions == partitions);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    czk_r1cs_counts k;
    czk_err e = czk_r1cs_count(&k, blank, &c, msg, sizeof msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK_MSG(e == CZK_OK, "%s: %s", id, msg);
    printf("%s: %zu constraints (expected %zu), %zu inputs, %zu aux, nnz A %llu, B %llu, C %llu, density a_aux %zu, "
           "b_input %zu, b_aux %zu; %.1f s\n",
           id, k.n_constraints, constraints, k.n_inputs, k.n_aux, (unsigned long long)k.nnz_a,
           (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c, k.a_aux_density, k.b_input_density,
           k.b_aux_density, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    CHECK_MSG(k.n_constraints == constraints, "%s: %zu constraints", id, k.n_constraints);
    CHECK_MSG(k.n_inputs == 5, "%s: %zu inputs", id, k.n_inputs);
}

int main(void) {
    const char *scale = getenv("CZK_TEST_SCALE");
    if (scale && *scale && strtod(scale, NULL) < 1) {
        printf("test_update_count_32g: skipped (CZK_TEST_SCALE < 1)\n");
        return TEST_SKIP;
    }
    count("snap-32g", 16, 81049499);
    count("snap-poseidon-32g", 1, 22305906);
    return test_finish("test_update_count_32g");
}
