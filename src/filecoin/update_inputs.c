/* czk — SnapDeals public inputs (include/czk/filecoin_update.h): circuit.rs
 * PublicInputs::new(sector_nodes, k, h, comm_r_old, comm_d_new,
 * comm_r_new).to_vec(), h being the proof's h_default as
 * verify_empty_sector_update_proof takes it (SectorUpdateConfig.h). */
#include <stdio.h>

#include "czk/filecoin_update.h"
#include "snap_internal.h"

size_t czk_fil_update_input_count(void) { return 4; }

czk_err czk_fil_update_public_inputs(const czk_fil_update_proof *p, uint32_t k, const uint8_t comm_r_old[32],
                                     const uint8_t comm_d_new[32], const uint8_t comm_r_new[32], czk_fr *out,
                                     size_t cap, size_t *n, char *msg, size_t msglen) {
    char scratch[8];
    if (!msg || !msglen) msg = scratch, msglen = sizeof scratch;
    msg[0] = 0;
    *n = czk_fil_update_input_count();
    czk_fil_update_facts f;
    if (!p || czk_fil_update_facts_get(p->sector_size / 32, &f)) {
        snprintf(msg, msglen, "not a registered update proof of storage-proofs-update's sizes");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (k >= f.partitions) {
        snprintf(msg, msglen, "partition %u: %s has %u", k, p->name, f.partitions);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    unsigned i = 0;
    while (i < 6 && f.hs[i] != p->h) i++; /* h_select: the first position of h in hs() */
    if (i == 6) {
        snprintf(msg, msglen, "%s: h %u is none of the sector size's hs", p->name, p->h);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (cap < *n || !out) return CZK_ERR_BAD_LENGTH;
    czk_fr_from_u64(&out[0], (uint64_t)k | (uint64_t)1 << i << f.partition_bits);
    const uint8_t *comm[3] = {comm_r_old, comm_d_new, comm_r_new};
    static const char *const names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    for (int c = 0; c < 3; c++)
        if (!czk_fr_from_bytes_le(&out[1 + c], comm[c])) {
            snprintf(msg, msglen, "%s: not a canonical field element (>= r)", names[c]);
            return CZK_ERR_NOT_CANONICAL;
        }
    return CZK_OK;
}
