/* czk — the registered PoSt and sector-update (SnapDeals) proofs: what a
 * RegisteredPoStProof or RegisteredUpdateProof number implies. Numbers and
 * names from rust-filecoin-proofs-api src/registry.rs (go-state-types abi
 * numbers them alike), counts from filecoin-proofs src/constants.rs,
 * src/parameters.rs and storage-proofs-update src/constants.rs
 * (docs/filecoin.md). The parameter files are in filecoin.h's table, under
 * the circuit ids given here. */
#ifndef CZK_FILECOIN_POST_H
#define CZK_FILECOIN_POST_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin.h"

typedef enum { CZK_FIL_POST_WINNING = 0, CZK_FIL_POST_WINDOW = 1 } czk_fil_post_kind;

typedef struct {
    uint64_t id;            /* RegisteredPoStProof number */
    const char *name;       /* "StackedDrgWindow32GiBV1_2" (Go: "…V1_1" for ids 10..14) */
    czk_fil_post_kind kind;
    uint64_t sector_size;
    czk_fil_api api;        /* 1.0, or 1.2 for ids 10..14 */
    uint32_t sector_count;  /* sectors per partition (PoStConfig.sector_count) */
    uint32_t challenge_count; /* challenges per sector (PoStConfig.challenge_count) */
    /* the circuit's public parameters (fallback::SetupParams): winning proofs
     * set sector_count 66 and challenge_count 1 (winning_post_setup_params) */
    uint32_t circuit_sector_count, circuit_challenge_count;
    uint8_t tree_base, tree_sub, tree_top;
    const char *circuit_id; /* "winning-32g", "wpost-32g" */
} czk_fil_post_proof;

size_t czk_fil_post_proof_count(void);
const czk_fil_post_proof *czk_fil_post_proof_get(uint64_t id);
const czk_fil_post_proof *czk_fil_post_proof_by_name(const char *name);
/* "proof-of-spacetime-fallback-merkletree-poseidon_hasher-B-S-T-" + hex
 * SHA-256 of "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C,
 * sector_count: N}" (storage-proofs-post fallback vanilla.rs, compound.rs). */
czk_err czk_fil_post_cache_id(const czk_fil_post_proof *p, char *out, size_t cap);

typedef struct {
    uint64_t id;           /* RegisteredUpdateProof number */
    const char *name;      /* "StackedDrg32GiBV1" */
    uint64_t sector_size;
    czk_fil_api api;       /* 1.1 for all */
    uint32_t partitions;   /* storage-proofs-update partition_count */
    uint32_t challenges_per_partition; /* challenge_count */
    uint32_t h;            /* h_default: hs(nodes)[3] */
    uint8_t tree_base, tree_sub, tree_top;
    const char *circuit_id;          /* "snap-32g" */
    const char *circuit_id_poseidon; /* "snap-poseidon-32g" (one partition of all challenges), or NULL */
} czk_fil_update_proof;

size_t czk_fil_update_proof_count(void);
const czk_fil_update_proof *czk_fil_update_proof_get(uint64_t id);
/* "empty-sector-update-merkletree-poseidon_hasher-B-S-T-" (poseidon:
 * "empty-sector-update-poseidon-…") + hex SHA-256 of
 * "empty_sector_update::PublicParams{ sector_nodes: N }". */
czk_err czk_fil_update_cache_id(const czk_fil_update_proof *p, int poseidon, char *out, size_t cap);

#endif
