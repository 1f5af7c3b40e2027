/* czk_witness_generate_parts against czk_witness_generate of the same parts
 * in order: random part counts and shapes (inputs and aux per part, values
 * from a seeded stream per part, reads of the part's own variables and of
 * ONE), on a pool and on the calling thread; a part that allocates more or
 * fewer variables than part 0 is CZK_ERR_MISMATCH naming it; a part's error
 * is returned with its message; nothing is left allocated on failure. */
#include <stdio.h>
#include <string.h>

#include "czk/mem.h"
#include "czk/r1cs.h"
#include "test.h"

typedef struct {
    size_t n_parts, in_per, aux_per;
    uint64_t seed;
    size_t odd_part; /* this part allocates one aux more (SIZE_MAX: none) */
    int odd_delta;   /* +1 or -1 */
    size_t fail_part;
} parts_ctx;

/* part k: in_per inputs and aux_per aux variables; each aux is the product of
 * the previous aux (or ONE) and a value from the part's own stream */
static czk_err part(czk_cs *cs, void *v, size_t k) {
    const parts_ctx *x = v;
    if (k == x->fail_part) return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "part %zu refuses", k);
    czk_rng rng;
    czk_rng_seed(&rng, x->seed * 1000003u + k);
    czk_var prev = {0, 1}; /* ONE */
    size_t n_aux = x->aux_per;
    if (k == x->odd_part) n_aux = (size_t)((long)n_aux + x->odd_delta);
    for (size_t i = 0; i < n_aux; i++) {
        czk_fr r, pv, val;
        czk_fr_random(&r, &rng);
        if (!czk_cs_value(cs, prev, &pv)) return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "no value");
        czk_fr_mul(&val, &pv, &r);
        czk_var out;
        czk_err e = czk_cs_alloc(cs, &out, "a", &val);
        if (e) return e;
        czk_cs_enforce(cs, "c", NULL, NULL, NULL);
        prev = out;
    }
    for (size_t i = 0; i < x->in_per; i++) {
        czk_fr val;
        czk_fr_from_u64(&val, (uint64_t)k * 100 + i);
        czk_var out;
        czk_err e = czk_cs_alloc_input(cs, &out, "i", &val);
        if (e) return e;
    }
    return CZK_OK;
}

static czk_err all_parts(czk_cs *cs, void *v) {
    const parts_ctx *x = v;
    for (size_t k = 0; k < x->n_parts; k++) {
        czk_err e = part(cs, v, k);
        if (e) return e;
    }
    return CZK_OK;
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_witness_parts");
    czk_pool *pool = NULL;
    CHECK(czk_pool_create(&pool, 4) == CZK_OK);
    char msg[400];
    size_t cases = (size_t)test_cases(40);
    for (size_t t = 0; t < cases; t++) {
        parts_ctx x = {1 + czk_rng_next(&rng) % 70, czk_rng_next(&rng) % 4, czk_rng_next(&rng) % 300,
                       czk_rng_next(&rng), SIZE_MAX, 0, SIZE_MAX};
        czk_witness seq, par;
        CHECK(czk_witness_generate(&seq, all_parts, &x, msg, sizeof msg) == CZK_OK);
        for (int on_pool = 0; on_pool < 2; on_pool++) {
            czk_err e = czk_witness_generate_parts(&par, part, &x, x.n_parts, on_pool ? pool : NULL, msg, sizeof msg);
            CHECK_MSG(e == CZK_OK, "case %zu: %s", t, msg);
            if (e) continue;
            CHECK_MSG(par.n_input == seq.n_input && par.n_aux == seq.n_aux &&
                          !memcmp(par.input, seq.input, seq.n_input * sizeof(czk_fr)) &&
                          (!seq.n_aux || !memcmp(par.aux, seq.aux, seq.n_aux * sizeof(czk_fr))),
                      "case %zu (%zu parts, %zu inputs, %zu aux each): differs", t, x.n_parts, x.in_per, x.aux_per);
            czk_witness_free(&par);
        }
        czk_witness_free(&seq);
    }

    size_t before = czk_mem_in_use(CZK_MEM_SYNTH), bufs = czk_mem_buffers(CZK_MEM_SYNTH);
    parts_ctx bad = {40, 2, 50, 7, 23, +1, SIZE_MAX};
    czk_witness w;
    CHECK(czk_witness_generate_parts(&w, part, &bad, bad.n_parts, pool, msg, sizeof msg) == CZK_ERR_MISMATCH);
    CHECK_MSG(strstr(msg, "part 23") || strstr(msg, "more aux variables than part 0"), "%s", msg);
    CHECK(w.input == NULL && w.aux == NULL);
    printf("one aux more in part 23: %s\n", msg);
    bad.odd_delta = -1;
    CHECK(czk_witness_generate_parts(&w, part, &bad, bad.n_parts, pool, msg, sizeof msg) == CZK_ERR_MISMATCH);
    CHECK_MSG(strstr(msg, "part 23 has 2 inputs, 49 aux"), "%s", msg);
    printf("one aux fewer in part 23: %s\n", msg);
    parts_ctx fails = {40, 1, 10, 9, SIZE_MAX, 0, 31};
    CHECK(czk_witness_generate_parts(&w, part, &fails, fails.n_parts, pool, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK_MSG(strstr(msg, "part 31 refuses"), "%s", msg);
    fails.fail_part = 0;
    CHECK(czk_witness_generate_parts(&w, part, &fails, fails.n_parts, pool, msg, sizeof msg) == CZK_ERR_SYNTHESIS);
    CHECK_MSG(strstr(msg, "part 0 refuses"), "%s", msg);
    CHECK(czk_witness_generate_parts(&w, part, &fails, 0, pool, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK_MSG(czk_mem_in_use(CZK_MEM_SYNTH) == before && czk_mem_buffers(CZK_MEM_SYNTH) == bufs, "%zu bytes left allocated by the failures",
              czk_mem_in_use(CZK_MEM_SYNTH) - before);
    czk_pool_destroy(pool);
    return test_finish("test_witness_parts");
}
