/* Boolean gadgets: every kind combination (constant false/true, Is, Not of
 * either value) through xor / and / or / sha256_ch / sha256_maj, checking
 * values, bellpepper's constant folding (constraint counts), RECORD vs
 * WITNESS assignments, satisfaction and caught perturbations; the exact
 * rows of AllocatedBit's gadgets; enforce_equal; bit-vector helpers. */
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_boolean.h"
#include "czk/mem.h"
#include "test.h"
#include "gadget_harness.h"

/* ---- kinds ---------------------------------------------------------------------------- */

/* kind k: 0 const false, 1 const true, 2 Is(0), 3 Is(1), 4 Not(bit 1) = false, 5 Not(bit 0) = true */
static bool kind_value(int k) { return k == 1 || k == 3 || k == 5; }

static czk_err make_kind(czk_cs *cs, czk_boolean *out, int k) {
    if (k < 2) {
        *out = czk_boolean_constant(k == 1);
        return CZK_OK;
    }
    bool stored = k == 3 || k == 4;
    czk_bit b;
    czk_err e = czk_bit_alloc(cs, &b, &stored);
    if (e) return e;
    *out = czk_boolean_is(&b);
    if (k >= 4) *out = czk_boolean_not(out);
    return CZK_OK;
}

typedef struct {
    int op; /* 0 xor, 1 and, 2 or, 3 ch, 4 maj */
    int k[3];
    bool result;
    bool ok;
    size_t gadget_constraints;
} op_ctx;

static czk_err op_circuit(czk_cs *cs, void *p) {
    op_ctx *c = p;
    czk_boolean in[3], out;
    int n = c->op >= 3 ? 3 : 2;
    czk_err e;
    for (int i = 0; i < n; i++)
        if ((e = make_kind(cs, &in[i], c->k[i]))) return e;
    size_t before = czk_cs_num_constraints(cs);
    flip_lo = czk_cs_num_aux(cs);
    czk_cs_push_namespace(cs, "op");
    switch (c->op) {
    case 0: e = czk_boolean_xor(cs, &out, &in[0], &in[1]); break;
    case 1: e = czk_boolean_and(cs, &out, &in[0], &in[1]); break;
    case 2: e = czk_boolean_or(cs, &out, &in[0], &in[1]); break;
    case 3: e = czk_boolean_sha256_ch(cs, &out, &in[0], &in[1], &in[2]); break;
    default: e = czk_boolean_sha256_maj(cs, &out, &in[0], &in[1], &in[2]); break;
    }
    czk_cs_pop_namespace(cs);
    if (e) return e;
    c->gadget_constraints = czk_cs_num_constraints(cs) - before;
    c->ok = czk_boolean_value(&out, &c->result);
    if (out.kind != CZK_BOOLEAN_CONSTANT) { /* the variable holds the underlying value */
        czk_fr v;
        bool under = out.kind == CZK_BOOLEAN_NOT ? !c->result : c->result;
        if (czk_cs_value(cs, out.bit.var, &v) && !czk_fr_equal(&v, under ? &CZK_FR_ONE : &(czk_fr){{0}}))
            c->ok = false;
    }
    return CZK_OK;
}

static void test_ops(czk_rng *rng) {
    static const char *const names[] = {"xor", "and", "or", "ch", "maj"};
    char label[64];
    for (int op = 0; op < 5; op++) {
        int n = op >= 3 ? 3 : 2, total = n == 3 ? 216 : 36;
        for (int t = 0; t < total; t++) {
            op_ctx c = {op, {t % 6, t / 6 % 6, t / 36}, false, false, 0};
            bool a = kind_value(c.k[0]), b = kind_value(c.k[1]), d = kind_value(c.k[2]);
            bool want = op == 0 ? a ^ b : op == 1 ? a & b : op == 2 ? a | b
                      : op == 3 ? (a & b) ^ (!a & d) : (a & b) ^ (a & d) ^ (b & d);
            snprintf(label, sizeof label, "%s(%d,%d,%d)", names[op], c.k[0], c.k[1], n == 3 ? c.k[2] : -1);
            check_modes(op_circuit, &c, rng, 1, label);
            CHECK_MSG(c.ok && c.result == want, "%s: value", label);
            bool anyc = c.k[0] < 2 || c.k[1] < 2 || (n == 3 && c.k[2] < 2);
            bool allc = c.k[0] < 2 && c.k[1] < 2 && (n == 2 || c.k[2] < 2);
            size_t want_cons = allc ? 0 : !anyc ? (op == 4 ? 2 : 1) : (size_t)-1;
            /* with some constants: xor/and/or fold to nothing; ch/maj to at most one AND */
            if (anyc && !allc) want_cons = op <= 2 ? 0 : (size_t)-1;
            if (want_cons != (size_t)-1)
                CHECK_MSG(c.gadget_constraints == want_cons, "%s: %zu constraints, want %zu", label,
                          c.gadget_constraints, want_cons);
            else
                CHECK_MSG(c.gadget_constraints <= 1, "%s: %zu constraints", label, c.gadget_constraints);
        }
    }
}

