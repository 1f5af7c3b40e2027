/* czk — GPU NTT and H benchmarks (device 0).
 *
 * For 2^27, 2^26, 2^24, 2^22, 2^20 (2^20 and 2^22 with --quick): the forward,
 * inverse and coset NTT on device-resident data (natural order in and out),
 * H on device-resident a, b, c, and H with its transfers from and to
 * pageable host memory (czk_gpu_poly_h). Median, min and max of 5 runs after
 * one warm-up, in ns; the anchor is sppark's time on an H200 where issue C
 * gives one, and the ratio is czk's time over it. Also the forward NTT at
 * 2^24 and 2^27 with passes of at most 9 and 10 stages (CZK_GPU_NTT_K) and with
 * the separate bit reversal (CZK_GPU_NTT_BITREV=1).
 * --ntt: only those rows (and the pass variants); --ntt-sizes L: only
 * those sizes, without the variants.
 * G1 MSM (czk_gpu_msm_g1) at 2^20, 2^22, 2^24, 2^26, 2^27 (2^20, 2^22 with
 * --quick): resident bases with scalars from pinned host memory, random
 * and a PoRep-like mix (95 % zeros and ones, bench_fill_fr), and up to
 * 2^24 bases and random scalars uploaded by each call (pageable memory);
 * median, min and max of 5 runs after one warm-up. The bases are 2^16
 * distinct points repeated; after each resident row one more run prints its
 * stage times (CZK_GPU_MSM_PROFILE). G2 MSM (czk_gpu_msm_g2_resident) at
 * 2^20 … 2^25 (2^20, 2^22 with --quick): resident bases (2^16 distinct
 * points repeated), random scalars from pinned host memory, median, min and
 * max of 5 runs after one warm-up, then one profiled run. --msm: only the
 * MSM rows (G1 and G2); --g2: only the G2 MSM rows. --g1-sizes / --g2-sizes
 * L (log2 sizes, comma-separated, up to 2^28 / 2^26): only those MSM rows
 * (G1: resident only); --windows L: each resident MSM row once per window
 * size (CZK_GPU_MSM_WINDOW; 0: the default).
 * Prints "no GPU" and exits 0 without a device. CSV: bench/results/gpu.csv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/gpu.h"
#include "czk/poly.h"

#define REPS 5
#define MSM_REPS 5
#define G2_REPS 5

#ifdef CZK_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

typedef struct {
    czk_gpu *g;
    czk_domain *d;
    czk_gpu_vec *v[3];
    czk_fr *h[3];
    int op; /* 0..3 ntt kinds, 4 H on device, 5 H with transfers */
} ctx_t;

static int run_once(ctx_t *x) {
    char msg[256] = "";
    czk_err e;
    if (x->op < 4)
        e = czk_gpu_ntt_vec(x->g, x->d, x->v[0], (czk_gpu_ntt_kind)x->op, msg, sizeof msg);
    else if (x->op == 4)
        e = czk_gpu_poly_h_vec(x->g, x->d, x->v[0], x->v[1], x->v[2], msg, sizeof msg);
    else
        e = czk_gpu_poly_h(x->g, x->d, x->h[0], x->h[1], x->h[2], msg, sizeof msg);
    if (e != CZK_OK) fprintf(stderr, "bench_gpu: %s\n", msg);
    return e == CZK_OK ? 0 : 1;
}

static FILE *csv;
static char names[64][64];
static int name_i;

static int measure(ctx_t *x, const char *label, unsigned lg, double anchor_ms) {
    double s[REPS];
    if (run_once(x)) return 1;
    for (int i = 0; i < REPS; i++) {
        double t0 = bench_now_ns();
        if (run_once(x)) return 1;
        s[i] = bench_now_ns() - t0;
    }
    qsort(s, REPS, sizeof s[0], bench_cmp_double);
    char *name = names[name_i++ % 64];
    snprintf(name, sizeof names[0], "%s 2^%u", label, lg);
    bench_result r = {name, s[REPS / 2], s[0], s[REPS - 1], 1, REPS};
    bench_print(&r, anchor_ms * 1e6);
    bench_csv_row(csv, &r, anchor_ms * 1e6);
    return 0;
}

