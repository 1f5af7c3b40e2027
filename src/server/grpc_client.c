/* czk — the cuzk.v1 client on gRPC core (include/czk/grpc_client.h). */
#include "czk/grpc_client.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/time.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grpc_internal.h"
#include "grpc_security.h"

struct czk_grpc_client {
    grpc_channel *ch;
    size_t max_msg;
    bool wait_for_ready;
    char *auth; /* "Bearer TOKEN", or NULL */
};

czk_err czk_grpc_client_open(czk_grpc_client **out, const char *addr, size_t max_msg_bytes, bool wait_for_ready,
                             char *msg, size_t msglen) {
    czk_grpc_client_options o;
    memset(&o, 0, sizeof o);
    o.max_msg_bytes = max_msg_bytes;
    o.wait_for_ready = wait_for_ready;
    return czk_grpc_client_open_opts(out, addr, &o, msg, msglen);
}

static bool given(const char *s) {
    return s && *s;
}

/* The TLS credentials of o (o->tls_ca_file set), the PEM files checked. */
static czk_err tls_creds(const czk_grpc_client_options *o, grpc_channel_credentials **out, char *msg, size_t msglen) {
    *out = NULL;
    if (given(o->tls_cert_file) != given(o->tls_key_file)) {
        if (msglen)
            snprintf(msg, msglen, "a client certificate needs its key: %s is given, %s is not",
                     given(o->tls_cert_file) ? "the certificate (--tls-cert)" : "the key (--tls-key)",
                     given(o->tls_cert_file) ? "the key (--tls-key)" : "the certificate (--tls-cert)");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    char *ca = NULL, *cert = NULL, *key = NULL;
    czk_err e = czk_grpc_pem_load(o->tls_ca_file, 'c', "TLS CA file (--tls-ca)", &ca, msg, msglen);
    if (e == CZK_OK && given(o->tls_cert_file)) {
        e = czk_grpc_pem_load(o->tls_cert_file, 'c', "TLS client certificate (--tls-cert)", &cert, msg, msglen);
        if (e == CZK_OK) e = czk_grpc_pem_load(o->tls_key_file, 'k', "TLS client key (--tls-key)", &key, msg, msglen);
        if (e == CZK_OK && !czk_grpc_pem_key_matches(cert, key)) {
            if (msglen)
                snprintf(msg, msglen, "TLS client key %s is not the key of the certificate %s (--tls-key, --tls-cert)",
                         o->tls_key_file, o->tls_cert_file);
            e = CZK_ERR_INVALID_ARGUMENT;
        }
    }
    if (e == CZK_OK) {
        grpc_ssl_pem_key_cert_pair pair = {key, cert};
        *out = grpc_ssl_credentials_create(ca, cert ? &pair : NULL, NULL, NULL);
        if (!*out) {
            if (msglen) snprintf(msg, msglen, "gRPC refused the TLS credentials");
            e = CZK_ERR_INVALID_ARGUMENT;
        }
    }
    free(ca); /* the credentials hold their own copies */
    free(cert);
    if (key) {
        memset(key, 0, strlen(key));
        free(key);
    }
    return e;
}

czk_err czk_grpc_client_open_opts(czk_grpc_client **out, const char *addr, const czk_grpc_client_options *opts,
                                  char *msg, size_t msglen) {
    *out = NULL;
    czk_grpc_client_options o;
    if (opts) o = *opts;
    else memset(&o, 0, sizeof o);
    if (!addr || !*addr) {
        if (msglen) snprintf(msg, msglen, "no server address");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (!given(o.tls_ca_file) && (given(o.tls_cert_file) || given(o.tls_key_file) || given(o.tls_server_name))) {
        if (msglen)
            snprintf(msg, msglen, "%s is for TLS, which needs the CA of the server's certificate (--tls-ca FILE)",
                     given(o.tls_cert_file) ? "--tls-cert" : given(o.tls_key_file) ? "--tls-key" : "--tls-server-name");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (given(o.token)) {
        for (const char *p = o.token; *p; p++)
            if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f) {
                if (msglen) snprintf(msg, msglen, "the token must be printable ASCII without spaces");
                return CZK_ERR_INVALID_ARGUMENT;
            }
    }
    czk_grpc_client *c = calloc(1, sizeof *c);
    if (!c) {
        if (msglen) snprintf(msg, msglen, "out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    if (given(o.token)) {
        size_t n = strlen(o.token) + 8;
        c->auth = malloc(n);
        if (!c->auth) {
            free(c);
            if (msglen) snprintf(msg, msglen, "out of memory");
            return CZK_ERR_NO_MEMORY;
        }
        snprintf(c->auth, n, "Bearer %s", o.token);
    }
    size_t max_msg_bytes = o.max_msg_bytes;
    if (max_msg_bytes == 0) max_msg_bytes = (size_t)256 << 20;
    if (max_msg_bytes > INT_MAX) max_msg_bytes = INT_MAX;
    c->max_msg = max_msg_bytes;
    c->wait_for_ready = o.wait_for_ready;
    grpc_init();
    grpc_channel_credentials *creds = NULL;
    if (given(o.tls_ca_file)) {
        czk_err e = tls_creds(&o, &creds, msg, msglen);
        if (e != CZK_OK) {
            free(c->auth);
            free(c);
            grpc_shutdown();
            return e;
        }
    } else {
        creds = grpc_insecure_credentials_create();
    }
    grpc_arg args[3];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)max_msg_bytes;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = (char *)GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)max_msg_bytes;
    size_t nargs = 2;
    if (given(o.tls_server_name)) {
        args[2].type = GRPC_ARG_STRING;
        args[2].key = (char *)GRPC_SSL_TARGET_NAME_OVERRIDE_ARG;
        args[2].value.string = (char *)o.tls_server_name;
        nargs = 3;
    }
    grpc_channel_args ch_args = {nargs, args};
    c->ch = grpc_channel_create(addr, creds, &ch_args);
    grpc_channel_credentials_release(creds);
    if (!c->ch) {
        if (msglen) snprintf(msg, msglen, "cannot create a channel to %s", addr);
        free(c->auth);
        free(c);
        grpc_shutdown();
        return CZK_ERR_INVALID_ARGUMENT;
    }
    *out = c;
    return CZK_OK;
}

void czk_grpc_client_close(czk_grpc_client *c) {
    if (!c) return;
    grpc_channel_destroy(c->ch);
    if (c->auth) {
        memset(c->auth, 0, strlen(c->auth));
        free(c->auth);
    }
    free(c);
    grpc_shutdown();
}

const char *czk_grpc_code_name(int code) {
    return czk_grpc_status_name((grpc_status_code)code);
}

int czk_grpc_client_unary_raw(czk_grpc_client *c, const char *method, const void *req, size_t req_len,
                              long timeout_ms, unsigned char **resp, size_t *resp_len, char *details, size_t dlen) {
    *resp = NULL;
    *resp_len = 0;
    if (dlen) details[0] = 0;
    char path[128];
    if (method[0] == '/') snprintf(path, sizeof path, "%s", method);
    else snprintf(path, sizeof path, "/cuzk.v1.ProvingEngine/%s", method);

    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    gpr_timespec deadline = timeout_ms < 0 ? gpr_inf_future(GPR_CLOCK_REALTIME)
                                           : gpr_time_add(gpr_now(GPR_CLOCK_REALTIME),
                                                          gpr_time_from_millis(timeout_ms, GPR_TIMESPAN));
    grpc_slice method_slice = grpc_slice_from_copied_string(path);
    grpc_call *call =
        grpc_channel_create_call(c->ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, method_slice, NULL, deadline, NULL);
    grpc_slice_unref(method_slice);

    grpc_slice body = grpc_slice_from_copied_buffer(req, req_len);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&body, 1);
    grpc_slice_unref(body);
    grpc_metadata_array init_md, trail_md;
    grpc_metadata_array_init(&init_md);
    grpc_metadata_array_init(&trail_md);
    grpc_byte_buffer *recv = NULL;
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice status_details = grpc_empty_slice();

    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    /* waiting for readiness only with a deadline: a call without one must not hang on a dead server */
    ops[0].flags = c->wait_for_ready && timeout_ms >= 0 ? GRPC_INITIAL_METADATA_WAIT_FOR_READY : 0;
    grpc_metadata auth;
    memset(&auth, 0, sizeof auth);
    if (c->auth) {
        auth.key = grpc_slice_from_static_string("authorization");
        auth.value = grpc_slice_from_static_string(c->auth);
        ops[0].data.send_initial_metadata.count = 1;
        ops[0].data.send_initial_metadata.metadata = &auth;
    }
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &init_md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trail_md;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &status_details;
    grpc_call_error ce = grpc_call_start_batch(call, ops, 6, call, NULL);
    if (ce == GRPC_CALL_OK) {
        grpc_completion_queue_pluck(cq, call, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    } else {
        status = GRPC_STATUS_INTERNAL;
        if (dlen) snprintf(details, dlen, "grpc_call_start_batch: %s", grpc_call_error_to_string(ce));
    }
    if (ce == GRPC_CALL_OK && dlen) {
        size_t n = GRPC_SLICE_LENGTH(status_details);
        if (n >= dlen) n = dlen - 1;
        memcpy(details, GRPC_SLICE_START_PTR(status_details), n);
        details[n] = 0;
    }
    if (status == GRPC_STATUS_OK) {
        if (!recv) {
            status = GRPC_STATUS_INTERNAL;
            if (dlen) snprintf(details, dlen, "the server sent no response message");
        } else {
            grpc_byte_buffer_reader rd;
            if (!grpc_byte_buffer_reader_init(&rd, recv)) {
                status = GRPC_STATUS_INTERNAL;
                if (dlen) snprintf(details, dlen, "the response could not be read");
            } else {
                grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
                grpc_byte_buffer_reader_destroy(&rd);
                size_t n = GRPC_SLICE_LENGTH(all);
                *resp = malloc(n ? n : 1);
                if (!*resp) {
                    status = GRPC_STATUS_RESOURCE_EXHAUSTED;
                    if (dlen) snprintf(details, dlen, "out of memory for a %zu-byte response", n);
                } else {
                    memcpy(*resp, GRPC_SLICE_START_PTR(all), n);
                    *resp_len = n;
                }
                grpc_slice_unref(all);
            }
        }
    }
    if (recv) grpc_byte_buffer_destroy(recv);
    grpc_byte_buffer_destroy(send);
    grpc_slice_unref(status_details);
    grpc_metadata_array_destroy(&init_md);
    grpc_metadata_array_destroy(&trail_md);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_pluck(cq, NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type != GRPC_QUEUE_SHUTDOWN) {
    }
    grpc_completion_queue_destroy(cq);
    return (int)status;
}

int czk_grpc_client_unary(czk_grpc_client *c, const char *method, const ProtobufCMessage *req,
                          const ProtobufCMessageDescriptor *resp_desc, long timeout_ms, ProtobufCMessage **resp,
                          char *details, size_t dlen) {
    *resp = NULL;
    size_t n = protobuf_c_message_get_packed_size(req);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        if (dlen) snprintf(details, dlen, "out of memory");
        return GRPC_STATUS_RESOURCE_EXHAUSTED;
    }
    protobuf_c_message_pack(req, buf);
    unsigned char *out = NULL;
    size_t out_len = 0;
    int st = czk_grpc_client_unary_raw(c, method, buf, n, timeout_ms, &out, &out_len, details, dlen);
    free(buf);
    if (st != GRPC_STATUS_OK) return st;
    *resp = protobuf_c_message_unpack(resp_desc, NULL, out_len, out);
    free(out);
    if (!*resp) {
        if (dlen) snprintf(details, dlen, "the response is not a valid %s (%zu bytes)", resp_desc->name, out_len);
        return GRPC_STATUS_INTERNAL;
    }
    return GRPC_STATUS_OK;
}
