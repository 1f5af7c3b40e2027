/* czk — the SHA-256 gadget, exact to bellperson 0.27's gadgets::sha256
 * (bellpepper's sha256): the same aux variables, constraints, order and
 * coefficients (one 512-bit block compression of allocated input bits:
 * 25,840 constraints from the constant IV, 26,192 from an allocated state;
 * sha256 of a 512-bit message: 44,874).
 *
 * In WITNESS mode (czk_cs_needs_lc false) the compression runs on native
 * 32-bit words: it allocates the same aux variables in the same order with
 * the same values and counts the same constraints, without building a
 * single LC (all values must then be known). Other modes run the bit-level
 * gadgets of gadget_uint32.h. Conventions as in gadget_boolean.h. */
#ifndef CZK_GADGET_SHA256_H
#define CZK_GADGET_SHA256_H

#include <stddef.h>
#include "czk/gadget_uint32.h"

/* The initial hash value as UInt32 constants. */
void czk_sha256_iv(czk_uint32 out[8]);

/* sha256_compression_function: input is 512 bits, each 32-bit word most
 * significant bit first (UInt32::from_bits_be); state is 8 words. Its own
 * MultiEq is flushed before it returns. out may alias state. */
czk_err czk_sha256_compression(czk_cs *cs, czk_uint32 out[8], const czk_boolean input[512],
                               const czk_uint32 state[8]);

/* sha256_block_no_padding: the compression of one block from the IV,
 * output as 256 bits (each word most significant bit first). */
czk_err czk_sha256_block_no_padding(czk_cs *cs, czk_boolean out[256], const czk_boolean input[512]);

/* sha256: pads the n_bits-bit message (n_bits % 8 == 0, else
 * CZK_ERR_INVALID_ARGUMENT) with constants, compresses block i in
 * namespace "block i", and outputs the 256-bit digest, most significant bit
 * of each byte first (the digest's bytes in order). */
czk_err czk_sha256(czk_cs *cs, czk_boolean out[256], const czk_boolean *input, size_t n_bits);

#endif