typedef struct {
    czk_gpu *g;
    const czk_g1_affine *bases;
    const czk_gpu_g1_bases *resident;
    const czk_gpu_g2_bases *resident2; /* set: the G2 MSM */
    const czk_fr *scalars;
    size_t n;
} msm_ctx;

static int msm_once(msm_ctx *x) {
    char msg[256] = "";
    czk_g1 r;
    czk_g2 r2;
    czk_err e = x->resident2 ? czk_gpu_msm_g2_resident(x->g, &r2, x->resident2, x->scalars, x->n, NULL, msg, sizeof msg)
                : x->resident ? czk_gpu_msm_g1_resident(x->g, &r, x->resident, x->scalars, x->n, NULL, msg, sizeof msg)
                              : czk_gpu_msm_g1(x->g, &r, x->bases, x->scalars, x->n, NULL, msg, sizeof msg);
    if (e != CZK_OK) fprintf(stderr, "bench_gpu: %s\n", msg);
    return e == CZK_OK ? 0 : 1;
}

static int msm_measure(msm_ctx *x, const char *label, unsigned lg, double anchor_ms) {
    double s[G2_REPS > MSM_REPS ? G2_REPS : MSM_REPS];
    const int reps = x->resident2 ? G2_REPS : MSM_REPS;
    if (msm_once(x)) return 1;
    for (int i = 0; i < reps; i++) {
        double t0 = bench_now_ns();
        if (msm_once(x)) return 1;
        s[i] = bench_now_ns() - t0;
    }
    qsort(s, (size_t)reps, sizeof s[0], bench_cmp_double);
    char *name = names[name_i++ % 64];
    snprintf(name, sizeof names[0], "%.48s 2^%u", label, lg % 100);
    bench_result r = {name, s[reps / 2], s[0], s[reps - 1], 1, reps};
    bench_print(&r, anchor_ms * 1e6);
    bench_csv_row(csv, &r, anchor_ms * 1e6);
    return 0;
}

/* G1 MSM rows; sppark on an H200 (issue C): resident bases, pinned random
 * scalars, 2^24: 163 ms. */
/* --g1 LIST / --g2 LIST (sizes as log2, e.g. 24,27) and --windows LIST
 * (window bits through CZK_GPU_MSM_WINDOW, 0 = the default): only those
 * rows, resident bases. */
static unsigned g1_sizes[8], g2_sizes[8], windows[8], ntt_sizes[8];
static int n_g1_sizes, n_g2_sizes, n_windows, n_ntt_sizes;