/* ---- exact rows ------------------------------------------------------------------------ */

static czk_err rows_circuit(czk_cs *cs, void *p) {
    (void)p;
    bool t = true, f = false;
    czk_bit a, b, r, m;
    czk_err e;
    if ((e = czk_bit_alloc(cs, &a, &t))) return e;                        /* aux 0, row 0 */
    if ((e = czk_bit_alloc(cs, &b, &f))) return e;                        /* aux 1, row 1 */
    if ((e = czk_bit_xor(cs, &r, &a, &b))) return e;                      /* aux 2, row 2 */
    if ((e = czk_bit_and(cs, &r, &a, &b))) return e;                      /* aux 3, row 3 */
    if ((e = czk_bit_and_not(cs, &r, &a, &b))) return e;                  /* aux 4, row 4 */
    if ((e = czk_bit_nor(cs, &r, &a, &b))) return e;                      /* aux 5, row 5 */
    if ((e = czk_bit_alloc_conditionally(cs, &m, &f, &b))) return e;      /* aux 6, row 6 */
    czk_boolean A = czk_boolean_is(&a), B = czk_boolean_is(&b), NB = czk_boolean_not(&B), out;
    if ((e = czk_boolean_sha256_ch(cs, &out, &A, &NB, &B))) return e;     /* aux 7, row 7 */
    if ((e = czk_boolean_sha256_maj(cs, &out, &A, &NB, &B))) return e;    /* aux 8 maj, aux 9 bc, rows 8, 9 */
    czk_boolean T = czk_boolean_constant(true);
    if ((e = czk_boolean_enforce_equal(cs, &A, &T))) return e;            /* row 10 */
    return czk_boolean_enforce_equal(cs, &NB, &A);                        /* row 11 */
}

