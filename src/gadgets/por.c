/* czk — storage-proofs-core gadgets::por: PoRCircuit::synthesize (with
 * AuthPath / SubPath::synthesize) and por_no_challenge_input, for SHA-256
 * and Poseidon trees with base / sub / top arities. See gadget_por.h. */
#include <stdio.h>
#include <string.h>

#include "czk/gadget_insert.h"
#include "czk/gadget_por.h"
#include "czk/gadget_uint32.h"
#include "gadget_internal.h"

static unsigned log2_arity(unsigned a) { return a == 2 ? 1 : a == 4 ? 2 : a == 8 ? 3 : 0; }

czk_err czk_por_shape_check(const czk_por_shape *s, char *msg, size_t msglen) {
    const char *why = NULL;
    if (s->hasher != CZK_HASHER_SHA256 && s->hasher != CZK_HASHER_POSEIDON) why = "unknown hasher";
    else if (!log2_arity(s->base_arity)) why = "base arity must be 2, 4 or 8";
    else if (s->sub_arity && !log2_arity(s->sub_arity)) why = "sub-tree arity must be 0, 2, 4 or 8";
    else if (s->top_arity && !log2_arity(s->top_arity)) why = "top-tree arity must be 0, 2, 4 or 8";
    else if (s->top_arity && !s->sub_arity) why = "a top-tree level needs a sub-tree level";
    else if (czk_por_challenge_bits(s) > 63) why = "the tree has 2^64 or more leaves";
    if (!why) return CZK_OK;
    if (msg && msglen) snprintf(msg, msglen, "PoR shape: %s", why);
    return CZK_ERR_INVALID_ARGUMENT;
}

size_t czk_por_path_len(const czk_por_shape *s) {
    return s->base_levels + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
}

unsigned czk_por_level_arity(const czk_por_shape *s, size_t l) {
    if (l < s->base_levels) return s->base_arity;
    if (l == s->base_levels && s->sub_arity) return s->sub_arity;
    return s->top_arity;
}

size_t czk_por_challenge_bits(const czk_por_shape *s) {
    return s->base_levels * log2_arity(s->base_arity) + log2_arity(s->sub_arity) + log2_arity(s->top_arity);
}

uint64_t czk_por_leaves(const czk_por_shape *s) { return (uint64_t)1 << czk_por_challenge_bits(s); }

czk_err czk_por_root(czk_fr *root, const czk_por_shape *s, const czk_fr *leaf, const czk_por_path_elem *path) {
    czk_err e = czk_por_shape_check(s, NULL, 0);
    if (e) return e;
    czk_fr cur = *leaf, kids[CZK_POR_MAX_ARITY];
    for (size_t l = 0; l < czk_por_path_len(s); l++) {
        unsigned a = czk_por_level_arity(s, l), idx = path[l].index;
        if (idx >= a) return CZK_ERR_INVALID_ARGUMENT;
        for (unsigned i = 0, k = 0; i < a; i++) kids[i] = i == idx ? cur : path[l].siblings[k++];
        if ((e = czk_hasher_node(s->hasher, &cur, kids, a))) return e;
    }
    *root = cur;
    return CZK_OK;
}

size_t czk_por_public_inputs(czk_fr out[2], uint64_t challenge, const czk_fr *root, bool private_root) {
    czk_fr_from_u64(&out[0], challenge);
    if (private_root) return 1;
    out[1] = *root;
    return 2;
}

