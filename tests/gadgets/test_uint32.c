/* UInt32 (alloc, bit order conversions, rotr, shr, xor, sha256_ch/maj,
 * addmany with MultiEq) on words whose bits mix allocated, negated and
 * constant kinds, against native arithmetic; MultiEq's packing and flush
 * points; multipack (pack_into_inputs against compute_multipacking,
 * pack_bits, bytes_to_bits). RECORD vs WITNESS agreement, satisfaction
 * and caught perturbations throughout. */
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_uint32.h"
#include "czk/mem.h"
#include "test.h"
#include "gadget_harness.h"

/* A word with value v whose bits are allocated (mask alloc), negated
 * (mask neg, within alloc) or constant. */
static czk_err make_word(czk_cs *cs, czk_uint32 *out, uint32_t v, uint32_t alloc, uint32_t neg) {
    *out = czk_uint32_constant(v);
    for (int i = 0; i < 32; i++) {
        if (!((alloc >> i) & 1)) continue;
        bool n = (neg >> i) & 1, stored = (((v >> i) & 1) != 0) ^ n;
        czk_bit b;
        czk_err e = czk_bit_alloc(cs, &b, &stored);
        if (e) return e;
        out->bits[i] = czk_boolean_is(&b);
        if (n) out->bits[i] = czk_boolean_not(&out->bits[i]);
    }
    return CZK_OK;
}

static bool word_is(const czk_uint32 *w, uint32_t v) {
    uint32_t got = 0;
    for (int i = 31; i >= 0; i--) {
        bool b;
        if (!czk_boolean_value(&w->bits[i], &b)) return false;
        got = got << 1 | b;
    }
    return got == v && w->has_value && w->value == v;
}

typedef struct {
    uint32_t v[10], alloc[10], neg[10];
    size_t n_add;
    unsigned r;
    bool ok;
} word_ctx;

static czk_err word_circuit(czk_cs *cs, void *p) {
    word_ctx *c = p;
    czk_uint32 w[10], t;
    czk_err e;
    for (int i = 0; i < 10; i++)
        if ((e = make_word(cs, &w[i], c->v[i], c->alloc[i], c->neg[i]))) return e;
    flip_lo = czk_cs_num_aux(cs);
    uint32_t a = c->v[0], b = c->v[1], d = c->v[2];
    c->ok = true;
    t = czk_uint32_rotr(&w[0], c->r);
    c->ok &= word_is(&t, c->r % 32 ? a >> (c->r % 32) | a << (32 - c->r % 32) : a);
    t = czk_uint32_shr(&w[0], c->r);
    c->ok &= word_is(&t, a >> (c->r % 32));
    czk_cs_push_namespace(cs, "xor");
    e = czk_uint32_xor(cs, &t, &w[0], &w[1]);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    c->ok &= word_is(&t, a ^ b);
    if ((e = czk_uint32_sha256_ch(cs, &t, &w[0], &w[1], &w[2]))) return e;
    c->ok &= word_is(&t, (a & b) ^ (~a & d));
    if ((e = czk_uint32_sha256_maj(cs, &t, &w[0], &w[1], &w[2]))) return e;
    c->ok &= word_is(&t, (a & b) ^ (a & d) ^ (b & d));
    czk_multieq m;
    czk_multieq_init(&m, cs);
    uint32_t sum = 0;
    for (size_t i = 0; i < c->n_add; i++) sum += c->v[i];
    e = czk_uint32_addmany(&m, &t, w, c->n_add);
    if (!e) {
        c->ok &= word_is(&t, sum);
        czk_uint32 u; /* a second sum through the same MultiEq */
        e = czk_uint32_addmany(&m, &u, w + 1, 2);
        if (!e) c->ok &= word_is(&u, c->v[1] + c->v[2]);
    }
    czk_multieq_finish(&m);
    if (e) return e;
    /* bit order conversions */
    czk_boolean be[32];
    czk_uint32_into_bits_be(be, &w[0]);
    czk_uint32_from_bits_be(&t, be);
    c->ok &= word_is(&t, a);
    czk_uint32_from_bits(&t, w[0].bits);
    c->ok &= word_is(&t, a);
    return CZK_OK;
}

