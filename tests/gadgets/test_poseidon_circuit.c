/* The Poseidon circuit (neptune 11 legacy circuit::poseidon_hash): constraint
 * counts, the output against the native hash, satisfaction in every mode, a
 * flipped witness value caught, identical assignments from RECORD and
 * WITNESS, identical R1CS with and without values, and the exact shape of
 * the first constraints. */
#include <string.h>

#include "czk/gadget_poseidon.h"
#include "czk/mem.h"
#include "test.h"

typedef struct {
    unsigned arity;
    bool values; /* false: RECORD without a witness */
    czk_fr in[CZK_POSEIDON_MAX_ARITY];
    czk_num out;
    czk_fr *aux_dump; /* RECORD with values: the aux assignment, read back */
    size_t n_aux;
} ctx;

static czk_err circuit(czk_cs *cs, void *p) {
    ctx *x = p;
    czk_num in[CZK_POSEIDON_MAX_ARITY];
    czk_err e;
    for (unsigned i = 0; i < x->arity; i++)
        if ((e = czk_num_alloc(cs, &in[i], x->values ? &x->in[i] : NULL))) return e;
    czk_cs_push_namespace(cs, "hash");
    e = czk_poseidon_hash_gadget(cs, &x->out, in, x->arity);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    x->n_aux = czk_cs_num_aux(cs);
    if (x->aux_dump && czk_cs_get_mode(cs) == CZK_CS_RECORD) {
        for (size_t i = 0; i < x->n_aux; i++)
            if (!czk_cs_value(cs, (czk_var){(uint32_t)i, 0}, &x->aux_dump[i])) return CZK_ERR_SYNTHESIS;
    }
    return CZK_OK;
}

static bool csr_equal(const czk_csr *a, const czk_csr *b, size_t rows) {
    if (a->nnz != b->nnz) return false;
    if (memcmp(a->row_ptr, b->row_ptr, (rows + 1) * sizeof *a->row_ptr)) return false;
    if (a->nnz && memcmp(a->col, b->col, a->nnz * sizeof *a->col)) return false;
    if (a->nnz && memcmp(a->coeff, b->coeff, a->nnz * sizeof *a->coeff)) return false;
    return true;
}

static void test_arity(unsigned arity, size_t want, czk_rng *rng) {
    char msg[256] = "";
    const czk_poseidon_constants *k = czk_poseidon_constants_get(arity);
    CHECK(k != NULL);
    if (!k) return;
    CHECK_MSG(czk_poseidon_gadget_constraints(arity) == want, "arity %u formula", arity);

    ctx x = {.arity = arity, .values = true};
    for (unsigned i = 0; i < arity; i++) czk_fr_random(&x.in[i], rng);
    czk_fr native;
    czk_poseidon_hash_with(&native, k, x.in);

    /* RECORD with values, dumping the assignment */
    czk_r1cs r;
    x.aux_dump = malloc(4096 * sizeof(czk_fr));
    czk_err e = czk_r1cs_record(&r, circuit, &x, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "record: %s", msg);
    if (e) {
        free(x.aux_dump);
        return;
    }
    CHECK_MSG(r.n_constraints == want, "arity %u: %zu constraints, want %zu", arity, r.n_constraints, want);
    CHECK(r.n_inputs == 1);
    CHECK(x.out.has_value && czk_fr_equal(&x.out.value, &native));

    /* RECORD without values: the same matrices */
    ctx blank = {.arity = arity, .values = false};
    czk_r1cs r0;
    e = czk_r1cs_record(&r0, circuit, &blank, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "blank record: %s", msg);
    if (e == CZK_OK) {
        CHECK(r0.n_constraints == r.n_constraints && r0.n_aux == r.n_aux);
        CHECK(csr_equal(&r0.a, &r.a, r.n_constraints));
        CHECK(csr_equal(&r0.b, &r.b, r.n_constraints));
        CHECK(csr_equal(&r0.c, &r.c, r.n_constraints));
        CHECK(!blank.out.has_value);
        czk_r1cs_free(&r0);
    }

    /* WITNESS: the same assignment, satisfying the recorded system */
    czk_witness w;
    ctx xw = x;
    xw.aux_dump = NULL;
    e = czk_witness_generate(&w, circuit, &xw, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "witness: %s", msg);
    if (e == CZK_OK) {
        CHECK(w.n_aux == r.n_aux && w.n_input == 1);
        CHECK(memcmp(w.aux, x.aux_dump, r.n_aux * sizeof(czk_fr)) == 0);
        CHECK(czk_fr_equal(&xw.out.value, &native));
        e = czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "satisfied: %s", msg);
        /* flip single values: each is caught */
        for (int t = 0; t < 8; t++) {
            size_t i = czk_rng_next(rng) % w.n_aux;
            czk_fr keep = w.aux[i];
            czk_fr_add(&w.aux[i], &w.aux[i], &CZK_FR_ONE);
            CHECK_MSG(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_ERR_UNSATISFIED, "flip aux %zu", i);
            w.aux[i] = keep;
        }
        czk_witness_free(&w);
    }

    /* CHECK mode */
    ctx xc = x;
    xc.aux_dump = NULL;
    e = czk_cs_check(circuit, &xc, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "check: %s", msg);
    CHECK(czk_fr_equal(&xc.out.value, &native));

    /* the first constraint: "squared sum constraint" of input 1,
     * (x1 + k1·ONE)·(x1 + k1·ONE) = s; k1 the second compressed constant */
    const czk_fr *k1 = &k->compressed_round_constants[1];
    uint64_t a0 = r.a.row_ptr[0], a1 = r.a.row_ptr[1];
    CHECK(a1 - a0 == 2);
    if (a1 - a0 == 2) {
        CHECK(r.a.col[a0] == 0 && czk_fr_equal(&r.a.coeff[a0], k1));
        CHECK(r.a.col[a0 + 1] == 1 && czk_fr_is_one(&r.a.coeff[a0 + 1])); /* aux 0 = x1 */
    }
    CHECK(r.c.row_ptr[1] - r.c.row_ptr[0] == 1 && r.c.col[0] == 1 + arity);
    /* the last constraint: "hash result" lc · ONE = out */
    size_t last = r.n_constraints - 1;
    CHECK(r.b.row_ptr[last + 1] - r.b.row_ptr[last] == 1 && r.b.col[r.b.row_ptr[last]] == 0);
    CHECK(r.c.col[r.c.row_ptr[last]] == 1 + x.out.var.index && !x.out.var.is_input);
    CHECK(x.out.var.index == r.n_aux - 1);

    czk_r1cs_free(&r);
    free(x.aux_dump);
    printf("poseidon arity %2u: %zu constraints, %zu aux\n", arity, want, x.n_aux);
}

