/* The SHA-256 gadget: bellperson's constraint counts (25,840 per allocated
 * block compression, 44,874 for a 512-bit message, 0 for constants), digests
 * equal to libcrypto's on random messages of 0..200 bytes, and the
 * word-level WITNESS path against the bit-level RECORD path: same counts,
 * same values, the witness satisfies the recorded R1CS, and a flipped aux
 * value is caught. Inputs mix allocated, negated and constant bits and
 * chained (allocated) states to reach every folding case. */
#define OPENSSL_SUPPRESS_DEPRECATED /* SHA256_Transform: one raw compression */
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_sha256.h"
#include "czk/mem.h"
#include "test.h"
#include "gadget_harness.h"

/* ---- circuits ------------------------------------------------------------------- */

enum { IN_ALLOC, IN_MIXED };

typedef struct {
    const uint8_t *msg;
    size_t len;
    int input_kind; /* IN_ALLOC: every bit allocated; IN_MIXED: alloc / not / constant at random */
    uint64_t mix_seed;
    int what; /* 0: sha256 of msg; 1: one compression from the IV; 2: two chained compressions, allocated state */
    uint8_t digest[32];
    bool digest_ok;
    bool no_values; /* allocate without values (RECORD only) */
} sha_ctx;

static czk_err alloc_input_bits(czk_cs *cs, czk_boolean *bits, const uint8_t *msg, size_t len, int kind,
                                uint64_t seed, bool no_values) {
    czk_rng rng;
    czk_rng_seed(&rng, seed);
    for (size_t i = 0; i < 8 * len; i++) {
        bool v = (msg[i / 8] >> (7 - i % 8)) & 1;
        int k = kind == IN_ALLOC ? 0 : (int)(czk_rng_next(&rng) % 4);
        if (k == 3) {
            bits[i] = czk_boolean_constant(v);
            continue;
        }
        bool stored = k == 2 ? !v : v;
        czk_bit b;
        czk_cs_push_namespace(cs, "input bit");
        czk_err e = czk_bit_alloc(cs, &b, no_values ? NULL : &stored);
        czk_cs_pop_namespace(cs);
        if (e) return e;
        bits[i] = czk_boolean_is(&b);
        if (k == 2) bits[i] = czk_boolean_not(&bits[i]);
    }
    return CZK_OK;
}

static void bits_to_bytes(uint8_t *out, const czk_boolean *bits, size_t nbytes, bool *ok) {
    for (size_t i = 0; i < nbytes; i++) {
        uint8_t x = 0;
        for (int j = 0; j < 8; j++) {
            bool v = false;
            if (!czk_boolean_value(&bits[8 * i + (size_t)j], &v)) *ok = false;
            x = (uint8_t)(x << 1 | v);
        }
        out[i] = x;
    }
}

static czk_err sha_circuit(czk_cs *cs, void *p) {
    sha_ctx *c = p;
    czk_boolean *bits = malloc((8 * c->len + 1) * sizeof *bits), out[256];
    if (!bits) return CZK_ERR_NO_MEMORY;
    czk_err e = alloc_input_bits(cs, bits, c->msg, c->len, c->input_kind, c->mix_seed, c->no_values);
    if (!e) {
        czk_cs_push_namespace(cs, "sha256");
        if (c->what == 0) {
            e = czk_sha256(cs, out, bits, 8 * c->len);
        } else if (c->what == 1) {
            e = czk_sha256_block_no_padding(cs, out, bits);
        } else {
            czk_uint32 st[8];
            for (int k = 0; k < 8 && !e; k++) {
                uint32_t v = (uint32_t)(c->mix_seed >> k) * 0x9e3779b9u;
                e = czk_uint32_alloc(cs, &st[k], c->no_values ? NULL : &v);
            }
            if (!e) e = czk_sha256_compression(cs, st, bits, st);
            if (!e) e = czk_sha256_compression(cs, st, bits + 512, st);
            for (int k = 0; k < 8 && !e; k++) czk_uint32_into_bits_be(out + 32 * k, &st[k]);
        }
        czk_cs_pop_namespace(cs);
    }
    free(bits);
    if (e) return e;
    if (c->no_values) return CZK_OK;
    c->digest_ok = true;
    bits_to_bytes(c->digest, out, 32, &c->digest_ok);
    /* an output bit's variable holds its value */
    for (int i = 0; i < 256; i++) {
        if (out[i].kind == CZK_BOOLEAN_CONSTANT) continue;
        czk_fr v;
        bool b;
        czk_boolean_value(&out[i], &b);
        if (out[i].kind == CZK_BOOLEAN_NOT) b = !b;
        if (czk_cs_value(cs, out[i].bit.var, &v) && !czk_fr_equal(&v, b ? &CZK_FR_ONE : &(czk_fr){{0}}))
            c->digest_ok = false;
    }
    return CZK_OK;
}

