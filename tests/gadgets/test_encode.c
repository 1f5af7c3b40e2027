/* storage-proofs-core's encode / decode: one aux and one constraint each,
 * with the exact rows (key + value)·ONE = encoded and (decoded + key)·ONE =
 * value; decode(key, encode(key, v)) = v on random values; RECORD and
 * WITNESS agree; a wrong encoded value is caught. */
#include <string.h>

#include "czk/gadget_encode.h"
#include "test.h"

typedef struct {
    czk_fr key, value;
    czk_fr encoded, decoded; /* read back after the run */
    bool corrupt;            /* allocate a wrong "encoded" value through the witness */
} ctx;

static czk_err circuit(czk_cs *cs, void *p) {
    ctx *c = p;
    czk_num k, v, enc, dec;
    czk_err e = czk_num_alloc(cs, &k, &c->key);
    if (!e) e = czk_num_alloc(cs, &v, &c->value);
    if (!e) e = czk_encode(cs, &enc, &k, &v);
    if (!e) e = czk_decode(cs, &dec, &k, &enc);
    if (e) return e;
    c->encoded = enc.value;
    c->decoded = dec.value;
    return CZK_OK;
}

static void exact_rows(void) {
    ctx c;
    memset(&c, 0, sizeof c);
    czk_r1cs r;
    char msg[256] = "";
    CHECK(czk_r1cs_record(&r, circuit, &c, msg, sizeof msg) == CZK_OK);
    CHECK(r.n_aux == 4 && r.n_constraints == 2);
    /* row 0: (key + value)·ONE = encoded: a has aux 0 and 1, b ONE, c aux 2 */
    uint32_t ni = (uint32_t)r.n_inputs;
    CHECK(r.a.row_ptr[1] - r.a.row_ptr[0] == 2 && r.a.col[0] == ni + 0 && r.a.col[1] == ni + 1);
    CHECK(r.b.row_ptr[1] - r.b.row_ptr[0] == 1 && r.b.col[0] == 0);
    CHECK(r.c.row_ptr[1] - r.c.row_ptr[0] == 1 && r.c.col[0] == ni + 2);
    /* row 1: (decoded + key)·ONE = encoded (constraint::difference(value=enc, key, dec)) */
    uint64_t a1 = r.a.row_ptr[1], c1 = r.c.row_ptr[1];
    CHECK(r.a.row_ptr[2] - a1 == 2 && r.a.col[a1] == ni + 0 && r.a.col[a1 + 1] == ni + 3);
    CHECK(r.c.row_ptr[2] - c1 == 1 && r.c.col[c1] == ni + 2);
    czk_r1cs_free(&r);
}

static void round_trips(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_encode");
    size_t n = test_cases(200);
    for (size_t i = 0; i < n; i++) {
        ctx c;
        memset(&c, 0, sizeof c);
        czk_fr_random(&c.key, &rng);
        czk_fr_random(&c.value, &rng);
        char msg[256] = "";
        CHECK(czk_cs_check(circuit, &c, msg, sizeof msg) == CZK_OK);
        czk_fr sum;
        czk_fr_add(&sum, &c.key, &c.value);
        CHECK(czk_fr_equal(&c.encoded, &sum));
        CHECK(czk_fr_equal(&c.decoded, &c.value));
        /* the witness-only run gives the same assignment and satisfies the recorded rows */
        czk_witness w;
        czk_r1cs r;
        CHECK(czk_witness_generate(&w, circuit, &c, msg, sizeof msg) == CZK_OK);
        CHECK(czk_r1cs_record(&r, circuit, &c, msg, sizeof msg) == CZK_OK);
        CHECK(w.n_aux == 4 && czk_fr_equal(&w.aux[2], &sum) && czk_fr_equal(&w.aux[3], &c.value));
        CHECK(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_OK);
        czk_fr_add(&w.aux[2], &w.aux[2], &CZK_FR_ONE); /* a wrong encoding */
        CHECK(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
        czk_witness_free(&w);
        czk_r1cs_free(&r);
    }
}

int main(void) {
    exact_rows();
    round_trips();
    return test_finish("test_encode");
}
