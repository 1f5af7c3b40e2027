/* The GPU G1 MSM (czk_gpu_msm_g1, czk_gpu_msm_g1_resident) against the CPU's
 * czk_msm_g1 on the same inputs, affine results compared byte for byte:
 * n = 1, 2, 3, 100, 1000, 2^10, 2^12, 2^16 + 3, 2^16, 2^20; random scalars,
 * 0/1-heavy scalars (20% big: gathered; PoRep-shaped, 5% big; random but
 * 1 in 64 zero or one: read through the index list), all zero (nothing
 * big, no ones), all one (only ones), r - 1 (every scalar big), small
 * values (shared buckets); windows forced from 4 to 22 bits (the window
 * sums' tree of one to three levels); random density bitmaps; bases at infinity; equal and opposite
 * bases (the doubling and cancellation cases of the bucket additions);
 * resident bases reused across calls; argument errors; out-of-memory under
 * tiny and medium caps (clean failure, nothing left on the device, the
 * handle still usable). SKIP (77) without a CUDA device. */
#include <string.h>

#include "czk/gpu.h"
#include "czk/msm.h"
#include "czk/pool.h"
#include "test.h"

#define GPU_MSM_GROUP g1
#define GPU_MSM_GENERATOR CZK_G1_GENERATOR
#include "gpu_msm_harness.h"

