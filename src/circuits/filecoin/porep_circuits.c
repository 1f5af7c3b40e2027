/* czk — the PoRep circuits in the circuit provider: porep-2k … porep-64g,
 * one per sector size of czk/filecoin.h's table. */
#include <stdio.h>
#include <string.h>

#include "czk/circuit_porep.h"

/* The interactive (feature-less) row of a circuit id; the others (V1,
 * synthetic, NI-PoRep) share its shape. */
static const czk_fil_seal_proof *proof_of(const char *id) {
    for (uint64_t i = 0; i < czk_fil_seal_proof_count(); i++) {
        const czk_fil_seal_proof *p = czk_fil_seal_proof_get(i);
        if (p && p->feature == CZK_FIL_FEATURE_NONE && !strcmp(p->circuit_id, id)) return p;
    }
    return NULL;
}

czk_err czk_porep_circuit_shape(const czk_circuit *c, czk_porep_shape *out, char *msg, size_t msglen) {
    const czk_fil_seal_proof *p = proof_of(c->id);
    if (!p) {
        if (msg && msglen) snprintf(msg, msglen, "circuit '%s' is not a PoRep circuit", c->id);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_porep_shape_from_proof(out, p);
    return CZK_OK;
}

static czk_err synthesize_blank(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    (void)partition;
    (void)seed;
    char msg[160];
    czk_porep_shape s;
    czk_err e = czk_porep_circuit_shape(c, &s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_cs_mode mode = czk_cs_get_mode(cs);
    if (mode != CZK_CS_RECORD && mode != CZK_CS_COUNT)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT,
                            "%s: a seed is no PoRep input (its witness comes from a C1 output)", c->id);
    return czk_porep_synthesize(cs, &s, NULL);
}

czk_err czk_porep_circuit_synthesize_input(czk_cs *cs, const czk_circuit *c, size_t partition, const void *input) {
    char msg[160];
    czk_porep_shape s;
    czk_err e = czk_porep_circuit_shape(c, &s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    if (!input) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "%s partition %zu: no input", c->id, partition);
    /* the job's partition count is the sector's (czk_circuit_input.partitions:
     * NI-PoRep has 13 or 126 of this circuit); the engine stays below it */
    return czk_porep_synthesize(cs, &s, (const czk_fil_porep_partition *)input + partition);
}

bool czk_porep_circuit_lookup(czk_circuit *out, const char *id) {
    const czk_fil_seal_proof *p = proof_of(id);
    if (!p) return false;
    out->partitions = p->partitions;
    out->synthesize = synthesize_blank;
    out->synthesize_input = czk_porep_circuit_synthesize_input;
    return true;
}
