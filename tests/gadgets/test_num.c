/* AllocatedNum and Num: values, exact rows (inputize, mul, square, add,
 * conditionally_reverse, unpacking), to_bits_le / to_bits_le_strict on
 * random and edge values, assert_nonzero, Num arithmetic against its LC
 * evaluated on the witness; RECORD vs WITNESS agreement, satisfaction and
 * caught perturbations throughout. */
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_num.h"
#include "czk/mem.h"
#include "test.h"
#include "gadget_harness.h"

static czk_fr fr(int64_t v) {
    czk_fr r;
    czk_fr_from_u64(&r, (uint64_t)(v < 0 ? -v : v));
    if (v < 0) czk_fr_neg(&r, &r);
    return r;
}

/* ---- arithmetic and exact rows --------------------------------------------------------- */

typedef struct {
    czk_fr x, y;
    bool ok;
} arith_ctx;

static czk_err arith_circuit(czk_cs *cs, void *p) {
    arith_ctx *c = p;
    czk_num x, y, s, m, q;
    czk_err e;
    if ((e = czk_num_alloc(cs, &x, &c->x)) || (e = czk_num_alloc(cs, &y, &c->y))) return e; /* aux 0, 1 */
    flip_lo = czk_cs_num_aux(cs);
    if ((e = czk_num_inputize(cs, &x))) return e;          /* input 1, row 0 */
    if ((e = czk_num_add(cs, &s, &x, &y))) return e;       /* aux 2, row 1 */
    if ((e = czk_num_mul(cs, &m, &x, &y))) return e;       /* aux 3, row 2 */
    if ((e = czk_num_square(cs, &q, &x))) return e;        /* aux 4, row 3 */
    if ((e = czk_num_assert_nonzero(cs, &y))) return e;    /* aux 5, row 4 */
    czk_num_enforce_equal(cs, "equal", &x, &x);            /* row 5 */
    czk_num ad, sb;
    if ((e = czk_constraint_add(cs, &ad, &x, &y))) return e; /* aux 6, row 6 */
    if ((e = czk_constraint_sub(cs, &sb, &x, &y))) return e; /* aux 7, row 7 */
    czk_fr t;
    c->ok = true;
    czk_fr_add(&t, &c->x, &c->y);
    c->ok &= czk_fr_equal(&t, &s.value);
    czk_fr_mul(&t, &c->x, &c->y);
    c->ok &= czk_fr_equal(&t, &m.value);
    czk_fr_sqr(&t, &c->x);
    c->ok &= czk_fr_equal(&t, &q.value);
    czk_fr_add(&t, &c->x, &c->y);
    c->ok &= czk_fr_equal(&t, &ad.value);
    czk_fr_sub(&t, &c->x, &c->y);
    c->ok &= czk_fr_equal(&t, &sb.value);
    return CZK_OK;
}

