/* czk — the CUDA backend's start (and finish) on a partition shaped like a
 * 32 GiB PoRep partition, scaled to a domain of 2^K (device 0).
 *
 *   bench_gpu_prove [--reps N] [--workers W] [--g2 gpu|cpu] [--abc random|binary|sha] [--packed]
 *                   [--device-abc] [K ...]
 *                                                                     (default K: 20 24 27)
 *
 * The shape (constraints, inputs, aux, densities, 0/1 fraction of the
 * witness) comes from czk_synthetic_profile_porep and the reference counts
 * (num_aux / constraints = 130,169,893 / 130,278,541; a_aux 99.68 %, b_aux
 * 25.44 %, b_input one bit). Setup at 2^27 would take an hour, so the
 * parameters are stand-ins of the right sizes (2^16 distinct points
 * repeated) and a, b, c are random: every kernel does the same work as for
 * a real partition, but the proofs do not verify (correctness is
 * test_gpu_backend's job). The first start uploads the resident bases and
 * is reported apart; then the median, min and max of N runs (default 5) of
 * start, its stages (czk_backend_cuda_timings), and finish; then one more
 * start, not counted, with CZK_GPU_MSM_PROFILE and CZK_GPU_H_PROFILE set:
 * each MSM's stages (the ones' batch additions among them) and H's staged
 * uploads on stderr. Then, with W > 1 workers (default 2), rounds of W
 * starts at the same moment on the shared backend (as the engine's GPU
 * workers do): the time per partition against one start alone, which shows
 * what the starts that wait for the device lock gain by staging their a, b,
 * c meanwhile.
 * --abc binary: a, b, c with the witness's share of 0/1 values (the
 * profile's binary_fraction, an estimate for PoRep's SHA-256-heavy rows),
 * the rest random, for the staged uploads' packing of small values
 * (czk/fr_pack.h; on with CZK_GPU_PACK=1); CSV:
 * bench/results/gpu_prove_abc_binary.csv. --abc sha: a, b, c with the
 * classes of a SHA-256 circuit's (bench_fill_fr_sha: nearly all 0, 1 or
 * small multiples of 1, about 0.1 % other values), as a real PoRep
 * partition's labelling rows have them; CSV gpu_prove_abc_sha.csv.
 * --packed: each start is given a, b, c packed (czk_assignment_pack_abc,
 * as the engine's pack_abc keeps them; packed before the clock starts), so
 * their uploads move the packed bytes; CSV gpu_prove_abc_<mode>_packed.csv.
 * --device-abc: instead, the circuit synthetic-K itself (its R1CS recorded
 * compact, czk_circuit_record_compact; its witness, 0/1 mostly), each
 * start given asg->r1cs rather than a, b, c, so that the backend uploads
 * the witness (aux packed with --packed) and makes a, b, c on the device;
 * the stand-in parameters as above, sized by the circuit's densities. The
 * first start also uploads the R1CS (reported apart); then the median of
 * N starts and of their stages: the witness upload, a, b, c on the device
 * (the SpMV kernels), H, the MSMs. CSV gpu_prove_device_abc[_packed].csv.
 * Prints "no GPU" and exits 0 without a device. CSV:
 * bench/results/gpu_prove.csv. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "czk/backend.h"
#include "czk/circuit.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/gpu.h"
#include "czk/mem.h"

static void bits(czk_bitmap *b, size_t n, double frac, uint64_t s) {
    uint64_t cut = (uint64_t)(frac * 18446744073709551615.0);
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        if (s < cut) czk_bitmap_set(b, i);
    }
}

typedef struct {
    czk_fr *input, *aux, *a, *b, *c;
    size_t n_input, n_aux, n_abc;
} master;

static czk_fr *copy_tagged(const czk_fr *src, size_t n, size_t room, czk_mem_tag tag) {
    czk_fr *d = czk_mem_alloc(room * sizeof *d, tag);
    if (d) memcpy(d, src, n * sizeof *d);
    return d;
}

static double med(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[n / 2];
}

typedef struct {
    czk_backend *be;
    const czk_params *params;
    const master *m;
    czk_bitmap *a_aux, *b_input, *b_aux;
    pthread_barrier_t *go;
    czk_err e;
    char msg[512];
} worker_job;

/* --packed: each start is given a, b, c packed (czk_assignment_pack_abc,
 * as the engine keeps them), packed before the clock starts */