/* One raw compression of block (64 bytes) from state, native. */
static void native_compress(uint32_t st[8], const uint8_t block[64]) {
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    for (int k = 0; k < 8; k++) ctx.h[k] = st[k];
    SHA256_Transform(&ctx, block);
    for (int k = 0; k < 8; k++) st[k] = ctx.h[k];
}

static void test_counts(czk_rng *rng) {
    uint8_t msg[128];
    czk_rng_bytes(rng, msg, sizeof msg);
    sha_ctx c = {msg, 64, IN_ALLOC, 1, 1, {0}, false, false};
    mode_report rep = check_modes(sha_circuit, &c, rng, 8, "compression");
    CHECK_MSG(rep.n_constraints == 512 + 25840, "one-block compression: %zu constraints (want 512 + 25840)",
              rep.n_constraints);
    printf("sha256 compression: %zu constraints + 512 input bits, %zu aux\n", rep.n_constraints - 512,
           rep.n_aux - 512);
    uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    native_compress(st, msg);
    uint8_t want[32];
    for (int k = 0; k < 32; k++) want[k] = (uint8_t)(st[k / 4] >> (24 - 8 * (k % 4)));
    CHECK(c.digest_ok && memcmp(c.digest, want, 32) == 0);

    c = (sha_ctx){msg, 64, IN_ALLOC, 1, 0, {0}, false, false};
    rep = check_modes(sha_circuit, &c, rng, 8, "sha256(512 bits)");
    CHECK_MSG(rep.n_constraints == 512 + 44874, "sha256 of 512 bits: %zu constraints (want 512 + 44874)",
              rep.n_constraints);
    printf("sha256 of a 512-bit message: %zu constraints + 512 input bits\n", rep.n_constraints - 512);
    SHA256(msg, 64, want);
    CHECK(c.digest_ok && memcmp(c.digest, want, 32) == 0);

}

/* all-constant input: 0 constraints, digest of the empty message */
typedef struct {
    uint8_t digest[32];
    bool ok;
} blank_ctx;

static czk_err blank_circuit(czk_cs *cs, void *p) {
    blank_ctx *b = p;
    czk_boolean in[512], out[256];
    for (int i = 0; i < 512; i++) in[i] = czk_boolean_constant(i == 0);
    czk_err e = czk_sha256_block_no_padding(cs, out, in);
    if (e) return e;
    b->ok = true;
    for (int i = 0; i < 256; i++) b->ok &= out[i].kind == CZK_BOOLEAN_CONSTANT;
    bits_to_bytes(b->digest, out, 32, &b->ok);
    return CZK_OK;
}

static void test_blank(czk_rng *rng) {
    blank_ctx b = {{0}, false};
    mode_report rep = check_modes(blank_circuit, &b, rng, 0, "blank");
    CHECK(rep.n_constraints == 0 && rep.n_aux == 0);
    uint8_t want[32];
    SHA256((const uint8_t *)"", 0, want);
    CHECK(b.ok && memcmp(b.digest, want, 32) == 0);
}

/* Digest against libcrypto for every length 0..200 (WITNESS path), and the
 * full mode comparison on the block boundaries and a few others. */
static void test_lengths(czk_rng *rng) {
    uint8_t msg[256], want[32];
    char label[64];
    for (size_t len = 0; len <= 200; len++) {
        czk_rng_bytes(rng, msg, len);
        SHA256(msg, len, want);
        bool full = len <= 2 || len == 31 || len == 32 || len == 55 || len == 56 || len == 63 || len == 64 ||
                    len == 65 || len == 119 || len == 120 || len == 128 || len == 200;
        for (int kind = IN_ALLOC; kind <= IN_MIXED; kind++) {
            sha_ctx c = {msg, len, kind, czk_rng_next(rng), 0, {0}, false, false};
            snprintf(label, sizeof label, "sha256 len %zu kind %d", len, kind);
            if (full) {
                check_modes(sha_circuit, &c, rng, 2, label);
            } else {
                czk_witness w;
                char m[128];
                czk_err e = czk_witness_generate(&w, sha_circuit, &c, m, sizeof m);
                CHECK_MSG(e == CZK_OK, "%s: %s", label, m);
                if (e == CZK_OK) czk_witness_free(&w);
            }
            CHECK_MSG(c.digest_ok && memcmp(c.digest, want, 32) == 0, "%s: digest differs from libcrypto", label);
        }
    }
}

