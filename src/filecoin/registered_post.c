/* The RegisteredPoStProof and RegisteredUpdateProof tables. Sources:
 * - rust-filecoin-proofs-api src/registry.rs: RegisteredPoStProof (version, sector_size, typ,
 *   sector_count, as_v1_config), RegisteredUpdateProof (version 1.1)
 * - filecoin-proofs src/constants.rs: WINNING_POST_CHALLENGE_COUNT = 66, WINNING_POST_SECTOR_COUNT = 1,
 *   WINDOW_POST_CHALLENGE_COUNT = 10, WINDOW_POST_SECTOR_COUNT (2, or 2349 for 32 GiB, 2300 for 64 GiB)
 * - filecoin-proofs src/parameters.rs winning_post_setup_params (66 sectors of 1 challenge)
 * - storage-proofs-update src/constants.rs partition_count, challenge_count, hs, h_default (sizes there
 *   are in nodes); filecoin-proofs src/types/sector_update_config.rs (which the proofs use; registry.rs
 *   RegisteredUpdateProof::partitions returns POREP_PARTITIONS instead)
 * - cache identifiers: storage-proofs-post src/fallback/{vanilla,compound}.rs, storage-proofs-update
 *   src/{vanilla,compound}.rs, storage-proofs-core parameter_cache.rs */
#include <stdio.h>
#include <string.h>

#include "czk/filecoin_post.h"
#include "prim.h"

#define K2 2048ull, 8, 0, 0
#define M8 (8ull << 20), 8, 0, 0
#define M512 (512ull << 20), 8, 0, 0
#define G32 (32ull << 30), 8, 8, 0
#define G64 (64ull << 30), 8, 8, 2

#define POST_(ID, NAME, KIND, API, SC, CC, CSC, CCC, SIZE, B, S, T, CIRCUIT)                                       \
    {.id = ID, .name = NAME, .kind = KIND, .sector_size = SIZE, .api = API, .sector_count = SC, .challenge_count = CC, \
     .circuit_sector_count = CSC, .circuit_challenge_count = CCC, .tree_base = B, .tree_sub = S, .tree_top = T,     \
     .circuit_id = CIRCUIT}
#define POST(...) POST_(__VA_ARGS__)
#define WIN CZK_FIL_POST_WINNING, CZK_FIL_API_1_0, 1, 66, 66, 1
#define WDW(N) CZK_FIL_POST_WINDOW, CZK_FIL_API_1_0, N, 10, N, 10
#define WDW12(N) CZK_FIL_POST_WINDOW, CZK_FIL_API_1_2, N, 10, N, 10

static const czk_fil_post_proof POST_TABLE[] = {
    POST(0, "StackedDrgWinning2KiBV1", WIN, K2, "winning-2k"),
    POST(1, "StackedDrgWinning8MiBV1", WIN, M8, "winning-8m"),
    POST(2, "StackedDrgWinning512MiBV1", WIN, M512, "winning-512m"),
    POST(3, "StackedDrgWinning32GiBV1", WIN, G32, "winning-32g"),
    POST(4, "StackedDrgWinning64GiBV1", WIN, G64, "winning-64g"),
    POST(5, "StackedDrgWindow2KiBV1", WDW(2), K2, "wpost-2k"),
    POST(6, "StackedDrgWindow8MiBV1", WDW(2), M8, "wpost-8m"),
    POST(7, "StackedDrgWindow512MiBV1", WDW(2), M512, "wpost-512m"),
    POST(8, "StackedDrgWindow32GiBV1", WDW(2349), G32, "wpost-32g"),
    POST(9, "StackedDrgWindow64GiBV1", WDW(2300), G64, "wpost-64g"),
    POST(10, "StackedDrgWindow2KiBV1_2", WDW12(2), K2, "wpost-2k"),
    POST(11, "StackedDrgWindow8MiBV1_2", WDW12(2), M8, "wpost-8m"),
    POST(12, "StackedDrgWindow512MiBV1_2", WDW12(2), M512, "wpost-512m"),
    POST(13, "StackedDrgWindow32GiBV1_2", WDW12(2349), G32, "wpost-32g"),
    POST(14, "StackedDrgWindow64GiBV1_2", WDW12(2300), G64, "wpost-64g"),
};
#define NPOST (sizeof POST_TABLE / sizeof POST_TABLE[0])

