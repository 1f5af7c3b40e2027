/* czk's cuzk.v1 protocol held against the real one: every message, field
 * (name, number, type, label), enum value and service method of Curio's
 * extern/cuzk/cuzk-proto/proto/cuzk/v1/proving.proto (filecoin-project/curio
 * at e0294b0f948132d41e8f42f59fa949495d5fd3af, 2026-08-20), transcribed into
 * the tables below, must be in the descriptors protoc-c made from our
 * proto/cuzk/v1/proving.proto, and ours may add nothing below field 100 nor
 * any message, enum value or method. czk's extension fields (>= 100) are
 * listed too, so that they do not drift either. The descriptors are walked
 * from the service's methods, so a message of ours that no method reaches is
 * not a drift (it cannot appear on the wire). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "test.h"

typedef struct {
    const char *message;
    unsigned number;
    const char *name;
    const char *type; /* a scalar's name, or the full name of a message or enum */
    bool repeated;
} real_field;

typedef struct {
    const char *enum_name;
    const char *name;
    int value;
} real_enum_value;

typedef struct {
    const char *name, *input, *output;
} real_method;

/* ---- the real file, transcribed ------------------------------------------------------ */

static const char *const REAL_MESSAGES[] = {
    "cuzk.v1.SubmitProofRequest",
    "cuzk.v1.SubmitProofResponse",
    "cuzk.v1.AwaitProofRequest",
    "cuzk.v1.AwaitProofResponse",
    "cuzk.v1.ProveRequest",
    "cuzk.v1.ProveResponse",
    "cuzk.v1.CancelProofRequest",
    "cuzk.v1.CancelProofResponse",
    "cuzk.v1.GetStatusRequest",
    "cuzk.v1.GetStatusResponse",
    "cuzk.v1.GPUStatus",
    "cuzk.v1.SRSStatus",
    "cuzk.v1.QueueStatus",
    "cuzk.v1.PreloadSrsRequest",
    "cuzk.v1.PreloadSrsResponse",
    "cuzk.v1.EvictSrsRequest",
    "cuzk.v1.EvictSrsResponse",
    "cuzk.v1.GetMetricsRequest",
    "cuzk.v1.GetMetricsResponse",
};
static const real_enum_value REAL_ENUM_VALUES[] = {
    {"cuzk.v1.ProofKind", "PROOF_KIND_UNSPECIFIED", 0},
    {"cuzk.v1.ProofKind", "POREP_SEAL_COMMIT", 1},
    {"cuzk.v1.ProofKind", "SNAP_DEALS_UPDATE", 2},
    {"cuzk.v1.ProofKind", "WINDOW_POST_PARTITION", 3},
    {"cuzk.v1.ProofKind", "WINNING_POST", 4},
    {"cuzk.v1.Priority", "PRIORITY_UNSPECIFIED", 0},
    {"cuzk.v1.Priority", "LOW", 1},
    {"cuzk.v1.Priority", "NORMAL", 2},
    {"cuzk.v1.Priority", "HIGH", 3},
    {"cuzk.v1.Priority", "CRITICAL", 4},
    {"cuzk.v1.AwaitProofResponse.Status", "UNKNOWN", 0},
    {"cuzk.v1.AwaitProofResponse.Status", "COMPLETED", 1},
    {"cuzk.v1.AwaitProofResponse.Status", "FAILED", 2},
    {"cuzk.v1.AwaitProofResponse.Status", "CANCELLED", 3},
    {"cuzk.v1.AwaitProofResponse.Status", "TIMEOUT", 4},
    {"cuzk.v1.SRSStatus.Tier", "HOT", 0},
    {"cuzk.v1.SRSStatus.Tier", "WARM", 1},
    {"cuzk.v1.SRSStatus.Tier", "COLD", 2},
};
static const real_field REAL_FIELDS[] = {
    {"cuzk.v1.SubmitProofRequest", 1, "request_id", "string", false},
    {"cuzk.v1.SubmitProofRequest", 2, "proof_kind", "cuzk.v1.ProofKind", false},
    {"cuzk.v1.SubmitProofRequest", 3, "sector_size", "uint64", false},
    {"cuzk.v1.SubmitProofRequest", 4, "registered_proof", "uint64", false},
    {"cuzk.v1.SubmitProofRequest", 5, "priority", "cuzk.v1.Priority", false},
    {"cuzk.v1.SubmitProofRequest", 10, "vanilla_proof", "bytes", false},
    {"cuzk.v1.SubmitProofRequest", 11, "vanilla_proofs", "bytes", true},
    {"cuzk.v1.SubmitProofRequest", 20, "sector_number", "uint64", false},
    {"cuzk.v1.SubmitProofRequest", 21, "miner_id", "uint64", false},
    {"cuzk.v1.SubmitProofRequest", 22, "randomness", "bytes", false},
    {"cuzk.v1.SubmitProofRequest", 23, "partition_index", "uint32", false},
    {"cuzk.v1.SubmitProofRequest", 30, "comm_r_old", "bytes", false},
    {"cuzk.v1.SubmitProofRequest", 31, "comm_r_new", "bytes", false},
    {"cuzk.v1.SubmitProofRequest", 32, "comm_d_new", "bytes", false},
    {"cuzk.v1.SubmitProofResponse", 1, "job_id", "string", false},
    {"cuzk.v1.SubmitProofResponse", 2, "queue_position", "uint32", false},
    {"cuzk.v1.SubmitProofResponse", 3, "assigned_gpu", "string", false},
    {"cuzk.v1.AwaitProofRequest", 1, "job_id", "string", false},
    {"cuzk.v1.AwaitProofRequest", 2, "timeout_ms", "uint64", false},
    {"cuzk.v1.AwaitProofResponse", 1, "job_id", "string", false},
    {"cuzk.v1.AwaitProofResponse", 2, "status", "cuzk.v1.AwaitProofResponse.Status", false},
    {"cuzk.v1.AwaitProofResponse", 3, "proof", "bytes", false},
    {"cuzk.v1.AwaitProofResponse", 4, "error_message", "string", false},
    {"cuzk.v1.AwaitProofResponse", 10, "queue_wait_ms", "uint64", false},
    {"cuzk.v1.AwaitProofResponse", 11, "srs_load_ms", "uint64", false},
    {"cuzk.v1.AwaitProofResponse", 12, "synthesis_ms", "uint64", false},
    {"cuzk.v1.AwaitProofResponse", 13, "gpu_compute_ms", "uint64", false},
    {"cuzk.v1.AwaitProofResponse", 14, "total_ms", "uint64", false},
    {"cuzk.v1.ProveRequest", 1, "submit", "cuzk.v1.SubmitProofRequest", false},
    {"cuzk.v1.ProveResponse", 1, "result", "cuzk.v1.AwaitProofResponse", false},
    {"cuzk.v1.CancelProofRequest", 1, "job_id", "string", false},
    {"cuzk.v1.CancelProofResponse", 1, "was_running", "bool", false},
    {"cuzk.v1.GetStatusResponse", 1, "gpus", "cuzk.v1.GPUStatus", true},
    {"cuzk.v1.GetStatusResponse", 2, "loaded_srs", "cuzk.v1.SRSStatus", true},
    {"cuzk.v1.GetStatusResponse", 3, "queues", "cuzk.v1.QueueStatus", true},
    {"cuzk.v1.GetStatusResponse", 4, "total_proofs_completed", "uint64", false},
    {"cuzk.v1.GetStatusResponse", 5, "total_proofs_failed", "uint64", false},
    {"cuzk.v1.GetStatusResponse", 6, "uptime_seconds", "uint64", false},
    {"cuzk.v1.GetStatusResponse", 7, "pinned_memory_bytes", "uint64", false},
    {"cuzk.v1.GetStatusResponse", 8, "pinned_memory_limit_bytes", "uint64", false},
    {"cuzk.v1.GPUStatus", 1, "ordinal", "uint32", false},
    {"cuzk.v1.GPUStatus", 2, "name", "string", false},
    {"cuzk.v1.GPUStatus", 3, "vram_total_bytes", "uint64", false},
    {"cuzk.v1.GPUStatus", 4, "vram_free_bytes", "uint64", false},
    {"cuzk.v1.GPUStatus", 5, "current_job_id", "string", false},
    {"cuzk.v1.GPUStatus", 6, "current_proof_kind", "string", false},
    {"cuzk.v1.SRSStatus", 1, "circuit_id", "string", false},
    {"cuzk.v1.SRSStatus", 2, "tier", "cuzk.v1.SRSStatus.Tier", false},
    {"cuzk.v1.SRSStatus", 3, "size_bytes", "uint64", false},
    {"cuzk.v1.SRSStatus", 4, "ref_count", "uint32", false},
    {"cuzk.v1.QueueStatus", 1, "proof_kind", "string", false},
    {"cuzk.v1.QueueStatus", 2, "pending", "uint32", false},
    {"cuzk.v1.QueueStatus", 3, "in_progress", "uint32", false},
    {"cuzk.v1.PreloadSrsRequest", 1, "circuit_id", "string", false},
    {"cuzk.v1.PreloadSrsResponse", 1, "already_loaded", "bool", false},
    {"cuzk.v1.PreloadSrsResponse", 2, "load_time_ms", "uint64", false},
    {"cuzk.v1.EvictSrsRequest", 1, "circuit_id", "string", false},
    {"cuzk.v1.EvictSrsResponse", 1, "was_loaded", "bool", false},
    {"cuzk.v1.EvictSrsResponse", 2, "freed_bytes", "uint64", false},
    {"cuzk.v1.GetMetricsResponse", 1, "prometheus_text", "string", false},
};
static const real_method REAL_METHODS[] = {
    {"SubmitProof", "cuzk.v1.SubmitProofRequest", "cuzk.v1.SubmitProofResponse"},
    {"AwaitProof", "cuzk.v1.AwaitProofRequest", "cuzk.v1.AwaitProofResponse"},
    {"Prove", "cuzk.v1.ProveRequest", "cuzk.v1.ProveResponse"},
    {"CancelProof", "cuzk.v1.CancelProofRequest", "cuzk.v1.CancelProofResponse"},
    {"GetStatus", "cuzk.v1.GetStatusRequest", "cuzk.v1.GetStatusResponse"},
    {"GetMetrics", "cuzk.v1.GetMetricsRequest", "cuzk.v1.GetMetricsResponse"},
    {"PreloadSRS", "cuzk.v1.PreloadSrsRequest", "cuzk.v1.PreloadSrsResponse"},
    {"EvictSRS", "cuzk.v1.EvictSrsRequest", "cuzk.v1.EvictSrsResponse"},
};

