/* czk — internal: the parts of the empty-sector-update circuits
 * (src/circuits/filecoin/update*.c), each a transcription of the
 * storage-proofs-update function it names (gadgets.rs unless said). */
#ifndef CZK_UPDATE_INTERNAL_H
#define CZK_UPDATE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "czk/circuit_update.h"
#include "czk/gadget_num.h"
#include "czk/gadget_por.h"
#include "czk/poseidon.h"

#define UPDATE_FR_NUM_BITS 255 /* Fr::NUM_BITS */
#define UPDATE_FR_CAPACITY 254 /* Fr::CAPACITY */

/* Pushes the namespace printf(fmt, …); formatted only in CHECK mode (the
 * other modes never read names). */
void update_push_ns(czk_cs *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* log2 of a power of two. */
unsigned update_log2(uint64_t x);

/* constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS (arity 2, Standard,
 * HashType::Custom(CType::Arbitrary(1))). */
const czk_poseidon_constants *update_gen_randomness_constants(void);

/* neptune poseidon_hash(cs, [a, b], &POSEIDON_CONSTANTS_GEN_RANDOMNESS). */
czk_err update_hash_gen_randomness(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b);

/* AllocatedNum::alloc in namespace ns of a 32-byte domain value (bytes
 * NULL: unknown), optionally inputized in namespace input_ns; a value that
 * is not canonical fails with CZK_ERR_NOT_CANONICAL naming `what`. */
czk_err update_alloc_domain(czk_cs *cs, czk_num *out, const char *ns, const uint8_t *bytes, const char *input_ns,
                            const char *what);

/* Sha256Function::hash2_circuit (filecoin-hashers sha256.rs): a and b to
 * bits ("a_bits", "b_bits", AllocatedNum::to_bits_le), each byte reversed,
 * SHA-256 in "hash", the digest's bytes reversed and 254 bits packed in
 * "pack_le". */
czk_err update_sha256_hash2(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b);

/* allocated_num_to_allocated_bits: 255 AllocatedBits of num ("bit i") and
 * "binary decomp": (Σ 2^i·bit_i) · ONE = num. 256 constraints. */
czk_err update_num_to_allocated_bits(czk_cs *cs, czk_bit out[UPDATE_FR_NUM_BITS], const czk_num *num);

/* apex_por: the apex tree over n_apex (a power of two) leaves by SHA-256
 * hash2 ("apex_tree generation hash (tree_row=r, siblings=i)"), then
 * por_no_challenge_input over binary tree D in "partition-tree por" from its
 * root along partition_path (n_bits siblings) to comm_d. */
czk_err update_apex_por(czk_cs *cs, const czk_num *apex_leafs, size_t n_apex, const czk_bit *partition_bits,
                        size_t n_bits, const czk_num *partition_path, const czk_num *comm_d);

/* gen_challenge_bits: out[c·bits_per_challenge …] the random bits of
 * challenge c (challenges of them), from digests H(comm_r_new,
 * k·digests_per_partition + j) (each "digest_index_j", its constraint,
 * "digest_j", "digest_j_bits"). */
czk_err update_gen_challenge_bits(czk_cs *cs, czk_bit *out, const czk_num *comm_r_new, const czk_num *partition,
                                  size_t challenges, size_t bits_per_challenge);

/* get_challenge_high_bits: Σ_k h_select_bits[k] · (the hs[k] high bits of
 * c_bits packed), as "c_high (h, k)", "c_high_or_zero (h, k)" and their
 * product constraint per k, then "c_high_selected" and its dot constraint.
 * 2·CZK_UPDATE_HS + 1 constraints. */
czk_err update_challenge_high_bits(czk_cs *cs, czk_num *out, const czk_bit *c_bits, size_t bit_len,
                                   const czk_bit h_select_bits[CZK_UPDATE_HS], const uint32_t hs[CZK_UPDATE_HS]);

/* label_r_new: "label_d_new * rho" (AllocatedNum::mul), aux "label_r_new" =
 * old + product and its constraint. 2 constraints. */
czk_err update_label_r_new(czk_cs *cs, czk_num *out, const czk_num *label_r_old, const czk_num *label_d_new,
                           const czk_num *rho);

/* A TreeR-shaped PoR shape (hasher h) for s. */
void update_tree_r_por_shape(const czk_update_shape *s, czk_hasher h, czk_por_shape *out);

/* Checks a path against a tree shape: its level count and each level's
 * arity and index (CZK_ERR_INVALID_ARGUMENT through the cs, naming what). */
czk_err update_path_check(czk_cs *cs, const czk_por_shape *t, const czk_fil_path *path, const char *what,
                          size_t c_index);

/* One TreeR-shaped proof of a challenge: the siblings of path (NULL:
 * unknown) allocated as "<name> sibling (c_index=c, tree_row=r,
 * sibling_index=i)", then por_no_challenge_input in "por <tree> (c_index=c)"
 * with c_bits, leaf and root. */
czk_err update_tree_r_por(czk_cs *cs, const czk_por_shape *t, const char *name, const char *tree, size_t c_index,
                          const czk_fil_path *path, const czk_bit *c_bits, const czk_num *leaf, const czk_num *root);

/* The Rust circuit's sanity check of leaf_r_new (an assert there): when the
 * computed value is known it must equal the provided one (CZK_ERR_MISMATCH
 * through the cs otherwise). */
czk_err update_check_leaf_r_new(czk_cs *cs, const czk_num *computed, const uint8_t provided[32], size_t c_index);

#endif