static void test_words(czk_rng *rng) {
    char label[64];
    for (long t = 0; t < test_cases(200); t++) {
        word_ctx c;
        for (int i = 0; i < 10; i++) {
            c.v[i] = (uint32_t)czk_rng_next(rng);
            int mode = (int)(czk_rng_next(rng) % 4); /* all allocated, all constant, random mixes */
            c.alloc[i] = mode == 0 ? 0xffffffffu : mode == 1 ? 0 : (uint32_t)czk_rng_next(rng);
            c.neg[i] = mode == 3 ? c.alloc[i] & (uint32_t)czk_rng_next(rng) : 0;
        }
        c.n_add = 2 + (size_t)(czk_rng_next(rng) % 9);
        c.r = (unsigned)(czk_rng_next(rng) % 40);
        snprintf(label, sizeof label, "words %ld", t);
        check_modes(word_circuit, &c, rng, 2, label);
        CHECK_MSG(c.ok, "%s: values", label);
    }
}

/* ---- UInt32::alloc and MultiEq flushes --------------------------------------------------- */

typedef struct {
    int n_sums;
    size_t ops;
    size_t multieq_rows;
} meq_ctx;

static czk_err meq_circuit(czk_cs *cs, void *p) {
    meq_ctx *c = p;
    czk_uint32 w[10], s;
    czk_err e;
    for (size_t i = 0; i < c->ops; i++) {
        uint32_t v = 0x9e3779b9u * (uint32_t)(i + 1);
        if ((e = czk_uint32_alloc(cs, &w[i], &v))) return e;
    }
    flip_lo = czk_cs_num_aux(cs);
    size_t before = czk_cs_num_constraints(cs), abefore = czk_cs_num_aux(cs);
    czk_multieq m;
    czk_multieq_init(&m, cs);
    for (int k = 0; k < c->n_sums; k++)
        if ((e = czk_uint32_addmany(&m, &s, w, c->ops))) break;
    czk_multieq_finish(&m);
    c->multieq_rows = czk_cs_num_constraints(cs) - before - (czk_cs_num_aux(cs) - abefore);
    return e;
}

