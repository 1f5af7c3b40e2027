/* czk — the cuzk.v1.ProvingEngine server on gRPC core.
 *
 * Every call, and every batch of every call, completes on one completion
 * queue, drained by one reactor thread. The reactor keeps ACCEPT_DEPTH calls
 * requested; for each call that arrives it starts RECV_MESSAGE itself, so
 * that no thread waits for a message that may never come: a call whose
 * message has not arrived within the receive timeout is cancelled with
 * DEADLINE_EXCEEDED (the reactor sweeps the deadlines between events). Once
 * the message is in, the reactor arms RECV_CLOSE_ON_SERVER (to learn of a
 * client that went away) and hands the call to a pool of handler threads
 * that grows, up to MAX_HANDLERS, whenever every handler is busy, so that
 * blocking AwaitProof/Prove calls never hold up other calls. A handler runs
 * the call synchronously: decode and validate (grpc_codec.c), run the method
 * on the service (grpc_handlers.c), send the response and status; the
 * completions of its batches reach it through the call's mutex and condition
 * variable (czk_grpc_call_wait). */
#include "czk/grpc_server.h"

#include <errno.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/time.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "czk/log.h"
#include "grpc_call.h"
#include "grpc_internal.h"
#include "grpc_security.h"

#define ACCEPT_DEPTH 8
#define MIN_HANDLERS 4
#define MAX_HANDLERS 1024
#define MAX_RECEIVING 16384 /* calls receiving their message at once; more are refused */
#define STOP_GRACE_MS 5000
#define REACTOR_TICK_S 0.2 /* the longest the reactor sleeps between sweeps */

static double mono_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- a call's batches -------------------------------------------------------------- */

int czk_grpc_call_wait(call_ctx *c, void *tag, gpr_timespec deadline) {
    int op = (int)(intptr_t)tag;
    bool forever = gpr_time_cmp(deadline, gpr_inf_future(deadline.clock_type)) == 0;
    struct timespec until = {0, 0};
    if (!forever) {
        gpr_timespec rt = gpr_convert_clock_type(deadline, GPR_CLOCK_REALTIME);
        until.tv_sec = (time_t)rt.tv_sec;
        until.tv_nsec = rt.tv_nsec;
    }
    int r = -1;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        if (c->done[CALL_OP_CLOSE]) c->close_done = true;
        if (op > 0 && op < CALL_OPS && c->done[op]) {
            r = c->ok[op];
            break;
        }
        if (forever) pthread_cond_wait(&c->cv, &c->mu);
        else if (pthread_cond_timedwait(&c->cv, &c->mu, &until) == ETIMEDOUT) {
            if (c->done[CALL_OP_CLOSE]) c->close_done = true;
            if (op > 0 && op < CALL_OPS && c->done[op]) r = c->ok[op];
            break;
        }
    }
    pthread_mutex_unlock(&c->mu);
    return r;
}

/* Starts a batch whose completion the handler waits for. */
static bool call_start(call_ctx *c, const grpc_op *ops, size_t n, void *tag) {
    int op = (int)(intptr_t)tag;
    pthread_mutex_lock(&c->mu);
    c->in_flight++;
    pthread_mutex_unlock(&c->mu);
    if (grpc_call_start_batch(c->call, ops, n, &c->tags[op], NULL) == GRPC_CALL_OK) return true;
    pthread_mutex_lock(&c->mu);
    c->in_flight--;
    pthread_mutex_unlock(&c->mu);
    return false;
}

/* The reactor: a batch of a call that a handler owns completed. */
static void call_complete(call_ctx *c, int op, int success) {
    pthread_mutex_lock(&c->mu);
    c->done[op] = true;
    c->ok[op] = success;
    c->in_flight--;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu); /* the handler may free c from here on */
}

static void cq_destroy(grpc_completion_queue *cq) {
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).type != GRPC_QUEUE_SHUTDOWN) {
    }
    grpc_completion_queue_destroy(cq);
}

static call_ctx *ctx_new(czk_grpc_server *s) {
    call_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->srv = s;
    for (int i = 0; i < CALL_OPS; i++) {
        c->tags[i].c = c;
        c->tags[i].op = i;
    }
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    return c;
}

/* Frees a call none of whose batches is in flight. */
static void ctx_free(call_ctx *c) {
    if (!c) return;
    if (c->payload) grpc_byte_buffer_destroy(c->payload);
    czk_budget_release(&c->charge);
    if (c->call) grpc_call_unref(c->call);
    if (c->refused) grpc_slice_unref(c->status_slice);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    free(c);
}

