/* czk — circuits whose instance is data (czk_circuit.synthesize_input):
 * adapters to the r1cs modes. */
#include <stdio.h>

#include "czk/circuit.h"

typedef struct {
    const czk_circuit *c;
    size_t partition;
    const void *input;
} input_ctx;

static czk_err input_adapter(czk_cs *cs, void *ctx) {
    const input_ctx *x = ctx;
    return x->c->synthesize_input(cs, x->c, x->partition, x->input);
}

void czk_circuit_input_release(czk_circuit_input *in) {
    if (!in || !in->data) return;
    if (in->free_fn) in->free_fn(in->free_arg ? in->free_arg : in->data);
    in->data = in->free_arg = NULL;
}

static czk_err no_input(const czk_circuit *c, char *msg, size_t msglen) {
    if (msg && msglen) snprintf(msg, msglen, "circuit '%s' takes no input data (its instance is a seed)", c->id);
    return CZK_ERR_INVALID_ARGUMENT;
}

czk_err czk_circuit_witness_input(const czk_circuit *c, size_t partition, const void *input, czk_witness *out,
                                  char *msg, size_t msglen) {
    if (!c->synthesize_input || !input) return no_input(c, msg, msglen);
    if (c->witness_input) return c->witness_input(c, partition, input, out, msg, msglen);
    input_ctx x = {c, partition, input};
    return czk_witness_generate_reserve(out, input_adapter, &x, c->profile.inputs, c->profile.constraints, msg, msglen);
}

czk_err czk_circuit_check_input(const czk_circuit *c, size_t partition, const void *input, char *msg, size_t msglen) {
    if (!c->synthesize_input || !input) return no_input(c, msg, msglen);
    input_ctx x = {c, partition, input};
    return czk_cs_check(input_adapter, &x, msg, msglen);
}
