/* The RegisteredSealProof table. Sources (rust-fil-proofs HEAD, rust-filecoin-proofs-api 19.0.0):
 * - numbers, names, versions, features: filecoin-proofs-api src/registry.rs
 *   (RegisteredSealProof, REGISTERED_PROOF_IDS, version(), as_v1_config()); go-state-types abi numbers them alike
 * - sector sizes, layers, partitions, minimum challenges, tree shapes: filecoin-proofs src/constants.rs
 *   (SECTOR_SIZE_*, LAYERS, POREP_PARTITIONS, get_porep_interactive_minimum_challenges,
 *   get_porep_non_interactive_minimum_challenges, get_porep_non_interactive_partitions, SectorShape*)
 * - challenges per partition: filecoin-proofs src/parameters.rs select_challenges (div_ceil)
 * - porep_id: filecoin-proofs-api src/registry.rs RegisteredSealProof::porep_id, nonce() = 0 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "czk/filecoin.h"

typedef struct {
    uint64_t id;
    const char *name;
    int size_class; /* 0 2K, 1 8M, 2 512M, 3 32G, 4 64G */
    czk_fil_api api;
    czk_fil_feature feature;
} row_spec;

static const row_spec SPECS[] = {
    {0, "StackedDrg2KiBV1", 0, CZK_FIL_API_1_0, CZK_FIL_FEATURE_NONE},
    {1, "StackedDrg8MiBV1", 1, CZK_FIL_API_1_0, CZK_FIL_FEATURE_NONE},
    {2, "StackedDrg512MiBV1", 2, CZK_FIL_API_1_0, CZK_FIL_FEATURE_NONE},
    {3, "StackedDrg32GiBV1", 3, CZK_FIL_API_1_0, CZK_FIL_FEATURE_NONE},
    {4, "StackedDrg64GiBV1", 4, CZK_FIL_API_1_0, CZK_FIL_FEATURE_NONE},
    {5, "StackedDrg2KiBV1_1", 0, CZK_FIL_API_1_1, CZK_FIL_FEATURE_NONE},
    {6, "StackedDrg8MiBV1_1", 1, CZK_FIL_API_1_1, CZK_FIL_FEATURE_NONE},
    {7, "StackedDrg512MiBV1_1", 2, CZK_FIL_API_1_1, CZK_FIL_FEATURE_NONE},
    {8, "StackedDrg32GiBV1_1", 3, CZK_FIL_API_1_1, CZK_FIL_FEATURE_NONE},
    {9, "StackedDrg64GiBV1_1", 4, CZK_FIL_API_1_1, CZK_FIL_FEATURE_NONE},
    /* the name says 1_1, the version is 1.2 (registry.rs notes the misnaming) */
    {10, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 0, CZK_FIL_API_1_2, CZK_FIL_FEATURE_SYNTHETIC},
    {11, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 1, CZK_FIL_API_1_2, CZK_FIL_FEATURE_SYNTHETIC},
    {12, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 2, CZK_FIL_API_1_2, CZK_FIL_FEATURE_SYNTHETIC},
    {13, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", 3, CZK_FIL_API_1_2, CZK_FIL_FEATURE_SYNTHETIC},
    {14, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", 4, CZK_FIL_API_1_2, CZK_FIL_FEATURE_SYNTHETIC},
    {15, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 0, CZK_FIL_API_1_2, CZK_FIL_FEATURE_NON_INTERACTIVE},
    {16, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 1, CZK_FIL_API_1_2, CZK_FIL_FEATURE_NON_INTERACTIVE},
    {17, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 2, CZK_FIL_API_1_2, CZK_FIL_FEATURE_NON_INTERACTIVE},
    {18, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 3, CZK_FIL_API_1_2, CZK_FIL_FEATURE_NON_INTERACTIVE},
    {19, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 4, CZK_FIL_API_1_2, CZK_FIL_FEATURE_NON_INTERACTIVE},
};
#define NPROOFS (sizeof SPECS / sizeof SPECS[0])

/* per size class: constants.rs */
typedef struct {
    uint64_t size;
    uint32_t layers;
    uint32_t partitions, min_challenges;       /* POREP_PARTITIONS, interactive minimum */
    uint32_t ni_partitions, ni_min_challenges; /* NI-PoRep */
    uint8_t base, sub, top;                    /* SectorShape2KiB … SectorShape64GiB */
    const char *circuit;
} size_class;

static const size_class CLASSES[5] = {
    {2048ull, 2, 1, 2, 13, 26, 8, 0, 0, "porep-2k"},
    {8ull << 20, 2, 1, 2, 13, 26, 8, 0, 0, "porep-8m"},
    {512ull << 20, 2, 1, 2, 13, 26, 8, 0, 0, "porep-512m"},
    {32ull << 30, 11, 10, 176, 126, 2253, 8, 8, 0, "porep-32g"},
    {64ull << 30, 11, 10, 176, 126, 2253, 8, 8, 2, "porep-64g"},
};

static czk_fil_seal_proof TABLE[NPROOFS];
static int table_ready;

static void table_build(void) {
    for (size_t i = 0; i < NPROOFS; i++) {
        const row_spec *s = &SPECS[i];
        const size_class *c = &CLASSES[s->size_class];
        czk_fil_seal_proof *p = &TABLE[i];
        p->id = s->id;
        p->name = s->name;
        p->sector_size = c->size;
        p->nodes = c->size / 32;
        p->layers = c->layers;
        const int ni = s->feature == CZK_FIL_FEATURE_NON_INTERACTIVE;
        p->partitions = ni ? c->ni_partitions : c->partitions;
        p->min_challenges = ni ? c->ni_min_challenges : c->min_challenges;
        p->challenges_per_partition = (p->min_challenges + p->partitions - 1) / p->partitions;
        p->api = s->api;
        p->feature = s->feature;
        p->tree_base = c->base;
        p->tree_sub = c->sub;
        p->tree_top = c->top;
        p->circuit_id = c->circuit;
    }
}

/* built once, on first use, from the constant data above */
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static void table_init(void) {
    table_build();
    table_ready = 1;
}

size_t czk_fil_seal_proof_count(void) { return NPROOFS; }

const czk_fil_seal_proof *czk_fil_seal_proof_get(uint64_t id) {
    pthread_once(&table_once, table_init);
    if (!table_ready || id >= NPROOFS) return NULL;
    return &TABLE[id];
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
