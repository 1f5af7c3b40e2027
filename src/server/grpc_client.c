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

struct czk_grpc_client {
    grpc_channel *ch;
    size_t max_msg;
    bool wait_for_ready;
};

czk_err czk_grpc_client_open(czk_grpc_client **out, const char *addr, size_t max_msg_bytes, bool wait_for_ready,
                             char *msg, size_t msglen) {
    *out = NULL;
    if (!addr || !*addr) {
        if (msglen) snprintf(msg, msglen, "no server address");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_grpc_client *c = calloc(1, sizeof *c);
    if (!c) {
        if (msglen) snprintf(msg, msglen, "out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    if (max_msg_bytes == 0) max_msg_bytes = (size_t)256 << 20;
    if (max_msg_bytes > INT_MAX) max_msg_bytes = INT_MAX;
    c->max_msg = max_msg_bytes;
    c->wait_for_ready = wait_for_ready;
    grpc_init();
    grpc_arg args[2];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)max_msg_bytes;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = (char *)GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)max_msg_bytes;
    grpc_channel_args ch_args = {2, args};
    grpc_channel_credentials *creds = grpc_insecure_credentials_create();
    c->ch = grpc_channel_create(addr, creds, &ch_args);
    grpc_channel_credentials_release(creds);
    if (!c->ch) {
        if (msglen) snprintf(msg, msglen, "cannot create a channel to %s", addr);
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
