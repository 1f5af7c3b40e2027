/* COUNT mode (czk_r1cs_count) against RECORD + czk_r1cs_density: the same
 * constraints, inputs, aux, terms per matrix (explicit zeros included) and
 * density popcounts (zeros not counted) on a hand-made circuit and on the
 * built-in demo and gadget circuits; unknown values are fine; a
 * synthesis error is reported and leaves the counts zeroed. */
#include <string.h>

#include "czk/circuit.h"
#include "czk/r1cs.h"
#include "test.h"

/* x input, y aux; rows: (x + 0·y) · y = y ; (ONE) · (x + y) = 0·y */
static czk_err handmade(czk_cs *cs, void *ctx) {
    (void)ctx;
    czk_var x, y, z;
    czk_fr two, zero;
    czk_fr_from_u64(&two, 2);
    czk_fr_set_zero(&zero);
    czk_err e = czk_cs_alloc_input(cs, &x, "x", NULL);
    if (!e) e = czk_cs_alloc(cs, &y, "y", NULL);
    if (!e) e = czk_cs_alloc(cs, &z, "z", NULL);
    if (e) return e;
    czk_lc a, b, c;
    czk_lc_init(&a);
    czk_lc_init(&b);
    czk_lc_init(&c);
    czk_lc_add(&a, x, NULL);
    czk_lc_add(&a, y, &zero);
    czk_lc_add(&b, y, NULL);
    czk_lc_add(&c, y, NULL);
    czk_cs_enforce(cs, "first", &a, &b, &c);
    czk_lc_clear(&a);
    czk_lc_clear(&b);
    czk_lc_clear(&c);
    czk_lc_add(&a, CZK_VAR_ONE, NULL);
    czk_lc_add(&b, x, &two);
    czk_lc_add(&b, z, NULL);
    czk_lc_add(&c, y, &zero);
    czk_cs_enforce(cs, "second", &a, &b, &c);
    czk_lc_free(&a);
    czk_lc_free(&b);
    czk_lc_free(&c);
    return CZK_OK;
}

static czk_err failing(czk_cs *cs, void *ctx) {
    (void)ctx;
    return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "on purpose");
}

static void same(const char *what, czk_synthesize_fn fn, void *ctx) {
    czk_r1cs_counts k;
    czk_r1cs r;
    char msg[256] = "";
    CHECK_MSG(czk_r1cs_count(&k, fn, ctx, msg, sizeof msg) == CZK_OK, "%s: %s", what, msg);
    CHECK_MSG(czk_r1cs_record(&r, fn, ctx, msg, sizeof msg) == CZK_OK, "%s: %s", what, msg);
    czk_bitmap da, dbi, dba;
    CHECK(czk_r1cs_density(&r, &da, &dbi, &dba) == CZK_OK);
    CHECK_MSG(k.n_constraints == r.n_constraints && k.n_inputs == r.n_inputs && k.n_aux == r.n_aux, "%s", what);
    CHECK_MSG(k.nnz_a == r.a.nnz && k.nnz_b == r.b.nnz && k.nnz_c == r.c.nnz, "%s", what);
    CHECK_MSG(k.a_aux_density == czk_bitmap_count(&da) && k.b_input_density == czk_bitmap_count(&dbi) &&
                  k.b_aux_density == czk_bitmap_count(&dba),
              "%s", what);
    printf("%-20s %zu constraints, nnz %llu/%llu/%llu, density %zu/%zu/%zu\n", what, k.n_constraints,
           (unsigned long long)k.nnz_a, (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c, k.a_aux_density,
           k.b_input_density, k.b_aux_density);
    czk_bitmap_free(&da);
    czk_bitmap_free(&dbi);
    czk_bitmap_free(&dba);
    czk_r1cs_free(&r);
}

static czk_err circuit_fn(czk_cs *cs, void *ctx) {
    const czk_circuit *c = ctx;
    return c->synthesize(cs, c, 0, 7);
}

int main(void) {
    czk_r1cs_counts k;
    char msg[256] = "";
    CHECK(czk_r1cs_count(&k, handmade, NULL, msg, sizeof msg) == CZK_OK);
    CHECK(k.n_inputs == 2 && k.n_aux == 2 && k.n_constraints == 2);
    CHECK(k.nnz_a == 3 && k.nnz_b == 3 && k.nnz_c == 2);
    CHECK(k.a_aux_density == 0);   /* y's A coefficient is an explicit zero */
    CHECK(k.b_input_density == 1); /* x */
    CHECK(k.b_aux_density == 2);   /* y, z */
    same("handmade", handmade, NULL);

    static const char *const ids[] = {"demo", "gadget-sha256-block", "gadget-poseidon-8", "gadget-insert-8"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        czk_circuit c;
        CHECK(czk_circuit_find(&c, ids[i], msg, sizeof msg) == CZK_OK);
        same(ids[i], circuit_fn, &c);
    }

    memset(&k, 0xff, sizeof k);
    CHECK(czk_r1cs_count(&k, failing, NULL, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK(strstr(msg, "on purpose") != NULL);
    CHECK(k.n_constraints == 0 && k.nnz_a == 0);
    return test_finish("test_r1cs_count");
}
