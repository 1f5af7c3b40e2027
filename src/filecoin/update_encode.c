/* czk — a SnapDeals PartitionProof in bincode (include/czk/filecoin_update.h),
 * as bincode::serialize writes it: for fixtures and the test sealer. */
#include <stdlib.h>

#include "bincode.h"
#include "czk/filecoin_update.h"
#include "snap_internal.h"

czk_err czk_fil_update_encode_partition(const czk_fil_update_proof *p, const czk_fil_update_partition *part,
                                        czk_fil_bytes *out) {
    out->data = NULL;
    out->len = 0;
    czk_fil_update_facts f;
    czk_bc_tree_shape r;
    if (!p || !part || czk_fil_update_facts_get(p->sector_size / 32, &f) ||
        czk_bc_tree_shape_r(f.nodes, p->tree_base, p->tree_sub, p->tree_top, &r) ||
        (part->n_apex && !part->apex_leafs) || (part->n_challenges && !part->challenges))
        return CZK_ERR_INVALID_ARGUMENT;
    const czk_bc_tree_shape d = {.kind = CZK_BC_SHA256, .base_arity = 2, .base_levels = f.challenge_bits};
    czk_bc_writer w = {0};
    czk_bc_w_bytes(&w, part->comm_c, 32);
    czk_bc_w_u64(&w, part->n_apex);
    for (size_t i = 0; i < part->n_apex; i++) czk_bc_w_bytes(&w, part->apex_leafs[i], 32);
    czk_bc_w_u64(&w, part->n_challenges);
    czk_err e = CZK_OK;
    for (size_t c = 0; c < part->n_challenges && !e; c++) {
        const czk_fil_update_challenge *ch = &part->challenges[c];
        e = czk_bc_merkle_write(&w, &r, ch->leaf_r_old, part->root_r_old, &ch->path_r_old);
        if (!e) e = czk_bc_merkle_write(&w, &d, ch->leaf_d_new, part->comm_d_new, &ch->path_d_new);
        if (!e) e = czk_bc_merkle_write(&w, &r, ch->leaf_r_new, part->root_r_new, &ch->path_r_new);
    }
    if (e) {
        czk_bc_writer_free(&w);
        return e;
    }
    return czk_bc_writer_take(&w, &out->data, &out->len);
}

size_t czk_fil_update_partition_proof_bytes(const czk_fil_update_proof *p) {
    czk_fil_update_facts f;
    czk_bc_tree_shape r;
    if (!p || czk_fil_update_facts_get(p->sector_size / 32, &f) ||
        czk_bc_tree_shape_r(f.nodes, p->tree_base, p->tree_sub, p->tree_top, &r))
        return 0;
    const czk_bc_tree_shape d = {.kind = CZK_BC_SHA256, .base_arity = 2, .base_levels = f.challenge_bits};
    /* comm_c, apex_leafs (length, leaves), challenge_proofs (length, three MerkleProofs each) */
    return 32 + 8 + (size_t)f.apex_leaves * 32 + 8 + (size_t)f.challenges * (2 * czk_bc_merkle_bytes(&r) + czk_bc_merkle_bytes(&d));
}