/* ---- czk's extensions (field numbers >= 100) ------------------------------------------ */

static const real_field CZK_EXTENSIONS[] = {
    {"cuzk.v1.SubmitProofRequest", 100, "circuit_id", "string", false},
    {"cuzk.v1.SubmitProofRequest", 101, "circuit_input", "bytes", false},
    {"cuzk.v1.AwaitProofResponse", 100, "public_inputs", "bytes", true},
    {"cuzk.v1.GetStatusResponse", 100, "status_json", "string", false},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_SEEN 64

/* ---- our descriptors, reached from the service ----------------------------------------- */

static const ProtobufCMessageDescriptor *messages[MAX_SEEN];
static size_t n_messages;
static const ProtobufCEnumDescriptor *enums[MAX_SEEN];
static size_t n_enums;

static void reach(const ProtobufCMessageDescriptor *d) {
    for (size_t i = 0; i < n_messages; i++)
        if (messages[i] == d) return;
    if (n_messages == MAX_SEEN) return;
    messages[n_messages++] = d;
    for (unsigned f = 0; f < d->n_fields; f++) {
        const ProtobufCFieldDescriptor *fd = &d->fields[f];
        if (fd->type == PROTOBUF_C_TYPE_MESSAGE) reach(fd->descriptor);
        if (fd->type == PROTOBUF_C_TYPE_ENUM) {
            size_t k = 0;
            while (k < n_enums && enums[k] != fd->descriptor) k++;
            if (k == n_enums && n_enums < MAX_SEEN) enums[n_enums++] = fd->descriptor;
        }
    }
}

static const ProtobufCMessageDescriptor *our_message(const char *full_name) {
    for (size_t i = 0; i < n_messages; i++)
        if (!strcmp(messages[i]->name, full_name)) return messages[i];
    return NULL;
}

static const char *type_name(const ProtobufCFieldDescriptor *f) {
    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: return "string";
    case PROTOBUF_C_TYPE_BYTES: return "bytes";
    case PROTOBUF_C_TYPE_UINT64: return "uint64";
    case PROTOBUF_C_TYPE_UINT32: return "uint32";
    case PROTOBUF_C_TYPE_INT64: return "int64";
    case PROTOBUF_C_TYPE_INT32: return "int32";
    case PROTOBUF_C_TYPE_BOOL: return "bool";
    case PROTOBUF_C_TYPE_ENUM: return ((const ProtobufCEnumDescriptor *)f->descriptor)->name;
    case PROTOBUF_C_TYPE_MESSAGE: return ((const ProtobufCMessageDescriptor *)f->descriptor)->name;
    default: return "(another type)";
    }
}