/* Frees an arrived call (counted in s->live). */
static void ctx_release(call_ctx *c) {
    czk_grpc_server *s = c->srv;
    ctx_free(c);
    pthread_mutex_lock(&s->mu);
    s->live--;
    pthread_cond_broadcast(&s->cv_done);
    pthread_mutex_unlock(&s->mu);
}

/* ---- sending ----------------------------------------------------------------------- */

/* Sends the response (when code is OK) and the status, and waits until the
 * call is closed. */
void czk_grpc_call_finish(call_ctx *c, grpc_status_code code, const char *details, const ProtobufCMessage *resp) {
    char why[256];
    grpc_byte_buffer *bb = NULL;
    if (code == GRPC_STATUS_OK && resp) {
        size_t n = protobuf_c_message_get_packed_size(resp);
        uint8_t *buf = n > c->srv->max_msg ? NULL : malloc(n ? n : 1);
        if (n > c->srv->max_msg) {
            snprintf(why, sizeof why, "the response (%zu bytes) is larger than the message limit (%zu bytes)", n,
                     c->srv->max_msg);
            code = GRPC_STATUS_RESOURCE_EXHAUSTED;
            details = why;
        } else if (!buf) {
            code = GRPC_STATUS_RESOURCE_EXHAUSTED;
            details = "out of memory encoding the response";
        } else {
            protobuf_c_message_pack(resp, buf);
            grpc_slice sl = grpc_slice_new(buf, n, free);
            bb = grpc_raw_byte_buffer_create(&sl, 1);
            grpc_slice_unref(sl);
        }
    }
    c->status = code;
    snprintf(c->status_msg, sizeof c->status_msg, "%s", details ? details : "");
    grpc_slice status_details = grpc_slice_from_copied_string(details ? details : "");
    grpc_op ops[3];
    memset(ops, 0, sizeof ops);
    size_t n = 0;
    ops[n].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[n].data.send_initial_metadata.count = 0;
    n++;
    if (bb) {
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n].data.send_message.send_message = bb;
        n++;
    }
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.trailing_metadata_count = 0;
    ops[n].data.send_status_from_server.status = code;
    ops[n].data.send_status_from_server.status_details = &status_details;
    n++;
    if (call_start(c, ops, n, TAG_SEND)) czk_grpc_call_wait(c, TAG_SEND, gpr_inf_future(GPR_CLOCK_MONOTONIC));
    if (c->close_armed && !c->close_done) czk_grpc_call_wait(c, TAG_CLOSE, gpr_inf_future(GPR_CLOCK_MONOTONIC));
    grpc_slice_unref(status_details);
    if (bb) grpc_byte_buffer_destroy(bb);
}

/* Serves a call whose request message has arrived (c->payload). */
static void serve_call(call_ctx *c) {
    int m = c->method;
    char msg[MSG];
    if (atomic_load(&c->srv->stopping)) {
        czk_grpc_call_finish(c, GRPC_STATUS_UNAVAILABLE, "the server is shutting down", NULL);
        return;
    }
    grpc_byte_buffer_reader reader;
    if (!grpc_byte_buffer_reader_init(&reader, c->payload)) {
        czk_grpc_call_finish(c, GRPC_STATUS_INVALID_ARGUMENT, "the request message could not be read (compression?)", NULL);
        return;
    }
    grpc_slice body = grpc_byte_buffer_reader_readall(&reader);
    grpc_byte_buffer_reader_destroy(&reader);
    grpc_byte_buffer_destroy(c->payload); /* read: the body is the one copy now */
    c->payload = NULL;
    czk_grpc_request rq;
    msg[0] = 0;
    grpc_status_code st = czk_grpc_request_decode(&rq, (czk_grpc_method)m, GRPC_SLICE_START_PTR(body),
                                                  GRPC_SLICE_LENGTH(body), msg, sizeof msg);
    grpc_slice_unref(body);
    if (st != GRPC_STATUS_OK) {
        czk_grpc_call_finish(c, st, msg, NULL);
        return;
    }
    czk_grpc_dispatch(c, &rq);
    czk_grpc_request_free(&rq);
}

/* Logs a call's end: DEBUG, or WARN for a status that means a fault of the
 * daemon (INTERNAL, UNKNOWN, DATA_LOSS). */
