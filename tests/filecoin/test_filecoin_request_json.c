/* czk — request files (czk_fil_request_from_json / _to_json): random
 * requests round-trip through the canonical encoding and through a
 * re-spelling with the proto's names, numbers and URL-safe unpadded base64;
 * base64 against OpenSSL's encoder; a fixed file decodes to known values;
 * and every refusal names its field. */
#include <jansson.h>
#include <openssl/evp.h>
#include <string.h>

#include "czk/filecoin_request.h"
#include "test.h"

static void bytes_random(czk_rng *rng, czk_fil_bytes *b, size_t max) {
    b->len = (size_t)(czk_rng_next(rng) % (max + 1));
    b->data = b->len ? malloc(b->len) : NULL;
    for (size_t i = 0; i < b->len; i++) b->data[i] = (uint8_t)czk_rng_next(rng);
}

/* a random request: each field at its default one time in three */
static void random_request(czk_rng *rng, czk_fil_request *r) {
    memset(r, 0, sizeof *r);
#define SOME (czk_rng_next(rng) % 3 != 0)
    if (SOME) {
        r->request_id = malloc(24);
        snprintf(r->request_id, 24, "porep-%u-é", (unsigned)(czk_rng_next(rng) % 100000));
    }
    r->kind = SOME ? (czk_fil_kind)(czk_rng_next(rng) % 5) : CZK_FIL_KIND_NONE;
    r->priority = SOME ? (int)(czk_rng_next(rng) % 5) : 0;
    r->sector_size = SOME ? czk_rng_next(rng) >> (czk_rng_next(rng) % 64) : 0;
    r->registered_proof = SOME ? czk_rng_next(rng) % 20 : 0;
    r->sector_number = SOME ? czk_rng_next(rng) : 0; /* above 2^63: a string or nothing */
    r->miner_id = SOME ? czk_rng_next(rng) % 100000 : 0;
    r->partition_index = SOME ? (uint32_t)czk_rng_next(rng) : 0;
    if (SOME) bytes_random(rng, &r->vanilla_proof, 300);
    if (SOME) {
        r->n_vanilla_proofs = 1 + (size_t)(czk_rng_next(rng) % 4);
        r->vanilla_proofs = calloc(r->n_vanilla_proofs, sizeof *r->vanilla_proofs);
        for (size_t i = 0; i < r->n_vanilla_proofs; i++) bytes_random(rng, &r->vanilla_proofs[i], 70);
    }
    if (SOME) bytes_random(rng, &r->randomness, 33);
    if (SOME) bytes_random(rng, &r->comm_r_old, 33);
    if (SOME) bytes_random(rng, &r->comm_r_new, 33);
    if (SOME) bytes_random(rng, &r->comm_d_new, 33);
#undef SOME
}

