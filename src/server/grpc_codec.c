/* czk — cuzk.v1 requests: decoding, validation, and the czk_err → gRPC
 * status mapping. Pure functions over bytes: no gRPC runtime. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grpc_internal.h"

static const struct {
    const char *path;
    const ProtobufCMessageDescriptor *req, *resp;
} methods[CZK_GRPC__COUNT] = {
    [CZK_GRPC_SUBMIT] = {"/cuzk.v1.ProvingEngine/SubmitProof", &cuzk__v1__submit_proof_request__descriptor,
                         &cuzk__v1__submit_proof_response__descriptor},
    [CZK_GRPC_AWAIT] = {"/cuzk.v1.ProvingEngine/AwaitProof", &cuzk__v1__await_proof_request__descriptor,
                        &cuzk__v1__await_proof_response__descriptor},
    [CZK_GRPC_PROVE] = {"/cuzk.v1.ProvingEngine/Prove", &cuzk__v1__prove_request__descriptor,
                        &cuzk__v1__prove_response__descriptor},
    [CZK_GRPC_CANCEL] = {"/cuzk.v1.ProvingEngine/CancelProof", &cuzk__v1__cancel_proof_request__descriptor,
                         &cuzk__v1__cancel_proof_response__descriptor},
    [CZK_GRPC_STATUS] = {"/cuzk.v1.ProvingEngine/GetStatus", &cuzk__v1__get_status_request__descriptor,
                         &cuzk__v1__get_status_response__descriptor},
    [CZK_GRPC_METRICS] = {"/cuzk.v1.ProvingEngine/GetMetrics", &cuzk__v1__get_metrics_request__descriptor,
                          &cuzk__v1__get_metrics_response__descriptor},
    [CZK_GRPC_PRELOAD] = {"/cuzk.v1.ProvingEngine/PreloadSRS", &cuzk__v1__preload_srs_request__descriptor,
                          &cuzk__v1__preload_srs_response__descriptor},
    [CZK_GRPC_EVICT] = {"/cuzk.v1.ProvingEngine/EvictSRS", &cuzk__v1__evict_srs_request__descriptor,
                        &cuzk__v1__evict_srs_response__descriptor},
};

const char *czk_grpc_method_path(czk_grpc_method m) {
    return (unsigned)m < CZK_GRPC__COUNT ? methods[m].path : "?";
}

int czk_grpc_method_find(const char *path, size_t len) {
    for (int m = 0; m < CZK_GRPC__COUNT; m++)
        if (strlen(methods[m].path) == len && memcmp(methods[m].path, path, len) == 0) return m;
    return -1;
}

const ProtobufCMessageDescriptor *czk_grpc_request_descriptor(czk_grpc_method m) {
    return (unsigned)m < CZK_GRPC__COUNT ? methods[m].req : NULL;
}

const ProtobufCMessageDescriptor *czk_grpc_response_descriptor(czk_grpc_method m) {
    return (unsigned)m < CZK_GRPC__COUNT ? methods[m].resp : NULL;
}

grpc_status_code czk_grpc_status_for(czk_err e, czk_grpc_method m) {
    switch (e) {
    case CZK_OK: return GRPC_STATUS_OK;
    case CZK_ERR_INVALID_ARGUMENT:
    case CZK_ERR_BAD_LENGTH:
    case CZK_ERR_NOT_CANONICAL:
    case CZK_ERR_COMPRESSION_FLAG:
    case CZK_ERR_INFINITY_NOT_ZERO:
    case CZK_ERR_SORT_FLAG:
    case CZK_ERR_NOT_ON_CURVE:
    case CZK_ERR_NOT_IN_SUBGROUP:
    case CZK_ERR_UNSATISFIED:
        return GRPC_STATUS_INVALID_ARGUMENT;
    case CZK_ERR_FORMAT:
        /* a request payload that does not parse, or a parameter file in the
         * cache that does not (preload) */
        return m == CZK_GRPC_PRELOAD ? GRPC_STATUS_FAILED_PRECONDITION : GRPC_STATUS_INVALID_ARGUMENT;
    case CZK_ERR_MISMATCH:
        /* submit: the request_id names an earlier job with other content */
        return (m == CZK_GRPC_SUBMIT || m == CZK_GRPC_PROVE) ? GRPC_STATUS_ALREADY_EXISTS
                                                             : GRPC_STATUS_FAILED_PRECONDITION;
    case CZK_ERR_NO_MEMORY: return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CZK_ERR_IO: return GRPC_STATUS_INTERNAL;
    case CZK_ERR_SYNTHESIS:
    case CZK_ERR_PROOF_INVALID:
        return GRPC_STATUS_INTERNAL;
    case CZK_ERR_UNSUPPORTED: return GRPC_STATUS_UNIMPLEMENTED;
    case CZK_ERR_CANCELLED: return GRPC_STATUS_CANCELLED;
    case CZK_ERR_TIMEOUT: return GRPC_STATUS_DEADLINE_EXCEEDED;
    case CZK_ERR_NOT_FOUND: return GRPC_STATUS_NOT_FOUND;
    case CZK_ERR_BUSY:
        /* submit: the queue limit; evict: the circuit is in use */
        return (m == CZK_GRPC_SUBMIT || m == CZK_GRPC_PROVE) ? GRPC_STATUS_RESOURCE_EXHAUSTED
                                                             : GRPC_STATUS_FAILED_PRECONDITION;
    case CZK_ERR_SHUTDOWN: return GRPC_STATUS_UNAVAILABLE;
    case CZK_ERR_PRECONDITION: return GRPC_STATUS_FAILED_PRECONDITION;
    case CZK_ERR_NO_SPACE: return GRPC_STATUS_RESOURCE_EXHAUSTED; /* the state folder is full, or the journal at its limit */
    default: return GRPC_STATUS_UNKNOWN;
    }
}

