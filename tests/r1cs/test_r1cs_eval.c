/* Random satisfiable circuits through all three modes: same counts and
 * values, A·w ∘ B·w = C·w on every row (threaded evaluation equals the
 * single-threaded one and a naive one), densities equal to bellperson's
 * trackers replayed on the circuit's own LCs, unsatisfied rows reported by
 * path, and every buffer given back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/mem.h"
#include "czk/pool.h"
#include "czk/r1cs.h"
#include "test.h"

typedef struct {
    uint64_t seed;
    size_t n_constraints;
    long unsat_at; /* constraint whose output is off by one; -1: none */
    /* filled by every run */
    czk_fr *in, *aux;
    size_t ni, na, cap;
    /* filled in RECORD mode: bellperson's trackers replayed on the LCs */
    bool *a_aux, *b_in, *b_aux;
} rand_ctx;

static void rand_coeff(czk_fr *c, czk_rng *rng) {
    switch (czk_rng_next(rng) % 5) {
    case 0: czk_fr_set_zero(c); break;
    case 1: czk_fr_set_one(c); break;
    case 2: czk_fr_neg(c, &CZK_FR_ONE); break;
    default: czk_fr_random(c, rng);
    }
}

static czk_var rand_var(rand_ctx *x, czk_rng *rng) {
    uint64_t k = czk_rng_next(rng) % (x->ni + x->na);
    return k < x->ni ? (czk_var){(uint32_t)k, 1} : (czk_var){(uint32_t)(k - x->ni), 0};
}

static void rand_lc(czk_lc *lc, rand_ctx *x, czk_rng *rng) {
    czk_lc_clear(lc);
    int n = (int)(czk_rng_next(rng) % 5);
    for (int i = 0; i < n; i++) {
        czk_fr c;
        rand_coeff(&c, rng);
        czk_var v = rand_var(x, rng);
        if (czk_rng_next(rng) & 1) czk_lc_add(lc, v, &c);
        else czk_lc_sub(lc, v, &c);
    }
}

static czk_err put(czk_cs *cs, rand_ctx *x, bool input, const czk_fr *v, czk_var *out) {
    czk_err e = input ? czk_cs_alloc_input(cs, out, NULL, v) : czk_cs_alloc(cs, out, NULL, v);
    if (e) return e;
    if (input) x->in[x->ni++] = *v;
    else x->aux[x->na++] = *v;
    return CZK_OK;
}

static void track(bool *bits, const czk_lc *lc, bool want_input) {
    for (size_t i = 0; i < lc->len; i++)
        if ((bool)lc->terms[i].var.is_input == want_input && !czk_fr_is_zero(&lc->terms[i].coeff))
            bits[lc->terms[i].var.index] = true;
}

static czk_err rand_circuit(czk_cs *cs, void *p) {
    rand_ctx *x = p;
    czk_rng rng;
    czk_rng_seed(&rng, x->seed);
    bool record = czk_cs_get_mode(cs) == CZK_CS_RECORD, lcs = czk_cs_needs_lc(cs);
    x->ni = 1;
    x->na = 0;
    czk_fr_set_one(&x->in[0]);
    czk_err e = CZK_OK;
    czk_var v;
    czk_fr val;
    for (int i = 0; i < 2 && !e; i++) {
        czk_fr_random(&val, &rng);
        e = put(cs, x, i == 0, &val, &v);
    }
    czk_lc la = {0}, lb = {0}, lc = {0};
    char name[32];
    czk_cs_push_namespace(cs, "rand");
    for (size_t k = 0; k < x->n_constraints && !e; k++) {
        uint64_t r = czk_rng_next(&rng);
        if (r % 8 == 0) {
            czk_fr_random(&val, &rng);
            if ((e = put(cs, x, true, &val, &v))) break;
        }
        if (r % 4 == 1) {
            czk_fr_random(&val, &rng);
            if ((e = put(cs, x, false, &val, &v))) break;
        }
        rand_lc(&la, x, &rng);
        rand_lc(&lb, x, &rng);
        czk_fr va, vb;
        czk_lc_eval(&va, &la, x->in, x->aux);
        czk_lc_eval(&vb, &lb, x->in, x->aux);
        czk_fr_mul(&val, &va, &vb);
        if ((long)k == x->unsat_at) czk_fr_add(&val, &val, &CZK_FR_ONE);
        czk_var w;
        if ((e = put(cs, x, false, &val, &w))) break;
        czk_lc_clear(&lc);
        czk_lc_add(&lc, w, NULL);
        if (r % 3 == 0) { /* + c·u - c·u: a kept zero term */
            czk_fr c;
            czk_fr_random(&c, &rng);
            czk_var u = rand_var(x, &rng);
            czk_lc_add(&lc, u, &c);
            czk_lc_sub(&lc, u, &c);
        }
        if (record) {
            track(x->a_aux, &la, false);
            track(x->b_in, &lb, true);
            track(x->b_aux, &lb, false);
        }
        bool ns = r % 16 == 5;
        if (ns) czk_cs_push_namespace(cs, "inner");
        snprintf(name, sizeof name, "c%zu", k);
        if (lcs) czk_cs_enforce(cs, name, &la, &lb, &lc);
        else czk_cs_enforce(cs, name, NULL, NULL, NULL);
        if (ns) czk_cs_pop_namespace(cs);
    }
    czk_cs_pop_namespace(cs);
    czk_lc_free(&la), czk_lc_free(&lb), czk_lc_free(&lc);
    return e;
}

