/* Shared by the gadget tests: running a gadget circuit in RECORD, WITNESS
 * and CHECK modes and comparing them (check_modes), and matching one
 * recorded row against small coefficients (row_is). Included by each test
 * executable (one translation unit each), hence the static definitions. */
#ifndef CZK_TESTS_GADGET_HARNESS_H
#define CZK_TESTS_GADGET_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "czk/err.h"
#include "czk/fr.h"
#include "czk/r1cs.h"
#include "czk/rng.h"
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
 * when it equals want (n pairs). Unused by some tests. */
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

#endif
