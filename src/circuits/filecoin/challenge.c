/* czk — stacked/circuit/params.rs Proof::synthesize: one challenge of the
 * StackedCircuit (data leaf and its comm_d inclusion, the 14 parent columns
 * and their comm_c inclusions, the challenge input, the labels of every
 * layer, the encoding and its comm_r_last inclusion, the challenged
 * column's hash and its comm_c inclusion), in bellperson's order. */
#include <stdio.h>
#include <stdlib.h>

#include "czk/gadget_encode.h"
#include "porep_internal.h"

#define MAX_LAYERS 11
#define N_PARENTS (CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS)

/* The parent columns: allocate, hash, prove in tree C (for i of one kind). */
static czk_err parent_column(czk_cs *cs, const czk_porep_shape *s, const czk_por_shape *tree_c, const char *kind,
                             long i, const czk_fil_column *col, const czk_num *comm_c, czk_num *rows) {
    char fmt[48];
    snprintf(fmt, sizeof fmt, "%s_parent_%%ld_num", kind);
    porep_push_ns_idx(cs, fmt, i);
    czk_err e = porep_column_alloc(cs, rows, s->layers, col);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_num val;
    snprintf(fmt, sizeof fmt, "%s_parent_%%ld_constraint", kind);
    porep_push_ns_idx(cs, fmt, i);
    e = porep_hash_single_column(cs, &val, rows, s->layers);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    char ns[48];
    snprintf(ns, sizeof ns, "%s_parent_%ld_inclusion", kind, i);
    return porep_enforce_inclusion(cs, ns, tree_c, col ? &col->path : NULL, comm_c, &val);
}

/* The labels of layers 1..L of the challenged node: per layer the parents'
 * bits (6 DRG parents of the layer; from layer 2 on also the 8 expander
 * parents of the layer below), expanded to 37 slots (slot j is parent
 * j mod the parent count: parents ‖ parents ‖ parents[..9] from layer 2 on,
 * six copies ‖ parents[0] in layer 1), then create_label_circuit. */
static czk_err labels(czk_cs *cs, const czk_porep_shape *s, czk_num drg[][MAX_LAYERS], czk_num exp[][MAX_LAYERS],
                      const czk_boolean replica_id[256], const czk_uint64 *node, czk_num *out) {
    czk_boolean(*bits)[256] = malloc(N_PARENTS * sizeof *bits);
    if (!bits) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "labeling: out of memory");
    czk_err e = CZK_OK;
    for (uint32_t layer = 1; layer <= s->layers && !e; layer++) {
        porep_push_ns_idx(cs, "labeling_%ld", (long)layer);
        unsigned n = 0;
        for (unsigned p = 0; p < CZK_FIL_DRG_PARENTS && !e; p++, n++) {
            porep_push_ns_idx(cs, "drg_parent_%ld_bits", (long)n);
            e = porep_num_to_bits_reversed(cs, bits[n], &drg[p][layer - 1]);
            czk_cs_pop_namespace(cs);
        }
        if (layer > 1)
            for (unsigned p = 0; p < CZK_FIL_EXP_PARENTS && !e; p++, n++) {
                porep_push_ns_idx(cs, "exp_parent_%ld_bits", (long)n);
                e = porep_num_to_bits_reversed(cs, bits[n], &exp[p][layer - 2]);
                czk_cs_pop_namespace(cs);
            }
        if (!e) {
            const czk_boolean *slots[POREP_TOTAL_PARENTS];
            for (unsigned j = 0; j < POREP_TOTAL_PARENTS; j++) slots[j] = bits[j % n];
            czk_cs_push_namespace(cs, "create_label");
            e = porep_create_label(cs, &out[layer - 1], replica_id, slots, layer, node);
            czk_cs_pop_namespace(cs);
        }
        czk_cs_pop_namespace(cs);
    }
    free(bits);
    return e;
}

czk_err porep_challenge_synthesize(czk_cs *cs, const czk_porep_shape *s, const czk_fil_porep_challenge *ch,
                                   const czk_num *comm_d, const czk_num *comm_c, const czk_num *comm_r_last,
                                   const czk_boolean replica_id[256]) {
    if (s->layers > MAX_LAYERS) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "more than 11 layers");
    czk_por_shape tree_d, tree_c;
    porep_tree_d_shape(s, &tree_d);
    porep_tree_c_shape(s, &tree_c);

    /* -- the data layer */
    czk_fr v;
    czk_num data_leaf;
    czk_err e = ch ? porep_domain_value(cs, &v, ch->data_leaf, "a data leaf") : CZK_OK;
    if (e) return e;
    czk_cs_push_namespace(cs, "data_leaf");
    e = czk_num_alloc(cs, &data_leaf, ch ? &v : NULL);
    czk_cs_pop_namespace(cs);
    if (!e) e = porep_enforce_inclusion(cs, "comm_d_inclusion", &tree_d, ch ? &ch->comm_d_path : NULL, comm_d, &data_leaf);

    /* -- the parents' columns */
    czk_num drg[CZK_FIL_DRG_PARENTS][MAX_LAYERS], exp[CZK_FIL_EXP_PARENTS][MAX_LAYERS];
    for (long i = 0; i < CZK_FIL_DRG_PARENTS && !e; i++)
        e = parent_column(cs, s, &tree_c, "drg", i, ch ? &ch->drg_parents[i] : NULL, comm_c, drg[i]);
    for (long i = 0; i < CZK_FIL_EXP_PARENTS && !e; i++)
        e = parent_column(cs, s, &tree_c, "exp", i, ch ? &ch->exp_parents[i] : NULL, comm_c, exp[i]);
    if (e) return e;

    /* -- the challenge, public */
    czk_uint64 node;
    czk_cs_push_namespace(cs, "challenge");
    e = czk_uint64_alloc(cs, &node, ch ? &ch->node : NULL);
    czk_cs_pop_namespace(cs);
    if (!e) {
        czk_cs_push_namespace(cs, "challenge input");
        e = czk_uint64_pack_into_input(cs, &node);
        czk_cs_pop_namespace(cs);
    }

    /* -- labeling and encoding */
    czk_num column_labels[MAX_LAYERS], encoded;
    if (!e) e = labels(cs, s, drg, exp, replica_id, &node, column_labels);
    if (!e) {
        czk_cs_push_namespace(cs, "encode_node");
        e = czk_encode(cs, &encoded, &column_labels[s->layers - 1], &data_leaf);
        czk_cs_pop_namespace(cs);
    }
    if (!e)
        e = porep_enforce_inclusion(cs, "comm_r_last_data_inclusion", &tree_c, ch ? &ch->comm_r_last_path : NULL,
                                    comm_r_last, &encoded);

    /* -- the challenged column's hash in tree C */
    czk_num column_hash;
    if (!e) {
        czk_cs_push_namespace(cs, "c_x_column_hash");
        e = porep_hash_single_column(cs, &column_hash, column_labels, s->layers);
        czk_cs_pop_namespace(cs);
    }
    if (!e) e = porep_enforce_inclusion(cs, "c_x_inclusion", &tree_c, ch ? &ch->comm_c_path : NULL, comm_c, &column_hash);
    return e;
}