static int parse_list(const char *arg, unsigned *v, int *n, unsigned lo, unsigned hi) {
    *n = 0;
    for (const char *q = arg; *q;) {
        char *end;
        unsigned long x = strtoul(q, &end, 10);
        if (end == q || *n == 8 || x < lo || x > hi) return -1;
        v[(*n)++] = (unsigned)x;
        q = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return *n ? 0 : -1;
}

/* the resident row at n = 2^lg for each window of --windows (or the default) */
static int msm_rows(msm_ctx *x, const char *label, unsigned lg, double anchor_ms) {
    const int nw = n_windows ? n_windows : 1;
    int rc = 0;
    for (int k = 0; k < nw && !rc; k++) {
        char lab[48], cv[16];
        if (n_windows && windows[k]) {
            snprintf(cv, sizeof cv, "%u", windows[k]);
            setenv("CZK_GPU_MSM_WINDOW", cv, 1);
            snprintf(lab, sizeof lab, "%.36s c=%u", label, windows[k] % 100);
        } else {
            unsetenv("CZK_GPU_MSM_WINDOW");
            snprintf(lab, sizeof lab, "%.40s", label);
        }
        rc = msm_measure(x, lab, lg, anchor_ms);
        if (!rc) { /* one more run that prints its stage times */
            setenv("CZK_GPU_MSM_PROFILE", "1", 1);
            rc = msm_once(x);
            unsetenv("CZK_GPU_MSM_PROFILE");
        }
    }
    unsetenv("CZK_GPU_MSM_WINDOW");
    return rc;
}

static int bench_msm(czk_gpu *g, int quick) {
    static const unsigned full[] = {20, 22, 24, 26, 27}, small[] = {20, 22};
    const unsigned *lgs = n_g1_sizes ? g1_sizes : quick ? small : full;
    const int nlg = n_g1_sizes ? n_g1_sizes : quick ? 2 : 5;
    unsigned top = 0;
    for (int k = 0; k < nlg; k++) top = lgs[k] > top ? lgs[k] : top;
    const size_t nmax = (size_t)1 << top;
    czk_g1_affine *bases = bench_g1_points(nmax);
    czk_fr *scalars = malloc(nmax * sizeof *scalars), *mix = malloc(nmax * sizeof *mix);
    if (!bases || !scalars || !mix) {
        fprintf(stderr, "bench_gpu: out of host memory for the G1 rows\n");
        free(bases), free(scalars), free(mix);
        return 1;
    }
    bench_fill_fr(scalars, nmax, 0x2545f4914f6cdd1dull, 0);
    bench_fill_fr(mix, nmax, 0x9e3779b97f4a7c15ull, 0.95); /* a witness: 95 % zeros and ones */
    int pinned = 0;
#ifdef CZK_HAVE_CUDA
    pinned = cudaHostRegister(scalars, nmax * sizeof *scalars, cudaHostRegisterDefault) == cudaSuccess &&
             cudaHostRegister(mix, nmax * sizeof *mix, cudaHostRegisterDefault) == cudaSuccess;
    if (!pinned) (void)cudaGetLastError();
#endif
    char msg[256] = "";
    czk_gpu_g1_bases *res = NULL;
    int rc = 0;
    if (czk_gpu_g1_bases_upload(g, bases, nmax, &res, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_gpu: %s\n", msg);
        rc = 1;
    }
    for (int k = 0; k < nlg && !rc; k++) {
        const unsigned lg = lgs[k];
        msm_ctx x = {g, bases, NULL, NULL, scalars, (size_t)1 << lg};
        /* bases uploaded by each call: up to 2^24 (12 GiB a call at 2^27) */
        if (!n_g1_sizes && lg <= 24) rc = msm_measure(&x, "msm g1 (upload all)", lg, 0);
        if (rc) break;
        x.resident = res;
        rc = msm_rows(&x, pinned ? "msm g1 (resident, pinned)" : "msm g1 (resident)", lg,
                      lg == 24 ? 163 : lg == 26 ? 571 : lg == 27 ? 1110 : 0);
        /* the same without the split upload (gpu_msm.c's msm_split_at), and with a first part of n/16 */
        static const char *const split_env[2] = {"0", "16"}, *const split_lab[2] = {"no split", "split n/16"};
        for (int v = 0; v < 2 && !rc && lg >= 25; v++) {
            char lab[64];
            snprintf(lab, sizeof lab, "msm g1 (resident%s) %s", pinned ? ", pinned" : "", split_lab[v]);
            setenv("CZK_GPU_MSM_SPLIT", split_env[v], 1);
            rc = msm_rows(&x, lab, lg, 0);
            unsetenv("CZK_GPU_MSM_SPLIT");
        }
        x.scalars = mix;
        if (!rc) rc = msm_rows(&x, pinned ? "msm g1 porep mix (resident, pinned)" : "msm g1 porep mix (resident)", lg, 0);
    }
    czk_gpu_g1_bases_free(res);
#ifdef CZK_HAVE_CUDA
    if (pinned) cudaHostUnregister(scalars), cudaHostUnregister(mix);
#endif
    free(scalars);
    free(mix);
    free(bases);
    return rc;
}

/* G2 MSM rows: resident bases, pinned random scalars. The bases are 2^16
 * distinct points P + i·Q repeated (6 GiB of host memory at 2^25). */
static int bench_msm_g2(czk_gpu *g, int quick) {
    unsigned top = quick ? 22 : 25;
    for (int k = 0; k < n_g2_sizes; k++) top = k == 0 || g2_sizes[k] > top ? g2_sizes[k] : top;
    const size_t nmax = (size_t)1 << top;
    czk_g2_affine *bases = bench_g2_points(nmax);
    czk_fr *scalars = malloc(nmax * sizeof *scalars);
    if (!bases || !scalars) {
        fprintf(stderr, "bench_gpu: out of host memory for the G2 rows\n");
        free(bases), free(scalars);
        return 1;
    }
    bench_fill_fr(scalars, nmax, 0x5851f42d4c957f2dull, 0);
    int pinned = 0;
#ifdef CZK_HAVE_CUDA
    pinned = cudaHostRegister(scalars, nmax * sizeof *scalars, cudaHostRegisterDefault) == cudaSuccess;
    if (!pinned) (void)cudaGetLastError();
#endif
    char msg[256] = "";
    czk_gpu_g2_bases *res = NULL;
    int rc = 0;
    if (czk_gpu_g2_bases_upload(g, bases, nmax, &res, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_gpu: %s\n", msg);
        rc = 1;
    }
    free(bases); /* resident now */
    for (int k = 0; n_g2_sizes ? k < n_g2_sizes : 20 + k <= (int)top; k++) {
        if (rc) break;
        const unsigned lg = n_g2_sizes ? g2_sizes[k] : 20 + (unsigned)k;
        if (!n_g2_sizes && quick && lg % 2) continue;
        msm_ctx x = {g, NULL, NULL, res, scalars, (size_t)1 << lg};
        rc = msm_rows(&x, pinned ? "msm g2 (resident, pinned)" : "msm g2 (resident)", lg, lg == 25 ? 850 : 0);
    }
    czk_gpu_g2_bases_free(res);
#ifdef CZK_HAVE_CUDA
    if (pinned) cudaHostUnregister(scalars);
#endif
    free(scalars);
    return rc;
}

/* sppark on an H200 (issue C): forward, inverse, coset at 2^24, 2^26, 2^27 */
static double anchor(int op, unsigned lg) {
    if (op == 0) return lg == 24 ? 4.7 : lg == 26 ? 23.8 : lg == 27 ? 44.4 : 0;
    if (op == 1) return lg == 27 ? 47.0 : 0;
    if (op == 2) return lg == 27 ? 49.1 : 0;
    return 0;
}

int main(int argc, char **argv) {
    if (czk_gpu_count() == 0) {
        printf("bench_gpu: no GPU\n");
        return 0;
    }
    int quick = 0, msm_only = 0, g2_only = 0, ntt_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--msm") == 0) msm_only = 1; /* only the MSM rows */
        else if (strcmp(argv[i], "--ntt") == 0) ntt_only = 1; /* only the NTT and H rows */
        else if (strcmp(argv[i], "--ntt-sizes") == 0 && i + 1 < argc && !parse_list(argv[i + 1], ntt_sizes, &n_ntt_sizes, 10, 28))
            ntt_only = 1, i++;
        else if (strcmp(argv[i], "--g2") == 0) msm_only = g2_only = 1; /* only the G2 MSM rows */
        else if (strcmp(argv[i], "--g1-sizes") == 0 && i + 1 < argc && !parse_list(argv[i + 1], g1_sizes, &n_g1_sizes, 10, 28))
            msm_only = 1, i++;
        else if (strcmp(argv[i], "--g2-sizes") == 0 && i + 1 < argc && !parse_list(argv[i + 1], g2_sizes, &n_g2_sizes, 10, 26))
            msm_only = 1, i++;
        else if (strcmp(argv[i], "--windows") == 0 && i + 1 < argc && !parse_list(argv[i + 1], windows, &n_windows, 0, 22))
            i++;
        else {
            fprintf(stderr, "usage: bench_gpu [--quick] [--ntt | --msm | --g2] [--ntt-sizes L] [--g1-sizes L] [--g2-sizes L]\n"
                            "  [--windows L]\n"
                            "  L: comma-separated log2 sizes (or window bits, 0 = default)\n");
            return 2;
        }
    }
    static const unsigned full[] = {27, 26, 24, 22, 20}, small[] = {22, 20};
    const unsigned *lgs = n_ntt_sizes ? ntt_sizes : quick ? small : full;
    size_t nlg = n_ntt_sizes ? (size_t)n_ntt_sizes : quick ? 2 : 5, nmax = 0;
    for (size_t l = 0; l < nlg; l++)
        if (((size_t)1 << lgs[l]) > nmax) nmax = (size_t)1 << lgs[l];
    char msg[256] = "";
    ctx_t x;
    memset(&x, 0, sizeof x);
    if (czk_gpu_open(&x.g, 0, 0, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_gpu: %s\n", msg);
        return 1;
    }
    printf("GPU: %s\n", czk_gpu_describe(x.g));
    csv = bench_csv_open("gpu.csv");
    if (csv) fprintf(csv, "# GPU: %s\n", czk_gpu_describe(x.g));
    for (int k = 0; k < 3 && !msm_only; k++) { /* the NTT rows' data */
        x.h[k] = malloc(nmax * sizeof(czk_fr));
        if (!x.h[k]) return 1;
        bench_fill_fr(x.h[k], nmax, 0x9e3779b97f4a7c15ull * (uint64_t)(k + 1), 0);
    }
    bench_print_header();
    static const char *labels[] = {"ntt", "intt", "coset_ntt", "coset_intt", "h (device data)", "h (with transfers)"};
    int rc = 0;
    for (size_t l = 0; l < nlg && !rc && !msm_only; l++) {
        czk_domain d;
        if (czk_domain_init(&d, (size_t)1 << lgs[l]) != CZK_OK) return 1;
        x.d = &d;
        /* vectors of the domain's size: the transforms run out of place
         * only on those (czk_gpu_ntt_vec) */
        for (int k = 0; k < 3; k++) {
            czk_gpu_vec_free(x.v[k]);
            x.v[k] = NULL;
            if (czk_gpu_vec_alloc(x.g, d.n, &x.v[k], msg, sizeof msg) != CZK_OK ||
                czk_gpu_vec_upload(x.v[k], x.h[k], msg, sizeof msg) != CZK_OK) {
                fprintf(stderr, "bench_gpu: %s\n", msg);
                return 1;
            }
        }
        for (int op = 0; op < 6 && !rc; op++) {
            if (op == 3) continue;
            x.op = op;
            rc = measure(&x, labels[op], lgs[l], anchor(op, lgs[l]));
        }
        czk_domain_free(&d);
    }
    /* variants of the forward NTT: at most 9 and 10 stages per pass (the
     * default is 8), and in place with a separate bit reversal (the path
     * where the device has no room for a second vector) */
    static const char *const variants[][3] = {{"CZK_GPU_NTT_K", "9", "ntt k<=9"},
                                              {"CZK_GPU_NTT_K", "10", "ntt k<=10"},
                                              {"CZK_GPU_NTT_BITREV", "1", "ntt, separate bit reversal"}};
    for (int vi = 0; vi < 3 && !rc && !quick && !msm_only && !n_ntt_sizes; vi++) {
        for (int k = 0; k < 3; k++) { /* room for the variant's vectors */
            czk_gpu_vec_free(x.v[k]);
            x.v[k] = NULL;
        }
        setenv(variants[vi][0], variants[vi][1], 1);
        ctx_t y = x;
        czk_err oe = czk_gpu_open(&y.g, 0, 0, msg, sizeof msg);
        unsetenv(variants[vi][0]);
        if (oe != CZK_OK) break;
        for (unsigned lg = 24; lg <= 27 && !rc; lg += 3) {
            czk_domain d;
            if (czk_domain_init(&d, (size_t)1 << lg) != CZK_OK) break;
            y.d = &d;
            y.op = 0;
            y.v[0] = NULL;
            if (czk_gpu_vec_alloc(y.g, d.n, &y.v[0], msg, sizeof msg) == CZK_OK &&
                czk_gpu_vec_upload(y.v[0], x.h[0], msg, sizeof msg) == CZK_OK)
                rc = measure(&y, variants[vi][2], lg, anchor(0, lg));
            czk_gpu_vec_free(y.v[0]);
            czk_domain_free(&d);
        }
        czk_gpu_close(y.g);
    }
    for (int k = 0; k < 3; k++) {
        czk_gpu_vec_free(x.v[k]);
        free(x.h[k]);
    }
    const int sel = n_g1_sizes || n_g2_sizes; /* with sizes given: only the groups named */
    if (!rc && !ntt_only && !g2_only && (!sel || n_g1_sizes)) rc = bench_msm(x.g, quick);
    if (!rc && !ntt_only && (!sel || n_g2_sizes)) rc = bench_msm_g2(x.g, quick);
    czk_gpu_close(x.g);
    if (csv) fclose(csv);
    return rc;
}