#define UPD_(ID, NAME, PARTS, CHAL, H, SIZE, B, S, T, CIRCUIT, CIRCUIT_P)                                        \
    {.id = ID, .name = NAME, .sector_size = SIZE, .api = CZK_FIL_API_1_1, .partitions = PARTS,                    \
     .challenges_per_partition = CHAL, .h = H, .tree_base = B, .tree_sub = S, .tree_top = T, .circuit_id = CIRCUIT, \
     .circuit_id_poseidon = CIRCUIT_P}
#define UPD(...) UPD_(__VA_ARGS__)

static const czk_fil_update_proof UPDATE_TABLE[] = {
    UPD(0, "StackedDrg2KiBV1", 1, 10, 1, K2, "snap-2k", NULL),
    UPD(1, "StackedDrg8MiBV1", 4, 10, 10, M8, "snap-8m", NULL),
    UPD(2, "StackedDrg512MiBV1", 16, 86, 10, M512, "snap-512m", NULL),
    UPD(3, "StackedDrg32GiBV1", 16, 86, 10, G32, "snap-32g", "snap-poseidon-32g"),
    UPD(4, "StackedDrg64GiBV1", 16, 86, 10, G64, "snap-64g", "snap-poseidon-64g"),
};
#define NUPDATE (sizeof UPDATE_TABLE / sizeof UPDATE_TABLE[0])

size_t czk_fil_post_proof_count(void) { return NPOST; }

const czk_fil_post_proof *czk_fil_post_proof_get(uint64_t id) { return id < NPOST ? &POST_TABLE[id] : NULL; }

const czk_fil_post_proof *czk_fil_post_proof_by_name(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < NPOST; i++)
        if (strcmp(POST_TABLE[i].name, name) == 0) return &POST_TABLE[i];
    return NULL;
}

size_t czk_fil_update_proof_count(void) { return NUPDATE; }

const czk_fil_update_proof *czk_fil_update_proof_get(uint64_t id) { return id < NUPDATE ? &UPDATE_TABLE[id] : NULL; }

/* prefix ‖ "merkletree-poseidon_hasher-B-S-T-" ‖ hex SHA-256(ident) */
static czk_err cache_id(const char *prefix, uint8_t b, uint8_t s, uint8_t t, const char *ident, int identlen,
                        char *out, size_t cap) {
    if (identlen < 0) return CZK_ERR_INVALID_ARGUMENT;
    uint8_t h[32];
    const void *p[1] = {ident};
    const size_t l[1] = {(size_t)identlen};
    if (!czk_fil_sha256(p, l, 1, h)) return CZK_ERR_NO_MEMORY;
    int n = snprintf(out, cap, "%s-merkletree-poseidon_hasher-%u-%u-%u-", prefix, b, s, t);
    if (n < 0 || (size_t)n + 65 > cap) return CZK_ERR_INVALID_ARGUMENT;
    for (int i = 0; i < 32; i++) n += snprintf(out + n, cap - (size_t)n, "%02x", h[i]);
    return CZK_OK;
}

czk_err czk_fil_post_cache_id(const czk_fil_post_proof *p, char *out, size_t cap) {
    char ident[160];
    const int n = snprintf(ident, sizeof ident,
                           "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, sector_count: %u}",
                           (unsigned long long)p->sector_size, p->circuit_challenge_count, p->circuit_sector_count);
    return cache_id("proof-of-spacetime-fallback", p->tree_base, p->tree_sub, p->tree_top, ident, n, out, cap);
}

czk_err czk_fil_update_cache_id(const czk_fil_update_proof *p, int poseidon, char *out, size_t cap) {
    char ident[96];
    const int n = snprintf(ident, sizeof ident, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
                           (unsigned long long)(p->sector_size / 32));
    return cache_id(poseidon ? "empty-sector-update-poseidon" : "empty-sector-update", p->tree_base, p->tree_sub,
                    p->tree_top, ident, n, out, cap);
}
