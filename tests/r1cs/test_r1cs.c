/* The constraint-system builder: bellpepper's LC ordering and merging (against
 * a dense model), the exact CSR of a hand-written circuit, densities, the
 * three modes on it, unsatisfied paths, and error propagation without leaks. */
#include <string.h>

#include "czk/mem.h"
#include "czk/r1cs.h"
#include "test.h"

static czk_fr fr(int64_t v) {
    czk_fr r;
    czk_fr_from_u64(&r, (uint64_t)(v < 0 ? -v : v));
    if (v < 0) czk_fr_neg(&r, &r);
    return r;
}

static bool fr_is(const czk_fr *a, int64_t v) {
    czk_fr b = fr(v);
    return czk_fr_equal(a, &b);
}

static bool mem_idle(void) {
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        if (czk_mem_in_use((czk_mem_tag)t) || czk_mem_buffers((czk_mem_tag)t)) return false;
    return true;
}

/* ---- LC semantics against a dense model -------------------------------------- */

#define NV 12 /* variables 0..5 inputs, 6..11 aux */
static czk_var model_var(int i) { return i < 6 ? (czk_var){(uint32_t)i, 1} : (czk_var){(uint32_t)(i - 6), 0}; }

typedef struct {
    bool present[NV];
    czk_fr coeff[NV];
} dense;

static void dense_add(dense *d, int i, const czk_fr *c) {
    if (!d->present[i]) czk_fr_set_zero(&d->coeff[i]);
    d->present[i] = true;
    czk_fr_add(&d->coeff[i], &d->coeff[i], c);
}

static void check_lc_matches(const czk_lc *lc, const dense *d) {
    size_t k = 0;
    bool ok = true;
    for (int i = 0; i < NV; i++) { /* model order: inputs ascending, then aux ascending */
        if (!d->present[i]) continue;
        czk_var v = model_var(i);
        if (k >= lc->len || lc->terms[k].var.index != v.index || lc->terms[k].var.is_input != v.is_input ||
            !czk_fr_equal(&lc->terms[k].coeff, &d->coeff[i]))
            ok = false;
        k++;
    }
    CHECK_MSG(ok && k == lc->len, "LC differs from the dense model (len %zu vs %zu)", lc->len, k);
}

static void test_lc_random(czk_rng *rng) {
    long cases = test_cases(2000);
    czk_fr small[4] = {fr(0), fr(1), fr(-1), fr(5)};
    for (long t = 0; t < cases; t++) {
        czk_lc lc, other;
        czk_lc_init(&lc);
        czk_lc_init(&other);
        dense d = {0}, od = {0};
        int nops = (int)(czk_rng_next(rng) % 20);
        for (int j = 0; j < (int)(czk_rng_next(rng) % 6); j++) { /* other, built by adds only */
            int i = (int)(czk_rng_next(rng) % NV);
            czk_fr c = small[czk_rng_next(rng) % 4];
            czk_lc_add(&other, model_var(i), &c);
            dense_add(&od, i, &c);
        }
        check_lc_matches(&other, &od);
        for (int j = 0; j < nops; j++) {
            int i = (int)(czk_rng_next(rng) % NV);
            czk_fr c;
            if (czk_rng_next(rng) & 1) czk_fr_random(&c, rng);
            else c = small[czk_rng_next(rng) % 4];
            czk_fr neg;
            czk_fr_neg(&neg, &c);
            switch (czk_rng_next(rng) % 6) {
            case 0: czk_lc_add(&lc, model_var(i), &c); dense_add(&d, i, &c); break;
            case 1: czk_lc_add(&lc, model_var(i), NULL); dense_add(&d, i, &CZK_FR_ONE); break;
            case 2: czk_lc_sub(&lc, model_var(i), &c); dense_add(&d, i, &neg); break;
            case 3: {
                czk_fr m1;
                czk_fr_neg(&m1, &CZK_FR_ONE);
                czk_lc_sub(&lc, model_var(i), NULL);
                dense_add(&d, i, &m1);
                break;
            }
            case 4:
            case 5: {
                bool sub = czk_rng_next(rng) & 1, unit = czk_rng_next(rng) & 1;
                if (sub) czk_lc_sub_lc(&lc, &other, unit ? NULL : &c);
                else czk_lc_add_lc(&lc, &other, unit ? NULL : &c);
                for (int v = 0; v < NV; v++) { /* other iterates in its own (model) order */
                    if (!od.present[v]) continue;
                    czk_fr x = od.coeff[v];
                    if (!unit) czk_fr_mul(&x, &x, &c);
                    if (sub) czk_fr_neg(&x, &x);
                    dense_add(&d, v, &x);
                }
                break;
            }
            }
        }
        check_lc_matches(&lc, &d);
        CHECK(!lc.failed);
        czk_lc_clear(&lc);
        CHECK(lc.len == 0);
        czk_lc_free(&lc);
        czk_lc_free(&other);
    }
}