static bool packed_abc;
static czk_pool *pack_pool;

static czk_assignment assignment_copy(const master *m, czk_bitmap *a_aux, czk_bitmap *b_input, czk_bitmap *b_aux) {
    czk_assignment asg = {copy_tagged(m->input, m->n_input, m->n_input, CZK_MEM_SYNTH), m->n_input,
                          copy_tagged(m->aux, m->n_aux, m->n_aux, CZK_MEM_SYNTH), m->n_aux,
                          copy_tagged(m->a, m->n_abc, m->n_abc, CZK_MEM_ABC),
                          copy_tagged(m->b, m->n_abc, m->n_abc, CZK_MEM_ABC),
                          copy_tagged(m->c, m->n_abc, m->n_abc, CZK_MEM_ABC), m->n_abc, a_aux, b_input, b_aux,
                          NULL, NULL, NULL, NULL, NULL};
    if (packed_abc && czk_assignment_pack_abc(&asg, pack_pool, NULL) != CZK_OK)
        fprintf(stderr, "bench_gpu_prove: packing a, b, c ran out of memory; some stay plain\n");
    return asg;
}

/* one worker of a round: its copy of the assignment, the barrier, then
 * start and finish */
static void *worker_run(void *arg) {
    worker_job *j = arg;
    czk_assignment asg = assignment_copy(j->m, j->a_aux, j->b_input, j->b_aux);
    pthread_barrier_wait(j->go);
    czk_fr r = CZK_FR_ONE, s = CZK_FR_ONE;
    czk_backend_pending *p = NULL;
    j->e = czk_backend_start(j->be, &p, j->params, &asg, &r, &s, j->msg, sizeof j->msg);
    czk_proof proof;
    if (j->e == CZK_OK) j->e = czk_backend_finish(j->be, p, &proof, j->msg, sizeof j->msg);
    return NULL;
}

/* W workers start a partition each at the same moment, rounds times: the
 * median time for the W partitions, per partition, against one start alone
 * (solo_ms); one worker holds the device lock, the others stage their a, b,
 * c meanwhile (czk_backend_cuda_timings.prestaged). */
static int bench_workers(czk_backend *be, const czk_params *params, const master *m, czk_bitmap *a_aux,
                         czk_bitmap *b_input, czk_bitmap *b_aux, int workers, int rounds, double solo_ms, unsigned k,
                         FILE *csv, const char *g2where) {
    double *t = calloc((size_t)rounds, sizeof *t);
    if (!t) return 1;
    czk_backend_cuda_timings before, after;
    czk_backend_cuda_timings_get(be, &before);
    int rc = 0;
    for (int round = 0; round < rounds && rc == 0; round++) {
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, (unsigned)workers + 1);
        worker_job j[8];
        pthread_t th[8];
        for (int w = 0; w < workers; w++) {
            j[w] = (worker_job){be, params, m, a_aux, b_input, b_aux, &go, CZK_OK, ""};
            pthread_create(&th[w], NULL, worker_run, &j[w]);
        }
        pthread_barrier_wait(&go);
        double t0 = bench_now_ns();
        for (int w = 0; w < workers; w++) pthread_join(th[w], NULL);
        t[round] = (bench_now_ns() - t0) * 1e-6;
        pthread_barrier_destroy(&go);
        for (int w = 0; w < workers; w++)
            if (j[w].e != CZK_OK) {
                fprintf(stderr, "2^%u, %d workers: %s (%s)\n", k, workers, czk_err_str(j[w].e), j[w].msg);
                rc = 1;
            }
    }
    czk_backend_cuda_timings_get(be, &after);
    if (rc == 0) {
        const double all = med(t, rounds), per = all / workers;
        printf("  %d workers, %d partitions at once: %.1f ms, %.1f ms per partition (one start alone: %.1f ms, "
               "%.2fx the throughput); %lu of %lu starts found the lock taken, %lu of their a, b, c were staged "
               "meanwhile (%.1f ms each)\n",
               workers, workers, all, per, solo_ms, solo_ms / per, after.lock_busy - before.lock_busy,
               (unsigned long)(workers * rounds), after.prestaged - before.prestaged,
               after.prestaged > before.prestaged
                   ? (after.prestage_s - before.prestage_s) * 1e3 / (double)(after.prestaged - before.prestaged)
                   : 0.0);
        const double np = (double)(after.partitions - before.partitions);
#define PER_START(f) (np > 0 ? (after.f - before.f) * 1e3 / np : 0.0)
        printf("    per start under the lock: a,b,c + H %.1f ms, H MSM %.1f, witness %.1f, L/A/B-G1 %.1f, B-G2 %.1f; "
               "lock wait %.1f ms\n",
               PER_START(abc_h_s), PER_START(msm_h_s), PER_START(witness_s), PER_START(msm_g1_s),
               PER_START(msm_g2_s), PER_START(lock_wait_s));
#undef PER_START
        if (csv) fprintf(csv, "per partition with %d workers,%u,%s,%.3f,,\n", workers, k, g2where, per);
    }
    free(t);
    return rc;
}