/* One expected field against ours: same name at the same number, same type,
 * same label (proto3 implicit presence: protobuf-c's NONE). */
static void check_field(const real_field *want, const char *where) {
    const ProtobufCMessageDescriptor *d = our_message(want->message);
    if (!d) return; /* reported by the message check */
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, want->number);
    CHECK_MSG(f != NULL, "%s: %s has no field %u (%s)", where, want->message, want->number, want->name);
    if (!f) return;
    CHECK_MSG(!strcmp(f->name, want->name), "%s: %s field %u is '%s', not '%s'", where, want->message, want->number,
              f->name, want->name);
    CHECK_MSG(!strcmp(type_name(f), want->type), "%s: %s.%s is %s, not %s", where, want->message, want->name,
              type_name(f), want->type);
    ProtobufCLabel label = want->repeated ? PROTOBUF_C_LABEL_REPEATED : PROTOBUF_C_LABEL_NONE;
    CHECK_MSG(f->label == label, "%s: %s.%s has label %d, not %s", where, want->message, want->name, (int)f->label,
              want->repeated ? "repeated" : "singular");
}

static bool listed(const real_field *table, size_t n, const char *message, unsigned number) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(table[i].message, message) && table[i].number == number) return true;
    return false;
}

static void test_service(void) {
    const ProtobufCServiceDescriptor *s = &cuzk__v1__proving_engine__descriptor;
    CHECK_MSG(!strcmp(s->name, "cuzk.v1.ProvingEngine"), "service %s", s->name);
    CHECK_MSG(s->n_methods == COUNT(REAL_METHODS), "%u methods, the real service has %zu", s->n_methods,
              COUNT(REAL_METHODS));
    for (size_t i = 0; i < COUNT(REAL_METHODS); i++) {
        const ProtobufCMethodDescriptor *m = protobuf_c_service_descriptor_get_method_by_name(s, REAL_METHODS[i].name);
        CHECK_MSG(m != NULL, "no method %s", REAL_METHODS[i].name);
        if (!m) continue;
        CHECK_MSG(!strcmp(m->input->name, REAL_METHODS[i].input) && !strcmp(m->output->name, REAL_METHODS[i].output),
                  "%s: %s -> %s, not %s -> %s", m->name, m->input->name, m->output->name, REAL_METHODS[i].input,
                  REAL_METHODS[i].output);
    }
    for (unsigned i = 0; i < s->n_methods; i++) {
        reach(s->methods[i].input);
        reach(s->methods[i].output);
    }
}

