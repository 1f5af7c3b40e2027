/* SDR labels against the hard-coded last labels of rust-fil-proofs'
 * storage-proofs-porep/src/stacked/vanilla/create_label/multi.rs
 * test_create_labels: 11 layers, replica_id = [9; 32], 64 and 128 nodes,
 * porep_id [0; 32] with API 1.0 and [123; 32] with API 1.1 (not registered
 * proofs' ids). Also the label hash's argument check, node 0 (SHA-256 of the
 * 64-byte head only, masked) and that every label is below 2^254; the
 * encoding key + data mod r against Python's integers. */
#include <openssl/evp.h>
#include <string.h>

#include "czk/filecoin_graph.h"
#include "test.h"

static void check_last(uint64_t nodes, uint8_t porep_byte, czk_fil_api api, const uint64_t limbs[4]) {
    uint8_t porep_id[32], rid[32];
    memset(porep_id, porep_byte, 32);
    memset(rid, 9, 32);
    czk_fil_graph g;
    char msg[128] = "";
    CHECK(czk_fil_graph_init(&g, nodes, porep_id, api, msg, sizeof msg) == CZK_OK);
    uint8_t *labels = malloc(11 * nodes * 32);
    CHECK(labels != NULL);
    if (!labels) return;
    CHECK(czk_fil_labels_compute(&g, rid, 11, labels, msg, sizeof msg) == CZK_OK);
    uint8_t want[32];
    for (int i = 0; i < 32; i++) want[i] = (uint8_t)(limbs[i / 8] >> (8 * (i % 8)));
    CHECK_MSG(memcmp(labels + (11 * nodes - 1) * 32, want, 32) == 0, "%llu nodes, porep_id [%u; 32]: last label",
              (unsigned long long)nodes, porep_byte);
    size_t high = 0;
    for (uint64_t i = 0; i < 11 * nodes; i++) high += labels[i * 32 + 31] > 0x3f;
    CHECK(high == 0);
    /* node 0 of layer 3 */
    uint8_t in[64] = {0}, h[32];
    memcpy(in, rid, 32);
    in[35] = 3;
    unsigned hl = 0;
    CHECK(EVP_Digest(in, 64, h, &hl, EVP_sha256(), NULL) == 1);
    h[31] &= 0x3f;
    CHECK(memcmp(labels + 2 * nodes * 32, h, 32) == 0);
    free(labels);
}

int main(void) {
    static const uint64_t L2K_V10[4] = {0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37};
    static const uint64_t L4K_V10[4] = {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be};
    static const uint64_t L2K_V11[4] = {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5};
    static const uint64_t L4K_V11[4] = {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd};
    check_last(64, 0, CZK_FIL_API_1_0, L2K_V10);
    check_last(128, 0, CZK_FIL_API_1_0, L4K_V10);
    check_last(64, 123, CZK_FIL_API_1_1, L2K_V11);
    check_last(128, 123, CZK_FIL_API_1_1, L4K_V11);

    /* encode: key = the 64-node v1.1 last label, data = 2^254 − 1 */
    uint8_t key[32], data[32], enc[32], want[32];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(L2K_V11[i / 8] >> (8 * (i % 8)));
    memset(data, 0xff, 32);
    data[31] = 0x3f;
    CHECK(czk_fil_encode(key, data, enc) == CZK_OK);
    CHECK(test_hex_decode(want, 32, "ceef0db78bf3b3ab9f1169774d2e7a77bc9054499d954834b51ca7c788110246") == 32);
    CHECK(memcmp(enc, want, 32) == 0);
    data[31] = 0xff;
    CHECK(czk_fil_encode(key, data, enc) == CZK_ERR_NOT_CANONICAL);

    uint8_t rid[32] = {0}, out[32];
    CHECK(czk_fil_label_hash(rid, 0, 5, NULL, out) == CZK_ERR_INVALID_ARGUMENT);
    czk_fil_graph g;
    CHECK(czk_fil_graph_init(&g, 64, rid, CZK_FIL_API_1_1, NULL, 0) == CZK_OK);
    char msg[64] = "";
    CHECK(czk_fil_labels_compute(&g, rid, 0, out, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && msg[0]);
    return test_finish("test_filecoin_labels");
}
