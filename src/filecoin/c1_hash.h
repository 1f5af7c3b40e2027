/* czk — the native hashes a C1's vanilla proofs are checked with, internal
 * to src/filecoin/ (c1_validate.c, c1_claims.c): filecoin-hashers' node
 * hashing, storage-proofs-porep's column hash, create_label and encode. */
#ifndef CZK_FILECOIN_C1_HASH_H
#define CZK_FILECOIN_C1_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin_vanilla.h"

typedef enum { CZK_FIL_C1_SHA256, CZK_FIL_C1_POSEIDON } czk_fil_c1_hasher;

/* The root levels [first, first + count) of path reach from leaf:
 * at each level the node is put among the siblings at its index and the
 * arity children hashed: SHA-256 of their bytes with the top two bits of the
 * digest cleared (Sha256Function, trim_to_fr32), or Poseidon of arity
 * children (PoseidonFunction::multi_node). CZK_ERR_NOT_CANONICAL with
 * *bad_level and *bad_sibling (-1: the leaf) for a Poseidon input >= r;
 * CZK_ERR_INVALID_ARGUMENT for an unsupported arity. */
czk_err czk_fil_c1_path_root(czk_fil_c1_hasher h, const czk_fil_path *path, size_t first, size_t count,
                             const uint8_t leaf[32], uint8_t out[32], size_t *bad_level, int *bad_sibling);
/* hash_single_column: Poseidon (arity n) of the rows as Fr. CZK_ERR_NOT_CANONICAL
 * with *bad_row, CZK_ERR_INVALID_ARGUMENT for an arity Poseidon lacks. */
czk_err czk_fil_c1_column_hash(const uint8_t (*rows)[32], size_t n, uint8_t out[32], size_t *bad_row);
/* create_label of the challenge's node at layer (1-based) from its parent
 * columns: SHA-256(replica_id ‖ layer u32 BE ‖ node u64 BE ‖ 20 zero bytes ‖
 * the 37 parents (czk_fil_c1_label_parent)), top two bits cleared. The
 * columns must hold >= layer rows. false if libcrypto fails. */
bool czk_fil_c1_label(const uint8_t replica_id[32], const czk_fil_porep_challenge *c, size_t layer, uint8_t out[32]);
/* encode(key, value) = key + value in Fr; false if either is not canonical. */
bool czk_fil_c1_encode_node(const uint8_t key[32], const uint8_t value[32], uint8_t out[32]);

#endif
