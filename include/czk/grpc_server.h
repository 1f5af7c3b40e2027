/* czk — the gRPC server (cuzk.v1.ProvingEngine) over a czk_service.
 * Built on gRPC core (grpc/grpc.h) with protobuf-c messages
 * (proto/cuzk/v1/proving.proto). Calls are served by a pool of handler
 * threads that grows while every handler is busy (up to 1024 calls served at
 * once; more wait their turn), so a blocking AwaitProof/Prove never holds up
 * other calls. Service errors become gRPC status codes with the service's
 * message: INVALID_ARGUMENT (malformed message, bad job id, unknown circuit,
 * bad input), NOT_FOUND (unknown job), ALREADY_EXISTS (a request_id reused
 * for other content), RESOURCE_EXHAUSTED (queue limit, message size),
 * FAILED_PRECONDITION (evicting a circuit in use), UNIMPLEMENTED (Filecoin
 * proof kinds without circuit_id, unknown methods), UNAVAILABLE (stopping).
 * A job that failed or was cancelled is an AwaitProof response with status
 * FAILED / CANCELLED, and a wait that ran out of timeout_ms one with status
 * TIMEOUT (gRPC status OK). Every call is logged at debug level. */
#ifndef CZK_GRPC_SERVER_H
#define CZK_GRPC_SERVER_H

#include <stddef.h>
#include "czk/err.h"
#include "czk/service.h"

typedef struct czk_grpc_server czk_grpc_server;

/* The default message size limit (both directions): 256 MiB. */
#define CZK_GRPC_DEFAULT_MAX_MSG ((size_t)256 << 20)

/* Checks the form of a listen address (as czk_grpc_server_start takes it)
 * without binding: CZK_ERR_INVALID_ARGUMENT with a message when malformed. */
czk_err czk_grpc_listen_check(const char *listen, char *msg, size_t msglen);

/* What czk_grpc_server_start takes besides the address; zeroed: the
 * defaults. Each concern adds its fields in its own block. */
typedef struct {
    size_t max_msg_bytes; /* received and sent messages (0: CZK_GRPC_DEFAULT_MAX_MSG) */
} czk_grpc_server_options;

/* Starts serving svc (borrowed: it must outlive the server) on listen:
 * "host:port" (e.g. "0.0.0.0:50051", "[::]:50051", "127.0.0.1:0" for any free
 * port: see czk_grpc_server_port) or "unix:///path/to.sock" (a stale socket
 * file there is replaced; CZK_ERR_IO when a process accepts connections on
 * it). opt may be NULL (the defaults). CZK_ERR_INVALID_ARGUMENT for a
 * malformed address, CZK_ERR_IO when it cannot be bound (message in msg). */
czk_err czk_grpc_server_start(czk_grpc_server **out, czk_service *svc, const char *listen,
                              const czk_grpc_server_options *opt, char *msg, size_t msglen);

/* The port bound for a host:port address (0 for a unix socket). */
int czk_grpc_server_port(const czk_grpc_server *s);

/* Stops: new calls are refused with UNAVAILABLE, waiting AwaitProof/Prove
 * calls return UNAVAILABLE at once, in-flight calls are finished or
 * cancelled, every thread is joined and everything freed. It does not close
 * the service. NULL is ignored. */
void czk_grpc_server_stop(czk_grpc_server *s);

#endif
