/* czk — witness generation of one PoRep partition from a C1 output (issue
 * H's goal: <= 3 s for a 32 GiB partition on one core; bellperson's
 * synthesis takes about 26 s): a sparse test seal of the sector
 * (czk_fil_testseal), then the witness of partition 0 alone (one core), then
 * one partition per core at once (all cores). Prints the times, the peak
 * resident set and the witness's share of 0/1 values (the synthetic
 * circuit's binary_fraction estimates it), and writes
 * bench/results/porep_witness.csv.
 *   bench_porep_witness [--registered-proof N] [--threads T]
 * (default 8 = StackedDrg32GiBV1_1; T: one per CPU). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "czk/circuit.h"
#include "czk/filecoin_porep.h"
#include "czk/filecoin_testseal.h"

typedef struct {
    const czk_circuit *c;
    const czk_fil_c1 *c1;
    size_t partition;
    double seconds, cpu_user, cpu_sys; /* wall; this thread's CPU */
    czk_err err;
    char msg[256];
    size_t zero, one, n_aux;
} job;

static size_t peak_rss_bytes(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) kb = strtoull(line + 6, NULL, 10);
    if (f) fclose(f);
    return kb * 1024;
}

static void *run(void *arg) {
    job *j = arg;
    czk_witness w;
    struct rusage r0, r1;
    getrusage(RUSAGE_THREAD, &r0);
    double t0 = bench_now_ns();
    j->err = czk_circuit_witness_input(j->c, j->partition, j->c1->partitions, &w, j->msg, sizeof j->msg);
    j->seconds = (bench_now_ns() - t0) * 1e-9;
    getrusage(RUSAGE_THREAD, &r1);
    j->cpu_user = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) + (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) * 1e-6;
    j->cpu_sys = (double)(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) + (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) * 1e-6;
    if (j->err != CZK_OK) return NULL;
    czk_fr zero, one;
    czk_fr_set_zero(&zero);
    czk_fr_set_one(&one);
    j->n_aux = w.n_aux;
    for (size_t i = 0; i < w.n_aux; i++) {
        j->zero += czk_fr_equal(&w.aux[i], &zero);
        j->one += czk_fr_equal(&w.aux[i], &one);
    }
    czk_witness_free(&w);
    return NULL;
}

int main(int argc, char **argv) {
    uint64_t rp = 8;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--registered-proof")) rp = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--threads")) threads = strtol(argv[i + 1], NULL, 10);
    }
    if (threads < 1) threads = 1;
    char msg[512] = "";
    const czk_fil_seal_proof *p = czk_fil_seal_proof_get(rp);
    czk_circuit c;
    if (!p || czk_circuit_find(&c, p->circuit_id, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_porep_witness: registered proof %llu: %s\n", (unsigned long long)rp, msg);
        return 2;
    }
    if ((size_t)threads > p->partitions) threads = (long)p->partitions;
    czk_fil_testseal_opts o = {.proof = p, .miner_id = 1000, .sector_number = 5, .seed = 7, .sparse = true};
    czk_fil_c1 c1;
    czk_fil_testseal_stats st;
    if (czk_fil_testseal(&o, &c1, &st, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_porep_witness: testseal: %s\n", msg);
        return 1;
    }
    printf("%s: sparse seal in %.2f s (%zu partitions of %u challenges)\n", p->name, st.seconds, c1.n_partitions,
           p->challenges_per_partition);

    /* a first witness (not timed) gives the counts the engine passes as
     * hints from the registered R1CS, so the buffers are sized once */
    job one = {.c = &c, .c1 = &c1};
    run(&one);
    if (one.err != CZK_OK) {
        fprintf(stderr, "bench_porep_witness: witness: %s\n", one.msg);
        return 1;
    }
    c.profile.inputs = czk_fil_porep_input_count(p) + 1;
    c.profile.constraints = one.n_aux;
    one = (job){.c = &c, .c1 = &c1};
    run(&one);
    size_t rss_one = peak_rss_bytes();
    job *js = calloc((size_t)threads, sizeof *js);
    pthread_t *th = calloc((size_t)threads, sizeof *th);
    if (!js || !th) return 1;
    double t0 = bench_now_ns();
    for (long t = 0; t < threads; t++) {
        js[t] = (job){.c = &c, .c1 = &c1, .partition = (size_t)t};
        pthread_create(&th[t], NULL, run, &js[t]);
    }
    double slowest = 0;
    for (long t = 0; t < threads; t++) {
        pthread_join(th[t], NULL);
        if (js[t].err != CZK_OK) {
            fprintf(stderr, "bench_porep_witness: partition %ld: %s\n", t, js[t].msg);
            return 1;
        }
        if (js[t].seconds > slowest) slowest = js[t].seconds;
    }
    double wall = (bench_now_ns() - t0) * 1e-9;
    size_t rss_all = peak_rss_bytes();
    double binary = (double)(one.zero + one.one) / (double)one.n_aux;
    double user_all = 0, sys_all = 0;
    for (long t = 0; t < threads; t++) user_all += js[t].cpu_user, sys_all += js[t].cpu_sys;
    printf("%-34s %10s %10s %10s %10s %14s\n", "witness of one partition", "wall s", "slowest s", "user s", "sys s",
           "peak RSS (GiB)");
    printf("%-34s %10.2f %10.2f %10.2f %10.2f %14.2f\n", "1 partition, 1 core", one.seconds, one.seconds, one.cpu_user,
           one.cpu_sys, rss_one / 1073741824.0);
    printf("%-34s %10.2f %10.2f %10.2f %10.2f %14.2f\n", "partitions at once, 1 per core", wall, slowest,
           user_all / threads, sys_all / threads, rss_all / 1073741824.0);
    printf("(user and sys: CPU seconds per partition, this thread's own)\n");
    printf("(%ld partitions on %ld threads: %.2f partitions/s)\n", threads, threads, threads / wall);
    printf("aux %zu: %.4f zero, %.4f one, %.4f binary (0 or 1)\n", one.n_aux, (double)one.zero / one.n_aux,
           (double)one.one / one.n_aux, binary);
    FILE *f = bench_csv_open("porep_witness.csv");
    if (f) {
        fprintf(f, "# proof,threads,one_partition_s,one_user_s,one_sys_s,all_wall_s,slowest_s,peak_rss_one,"
                   "peak_rss_all,aux,zero,one\n");
        fprintf(f, "%s,%ld,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%zu,%zu,%zu,%zu\n", p->name, threads, one.seconds, one.cpu_user,
                one.cpu_sys, wall, slowest, rss_one, rss_all, one.n_aux, one.zero, one.one);
        fclose(f);
    }
    free(js);
    free(th);
    czk_fil_c1_free(&c1);
    return 0;
}
