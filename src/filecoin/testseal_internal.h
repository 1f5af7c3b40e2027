/* czk — the test sealer's parts, internal to src/filecoin/testseal*.c:
 * partial Merkle trees (testseal_tree.c) and the labels a seal opens
 * (testseal_labels.c). See include/czk/filecoin_testseal.h. */
#ifndef CZK_FILECOIN_TESTSEAL_INTERNAL_H
#define CZK_FILECOIN_TESTSEAL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin_graph.h"
#include "czk/filecoin_vanilla.h"
#include "czk/gadget_por.h"

#define CZK_FIL_TS_MAX_LEVELS 64

/* the "arbitrary" values' tags (filecoin_testseal.h) */
#define CZK_FIL_TS_TAG_LABEL 1u
#define CZK_FIL_TS_TAG_TREE_C 2u
#define CZK_FIL_TS_TAG_TREE_R 3u

/* SHA-256("czk-testseal/<what>" ‖ LE(seed)), byte 31 &= 0x3f. */
void czk_fil_ts_derive(const char *what, uint64_t seed, uint8_t out[32]);
/* An arbitrary canonical value: SHA-256("czk-testseal/fill" ‖ LE(seed) ‖ tag
 * u32 LE ‖ a u32 LE ‖ b u64 LE), byte 31 &= 0x3f. */
void czk_fil_ts_arbitrary(uint64_t seed, uint32_t tag, uint32_t a, uint64_t b, uint8_t out[32]);

/* ---- partial Merkle trees --------------------------------------------------- */

typedef struct {
    uint64_t index;
    uint8_t v[32];
} czk_fil_ts_node;

/* The value of the node at (level, index) when no given leaf lies below it. */
typedef void (*czk_fil_ts_fill_fn)(const void *ctx, unsigned level, uint64_t index, uint8_t out[32]);

/* A Merkle tree of which only the nodes above some given leaves are held:
 * level 0 the leaves, level n_levels the root; node i of level l + 1 is the
 * hash of nodes [i·arity[l], (i + 1)·arity[l]) of level l, a child that is
 * not held taking the fill function's value. Given all leaves it is the
 * whole tree and fill is never called. */
typedef struct {
    czk_hasher hasher;
    unsigned n_levels;
    uint8_t arity[CZK_FIL_TS_MAX_LEVELS];
    czk_fil_ts_node *level[CZK_FIL_TS_MAX_LEVELS + 1]; /* sorted by index */
    size_t count[CZK_FIL_TS_MAX_LEVELS + 1];
    czk_fil_ts_fill_fn fill;
    const void *fill_ctx;
    uint64_t hashed; /* nodes hashed while building */
} czk_fil_ts_tree;

/* Builds the tree over leaves (n of them, any order; duplicates must agree
 * and are merged). Takes ownership of leaves (malloc'd) in every case.
 * Every value must be canonical Fr bytes. CZK_ERR_INVALID_ARGUMENT for an
 * empty set, an arity outside 2, 4, 8 or too many levels; CZK_ERR_MISMATCH
 * for duplicates that disagree; CZK_ERR_NO_MEMORY. On failure *t is zeroed. */
czk_err czk_fil_ts_tree_build(czk_fil_ts_tree *t, czk_hasher h, const uint8_t *arity, unsigned n_levels,
                              czk_fil_ts_node *leaves, size_t n, czk_fil_ts_fill_fn fill, const void *fill_ctx,
                              char *msg, size_t msglen);
const uint8_t *czk_fil_ts_tree_root(const czk_fil_ts_tree *t);
/* The held node (level, index), or NULL. */
const uint8_t *czk_fil_ts_tree_node(const czk_fil_ts_tree *t, unsigned level, uint64_t index);
/* The path of a given leaf (levels bottom first, siblings in order without
 * the node; filecoin_vanilla.h) and its value. CZK_ERR_NOT_FOUND for a leaf
 * that was not given, CZK_ERR_NO_MEMORY. */
czk_err czk_fil_ts_tree_path(const czk_fil_ts_tree *t, uint64_t leaf, czk_fil_path *out, uint8_t value[32]);
size_t czk_fil_ts_tree_bytes(const czk_fil_ts_tree *t);
void czk_fil_ts_tree_free(czk_fil_ts_tree *t);

/* The level arities of tree_c / tree_r_last for a proof: log_base(nodes /
 * sub / top) base levels, then the sub and top levels when present; and of
 * tree_d: log2(nodes) binary levels. Returns the number of levels. */
unsigned czk_fil_ts_shape_r(const czk_fil_seal_proof *p, uint8_t arity[CZK_FIL_TS_MAX_LEVELS]);
unsigned czk_fil_ts_shape_d(const czk_fil_seal_proof *p, uint8_t arity[CZK_FIL_TS_MAX_LEVELS]);

/* ---- labels ------------------------------------------------------------------- */

/* The columns a seal opens, as a sorted set of nodes with every layer's
 * label (rows[i · layers + l − 1] is node[i]'s label in layer l). */
typedef struct {
    uint32_t layers;
    size_t n;
    uint64_t *node;
    uint8_t (*rows)[32];
} czk_fil_ts_columns;

/* Sparse labels: the columns of the challenged nodes and of their 14
 * parents. A challenged node's label in layer l is create_label of its
 * parents' labels (DRG parents in layer l, expander parents in layer
 * l − 1), taken from these columns; every other label is arbitrary (tag
 * LABEL, a = layer, b = node). *hashed counts the create_label calls. */
czk_err czk_fil_ts_columns_sparse(czk_fil_ts_columns *out, const czk_fil_graph *g, const uint8_t replica_id[32],
                                  uint32_t layers, uint64_t seed, const uint64_t *challenged, size_t n_challenged,
                                  uint64_t *hashed, char *msg, size_t msglen);
/* The column of node, or NULL when it is not in the set. */
const uint8_t (*czk_fil_ts_columns_find(const czk_fil_ts_columns *c, uint64_t node))[32];
void czk_fil_ts_columns_free(czk_fil_ts_columns *c);

/* hash_single_column: Poseidon of arity n over the rows. */
czk_err czk_fil_ts_column_hash(const uint8_t (*rows)[32], uint32_t n, uint8_t out[32]);

#endif
