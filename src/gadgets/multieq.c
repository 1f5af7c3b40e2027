/* czk — bellperson's MultiEq (gadgets::multieq). See gadget_uint32.h. */
#include <stdio.h>

#include "czk/gadget_uint32.h"
#include "gadget_internal.h"

void czk_multieq_init(czk_multieq *m, czk_cs *cs) {
    m->cs = cs;
    m->ops = 0;
    m->bits_used = 0;
    czk_lc_init(&m->lhs);
    czk_lc_init(&m->rhs);
}

/* MultiEq::accumulate: "multieq <ops>": lhs · ONE = rhs. */
static void accumulate(czk_multieq *m) {
    char name[32];
    const char *nm = "multieq";
    if (czk_cs_get_mode(m->cs) == CZK_CS_CHECK) {
        snprintf(name, sizeof name, "multieq %zu", m->ops);
        nm = name;
    }
    if (!czk_cs_needs_lc(m->cs)) {
        czk_cs_enforce(m->cs, nm, NULL, NULL, NULL);
    } else {
        czk_lc one = {0};
        czk_lc_add(&one, CZK_VAR_ONE, NULL);
        czk_cs_enforce(m->cs, nm, &m->lhs, &one, &m->rhs);
        czk_lc_free(&one);
        czk_lc_clear(&m->lhs);
        czk_lc_clear(&m->rhs);
    }
    m->bits_used = 0;
    m->ops++;
}

void czk_multieq_enforce_equal(czk_multieq *m, size_t num_bits, const czk_lc *lhs, const czk_lc *rhs) {
    if (CZK_MULTIPACK_CAPACITY <= m->bits_used + num_bits) accumulate(m);
    if (czk_cs_needs_lc(m->cs)) {
        czk_fr coeff = CZK_FR_ONE;
        for (size_t i = 0; i < m->bits_used; i++) czk_fr_dbl(&coeff, &coeff);
        if (lhs) czk_lc_add_lc(&m->lhs, lhs, &coeff);
        if (rhs) czk_lc_add_lc(&m->rhs, rhs, &coeff);
    }
    m->bits_used += num_bits;
}

void czk_multieq_finish(czk_multieq *m) {
    if (m->bits_used > 0) accumulate(m);
    czk_lc_free(&m->lhs);
    czk_lc_free(&m->rhs);
}
