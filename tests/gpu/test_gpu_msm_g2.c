/* The GPU G2 MSM (czk_gpu_msm_g2, _resident, and the device-scalar
 * czk_gpu_msm_g2_dev of src/gpu/gpu_internal.h) against the CPU's
 * czk_msm_g2 on the same inputs, affine results compared byte for byte:
 * n = 1, 2, 3, 100, 1000, 2^10, 2^12, 2^16 + 3, 2^16, 2^18, 2^20 (odd sizes
 * among them); random scalars, 0/1-heavy scalars (also PoRep-shaped, and
 * random with 1 in 64 zero or one), all zero, all one, r - 1, small values
 * (shared buckets); windows forced from 4 to 17 bits (the window sums'
 * tree of one to three levels); random density bitmaps; bases at infinity;
 * equal and opposite bases. The _dev entry points of both groups against
 * the host-scalar ones (and their argument errors); prepared scalars
 * (czk_gpu_msm_scalars_make, with and without a device density made by
 * czk_gpu_density_upload_via) used for G1 and G2 MSMs, twice each, against
 * the CPU, for four scalar mixes; argument errors;
 * out-of-memory under tiny and medium caps (CZK_ERR_NO_MEMORY, nothing left
 * on the device, the handle still usable). SKIP (77) without a CUDA device.
 * CZK_TEST_G2_MAX_LOG (default 20) bounds the largest size. */
#include <string.h>

#include "czk/gpu.h"
#include "czk/msm.h"
#include "czk/pool.h"
#include "test.h"

#ifdef CZK_HAVE_CUDA
#include "../../src/gpu/gpu_internal.h"
#include "../../src/gpu/gpu_stage.h"
#endif

#define GPU_MSM_GROUP g2
#define GPU_MSM_GENERATOR CZK_G2_GENERATOR
#define GPU_MSM_SIZE_TAG "g2 "
#include "gpu_msm_harness.h"

static int same(const czk_g2 *x, const czk_g2 *y) {
    czk_g2_affine ax, ay;
    to_affine(&ax, x);
    to_affine(&ay, y);
    return memcmp(&ax, &ay, sizeof ax) == 0;
}

