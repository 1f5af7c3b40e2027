/* czk — Groth16 files: bellperson's parameters (.params), verifying keys
 * (.vk) and proofs, byte for byte; snarkjs JSON exports; public.json input.
 *
 * Formats (all integers big-endian, all points zcash encodings, see g1.h):
 *   vk      alpha_g1 beta_g1 (G1) beta_g2 gamma_g2 (G2) delta_g1 (G1)
 *           delta_g2 (G2), all uncompressed; u32 n_ic; n_ic G1 uncompressed.
 *   params  vk, then h, l, a, b_g1 (G1) and b_g2 (G2), each a u32 count
 *           followed by that many uncompressed points. Nothing follows.
 *   proof   A (G1 compressed, 48) ‖ B (G2 compressed, 96) ‖ C (G1, 48);
 *           the proofs of several partitions are concatenated.
 *
 * What the readers accept is what bellperson's readers accept:
 *   - the six fixed vk points may be the point at infinity; IC points, the
 *     points of h, l, a, b_g1, b_g2, and A, B, C of a proof may not;
 *   - every vk point and every proof point is checked to be on the curve and
 *     in the order-r subgroup, whatever the mode (bellperson's
 *     VerifyingKey::read and Proof::read always check);
 *   - query points (h … b_g2) are always checked to be on the curve; the
 *     subgroup check runs in CZK_DECODE_CHECKED mode only (bellperson's
 *     `checked` flag).
 * czk is stricter than bellperson in one way: a params or vk buffer with
 * bytes after its last section is rejected.
 *
 * Errors: CZK_ERR_IO when a file cannot be opened, read, written or renamed;
 * CZK_ERR_FORMAT for any malformed content (truncation, a count that does not
 * fit the data, trailing bytes, a bad point — the message names the section,
 * the point's index and byte offset, and the point decoder's reason);
 * CZK_ERR_NO_MEMORY; CZK_ERR_INVALID_ARGUMENT for bad arguments (for example
 * writing a point at infinity where the readers would reject it). Every
 * function fills msg (when msglen > 0) with a one-line description on error.
 * No input, however malformed, makes a reader crash; the binary readers
 * check every count against the bytes present before allocating, so they
 * never allocate more than about twice the input's size. On error, outputs
 * are left empty (arrays NULL, counts 0), never half-filled. */
#ifndef CZK_GROTH16_IO_H
#define CZK_GROTH16_IO_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/groth16.h"
#include "czk/pool.h"

/* ---- verifying keys ---------------------------------------------------------- */

/* Bytes of an encoded vk with n_ic IC points: 864 + 4 + 96·n_ic. */
size_t czk_vk_encoded_size(size_t n_ic);
/* Encodes vk into out[0, cap). With out = NULL only *len is set (size query).
 * CZK_ERR_INVALID_ARGUMENT if cap is too small, an IC point is at infinity,
 * or n_ic does not fit in a u32. *len is the encoded size in every case. */
czk_err czk_vk_encode(const czk_vk *vk, uint8_t *out, size_t cap, size_t *len, char *msg, size_t msglen);
/* Decodes exactly len bytes (no trailing bytes allowed). out->ic is a czk_mem
 * buffer (CZK_MEM_SRS); release with czk_vk_free. */
czk_err czk_vk_decode(czk_vk *out, const uint8_t *in, size_t len, char *msg, size_t msglen);
/* Atomic file write: a temporary file in the same directory, fsync, rename. */
czk_err czk_vk_write(const czk_vk *vk, const char *path, char *msg, size_t msglen);
czk_err czk_vk_read(czk_vk *out, const char *path, char *msg, size_t msglen);

/* ---- parameters ---------------------------------------------------------------- */

/* Bytes of the encoding of p. */
size_t czk_params_encoded_size(const czk_params *p);
/* Encodes p into out[0, cap) (out = NULL: size query only), points encoded in
 * parallel on pool (NULL: the calling thread). */
czk_err czk_params_encode(const czk_params *p, uint8_t *out, size_t cap, size_t *len, czk_pool *pool, char *msg,
                          size_t msglen);
/* Decodes a whole params image of len bytes. The structure (every count
 * against the bytes left, no trailing bytes) is validated before anything is
 * allocated; then points are decoded in parallel on pool (NULL: the calling
 * thread) into czk_mem buffers (CZK_MEM_SRS). When several points are bad,
 * the reported one is the first in file order. Release with czk_params_free. */
czk_err czk_params_decode(czk_params *out, const uint8_t *in, size_t len, czk_decode_mode mode, czk_pool *pool,
                          char *msg, size_t msglen);
/* Atomic file write (temporary file, fsync, rename); points are encoded on
 * the default pool (czk_pool_default). */
czk_err czk_params_write(const czk_params *p, const char *path, char *msg, size_t msglen);
/* Maps the file read-only and decodes it as czk_params_decode does. The file
 * must not be truncated by another process while it is being read. */
czk_err czk_params_read(czk_params *out, const char *path, czk_decode_mode mode, czk_pool *pool, char *msg,
                        size_t msglen);

/* ---- parameters, streamed (params_stream_read.c) ------------------------------ */

/* The five query sections of a params file, in file order. */
typedef enum {
    CZK_PARAMS_H = 0,
    CZK_PARAMS_L,
    CZK_PARAMS_A,
    CZK_PARAMS_B_G1,
    CZK_PARAMS_B_G2,
    CZK_PARAMS_N_SECTIONS
} czk_params_section;

/* "h", "l", "a", "b_g1", "b_g2" ("?" out of range). */
const char *czk_params_section_name(czk_params_section s);
/* Bytes of one uncompressed point of section s: 96 (G1) or 192 (b_g2). */
size_t czk_params_section_point_bytes(czk_params_section s);

