/* czk — storage-proofs-core (rust-fil-proofs 19) gadgets: insertion
 * (gadgets::insertion: insert, insert_2/4/8, select, pick) and UInt64
 * (gadgets::uint64), exact to their variables, constraints, order and
 * coefficients. Costs: insert_2 = 2, insert_4 = 8, insert_8 = 22
 * constraints; the general insert of size s costs s·(s-1). Conventions as in
 * gadget_boolean.h. */
#ifndef CZK_GADGET_INSERT_H
#define CZK_GADGET_INSERT_H

#include <stddef.h>
#include <stdint.h>
#include "czk/gadget_num.h"

/* pick: aux "pick result" c = condition ? a : b (in namespace "pick
 * result" as AllocatedNum "num"), constraint "pick":
 * (b - a) · condition = b - c. */
czk_err czk_pick(czk_cs *cs, czk_num *out, const czk_boolean *condition, const czk_num *a, const czk_num *b);

/* select: from[n] where n is given by bits (least significant first),
 * n_from = 2^n_bits (else CZK_ERR_INVALID_ARGUMENT); picks in namespaces
 * "pick i, j", most significant bit first. n_from - 1 constraints. */
czk_err czk_select(czk_cs *cs, czk_num *out, const czk_num *from, size_t n_from, const czk_boolean *bits,
                   size_t n_bits);

/* insert: out (n_elements + 1 nums) is elements with element inserted at
 * position n (bits, least significant first); n_elements + 1 must be
 * 2^n_bits. Sizes 2, 4 and 8 use the hand-optimised insert_2/4/8; others
 * select per position in namespaces "choice at pos". insert_8 needs its
 * first two bits allocated and not negated (else CZK_ERR_INVALID_ARGUMENT;
 * storage-proofs-core panics). */
czk_err czk_insert(czk_cs *cs, czk_num *out, const czk_num *element, const czk_boolean *bits, size_t n_bits,
                   const czk_num *elements, size_t n_elements);
czk_err czk_insert_2(czk_cs *cs, czk_num out[2], const czk_num *element, const czk_boolean bits[1],
                     const czk_num elements[1]);
czk_err czk_insert_4(czk_cs *cs, czk_num out[4], const czk_num *element, const czk_boolean bits[2],
                     const czk_num elements[3]);
czk_err czk_insert_8(czk_cs *cs, czk_num out[8], const czk_num *element, const czk_boolean bits[3],
                     const czk_num elements[7]);

/* ---- UInt64 (storage-proofs-core gadgets::uint64) ---------------------------------- */

typedef struct {
    czk_boolean bits[64]; /* least significant first */
    bool has_value;
    uint64_t value;
} czk_uint64;

czk_uint64 czk_uint64_constant(uint64_t value);
/* UInt64::alloc: 64 AllocatedBits in namespaces "allocated bit i". */
czk_err czk_uint64_alloc(czk_cs *cs, czk_uint64 *out, const uint64_t *value);
/* UInt64::to_bits_be / from_bits_be (bits[0] most significant), to_bits_le
 * / from_bits (bits[0] least significant). */
void czk_uint64_to_bits_be(czk_boolean bits[64], const czk_uint64 *a);
void czk_uint64_from_bits_be(czk_uint64 *out, const czk_boolean bits[64]);
void czk_uint64_to_bits_le(czk_boolean bits[64], const czk_uint64 *a);
void czk_uint64_from_bits(czk_uint64 *out, const czk_boolean bits[64]);
/* UInt64::pack_into_input: multipack::pack_into_inputs of the 64 bits (one
 * input "input 0", one constraint). */
czk_err czk_uint64_pack_into_input(czk_cs *cs, const czk_uint64 *a);

#endif
