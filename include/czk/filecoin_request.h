/* czk — a Filecoin proof request as Curio sends it to cuzk
 * (cuzk.v1 SubmitProofRequest, proto/cuzk/v1/proving.proto), independent of
 * how it arrived (gRPC, a JSON request file, the journal). The request owns
 * every buffer it points to. It knows nothing of circuits: preparing one
 * into a circuit's input is request_prepare.c's (czk_fil_request_prepare). */
#ifndef CZK_FILECOIN_REQUEST_H
#define CZK_FILECOIN_REQUEST_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/fr.h"

/* The proto's ProofKind numbers. */
typedef enum {
    CZK_FIL_KIND_NONE = 0,        /* PROOF_KIND_UNSPECIFIED: one of czk's own circuits */
    CZK_FIL_KIND_POREP_C2 = 1,    /* POREP_SEAL_COMMIT */
    CZK_FIL_KIND_SNAP = 2,        /* SNAP_DEALS_UPDATE */
    CZK_FIL_KIND_WINDOW_POST = 3, /* WINDOW_POST_PARTITION */
    CZK_FIL_KIND_WINNING_POST = 4 /* WINNING_POST */
} czk_fil_kind;

typedef struct {
    uint8_t *data; /* malloc'd, or NULL when len is 0 */
    size_t len;
} czk_fil_bytes;

typedef struct {
    int borrowed;                /* 1: the byte buffers belong to someone else (a decoded protobuf, a
                                    journal payload): czk_fil_request_free frees only the arrays */
    czk_fil_kind kind;
    uint64_t registered_proof;   /* seal, PoSt or update proof number, by kind */
    uint64_t sector_size;        /* PoRep: the sector's (0: from the registered proof) */
    uint64_t sector_number;      /* PoRep */
    uint64_t miner_id;           /* actor id: PoRep, PoSt (the prover id) */
    uint32_t partition_index;    /* WindowPoSt */
    czk_fil_bytes vanilla_proof; /* PoRep C2: the C1 output */
    size_t n_vanilla_proofs;     /* PoSt: one FallbackPoStSectorProof per sector; SnapDeals: one
                                    PartitionProof per partition (bincode) */
    czk_fil_bytes *vanilla_proofs; /* malloc'd */
    czk_fil_bytes randomness;    /* PoSt: 32 bytes */
    czk_fil_bytes comm_r_old, comm_r_new, comm_d_new; /* SnapDeals: 32 bytes each */
    char *request_id;            /* NUL-terminated, malloc'd (borrowed like the byte buffers), or NULL */
    int priority;                /* the proto's Priority number: 0 unspecified, 1 LOW … 4 CRITICAL */
} czk_fil_request;

void czk_fil_request_free(czk_fil_request *r);
/* The bytes its byte fields hold together. */
size_t czk_fil_request_bytes(const czk_fil_request *r);
/* "POREP_SEAL_COMMIT", "SNAP_DEALS_UPDATE", "WINDOW_POST_PARTITION",
 * "WINNING_POST" (the proto's names), "PROOF_KIND_UNSPECIFIED", or NULL. */
const char *czk_fil_kind_name(czk_fil_kind k);

/* ---- how many bytes a request may carry (request_limits.c) ------------------------- */

/* The most each field of a request of a kind and registered proof can
 * need; 0 for a field the kind does not read (it must be empty).
 * vanilla_proof (PoRep C2): the C1 output's longest encoding, enveloped
 * (czk_fil_c1_json_max), plus 1/CZK_FIL_C1_SLACK_DIVISOR of it and
 * CZK_FIL_C1_SLACK_BYTES for white space (serde_json and Go write none; a
 * reformatted envelope or a trailing newline fit). vanilla_proofs (PoSt,
 * SnapDeals): at most that many entries (WindowPoSt: the partition's
 * sector count, WinningPoSt 1, SnapDeals the partitions), each exactly
 * vanilla_proof_each bytes (the bincode of the proof's shape). */
#define CZK_FIL_C1_SLACK_DIVISOR 64
#define CZK_FIL_C1_SLACK_BYTES 4096
typedef struct {
    const char *proof_name;    /* the registered proof's */
    size_t vanilla_proof;      /* bytes */
    size_t c1_max;             /* PoRep: czk_fil_c1_json_max(proof, true) */
    size_t vanilla_proofs;     /* entries */
    size_t vanilla_proof_each; /* bytes of each entry */
    size_t randomness, comm_r_old, comm_r_new, comm_d_new; /* bytes */
} czk_fil_request_limits;

