/* czk — bincode 1.3 as rust-fil-proofs uses it (bincode::serialize /
 * bincode::deserialize: little-endian fixed-width integers, usize as u64,
 * Vec and sequence lengths as u64, enum variant tags as u32, Option as a u8
 * tag then the value, structs as their fields in declaration order, [u8; 32]
 * as 32 raw bytes). Internal to src/filecoin/ (post_decode.c, the SnapDeals
 * decoder, the test sealer).
 *
 * Domains: PoseidonDomain(<Fr as PrimeField>::Repr) and Sha256Domain([u8;
 * 32]) both derive Serialize over a [u8; 32] (a tuple to serde), so each is
 * 32 raw bytes, no length (filecoin-hashers poseidon.rs, sha256.rs).
 * bincode itself checks nothing about them: PoseidonDomain ≥ r is read and
 * only panics later in From<PoseidonDomain> for Fr ("from_repr failure"),
 * where the circuit's witness is made; a Sha256Domain with one of the top
 * two bits set cannot be a node of a tree (Sha256Function trims every hash
 * with trim_to_fr32, data leaves are fr32) and fails the vanilla check, or
 * panics likewise when ≥ r. The reader refuses both up front
 * (CZK_ERR_NOT_CANONICAL).
 *
 * Trailing bytes: bincode::deserialize allows them (allow_trailing_bytes);
 * czk_bc_end refuses them, as nothing Curio sends has any.
 *
 * Every failure writes "<field path>: <what>" into the reader's message
 * buffer, the path built with czk_bc_enter / czk_bc_leave, e.g.
 * "vanilla_proofs[3].vanilla_proof.sectors[0].inclusion_proofs[7].path[2].
 * index: 9 is not below the arity 8". After a failure the reader is spent
 * (its path is left where the failure was). */
#ifndef CZK_FILECOIN_BINCODE_H
#define CZK_FILECOIN_BINCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin_vanilla.h"

#define CZK_BC_PATH_MAX 256

/* ---- reader ------------------------------------------------------------------ */

typedef struct {
    const uint8_t *p;
    size_t len, pos;
    char *msg;
    size_t msglen;
    char path[CZK_BC_PATH_MAX]; /* the field being read, NUL-terminated */
    size_t path_len;
} czk_bc_reader;

/* A reader over [data, data + len) whose field path starts as root (may be
 * "" or NULL); failures go to msg (may be NULL). */
void czk_bc_reader_init(czk_bc_reader *r, const uint8_t *data, size_t len, const char *root, char *msg,
                        size_t msglen);
/* Appends printf(fmt, …) to the field path ("[3]", ".vanilla_proof");
 * returns the mark czk_bc_leave restores. A path past CZK_BC_PATH_MAX is
 * cut, never overrun. */
