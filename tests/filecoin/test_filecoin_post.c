/* The RegisteredPoStProof and RegisteredUpdateProof tables against the
 * sources' numbers (rust-filecoin-proofs-api src/registry.rs; filecoin-proofs
 * src/constants.rs WINNING_POST_*, WINDOW_POST_*; src/parameters.rs
 * winning_post_setup_params; storage-proofs-update src/constants.rs
 * partition_count, challenge_count, h_default), and every proof's cache
 * identifier equal to its circuit's file names in parameters.json (which
 * pins the circuit parameters: winning 66 sectors × 1 challenge, window
 * N sectors × 10; V1 and V1_2 Window PoSt share files). */
#include <string.h>

#include "czk/filecoin_post.h"
#include "test.h"

static void check_names(const char *circuit, const char *cid) {
    const czk_fil_params_file *f = czk_fil_params_file_find(circuit);
    CHECK_MSG(f != NULL, "%s: no files", circuit);
    if (!f) return;
    char want[300];
    snprintf(want, sizeof want, "v28-%s.params", cid);
    CHECK_MSG(strcmp(want, f->params_name) == 0, "%s: computed %s", circuit, want);
    snprintf(want, sizeof want, "v28-%s.vk", cid);
    CHECK_MSG(strcmp(want, f->vk_name) == 0, "%s: computed %s", circuit, want);
}

int main(void) {
    static const struct {
        const char *name;
        czk_fil_post_kind kind;
        uint64_t size;
        czk_fil_api api;
        uint32_t sectors, challenges;
    } POST[15] = {
        {"StackedDrgWinning2KiBV1", CZK_FIL_POST_WINNING, 2048, CZK_FIL_API_1_0, 1, 66},
        {"StackedDrgWinning8MiBV1", CZK_FIL_POST_WINNING, 8ull << 20, CZK_FIL_API_1_0, 1, 66},
        {"StackedDrgWinning512MiBV1", CZK_FIL_POST_WINNING, 512ull << 20, CZK_FIL_API_1_0, 1, 66},
        {"StackedDrgWinning32GiBV1", CZK_FIL_POST_WINNING, 32ull << 30, CZK_FIL_API_1_0, 1, 66},
        {"StackedDrgWinning64GiBV1", CZK_FIL_POST_WINNING, 64ull << 30, CZK_FIL_API_1_0, 1, 66},
        {"StackedDrgWindow2KiBV1", CZK_FIL_POST_WINDOW, 2048, CZK_FIL_API_1_0, 2, 10},
        {"StackedDrgWindow8MiBV1", CZK_FIL_POST_WINDOW, 8ull << 20, CZK_FIL_API_1_0, 2, 10},
        {"StackedDrgWindow512MiBV1", CZK_FIL_POST_WINDOW, 512ull << 20, CZK_FIL_API_1_0, 2, 10},
        {"StackedDrgWindow32GiBV1", CZK_FIL_POST_WINDOW, 32ull << 30, CZK_FIL_API_1_0, 2349, 10},
        {"StackedDrgWindow64GiBV1", CZK_FIL_POST_WINDOW, 64ull << 30, CZK_FIL_API_1_0, 2300, 10},
        {"StackedDrgWindow2KiBV1_2", CZK_FIL_POST_WINDOW, 2048, CZK_FIL_API_1_2, 2, 10},
        {"StackedDrgWindow8MiBV1_2", CZK_FIL_POST_WINDOW, 8ull << 20, CZK_FIL_API_1_2, 2, 10},
        {"StackedDrgWindow512MiBV1_2", CZK_FIL_POST_WINDOW, 512ull << 20, CZK_FIL_API_1_2, 2, 10},
        {"StackedDrgWindow32GiBV1_2", CZK_FIL_POST_WINDOW, 32ull << 30, CZK_FIL_API_1_2, 2349, 10},
        {"StackedDrgWindow64GiBV1_2", CZK_FIL_POST_WINDOW, 64ull << 30, CZK_FIL_API_1_2, 2300, 10},
    };
    CHECK(czk_fil_post_proof_count() == 15);
    for (uint64_t id = 0; id < 15; id++) {
        const czk_fil_post_proof *p = czk_fil_post_proof_get(id);
        CHECK(p != NULL);
        if (!p) continue;
        CHECK_MSG(p->id == id && strcmp(p->name, POST[id].name) == 0 && p->kind == POST[id].kind &&
                      p->sector_size == POST[id].size && p->api == POST[id].api &&
                      p->sector_count == POST[id].sectors && p->challenge_count == POST[id].challenges,
                  "%s", POST[id].name);
        CHECK(czk_fil_post_proof_by_name(POST[id].name) == p);
        char cid[200];
        CHECK(czk_fil_post_cache_id(p, cid, sizeof cid) == CZK_OK);
        check_names(p->circuit_id, cid);
        CHECK(czk_fil_post_cache_id(p, cid, 50) == CZK_ERR_INVALID_ARGUMENT);
    }
    CHECK(czk_fil_post_proof_get(15) == NULL && czk_fil_post_proof_by_name("StackedDrgWindow32GiBV1_1") == NULL);

    static const struct {
        uint64_t size;
        uint32_t partitions, challenges, h;
        int poseidon;
    } UPD[5] = {{2048, 1, 10, 1, 0},
                {8ull << 20, 4, 10, 10, 0},
                {512ull << 20, 16, 86, 10, 0},
                {32ull << 30, 16, 86, 10, 1},
                {64ull << 30, 16, 86, 10, 1}};
    CHECK(czk_fil_update_proof_count() == 5);
    for (uint64_t id = 0; id < 5; id++) {
        const czk_fil_update_proof *u = czk_fil_update_proof_get(id);
        CHECK(u != NULL);
        if (!u) continue;
        CHECK_MSG(u->sector_size == UPD[id].size && u->partitions == UPD[id].partitions &&
                      u->challenges_per_partition == UPD[id].challenges && u->h == UPD[id].h &&
                      u->api == CZK_FIL_API_1_1,
                  "%s", u->name);
        char cid[200];
        CHECK(czk_fil_update_cache_id(u, 0, cid, sizeof cid) == CZK_OK);
        check_names(u->circuit_id, cid);
        CHECK((u->circuit_id_poseidon != NULL) == UPD[id].poseidon);
        if (u->circuit_id_poseidon) {
            CHECK(czk_fil_update_cache_id(u, 1, cid, sizeof cid) == CZK_OK);
            check_names(u->circuit_id_poseidon, cid);
        }
    }
    CHECK(czk_fil_update_proof_get(5) == NULL);
    return test_finish("test_filecoin_post");
}
