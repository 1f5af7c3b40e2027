/* czk — internal: growable arrays in czk_mem buffers (r1cs module only).
 *
 * Growth doubles the capacity with czk_mem_realloc (large buffers move by
 * mremap, without copying). The buffer may be larger than len. */
#ifndef CZK_R1CS_VEC_H
#define CZK_R1CS_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "czk/mem.h"

typedef struct {
    void *p;
    size_t len, cap; /* in elements */
} r1cs_vec;

/* Ensures room for `need` elements in total; false when out of memory (the
 * vector is unchanged then). */
static inline bool vec_reserve(r1cs_vec *v, size_t need, size_t elem, czk_mem_tag tag) {
    if (need <= v->cap) return true;
    size_t cap = v->cap ? v->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2 / elem) return false;
        cap *= 2;
    }
    void *p = v->p ? czk_mem_realloc(v->p, cap * elem) : czk_mem_alloc(cap * elem, tag);
    if (!p) return false;
    v->p = p;
    v->cap = cap;
    return true;
}

/* Reallocates to exactly len elements (NULL when len is 0); false when out of
 * memory (the vector is unchanged then). */
static inline bool vec_shrink(r1cs_vec *v, size_t elem, czk_mem_tag tag) {
    if (v->cap == v->len) return true;
    if (!v->len) {
        czk_mem_free(v->p);
        v->p = NULL;
        v->cap = 0;
        return true;
    }
    (void)tag;
    void *p = czk_mem_realloc(v->p, v->len * elem);
    if (!p) return false;
    v->p = p;
    v->cap = v->len;
    return true;
}

static inline void vec_free(r1cs_vec *v) {
    czk_mem_free(v->p);
    *v = (r1cs_vec){0};
}

#endif
