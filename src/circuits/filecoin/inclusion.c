/* czk — stacked/circuit/params.rs enforce_inclusion: storage-proofs-core's
 * PoRCircuit::synthesize (gadgets/por.rs) on a leaf and a root that are
 * already allocated (Root::Var), with a private root; and the form the
 * Fallback PoSt uses (post.c), whose leaf is a value (Root::Val). */
#include <stdio.h>
#include <string.h>

#include "porep_internal.h"

static unsigned log2_arity(unsigned a) { return a == 2 ? 1 : a == 4 ? 2 : a == 8 ? 3 : 0; }

void porep_push_ns_idx(czk_cs *cs, const char *fmt, long i) {
    if (czk_cs_get_mode(cs) != CZK_CS_CHECK) {
        czk_cs_push_namespace(cs, NULL);
        return;
    }
    char name[96];
    snprintf(name, sizeof name, fmt, i);
    czk_cs_push_namespace(cs, name);
}

czk_err porep_domain_value(czk_cs *cs, czk_fr *out, const uint8_t bytes[32], const char *what) {
    if (czk_domain_to_fr(out, bytes)) return CZK_OK;
    return czk_cs_error(cs, CZK_ERR_NOT_CANONICAL, "%s is not a canonical field element", what);
}

void porep_tree_d_shape(const czk_porep_shape *s, czk_por_shape *out) {
    memset(out, 0, sizeof *out);
    out->hasher = CZK_HASHER_SHA256;
    out->base_arity = 2;
    out->base_levels = czk_porep_tree_d_levels(s);
}

void porep_tree_c_shape(const czk_porep_shape *s, czk_por_shape *out) {
    memset(out, 0, sizeof *out);
    out->hasher = CZK_HASHER_POSEIDON;
    out->base_arity = s->tree_base;
    out->sub_arity = s->tree_sub;
    out->top_arity = s->tree_top;
    out->base_levels = czk_porep_base_levels(s);
}

/* SubPath::synthesize of one part (base, sub or top) from level l0 on. */
static czk_err sub_path(czk_cs *cs, const czk_por_shape *t, size_t l0, size_t levels, const czk_fil_path *path,
                        czk_num *cur, czk_boolean *auth_bits, size_t *nb) {
    czk_err e = CZK_OK;
    for (size_t i = 0; i < levels && !e; i++) {
        size_t l = l0 + i;
        unsigned a = czk_por_level_arity(t, l), nbits = log2_arity(a);
        const czk_fil_path_level *pl = path ? &path->levels[l] : NULL;
        porep_push_ns_idx(cs, "merkle tree hash %ld", (long)i);
        czk_boolean bits[3];
        for (unsigned j = 0; j < nbits && !e; j++) {
            bool b = pl ? (pl->index >> j) & 1 : false;
            czk_bit bit;
            porep_push_ns_idx(cs, "index bit %ld", (long)j);
            e = czk_bit_alloc(cs, &bit, pl ? &b : NULL);
            czk_cs_pop_namespace(cs);
            if (e) break;
            bits[j] = czk_boolean_is(&bit);
            auth_bits[(*nb)++] = bits[j];
        }
        czk_num sib[CZK_POR_MAX_ARITY - 1], inserted[CZK_POR_MAX_ARITY];
        for (unsigned j = 0; j + 1 < a && !e; j++) {
            czk_fr v;
            if (pl) e = porep_domain_value(cs, &v, pl->siblings[j], "a path element");
            if (e) break;
            porep_push_ns_idx(cs, "path element %ld", (long)j);
            e = czk_num_alloc(cs, &sib[j], pl ? &v : NULL);
            czk_cs_pop_namespace(cs);
        }
        if (!e) e = czk_insert(cs, inserted, cur, bits, nbits, sib, a - 1);
        if (!e) {
            czk_cs_push_namespace(cs, "computation of commitment hash");
            e = czk_hasher_multi_leaf_circuit(t->hasher, cs, cur, inserted, a);
            czk_cs_pop_namespace(cs);
        }
        czk_cs_pop_namespace(cs);
    }
    return e;
}

static czk_err path_check(czk_cs *cs, const czk_por_shape *t, const czk_fil_path *path) {
    size_t n = czk_por_path_len(t);
    if (path->n_levels != n || (n && !path->levels))
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "a Merkle path has %zu levels, the tree %zu",
                            path->n_levels, n);
    for (size_t l = 0; l < n; l++) {
        unsigned a = czk_por_level_arity(t, l);
        if (path->levels[l].arity != a || path->levels[l].index >= a)
            return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT,
                                "Merkle path level %zu: arity %u index %u, the tree's arity is %u", l,
                                path->levels[l].arity, path->levels[l].index, a);
    }
    return CZK_OK;
}

/* PoRCircuit::synthesize with a private root given as Root::Var. The leaf
 * is Root::Var (leaf non-NULL: no allocation) or Root::Val (leaf NULL: aux
 * "value" = *leaf_value, unknown when leaf_value is NULL). */
static czk_err inclusion(czk_cs *cs, const char *ns, const czk_por_shape *tree, const czk_fil_path *path,
                         const czk_num *root, const czk_num *leaf, const czk_fr *leaf_value) {
    czk_err e = path ? path_check(cs, tree, path) : CZK_OK;
    if (e) return e;
    czk_cs_push_namespace(cs, ns);
    czk_num cur;
    if (leaf) {
        cur = *leaf;
    } else {
        czk_cs_push_namespace(cs, "value");
        e = czk_num_alloc(cs, &cur, leaf_value);
        czk_cs_pop_namespace(cs);
    }
    czk_boolean auth_bits[64];
    size_t nb = 0, l = 0;
    static const char *const part_ns[3] = {"base", "sub", "top"};
    for (int part = 0; part < 3 && !e; part++) {
        size_t levels = part == 0 ? tree->base_levels : part == 1 ? (tree->sub_arity != 0) : (tree->top_arity != 0);
        czk_cs_push_namespace(cs, part_ns[part]);
        e = sub_path(cs, tree, l, levels, path, &cur, auth_bits, &nb);
        czk_cs_pop_namespace(cs);
        l += levels;
    }
    if (!e) {
        czk_cs_push_namespace(cs, "path");
        e = czk_multipack_pack_into_inputs(cs, auth_bits, nb);
        czk_cs_pop_namespace(cs);
    }
    /* "root_value": Root::Var, no allocation; private: no "root" input */
    if (!e) czk_num_enforce_equal(cs, "enforce root is correct", &cur, root);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err porep_enforce_inclusion(czk_cs *cs, const char *ns, const czk_por_shape *tree, const czk_fil_path *path,
                                const czk_num *root, const czk_num *leaf) {
    return inclusion(cs, ns, tree, path, root, leaf, NULL);
}

czk_err porep_enforce_inclusion_val(czk_cs *cs, const char *ns, const czk_por_shape *tree, const czk_fil_path *path,
                                    const czk_num *root, const czk_fr *leaf) {
    return inclusion(cs, ns, tree, path, root, NULL, leaf);
}
