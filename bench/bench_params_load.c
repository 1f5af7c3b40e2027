/* czk — a params file loaded straight to the GPU (czk_backend_cuda_params_load):
 *   bench_params_load FILE [--repeat K] [--no-check] [--chunk-mib M] [--readers R]
 * loads FILE K times (forgetting it in between) and prints, for each load and
 * as the median, the seconds, GB/s (file bytes / seconds), the time in read
 * and waiting for DMA, the device memory the queries took and the process's
 * peak RSS. Needs a CUDA device (exit 77 without one); the file is whatever
 * `czk setup` or the trusted setup wrote (for porep-32g, 47 GB). Whether the
 * file is in the page cache decides what the first load measures: run with
 * K >= 2 to see both (or drop the cache between runs as root). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "czk/backend.h"
#include "czk/gpu.h"
#include "czk/groth16.h"

static long peak_rss_kib(void) {
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

int main(int argc, char **argv) {
    const char *path = NULL;
    int repeat = 3;
    czk_params_load_options o = {.check_curve = true};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-check")) o.check_curve = false;
        else if (!strcmp(argv[i], "--chunk-mib") && i + 1 < argc) o.chunk_bytes = (size_t)atol(argv[++i]) << 20;
        else if (!strcmp(argv[i], "--readers") && i + 1 < argc) o.readers = (unsigned)atoi(argv[++i]);
        else if (argv[i][0] != '-' && !path) path = argv[i];
        else {
            fprintf(stderr, "usage: %s FILE [--repeat K] [--no-check] [--chunk-mib M] [--readers R]\n", argv[0]);
            return 2;
        }
    }
    if (!path || repeat < 1) {
        fprintf(stderr, "usage: %s FILE [--repeat K] [--no-check] [--chunk-mib M] [--readers R]\n", argv[0]);
        return 2;
    }
    if (czk_gpu_count() == 0) {
        printf("bench_params_load: SKIP (no CUDA device)\n");
        return 77;
    }
    char msg[1024] = "";
    czk_backend *be = NULL;
    czk_backend_cuda_config cfg = {0, 0, CZK_G2_GPU, NULL};
    if (czk_backend_cuda_open(&be, &cfg, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_params_load: %s\n", msg);
        return 1;
    }
    printf("device: %s; file %s; on-curve check %s, chunk %zu MiB, readers %u\n", czk_backend_cuda_describe(be), path,
           o.check_curve ? "on" : "off", (o.chunk_bytes ? o.chunk_bytes : (size_t)256 << 20) >> 20,
           o.readers ? o.readers : 4);
    printf("%-4s %10s %8s %8s %8s %10s %10s\n", "run", "seconds", "GB/s", "read_s", "wait_s", "device_GiB",
           "rss_MiB");
    double *secs = calloc((size_t)repeat, sizeof *secs);
    int rc = 0;
    unsigned long long bytes = 0;
    for (int k = 0; k < repeat && secs; k++) {
        const size_t used0 = czk_backend_cuda_mem_used(be);
        czk_params p;
        czk_params_load_stats st;
        if (czk_backend_cuda_params_load_opts(be, path, &o, &p, &st, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "bench_params_load: %s\n", msg);
            rc = 1;
            break;
        }
        const size_t dev = czk_backend_cuda_mem_used(be) - used0;
        printf("%-4d %10.3f %8.2f %8.3f %8.3f %10.2f %10.1f\n", k + 1, st.seconds, st.gb_per_s, st.read_s,
               st.wait_s, dev / 1073741824.0, peak_rss_kib() / 1024.0);
        printf("     h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu points; %zu inputs\n", p.n_h, p.n_l, p.n_a, p.n_b_g1,
               p.n_b_g2, p.vk.n_ic);
        secs[k] = st.seconds;
        bytes = st.file_bytes;
        czk_backend_forget(be, &p);
        czk_params_free(&p);
    }
    if (rc == 0 && secs) {
        qsort(secs, (size_t)repeat, sizeof *secs, bench_cmp_double);
        const double med = secs[repeat / 2];
        printf("median %.3f s, %.2f GB/s over %d loads of %llu bytes; min %.3f s, max %.3f s; peak RSS %.1f MiB\n",
               med, med > 0 ? bytes / med / 1e9 : 0, repeat, bytes, secs[0], secs[repeat - 1],
               peak_rss_kib() / 1024.0);
    }
    free(secs);
    czk_backend_close(be);
    return rc;
}