static void ctx_init(rand_ctx *x, uint64_t seed, size_t nc) {
    memset(x, 0, sizeof *x);
    x->seed = seed;
    x->n_constraints = nc;
    x->unsat_at = -1;
    x->cap = 3 * nc + 8;
    x->in = calloc(x->cap, sizeof(czk_fr));
    x->aux = calloc(x->cap, sizeof(czk_fr));
    x->a_aux = calloc(x->cap, 1);
    x->b_in = calloc(x->cap, 1);
    x->b_aux = calloc(x->cap, 1);
}

static void ctx_free(rand_ctx *x) {
    free(x->in), free(x->aux), free(x->a_aux), free(x->b_in), free(x->b_aux);
}

/* Σ coeff·w over a CSR row, every product computed. */
static void naive_row(czk_fr *out, const czk_csr *m, size_t i, const czk_witness *w) {
    czk_fr acc = {{0}}, t;
    for (uint64_t j = m->row_ptr[i]; j < m->row_ptr[i + 1]; j++) {
        uint32_t col = m->col[j];
        czk_fr_mul(&t, &m->coeff[j], col < w->n_input ? &w->input[col] : &w->aux[col - w->n_input]);
        czk_fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

static bool bits_equal(const czk_bitmap *b, const bool *want, size_t n) {
    if (b->nbits != n) return false;
    for (size_t i = 0; i < n; i++)
        if (czk_bitmap_get(b, i) != want[i]) return false;
    return true;
}

static void one_circuit(uint64_t seed, size_t nc, czk_pool *pool) {
    rand_ctx x;
    ctx_init(&x, seed, nc);
    char msg[256];
    czk_r1cs r;
    czk_witness w;
    czk_err e = czk_r1cs_record(&r, rand_circuit, &x, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "record: %s", msg);
    size_t ni = x.ni, na = x.na;
    czk_bitmap aa, bi, ba;
    CHECK(czk_r1cs_density(&r, &aa, &bi, &ba) == CZK_OK);
    CHECK_MSG(bits_equal(&aa, x.a_aux, na) && bits_equal(&bi, x.b_in, ni) && bits_equal(&ba, x.b_aux, na),
              "seed %llu: densities differ from the replayed trackers", (unsigned long long)seed);
    czk_bitmap_free(&aa), czk_bitmap_free(&bi), czk_bitmap_free(&ba);

    e = czk_witness_generate(&w, rand_circuit, &x, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "witness: %s", msg);
    CHECK(r.n_inputs == ni && r.n_aux == na && r.n_constraints == nc);
    CHECK(w.n_input == ni && w.n_aux == na);
    CHECK(memcmp(w.input, x.in, ni * sizeof(czk_fr)) == 0);
    CHECK(na == 0 || memcmp(w.aux, x.aux, na * sizeof(czk_fr)) == 0);
    CHECK(czk_cs_check(rand_circuit, &x, msg, sizeof msg) == CZK_OK);
    CHECK(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_OK);

    czk_fr *a1, *b1, *c1, *a2, *b2, *c2;
    CHECK(czk_r1cs_eval_abc(&r, &w, &a1, &b1, &c1, NULL) == CZK_OK);
    CHECK(czk_r1cs_eval_abc(&r, &w, &a2, &b2, &c2, pool) == CZK_OK);
    size_t n = nc + ni, bad = 0;
    CHECK(memcmp(a1, a2, n * 32) == 0 && memcmp(b1, b2, n * 32) == 0 && memcmp(c1, c2, n * 32) == 0);
    for (size_t i = 0; i < n; i++) {
        czk_fr t, na_, nb_, nc_;
        if (i < nc) {
            naive_row(&na_, &r.a, i, &w), naive_row(&nb_, &r.b, i, &w), naive_row(&nc_, &r.c, i, &w);
        } else {
            na_ = w.input[i - nc];
            czk_fr_set_zero(&nb_), czk_fr_set_zero(&nc_);
        }
        czk_fr_mul(&t, &a1[i], &b1[i]);
        if (!czk_fr_equal(&t, &c1[i]) || !czk_fr_equal(&na_, &a1[i]) || !czk_fr_equal(&nb_, &b1[i]) ||
            !czk_fr_equal(&nc_, &c1[i]))
            bad++;
    }
    CHECK_MSG(bad == 0, "seed %llu: %zu rows wrong", (unsigned long long)seed, bad);
    /* packed, unpacked: the same values (this circuit's are mostly not
     * small, so its chunks may well be kept as they are) */
    czk_fr_packed *pk[3];
    CHECK(czk_r1cs_eval_abc_packed(&r, &w, &pk[0], &pk[1], &pk[2], seed & 1 ? pool : NULL) == CZK_OK);
    const czk_fr *plain[3] = {a1, b1, c1};
    czk_fr *back = malloc(n * sizeof *back);
    for (int k = 0; k < 3; k++) {
        CHECK(pk[k] && pk[k]->n == n);
        if (!pk[k]) continue;
        czk_fr_packed_unpack(pk[k], back, pool);
        CHECK_MSG(memcmp(back, plain[k], n * sizeof *back) == 0, "seed %llu: packed %c differs",
                  (unsigned long long)seed, "abc"[k]);
        czk_fr_packed_free(pk[k]);
    }
    free(back);
    czk_mem_free(a1), czk_mem_free(b1), czk_mem_free(c1), czk_mem_free(a2), czk_mem_free(b2), czk_mem_free(c2);

    /* a mismatched witness is refused */
    w.n_aux++;
    CHECK(czk_r1cs_eval_abc(&r, &w, &a1, &b1, &c1, NULL) == CZK_ERR_MISMATCH && a1 == NULL);
    CHECK(czk_r1cs_eval_abc_packed(&r, &w, &pk[0], &pk[1], &pk[2], NULL) == CZK_ERR_MISMATCH && pk[0] == NULL);
    w.n_aux--;
    czk_witness_free(&w);

    /* an unsatisfying witness: reported by path, and by row on the R1CS */
    if (nc > 0) {
        x.unsat_at = (long)(seed % nc);
        CHECK(czk_cs_check(rand_circuit, &x, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
        char want[64];
        snprintf(want, sizeof want, "rand/c%ld", x.unsat_at);
        char want2[64];
        snprintf(want2, sizeof want2, "rand/inner/c%ld", x.unsat_at);
        CHECK_MSG(strcmp(msg, want) == 0 || strcmp(msg, want2) == 0, "got \"%s\", want \"%s\"", msg, want);
        CHECK(czk_witness_generate(&w, rand_circuit, &x, msg, sizeof msg) == CZK_OK);
        CHECK(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
        snprintf(want, sizeof want, "constraint %ld ", x.unsat_at);
        CHECK_MSG(strstr(msg, want) != NULL, "got \"%s\"", msg);
        czk_witness_free(&w);
    }
    czk_r1cs_free(&r);
    ctx_free(&x);
}

/* The packed evaluation over more than one chunk of rows: row i is
 * aux_i·(k_i·1) = c with a SHA-like witness (small values, a few other),
 * built by hand so that 2 chunks of rows stay cheap: a = aux·k (k = 1 or
 * 3), b = k, c = 0 (not satisfied, which evaluation does not care about). */
static void two_chunks(czk_rng *rng, czk_pool *pool) {
    const size_t nc = CZK_FR_PACK_MAX + 4321, ni = 2, n = nc + ni;
    czk_r1cs r = {.n_inputs = ni, .n_aux = nc, .n_constraints = nc};
    czk_witness w = {czk_mem_alloc(ni * sizeof(czk_fr), CZK_MEM_SYNTH), ni,
                     czk_mem_alloc(nc * sizeof(czk_fr), CZK_MEM_SYNTH), nc};
    czk_csr *m[3] = {&r.a, &r.b, &r.c};
    for (int k = 0; k < 3; k++) m[k]->row_ptr = czk_mem_alloc((nc + 1) * sizeof(uint64_t), CZK_MEM_R1CS);
    r.a.col = czk_mem_alloc(nc * sizeof(uint32_t), CZK_MEM_R1CS);
    r.a.coeff = czk_mem_alloc(nc * sizeof(czk_fr), CZK_MEM_R1CS);
    r.b.col = czk_mem_alloc(nc * sizeof(uint32_t), CZK_MEM_R1CS);
    r.b.coeff = czk_mem_alloc(nc * sizeof(czk_fr), CZK_MEM_R1CS);
    CHECK(w.input && w.aux && r.a.row_ptr && r.b.row_ptr && r.c.row_ptr && r.a.col && r.a.coeff && r.b.col &&
          r.b.coeff);
    if (!w.input || !w.aux || !r.a.coeff || !r.b.coeff || !r.c.row_ptr) goto out;
    r.a.nnz = r.b.nnz = nc;
    w.input[0] = CZK_FR_ONE;
    czk_fr_random(&w.input[1], rng);
    czk_fr three;
    czk_fr_add(&three, &CZK_FR_ONE, &CZK_FR_ONE);
    czk_fr_add(&three, &three, &CZK_FR_ONE);
    for (size_t i = 0; i < nc; i++) {
        const uint64_t x = czk_rng_next(rng);
        if (x % 100 == 0) czk_fr_random(&w.aux[i], rng);
        else if (x & 2) w.aux[i] = CZK_FR_ONE; /* else 0 */
        const czk_fr *k = (x >> 8) % 5 ? &CZK_FR_ONE : &three;
        r.a.row_ptr[i + 1] = r.b.row_ptr[i + 1] = i + 1;
        r.a.col[i] = (uint32_t)(ni + i), r.a.coeff[i] = *k;
        r.b.col[i] = 0, r.b.coeff[i] = *k;
    }
    czk_fr_packed *pk[3];
    CHECK(czk_r1cs_eval_abc_packed(&r, &w, &pk[0], &pk[1], &pk[2], pool) == CZK_OK);
    czk_fr *back = malloc(n * sizeof *back);
    for (int k = 0; k < 3; k++) {
        CHECK_MSG(pk[k] && pk[k]->n == n && pk[k]->n_chunks == 2 && pk[k]->chunks[0].packed &&
                      pk[k]->chunks[1].packed && czk_fr_packed_bytes(pk[k]) < n * 3,
                  "%c: %zu chunks, %zu bytes", "abc"[k], pk[k] ? pk[k]->n_chunks : 0, czk_fr_packed_bytes(pk[k]));
        if (!pk[k] || !back) continue;
        czk_fr_packed_unpack(pk[k], back, pool);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            czk_fr want;
            if (i >= nc) want = k == 0 ? w.input[i - nc] : (czk_fr){{0}};
            else if (k == 0) czk_fr_mul(&want, &w.aux[i], &r.a.coeff[i]);
            else if (k == 1) want = r.b.coeff[i];
            else want = (czk_fr){{0}};
            bad += !czk_fr_equal(&back[i], &want);
        }
        CHECK_MSG(bad == 0, "two chunks, %c: %zu of %zu values wrong", "abc"[k], bad, n);
        czk_fr_packed_free(pk[k]);
    }
    free(back);
out:
    czk_witness_free(&w);
    czk_r1cs_free(&r);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_r1cs_eval");
    czk_pool *pool;
    if (czk_pool_create(&pool, 4) != CZK_OK) return 1;
    long cases = test_cases(60);
    for (long t = 0; t < cases; t++) one_circuit(czk_rng_next(&rng), (size_t)(czk_rng_next(&rng) % 300), pool);
    one_circuit(czk_rng_next(&rng), (size_t)test_cases(40000), pool);
    two_chunks(&rng, pool);
    czk_pool_destroy(pool);
    for (int t = 0; t < CZK_MEM__COUNT; t++)
        CHECK_MSG(czk_mem_in_use((czk_mem_tag)t) == 0, "tag %s still holds bytes", czk_mem_tag_name((czk_mem_tag)t));
    return test_finish("test_r1cs_eval");
}
