/* Tests of the GPU NTT and H against the CPU functions of poly.h, byte for
 * byte: the four transform kinds and czk_poly_h on random inputs for every
 * n = 2^0 … 2^20 and for 2^22 and 2^24, and on all-zero inputs and inputs
 * zero but for their first quarter (a padded circuit's a, b, c; zeros
 * inside the passes make their lazy values reach 2r) for 2^10, 2^15, 2^18
 * and 2^22; inverse∘forward = identity on the
 * device; the device-vector API; the same with the separate bit reversal
 * (CZK_GPU_NTT_BITREV=1) for smaller sizes; out-of-memory under a tiny and a medium
 * memory cap (clean failure, nothing leaked on the device or the host, the
 * handle still usable, and right values where only one vector fits). SKIP
 * (77) without a CUDA device. */
#include <stdlib.h>
#include <string.h>

#include "czk/gpu.h"
#include "czk/mem.h"
#include "czk/poly.h"
#include "czk/pool.h"
#include "test.h"

static czk_rng rng;
static czk_pool *pool;

/* Random field elements: uniform up to 2^16 points, above that random limbs
 * with the top limb below r's (fast). */
static void random_vec(czk_fr *v, size_t n) {
    if (n <= ((size_t)1 << 16)) {
        for (size_t i = 0; i < n; i++) czk_fr_random(&v[i], &rng);
        return;
    }
    uint64_t s = czk_rng_next(&rng) | 1;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            v[i].l[k] = k == 3 ? s % 0x73eda753299d7d48ull : s;
        }
}

static const char *kind_name[] = {"ntt", "intt", "coset_ntt", "coset_intt"};

static void cpu_ntt(const czk_domain *d, czk_fr *a, int kind) {
    switch (kind) {
    case CZK_GPU_NTT_FORWARD: czk_ntt(d, a, pool); break;
    case CZK_GPU_NTT_INVERSE: czk_intt(d, a, pool); break;
    case CZK_GPU_NTT_COSET: czk_coset_ntt(d, a, pool); break;
    default: czk_coset_intt(d, a, pool); break;
    }
}

/* shape 0: random, 1: all zero, 2: random in the first quarter, zero after */
static void shaped_vec(czk_fr *v, size_t n, int shape) {
    random_vec(v, n);
    if (shape) memset(v + (shape == 2 ? n / 4 : 0), 0, (n - (shape == 2 ? n / 4 : 0)) * sizeof *v);
}

