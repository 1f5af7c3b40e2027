/* czk — SnapDeals helpers internal to src/filecoin/update_*.c and the test
 * sealer (testseal_update.c): constants.rs by node count, the
 * gen-randomness hash on field elements, native Merkle path hashing. */
#ifndef CZK_FILECOIN_SNAP_INTERNAL_H
#define CZK_FILECOIN_SNAP_INTERNAL_H

#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin_vanilla.h"
#include "czk/fr.h"
#include "c1_hash.h"

/* storage-proofs-update constants.rs for one of ALLOWED_SECTOR_SIZES. */
typedef struct {
    uint64_t nodes;
    uint32_t partitions, challenges, apex_leaves; /* partition_count, challenge_count, apex_leaf_count */
    uint32_t hs[6];                               /* hs() */
    unsigned challenge_bits, partition_bits, apex_bits; /* their log2 (challenge_bits = log2(nodes)) */
} czk_fil_update_facts;

/* CZK_ERR_INVALID_ARGUMENT (f zeroed) for a node count outside ALLOWED_SECTOR_SIZES. */
czk_err czk_fil_update_facts_get(uint64_t nodes, czk_fil_update_facts *f);
/* Poseidon_GEN_RANDOMNESS(a, b); CZK_ERR_NO_MEMORY when its constants could not be made. */
czk_err czk_fil_update_hash2(czk_fr *out, const czk_fr *a, const czk_fr *b);
czk_err czk_fil_update_rho_fr(const czk_fr *phi, uint32_t high, czk_fr *rho);

/* Hashes leaf up path's first `levels` levels (all: path->n_levels) with
 * filecoin-hashers' node hash (c1_hash.h); out is the node reached. CZK_ERR_NOT_CANONICAL
 * when a value is >= r, CZK_ERR_INVALID_ARGUMENT for a bad arity. */
czk_err czk_fil_update_path_up(czk_fil_c1_hasher h, const uint8_t leaf[32], const czk_fil_path *path,
                               size_t levels, uint8_t out[32]);

#endif
