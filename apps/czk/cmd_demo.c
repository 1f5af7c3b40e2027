/* czk — `czk demo`: the pairing e(G1, G2), then setup, prove and verify of
 * the demo circuit, with timings. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/circuit.h"
#include "czk/fp.h"
#include "czk/groth16.h"
#include "czk/instance.h"
#include "czk/pairing.h"

static void print_fp(const char *label, const czk_fp *a) {
    uint8_t b[CZK_FP_BYTES];
    czk_fp_to_bytes_be(b, a);
    printf("  %-8s ", label);
    for (int i = 0; i < CZK_FP_BYTES; i++) printf("%02x", b[i]);
    printf("\n");
}

static void pairing_demo(void) {
    czk_fp12 e;
    czk_pairing(&e, &CZK_G1_GENERATOR, &CZK_G2_GENERATOR);
    printf("e(G1, G2) =\n");
    const czk_fp6 *half[2] = {&e.c0, &e.c1};
    for (int i = 0; i < 2; i++) {
        const czk_fp2 *f2[3] = {&half[i]->c0, &half[i]->c1, &half[i]->c2};
        for (int j = 0; j < 3; j++) {
            char label[16];
            snprintf(label, sizeof label, "c%d.c%d.c0", i, j);
            print_fp(label, &f2[j]->c0);
            snprintf(label, sizeof label, "c%d.c%d.c1", i, j);
            print_fp(label, &f2[j]->c1);
        }
    }
    int n = 0;
    double t0 = cli_now(), t;
    do {
        czk_pairing(&e, &CZK_G1_GENERATOR, &CZK_G2_GENERATOR);
        n++;
        t = cli_now() - t0;
    } while (t < 0.3);
    printf("pairing: %.3f ms (mean of %d, one thread, %s multiplication)\n", t / n * 1e3, n,
           czk_fp_get_impl() == CZK_FP_IMPL_ADX ? "mulx/adx" : "portable");
}

int cmd_demo(int argc, char **argv) {
    (void)argc;
    (void)argv;
    pairing_demo();
    char msg[1024] = "";
    czk_circuit c;
    czk_circuit_find(&c, "demo", msg, sizeof msg);
    czk_pool *pool = czk_pool_default();
    double t0 = cli_now();
    czk_r1cs r1cs;
    czk_params params;
    czk_toxic toxic;
    czk_prover_key key;
    czk_proof proof;
    czk_fr *inputs = NULL;
    size_t n = 0;
    czk_prepared_vk pvk;
    if (czk_circuit_record(&c, &r1cs, msg, sizeof msg) != CZK_OK) goto fail;
    czk_toxic_from_seed(&toxic, 1);
    if (czk_groth16_setup(&params, &r1cs, &toxic, pool, msg, sizeof msg) != CZK_OK) goto fail;
    double t1 = cli_now();
    if (czk_prover_key_init(&key, &r1cs, msg, sizeof msg) != CZK_OK) goto fail;
    if (czk_prove_instance(&proof, &inputs, &n, &params, &key, &c, 0, 42, NULL, NULL, pool, msg, sizeof msg) != CZK_OK)
        goto fail;
    double t2 = cli_now();
    if (czk_vk_prepare(&pvk, &params.vk) != CZK_OK) goto fail;
    czk_err e = czk_verify(&pvk, &proof, inputs, n);
    double t3 = cli_now();
    printf("groth16 demo circuit (x^(2^%u) = y, %zu constraints): setup %.1f ms, prove %.1f ms, verify %.1f ms: %s\n",
           c.demo_rounds, key.r1cs.n_constraints, (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3,
           e == CZK_OK ? "valid" : "INVALID");
    czk_prepared_vk_free(&pvk);
    free(inputs);
    czk_prover_key_free(&key);
    czk_params_free(&params);
    return e == CZK_OK ? CLI_OK : CLI_FAIL;
fail:
    fprintf(stderr, "czk demo: %s\n", msg);
    return CLI_FAIL;
}
