/* czk — the gRPC server's calls, shared by the transport (grpc_server.c:
 * the reactor on the server's one completion queue, the handler pool,
 * accepting, start/stop) and the RPC handlers (grpc_handlers.c: each cuzk.v1
 * method on the service). */
#ifndef CZK_GRPC_CALL_H
#define CZK_GRPC_CALL_H

#include <grpc/grpc.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "czk/budget.h"
#include "czk/grpc_server.h"
#include "grpc_internal.h"

#define AWAIT_SLICE_MS 200
#define MSG 1024

/* What czk_grpc_call_wait waits for: the operations of a call (their index
 * in call_ctx.tags). */
#define CALL_OP_NEW 0 /* the call's arrival (grpc_server_request_call) */
#define CALL_OP_RECV 1
#define CALL_OP_CLOSE 2
#define CALL_OP_SEND 3
#define CALL_OPS 4
#define TAG_RECV ((void *)(intptr_t)CALL_OP_RECV)
#define TAG_CLOSE ((void *)(intptr_t)CALL_OP_CLOSE)
#define TAG_SEND ((void *)(intptr_t)CALL_OP_SEND)
#define TAG_POLL ((void *)(intptr_t)CALL_OPS) /* never posted: czk_grpc_call_wait polls only */

struct call_ctx;
/* The completion queue's tag of one operation of a call. */
typedef struct {
    struct call_ctx *c;
    int op; /* CALL_OP_* */
} call_tag;

/* A call. The reactor owns it until its request message has arrived; then a
 * handler does, and the reactor only reports the completions of the call's
 * later batches under mu. */
typedef struct call_ctx {
    struct czk_grpc_server *srv;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    int method;                   /* czk_grpc_method of details.method, found on arrival (-1: unknown) */
    grpc_byte_buffer *payload;    /* the request message, until it is read (serve_call) */
    czk_reservation charge;       /* its bytes in the service's budget, from arrival to the handler's end */
    int cancelled;           /* RECV_CLOSE_ON_SERVER's result */
    grpc_status_code status; /* what czk_grpc_call_finish sent */
    char status_msg[256];    /* its message (shortened) */
    bool close_armed, close_done; /* the handler's view (close_done: copied from done[] under mu) */
    struct call_ctx *next;        /* the handler queue */
    call_tag tags[CALL_OPS];

    /* the reactor's, while the message is being received */
    double arrived_s, recv_deadline_s; /* monotonic seconds */
    bool refused;                      /* the reactor sent its status (status_slice) */
    bool handed;                       /* a handler owns it */
    grpc_slice status_slice;
    struct call_ctx *rprev, *rnext;    /* the calls receiving, in order of arrival */

    pthread_mutex_t mu; /* the batches started by the handler, completed by the reactor */
    pthread_cond_t cv;
    bool done[CALL_OPS];
    int ok[CALL_OPS];
    int in_flight; /* batches started and not yet completed (before `handed`: the reactor's only) */
} call_ctx;

struct czk_grpc_server {
    czk_service *svc;
    grpc_server *server;
    grpc_completion_queue *cq; /* the one queue: arrivals and every call's batches */
    int port;
    size_t max_msg;
    double receive_timeout_s;
    struct czk_grpc_security *sec; /* TLS, token, socket (grpc_security.c) */
    atomic_bool stopping;
    pthread_t reactor;
    bool reactor_started;
    int shutdown_tag; /* its address is the tag */
    int n_requested;  /* request_call notifications outstanding (reactor only) */
    call_ctx *recv_head, *recv_tail; /* calls receiving their message (reactor only) */
    size_t n_receiving;              /* their number (reactor only) */

    pthread_mutex_t mu;
    pthread_cond_t cv_work, cv_done;
    call_ctx *head, *tail;
    size_t qlen, idle, active; /* queued calls, idle handlers, calls queued or running */
    size_t live;               /* calls arrived and not yet freed (receiving, queued, running) */
    bool quit;
    pthread_t *threads;
    size_t n_threads, cap_threads;
};

/* Waits until the call's operation `tag` (TAG_RECV, TAG_CLOSE, TAG_SEND)
 * completes (returns its success, 0 or 1) or the deadline passes (-1);
 * TAG_POLL only notes a RECV_CLOSE that completed meanwhile
 * (c->close_done). For the handler that owns the call. */
int czk_grpc_call_wait(call_ctx *c, void *tag, gpr_timespec deadline);

/* Sends the response (when code is OK) and the status, and waits until the
 * call is closed. */
void czk_grpc_call_finish(call_ctx *c, grpc_status_code code, const char *details, const ProtobufCMessage *resp);

/* Runs the decoded request rq of call c on the service and finishes the
 * call (grpc_handlers.c). */
void czk_grpc_dispatch(call_ctx *c, const czk_grpc_request *rq);

#endif