static int abc_mode; /* --abc: 0 random, 1 binary, 2 sha */
static const char *const abc_names[] = {"random", "binary", "sha"};

static int bench_k(czk_backend *be, unsigned k, int reps, int workers, FILE *csv, const char *g2where) {
    czk_synthetic_profile prof;
    if (czk_synthetic_profile_porep(&prof, k) != CZK_OK) {
        fprintf(stderr, "no PoRep profile for 2^%u\n", k);
        return 1;
    }
    size_t n_dom = (size_t)1 << k;
    master m;
    m.n_input = prof.inputs;
    m.n_abc = prof.constraints + prof.inputs;
    m.n_aux = (size_t)((double)prof.constraints * (130169893.0 / 130278541.0));
    czk_bitmap a_aux, b_input, b_aux;
    if (czk_bitmap_init(&a_aux, m.n_aux) != CZK_OK || czk_bitmap_init(&b_input, m.n_input) != CZK_OK ||
        czk_bitmap_init(&b_aux, m.n_aux) != CZK_OK)
        return 1;
    bits(&a_aux, m.n_aux, 129753292.0 / 130169893.0, 11);
    czk_bitmap_set(&b_input, 0);
    bits(&b_aux, m.n_aux, 33112281.0 / 130169893.0, 12);
    size_t na = m.n_input + czk_bitmap_count(&a_aux), nb = 1 + czk_bitmap_count(&b_aux);
    size_t ng1 = n_dom > m.n_aux ? n_dom : m.n_aux;
    if (na > ng1) ng1 = na;

    double t0 = bench_now_ns();
    czk_g1_affine *g1 = bench_g1_points(ng1);
    czk_g2_affine *g2 = bench_g2_points(nb);
    m.input = malloc(m.n_input * sizeof(czk_fr));
    m.aux = malloc(m.n_aux * sizeof(czk_fr));
    m.a = malloc(m.n_abc * sizeof(czk_fr));
    m.b = malloc(m.n_abc * sizeof(czk_fr));
    m.c = malloc(m.n_abc * sizeof(czk_fr));
    if (!g1 || !g2 || !m.input || !m.aux || !m.a || !m.b || !m.c) {
        fprintf(stderr, "2^%u: out of host memory\n", k);
        return 1;
    }
    bench_fill_fr(m.input, m.n_input, 1, 0);
    m.input[0] = CZK_FR_ONE;
    bench_fill_fr(m.aux, m.n_aux, 2, prof.binary_fraction);
    if (abc_mode == 2) {
        bench_fill_fr_sha(m.a, m.n_abc, 3, 0);
        bench_fill_fr_sha(m.b, m.n_abc, 4, 1);
        bench_fill_fr_sha(m.c, m.n_abc, 5, 2);
    } else {
        const double abc01 = abc_mode == 1 ? prof.binary_fraction : 0;
        bench_fill_fr(m.a, m.n_abc, 3, abc01);
        bench_fill_fr(m.b, m.n_abc, 4, abc01);
        bench_fill_fr(m.c, m.n_abc, 5, abc01);
    }

    /* stand-in parameters: every query points into g1 / g2 (never freed as params) */
    czk_params params;
    memset(&params, 0, sizeof params);
    params.vk.alpha_g1 = params.vk.beta_g1 = params.vk.delta_g1 = CZK_G1_GENERATOR;
    params.vk.beta_g2 = params.vk.gamma_g2 = params.vk.delta_g2 = CZK_G2_GENERATOR;
    params.vk.ic = g1;
    params.vk.n_ic = m.n_input;
    params.h = g1;
    params.n_h = n_dom - 1;
    params.l = g1;
    params.n_l = m.n_aux;
    params.a = g1;
    params.n_a = na;
    params.b_g1 = g1;
    params.n_b_g1 = nb;
    params.b_g2 = g2;
    params.n_b_g2 = nb;
    printf("2^%u: %zu constraints, %zu inputs, %zu aux, A %zu, B %zu points; inputs made in %.1f s\n", k,
           prof.constraints, m.n_input, m.n_aux, na, nb, (bench_now_ns() - t0) * 1e-9);

    int runs = reps + 1;
    double *start = calloc((size_t)runs, sizeof(double)), *fin = calloc((size_t)runs, sizeof(double));
    double *st[7];
    for (int i = 0; i < 7; i++) st[i] = calloc((size_t)runs, sizeof(double));
    int rc = 0;
    /* after the measured runs, one more with every stage profiled (the MSMs'
     * stages, the ones' batch additions among them, and H's uploads, on
     * stderr); it is not counted */
    for (int run = 0; run < runs + (reps > 0) && rc == 0; run++) {
        const int profiled = run == runs;
        if (profiled) {
            printf("  one more start, profiled (not counted; stage times on stderr)\n");
            fflush(stdout);
            setenv("CZK_GPU_MSM_PROFILE", "1", 1);
            setenv("CZK_GPU_H_PROFILE", "1", 1);
        }
        czk_assignment asg = assignment_copy(&m, &a_aux, &b_input, &b_aux);
        czk_backend_cuda_timings before, after;
        czk_backend_cuda_timings_get(be, &before);
        czk_fr r = CZK_FR_ONE, s = CZK_FR_ONE;
        char msg[512] = "";
        czk_backend_pending *p = NULL;
        double ts = bench_now_ns();
        czk_err e = czk_backend_start(be, &p, &params, &asg, &r, &s, msg, sizeof msg);
        double te = bench_now_ns();
        if (e != CZK_OK) {
            fprintf(stderr, "2^%u start: %s (%s)\n", k, czk_err_str(e), msg);
            rc = 1;
            break;
        }
        czk_proof proof;
        e = czk_backend_finish(be, p, &proof, msg, sizeof msg);
        double tf = bench_now_ns();
        if (e != CZK_OK) {
            fprintf(stderr, "2^%u finish: %s (%s)\n", k, czk_err_str(e), msg);
            rc = 1;
            break;
        }
        czk_backend_cuda_timings_get(be, &after);
        if (profiled) {
            unsetenv("CZK_GPU_MSM_PROFILE");
            unsetenv("CZK_GPU_H_PROFILE");
            fprintf(stderr, "2^%u profiled start: %.1f ms\n", k, (te - ts) * 1e-6);
            break;
        }
        start[run] = (te - ts) * 1e-6;
        fin[run] = (tf - te) * 1e-6;
        st[0][run] = (after.bases_s - before.bases_s) * 1e3;
        st[1][run] = (after.abc_h_s - before.abc_h_s) * 1e3;
        st[2][run] = (after.msm_h_s - before.msm_h_s) * 1e3;
        st[3][run] = (after.witness_s - before.witness_s) * 1e3;
        st[4][run] = (after.msm_g1_s - before.msm_g1_s) * 1e3;
        st[5][run] = (after.msm_g2_s - before.msm_g2_s) * 1e3;
        st[6][run] = (after.lock_wait_s - before.lock_wait_s) * 1e3;
        if (run == 0)
            printf("  first start (uploads the resident bases, %.0f ms of it): %.0f ms\n", st[0][0], start[0]);
    }
    if (rc == 0 && reps > 0) {
        static const char *names[] = {"bases upload", "a,b,c upload + NTT/H", "H MSM", "witness upload",
                                      "L, A, B-G1 MSMs", "B-G2 MSM", "lock wait"};
        double smin = start[1], smax = start[1];
        for (int i = 1; i < runs; i++) {
            smin = start[i] < smin ? start[i] : smin;
            smax = start[i] > smax ? start[i] : smax;
        }
        double sm = med(start + 1, reps), fm = med(fin + 1, reps);
        printf("  %-28s %10.1f ms (min %.1f, max %.1f, %d runs)\n", "start", sm, smin, smax, reps);
        for (int i = 1; i < 7; i++) printf("    %-26s %10.1f ms\n", names[i], med(st[i] + 1, reps));
        printf("  %-28s %10.1f ms (B in G2 on the %s)\n", "finish", fm, g2where);
        czk_backend_cuda_timings tt;
        czk_backend_cuda_timings_get(be, &tt);
        if (tt.packed_chunks) printf("  upload chunks that went packed (CZK_GPU_PACK), so far: %lu\n", tt.packed_chunks);
        if (csv) {
            fprintf(csv, "start,%u,%s,%.3f,%.3f,%.3f\n", k, g2where, sm, smin, smax);
            for (int i = 1; i < 7; i++) fprintf(csv, "%s,%u,%s,%.3f,,\n", names[i], k, g2where, med(st[i] + 1, reps));
            fprintf(csv, "finish,%u,%s,%.3f,,\n", k, g2where, fm);
        }
        if (workers > 1) rc = bench_workers(be, &params, &m, &a_aux, &b_input, &b_aux, workers, reps, sm, k, csv, g2where);
    }
    czk_backend_forget(be, &params);
    free(start);
    free(fin);
    for (int i = 0; i < 7; i++) free(st[i]);
    free(g1);
    free(g2);
    free(m.input);
    free(m.aux);
    free(m.a);
    free(m.b);
    free(m.c);
    czk_bitmap_free(&a_aux);
    czk_bitmap_free(&b_input);
    czk_bitmap_free(&b_aux);
    return rc;
}