static void test_arith(czk_rng *rng) {
    for (long t = 0; t < test_cases(20); t++) {
        arith_ctx c;
        czk_fr_random(&c.x, rng);
        czk_fr_random(&c.y, rng);
        if (czk_fr_is_zero(&c.y)) c.y = CZK_FR_ONE;
        mode_report rep = check_modes(arith_circuit, &c, rng, 3, "arith");
        CHECK(c.ok && rep.n_inputs == 2 && rep.n_aux == 8 && rep.n_constraints == 8);
    }
    arith_ctx c = {fr(3), fr(4), false};
    czk_r1cs r = {0};
    char msg[128];
    if (czk_r1cs_record(&r, arith_circuit, &c, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(0, "record: %s", msg);
        return;
    }
    /* columns: ONE 0, input 1; aux i is 2 + i */
    const int64_t in1[][2] = {{1, 1}}, one[][2] = {{0, 1}}, x[][2] = {{2, 1}}, y[][2] = {{3, 1}};
    CHECK(row_is(&r.a, 0, in1, 1) && row_is(&r.b, 0, one, 1) && row_is(&r.c, 0, x, 1));
    const int64_t xy[][2] = {{2, 1}, {3, 1}}, s[][2] = {{4, 1}}, m[][2] = {{5, 1}}, q[][2] = {{6, 1}},
                  inv[][2] = {{7, 1}};
    CHECK(row_is(&r.a, 1, xy, 2) && row_is(&r.b, 1, one, 1) && row_is(&r.c, 1, s, 1));
    CHECK(row_is(&r.a, 2, x, 1) && row_is(&r.b, 2, y, 1) && row_is(&r.c, 2, m, 1));
    CHECK(row_is(&r.a, 3, x, 1) && row_is(&r.b, 3, x, 1) && row_is(&r.c, 3, q, 1));
    CHECK(row_is(&r.a, 4, y, 1) && row_is(&r.b, 4, inv, 1) && row_is(&r.c, 4, one, 1));
    CHECK(row_is(&r.a, 5, x, 1) && row_is(&r.b, 5, one, 1) && row_is(&r.c, 5, x, 1));
    const int64_t ad[][2] = {{8, 1}}, dy[][2] = {{3, 1}, {9, 1}};
    CHECK(row_is(&r.a, 6, xy, 2) && row_is(&r.b, 6, one, 1) && row_is(&r.c, 6, ad, 1));
    CHECK(row_is(&r.a, 7, dy, 2) && row_is(&r.b, 7, one, 1) && row_is(&r.c, 7, x, 1));
    czk_r1cs_free(&r);
    /* assert_nonzero on zero fails in WITNESS and CHECK modes */
    c.y = fr(0);
    czk_witness w;
    CHECK(czk_witness_generate(&w, arith_circuit, &c, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK(czk_cs_check(arith_circuit, &c, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
}

/* ---- bit decompositions ------------------------------------------------------------------ */

typedef struct {
    czk_fr x;
    bool strict;
    bool ok;
    size_t gadget_constraints, gadget_aux;
} bits_ctx;

static czk_err bits_circuit(czk_cs *cs, void *p) {
    bits_ctx *c = p;
    czk_num x;
    czk_boolean out[255];
    czk_err e;
    if ((e = czk_num_alloc(cs, &x, &c->x))) return e;
    flip_lo = czk_cs_num_aux(cs);
    size_t c0 = czk_cs_num_constraints(cs), a0 = czk_cs_num_aux(cs);
    e = c->strict ? czk_num_to_bits_le_strict(cs, out, &x) : czk_num_to_bits_le(cs, out, &x);
    if (e) return e;
    c->gadget_constraints = czk_cs_num_constraints(cs) - c0;
    c->gadget_aux = czk_cs_num_aux(cs) - a0;
    uint64_t limbs[4];
    czk_fr_to_canonical(limbs, &c->x);
    c->ok = true;
    for (int i = 0; i < 255; i++) {
        bool v;
        c->ok &= out[i].kind == CZK_BOOLEAN_IS && czk_boolean_value(&out[i], &v) && v == ((limbs[i / 64] >> (i % 64)) & 1);
    }
    return CZK_OK;
}

static void test_bits(czk_rng *rng) {
    czk_fr edge[6];
    edge[0] = fr(0), edge[1] = fr(1), edge[2] = fr(-1), edge[3] = fr(-2);
    czk_fr_from_u64(&edge[4], 1);
    for (int i = 0; i < 254; i++) czk_fr_dbl(&edge[4], &edge[4]); /* 2^254 */
    czk_fr_sub(&edge[5], &edge[4], &CZK_FR_ONE);
    size_t strict_cons = 0, strict_aux = 0;
    for (long t = 0; t < test_cases(10) + 6; t++) {
        for (int strict = 0; strict < 2; strict++) {
            bits_ctx c = {{{0}}, strict, false, 0, 0};
            if (t < 6) c.x = edge[t];
            else czk_fr_random(&c.x, rng);
            check_modes(bits_circuit, &c, rng, 3, strict ? "to_bits_le_strict" : "to_bits_le");
            CHECK_MSG(c.ok, "bits of case %ld strict %d", t, strict);
            if (!strict) CHECK(c.gadget_constraints == 256 && c.gadget_aux == 255);
            else if (strict_cons == 0) strict_cons = c.gadget_constraints, strict_aux = c.gadget_aux;
            else CHECK(c.gadget_constraints == strict_cons && c.gadget_aux == strict_aux);
        }
    }
    printf("to_bits_le: 256 constraints; to_bits_le_strict: %zu constraints, %zu aux\n", strict_cons, strict_aux);
    /* the unpacking row: 0·0 = Σ 2^i·bit_i - x */
    bits_ctx c = {fr(12345), false, false, 0, 0};
    czk_r1cs r = {0};
    char msg[128];
    if (czk_r1cs_record(&r, bits_circuit, &c, msg, sizeof msg) == CZK_OK) {
        size_t row = r.n_constraints - 1, lo = r.c.row_ptr[row];
        bool ok = r.a.row_ptr[row + 1] == r.a.row_ptr[row] && r.b.row_ptr[row + 1] == r.b.row_ptr[row] &&
                  r.c.row_ptr[row + 1] - lo == 256 && r.c.col[lo] == 1;
        czk_fr m1 = fr(-1), pw = CZK_FR_ONE;
        ok = ok && czk_fr_equal(&r.c.coeff[lo], &m1);
        for (size_t i = 0; ok && i < 255; i++) {
            ok = r.c.col[lo + 1 + i] == 2 + i && czk_fr_equal(&r.c.coeff[lo + 1 + i], &pw);
            czk_fr_dbl(&pw, &pw);
        }
        CHECK_MSG(ok, "unpacking row");
        czk_r1cs_free(&r);
    } else {
        CHECK_MSG(0, "record: %s", msg);
    }
}

/* ---- conditionally_reverse ------------------------------------------------------------ */

typedef struct {
    czk_fr a, b;
    int kind; /* 0 const false, 1 const true, 2 Is(0), 3 Is(1), 4 Not(1), 5 Not(0) */
    czk_fr c, d;
} rev_ctx;

static czk_err rev_circuit(czk_cs *cs, void *p) {
    rev_ctx *x = p;
    czk_num a, b, c, d;
    czk_boolean cond;
    czk_err e;
    if ((e = czk_num_alloc(cs, &a, &x->a)) || (e = czk_num_alloc(cs, &b, &x->b))) return e;
    if (x->kind < 2) {
        cond = czk_boolean_constant(x->kind == 1);
    } else {
        bool stored = x->kind == 3 || x->kind == 4;
        czk_bit bit;
        if ((e = czk_bit_alloc(cs, &bit, &stored))) return e;
        cond = czk_boolean_is(&bit);
        if (x->kind >= 4) cond = czk_boolean_not(&cond);
    }
    flip_lo = czk_cs_num_aux(cs);
    if ((e = czk_num_conditionally_reverse(cs, &c, &d, &a, &b, &cond))) return e;
    x->c = c.value, x->d = d.value;
    return CZK_OK;
}

static void test_reverse(czk_rng *rng) {
    for (int kind = 0; kind < 6; kind++) {
        rev_ctx x;
        czk_fr_random(&x.a, rng);
        czk_fr_random(&x.b, rng);
        x.kind = kind;
        mode_report rep = check_modes(rev_circuit, &x, rng, 2, "conditionally_reverse");
        bool swap = kind == 1 || kind == 3 || kind == 5;
        CHECK(czk_fr_equal(&x.c, swap ? &x.b : &x.a) && czk_fr_equal(&x.d, swap ? &x.a : &x.b));
        CHECK(rep.n_constraints == 2 + (kind >= 2));
    }
    rev_ctx x = {fr(7), fr(11), 4, {{0}}, {{0}}}; /* Not(bit = 1) */
    czk_r1cs r = {0};
    char msg[128];
    if (czk_r1cs_record(&r, rev_circuit, &x, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(0, "record: %s", msg);
        return;
    }
    /* columns: ONE 0, a 1, b 2, bit 3, c 4, d 5; rows 1 and 2 */
    const int64_t A1[][2] = {{1, 1}, {2, -1}}, B[][2] = {{0, 1}, {3, -1}}, C1[][2] = {{1, 1}, {4, -1}};
    const int64_t A2[][2] = {{1, -1}, {2, 1}}, C2[][2] = {{2, 1}, {5, -1}};
    CHECK(row_is(&r.a, 1, A1, 2) && row_is(&r.b, 1, B, 2) && row_is(&r.c, 1, C1, 2));
    CHECK(row_is(&r.a, 2, A2, 2) && row_is(&r.b, 2, B, 2) && row_is(&r.c, 2, C2, 2));
    czk_r1cs_free(&r);
}

/* ---- Num --------------------------------------------------------------------------------- */

typedef struct {
    uint8_t kinds[20];
    czk_fr coeffs[20], scale;
    bool ok;
} numlc_ctx;

static czk_err numlc_circuit(czk_cs *cs, void *p) {
    numlc_ctx *c = p;
    czk_num_lc n, m;
    czk_num_lc_zero(&n);
    czk_err e = CZK_OK;
    for (int i = 0; i < 20 && !e; i++) {
        czk_boolean b;
        int k = c->kinds[i] % 6;
        if (k < 2) {
            b = czk_boolean_constant(k == 1);
        } else {
            bool stored = k == 3 || k == 4;
            czk_bit bit;
            if ((e = czk_bit_alloc(cs, &bit, &stored))) break;
            b = czk_boolean_is(&bit);
            if (k >= 4) b = czk_boolean_not(&b);
        }
        czk_num_lc_add_bool_with_coeff(&n, &b, &c->coeffs[i]);
    }
    czk_num x;
    czk_fr v = fr(99);
    if (!e) e = czk_num_alloc(cs, &x, &v);
    if (e) {
        czk_num_lc_free(&n);
        return e;
    }
    czk_num_lc_from_num(&m, &x);
    czk_num_lc_add(&n, &m);
    czk_num_lc_scale(&n, &c->scale);
    /* the value must equal the LC evaluated on the assignment so far */
    czk_fr val, acc = {{0}};
    c->ok = czk_num_lc_value(&n, &val);
    for (size_t i = 0; i < n.lc.len; i++) {
        czk_fr t;
        if (!czk_cs_value(cs, n.lc.terms[i].var, &t)) c->ok = false;
        czk_fr_mul(&t, &t, &n.lc.terms[i].coeff);
        czk_fr_add(&acc, &acc, &t);
    }
    c->ok &= czk_fr_equal(&acc, &val);
    /* Num::lc(coeff) into an LC: coeff times every term */
    czk_lc out = {0};
    czk_fr two = fr(2);
    czk_num_lc_lc(&out, &n, &two);
    c->ok &= out.len == n.lc.len;
    for (size_t i = 0; c->ok && i < out.len; i++) {
        czk_fr t;
        czk_fr_dbl(&t, &n.lc.terms[i].coeff);
        c->ok &= czk_fr_equal(&t, &out.terms[i].coeff);
    }
    czk_lc_free(&out);
    czk_num_lc_free(&n);
    czk_num_lc_free(&m);
    return CZK_OK;
}

static void test_num_lc(czk_rng *rng) {
    for (long t = 0; t < test_cases(50); t++) {
        numlc_ctx c;
        czk_rng_bytes(rng, c.kinds, sizeof c.kinds);
        for (int i = 0; i < 20; i++) czk_fr_random(&c.coeffs[i], rng);
        czk_fr_random(&c.scale, rng);
        czk_witness w;
        char msg[128];
        CHECK(czk_witness_generate(&w, numlc_circuit, &c, msg, sizeof msg) == CZK_OK && c.ok);
        czk_witness_free(&w);
        CHECK(czk_cs_check(numlc_circuit, &c, msg, sizeof msg) == CZK_OK && c.ok);
    }
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_num");
    test_arith(&rng);
    test_bits(&rng);
    test_reverse(&rng);
    test_num_lc(&rng);
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        CHECK_MSG(czk_mem_in_use((czk_mem_tag)t) == 0, "memory tag %d still in use", t);
    return test_finish("test_num");
}
