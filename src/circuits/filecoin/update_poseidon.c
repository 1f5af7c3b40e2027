/* czk — storage-proofs-update src/poseidon/circuit.rs EmptySectorUpdateCircuit::
 * synthesize: the Poseidon variant (tree D TreeR-shaped Poseidon, one
 * partition of challenge_count · partition_count challenges, no apex tree):
 * h_select and its bits, the public comm_r_old, comm_d_new, comm_r_new, phi,
 * the private comm_c and roots, comm_r = H(comm_c, root) twice, the
 * challenge bits from partition zero, then per challenge rho, the encoding
 * and its three TreeR-shaped Merkle proofs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_poseidon.h"
#include "update_internal.h"

static czk_err check_input(czk_cs *cs, const czk_update_shape *s, const czk_fil_update_partition *in,
                           const czk_por_shape *tree_r, uint64_t *h_select) {
    const uint32_t n_ch = czk_update_challenge_count_poseidon(s->nodes);
    if (!in->poseidon) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "a SHA-256 update input for the Poseidon circuit");
    if (in->k != 0)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "partition index k %u: the Poseidon update has one partition",
                            in->k);
    if (czk_update_h_select(s->nodes, in->h, h_select))
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "h %u is none of the sector size's hs", in->h);
    if (in->n_apex)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the Poseidon update has no apex leaves (%zu given)", in->n_apex);
    if (in->n_challenges != n_ch || !in->challenges)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the partition has %zu challenges, the circuit %u",
                            in->n_challenges, n_ch);
    czk_err e = CZK_OK;
    for (size_t c = 0; c < n_ch && !e; c++) {
        const czk_fil_update_challenge *ch = &in->challenges[c];
        e = update_path_check(cs, tree_r, &ch->path_r_old, "path_r_old", c);
        if (!e) e = update_path_check(cs, tree_r, &ch->path_r_new, "path_r_new", c);
        if (!e) e = update_path_check(cs, tree_r, &ch->path_d_new, "path_d_new", c);
    }
    return e;
}

czk_err czk_update_poseidon_synthesize(czk_cs *cs, const czk_update_shape *s, const czk_fil_update_partition *in) {
    char msg[200];
    if (!s->poseidon) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "a SHA-256 update shape for the Poseidon circuit");
    czk_err e = czk_update_shape_check(s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_cs_mode mode = czk_cs_get_mode(cs);
    if (!in && mode != CZK_CS_RECORD && mode != CZK_CS_COUNT)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the blank update circuit has no witness");

    const size_t n_ch = czk_update_challenge_count_poseidon(s->nodes);
    const unsigned cbl = update_log2(s->nodes);
    uint32_t hs[CZK_UPDATE_HS];
    czk_update_hs(s->nodes, hs);
    czk_por_shape tree_r;
    update_tree_r_por_shape(s, CZK_HASHER_POSEIDON, &tree_r);
    uint64_t h_select_value = 0;
    if (in && (e = check_input(cs, s, in, &tree_r, &h_select_value))) return e;

    /* -- h_select, public, and its bits */
    czk_num h_select;
    czk_fr v;
    czk_fr_from_u64(&v, h_select_value);
    czk_cs_push_namespace(cs, "h_select");
    e = czk_num_alloc(cs, &h_select, in ? &v : NULL);
    czk_cs_pop_namespace(cs);
    if (!e) {
        czk_cs_push_namespace(cs, "h_select (public input)");
        e = czk_num_inputize(cs, &h_select);
        czk_cs_pop_namespace(cs);
    }
    czk_bit h_select_bits[CZK_UPDATE_HS];
    for (unsigned i = 0; i < CZK_UPDATE_HS && !e; i++) {
        bool b = (h_select_value >> i) & 1;
        update_push_ns(cs, "h_select_bit_%u", i);
        e = czk_bit_alloc(cs, &h_select_bits[i], in ? &b : NULL);
        czk_cs_pop_namespace(cs);
    }
    if (e) return e;
    if (czk_cs_needs_lc(cs)) {
        czk_lc la = {0}, lb = {0}, lc = {0};
        czk_fr pow2 = CZK_FR_ONE;
        for (unsigned i = 0; i < CZK_UPDATE_HS; i++) {
            czk_lc_add(&la, h_select_bits[i].var, &pow2);
            czk_fr_dbl(&pow2, &pow2);
        }
        czk_lc_add(&lb, CZK_VAR_ONE, NULL);
        czk_lc_add(&lc, h_select.var, NULL);
        czk_cs_enforce(cs, "h_select binary decomp", &la, &lb, &lc);
        czk_lc_free(&la);
        czk_lc_free(&lb);
        czk_lc_free(&lc);
    } else {
        czk_cs_enforce(cs, "h_select binary decomp", NULL, NULL, NULL);
    }

    /* -- the public commitments, phi, the private values */
    czk_num comm_r_old, comm_d_new, comm_r_new, phi, comm_c, root_r_old, root_r_new, calc, partition;
    e = update_alloc_domain(cs, &comm_r_old, "comm_r_old", in ? in->comm_r_old : NULL, "comm_r_old_input", "comm_r_old");
    if (!e) e = update_alloc_domain(cs, &comm_d_new, "comm_d_new", in ? in->comm_d_new : NULL, "comm_d_new_input", "comm_d_new");
    if (!e) e = update_alloc_domain(cs, &comm_r_new, "comm_r_new", in ? in->comm_r_new : NULL, "comm_r_new_input", "comm_r_new");
    if (!e) {
        czk_cs_push_namespace(cs, "phi");
        e = update_hash_gen_randomness(cs, &phi, &comm_d_new, &comm_r_old);
        czk_cs_pop_namespace(cs);
    }
    if (!e) e = update_alloc_domain(cs, &comm_c, "comm_c", in ? in->comm_c : NULL, NULL, "comm_c");
    if (!e) e = update_alloc_domain(cs, &root_r_old, "root_r_old", in ? in->root_r_old : NULL, NULL, "root_r_old");
    if (!e) e = update_alloc_domain(cs, &root_r_new, "root_r_new", in ? in->root_r_new : NULL, NULL, "root_r_new");
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
    if (!e) {
        czk_fr zero;
        czk_fr_set_zero(&zero);
        czk_cs_push_namespace(cs, "gen_challenge_bits partition zero");
        e = czk_num_alloc(cs, &partition, &zero); /* known even in the blank circuit */
        czk_cs_pop_namespace(cs);
    }
    if (e) return e;

    czk_bit *generated = malloc(n_ch * cbl * sizeof *generated);
    if (!generated) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "update circuit: out of memory");
    czk_cs_push_namespace(cs, "gen_challenge_bits");
    e = update_gen_challenge_bits(cs, generated, &comm_r_new, &partition, n_ch, cbl);
    czk_cs_pop_namespace(cs);

    bool check = mode == CZK_CS_CHECK;
    char ns[96];
    for (size_t c = 0; c < n_ch && !e; c++) {
        const czk_fil_update_challenge *ch = in ? &in->challenges[c] : NULL;
        const czk_bit *c_bits = &generated[c * cbl];
        czk_num c_high, rho, leaf_r_old, leaf_d_new, leaf_r_new;
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
        if (!e)
            e = update_tree_r_por(cs, &tree_r, "path_d_new", "tree_d_new", c, ch ? &ch->path_d_new : NULL, c_bits,
                                  &leaf_d_new, &comm_d_new);
    }
    free(generated);
    return e;
}
