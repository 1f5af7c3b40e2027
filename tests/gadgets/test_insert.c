/* Insertion (storage-proofs-core): insert_2/4/8 cost 2/8/22 constraints,
 * the general insert s·(s-1), every position gives elements with element
 * inserted there; select and pick; UInt64 bits and packing. Each circuit's
 * RECORD and WITNESS assignments agree, satisfy the R1CS, and perturbed
 * outputs are caught. */
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_insert.h"
#include "czk/gadget_uint32.h"
#include "czk/mem.h"
#include "test.h"
#include "gadget_harness.h"

typedef struct {
    size_t size; /* elements + 1 */
    size_t index;
    int bit_kind; /* 0 allocated; 1 constants (general insert only) */
    czk_fr vals[16];
    czk_fr got[16];
    size_t gadget_constraints;
    bool ok;
} ins_ctx;

static czk_err ins_circuit(czk_cs *cs, void *p) {
    ins_ctx *c = p;
    czk_num element, elements[15], out[16];
    czk_boolean bits[4];
    size_t nb = 0;
    while (((size_t)1 << nb) < c->size) nb++;
    czk_err e;
    if ((e = czk_num_alloc(cs, &element, &c->vals[0]))) return e;
    for (size_t i = 0; i + 1 < c->size; i++)
        if ((e = czk_num_alloc(cs, &elements[i], &c->vals[i + 1]))) return e;
    for (size_t i = 0; i < nb; i++) {
        bool v = (c->index >> i) & 1;
        if (c->bit_kind) {
            bits[i] = czk_boolean_constant(v);
            continue;
        }
        czk_bit b;
        if ((e = czk_bit_alloc(cs, &b, &v))) return e;
        bits[i] = czk_boolean_is(&b);
    }
    size_t before = czk_cs_num_constraints(cs);
    flip_lo = czk_cs_num_aux(cs);
    czk_cs_push_namespace(cs, "insert");
    e = czk_insert(cs, out, &element, bits, nb, elements, c->size - 1);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    c->gadget_constraints = czk_cs_num_constraints(cs) - before;
    c->ok = true;
    for (size_t i = 0; i < c->size; i++) {
        czk_fr v;
        c->got[i] = out[i].value;
        c->ok &= out[i].has_value && czk_cs_value(cs, out[i].var, &v) && czk_fr_equal(&v, &out[i].value);
    }
    return CZK_OK;
}

static void test_insert(czk_rng *rng) {
    static const size_t sizes[] = {2, 4, 8, 16};
    static const size_t cost[] = {2, 8, 22, 240};
    char label[64];
    for (int s = 0; s < 4; s++) {
        for (size_t index = 0; index < sizes[s]; index++) {
            for (int kind = 0; kind < (sizes[s] == 16 ? 2 : 1); kind++) {
                ins_ctx c = {sizes[s], index, kind, {{{0}}}, {{{0}}}, 0, false};
                for (size_t i = 0; i < c.size; i++) czk_fr_random(&c.vals[i], rng);
                snprintf(label, sizeof label, "insert size %zu at %zu kind %d", c.size, index, kind);
                check_modes(ins_circuit, &c, rng, 2, label);
                CHECK_MSG(c.ok, "%s: output values", label);
                if (!kind)
                    CHECK_MSG(c.gadget_constraints == cost[s], "%s: %zu constraints, want %zu", label,
                              c.gadget_constraints, cost[s]);
                /* expected: elements[..index] ++ [element] ++ elements[index..] */
                bool ok = true;
                for (size_t pos = 0; pos < c.size; pos++) {
                    const czk_fr *want = pos < index ? &c.vals[pos + 1] : pos == index ? &c.vals[0] : &c.vals[pos];
                    ok &= czk_fr_equal(&c.got[pos], want);
                }
                CHECK_MSG(ok, "%s: wrong order", label);
            }
        }
        printf("insert size %zu: %zu constraints\n", sizes[s], cost[s]);
    }
}

/* insert_8 with a negated first bit is refused (storage-proofs-core panics) */
static czk_err bad8_circuit(czk_cs *cs, void *p) {
    (void)p;
    czk_num el[8], out[8];
    czk_fr z = {{0}};
    czk_err e;
    for (int i = 0; i < 8; i++)
        if ((e = czk_num_alloc(cs, &el[i], &z))) return e;
    bool t = true;
    czk_bit b;
    if ((e = czk_bit_alloc(cs, &b, &t))) return e;
    czk_boolean bits[3] = {czk_boolean_is(&b), czk_boolean_is(&b), czk_boolean_is(&b)};
    bits[0] = czk_boolean_not(&bits[0]);
    return czk_insert_8(cs, out, &el[0], bits, &el[1]);
}

typedef struct {
    size_t n_bits, index;
    czk_fr vals[16], got;
} sel_ctx;

