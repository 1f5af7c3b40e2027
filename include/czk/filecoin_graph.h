/* czk — the SDR parent graph of Filecoin's stacked DRG PoRep: a bucket-sampled
 * DRG of degree 6 (storage-proofs-core drgraph.rs BucketGraph) and a Feistel
 * expander of degree 8 (storage-proofs-porep stacked/vanilla/graph.rs), both
 * keyed by porep_id. Parents are listed in the order rust-fil-proofs' parent
 * cache stores them (stacked/vanilla/cache.rs): the 6 DRG parents (in the
 * same layer), then the 8 expander parents (in the previous layer). */
#ifndef CZK_FILECOIN_GRAPH_H
#define CZK_FILECOIN_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin.h"

#define CZK_FIL_DRG_DEGREE 6
#define CZK_FIL_EXP_DEGREE 8
#define CZK_FIL_DEGREE 14
/* bytes of one node's parent cache entry: 14 little-endian u32 */
#define CZK_FIL_CACHE_ENTRY_BYTES (4 * CZK_FIL_DEGREE)

typedef struct {
    uint64_t nodes;
    czk_fil_api api;
    uint8_t drg_seed[28];     /* SHA-256("Filecoin_DRSample" ‖ porep_id)[0..28] */
    uint64_t feistel_keys[4]; /* SHA-256("Filecoin_Feistel" ‖ porep_id) as 4 u64 LE; 3 rounds use keys 0..2 */
    uint64_t left_mask, right_mask;
    unsigned half_bits;       /* the Feistel domain is 4^half_bits >= 8·nodes */
} czk_fil_graph;

/* The graph of a sector of nodes nodes (2 <= nodes < 2^32) for porep_id and
 * the API version (1.0 orders DRG parents and maps expander parents
 * differently from 1.1 and 1.2, which agree). */
czk_err czk_fil_graph_init(czk_fil_graph *g, uint64_t nodes, const uint8_t porep_id[32], czk_fil_api api,
                           char *msg, size_t msglen);
/* The 6 DRG parents of node (< nodes): nodes 0 and 1 have six 0s; otherwise
 * node − 1 is the first parent (API 1.1, 1.2) or the last (1.0). */
void czk_fil_graph_drg_parents(const czk_fil_graph *g, uint32_t node, uint32_t out[CZK_FIL_DRG_DEGREE]);
/* The 8 expander parents of node: Feistel(node·8 + i) / 8, i = 0..7. */
void czk_fil_graph_exp_parents(const czk_fil_graph *g, uint32_t node, uint32_t out[CZK_FIL_EXP_DEGREE]);
/* All 14, DRG first. */
void czk_fil_graph_parents(const czk_fil_graph *g, uint32_t node, uint32_t out[CZK_FIL_DEGREE]);
/* The parent cache entries of nodes [first, first + count): count · 56 bytes,
 * each node's 14 parents as little-endian u32. The whole cache (first 0,
 * count nodes) is the file rust-fil-proofs writes; its SHA-256 is the digest
 * storage-proofs-porep/parent_cache.json records. */
czk_err czk_fil_graph_cache_fill(const czk_fil_graph *g, uint64_t first, uint64_t count, uint8_t *out,
                                 char *msg, size_t msglen);
/* The parent cache's name in rust-fil-proofs, "v28-sdr-parent-" followed by
 * the hex SHA-256 of "poseidon_hasher" ‖ the graph's identifier string ‖ the
 * 4 Feistel keys as u64 LE ‖ nodes as u32 LE (the key of parent_cache.json;
 * the file adds ".cache"). cap >= 80. */
czk_err czk_fil_graph_cache_name(const czk_fil_graph *g, char *out, size_t cap);

/* ---- labels (storage-proofs-porep stacked/vanilla/create_label/single.rs) --- */

/* The label of node in layer (1-based) from its parents' labels, in cache
 * order: parents[0..6] the DRG parents' labels in this layer; for layer > 1
 * also parents[6..14] the expander parents' labels in layer − 1. It is
 * SHA-256(replica_id ‖ layer u32 BE ‖ node u64 BE ‖ 20 zero bytes ‖ P) with
 * byte 31 &= 0x3f, where P is nothing for node 0, the 6 DRG labels 6 times
 * then the first again in layer 1 (37 labels), and the 14 labels twice then
 * the first 9 in later layers (37 labels): 1,248 bytes hashed. */
czk_err czk_fil_label_hash(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                           const uint8_t (*parents)[32], uint8_t out[32]);
/* All labels of a sector: labels holds layers · nodes · 32 bytes, layer l
 * (1-based) at offset (l − 1) · nodes · 32. For test sectors: it takes
 * layers · nodes parent computations (2 KiB: 11 layers × 64 nodes). */
czk_err czk_fil_labels_compute(const czk_fil_graph *g, const uint8_t replica_id[32], uint32_t layers,
                               uint8_t *labels, char *msg, size_t msglen);

/* The replica's node: key (the last layer's label) + data (the sector's
 * node) in Fr, as 32 little-endian bytes (storage-proofs-porep src/encode.rs
 * encode). CZK_ERR_NOT_CANONICAL if either is not below r. */
czk_err czk_fil_encode(const uint8_t key[32], const uint8_t data[32], uint8_t out[32]);

#endif
