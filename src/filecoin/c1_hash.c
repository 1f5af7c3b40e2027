/* czk — the native hashes of a C1's vanilla proofs (c1_hash.h). */
#include <string.h>

#include "c1_hash.h"
#include "czk/filecoin_c1.h"
#include "czk/fr.h"
#include "czk/poseidon.h"
#include "prim.h"

czk_err czk_fil_c1_path_root(czk_fil_c1_hasher h, const czk_fil_path *path, size_t first, size_t count,
                             const uint8_t leaf[32], uint8_t out[32], size_t *bad_level, int *bad_sibling) {
    uint8_t cur[32];
    memcpy(cur, leaf, 32);
    for (size_t l = first; l < first + count; l++) {
        const czk_fil_path_level *lv = &path->levels[l];
        unsigned a = lv->arity;
        if (a < 2 || a > CZK_FIL_MAX_ARITY || lv->index >= a) return CZK_ERR_INVALID_ARGUMENT;
        const uint8_t *kids[CZK_FIL_MAX_ARITY];
        for (unsigned j = 0, s = 0; j < a; j++) kids[j] = j == lv->index ? cur : lv->siblings[s++];
        uint8_t next[32];
        if (h == CZK_FIL_C1_SHA256) {
            const void *pieces[CZK_FIL_MAX_ARITY];
            size_t lens[CZK_FIL_MAX_ARITY];
            for (unsigned j = 0; j < a; j++) pieces[j] = kids[j], lens[j] = 32;
            if (!czk_fil_sha256(pieces, lens, (int)a, next)) return CZK_ERR_NO_MEMORY;
            next[31] &= 0x3f;
        } else {
            czk_fr in[CZK_FIL_MAX_ARITY], o;
            for (unsigned j = 0; j < a; j++) {
                if (!czk_fr_from_bytes_le(&in[j], kids[j])) {
                    *bad_level = l;
                    *bad_sibling = j == lv->index ? -1 : (int)(j < lv->index ? j : j - 1);
                    return CZK_ERR_NOT_CANONICAL;
                }
            }
            czk_err e = czk_poseidon_hash(&o, in, a);
            if (e) return e;
            czk_fr_to_bytes_le(next, &o);
        }
        memcpy(cur, next, 32);
    }
    memcpy(out, cur, 32);
    return CZK_OK;
}

czk_err czk_fil_c1_column_hash(const uint8_t (*rows)[32], size_t n, uint8_t out[32], size_t *bad_row) {
    czk_fr in[CZK_FIL_C1_MAX_LAYERS], o;
    if (n < 1 || n > CZK_FIL_C1_MAX_LAYERS) return CZK_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++)
        if (!czk_fr_from_bytes_le(&in[i], rows[i])) return *bad_row = i, CZK_ERR_NOT_CANONICAL;
    czk_err e = czk_poseidon_hash(&o, in, (unsigned)n);
    if (e) return e;
    czk_fr_to_bytes_le(out, &o);
    return CZK_OK;
}

bool czk_fil_c1_label(const uint8_t replica_id[32], const czk_fil_porep_challenge *c, size_t layer, uint8_t out[32]) {
    uint8_t head[64] = {0};
    memcpy(head, replica_id, 32);
    for (int i = 0; i < 4; i++) head[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) head[36 + i] = (uint8_t)(c->node >> (56 - 8 * i));
    const void *pieces[1 + CZK_FIL_LABEL_PARENTS];
    size_t lens[1 + CZK_FIL_LABEL_PARENTS];
    pieces[0] = head;
    lens[0] = sizeof head;
    for (size_t j = 0; j < CZK_FIL_LABEL_PARENTS; j++) pieces[1 + j] = czk_fil_c1_label_parent(c, layer, j), lens[1 + j] = 32;
    if (!czk_fil_sha256(pieces, lens, 1 + CZK_FIL_LABEL_PARENTS, out)) return false;
    out[31] &= 0x3f;
    return true;
}

bool czk_fil_c1_encode_node(const uint8_t key[32], const uint8_t value[32], uint8_t out[32]) {
    czk_fr k, v;
    if (!czk_fr_from_bytes_le(&k, key) || !czk_fr_from_bytes_le(&v, value)) return false;
    czk_fr_add(&k, &k, &v);
    czk_fr_to_bytes_le(out, &k);
    return true;
}
