/* czk — storage-proofs-update src/circuit.rs EmptySectorUpdateCircuit::
 * synthesize (tree D a binary SHA-256 tree): k_and_h_select and its bits,
 * the public comm_r_old, comm_d_new, comm_r_new, phi, the private comm_c,
 * roots, apex leaves and partition path, comm_r = H(comm_c, root) twice, the
 * apex PoR, the challenge bits, then per challenge rho, the encoding and its
 * three Merkle proofs; and the per-challenge helpers both variants share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_insert.h"
#include "czk/gadget_poseidon.h"
#include "czk/gadget_uint32.h"
#include "update_internal.h"

#define MAX_SIBLINGS 96 /* TreeR paths: at most 10 base levels of 7 + 7 + 1 */

czk_err update_path_check(czk_cs *cs, const czk_por_shape *t, const czk_fil_path *path, const char *what,
                          size_t c_index) {
    size_t n = czk_por_path_len(t);
    if (path->n_levels != n || (n && !path->levels))
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "challenge %zu: %s has %zu levels, the tree %zu", c_index,
                            what, path->n_levels, n);
    for (size_t l = 0; l < n; l++) {
        unsigned a = czk_por_level_arity(t, l);
        if (path->levels[l].arity != a || path->levels[l].index >= a)
            return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT,
                                "challenge %zu: %s level %zu: arity %u index %u, the tree's arity is %u", c_index, what,
                                l, path->levels[l].arity, path->levels[l].index, a);
    }
    return CZK_OK;
}

czk_err update_tree_r_por(czk_cs *cs, const czk_por_shape *t, const char *name, const char *tree, size_t c_index,
                          const czk_fil_path *path, const czk_bit *c_bits, const czk_num *leaf, const czk_num *root) {
    czk_num sib[MAX_SIBLINGS];
    size_t n = 0;
    czk_err e = CZK_OK;
    for (size_t row = 0; row < czk_por_path_len(t) && !e; row++) {
        unsigned a = czk_por_level_arity(t, row);
        if (n + a - 1 > MAX_SIBLINGS)
            return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "%s: more than %d siblings", name, MAX_SIBLINGS);
        for (unsigned i = 0; i + 1 < a && !e; i++, n++) {
            char what[96];
            snprintf(what, sizeof what, "challenge %zu: a %s sibling", c_index, name);
            char ns[128];
            snprintf(ns, sizeof ns, "%s sibling (c_index=%zu, tree_row=%zu, sibling_index=%u)", name, c_index, row, i);
            e = update_alloc_domain(cs, &sib[n], czk_cs_get_mode(cs) == CZK_CS_CHECK ? ns : NULL,
                                    path ? path->levels[row].siblings[i] : NULL, NULL, what);
        }
    }
    if (e) return e;
    update_push_ns(cs, "por %s (c_index=%zu)", tree, c_index);
    e = czk_por_no_challenge_input(cs, t, c_bits, leaf, sib, root);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err update_check_leaf_r_new(czk_cs *cs, const czk_num *computed, const uint8_t provided[32], size_t c_index) {
    if (!computed->has_value) return CZK_OK;
    czk_fr v;
    if (!czk_domain_to_fr(&v, provided))
        return czk_cs_error(cs, CZK_ERR_NOT_CANONICAL, "challenge %zu: leaf_r_new is not a canonical field element",
                            c_index);
    if (!czk_fr_equal(&v, &computed->value))
        return czk_cs_error(cs, CZK_ERR_MISMATCH,
                            "challenge %zu: leaf_r_new is not the encoding leaf_r_old + leaf_d_new * rho", c_index);
    return CZK_OK;
}

/* Lengths, arities and the partition path (PublicInputs::new and the
 * circuit's asserts). */