static void test_messages(void) {
    for (size_t i = 0; i < COUNT(REAL_MESSAGES); i++)
        CHECK_MSG(our_message(REAL_MESSAGES[i]) != NULL, "message %s is missing", REAL_MESSAGES[i]);
    for (size_t i = 0; i < n_messages; i++) {
        bool known = false;
        for (size_t k = 0; k < COUNT(REAL_MESSAGES); k++) known |= !strcmp(REAL_MESSAGES[k], messages[i]->name);
        CHECK_MSG(known, "message %s is not in cuzk's protocol", messages[i]->name);
    }
    for (size_t i = 0; i < COUNT(REAL_FIELDS); i++) check_field(&REAL_FIELDS[i], "cuzk");
    for (size_t i = 0; i < COUNT(CZK_EXTENSIONS); i++) check_field(&CZK_EXTENSIONS[i], "czk extension");
    /* nothing else: below 100 only cuzk's fields, from 100 only the listed extensions */
    for (size_t i = 0; i < n_messages; i++)
        for (unsigned f = 0; f < messages[i]->n_fields; f++) {
            const ProtobufCFieldDescriptor *fd = &messages[i]->fields[f];
            bool ext = fd->id >= 100;
            bool ok = ext ? listed(CZK_EXTENSIONS, COUNT(CZK_EXTENSIONS), messages[i]->name, fd->id)
                          : listed(REAL_FIELDS, COUNT(REAL_FIELDS), messages[i]->name, fd->id);
            CHECK_MSG(ok, "%s.%s = %u is %s", messages[i]->name, fd->name, fd->id,
                      ext ? "an extension the test does not list" : "not in cuzk's protocol");
        }
}

static void test_enums(void) {
    for (size_t i = 0; i < COUNT(REAL_ENUM_VALUES); i++) {
        const real_enum_value *w = &REAL_ENUM_VALUES[i];
        const ProtobufCEnumDescriptor *e = NULL;
        for (size_t k = 0; k < n_enums; k++)
            if (!strcmp(enums[k]->name, w->enum_name)) e = enums[k];
        CHECK_MSG(e != NULL, "enum %s is missing", w->enum_name);
        if (!e) continue;
        const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value_by_name(e, w->name);
        CHECK_MSG(v && v->value == w->value, "%s.%s: %s, not %d", w->enum_name, w->name, v ? "another number" : "missing",
                  w->value);
    }
    for (size_t k = 0; k < n_enums; k++) {
        size_t n = 0;
        for (size_t i = 0; i < COUNT(REAL_ENUM_VALUES); i++) n += !strcmp(REAL_ENUM_VALUES[i].enum_name, enums[k]->name);
        CHECK_MSG(n > 0 && enums[k]->n_values == n, "enum %s has %u values, cuzk's has %zu", enums[k]->name,
                  enums[k]->n_values, n);
    }
}

int main(void) {
    test_service();
    test_messages();
    test_enums();
    printf("proto: %zu messages, %zu fields, %zu enum values, %zu methods as in cuzk; %zu extensions\n", n_messages,
           COUNT(REAL_FIELDS), COUNT(REAL_ENUM_VALUES), COUNT(REAL_METHODS), COUNT(CZK_EXTENSIONS));
    return test_finish("test_proto_cuzk");
}
