/* czk — the PoRep C1 output (filecoin-proofs-api seal.rs
 * SealCommitPhase1Output) as Curio hands it to a C2 prover: its JSON
 * (serde_json) and cuzk's envelope {"SectorNum", "Phase1Out" (standard
 * base64 of the JSON), "SectorSize"}; decoded into one
 * czk_fil_porep_partition (filecoin_vanilla.h) per partition, plus what the
 * vanilla proofs state beside it (the roots and leaves of their Merkle
 * proofs), which only the check needs. docs/filecoin.md "The C1 input"
 * gives the format field by field with its sources.
 *
 * The decoder reads the text once, without building a JSON tree: it holds
 * the input, the base64-decoded JSON when given an envelope, and what it
 * decodes. It checks the structure (types, lengths, integer ranges,
 * canonical field elements, the vanilla proofs' labeling and encoding
 * proofs equal to what their columns imply); czk_fil_c1_validate checks the
 * content against the registered proof (hashes, paths, challenges, parents).
 * Errors name the field: "vanilla_proofs[3][7].replica_column_proofs
 * .drg_parents[2].inclusion_proof: …".
 *
 * At submit: czk_fil_c1_bytes_expected (reserve), czk_fil_c1_decode,
 * czk_fil_c1_check_request (against the request's proof id, sector size,
 * miner and sector number), czk_fil_c1_validate_threads; then partition k's
 * circuit input is c1.partitions[k], and czk_fil_c1_bytes what it holds. */
#ifndef CZK_FILECOIN_C1_H
#define CZK_FILECOIN_C1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin.h"
#include "czk/filecoin_vanilla.h"

#define CZK_FIL_C1_MAX_LAYERS 16   /* rows of a column (Filecoin: 2 or 11) */
#define CZK_FIL_C1_MAX_LEVELS 64   /* levels of one Merkle path */
#define CZK_FIL_LABEL_PARENTS 37   /* TOTAL_PARENTS of a labeling proof */

/* Which ProofData variant a Merkle proof was (storage-proofs-core
 * merkle/proof.rs): Single (base only), Sub (base + 1 sub level), Top
 * (base + 1 sub + 1 top level). */
typedef enum { CZK_FIL_PROOF_SINGLE = 0, CZK_FIL_PROOF_SUB = 1, CZK_FIL_PROOF_TOP = 2 } czk_fil_proof_kind;

/* What one MerkleProof states besides its path: its variant, how its
 * levels split into base_proof / sub_proof / top_proof, its leaf and root. */
typedef struct {
    uint8_t kind;                   /* czk_fil_proof_kind */
    uint8_t n_base, n_sub, n_top;   /* levels of the path in each part */
    uint8_t leaf[32], root[32];
} czk_fil_c1_merkle;

/* What one challenge's vanilla proof states beside the circuit input: its
 * 17 Merkle proofs' claims and c_x's column (the challenged node's label in
 * every layer, which the circuit recomputes). */
typedef struct {
    uint8_t n_rows;                               /* layers */
    uint8_t c_x_rows[CZK_FIL_C1_MAX_LAYERS][32];  /* c_x.column.rows */
    czk_fil_c1_merkle comm_d;      /* comm_d_proofs */
    czk_fil_c1_merkle comm_r_last; /* comm_r_last_proof */
    czk_fil_c1_merkle c_x;         /* replica_column_proofs.c_x.inclusion_proof */
    czk_fil_c1_merkle drg[CZK_FIL_DRG_PARENTS];
    czk_fil_c1_merkle exp[CZK_FIL_EXP_PARENTS];
} czk_fil_c1_claims;

typedef struct {
    const czk_fil_seal_proof *proof;  /* registered_proof */
    uint64_t shape_sector_size;       /* the vanilla_proofs variant's sector size (StackedDrg32GiBV1: 32 GiB) */
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    bool enveloped;                   /* the input was cuzk's envelope */
    uint64_t sector_num, sector_size; /* the envelope's SectorNum and SectorSize (0 when bare) */
    size_t n_partitions;
    /* per partition k: the circuit input (replica_id, comm_d, comm_r copied
     * from above; comm_c, comm_r_last from challenge 0's c_x and
     * comm_r_last_proof roots) and the claims of its challenges */
    czk_fil_porep_partition *partitions;
    czk_fil_c1_claims **claims;       /* claims[k][i] for challenge i of partition k */
} czk_fil_c1;

/* Decodes a C1 output: cuzk's envelope or the bare JSON (told apart by
 * their keys). On success *out owns everything (czk_fil_c1_free). Errors:
 * CZK_ERR_FORMAT (malformed, truncated, a wrong type or length, a missing
 * or duplicate field, labeling proofs that disagree with the columns),
 * CZK_ERR_NOT_CANONICAL (a value that must be an Fr is not),
 * CZK_ERR_NOT_FOUND (an unknown registered_proof), CZK_ERR_NO_MEMORY; *out
 * is then zeroed. The message names the field. Unknown fields are skipped,
 * as serde does. */
czk_err czk_fil_c1_decode(czk_fil_c1 *out, const void *data, size_t len, char *msg, size_t msglen);

