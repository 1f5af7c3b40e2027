/* czk — the cuzk.v1.ProvingEngine server on gRPC core.
 *
 * One acceptor thread keeps ACCEPT_DEPTH calls requested on the server's
 * notification queue; each new call (with its own completion queue) goes to a
 * pool of handler threads that grows, up to MAX_HANDLERS, whenever every
 * handler is busy, so that blocking AwaitProof/Prove calls never hold up
 * other calls. A handler runs the call synchronously: receive the request,
 * arm RECV_CLOSE_ON_SERVER (to learn of a client that went away), decode and
 * validate (grpc_codec.c), run the method on the service (grpc_handlers.c),
 * send the response and status. */
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
#define STOP_GRACE_MS 5000

/* ---- completion queue helpers ------------------------------------------------------- */

/* Pumps the call's queue until `tag` completes (returns its success, 0 or 1)
 * or the deadline passes (-1). RECV_CLOSE's completion is recorded on the way. */
int czk_grpc_call_wait(call_ctx *c, void *tag, gpr_timespec deadline) {
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(c->cq, deadline, NULL);
        if (ev.type == GRPC_QUEUE_TIMEOUT) return -1;
        if (ev.type == GRPC_QUEUE_SHUTDOWN) return 0;
        if (ev.tag == TAG_CLOSE) c->close_done = true;
        if (ev.tag == tag) return ev.success;
    }
}

static grpc_completion_queue *cq_new(void) {
    return grpc_completion_queue_create_for_next(NULL);
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
    c->cq = cq_new();
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    return c;
}

static void ctx_free(call_ctx *c) {
    if (!c) return;
    if (c->payload) grpc_byte_buffer_destroy(c->payload);
    if (c->call) grpc_call_unref(c->call);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    cq_destroy(c->cq);
    free(c);
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
    if (grpc_call_start_batch(c->call, ops, n, TAG_SEND, NULL) == GRPC_CALL_OK)
        czk_grpc_call_wait(c, TAG_SEND, gpr_inf_future(GPR_CLOCK_MONOTONIC));
    if (c->close_armed && !c->close_done) czk_grpc_call_wait(c, TAG_CLOSE, gpr_inf_future(GPR_CLOCK_MONOTONIC));
    grpc_slice_unref(status_details);
    if (bb) grpc_byte_buffer_destroy(bb);
}

static void serve_call(call_ctx *c) {
    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_MESSAGE;
    op.data.recv_message.recv_message = &c->payload;
    if (grpc_call_start_batch(c->call, &op, 1, TAG_RECV, NULL) != GRPC_CALL_OK) return;
    int ok = czk_grpc_call_wait(c, TAG_RECV, gpr_inf_future(GPR_CLOCK_MONOTONIC));
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->cancelled;
    if (grpc_call_start_batch(c->call, &op, 1, TAG_CLOSE, NULL) == GRPC_CALL_OK) c->close_armed = true;

    const char *path = (const char *)GRPC_SLICE_START_PTR(c->details.method);
    size_t path_len = GRPC_SLICE_LENGTH(c->details.method);
    int m = czk_grpc_method_find(path, path_len);
    char msg[MSG];
    if (m < 0) {
        snprintf(msg, sizeof msg, "unknown method %.*s (this is cuzk.v1.ProvingEngine)",
                 (int)(path_len > 200 ? 200 : path_len), path);
        czk_grpc_call_finish(c, GRPC_STATUS_UNIMPLEMENTED, msg, NULL);
        return;
    }
    if (!ok || !c->payload) {
        /* the client cancelled, or a message over the size limit (the core has set the status) */
        czk_grpc_call_finish(c, GRPC_STATUS_INVALID_ARGUMENT, "no request message", NULL);
        return;
    }
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

static double mono_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Serves one call and logs it: DEBUG, or WARN for a status that means a
 * fault of the daemon (INTERNAL, UNKNOWN, DATA_LOSS). */
static void handle_call(call_ctx *c) {
    double t0 = mono_s();
    c->status = GRPC_STATUS_UNKNOWN;
    serve_call(c);
    const char *path = (const char *)GRPC_SLICE_START_PTR(c->details.method);
    int n = (int)(GRPC_SLICE_LENGTH(c->details.method) > 100 ? 100 : GRPC_SLICE_LENGTH(c->details.method));
    bool fault = c->status == GRPC_STATUS_INTERNAL || c->status == GRPC_STATUS_UNKNOWN ||
                 c->status == GRPC_STATUS_DATA_LOSS;
    czk_log(fault ? CZK_LOG_WARN : CZK_LOG_DEBUG, CZK_LOG_NO_JOB, CZK_LOG_NO_PART, "grpc %.*s: %s in %.1f ms%s%s", n,
            path, czk_grpc_status_name(c->status), (mono_s() - t0) * 1e3, c->status_msg[0] ? ": " : "", c->status_msg);
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
        ctx_free(c);
        pthread_mutex_lock(&s->mu);
        s->active--;
        pthread_cond_broadcast(&s->cv_done);
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

/* ---- accepting --------------------------------------------------------------------- */

static bool request_one(czk_grpc_server *s) {
    call_ctx *c = ctx_new(s);
    if (!c) return false;
    if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, c->cq, s->acq, c) != GRPC_CALL_OK) {
        ctx_free(c);
        return false;
    }
    s->n_requested++;
    return true;
}

