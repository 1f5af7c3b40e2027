/* czk — the gRPC server's wire layer, shared by grpc_codec.c (decoding and
 * validation of requests, status mapping: no gRPC runtime, so that the fuzz
 * target can link it alone), grpc_server.c and grpc_client.c. */
#ifndef CZK_GRPC_INTERNAL_H
#define CZK_GRPC_INTERNAL_H

#include <grpc/status.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/v1/proving.pb-c.h"
#include "czk/err.h"
#include "czk/service.h"

typedef enum {
    CZK_GRPC_SUBMIT = 0,
    CZK_GRPC_AWAIT,
    CZK_GRPC_PROVE,
    CZK_GRPC_CANCEL,
    CZK_GRPC_STATUS,
    CZK_GRPC_METRICS,
    CZK_GRPC_PRELOAD,
    CZK_GRPC_EVICT,
    CZK_GRPC__COUNT
} czk_grpc_method;

/* "/cuzk.v1.ProvingEngine/SubmitProof" … */
const char *czk_grpc_method_path(czk_grpc_method m);
/* The method for a path of len bytes (not NUL-terminated); -1 when unknown. */
int czk_grpc_method_find(const char *path, size_t len);
/* The protobuf-c descriptors of a method's request and response. */
const ProtobufCMessageDescriptor *czk_grpc_request_descriptor(czk_grpc_method m);
const ProtobufCMessageDescriptor *czk_grpc_response_descriptor(czk_grpc_method m);

/* The gRPC status for a czk error returned by the service in method m
 * (the one place where that mapping lives). */
grpc_status_code czk_grpc_status_for(czk_err e, czk_grpc_method m);
const char *czk_grpc_status_name(grpc_status_code c);


/* A decoded and validated request. Pointers point into msg (owned). */
typedef struct {
    czk_grpc_method method;
    ProtobufCMessage *msg;
    czk_service_request submit; /* SUBMIT, PROVE */
    size_t n_vanilla_proofs;    /* SUBMIT, PROVE: vanilla_proofs (field 11), */
    size_t vanilla_proofs_bytes; /* and their bytes together */
    const char *job_id;         /* AWAIT, CANCEL: any string ("" when absent) */
    long timeout_ms;            /* AWAIT: < 0 no limit; PROVE: -1 */
    const char *circuit_id;     /* PRELOAD, EVICT */
} czk_grpc_request;

/* Decodes the request bytes of method m and validates every field. On
 * GRPC_STATUS_OK *out holds the request (free with czk_grpc_request_free);
 * otherwise msg says why (INVALID_ARGUMENT for a malformed message or field,
 * UNIMPLEMENTED for a Filecoin proof kind without circuit_id: the message
 * says what the request carried, vanilla proofs included) and *out is
 * empty. */
grpc_status_code czk_grpc_request_decode(czk_grpc_request *out, czk_grpc_method m, const uint8_t *buf, size_t len,
                                         char *msg, size_t msglen);
void czk_grpc_request_free(czk_grpc_request *r);

/* Limits on request fields. */
#define CZK_GRPC_MAX_REQUEST_ID (CZK_JOB_ID_MAX - 1)
#define CZK_GRPC_MAX_CIRCUIT_ID 63
#define CZK_GRPC_COMMITMENT_BYTES 32 /* comm_r_old, comm_r_new, comm_d_new */

#endif
