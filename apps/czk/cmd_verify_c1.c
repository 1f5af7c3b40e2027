/* czk — `czk verify --vk FILE --proof FILE --c1 FILE`: a PoRep C2 proof
 * (the partition proofs concatenated, as Curio receives them) checked with
 * the public inputs computed from the C1 output as rust-fil-proofs'
 * verify_seal computes them (replica_id, comm_d, comm_r, and per challenge
 * the challenged node and its parents, drawn from replica_id and the seed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/filecoin_c1.h"
#include "czk/filecoin_porep.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"

#define MSG 1024

static czk_err read_file(const char *path, uint8_t **out, size_t *len, char *msg, size_t msglen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "cannot open %s", path);
        return CZK_ERR_IO;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    while (b) {
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    bool err = ferror(f);
    fclose(f);
    if (!b || err) {
        free(b);
        snprintf(msg, msglen, "%s: %s", path, b ? "read error" : "out of memory");
        return b ? CZK_ERR_IO : CZK_ERR_NO_MEMORY;
    }
    *out = b;
    *len = n;
    return CZK_OK;
}

/* 0 valid, 1 invalid, 2 unusable arguments or files. */
int cmd_verify_c1(const char *vk_path, const char *proof_path, const char *c1_path) {
    char msg[MSG] = "";
    int rc = CLI_USAGE;
    czk_vk vk;
    czk_prepared_vk pvk;
    czk_fil_c1 c1;
    uint8_t *raw = NULL;
    size_t raw_len = 0, np = 0;
    czk_proof *proofs = NULL;
    czk_fr *inputs = NULL;
    memset(&pvk, 0, sizeof pvk);
    memset(&c1, 0, sizeof c1);
    if (czk_vk_read(&vk, vk_path, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk verify: %s\n", msg);
        return CLI_USAGE;
    }
    if (read_file(c1_path, &raw, &raw_len, msg, sizeof msg) != CZK_OK ||
        czk_fil_c1_decode(&c1, raw, raw_len, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk verify: %s: %s\n", c1_path, msg);
        goto done;
    }
    czk_err e = czk_proofs_read(&proofs, &np, proof_path, msg, sizeof msg);
    if (e == CZK_ERR_IO) {
        fprintf(stderr, "czk verify: %s\n", msg);
        goto done;
    }
    rc = CLI_FAIL;
    if (e != CZK_OK) {
        printf("invalid\n");
        fprintf(stderr, "czk verify: the proof is malformed: %s\n", msg);
        goto done;
    }
    const czk_fil_seal_proof *p = c1.proof;
    if (np != p->partitions) {
        printf("invalid\n");
        fprintf(stderr, "czk verify: %s holds %zu partition proofs; %s has %u partitions\n", proof_path, np, p->name,
                p->partitions);
        goto done;
    }
    size_t n_in = czk_fil_porep_input_count(p);
    if (n_in + 1 != vk.n_ic) {
        printf("invalid\n");
        fprintf(stderr, "czk verify: the verifying key takes %zu public inputs, %s's partition %zu\n", vk.n_ic - 1,
                p->name, n_in);
        goto done;
    }
    czk_fil_porep_instance in;
    memset(&in, 0, sizeof in);
    in.proof = p;
    memcpy(in.replica_id, c1.replica_id, 32);
    memcpy(in.comm_d, c1.comm_d, 32);
    memcpy(in.comm_r, c1.comm_r, 32);
    memcpy(in.seed, c1.seed, 32);
    if (!(inputs = malloc(n_in * sizeof *inputs)) || (e = czk_vk_prepare(&pvk, &vk)) != CZK_OK) {
        fprintf(stderr, "czk verify: out of memory\n");
        rc = CLI_USAGE;
        goto done;
    }
    for (uint32_t k = 0; k < p->partitions; k++) {
        if ((e = czk_fil_porep_public_inputs(&in, k, inputs, msg, sizeof msg)) != CZK_OK) {
            printf("invalid\n");
            fprintf(stderr, "czk verify: partition %u: %s\n", k, msg);
            goto done;
        }
        if ((e = czk_verify(&pvk, &proofs[k], inputs, n_in)) != CZK_OK) {
            printf("invalid\n");
            fprintf(stderr, "czk verify: partition %u does not verify%s%s\n", k,
                    e == CZK_ERR_PROOF_INVALID ? "" : ": ", e == CZK_ERR_PROOF_INVALID ? "" : czk_err_str(e));
            goto done;
        }
    }
    printf("valid\n");
    rc = CLI_OK;
done:
    czk_prepared_vk_free(&pvk);
    czk_fil_c1_free(&c1);
    free(raw);
    free(proofs);
    free(inputs);
    czk_vk_free(&vk);
    return rc;
}
