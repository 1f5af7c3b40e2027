/* czk — request files: SubmitProofRequest (proto/cuzk/v1/proving.proto) in
 * proto3's canonical JSON mapping (include/czk/filecoin_request.h). */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin_request.h"

typedef enum { F_STRING, F_KIND, F_U64, F_PRIORITY, F_BYTES, F_BYTES_LIST, F_U32, F_REFUSED } field_type;

typedef struct {
    const char *proto, *json; /* the proto's name and its lowerCamelCase */
    field_type type;
    size_t offset;            /* into czk_fil_request */
} field;

#define AT(m) offsetof(czk_fil_request, m)
/* in field-number order */
static const field FIELDS[] = {
    {"request_id", "requestId", F_STRING, AT(request_id)},
    {"proof_kind", "proofKind", F_KIND, AT(kind)},
    {"sector_size", "sectorSize", F_U64, AT(sector_size)},
    {"registered_proof", "registeredProof", F_U64, AT(registered_proof)},
    {"priority", "priority", F_PRIORITY, AT(priority)},
    {"vanilla_proof", "vanillaProof", F_BYTES, AT(vanilla_proof)},
    {"vanilla_proofs", "vanillaProofs", F_BYTES_LIST, AT(vanilla_proofs)},
    {"sector_number", "sectorNumber", F_U64, AT(sector_number)},
    {"miner_id", "minerId", F_U64, AT(miner_id)},
    {"randomness", "randomness", F_BYTES, AT(randomness)},
    {"partition_index", "partitionIndex", F_U32, AT(partition_index)},
    {"comm_r_old", "commROld", F_BYTES, AT(comm_r_old)},
    {"comm_r_new", "commRNew", F_BYTES, AT(comm_r_new)},
    {"comm_d_new", "commDNew", F_BYTES, AT(comm_d_new)},
    {"circuit_id", "circuitId", F_REFUSED, 0},
    {"circuit_input", "circuitInput", F_REFUSED, 0},
};
#define N_FIELDS (sizeof FIELDS / sizeof *FIELDS)

static const char *const KINDS[] = {"PROOF_KIND_UNSPECIFIED", "POREP_SEAL_COMMIT", "SNAP_DEALS_UPDATE",
                                    "WINDOW_POST_PARTITION", "WINNING_POST"};
static const char *const PRIORITIES[] = {"PRIORITY_UNSPECIFIED", "LOW", "NORMAL", "HIGH", "CRITICAL"};

/* ---- base64 (RFC 4648) ------------------------------------------------------------ */

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Standard alphabet, padded: 4 * ceil(n / 3) characters and a NUL into out. */
static void b64_encode(const uint8_t *in, size_t n, char *out) {
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = B64[v >> 18];
        out[o++] = B64[v >> 12 & 63];
        out[o++] = B64[v >> 6 & 63];
        out[o++] = B64[v & 63];
    }
    if (n - i) {
        uint32_t v = (uint32_t)in[i] << 16 | (n - i == 2 ? (uint32_t)in[i + 1] << 8 : 0);
        out[o++] = B64[v >> 18];
        out[o++] = B64[v >> 12 & 63];
        out[o++] = n - i == 2 ? B64[v >> 6 & 63] : '=';
        out[o++] = '=';
    }
    out[o] = 0;
}

static int b64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/* Standard or URL-safe, padded or not (padding, when present, completes the
 * last quantum); bits past the last byte are ignored. out holds 3 * n / 4 + 3
 * bytes. false for any other character or length. */
static bool b64_decode(const char *s, size_t n, uint8_t *out, size_t *out_len) {
    if (n % 4 == 0 && n && s[n - 1] == '=') n -= s[n - 2] == '=' ? 2 : 1;
    if (n % 4 == 1) return false;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64_value(s[i]);
        if (v < 0) return false;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    *out_len = o;
    return true;
}

/* ---- decoding --------------------------------------------------------------------- */

/* czk_fil_request_free of an owned request, here so that this file stands
 * alone (the fuzz harness builds it without the rest of src/filecoin). */
static void release(czk_fil_request *r) {
    free(r->request_id);
    free(r->vanilla_proof.data);
    for (size_t i = 0; r->vanilla_proofs && i < r->n_vanilla_proofs; i++) free(r->vanilla_proofs[i].data);
    free(r->vanilla_proofs);
    free(r->randomness.data);
    free(r->comm_r_old.data);
    free(r->comm_r_new.data);
    free(r->comm_d_new.data);
    memset(r, 0, sizeof *r);
}

#define BAD(...)                                              \
    do {                                                      \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
        return CZK_ERR_FORMAT;                                \
    } while (0)