/* One comparison; returns 1 when it matched. */
static int check_one(czk_gpu *g, const char *what, const czk_g2_affine *b, const czk_fr *s, size_t n,
                     const czk_bitmap *d) {
    czk_g2 rc, rg;
    char msg[256] = "";
    CHECK(czk_msm_g2(&rc, b, s, n, d, pool) == CZK_OK);
    czk_err e = czk_gpu_msm_g2(g, &rg, b, s, n, d, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s n=%zu: %s", what, n, msg);
    if (e != CZK_OK) return 0;
    int ok = same(&rc, &rg);
    CHECK_MSG(ok, "%s n=%zu: GPU result differs from czk_msm_g2", what, n);
    return ok;
}

/* Resident bases reused across calls, and the device-scalar entry points of
 * both groups against the host-scalar ones. */
static void test_resident_dev(czk_gpu *g) {
    size_t n = 5000, nn = n + 100;
    char msg[256] = "";
    czk_g2_affine *b = make_points(n, 1);
    czk_fr *s = malloc(nn * sizeof *s);
    czk_gpu_g2_bases *db = NULL;
    CHECK(czk_gpu_g2_bases_upload(g, b, n, &db, msg, sizeof msg) == CZK_OK);
    for (int round = 0; round < 2; round++) {
        czk_bitmap d;
        make_density(&d, nn, 90);
        make_scalars(s, nn, round ? MIX_01 : MIX_RANDOM);
        const czk_bitmap *dd = round ? &d : NULL;
        size_t cnt = round ? nn : n;
        czk_g2 rc, rg;
        CHECK(czk_msm_g2(&rc, b, s, cnt, dd, pool) == CZK_OK);
        CHECK(czk_gpu_msm_g2_resident(g, &rg, db, s, cnt, dd, msg, sizeof msg) == CZK_OK);
        CHECK_MSG(same(&rc, &rg), "g2 resident round %d differs", round);
#ifdef CZK_HAVE_CUDA
        void *ds = NULL;
        CHECK(cudaMalloc(&ds, cnt * sizeof(czk_fr)) == cudaSuccess);
        CHECK(cudaMemcpy(ds, s, cnt * sizeof(czk_fr), cudaMemcpyHostToDevice) == cudaSuccess);
        czk_g2 rd;
        czk_err e = czk_gpu_msm_g2_dev(g, &rd, czk_gpu_g2_bases_ptr(db), n, ds, cnt, dd, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "g2 dev: %s", msg);
        CHECK_MSG(e != CZK_OK || same(&rc, &rd), "g2 dev round %d differs", round);
        /* the scalars are left as they were */
        czk_fr *back = malloc(cnt * sizeof *back);
        CHECK(cudaMemcpy(back, ds, cnt * sizeof(czk_fr), cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK(memcmp(back, s, cnt * sizeof(czk_fr)) == 0);
        free(back);
        /* n_bases too small, NULL pointers, short density map */
        size_t need = dd ? czk_bitmap_rank(dd, cnt) : cnt;
        CHECK(czk_gpu_msm_g2_dev(g, &rd, czk_gpu_g2_bases_ptr(db), need - 1, ds, cnt, dd, msg, sizeof msg) ==
              CZK_ERR_INVALID_ARGUMENT);
        CHECK(czk_gpu_msm_g2_dev(g, &rd, NULL, n, ds, cnt, dd, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
        CHECK(czk_gpu_msm_g2_dev(g, &rd, czk_gpu_g2_bases_ptr(db), n, NULL, cnt, dd, msg, sizeof msg) ==
              CZK_ERR_INVALID_ARGUMENT);
        CHECK(czk_gpu_msm_g2_dev(g, NULL, czk_gpu_g2_bases_ptr(db), n, ds, cnt, dd, msg, sizeof msg) ==
              CZK_ERR_INVALID_ARGUMENT);
        if (dd) {
            czk_bitmap shortd;
            CHECK(czk_bitmap_init(&shortd, cnt - 1) == CZK_OK);
            CHECK(czk_gpu_msm_g2_dev(g, &rd, czk_gpu_g2_bases_ptr(db), n, ds, cnt, &shortd, msg, sizeof msg) ==
                  CZK_ERR_INVALID_ARGUMENT);
            czk_bitmap_free(&shortd);
        }
        /* n = 0: infinity */
        CHECK(czk_gpu_msm_g2_dev(g, &rd, NULL, 0, NULL, 0, NULL, msg, sizeof msg) == CZK_OK &&
              czk_g2_is_infinity(&rd));
        cudaFree(ds);
#endif
        czk_bitmap_free(&d);
    }
    /* more participating scalars than resident bases */
    czk_g2 r;
    CHECK(czk_gpu_msm_g2_resident(g, &r, db, s, n + 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    czk_gpu_g2_bases_free(db);
    CHECK(czk_gpu_mem_used(g) == 0);
    free(s), free(b);
}

#ifdef CZK_HAVE_CUDA
/* n affine G1 points p + i·q (the harness's make_points is G2's here) */
static czk_g1_affine *g1_points(size_t n, czk_g1 p, const czk_g1 *q) {
    czk_g1_affine *a = malloc(n * sizeof *a);
    czk_g1 *j = malloc(n * sizeof *j);
    CHECK(a && j);
    for (size_t i = 0; i < n; i++) {
        j[i] = p;
        czk_g1_add(&p, &p, q);
    }
    czk_g1_batch_to_affine(a, j, n);
    free(j);
    return a;
}

/* x and y the same G1 point, infinity included */
static int same_g1(const czk_g1 *x, const czk_g1 *y) {
    czk_g1_affine ax, ay;
    if (czk_g1_is_infinity(x)) czk_g1_affine_set_infinity(&ax);
    else czk_g1_to_affine(&ax, x);
    if (czk_g1_is_infinity(y)) czk_g1_affine_set_infinity(&ay);
    else czk_g1_to_affine(&ay, y);
    return memcmp(&ax, &ay, sizeof ax) == 0;
}

/* n G1 points P0 + i·Q; czk_gpu_msm_g1_dev against czk_gpu_msm_g1_resident. */
static void test_g1_dev(czk_gpu *g) {
    size_t n = 70000;
    char msg[256] = "";
    czk_fr *s = malloc(n * sizeof *s);
    czk_g1 p, q;
    czk_g1_from_affine(&p, &CZK_G1_GENERATOR);
    czk_g1_dbl(&q, &p);
    czk_g1_affine *b = g1_points(n, p, &q);
    czk_gpu_g1_bases *db = NULL;
    CHECK(czk_gpu_g1_bases_upload(g, b, n, &db, msg, sizeof msg) == CZK_OK);
    void *ds = NULL;
    CHECK(cudaMalloc(&ds, n * sizeof(czk_fr)) == cudaSuccess);
    for (int round = 0; round < 2; round++) {
        czk_bitmap d;
        make_density(&d, n, 70);
        make_scalars(s, n, round ? MIX_01 : MIX_RANDOM);
        CHECK(cudaMemcpy(ds, s, n * sizeof(czk_fr), cudaMemcpyHostToDevice) == cudaSuccess);
        const czk_bitmap *dd = round ? &d : NULL;
        czk_g1 rh, rd, rc;
        CHECK(czk_gpu_msm_g1_resident(g, &rh, db, s, n, dd, msg, sizeof msg) == CZK_OK);
        czk_err e = czk_gpu_msm_g1_dev(g, &rd, czk_gpu_g1_bases_ptr(db), n, ds, n, dd, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "g1 dev: %s", msg);
        CHECK(czk_msm_g1(&rc, b, s, n, dd, pool) == CZK_OK);
        czk_g1_affine a1, a2, a3;
        czk_g1_to_affine(&a1, &rh);
        czk_g1_to_affine(&a2, &rd);
        czk_g1_to_affine(&a3, &rc);
        CHECK_MSG(memcmp(&a1, &a2, sizeof a1) == 0 && memcmp(&a1, &a3, sizeof a1) == 0, "g1 dev round %d differs",
                  round);
        size_t need = dd ? czk_bitmap_count(dd) : n;
        CHECK(czk_gpu_msm_g1_dev(g, &rd, czk_gpu_g1_bases_ptr(db), need - 1, ds, n, dd, msg, sizeof msg) ==
              CZK_ERR_INVALID_ARGUMENT);
        czk_bitmap_free(&d);
    }
    cudaFree(ds);
    czk_gpu_g1_bases_free(db);
    CHECK(czk_gpu_mem_used(g) == 0);
    printf("g1 dev %s\n", test_failures ? "FAILED" : "ok");
    free(s), free(b);
}
#endif

static void test_args(czk_gpu *g) {
    char msg[256] = "";
    czk_g2 r;
    czk_fr s = CZK_FR_ONE;
    czk_g2_affine b = CZK_G2_GENERATOR;
    CHECK(czk_gpu_msm_g2(g, NULL, &b, &s, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_gpu_msm_g2(g, &r, NULL, &s, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_gpu_msm_g2(g, &r, &b, NULL, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_gpu_msm_g2(NULL, &r, &b, &s, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    czk_bitmap d;
    CHECK(czk_bitmap_init(&d, 4) == CZK_OK);
    CHECK(czk_gpu_msm_g2(g, &r, &b, &s, 5, &d, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    /* empty density and n = 0: infinity */
    CHECK(czk_gpu_msm_g2(g, &r, &b, &s, 1, &d, msg, sizeof msg) == CZK_OK && czk_g2_is_infinity(&r));
    CHECK(czk_gpu_msm_g2(g, &r, NULL, NULL, 0, NULL, msg, sizeof msg) == CZK_OK && czk_g2_is_infinity(&r));
    czk_bitmap_free(&d);
    czk_gpu_g2_bases *db = NULL;
    CHECK(czk_gpu_g2_bases_upload(g, &b, 0, &db, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && !db);
    czk_gpu_g2_bases_free(NULL);
    /* one scalar: 1·G, and a base at infinity */
    CHECK(czk_gpu_msm_g2(g, &r, &b, &s, 1, NULL, msg, sizeof msg) == CZK_OK);
    czk_g2 gen;
    czk_g2_from_affine(&gen, &CZK_G2_GENERATOR);
    CHECK(same(&r, &gen));
    czk_g2_affine_set_infinity(&b);
    CHECK(czk_gpu_msm_g2(g, &r, &b, &s, 1, NULL, msg, sizeof msg) == CZK_OK && czk_g2_is_infinity(&r));
}

/* Caps that refuse the first allocation and one that holds the bases but not
 * the rest: NO_MEMORY with a message, nothing left allocated, the handle
 * usable after. */
static void test_oom(void) {
    char msg[256] = "";
    size_t n = (size_t)1 << 14;
    czk_g2_affine *b = make_points(n, 0);
    czk_fr *s = malloc(n * sizeof *s);
    make_scalars(s, n, MIX_RANDOM);
    size_t caps[2] = {4096, n * sizeof(czk_g2_affine) + n * 40};
    for (int k = 0; k < 2; k++) {
        czk_gpu *g = NULL;
        CHECK(czk_gpu_open(&g, 0, caps[k], msg, sizeof msg) == CZK_OK);
        if (!g) continue;
        czk_g2 r;
        czk_err e = czk_gpu_msm_g2(g, &r, b, s, n, NULL, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_NO_MEMORY, "cap %zu: %d %s", caps[k], (int)e, msg);
        printf("cap %zu, g2 msm 2^14: %s\n", caps[k], msg);
        CHECK(czk_gpu_mem_used(g) == 0);
        czk_gpu_g2_bases *db = NULL;
        if (k == 0) {
            e = czk_gpu_g2_bases_upload(g, b, n, &db, msg, sizeof msg);
            CHECK(e == CZK_ERR_NO_MEMORY && !db);
            CHECK(czk_gpu_mem_used(g) == 0);
            czk_gpu_close(g);
            continue;
        }
        /* resident bases fit, the rest does not */
        CHECK(czk_gpu_g2_bases_upload(g, b, n, &db, msg, sizeof msg) == CZK_OK);
        size_t held = czk_gpu_mem_used(g);
        e = czk_gpu_msm_g2_resident(g, &r, db, s, n, NULL, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_NO_MEMORY, "resident, cap %zu: %d %s", caps[k], (int)e, msg);
        CHECK(czk_gpu_mem_used(g) == held);
        czk_gpu_g2_bases_free(db);
        CHECK(czk_gpu_mem_used(g) == 0);
        /* a small MSM still works */
        czk_g2 rc;
        e = czk_gpu_msm_g2(g, &r, b, s, 4, NULL, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "after OOM: %s", msg);
        CHECK(czk_msm_g2(&rc, b, s, 4, NULL, NULL) == CZK_OK);
        CHECK(e != CZK_OK || same(&rc, &r));
        CHECK(czk_gpu_mem_used(g) == 0);
        czk_gpu_close(g);
    }
    free(s), free(b);
}

#ifdef CZK_HAVE_CUDA
/* Prepared scalars, one make for G1 and G2 (B's case), against the CPU:
 * random (no compaction), PoRep-shaped (the big ones gathered), almost
 * random (read through the index list), all zero; with no density and
 * with a device density of 60 % (the map one bit longer than n). */
static void test_prepared(czk_gpu *g) {
    const size_t n = 40003;
    char msg[256] = "";
    czk_g2_affine *b2 = make_points(n, 1);
    czk_fr *s = malloc(n * sizeof *s), k;
    czk_g1 p, q, gen;
    czk_g1_from_affine(&gen, &CZK_G1_GENERATOR);
    czk_fr_random(&k, &rng);
    czk_g1_mul_fr(&p, &gen, &k);
    czk_fr_random(&k, &rng);
    czk_g1_mul_fr(&q, &gen, &k);
    czk_g1_affine *b1 = g1_points(n, p, &q);
    czk_gpu_g1_bases *db1 = NULL;
    czk_gpu_g2_bases *db2 = NULL;
    czk_gpu_stager *st = NULL;
    CHECK(czk_gpu_g1_bases_upload(g, b1, n, &db1, msg, sizeof msg) == CZK_OK);
    CHECK(czk_gpu_g2_bases_upload(g, b2, n, &db2, msg, sizeof msg) == CZK_OK);
    CHECK(czk_gpu_stager_open(g, &st, msg, sizeof msg) == CZK_OK);
    void *ds = NULL;
    CHECK(cudaMalloc(&ds, n * sizeof(czk_fr)) == cudaSuccess);
    static const scalar_mix mixes[] = {MIX_RANDOM, MIX_BITS, MIX_ALMOST, MIX_ZERO};
    for (size_t mi = 0; mi < sizeof mixes / sizeof mixes[0]; mi++) {
        for (int dens = 0; dens < 2; dens++) {
            czk_bitmap d;
            make_density(&d, n + 1, 60);
            make_scalars(s, n, mixes[mi]);
            CHECK(cudaMemcpy(ds, s, n * sizeof(czk_fr), cudaMemcpyHostToDevice) == cudaSuccess);
            const czk_bitmap *hd = dens ? &d : NULL;
            czk_gpu_density dd;
            memset(&dd, 0, sizeof dd);
            if (dens) {
                czk_err e = czk_gpu_density_upload_via(st, &d, n, pool, &dd, msg, sizeof msg);
                CHECK_MSG(e == CZK_OK, "density upload: %s", msg);
                CHECK(dd.nset == czk_bitmap_rank(&d, n));
            }
            czk_gpu_msm_scalars *sc = NULL;
            czk_err e = czk_gpu_msm_scalars_make(g, ds, n, dens ? &dd : NULL, &sc, msg, sizeof msg);
            CHECK_MSG(e == CZK_OK, "prepared %s: %s", mix_name[mixes[mi]], msg);
            if (e == CZK_OK) {
                const size_t nset = czk_gpu_msm_scalars_count(sc);
                CHECK(nset == (dens ? czk_bitmap_rank(&d, n) : n));
                czk_g1 c1, r1;
                czk_g2 c2, r2;
                CHECK(czk_msm_g1(&c1, b1, s, n, hd, pool) == CZK_OK);
                CHECK(czk_msm_g2(&c2, b2, s, n, hd, pool) == CZK_OK);
                for (int rep = 0; rep < 2; rep++) {
                    e = czk_gpu_msm_g1_prepared(g, &r1, czk_gpu_g1_bases_ptr(db1), n, sc, msg, sizeof msg);
                    CHECK_MSG(e == CZK_OK, "prepared g1: %s", msg);
                    CHECK_MSG(e != CZK_OK || same_g1(&r1, &c1), "prepared g1 %s density %d rep %d differs",
                              mix_name[mixes[mi]], dens, rep);
                    e = czk_gpu_msm_g2_prepared(g, &r2, czk_gpu_g2_bases_ptr(db2), n, sc, msg, sizeof msg);
                    CHECK_MSG(e == CZK_OK, "prepared g2: %s", msg);
                    CHECK_MSG(e != CZK_OK || same(&r2, &c2), "prepared g2 %s density %d rep %d differs",
                              mix_name[mixes[mi]], dens, rep);
                }
                /* too few bases, NULL bases, another scalar count for the density */
                if (nset) {
                    CHECK(czk_gpu_msm_g1_prepared(g, &r1, czk_gpu_g1_bases_ptr(db1), nset - 1, sc, msg, sizeof msg) ==
                          CZK_ERR_INVALID_ARGUMENT);
                    CHECK(czk_gpu_msm_g2_prepared(g, &r2, NULL, n, sc, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
                }
                czk_gpu_msm_scalars *bad = NULL;
                if (dens)
                    CHECK(czk_gpu_msm_scalars_make(g, ds, n - 1, &dd, &bad, msg, sizeof msg) ==
                              CZK_ERR_INVALID_ARGUMENT &&
                          bad == NULL);
            }
            czk_gpu_msm_scalars_free(sc);
            czk_gpu_density_free(&dd);
            czk_bitmap_free(&d);
        }
    }
    /* a density map shorter than n */
    czk_bitmap shortd;
    CHECK(czk_bitmap_init(&shortd, n - 1) == CZK_OK);
    czk_gpu_density dd;
    CHECK(czk_gpu_density_upload_via(st, &shortd, n, pool, &dd, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          dd.g == NULL);
    czk_bitmap_free(&shortd);
    cudaFree(ds);
    czk_gpu_stager_close(st);
    czk_gpu_g1_bases_free(db1);
    czk_gpu_g2_bases_free(db2);
    CHECK(czk_gpu_mem_used(g) == 0);
    free(s), free(b1), free(b2);
    printf("prepared %s\n", test_failures ? "FAILED" : "ok");
}
#endif

int main(void) {
    if (czk_gpu_count() == 0) {
        printf("test_gpu_msm_g2: no GPU, skipped\n");
        return TEST_SKIP;
    }
    test_seed_rng(&rng, "test_gpu_msm_g2");
    char msg[256] = "";
    czk_gpu *g = NULL;
    czk_err e = czk_gpu_open(&g, 0, 0, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    if (e != CZK_OK) return test_finish("test_gpu_msm_g2");
    printf("device: %s\n", czk_gpu_describe(g));
    if (czk_pool_create(&pool, 0) != CZK_OK) return 1;
    int max_log = 20;
    const char *env = getenv("CZK_TEST_G2_MAX_LOG");
    if (env && atoi(env) >= 10 && atoi(env) <= 24) max_log = atoi(env);

    test_args(g);
    printf("args %s\n", test_failures ? "FAILED" : "ok");
    static const size_t sizes[] = {1, 2, 3, 100, 1000, 1024, 4096, 65539, 65536};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) test_size(g, sizes[k], 1);
    for (int lg = 18; lg <= max_log; lg += 2) test_size(g, (size_t)1 << lg, 0);
    test_size(g, ((size_t)1 << 17) + 12345, 0);
    test_equal_opposite(g);
    printf("equal/opposite %s\n", test_failures ? "FAILED" : "ok");
    static const unsigned windows[] = {4, 9, 13, 17};
    test_windows(g, windows, sizeof windows / sizeof windows[0], 30001);
    test_resident_dev(g);
    printf("resident/dev %s\n", test_failures ? "FAILED" : "ok");
#ifdef CZK_HAVE_CUDA
    test_g1_dev(g);
    test_prepared(g);
#endif
    CHECK(czk_gpu_mem_used(g) == 0);
    test_oom();
    czk_gpu_close(g);
    czk_pool_destroy(pool);
    return test_finish("test_gpu_msm_g2");
}
