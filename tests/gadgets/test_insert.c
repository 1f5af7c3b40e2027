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

/* ---- running a gadget circuit in all modes ------------------------------------ */

typedef czk_err (*gadget_fn)(czk_cs *cs, void *ctx);

/* Perturbations only touch aux >= flip_lo (set by a circuit before its
 * gadget: free inputs below it are unconstrained by design). */
static size_t flip_lo;

typedef struct {
    gadget_fn fn;
    void *ctx;
    czk_fr *aux; /* values seen at the end of the RECORD run */
    size_t n_aux, n_inputs, n_constraints;
} capture;

static czk_err capture_run(czk_cs *cs, void *p) {
    capture *c = p;
    czk_err e = c->fn(cs, c->ctx);
    if (e) return e;
    c->n_aux = czk_cs_num_aux(cs);
    c->n_inputs = czk_cs_num_inputs(cs);
    c->n_constraints = czk_cs_num_constraints(cs);
    if (czk_cs_get_mode(cs) == CZK_CS_RECORD) {
        free(c->aux);
        c->aux = malloc((c->n_aux + 1) * sizeof *c->aux);
        for (size_t i = 0; i < c->n_aux; i++)
            if (!czk_cs_value(cs, (czk_var){(uint32_t)i, 0}, &c->aux[i])) return CZK_ERR_SYNTHESIS;
    }
    return CZK_OK;
}

typedef struct {
    size_t n_aux, n_inputs, n_constraints;
    bool ok;
} mode_report;

/* Records fn (bit-level path), generates its witness (WITNESS path), and
 * checks: equal counts and values, the witness satisfies the R1CS, CHECK
 * mode passes, and `flips` random aux perturbations are each caught. */
static mode_report check_modes(gadget_fn fn, void *ctx, czk_rng *rng, int flips, const char *label) {
    mode_report rep = {0};
    char msg[256];
    capture rc = {fn, ctx, NULL, 0, 0, 0}, wc = {fn, ctx, NULL, 0, 0, 0};
    czk_r1cs r = {0};
    czk_witness w = {0};
    flip_lo = 0;
    czk_err e = czk_r1cs_record(&r, capture_run, &rc, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: record: %s", label, msg);
    if (e) return rep;
    e = czk_witness_generate(&w, capture_run, &wc, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: witness: %s", label, msg);
    if (e) goto out;
    bool same = w.n_aux == r.n_aux && w.n_input == r.n_inputs && wc.n_constraints == r.n_constraints &&
                rc.n_constraints == r.n_constraints;
    CHECK_MSG(same, "%s: counts differ: aux %zu/%zu inputs %zu/%zu constraints %zu/%zu", label, w.n_aux, r.n_aux,
              w.n_input, r.n_inputs, wc.n_constraints, r.n_constraints);
    if (!same) goto out;
    size_t bad = 0;
    for (size_t i = 0; i < r.n_aux; i++)
        if (!czk_fr_equal(&rc.aux[i], &w.aux[i])) bad++;
    CHECK_MSG(bad == 0, "%s: %zu aux values differ between RECORD and WITNESS", label, bad);
    e = czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: witness does not satisfy the R1CS: %s", label, msg);
    e = czk_cs_check(fn, ctx, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: CHECK mode: %s", label, msg);
    for (int f = 0; f < flips && r.n_aux > flip_lo; f++) {
        size_t i = flip_lo + czk_rng_next(rng) % (r.n_aux - flip_lo);
        czk_fr keep = w.aux[i];
        if (czk_fr_is_zero(&w.aux[i])) w.aux[i] = CZK_FR_ONE; /* a bit is flipped, anything else moved */
        else if (czk_fr_is_one(&w.aux[i])) czk_fr_set_zero(&w.aux[i]);
        else czk_fr_add(&w.aux[i], &w.aux[i], &CZK_FR_ONE);
        e = czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_UNSATISFIED, "%s: flipping aux %zu went unnoticed", label, i);
        w.aux[i] = keep;
    }
    rep = (mode_report){r.n_aux, r.n_inputs, r.n_constraints, bad == 0};
out:
    free(rc.aux);
    free(wc.aux);
    czk_r1cs_free(&r);
    czk_witness_free(&w);
    return rep;
}

/* The row of m as (global column, small signed coefficient) pairs; true
 * when it equals want (n pairs). */
__attribute__((unused)) static bool row_is(const czk_csr *m, size_t row, const int64_t (*want)[2], size_t n) {
    size_t lo = m->row_ptr[row], hi = m->row_ptr[row + 1];
    if (hi - lo != n) return false;
    for (size_t k = 0; k < n; k++) {
        czk_fr c;
        czk_fr_from_u64(&c, (uint64_t)(want[k][1] < 0 ? -want[k][1] : want[k][1]));
        if (want[k][1] < 0) czk_fr_neg(&c, &c);
        if (m->col[lo + k] != (uint32_t)want[k][0] || !czk_fr_equal(&m->coeff[lo + k], &c)) return false;
    }
    return true;
}

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
