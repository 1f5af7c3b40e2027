/* czk — the inputs of the Fallback PoSt and empty-sector-update (SnapDeals)
 * circuits in memory: what one partition's circuit reads, as the bincode
 * vanilla proofs Curio sends carry it (storage-proofs-post fallback
 * SectorProof with filecoin-proofs' FallbackPoStSectorProof around it;
 * storage-proofs-update PartitionProof and its poseidon variant). The
 * decoders (src/filecoin/post_decode.c, update_decode.c) and the test
 * sealer fill it, the circuits (src/circuits/filecoin/post.c, update.c)
 * read it. It knows nothing of bincode nor of constraint systems.
 *
 * 32-byte values are kept as rust-fil-proofs serializes its domains (see
 * filecoin_vanilla.h): little-endian, canonical Fr; SHA-256 tree D nodes
 * have their top two bits clear. Paths are czk_fil_path (bottom level
 * first, the node's index among its siblings and the other children). */
#ifndef CZK_FILECOIN_VANILLA_POST_H
#define CZK_FILECOIN_VANILLA_POST_H

#include <stddef.h>
#include <stdint.h>
#include "czk/filecoin_vanilla.h"

/* ---- Fallback PoSt (WindowPoSt, WinningPoSt) ------------------------------ */

/* One sector: the public sector (id, comm_r) and its vanilla SectorProof
 * (comm_c, comm_r_last, one inclusion proof into tree_r_last per challenge:
 * its leaf, its path and, to be checked against comm_r_last, its root). */
typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];                   /* public */
    uint8_t comm_c[32], comm_r_last[32];  /* private */
    size_t n_challenges;
    uint64_t *challenges;                 /* malloc'd: the challenged leaf of each proof (its path's index) */
    uint8_t (*leaves)[32];                /* malloc'd, n_challenges */
    czk_fil_path *paths;                  /* malloc'd, n_challenges, each to comm_r_last */
} czk_fil_post_sector;

/* One partition of a PoSt: its real sectors in the order of the request.
 * A partition with fewer sectors than the circuit's sector count is padded
 * by repeating the last sector (FallbackPoStCompound::circuit and
 * generate_public_inputs do so); the circuit and the public inputs do that
 * padding themselves, so n_sectors counts the real ones (>= 1). */
typedef struct {
    uint64_t registered_proof;  /* RegisteredPoStProof */
    uint64_t partition_index;   /* k */
    uint8_t randomness[32];     /* the request's, as sent */
    uint8_t prover_id[32];      /* from miner_id */
    size_t n_sectors;
    czk_fil_post_sector *sectors; /* malloc'd */
} czk_fil_post_partition;

/* ---- empty sector update (SnapDeals) -------------------------------------- */

/* One challenge: the three Merkle proofs of vanilla ChallengeProof, each
 * as (leaf, path); their roots are checked against the partition's. */
typedef struct {
    uint64_t node;                 /* the challenged node (the paths' index) */
    uint8_t leaf_r_old[32], leaf_d_new[32], leaf_r_new[32];
    czk_fil_path path_r_old;       /* tree_r_old (TreeR shape), to root_r_old */
    czk_fil_path path_d_new;       /* tree_d_new: binary SHA-256 (to comm_d_new); TreeR-shaped Poseidon
                                      in the poseidon variant */
    czk_fil_path path_r_new;       /* tree_r_new, to root_r_new */
} czk_fil_update_challenge;

typedef struct {
    uint64_t registered_proof;     /* RegisteredUpdateProof */
    int poseidon;                  /* 1: storage-proofs-update's poseidon variant (one partition, no apex) */
    uint32_t k;                    /* partition index */
    uint32_t h;                    /* the h of the public inputs (h_default) */
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32]; /* public */
    uint8_t comm_c[32];            /* private: PartitionProof.comm_c */
    uint8_t root_r_old[32], root_r_new[32]; /* private: the first challenge's proof_r_old / proof_r_new roots */
    size_t n_apex;                 /* apex_leaf_count (0 in the poseidon variant) */
    uint8_t (*apex_leafs)[32];     /* malloc'd */
    size_t n_challenges;
    czk_fil_update_challenge *challenges; /* malloc'd */
} czk_fil_update_partition;

/* Free what they hold and zero them; zeroed ones are fine. */
void czk_fil_post_partition_free(czk_fil_post_partition *p);
void czk_fil_update_partition_free(czk_fil_update_partition *p);
/* Heap bytes held (for the memory budget). */
size_t czk_fil_post_partition_bytes(const czk_fil_post_partition *p);
size_t czk_fil_update_partition_bytes(const czk_fil_update_partition *p);

#endif
