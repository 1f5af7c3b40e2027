/* czk — helpers shared by the gadget implementations (not installed). */
#ifndef CZK_GADGET_INTERNAL_H
#define CZK_GADGET_INTERNAL_H

#include <stdbool.h>
#include "czk/fr.h"
#include "czk/r1cs.h"

/* Montgomery 0 and 1, for bit values. */
static inline const czk_fr *gadget_fr_bit(bool b) {
    static const czk_fr zero = {{0}};
    return b ? &CZK_FR_ONE : &zero;
}

/* Pushes a namespace named by printf(fmt, i); the string is formatted only in
 * CHECK mode (other modes ignore names). */
void czk_gadget_push_ns_idx(czk_cs *cs, const char *fmt, long i);

/* A scratch LC triple for one constraint, reused across calls. */
typedef struct {
    czk_lc a, b, c;
} gadget_lcs;

static inline void gadget_lcs_clear(gadget_lcs *l) {
    czk_lc_clear(&l->a);
    czk_lc_clear(&l->b);
    czk_lc_clear(&l->c);
}
static inline void gadget_lcs_free(gadget_lcs *l) {
    czk_lc_free(&l->a);
    czk_lc_free(&l->b);
    czk_lc_free(&l->c);
}

#endif
