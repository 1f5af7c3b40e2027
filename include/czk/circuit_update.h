/* czk — Filecoin's empty-sector-update (SnapDeals) circuits: storage-proofs-
 * update's EmptySectorUpdateCircuit (src/circuit.rs, gadgets.rs,
 * constants.rs: tree D a binary SHA-256 tree, one partition per
 * partition_count slice of the sector) and its Poseidon variant
 * (src/poseidon/circuit.rs: tree D TreeR-shaped Poseidon, one partition of
 * all challenges, no apex tree), ported line by line so that the R1CS
 * (allocation order, constraint order, every coefficient) is the one
 * Filecoin's v28 update .params files were made for.
 *
 * Public inputs (ONE excluded, PublicInputs::to_vec): k_and_h_select (the
 * Poseidon variant: h_select), comm_r_old, comm_d_new, comm_r_new. The
 * constants.rs facts below are functions of the sector's node count (2^5 …
 * 2^31: the test sizes 1 KiB … 32 KiB, 8 MiB, 16 MiB, 512 MiB and the
 * published 32 GiB and 64 GiB). */
#ifndef CZK_CIRCUIT_UPDATE_H
#define CZK_CIRCUIT_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/circuit.h"
#include "czk/err.h"
#include "czk/filecoin_vanilla_post.h"
#include "czk/r1cs.h"

#define CZK_UPDATE_HS 6 /* hs(): the h values a circuit can select */

/* What the R1CS depends on: the sector's nodes, the TreeR shape (TreeROld,
 * TreeRNew and, in the Poseidon variant, TreeDNew) and the variant. */
typedef struct {
    uint64_t nodes;
    uint8_t tree_base, tree_sub, tree_top; /* U, V, W; 0 = none */
    bool poseidon;
} czk_update_shape;

/* ---- constants.rs (nodes: one of ALLOWED_SECTOR_SIZES, else 0 / false) ---- */

/* true for the 11 node counts of ALLOWED_SECTOR_SIZES. */
bool czk_update_nodes_allowed(uint64_t nodes);
/* partition_count: 1 up to 8 KiB, 2 up to 32 KiB, 4 up to 16 MiB, else 16. */
uint32_t czk_update_partition_count(uint64_t nodes);
/* challenge_count: per partition, 10 up to 16 MiB, else 86. */
uint32_t czk_update_challenge_count(uint64_t nodes);
/* challenge_count_poseidon: challenge_count · partition_count. */
uint32_t czk_update_challenge_count_poseidon(uint64_t nodes);
/* apex_leaf_count: 8 up to 8 KiB, else 128. */
uint32_t czk_update_apex_leaf_count(uint64_t nodes);
/* hs: [1; 6] up to 32 KiB, else [7 … 12]. */
void czk_update_hs(uint64_t nodes, uint32_t out[CZK_UPDATE_HS]);
/* h_default: hs[3]. */
uint32_t czk_update_h_default(uint64_t nodes);
/* h_select: 2^i for the first i with hs[i] == h; CZK_ERR_INVALID_ARGUMENT
 * when h is none of them (rust-fil-proofs panics). */
czk_err czk_update_h_select(uint64_t nodes, uint32_t h, uint64_t *out);
/* validate_tree_r_shape's table: the (base, sub, top) arities of TreeR for
 * the size; false for another size. */
bool czk_update_tree_r_arities(uint64_t nodes, uint8_t *base, uint8_t *sub, uint8_t *top);

/* The shape for a node count (the table's TreeR); CZK_ERR_INVALID_ARGUMENT
 * for a size outside ALLOWED_SECTOR_SIZES. */
czk_err czk_update_shape_for_nodes(czk_update_shape *out, uint64_t nodes, bool poseidon);
/* CZK_ERR_INVALID_ARGUMENT (and why) unless nodes is allowed and the
 * arities are validate_tree_r_shape's. */
czk_err czk_update_shape_check(const czk_update_shape *s, char *msg, size_t msglen);
/* Public inputs including ONE: 5 in both variants. */
size_t czk_update_input_count(const czk_update_shape *s);
/* Challenges per partition proof: challenge_count, or challenge_count_poseidon. */
uint32_t czk_update_shape_challenges(const czk_update_shape *s);
/* Path levels of TreeR (storage-proofs-core base levels + sub + top). */
size_t czk_update_tree_r_levels(const czk_update_shape *s);

/* EmptySectorUpdateCircuit::synthesize (s->poseidon false) or the Poseidon
 * variant's (s->poseidon true; czk_update_poseidon_synthesize). in NULL:
 * the blank circuit (PublicInputs::empty, PrivateInputs::empty; RECORD and
 * COUNT modes only). Otherwise in's k and h give k_and_h_select (h_select);
 * its paths must have the shape's levels and arities (tree D: binary,
 * log2(nodes) levels; Poseidon: TreeR's), n_challenges the shape's, n_apex
 * apex_leaf_count (0 for Poseidon), every challenge's top partition_bit_len
 * tree-D siblings equal to the first challenge's (the partition path), every
 * value canonical, and every leaf_r_new the encoding label_r_old +
 * leaf_d_new · rho the circuit computes (rust-fil-proofs asserts it):
 * CZK_ERR_INVALID_ARGUMENT / CZK_ERR_NOT_CANONICAL / CZK_ERR_MISMATCH with a
 * message through czk_cs_error otherwise. CHECK mode then reports the first
 * unsatisfied constraint by its bellperson path, e.g. "por tree_r_old
 * (c_index=3)/calculated root == provided root". */
czk_err czk_update_synthesize(czk_cs *cs, const czk_update_shape *s, const czk_fil_update_partition *in);
czk_err czk_update_poseidon_synthesize(czk_cs *cs, const czk_update_shape *s, const czk_fil_update_partition *in);

/* ---- the circuit provider (src/circuits/registry.c) ----------------------- */

/* For czk_circuit_find: "snap-2k" … "snap-64g" (partitions: the registered
 * proof's) and "snap-poseidon-32g", "snap-poseidon-64g" (one partition), the
 * ids of czk/filecoin_post.h's table; false for other ids. synthesize gives
 * the blank circuit in RECORD and COUNT modes; synthesize_input is
 * czk_update_circuit_synthesize_input. */
bool czk_update_circuit_lookup(czk_circuit *out, const char *id);
/* The shape of a snap-* circuit; CZK_ERR_INVALID_ARGUMENT for another. */
czk_err czk_update_circuit_shape(const czk_circuit *c, czk_update_shape *out, char *msg, size_t msglen);
/* synthesize_input of the snap-* circuits: input is the job's array of
 * c->partitions czk_fil_update_partition; partition k is input[k]. */
czk_err czk_update_circuit_synthesize_input(czk_cs *cs, const czk_circuit *c, size_t partition, const void *input);

#endif