/* A params file's structure, from its counts alone. */
typedef struct {
    uint64_t file_bytes;
    uint64_t vk_bytes;                         /* the vk at offset 0 */
    uint64_t offset[CZK_PARAMS_N_SECTIONS];    /* of each section's first point */
    size_t n[CZK_PARAMS_N_SECTIONS];           /* points of each section */
} czk_params_layout;

/* Where the query bytes of a streamed file go. Every callback returns
 * CZK_OK or an error (with a message), which ends the read with that
 * error. Calls come from the reading thread, in this order: begin once;
 * then for each chunk, buffer, then chunk. */
typedef struct {
    void *ctx;
    /* The layout, validated, before any point is read. */
    czk_err (*begin)(void *ctx, const czk_params_layout *layout, char *msg, size_t msglen);
    /* A buffer of *cap >= 192 bytes to read the next chunk into; it may
     * wait until the buffer's previous chunk is consumed. */
    czk_err (*buffer)(void *ctx, uint8_t **buf, size_t *cap, char *msg, size_t msglen);
    /* Points [first, first + count) of section s, their raw file bytes
     * (count · czk_params_section_point_bytes(s)) at the start of the buffer
     * last given. count >= 1; the chunks of a section come in order and
     * cover it exactly; a chunk holds as many points as fit the buffer (and
     * remain in the section). */
    czk_err (*chunk)(void *ctx, czk_params_section s, size_t first, size_t count, uint8_t *buf, char *msg,
                     size_t msglen);
} czk_params_sink;

/* Reads the params file at path without holding it: the vk into *vk (its
 * IC a czk_mem buffer, CZK_MEM_SRS; release with czk_vk_free), the layout
 * into *layout (may be NULL), and every query point's raw bytes through
 * the sink's buffers, read with `readers` parallel preads per chunk (0: 4;
 * at most 64). Host memory: the vk and the sink's buffers. The structure
 * (every count against the file's size, no trailing bytes) is validated
 * from the counts before begin; the points themselves are not decoded here
 * (the sink does: the vk's points are checked as czk_vk_decode checks).
 * Errors as czk_params_read's for the structure (CZK_ERR_FORMAT, naming
 * the section), CZK_ERR_IO when the file cannot be read or shrinks while
 * it is read, or the sink's error; on error *vk is empty. */
czk_err czk_params_stream_read(const char *path, czk_vk *vk, czk_params_layout *layout, const czk_params_sink *sink,
                               unsigned readers, char *msg, size_t msglen);

/* ---- proofs ---------------------------------------------------------------------- */

/* bellperson's Proof::write. The points must not be at infinity (not checked
 * here; czk_proof_decode rejects such an encoding). */
void czk_proof_encode(uint8_t out[CZK_PROOF_BYTES], const czk_proof *proof);
/* bellperson's Proof::read: each point on the curve and in the subgroup, and
 * none at infinity. */
czk_err czk_proof_decode(czk_proof *out, const uint8_t in[CZK_PROOF_BYTES], char *msg, size_t msglen);
/* n proofs, concatenated, into out[0, n·192). */
void czk_proofs_encode(uint8_t *out, const czk_proof *proofs, size_t n);
/* Concatenated proofs: len must be a positive multiple of 192 (n = len/192).
 * *out is a malloc'd array (free with free()). */
czk_err czk_proofs_decode(czk_proof **out, size_t *n, const uint8_t *in, size_t len, char *msg, size_t msglen);
czk_err czk_proofs_write(const czk_proof *proofs, size_t n, const char *path, char *msg, size_t msglen);
czk_err czk_proofs_read(czk_proof **out, size_t *n, const char *path, char *msg, size_t msglen);

/* ---- snarkjs JSON -------------------------------------------------------------------- */

/* verification_key.json, proof.json and public.json in snarkjs 0.7's layout
 * for bls12381 (see docs in shared/reference/snarkjs.md): decimal strings of
 * canonical coordinates, points projective with Z = 1. A point at infinity
 * (possible only for vk alpha/beta/gamma/delta) is written as snarkjs writes
 * its zero, ["0", "1", "0"] or [["0","0"], ["1","0"], ["0","0"]]. The vk
 * must have at least one IC point (nPublic = n_ic - 1). Files are written
 * atomically (temporary file, fsync, rename). */
czk_err czk_snarkjs_write_vk(const czk_vk *vk, const char *path, char *msg, size_t msglen);
czk_err czk_snarkjs_write_proof(const czk_proof *proof, const char *path, char *msg, size_t msglen);
czk_err czk_snarkjs_write_public(const czk_fr *inputs, size_t n, const char *path, char *msg, size_t msglen);

/* The canonical value of a as a decimal string (no leading zeros; "0" for
 * zero) into out, which holds at least CZK_FR_DECIMAL_MAX bytes. */
#define CZK_FR_DECIMAL_MAX 80
void czk_fr_to_decimal(char out[CZK_FR_DECIMAL_MAX], const czk_fr *a);
/* A decimal string of len bytes (digits only; leading zeros allowed; no sign,
 * no spaces) with value < r. */
czk_err czk_fr_from_decimal(czk_fr *out, const char *s, size_t len, char *msg, size_t msglen);

/* public.json: a JSON array of decimal strings, each < r (snarkjs's public
 * inputs, without ONE). An empty array gives *n = 0 and *out = NULL.
 * CZK_ERR_FORMAT (message names the element's index) for invalid JSON, a
 * non-array, a non-string element or a bad decimal. *out is malloc'd. */
czk_err czk_public_parse_json(czk_fr **out, size_t *n, const char *json, size_t len, char *msg, size_t msglen);
czk_err czk_public_read_json(czk_fr **out, size_t *n, const char *path, char *msg, size_t msglen);

#endif
