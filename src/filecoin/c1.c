/* czk — a decoded C1 output (filecoin_c1.h): freeing and sizing it. */
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin_c1.h"

void czk_fil_c1_free(czk_fil_c1 *c1) {
    if (!c1) return;
    for (size_t k = 0; c1->partitions && k < c1->n_partitions; k++) czk_fil_porep_partition_free(&c1->partitions[k]);
    for (size_t k = 0; c1->claims && k < c1->n_partitions; k++) free(c1->claims[k]);
    free(c1->partitions);
    free(c1->claims);
    memset(c1, 0, sizeof *c1);
}

size_t czk_fil_c1_bytes(const czk_fil_c1 *c1) {
    size_t n = c1->n_partitions * (sizeof *c1->partitions + sizeof *c1->claims);
    for (size_t k = 0; c1->partitions && k < c1->n_partitions; k++) {
        n += czk_fil_porep_partition_bytes(&c1->partitions[k]);
        n += c1->partitions[k].n_challenges * sizeof **c1->claims;
    }
    return n;
}

const uint8_t *czk_fil_c1_label_parent(const czk_fil_porep_challenge *c, size_t layer, size_t j) {
    size_t m = layer == 1 ? CZK_FIL_DRG_PARENTS : CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS;
    size_t i = j % m;
    if (i < CZK_FIL_DRG_PARENTS) return c->drg_parents[i].rows[layer - 1];
    return c->exp_parents[i - CZK_FIL_DRG_PARENTS].rows[layer - 2];
}

static unsigned log_of(uint64_t x, unsigned base) {
    unsigned n = 0;
    while (x > 1) {
        x /= base;
        n++;
    }
    return n;
}

size_t czk_fil_c1_bytes_expected(const czk_fil_seal_proof *p) {
    uint64_t leaves = p->nodes / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1);
    size_t r_levels = log_of(leaves, p->tree_base) + (p->tree_sub ? 1 : 0) + (p->tree_top ? 1 : 0);
    size_t d_levels = log_of(p->nodes, 2);
    size_t lv = sizeof(czk_fil_path_level);
    size_t columns = CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS;
    size_t per_challenge = sizeof(czk_fil_porep_challenge) + sizeof(czk_fil_c1_claims) + d_levels * lv +
                           (2 + columns) * r_levels * lv + columns * (size_t)p->layers * 32;
    return (size_t)p->partitions * (sizeof(czk_fil_porep_partition) + sizeof(czk_fil_c1_claims *) +
                                    (size_t)p->challenges_per_partition * per_challenge);
}