/* Mixed-kind inputs through one block and chained allocated states. */
static void test_mixed(czk_rng *rng) {
    long cases = test_cases(6);
    uint8_t msg[128];
    char label[64];
    for (long t = 0; t < cases; t++) {
        czk_rng_bytes(rng, msg, sizeof msg);
        uint64_t seed = czk_rng_next(rng);
        sha_ctx c = {msg, 64, IN_MIXED, seed, 1, {0}, false, false};
        snprintf(label, sizeof label, "mixed block %ld", t);
        check_modes(sha_circuit, &c, rng, 4, label);
        uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
        native_compress(st, msg);
        uint8_t want[32];
        for (int k = 0; k < 32; k++) want[k] = (uint8_t)(st[k / 4] >> (24 - 8 * (k % 4)));
        CHECK_MSG(c.digest_ok && memcmp(c.digest, want, 32) == 0, "%s: digest", label);

        c = (sha_ctx){msg, 128, (int)(t & 1), seed, 2, {0}, false, false};
        snprintf(label, sizeof label, "chained %ld", t);
        mode_report rep = check_modes(sha_circuit, &c, rng, 4, label);
        for (int k = 0; k < 8; k++) st[k] = (uint32_t)(seed >> k) * 0x9e3779b9u;
        native_compress(st, msg);
        native_compress(st, msg + 64);
        for (int k = 0; k < 32; k++) want[k] = (uint8_t)(st[k / 4] >> (24 - 8 * (k % 4)));
        CHECK_MSG(c.digest_ok && memcmp(c.digest, want, 32) == 0, "%s: digest", label);
        if (t == 0)
            printf("two chained compressions, allocated state: %zu constraints (incl. %d bits)\n", rep.n_constraints,
                   1024 + 256);
    }
}

static bool same_csr(const czk_csr *x, const czk_csr *y, size_t rows) {
    return x->nnz == y->nnz && memcmp(x->row_ptr, y->row_ptr, (rows + 1) * sizeof *x->row_ptr) == 0 &&
           (x->nnz == 0 || (memcmp(x->col, y->col, x->nnz * sizeof *x->col) == 0 &&
                            memcmp(x->coeff, y->coeff, x->nnz * sizeof *x->coeff) == 0));
}

/* Recording without values (how parameters are made) gives the very same
 * R1CS as recording with them. */
static void test_record_without_values(czk_rng *rng) {
    uint8_t msg[128];
    czk_rng_bytes(rng, msg, sizeof msg);
    for (int what = 0; what < 3; what++) {
        for (int kind = IN_ALLOC; kind <= IN_MIXED; kind++) {
            uint64_t seed = czk_rng_next(rng);
            sha_ctx with = {msg, what == 0 ? 100 : what == 1 ? 64 : 128, kind, seed, what, {0}, false, false};
            sha_ctx without = with;
            without.no_values = true;
            czk_r1cs r1 = {0}, r2 = {0};
            char m[128];
            CHECK(czk_r1cs_record(&r1, sha_circuit, &with, m, sizeof m) == CZK_OK);
            CHECK_MSG(czk_r1cs_record(&r2, sha_circuit, &without, m, sizeof m) == CZK_OK, "%s", m);
            CHECK_MSG(r1.n_inputs == r2.n_inputs && r1.n_aux == r2.n_aux && r1.n_constraints == r2.n_constraints &&
                          same_csr(&r1.a, &r2.a, r1.n_constraints) && same_csr(&r1.b, &r2.b, r1.n_constraints) &&
                          same_csr(&r1.c, &r2.c, r1.n_constraints),
                      "what %d kind %d: R1CS recorded without values differs", what, kind);
            czk_r1cs_free(&r1);
            czk_r1cs_free(&r2);
        }
    }
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_sha256");
    test_counts(&rng);
    test_blank(&rng);
    test_record_without_values(&rng);
    test_mixed(&rng);
    test_lengths(&rng);
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        CHECK_MSG(czk_mem_in_use((czk_mem_tag)t) == 0, "memory tag %d still in use", t);
    return test_finish("test_sha256");
}
