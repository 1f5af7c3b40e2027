/* czk — field-element gadgets, exact to bellpepper-core 0.2's gadgets::num
 * (AllocatedNum, Num) as bellperson 0.27 circuits use them: the same aux and
 * input variables, constraints, order and coefficients.
 *
 * Values may be unknown (has_value false) only in RECORD mode; see
 * gadget_boolean.h for the conventions on namespaces and WITNESS mode. */
#ifndef CZK_GADGET_NUM_H
#define CZK_GADGET_NUM_H

#include <stdbool.h>
#include "czk/gadget_boolean.h"

/* bellpepper's AllocatedNum: a variable (aux or input) and its value, which
 * is meaningful only when has_value. */
typedef struct {
    czk_var var;
    bool has_value;
    czk_fr value;
} czk_num;

/* bellpepper's Num: a linear combination with its value. Owns lc's memory:
 * free with czk_num_lc_free. A zeroed struct is NOT Num::zero (its value is
 * unknown); use czk_num_lc_zero. */
typedef struct {
    czk_lc lc;
    bool has_value;
    czk_fr value;
} czk_num_lc;

/* ---- AllocatedNum ------------------------------------------------------------ */

/* AllocatedNum::alloc: aux "num" = value (NULL: unknown). No constraint. */
czk_err czk_num_alloc(czk_cs *cs, czk_num *out, const czk_fr *value);
/* AllocatedNum::alloc_input: input "input num". No constraint. */
czk_err czk_num_alloc_input(czk_cs *cs, czk_num *out, const czk_fr *value);
/* AllocatedNum::inputize: input "input variable" = a, then "enforce input
 * is correct": input · ONE = a. */
czk_err czk_num_inputize(czk_cs *cs, const czk_num *a);
/* AllocatedNum::add: aux "sum num", "addition constraint":
 * (a + b) · ONE = sum. */
czk_err czk_num_add(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b);
/* AllocatedNum::mul: aux "product num", "multiplication constraint":
 * a · b = ab. */
czk_err czk_num_mul(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b);
/* AllocatedNum::square: aux "squared num", "squaring constraint": a · a = aa. */
czk_err czk_num_square(czk_cs *cs, czk_num *out, const czk_num *a);
/* AllocatedNum::assert_nonzero: aux "ephemeral inverse", "nonzero assertion
 * constraint": a · inv = ONE. A zero value fails with CZK_ERR_SYNTHESIS
 * (bellpepper's DivisionByZero) in WITNESS and CHECK modes. */
czk_err czk_num_assert_nonzero(czk_cs *cs, const czk_num *a);
/* AllocatedNum::to_bits_le: 255 bits via field_into_allocated_bits_le
 * (255 aux + 255 boolean constraints), then "unpacking constraint":
 * 0 · 0 = Σ 2^i·bit_i - a. out[0] is the least significant bit. Not strict:
 * a + r has the same low 255 bits only when a + r < 2^255 (use _strict for
 * a canonical decomposition). */
czk_err czk_num_to_bits_le(czk_cs *cs, czk_boolean out[255], const czk_num *a);
/* AllocatedNum::to_bits_le_strict: 255 bits constrained to encode a value
 * <= r - 1 (runs of ones of r - 1 and-ed through namespaces "run ending at
 * i"/"and k", bits in namespaces "bit i" counted from the most significant),
 * then "unpacking constraint". out[0] is the least significant bit. */
czk_err czk_num_to_bits_le_strict(czk_cs *cs, czk_boolean out[255], const czk_num *a);
/* AllocatedNum::conditionally_reverse: (c, d) = condition ? (b, a) : (a, b);
 * namespace "conditional reversal result 1" aux c, "first conditional
 * reversal": (a - b) · condition = a - c; then "conditional reversal result
 * 2" aux d, "second conditional reversal": (b - a) · condition = b - d. */
czk_err czk_num_conditionally_reverse(czk_cs *cs, czk_num *out_c, czk_num *out_d, const czk_num *a,
                                      const czk_num *b, const czk_boolean *condition);
/* storage-proofs-core's constraint::equal: one constraint named `name`:
 * a · ONE = b. */
void czk_num_enforce_equal(czk_cs *cs, const char *name, const czk_num *a, const czk_num *b);

/* storage-proofs-core's constraint::sum: one constraint named `name`:
 * (a + b) · ONE = sum. */
void czk_constraint_sum(czk_cs *cs, const char *name, const czk_num *a, const czk_num *b, const czk_num *sum);
/* constraint::difference: (difference + b) · ONE = a. */
void czk_constraint_difference(czk_cs *cs, const char *name, const czk_num *a, const czk_num *b,
                               const czk_num *difference);
/* constraint::add: aux "add_num" (namespace, AllocatedNum "num") = a + b,
 * then "sum constraint". */
czk_err czk_constraint_add(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b);
/* constraint::sub: aux "sub_num" = a - b, then "subtraction constraint"
 * (constraint::difference). */
czk_err czk_constraint_sub(czk_cs *cs, czk_num *out, const czk_num *a, const czk_num *b);

/* ---- Num ----------------------------------------------------------------------- */

/* Num::zero: empty LC, value 0. */
void czk_num_lc_zero(czk_num_lc *n);
/* From<AllocatedNum> for Num: LC 1·a.var, a's value. */
void czk_num_lc_from_num(czk_num_lc *n, const czk_num *a);
void czk_num_lc_free(czk_num_lc *n);
/* Num::add_bool_with_coeff (one is ONE): n.lc += bit.lc(ONE, coeff); value
 * += coeff when bit is true (unknown if either is unknown). */
void czk_num_lc_add_bool_with_coeff(czk_num_lc *n, const czk_boolean *bit, const czk_fr *coeff);
/* Num::add: n.lc += other.lc, values added. */
void czk_num_lc_add(czk_num_lc *n, const czk_num_lc *other);
/* Num::scale: every coefficient and the value times s. */
void czk_num_lc_scale(czk_num_lc *n, const czk_fr *s);
/* Num::lc(coeff), added into out: out += coeff·n.lc (coeff NULL means 1). */
void czk_num_lc_lc(czk_lc *out, const czk_num_lc *n, const czk_fr *coeff);
/* Num's value; false when unknown. */
bool czk_num_lc_value(const czk_num_lc *n, czk_fr *out);

#endif