static void test_lc_fixed(void) {
    czk_lc lc = {0};
    czk_fr two = fr(2), zero = fr(0);
    czk_var a0 = {0, 0}, a3 = {3, 0}, x1 = {1, 1};
    czk_lc_add(&lc, a3, NULL);
    czk_lc_add(&lc, a0, &two);
    czk_lc_add(&lc, x1, NULL);
    czk_lc_sub(&lc, a3, NULL); /* a3 merges to a kept zero */
    czk_lc_add(&lc, CZK_VAR_ONE, &zero);
    CHECK(lc.len == 4);
    CHECK(lc.terms[0].var.is_input && lc.terms[0].var.index == 0 && czk_fr_is_zero(&lc.terms[0].coeff));
    CHECK(lc.terms[1].var.is_input && lc.terms[1].var.index == 1 && czk_fr_is_one(&lc.terms[1].coeff));
    CHECK(!lc.terms[2].var.is_input && lc.terms[2].var.index == 0 && fr_is(&lc.terms[2].coeff, 2));
    CHECK(!lc.terms[3].var.is_input && lc.terms[3].var.index == 3 && czk_fr_is_zero(&lc.terms[3].coeff));
    czk_fr in[2] = {fr(1), fr(10)}, aux[4] = {fr(3), fr(0), fr(0), fr(7)}, v;
    czk_lc_eval(&v, &lc, in, aux);
    CHECK(fr_is(&v, 16));
    czk_lc_free(&lc);
}

/* ---- a hand-written circuit with a known CSR -------------------------------- */

typedef struct {
    int64_t b_value; /* 6 satisfies "demo/mul" */
    int64_t sq_value; /* 25 satisfies "demo/round 3/square" */
    int fail_at;     /* return CZK_ERR_SYNTHESIS after this many constraints (0: never) */
    bool null_value; /* allocate b without a value */
    bool bad_var;    /* use an unallocated variable */
} hand_ctx;

