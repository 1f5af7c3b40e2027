/* czk — who may reach and call the gRPC server: TLS credentials (server,
 * and the client's in grpc_client.c), the bearer token, the loopback rule
 * and the unix socket's mode and group (include/czk/grpc_server.h's
 * options). Used by grpc_server.c (start), grpc_handlers.c (each call) and
 * grpc_client.c. */
#ifndef CZK_GRPC_SECURITY_H
#define CZK_GRPC_SECURITY_H

#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/status.h>
#include <stdbool.h>
#include <stddef.h>

#include "czk/err.h"
#include "czk/grpc_server.h"

typedef struct czk_grpc_security czk_grpc_security;

/* Checks opt for listen (czk_grpc_security_check) and reads what serving
 * needs: the PEM files, the token's digest, the socket's group. Logs a
 * warning for plaintext on an address that is not local (insecure_listen). */
czk_err czk_grpc_security_new(czk_grpc_security **out, const char *listen, const czk_grpc_server_options *opt,
                              char *msg, size_t msglen);
void czk_grpc_security_free(czk_grpc_security *s);

/* The server credentials: TLS (client certificates required and verified
 * when a client CA was given) or plaintext. The caller releases them. */
grpc_server_credentials *czk_grpc_security_server_creds(const czk_grpc_security *s);

/* Gives the bound unix socket at path its mode and group. */
czk_err czk_grpc_security_socket_apply(const czk_grpc_security *s, const char *path, char *msg, size_t msglen);

/* Whether a call with metadata md may go on: GRPC_STATUS_OK without a token
 * or with "authorization: Bearer TOKEN" (compared in constant time: SHA-256
 * of both); otherwise UNAUTHENTICATED and msg says what was missing. */
grpc_status_code czk_grpc_security_authorize(const czk_grpc_security *s, const grpc_metadata_array *md, char *msg,
                                             size_t msglen);

/* Reads a PEM file of at most 1 MiB into *out (malloc'd, NUL-terminated)
 * and checks that it holds what `kind` says: 'c' one or more certificates,
 * 'k' a private key. what names the setting in messages ("--tls-ca").
 * CZK_ERR_IO when unreadable, CZK_ERR_INVALID_ARGUMENT otherwise. */
czk_err czk_grpc_pem_load(const char *path, char kind, const char *what, char **out, char *msg, size_t msglen);
/* Whether key_pem is the private key of cert_pem's first certificate. */
bool czk_grpc_pem_key_matches(const char *cert_pem, const char *key_pem);

#endif
