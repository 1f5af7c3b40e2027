/* czk — internal (r1cs module only): the coefficient dictionary of the
 * compact R1CS while it is built (compact recording in cs.c, from_csr in
 * compact.c).
 *
 * Entries are numbered in order of first insertion; entry 0 is one and
 * entry 1 minus one from czk_r1cs_dict_init on. Other values go through an
 * open-addressing hash table (linear probing, at most half full) keyed by
 * the 32-byte value. Lookups of one and minus one cost a 4-limb compare;
 * others a hash and, on average, under two probes. */
#ifndef CZK_R1CS_COMPACT_DICT_H
#define CZK_R1CS_COMPACT_DICT_H

#include <stddef.h>
#include <stdint.h>

#include "czk/err.h"
#include "czk/fr.h"
#include "czk/r1cs_compact.h"

typedef struct {
    czk_fr *vals;    /* czk_mem buffer tagged CZK_MEM_R1CS, cap entries */
    size_t n, cap;
    uint32_t *slots; /* malloc'd; entry index + 1, 0 for an empty slot */
    size_t n_slots;  /* a power of two */
    czk_fr minus_one;
} czk_r1cs_dict;

/* An empty dictionary holding one and minus one; CZK_ERR_NO_MEMORY (and
 * nothing allocated) when out of memory. */
czk_err czk_r1cs_dict_init(czk_r1cs_dict *d);
void czk_r1cs_dict_free(czk_r1cs_dict *d);

/* The index of v, added when new: CZK_ERR_NO_MEMORY, or CZK_ERR_UNSUPPORTED
 * when v would be entry CZK_R1CS_COMPACT_DICT_MAX (d is unchanged then). */
czk_err czk_r1cs_dict_add_slow(czk_r1cs_dict *d, const czk_fr *v, uint16_t *idx);

static inline czk_err czk_r1cs_dict_add(czk_r1cs_dict *d, const czk_fr *v, uint16_t *idx) {
    const czk_fr *one = &CZK_FR_ONE;
    if (v->l[0] == one->l[0] && v->l[1] == one->l[1] && v->l[2] == one->l[2] && v->l[3] == one->l[3]) {
        *idx = 0;
        return CZK_OK;
    }
    const czk_fr *m = &d->minus_one;
    if (v->l[0] == m->l[0] && v->l[1] == m->l[1] && v->l[2] == m->l[2] && v->l[3] == m->l[3]) {
        *idx = 1;
        return CZK_OK;
    }
    return czk_r1cs_dict_add_slow(d, v, idx);
}

/* Hands the entries over as a czk_mem buffer of exactly n entries (d keeps
 * nothing and must still be freed); NULL when out of memory. */
czk_fr *czk_r1cs_dict_take(czk_r1cs_dict *d, size_t *n);

#endif