static czk_err get_bytes(const json_t *v, const char *name, czk_fil_bytes *out, char *msg, size_t msglen) {
    if (!json_is_string(v)) BAD("%s must be a base64 string", name);
    size_t n = json_string_length(v);
    uint8_t *b = malloc(3 * (n / 4) + 3);
    if (!b) return CZK_ERR_NO_MEMORY;
    size_t len;
    if (!b64_decode(json_string_value(v), n, b, &len)) {
        free(b);
        BAD("%s is not base64", name);
    }
    if (len == 0) {
        free(b);
        b = NULL;
    }
    out->data = b;
    out->len = len;
    return CZK_OK;
}

/* A non-negative integer at most max: a JSON integer, an integral real, or
 * a string of decimal digits (proto3 accepts either for every integer). */
static czk_err get_uint(const json_t *v, const char *name, uint64_t max, uint64_t *out, char *msg, size_t msglen) {
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0 || (uint64_t)i > max) BAD("%s is out of range (%" PRId64 ")", name, (int64_t)i);
        *out = (uint64_t)i;
        return CZK_OK;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d < 0 || d != floor(d) || d >= 9007199254740992.0 || (uint64_t)d > max)
            BAD("%s must be a non-negative integer of at most %" PRIu64 " (%g)", name, max, d);
        *out = (uint64_t)d;
        return CZK_OK;
    }
    if (!json_is_string(v)) BAD("%s must be an integer (a decimal string or a number)", name);
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n == 0 || n > 20) BAD("%s must be a decimal integer, not \"%.40s\"", name, s);
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') BAD("%s must be a decimal integer, not \"%.40s\"", name, s);
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10) BAD("%s is out of range (\"%s\")", name, s);
        x = x * 10 + d;
    }
    if (x > max) BAD("%s is out of range (\"%s\")", name, s);
    *out = x;
    return CZK_OK;
}

static czk_err get_enum(const json_t *v, const char *name, const char *const *names, size_t count, int *out,
                        char *msg, size_t msglen) {
    if (json_is_string(v)) {
        for (size_t i = 0; i < count; i++)
            if (!strcmp(json_string_value(v), names[i])) {
                *out = (int)i;
                return CZK_OK;
            }
        BAD("%s: unknown value \"%.60s\"", name, json_string_value(v));
    }
    if (!json_is_integer(v)) BAD("%s must be an enum name (a string) or its number", name);
    json_int_t i = json_integer_value(v);
    if (i < 0 || i >= (json_int_t)count) BAD("%s: unknown value %" PRId64, name, (int64_t)i);
    *out = (int)i;
    return CZK_OK;
}

static czk_err get_field(const field *f, const char *name, const json_t *v, czk_fil_request *r, char *msg,
                         size_t msglen) {
    void *at = (char *)r + f->offset;
    if (f->type == F_REFUSED)
        BAD("%s: czk's own circuits are not a Filecoin request (czk prove --circuit ID --input SEED)", name);
    if (json_is_null(v)) return CZK_OK; /* the default */
    uint64_t u;
    czk_err e;
    switch (f->type) {
    case F_STRING:
        if (!json_is_string(v)) BAD("%s must be a string", name);
        if (!(*(char **)at = strdup(json_string_value(v)))) return CZK_ERR_NO_MEMORY;
        return CZK_OK;
    case F_KIND: {
        int k;
        if ((e = get_enum(v, name, KINDS, 5, &k, msg, msglen)) == CZK_OK) r->kind = (czk_fil_kind)k;
        return e;
    }
    case F_PRIORITY: return get_enum(v, name, PRIORITIES, 5, &r->priority, msg, msglen);
    case F_U64:
        if ((e = get_uint(v, name, UINT64_MAX, &u, msg, msglen)) == CZK_OK) *(uint64_t *)at = u;
        return e;
    case F_U32:
        if ((e = get_uint(v, name, UINT32_MAX, &u, msg, msglen)) == CZK_OK) *(uint32_t *)at = (uint32_t)u;
        return e;
    case F_BYTES: return get_bytes(v, name, at, msg, msglen);
    case F_BYTES_LIST: {
        if (!json_is_array(v)) BAD("%s must be an array of base64 strings", name);
        size_t n = json_array_size(v);
        if (n == 0) return CZK_OK;
        if (!(r->vanilla_proofs = calloc(n, sizeof *r->vanilla_proofs))) return CZK_ERR_NO_MEMORY;
        r->n_vanilla_proofs = n;
        for (size_t i = 0; i < n; i++) {
            char item[64];
            snprintf(item, sizeof item, "%s[%zu]", name, i);
            if ((e = get_bytes(json_array_get(v, i), item, &r->vanilla_proofs[i], msg, msglen)) != CZK_OK) return e;
        }
        return CZK_OK;
    }
    case F_REFUSED: break;
    }
    return CZK_ERR_FORMAT;
}

