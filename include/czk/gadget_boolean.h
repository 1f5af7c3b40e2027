/* czk — boolean gadgets, exact to bellpepper-core 0.2's gadgets::boolean (the
 * gadgets bellperson 0.27 circuits use): the same aux variables, constraints,
 * constraint order and coefficients, so recorded systems match Filecoin's.
 *
 * Values: every function works in all three constraint-system modes. A value
 * may be unknown (has_value false) only in RECORD mode, when the circuit is
 * recorded without a witness; gadgets then allocate without values (the cs
 * accepts NULL values in RECORD mode only).
 *
 * Namespaces: where bellpepper calls cs.namespace(..) inside a gadget, these
 * functions push/pop a namespace of the same name (only CHECK mode pays for
 * it). The namespace a caller wraps a gadget in is the caller's business.
 *
 * In WITNESS mode (czk_cs_needs_lc false) no LC is built: the gadgets
 * allocate the same variables with their values and count each constraint
 * with czk_cs_enforce(cs, name, NULL, NULL, NULL). */
#ifndef CZK_GADGET_BOOLEAN_H
#define CZK_GADGET_BOOLEAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/r1cs.h"

/* bellpepper's AllocatedBit: a variable constrained (by whoever made it) to
 * be 0 or 1. value is meaningful only when has_value. */
typedef struct {
    czk_var var;
    bool has_value;
    bool value;
} czk_bit;

/* bellpepper's Boolean: Constant(value), Is(bit) or Not(bit). For
 * CZK_BOOLEAN_CONSTANT only `value` is used (has_value is true); for IS/NOT
 * `bit` is the underlying AllocatedBit and the boolean's value is bit.value
 * (negated for NOT). Build them with the constructors below. */
typedef enum { CZK_BOOLEAN_CONSTANT = 0, CZK_BOOLEAN_IS = 1, CZK_BOOLEAN_NOT = 2 } czk_boolean_kind;

typedef struct {
    czk_boolean_kind kind;
    bool value; /* CONSTANT only */
    czk_bit bit; /* IS / NOT only */
} czk_boolean;

/* ---- AllocatedBit ---------------------------------------------------------- */

/* AllocatedBit::alloc: aux "boolean" = value (NULL: unknown), then
 * "boolean constraint": (ONE - v) · v = 0. */
czk_err czk_bit_alloc(czk_cs *cs, czk_bit *out, const bool *value);
/* AllocatedBit::alloc_conditionally: aux "boolean", then "boolean
 * constraint": (ONE - must_be_false - v) · v = 0. */
czk_err czk_bit_alloc_conditionally(czk_cs *cs, czk_bit *out, const bool *value, const czk_bit *must_be_false);
/* AllocatedBit::xor: aux "xor result", "xor constraint": (2a) · b = a + b - c. */
czk_err czk_bit_xor(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b);
/* AllocatedBit::and: aux "and result", "and constraint": a · b = c. */
czk_err czk_bit_and(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b);
/* AllocatedBit::and_not (a AND NOT b): aux "and not result",
 * "and not constraint": a · (ONE - b) = c. */
czk_err czk_bit_and_not(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b);
/* AllocatedBit::nor (NOT a AND NOT b): aux "nor result", "nor constraint":
 * (ONE - a) · (ONE - b) = c. */
czk_err czk_bit_nor(czk_cs *cs, czk_bit *out, const czk_bit *a, const czk_bit *b);

/* ---- Boolean ---------------------------------------------------------------- */

czk_boolean czk_boolean_constant(bool value);
czk_boolean czk_boolean_is(const czk_bit *bit);
/* Boolean::not: free (flips Is/Not, negates a constant). */
czk_boolean czk_boolean_not(const czk_boolean *b);
/* Boolean::get_value: false when the value is unknown. */
bool czk_boolean_value(const czk_boolean *b, bool *out);
/* Boolean::lc(one, coeff), added into lc: CONSTANT true → coeff·ONE,
 * false → nothing; IS → coeff·v; NOT → coeff·ONE - coeff·v. coeff NULL
 * means 1. */
void czk_boolean_lc(czk_lc *lc, const czk_boolean *b, const czk_fr *coeff);
/* As czk_boolean_lc, subtracting (lc - &b.lc(one, coeff)). */
void czk_boolean_lc_sub(czk_lc *lc, const czk_boolean *b, const czk_fr *coeff);

/* Boolean::xor / and / or, with bellpepper's constant folding (no
 * constraint when an operand is constant). or is NOT(AND(NOT a, NOT b)). */
czk_err czk_boolean_xor(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b);
czk_err czk_boolean_and(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b);
czk_err czk_boolean_or(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b);
/* Boolean::sha256_ch: (a AND b) XOR (NOT a AND c); one aux "ch" (not
 * boolean-constrained) and "ch computation": (b - c) · a = ch - c. */
czk_err czk_boolean_sha256_ch(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b,
                              const czk_boolean *c);
/* Boolean::sha256_maj: (a AND b) XOR (a AND c) XOR (b AND c); namespace
 * "b and c" for bc = b AND c, aux "maj", "maj computation":
 * (2bc - b - c) · a = bc - maj. */
czk_err czk_boolean_sha256_maj(czk_cs *cs, czk_boolean *out, const czk_boolean *a, const czk_boolean *b,
                               const czk_boolean *c);
/* Boolean::enforce_equal: two constants that differ fail with
 * CZK_ERR_UNSATISFIED (bellpepper's SynthesisError::Unsatisfiable); else
 * one constraint 0 · 0 = a - b ("enforce equal to one" / "enforce equal to
 * zero" / "enforce equal"). */
czk_err czk_boolean_enforce_equal(czk_cs *cs, const czk_boolean *a, const czk_boolean *b);

/* ---- bit-vector helpers ------------------------------------------------------ */

/* bellpepper's u64_into_boolean_vec_le: 64 AllocatedBits (namespaces
 * "bit 0".."bit 63"), least significant first. value NULL: unknown. */
czk_err czk_u64_into_boolean_vec_le(czk_cs *cs, czk_boolean out[64], const uint64_t *value);
/* The 32-bit analogue (as UInt32::alloc allocates its bits). */
czk_err czk_u32_into_boolean_vec_le(czk_cs *cs, czk_boolean out[32], const uint32_t *value);
/* bellpepper's field_into_allocated_bits_le / field_into_boolean_vec_le:
 * 255 AllocatedBits ("bit 0".."bit 254") of the canonical value, least
 * significant first. value NULL: unknown. */
czk_err czk_field_into_allocated_bits_le(czk_cs *cs, czk_bit out[255], const czk_fr *value);
czk_err czk_field_into_boolean_vec_le(czk_cs *cs, czk_boolean out[255], const czk_fr *value);

#endif
