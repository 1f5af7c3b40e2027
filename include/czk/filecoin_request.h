/* czk — a Filecoin proof request as Curio sends it to cuzk
 * (cuzk.v1 SubmitProofRequest, proto/cuzk/v1/proving.proto), independent of
 * how it arrived (gRPC, a JSON request file, the journal). The request owns
 * every buffer it points to. It knows nothing of circuits: preparing one
 * into a circuit's input is request.c's (czk_fil_request_prepare). */
#ifndef CZK_FILECOIN_REQUEST_H
#define CZK_FILECOIN_REQUEST_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"

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
} czk_fil_request;

void czk_fil_request_free(czk_fil_request *r);

#endif
