/* The RegisteredSealProof table against the numbers of the sources:
 * - ids and names: rust-filecoin-proofs-api src/registry.rs REGISTERED_PROOF_IDS (go-state-types
 *   abi/sector.go numbers them alike: 0..4 V1, 5..9 V1_1, 10..14 V1_1_Feat_SyntheticPoRep,
 *   15..19 V1_2_Feat_NiPoRep)
 * - API versions: registry.rs RegisteredSealProof::version (synthetic proofs are 1.2 despite the name)
 * - sizes, layers, partitions, challenges, shapes: filecoin-proofs src/constants.rs (LAYERS,
 *   POREP_PARTITIONS, get_porep_*_minimum_challenges, get_porep_non_interactive_partitions,
 *   SectorShape*), challenges per partition as filecoin-proofs src/parameters.rs select_challenges
 * - porep_id: registry.rs porep_id(): id u64 LE ‖ nonce 0 u64 LE ‖ 16 zero bytes, written out
 *   here by hand for three proofs. */
#include <string.h>

#include "czk/filecoin.h"
#include "test.h"

typedef struct {
    uint64_t id;
    const char *name;
    uint64_t size;
    uint32_t layers, partitions, min_challenges, per_partition;
    czk_fil_api api;
    czk_fil_feature feature;
    const char *shape, *circuit;
} expect_row;

#define K2 2048ull
#define M8 8388608ull
#define M512 536870912ull
#define G32 34359738368ull
#define G64 68719476736ull
#define N CZK_FIL_FEATURE_NONE
#define S CZK_FIL_FEATURE_SYNTHETIC
#define NI CZK_FIL_FEATURE_NON_INTERACTIVE