static void log_call(const call_ctx *c, grpc_status_code st, const char *why, double t0) {
    const char *path = (const char *)GRPC_SLICE_START_PTR(c->details.method);
    int n = (int)(GRPC_SLICE_LENGTH(c->details.method) > 100 ? 100 : GRPC_SLICE_LENGTH(c->details.method));
    bool fault = st == GRPC_STATUS_INTERNAL || st == GRPC_STATUS_UNKNOWN || st == GRPC_STATUS_DATA_LOSS;
    czk_log(fault ? CZK_LOG_WARN : CZK_LOG_DEBUG, CZK_LOG_NO_JOB, CZK_LOG_NO_PART, "grpc %.*s: %s in %.1f ms%s%s", n,
            path, czk_grpc_status_name(st), (mono_s() - t0) * 1e3, why[0] ? ": " : "", why);
}

static void handle_call(call_ctx *c) {
    c->status = GRPC_STATUS_UNKNOWN;
    serve_call(c);
    czk_budget_release(&c->charge); /* the request's bytes are freed */
    log_call(c, c->status, c->status_msg, c->arrived_s);
}

/* ---- the handler pool ---------------------------------------------------------------- */

static void *handler_main(void *arg) {
    czk_grpc_server *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->head && !s->quit) {
            s->idle++;
            pthread_cond_wait(&s->cv_work, &s->mu);
            s->idle--;
        }
        if (!s->head) break;
        call_ctx *c = s->head;
        s->head = c->next;
        if (!s->head) s->tail = NULL;
        s->qlen--;
        pthread_mutex_unlock(&s->mu);
        handle_call(c);
        /* the reactor may still be reporting a batch (RECV_CLOSE after a
         * failed send): free the call once it no longer can */
        pthread_mutex_lock(&c->mu);
        while (c->in_flight > 0) pthread_cond_wait(&c->cv, &c->mu);
        pthread_mutex_unlock(&c->mu);
        pthread_mutex_lock(&s->mu);
        s->active--;
        pthread_mutex_unlock(&s->mu);
        ctx_release(c);
        pthread_mutex_lock(&s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Starts one more handler; the caller holds s->mu. */
static bool spawn_handler(czk_grpc_server *s) {
    if (s->n_threads == s->cap_threads) {
        size_t cap = s->cap_threads ? 2 * s->cap_threads : 16;
        pthread_t *t = realloc(s->threads, cap * sizeof *t);
        if (!t) return false;
        s->threads = t;
        s->cap_threads = cap;
    }
    if (pthread_create(&s->threads[s->n_threads], NULL, handler_main, s) != 0) return false;
    s->n_threads++;
    return true;
}

static void enqueue(czk_grpc_server *s, call_ctx *c) {
    pthread_mutex_lock(&s->mu);
    c->next = NULL;
    if (s->tail) s->tail->next = c;
    else s->head = c;
    s->tail = c;
    s->qlen++;
    s->active++;
    if (s->qlen > s->idle && s->n_threads < MAX_HANDLERS) spawn_handler(s);
    pthread_cond_signal(&s->cv_work);
    pthread_mutex_unlock(&s->mu);
}

/* ---- the reactor: accepting and receiving ------------------------------------------- */

static bool request_one(czk_grpc_server *s) {
    call_ctx *c = ctx_new(s);
    if (!c) return false;
    if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, s->cq, s->cq, &c->tags[CALL_OP_NEW]) !=
        GRPC_CALL_OK) {
        ctx_free(c);
        return false;
    }
    s->n_requested++;
    return true;
}

static void recv_unlink(czk_grpc_server *s, call_ctx *c) {
    if (c->rprev) c->rprev->rnext = c->rnext;
    else s->recv_head = c->rnext;
    if (c->rnext) c->rnext->rprev = c->rprev;
    else s->recv_tail = c->rprev;
    c->rprev = c->rnext = NULL;
    s->n_receiving--;
}

/* Ends a call the reactor owns with a status, sent as a server's status
 * (a cancel would reach the client without it), and logs it. */
static void reactor_refuse(call_ctx *c, grpc_status_code st, const char *why) {
    c->refused = true;
    c->status_slice = grpc_slice_from_copied_string(why);
    grpc_op ops[2];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[1].data.send_status_from_server.status = st;
    ops[1].data.send_status_from_server.status_details = &c->status_slice;
    if (grpc_call_start_batch(c->call, ops, 2, &c->tags[CALL_OP_SEND], NULL) == GRPC_CALL_OK) c->in_flight++;
    else grpc_call_cancel_with_status(c->call, st, why, NULL);
    log_call(c, st, why, c->arrived_s);
}

