/* A PoRep partition's challenges and public inputs. Sources (rust-fil-proofs):
 * - storage-proofs-porep/src/stacked/circuit/proof.rs StackedCompound::generate_public_inputs
 * - storage-proofs-porep/src/stacked/vanilla/params.rs PublicInputs::challenges (k as u8)
 * - storage-proofs-core/src/gadgets/por.rs PoRCompound::generate_public_inputs (one Fr, the
 *   challenge index, per inclusion; no commitment: private PoR)
 * - filecoin-proofs src/parameters.rs select_challenges (which derivation each feature uses) */
#include <stdio.h>
#include <string.h>

#include "czk/filecoin_graph.h"
#include "czk/filecoin_porep.h"

#define FAIL(code, ...)                                          \
    do {                                                         \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__);   \
        return code;                                             \
    } while (0)

czk_err czk_fil_porep_challenges(const czk_fil_porep_instance *in, uint32_t k, uint64_t *out, char *msg,
                                 size_t msglen) {
    const czk_fil_seal_proof *p = in->proof;
    if (!p) FAIL(CZK_ERR_INVALID_ARGUMENT, "no registered proof");
    if (k >= p->partitions) FAIL(CZK_ERR_INVALID_ARGUMENT, "%s: partition %u of %u", p->name, k, p->partitions);
    const uint32_t n = p->challenges_per_partition;
    switch (p->feature) {
    case CZK_FIL_FEATURE_SYNTHETIC:
        return czk_fil_challenges_synthetic(p->nodes, czk_fil_synth_count(p->nodes), in->replica_id, in->comm_r,
                                            in->seed, k, n, out, msg, msglen);
    case CZK_FIL_FEATURE_NON_INTERACTIVE:
        return czk_fil_challenges_non_interactive(p->nodes, in->replica_id, in->comm_r, k, n, out, msg, msglen);
    default:
        return czk_fil_challenges_interactive(p->nodes, in->replica_id, in->seed, k, n, out, msg, msglen);
    }
}

size_t czk_fil_porep_input_count(const czk_fil_seal_proof *p) {
    return 3 + (size_t)(1 + CZK_FIL_DEGREE + 3) * p->challenges_per_partition;
}

czk_err czk_fil_porep_public_inputs(const czk_fil_porep_instance *in, uint32_t k, czk_fr *out, char *msg,
                                    size_t msglen) {
    const czk_fil_seal_proof *p = in->proof;
    if (!p) FAIL(CZK_ERR_INVALID_ARGUMENT, "no registered proof");
    if (!czk_fr_from_bytes_le(&out[0], in->replica_id)) FAIL(CZK_ERR_NOT_CANONICAL, "replica_id is not below r");
    if (!czk_fr_from_bytes_le(&out[1], in->comm_d)) FAIL(CZK_ERR_NOT_CANONICAL, "comm_d is not below r");
    if (!czk_fr_from_bytes_le(&out[2], in->comm_r)) FAIL(CZK_ERR_NOT_CANONICAL, "comm_r is not below r");
    uint64_t c[32];
    if (p->challenges_per_partition > sizeof c / sizeof c[0])
        FAIL(CZK_ERR_UNSUPPORTED, "%u challenges per partition", p->challenges_per_partition);
    czk_err e = czk_fil_porep_challenges(in, k, c, msg, msglen);
    if (e != CZK_OK) return e;
    uint8_t porep_id[32];
    czk_fil_porep_id(p, porep_id);
    czk_fil_graph g;
    e = czk_fil_graph_init(&g, p->nodes, porep_id, p->api, msg, msglen);
    if (e != CZK_OK) return e;
    czk_fr *o = out + 3;
    for (uint32_t i = 0; i < p->challenges_per_partition; i++) {
        uint32_t par[CZK_FIL_DEGREE];
        czk_fil_graph_parents(&g, (uint32_t)c[i], par);
        czk_fr_from_u64(o++, c[i]);
        for (int j = 0; j < CZK_FIL_DEGREE; j++) czk_fr_from_u64(o++, par[j]);
        for (int j = 0; j < 3; j++) czk_fr_from_u64(o++, c[i]);
    }
    return CZK_OK;
}