static void *acceptor_main(void *arg) {
    czk_grpc_server *s = arg;
    bool shut = false;
    while (!shut || s->n_requested > 0) {
        grpc_event ev = grpc_completion_queue_next(s->acq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN) break;
        if (ev.type != GRPC_OP_COMPLETE) continue;
        if (ev.tag == &s->shutdown_tag) {
            shut = true;
            continue;
        }
        call_ctx *c = ev.tag;
        s->n_requested--;
        if (!ev.success) {
            ctx_free(c);
            continue;
        }
        enqueue(s, c); /* while stopping, the handler answers UNAVAILABLE */
        if (!atomic_load(&s->stopping)) request_one(s);
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
    s->server = grpc_server_create(&ch, NULL);
    s->acq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->acq, NULL);
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
        cq_destroy(s->acq);
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
    if (pthread_create(&s->acceptor, NULL, acceptor_main, s) == 0) s->acceptor_started = true;
    if (!s->acceptor_started || s->n_requested == 0 || s->n_threads == 0) {
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
    grpc_server_shutdown_and_notify(s->server, s->acq, &s->shutdown_tag);
    /* Waiting calls notice `stopping` within a slice; give the others a grace
     * period, then cancel what is left. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += STOP_GRACE_MS / 1000;
    pthread_mutex_lock(&s->mu);
    while (s->active > 0) {
        if (pthread_cond_timedwait(&s->cv_done, &s->mu, &until) == ETIMEDOUT) break;
    }
    pthread_mutex_unlock(&s->mu);
    grpc_server_cancel_all_calls(s->server);
    if (s->acceptor_started) pthread_join(s->acceptor, NULL);
    else acceptor_main(s); /* collect the shutdown notification here */
    pthread_mutex_lock(&s->mu);
    s->quit = true;
    pthread_cond_broadcast(&s->cv_work);
    pthread_mutex_unlock(&s->mu);
    for (size_t i = 0; i < s->n_threads; i++) pthread_join(s->threads[i], NULL);
    /* calls queued after the last handler left (none: handlers drain the queue before quitting) */
    while (s->head) {
        call_ctx *c = s->head;
        s->head = c->next;
        ctx_free(c);
    }
    grpc_server_destroy(s->server);
    cq_destroy(s->acq);
    grpc_shutdown();
    czk_grpc_security_free(s->sec);
    free(s->threads);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv_work);
    pthread_cond_destroy(&s->cv_done);
    free(s);
}
