/* czk — the host's side of the packed uploads (src/r1cs/fr_pack.c) against
 * the copy that the plain staged uploads do instead (gpu.c's stage_chunk:
 * a memcpy into the pinned buffer, split over the pool), per value, on
 * chunks of CZK_FR_PACK_MAX values (64 MiB), for pools of 1, 2, 4, …
 * threads up to the machine's cores. Packing pays only where it runs
 * faster than that copy (docs/gpu.md), so this is the number to watch on
 * the GPU machine (bench/gpu.sh runs it).
 *
 * Two mixes: "binary", 95 % 0/1 and 5 % other values (bench_gpu_prove
 * --abc binary), and "sha", a SHA-256 circuit's a (bench_fill_fr_sha:
 * 49.6 % zero, 19.6 % one, 30.7 % small multiples of one, 0.1 % other).
 * Median, min and max of 5 runs over 16 chunks (1 GiB), ns per value;
 * CSV: bench/results/fr_pack.csv.
 *   bench_fr_pack [max_threads] */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czk/fr_pack.h"
#include "bench.h"
#include "czk/pool.h"

#define CHUNKS 16
#define REPS 5

typedef struct {
    const czk_fr_pack_table *t;
    const czk_fr *src;
    void *dst;
    size_t cap;
    czk_pool *pool;
} ctx_t;

/* the binary mix as bench_gpu_prove --abc binary draws it, or a SHA-256
 * circuit's a */
static void fill(czk_fr *v, size_t n, int sha) {
    if (sha) bench_fill_fr_sha(v, n, 7, 0);
    else bench_fill_fr(v, n, 7, 0.95);
}

typedef struct {
    char *dst;
    const char *src;
} copy_job;

static void copy_part(void *c, size_t begin, size_t end, int worker) {
    (void)worker;
    copy_job *j = c;
    memcpy(j->dst + begin, j->src + begin, end - begin);
}

static size_t packed_bytes;

static int run(ctx_t *x, int pack) {
    const size_t n = CZK_FR_PACK_MAX;
    for (size_t c = 0; c < CHUNKS; c++) {
        if (pack) {
            const size_t b = czk_fr_pack(x->t, x->src + c * n, n, x->dst, x->cap, x->pool);
            if (!b) return 1;
            packed_bytes += b;
        } else {
            copy_job j = {x->dst, (const char *)(x->src + c * n)};
            czk_pool_run(x->pool, n * sizeof(czk_fr), (size_t)1 << 20, copy_part, &j);
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int max_threads = argc > 1 ? atoi(argv[1]) : (int)(cores > 0 ? cores : 1);
    if (max_threads < 1) max_threads = 1;
    const size_t n = CZK_FR_PACK_MAX, cap = czk_fr_pack_others_at(n) + n * sizeof(czk_fr);
    czk_fr_pack_table t;
    czk_fr_pack_table_init(&t);
    czk_fr *src = malloc(CHUNKS * n * sizeof(czk_fr));
    void *dst = malloc(cap);
    if (!src || !dst) {
        fprintf(stderr, "bench_fr_pack: out of memory\n");
        return 1;
    }
    FILE *csv = bench_csv_open("fr_pack.csv");
    printf("packing Fr chunks of %zu values for upload, against the copy it replaces (ns per value)\n", n);
    bench_print_header();
    int rc = 0;
    for (int sha = 0; sha <= 1 && !rc; sha++) {
        fill(src, CHUNKS * n, sha);
        for (int th = 1; !rc; th = th * 2 > max_threads && th < max_threads ? max_threads : th * 2) {
            czk_pool *pool = NULL;
            if (th > 1 && czk_pool_create(&pool, th) != CZK_OK) return 1;
            ctx_t x = {&t, src, dst, cap, pool};
            for (int pack = 1; pack >= 0 && !rc; pack--) {
                double s[REPS];
                packed_bytes = 0;
                rc = run(&x, pack); /* warm-up (and the pages of dst) */
                for (int i = 0; i < REPS && !rc; i++) {
                    const double t0 = bench_now_ns();
                    rc = run(&x, pack);
                    s[i] = (bench_now_ns() - t0) / (double)(CHUNKS * n);
                }
                if (rc) {
                    fprintf(stderr, "bench_fr_pack: a chunk did not pack\n");
                    break;
                }
                qsort(s, REPS, sizeof s[0], bench_cmp_double);
                char name[64];
                snprintf(name, sizeof name, "%s %s, %d thread%s", pack ? "pack" : "copy", sha ? "sha" : "binary", th,
                         th > 1 ? "s" : "");
                bench_result r = {name, s[REPS / 2], s[0], s[REPS - 1], 1, REPS};
                bench_print(&r, 0);
                bench_csv_row(csv, &r, 0);
                if (pack)
                    printf("  %.2f bytes per value cross PCIe\n", (double)packed_bytes / ((REPS + 1.0) * CHUNKS * n));
            }
            czk_pool_destroy(pool);
            if (th >= max_threads) break;
        }
    }
    if (csv) fclose(csv);
    free(src);
    free(dst);
    return rc;
}