static void test_multieq(czk_rng *rng) {
    for (size_t ops = 2; ops <= 10; ops++) {
        size_t bits = 0;
        for (uint64_t mv = (uint64_t)ops * UINT32_MAX; mv; mv >>= 1) bits++;
        for (int n = 1; n <= 12; n++) {
            meq_ctx c = {n, ops, 0};
            mode_report rep = check_modes(meq_circuit, &c, rng, 1, "multieq");
            /* bellperson: flush when bits_used + bits >= 254, and once at the end */
            size_t rows = 0, used = 0;
            for (int k = 0; k < n; k++) {
                if (used + bits >= 254) rows++, used = 0;
                used += bits;
            }
            rows += used > 0;
            CHECK_MSG(c.multieq_rows == rows, "ops %zu sums %d: %zu multieq rows, want %zu", ops, n, c.multieq_rows,
                      rows);
            CHECK(rep.n_aux == 32 * ops + (size_t)n * bits);
        }
    }
    /* the first flush of 2-operand sums (33 bits): 7 fit in 231 bits, the 8th flushes */
    meq_ctx c = {8, 2, 0};
    czk_r1cs r = {0};
    char msg[128];
    if (czk_r1cs_record(&r, meq_circuit, &c, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(0, "record: %s", msg);
        return;
    }
    CHECK(c.multieq_rows == 2);
    /* row of the first flush: it follows the 8th sum's 33 result bits; its B is ONE and its
     * A packs 7 sums of the same two words (64 variables, merged), C 7 × 33 = 231 bits */
    size_t row = 64 + 7 * 33 + 33;
    CHECK(r.b.row_ptr[row + 1] - r.b.row_ptr[row] == 1 && r.b.col[r.b.row_ptr[row]] == 0);
    CHECK(r.a.row_ptr[row + 1] - r.a.row_ptr[row] == 64);
    CHECK(r.c.row_ptr[row + 1] - r.c.row_ptr[row] == 231);
    /* C's coefficients: sum k's bit i at 2^(33k + i) */
    bool ok = true;
    czk_fr pw = CZK_FR_ONE;
    for (size_t j = 0; j < 231; j++) {
        ok &= czk_fr_equal(&r.c.coeff[r.c.row_ptr[row] + j], &pw);
        czk_fr_dbl(&pw, &pw);
    }
    CHECK_MSG(ok, "multieq C coefficients");
    /* A: operand bit i carries 2^i · Σ_k 2^(33k) */
    czk_fr s = {{0}}, p33 = CZK_FR_ONE, two32 = CZK_FR_ONE;
    for (int k = 0; k < 7; k++) {
        czk_fr_add(&s, &s, &p33);
        for (int j = 0; j < 33; j++) czk_fr_dbl(&p33, &p33);
    }
    for (int j = 0; j < 31; j++) czk_fr_dbl(&two32, &two32);
    czk_fr_mul(&two32, &two32, &s); /* bit 31 of each operand */
    CHECK(czk_fr_equal(&r.a.coeff[r.a.row_ptr[row]], &s) && czk_fr_equal(&r.a.coeff[r.a.row_ptr[row] + 31], &two32));
    czk_r1cs_free(&r);
}

/* ---- multipack --------------------------------------------------------------------------- */

typedef struct {
    bool bits[700];
    size_t n;
    czk_fr packed;
} pack_ctx;

static czk_err pack_circuit(czk_cs *cs, void *p) {
    pack_ctx *c = p;
    czk_boolean b[700];
    for (size_t i = 0; i < c->n; i++) {
        if (i % 5 == 4) {
            b[i] = czk_boolean_constant(c->bits[i]);
            continue;
        }
        bool neg = i % 7 == 3, stored = c->bits[i] ^ neg;
        czk_bit bit;
        czk_err e = czk_bit_alloc(cs, &bit, &stored);
        if (e) return e;
        b[i] = czk_boolean_is(&bit);
        if (neg) b[i] = czk_boolean_not(&b[i]);
    }
    flip_lo = czk_cs_num_aux(cs);
    czk_cs_push_namespace(cs, "pack");
    czk_err e = czk_multipack_pack_into_inputs(cs, b, c->n);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_num x;
    if ((e = czk_multipack_pack_bits(cs, &x, b, c->n))) return e;
    c->packed = x.value;
    return CZK_OK;
}

static void test_multipack(czk_rng *rng) {
    static const size_t lens[] = {0, 1, 7, 253, 254, 255, 300, 508, 509, 700};
    for (int t = 0; t < 10; t++) {
        pack_ctx c;
        c.n = lens[t];
        for (size_t i = 0; i < c.n; i++) c.bits[i] = czk_rng_next(rng) & 1;
        mode_report rep = check_modes(pack_circuit, &c, rng, 2, "multipack");
        czk_fr want[4];
        size_t k = czk_multipack_compute(want, c.bits, c.n);
        CHECK(k == (c.n + 253) / 254 && rep.n_inputs == 1 + k);
        czk_witness w;
        char msg[128];
        if (czk_witness_generate(&w, pack_circuit, &c, msg, sizeof msg) == CZK_OK) {
            bool ok = w.n_input == 1 + k;
            for (size_t i = 0; ok && i < k; i++) ok = czk_fr_equal(&w.input[1 + i], &want[i]);
            CHECK_MSG(ok, "pack_into_inputs of %zu bits differs from compute_multipacking", c.n);
            czk_witness_free(&w);
        } else {
            CHECK_MSG(0, "witness: %s", msg);
        }
        CHECK(c.n == 0 ? czk_fr_is_zero(&c.packed) : czk_fr_equal(&c.packed, &want[0]));
    }
    uint8_t bytes[2] = {0x81, 0x06};
    bool be[16], le[16];
    czk_multipack_bytes_to_bits(be, bytes, 2);
    czk_multipack_bytes_to_bits_le(le, bytes, 2);
    const bool want_be[16] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0};
    const bool want_le[16] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0};
    CHECK(memcmp(be, want_be, sizeof be) == 0 && memcmp(le, want_le, sizeof le) == 0);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_uint32");
    test_words(&rng);
    test_multieq(&rng);
    test_multipack(&rng);
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        CHECK_MSG(czk_mem_in_use((czk_mem_tag)t) == 0, "memory tag %d still in use", t);
    return test_finish("test_uint32");
}
