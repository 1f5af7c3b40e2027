/* czk — linear combinations with bellpepper-core's term order and merging.
 *
 * Terms are kept sorted by the key (is_aux, index): inputs first, each part
 * ascending, one term per variable. An add on a present variable adds to its
 * coefficient; terms are never dropped, so zero coefficients stay. This is the
 * observable behaviour of bellpepper's two `Indexer`s (its last-insert cache
 * only speeds the search up). */
#include <stdlib.h>
#include <string.h>

#include "czk/r1cs.h"

static inline uint64_t term_key(czk_var v) { return ((uint64_t)(v.is_input == 0) << 32) | v.index; }

void czk_lc_init(czk_lc *lc) { *lc = (czk_lc){0}; }

void czk_lc_free(czk_lc *lc) {
    free(lc->terms);
    *lc = (czk_lc){0};
}

void czk_lc_clear(czk_lc *lc) {
    lc->len = 0;
    lc->failed = false;
}

static bool reserve_one(czk_lc *lc) {
    if (lc->len < lc->cap) return true;
    size_t cap = lc->cap ? 2 * lc->cap : 4;
    czk_lc_term *t = realloc(lc->terms, cap * sizeof *t);
    if (!t) {
        lc->failed = true;
        return false;
    }
    lc->terms = t;
    lc->cap = cap;
    return true;
}

/* lc + c·v where c is already the final coefficient. O(1) when v is after the
 * last term or equal to it, else O(log len) search + O(len) move. */
static void add_term(czk_lc *lc, czk_var v, const czk_fr *c) {
    uint64_t key = term_key(v);
    size_t n = lc->len;
    size_t pos;
    if (n == 0 || term_key(lc->terms[n - 1].var) < key) {
        pos = n;
    } else {
        size_t lo = 0, hi = n; /* first position with key >= key */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (term_key(lc->terms[mid].var) < key) lo = mid + 1;
            else hi = mid;
        }
        pos = lo;
        if (term_key(lc->terms[pos].var) == key) {
            czk_fr_add(&lc->terms[pos].coeff, &lc->terms[pos].coeff, c);
            return;
        }
    }
    if (!reserve_one(lc)) return;
    if (pos < n) memmove(&lc->terms[pos + 1], &lc->terms[pos], (n - pos) * sizeof lc->terms[0]);
    lc->terms[pos].var = (czk_var){v.index, v.is_input ? 1u : 0u};
    lc->terms[pos].coeff = *c;
    lc->len = n + 1;
}

void czk_lc_add(czk_lc *lc, czk_var v, const czk_fr *coeff) { add_term(lc, v, coeff ? coeff : &CZK_FR_ONE); }

void czk_lc_sub(czk_lc *lc, czk_var v, const czk_fr *coeff) {
    czk_fr neg;
    czk_fr_neg(&neg, coeff ? coeff : &CZK_FR_ONE);
    add_term(lc, v, &neg);
}

/* bellpepper multiplies each of other's coefficients by coeff (and negates for
 * sub) before the add; the products are the same field elements here. */
void czk_lc_add_lc(czk_lc *lc, const czk_lc *other, const czk_fr *coeff) {
    for (size_t i = 0; i < other->len; i++) {
        czk_fr c = other->terms[i].coeff;
        if (coeff) czk_fr_mul(&c, &c, coeff);
        add_term(lc, other->terms[i].var, &c);
    }
    if (other->failed) lc->failed = true;
}

void czk_lc_sub_lc(czk_lc *lc, const czk_lc *other, const czk_fr *coeff) {
    for (size_t i = 0; i < other->len; i++) {
        czk_fr c = other->terms[i].coeff;
        if (coeff) czk_fr_mul(&c, &c, coeff);
        czk_fr_neg(&c, &c);
        add_term(lc, other->terms[i].var, &c);
    }
    if (other->failed) lc->failed = true;
}

void czk_lc_eval(czk_fr *out, const czk_lc *lc, const czk_fr *input, const czk_fr *aux) {
    czk_fr acc = {{0}}, t;
    for (size_t i = 0; i < lc->len; i++) {
        const czk_lc_term *term = &lc->terms[i];
        const czk_fr *x = term->var.is_input ? &input[term->var.index] : &aux[term->var.index];
        if (czk_fr_is_one(&term->coeff)) {
            czk_fr_add(&acc, &acc, x);
        } else {
            czk_fr_mul(&t, x, &term->coeff);
            czk_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}
