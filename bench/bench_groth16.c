/* czk — Groth16 prove time on synthetic circuits (PoRep-shaped), CPU.
 *
 * For each K: record, setup (timed once, not part of the table), then prove
 * `reps` times with each thread count (default 1 and 2); the table gives the
 * median, min and max wall time per proof. Usage:
 *   bench_groth16 [--quick] [--k K]... [--threads T]... [--reps R] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/circuit.h"
#include "czk/groth16.h"
#include "czk/instance.h"

int main(int argc, char **argv) {
    unsigned ks[8];
    int nk = 0, reps = 3, threads_list[8], nt = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            reps = 1;
            if (!nk) ks[nk++] = 12;
        } else if (!strcmp(argv[i], "--k") && i + 1 < argc && nk < 8) {
            ks[nk++] = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc && nt < 8) {
            threads_list[nt++] = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 1) reps = 1;
        } else {
            fprintf(stderr, "usage: bench_groth16 [--quick] [--k K]... [--threads T]... [--reps R]\n");
            return 2;
        }
    }
    if (!nt) {
        threads_list[nt++] = 1;
        threads_list[nt++] = 2;
    }
    if (!nk) {
        ks[nk++] = 16;
        ks[nk++] = 18;
        ks[nk++] = 20;
    }
    FILE *csv = bench_csv_open("groth16.csv");
    printf("czk Groth16 prove (CPU backend), synthetic PoRep-shaped circuits, median of %d\n", reps);
    printf("%-16s %8s %10s %12s %12s %12s %12s\n", "circuit", "threads", "rows", "setup s", "median s", "min s",
           "max s");
    for (int i = 0; i < nk; i++) {
        char id[32], msg[512];
        snprintf(id, sizeof id, "synthetic-%u", ks[i]);
        czk_circuit c;
        if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "%s\n", msg);
            return 1;
        }
        int max_threads = 1;
        for (int t = 0; t < nt; t++) max_threads = threads_list[t] > max_threads ? threads_list[t] : max_threads;
        czk_pool *pool2;
        czk_pool_create(&pool2, max_threads);
        double t0 = (bench_now_ns() * 1e-9);
        czk_r1cs r1cs;
        czk_params params;
        czk_toxic toxic;
        czk_prover_key key;
        czk_toxic_from_seed(&toxic, 1);
        if (czk_circuit_record(&c, &r1cs, msg, sizeof msg) != CZK_OK ||
            czk_groth16_setup(&params, &r1cs, &toxic, pool2, msg, sizeof msg) != CZK_OK ||
            czk_prover_key_init(&key, &r1cs, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "%s: %s\n", id, msg);
            return 1;
        }
        double setup_s = (bench_now_ns() * 1e-9) - t0;
        for (int ti = 0; ti < nt; ti++) {
            int threads = threads_list[ti];
            czk_pool *pool = NULL;
            if (threads > 1 && czk_pool_create(&pool, threads) != CZK_OK) return 1;
            double *t = calloc((size_t)reps, sizeof(double));
            for (int r = 0; r < reps; r++) {
                czk_proof proof;
                double s0 = (bench_now_ns() * 1e-9);
                if (czk_prove_instance(&proof, NULL, NULL, &params, &key, &c, 0, (uint64_t)r + 1, NULL, NULL, pool, msg,
                                       sizeof msg) != CZK_OK) {
                    fprintf(stderr, "%s: %s\n", id, msg);
                    return 1;
                }
                t[r] = (bench_now_ns() * 1e-9) - s0;
            }
            qsort(t, (size_t)reps, sizeof(double), bench_cmp_double);
            printf("%-16s %8d %10zu %12.2f %12.3f %12.3f %12.3f\n", id, threads,
                   key.r1cs.n_constraints + key.r1cs.n_inputs, setup_s, t[reps / 2], t[0], t[reps - 1]);
            fflush(stdout);
            if (csv) {
                char name[64];
                snprintf(name, sizeof name, "prove_%s_t%d", id, threads);
                bench_result br = {name, t[reps / 2] * 1e9, t[0] * 1e9, t[reps - 1] * 1e9, 1, reps};
                bench_csv_row(csv, &br, 0);
            }
            free(t);
            czk_pool_destroy(pool);
        }
        czk_prover_key_free(&key);
        czk_params_free(&params);
        czk_pool_destroy(pool2);
    }
    if (csv) fclose(csv);
    return 0;
}