static czk_err hand_circuit(czk_cs *cs, void *p) {
    hand_ctx *h = p;
    czk_fr v3 = fr(3), v2 = fr(2), vb = fr(h->b_value), v5 = fr(5), vsq = fr(h->sq_value), v8 = fr(8), zero = fr(0);
    czk_var x, a, b, y, s, t;
    czk_err e;
    if ((e = czk_cs_alloc_input(cs, &x, "x", &v3))) return e; /* input 1 */
    if ((e = czk_cs_alloc(cs, &a, "a", &v2))) return e;       /* aux 0 */
    if ((e = czk_cs_alloc(cs, &b, "b", h->null_value ? NULL : &vb))) return e; /* aux 1 */
    czk_lc la = {0}, lb = {0}, lc = {0};
    czk_cs_push_namespace(cs, "demo");
    /* row 0: a · x = b */
    czk_lc_add(&la, a, NULL);
    czk_lc_add(&lb, x, NULL);
    czk_lc_add(&lc, b, NULL);
    czk_cs_enforce(cs, "mul", &la, &lb, &lc);
    if (h->fail_at == 1) {
        czk_lc_free(&la), czk_lc_free(&lb), czk_lc_free(&lc);
        return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "stop after %d", h->fail_at);
    }
    if ((e = czk_cs_alloc_input(cs, &y, "y", &v5))) goto out; /* input 2, after aux */
    /* row 1: (0·ONE + 1·a + 1·b) · ONE = 8·ONE, built out of order with merges */
    czk_lc_clear(&la), czk_lc_clear(&lb), czk_lc_clear(&lc);
    czk_lc_add(&la, b, NULL);
    czk_lc_add(&la, a, &v2);
    czk_lc_sub(&la, a, NULL);
    czk_lc_add(&la, CZK_VAR_ONE, NULL);
    czk_lc_sub(&la, CZK_VAR_ONE, NULL);
    czk_lc_add(&lb, CZK_VAR_ONE, NULL);
    czk_lc_add(&lc, CZK_VAR_ONE, &v8);
    czk_cs_enforce(cs, "lin", &la, &lb, &lc);
    czk_cs_push_namespace(cs, "round 3");
    if ((e = czk_cs_alloc(cs, &s, "s", &vsq))) goto out; /* aux 2 */
    /* row 2: y · (ONE + 0·b) = s - 20·ONE + 0·a  → y·1 = s - 20 (5 = 25 - 20) */
    czk_lc_clear(&la), czk_lc_clear(&lb), czk_lc_clear(&lc);
    czk_lc_add(&la, y, NULL);
    czk_lc_add(&lb, b, &zero);
    czk_lc_add(&lb, CZK_VAR_ONE, NULL);
    czk_lc_add(&lc, a, &zero);
    czk_lc_add(&lc, s, NULL);
    czk_fr v20 = fr(20);
    czk_lc_sub(&lc, CZK_VAR_ONE, &v20);
    if (h->bad_var) czk_lc_add(&lc, (czk_var){7, 0}, NULL);
    czk_cs_enforce(cs, "square", &la, &lb, &lc);
    czk_cs_pop_namespace(cs);
    czk_cs_pop_namespace(cs);
    if ((e = czk_cs_alloc(cs, &t, NULL, &v5))) goto out; /* aux 3: unconstrained */
    /* row 3: empty · empty = empty (NULL lcs), unnamed */
    czk_cs_enforce(cs, NULL, NULL, NULL, NULL);
out:
    czk_lc_free(&la), czk_lc_free(&lb), czk_lc_free(&lc);
    return e;
}

typedef struct {
    uint64_t row_ptr[5];
    uint32_t col[8];
    int64_t coeff[8];
} want_csr;

static void check_csr(const char *name, const czk_csr *m, const want_csr *w, size_t rows) {
    bool ok = true;
    for (size_t i = 0; i <= rows; i++) ok &= m->row_ptr[i] == w->row_ptr[i];
    CHECK_MSG(ok, "%s: row pointers", name);
    CHECK_MSG(m->nnz == w->row_ptr[rows], "%s: nnz %llu", name, (unsigned long long)m->nnz);
    for (uint64_t j = 0; ok && j < m->nnz; j++) {
        CHECK_MSG(m->col[j] == w->col[j], "%s: col[%llu] = %u, want %u", name, (unsigned long long)j, m->col[j],
                  w->col[j]);
        CHECK_MSG(fr_is(&m->coeff[j], w->coeff[j]), "%s: coeff[%llu]", name, (unsigned long long)j);
    }
}

