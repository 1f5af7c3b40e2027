/* czk — a SnapDeals test sealer: an empty sector update made from a seed,
 * as the SNAP_DEALS_UPDATE request Curio would send for it (a
 * czk_fil_request of kind CZK_FIL_KIND_SNAP with one bincode PartitionProof
 * per partition, filecoin_update.h). For fixtures and benchmarks: the
 * sectors are pseudo-random data nobody stored.
 *
 * The old sector: a replica (tree_r_old's leaves) of arbitrary canonical
 * values and an arbitrary comm_c; comm_r_old = Poseidon-2(comm_c,
 * root_r_old). The new data: fr32 nodes; tree_d_new the binary SHA-256 tree
 * over them, comm_d_new its root. The encoding (vanilla.rs encode_into):
 * phi = phi(comm_d_new, comm_r_old), new replica node i = old node i + data
 * node i · rho(phi, i >> (log2(nodes) − h)), h the proof's h_default;
 * tree_r_new over it (TreeR's shape), comm_r_new = Poseidon-2(comm_c,
 * root_r_new). Then per partition k the challenges Challenges::new(nodes,
 * comm_r_new, k), their three Merkle proofs and the partition's apex leaves
 * (tree D's nodes k·apex_leaf_count … at the apex leaves' level), as
 * EmptySectorUpdate::prove_inner makes them.
 *
 * Full mode (up to 8 MiB): every node is its own. Sparse mode (any size; the
 * only way to 32/64 GiB here): the sector is periodic, old replica and data
 * repeating every CZK_FIL_TESTSEAL_UPDATE_PERIOD nodes, so every tree is the
 * real tree of a real (periodic) sector, computed from the distinct nodes
 * of each level alone: below the period, one per position and rho region;
 * above it, one per rho region; above a region, each node. The challenges
 * depend on comm_r_new, so a partial tree over the challenged leaves alone
 * cannot be made (its root would depend on which leaves it holds); a
 * periodic sector has no such loop. Sparse 32 GiB: about 14,000 Poseidon-8
 * (tree_r_new: 1,024 rho regions) and 2,600 SHA-256 node hashes.
 *
 * Derivations from the 64-bit seed X (LE = 8 bytes little-endian; P the
 * period: the sector's nodes in full mode):
 *   comm_c        = SHA-256("czk-testseal/update-comm_c" ‖ LE(X)), byte 31 &= 0x3f
 *   old node i    = czk_fil_ts_arbitrary(X, tag 4, 0, i mod P)
 *                   (SHA-256("czk-testseal/fill" ‖ LE(X) ‖ 4 ‖ 0 ‖ i mod P), byte 31 &= 0x3f)
 *   data node i   = czk_fil_testseal_data(X, P, i) (filecoin_testseal.h) */
#ifndef CZK_FILECOIN_TESTSEAL_UPDATE_H
#define CZK_FILECOIN_TESTSEAL_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin_post.h"
#include "czk/filecoin_request.h"

/* Nodes after which a sparse sector repeats (2 KiB). */
#define CZK_FIL_TESTSEAL_UPDATE_PERIOD 64u
/* Largest sector sealed in full mode (8 MiB). */
#define CZK_FIL_TESTSEAL_UPDATE_FULL_MAX_NODES (1ull << 18)

typedef struct {
    const czk_fil_update_proof *proof; /* any registered update proof */
    uint64_t seed;
    bool sparse;
    /* The h the replica is encoded with (encode_into's h; 0: the proof's
     * h_default). Another one (1 … log2(nodes)) makes a sector whose vanilla
     * proofs fail the encoding check wherever the high bits differ: for tests. */
    uint32_t h;
} czk_fil_testseal_update_opts;

/* What the sealer made besides the request. */
typedef struct {
    uint8_t comm_c[32], root_r_old[32], root_r_new[32];
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    uint8_t phi[32];
    uint64_t period;     /* nodes after which the sector repeats (full mode: all of them) */
    uint64_t hashed;     /* tree nodes hashed (three trees) */
    double seconds;
} czk_fil_testseal_update_info;

/* Old node i of a sector sealed with seed X and period P (as above). */
void czk_fil_testseal_update_old(uint64_t seed, uint64_t period, uint64_t i, uint8_t out[32]);

/* Seals as above into *out (kind CZK_FIL_KIND_SNAP, registered_proof the
 * proof's id, comm_r_old / comm_r_new / comm_d_new, one vanilla proof per
 * partition; *out owns it all, czk_fil_request_free). info may be NULL.
 * CZK_ERR_INVALID_ARGUMENT for full mode above 8 MiB or a proof outside
 * storage-proofs-update's sizes; CZK_ERR_NO_MEMORY. On failure *out is
 * zeroed. */
czk_err czk_fil_testseal_update(const czk_fil_testseal_update_opts *o, czk_fil_request *out,
                                czk_fil_testseal_update_info *info, char *msg, size_t msglen);

#endif
