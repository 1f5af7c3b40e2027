/* czk — a PoRep C2 input in memory: what one partition of the StackedCircuit
 * (storage-proofs-porep stacked/circuit/) needs, as the C1 output
 * (SealCommitPhase1Output) carries it in its vanilla proofs. The C1 decoder
 * fills it, the test sealer makes it, the circuit (src/circuits/filecoin/)
 * reads it. It knows nothing of JSON nor of constraint systems.
 *
 * Every 32-byte value is kept as the bytes rust-fil-proofs serializes: a
 * Poseidon domain element (tree_c, tree_r_last, comm_c, comm_r_last, comm_r,
 * replica_id, column rows) is a canonical Fr in little-endian; a SHA-256
 * domain element (tree_d, comm_d, data leaves) is 32 bytes whose top two bits
 * are zero (fr32), read as a little-endian Fr too.
 *
 * Merkle paths run from the leaf's level up to the root's children: level 0
 * is the base tree's bottom. A level holds the position of the node among
 * its siblings (index in [0, arity)) and the arity - 1 other children, in
 * their order with the node left out (storage-proofs-core merkle::proof
 * PathElement / AuthPath). Leaf and root are not part of a path. */
#ifndef CZK_FILECOIN_VANILLA_H
#define CZK_FILECOIN_VANILLA_H

#include <stddef.h>
#include <stdint.h>

#define CZK_FIL_MAX_ARITY 8   /* octrees; tree_d is binary */
#define CZK_FIL_DRG_PARENTS 6 /* base graph degree (BASE_DEGREE) */
#define CZK_FIL_EXP_PARENTS 8 /* expander degree (EXP_DEGREE) */

typedef struct {
    uint8_t arity;                               /* 2, 4 or 8 */
    uint8_t index;                               /* the node's position, < arity */
    uint8_t siblings[CZK_FIL_MAX_ARITY - 1][32]; /* arity - 1 used */
} czk_fil_path_level;

typedef struct {
    size_t n_levels;
    czk_fil_path_level *levels; /* malloc'd, n_levels entries, bottom first */
} czk_fil_path;

/* One column of tree_c: the node's label in every layer (rows[l] is layer
 * l + 1), and its path to comm_c. */
typedef struct {
    uint32_t index;      /* the node */
    size_t n_rows;       /* layers */
    uint8_t (*rows)[32]; /* malloc'd */
    czk_fil_path path;   /* to comm_c (leaf: the column's Poseidon hash) */
} czk_fil_column;

/* One challenge of a partition (stacked/circuit/params.rs Proof, from the
 * vanilla proof's comm_d_proofs, comm_r_last_proof, replica_column_proofs
 * and labeling_proofs[0].node). */
typedef struct {
    uint64_t node;                /* the challenged node */
    uint8_t data_leaf[32];        /* tree_d's leaf at node */
    czk_fil_path comm_d_path;     /* binary, to comm_d */
    czk_fil_path comm_r_last_path; /* to comm_r_last (leaf: the encoded node) */
    czk_fil_path comm_c_path;     /* c_x's path, to comm_c (leaf: its column hash) */
    czk_fil_column drg_parents[CZK_FIL_DRG_PARENTS];
    czk_fil_column exp_parents[CZK_FIL_EXP_PARENTS];
} czk_fil_porep_challenge;

/* One partition's circuit input: its public values, its private roots and
 * its challenges in the order of the vanilla proofs. */
typedef struct {
    uint8_t replica_id[32], comm_d[32], comm_r[32]; /* public */
    uint8_t comm_c[32], comm_r_last[32];            /* private (c_x's and comm_r_last_proof's roots) */
    size_t n_challenges;
    czk_fil_porep_challenge *challenges; /* malloc'd */
} czk_fil_porep_partition;

/* Frees what a partition holds (its paths, columns and challenges) and
 * zeroes it; a zeroed partition is fine. */
void czk_fil_porep_partition_free(czk_fil_porep_partition *p);
/* Bytes a partition holds on the heap (for the memory budget). */
size_t czk_fil_porep_partition_bytes(const czk_fil_porep_partition *p);

#endif
