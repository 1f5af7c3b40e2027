/* A PoRep partition's public inputs (stacked/circuit/proof.rs
 * generate_public_inputs): the counts with ONE equal the README's (40 for
 * the 1-partition sizes, 328 for a 32 GiB partition); the layout (replica_id,
 * comm_d, comm_r, then c, 6 DRG parents, 8 expander parents, c, c, c per
 * challenge); each feature's challenges (interactive, synthetic, NI) on the
 * Python-computed values of test_filecoin_challenges; the argument checks. */
#include <string.h>

#include "czk/filecoin_graph.h"
#include "czk/filecoin_porep.h"
#include "test.h"

static int fr_is(const czk_fr *a, uint64_t v) {
    czk_fr b;
    czk_fr_from_u64(&b, v);
    return czk_fr_equal(a, &b);
}

static int fr_bytes_are(const czk_fr *a, const uint8_t b[32]) {
    uint8_t o[32];
    czk_fr_to_bytes_le(o, a);
    return memcmp(o, b, 32) == 0;
}

int main(void) {
    for (uint64_t id = 0; id < czk_fil_seal_proof_count(); id++) {
        const czk_fil_seal_proof *p = czk_fil_seal_proof_get(id);
        const size_t want = p->sector_size >= (32ull << 30) ? 328 : 40;
        CHECK_MSG(czk_fil_porep_input_count(p) + 1 == want, "%s: %zu inputs", p->name, czk_fil_porep_input_count(p));
    }

    /* the instance of test_filecoin_challenges: miner 1000, sector 42, StackedDrg32GiBV1_1 */
    czk_fil_porep_instance in = {czk_fil_seal_proof_get(8), {0}, {0}, {0}, {0}};
    uint8_t prover[32], ticket[32];
    czk_fil_prover_id(1000, prover);
    for (int i = 0; i < 32; i++) {
        ticket[i] = (uint8_t)i;
        in.comm_d[i] = (uint8_t)(32 + i);
        in.comm_r[i] = (uint8_t)(7 * i);
        in.seed[i] = (uint8_t)(255 - i);
    }
    uint8_t porep_id[32];
    czk_fil_porep_id(in.proof, porep_id);
    CHECK(czk_fil_replica_id(prover, 42, ticket, in.comm_d, porep_id, in.replica_id) == CZK_OK);
    /* comm_d = 32..63 ends in 63 = 0x3f: below r; comm_r = 7·i ends in 0xd9, not below r: the
     * challenge functions take it as bytes, the public inputs need its top bits cleared */
    uint8_t comm_r_raw[32];
    memcpy(comm_r_raw, in.comm_r, 32);
    in.comm_r[31] &= 0x3f;

    static const uint64_t I32G_K3[18] = {537449917, 954657077, 569892374, 101837719, 872994322, 614393922,
                                         537201457, 660636306, 923169954, 709713726, 481494699, 354795345,
                                         835881703, 629829832, 54714112,  671691953, 301517354, 846444072};
    static const uint64_t NI32G_K125[18] = {337356280, 642496675, 1073042584, 166021970, 316466114, 1046252017,
                                            229271481, 617781087, 464468437,  599043015, 290421674, 866094678,
                                            740500103, 845044847, 630030074,  1030085135, 11027224, 1035528760};
    char msg[160] = "";
    uint64_t c[18];
    CHECK(czk_fil_porep_challenges(&in, 3, c, msg, sizeof msg) == CZK_OK);
    CHECK(memcmp(c, I32G_K3, sizeof c) == 0);

    czk_fr inputs[327];
    CHECK(czk_fil_porep_public_inputs(&in, 3, inputs, msg, sizeof msg) == CZK_OK);
    CHECK(fr_bytes_are(&inputs[0], in.replica_id));
    CHECK(fr_bytes_are(&inputs[1], in.comm_d));
    CHECK(fr_bytes_are(&inputs[2], in.comm_r));
    czk_fil_graph g;
    CHECK(czk_fil_graph_init(&g, in.proof->nodes, porep_id, in.proof->api, msg, sizeof msg) == CZK_OK);
    size_t bad = 0;
    for (int i = 0; i < 18; i++) {
        const czk_fr *o = inputs + 3 + 18 * i;
        uint32_t par[CZK_FIL_DEGREE];
        czk_fil_graph_parents(&g, (uint32_t)I32G_K3[i], par);
        bad += !fr_is(&o[0], I32G_K3[i]);
        for (int j = 0; j < CZK_FIL_DEGREE; j++) bad += !fr_is(&o[1 + j], par[j]);
        bad += !fr_is(&o[15], I32G_K3[i]) + !fr_is(&o[16], I32G_K3[i]) + !fr_is(&o[17], I32G_K3[i]);
        bad += !fr_is(&o[1], I32G_K3[i] - 1); /* API 1.1: the predecessor is the first DRG parent */
    }
    CHECK_MSG(bad == 0, "%zu inputs out of place", bad);

    /* NI-PoRep (StackedDrg32GiBV1_2_Feat_NonInteractivePoRep): comm_r, no seed; 126 partitions */
    in.proof = czk_fil_seal_proof_get(18);
    memcpy(in.comm_r, comm_r_raw, 32);
    CHECK(czk_fil_porep_challenges(&in, 125, c, msg, sizeof msg) == CZK_OK);
    CHECK(memcmp(c, NI32G_K125, sizeof c) == 0);
    CHECK(czk_fil_porep_challenges(&in, 126, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && msg[0]);
    /* synthetic (StackedDrg32GiBV1_1_Feat_SyntheticPoRep) */
    in.proof = czk_fil_seal_proof_get(13);
    uint64_t s[18];
    CHECK(czk_fil_porep_challenges(&in, 9, c, msg, sizeof msg) == CZK_OK);
    CHECK(czk_fil_challenges_synthetic(1ull << 30, 1u << 18, in.replica_id, in.comm_r, in.seed, 9, 18, s, msg,
                                       sizeof msg) == CZK_OK);
    CHECK(memcmp(c, s, sizeof c) == 0);
    CHECK(czk_fil_porep_challenges(&in, 10, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);

    /* 2 KiB interactive: the Python values 23, 32 at k = 0 */
    in.proof = czk_fil_seal_proof_get(5);
    in.comm_r[31] &= 0x3f;
    CHECK(czk_fil_porep_challenges(&in, 0, c, msg, sizeof msg) == CZK_OK && c[0] == 23 && c[1] == 32);
    CHECK(czk_fil_porep_public_inputs(&in, 0, inputs, msg, sizeof msg) == CZK_OK);
    CHECK(fr_is(&inputs[3], 23) && fr_is(&inputs[4], 22) && fr_is(&inputs[21], 32) && fr_is(&inputs[22], 31));

    /* non-canonical commitments */
    memset(in.comm_r, 0xff, 32);
    CHECK(czk_fil_porep_public_inputs(&in, 0, inputs, msg, sizeof msg) == CZK_ERR_NOT_CANONICAL && msg[0]);
    in.proof = NULL;
    CHECK(czk_fil_porep_challenges(&in, 0, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    return test_finish("test_filecoin_porep_inputs");
}
