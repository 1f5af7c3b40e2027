/* czk — a PoSt test sealer: a WindowPoSt partition or WinningPoSt request
 * (czk_fil_request, as Curio sends it to cuzk) made from a seed, for
 * fixtures and benchmarks. Like filecoin_testseal.h it is not a product
 * feature: the sectors are pseudo-random trees nobody stored.
 *
 * Per sector: tree_r_last, a Poseidon tree of the registered proof's shape
 * (8, 8-8 or 8-8-2 arities over sector_size / 32 leaves); comm_c arbitrary;
 * comm_r = Poseidon2(comm_c, comm_r_last); the challenged leaves derived as
 * filecoin-proofs does (czk_fil_post_sector_leaf_challenges: sector at
 * position i of partition k; WinningPoSt: the one sector's 66 challenges,
 * challenge n of challenge index n) and their inclusion proofs, encoded as
 * FallbackPoStSectorProof (czk_fil_post_encode_sector_proof), one per
 * sector in the order of the sector ids. Full mode (up to
 * CZK_FIL_TESTSEAL_POST_FULL_MAX_NODES leaves: 2 KiB, 8 MiB): every leaf is
 * arbitrary and the tree whole. Sparse mode (any size, the only way to
 * 32/64 GiB here): only the challenged leaves are held; a node no
 * challenged leaf lies below is arbitrary (czk_fil_ts_tree's fill), so
 * every path hashes to the one root comm_r_last, but the sector behind it
 * does not exist.
 *
 * WinningPoSt: which of the miner's sectors is challenged is
 * generate_winning_post_sector_challenge's choice (czk_fil_post_sector_
 * challenge over the miner's sector set); the sealer takes the challenged
 * sector as given (one sector id), as cuzk-bench's gen_winning_post_vanilla
 * does with a set of one.
 *
 * Derivations from the 64-bit seed X (LE = 8 bytes little-endian):
 *   randomness  = SHA-256("czk-testseal/post-randomness" ‖ LE(X)), byte 31 &= 0x3f
 *   sector id i = the first 8 bytes LE of SHA-256("czk-testseal/post-sector" ‖
 *                 LE(X) ‖ i u32 LE), & 0xffffffff (re-drawn with i + 2^16·t
 *                 on a repeat)
 *   arbitrary   = filecoin_testseal.h's fill hash with tag 16 (leaf: a =
 *                 sector position, b = node), 17 (comm_c: a = position), 18 +
 *                 position (tree node: a = level, b = index). */
#ifndef CZK_FILECOIN_TESTSEAL_POST_H
#define CZK_FILECOIN_TESTSEAL_POST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin_post.h"
#include "czk/filecoin_request.h"

/* Largest sector built whole (8 MiB: 2^18 leaves). */
#define CZK_FIL_TESTSEAL_POST_FULL_MAX_NODES (1ull << 18)

typedef struct {
    const czk_fil_post_proof *proof; /* any registered PoSt proof */
    uint64_t miner_id;
    uint32_t partition_index;        /* WindowPoSt's k; WinningPoSt: must be 0 */
    uint64_t seed;
    const uint8_t *randomness;       /* 32 bytes used as given (not masked), or NULL: from the seed */
    size_t n_sectors;                /* WindowPoSt: 1 … sector_count (0: sector_count); WinningPoSt: 1 (0: 1) */
    const uint64_t *sector_ids;      /* n_sectors distinct ids, or NULL: from the seed */
    bool sparse;
    int threads;                     /* sectors built at once on czk_pool_default() (the caller included):
                                        1 the caller only, <= 0 every slot; the request is the same */
} czk_fil_testseal_post_opts;

typedef struct {
    czk_fil_request request;  /* owns its buffers (borrowed 0); priority 0 */
    size_t n_sectors;
    uint64_t *sector_ids;     /* malloc'd, n_sectors, in the request's order */
    uint8_t (*comm_r)[32];    /* malloc'd, n_sectors */
    uint64_t tree_nodes;      /* interior nodes hashed */
    double seconds;
} czk_fil_testseal_post_result;

/* The randomness and sector id i that seed X gives (as above). */
void czk_fil_testseal_post_randomness(uint64_t seed, uint8_t out[32]);
uint64_t czk_fil_testseal_post_sector_id(uint64_t seed, uint32_t i);

/* Builds the request as above into *out (kind CZK_FIL_KIND_WINDOW_POST or
 * CZK_FIL_KIND_WINNING_POST, registered_proof, miner_id, partition_index,
 * randomness, one vanilla proof per sector). CZK_ERR_INVALID_ARGUMENT (and
 * why) for no proof, a sector count outside the above, an id twice, a
 * WinningPoSt partition index ≠ 0, full mode above
 * CZK_FIL_TESTSEAL_POST_FULL_MAX_NODES, randomness ≥ r;
 * CZK_ERR_NO_MEMORY. On failure *out is zeroed. Full 8 MiB: 2^18 leaf
 * hashes and 37,449 Poseidon-8 nodes a sector; sparse 32 GiB WindowPoSt of
 * 2349 sectors: about 2349 · 100 tree nodes. */
czk_err czk_fil_testseal_post(const czk_fil_testseal_post_opts *opts, czk_fil_testseal_post_result *out, char *msg,
                              size_t msglen);
void czk_fil_testseal_post_free(czk_fil_testseal_post_result *t);

#endif
