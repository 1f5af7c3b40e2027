/* czk — small primitives of the Filecoin layer, internal to src/filecoin/
 * (tests/filecoin/ checks them against OpenSSL). */
#ifndef CZK_FILECOIN_PRIM_H
#define CZK_FILECOIN_PRIM_H

#include <stdint.h>

/* The ChaCha block function (D. J. Bernstein): out = in + 2·double_rounds
 * rounds of in, word by word; in is the 16-word state (constants, key,
 * counter and nonce words as the caller lays them out). ChaCha8 is 4
 * double rounds, ChaCha20 10. */
void czk_fil_chacha_block(const uint32_t in[16], unsigned double_rounds, uint32_t out[16]);

/* BLAKE2b-512 (unkeyed) of the 16-byte message m0 ‖ m1 (each 8 bytes read as
 * little-endian words), returning the first 8 bytes of the digest as a
 * little-endian u64. One compression: 12 rounds. */
uint64_t czk_fil_blake2b512_16_head(uint64_t m0, uint64_t m1);

/* SHA-256 of the concatenation of n pieces (OpenSSL's EVP); false if
 * libcrypto fails (out of memory). */
#include <stdbool.h>
#include <stddef.h>
bool czk_fil_sha256(const void *const *pieces, const size_t *lens, int n, uint8_t out[32]);

#endif
