/* czk — PoSt and sector-update inputs in memory
 * (include/czk/filecoin_vanilla_post.h): freeing and sizing them. */
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin_vanilla_post.h"

static void path_free(czk_fil_path *p) {
    free(p->levels);
    p->levels = NULL;
    p->n_levels = 0;
}

static size_t path_bytes(const czk_fil_path *p) { return p->n_levels * sizeof *p->levels; }

static void sector_free(czk_fil_post_sector *s) {
    for (size_t i = 0; s->paths && i < s->n_challenges; i++) path_free(&s->paths[i]);
    free(s->paths);
    free(s->leaves);
    free(s->challenges);
    memset(s, 0, sizeof *s);
}

void czk_fil_post_partition_free(czk_fil_post_partition *p) {
    if (!p) return;
    for (size_t i = 0; p->sectors && i < p->n_sectors; i++) sector_free(&p->sectors[i]);
    free(p->sectors);
    memset(p, 0, sizeof *p);
}

size_t czk_fil_post_partition_bytes(const czk_fil_post_partition *p) {
    size_t n = p->n_sectors * sizeof *p->sectors;
    for (size_t i = 0; p->sectors && i < p->n_sectors; i++) {
        const czk_fil_post_sector *s = &p->sectors[i];
        n += s->n_challenges * (sizeof *s->challenges + sizeof *s->leaves + sizeof *s->paths);
        for (size_t c = 0; s->paths && c < s->n_challenges; c++) n += path_bytes(&s->paths[c]);
    }
    return n;
}

void czk_fil_update_partition_free(czk_fil_update_partition *p) {
    if (!p) return;
    for (size_t i = 0; p->challenges && i < p->n_challenges; i++) {
        path_free(&p->challenges[i].path_r_old);
        path_free(&p->challenges[i].path_d_new);
        path_free(&p->challenges[i].path_r_new);
    }
    free(p->challenges);
    free(p->apex_leafs);
    memset(p, 0, sizeof *p);
}

size_t czk_fil_update_partition_bytes(const czk_fil_update_partition *p) {
    size_t n = p->n_apex * sizeof *p->apex_leafs + p->n_challenges * sizeof *p->challenges;
    for (size_t i = 0; p->challenges && i < p->n_challenges; i++)
        n += path_bytes(&p->challenges[i].path_r_old) + path_bytes(&p->challenges[i].path_d_new) +
             path_bytes(&p->challenges[i].path_r_new);
    return n;
}