/* Frees a call the reactor owns once none of its batches is in flight. */
static void reactor_release(call_ctx *c) {
    if (c->in_flight == 0) ctx_release(c);
}

/* A call arrived: refuse it, or start receiving its message. */
static void on_arrival(czk_grpc_server *s, call_ctx *c) {
    pthread_mutex_lock(&s->mu);
    s->live++;
    pthread_mutex_unlock(&s->mu);
    c->arrived_s = mono_s();
    const char *path = (const char *)GRPC_SLICE_START_PTR(c->details.method);
    size_t path_len = GRPC_SLICE_LENGTH(c->details.method);
    c->method = czk_grpc_method_find(path, path_len);
    char msg[MSG];
    grpc_status_code st = GRPC_STATUS_OK;
    if (atomic_load(&s->stopping)) {
        st = GRPC_STATUS_UNAVAILABLE;
        snprintf(msg, sizeof msg, "the server is shutting down");
    } else if (c->method < 0) {
        st = GRPC_STATUS_UNIMPLEMENTED;
        snprintf(msg, sizeof msg, "unknown method %.*s (this is cuzk.v1.ProvingEngine)",
                 (int)(path_len > 200 ? 200 : path_len), path);
    } else if (s->n_receiving >= MAX_RECEIVING) {
        st = GRPC_STATUS_RESOURCE_EXHAUSTED;
        snprintf(msg, sizeof msg, "too many calls are sending their request at once (%d); try again later",
                 MAX_RECEIVING);
    } else {
        /* a call without the token is refused before its message is read */
        st = czk_grpc_security_authorize(s->sec, &c->md, msg, sizeof msg);
    }
    if (st == GRPC_STATUS_OK) {
        grpc_op op;
        memset(&op, 0, sizeof op);
        op.op = GRPC_OP_RECV_MESSAGE;
        op.data.recv_message.recv_message = &c->payload;
        if (grpc_call_start_batch(c->call, &op, 1, &c->tags[CALL_OP_RECV], NULL) == GRPC_CALL_OK) {
            c->in_flight = 1;
            c->recv_deadline_s = c->arrived_s + s->receive_timeout_s;
            c->rprev = s->recv_tail;
            c->rnext = NULL;
            if (s->recv_tail) s->recv_tail->rnext = c;
            else s->recv_head = c;
            s->recv_tail = c;
            s->n_receiving++;
            return;
        }
        st = GRPC_STATUS_INTERNAL;
        snprintf(msg, sizeof msg, "cannot start receiving the request");
    }
    reactor_refuse(c, st, msg);
    reactor_release(c);
}

/* Charges an arrived request message to the service's budget,
 * CZK_GRPC_REQUEST_COPIES times its size (the message and its decoded copy
 * in serve_call; the decoded copy, the journal's and the decoded proof input
 * in the service's submit), until its handler is done; the reactor never
 * waits, so a message that does not
 * fit now is refused RESOURCE_EXHAUSTED. A message of at most
 * CZK_GRPC_UNCHARGED_MSG is not charged, so that AwaitProof, CancelProof and
 * GetStatus get through a budget full of partitions; only SubmitProof and
 * Prove may be larger. */
static grpc_status_code charge_request(czk_grpc_server *s, call_ctx *c, char *msg, size_t msglen) {
    size_t len = grpc_byte_buffer_length(c->payload);
    if (len <= CZK_GRPC_UNCHARGED_MSG) return GRPC_STATUS_OK;
    int m = c->method;
    if (m != CZK_GRPC_SUBMIT && m != CZK_GRPC_PROVE) {
        snprintf(msg, msglen, "the %s request is %zu bytes; such a request is at most %zu bytes", czk_grpc_method_path(m),
                 len, (size_t)CZK_GRPC_UNCHARGED_MSG);
        return GRPC_STATUS_INVALID_ARGUMENT;
    }
    czk_budget *b = czk_service_budget(s->svc);
    size_t need = CZK_GRPC_REQUEST_COPIES * len;
    if (czk_budget_charge(b, need, &c->charge)) return GRPC_STATUS_OK;
    size_t total = czk_budget_total(b), used = czk_budget_reserved(b);
    snprintf(msg, msglen,
             "the memory budget has no room now for this request: its %zu bytes are charged %d times while it is "
             "decoded and journalled (%.1f MiB), and %.1f of the budget's %.1f MiB are in use; try again later",
             len, CZK_GRPC_REQUEST_COPIES, need / 1048576.0, used / 1048576.0, total / 1048576.0);
    return GRPC_STATUS_RESOURCE_EXHAUSTED;
}

