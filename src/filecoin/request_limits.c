/* czk — how many bytes a Filecoin request may carry (include/czk/
 * filecoin_request.h czk_fil_request_limits_get, czk_fil_request_check_size):
 * per kind and registered proof, from the formats' own sizes, so that
 * padding (white space and unknown fields in a C1 output, fields the kind
 * does not read) is refused before it is decoded or journalled. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "czk/filecoin_c1.h"
#include "czk/filecoin_post.h"
#include "czk/filecoin_post_input.h"
#include "czk/filecoin_request.h"
#include "czk/filecoin_update.h"

czk_err czk_fil_request_limits_get(czk_fil_kind kind, uint64_t registered_proof, czk_fil_request_limits *out,
                                   char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    switch (kind) {
    case CZK_FIL_KIND_POREP_C2: {
        const czk_fil_seal_proof *p = czk_fil_seal_proof_get(registered_proof);
        size_t c1 = p ? czk_fil_c1_json_max(p, true) : 0;
        if (!c1) break;
        out->proof_name = p->name;
        out->c1_max = c1;
        out->vanilla_proof = c1 + c1 / CZK_FIL_C1_SLACK_DIVISOR + CZK_FIL_C1_SLACK_BYTES;
        return CZK_OK;
    }
    case CZK_FIL_KIND_WINDOW_POST:
    case CZK_FIL_KIND_WINNING_POST: {
        const czk_fil_post_proof *p = czk_fil_post_proof_get(registered_proof);
        size_t each = p ? czk_fil_post_sector_proof_bytes(p) : 0;
        if (!each) break;
        out->proof_name = p->name;
        out->vanilla_proofs = p->kind == CZK_FIL_POST_WINNING ? 1 : p->sector_count;
        out->vanilla_proof_each = each;
        out->randomness = 32;
        return CZK_OK;
    }
    case CZK_FIL_KIND_SNAP: {
        const czk_fil_update_proof *p = czk_fil_update_proof_get(registered_proof);
        size_t each = p ? czk_fil_update_partition_proof_bytes(p) : 0;
        if (!each) break;
        out->proof_name = p->name;
        out->vanilla_proofs = p->partitions;
        out->vanilla_proof_each = each;
        out->comm_r_old = out->comm_r_new = out->comm_d_new = 32;
        return CZK_OK;
    }
    default:
        if (msg && msglen) snprintf(msg, msglen, "proof_kind %d is not a Filecoin proof kind", (int)kind);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (msg && msglen)
        snprintf(msg, msglen, "registered_proof %" PRIu64 " is not a registered proof of %s", registered_proof,
                 czk_fil_kind_name(kind));
    return CZK_ERR_NOT_FOUND;
}

/* A byte field: at most max bytes; max 0 means the kind does not read it. */
static czk_err check_field(const czk_fil_bytes *b, const char *field, size_t max, const czk_fil_request *r,
                           char *msg, size_t msglen) {
    if (b->len <= max) return CZK_OK;
    if (!max)
        snprintf(msg, msglen, "%s has %zu bytes; %s does not use the field (it must be empty)", field, b->len,
                 czk_fil_kind_name(r->kind));
    else
        snprintf(msg, msglen, "%s has %zu bytes; %s takes at most %zu", field, b->len, czk_fil_kind_name(r->kind), max);
    return CZK_ERR_INVALID_ARGUMENT;
}

czk_err czk_fil_request_check_size(const czk_fil_request *r, char *msg, size_t msglen) {
    czk_fil_request_limits lim;
    char m[256];
    czk_err e = czk_fil_request_limits_get(r->kind, r->registered_proof, &lim, m, sizeof m);
    if (e == CZK_ERR_NOT_FOUND) return CZK_OK; /* the decoder refuses the registered proof, before any work */
    if (e) {
        snprintf(msg, msglen, "%s", m);
        return e;
    }
    if (lim.vanilla_proof && r->vanilla_proof.len > lim.vanilla_proof) {
        snprintf(msg, msglen,
                 "vanilla_proof has %zu bytes; the C1 output of %s (registered_proof %" PRIu64
                 ") takes at most %zu (its longest encoding, enveloped, is %zu bytes; 1/%d and %d bytes more are "
                 "allowed for white space)",
                 r->vanilla_proof.len, lim.proof_name, r->registered_proof, lim.vanilla_proof, lim.c1_max,
                 CZK_FIL_C1_SLACK_DIVISOR, CZK_FIL_C1_SLACK_BYTES);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if ((e = check_field(&r->vanilla_proof, "vanilla_proof", lim.vanilla_proof, r, msg, msglen))) return e;
    if (r->n_vanilla_proofs > lim.vanilla_proofs) {
        if (!lim.vanilla_proofs)
            snprintf(msg, msglen, "vanilla_proofs has %zu entries; %s does not use the field (it must be empty)",
                     r->n_vanilla_proofs, czk_fil_kind_name(r->kind));
        else
            snprintf(msg, msglen, "vanilla_proofs has %zu entries; a %s request of %s takes at most %zu",
                     r->n_vanilla_proofs, czk_fil_kind_name(r->kind), lim.proof_name, lim.vanilla_proofs);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    const char *what = r->kind == CZK_FIL_KIND_SNAP ? "PartitionProof" : "FallbackPoStSectorProof";
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        if (r->vanilla_proofs[i].len != lim.vanilla_proof_each) {
            snprintf(msg, msglen, "vanilla_proofs[%zu] has %zu bytes; a %s of %s is exactly %zu bytes", i,
                     r->vanilla_proofs[i].len, what, lim.proof_name, lim.vanilla_proof_each);
            return CZK_ERR_INVALID_ARGUMENT;
        }
    if ((e = check_field(&r->randomness, "randomness", lim.randomness, r, msg, msglen)) ||
        (e = check_field(&r->comm_r_old, "comm_r_old", lim.comm_r_old, r, msg, msglen)) ||
        (e = check_field(&r->comm_r_new, "comm_r_new", lim.comm_r_new, r, msg, msglen)) ||
        (e = check_field(&r->comm_d_new, "comm_d_new", lim.comm_d_new, r, msg, msglen)))
        return e;
    return CZK_OK;
}