static czk_err decode(const json_t *root, czk_fil_request *r, char *msg, size_t msglen) {
    if (!json_is_object(root)) BAD("a request file is a JSON object (SubmitProofRequest)");
    const char *given[N_FIELDS] = {0};
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)root, key, v) {
        size_t i = 0;
        while (i < N_FIELDS && strcmp(key, FIELDS[i].proto) && strcmp(key, FIELDS[i].json)) i++;
        if (i == N_FIELDS) BAD("unknown field \"%.60s\" (not a SubmitProofRequest field)", key);
        if (given[i]) BAD("%s given twice (as \"%s\" and \"%s\")", FIELDS[i].json, given[i], key);
        given[i] = key;
        czk_err e = get_field(&FIELDS[i], FIELDS[i].json, v, r, msg, msglen);
        if (e != CZK_OK) return e;
    }
    return CZK_OK;
}

czk_err czk_fil_request_from_json(const char *text, size_t len, czk_fil_request *out, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (msg && msglen) msg[0] = 0;
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) BAD("not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
    czk_err e = decode(root, out, msg, msglen);
    json_decref(root);
    if (e != CZK_OK) {
        if (e == CZK_ERR_NO_MEMORY && msg && msglen) snprintf(msg, msglen, "out of memory");
        release(out);
    }
    return e;
}

/* ---- encoding --------------------------------------------------------------------- */

static json_t *bytes_value(const czk_fil_bytes *b) {
    char *s = malloc(4 * ((b->len + 2) / 3) + 1);
    if (!s) return NULL;
    b64_encode(b->data, b->len, s);
    json_t *v = json_string(s);
    free(s);
    return v;
}

static json_t *u64_value(uint64_t x) {
    char s[24];
    snprintf(s, sizeof s, "%" PRIu64, x);
    return json_string(s);
}

/* The field's JSON value, NULL when it is at its default; *fail set on an
 * allocation failure (or a request_id that is not UTF-8). */
static json_t *field_value(const field *f, const czk_fil_request *r, bool *fail) {
    const void *at = (const char *)r + f->offset;
    json_t *v = NULL;
    switch (f->type) {
    case F_STRING:
        if (!r->request_id || !*r->request_id) return NULL;
        v = json_string(r->request_id);
        break;
    case F_KIND:
        if (r->kind == CZK_FIL_KIND_NONE) return NULL;
        v = json_string(KINDS[r->kind]);
        break;
    case F_PRIORITY:
        if (r->priority == 0) return NULL;
        v = json_string(PRIORITIES[r->priority]);
        break;
    case F_U64:
        if (!*(const uint64_t *)at) return NULL;
        v = u64_value(*(const uint64_t *)at);
        break;
    case F_U32:
        if (!*(const uint32_t *)at) return NULL;
        v = json_integer(*(const uint32_t *)at);
        break;
    case F_BYTES:
        if (!((const czk_fil_bytes *)at)->len) return NULL;
        v = bytes_value(at);
        break;
    case F_BYTES_LIST:
        if (!r->n_vanilla_proofs) return NULL;
        if (!(v = json_array())) break;
        for (size_t i = 0; i < r->n_vanilla_proofs; i++)
            if (json_array_append_new(v, bytes_value(&r->vanilla_proofs[i])) != 0) {
                json_decref(v);
                v = NULL;
                break;
            }
        break;
    case F_REFUSED: return NULL;
    }
    if (!v) *fail = true;
    return v;
}

czk_err czk_fil_request_to_json(const czk_fil_request *r, char **out, size_t *len) {
    *out = NULL;
    *len = 0;
    if ((unsigned)r->kind >= 5 || r->priority < 0 || r->priority >= 5) return CZK_ERR_INVALID_ARGUMENT;
    if (r->request_id) { /* jansson takes UTF-8 only */
        json_t *id = json_string(r->request_id);
        if (!id) return CZK_ERR_INVALID_ARGUMENT;
        json_decref(id);
    }
    json_t *root = json_object();
    if (!root) return CZK_ERR_NO_MEMORY;
    bool fail = false;
    for (size_t i = 0; i < N_FIELDS && !fail; i++) {
        json_t *v = field_value(&FIELDS[i], r, &fail);
        if (v && json_object_set_new(root, FIELDS[i].json, v) != 0) fail = true;
    }
    char *s = fail ? NULL : json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!s) return CZK_ERR_NO_MEMORY;
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        return CZK_ERR_NO_MEMORY;
    }
    t[n] = '\n';
    t[n + 1] = 0;
    *out = t;
    *len = n + 1;
    return CZK_OK;
}
