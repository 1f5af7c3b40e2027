/* czk — proving one partition of a circuit instance end to end: witness,
 * a/b/c by SpMV, a satisfaction check that names the failing constraint,
 * and the split prover. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/groth16.h"
#include "czk/instance.h"
#include "czk/mem.h"

#define SET_MSG(...)                                          \
    do {                                                      \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
    } while (0)

czk_err czk_prover_key_init(czk_prover_key *k, czk_r1cs *r1cs, char *msg, size_t msglen) {
    memset(k, 0, sizeof *k);
    czk_err e = czk_r1cs_density(r1cs, &k->a_aux, &k->b_input, &k->b_aux);
    if (e != CZK_OK) {
        SET_MSG("computing densities failed: %s", czk_err_str(e));
        return e;
    }
    k->r1cs = *r1cs;
    memset(r1cs, 0, sizeof *r1cs);
    return CZK_OK;
}

czk_err czk_prover_key_init_compact(czk_prover_key *k, czk_r1cs_compact *rc, char *msg, size_t msglen) {
    memset(k, 0, sizeof *k);
    czk_err e = czk_r1cs_compact_density(rc, &k->a_aux, &k->b_input, &k->b_aux);
    if (e != CZK_OK) {
        SET_MSG("computing densities failed: %s", czk_err_str(e));
        return e;
    }
    k->compact = *rc;
    k->r1cs.n_inputs = rc->n_inputs;
    k->r1cs.n_aux = rc->n_aux;
    k->r1cs.n_constraints = rc->n_constraints;
    memset(rc, 0, sizeof *rc);
    return CZK_OK;
}

czk_err czk_prover_key_eval_abc(const czk_prover_key *k, const czk_witness *w, czk_fr **a, czk_fr **b, czk_fr **c,
                                czk_pool *pool) {
    return czk_prover_key_is_compact(k) ? czk_r1cs_compact_eval_abc(&k->compact, w, a, b, c, pool)
                                        : czk_r1cs_eval_abc(&k->r1cs, w, a, b, c, pool);
}

czk_err czk_prover_key_eval_abc_packed(const czk_prover_key *k, const czk_witness *w, czk_fr_packed **a,
                                       czk_fr_packed **b, czk_fr_packed **c, czk_pool *pool) {
    return czk_prover_key_is_compact(k) ? czk_r1cs_compact_eval_abc_packed(&k->compact, w, a, b, c, pool)
                                        : czk_r1cs_eval_abc_packed(&k->r1cs, w, a, b, c, pool);
}

static size_t bitmap_bytes(const czk_bitmap *b) { return (b->nbits + 63) / 64 * 8; }

size_t czk_prover_key_bytes(const czk_prover_key *k) {
    size_t s = czk_r1cs_compact_bytes(&k->compact);
    const czk_csr *m[3] = {&k->r1cs.a, &k->r1cs.b, &k->r1cs.c};
    for (int i = 0; i < 3; i++) s += czk_mem_size(m[i]->row_ptr) + czk_mem_size(m[i]->col) + czk_mem_size(m[i]->coeff);
    return s + bitmap_bytes(&k->a_aux) + bitmap_bytes(&k->b_input) + bitmap_bytes(&k->b_aux);
}

void czk_prover_key_free(czk_prover_key *k) {
    czk_r1cs_compact_free(&k->compact);
    czk_r1cs_free(&k->r1cs);
    czk_bitmap_free(&k->a_aux);
    czk_bitmap_free(&k->b_input);
    czk_bitmap_free(&k->b_aux);
}

typedef struct {
    const czk_fr *a, *b, *c;
    _Atomic size_t first; /* lowest failing row found so far */
} row_check;

static void check_rows(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    row_check *x = ctx;
    for (size_t i = begin; i < end && i < atomic_load(&x->first); i++) {
        czk_fr t;
        czk_fr_mul(&t, &x->a[i], &x->b[i]);
        if (!czk_fr_equal(&t, &x->c[i])) {
            size_t cur = atomic_load(&x->first);
            while (i < cur && !atomic_compare_exchange_weak(&x->first, &cur, i)) {
            }
            return;
        }
    }
}