const char *czk_grpc_status_name(grpc_status_code c) {
    static const char *const names[] = {"OK",
                                        "CANCELLED",
                                        "UNKNOWN",
                                        "INVALID_ARGUMENT",
                                        "DEADLINE_EXCEEDED",
                                        "NOT_FOUND",
                                        "ALREADY_EXISTS",
                                        "PERMISSION_DENIED",
                                        "RESOURCE_EXHAUSTED",
                                        "FAILED_PRECONDITION",
                                        "ABORTED",
                                        "OUT_OF_RANGE",
                                        "UNIMPLEMENTED",
                                        "INTERNAL",
                                        "UNAVAILABLE",
                                        "DATA_LOSS",
                                        "UNAUTHENTICATED"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "UNKNOWN";
}

/* ---- validation ------------------------------------------------------------------ */

__attribute__((format(printf, 4, 5))) static grpc_status_code bad(char *msg, size_t msglen, grpc_status_code c,
                                                                   const char *fmt, ...) {
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return c;
}

static grpc_status_code check_circuit_id(const char *id, const char *field, char *msg, size_t msglen) {
    size_t n = strlen(id);
    if (n == 0) return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "%s is empty", field);
    if (n > CZK_GRPC_MAX_CIRCUIT_ID)
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "%s is longer than %d characters", field,
                   CZK_GRPC_MAX_CIRCUIT_ID);
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
              c == '.'))
            return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT,
                       "%s has a character outside [A-Za-z0-9._-] at offset %zu", field, i);
    }
    if (id[0] == '.')
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "%s must not start with '.'", field);
    return GRPC_STATUS_OK;
}

static const char *proof_kind_name(int k) {
    switch (k) {
    case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT: return "POREP_SEAL_COMMIT";
    case CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE: return "SNAP_DEALS_UPDATE";
    case CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION: return "WINDOW_POST_PARTITION";
    case CUZK__V1__PROOF_KIND__WINNING_POST: return "WINNING_POST";
    default: return NULL;
    }
}

/* comm_r_old, comm_r_new, comm_d_new: absent, or exactly 32 raw bytes. */
static grpc_status_code check_commitment(const ProtobufCBinaryData *b, const char *field, char *msg, size_t msglen) {
    if (b->len == 0 || (b->len == CZK_GRPC_COMMITMENT_BYTES && b->data)) return GRPC_STATUS_OK;
    return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT,
               "%s has %zu bytes; a commitment is %d raw bytes (not a CID)", field, b->len, CZK_GRPC_COMMITMENT_BYTES);
}