static void test_hand_record(void) {
    hand_ctx h = {6, 25, 0, false, false};
    czk_r1cs r;
    char msg[256];
    czk_err e = czk_r1cs_record(&r, hand_circuit, &h, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    if (e) return;
    CHECK(r.n_inputs == 3 && r.n_aux == 4 && r.n_constraints == 4);
    /* columns: inputs 0..2 (ONE, x, y), aux k is 3 + k */
    want_csr A = {{0, 1, 4, 5, 5}, {3, 0, 3, 4, 2}, {1, 0, 1, 1, 1}};
    want_csr B = {{0, 1, 2, 4, 4}, {1, 0, 0, 4}, {1, 1, 1, 0}};
    want_csr C = {{0, 1, 2, 5, 5}, {4, 0, 0, 3, 5}, {1, 8, -20, 0, 1}};
    check_csr("A", &r.a, &A, 4);
    check_csr("B", &r.b, &B, 4);
    check_csr("C", &r.c, &C, 4);
    CHECK(czk_mem_in_use(CZK_MEM_R1CS) > 0);

    czk_bitmap aa, bi, ba;
    CHECK(czk_r1cs_density(&r, &aa, &bi, &ba) == CZK_OK);
    CHECK(aa.nbits == 4 && bi.nbits == 3 && ba.nbits == 4);
    CHECK(czk_bitmap_get(&aa, 0) && czk_bitmap_get(&aa, 1) && !czk_bitmap_get(&aa, 2) && !czk_bitmap_get(&aa, 3));
    CHECK(czk_bitmap_get(&bi, 0) && czk_bitmap_get(&bi, 1) && !czk_bitmap_get(&bi, 2));
    CHECK(czk_bitmap_count(&ba) == 0); /* b appears in B only with a zero coefficient */
    czk_bitmap_free(&aa), czk_bitmap_free(&bi), czk_bitmap_free(&ba);

    czk_witness w;
    e = czk_witness_generate(&w, hand_circuit, &h, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    if (!e) {
        CHECK(w.n_input == 3 && w.n_aux == 4);
        CHECK(fr_is(&w.input[0], 1) && fr_is(&w.input[1], 3) && fr_is(&w.input[2], 5));
        CHECK(fr_is(&w.aux[0], 2) && fr_is(&w.aux[1], 6) && fr_is(&w.aux[2], 25) && fr_is(&w.aux[3], 5));
        CHECK(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_OK);
        czk_fr *a, *b, *c;
        CHECK(czk_r1cs_eval_abc(&r, &w, &a, &b, &c, NULL) == CZK_OK);
        int64_t wa[7] = {2, 8, 5, 0, 1, 3, 5}, wb[7] = {3, 1, 1, 0, 0, 0, 0}, wc[7] = {6, 8, 5, 0, 0, 0, 0};
        for (int i = 0; i < 7; i++) CHECK_MSG(fr_is(&a[i], wa[i]) && fr_is(&b[i], wb[i]) && fr_is(&c[i], wc[i]), "row %d", i);
        CHECK(czk_mem_in_use(CZK_MEM_ABC) == 3 * czk_mem_size(a));
        czk_mem_free(a), czk_mem_free(b), czk_mem_free(c);
        czk_witness_free(&w);
    }
    czk_r1cs_free(&r);
    CHECK(r.a.row_ptr == NULL && r.n_constraints == 0);
    czk_r1cs_free(&r); /* a zeroed r is fine */
    CHECK(mem_idle());
}

static void test_hand_check(void) {
    char msg[256];
    hand_ctx ok = {6, 25, 0, false, false};
    CHECK(czk_cs_check(hand_circuit, &ok, msg, sizeof msg) == CZK_OK);

    hand_ctx bad1 = {7, 26, 0, false, false}; /* both fail: the first is reported */
    CHECK(czk_cs_check(hand_circuit, &bad1, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
    CHECK_MSG(strcmp(msg, "demo/mul") == 0, "got \"%s\"", msg);

    hand_ctx bad2 = {6, 24, 0, false, false};
    CHECK(czk_cs_check(hand_circuit, &bad2, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
    CHECK_MSG(strcmp(msg, "demo/round 3/square") == 0, "got \"%s\"", msg);

    /* the witness of an unsatisfying assignment fails is_satisfied at the same row */
    czk_r1cs r;
    czk_witness w;
    CHECK(czk_r1cs_record(&r, hand_circuit, &ok, msg, sizeof msg) == CZK_OK);
    CHECK(czk_witness_generate(&w, hand_circuit, &bad2, msg, sizeof msg) == CZK_OK);
    CHECK(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
    CHECK_MSG(strstr(msg, "constraint 2 ") != NULL, "got \"%s\"", msg);
    czk_witness_free(&w);
    czk_r1cs_free(&r);
    CHECK(mem_idle());
}

static void test_hand_errors(void) {
    char msg[256];
    czk_r1cs r;
    czk_witness w;
    hand_ctx stop = {6, 25, 1, false, false};
    CHECK(czk_r1cs_record(&r, hand_circuit, &stop, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK_MSG(strstr(msg, "stop after 1") != NULL, "got \"%s\"", msg);
    CHECK(r.a.row_ptr == NULL);
    CHECK(czk_witness_generate(&w, hand_circuit, &stop, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK(w.input == NULL && w.aux == NULL);
    CHECK(czk_cs_check(hand_circuit, &stop, msg, sizeof msg) == CZK_ERR_SYNTHESIS);

    /* a missing value: fine when recording, an error otherwise */
    hand_ctx nv = {6, 25, 0, true, false};
    CHECK(czk_r1cs_record(&r, hand_circuit, &nv, msg, sizeof msg) == CZK_OK);
    CHECK(r.n_aux == 4);
    czk_r1cs_free(&r);
    CHECK(czk_witness_generate(&w, hand_circuit, &nv, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK_MSG(strstr(msg, "aux variable 1 (b) has no value") != NULL, "got \"%s\"", msg);
    CHECK(czk_cs_check(hand_circuit, &nv, msg, sizeof msg) == CZK_ERR_SYNTHESIS);

    /* a term on an unallocated variable */
    hand_ctx bv = {6, 25, 0, false, true};
    CHECK(czk_r1cs_record(&r, hand_circuit, &bv, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK_MSG(strstr(msg, "not allocated") != NULL, "got \"%s\"", msg);
    CHECK(czk_cs_check(hand_circuit, &bv, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK(mem_idle());
}

/* ---- mode queries and values ------------------------------------------------ */

typedef struct {
    czk_cs_mode mode;
    bool needs_lc, known_before, known_after;
    size_t ni, na, nc;
} probe_ctx;

static czk_err probe_circuit(czk_cs *cs, void *p) {
    probe_ctx *x = p;
    x->mode = czk_cs_get_mode(cs);
    x->needs_lc = czk_cs_needs_lc(cs);
    czk_fr v = fr(9), out;
    czk_var a, b;
    czk_cs_pop_namespace(cs); /* pop without push is ignored */
    czk_err e = czk_cs_alloc(cs, &a, "a", &v);
    if (e) return e;
    x->known_before = czk_cs_value(cs, a, &out) && fr_is(&out, 9) && czk_cs_value(cs, CZK_VAR_ONE, &out) &&
                      czk_fr_is_one(&out) && !czk_cs_value(cs, (czk_var){1, 0}, &out);
    if (x->mode == CZK_CS_RECORD) {
        if ((e = czk_cs_alloc(cs, &b, "b", NULL))) return e;
        x->known_after = czk_cs_value(cs, a, &out);
    }
    x->ni = czk_cs_num_inputs(cs);
    x->na = czk_cs_num_aux(cs);
    czk_cs_enforce(cs, "e", NULL, NULL, NULL);
    x->nc = czk_cs_num_constraints(cs);
    return CZK_OK;
}

static void test_modes(void) {
    char msg[128];
    probe_ctx x;
    czk_r1cs r;
    czk_witness w;
    memset(&x, 0, sizeof x);
    CHECK(czk_r1cs_record(&r, probe_circuit, &x, msg, sizeof msg) == CZK_OK);
    CHECK(x.mode == CZK_CS_RECORD && x.needs_lc && x.known_before && !x.known_after && x.ni == 1 && x.na == 2 &&
          x.nc == 1);
    czk_r1cs_free(&r);
    memset(&x, 0, sizeof x);
    CHECK(czk_witness_generate_reserve(&w, probe_circuit, &x, 4, 1000, msg, sizeof msg) == CZK_OK);
    CHECK(x.mode == CZK_CS_WITNESS && !x.needs_lc && x.known_before && x.ni == 1 && x.na == 1 && x.nc == 1);
    CHECK(w.n_input == 1 && w.n_aux == 1 && czk_mem_size(w.aux) >= 1000 * sizeof(czk_fr));
    czk_witness_free(&w);
    memset(&x, 0, sizeof x);
    CHECK(czk_cs_check(probe_circuit, &x, msg, sizeof msg) == CZK_OK);
    CHECK(x.mode == CZK_CS_CHECK && x.needs_lc && x.known_before);
    CHECK(mem_idle());
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_r1cs");
    test_lc_fixed();
    test_lc_random(&rng);
    test_hand_record();
    test_hand_check();
    test_hand_errors();
    test_modes();
    return test_finish("test_r1cs");
}
