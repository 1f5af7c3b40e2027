/* czk — the Poseidon circuit, exact to neptune 11's legacy
 * circuit::poseidon_hash (the gadget filecoin-hashers' PoseidonFunction uses
 * for hash_multi_leaf_circuit / hash2_circuit): the same aux variables,
 * constraints, constraint order and coefficients, with the constants of
 * poseidon.h (Strength::Standard, HashType::MerkleTree).
 *
 * Shape (t = arity + 1, R_F = 8): the domain tag's first S-box is a constant;
 * every other S-box costs 3 constraints (x², x⁴, x⁵ with the round keys
 * folded into the LCs) plus one "enforce num allocation preserves lc" when
 * its input is a linear combination; one more for the result:
 *   3·(t·R_F + R_P − 1) + t·R_F + R_P − arity
 * = 311 / 377 / 505 / 598 constraints for arity 2 / 4 / 8 / 11.
 * In WITNESS mode no LC is built. */
#ifndef CZK_GADGET_POSEIDON_H
#define CZK_GADGET_POSEIDON_H

#include <stddef.h>
#include "czk/gadget_num.h"
#include "czk/poseidon.h"

/* neptune circuit::poseidon_hash(cs, preimage, constants) for the MerkleTree
 * constants of arity n (preimage holds n allocated numbers). out is the
 * allocated hash (element 1 of the final state). Values may be unknown only
 * in RECORD mode. CZK_ERR_INVALID_ARGUMENT for an unsupported arity. */
czk_err czk_poseidon_hash_gadget(czk_cs *cs, czk_num *out, const czk_num *preimage, unsigned n);

/* The same on explicit constants. */
czk_err czk_poseidon_hash_gadget_with(czk_cs *cs, czk_num *out, const czk_num *preimage,
                                      const czk_poseidon_constants *c);

/* The number of constraints czk_poseidon_hash_gadget adds for arity n (0 for
 * an unsupported arity). */
size_t czk_poseidon_gadget_constraints(unsigned n);

#endif