static const expect_row ROWS[] = {
    {0, "StackedDrg2KiBV1", K2, 2, 1, 2, 2, CZK_FIL_API_1_0, N, "8-0-0", "porep-2k"},
    {1, "StackedDrg8MiBV1", M8, 2, 1, 2, 2, CZK_FIL_API_1_0, N, "8-0-0", "porep-8m"},
    {2, "StackedDrg512MiBV1", M512, 2, 1, 2, 2, CZK_FIL_API_1_0, N, "8-0-0", "porep-512m"},
    {3, "StackedDrg32GiBV1", G32, 11, 10, 176, 18, CZK_FIL_API_1_0, N, "8-8-0", "porep-32g"},
    {4, "StackedDrg64GiBV1", G64, 11, 10, 176, 18, CZK_FIL_API_1_0, N, "8-8-2", "porep-64g"},
    {5, "StackedDrg2KiBV1_1", K2, 2, 1, 2, 2, CZK_FIL_API_1_1, N, "8-0-0", "porep-2k"},
    {6, "StackedDrg8MiBV1_1", M8, 2, 1, 2, 2, CZK_FIL_API_1_1, N, "8-0-0", "porep-8m"},
    {7, "StackedDrg512MiBV1_1", M512, 2, 1, 2, 2, CZK_FIL_API_1_1, N, "8-0-0", "porep-512m"},
    {8, "StackedDrg32GiBV1_1", G32, 11, 10, 176, 18, CZK_FIL_API_1_1, N, "8-8-0", "porep-32g"},
    {9, "StackedDrg64GiBV1_1", G64, 11, 10, 176, 18, CZK_FIL_API_1_1, N, "8-8-2", "porep-64g"},
    {10, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", K2, 2, 1, 2, 2, CZK_FIL_API_1_2, S, "8-0-0", "porep-2k"},
    {11, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", M8, 2, 1, 2, 2, CZK_FIL_API_1_2, S, "8-0-0", "porep-8m"},
    {12, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", M512, 2, 1, 2, 2, CZK_FIL_API_1_2, S, "8-0-0", "porep-512m"},
    {13, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", G32, 11, 10, 176, 18, CZK_FIL_API_1_2, S, "8-8-0", "porep-32g"},
    {14, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", G64, 11, 10, 176, 18, CZK_FIL_API_1_2, S, "8-8-2", "porep-64g"},
    {15, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", K2, 2, 13, 26, 2, CZK_FIL_API_1_2, NI, "8-0-0", "porep-2k"},
    {16, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", M8, 2, 13, 26, 2, CZK_FIL_API_1_2, NI, "8-0-0", "porep-8m"},
    {17, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", M512, 2, 13, 26, 2, CZK_FIL_API_1_2, NI, "8-0-0",
     "porep-512m"},
    {18, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", G32, 11, 126, 2253, 18, CZK_FIL_API_1_2, NI, "8-8-0",
     "porep-32g"},
    {19, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", G64, 11, 126, 2253, 18, CZK_FIL_API_1_2, NI, "8-8-2",
     "porep-64g"},
};

int main(void) {
    const size_t n = sizeof ROWS / sizeof ROWS[0];
    CHECK(czk_fil_seal_proof_count() == n);
    for (size_t i = 0; i < n; i++) {
        const expect_row *e = &ROWS[i];
        const czk_fil_seal_proof *p = czk_fil_seal_proof_get(e->id);
        CHECK_MSG(p != NULL, "id %llu missing", (unsigned long long)e->id);
        if (!p) continue;
        char shape[16];
        snprintf(shape, sizeof shape, "%u-%u-%u", p->tree_base, p->tree_sub, p->tree_top);
        CHECK_MSG(p->id == e->id && strcmp(p->name, e->name) == 0, "id %llu: %s", (unsigned long long)e->id, p->name);
        CHECK_MSG(p->sector_size == e->size && p->nodes == e->size / 32, "%s: size", e->name);
        CHECK_MSG(p->layers == e->layers, "%s: layers %u", e->name, p->layers);
        CHECK_MSG(p->partitions == e->partitions, "%s: partitions %u", e->name, p->partitions);
        CHECK_MSG(p->min_challenges == e->min_challenges, "%s: challenges %u", e->name, p->min_challenges);
        CHECK_MSG(p->challenges_per_partition == e->per_partition, "%s: per partition %u", e->name,
                  p->challenges_per_partition);
        /* every partition's challenges cover the minimum, and at most 18 (MAX_CHALLENGES_PER_PARTITION) */
        CHECK(p->challenges_per_partition * p->partitions >= p->min_challenges);
        CHECK(p->challenges_per_partition <= 18);
        CHECK_MSG(p->api == e->api && p->feature == e->feature, "%s: api/feature", e->name);
        CHECK_MSG(strcmp(shape, e->shape) == 0, "%s: shape %s", e->name, shape);
        CHECK_MSG(strcmp(p->circuit_id, e->circuit) == 0, "%s: circuit %s", e->name, p->circuit_id);
        /* porep_id: the id in byte 0 (all ids < 256), everything else zero */
        uint8_t id[32], want[32] = {0};
        want[0] = (uint8_t)e->id;
        czk_fil_porep_id(p, id);
        CHECK_MSG(memcmp(id, want, 32) == 0, "%s: porep_id", e->name);
        CHECK_MSG(czk_fil_seal_proof_by_name(e->name) == p, "%s: by name", e->name);
    }
    CHECK(czk_fil_seal_proof_by_name("StackedDrg32GiBV1_2_Feat_NiPoRep") == NULL); /* Go's name, not serde's */
    CHECK(czk_fil_seal_proof_by_name("StackedDrg32GiB") == NULL);
    CHECK(czk_fil_seal_proof_by_name(NULL) == NULL);
    /* by hand: StackedDrg32GiBV1_1 = 8, StackedDrg64GiBV1_2_Feat_NonInteractivePoRep = 19,
     * StackedDrg2KiBV1 = 0 */
    static const uint8_t PID8[32] = {0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                     0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t PID19[32] = {0x13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                      0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t PID0[32] = {0};
    uint8_t id[32];
    czk_fil_porep_id(czk_fil_seal_proof_get(8), id);
    CHECK(memcmp(id, PID8, 32) == 0);
    czk_fil_porep_id(czk_fil_seal_proof_get(19), id);
    CHECK(memcmp(id, PID19, 32) == 0);
    czk_fil_porep_id(czk_fil_seal_proof_get(0), id);
    CHECK(memcmp(id, PID0, 32) == 0);

    /* unknown ids */
    CHECK(czk_fil_seal_proof_get(20) == NULL);
    CHECK(czk_fil_seal_proof_get(UINT64_MAX) == NULL);
    const czk_fil_seal_proof *p = NULL;
    char msg[128] = "";
    CHECK(czk_fil_seal_proof_find(20, &p, msg, sizeof msg) == CZK_ERR_NOT_FOUND && p == NULL && msg[0]);
    CHECK(czk_fil_seal_proof_find(13, &p, msg, sizeof msg) == CZK_OK && p && p->id == 13);
    return test_finish("test_filecoin_registered");
}