static bool priority_of(int p, czk_priority *out) {
    switch (p) {
    case CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED:
    case CUZK__V1__PRIORITY__NORMAL: *out = CZK_PRIO_NORMAL; return true;
    case CUZK__V1__PRIORITY__LOW: *out = CZK_PRIO_LOW; return true;
    case CUZK__V1__PRIORITY__HIGH: *out = CZK_PRIO_HIGH; return true;
    case CUZK__V1__PRIORITY__CRITICAL: *out = CZK_PRIO_CRITICAL; return true;
    default: return false;
    }
}

/* cuzk's Priority::default_for a request that names none: WinningPoSt
 * CRITICAL, WindowPoSt HIGH, the others NORMAL. */
static czk_priority default_priority(int kind) {
    return kind == CUZK__V1__PROOF_KIND__WINNING_POST            ? CZK_PRIO_CRITICAL
           : kind == CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION ? CZK_PRIO_HIGH
                                                                 : CZK_PRIO_NORMAL;
}

static czk_fil_bytes borrow(const ProtobufCBinaryData *b) {
    czk_fil_bytes v = {b->len ? b->data : NULL, b->len};
    return v;
}

/* A Filecoin proof as Curio sends it (proof_kind and its fields); the
 * service decodes and checks the vanilla proofs. The request borrows the
 * message's bytes (and owns its vanilla_proofs array). */
static grpc_status_code filecoin_request(const Cuzk__V1__SubmitProofRequest *r, czk_service_request *out, char *msg,
                                         size_t msglen) {
    int kind = (int)r->proof_kind;
    if (r->priority == CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED) out->priority = default_priority(kind);
    else if (!priority_of((int)r->priority, &out->priority))
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "unknown priority %d", (int)r->priority);
    if (kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT && (r->vanilla_proof.len == 0 || !r->vanilla_proof.data))
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT,
                   "POREP_SEAL_COMMIT needs the C1 output in vanilla_proof (field 10)");
    if (kind != CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT && r->n_vanilla_proofs == 0)
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "%s needs its vanilla proofs in vanilla_proofs (field 11)",
                   proof_kind_name(kind));
    const char *rid = r->request_id ? r->request_id : "";
    out->request_id = *rid ? rid : NULL;
    out->circuit_id = NULL;
    czk_fil_request *f = &out->fil;
    f->borrowed = 1;
    f->kind = (czk_fil_kind)kind;
    f->registered_proof = r->registered_proof;
    f->sector_size = r->sector_size;
    f->sector_number = r->sector_number;
    f->miner_id = r->miner_id;
    f->partition_index = r->partition_index;
    f->vanilla_proof = borrow(&r->vanilla_proof);
    f->randomness = borrow(&r->randomness);
    f->comm_r_old = borrow(&r->comm_r_old);
    f->comm_r_new = borrow(&r->comm_r_new);
    f->comm_d_new = borrow(&r->comm_d_new);
    if (r->n_vanilla_proofs) {
        f->vanilla_proofs = calloc(r->n_vanilla_proofs, sizeof *f->vanilla_proofs);
        if (!f->vanilla_proofs) return bad(msg, msglen, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        f->n_vanilla_proofs = r->n_vanilla_proofs;
        for (size_t i = 0; i < r->n_vanilla_proofs; i++) f->vanilla_proofs[i] = borrow(&r->vanilla_proofs[i]);
    }
    return GRPC_STATUS_OK;
}

