/* Prover id, replica id and challenges on values derived by hand from the
 * sources' definitions and computed with Python (hashlib.sha256, int.from_bytes
 * little-endian, % (nodes − 1) + 1):
 * - prover id: the unsigned LEB128 of the miner id (go-address ID payload) in 32 bytes
 * - replica id: stacked/vanilla/params.rs generate_replica_id with prover id of miner 1000,
 *   sector 42 (and 43), ticket = 0..31, comm_d = 32..63, porep_id of StackedDrg32GiBV1_1;
 *   the raw hash of sector 42 ends in 0xab, of 43 in 0xf0: both lose their top two bits
 * - challenges: stacked/vanilla/challenges.rs InteractiveChallenges::derive (seed = 255..224)
 *   and NiChallenges::derive (comm_r = 7·i mod 256), 32 GiB and 2 KiB. */
#include <string.h>

#include "czk/filecoin.h"
#include "test.h"

static void hex32(const char *h, uint8_t out[32]) { CHECK(test_hex_decode(out, 32, h) == 32); }

int main(void) {
    /* LEB128 */
    static const struct {
        uint64_t id;
        int len;
        uint8_t b[10];
    } LEB[] = {
        {0, 1, {0x00}},
        {127, 1, {0x7f}},
        {128, 2, {0x80, 0x01}},
        {1000, 2, {0xe8, 0x07}},
        {UINT64_MAX, 10, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
    };
    for (size_t i = 0; i < sizeof LEB / sizeof LEB[0]; i++) {
        uint8_t out[32], want[32] = {0};
        memcpy(want, LEB[i].b, (size_t)LEB[i].len);
        czk_fil_prover_id(LEB[i].id, out);
        CHECK_MSG(memcmp(out, want, 32) == 0, "prover id of %llu", (unsigned long long)LEB[i].id);
    }

    uint8_t prover[32], ticket[32], comm_d[32], porep[32], rid[32], want[32];
    czk_fil_prover_id(1000, prover);
    for (int i = 0; i < 32; i++) {
        ticket[i] = (uint8_t)i;
        comm_d[i] = (uint8_t)(32 + i);
    }
    czk_fil_porep_id(czk_fil_seal_proof_get(8), porep);
    CHECK(czk_fil_replica_id(prover, 43, ticket, comm_d, porep, rid) == CZK_OK);
    hex32("da3fffd39dca98b35e56bc27d7ea7ebe24b511e89f30aad59d6c366b72e42230", want);
    CHECK(memcmp(rid, want, 32) == 0);
    CHECK(czk_fil_replica_id(prover, 42, ticket, comm_d, porep, rid) == CZK_OK);
    hex32("7ead9fd4d3635f27a9931441dbb4483e7c39629123280f010f3bef595c182b2b", want);
    CHECK(memcmp(rid, want, 32) == 0);

    uint8_t seed[32], comm_r[32];
    for (int i = 0; i < 32; i++) {
        seed[i] = (uint8_t)(255 - i);
        comm_r[i] = (uint8_t)(7 * i);
    }
    static const uint64_t I32G_K3[18] = {537449917, 954657077, 569892374, 101837719, 872994322, 614393922,
                                         537201457, 660636306, 923169954, 709713726, 481494699, 354795345,
                                         835881703, 629829832, 54714112,  671691953, 301517354, 846444072};
    static const uint64_t NI32G_K125[18] = {337356280, 642496675, 1073042584, 166021970, 316466114, 1046252017,
                                            229271481, 617781087, 464468437,  599043015, 290421674, 866094678,
                                            740500103, 845044847, 630030074,  1030085135, 11027224, 1035528760};
    uint64_t c[18];
    char msg[128] = "";
    CHECK(czk_fil_challenges_interactive(1ull << 30, rid, seed, 3, 18, c, msg, sizeof msg) == CZK_OK);
    CHECK(memcmp(c, I32G_K3, sizeof c) == 0);
    CHECK(czk_fil_challenges_interactive(64, rid, seed, 0, 2, c, msg, sizeof msg) == CZK_OK);
    CHECK(c[0] == 23 && c[1] == 32);
    CHECK(czk_fil_challenges_non_interactive(1ull << 30, rid, comm_r, 125, 18, c, msg, sizeof msg) == CZK_OK);
    CHECK(memcmp(c, NI32G_K125, sizeof c) == 0);
    CHECK(czk_fil_challenges_non_interactive(64, rid, comm_r, 12, 2, c, msg, sizeof msg) == CZK_OK);
    CHECK(c[0] == 35 && c[1] == 52);

    /* challenges are never node 0 and stay below nodes, at the smallest sector too */
    CHECK(czk_fil_challenges_interactive(2, rid, seed, 0, 18, c, msg, sizeof msg) == CZK_OK);
    for (int i = 0; i < 18; i++) CHECK(c[i] == 1);
    /* bad arguments */
    CHECK(czk_fil_challenges_interactive(1, rid, seed, 0, 2, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && msg[0]);
    CHECK(czk_fil_challenges_interactive((1ull << 32) + 1, rid, seed, 0, 2, c, msg, sizeof msg) ==
          CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_challenges_non_interactive(64, rid, comm_r, UINT32_MAX, 2, c, msg, sizeof msg) ==
          CZK_ERR_INVALID_ARGUMENT);
    return test_finish("test_filecoin_challenges");
}
