/* SDR labeling. Sources (rust-fil-proofs storage-proofs-porep): src/stacked/vanilla/create_label/
 * single.rs create_label, create_label_exp (buffer = layer u32 BE ‖ node u64 BE, zero padded to 32;
 * byte 31 &= 0x3f), src/stacked/vanilla/graph.rs copy_parents_data_inner (6 parents × 6, then
 * parents[0]) and copy_parents_data_inner_exp (14 × 2, then parents[0..8], then parents[8]);
 * src/encode.rs encode (key + value in Fr). */
#include <stdio.h>
#include <string.h>

#include "czk/filecoin_graph.h"
#include "czk/fr.h"
#include "prim.h"

#define FAIL(code, ...)                                          \
    do {                                                         \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__);   \
        return code;                                             \
    } while (0)

czk_err czk_fil_label_hash(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                           const uint8_t (*parents)[32], uint8_t out[32]) {
    if (layer == 0) return CZK_ERR_INVALID_ARGUMENT;
    uint8_t head[32] = {0};
    for (int i = 0; i < 4; i++) head[i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) head[4 + i] = (uint8_t)(node >> (56 - 8 * i));
    const void *p[2 + 37];
    size_t l[2 + 37];
    int n = 0;
    p[n] = replica_id;
    l[n++] = 32;
    p[n] = head;
    l[n++] = 32;
    if (node > 0) {
        if (layer == 1) {
            for (int r = 0; r < 6; r++)
                for (int j = 0; j < CZK_FIL_DRG_DEGREE; j++) {
                    p[n] = parents[j];
                    l[n++] = 32;
                }
            p[n] = parents[0];
            l[n++] = 32;
        } else {
            for (int r = 0; r < 2; r++)
                for (int j = 0; j < CZK_FIL_DEGREE; j++) {
                    p[n] = parents[j];
                    l[n++] = 32;
                }
            for (int j = 0; j < 9; j++) {
                p[n] = parents[j];
                l[n++] = 32;
            }
        }
    }
    if (!czk_fil_sha256(p, l, n, out)) return CZK_ERR_NO_MEMORY;
    out[31] &= 0x3f;
    return CZK_OK;
}

czk_err czk_fil_labels_compute(const czk_fil_graph *g, const uint8_t replica_id[32], uint32_t layers,
                               uint8_t *labels, char *msg, size_t msglen) {
    if (layers == 0) FAIL(CZK_ERR_INVALID_ARGUMENT, "no layers");
    const size_t layer_bytes = (size_t)g->nodes * 32;
    for (uint32_t layer = 1; layer <= layers; layer++) {
        uint8_t *cur = labels + (size_t)(layer - 1) * layer_bytes;
        const uint8_t *prev = layer > 1 ? cur - layer_bytes : NULL;
        for (uint64_t v = 0; v < g->nodes; v++) {
            uint32_t par[CZK_FIL_DEGREE];
            uint8_t pl[CZK_FIL_DEGREE][32];
            if (v == 0) { /* node 0 hashes no parents */
                const czk_err e = czk_fil_label_hash(replica_id, layer, 0, NULL, cur);
                if (e != CZK_OK) FAIL(e, "SHA-256 failed");
                continue;
            }
            czk_fil_graph_parents(g, (uint32_t)v, par);
            for (int j = 0; j < CZK_FIL_DRG_DEGREE; j++) memcpy(pl[j], cur + (size_t)par[j] * 32, 32);
            if (prev)
                for (int j = CZK_FIL_DRG_DEGREE; j < CZK_FIL_DEGREE; j++) memcpy(pl[j], prev + (size_t)par[j] * 32, 32);
            const czk_err e = czk_fil_label_hash(replica_id, layer, v, (const uint8_t(*)[32])pl, cur + v * 32);
            if (e != CZK_OK) FAIL(e, "SHA-256 failed");
        }
    }
    return CZK_OK;
}

czk_err czk_fil_encode(const uint8_t key[32], const uint8_t data[32], uint8_t out[32]) {
    czk_fr k, d;
    if (!czk_fr_from_bytes_le(&k, key) || !czk_fr_from_bytes_le(&d, data)) return CZK_ERR_NOT_CANONICAL;
    czk_fr_add(&k, &k, &d);
    czk_fr_to_bytes_le(out, &k);
    return CZK_OK;
}