/* ---- --device-abc: a, b, c made on the device from synthetic-K's R1CS ---- */

static czk_fr *copy_or_null(const czk_fr *src, size_t n, czk_mem_tag tag) {
    return n ? copy_tagged(src, n, n, tag) : NULL;
}

static int bench_device_abc(czk_backend *be, unsigned k, int reps, FILE *csv, const char *g2where) {
    char id[32], msg[512] = "";
    snprintf(id, sizeof id, "synthetic-%u", k);
    czk_circuit c;
    czk_r1cs_compact rc;
    czk_witness w;
    czk_bitmap a_aux, b_input, b_aux;
    double t0 = bench_now_ns();
    if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK || czk_circuit_record_compact(&c, &rc, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "%s: %s\n", id, msg);
        return 1;
    }
    double t1 = bench_now_ns();
    if (czk_circuit_witness(&c, 0, 1, &w, msg, sizeof msg) != CZK_OK ||
        czk_r1cs_compact_density(&rc, &a_aux, &b_input, &b_aux) != CZK_OK) {
        fprintf(stderr, "%s: the witness or the densities: %s\n", id, msg);
        return 1;
    }
    const size_t n_abc = rc.n_constraints + rc.n_inputs;
    size_t n_dom = 1;
    while (n_dom < n_abc) n_dom <<= 1;
    size_t na = w.n_input + czk_bitmap_count(&a_aux), nb = czk_bitmap_count(&b_input) + czk_bitmap_count(&b_aux);
    size_t ng1 = n_dom > w.n_aux ? n_dom : w.n_aux;
    if (na > ng1) ng1 = na;
    czk_g1_affine *g1 = bench_g1_points(ng1);
    czk_g2_affine *g2 = bench_g2_points(nb ? nb : 1);
    if (!g1 || !g2) {
        fprintf(stderr, "%s: out of host memory\n", id);
        return 1;
    }
    czk_params params;
    memset(&params, 0, sizeof params);
    params.vk.alpha_g1 = params.vk.beta_g1 = params.vk.delta_g1 = CZK_G1_GENERATOR;
    params.vk.beta_g2 = params.vk.gamma_g2 = params.vk.delta_g2 = CZK_G2_GENERATOR;
    params.vk.ic = g1;
    params.vk.n_ic = w.n_input;
    params.h = g1;
    params.n_h = n_dom - 1;
    params.l = g1;
    params.n_l = w.n_aux;
    params.a = g1;
    params.n_a = na;
    params.b_g1 = g1;
    params.n_b_g1 = nb;
    params.b_g2 = g2;
    params.n_b_g2 = nb;
    printf("%s, a, b, c on the device: %zu constraints, %zu inputs, %zu aux; its compact R1CS %.2f GiB (%llu + %llu "
           "+ %llu terms, %zu coefficients), recorded in %.1f s; witness and points in %.1f s\n",
           id, rc.n_constraints, w.n_input, w.n_aux, (double)czk_r1cs_compact_bytes(&rc) / (1 << 30),
           (unsigned long long)rc.a.nnz, (unsigned long long)rc.b.nnz, (unsigned long long)rc.c.nnz, rc.n_dict,
           (t1 - t0) * 1e-9, (bench_now_ns() - t1) * 1e-9);
    enum { NS = 7 };
    static const char *names[NS] = {"witness upload", "a,b,c on the device", "H (NTTs)", "H MSM",
                                    "L, A, B-G1 MSMs", "B-G2 MSM", "host a,b,c (fallback)"};
    const int runs = reps + 1;
    double *start = calloc((size_t)runs, sizeof(double)), *st[NS];
    for (int i = 0; i < NS; i++) st[i] = calloc((size_t)runs, sizeof(double));
    int rc_ = 0;
    for (int run = 0; run < runs && rc_ == 0; run++) {
        czk_assignment asg;
        memset(&asg, 0, sizeof asg);
        asg.input = copy_or_null(w.input, w.n_input, CZK_MEM_SYNTH);
        asg.n_input = w.n_input;
        asg.n_aux = w.n_aux;
        if (packed_abc) {
            if (czk_fr_packed_make(&asg.aux_packed, w.aux, w.n_aux, CZK_MEM_SYNTH, pack_pool) != CZK_OK)
                asg.aux_packed = NULL;
        }
        if (!asg.aux_packed) asg.aux = copy_or_null(w.aux, w.n_aux, CZK_MEM_SYNTH);
        asg.n_abc = n_abc;
        asg.a_aux_density = &a_aux;
        asg.b_input_density = &b_input;
        asg.b_aux_density = &b_aux;
        asg.r1cs = &rc;
        czk_backend_cuda_timings before, after;
        czk_backend_cuda_timings_get(be, &before);
        czk_fr r = CZK_FR_ONE, s = CZK_FR_ONE;
        czk_backend_pending *p = NULL;
        double ts = bench_now_ns();
        czk_err e = czk_backend_start(be, &p, &params, &asg, &r, &s, msg, sizeof msg);
        double te = bench_now_ns();
        czk_proof proof;
        if (e == CZK_OK) e = czk_backend_finish(be, p, &proof, msg, sizeof msg);
        if (e != CZK_OK) {
            fprintf(stderr, "%s: %s (%s)\n", id, czk_err_str(e), msg);
            rc_ = 1;
            break;
        }
        czk_backend_cuda_timings_get(be, &after);
        start[run] = (te - ts) * 1e-6;
        st[0][run] = (after.witness_up_s - before.witness_up_s) * 1e3;
        st[1][run] = (after.abc_device_s - before.abc_device_s) * 1e3;
        st[2][run] = (after.abc_h_s - before.abc_h_s) * 1e3;
        st[3][run] = (after.msm_h_s - before.msm_h_s) * 1e3;
        st[4][run] = (after.msm_g1_s - before.msm_g1_s) * 1e3;
        st[5][run] = (after.msm_g2_s - before.msm_g2_s) * 1e3;
        st[6][run] = (after.host_abc_s - before.host_abc_s) * 1e3;
        if (run == 0)
            printf("  first start (uploads the bases, %.0f ms, and the R1CS, %.0f ms): %.0f ms%s\n",
                   (after.bases_s - before.bases_s) * 1e3, (after.r1cs_up_s - before.r1cs_up_s) * 1e3, start[0],
                   after.host_abc_starts > before.host_abc_starts ? " (a, b, c on the HOST: the R1CS did not fit)" : "");
    }
    if (rc_ == 0 && reps > 0) {
        double smin = start[1], smax = start[1];
        for (int i = 1; i < runs; i++) {
            smin = start[i] < smin ? start[i] : smin;
            smax = start[i] > smax ? start[i] : smax;
        }
        const double sm = med(start + 1, reps);
        printf("  %-28s %10.1f ms (min %.1f, max %.1f, %d runs; aux %s)\n", "start", sm, smin, smax, reps,
               packed_abc ? "packed" : "plain");
        for (int i = 0; i < NS; i++) printf("    %-26s %10.1f ms\n", names[i], med(st[i] + 1, reps));
        if (csv) {
            fprintf(csv, "start,%u,%s,%.3f,%.3f,%.3f\n", k, g2where, sm, smin, smax);
            for (int i = 0; i < NS; i++) fprintf(csv, "%s,%u,%s,%.3f,,\n", names[i], k, g2where, med(st[i] + 1, reps));
        }
    }
    czk_backend_forget(be, &params);
    free(start);
    for (int i = 0; i < NS; i++) free(st[i]);
    free(g1);
    free(g2);
    czk_witness_free(&w);
    czk_r1cs_compact_free(&rc);
    czk_bitmap_free(&a_aux);
    czk_bitmap_free(&b_input);
    czk_bitmap_free(&b_aux);
    return rc_;
}

