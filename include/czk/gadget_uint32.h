/* czk — 32-bit words, MultiEq and multipacking, exact to bellperson 0.27's
 * gadgets::uint32, gadgets::multieq and gadgets::multipack (bellpepper's
 * gadgets of the same names): same variables, constraints, order and
 * coefficients. Conventions as in gadget_boolean.h. */
#ifndef CZK_GADGET_UINT32_H
#define CZK_GADGET_UINT32_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/gadget_boolean.h"
#include "czk/gadget_num.h"

/* ---- MultiEq --------------------------------------------------------------------- */

/* bellperson's MultiEq: packs several equalities lhs = rhs of num_bits-bit
 * quantities into one constraint "multieq k": (Σ 2^off·lhs) · ONE =
 * Σ 2^off·rhs, flushed when the next equality would reach Fr's capacity (254
 * bits) and at czk_multieq_finish (bellperson's Drop). The flushed
 * constraint is named in the namespace current at the flush (bellperson:
 * the namespace MultiEq was created in); only CHECK messages differ. */
typedef struct {
    czk_cs *cs;
    size_t ops, bits_used;
    czk_lc lhs, rhs; /* unused in WITNESS mode */
} czk_multieq;

void czk_multieq_init(czk_multieq *m, czk_cs *cs);
/* MultiEq::enforce_equal. lhs and rhs may be NULL in WITNESS mode.
 * num_bits must be < 254. */
void czk_multieq_enforce_equal(czk_multieq *m, size_t num_bits, const czk_lc *lhs, const czk_lc *rhs);
/* Drop: flushes a pending constraint, frees the LCs. */
void czk_multieq_finish(czk_multieq *m);

/* ---- UInt32 ---------------------------------------------------------------------- */

/* bellperson's UInt32: bits[0] is the least significant; value meaningful
 * only when has_value. */
typedef struct {
    czk_boolean bits[32];
    bool has_value;
    uint32_t value;
} czk_uint32;

/* UInt32::constant */
czk_uint32 czk_uint32_constant(uint32_t value);
/* UInt32::alloc: 32 AllocatedBits in namespaces "allocated bit i", least
 * significant first. value NULL: unknown. */
czk_err czk_uint32_alloc(czk_cs *cs, czk_uint32 *out, const uint32_t *value);
/* UInt32::from_bits_be (bits[0] is the most significant) / into_bits_be. */
void czk_uint32_from_bits_be(czk_uint32 *out, const czk_boolean bits[32]);
void czk_uint32_into_bits_be(czk_boolean bits[32], const czk_uint32 *a);
/* UInt32::from_bits (least significant first) / into_bits. */
void czk_uint32_from_bits(czk_uint32 *out, const czk_boolean bits[32]);
/* UInt32::rotr / shr: free (rearranges bits; shr fills constant false). */
czk_uint32 czk_uint32_rotr(const czk_uint32 *a, unsigned by);
czk_uint32 czk_uint32_shr(const czk_uint32 *a, unsigned by);
/* UInt32::xor: Boolean::xor per bit in namespaces "xor of bit i". */
czk_err czk_uint32_xor(czk_cs *cs, czk_uint32 *out, const czk_uint32 *a, const czk_uint32 *b);
/* UInt32::sha256_ch / sha256_maj: the Boolean gadget per bit in namespaces
 * "ch i" / "maj i". */
czk_err czk_uint32_sha256_ch(czk_cs *cs, czk_uint32 *out, const czk_uint32 *a, const czk_uint32 *b,
                             const czk_uint32 *c);
czk_err czk_uint32_sha256_maj(czk_cs *cs, czk_uint32 *out, const czk_uint32 *a, const czk_uint32 *b,
                              const czk_uint32 *c);
/* UInt32::addmany: the sum mod 2^32 of n operands (2 <= n <= 10). All
 * constant: a constant, no constraint. Else allocates the full sum's bits
 * (bit length of n·(2^32 - 1)) in namespaces "result bit i" and hands
 * Σ 2^j·operand bits = Σ 2^i·result bits to the MultiEq. m->cs is the cs. */
czk_err czk_uint32_addmany(czk_multieq *m, czk_uint32 *out, const czk_uint32 *ops, size_t n);

/* ---- multipack ------------------------------------------------------------------- */

#define CZK_MULTIPACK_CAPACITY 254 /* Fr::CAPACITY */

/* multipack::pack_into_inputs: per chunk i of 254 bits, input "input i" =
 * Σ 2^j·bit_j and "packing constraint i": num · ONE = input. */
czk_err czk_multipack_pack_into_inputs(czk_cs *cs, const czk_boolean *bits, size_t n);
/* multipack::pack_bits: the first 254 bits packed into aux ("input"/"num")
 * with "packing constraint": num · ONE = packed. */
czk_err czk_multipack_pack_bits(czk_cs *cs, czk_num *out, const czk_boolean *bits, size_t n);
/* multipack::bytes_to_bits (most significant bit of each byte first) and
 * bytes_to_bits_le (least significant first): 8·n bools. */
void czk_multipack_bytes_to_bits(bool *out, const uint8_t *bytes, size_t n);
void czk_multipack_bytes_to_bits_le(bool *out, const uint8_t *bytes, size_t n);
/* multipack::compute_multipacking: the public inputs pack_into_inputs
 * makes; writes ceil(n / 254) elements and returns that count. */
size_t czk_multipack_compute(czk_fr *out, const bool *bits, size_t n);

#endif
