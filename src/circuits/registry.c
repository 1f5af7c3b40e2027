/* czk — the built-in circuits by id, and adapters to the r1cs modes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits.h"
#include "czk/circuit.h"
#include "czk/circuit_porep.h"
#include "czk/circuit_post.h"
#include "czk/circuit_update.h"

czk_err czk_circuit_find(czk_circuit *out, const char *id, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (strlen(id) >= sizeof out->id) goto unknown;
    snprintf(out->id, sizeof out->id, "%s", id);
    out->partitions = 1;
    if (!strcmp(id, "demo")) {
        out->synthesize = czk_demo_synthesize;
        out->demo_rounds = 10;
        return CZK_OK;
    }
    if (!strncmp(id, "synthetic-", 10)) {
        char *end;
        long k = strtol(id + 10, &end, 10);
        if (*end || end == id + 10 || k < 10 || k > 27) goto unknown;
        out->synthesize = czk_synthetic_synthesize;
        return czk_synthetic_profile_porep(&out->profile, (unsigned)k);
    }
    if (czk_gadget_circuit_lookup(out, id)) return CZK_OK;
    if (czk_porep_circuit_lookup(out, id)) return CZK_OK;
    if (czk_post_circuit_lookup(out, id)) return CZK_OK;
    if (czk_update_circuit_lookup(out, id)) return CZK_OK;
unknown:
    if (msg && msglen)
        snprintf(msg, msglen, "unknown circuit '%s' (built-in: demo, synthetic-K for K = 10 … 27, gadget-sha256-block, "
                 "gadget-sha256-512, gadget-poseidon-N for N = 2, 4, 8, 11, gadget-insert-N for N = 2, 4, 8, porep-2k, porep-8m, porep-512m, porep-32g, porep-64g, "
                 "winning-S, wpost-S and snap-S for S = 2k, 8m, 512m, 32g, 64g, snap-poseidon-32g, snap-poseidon-64g)",
                 id);
    return CZK_ERR_INVALID_ARGUMENT;
}

typedef struct {
    const czk_circuit *c;
    size_t partition;
    uint64_t seed;
} adapter_ctx;

static czk_err adapter(czk_cs *cs, void *ctx) {
    adapter_ctx *x = ctx;
    return x->c->synthesize(cs, x->c, x->partition, x->seed);
}

czk_err czk_circuit_record(const czk_circuit *c, czk_r1cs *out, char *msg, size_t msglen) {
    adapter_ctx x = {c, 0, 0};
    return czk_r1cs_record(out, adapter, &x, msg, msglen);
}

czk_err czk_circuit_record_compact(const czk_circuit *c, czk_r1cs_compact *out, char *msg, size_t msglen) {
    adapter_ctx x = {c, 0, 0};
    return czk_r1cs_compact_record(out, adapter, &x, msg, msglen);
}

czk_err czk_circuit_witness(const czk_circuit *c, size_t partition, uint64_t seed, czk_witness *out, char *msg,
                            size_t msglen) {
    adapter_ctx x = {c, partition, seed};
    size_t aux_hint = c->profile.constraints; /* synthetic: one aux per row */
    return czk_witness_generate_reserve(out, adapter, &x, c->profile.inputs, aux_hint, msg, msglen);
}

czk_err czk_circuit_check(const czk_circuit *c, size_t partition, uint64_t seed, char *msg, size_t msglen) {
    adapter_ctx x = {c, partition, seed};
    return czk_cs_check(adapter, &x, msg, msglen);
}