size_t czk_bc_enter(czk_bc_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void czk_bc_leave(czk_bc_reader *r, size_t mark);
/* Writes "<path>[.field]: <printf(fmt, …)>" and returns e. field may be NULL. */
czk_err czk_bc_fail(czk_bc_reader *r, czk_err e, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Fixed-width little-endian integers; usize is u64. CZK_ERR_FORMAT when
 * truncated ("needs 8 bytes at offset …, 3 left"). field names the value
 * within the current path. */
czk_err czk_bc_u8(czk_bc_reader *r, const char *field, uint8_t *out);
czk_err czk_bc_u32(czk_bc_reader *r, const char *field, uint32_t *out);
czk_err czk_bc_u64(czk_bc_reader *r, const char *field, uint64_t *out);
/* n raw bytes. */
czk_err czk_bc_bytes(czk_bc_reader *r, const char *field, void *out, size_t n);
/* A Vec's u64 length: CZK_ERR_FORMAT when above max or when the bytes left
 * cannot hold that many elements of at least min_elem bytes (so no length
 * allocates beyond the input). */
czk_err czk_bc_len(czk_bc_reader *r, const char *field, uint64_t max, size_t min_elem, uint64_t *out);
/* An enum's u32 variant tag, CZK_ERR_FORMAT unless < n_variants. */
czk_err czk_bc_tag(czk_bc_reader *r, const char *field, uint32_t n_variants, uint32_t *out);
/* An Option's u8 tag: 0 None, 1 Some; CZK_ERR_FORMAT otherwise. */
czk_err czk_bc_option(czk_bc_reader *r, const char *field, bool *some);

typedef enum {
    CZK_BC_RAW = 0,      /* any 32 bytes */
    CZK_BC_POSEIDON = 1, /* a canonical Fr, little-endian (< r) */
    CZK_BC_SHA256 = 2    /* the top two bits clear (byte 31 & 0xc0 == 0) */
} czk_bc_domain_kind;

/* A 32-byte domain; CZK_ERR_NOT_CANONICAL for one outside its kind. */
czk_err czk_bc_domain(czk_bc_reader *r, const char *field, czk_bc_domain_kind kind, uint8_t out[32]);
/* CZK_ERR_FORMAT when bytes are left ("3 trailing bytes at offset …"). */
czk_err czk_bc_end(czk_bc_reader *r);

/* ---- writer ------------------------------------------------------------------ */

/* A growable buffer; an allocation failure is remembered and reported by
 * czk_bc_writer_take (every write after it is dropped). */
typedef struct {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} czk_bc_writer;

void czk_bc_w_bytes(czk_bc_writer *w, const void *data, size_t n);
void czk_bc_w_u8(czk_bc_writer *w, uint8_t v);
void czk_bc_w_u32(czk_bc_writer *w, uint32_t v);
void czk_bc_w_u64(czk_bc_writer *w, uint64_t v);
/* Hands the bytes over (malloc'd, *out NULL when empty) and empties w;
 * CZK_ERR_NO_MEMORY (w freed) if a write failed. */
czk_err czk_bc_writer_take(czk_bc_writer *w, uint8_t **out, size_t *len);
void czk_bc_writer_free(czk_bc_writer *w);

/* ---- MerkleProof<H, BaseArity, SubTreeArity, TopTreeArity> -------------------- */

/* The shape a tree's proofs must have: base_levels levels of base_arity,
 * then one level of sub_arity when sub_arity > 0 (ProofData::Sub), then one
 * of top_arity when top_arity > 0 too (ProofData::Top); neither: Single. */
typedef struct {
    czk_bc_domain_kind kind; /* CZK_BC_POSEIDON or CZK_BC_SHA256 */
    uint8_t base_arity, sub_arity, top_arity;
    uint32_t base_levels;
} czk_bc_tree_shape;

/* The shape of a TreeR-like tree (tree_r_last, tree_c) of nodes leaves with
 * the arities base-sub-top (8-0-0, 8-8-0, 8-8-2): base_levels =
 * log_base(nodes / sub / top) (storage-proofs-core base_path_length).
 * CZK_ERR_INVALID_ARGUMENT unless nodes / sub / top is a power of base. */
czk_err czk_bc_tree_shape_r(uint64_t nodes, uint8_t base, uint8_t sub, uint8_t top, czk_bc_tree_shape *out);
/* The variant tag (0 Single, 1 Sub, 2 Top) and total levels of a shape. */
uint32_t czk_bc_shape_variant(const czk_bc_tree_shape *s);
size_t czk_bc_shape_levels(const czk_bc_tree_shape *s);

/* Reads one MerkleProof (storage-proofs-core merkle/proof.rs: ProofData
 * Single{root, leaf, path} | Sub{base_proof, sub_proof, root, leaf} |
 * Top{base_proof, sub_proof, top_proof, root, leaf}, an InclusionPath being
 * {path: Vec<PathElement{hashes: Vec<Domain>, index: usize}>}) of shape s
 * into leaf, root (as stated; not recomputed) and path (czk_fil_path: base
 * levels, then sub, then top; malloc'd). Checks: the variant is the shape's
 * (CZK_ERR_MISMATCH), each InclusionPath's length and each element's hash
 * count (arity − 1) are the shape's (CZK_ERR_MISMATCH), index < arity
 * (CZK_ERR_FORMAT), every domain of the shape's kind
 * (CZK_ERR_NOT_CANONICAL), truncation (CZK_ERR_FORMAT). field is entered
 * into the path for the duration (after a "." unless it starts with "[" or
 * "."). On failure path is freed and zeroed. */
czk_err czk_bc_merkle_read(czk_bc_reader *r, const char *field, const czk_bc_tree_shape *s, uint8_t leaf[32],
                           uint8_t root[32], czk_fil_path *path);
/* Writes a MerkleProof of shape s (the path must have its levels and
 * arities; CZK_ERR_INVALID_ARGUMENT otherwise). */
czk_err czk_bc_merkle_write(czk_bc_writer *w, const czk_bc_tree_shape *s, const uint8_t leaf[32],
                            const uint8_t root[32], const czk_fil_path *path);
/* The bytes czk_bc_merkle_write writes for (and czk_bc_merkle_read reads of)
 * a MerkleProof of shape s: every one of that shape has this length. */
size_t czk_bc_merkle_bytes(const czk_bc_tree_shape *s);
/* The leaf index a path selects: Σ index_l · Π_{m<l} arity_m (path_index). */
uint64_t czk_bc_path_index(const czk_fil_path *path);

#endif
