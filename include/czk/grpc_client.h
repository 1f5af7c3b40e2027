/* czk — a small cuzk.v1 client on gRPC core: unary calls with protobuf-c
 * messages (cuzk/v1/proving.pb-c.h, generated into the build tree). One
 * client may be used from several threads at once. */
#ifndef CZK_GRPC_CLIENT_H
#define CZK_GRPC_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/v1/proving.pb-c.h"
#include "czk/err.h"

typedef struct czk_grpc_client czk_grpc_client;

/* Opens a channel to addr ("host:port" or "unix:///path"); it connects on
 * the first call. max_msg_bytes limits both directions (0: 256 MiB).
 * wait_for_ready: a call with a deadline waits (up to it) for an unreachable
 * server instead of failing at once with UNAVAILABLE; a call without a
 * deadline never waits. */
czk_err czk_grpc_client_open(czk_grpc_client **out, const char *addr, size_t max_msg_bytes, bool wait_for_ready,
                             char *msg, size_t msglen);

/* How czk_grpc_client_open_opts connects; zeroed: as czk_grpc_client_open
 * with 0 and false (plaintext, no token). */
typedef struct {
    size_t max_msg_bytes; /* both directions (0: 256 MiB) */
    bool wait_for_ready;  /* as above */
    const char *tls_ca_file;     /* PEM CA certificates the server's certificate must chain to: TLS
                                  * (NULL or "": plaintext) */
    const char *tls_cert_file;   /* with tls_key_file: this client's certificate, for mutual TLS */
    const char *tls_key_file;
    const char *tls_server_name; /* the name the server's certificate must carry (NULL or "": the
                                  * address's host; "localhost" for a unix socket) */
    const char *token;           /* sent as "authorization: Bearer TOKEN" with every call (NULL or "": none) */
} czk_grpc_client_options;

/* The same with options (NULL: the defaults): the PEM files are read and
 * checked here (CZK_ERR_IO when unreadable, CZK_ERR_INVALID_ARGUMENT with a
 * message naming the option otherwise: a certificate without its key, or
 * either without tls_ca_file, a key that is not the certificate's). A TLS
 * handshake that fails shows at the first call, as UNAVAILABLE with gRPC's
 * reason. */
czk_err czk_grpc_client_open_opts(czk_grpc_client **out, const char *addr, const czk_grpc_client_options *o,
                                  char *msg, size_t msglen);
void czk_grpc_client_close(czk_grpc_client *c);

/* gRPC status codes as returned by the calls (0 = OK). */
#define CZK_GRPC_OK 0

/* One unary call of method ("SubmitProof", … or the full path
 * "/cuzk.v1.ProvingEngine/SubmitProof") with request req; timeout_ms < 0: no
 * deadline. Returns the gRPC status code; on OK *resp is the decoded
 * response (free with protobuf_c_message_free_unpacked(*resp, NULL)),
 * otherwise *resp is NULL and details holds the status message.
 * resp_desc: the response's descriptor. */
int czk_grpc_client_unary(czk_grpc_client *c, const char *method, const ProtobufCMessage *req,
                          const ProtobufCMessageDescriptor *resp_desc, long timeout_ms, ProtobufCMessage **resp,
                          char *details, size_t dlen);

/* The same with raw bytes (for tests of malformed requests): *resp (malloc)
 * holds the response bytes on OK. */
int czk_grpc_client_unary_raw(czk_grpc_client *c, const char *method, const void *req, size_t req_len,
                              long timeout_ms, unsigned char **resp, size_t *resp_len, char *details, size_t dlen);

/* "OK", "NOT_FOUND", … for a status code. */
const char *czk_grpc_code_name(int code);

#endif
