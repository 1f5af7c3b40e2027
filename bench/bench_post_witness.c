/* czk — the witness of one WindowPoSt partition from a sparse test request
 * (czk_fil_testseal_post, decoded and checked as czkd does at submit):
 * sequentially (WITNESS mode over the whole circuit, as czkd did before
 * czk_post_witness) and with the sectors in parallel on the default pool
 * (what czkd runs now), compared value for value. Prints the times and
 * writes bench/results/post_witness.csv.
 *   bench_post_witness [--registered-proof N] [--reps R]
 * (default 13 = StackedDrgWindow32GiBV1_2: 2,349 sectors x 10 challenges;
 * threads: CZK_THREADS, else one per CPU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/circuit.h"
#include "czk/circuit_post.h"
#include "czk/filecoin_testseal_post.h"
#include "czk/pool.h"

typedef struct {
    const czk_post_shape *s;
    const czk_fil_post_partition *p;
} seq_ctx;

static czk_err seq_synth(czk_cs *cs, void *v) {
    const seq_ctx *x = v;
    return czk_post_synthesize(cs, x->s, x->p);
}

int main(int argc, char **argv) {
    uint64_t rp = 13;
    int reps = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--registered-proof") && i + 1 < argc) rp = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_post_witness [--registered-proof N] [--reps R]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    char msg[512] = "";
    const czk_fil_post_proof *proof = czk_fil_post_proof_get(rp);
    if (!proof) {
        fprintf(stderr, "bench_post_witness: registered PoSt proof %llu is not known\n", (unsigned long long)rp);
        return 1;
    }
    czk_fil_testseal_post_opts o = {.proof = proof, .miner_id = 1000, .seed = 32, .sparse = true};
    czk_fil_testseal_post_result ts;
    double t0 = bench_now_ns();
    if (czk_fil_testseal_post(&o, &ts, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_post_witness: testseal: %s\n", msg);
        return 1;
    }
    czk_fil_prepared prep;
    if (czk_fil_request_prepare(&ts.request, &prep, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_post_witness: the request: %s\n", msg);
        return 1;
    }
    double t_prep = (bench_now_ns() - t0) * 1e-9;
    czk_circuit c;
    czk_post_shape s;
    if (czk_circuit_find(&c, prep.circuit_id, msg, sizeof msg) != CZK_OK ||
        czk_post_circuit_shape(&c, &s, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_post_witness: %s\n", msg);
        return 1;
    }
    const czk_fil_post_partition *p = prep.data;
    int slots = czk_pool_slots(czk_pool_default());
    printf("%s (%s): %u sectors x %u challenges; test request made and checked in %.2f s; %d threads\n",
           proof->name, c.id, s.sectors, s.challenges, t_prep, slots);

    double best_seq = 0, best_par = 0;
    bool same = true;
    size_t n_aux = 0;
    for (int r = 0; r < reps; r++) {
        czk_witness seq, par;
        seq_ctx x = {&s, p};
        double a = bench_now_ns();
        czk_err e = czk_witness_generate(&seq, seq_synth, &x, msg, sizeof msg);
        double b = bench_now_ns();
        if (!e) e = czk_post_witness(&par, &s, p, czk_pool_default(), msg, sizeof msg);
        double d = bench_now_ns();
        if (e) {
            fprintf(stderr, "bench_post_witness: witness: %s\n", msg);
            return 1;
        }
        same = same && par.n_input == seq.n_input && par.n_aux == seq.n_aux &&
               !memcmp(par.input, seq.input, seq.n_input * sizeof(czk_fr)) &&
               !memcmp(par.aux, seq.aux, seq.n_aux * sizeof(czk_fr));
        n_aux = seq.n_aux;
        double ts_seq = (b - a) * 1e-9, ts_par = (d - b) * 1e-9;
        if (!r || ts_seq < best_seq) best_seq = ts_seq;
        if (!r || ts_par < best_par) best_par = ts_par;
        czk_witness_free(&seq);
        czk_witness_free(&par);
    }
    printf("| witness of one partition (%zu aux) | best of %d |\n| --- | ---: |\n", n_aux, reps);
    printf("| sequential (one thread) | %.2f s |\n| sectors in parallel (%d threads) | %.2f s (%.1fx) |\n", best_seq,
           slots, best_par, best_par > 0 ? best_seq / best_par : 0.0);
    printf("parallel witness = sequential: %s\n", same ? "yes" : "NO");
    FILE *f = bench_csv_open("post_witness.csv");
    if (f) {
        fprintf(f, "proof,sectors,challenges,aux,threads,sequential_s,parallel_s,same\n");
        fprintf(f, "%s,%u,%u,%zu,%d,%.3f,%.3f,%s\n", proof->name, s.sectors, s.challenges, n_aux, slots, best_seq,
                best_par, same ? "yes" : "no");
        fclose(f);
    }
    czk_fil_prepared_free(&prep);
    czk_fil_testseal_post_free(&ts);
    return same ? 0 : 1;
}
