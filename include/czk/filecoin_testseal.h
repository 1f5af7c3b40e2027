/* czk — a test sealer: a PoRep C1 output (SealCommitPhase1Output,
 * filecoin_c1.h) made from a seed, for fixtures and benchmarks. It is not a
 * product feature: the "sector" is pseudo-random data nobody stored.
 *
 * Full mode (2 KiB and 8 MiB): the whole SDR as rust-fil-proofs'
 * seal_pre_commit_phase1/2 and seal_commit_phase1 do it: data, labels of
 * every layer, tree_d (binary SHA-256), tree_c (Poseidon octree over the
 * column hashes), tree_r_last (Poseidon octree over the replica: last label
 * + data), comm_c, comm_r_last, comm_r = Poseidon-2(comm_c, comm_r_last),
 * replica_id, the partitions' challenges and every vanilla proof.
 *
 * Sparse mode (any size; the only way to 32/64 GiB here): only what the
 * challenges touch. The data is periodic (a pseudo-random block of
 * min(nodes, CZK_FIL_TESTSEAL_DATA_PERIOD) nodes repeated), so tree_d and
 * comm_d are real and computed from the block alone: comm_d must exist
 * before the challenges, which depend on it through replica_id. A
 * challenged node's label is create_label of its parents' labels in every
 * layer; every other label is arbitrary (a deterministic hash of seed,
 * layer and node). tree_c and tree_r_last are partial trees: the union of
 * the challenged paths, with the children of a node that no opened leaf
 * lies below filled by a deterministic hash; their roots are comm_c and
 * comm_r_last. So every path of a tree hashes to that tree's one root,
 * every label a labeling proof checks is the SHA-256 of its parents,
 * every replica leaf is the encoding of its node, and the C1 is valid for
 * the circuit, but the sector behind it does not exist.
 *
 * Derivations from the 64-bit seed X (LE = the 8 bytes little-endian; the
 * data and the ticket only when the options do not give them):
 *   ticket      = SHA-256("czk-testseal/ticket" ‖ LE(X)), byte 31 &= 0x3f
 *   seed (C1)   = SHA-256("czk-testseal/seed" ‖ LE(X)), byte 31 &= 0x3f
 *   data node i = bytes [32j, 32j + 32) of IETF ChaCha20 (key SHA-256(
 *                 "czk-testseal/data" ‖ LE(X)), nonce 0), byte 31 &= 0x3f,
 *                 j = i (full) or i mod the period (sparse)
 *   arbitrary   = SHA-256("czk-testseal/fill" ‖ LE(X) ‖ tag u32 LE ‖ a u32
 *                 LE ‖ b u64 LE), byte 31 &= 0x3f (< 2^254 < r: canonical),
 *                 tag 1 label (a = layer, b = node), 2 tree_c node, 3
 *                 tree_r_last node (a = level, b = index)
 * The prover id is the miner's (czk_fil_prover_id), the sector id the
 * sector number; replica_id, challenges and everything else follow the
 * protocol (filecoin.h, filecoin_porep.h). */
#ifndef CZK_FILECOIN_TESTSEAL_H
#define CZK_FILECOIN_TESTSEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin.h"
#include "czk/filecoin_c1.h"

/* Nodes of the data block that sparse data repeats (128 KiB). */
#define CZK_FIL_TESTSEAL_DATA_PERIOD 4096u
/* Largest sector sealed in full mode (8 MiB: 2^18 nodes). */
#define CZK_FIL_TESTSEAL_FULL_MAX_NODES (1ull << 18)

typedef struct {
    const czk_fil_seal_proof *proof; /* any registered proof; sparse needs an interactive one */
    uint64_t miner_id;               /* actor id of the miner (f0…) */
    uint64_t sector_number;
    uint64_t seed;                   /* everything random derives from it */
    bool sparse;
    /* Full mode only: the sector's data, as seal_pre_commit_phase1 reads its
     * staged file: fr32-padded bytes (every 32-byte node < 2^254: its top two
     * bits zero), zero-extended to the sector size as set_len does. NULL: from
     * the seed. data_len may be shorter than the sector, never longer. */
    const uint8_t *data;
    size_t data_len;
    /* The ticket, used as given (generate_replica_id hashes its 32 bytes
     * unmasked). NULL: from the seed. */
    const uint8_t *ticket;
} czk_fil_testseal_opts;

/* What a seal cost. */
typedef struct {
    double seconds;            /* wall clock of czk_fil_testseal */
    uint64_t labels_hashed;    /* create_label calls */
    uint64_t tree_nodes;       /* interior nodes hashed in tree_d, tree_c, tree_r_last */
    uint64_t columns;          /* columns hashed (tree_c leaves) */
    size_t peak_bytes;         /* the largest working set the sealer held at once (estimate, without the C1) */
} czk_fil_testseal_stats;

/* The ticket and interactive seed that seed X gives (as above). */
void czk_fil_testseal_ticket(uint64_t seed, uint8_t out[32]);
void czk_fil_testseal_seed(uint64_t seed, uint8_t out[32]);
/* Data node i of a sector sealed with seed X (period: the sector's nodes
 * in full mode, min(nodes, CZK_FIL_TESTSEAL_DATA_PERIOD) in sparse mode). */
void czk_fil_testseal_data(uint64_t seed, uint64_t period, uint64_t i, uint8_t out[32]);

/* Seals as above into *out (a C1 as the decoder would have produced it:
 * registered proof, shape sector size, comm_r, comm_d, replica_id, seed,
 * ticket, envelope fields SectorNum = sector_number and SectorSize; per
 * partition the circuit input and the claims). On success *out owns it all
 * (czk_fil_c1_free); on failure *out is zeroed. stats may be NULL.
 * CZK_ERR_INVALID_ARGUMENT for full mode above 8 MiB, sparse mode with a
 * synthetic or non-interactive proof (their challenges depend on comm_r,
 * which depends on what they open), data with sparse mode, data longer than
 * the sector or with a node whose top two bits are not zero (not fr32: the
 * message names the node); CZK_ERR_NO_MEMORY. Full 8 MiB:
 * 2^18 · 2 labels, 2^18 column hashes and 337,041 tree nodes; sparse
 * 32 GiB (10 partitions): about 2,000 labels, 2,600 columns and 23,000
 * tree nodes. Column hashes and tree levels of 1,024 nodes or more run on
 * czk_pool_default() (CZK_THREADS); the result does not depend on the
 * thread count. */
czk_err czk_fil_testseal(const czk_fil_testseal_opts *opts, czk_fil_c1 *out, czk_fil_testseal_stats *stats,
                         char *msg, size_t msglen);

/* Sector sizes by name: "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (also
 * plain byte counts). false for anything else. */
bool czk_fil_testseal_parse_size(const char *s, uint64_t *bytes);

#endif