/* One level: insert cur among the siblings at the index bits, then hash. */
static czk_err level(czk_cs *cs, czk_hasher h, czk_num *cur, const czk_boolean *bits, unsigned nbits,
                     const czk_num *siblings, unsigned arity, const char *insert_ns, const char *hash_ns) {
    czk_num inserted[CZK_POR_MAX_ARITY];
    if (insert_ns) czk_cs_push_namespace(cs, insert_ns);
    czk_err e = czk_insert(cs, inserted, cur, bits, nbits, siblings, arity - 1);
    if (insert_ns) czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_cs_push_namespace(cs, hash_ns);
    e = czk_hasher_multi_leaf_circuit(h, cs, cur, inserted, arity);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err czk_por_circuit(czk_cs *cs, const czk_por_shape *s, const czk_fr *leaf, const czk_por_path_elem *path,
                        const czk_fr *root, bool private_root) {
    char msg[128];
    czk_err e = czk_por_shape_check(s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_num cur, rt;
    czk_cs_push_namespace(cs, "value");
    e = czk_num_alloc(cs, &cur, leaf);
    czk_cs_pop_namespace(cs);
    if (e) return e;

    czk_boolean auth_bits[64];
    size_t nb = 0, l = 0;
    static const char *const part_ns[3] = {"base", "sub", "top"};
    for (int part = 0; part < 3; part++) {
        size_t levels = part == 0 ? s->base_levels : part == 1 ? (s->sub_arity != 0) : (s->top_arity != 0);
        czk_cs_push_namespace(cs, part_ns[part]);
        for (size_t i = 0; i < levels && !e; i++, l++) {
            unsigned a = czk_por_level_arity(s, l), nbits = log2_arity(a);
            czk_gadget_push_ns_idx(cs, "merkle tree hash %ld", (long)i);
            czk_boolean bits[3];
            for (unsigned j = 0; j < nbits && !e; j++) {
                bool b = path ? (path[l].index >> j) & 1 : false;
                czk_bit bit;
                czk_gadget_push_ns_idx(cs, "index bit %ld", (long)j);
                e = czk_bit_alloc(cs, &bit, path ? &b : NULL);
                czk_cs_pop_namespace(cs);
                if (e) break;
                bits[j] = czk_boolean_is(&bit);
                auth_bits[nb++] = bits[j];
            }
            czk_num sib[CZK_POR_MAX_ARITY - 1];
            for (unsigned j = 0; j + 1 < a && !e; j++) {
                czk_gadget_push_ns_idx(cs, "path element %ld", (long)j);
                e = czk_num_alloc(cs, &sib[j], path ? &path[l].siblings[j] : NULL);
                czk_cs_pop_namespace(cs);
            }
            if (!e) e = level(cs, s->hasher, &cur, bits, nbits, sib, a, NULL, "computation of commitment hash");
            czk_cs_pop_namespace(cs);
        }
        czk_cs_pop_namespace(cs);
        if (e) return e;
    }

    czk_cs_push_namespace(cs, "path");
    e = czk_multipack_pack_into_inputs(cs, auth_bits, nb);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_cs_push_namespace(cs, "root_value");
    e = czk_num_alloc(cs, &rt, root);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_num_enforce_equal(cs, "enforce root is correct", &cur, &rt);
    if (!private_root) {
        czk_cs_push_namespace(cs, "root");
        e = czk_num_inputize(cs, &rt);
        czk_cs_pop_namespace(cs);
    }
    return e;
}

czk_err czk_por_no_challenge_input(czk_cs *cs, const czk_por_shape *s, const czk_bit *challenge_bits,
                                   const czk_num *leaf, const czk_num *path_values, const czk_num *root) {
    char msg[128], ins[64], hns[64];
    czk_err e = czk_por_shape_check(s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_num cur = *leaf;
    size_t bit = 0, off = 0;
    bool names = czk_cs_get_mode(cs) == CZK_CS_CHECK;
    for (size_t l = 0; l < czk_por_path_len(s); l++) {
        unsigned a = czk_por_level_arity(s, l), nbits = log2_arity(a);
        czk_boolean bits[3];
        for (unsigned j = 0; j < nbits; j++) bits[j] = czk_boolean_is(&challenge_bits[bit++]);
        if (names) { /* heights count every level, base, sub and top alike */
            snprintf(ins, sizeof ins, "merkle proof insert (height=%zu)", l);
            snprintf(hns, sizeof hns, "merkle proof hash (height=%zu)", l);
        }
        e = level(cs, s->hasher, &cur, bits, nbits, &path_values[off], a, names ? ins : "insert",
                  names ? hns : "hash");
        if (e) return e;
        off += a - 1;
    }
    if (!czk_cs_needs_lc(cs)) {
        czk_cs_enforce(cs, "calculated root == provided root", NULL, NULL, NULL);
        return CZK_OK;
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    czk_lc_add(&la, cur.var, NULL);
    czk_lc_add(&lb, CZK_VAR_ONE, NULL);
    czk_lc_add(&lc, root->var, NULL);
    czk_cs_enforce(cs, "calculated root == provided root", &la, &lb, &lc);
    czk_lc_free(&la);
    czk_lc_free(&lb);
    czk_lc_free(&lc);
    return CZK_OK;
}