int main(int argc, char **argv) {
    int reps = 5, workers = 2;
    bool device_abc = false;
    czk_g2_where g2 = CZK_G2_GPU;
    unsigned ks[16];
    int nk = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--workers") && i + 1 < argc && atoi(argv[i + 1]) >= 1 &&
                   atoi(argv[i + 1]) <= 8) {
            workers = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--g2") && i + 1 < argc) {
            i++;
            g2 = !strcmp(argv[i], "cpu") ? CZK_G2_CPU : CZK_G2_GPU;
        } else if (!strcmp(argv[i], "--abc") && i + 1 < argc) {
            i++;
            abc_mode = -1;
            for (int k = 0; k < 3; k++)
                if (!strcmp(argv[i], abc_names[k])) abc_mode = k;
            if (abc_mode < 0) {
                fprintf(stderr, "bench_gpu_prove: --abc takes random, binary or sha, not %s\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--packed")) {
            packed_abc = true;
        } else if (!strcmp(argv[i], "--device-abc")) {
            device_abc = true;
        } else if (nk < 16 && atoi(argv[i]) >= 10 && atoi(argv[i]) <= 27) {
            ks[nk++] = (unsigned)atoi(argv[i]);
        } else {
            fprintf(stderr, "usage: bench_gpu_prove [--reps N] [--workers W] [--g2 gpu|cpu] [--abc random|binary|sha] "
                            "[--packed] [--device-abc] [K ...] (10 <= K <= 27, W <= 8)\n");
            return 2;
        }
    }
    if (nk == 0) {
        ks[nk++] = 20;
        ks[nk++] = 24;
        ks[nk++] = 27;
    }
    if (czk_gpu_count() == 0) {
        printf("bench_gpu_prove: no GPU\n");
        return 0;
    }
    czk_pool *pool = NULL;
    if (czk_pool_create(&pool, 0) != CZK_OK) return 1;
    pack_pool = pool;
    czk_backend *be = NULL;
    char msg[512] = "";
    czk_backend_cuda_config cfg = {0, 0, g2, pool};
    if (czk_backend_cuda_open(&be, &cfg, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_gpu_prove: %s\n", msg);
        return 1;
    }
    const char *where = g2 == CZK_G2_GPU ? "gpu" : "cpu";
    printf("CUDA backend start on %s, PoRep-shaped partitions, B in G2 on the %s, a, b, c %s%s\n",
           czk_backend_cuda_describe(be), where,
           abc_mode == 1 ? "mostly 0/1" : abc_mode == 2 ? "with a SHA-256 circuit's classes" : "random",
           packed_abc ? ", given packed" : "");
    mkdir("bench", 0755);
    mkdir("bench/results", 0755);
    char csv_name[64] = "bench/results/gpu_prove.csv";
    if (device_abc)
        snprintf(csv_name, sizeof csv_name, "bench/results/gpu_prove_device_abc%s.csv", packed_abc ? "_packed" : "");
    else if (abc_mode || packed_abc)
        snprintf(csv_name, sizeof csv_name, "bench/results/gpu_prove_abc_%s%s.csv", abc_names[abc_mode],
                 packed_abc ? "_packed" : "");
    FILE *csv = fopen(csv_name, "w");
    if (csv) fprintf(csv, "stage,log2_domain,b_g2_on,median_ms,min_ms,max_ms\n");
    int rc = 0;
    for (int i = 0; i < nk && rc == 0; i++)
        rc = device_abc ? bench_device_abc(be, ks[i], reps, csv, where) : bench_k(be, ks[i], reps, workers, csv, where);
    if (csv) fclose(csv);
    czk_backend_close(be);
    czk_pool_destroy(pool);
    return rc;
}