static czk_err check_input(czk_cs *cs, const czk_update_shape *s, const czk_fil_update_partition *in,
                           const czk_por_shape *tree_r, const czk_por_shape *tree_d, uint64_t *k_and_h_select) {
    const uint64_t nodes = s->nodes;
    const uint32_t parts = czk_update_partition_count(nodes), n_ch = czk_update_challenge_count(nodes);
    const unsigned pbl = update_log2(parts), cbl = update_log2(nodes);
    uint64_t h_select;
    if (in->poseidon) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "a Poseidon update input for the SHA-256 circuit");
    if (in->k >= parts)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "partition index k %u exceeds the partition count %u", in->k,
                            parts);
    if (czk_update_h_select(nodes, in->h, &h_select))
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "h %u is none of the sector size's hs", in->h);
    *k_and_h_select = (uint64_t)in->k | h_select << pbl;
    if (in->n_apex != czk_update_apex_leaf_count(nodes) || !in->apex_leafs)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the partition has %zu apex leaves, the circuit %u",
                            in->n_apex, czk_update_apex_leaf_count(nodes));
    if (in->n_challenges != n_ch || !in->challenges)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the partition has %zu challenges, the circuit %u",
                            in->n_challenges, n_ch);
    czk_err e = CZK_OK;
    for (size_t c = 0; c < n_ch && !e; c++) {
        const czk_fil_update_challenge *ch = &in->challenges[c];
        e = update_path_check(cs, tree_r, &ch->path_r_old, "path_r_old", c);
        if (!e) e = update_path_check(cs, tree_r, &ch->path_r_new, "path_r_new", c);
        if (!e) e = update_path_check(cs, tree_d, &ch->path_d_new, "path_d_new", c);
        for (unsigned l = cbl - pbl; l < cbl && c && !e; l++)
            if (memcmp(ch->path_d_new.levels[l].siblings[0], in->challenges[0].path_d_new.levels[l].siblings[0], 32))
                e = czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT,
                                 "challenge %zu: path_d_new level %u differs from the first challenge's partition path",
                                 c, l);
    }
    return e;
}

