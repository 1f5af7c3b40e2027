/* czk — a Filecoin proof request (include/czk/filecoin_request.h). */
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin_request.h"

void czk_fil_request_free(czk_fil_request *r) {
    if (!r) return;
    free(r->vanilla_proof.data);
    for (size_t i = 0; r->vanilla_proofs && i < r->n_vanilla_proofs; i++) free(r->vanilla_proofs[i].data);
    free(r->vanilla_proofs);
    free(r->randomness.data);
    free(r->comm_r_old.data);
    free(r->comm_r_new.data);
    free(r->comm_d_new.data);
    memset(r, 0, sizeof *r);
}
