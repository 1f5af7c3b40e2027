/* czk — the demo circuit: "I know x with x^(2^n) = y", y public.
 *
 * Variables: input y; aux x_0 = x, x_1 = x_0^2, …, x_(n-1). Constraints:
 * x_(i-1) · x_(i-1) = x_i for i < n, and x_(n-1) · x_(n-1) = y. The seed picks
 * x (deterministically), so `czk prove --input SEED` is reproducible. */
#include <stdio.h>

#include "circuits.h"

czk_err czk_demo_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    unsigned n = c->demo_rounds;
    czk_rng rng;
    czk_rng_seed(&rng, seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)partition));
    czk_fr x, y;
    czk_fr_random(&x, &rng);
    y = x;
    for (unsigned i = 0; i < n; i++) czk_fr_sqr(&y, &y);

    czk_err e;
    czk_var vy, prev, next;
    if ((e = czk_cs_alloc_input(cs, &vy, "y", &y)) != CZK_OK) return e;
    czk_cs_push_namespace(cs, "demo");
    if ((e = czk_cs_alloc(cs, &prev, "x", &x)) != CZK_OK) return e;
    czk_lc a, cc;
    czk_lc_init(&a);
    czk_lc_init(&cc);
    czk_fr v = x;
    char name[32];
    for (unsigned i = 1; i <= n; i++) {
        czk_fr_sqr(&v, &v);
        if (i < n) {
            snprintf(name, sizeof name, "x_%u", i);
            if ((e = czk_cs_alloc(cs, &next, name, &v)) != CZK_OK) break;
        } else {
            next = vy;
        }
        czk_lc_clear(&a);
        czk_lc_clear(&cc);
        czk_lc_add(&a, prev, NULL);
        czk_lc_add(&cc, next, NULL);
        snprintf(name, sizeof name, "square %u", i);
        czk_cs_enforce(cs, name, &a, &a, &cc);
        prev = next;
    }
    czk_lc_free(&a);
    czk_lc_free(&cc);
    czk_cs_pop_namespace(cs);
    return e;
}