czk_err czk_update_synthesize(czk_cs *cs, const czk_update_shape *s, const czk_fil_update_partition *in) {
    if (s->poseidon) return czk_update_poseidon_synthesize(cs, s, in);
    char msg[200];
    czk_err e = czk_update_shape_check(s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_cs_mode mode = czk_cs_get_mode(cs);
    if (!in && mode != CZK_CS_RECORD && mode != CZK_CS_COUNT)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the blank update circuit has no witness");

    const uint64_t nodes = s->nodes;
    const size_t n_ch = czk_update_challenge_count(nodes), n_apex = czk_update_apex_leaf_count(nodes);
    const unsigned cbl = update_log2(nodes), pbl = update_log2(czk_update_partition_count(nodes)),
                   albl = update_log2(n_apex);
    uint32_t hs[CZK_UPDATE_HS];
    czk_update_hs(nodes, hs);
    czk_por_shape tree_r, tree_d = {.hasher = CZK_HASHER_SHA256, .base_arity = 2, .base_levels = cbl};
    update_tree_r_por_shape(s, CZK_HASHER_POSEIDON, &tree_r);
    uint64_t khs = 0;
    if (in && (e = check_input(cs, s, in, &tree_r, &tree_d, &khs))) return e;

    /* -- k_and_h_select, public, and its bits */
    czk_num k_and_h_select;
    czk_fr v;
    czk_fr_from_u64(&v, khs);
    czk_cs_push_namespace(cs, "k_and_h_select");
    e = czk_num_alloc(cs, &k_and_h_select, in ? &v : NULL);
    czk_cs_pop_namespace(cs);
    if (!e) {
        czk_cs_push_namespace(cs, "k_and_h_select (public input)");
        e = czk_num_inputize(cs, &k_and_h_select);
        czk_cs_pop_namespace(cs);
    }
    const unsigned bit_len = pbl + CZK_UPDATE_HS;
    czk_bit khs_bits[4 + CZK_UPDATE_HS];
    for (unsigned i = 0; i < bit_len && !e; i++) {
        bool b = (khs >> i) & 1;
        update_push_ns(cs, "k_and_h_select_bit_%u", i);
        e = czk_bit_alloc(cs, &khs_bits[i], in ? &b : NULL);
        czk_cs_pop_namespace(cs);
    }
    if (e) return e;
    if (czk_cs_needs_lc(cs)) {
        czk_lc la = {0}, lb = {0}, lc = {0};
        czk_fr pow2 = CZK_FR_ONE;
        for (unsigned i = 0; i < bit_len; i++) {
            czk_lc_add(&la, khs_bits[i].var, &pow2);
            czk_fr_dbl(&pow2, &pow2);
        }
        czk_lc_add(&lb, CZK_VAR_ONE, NULL);
        czk_lc_add(&lc, k_and_h_select.var, NULL);
        czk_cs_enforce(cs, "k_and_h_select binary decomp", &la, &lb, &lc);
        czk_lc_free(&la);
        czk_lc_free(&lb);
        czk_lc_free(&lc);
    } else {
        czk_cs_enforce(cs, "k_and_h_select binary decomp", NULL, NULL, NULL);
    }
    const czk_bit *partition_bits = khs_bits, *h_select_bits = khs_bits + pbl;
    czk_num partition;
    {
        czk_boolean pb[4];
        for (unsigned i = 0; i < pbl; i++) pb[i] = czk_boolean_is(&partition_bits[i]);
        czk_cs_push_namespace(cs, "pack partition bits");
        e = czk_multipack_pack_bits(cs, &partition, pb, pbl);
        czk_cs_pop_namespace(cs);
    }

    /* -- the public commitments and phi */
    czk_num comm_r_old, comm_d_new, comm_r_new, phi;
    if (!e) e = update_alloc_domain(cs, &comm_r_old, "comm_r_old", in ? in->comm_r_old : NULL, "comm_r_old_input", "comm_r_old");
    if (!e) e = update_alloc_domain(cs, &comm_d_new, "comm_d_new", in ? in->comm_d_new : NULL, "comm_d_new_input", "comm_d_new");
    if (!e) e = update_alloc_domain(cs, &comm_r_new, "comm_r_new", in ? in->comm_r_new : NULL, "comm_r_new_input", "comm_r_new");
    if (!e) {
        czk_cs_push_namespace(cs, "phi");
        e = update_hash_gen_randomness(cs, &phi, &comm_d_new, &comm_r_old);
        czk_cs_pop_namespace(cs);
    }

    /* -- the private values */
    czk_num comm_c, root_r_old, root_r_new, partition_path[4];
    if (!e) e = update_alloc_domain(cs, &comm_c, "comm_c", in ? in->comm_c : NULL, NULL, "comm_c");
    if (!e) e = update_alloc_domain(cs, &root_r_old, "root_r_old", in ? in->root_r_old : NULL, NULL, "root_r_old");
    if (!e) e = update_alloc_domain(cs, &root_r_new, "root_r_new", in ? in->root_r_new : NULL, NULL, "root_r_new");
    if (e) return e;
    czk_num *apex_leafs = malloc(n_apex * sizeof *apex_leafs);
    czk_bit *generated = malloc(n_ch * (cbl - pbl) * sizeof *generated);
    if (!apex_leafs || !generated) {
        free(apex_leafs);
        free(generated);
        return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "update circuit: out of memory");
    }
    bool check = mode == CZK_CS_CHECK;
    char ns[128];
    for (size_t i = 0; i < n_apex && !e; i++) {
        if (check) snprintf(ns, sizeof ns, "apex_leaf_%zu", i);
        e = update_alloc_domain(cs, &apex_leafs[i], check ? ns : NULL, in ? in->apex_leafs[i] : NULL, NULL,
                                "an apex leaf");
    }
    for (unsigned i = 0; i < pbl && !e; i++) {
        if (check) snprintf(ns, sizeof ns, "partition_path_sibling_%u", i);
        e = update_alloc_domain(cs, &partition_path[i], check ? ns : NULL,
                                in ? in->challenges[0].path_d_new.levels[cbl - pbl + i].siblings[0] : NULL, NULL,
                                "a partition path sibling");
    }

    /* -- comm_r = H(comm_c || root_r), old and new */
    czk_num calc;
    if (!e) {
        const czk_num pre[2] = {comm_c, root_r_old};
        czk_cs_push_namespace(cs, "comm_r_old_calc");
        e = czk_poseidon_hash_gadget(cs, &calc, pre, 2);
        czk_cs_pop_namespace(cs);
        if (!e) czk_num_enforce_equal(cs, "enforce comm_r_old_calc == comm_r_old", &calc, &comm_r_old);
    }
    if (!e) {
        const czk_num pre[2] = {comm_c, root_r_new};
        czk_cs_push_namespace(cs, "comm_r_new_calc");
        e = czk_poseidon_hash_gadget(cs, &calc, pre, 2);
        czk_cs_pop_namespace(cs);
        if (!e) czk_num_enforce_equal(cs, "enforce comm_r_new_calc == comm_r_new", &calc, &comm_r_new);
    }

    /* -- the apex leaves in comm_d_new; the challenges' random bits */
    if (!e) {
        czk_cs_push_namespace(cs, "apex_gadget");
        e = update_apex_por(cs, apex_leafs, n_apex, partition_bits, pbl, partition_path, &comm_d_new);
        czk_cs_pop_namespace(cs);
    }
    if (!e) {
        czk_cs_push_namespace(cs, "gen_challenge_bits");
        e = update_gen_challenge_bits(cs, generated, &comm_r_new, &partition, n_ch, cbl - pbl);
        czk_cs_pop_namespace(cs);
    }

    for (size_t c = 0; c < n_ch && !e; c++) {
        const czk_fil_update_challenge *ch = in ? &in->challenges[c] : NULL;
        czk_bit c_bits[64];
        memcpy(c_bits, &generated[c * (cbl - pbl)], (cbl - pbl) * sizeof *c_bits);
        memcpy(c_bits + (cbl - pbl), partition_bits, pbl * sizeof *c_bits);

        czk_num c_high, rho, leaf_r_old, leaf_d_new, leaf_r_new, apex_leaf;
        update_push_ns(cs, "get_challenge_high_bits (c_index=%zu)", c);
        e = update_challenge_high_bits(cs, &c_high, c_bits, cbl, h_select_bits, hs);
        czk_cs_pop_namespace(cs);
        if (e) break;
        update_push_ns(cs, "rho (c_index=%zu)", c);
        e = update_hash_gen_randomness(cs, &rho, &phi, &c_high);
        czk_cs_pop_namespace(cs);
        if (check) snprintf(ns, sizeof ns, "leaf_r_old (c_index=%zu)", c);
        if (!e) e = update_alloc_domain(cs, &leaf_r_old, check ? ns : NULL, ch ? ch->leaf_r_old : NULL, NULL, "leaf_r_old");
        if (check) snprintf(ns, sizeof ns, "leaf_d_new (c_index=%zu)", c);
        if (!e) e = update_alloc_domain(cs, &leaf_d_new, check ? ns : NULL, ch ? ch->leaf_d_new : NULL, NULL, "leaf_d_new");
        if (!e) {
            update_push_ns(cs, "leaf_r_new (c_index=%zu)", c);
            e = update_label_r_new(cs, &leaf_r_new, &leaf_r_old, &leaf_d_new, &rho);
            czk_cs_pop_namespace(cs);
        }
        if (!e && ch) e = update_check_leaf_r_new(cs, &leaf_r_new, ch->leaf_r_new, c);
        if (!e)
            e = update_tree_r_por(cs, &tree_r, "path_r_old", "tree_r_old", c, ch ? &ch->path_r_old : NULL, c_bits,
                                  &leaf_r_old, &root_r_old);
        if (!e)
            e = update_tree_r_por(cs, &tree_r, "path_r_new", "tree_r_new", c, ch ? &ch->path_r_new : NULL, c_bits,
                                  &leaf_r_new, &root_r_new);

        /* -- leaf_d_new up to its apex leaf */
        const unsigned to_apex = cbl - pbl - albl;
        if (!e) {
            czk_boolean sel[8];
            for (unsigned i = 0; i < albl; i++) sel[i] = czk_boolean_is(&c_bits[to_apex + i]);
            update_push_ns(cs, "select_apex_leaf (c_index=%zu)", c);
            e = czk_select(cs, &apex_leaf, apex_leafs, n_apex, sel, albl);
            czk_cs_pop_namespace(cs);
        }
        czk_num path[64];
        for (unsigned row = 0; row < to_apex && !e; row++) {
            if (check) snprintf(ns, sizeof ns, "path_to_apex_leaf sibling (c_index=%zu, tree_row=%u)", c, row);
            e = update_alloc_domain(cs, &path[row], check ? ns : NULL, ch ? ch->path_d_new.levels[row].siblings[0] : NULL,
                                    NULL, "a path_d_new sibling");
        }
        if (!e) {
            czk_por_shape d = {.hasher = CZK_HASHER_SHA256, .base_arity = 2, .base_levels = to_apex};
            update_push_ns(cs, "por to_apex_leaf (c_index=%zu)", c);
            e = czk_por_no_challenge_input(cs, &d, c_bits, &leaf_d_new, path, &apex_leaf);
            czk_cs_pop_namespace(cs);
        }
    }
    free(apex_leafs);
    free(generated);
    return e;
}
