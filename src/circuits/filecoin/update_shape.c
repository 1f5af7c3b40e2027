/* czk — storage-proofs-update src/constants.rs: the per-size facts of the
 * update circuits as functions of the sector's node count, and the shapes
 * the circuits depend on. See circuit_update.h. */
#include <stdio.h>
#include <string.h>

#include "update_internal.h"

#define KIB_NODES(k) ((uint64_t)(k) << 5) /* k KiB in 32-byte nodes */

/* ALLOWED_SECTOR_SIZES with validate_tree_r_shape's arities */
static const struct {
    uint64_t nodes;
    uint8_t base, sub, top;
} SIZES[] = {
    {KIB_NODES(1), 8, 4, 0},           {KIB_NODES(2), 8, 0, 0},           {KIB_NODES(4), 8, 2, 0},
    {KIB_NODES(8), 8, 4, 0},           {KIB_NODES(16), 8, 8, 0},          {KIB_NODES(32), 8, 8, 2},
    {KIB_NODES(8 << 10), 8, 0, 0},     {KIB_NODES(16 << 10), 8, 2, 0},    {KIB_NODES(512 << 10), 8, 0, 0},
    {KIB_NODES(32ull << 20), 8, 8, 0}, {KIB_NODES(64ull << 20), 8, 8, 2},
};
#define NSIZES (sizeof SIZES / sizeof SIZES[0])

bool czk_update_nodes_allowed(uint64_t nodes) { return czk_update_tree_r_arities(nodes, NULL, NULL, NULL); }

bool czk_update_tree_r_arities(uint64_t nodes, uint8_t *base, uint8_t *sub, uint8_t *top) {
    for (size_t i = 0; i < NSIZES; i++)
        if (SIZES[i].nodes == nodes) {
            if (base) *base = SIZES[i].base;
            if (sub) *sub = SIZES[i].sub;
            if (top) *top = SIZES[i].top;
            return true;
        }
    return false;
}

uint32_t czk_update_partition_count(uint64_t nodes) {
    if (!czk_update_nodes_allowed(nodes)) return 0;
    return nodes <= KIB_NODES(8) ? 1 : nodes <= KIB_NODES(32) ? 2 : nodes <= KIB_NODES(16 << 10) ? 4 : 16;
}

uint32_t czk_update_challenge_count(uint64_t nodes) {
    if (!czk_update_nodes_allowed(nodes)) return 0;
    return nodes <= KIB_NODES(16 << 10) ? 10 : 86;
}

uint32_t czk_update_challenge_count_poseidon(uint64_t nodes) {
    return czk_update_challenge_count(nodes) * czk_update_partition_count(nodes);
}

uint32_t czk_update_apex_leaf_count(uint64_t nodes) {
    if (!czk_update_nodes_allowed(nodes)) return 0;
    return nodes <= KIB_NODES(8) ? 8 : 128;
}

void czk_update_hs(uint64_t nodes, uint32_t out[CZK_UPDATE_HS]) {
    for (unsigned i = 0; i < CZK_UPDATE_HS; i++) out[i] = nodes <= KIB_NODES(32) ? 1 : 7 + i;
}

uint32_t czk_update_h_default(uint64_t nodes) {
    uint32_t hs[CZK_UPDATE_HS];
    czk_update_hs(nodes, hs);
    return hs[3];
}

czk_err czk_update_h_select(uint64_t nodes, uint32_t h, uint64_t *out) {
    uint32_t hs[CZK_UPDATE_HS];
    czk_update_hs(nodes, hs);
    for (unsigned i = 0; i < CZK_UPDATE_HS; i++)
        if (hs[i] == h) {
            *out = (uint64_t)1 << i;
            return CZK_OK;
        }
    return CZK_ERR_INVALID_ARGUMENT;
}

czk_err czk_update_shape_for_nodes(czk_update_shape *out, uint64_t nodes, bool poseidon) {
    memset(out, 0, sizeof *out);
    if (!czk_update_tree_r_arities(nodes, &out->tree_base, &out->tree_sub, &out->tree_top))
        return CZK_ERR_INVALID_ARGUMENT;
    out->nodes = nodes;
    out->poseidon = poseidon;
    return CZK_OK;
}

czk_err czk_update_shape_check(const czk_update_shape *s, char *msg, size_t msglen) {
    uint8_t b, sub, top;
    const char *why = NULL;
    if (!czk_update_tree_r_arities(s->nodes, &b, &sub, &top))
        why = "the sector size is none of ALLOWED_SECTOR_SIZES (1 KiB … 32 KiB, 8 MiB, 16 MiB, 512 MiB, 32 GiB, 64 GiB)";
    else if (s->tree_base != b || s->tree_sub != sub || s->tree_top != top)
        why = "the TreeR shape is not validate_tree_r_shape's for the sector size";
    if (!why) return CZK_OK;
    if (msg && msglen)
        snprintf(msg, msglen, "update shape (%llu nodes, TreeR %u-%u-%u): %s", (unsigned long long)s->nodes,
                 s->tree_base, s->tree_sub, s->tree_top, why);
    return CZK_ERR_INVALID_ARGUMENT;
}

size_t czk_update_input_count(const czk_update_shape *s) {
    (void)s;
    return 5;
}

uint32_t czk_update_shape_challenges(const czk_update_shape *s) {
    return s->poseidon ? czk_update_challenge_count_poseidon(s->nodes) : czk_update_challenge_count(s->nodes);
}

void update_tree_r_por_shape(const czk_update_shape *s, czk_hasher h, czk_por_shape *out) {
    memset(out, 0, sizeof *out);
    out->hasher = h;
    out->base_arity = s->tree_base;
    out->sub_arity = s->tree_sub;
    out->top_arity = s->tree_top;
    /* ChallengeProof::empty: the bits left after the sub and top levels, over the base arity's */
    unsigned bits = update_log2(s->nodes) - (s->tree_sub ? update_log2(s->tree_sub) : 0) -
                    (s->tree_top ? update_log2(s->tree_top) : 0);
    out->base_levels = bits / update_log2(s->tree_base);
}

size_t czk_update_tree_r_levels(const czk_update_shape *s) {
    czk_por_shape t;
    update_tree_r_por_shape(s, CZK_HASHER_POSEIDON, &t);
    return czk_por_path_len(&t);
}