/* A call's message arrived (or its receive failed or was cancelled). */
static void on_received(czk_grpc_server *s, call_ctx *c, int success) {
    c->in_flight--;
    if (c->refused) { /* the sweep ended it */
        reactor_release(c);
        return;
    }
    recv_unlink(s, c);
    if (!success || !c->payload) {
        /* the client cancelled or closed without a message, or one over the
         * size limit (the core has set that status) */
        reactor_refuse(c, GRPC_STATUS_INVALID_ARGUMENT, "no request message");
        reactor_release(c);
        return;
    }
    if (atomic_load(&s->stopping)) {
        reactor_refuse(c, GRPC_STATUS_UNAVAILABLE, "the server is shutting down");
        reactor_release(c);
        return;
    }
    char msg[MSG];
    grpc_status_code st = charge_request(s, c, msg, sizeof msg);
    if (st != GRPC_STATUS_OK) {
        grpc_byte_buffer_destroy(c->payload); /* refused: its bytes go at once */
        c->payload = NULL;
        reactor_refuse(c, st, msg);
        reactor_release(c);
        return;
    }
    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->cancelled;
    c->handed = true;
    c->in_flight = 1;
    if (grpc_call_start_batch(c->call, &op, 1, &c->tags[CALL_OP_CLOSE], NULL) == GRPC_CALL_OK)
        c->close_armed = true;
    else c->in_flight = 0;
    enqueue(s, c);
}

/* The status the reactor sent is out: cancel what else the call waits for
 * (its RECV_MESSAGE) and free it once that completed. */
static void on_refused(call_ctx *c) {
    c->in_flight--;
    if (c->in_flight > 0) grpc_call_cancel(c->call, NULL);
    reactor_release(c);
}

/* Cancels the calls whose message did not arrive in time (all of them while
 * stopping); returns the seconds until the next deadline (at most a tick). */
static double sweep(czk_grpc_server *s) {
    double now = mono_s();
    bool stopping = atomic_load(&s->stopping);
    char msg[MSG];
    while (s->recv_head && (stopping || s->recv_head->recv_deadline_s <= now)) {
        call_ctx *c = s->recv_head;
        recv_unlink(s, c);
        if (stopping) {
            reactor_refuse(c, GRPC_STATUS_UNAVAILABLE, "the server is shutting down");
        } else {
            snprintf(msg, sizeof msg,
                     "the request message did not arrive within the receive timeout (daemon.receive_timeout, %.3g s)",
                     s->receive_timeout_s);
            reactor_refuse(c, GRPC_STATUS_DEADLINE_EXCEEDED, msg);
        }
        /* freed once its status is sent and its RECV_MESSAGE completed */
    }
    double wait = REACTOR_TICK_S;
    if (s->recv_head && s->recv_head->recv_deadline_s - now < wait) wait = s->recv_head->recv_deadline_s - now;
    return wait > 0.001 ? wait : 0.001;
}

static void *reactor_main(void *arg) {
    czk_grpc_server *s = arg;
    bool shut = false;
    for (;;) {
        double wait = sweep(s);
        if (shut && s->n_requested == 0) {
            pthread_mutex_lock(&s->mu);
            bool none = s->live == 0;
            pthread_mutex_unlock(&s->mu);
            if (none) break;
        }
        gpr_timespec until = gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                          gpr_time_from_micros((int64_t)(wait * 1e6), GPR_TIMESPAN));
        grpc_event ev = grpc_completion_queue_next(s->cq, until, NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN) break;
        if (ev.type != GRPC_OP_COMPLETE) continue;
        if (ev.tag == &s->shutdown_tag) {
            shut = true;
            continue;
        }
        call_tag *t = ev.tag;
        call_ctx *c = t->c;
        switch (t->op) {
        case CALL_OP_NEW:
            s->n_requested--;
            if (!ev.success) {
                ctx_free(c);
                break;
            }
            if (!atomic_load(&s->stopping)) request_one(s);
            on_arrival(s, c);
            break;
        case CALL_OP_RECV: on_received(s, c, ev.success); break;
        default:
            if (c->handed) call_complete(c, t->op, ev.success);
            else on_refused(c);
            break;
        }
    }
    return NULL;
}

