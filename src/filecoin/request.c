/* czk — a Filecoin proof request (include/czk/filecoin_request.h): the
 * struct itself. Preparing one for its circuit is request_prepare.c's. */
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin_request.h"

void czk_fil_request_free(czk_fil_request *r) {
    if (!r) return;
    if (!r->borrowed) {
        free(r->vanilla_proof.data);
        for (size_t i = 0; r->vanilla_proofs && i < r->n_vanilla_proofs; i++) free(r->vanilla_proofs[i].data);
        free(r->randomness.data);
        free(r->comm_r_old.data);
        free(r->comm_r_new.data);
        free(r->comm_d_new.data);
        free(r->request_id);
    }
    free(r->vanilla_proofs);
    memset(r, 0, sizeof *r);
}

size_t czk_fil_request_bytes(const czk_fil_request *r) {
    size_t n = r->vanilla_proof.len + r->randomness.len + r->comm_r_old.len + r->comm_r_new.len + r->comm_d_new.len;
    for (size_t i = 0; r->vanilla_proofs && i < r->n_vanilla_proofs; i++) n += r->vanilla_proofs[i].len;
    return n;
}

const char *czk_fil_kind_name(czk_fil_kind k) {
    switch (k) {
    case CZK_FIL_KIND_NONE: return "PROOF_KIND_UNSPECIFIED";
    case CZK_FIL_KIND_POREP_C2: return "POREP_SEAL_COMMIT";
    case CZK_FIL_KIND_SNAP: return "SNAP_DEALS_UPDATE";
    case CZK_FIL_KIND_WINDOW_POST: return "WINDOW_POST_PARTITION";
    case CZK_FIL_KIND_WINNING_POST: return "WINNING_POST";
    }
    return NULL;
}