static bool bytes_eq(const czk_fil_bytes *a, const czk_fil_bytes *b) {
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static bool request_eq(const czk_fil_request *a, const czk_fil_request *b) {
    bool id = (!a->request_id || !*a->request_id) ? (!b->request_id || !*b->request_id)
                                                   : b->request_id && !strcmp(a->request_id, b->request_id);
    if (!id || a->kind != b->kind || a->priority != b->priority || a->sector_size != b->sector_size ||
        a->registered_proof != b->registered_proof || a->sector_number != b->sector_number ||
        a->miner_id != b->miner_id || a->partition_index != b->partition_index ||
        !bytes_eq(&a->vanilla_proof, &b->vanilla_proof) || a->n_vanilla_proofs != b->n_vanilla_proofs ||
        !bytes_eq(&a->randomness, &b->randomness) || !bytes_eq(&a->comm_r_old, &b->comm_r_old) ||
        !bytes_eq(&a->comm_r_new, &b->comm_r_new) || !bytes_eq(&a->comm_d_new, &b->comm_d_new))
        return false;
    for (size_t i = 0; i < a->n_vanilla_proofs; i++)
        if (!bytes_eq(&a->vanilla_proofs[i], &b->vanilla_proofs[i])) return false;
    return true;
}

/* base64 as OpenSSL writes it (standard, padded): the reference encoder */
static char *ossl_b64(const czk_fil_bytes *b) {
    char *s = malloc(4 * ((b->len + 2) / 3) + 1);
    EVP_EncodeBlock((unsigned char *)s, b->data ? b->data : (const unsigned char *)"", (int)b->len);
    return s;
}

/* The proto's spellings: names, enum numbers, numbers for small uint64s,
 * strings for uint32, URL-safe unpadded base64; the same request. */
static char *respell(const char *canonical) {
    json_t *in = json_loads(canonical, 0, NULL), *out = json_object();
    const char *key;
    json_t *v;
    static const char *const map[][2] = {
        {"requestId", "request_id"},       {"proofKind", "proof_kind"},       {"sectorSize", "sector_size"},
        {"registeredProof", "registered_proof"}, {"vanillaProof", "vanilla_proof"}, {"vanillaProofs", "vanilla_proofs"},
        {"sectorNumber", "sector_number"}, {"minerId", "miner_id"},           {"partitionIndex", "partition_index"},
        {"commROld", "comm_r_old"},        {"commRNew", "comm_r_new"},        {"commDNew", "comm_d_new"}};
    static const char *const kinds[] = {"PROOF_KIND_UNSPECIFIED", "POREP_SEAL_COMMIT", "SNAP_DEALS_UPDATE",
                                        "WINDOW_POST_PARTITION", "WINNING_POST"};
    static const char *const prios[] = {"PRIORITY_UNSPECIFIED", "LOW", "NORMAL", "HIGH", "CRITICAL"};
    json_object_foreach(in, key, v) {
        const char *name = key;
        for (size_t i = 0; i < sizeof map / sizeof *map; i++)
            if (!strcmp(key, map[i][0])) name = map[i][1];
        json_t *w = json_deep_copy(v);
        if (!strcmp(key, "proofKind") || !strcmp(key, "priority")) {
            for (int i = 0; i < 5; i++)
                if (!strcmp(json_string_value(v), (!strcmp(key, "proofKind") ? kinds : prios)[i]))
                    w = (json_decref(w), json_integer(i));
        } else if (!strcmp(key, "partitionIndex")) {
            char s[16];
            snprintf(s, sizeof s, "%lld", (long long)json_integer_value(v));
            w = (json_decref(w), json_string(s));
        } else if (!strcmp(key, "sectorSize") || !strcmp(key, "registeredProof") || !strcmp(key, "sectorNumber") ||
                   !strcmp(key, "minerId")) {
            unsigned long long x = strtoull(json_string_value(v), NULL, 10);
            if (x < (1ull << 53)) w = (json_decref(w), json_integer((json_int_t)x));
        } else if (json_is_string(v) && strcmp(key, "requestId")) { /* bytes: URL-safe, unpadded */
            char *t = strdup(json_string_value(v));
            size_t n = strlen(t);
            while (n && t[n - 1] == '=') t[--n] = 0;
            for (char *c = t; *c; c++) *c = *c == '+' ? '-' : *c == '/' ? '_' : *c;
            w = (json_decref(w), json_string(t));
            free(t);
        } else if (json_is_array(v)) {
            for (size_t i = 0; i < json_array_size(w); i++) {
                char *t = strdup(json_string_value(json_array_get(w, i)));
                size_t n = strlen(t);
                while (n && t[n - 1] == '=') t[--n] = 0;
                json_array_set_new(w, i, json_string(t));
                free(t);
            }
        }
        json_object_set_new(out, name, w);
    }
    char *s = json_dumps(out, JSON_COMPACT);
    json_decref(in);
    json_decref(out);
    return s;
}

static void test_round_trips(czk_rng *rng) {
    long n = test_cases(300);
    for (long c = 0; c < n; c++) {
        czk_fil_request r, d, e;
        random_request(rng, &r);
        char *js = NULL, *js2 = NULL, msg[512] = "";
        size_t len = 0, len2 = 0;
        CHECK(czk_fil_request_to_json(&r, &js, &len) == CZK_OK && js && strlen(js) == len);
        czk_err err = czk_fil_request_from_json(js, len, &d, msg, sizeof msg);
        CHECK_MSG(err == CZK_OK, "case %ld: %s\n%s", c, msg, js);
        CHECK_MSG(request_eq(&r, &d), "case %ld: the round trip differs\n%s", c, js);
        CHECK(czk_fil_request_to_json(&d, &js2, &len2) == CZK_OK && len2 == len && !memcmp(js, js2, len));
        /* the bytes fields as OpenSSL encodes them */
        if (r.vanilla_proof.len) {
            char *ref = ossl_b64(&r.vanilla_proof);
            CHECK_MSG(strstr(js, ref) != NULL, "case %ld: vanillaProof is not OpenSSL's %s", c, ref);
            free(ref);
        }
        char *alt = respell(js);
        err = czk_fil_request_from_json(alt, strlen(alt), &e, msg, sizeof msg);
        CHECK_MSG(err == CZK_OK && request_eq(&r, &e), "case %ld: the proto spelling: %s\n%s", c, msg, alt);
        free(alt);
        free(js);
        free(js2);
        czk_fil_request_free(&r);
        czk_fil_request_free(&d);
        czk_fil_request_free(&e);
    }
}

/* A file written by hand: every field, known values. */
static void test_known(void) {
    const char *js = "{\"requestId\":\"wpost-1\",\"proofKind\":\"WINDOW_POST_PARTITION\",\"sectorSize\":\"2048\","
                     "\"registeredProof\":\"5\",\"priority\":\"HIGH\",\"vanillaProofs\":[\"AAEC\",\"/w==\",\"\"],"
                     "\"minerId\":1000,\"randomness\":\"_-8\",\"partitionIndex\":7,\"sectorNumber\":null,"
                     "\"vanillaProof\":\"\"}";
    czk_fil_request r;
    char msg[256] = "";
    CHECK_MSG(czk_fil_request_from_json(js, strlen(js), &r, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(r.request_id && !strcmp(r.request_id, "wpost-1") && r.kind == CZK_FIL_KIND_WINDOW_POST);
    CHECK(r.sector_size == 2048 && r.registered_proof == 5 && r.priority == 3 && r.miner_id == 1000);
    CHECK(r.partition_index == 7 && r.sector_number == 0 && r.vanilla_proof.len == 0 && !r.vanilla_proof.data);
    CHECK(r.n_vanilla_proofs == 3 && r.vanilla_proofs[0].len == 3 && r.vanilla_proofs[0].data[2] == 2);
    CHECK(r.vanilla_proofs[1].len == 1 && r.vanilla_proofs[1].data[0] == 0xff && r.vanilla_proofs[2].len == 0);
    CHECK(r.randomness.len == 2 && r.randomness.data[0] == 0xff && r.randomness.data[1] == 0xef);
    char *out;
    size_t n;
    CHECK(czk_fil_request_to_json(&r, &out, &n) == CZK_OK);
    const char *want = "{\n  \"requestId\": \"wpost-1\",\n  \"proofKind\": \"WINDOW_POST_PARTITION\",\n"
                       "  \"sectorSize\": \"2048\",\n  \"registeredProof\": \"5\",\n  \"priority\": \"HIGH\",\n"
                       "  \"vanillaProofs\": [\n    \"AAEC\",\n    \"/w==\",\n    \"\"\n  ],\n"
                       "  \"minerId\": \"1000\",\n  \"randomness\": \"/+8=\",\n  \"partitionIndex\": 7\n}\n";
    CHECK_MSG(!strcmp(out, want), "got\n%s", out);
    free(out);
    czk_fil_request_free(&r);
    /* the largest values */
    js = "{\"sector_number\":\"18446744073709551615\",\"partition_index\":4294967295,\"miner_id\":1e3}";
    CHECK(czk_fil_request_from_json(js, strlen(js), &r, msg, sizeof msg) == CZK_OK);
    CHECK(r.sector_number == UINT64_MAX && r.partition_index == UINT32_MAX && r.miner_id == 1000);
    czk_fil_request_free(&r);
    /* encoding refuses values outside the enums */
    memset(&r, 0, sizeof r);
    r.kind = (czk_fil_kind)5;
    CHECK(czk_fil_request_to_json(&r, &out, &n) == CZK_ERR_INVALID_ARGUMENT && !out);
    r.kind = CZK_FIL_KIND_SNAP;
    r.priority = -1;
    CHECK(czk_fil_request_to_json(&r, &out, &n) == CZK_ERR_INVALID_ARGUMENT && !out);
    r.priority = 0;
    r.request_id = (char *)"\xff\xfe";
    CHECK(czk_fil_request_to_json(&r, &out, &n) == CZK_ERR_INVALID_ARGUMENT && !out);
}

static void test_refusals(void) {
    static const struct {
        const char *json, *want; /* the message must contain want */
    } cases[] = {
        {"", "not JSON"},
        {"{\"minerId\":1", "not JSON"},
        {"[]", "JSON object"},
        {"{\"minerId\":1,\"minerId\":2}", "duplicate"}, /* jansson's own refusal */
        {"{\"minerId\":1,\"miner_id\":2}", "minerId given twice"},
        {"{\"bogus\":1}", "unknown field \"bogus\""},
        {"{\"MinerId\":1}", "unknown field \"MinerId\""},
        {"{\"circuitId\":\"demo\"}", "circuitId: czk's own circuits"},
        {"{\"circuit_input\":\"MQ==\"}", "circuitInput: czk's own circuits"},
        {"{\"requestId\":5}", "requestId must be a string"},
        {"{\"proofKind\":\"POREP\"}", "proofKind: unknown value \"POREP\""},
        {"{\"proofKind\":5}", "proofKind: unknown value 5"},
        {"{\"proofKind\":-1}", "proofKind: unknown value -1"},
        {"{\"proofKind\":true}", "proofKind must be an enum"},
        {"{\"priority\":\"URGENT\"}", "priority: unknown value"},
        {"{\"priority\":1.5}", "priority must be an enum"},
        {"{\"sectorSize\":-1}", "sectorSize is out of range"},
        {"{\"sectorSize\":\"-1\"}", "sectorSize must be a decimal integer"},
        {"{\"sectorSize\":\"\"}", "sectorSize must be a decimal integer"},
        {"{\"sectorSize\":\"0x10\"}", "sectorSize must be a decimal integer"},
        {"{\"sectorSize\":\"18446744073709551616\"}", "sectorSize is out of range"},
        {"{\"sectorSize\":\"99999999999999999999\"}", "sectorSize is out of range"},
        {"{\"registeredProof\":2.5}", "registeredProof must be a non-negative integer"},
        {"{\"minerId\":[1]}", "minerId must be an integer"},
        {"{\"sectorNumber\":{}}", "sectorNumber must be an integer"},
        {"{\"partitionIndex\":4294967296}", "partitionIndex is out of range"},
        {"{\"partitionIndex\":\"4294967296\"}", "partitionIndex is out of range"},
        {"{\"vanillaProof\":\"A\"}", "vanillaProof is not base64"},
        {"{\"vanillaProof\":\"AA=A\"}", "vanillaProof is not base64"},
        {"{\"vanillaProof\":\"AA AA\"}", "vanillaProof is not base64"},
        {"{\"vanillaProof\":\"A===\"}", "vanillaProof is not base64"},
        {"{\"vanillaProof\":[\"AA==\"]}", "vanillaProof must be a base64 string"},
        {"{\"randomness\":1}", "randomness must be a base64 string"},
        {"{\"vanillaProofs\":\"AA==\"}", "vanillaProofs must be an array"},
        {"{\"vanillaProofs\":[\"AA==\",7]}", "vanillaProofs[1] must be a base64 string"},
        {"{\"vanillaProofs\":[\"AA==\",\"*\"]}", "vanillaProofs[1] is not base64"},
        {"{\"commROld\":\"!!!!\"}", "commROld is not base64"},
        {"{\"comm_r_new\":null,\"commRNew\":\"AA==\"}", "commRNew given twice"},
        {"{\"commDNew\":false}", "commDNew must be a base64 string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        czk_fil_request r;
        char msg[256] = "";
        czk_err e = czk_fil_request_from_json(cases[i].json, strlen(cases[i].json), &r, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_FORMAT && strstr(msg, cases[i].want), "%s: %s (%s)", cases[i].json, msg,
                  czk_err_str(e));
        czk_fil_request zero;
        memset(&zero, 0, sizeof zero);
        CHECK_MSG(!memcmp(&r, &zero, sizeof r), "%s: *out is not zeroed", cases[i].json);
    }
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_filecoin_request_json");
    test_known();
    test_refusals();
    test_round_trips(&rng);
    return test_finish("test_filecoin_request_json");
}
