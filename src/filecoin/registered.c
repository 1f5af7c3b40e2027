/* The RegisteredSealProof table. Sources (rust-fil-proofs HEAD, rust-filecoin-proofs-api 19.0.0):
 * - numbers, names, versions, features: filecoin-proofs-api src/registry.rs
 *   (RegisteredSealProof, REGISTERED_PROOF_IDS, version(), as_v1_config()); go-state-types abi numbers them alike
 * - sector sizes, layers, partitions, minimum challenges, tree shapes: filecoin-proofs src/constants.rs
 *   (SECTOR_SIZE_*, LAYERS, POREP_PARTITIONS, get_porep_interactive_minimum_challenges,
 *   get_porep_non_interactive_minimum_challenges, get_porep_non_interactive_partitions, SectorShape*)
 * - challenges per partition: filecoin-proofs src/parameters.rs select_challenges (div_ceil)
 * - porep_id: filecoin-proofs-api src/registry.rs RegisteredSealProof::porep_id, nonce() = 0 */
#include <stdio.h>
#include <string.h>

#include "czk/filecoin.h"

/* per sector size (constants.rs): bytes, LAYERS; POREP_PARTITIONS and the interactive minimum
 * challenges (I); get_porep_non_interactive_partitions and the NI minimum challenges (NI); the
 * SectorShape's arities and czk's circuit */
#define K2_I 2048ull, 2, 1, 2
#define K2_NI 2048ull, 2, 13, 26
#define K2_SHAPE 8, 0, 0, "porep-2k"
#define M8_I (8ull << 20), 2, 1, 2
#define M8_NI (8ull << 20), 2, 13, 26
#define M8_SHAPE 8, 0, 0, "porep-8m"
#define M512_I (512ull << 20), 2, 1, 2
#define M512_NI (512ull << 20), 2, 13, 26
#define M512_SHAPE 8, 0, 0, "porep-512m"
#define G32_I (32ull << 30), 11, 10, 176
#define G32_NI (32ull << 30), 11, 126, 2253
#define G32_SHAPE 8, 8, 0, "porep-32g"
#define G64_I (64ull << 30), 11, 10, 176
#define G64_NI (64ull << 30), 11, 126, 2253
#define G64_SHAPE 8, 8, 2, "porep-64g"

#define ROW_(ID, NAME, SIZE, LAYERS, PARTS, MINCH, API, FEAT, B, S, T, CIRCUIT)                              \
    {.id = ID, .name = NAME, .sector_size = SIZE, .nodes = (SIZE) / 32, .layers = LAYERS, .partitions = PARTS, \
     .min_challenges = MINCH, .challenges_per_partition = ((MINCH) + (PARTS) - 1) / (PARTS), .api = API,      \
     .feature = FEAT, .tree_base = B, .tree_sub = S, .tree_top = T, .circuit_id = CIRCUIT}
#define ROW(...) ROW_(__VA_ARGS__)

#define V10 CZK_FIL_API_1_0, CZK_FIL_FEATURE_NONE
#define V11 CZK_FIL_API_1_1, CZK_FIL_FEATURE_NONE
/* the name says 1_1, the version is 1.2 (registry.rs notes the misnaming) */
#define SYN CZK_FIL_API_1_2, CZK_FIL_FEATURE_SYNTHETIC
#define NIP CZK_FIL_API_1_2, CZK_FIL_FEATURE_NON_INTERACTIVE

static const czk_fil_seal_proof TABLE[] = {
    ROW(0, "StackedDrg2KiBV1", K2_I, V10, K2_SHAPE),
    ROW(1, "StackedDrg8MiBV1", M8_I, V10, M8_SHAPE),
    ROW(2, "StackedDrg512MiBV1", M512_I, V10, M512_SHAPE),
    ROW(3, "StackedDrg32GiBV1", G32_I, V10, G32_SHAPE),
    ROW(4, "StackedDrg64GiBV1", G64_I, V10, G64_SHAPE),
    ROW(5, "StackedDrg2KiBV1_1", K2_I, V11, K2_SHAPE),
    ROW(6, "StackedDrg8MiBV1_1", M8_I, V11, M8_SHAPE),
    ROW(7, "StackedDrg512MiBV1_1", M512_I, V11, M512_SHAPE),
    ROW(8, "StackedDrg32GiBV1_1", G32_I, V11, G32_SHAPE),
    ROW(9, "StackedDrg64GiBV1_1", G64_I, V11, G64_SHAPE),
    ROW(10, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", K2_I, SYN, K2_SHAPE),
    ROW(11, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", M8_I, SYN, M8_SHAPE),
    ROW(12, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", M512_I, SYN, M512_SHAPE),
    ROW(13, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", G32_I, SYN, G32_SHAPE),
    ROW(14, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", G64_I, SYN, G64_SHAPE),
    ROW(15, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", K2_NI, NIP, K2_SHAPE),
    ROW(16, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", M8_NI, NIP, M8_SHAPE),
    ROW(17, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", M512_NI, NIP, M512_SHAPE),
    ROW(18, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", G32_NI, NIP, G32_SHAPE),
    ROW(19, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", G64_NI, NIP, G64_SHAPE),
};
#define NPROOFS (sizeof TABLE / sizeof TABLE[0])

size_t czk_fil_seal_proof_count(void) { return NPROOFS; }

const czk_fil_seal_proof *czk_fil_seal_proof_get(uint64_t id) {
    return id < NPROOFS ? &TABLE[id] : NULL;
}

const czk_fil_seal_proof *czk_fil_seal_proof_by_name(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < NPROOFS; i++)
        if (strcmp(TABLE[i].name, name) == 0) return &TABLE[i];
    return NULL;
}

czk_err czk_fil_seal_proof_find(uint64_t id, const czk_fil_seal_proof **out, char *msg, size_t msglen) {
    const czk_fil_seal_proof *p = czk_fil_seal_proof_get(id);
    if (!p) {
        if (msg && msglen)
            snprintf(msg, msglen, "unknown registered seal proof %llu (known: 0..%zu)", (unsigned long long)id,
                     NPROOFS - 1);
        return CZK_ERR_NOT_FOUND;
    }
    *out = p;
    return CZK_OK;
}

void czk_fil_porep_id(const czk_fil_seal_proof *p, uint8_t out[32]) {
    const uint64_t nonce = 0;
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)(p->id >> (8 * i));
        out[8 + i] = (uint8_t)(nonce >> (8 * i));
    }
}
