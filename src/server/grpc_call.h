/* czk — the gRPC server's calls, shared by the transport (grpc_server.c:
 * completion queues, the handler pool, accepting, start/stop) and the RPC
 * handlers (grpc_handlers.c: each cuzk.v1 method on the service). */
#ifndef CZK_GRPC_CALL_H
#define CZK_GRPC_CALL_H

#include <grpc/grpc.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "czk/grpc_server.h"
#include "grpc_internal.h"

#define AWAIT_SLICE_MS 200
#define MSG 1024

#define TAG_RECV ((void *)(intptr_t)1)
#define TAG_CLOSE ((void *)(intptr_t)2)
#define TAG_SEND ((void *)(intptr_t)3)
#define TAG_POLL ((void *)(intptr_t)4) /* never posted: czk_grpc_call_wait polls only */

typedef struct call_ctx {
    struct czk_grpc_server *srv;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_completion_queue *cq;
    grpc_byte_buffer *payload;
    int cancelled;     /* RECV_CLOSE_ON_SERVER's result */
    grpc_status_code status; /* what czk_grpc_call_finish sent */
    char status_msg[256];    /* its message (shortened) */
    bool close_armed, close_done;
    struct call_ctx *next;
} call_ctx;

struct czk_grpc_server {
    czk_service *svc;
    grpc_server *server;
    grpc_completion_queue *acq;
    int port;
    size_t max_msg;
    struct czk_grpc_security *sec; /* TLS, token, socket (grpc_security.c) */
    atomic_bool stopping;
    pthread_t acceptor;
    bool acceptor_started;
    int shutdown_tag; /* its address is the tag */
    int n_requested;  /* request_call notifications outstanding (acceptor only) */

    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_done;
    call_ctx *head, *tail;
    size_t qlen, idle, active; /* queued calls, idle handlers, calls queued or running */
    bool quit;
    pthread_t *threads;
    size_t n_threads, cap_threads;
};

/* Pumps the call's queue until `tag` completes (returns its success, 0 or 1)
 * or the deadline passes (-1). RECV_CLOSE's completion is recorded on the way. */
int czk_grpc_call_wait(call_ctx *c, void *tag, gpr_timespec deadline);

/* Sends the response (when code is OK) and the status, and waits until the
 * call is closed. */
void czk_grpc_call_finish(call_ctx *c, grpc_status_code code, const char *details, const ProtobufCMessage *resp);

/* Runs the decoded request rq of call c on the service and finishes the
 * call (grpc_handlers.c). */
void czk_grpc_dispatch(call_ctx *c, const czk_grpc_request *rq);

#endif