/* Preimages that repeat a variable or use a public input (LC terms merge). */
typedef struct {
    czk_fr v;
    czk_num out;
} dup_ctx;

static czk_err dup_circuit(czk_cs *cs, void *p) {
    dup_ctx *x = p;
    czk_num a, in[4];
    czk_err e = czk_num_alloc_input(cs, &a, &x->v);
    if (e) return e;
    if ((e = czk_num_alloc(cs, &in[1], &x->v))) return e;
    in[0] = in[2] = a;
    in[3] = in[1];
    return czk_poseidon_hash_gadget(cs, &x->out, in, 4);
}

static void test_repeated_inputs(czk_rng *rng) {
    dup_ctx x;
    czk_fr_random(&x.v, rng);
    czk_fr in[4] = {x.v, x.v, x.v, x.v}, native;
    CHECK(czk_poseidon_hash(&native, in, 4) == CZK_OK);
    char msg[256] = "";
    czk_r1cs r;
    czk_witness w;
    CHECK(czk_r1cs_record(&r, dup_circuit, &x, msg, sizeof msg) == CZK_OK);
    CHECK(czk_witness_generate(&w, dup_circuit, &x, msg, sizeof msg) == CZK_OK);
    CHECK(czk_fr_equal(&x.out.value, &native));
    CHECK(r.n_constraints == 377 && r.n_inputs == 2);
    CHECK_MSG(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK_MSG(czk_cs_check(dup_circuit, &x, msg, sizeof msg) == CZK_OK, "%s", msg);
    czk_witness_free(&w);
    czk_r1cs_free(&r);
}

static void test_errors(void) {
    char msg[256] = "";
    CHECK(czk_poseidon_gadget_constraints(37) == 0);
    CHECK(czk_poseidon_gadget_constraints(1) == 0);
    ctx y = {.arity = 1, .values = true};
    CHECK(czk_cs_check(circuit, &y, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_poseidon_circuit");
    static const unsigned arity[] = {2, 4, 8, 11};
    static const size_t want[] = {311, 377, 505, 598};
    long reps = test_cases(2);
    for (long r = 0; r < reps; r++)
        for (int i = 0; i < 4; i++) test_arity(arity[i], want[i], &rng);
    /* neptune's other counts (circuit.rs test_poseidon_hash): arity 16 → 761 */
    CHECK(czk_poseidon_gadget_constraints(16) == 761);
    test_arity(16, 761, &rng);
    CHECK(czk_poseidon_gadget_constraints(36) == 1385);
    test_arity(36, 1385, &rng);
    test_repeated_inputs(&rng);
    test_errors();
    for (int t = 0; t < CZK_MEM__COUNT; t++) CHECK(czk_mem_in_use((czk_mem_tag)t) == 0);
    return test_finish("test_poseidon_circuit");
}