/* One comparison; returns 1 when it matched. */
static int check_one(czk_gpu *g, const char *what, const czk_g1_affine *b, const czk_fr *s, size_t n,
                     const czk_bitmap *d) {
    czk_g1 rc, rg;
    char msg[256] = "";
    CHECK(czk_msm_g1(&rc, b, s, n, d, pool) == CZK_OK);
    czk_err e = czk_gpu_msm_g1(g, &rg, b, s, n, d, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s n=%zu: %s", what, n, msg);
    if (e != CZK_OK) return 0;
    czk_g1_affine ac, ag;
    to_affine(&ac, &rc);
    to_affine(&ag, &rg);
    int ok = memcmp(&ac, &ag, sizeof ac) == 0;
    CHECK_MSG(ok, "%s n=%zu: GPU result differs from czk_msm_g1", what, n);
    return ok;
}

static void test_resident(czk_gpu *g) {
    size_t n = 5000;
    char msg[256] = "";
    czk_g1_affine *b = make_points(n, 1);
    czk_fr *s = malloc(n * sizeof *s);
    czk_gpu_g1_bases *db = NULL;
    CHECK(czk_gpu_g1_bases_upload(g, b, n, &db, msg, sizeof msg) == CZK_OK);
    for (int round = 0; round < 2; round++) {
        czk_bitmap d;
        make_density(&d, n + 100, 90);
        make_scalars(s, n, round ? MIX_01 : MIX_RANDOM);
        czk_fr *s2 = malloc((n + 100) * sizeof *s2);
        memcpy(s2, s, n * sizeof *s);
        make_scalars(s2 + n, 100, MIX_RANDOM);
        const czk_bitmap *dd = round ? &d : NULL;
        size_t nn = round ? n + 100 : n;
        czk_g1 rc, rg;
        czk_g1_affine ac, ag;
        CHECK(czk_msm_g1(&rc, b, s2, nn, dd, pool) == CZK_OK);
        CHECK(czk_gpu_msm_g1_resident(g, &rg, db, s2, nn, dd, msg, sizeof msg) == CZK_OK);
        to_affine(&ac, &rc);
        to_affine(&ag, &rg);
        CHECK_MSG(memcmp(&ac, &ag, sizeof ac) == 0, "resident round %d differs", round);
        czk_bitmap_free(&d);
        free(s2);
    }
    /* more participating scalars than resident bases */
    czk_fr *s3 = malloc((n + 1) * sizeof *s3);
    make_scalars(s3, n + 1, MIX_RANDOM);
    czk_g1 r;
    CHECK(czk_gpu_msm_g1_resident(g, &r, db, s3, n + 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    free(s3);
    czk_gpu_g1_bases_free(db);
    CHECK(czk_gpu_mem_used(g) == 0);
    free(s), free(b);
}

static void test_args(czk_gpu *g) {
    char msg[256] = "";
    czk_g1 r;
    czk_fr s = CZK_FR_ONE;
    czk_g1_affine b = CZK_G1_GENERATOR;
    CHECK(czk_gpu_msm_g1(g, NULL, &b, &s, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_gpu_msm_g1(g, &r, NULL, &s, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_gpu_msm_g1(g, &r, &b, NULL, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    czk_bitmap d;
    CHECK(czk_bitmap_init(&d, 4) == CZK_OK);
    CHECK(czk_gpu_msm_g1(g, &r, &b, &s, 5, &d, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    /* empty density and n = 0: infinity */
    CHECK(czk_gpu_msm_g1(g, &r, &b, &s, 1, &d, msg, sizeof msg) == CZK_OK && czk_g1_is_infinity(&r));
    CHECK(czk_gpu_msm_g1(g, &r, NULL, NULL, 0, NULL, msg, sizeof msg) == CZK_OK && czk_g1_is_infinity(&r));
    czk_bitmap_free(&d);
}

/* Caps that refuse the first allocation and one that holds the bases but not
 * the rest: NO_MEMORY with a message, nothing left allocated, the handle
 * usable after. */
static void test_oom(void) {
    char msg[256] = "";
    size_t n = (size_t)1 << 14;
    czk_g1_affine *b = make_points(n, 0);
    czk_fr *s = malloc(n * sizeof *s);
    make_scalars(s, n, MIX_RANDOM);
    size_t caps[2] = {4096, n * sizeof(czk_g1_affine) + n * 40};
    for (int k = 0; k < 2; k++) {
        czk_gpu *g = NULL;
        CHECK(czk_gpu_open(&g, 0, caps[k], msg, sizeof msg) == CZK_OK);
        if (!g) continue;
        czk_g1 r;
        czk_err e = czk_gpu_msm_g1(g, &r, b, s, n, NULL, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_NO_MEMORY, "cap %zu: %d %s", caps[k], (int)e, msg);
        printf("cap %zu, msm 2^14: %s\n", caps[k], msg);
        CHECK(czk_gpu_mem_used(g) == 0);
        if (k == 0) {
            czk_gpu_close(g);
            continue;
        }
        /* a small MSM still works */
        czk_g1 rc;
        czk_g1_affine ac, ag;
        e = czk_gpu_msm_g1(g, &r, b, s, 4, NULL, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "after OOM: %s", msg);
        CHECK(czk_msm_g1(&rc, b, s, 4, NULL, NULL) == CZK_OK);
        to_affine(&ac, &rc);
        to_affine(&ag, &r);
        CHECK(e != CZK_OK || memcmp(&ac, &ag, sizeof ac) == 0);
        CHECK(czk_gpu_mem_used(g) == 0);
        czk_gpu_close(g);
    }
    free(s), free(b);
}

int main(void) {
    if (czk_gpu_count() == 0) {
        printf("test_gpu_msm: no GPU, skipped\n");
        return TEST_SKIP;
    }
    test_seed_rng(&rng, "test_gpu_msm");
    char msg[256] = "";
    czk_gpu *g = NULL;
    czk_err e = czk_gpu_open(&g, 0, 0, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    if (e != CZK_OK) return test_finish("test_gpu_msm");
    printf("device: %s\n", czk_gpu_describe(g));
    if (czk_pool_create(&pool, 0) != CZK_OK) return 1;

    test_args(g);
    static const size_t sizes[] = {1, 2, 3, 100, 1000, 1024, 4096, 65539, 65536};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) test_size(g, sizes[k], 1);
    test_size(g, (size_t)1 << 20, 0);
    test_equal_opposite(g);
    printf("equal/opposite %s\n", test_failures ? "FAILED" : "ok");
    static const unsigned windows[] = {4, 5, 9, 13, 17, 22};
    test_windows(g, windows, sizeof windows / sizeof windows[0], 70001);
    test_resident(g);
    printf("resident %s\n", test_failures ? "FAILED" : "ok");
    CHECK(czk_gpu_mem_used(g) == 0);
    test_oom();
    czk_gpu_close(g);
    czk_pool_destroy(pool);
    return test_finish("test_gpu_msm");
}