/* Checks a decoded (or built) C1 against its registered proof: the
 * vanilla_proofs variant and the envelope's SectorSize against the sector
 * size; the partition and challenge counts; every challenge equal to the one
 * the proof's feature draws (czk_fil_porep_challenges); every parent column
 * at the SDR graph's parent; every path's variant, length, arities and
 * position; every value canonical; every path hashing from its leaf to its
 * stated root (SHA-256 for tree_d, Poseidon for tree_c and tree_r_last),
 * column leaves equal to their column's Poseidon hash, comm_r_last leaves
 * equal to the encoding (last label + data leaf); every label equal to
 * create_label of its parents; the stated roots equal to comm_d, the
 * partition's comm_c and comm_r_last, all partitions agreeing, and comm_r =
 * Poseidon(comm_c, comm_r_last). CZK_ERR_MISMATCH (or NOT_CANONICAL,
 * NO_MEMORY) with a message naming the field. A 32 GiB C1 takes about
 * 31,500 Poseidon hashes (arity 8 and 11): 2.8 s measured on one core of
 * a loaded 2-core machine (tests/filecoin/test_filecoin_c1_32g.c). */
czk_err czk_fil_c1_validate(const czk_fil_c1 *c1, char *msg, size_t msglen);
/* The same with the partitions spread over up to threads POSIX threads (the
 * calling one included); the message is the lowest failing partition's, so
 * the result does not depend on threads. */
czk_err czk_fil_c1_validate_threads(const czk_fil_c1 *c1, size_t threads, char *msg, size_t msglen);

/* Checks the C1 against the gRPC request that carried it: the registered
 * proof id and sector size, the envelope's SectorNum (when enveloped), and
 * replica_id against the one miner_id, sector_number, ticket, comm_d and
 * porep_id give (czk_fil_replica_id). CZK_ERR_MISMATCH naming the field. */
czk_err czk_fil_c1_check_request(const czk_fil_c1 *c1, uint64_t registered_proof, uint64_t sector_size,
                                 uint64_t miner_id, uint64_t sector_number, char *msg, size_t msglen);

/* Fills claims[k][i] from the partitions as a consistent C1 states them:
 * each proof's variant and split from the proof's tree shape, leaves from
 * the data leaf, the encoding and the column hashes, roots from comm_d and
 * the partition's comm_c and comm_r_last. Allocates c1->claims if NULL. For
 * the test sealer and tests. */
czk_err czk_fil_c1_derive_claims(czk_fil_c1 *c1, char *msg, size_t msglen);

/* Encodes as filecoin-proofs-api's serde_json does (fields in declaration
 * order, no spaces); with envelope, wrapped as wrapC1Output does (Go's
 * json.Marshal: {"SectorNum":…,"Phase1Out":"<base64>","SectorSize":…}). The
 * labeling and encoding proofs are rebuilt from the columns as rust-fil-proofs
 * builds them. *out is malloc'd (NUL-terminated, *len without the NUL). */
czk_err czk_fil_c1_encode(const czk_fil_c1 *c1, bool envelope, char **out, size_t *len, char *msg, size_t msglen);

/* The length of the longest text czk_fil_c1_encode can write for a C1 of
 * proof p (with envelope: wrapped, SectorNum of 20 digits): every byte of
 * every 32-byte value of 3 digits, every index at its largest, the
 * partition and challenge counts and tree shapes p fixes. serde_json and
 * Go's json.Marshal write the same text, so every C1 output of p that
 * filecoin-proofs makes is at most this long. 0 for a proof without a
 * vanilla_proofs variant. 2 KiB: 112,012 bytes bare, 149,419 enveloped;
 * 32 GiB: 43,299,260 and 57,732,422 (a sealed one's envelope is about 89 %
 * of that; tests/filecoin/test_filecoin_request_limits.c). */
size_t czk_fil_c1_json_max(const czk_fil_seal_proof *p, bool envelope);

/* The parent j (< 37) of the labeling proof of the challenge's node at
 * layer (1-based), as rust-fil-proofs builds it from the parent columns
 * (stacked/vanilla/proof.rs prove_layers_generate, params.rs
 * Proof::from_parts): at layer 1 the 6 DRG parents' layer-1 labels, at a
 * later layer the 6 DRG parents' labels of that layer then the 8 expander
 * parents' labels of the layer below; repeated to 37. The columns must hold
 * >= layer rows. */
const uint8_t *czk_fil_c1_label_parent(const czk_fil_porep_challenge *c, size_t layer, size_t j);

/* Bytes a decoded C1 holds on the heap (for the memory budget). */
size_t czk_fil_c1_bytes(const czk_fil_c1 *c1);
/* The bytes czk_fil_c1_bytes reports for a well-formed C1 of proof p,
 * computed from its facts alone (to reserve before decoding). */
size_t czk_fil_c1_bytes_expected(const czk_fil_seal_proof *p);
/* Frees what a C1 holds and zeroes it; a zeroed C1 is fine. */
void czk_fil_c1_free(czk_fil_c1 *c1);

#endif
