/* czk — the empty-sector-update circuits in the circuit provider: snap-2k …
 * snap-64g and snap-poseidon-32g / -64g, one per row of czk/filecoin_post.h's
 * RegisteredUpdateProof table. */
#include <stdio.h>
#include <string.h>

#include "czk/circuit_update.h"
#include "czk/filecoin_post.h"

/* The registered proof whose circuit id (or Poseidon circuit id) is id. */
static const czk_fil_update_proof *proof_of(const char *id, bool *poseidon) {
    for (uint64_t i = 0; i < czk_fil_update_proof_count(); i++) {
        const czk_fil_update_proof *p = czk_fil_update_proof_get(i);
        if (!p) continue;
        if (p->circuit_id && !strcmp(p->circuit_id, id)) {
            *poseidon = false;
            return p;
        }
        if (p->circuit_id_poseidon && !strcmp(p->circuit_id_poseidon, id)) {
            *poseidon = true;
            return p;
        }
    }
    return NULL;
}

czk_err czk_update_circuit_shape(const czk_circuit *c, czk_update_shape *out, char *msg, size_t msglen) {
    bool poseidon;
    const czk_fil_update_proof *p = proof_of(c->id, &poseidon);
    czk_err e = p ? czk_update_shape_for_nodes(out, p->sector_size / 32, poseidon) : CZK_ERR_INVALID_ARGUMENT;
    if (!e) {
        out->tree_base = p->tree_base;
        out->tree_sub = p->tree_sub;
        out->tree_top = p->tree_top;
        return czk_update_shape_check(out, msg, msglen);
    }
    if (msg && msglen) snprintf(msg, msglen, "circuit '%s' is not an empty-sector-update circuit", c->id);
    return CZK_ERR_INVALID_ARGUMENT;
}

static czk_err synthesize_blank(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    (void)partition;
    (void)seed;
    char msg[200];
    czk_update_shape s;
    czk_err e = czk_update_circuit_shape(c, &s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_cs_mode mode = czk_cs_get_mode(cs);
    if (mode != CZK_CS_RECORD && mode != CZK_CS_COUNT)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT,
                            "%s: a seed is no update input (its witness comes from the vanilla proofs)", c->id);
    return czk_update_synthesize(cs, &s, NULL);
}

czk_err czk_update_circuit_synthesize_input(czk_cs *cs, const czk_circuit *c, size_t partition, const void *input) {
    char msg[200];
    czk_update_shape s;
    czk_err e = czk_update_circuit_shape(c, &s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    if (!input) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "%s partition %zu: no input", c->id, partition);
    if (partition >= c->partitions)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "%s: partition %zu of %zu", c->id, partition,
                            c->partitions);
    return czk_update_synthesize(cs, &s, (const czk_fil_update_partition *)input + partition);
}

bool czk_update_circuit_lookup(czk_circuit *out, const char *id) {
    bool poseidon;
    const czk_fil_update_proof *p = proof_of(id, &poseidon);
    if (!p) return false;
    out->partitions = poseidon ? 1 : p->partitions;
    out->synthesize = synthesize_blank;
    out->synthesize_input = czk_update_circuit_synthesize_input;
    return true;
}
