/* czk — the SHA-256 gadget, single thread: one block compression (chained,
 * allocated state, as in a multi-block hash) synthesized in WITNESS mode
 * (the word-level path), RECORD mode and CHECK mode (the bit-level path),
 * against libcrypto's native compression as the anchor. Results go to
 * bench/results/gadget_sha256.csv. */
#define OPENSSL_SUPPRESS_DEPRECATED /* SHA256_Transform: one raw compression */
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "czk/gadget_sha256.h"
#include "czk/r1cs.h"

#define AUX_PER_COMPRESSION 25814 /* counted by test_sha256 (plus 512 input bits) */

typedef struct {
    long n; /* compressions in this synthesis */
    uint8_t block[64];
    volatile size_t sink;
} ctx;

/* 512 allocated input bits, then n chained compressions from the IV. */
static czk_err circuit(czk_cs *cs, void *p) {
    ctx *c = p;
    czk_boolean in[512];
    for (int i = 0; i < 512; i++) {
        bool v = (c->block[i / 8] >> (7 - i % 8)) & 1;
        czk_bit b;
        czk_err e = czk_bit_alloc(cs, &b, &v);
        if (e) return e;
        in[i] = czk_boolean_is(&b);
    }
    czk_uint32 st[8];
    czk_sha256_iv(st);
    for (long k = 0; k < c->n; k++) {
        czk_err e = czk_sha256_compression(cs, st, in, st);
        if (e) return e;
    }
    c->sink += czk_cs_num_constraints(cs);
    return CZK_OK;
}

/* Runs iters compressions in syntheses of at most `batch`. */
static void run_batches(ctx *c, long iters, long batch, int mode) {
    while (iters > 0) {
        c->n = iters < batch ? iters : batch;
        iters -= c->n;
        if (mode == 0) {
            czk_witness w;
            if (czk_witness_generate_reserve(&w, circuit, c, 1, 512 + (size_t)c->n * AUX_PER_COMPRESSION, NULL, 0) ==
                CZK_OK)
                czk_witness_free(&w);
        } else if (mode == 1) {
            czk_r1cs r;
            if (czk_r1cs_record(&r, circuit, c, NULL, 0) == CZK_OK) czk_r1cs_free(&r);
        } else {
            (void)czk_cs_check(circuit, c, NULL, 0);
        }
    }
}

static void b_witness(void *p, long iters) { run_batches(p, iters, 32, 0); }
static void b_record(void *p, long iters) { run_batches(p, iters, 4, 1); }
static void b_check(void *p, long iters) { run_batches(p, iters, 4, 2); }

static void b_native(void *p, long iters) {
    ctx *c = p;
    SHA256_CTX s;
    SHA256_Init(&s);
    for (long i = 0; i < iters; i++) SHA256_Transform(&s, c->block);
    c->sink += s.h[0];
}

int main(void) {
    ctx c = {0};
    for (int i = 0; i < 64; i++) c.block[i] = (uint8_t)(i * 37 + 11);
    FILE *csv = bench_csv_open("gadget_sha256.csv");
    printf("czk SHA-256 gadget, chained block compressions (26,192 constraints each from an allocated state;\n"
           "25,840 from the constant IV), single thread\n");
    bench_print_header();
    bench_result native = bench_run("native_compression", b_native, &c, 7, 100);
    bench_print(&native, 0);
    bench_csv_row(csv, &native, 0);
    struct {
        const char *name;
        bench_fn fn;
        double target_ms;
    } rows[] = {
        {"witness_compression", b_witness, 300},
        {"record_compression", b_record, 300},
        {"check_compression", b_check, 300},
    };
    double witness_ns = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bench_result r = bench_run(rows[i].name, rows[i].fn, &c, 5, rows[i].target_ms);
        bench_print(&r, native.median_ns);
        bench_csv_row(csv, &r, native.median_ns);
        if (i == 0) witness_ns = r.median_ns;
        else printf("  %s / witness_compression = %.1f\n", rows[i].name, r.median_ns / witness_ns);
    }
    printf("witness: %.1f ns per constraint, %.0f compressions/s\n", witness_ns / 26192.0, 1e9 / witness_ns);
    if (csv) fclose(csv);
    return 0;
}
