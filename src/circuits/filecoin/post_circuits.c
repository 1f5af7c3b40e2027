/* czk — the Fallback PoSt circuits in the circuit provider: winning-2k …
 * winning-64g and wpost-2k … wpost-64g, one per circuit id of
 * czk/filecoin_post.h's table (the V1 and V1_2 WindowPoSt rows share a
 * circuit: the API version changes challenges, not structure). */
#include <stdio.h>
#include <string.h>

#include "czk/circuit_post.h"
#include "czk/pool.h"

/* The first row of a circuit id. */
static const czk_fil_post_proof *proof_of(const char *id) {
    for (uint64_t i = 0; i < czk_fil_post_proof_count(); i++) {
        const czk_fil_post_proof *p = czk_fil_post_proof_get(i);
        if (p && !strcmp(p->circuit_id, id)) return p;
    }
    return NULL;
}

czk_err czk_post_circuit_shape(const czk_circuit *c, czk_post_shape *out, char *msg, size_t msglen) {
    const czk_fil_post_proof *p = proof_of(c->id);
    if (!p) {
        if (msg && msglen) snprintf(msg, msglen, "circuit '%s' is not a PoSt circuit", c->id);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_post_shape_from_proof(out, p);
    return CZK_OK;
}

static czk_err synthesize_blank(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    (void)partition;
    (void)seed;
    char msg[160];
    czk_post_shape s;
    czk_err e = czk_post_circuit_shape(c, &s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_cs_mode mode = czk_cs_get_mode(cs);
    if (mode != CZK_CS_RECORD && mode != CZK_CS_COUNT)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT,
                            "%s: a seed is no PoSt input (its witness comes from vanilla proofs)", c->id);
    return czk_post_synthesize(cs, &s, NULL);
}

/* What synthesize_input checks of its arguments; the shape on success. */
static czk_err input_check(const czk_circuit *c, size_t partition, const void *input, czk_post_shape *s, char *msg,
                           size_t msglen) {
    czk_err e = czk_post_circuit_shape(c, s, msg, msglen);
    if (e) return e;
    if (!input) {
        snprintf(msg, msglen, "%s partition %zu: no input", c->id, partition);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (partition != 0) {
        snprintf(msg, msglen, "%s: partition %zu, a request holds partition 0 only", c->id, partition);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    const czk_fil_post_partition *in = input;
    const czk_fil_post_proof *p = czk_fil_post_proof_get(in->registered_proof);
    if (!p || strcmp(p->circuit_id, c->id)) {
        snprintf(msg, msglen, "%s: the input is for RegisteredPoStProof %llu (%s)", c->id,
                 (unsigned long long)in->registered_proof, p ? p->circuit_id : "unknown");
        return CZK_ERR_MISMATCH;
    }
    return CZK_OK;
}

czk_err czk_post_circuit_synthesize_input(czk_cs *cs, const czk_circuit *c, size_t partition, const void *input) {
    char msg[200];
    czk_post_shape s;
    czk_err e = input_check(c, partition, input, &s, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    return czk_post_synthesize(cs, &s, input);
}

/* The same witness with the sectors on the default pool (czk_post_witness). */
static czk_err witness_input(const czk_circuit *c, size_t partition, const void *input, czk_witness *out, char *msg,
                             size_t msglen) {
    char m[200];
    czk_post_shape s;
    memset(out, 0, sizeof *out);
    czk_err e = input_check(c, partition, input, &s, m, sizeof m);
    if (e) {
        if (msg && msglen) snprintf(msg, msglen, "synthesis failed (%s): %s", czk_err_str(e), m);
        return e;
    }
    return czk_post_witness(out, &s, input, czk_pool_default(), msg, msglen);
}

bool czk_post_circuit_lookup(czk_circuit *out, const char *id) {
    if (!proof_of(id)) return false;
    out->partitions = 1;
    out->synthesize = synthesize_blank;
    out->synthesize_input = czk_post_circuit_synthesize_input;
    out->witness_input = witness_input;
    return true;
}
