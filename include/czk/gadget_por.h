/* czk — proofs of retrievability and Filecoin's tree hashers, exact to
 * storage-proofs-core 19 (gadgets::por::{PoRCircuit, por_no_challenge_input})
 * and filecoin-hashers (Sha256Hasher, PoseidonHasher): the same variables,
 * constraints, order and coefficients.
 *
 * A tree has a base arity (every level of the base tree), and optionally one
 * sub-tree level and one top-tree level above it (storage-proofs' U, V, W;
 * 0 = absent; a top level needs a sub level). Arities are 2, 4 or 8. A path
 * lists the base levels leaf first, then the sub level, then the top level;
 * level l has arity_l - 1 siblings and an index in [0, arity_l). The
 * challenge (the leaf's index) is the concatenation of the indices, least
 * significant first: challenge = Σ index_l · Π_{k<l} arity_k.
 *
 * Domains: a Poseidon digest is an Fr (PoseidonDomain is its 32-byte
 * little-endian repr). A SHA-256 digest is 32 bytes whose last byte is
 * trimmed to its low 6 bits (trim_to_fr32), read as a little-endian Fr. */
#ifndef CZK_GADGET_POR_H
#define CZK_GADGET_POR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/gadget_num.h"

typedef enum { CZK_HASHER_SHA256 = 1, CZK_HASHER_POSEIDON = 2 } czk_hasher;

#define CZK_POR_MAX_ARITY 8

/* ---- native hashers (filecoin-hashers) -------------------------------------- */

/* Sha256Domain::trim_to_fr32: d[31] &= 0x3f. */
void czk_sha256_domain_trim(uint8_t d[32]);
/* From<Sha256Domain> / From<PoseidonDomain> for Fr: the 32 bytes as a
 * little-endian value; false when it is not canonical (>= r). */
bool czk_domain_to_fr(czk_fr *out, const uint8_t d[32]);
/* From<Fr> for the domains: the little-endian canonical bytes. */
void czk_domain_from_fr(uint8_t d[32], const czk_fr *v);
/* The Merkle node of n children (Algorithm::multi_node, = node for n = 2):
 * SHA-256 of the children's 32-byte domains concatenated, trimmed; or the
 * Poseidon hash of arity n (MerkleTree tag). n is 2, 4, 8 (Poseidon also
 * 11 and 16). CZK_ERR_INVALID_ARGUMENT otherwise. */
czk_err czk_hasher_node(czk_hasher h, czk_fr *out, const czk_fr *children, unsigned n);

/* ---- hasher circuits (HashFunction::hash_multi_leaf_circuit) ------------------ */

/* Poseidon: neptune's poseidon_hash of the n leaves (gadget_poseidon.h).
 * SHA-256: each leaf to 255 little-endian bits ("i_num_into_bits",
 * AllocatedNum::to_bits_le), padded with a constant false to 256, each byte's
 * bits reversed (the digest's byte stream, most significant bit first), the
 * sha256 gadget in namespace "hash", its output bits reversed per byte and
 * the first 254 packed ("pack_le", multipack::pack_bits). */
czk_err czk_hasher_multi_leaf_circuit(czk_hasher h, czk_cs *cs, czk_num *out, const czk_num *leaves, unsigned n);

/* ---- PoR ----------------------------------------------------------------------- */

typedef struct {
    czk_hasher hasher;
    unsigned base_arity; /* 2, 4 or 8 */
    unsigned sub_arity;  /* 0, 2, 4 or 8 */
    unsigned top_arity;  /* 0, 2, 4 or 8; non-zero only with a sub level */
    size_t base_levels;  /* base-tree path elements (storage-proofs' base_path_length) */
} czk_por_shape;

/* One level of a Merkle path: the challenged node's position among its
 * siblings and the arity - 1 sibling values in order. */
typedef struct {
    unsigned index;
    czk_fr siblings[CZK_POR_MAX_ARITY - 1];
} czk_por_path_elem;

/* Checks a shape; CZK_ERR_INVALID_ARGUMENT (and a message) when bad. */
czk_err czk_por_shape_check(const czk_por_shape *s, char *msg, size_t msglen);
/* Path elements (base levels + sub + top) and challenge bits of a shape. */
size_t czk_por_path_len(const czk_por_shape *s);
size_t czk_por_challenge_bits(const czk_por_shape *s);
/* The arity of path level l. */
unsigned czk_por_level_arity(const czk_por_shape *s, size_t l);
/* The number of leaves: Π arity_l. */
uint64_t czk_por_leaves(const czk_por_shape *s);

/* Native: the root that path proves for leaf (levels in path order). */
czk_err czk_por_root(czk_fr *root, const czk_por_shape *s, const czk_fr *leaf, const czk_por_path_elem *path);
/* PoRCompound::generate_public_inputs: [challenge, root (unless private)];
 * returns the count. */
size_t czk_por_public_inputs(czk_fr out[2], uint64_t challenge, const czk_fr *root, bool private_root);

/* PoRCircuit::synthesize: aux "value" = leaf; per level, in namespaces
 * "base"/"sub"/"top" then "merkle tree hash i": index bits ("index bit j",
 * AllocatedBit), siblings ("path element j"), insertion, then the hash
 * ("computation of commitment hash"); the index bits packed into public
 * inputs ("path", pack_into_inputs); aux "root_value" = root, "enforce root
 * is correct": computed · ONE = root_value; unless private_root, the root
 * inputized ("root"). leaf, path and root may be NULL (unknown values) in
 * RECORD mode only: the blank circuit. */
czk_err czk_por_circuit(czk_cs *cs, const czk_por_shape *s, const czk_fr *leaf, const czk_por_path_elem *path,
                        const czk_fr *root, bool private_root);

/* por_no_challenge_input: the caller's challenge bits (little-endian,
 * czk_por_challenge_bits of them), leaf, sibling values (flattened: level
 * l's arity_l - 1 values in path order) and root. Per level: insertion in
 * "merkle proof insert (height=h)", the hash in "merkle proof hash
 * (height=h)"; then "calculated root == provided root": computed · ONE =
 * root. No public input. */
czk_err czk_por_no_challenge_input(czk_cs *cs, const czk_por_shape *s, const czk_bit *challenge_bits,
                                   const czk_num *leaf, const czk_num *path_values, const czk_num *root);

#endif