/* CZK_ERR_NOT_FOUND (with a message) for a registered proof the kind does
 * not have, CZK_ERR_INVALID_ARGUMENT for kind NONE. */
czk_err czk_fil_request_limits_get(czk_fil_kind kind, uint64_t registered_proof, czk_fil_request_limits *out,
                                   char *msg, size_t msglen);
/* Checks r's fields against its limits, cheaply (no decoding), before
 * anything reads them: CZK_ERR_INVALID_ARGUMENT with a message naming the
 * field, its size and the bound, e.g. "vanilla_proofs[3] has 24961 bytes; a
 * FallbackPoStSectorProof of StackedDrgWindow32GiBV1_2 is exactly 24960
 * bytes". CZK_OK for a registered proof the kind does not have (the
 * decoder refuses it). czk_fil_request_prepare calls it first. */
czk_err czk_fil_request_check_size(const czk_fil_request *r, char *msg, size_t msglen);

/* ---- from a request to a circuit's input (request_prepare.c) ----------------------- */

/* A request decoded and checked: which circuit proves it, how many of its
 * partitions, and the input the circuit reads (the porep-* circuits: an
 * array of czk_fil_porep_partition; winning-* / wpost-*: one
 * czk_fil_post_partition; snap-*: an array of czk_fil_update_partition). */
typedef struct {
    czk_fil_kind kind;
    const char *circuit_id;  /* static */
    size_t partitions;       /* partition proofs the request returns, in order */
    void *data;              /* what the circuit's synthesize_input reads */
    size_t bytes;            /* heap bytes held (for the memory budget) */
    void *owner;             /* what czk_fil_prepared_free frees */
    void (*free_fn)(void *owner);
} czk_fil_prepared;

/* Decodes and validates a request as czkd does at submit, all of it, once:
 * every field's size (czk_fil_request_check_size), the registered proof
 * for the kind, every field's length, the vanilla
 * proofs strictly (and their leaves against the challenges derived from
 * the request's randomness, ids and commitments). CZK_ERR_UNSUPPORTED for a
 * kind or registered proof czk cannot prove (with why), CZK_ERR_NO_MEMORY,
 * otherwise CZK_ERR_INVALID_ARGUMENT with a message naming the field. On
 * failure *out is zeroed. */
czk_err czk_fil_request_prepare(const czk_fil_request *r, czk_fil_prepared *out, char *msg, size_t msglen);
/* Public inputs of partition k (< partitions) as the verifier computes them
 * from the request's public data, ONE excluded (as czk_fil_porep_public_inputs):
 * up to cap values into out, their number into *n (CZK_ERR_BAD_LENGTH when
 * cap is too small, *n still set; out may then be NULL). */
czk_err czk_fil_prepared_public_inputs(const czk_fil_prepared *p, size_t k, czk_fr *out, size_t cap, size_t *n,
                                       char *msg, size_t msglen);
void czk_fil_prepared_free(czk_fil_prepared *p);

/* ---- request files: proto3's canonical JSON of SubmitProofRequest (request_json.c) ---- */

/* Decodes text (len bytes, UTF-8 JSON) into *out, which then owns every
 * buffer (borrowed 0). The JSON mapping is proto3's
 * (https://protobuf.dev/programming-guides/json/): field names in
 * lowerCamelCase or as the proto spells them; enums by name or number;
 * uint64 as a decimal string or a number; uint32 as a number or string;
 * bytes as base64, standard or URL-safe, padded or not; repeated bytes as an
 * array; null as the field's default. Refused with CZK_ERR_FORMAT and a
 * message naming the field: malformed JSON, a field that is not
 * SubmitProofRequest's, one given twice (under either name), a value of the
 * wrong type or out of range, an unknown enum name or number; circuitId and
 * circuitInput (czk's own circuits: not a Filecoin request).
 * CZK_ERR_NO_MEMORY. On failure *out is zeroed. Linear in len. */
czk_err czk_fil_request_from_json(const char *text, size_t len, czk_fil_request *out, char *msg, size_t msglen);
/* Encodes r canonically: lowerCamelCase names in field-number order,
 * fields at their default (0, empty, NULL) omitted, enums by name, uint64
 * as strings, bytes as padded standard base64; two-space indented, a final
 * newline. *out is malloc'd and NUL-terminated, *len its length.
 * CZK_ERR_INVALID_ARGUMENT for a kind or priority outside the proto's
 * enums or a request_id that is not UTF-8, CZK_ERR_NO_MEMORY. */
czk_err czk_fil_request_to_json(const czk_fil_request *r, char **out, size_t *len);

#endif
