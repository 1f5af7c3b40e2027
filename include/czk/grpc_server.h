/* czk — the gRPC server (cuzk.v1.ProvingEngine) over a czk_service.
 * Built on gRPC core (grpc/grpc.h) with protobuf-c messages
 * (proto/cuzk/v1/proving.proto). One reactor thread receives every call's
 * request message, so no thread waits for a message that may never come (a
 * call whose message has not arrived within receive_timeout_ms ends
 * DEADLINE_EXCEEDED); calls whose message arrived are served by a pool of
 * handler threads that grows while every handler is busy (up to 1024 calls
 * served at once; more wait their turn), so a blocking AwaitProof/Prove
 * never holds up other calls. Service errors become gRPC status codes with the service's
 * message: INVALID_ARGUMENT (malformed message, bad job id, unknown circuit,
 * bad input), NOT_FOUND (unknown job), ALREADY_EXISTS (a request_id reused
 * for other content), RESOURCE_EXHAUSTED (queue limit, message size, too
 * many calls sending their request at once, a request message the memory
 * budget has no room for now, gRPC's receive buffers full), DEADLINE_EXCEEDED (a request
 * message that did not arrive within the receive timeout),
 * FAILED_PRECONDITION (evicting a circuit in use), UNIMPLEMENTED (Filecoin
 * proof kinds without circuit_id, unknown methods), UNAVAILABLE (stopping),
 * UNAUTHENTICATED (a token is set and the call does not carry it).
 * A job that failed or was cancelled is an AwaitProof response with status
 * FAILED / CANCELLED, and a wait that ran out of timeout_ms one with status
 * TIMEOUT (gRPC status OK). Every call is logged at debug level. */
#ifndef CZK_GRPC_SERVER_H
#define CZK_GRPC_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include "czk/err.h"
#include "czk/service.h"

typedef struct czk_grpc_server czk_grpc_server;

/* The default message size limit (both directions): 256 MiB. */
#define CZK_GRPC_DEFAULT_MAX_MSG ((size_t)256 << 20)
/* The default receive timeout: 60 s (a 256 MiB message at 40 Mbit/s). */
#define CZK_GRPC_DEFAULT_RECEIVE_TIMEOUT_MS 60000L

/* A request message larger than this is charged to the service's memory
 * budget, CZK_GRPC_REQUEST_COPIES times its size, from its arrival until its
 * handler is done (refused RESOURCE_EXHAUSTED when it does not fit): the
 * message, its decoded copy, and what the service makes of it at submit (the
 * journal's copy, the decoded proof input until the engine has charged it).
 * Only SubmitProof and Prove may send one. */
#define CZK_GRPC_UNCHARGED_MSG ((size_t)64 << 10)
#define CZK_GRPC_REQUEST_COPIES 3

/* Checks the form of a listen address (as czk_grpc_server_start takes it)
 * without binding: CZK_ERR_INVALID_ARGUMENT with a message when malformed. */
czk_err czk_grpc_listen_check(const char *listen, char *msg, size_t msglen);

/* What czk_grpc_server_start takes besides the address; zeroed: the
 * defaults. Each concern adds its fields in its own block. */
typedef struct {
    size_t max_msg_bytes; /* received and sent messages (0: CZK_GRPC_DEFAULT_MAX_MSG) */

    /* who may connect and call (src/server/grpc_security.c; docs/daemon.md, "gRPC: TLS, token, socket").
     * Without TLS a "host:port" that is not loopback is refused unless insecure_listen. */
    const char *tls_cert_file;      /* PEM certificate chain; with tls_key_file: TLS (NULL: plaintext) */
    const char *tls_key_file;       /* PEM private key of that certificate */
    const char *tls_client_ca_file; /* PEM CA certificates: mutual TLS, every client must present a
                                     * certificate that one of them signed (NULL: none asked for) */
    const char *token;              /* NULL or "": none; else every call must carry the metadata
                                     * "authorization: Bearer TOKEN", or is answered UNAUTHENTICATED */
    bool insecure_listen;           /* serve plaintext on a TCP address that is not loopback (logs a warning) */
    unsigned socket_mode;           /* a unix socket's permissions, set whatever the umask (0: 0660) */
    const char *socket_group;       /* a unix socket's group, a name or a number (NULL or "": the process's) */

    /* the receive path (src/server/grpc_server.c; docs/daemon.md, "gRPC: slow clients",
     * "gRPC: request bytes and the memory budget").
     * No thread waits for a request message: the server's reactor receives every call's message. */
    long receive_timeout_ms; /* the time from a call's start until its whole request message has arrived;
                              * then the call ends DEADLINE_EXCEEDED (0: CZK_GRPC_DEFAULT_RECEIVE_TIMEOUT_MS) */
    size_t receive_buffer_bytes; /* gRPC's resource quota: the memory gRPC may hold for the messages it is
                                  * receiving (and an arrived one until it is read); past it gRPC resets
                                  * streams, which the client sees as RESOURCE_EXHAUSTED. Pressure, not a
                                  * hard cap: gRPC reclaims after it has allocated. Larger than max_msg_bytes,
                                  * or a message of the largest size could not arrive. 0: no quota (czkd
                                  * always sets one, daemon.receive_buffer, and reserves it in the budget) */
} czk_grpc_server_options;

/* Whether a listen or client address reaches only this host: unix:, localhost,
 * 127.0.0.0/8, [::1] (and ::ffff:127.x). Any other host, names included, is
 * not. */
bool czk_grpc_addr_is_local(const char *addr);

/* Checks opt's security settings for listen without binding: the PEM files
 * readable and well formed (the key that of the certificate), key and
 * certificate given together, the token's form, the socket group known, and
 * TLS or insecure_listen for an address that is not local.
 * CZK_ERR_INVALID_ARGUMENT or CZK_ERR_IO with a message naming the setting;
 * czk_grpc_server_start makes the same checks. */
czk_err czk_grpc_security_check(const char *listen, const czk_grpc_server_options *opt, char *msg, size_t msglen);

/* Starts serving svc (borrowed: it must outlive the server) on listen:
 * "host:port" (e.g. "0.0.0.0:50051", "[::]:50051", "127.0.0.1:0" for any free
 * port: see czk_grpc_server_port) or "unix:///path/to.sock" (a stale socket
 * file there is replaced; CZK_ERR_IO when a process accepts connections on
 * it). opt may be NULL (the defaults). CZK_ERR_INVALID_ARGUMENT for a
 * malformed address or bad security settings (czk_grpc_security_check),
 * CZK_ERR_IO when it cannot be bound or a file cannot be read (message in
 * msg). A unix socket gets opt's mode and group before the first call is
 * served. */
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
