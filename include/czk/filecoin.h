/* czk — Filecoin protocol facts: the registered seal proofs (sector size,
 * layers, partitions, challenges, API version, porep_id), the v28 parameter
 * files of the PoRep circuits and their digest, the prover and replica ids and
 * the interactive and non-interactive challenge derivation. It knows nothing of
 * circuits or proofs. Every number is taken from rust-fil-proofs and
 * rust-filecoin-proofs-api (docs/filecoin.md names file and constant) and
 * checked by tests/filecoin/. The SDR parent graph is in filecoin_graph.h. */
#ifndef CZK_FILECOIN_H
#define CZK_FILECOIN_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"

/* storage-proofs-core/src/api_version.rs ApiVersion */
typedef enum {
    CZK_FIL_API_1_0 = 0,
    CZK_FIL_API_1_1 = 1,
    CZK_FIL_API_1_2 = 2,
} czk_fil_api;

/* storage-proofs-core/src/api_version.rs ApiFeature (at most one per proof) */
typedef enum {
    CZK_FIL_FEATURE_NONE = 0,
    CZK_FIL_FEATURE_SYNTHETIC = 1,      /* SyntheticPoRep */
    CZK_FIL_FEATURE_NON_INTERACTIVE = 2 /* NonInteractivePoRep */
} czk_fil_feature;

/* One RegisteredSealProof. */
typedef struct {
    uint64_t id;                       /* the enum's number (go-state-types abi = filecoin-proofs-api) */
    const char *name;                  /* "StackedDrg32GiBV1_1" */
    uint64_t sector_size;              /* bytes */
    uint64_t nodes;                    /* sector_size / 32 */
    uint32_t layers;
    uint32_t partitions;               /* Groth16 proofs per sector */
    uint32_t min_challenges;           /* minimum total challenges of the sector */
    uint32_t challenges_per_partition; /* ceil(min_challenges / partitions) */
    czk_fil_api api;
    czk_fil_feature feature;
    uint8_t tree_base, tree_sub, tree_top; /* comm_r tree shape (octree arities), e.g. 8-8-0 */
    const char *circuit_id;            /* czk's circuit: "porep-32g"; one per sector size */
} czk_fil_seal_proof;

/* Number of registered seal proofs (ids 0 .. count-1, no gaps). */
size_t czk_fil_seal_proof_count(void);
/* The registered seal proof numbered id, or NULL when there is none. */
const czk_fil_seal_proof *czk_fil_seal_proof_get(uint64_t id);
/* As czk_fil_seal_proof_get, with CZK_ERR_NOT_FOUND and a message for an unknown id. */
czk_err czk_fil_seal_proof_find(uint64_t id, const czk_fil_seal_proof **out, char *msg, size_t msglen);
/* The registered seal proof of a name as serde writes the enum
 * ("StackedDrg32GiBV1_1", as in C1's "registered_proof"), or NULL. */
const czk_fil_seal_proof *czk_fil_seal_proof_by_name(const char *name);
/* porep_id as filecoin-proofs-api computes it: the id as u64 little-endian in
 * bytes 0..8, the nonce (0 for every proof) as u64 little-endian in 8..16,
 * zeros in 16..32. The API version and features are not part of it. */
void czk_fil_porep_id(const czk_fil_seal_proof *p, uint8_t out[32]);

/* ---- parameter files (filecoin-proofs/parameters.json, v28) ---------------- */

/* One circuit's files: every entry of parameters.json is in the table, under
 * czk's circuit ids "porep-<size>", "winning-<size>",
 * "wpost-<size>", "snap-<size>", "snap-poseidon-<size>" (32g, 64g),
 * size one of 2k, 8m, 512m, 32g, 64g. */
typedef struct {
    const char *circuit_id;    /* "porep-32g" */
    uint64_t sector_size;
    const char *params_name;   /* "v28-stacked-proof-of-replication-…-<hash>.params" */
    const char *params_digest; /* 32 hex digits (czk_fil_params_digest) */
    const char *params_cid;
    const char *vk_name;
    const char *vk_digest;
    const char *vk_cid;
} czk_fil_params_file;

size_t czk_fil_params_file_count(void);
const czk_fil_params_file *czk_fil_params_file_at(size_t i);
/* The parameter files of a circuit id, or NULL. */
const czk_fil_params_file *czk_fil_params_file_find(const char *circuit_id);
/* The cache identifier rust-fil-proofs derives the file names from (without
 * "v28-" and the extension), computed from the proof's facts:
 * "stacked-proof-of-replication-merkletree-poseidon_hasher-B-S-T-sha256_hasher-"
 * followed by the SHA-256 (hex) of the public parameters' identifier string
 * (stacked/vanilla/params.rs PublicParams::identifier). It does not depend on
 * porep_id, API version or feature. CZK_ERR_INVALID_ARGUMENT if cap is short. */