static grpc_status_code check_submit(const Cuzk__V1__SubmitProofRequest *r, czk_grpc_request *rq, char *msg,
                                     size_t msglen) {
    czk_service_request *out = &rq->submit;
    memset(out, 0, sizeof *out);
    int kind = (int)r->proof_kind;
    if (kind != 0 && !proof_kind_name(kind))
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "unknown proof_kind %d", kind);
    const char *rid = r->request_id ? r->request_id : "";
    if (strlen(rid) > CZK_GRPC_MAX_REQUEST_ID)
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "request_id is longer than %d bytes", CZK_GRPC_MAX_REQUEST_ID);
    grpc_status_code c;
    if ((c = check_commitment(&r->comm_r_old, "comm_r_old", msg, msglen)) != GRPC_STATUS_OK ||
        (c = check_commitment(&r->comm_r_new, "comm_r_new", msg, msglen)) != GRPC_STATUS_OK ||
        (c = check_commitment(&r->comm_d_new, "comm_d_new", msg, msglen)) != GRPC_STATUS_OK)
        return c;
    rq->n_vanilla_proofs = r->n_vanilla_proofs;
    rq->vanilla_proofs_bytes = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        if (r->vanilla_proofs[i].len && !r->vanilla_proofs[i].data)
            return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "vanilla_proofs[%zu] is malformed", i);
        rq->vanilla_proofs_bytes += r->vanilla_proofs[i].len;
    }
    const char *cid = r->circuit_id ? r->circuit_id : "";
    if (!*cid && kind != 0) return filecoin_request(r, out, msg, msglen);
    if (!*cid)
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT,
                   "the request names no proof: set proof_kind, or circuit_id (field 100) to a czk circuit "
                   "(demo, synthetic-K, gadget-*)");
    if (kind != 0)
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT,
                   "the request names both proof_kind %s and circuit_id '%s': a Filecoin proof or a czk circuit, "
                   "not both",
                   proof_kind_name(kind), cid);
    if ((c = check_circuit_id(cid, "circuit_id", msg, msglen)) != GRPC_STATUS_OK) return c;
    czk_priority prio;
    if (!priority_of((int)r->priority, &prio))
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "unknown priority %d", (int)r->priority);
    if (r->circuit_input.len > 0 && !r->circuit_input.data)
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "circuit_input is malformed");
    out->request_id = *rid ? rid : NULL;
    out->circuit_id = cid;
    out->input = r->circuit_input.data;
    out->input_len = r->circuit_input.len;
    out->priority = prio;
    return GRPC_STATUS_OK;
}

/* ---- the wire format, before protobuf-c ------------------------------------------------ */

static bool varint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

/* What protobuf-c lets through and the handlers must not see: a field
 * number 0, and a NUL byte inside a string field (protobuf-c keeps strings
 * NUL-terminated, so "12\0xyz" would read as "12"). strings: the field
 * numbers of the string fields; nested: a field holding a
 * SubmitProofRequest (ProveRequest.submit), or 0. */
static bool wire_ok(const uint8_t *p, size_t n, const uint32_t *strings, size_t ns, uint32_t nested, int depth,
                    char *why, size_t whylen) {
    static const uint32_t submit_strings[] = {1, 100};
    if (n == 0) return true;
    const uint8_t *end = p + n;
    while (p < end) {
        uint64_t key, len;
        if (!varint(&p, end, &key)) {
            snprintf(why, whylen, "a truncated field key");
            return false;
        }
        uint32_t field = (uint32_t)(key >> 3), wt = (uint32_t)(key & 7);
        if ((key >> 3) == 0 || (key >> 3) > 536870911) {
            snprintf(why, whylen, "field number %llu", (unsigned long long)(key >> 3));
            return false;
        }
        switch (wt) {
        case 0:
            if (!varint(&p, end, &len)) {
                snprintf(why, whylen, "field %u: a truncated varint", field);
                return false;
            }
            break;
        case 1:
        case 5:
            if ((size_t)(end - p) < (wt == 1 ? 8u : 4u)) {
                snprintf(why, whylen, "field %u: truncated", field);
                return false;
            }
            p += wt == 1 ? 8 : 4;
            break;
        case 2:
            if (!varint(&p, end, &len) || len > (uint64_t)(end - p)) {
                snprintf(why, whylen, "field %u: a length beyond the message", field);
                return false;
            }
            for (size_t i = 0; i < ns; i++)
                if (strings[i] == field && memchr(p, 0, (size_t)len)) {
                    snprintf(why, whylen, "string field %u holds a NUL byte", field);
                    return false;
                }
            if (nested && field == nested) {
                if (depth > 0 || !wire_ok(p, (size_t)len, submit_strings, 2, 0, depth + 1, why, whylen)) return false;
            }
            p += len;
            break;
        default:
            snprintf(why, whylen, "field %u: wire type %u", field, wt);
            return false;
        }
    }
    return true;
}

