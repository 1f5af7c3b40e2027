/* czk — a PoRep C2 input in memory (include/czk/filecoin_vanilla.h): freeing
 * and sizing it. */
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin_vanilla.h"

static void path_free(czk_fil_path *p) {
    free(p->levels);
    p->levels = NULL;
    p->n_levels = 0;
}

static void column_free(czk_fil_column *c) {
    free(c->rows);
    c->rows = NULL;
    c->n_rows = 0;
    path_free(&c->path);
}

void czk_fil_porep_partition_free(czk_fil_porep_partition *p) {
    if (!p) return;
    for (size_t i = 0; p->challenges && i < p->n_challenges; i++) {
        czk_fil_porep_challenge *c = &p->challenges[i];
        path_free(&c->comm_d_path);
        path_free(&c->comm_r_last_path);
        path_free(&c->comm_c_path);
        for (size_t k = 0; k < CZK_FIL_DRG_PARENTS; k++) column_free(&c->drg_parents[k]);
        for (size_t k = 0; k < CZK_FIL_EXP_PARENTS; k++) column_free(&c->exp_parents[k]);
    }
    free(p->challenges);
    memset(p, 0, sizeof *p);
}

static size_t path_bytes(const czk_fil_path *p) { return p->n_levels * sizeof *p->levels; }

static size_t column_bytes(const czk_fil_column *c) { return c->n_rows * sizeof *c->rows + path_bytes(&c->path); }

size_t czk_fil_porep_partition_bytes(const czk_fil_porep_partition *p) {
    size_t n = p->n_challenges * sizeof *p->challenges;
    for (size_t i = 0; p->challenges && i < p->n_challenges; i++) {
        const czk_fil_porep_challenge *c = &p->challenges[i];
        n += path_bytes(&c->comm_d_path) + path_bytes(&c->comm_r_last_path) + path_bytes(&c->comm_c_path);
        for (size_t k = 0; k < CZK_FIL_DRG_PARENTS; k++) n += column_bytes(&c->drg_parents[k]);
        for (size_t k = 0; k < CZK_FIL_EXP_PARENTS; k++) n += column_bytes(&c->exp_parents[k]);
    }
    return n;
}
