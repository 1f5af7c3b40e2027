/* czk — internal: the synthesizers of the built-in circuits. */
#ifndef CZK_CIRCUITS_INTERNAL_H
#define CZK_CIRCUITS_INTERNAL_H

#include <stdbool.h>

#include "czk/circuit.h"

czk_err czk_demo_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed);
czk_err czk_synthetic_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed);
/* gadget_circuits.c: fills out->synthesize for a gadget-* id; false when id
 * is not one. */
bool czk_gadget_circuit_lookup(czk_circuit *out, const char *id);

#endif
