/* czk — the claims a consistent C1 states (filecoin_c1.h
 * czk_fil_c1_derive_claims): what rust-fil-proofs' seal_commit_phase1 writes
 * beside the paths and columns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c1_hash.h"
#include "czk/filecoin_c1.h"

static czk_err split(const czk_fil_seal_proof *p, const czk_fil_path *path, czk_fil_c1_merkle *m, bool tree_d) {
    m->kind = CZK_FIL_PROOF_SINGLE;
    m->n_sub = m->n_top = 0;
    if (!tree_d && p->tree_sub) m->kind = CZK_FIL_PROOF_SUB, m->n_sub = 1;
    if (!tree_d && p->tree_top) m->kind = CZK_FIL_PROOF_TOP, m->n_top = 1;
    if (path->n_levels < (size_t)m->n_sub + m->n_top || path->n_levels > CZK_FIL_C1_MAX_LEVELS)
        return CZK_ERR_INVALID_ARGUMENT;
    m->n_base = (uint8_t)(path->n_levels - m->n_sub - m->n_top);
    return CZK_OK;
}

static czk_err column_claims(const czk_fil_seal_proof *p, const czk_fil_column *col, const uint8_t comm_c[32],
                             czk_fil_c1_merkle *m) {
    size_t bad;
    czk_err e = split(p, &col->path, m, false);
    if (!e) e = czk_fil_c1_column_hash((const uint8_t(*)[32])col->rows, col->n_rows, m->leaf, &bad);
    memcpy(m->root, comm_c, 32);
    return e;
}

czk_err czk_fil_c1_derive_claims(czk_fil_c1 *c1, char *msg, size_t msglen) {
    if (msg && msglen) msg[0] = '\0';
    if (!c1 || !c1->proof || (c1->n_partitions && !c1->partitions)) {
        if (msg && msglen) snprintf(msg, msglen, "a C1 needs its registered proof and partitions");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    const czk_fil_seal_proof *p = c1->proof;
    if (!c1->claims) {
        c1->claims = calloc(c1->n_partitions ? c1->n_partitions : 1, sizeof *c1->claims);
        if (!c1->claims) return CZK_ERR_NO_MEMORY;
    }
    for (size_t k = 0; k < c1->n_partitions; k++) {
        const czk_fil_porep_partition *pt = &c1->partitions[k];
        if (!c1->claims[k]) {
            c1->claims[k] = calloc(pt->n_challenges ? pt->n_challenges : 1, sizeof **c1->claims);
            if (!c1->claims[k]) return CZK_ERR_NO_MEMORY;
        }
        for (size_t i = 0; i < pt->n_challenges; i++) {
            const czk_fil_porep_challenge *c = &pt->challenges[i];
            czk_fil_c1_claims *cl = &c1->claims[k][i];
            size_t layers = c->drg_parents[0].n_rows;
            bool ok = layers >= 1 && layers <= CZK_FIL_C1_MAX_LAYERS;
            for (size_t j = 0; ok && j < CZK_FIL_DRG_PARENTS; j++) ok = c->drg_parents[j].n_rows == layers;
            for (size_t j = 0; ok && j < CZK_FIL_EXP_PARENTS; j++) ok = c->exp_parents[j].n_rows == layers;
            czk_err e = ok ? CZK_OK : CZK_ERR_INVALID_ARGUMENT;
            cl->n_rows = (uint8_t)layers;
            for (size_t l = 1; !e && l <= layers; l++)
                if (!czk_fil_c1_label(pt->replica_id, c, l, cl->c_x_rows[l - 1])) e = CZK_ERR_NO_MEMORY;
            if (!e) e = split(p, &c->comm_d_path, &cl->comm_d, true);
            memcpy(cl->comm_d.leaf, c->data_leaf, 32);
            memcpy(cl->comm_d.root, pt->comm_d, 32);
            if (!e) e = split(p, &c->comm_r_last_path, &cl->comm_r_last, false);
            if (!e && !czk_fil_c1_encode_node(cl->c_x_rows[layers - 1], c->data_leaf, cl->comm_r_last.leaf))
                e = CZK_ERR_NOT_CANONICAL;
            memcpy(cl->comm_r_last.root, pt->comm_r_last, 32);
            if (!e) e = split(p, &c->comm_c_path, &cl->c_x, false);
            size_t bad;
            if (!e) e = czk_fil_c1_column_hash((const uint8_t(*)[32])cl->c_x_rows, layers, cl->c_x.leaf, &bad);
            memcpy(cl->c_x.root, pt->comm_c, 32);
            for (size_t j = 0; !e && j < CZK_FIL_DRG_PARENTS; j++)
                e = column_claims(p, &c->drg_parents[j], pt->comm_c, &cl->drg[j]);
            for (size_t j = 0; !e && j < CZK_FIL_EXP_PARENTS; j++)
                e = column_claims(p, &c->exp_parents[j], pt->comm_c, &cl->exp[j]);
            if (e) {
                if (msg && msglen)
                    snprintf(msg, msglen, "vanilla_proofs[%zu][%zu]: cannot state its claims (%s)", k, i, czk_err_str(e));
                return e;
            }
        }
    }
    return CZK_OK;
}
