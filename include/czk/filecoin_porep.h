/* czk — a PoRep partition's challenges and public inputs as the verifier
 * computes them (storage-proofs-porep stacked/circuit/proof.rs
 * StackedCompound::generate_public_inputs, stacked/vanilla/params.rs
 * PublicInputs::challenges). */
#ifndef CZK_FILECOIN_POREP_H
#define CZK_FILECOIN_POREP_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin.h"
#include "czk/fr.h"

/* What a partition's public inputs depend on. seed is the interactive
 * randomness (unused by NI-PoRep); replica_id, comm_d and comm_r are Fr in
 * little-endian form. */
typedef struct {
    const czk_fil_seal_proof *proof;
    uint8_t replica_id[32];
    uint8_t comm_d[32];
    uint8_t comm_r[32];
    uint8_t seed[32];
} czk_fil_porep_instance;

/* The challenged nodes of partition k (< partitions), challenges_per_partition
 * of them, drawn as the proof's feature says: interactive (replica_id, seed),
 * synthetic (replica_id, comm_r, seed; from min(nodes, 2^18) synthetic
 * challenges) or non-interactive (replica_id, comm_r). */
czk_err czk_fil_porep_challenges(const czk_fil_porep_instance *in, uint32_t k, uint64_t *out, char *msg,
                                 size_t msglen);

/* Public inputs of one partition, without the leading ONE: 3 + 18 per challenge. */
size_t czk_fil_porep_input_count(const czk_fil_seal_proof *p);

/* The public inputs of partition k, in order: replica_id, comm_d, comm_r,
 * then per challenge c: c (comm_d inclusion), its 6 DRG parents, its 8
 * expander parents (each an inclusion in comm_c's tree), c (the challenge),
 * c (comm_c inclusion), c (comm_r_last inclusion). An inclusion input is the
 * node index itself (storage-proofs-core gadgets/por.rs: the packed path bits).
 * CZK_ERR_NOT_CANONICAL if replica_id, comm_d or comm_r is not below r. */
czk_err czk_fil_porep_public_inputs(const czk_fil_porep_instance *in, uint32_t k, czk_fr *out, char *msg,
                                    size_t msglen);

#endif
