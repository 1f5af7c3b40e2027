/* czk — `czk verify --vk FILE --proof FILE --request FILE`: a request's
 * partition proofs (concatenated, as Curio receives them) checked with the
 * public inputs the verifier computes from the request's public data
 * (czk_fil_request_prepare, then czk_fil_prepared_public_inputs per
 * partition), for every kind czk_fil_prepared_public_inputs knows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"

#define MSG 1024

int cli_request_verify(const czk_fil_request *r, const char *vk_path, const uint8_t *proof, size_t len, char *msg,
                       size_t msglen) {
    czk_fil_prepared p;
    char m[MSG] = "";
    czk_err e = czk_fil_request_prepare(r, &p, m, sizeof m);
    if (e != CZK_OK) {
        snprintf(msg, msglen, "the request is refused (%s): %s", czk_err_str(e), m);
        return CLI_USAGE;
    }
    czk_vk vk;
    czk_prepared_vk pvk;
    memset(&pvk, 0, sizeof pvk);
    if (czk_vk_read(&vk, vk_path, m, sizeof m) != CZK_OK) {
        snprintf(msg, msglen, "%s", m);
        czk_fil_prepared_free(&p);
        return CLI_USAGE;
    }
    int rc = CLI_FAIL;
    czk_proof *proofs = NULL;
    czk_fr *inputs = NULL;
    size_t np = 0, n = 0;
    if (len != p.partitions * (size_t)CZK_PROOF_BYTES) {
        snprintf(msg, msglen, "the proof has %zu bytes; the request's %zu partition proofs take %zu", len, p.partitions,
                 p.partitions * (size_t)CZK_PROOF_BYTES);
        goto done;
    }
    if ((e = czk_proofs_decode(&proofs, &np, proof, len, m, sizeof m)) != CZK_OK) {
        snprintf(msg, msglen, "the proof is malformed: %s", m);
        goto done;
    }
    e = czk_fil_prepared_public_inputs(&p, 0, NULL, 0, &n, m, sizeof m);
    if (e != CZK_OK && e != CZK_ERR_BAD_LENGTH) {
        snprintf(msg, msglen, "public inputs: %s", m);
        rc = CLI_USAGE;
        goto done;
    }
    if (n + 1 != vk.n_ic) {
        snprintf(msg, msglen, "the verifying key takes %zu public inputs, the request's partitions %zu", vk.n_ic - 1, n);
        goto done;
    }
    if (!(inputs = malloc((n ? n : 1) * sizeof *inputs)) || czk_vk_prepare(&pvk, &vk) != CZK_OK) {
        snprintf(msg, msglen, "out of memory");
        rc = CLI_USAGE;
        goto done;
    }
    for (size_t k = 0; k < p.partitions; k++) {
        if ((e = czk_fil_prepared_public_inputs(&p, k, inputs, n, &n, m, sizeof m)) != CZK_OK) {
            snprintf(msg, msglen, "partition %zu's public inputs: %s", k, m);
            goto done;
        }
        if ((e = czk_verify(&pvk, &proofs[k], inputs, n)) != CZK_OK) {
            snprintf(msg, msglen, "partition %zu does not verify%s%s", k, e == CZK_ERR_PROOF_INVALID ? "" : ": ",
                     e == CZK_ERR_PROOF_INVALID ? "" : czk_err_str(e));
            goto done;
        }
    }
    rc = CLI_OK;
done:
    czk_prepared_vk_free(&pvk);
    czk_vk_free(&vk);
    free(proofs);
    free(inputs);
    czk_fil_prepared_free(&p);
    return rc;
}

int cmd_verify_request(const char *vk_path, const char *proof_path, const char *request_path) {
    czk_fil_request r;
    int rc = cli_request_load("verify", request_path, &r);
    if (rc != CLI_OK) return rc;
    char msg[MSG] = "";
    uint8_t *proof = NULL;
    size_t len = 0;
    rc = cli_read_file(proof_path, &proof, &len, (size_t)1 << 30, msg, sizeof msg);
    if (rc == CLI_OK) {
        rc = cli_request_verify(&r, vk_path, proof, len, msg, sizeof msg);
        if (rc == CLI_OK) printf("valid\n");
        if (rc == CLI_FAIL) printf("invalid\n");
    }
    if (rc != CLI_OK) fprintf(stderr, "czk verify: %s\n", msg);
    free(proof);
    czk_fil_request_free(&r);
    return rc;
}