/* ---- start / stop -------------------------------------------------------------------- */

/* A process accepts connections on the unix socket at path. */
static bool unix_socket_live(const char *path) {
    struct sockaddr_un a;
    if (strlen(path) >= sizeof a.sun_path) return false;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    memcpy(a.sun_path, path, strlen(path));
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    bool live = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return live;
}

czk_err czk_grpc_listen_check(const char *listen, char *msg, size_t msglen) {
    char dummy[8];
    if (!msg || !msglen) {
        msg = dummy;
        msglen = sizeof dummy;
    }
    if (!listen || !*listen) {
        snprintf(msg, msglen, "no listen address");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (!strncmp(listen, "unix:", 5)) {
        const char *p = listen + 5;
        if (!strncmp(p, "//", 2)) p += 2;
        if (!*p) {
            snprintf(msg, msglen, "listen address '%s' has no socket path", listen);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        if (strlen(p) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
            snprintf(msg, msglen, "listen address '%s': the socket path is too long", listen);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        return CZK_OK;
    }
    const char *colon = strrchr(listen, ':');
    if (!colon || colon == listen || !colon[1] || strlen(colon + 1) > 5) goto bad;
    long port = 0;
    for (const char *p = colon + 1; *p; p++) {
        if (*p < '0' || *p > '9') goto bad;
        port = port * 10 + (*p - '0');
    }
    if (port > 65535) goto bad;
    return CZK_OK;
bad:
    snprintf(msg, msglen, "listen address '%s' is not host:port (port 0 … 65535) or unix:///path", listen);
    return CZK_ERR_INVALID_ARGUMENT;
}

czk_err czk_grpc_server_start(czk_grpc_server **out, czk_service *svc, const char *listen,
                              const czk_grpc_server_options *opt, char *msg, size_t msglen) {
    char dummy[8];
    if (!msg || !msglen) {
        msg = dummy;
        msglen = sizeof dummy;
    }
    msg[0] = 0;
    if (!out || !svc) {
        snprintf(msg, msglen, "grpc server: NULL argument");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    czk_err e = czk_grpc_listen_check(listen, msg, msglen);
    if (e != CZK_OK) return e;
    const char *sock_path = NULL;
    if (!strncmp(listen, "unix:", 5)) {
        /* gRPC replaces a socket file: only a stale one may go */
        const char *path = listen + 5;
        if (!strncmp(path, "//", 2)) path += 2;
        sock_path = path;
        if (unix_socket_live(path)) {
            snprintf(msg, msglen, "another process is listening on %s", listen);
            return CZK_ERR_IO;
        }
    }
    czk_grpc_server_options defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!opt) opt = &defaults;
    size_t max_msg_bytes = opt->max_msg_bytes;
    if (max_msg_bytes == 0) max_msg_bytes = CZK_GRPC_DEFAULT_MAX_MSG;
    if (max_msg_bytes > INT_MAX) max_msg_bytes = INT_MAX;

    czk_grpc_security *sec = NULL;
    if ((e = czk_grpc_security_new(&sec, listen, opt, msg, msglen)) != CZK_OK) return e;

    czk_grpc_server *s = calloc(1, sizeof *s);
    if (!s) {
        czk_grpc_security_free(sec);
        snprintf(msg, msglen, "grpc server: out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    s->svc = svc;
    s->sec = sec;
    s->max_msg = max_msg_bytes;
    s->receive_timeout_s =
        (double)(opt->receive_timeout_ms > 0 ? opt->receive_timeout_ms : CZK_GRPC_DEFAULT_RECEIVE_TIMEOUT_MS) / 1e3;
    atomic_init(&s->stopping, false);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv_work, NULL);
    pthread_cond_init(&s->cv_done, NULL);
    grpc_init();

    grpc_arg args[3];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)max_msg_bytes;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = (char *)GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)max_msg_bytes;
    args[2].type = GRPC_ARG_INTEGER; /* a second daemon on the same port must fail, not share it */
    args[2].key = (char *)GRPC_ARG_ALLOW_REUSEPORT;
    args[2].value.integer = 0;
    grpc_channel_args ch = {3, args};
    grpc_arg args4[4];
    memcpy(args4, args, sizeof args);
    /* the bytes gRPC holds for the calls it receives: past the quota it
     * resets streams (RESOURCE_EXHAUSTED at the client) */
    grpc_resource_quota *quota = NULL;
    if (opt->receive_buffer_bytes) {
        quota = grpc_resource_quota_create("czk-receive");
        grpc_resource_quota_resize(quota, opt->receive_buffer_bytes);
        args4[3].type = GRPC_ARG_POINTER;
        args4[3].key = (char *)GRPC_ARG_RESOURCE_QUOTA;
        args4[3].value.pointer.p = quota;
        args4[3].value.pointer.vtable = grpc_resource_quota_arg_vtable();
        ch.num_args = 4;
        ch.args = args4;
    }
    s->server = grpc_server_create(&ch, NULL);
    if (quota) grpc_resource_quota_unref(quota); /* the server holds its own reference */
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->cq, NULL);
    grpc_server_credentials *creds = czk_grpc_security_server_creds(sec);
    /* a unix socket is born owner-only (whatever the umask), then given its
     * mode and group before grpc_server_start serves anything on it (the
     * umask is the process's: a file another thread creates meanwhile is
     * owner-only too) */
    mode_t umask_before = sock_path ? umask(0177) : 0;
    int port = grpc_server_add_http2_port(s->server, listen, creds);
    if (sock_path) umask(umask_before);
    grpc_server_credentials_release(creds);
    if (port == 0)
        snprintf(msg, msglen, "cannot listen on %s (address in use, no permission, or not resolvable)", listen);
    else if (sock_path && (e = czk_grpc_security_socket_apply(sec, sock_path, msg, msglen)) != CZK_OK) port = 0;
    if (port == 0) {
        czk_grpc_security_free(sec);
        grpc_server_destroy(s->server);
        cq_destroy(s->cq);
        grpc_shutdown();
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv_work);
        pthread_cond_destroy(&s->cv_done);
        free(s);
        return CZK_ERR_IO;
    }
    s->port = strncmp(listen, "unix:", 5) ? port : 0;
    grpc_server_start(s->server);
    for (int i = 0; i < ACCEPT_DEPTH; i++) request_one(s);
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < MIN_HANDLERS; i++) spawn_handler(s);
    pthread_mutex_unlock(&s->mu);
    if (pthread_create(&s->reactor, NULL, reactor_main, s) == 0) s->reactor_started = true;
    if (!s->reactor_started || s->n_requested == 0 || s->n_threads == 0) {
        snprintf(msg, msglen, "grpc server: cannot start its threads");
        czk_grpc_server_stop(s);
        return CZK_ERR_NO_MEMORY;
    }
    *out = s;
    return CZK_OK;
}

