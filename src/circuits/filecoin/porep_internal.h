/* czk — internal: the parts of the StackedCircuit (src/circuits/filecoin/),
 * each a transcription of the storage-proofs function it names. */
#ifndef CZK_POREP_INTERNAL_H
#define CZK_POREP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "czk/circuit_porep.h"
#include "czk/gadget_insert.h"
#include "czk/gadget_num.h"
#include "czk/gadget_por.h"
#include "czk/gadget_uint32.h"

/* TOTAL_PARENTS (stacked/vanilla/mod.rs): the parent slots of one label. */
#define POREP_TOTAL_PARENTS 37

/* Pushes the namespace printf(fmt, i); formatted only in CHECK mode (the
 * other modes never read names). */
void porep_push_ns_idx(czk_cs *cs, const char *fmt, long i);

/* A 32-byte domain value (little-endian, canonical) as an Fr; on failure
 * the error goes to the cs with `what` in its message. */
czk_err porep_domain_value(czk_cs *cs, czk_fr *out, const uint8_t bytes[32], const char *what);

/* The shape of a tree for PoRCircuit: SHA-256 binary tree D or the Poseidon
 * tree C / R_last of shape s. */
void porep_tree_d_shape(const czk_porep_shape *s, czk_por_shape *out);
void porep_tree_c_shape(const czk_porep_shape *s, czk_por_shape *out);

/* stacked/circuit/params.rs enforce_inclusion: PoRCircuit::synthesize with
 * the leaf and the root already allocated (Root::Var: no "value" nor
 * "root_value" aux) and private = true, in namespace ns. path NULL: the
 * blank AuthPath (unknown index bits and siblings). A path whose levels or
 * arities differ from the tree's shape fails with CZK_ERR_INVALID_ARGUMENT. */
czk_err porep_enforce_inclusion(czk_cs *cs, const char *ns, const czk_por_shape *tree, const czk_fil_path *path,
                                const czk_num *root, const czk_num *leaf);
/* The same with the leaf as Root::Val (fallback/circuit.rs Sector::synthesize):
 * first, inside ns, aux "value" (AllocatedNum "num") = *leaf (NULL: unknown,
 * RECORD and COUNT modes only); the root stays Root::Var and private. */
czk_err porep_enforce_inclusion_val(czk_cs *cs, const char *ns, const czk_por_shape *tree, const czk_fil_path *path,
                                    const czk_num *root, const czk_fr *leaf);

/* column.rs Column::alloc (in the caller's namespace): namespace "column",
 * then aux "column_num_row_i" per row (layers of them). col NULL: unknown
 * rows; otherwise col must have `layers` rows. */
czk_err porep_column_alloc(czk_cs *cs, czk_num *rows, uint32_t layers, const czk_fil_column *col);

/* hash.rs hash_single_column: neptune's poseidon_hash of arity n (2 or 11;
 * else CZK_ERR_INVALID_ARGUMENT, where rust-fil-proofs panics). */
czk_err porep_hash_single_column(czk_cs *cs, czk_num *out, const czk_num *rows, uint32_t n);

/* util.rs reverse_bit_numbering applied to AllocatedNum::to_bits_le of a:
 * the 255 little-endian bits padded with a constant false to 256, each
 * group of 8 reversed (the value's little-endian bytes, each most
 * significant bit first). 256 constraints. */
czk_err porep_num_to_bits_reversed(czk_cs *cs, czk_boolean out[256], const czk_num *a);

/* create_label.rs create_label_circuit: SHA-256 (namespace "hash") of
 * replica_id (256 bits) ‖ layer as UInt32 bits big-endian ‖ node as UInt64
 * bits big-endian ‖ zero padding to 64 bytes ‖ the 37 parents (256 bits
 * each), the digest's bits reversed per byte and the first 254 packed in
 * namespace "result_num" (multipack::pack_bits). */
czk_err porep_create_label(czk_cs *cs, czk_num *out, const czk_boolean replica_id[256],
                           const czk_boolean *const parents[POREP_TOTAL_PARENTS], uint32_t layer,
                           const czk_uint64 *node);

/* params.rs Proof::synthesize of one challenge (ch NULL: Proof::empty). */
czk_err porep_challenge_synthesize(czk_cs *cs, const czk_porep_shape *s, const czk_fil_porep_challenge *ch,
                                   const czk_num *comm_d, const czk_num *comm_c, const czk_num *comm_r_last,
                                   const czk_boolean replica_id[256]);

#endif