static czk_err sel_circuit(czk_cs *cs, void *p) {
    sel_ctx *c = p;
    czk_num from[16], out;
    czk_boolean bits[4];
    czk_err e;
    for (size_t i = 0; i < ((size_t)1 << c->n_bits); i++)
        if ((e = czk_num_alloc(cs, &from[i], &c->vals[i]))) return e;
    for (size_t i = 0; i < c->n_bits; i++) {
        bool v = (c->index >> i) & 1;
        czk_bit b;
        if ((e = czk_bit_alloc(cs, &b, &v))) return e;
        bits[i] = czk_boolean_is(&b);
        if (i == 1) { /* a negated bit selects the complement */
            bool nv = !v;
            if ((e = czk_bit_alloc(cs, &b, &nv))) return e;
            bits[i] = czk_boolean_not(&(czk_boolean){CZK_BOOLEAN_IS, false, b});
        }
    }
    flip_lo = czk_cs_num_aux(cs);
    if ((e = czk_select(cs, &out, from, (size_t)1 << c->n_bits, bits, c->n_bits))) return e;
    c->got = out.value;
    return CZK_OK;
}

static void test_select(czk_rng *rng) {
    char msg[128];
    for (size_t nb = 1; nb <= 4; nb++)
        for (size_t index = 0; index < ((size_t)1 << nb); index++) {
            sel_ctx c = {nb, index, {{{0}}}, {{0}}};
            for (int i = 0; i < 16; i++) czk_fr_random(&c.vals[i], rng);
            mode_report rep = check_modes(sel_circuit, &c, rng, 2, "select");
            CHECK(czk_fr_equal(&c.got, &c.vals[index]));
            size_t nbits_cons = nb + (nb >= 2 ? 1 : 0);
            CHECK_MSG(rep.n_constraints == nbits_cons + ((size_t)1 << nb) - 1, "select %zu bits: %zu constraints", nb,
                      rep.n_constraints);
        }
    CHECK(czk_cs_check(bad8_circuit, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
}

static czk_err pick_rows_circuit(czk_cs *cs, void *p) {
    (void)p;
    czk_fr va, vb;
    czk_fr_from_u64(&va, 5), czk_fr_from_u64(&vb, 9);
    czk_num a, b, c;
    bool t = true;
    czk_bit bit;
    czk_err e;
    if ((e = czk_num_alloc(cs, &a, &va)) || (e = czk_num_alloc(cs, &b, &vb)) || (e = czk_bit_alloc(cs, &bit, &t)))
        return e;
    czk_boolean nb = czk_boolean_is(&bit);
    nb = czk_boolean_not(&nb);
    if ((e = czk_pick(cs, &c, &nb, &a, &b))) return e; /* condition false: c = b */
    return czk_fr_equal(&c.value, &vb) ? CZK_OK : CZK_ERR_SYNTHESIS;
}

static void test_pick_rows(czk_rng *rng) {
    czk_r1cs r = {0};
    char msg[128];
    check_modes(pick_rows_circuit, NULL, rng, 0, "pick rows");
    if (czk_r1cs_record(&r, pick_rows_circuit, NULL, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(0, "record: %s", msg);
        return;
    }
    /* columns: ONE 0, a 1, b 2, bit 3, c 4; row 1 = pick: (b - a)·(ONE - bit) = b - c */
    const int64_t A[][2] = {{1, -1}, {2, 1}}, B[][2] = {{0, 1}, {3, -1}}, C[][2] = {{2, 1}, {4, -1}};
    CHECK(r.n_constraints == 2 && row_is(&r.a, 1, A, 2) && row_is(&r.b, 1, B, 2) && row_is(&r.c, 1, C, 2));
    czk_r1cs_free(&r);
}

/* ---- UInt64 ----------------------------------------------------------------------------- */

typedef struct {
    uint64_t v;
    bool ok;
} u64_ctx;

static czk_err u64_circuit(czk_cs *cs, void *p) {
    u64_ctx *c = p;
    czk_uint64 a, b, k = czk_uint64_constant(c->v);
    czk_boolean be[64], le[64];
    czk_err e;
    if ((e = czk_uint64_alloc(cs, &a, &c->v))) return e;
    czk_uint64_to_bits_be(be, &a);
    czk_uint64_from_bits_be(&b, be);
    c->ok = b.has_value && b.value == c->v && k.value == c->v;
    czk_uint64_to_bits_le(le, &a);
    czk_uint64_from_bits(&b, le);
    c->ok &= b.has_value && b.value == c->v;
    for (int i = 0; i < 64; i++) c->ok &= be[i].bit.var.index == a.bits[63 - i].bit.var.index;
    bool v;
    for (int i = 0; i < 64; i++) c->ok &= czk_boolean_value(&k.bits[i], &v) && v == ((c->v >> i) & 1);
    return czk_uint64_pack_into_input(cs, &a);
}

static void test_uint64(czk_rng *rng) {
    for (long t = 0; t < test_cases(20); t++) {
        u64_ctx c = {t == 0 ? UINT64_MAX : czk_rng_next(rng), false};
        czk_witness w;
        char msg[128];
        mode_report rep = check_modes(u64_circuit, &c, rng, 0, "uint64");
        CHECK(c.ok && rep.n_inputs == 2 && rep.n_aux == 64 && rep.n_constraints == 65);
        CHECK(czk_witness_generate(&w, u64_circuit, &c, msg, sizeof msg) == CZK_OK);
        czk_fr want;
        czk_fr_from_u64(&want, c.v);
        CHECK(w.n_input == 2 && czk_fr_equal(&w.input[1], &want));
        czk_witness_free(&w);
    }
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_insert");
    test_insert(&rng);
    test_select(&rng);
    test_pick_rows(&rng);
    test_uint64(&rng);
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        CHECK_MSG(czk_mem_in_use((czk_mem_tag)t) == 0, "memory tag %d still in use", t);
    return test_finish("test_insert");
}