int czk_grpc_server_port(const czk_grpc_server *s) {
    return s ? s->port : 0;
}

void czk_grpc_server_stop(czk_grpc_server *s) {
    if (!s) return;
    atomic_store(&s->stopping, true);
    grpc_server_shutdown_and_notify(s->server, s->cq, &s->shutdown_tag);
    /* The reactor ends the calls still receiving within a tick, waiting
     * calls notice `stopping` within a slice; give the others a grace
     * period, then cancel what is left. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += STOP_GRACE_MS / 1000;
    pthread_mutex_lock(&s->mu);
    while (s->live > 0) {
        if (pthread_cond_timedwait(&s->cv_done, &s->mu, &until) == ETIMEDOUT) break;
    }
    pthread_mutex_unlock(&s->mu);
    grpc_server_cancel_all_calls(s->server);
    if (s->reactor_started) pthread_join(s->reactor, NULL);
    else reactor_main(s); /* collect the shutdown notification here */
    pthread_mutex_lock(&s->mu);
    s->quit = true;
    pthread_cond_broadcast(&s->cv_work);
    pthread_mutex_unlock(&s->mu);
    for (size_t i = 0; i < s->n_threads; i++) pthread_join(s->threads[i], NULL);
    /* calls queued after the last handler left (none: the reactor waits for every call to be freed) */
    while (s->head) {
        call_ctx *c = s->head;
        s->head = c->next;
        ctx_free(c);
    }
    grpc_server_destroy(s->server);
    cq_destroy(s->cq);
    grpc_shutdown();
    czk_grpc_security_free(s->sec);
    free(s->threads);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv_work);
    pthread_cond_destroy(&s->cv_done);
    free(s);
}