static void test_rows(czk_rng *rng) {
    czk_r1cs r = {0};
    char msg[128];
    check_modes(rows_circuit, NULL, rng, 0, "rows");
    if (czk_r1cs_record(&r, rows_circuit, NULL, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(0, "record: %s", msg);
        return;
    }
    CHECK(r.n_inputs == 1 && r.n_aux == 10 && r.n_constraints == 12);
    enum { ONE = 0, A = 1, B = 2 }; /* global columns: aux i is 1 + i */
    const int64_t bool_a[][2] = {{ONE, 1}, {A, -1}}, a1[][2] = {{A, 1}}, b1[][2] = {{B, 1}};
    const int64_t bool_b[][2] = {{ONE, 1}, {B, -1}};
    CHECK(row_is(&r.a, 0, bool_a, 2) && row_is(&r.b, 0, a1, 1) && row_is(&r.c, 0, NULL, 0));
    CHECK(row_is(&r.a, 1, bool_b, 2) && row_is(&r.b, 1, b1, 1) && row_is(&r.c, 1, NULL, 0));
    const int64_t xa[][2] = {{A, 2}}, xc[][2] = {{A, 1}, {B, 1}, {3, -1}};
    CHECK(row_is(&r.a, 2, xa, 1) && row_is(&r.b, 2, b1, 1) && row_is(&r.c, 2, xc, 3));
    const int64_t ac[][2] = {{4, 1}};
    CHECK(row_is(&r.a, 3, a1, 1) && row_is(&r.b, 3, b1, 1) && row_is(&r.c, 3, ac, 1));
    const int64_t anc[][2] = {{5, 1}};
    CHECK(row_is(&r.a, 4, a1, 1) && row_is(&r.b, 4, bool_b, 2) && row_is(&r.c, 4, anc, 1));
    const int64_t nc[][2] = {{6, 1}};
    CHECK(row_is(&r.a, 5, bool_a, 2) && row_is(&r.b, 5, bool_b, 2) && row_is(&r.c, 5, nc, 1));
    const int64_t ca[][2] = {{ONE, 1}, {B, -1}, {7, -1}}, cb[][2] = {{7, 1}};
    CHECK(row_is(&r.a, 6, ca, 3) && row_is(&r.b, 6, cb, 1) && row_is(&r.c, 6, NULL, 0));
    /* ch(a, not b, b): (notb - b)·a = ch - b → A = ONE - 2b, B = a, C = ch - b */
    const int64_t cha[][2] = {{ONE, 1}, {B, -2}}, chc[][2] = {{B, -1}, {8, 1}};
    CHECK(row_is(&r.a, 7, cha, 2) && row_is(&r.b, 7, a1, 1) && row_is(&r.c, 7, chc, 2));
    /* maj(a, not b, b): maj = aux 8; "b and c" = and_not(b, b)... (Not b, Is b) → and_not(is=b, not=b) = aux 9 */
    const int64_t bca[][2] = {{B, 1}}, bcb[][2] = {{ONE, 1}, {B, -1}}, bcc[][2] = {{10, 1}};
    CHECK(row_is(&r.a, 8, bca, 1) && row_is(&r.b, 8, bcb, 2) && row_is(&r.c, 8, bcc, 1));
    /* (2bc - notb - b)·a = bc - maj: 2bc - (ONE - b) - b = -ONE + 0·b + 2bc */
    const int64_t mja[][2] = {{ONE, -1}, {B, 0}, {10, 2}}, mjc[][2] = {{9, -1}, {10, 1}};
    CHECK(row_is(&r.a, 9, mja, 3) && row_is(&r.b, 9, a1, 1) && row_is(&r.c, 9, mjc, 2));
    /* enforce_equal(a, true): 0·0 = ONE - a */
    CHECK(row_is(&r.a, 10, NULL, 0) && row_is(&r.b, 10, NULL, 0) && row_is(&r.c, 10, bool_a, 2));
    /* enforce_equal(not b, a): 0·0 = ONE - b - a */
    const int64_t eq[][2] = {{ONE, 1}, {A, -1}, {B, -1}};
    CHECK(row_is(&r.c, 11, eq, 3));
    czk_r1cs_free(&r);
}

/* ---- enforce_equal ----------------------------------------------------------------------- */

typedef struct {
    int ka, kb;
    czk_err err;
} eq_ctx;

static czk_err eq_circuit(czk_cs *cs, void *p) {
    eq_ctx *c = p;
    czk_boolean a, b;
    czk_err e;
    if ((e = make_kind(cs, &a, c->ka)) || (e = make_kind(cs, &b, c->kb))) return e;
    flip_lo = czk_cs_num_aux(cs);
    return c->err = czk_boolean_enforce_equal(cs, &a, &b);
}

static void test_enforce_equal(czk_rng *rng) {
    char msg[128], label[32];
    for (int ka = 0; ka < 6; ka++)
        for (int kb = 0; kb < 6; kb++) {
            eq_ctx c = {ka, kb, CZK_OK};
            bool same = kind_value(ka) == kind_value(kb);
            czk_err e = czk_cs_check(eq_circuit, &c, msg, sizeof msg);
            snprintf(label, sizeof label, "eq(%d,%d)", ka, kb);
            if (same) {
                CHECK_MSG(e == CZK_OK, "%s: %s", label, msg);
                check_modes(eq_circuit, &c, rng, 1, label);
            } else {
                CHECK_MSG(e == CZK_ERR_UNSATISFIED, "%s: unequal values accepted", label);
            }
        }
}

/* ---- bit vectors ------------------------------------------------------------------------- */

typedef struct {
    uint64_t v64;
    uint32_t v32;
    czk_fr f;
    bool ok;
} vec_ctx;

static czk_err vec_circuit(czk_cs *cs, void *p) {
    vec_ctx *c = p;
    czk_boolean b64[64], b32[32], bf[255];
    czk_err e;
    if ((e = czk_u64_into_boolean_vec_le(cs, b64, &c->v64))) return e;
    if ((e = czk_u32_into_boolean_vec_le(cs, b32, &c->v32))) return e;
    if ((e = czk_field_into_boolean_vec_le(cs, bf, &c->f))) return e;
    uint64_t limbs[4];
    czk_fr_to_canonical(limbs, &c->f);
    c->ok = true;
    for (int i = 0; i < 64; i++) {
        bool v;
        c->ok &= czk_boolean_value(&b64[i], &v) && v == ((c->v64 >> i) & 1);
    }
    for (int i = 0; i < 32; i++) {
        bool v;
        c->ok &= czk_boolean_value(&b32[i], &v) && v == ((c->v32 >> i) & 1);
    }
    for (int i = 0; i < 255; i++) {
        bool v;
        c->ok &= czk_boolean_value(&bf[i], &v) && v == ((limbs[i / 64] >> (i % 64)) & 1);
    }
    return CZK_OK;
}

static void test_vectors(czk_rng *rng) {
    for (long t = 0; t < test_cases(10); t++) {
        vec_ctx c = {czk_rng_next(rng), (uint32_t)czk_rng_next(rng), {{0}}, false};
        czk_fr_random(&c.f, rng);
        if (t == 0) czk_fr_neg(&c.f, &CZK_FR_ONE);
        mode_report rep = check_modes(vec_circuit, &c, rng, 0, "vectors"); /* free bits */
        CHECK(c.ok);
        CHECK(rep.n_aux == 64 + 32 + 255 && rep.n_constraints == 64 + 32 + 255);
    }
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_boolean");
    test_ops(&rng);
    test_rows(&rng);
    test_enforce_equal(&rng);
    test_vectors(&rng);
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        CHECK_MSG(czk_mem_in_use((czk_mem_tag)t) == 0, "memory tag %d still in use", t);
    return test_finish("test_boolean");
}
