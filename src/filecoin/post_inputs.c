/* czk — a PoSt partition's public inputs as the verifier computes them
 * (filecoin_post_input.h). Sources: storage-proofs-post src/fallback/
 * compound.rs FallbackPoStCompound::generate_public_inputs (per sector
 * comm_r, then per challenge PoRCompound's inputs: with a private root, the
 * challenged leaf's index alone; the last sector's inputs repeated up to
 * sector_count), filecoin-proofs src/api/window_post.rs verify_window_post
 * (partition k of the sectors in order), winning_post.rs verify_winning_post
 * (the one sector listed sector_count = 66 times). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "czk/filecoin_post_input.h"

size_t czk_fil_post_input_count(const czk_fil_post_proof *p) {
    return p ? (size_t)p->circuit_sector_count * (1 + (size_t)p->circuit_challenge_count) : 0;
}

czk_err czk_fil_post_public_inputs(const czk_fil_post_proof *p, const czk_fil_post_partition *part, czk_fr *out,
                                   size_t cap, size_t *n, char *msg, size_t msglen) {
    if (msg && msglen) msg[0] = 0;
    const size_t count = czk_fil_post_input_count(p);
    if (n) *n = count;
    if (!p || !part) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "no proof or partition");
    if (cap < count || !out)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "%s: %zu public inputs, room for %zu", p->name, count,
                           cap);
    if (part->registered_proof != p->id)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT,
                           "registered_proof: the partition's is %" PRIu64 ", not %s's", part->registered_proof,
                           p->name);
    if (part->n_sectors == 0 || part->n_sectors > p->circuit_sector_count || !part->sectors)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "%zu sectors, a %s partition holds 1 to %" PRIu32,
                           part->n_sectors, p->name, p->circuit_sector_count);
    const bool winning = p->kind == CZK_FIL_POST_WINNING;
    if (winning && part->partition_index != 0)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT,
                           "partition_index: %" PRIu64 ", WinningPoSt has only 0", part->partition_index);
    czk_fr t;
    if (!czk_fr_from_bytes_le(&t, part->randomness))
        return czk_err_msg(msg, msglen, CZK_ERR_NOT_CANONICAL, "randomness: not below the field modulus r");
    /* verify_winning_post lists its one sector sector_count times: each
     * copy is a public sector of its own (its own sector index) */
    const size_t listed = winning && part->n_sectors == 1 ? p->circuit_sector_count : part->n_sectors;
    const size_t per = 1 + p->circuit_challenge_count;
    uint64_t ch[66];
    if (p->circuit_challenge_count > sizeof ch / sizeof *ch)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "%s: too many challenges", p->name);
    for (size_t i = 0; i < listed; i++) {
        const czk_fil_post_sector *s = &part->sectors[i < part->n_sectors ? i : part->n_sectors - 1];
        czk_fr *o = out + i * per;
        if (!czk_fr_from_bytes_le(&o[0], s->comm_r))
            return czk_err_msg(msg, msglen, CZK_ERR_NOT_CANONICAL, "sectors[%zu].comm_r: not below the field modulus r",
                               i < part->n_sectors ? i : part->n_sectors - 1);
        czk_err e = czk_fil_post_sector_leaf_challenges(p, part->randomness, s->sector_id, part->partition_index, i, ch);
        if (e) return czk_err_msg(msg, msglen, e, "sectors[%zu]: cannot derive the challenges (%s)", i, czk_err_str(e));
        for (uint32_t c = 0; c < p->circuit_challenge_count; c++) czk_fr_from_u64(&o[1 + c], ch[c]);
    }
    /* the compound's padding: the last listed sector's inputs verbatim */
    for (size_t i = listed; i < p->circuit_sector_count; i++) memcpy(out + i * per, out + (listed - 1) * per, per * sizeof *out);
    return CZK_OK;
}