void czk_grpc_request_free(czk_grpc_request *r) {
    if (!r) return;
    czk_fil_request_free(&r->submit.fil); /* borrowed: frees only its array */
    if (r->msg) protobuf_c_message_free_unpacked(r->msg, NULL);
    memset(r, 0, sizeof *r);
}

grpc_status_code czk_grpc_request_decode(czk_grpc_request *out, czk_grpc_method m, const uint8_t *buf, size_t len,
                                         char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (msg && msglen) msg[0] = 0;
    if ((unsigned)m >= CZK_GRPC__COUNT)
        return bad(msg, msglen, GRPC_STATUS_UNIMPLEMENTED, "unknown method");
    static const uint8_t empty[1];
    static const uint32_t strings_submit[] = {1, 100}, strings_id[] = {1};
    char why[128] = "";
    bool wire;
    switch (m) {
    case CZK_GRPC_SUBMIT: wire = wire_ok(buf, len, strings_submit, 2, 0, 0, why, sizeof why); break;
    case CZK_GRPC_PROVE: wire = wire_ok(buf, len, NULL, 0, 1, 0, why, sizeof why); break;
    case CZK_GRPC_AWAIT:
    case CZK_GRPC_CANCEL:
    case CZK_GRPC_PRELOAD:
    case CZK_GRPC_EVICT: wire = wire_ok(buf, len, strings_id, 1, 0, 0, why, sizeof why); break;
    default: wire = wire_ok(buf, len, NULL, 0, 0, 0, why, sizeof why); break;
    }
    if (!wire)
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "the request is not a valid %s message: %s",
                   methods[m].req->name, why);
    ProtobufCMessage *pm = protobuf_c_message_unpack(methods[m].req, NULL, len, buf ? buf : empty);
    if (!pm)
        return bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "the request is not a valid %s message (%zu bytes)",
                   methods[m].req->name, len);
    out->method = m;
    out->msg = pm;
    out->timeout_ms = -1;
    grpc_status_code c = GRPC_STATUS_OK;
    switch (m) {
    case CZK_GRPC_SUBMIT: c = check_submit((const Cuzk__V1__SubmitProofRequest *)pm, out, msg, msglen); break;
    case CZK_GRPC_PROVE: {
        const Cuzk__V1__ProveRequest *r = (const Cuzk__V1__ProveRequest *)pm;
        if (!r->submit) c = bad(msg, msglen, GRPC_STATUS_INVALID_ARGUMENT, "ProveRequest.submit is missing");
        else c = check_submit(r->submit, out, msg, msglen);
        break;
    }
    case CZK_GRPC_AWAIT: {
        const Cuzk__V1__AwaitProofRequest *r = (const Cuzk__V1__AwaitProofRequest *)pm;
        out->job_id = r->job_id ? r->job_id : "";
        if (r->timeout_ms == 0) out->timeout_ms = -1;
        else out->timeout_ms = r->timeout_ms > (uint64_t)LONG_MAX ? LONG_MAX : (long)r->timeout_ms;
        break;
    }
    case CZK_GRPC_CANCEL: {
        const Cuzk__V1__CancelProofRequest *r = (const Cuzk__V1__CancelProofRequest *)pm;
        out->job_id = r->job_id ? r->job_id : "";
        break;
    }
    case CZK_GRPC_PRELOAD: {
        const Cuzk__V1__PreloadSrsRequest *r = (const Cuzk__V1__PreloadSrsRequest *)pm;
        out->circuit_id = r->circuit_id ? r->circuit_id : "";
        c = check_circuit_id(out->circuit_id, "circuit_id", msg, msglen);
        break;
    }
    case CZK_GRPC_EVICT: {
        const Cuzk__V1__EvictSrsRequest *r = (const Cuzk__V1__EvictSrsRequest *)pm;
        out->circuit_id = r->circuit_id ? r->circuit_id : "";
        c = check_circuit_id(out->circuit_id, "circuit_id", msg, msglen);
        break;
    }
    case CZK_GRPC_STATUS:
    case CZK_GRPC_METRICS:
    default: break;
    }
    if (c != GRPC_STATUS_OK) czk_grpc_request_free(out);
    return c;
}
