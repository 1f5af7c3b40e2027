/* The PoSt test sealer (filecoin_testseal_post.h): its requests are what
 * czk_fil_post_decode accepts and the circuit satisfies.
 *  - winning-2k and wpost-2k (full trees; V1 partition 1 of 1 sector, V1_2
 *    of 2 sectors) and sparse wpost-2k: request kind and fields, decoded,
 *    CHECK satisfied, public inputs = the witness's;
 *  - sparse wpost-32g (4 sectors of 2349, partition 3) and winning-32g:
 *    decoded, public inputs computed (not synthesized: 125M constraints);
 *  - the request survives proto3 JSON (to_json → from_json → to_json);
 *  - the same seed gives the same request, another seed another; given ids
 *    and randomness are used as given; the derivations as documented;
 *  - refusals: too many sectors, a WinningPoSt partition, full mode at
 *    32 GiB, an id twice, randomness ≥ r. */
#include <string.h>

#include "../../src/filecoin/prim.h"
#include "czk/circuit.h"
#include "czk/filecoin_post_input.h"
#include "czk/filecoin_testseal_post.h"
#include "czk/groth16.h"
#include "test.h"

static void check_request(const czk_fil_testseal_post_opts *o, const char *what, bool synthesize) {
    czk_fil_testseal_post_result t;
    char msg[512] = "";
    czk_err e = czk_fil_testseal_post(o, &t, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", what, msg);
    if (e) return;
    const czk_fil_post_proof *p = o->proof;
    const bool winning = p->kind == CZK_FIL_POST_WINNING;
    const czk_fil_request *r = &t.request;
    CHECK(r->kind == (winning ? CZK_FIL_KIND_WINNING_POST : CZK_FIL_KIND_WINDOW_POST) && r->registered_proof == p->id &&
          r->miner_id == o->miner_id && r->partition_index == o->partition_index && r->randomness.len == 32 &&
          r->priority == 0 && !r->borrowed);
    CHECK(r->n_vanilla_proofs == t.n_sectors && t.n_sectors == (o->n_sectors ? o->n_sectors : winning ? 1 : p->sector_count));

    czk_fil_post_partition part;
    e = czk_fil_post_decode(p, r->miner_id, r->partition_index, r->randomness.data, r->vanilla_proofs,
                            r->n_vanilla_proofs, &part, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: decode: %s", what, msg);
    if (e) goto out;
    CHECK(part.n_sectors == (winning ? 66 : t.n_sectors));
    for (size_t i = 0; i < part.n_sectors; i++) {
        const size_t s = winning ? 0 : i;
        CHECK(part.sectors[i].sector_id == t.sector_ids[s] && !memcmp(part.sectors[i].comm_r, t.comm_r[s], 32));
    }
    const size_t count = czk_fil_post_input_count(p);
    czk_fr *in = calloc(count, sizeof *in);
    size_t n = 0;
    CHECK(in && czk_fil_post_public_inputs(p, &part, in, count, &n, msg, sizeof msg) == CZK_OK && n == count);
    if (synthesize && in) {
        czk_circuit c;
        CHECK(czk_circuit_find(&c, p->circuit_id, msg, sizeof msg) == CZK_OK);
        e = czk_circuit_check_input(&c, 0, &part, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s: CHECK: %s", what, msg);
        czk_witness w;
        size_t eq = 0;
        if (czk_circuit_witness_input(&c, 0, &part, &w, msg, sizeof msg) == CZK_OK) {
            for (size_t i = 0; i < count && i + 1 < w.n_input; i++) eq += czk_fr_equal(&w.input[i + 1], &in[i]);
            czk_witness_free(&w);
        }
        CHECK_MSG(eq == count, "%s: %zu of %zu public inputs are the witness's", what, eq, count);
        printf("%s: %zu sectors, %zu bytes of vanilla proofs, CHECK %s, public inputs = the witness's (%zu of %zu)\n",
               what, t.n_sectors, czk_fil_request_bytes(r), e == CZK_OK ? "satisfied" : msg, eq, count);
    } else {
        printf("%s: %zu sectors, %zu bytes of vanilla proofs, %llu tree nodes, %.2f s: decoded, %zu public inputs\n",
               what, t.n_sectors, czk_fil_request_bytes(r), (unsigned long long)t.tree_nodes, t.seconds, count);
    }
    free(in);
    czk_fil_post_partition_free(&part);

    /* proto3 JSON round trip */
    char *js = NULL, *js2 = NULL;
    size_t len = 0, len2 = 0;
    czk_fil_request back;
    CHECK(czk_fil_request_to_json(r, &js, &len) == CZK_OK);
    CHECK_MSG(js && czk_fil_request_from_json(js, len, &back, msg, sizeof msg) == CZK_OK, "%s: from_json: %s", what, msg);
    if (js && back.kind) {
        CHECK(czk_fil_request_to_json(&back, &js2, &len2) == CZK_OK && len2 == len && !memcmp(js, js2, len));
        CHECK(back.n_vanilla_proofs == r->n_vanilla_proofs && back.partition_index == r->partition_index);
        czk_fil_request_free(&back);
    }
    free(js);
    free(js2);
out:
    czk_fil_testseal_post_free(&t);
}

static bool same_request(const czk_fil_testseal_post_opts *a, const czk_fil_testseal_post_opts *b) {
    czk_fil_testseal_post_result x, y;
    char msg[256];
    bool ok = czk_fil_testseal_post(a, &x, msg, sizeof msg) == CZK_OK;
    ok = czk_fil_testseal_post(b, &y, msg, sizeof msg) == CZK_OK && ok;
    bool same = ok && x.request.n_vanilla_proofs == y.request.n_vanilla_proofs &&
                !memcmp(x.request.randomness.data, y.request.randomness.data, 32);
    for (size_t i = 0; same && i < x.request.n_vanilla_proofs; i++)
        same = x.request.vanilla_proofs[i].len == y.request.vanilla_proofs[i].len &&
               !memcmp(x.request.vanilla_proofs[i].data, y.request.vanilla_proofs[i].data, x.request.vanilla_proofs[i].len);
    czk_fil_testseal_post_free(&x);
    czk_fil_testseal_post_free(&y);
    return same;
}

static void refused(const czk_fil_testseal_post_opts *o, const char *needle, const char *what) {
    czk_fil_testseal_post_result t;
    memset(&t, 0x5a, sizeof t);
    char msg[512] = "";
    czk_err e = czk_fil_testseal_post(o, &t, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT && strstr(msg, needle), "%s: %s (%s)", what, czk_err_str(e), msg);
    static const czk_fil_testseal_post_result z;
    CHECK_MSG(!memcmp(&t, &z, sizeof z), "%s: output not zeroed", what);
    if (e == CZK_OK) czk_fil_testseal_post_free(&t);
    printf("refused, %s: %s\n", what, msg);
}

int main(void) {
    czk_rng rng;
    const uint64_t seed = test_seed_rng(&rng, "test_filecoin_testseal_post");
    czk_fil_testseal_post_opts o = {.proof = czk_fil_post_proof_get(0), .miner_id = 1000, .seed = seed};
    check_request(&o, "winning-2k", true);
    o.proof = czk_fil_post_proof_get(5), o.partition_index = 1, o.n_sectors = 1;
    check_request(&o, "wpost-2k V1, partition 1, 1 sector of 2", true);
    o.proof = czk_fil_post_proof_get(10), o.partition_index = 4, o.n_sectors = 0;
    check_request(&o, "wpost-2k V1_2, partition 4, 2 sectors", true);
    o.sparse = true;
    check_request(&o, "wpost-2k V1_2 sparse", true);
    o.proof = czk_fil_post_proof_get(13), o.partition_index = 3, o.n_sectors = 4;
    check_request(&o, "wpost-32g V1_2 sparse, partition 3, 4 sectors of 2349", false);
    o.proof = czk_fil_post_proof_get(3), o.partition_index = 0, o.n_sectors = 1;
    check_request(&o, "winning-32g sparse", false);

    /* determinism, given values, derivations */
    czk_fil_testseal_post_opts a = {.proof = czk_fil_post_proof_get(5), .miner_id = 7, .seed = seed}, b = a;
    CHECK(same_request(&a, &b));
    b.seed = seed + 1;
    CHECK(!same_request(&a, &b));
    uint8_t rand[32];
    czk_fil_testseal_post_randomness(seed, rand);
    b = a;
    b.randomness = rand;
    const uint64_t ids[2] = {czk_fil_testseal_post_sector_id(seed, 0), czk_fil_testseal_post_sector_id(seed, 1)};
    b.sector_ids = ids;
    b.n_sectors = 2;
    CHECK_MSG(same_request(&a, &b), "the seed's randomness and ids given explicitly");
    {
        static const char TAG[] = "czk-testseal/post-randomness";
        uint8_t s[8], h[32];
        for (int i = 0; i < 8; i++) s[i] = (uint8_t)(seed >> (8 * i));
        const void *pp[2] = {TAG, s};
        const size_t ll[2] = {sizeof TAG - 1, 8};
        CHECK(czk_fil_sha256(pp, ll, 2, h));
        h[31] &= 0x3f;
        CHECK(!memcmp(h, rand, 32));
        CHECK(ids[0] != ids[1] && ids[0] <= 0xffffffffu);
    }
    czk_fil_testseal_post_result t;
    char msg[256];
    const uint64_t mine[2] = {12345, 67};
    b.sector_ids = mine;
    CHECK(czk_fil_testseal_post(&b, &t, msg, sizeof msg) == CZK_OK && t.sector_ids[0] == 12345 &&
          t.sector_ids[1] == 67 && !memcmp(t.request.randomness.data, rand, 32));
    czk_fil_testseal_post_free(&t);

    /* refusals */
    a.n_sectors = 3;
    refused(&a, "3 sectors", "3 sectors of 2");
    a.n_sectors = 0;
    a.proof = czk_fil_post_proof_get(0);
    a.partition_index = 1;
    refused(&a, "one partition", "winning partition 1");
    a.partition_index = 0;
    a.n_sectors = 2;
    refused(&a, "2 sectors", "winning of 2 sectors");
    a.n_sectors = 0;
    a.proof = czk_fil_post_proof_get(8);
    refused(&a, "use sparse mode", "full 32 GiB");
    a.proof = czk_fil_post_proof_get(5);
    const uint64_t twice[2] = {9, 9};
    a.sector_ids = twice;
    a.n_sectors = 2;
    refused(&a, "sector id 9 twice", "an id twice");
    a.sector_ids = NULL;
    uint8_t big[32];
    memset(big, 0xff, 32);
    a.randomness = big;
    refused(&a, "randomness", "randomness >= r");
    a.proof = NULL;
    refused(&a, "no registered PoSt proof", "no proof");
    return test_finish("test_filecoin_testseal_post");
}
