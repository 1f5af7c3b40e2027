/* czk — Filecoin's PoRep C2 circuit: storage-proofs-porep's StackedCircuit
 * (stacked/circuit/proof.rs, params.rs, create_label.rs, column.rs, hash.rs)
 * with the storage-proofs-core gadgets it calls, ported line by line so that
 * the R1CS (allocation order, constraint order, every coefficient) is the
 * one Filecoin's v28 .params files were made for. docs/porep.md lists the
 * sources and the counts that pin it.
 *
 * One partition of one sector: public inputs replica_id, comm_d, comm_r and
 * per challenge 18 more (czk/filecoin_porep.h computes them as the verifier
 * does); the circuit does not depend on the API version, the feature or
 * porep_id (they change the challenged nodes and the parents, which are
 * values, not structure). */
#ifndef CZK_CIRCUIT_POREP_H
#define CZK_CIRCUIT_POREP_H

#include <stddef.h>
#include <stdint.h>
#include "czk/circuit.h"
#include "czk/err.h"
#include "czk/filecoin.h"
#include "czk/filecoin_vanilla.h"
#include "czk/r1cs.h"

/* What the R1CS depends on. */
typedef struct {
    uint64_t nodes;      /* sector nodes: leaves of tree D (binary), tree C and tree R_last */
    uint32_t layers;     /* 2 or 11 (hash_single_column's arities) */
    uint32_t challenges; /* per partition */
    uint8_t tree_base, tree_sub, tree_top; /* tree C / R_last arities (U, V, W; 0 = none) */
} czk_porep_shape;

/* The shape of a registered seal proof (its sector size, layers,
 * challenges_per_partition and tree shape). */
void czk_porep_shape_from_proof(czk_porep_shape *out, const czk_fil_seal_proof *p);
/* CZK_ERR_INVALID_ARGUMENT (and why) unless: layers is 2 or 11; challenges
 * >= 1; base arity 2, 4 or 8, sub and top 0, 2, 4 or 8, top only with sub;
 * nodes a power of two that the tree shape divides into whole base trees
 * of at least two leaves; nodes < 2^32. */
czk_err czk_porep_shape_check(const czk_porep_shape *s, char *msg, size_t msglen);
/* Public inputs including ONE: 4 + 18 per challenge. */
size_t czk_porep_input_count(const czk_porep_shape *s);
/* Levels of the base tree of tree C / R_last (storage-proofs-core
 * merkle::base_path_length) and of tree D. */
size_t czk_porep_base_levels(const czk_porep_shape *s);
size_t czk_porep_tree_d_levels(const czk_porep_shape *s);

/* StackedCircuit::synthesize of one partition. in NULL: the blank circuit
 * (StackedCompound::blank_circuit: every value unknown; RECORD and COUNT
 * modes only). Otherwise in must hold shape->challenges challenges whose
 * paths and columns have the shape's lengths and arities, every value
 * canonical (CZK_ERR_INVALID_ARGUMENT / CZK_ERR_NOT_CANONICAL with a message
 * through czk_cs_error otherwise); CHECK mode then reports the first
 * unsatisfied constraint by its bellperson path, e.g.
 * "challenge_0/labeling_2/create_label/result_num/packing constraint". */
czk_err czk_porep_synthesize(czk_cs *cs, const czk_porep_shape *shape, const czk_fil_porep_partition *in);

/* ---- the circuit provider (src/circuits/registry.c) ----------------------- */

/* For czk_circuit_find: fills out for "porep-2k" … "porep-64g" (the circuit
 * ids of czk/filecoin.h's table) and returns true; false for other ids.
 * partitions is the interactive proofs' (1 or 10); an NI-PoRep sector has
 * more partitions of the same circuit (13 or 126): the caller sets
 * c.partitions from the job's czk_fil_seal_proof. Its synthesize gives the blank circuit
 * in RECORD and COUNT modes and fails with CZK_ERR_INVALID_ARGUMENT in the
 * others (a seed is no PoRep input); its synthesize_input is
 * czk_porep_circuit_synthesize_input. */
bool czk_porep_circuit_lookup(czk_circuit *out, const char *id);
/* The shape of a porep-* circuit; CZK_ERR_INVALID_ARGUMENT for another. */
czk_err czk_porep_circuit_shape(const czk_circuit *c, czk_porep_shape *out, char *msg, size_t msglen);
/* czk_circuit.synthesize_input of the porep-* circuits: input is the job's
 * array of c->partitions czk_fil_porep_partition (as czk_fil_c1.partitions
 * holds them); partition k (< c->partitions) is synthesized from input[k],
 * in any mode. */
czk_err czk_porep_circuit_synthesize_input(czk_cs *cs, const czk_circuit *c, size_t partition, const void *input);

#endif