czk_err czk_fil_porep_cache_id(const czk_fil_seal_proof *p, char *out, size_t cap);

/* The digest parameters.json records: BLAKE2b-512 (unkeyed, 64-byte output) of
 * the whole content, the first 16 bytes as 32 lowercase hex digits.
 * CZK_ERR_NO_MEMORY (and an empty string) if libcrypto fails. */
czk_err czk_fil_params_digest(const void *data, size_t len, char out_hex[33]);
/* The same over a whole file, read in pieces. */
czk_err czk_fil_params_digest_file(const char *path, char out_hex[33], char *msg, size_t msglen);

/* ---- ids and challenges ----------------------------------------------------- */

/* The prover id of miner actor id: the payload of its ID address (unsigned
 * LEB128 of the id), left-aligned in 32 zero bytes. */
void czk_fil_prover_id(uint64_t miner_id, uint8_t out[32]);
/* replica_id = SHA-256(prover_id ‖ sector_id as u64 big-endian ‖ ticket ‖
 * comm_d ‖ porep_id) with the top two bits of byte 31 cleared (an Fr in
 * little-endian form). CZK_ERR_NO_MEMORY if libcrypto fails. */
czk_err czk_fil_replica_id(const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                           const uint8_t comm_d[32], const uint8_t porep_id[32], uint8_t out[32]);
/* The challenged nodes (in [1, nodes)) of partition k of an interactive
 * (non-synthetic) PoRep: for i < count, j = count·k + i,
 * node = 1 + LE(SHA-256(replica_id ‖ seed ‖ j as u32 LE)) mod (nodes − 1).
 * count is challenges_per_partition. nodes must be in [2, 2^32]. */
czk_err czk_fil_challenges_interactive(uint64_t nodes, const uint8_t replica_id[32], const uint8_t seed[32],
                                       uint32_t k, uint32_t count, uint64_t *out, char *msg, size_t msglen);
/* The same for NI-PoRep: SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖
 * replica_id ‖ comm_r ‖ j as u32 LE). */
czk_err czk_fil_challenges_non_interactive(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                           uint32_t k, uint32_t count, uint64_t *out, char *msg, size_t msglen);

/* ---- comm_d (the SHA-256 data tree, filecoin-hashers sha256.rs) ------------- */

/* One node of tree_d: SHA-256(left ‖ right) with byte 31 &= 0x3f. */
czk_err czk_fil_tree_d_hash(const uint8_t left[32], const uint8_t right[32], uint8_t out[32]);
/* The root of the binary tree over n (a power of two) 32-byte leaves, the
 * sector's nodes as stored (fr32-padded data); the leaves themselves are not
 * hashed. n = 1 gives the leaf. */
czk_err czk_fil_tree_d_root(const uint8_t *leaves, uint64_t n, uint8_t out[32], char *msg, size_t msglen);
/* comm_d of a sector of zeros (a committed-capacity sector) of sector_size
 * bytes (a power of two, at least 32): the zero leaf hashed with itself
 * log2(sector_size / 32) times (filecoin-proofs pieces.rs empty_comm_d). */
czk_err czk_fil_comm_d_zero(uint64_t sector_size, uint8_t out[32], char *msg, size_t msglen);

/* ---- synthetic PoRep (stacked/vanilla/challenges.rs mod synthetic) --------- */

/* The number of synthetic challenges of a sector: min(nodes, 2^18)
 * (DEFAULT_SYNTH_CHALLENGE_COUNT). */
uint32_t czk_fil_synth_count(uint64_t nodes);
/* Synthetic challenge i (< num_synth) of the sector: the ChaCha20 keystream
 * (nonce "synth-porep\0") keyed by BLAKE2b-256 keyed
 * "filecoin.io|PoRep|1|Synthetic|1|Generation" of replica_id ‖ comm_r; its
 * bytes [32i, 32i + 32) as a little-endian integer x, node = 1 + x mod (nodes − 1). */
czk_err czk_fil_synth_challenge(uint64_t nodes, uint32_t num_synth, const uint8_t replica_id[32],
                                const uint8_t comm_r[32], uint32_t i, uint64_t *out, char *msg, size_t msglen);
/* The count challenges of partition k of a synthetic PoRep: the synthetic
 * challenges numbered u32 LE of the ChaCha20 keystream keyed by BLAKE2b-256
 * keyed "filecoin.io|PoRep|1|Synthetic|1|Selection" of replica_id ‖ seed, at
 * bytes [4(count·k + t), +4), mod num_synth. num_synth is
 * czk_fil_synth_count(nodes) in the protocol. */
czk_err czk_fil_challenges_synthetic(uint64_t nodes, uint32_t num_synth, const uint8_t replica_id[32],
                                     const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k, uint32_t count,
                                     uint64_t *out, char *msg, size_t msglen);

#endif