static void test_size(czk_gpu *g, unsigned lg, int shape) {
    czk_domain d;
    CHECK(czk_domain_init(&d, (size_t)1 << lg) == CZK_OK);
    size_t n = d.n, bytes = n * sizeof(czk_fr);
    czk_fr *in = malloc(bytes), *cpu = malloc(bytes), *gpu = malloc(bytes);
    czk_fr *b = malloc(bytes), *c = malloc(bytes), *b2 = malloc(bytes), *c2 = malloc(bytes);
    CHECK(in && cpu && gpu && b && c && b2 && c2);
    char msg[256] = "";
    shaped_vec(in, n, shape);
    for (int kind = 0; kind < 4; kind++) {
        memcpy(cpu, in, bytes);
        memcpy(gpu, in, bytes);
        cpu_ntt(&d, cpu, kind);
        czk_err e = czk_gpu_ntt(g, &d, gpu, (czk_gpu_ntt_kind)kind, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s 2^%u: %s", kind_name[kind], lg, msg);
        CHECK_MSG(memcmp(cpu, gpu, bytes) == 0, "%s 2^%u differs from the CPU", kind_name[kind], lg);
        /* the inverse on the device gives the input back */
        if (kind == CZK_GPU_NTT_FORWARD || kind == CZK_GPU_NTT_COSET) {
            e = czk_gpu_ntt(g, &d, gpu, (czk_gpu_ntt_kind)(kind + 1), msg, sizeof msg);
            CHECK_MSG(e == CZK_OK && memcmp(gpu, in, bytes) == 0, "%s round trip 2^%u", kind_name[kind], lg);
        }
    }
    /* H: the CPU clobbers b and c, the GPU must not */
    shaped_vec(b, n, shape);
    shaped_vec(c, n, shape);
    memcpy(b2, b, bytes);
    memcpy(c2, c, bytes);
    memcpy(cpu, in, bytes);
    memcpy(gpu, in, bytes);
    CHECK(czk_poly_h(&d, cpu, b2, c2, pool) == CZK_OK);
    memcpy(b2, b, bytes);
    memcpy(c2, c, bytes);
    czk_err e = czk_gpu_poly_h(g, &d, gpu, b, c, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "poly_h 2^%u: %s", lg, msg);
    CHECK_MSG(memcmp(cpu, gpu, bytes) == 0, "poly_h 2^%u differs from the CPU", lg);
    CHECK_MSG(memcmp(b, b2, bytes) == 0 && memcmp(c, c2, bytes) == 0, "poly_h 2^%u changed b or c", lg);
    free(in), free(cpu), free(gpu), free(b), free(c), free(b2), free(c2);
    czk_domain_free(&d);
}

/* The device-vector API: upload, two transforms, H, download. */
static void test_vec_api(czk_gpu *g) {
    czk_domain d;
    CHECK(czk_domain_init(&d, (size_t)1 << 13) == CZK_OK);
    size_t n = d.n, bytes = n * sizeof(czk_fr);
    czk_fr *x[3], *y = malloc(bytes);
    czk_gpu_vec *v[3] = {NULL, NULL, NULL};
    char msg[256] = "";
    for (int k = 0; k < 3; k++) {
        x[k] = malloc(bytes);
        random_vec(x[k], n);
        CHECK(czk_gpu_vec_alloc(g, n, &v[k], msg, sizeof msg) == CZK_OK);
        CHECK(czk_gpu_vec_upload(v[k], x[k], msg, sizeof msg) == CZK_OK);
    }
    CHECK(czk_gpu_ntt_vec(g, &d, v[0], CZK_GPU_NTT_COSET, msg, sizeof msg) == CZK_OK);
    CHECK(czk_gpu_vec_download(v[0], y, msg, sizeof msg) == CZK_OK);
    czk_coset_ntt(&d, x[0], pool);
    CHECK(memcmp(x[0], y, bytes) == 0);
    CHECK(czk_gpu_poly_h_vec(g, &d, v[0], v[1], v[2], msg, sizeof msg) == CZK_OK);
    CHECK(czk_gpu_vec_download(v[0], y, msg, sizeof msg) == CZK_OK);
    CHECK(czk_poly_h(&d, x[0], x[1], x[2], pool) == CZK_OK);
    CHECK(memcmp(x[0], y, bytes) == 0);
    for (int k = 0; k < 3; k++) {
        czk_gpu_vec_free(v[k]);
        free(x[k]);
    }
    free(y);
    czk_domain_free(&d);
}

static size_t host_in_use(void) {
    size_t s = 0;
    for (int t = 0; t < CZK_MEM__COUNT; t++) s += czk_mem_in_use((czk_mem_tag)t) + czk_mem_buffers((czk_mem_tag)t);
    return s;
}

/* One round: caps that refuse the first allocation, and one that fits the
 * tables but not the data: NO_MEMORY with a message, czk's device bytes
 * unchanged by the failed call, the handle usable for a smaller size. */
static void oom_round(int verbose) {
    char msg[256] = "";
    czk_domain d10, d15, d12;
    CHECK(czk_domain_init(&d10, 1 << 10) == CZK_OK);
    CHECK(czk_domain_init(&d15, 1 << 15) == CZK_OK);
    CHECK(czk_domain_init(&d12, 1 << 12) == CZK_OK);
    czk_fr *a = malloc(sizeof(czk_fr) << 15), *b = malloc(sizeof(czk_fr) << 15), *c = malloc(sizeof(czk_fr) << 15);
    random_vec(a, 1 << 15);
    random_vec(b, 1 << 15);
    random_vec(c, 1 << 15);

    czk_gpu *g = NULL;
    CHECK(czk_gpu_open(&g, 0, 4096, msg, sizeof msg) == CZK_OK);
    if (g) {
        czk_err e = czk_gpu_ntt(g, &d10, a, CZK_GPU_NTT_FORWARD, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_NO_MEMORY, "tiny cap: %d %s", (int)e, msg);
        if (verbose) printf("tiny cap (4 KiB), ntt 2^10: %s\n", msg);
        CHECK(czk_gpu_mem_used(g) == 0);
        e = czk_gpu_poly_h(g, &d10, a, b, c, msg, sizeof msg);
        CHECK(e == CZK_ERR_NO_MEMORY);
        CHECK(czk_gpu_mem_used(g) == 0);
        czk_gpu_vec *v = NULL;
        CHECK(czk_gpu_vec_alloc(g, 1 << 10, &v, msg, sizeof msg) == CZK_ERR_NO_MEMORY && v == NULL);
        czk_gpu_close(g);
    }
    g = NULL;
    CHECK(czk_gpu_open(&g, 0, 1536 << 10, msg, sizeof msg) == CZK_OK);
    if (g) {
        /* tables of 2^15 (544 KiB) fit, 1 MiB of data does not */
        czk_err e = czk_gpu_ntt(g, &d15, a, CZK_GPU_NTT_COSET, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_NO_MEMORY, "medium cap: %d %s", (int)e, msg);
        if (verbose) printf("1.5 MiB cap, coset_ntt 2^15: %s\n", msg);
        size_t held = czk_gpu_mem_used(g);
        CHECK(held > 0 && held <= (1536u << 10));
        memcpy(b, a, sizeof(czk_fr) << 12);
        e = czk_gpu_ntt(g, &d12, a, CZK_GPU_NTT_FORWARD, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "after OOM: %s", msg);
        czk_ntt(&d12, b, pool);
        CHECK(memcmp(a, b, sizeof(czk_fr) << 12) == 0);
        /* room for one vector beside the tables but not for the second that
         * the out-of-place transform wants: it runs in place, with the
         * separate bit reversal, and gives the same values (the forward
         * and inverse kinds: the coset kinds would need tables of their own
         * domain, which may not fit) */
        size_t room = (1536u << 10) - czk_gpu_mem_used(g);
        unsigned lv = 10;
        while (lv < 15 && (sizeof(czk_fr) << (lv + 1)) <= room) lv++;
        if ((sizeof(czk_fr) << lv) <= room && 2 * (sizeof(czk_fr) << lv) > room) {
            czk_domain dv;
            CHECK(czk_domain_init(&dv, (size_t)1 << lv) == CZK_OK);
            for (int kind = CZK_GPU_NTT_FORWARD; kind <= CZK_GPU_NTT_INVERSE; kind++) {
                memcpy(b, a, sizeof(czk_fr) << lv);
                e = czk_gpu_ntt(g, &dv, a, (czk_gpu_ntt_kind)kind, msg, sizeof msg);
                CHECK_MSG(e == CZK_OK, "%s 2^%u with room for one vector: %s", kind_name[kind], lv, msg);
                cpu_ntt(&dv, b, kind);
                CHECK_MSG(memcmp(a, b, sizeof(czk_fr) << lv) == 0, "%s 2^%u with room for one vector",
                          kind_name[kind], lv);
            }
            if (verbose) printf("1.5 MiB cap, %zu bytes free: the NTT kinds of 2^%u in place\n", room, lv);
            czk_domain_free(&dv);
        } else if (verbose) {
            printf("1.5 MiB cap, %zu bytes free: no size with room for one vector only\n", room);
        }
        random_vec(b, 1 << 15);
        e = czk_gpu_poly_h(g, &d15, a, b, c, msg, sizeof msg);
        CHECK(e == CZK_ERR_NO_MEMORY);
        czk_gpu_close(g);
    }
    /* freed blocks are kept for reuse (devmem.c's cache), within the cap: a
     * block of the same size again, then a larger one that fits only once
     * the cached block is let go; the data is whatever was uploaded last */
    g = NULL;
    CHECK(czk_gpu_open(&g, 0, 3 << 20, msg, sizeof msg) == CZK_OK);
    if (g) {
        const size_t n2 = (2u << 20) / sizeof(czk_fr), n25 = (5u << 19) / sizeof(czk_fr);
        czk_gpu_vec *v = NULL;
        czk_fr *h = malloc(n2 * sizeof(czk_fr)), *back = malloc(n2 * sizeof(czk_fr));
        for (int k = 0; k < 2 && h && back; k++) {
            CHECK(czk_gpu_vec_alloc(g, n2, &v, msg, sizeof msg) == CZK_OK);
            if (!v) break;
            CHECK(czk_gpu_mem_used(g) == n2 * sizeof(czk_fr));
            random_vec(h, n2);
            CHECK(czk_gpu_vec_upload(v, h, msg, sizeof msg) == CZK_OK);
            CHECK(czk_gpu_vec_download(v, back, msg, sizeof msg) == CZK_OK);
            CHECK(memcmp(h, back, n2 * sizeof(czk_fr)) == 0);
            czk_gpu_vec_free(v);
            CHECK(czk_gpu_mem_used(g) == 0);
        }
        free(h);
        free(back);
        CHECK_MSG(czk_gpu_vec_alloc(g, n25, &v, msg, sizeof msg) == CZK_OK, "2.5 MiB under a 3 MiB cap: %s", msg);
        CHECK(czk_gpu_mem_used(g) == n25 * sizeof(czk_fr));
        czk_gpu_vec *w = NULL;
        CHECK(czk_gpu_vec_alloc(g, n2, &w, msg, sizeof msg) == CZK_ERR_NO_MEMORY && !w);
        czk_gpu_vec_free(v);
        czk_gpu_close(g);
    }
    free(a), free(b), free(c);
    czk_domain_free(&d10);
    czk_domain_free(&d15);
    czk_domain_free(&d12);
}

/* The CUDA runtime keeps 2 MiB pages of its small-allocation pool after
 * cudaFree, so the first round may leave the device's free memory lower;
 * later rounds must leave it exactly where they found it (a leak grows). */
static void test_oom(void) {
    char msg[256] = "";
    size_t host0 = host_in_use(), total = 0;
    for (int round = 0; round < 3; round++) {
        size_t free0 = 0, free1 = 0;
        CHECK(czk_gpu_mem_info(0, &free0, &total, msg, sizeof msg) == CZK_OK);
        oom_round(round == 0);
        CHECK(czk_gpu_mem_info(0, &free1, &total, msg, sizeof msg) == CZK_OK);
        printf("OOM round %d: device free memory %zu before, %zu after\n", round, free0, free1);
        if (round > 0) CHECK_MSG(free1 == free0, "device free memory %zu before, %zu after", free0, free1);
    }
    CHECK(host_in_use() == host0);
}

int main(void) {
    if (czk_gpu_count() == 0) {
        printf("test_gpu_ntt: no GPU, skipped\n");
        return TEST_SKIP;
    }
    test_seed_rng(&rng, "test_gpu_ntt");
    char msg[256] = "";
    czk_gpu *g = NULL;
    czk_err e = czk_gpu_open(&g, 0, 0, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    if (e != CZK_OK) return test_finish("test_gpu_ntt");
    printf("device: %s\n", czk_gpu_describe(g));
    CHECK(strlen(czk_gpu_describe(g)) > 0);
    if (czk_pool_create(&pool, 0) != CZK_OK) return 1;

    test_vec_api(g);
    static const unsigned big[] = {22, 24};
    for (unsigned lg = 0; lg <= 20 + 2; lg++) {
        unsigned l = lg <= 20 ? lg : big[lg - 21];
        int before = test_failures;
        test_size(g, l, 0);
        printf("2^%-2u %s\n", l, test_failures == before ? "ok" : "FAILED");
        fflush(stdout);
    }
    static const unsigned shaped[] = {10, 15, 18, 22};
    for (size_t i = 0; i < sizeof shaped / sizeof shaped[0]; i++)
        for (int shape = 1; shape <= 2; shape++) {
            int before = test_failures;
            test_size(g, shaped[i], shape);
            printf("2^%-2u %s %s\n", shaped[i], shape == 1 ? "zero" : "first quarter", test_failures == before ? "ok" : "FAILED");
        }
    czk_gpu_close(g);
    /* the in-place transforms with a separate bit reversal: the path taken
     * where the device has no room for a second vector (above, the last
     * pass wrote each transform into a second vector in natural order) */
    setenv("CZK_GPU_NTT_BITREV", "1", 1);
    g = NULL;
    CHECK(czk_gpu_open(&g, 0, 0, msg, sizeof msg) == CZK_OK);
    unsetenv("CZK_GPU_NTT_BITREV");
    if (g) {
        test_vec_api(g);
        for (unsigned lg = 0; lg <= 18; lg += lg < 12 ? 1 : 3) {
            int before = test_failures;
            test_size(g, lg, lg % 3 == 0 ? 2 : 0);
            printf("2^%-2u with a separate bit reversal %s\n", lg, test_failures == before ? "ok" : "FAILED");
        }
        czk_gpu_close(g);
    }
    /* after every kernel has run once: CUDA loads kernels lazily, taking
     * device memory at a kernel's first launch */
    test_oom();
    czk_pool_destroy(pool);
    return test_finish("test_gpu_ntt");
}
