/* czk — a request file sent to czkd (czk submit/prove --request): every
 * SubmitProofRequest field the file holds. */
#include <stdlib.h>
#include <string.h>

#include "client.h"

int client_request_load(const char *cmd, const char *path, client_request *out, Cuzk__V1__SubmitProofRequest *rq) {
    memset(out, 0, sizeof *out);
    int rc = cli_request_load(cmd, path, &out->req);
    if (rc != CLI_OK) return rc;
    const czk_fil_request *r = &out->req;
    if (r->n_vanilla_proofs && !(out->bins = calloc(r->n_vanilla_proofs, sizeof *out->bins))) {
        fprintf(stderr, "czk %s: out of memory\n", cmd);
        client_request_free(out);
        return CLI_FAIL;
    }
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        out->bins[i].data = r->vanilla_proofs[i].data;
        out->bins[i].len = r->vanilla_proofs[i].len;
    }
    rq->request_id = r->request_id ? r->request_id : (char *)"";
    rq->proof_kind = (Cuzk__V1__ProofKind)r->kind;
    rq->sector_size = r->sector_size;
    rq->registered_proof = r->registered_proof;
    rq->priority = (Cuzk__V1__Priority)r->priority;
    rq->vanilla_proof.data = r->vanilla_proof.data;
    rq->vanilla_proof.len = r->vanilla_proof.len;
    rq->n_vanilla_proofs = r->n_vanilla_proofs;
    rq->vanilla_proofs = out->bins;
    rq->sector_number = r->sector_number;
    rq->miner_id = r->miner_id;
    rq->randomness.data = r->randomness.data;
    rq->randomness.len = r->randomness.len;
    rq->partition_index = r->partition_index;
    rq->comm_r_old.data = r->comm_r_old.data;
    rq->comm_r_old.len = r->comm_r_old.len;
    rq->comm_r_new.data = r->comm_r_new.data;
    rq->comm_r_new.len = r->comm_r_new.len;
    rq->comm_d_new.data = r->comm_d_new.data;
    rq->comm_d_new.len = r->comm_d_new.len;
    out->loaded = true;
    return CLI_OK;
}

void client_request_free(client_request *c) {
    free(c->bins);
    czk_fil_request_free(&c->req);
    memset(c, 0, sizeof *c);
}
