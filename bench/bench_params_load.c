/* czk — a params file loaded straight to the GPU (czk_backend_cuda_params_load):
 *   bench_params_load FILE [--repeat K] [--no-check] [--chunk-mib M] [--readers R]
 * loads FILE K times (forgetting it in between) and prints, for each load and
 * as the median, the seconds, GB/s (file bytes / seconds), the time in read
 * and waiting for DMA, the device memory the queries took and the process's
 * peak RSS. Needs a CUDA device (exit 77 without one); the file is whatever
 * `czk setup` or the trusted setup wrote (for porep-32g, 47 GB). Whether the
 * file is in the page cache decides what the first load measures: run with
 * K >= 2 to see both (or drop the cache between runs as root).
 *   bench_params_load --make FILE [--scale S]
 * writes a file of porep-32g's shape (47.4 GB at S = 1: h 2^27 - 1, l
 * 130,169,893, a 130,170,221, b_g1 and b_g2 33,000,000 points, 328 inputs;
 * every count times S) from a pool of 4096 valid points, repeated: what the
 * load does does not depend on the values. Needs no device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "czk/backend.h"
#include "czk/gpu.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"

#define POOL 4096
#define BUF_POINTS ((size_t)1 << 18)

static void put_u32(FILE *f, uint32_t v) {
    const uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    fwrite(b, 1, 4, f);
}

/* n points of psize bytes from pool (POOL encodings), cycled. */
static void put_points(FILE *f, const uint8_t *pool, size_t psize, size_t n, uint8_t *buf) {
    for (size_t i = 0; i < BUF_POINTS; i++) memcpy(buf + i * psize, pool + (i % POOL) * psize, psize);
    for (size_t done = 0; done < n;) {
        const size_t k = n - done < BUF_POINTS ? n - done : BUF_POINTS;
        fwrite(buf, psize, k, f);
        done += k;
    }
}

static int make_file(const char *path, double scale) {
    const size_t n_ic = 328;
    const size_t n[5] = {(size_t)(134217727 * scale), (size_t)(130169893 * scale), (size_t)(130170221 * scale),
                         (size_t)(33000000 * scale), (size_t)(33000000 * scale)};
    uint8_t *g1 = malloc(POOL * 96), *g2 = malloc(POOL * 192), *buf = malloc(BUF_POINTS * 192);
    czk_vk vk = {0};
    vk.ic = malloc(n_ic * sizeof *vk.ic);
    if (!g1 || !g2 || !buf || !vk.ic) return 1;
    czk_g1 a, g;
    czk_g2 b, h;
    czk_g1_from_affine(&g, &CZK_G1_GENERATOR);
    czk_g2_from_affine(&h, &CZK_G2_GENERATOR);
    a = g;
    b = h;
    for (size_t i = 0; i < POOL; i++) { /* i+1 times the generators */
        czk_g1_affine x;
        czk_g2_affine y;
        czk_g1_to_affine(&x, &a);
        czk_g2_to_affine(&y, &b);
        czk_g1_to_uncompressed(g1 + i * 96, &x);
        czk_g2_to_uncompressed(g2 + i * 192, &y);
        if (i < n_ic) vk.ic[i] = x;
        czk_g1_add(&a, &a, &g);
        czk_g2_add(&b, &b, &h);
    }
    czk_g1_to_affine(&vk.alpha_g1, &g);
    vk.beta_g1 = vk.delta_g1 = vk.alpha_g1;
    czk_g2_to_affine(&vk.beta_g2, &h);
    vk.gamma_g2 = vk.delta_g2 = vk.beta_g2;
    vk.n_ic = n_ic;
    size_t vlen = 0;
    char msg[256];
    uint8_t *venc = malloc(czk_vk_encoded_size(n_ic));
    FILE *f = fopen(path, "wb");
    if (!venc || !f || czk_vk_encode(&vk, venc, czk_vk_encoded_size(n_ic), &vlen, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "bench_params_load: cannot write %s\n", path);
        return 1;
    }
    fwrite(venc, 1, vlen, f);
    for (int s = 0; s < 5; s++) {
        put_u32(f, (uint32_t)n[s]);
        put_points(f, s == 4 ? g2 : g1, s == 4 ? 192 : 96, n[s], buf);
    }
    const int bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "bench_params_load: writing %s failed\n", path);
        return 1;
    }
    printf("wrote %s: h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu points, %zu inputs\n", path, n[0], n[1], n[2], n[3],
           n[4], n_ic);
    free(venc), free(vk.ic), free(g1), free(g2), free(buf);
    return 0;
}

static long peak_rss_kib(void) {
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

int main(int argc, char **argv) {
    const char *path = NULL, *make = NULL;
    double scale = 1.0;
    int repeat = 3;
    czk_params_load_options o = {.check_curve = true};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-check")) o.check_curve = false;
        else if (!strcmp(argv[i], "--chunk-mib") && i + 1 < argc) o.chunk_bytes = (size_t)atol(argv[++i]) << 20;
        else if (!strcmp(argv[i], "--readers") && i + 1 < argc) o.readers = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--make") && i + 1 < argc) make = argv[++i];
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc) scale = atof(argv[++i]);
        else if (argv[i][0] != '-' && !path) path = argv[i];
        else {
            fprintf(stderr, "usage: %s FILE [--repeat K] [--no-check] [--chunk-mib M] [--readers R]\n", argv[0]);
            return 2;
        }
    }
    if (make) return scale > 0 && scale <= 1 ? make_file(make, scale) : 2;
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