/* Index of the first row with a_i·b_i != c_i, or n when all hold; one
 * multiplication per row, spread over the pool. */
static size_t first_unsatisfied(const czk_fr *a, const czk_fr *b, const czk_fr *c, size_t n, czk_pool *pool) {
    row_check x = {a, b, c, n};
    czk_pool_run(pool, n, 1u << 14, check_rows, &x);
    return atomic_load(&x.first);
}

czk_err czk_prove_instance(czk_proof *out, czk_fr **public_inputs, size_t *n_public, const czk_params *params,
                           const czk_prover_key *key, const czk_circuit *circuit, size_t partition, uint64_t seed,
                           const czk_fr *r, const czk_fr *s, czk_pool *pool, char *msg, size_t msglen) {
    if (public_inputs) *public_inputs = NULL;
    if (n_public) *n_public = 0;
    czk_witness w;
    czk_err e = czk_circuit_witness(circuit, partition, seed, &w, msg, msglen);
    if (e != CZK_OK) return e;
    czk_fr *a = NULL, *b = NULL, *c = NULL;
    if ((e = czk_prover_key_eval_abc(key, &w, &a, &b, &c, pool)) != CZK_OK) {
        SET_MSG("the witness does not fit the recorded circuit (%zu inputs, %zu aux; expected %zu, %zu)", w.n_input,
                w.n_aux, key->r1cs.n_inputs, key->r1cs.n_aux);
        czk_witness_free(&w);
        return e;
    }
    size_t rows = key->r1cs.n_constraints + key->r1cs.n_inputs;
    size_t bad = first_unsatisfied(a, b, c, rows, pool);
    if (bad < rows) {
        czk_mem_free(a);
        czk_mem_free(b);
        czk_mem_free(c);
        czk_witness_free(&w);
        char path[512] = "";
        czk_err ce = czk_circuit_check(circuit, partition, seed, path, sizeof path);
        if (ce == CZK_ERR_UNSATISFIED) SET_MSG("the witness does not satisfy constraint %s", path);
        else SET_MSG("the witness does not satisfy row %zu of the recorded circuit", bad);
        return CZK_ERR_UNSATISFIED;
    }
    if (public_inputs && key->r1cs.n_inputs > 1) {
        size_t n = key->r1cs.n_inputs - 1;
        *public_inputs = malloc(n * sizeof(czk_fr));
        if (!*public_inputs) {
            czk_mem_free(a);
            czk_mem_free(b);
            czk_mem_free(c);
            czk_witness_free(&w);
            return CZK_ERR_NO_MEMORY;
        }
        memcpy(*public_inputs, w.input + 1, n * sizeof(czk_fr));
        *n_public = n;
    }
    czk_fr rr, ss;
    if (r && s) {
        rr = *r;
        ss = *s;
    } else if ((e = czk_fr_random_os(&rr)) != CZK_OK || (e = czk_fr_random_os(&ss)) != CZK_OK) {
        SET_MSG("no randomness from the operating system");
        goto fail;
    }
    czk_assignment asg = {
        .input = w.input,
        .n_input = w.n_input,
        .aux = w.aux,
        .n_aux = w.n_aux,
        .a = a,
        .b = b,
        .c = c,
        .n_abc = rows,
        .a_aux_density = &key->a_aux,
        .b_input_density = &key->b_input,
        .b_aux_density = &key->b_aux,
    };
    return czk_prove(out, params, &asg, &rr, &ss, pool, msg, msglen); /* consumes every buffer */
fail:
    czk_mem_free(a);
    czk_mem_free(b);
    czk_mem_free(c);
    czk_witness_free(&w);
    if (public_inputs) {
        free(*public_inputs);
        *public_inputs = NULL;
        *n_public = 0;
    }
    return e;
}
