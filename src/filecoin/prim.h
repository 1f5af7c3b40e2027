/* czk — small primitives of the Filecoin layer, internal to src/filecoin/
 * (tests/filecoin/ checks them against OpenSSL). */
#ifndef CZK_FILECOIN_PRIM_H
#define CZK_FILECOIN_PRIM_H

#include <stdbool.h>
#include <stddef.h>
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

/* BLAKE2b (RFC 7693) with an outlen-byte digest (1..64) and an optional key
 * (keylen 0..64) over msg; the parameter block is otherwise the default
 * (fanout 1, depth 1, no salt or personalization), as blake2b_simd::Params. */
void czk_fil_blake2b(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len);

/* IETF ChaCha20 (RFC 8439: 32-bit block counter, 96-bit nonce) keystream
 * bytes [offset, offset + len) for key and nonce, as the chacha20 crate
 * yields them after try_seek(offset). offset + len <= 2^38. */
void czk_fil_chacha20_keystream(const uint8_t key[32], const uint8_t nonce[12], uint64_t offset, uint8_t *out,
                                size_t len);

/* SHA-256 of the concatenation of n pieces (OpenSSL's EVP); false if
 * libcrypto fails (out of memory). */
bool czk_fil_sha256(const void *const *pieces, const size_t *lens, int n, uint8_t out[32]);

#endif
