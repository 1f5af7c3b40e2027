/* The 32 GiB PoRep partition (porep-32g, 18 challenges, 11 layers, 8-8-0
 * trees) counted without recording it (czk_r1cs_count), against the
 * figures measured from bellperson's R1CS (shared/reference/filecoin):
 * 130,278,541 constraints, 328 inputs, 130,169,893 aux; non-zeros A
 * 309,405,051 (with bellperson's one entry per input row), B 130,327,340,
 * C 282,656,500; densities a_aux 129,753,292, b_input 1, b_aux 33,112,281.
 * About 35 s and 40 MB on the development machine (`czk circuit info
 * porep-32g` prints the same). CZK_TEST_SCALE below 1 skips it. */
#include <stdlib.h>
#include <time.h>

#include "czk/circuit_porep.h"
#include "test.h"

static czk_err blank(czk_cs *cs, void *ctx) {
    const czk_circuit *c = ctx;
    return c->synthesize(cs, c, 0, 0);
}

int main(void) {
    const char *scale = getenv("CZK_TEST_SCALE");
    if (scale && *scale && strtod(scale, NULL) < 1) {
        printf("test_porep_count_32g: skipped (CZK_TEST_SCALE < 1)\n");
        return TEST_SKIP;
    }
    czk_circuit c;
    char msg[256] = "";
    CHECK(czk_circuit_find(&c, "porep-32g", msg, sizeof msg) == CZK_OK);
    CHECK(c.partitions == 10);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    czk_r1cs_counts k;
    czk_err e = czk_r1cs_count(&k, blank, &c, msg, sizeof msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    printf("porep-32g: %zu constraints, %zu inputs, %zu aux, nnz A %llu (+ %zu input rows = %llu), B %llu, C %llu, "
           "density a_aux %zu, b_input %zu, b_aux %zu; %.1f s\n",
           k.n_constraints, k.n_inputs, k.n_aux, (unsigned long long)k.nnz_a, k.n_inputs,
           (unsigned long long)(k.nnz_a + k.n_inputs), (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c,
           k.a_aux_density, k.b_input_density, k.b_aux_density,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    CHECK(k.n_constraints == 130278541);
    CHECK(k.n_inputs == 328);
    CHECK(k.n_aux == 130169893);
    CHECK(k.nnz_a + k.n_inputs == 309405051);
    CHECK(k.nnz_b == 130327340);
    CHECK(k.nnz_c == 282656500);
    CHECK(k.a_aux_density == 129753292);
    CHECK(k.b_input_density == 1);
    CHECK(k.b_aux_density == 33112281);
    return test_finish("test_porep_count_32g");
}
