/* czk — Poseidon benchmarks, single thread: the native hash (neptune's
 * optimized static mode, the anchor, and the plain specification), and the
 * arity-8 circuit (505 constraints per hash) synthesized in WITNESS mode (no
 * LCs), RECORD mode (LCs and CSR) and CHECK mode. Ratios are to the native
 * hash measured in the same run. CSV: bench/results/gadget_poseidon.csv. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "czk/gadget_poseidon.h"

typedef struct {
    const czk_poseidon_constants *c;
    czk_fr in[CZK_POSEIDON_MAX_ARITY];
    long n;
    volatile uint64_t sink;
} ctx;

static void b_native(void *p, long iters) {
    ctx *x = p;
    czk_fr acc = x->in[0];
    czk_fr in[CZK_POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < x->c->arity; i++) in[i] = x->in[i];
    for (long i = 0; i < iters; i++) {
        czk_poseidon_hash_with(&acc, x->c, in);
        in[0] = acc;
    }
    x->sink += acc.l[0];
}

static void b_correct(void *p, long iters) {
    ctx *x = p;
    czk_fr acc = x->in[0];
    czk_fr in[CZK_POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < x->c->arity; i++) in[i] = x->in[i];
    for (long i = 0; i < iters; i++) {
        czk_poseidon_hash_correct(&acc, x->c, in);
        in[0] = acc;
    }
    x->sink += acc.l[0];
}

/* n chained hashes: the inputs allocated once, each hash's output replaces
 * the first input of the next */
static czk_err circuit(czk_cs *cs, void *p) {
    ctx *x = p;
    czk_num in[CZK_POSEIDON_MAX_ARITY], out;
    czk_err e;
    for (unsigned i = 0; i < x->c->arity; i++)
        if ((e = czk_num_alloc(cs, &in[i], &x->in[i]))) return e;
    for (long k = 0; k < x->n; k++) {
        if ((e = czk_poseidon_hash_gadget_with(cs, &out, in, x->c))) return e;
        in[0] = out;
    }
    x->sink += czk_cs_num_aux(cs);
    return CZK_OK;
}

static void b_witness(void *p, long iters) {
    ctx *x = p;
    czk_witness w;
    x->n = iters;
    size_t aux = (size_t)iters * (czk_poseidon_gadget_constraints(x->c->arity) + x->c->arity) + 16;
    if (czk_witness_generate_reserve(&w, circuit, x, 1, aux, NULL, 0) == CZK_OK) czk_witness_free(&w);
}

static void b_record(void *p, long iters) {
    ctx *x = p;
    czk_r1cs r;
    x->n = iters;
    if (czk_r1cs_record(&r, circuit, x, NULL, 0) == CZK_OK) czk_r1cs_free(&r);
}

static void b_check(void *p, long iters) {
    ctx *x = p;
    x->n = iters;
    (void)czk_cs_check(circuit, x, NULL, 0);
}

int main(void) {
    czk_rng rng;
    czk_rng_seed(&rng, 1);
    FILE *csv = bench_csv_open("gadget_poseidon.csv");
    printf("czk Poseidon (neptune 11), single thread, per hash\n");
    bench_print_header();
    static const unsigned arities[] = {2, 8, 11};
    for (size_t a = 0; a < sizeof arities / sizeof arities[0]; a++) {
        ctx x = {.c = czk_poseidon_constants_get(arities[a])};
        if (!x.c) return 1;
        for (unsigned i = 0; i < x.c->arity; i++) czk_fr_random(&x.in[i], &rng);
        char n1[48], n2[48];
        snprintf(n1, sizeof n1, "native_poseidon_%u", arities[a]);
        snprintf(n2, sizeof n2, "native_poseidon_%u_plain", arities[a]);
        bench_result native = bench_run(n1, b_native, &x, 7, 200);
        bench_print(&native, 0);
        bench_csv_row(csv, &native, 0);
        bench_result plain = bench_run(n2, b_correct, &x, 7, 200);
        bench_print(&plain, native.median_ns);
        bench_csv_row(csv, &plain, native.median_ns);
        if (arities[a] != 8) continue;
        struct {
            const char *name;
            bench_fn fn;
        } rows[] = {
            {"circuit_poseidon_8_witness", b_witness},
            {"circuit_poseidon_8_record", b_record},
            {"circuit_poseidon_8_check", b_check},
        };
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            bench_result r = bench_run(rows[i].name, rows[i].fn, &x, 7, 200);
            bench_print(&r, native.median_ns);
            bench_csv_row(csv, &r, native.median_ns);
        }
    }
    if (csv) fclose(csv);
    return 0;
}
