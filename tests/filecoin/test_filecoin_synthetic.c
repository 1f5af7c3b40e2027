/* Synthetic PoRep challenges against the hard-coded values of rust-fil-proofs'
 * storage-proofs-porep/src/stacked/vanilla/challenges.rs
 * test_synth_challenges_against_hardcoded: sector_nodes = 2^10, replica_id =
 * Fr 55, comm_r = Fr 101, 21 synthetic challenges, 10 PoRep challenges with
 * randomness [1; 32]. Also: partition k's challenges are the slice
 * [count·k, count·k + count) of one long selection (as that file's
 * test_synth_challenges_32gib asserts), and the argument checks. */
#include <string.h>

#include "czk/filecoin.h"
#include "test.h"

int main(void) {
    uint8_t rid[32] = {55}, comm_r[32] = {101}, rand[32];
    memset(rand, 1, sizeof rand);
    static const uint64_t SYNTH[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t POREP[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    char msg[128] = "";
    for (uint32_t i = 0; i < 21; i++) {
        uint64_t c = 0;
        CHECK(czk_fil_synth_challenge(1 << 10, 21, rid, comm_r, i, &c, msg, sizeof msg) == CZK_OK);
        CHECK_MSG(c == SYNTH[i], "synthetic challenge %u: %llu, expected %llu", i, (unsigned long long)c,
                  (unsigned long long)SYNTH[i]);
    }
    uint64_t c[180];
    CHECK(czk_fil_challenges_synthetic(1 << 10, 21, rid, comm_r, rand, 0, 10, c, msg, sizeof msg) == CZK_OK);
    CHECK(memcmp(c, POREP, sizeof POREP) == 0);

    /* 32 GiB: 10 partitions of 18 are slices of one selection of 180 */
    CHECK(czk_fil_synth_count(1ull << 30) == 1u << 18 && czk_fil_synth_count(64) == 64);
    const uint32_t ns = czk_fil_synth_count(1ull << 30);
    CHECK(czk_fil_challenges_synthetic(1ull << 30, ns, rid, comm_r, rand, 0, 180, c, msg, sizeof msg) == CZK_OK);
    for (uint32_t k = 0; k < 10; k++) {
        uint64_t p[18];
        CHECK(czk_fil_challenges_synthetic(1ull << 30, ns, rid, comm_r, rand, k, 18, p, msg, sizeof msg) == CZK_OK);
        CHECK_MSG(memcmp(p, c + 18 * k, sizeof p) == 0, "partition %u", k);
        for (int i = 0; i < 18; i++) CHECK(p[i] >= 1 && p[i] < (1ull << 30));
    }

    uint64_t one;
    CHECK(czk_fil_synth_challenge(1 << 10, 21, rid, comm_r, 21, &one, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_synth_challenge(1, 21, rid, comm_r, 0, &one, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_challenges_synthetic(64, 0, rid, comm_r, rand, 0, 2, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_challenges_synthetic(64, 64, rid, comm_r, rand, UINT32_MAX, 2, c, msg, sizeof msg) ==
          CZK_ERR_INVALID_ARGUMENT);
    return test_finish("test_filecoin_synthetic");
}
