/* czk — the staged uploads (src/gpu/stage.c) on the device: vectors of small
 * multiples of one go packed (src/r1cs/fr_pack.c, unpacked by
 * src/gpu/unpack.cu), others as they are, chunk by chunk; whatever the mix,
 * the vector on the device equals the host's, and is zero beyond it. Cases:
 * a few values, one chunk with few and with many escaped values, vectors
 * whose chunks go one packed and one not (both orders), several chunks,
 * with a pool and without (packing switched on with CZK_GPU_PACK=1); then
 * vectors packed on the host first (czk_fr_packed), whose packed chunks go
 * packed also through a stager opened without CZK_GPU_PACK. SKIP
 * without a device. */
#include <stdlib.h>
#include <string.h>

#include "czk/fr_pack.h"
#include "../../src/gpu/gpu_stage.h"
#include "czk/gpu.h"
#include "czk/pool.h"
#include "test.h"

static czk_fr_pack_table T;

/* v[lo, hi): other values with probability p_other per mille, else small */
static void fill(czk_rng *rng, czk_fr *v, size_t lo, size_t hi, unsigned p_other) {
    for (size_t i = lo; i < hi; i++) {
        if (czk_rng_next(rng) % 1000 < p_other) czk_fr_random(&v[i], rng);
        else v[i] = T.small[czk_rng_next(rng) % (2 * CZK_FR_PACK_SMALL + 1)];
    }
}

/* uploads src[0, n) into a vector of n + extra through st (pre_packed:
 * packed on the host first, czk_fr_packed), checks it back */
static void check_upload_as(czk_gpu *g, czk_gpu_stager *st, czk_pool *pool, const czk_fr *src, size_t n,
                            size_t extra, bool pre_packed, const char *what) {
    char msg[256] = "";
    czk_gpu_vec *v = NULL;
    czk_err e = czk_gpu_vec_alloc(g, n + extra, &v, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", what, msg);
    if (e != CZK_OK) return;
    if (pre_packed) {
        czk_fr_packed *p = NULL;
        CHECK(czk_fr_packed_make(&p, src, n, CZK_MEM_ABC, pool) == CZK_OK && p);
        const size_t before = czk_gpu_stager_chunks_packed(st);
        e = p ? czk_gpu_vec_upload_packed_via(st, v, p, pool, msg, sizeof msg) : CZK_ERR_INVALID_ARGUMENT;
        size_t want = 0;
        for (size_t i = 0; p && i < p->n_chunks; i++) want += p->chunks[i].packed;
        CHECK_MSG(czk_gpu_stager_chunks_packed(st) - before == want, "%s: %zu of %zu packed chunks went packed",
                  what, czk_gpu_stager_chunks_packed(st) - before, want);
        czk_fr_packed_free(p);
    } else {
        e = czk_gpu_vec_upload_via(st, v, src, n, pool, msg, sizeof msg);
    }
    CHECK_MSG(e == CZK_OK, "%s: upload: %s", what, msg);
    czk_fr *back = malloc((n + extra) * sizeof *back);
    memset(back, 0x77, (n + extra) * sizeof *back);
    e = czk_gpu_vec_download(v, back, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: download: %s", what, msg);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += memcmp(&back[i], &src[i], sizeof *src) != 0;
    for (size_t i = n; i < n + extra; i++) bad += !czk_fr_is_zero(&back[i]);
    CHECK_MSG(bad == 0, "%s: %zu of %zu values differ", what, bad, n + extra);
    free(back);
    czk_gpu_vec_free(v);
}

static void check_upload(czk_gpu *g, czk_gpu_stager *st, czk_pool *pool, const czk_fr *src, size_t n, size_t extra,
                         const char *what) {
    check_upload_as(g, st, pool, src, n, extra, false, what);
}

int main(void) {
    if (czk_gpu_count() == 0) {
        printf("test_gpu_upload: no GPU, SKIP\n");
        return TEST_SKIP;
    }
    czk_rng rng;
    test_seed_rng(&rng, "test_gpu_upload");
    czk_fr_pack_table_init(&T);
    setenv("CZK_GPU_PACK", "1", 1); /* packing is off by default */
    char msg[256] = "";
    czk_gpu *g = NULL;
    CHECK(czk_gpu_open(&g, 0, 0, msg, sizeof msg) == CZK_OK);
    czk_pool *pool = NULL;
    CHECK(czk_pool_create(&pool, 4) == CZK_OK);
    czk_gpu_stager *st = NULL;
    CHECK(czk_gpu_stager_open(g, &st, msg, sizeof msg) == CZK_OK);
    if (!g || !st || !pool) return 1;

    const size_t M = CZK_FR_PACK_MAX, big = 2 * M + 4097;
    czk_fr *v = malloc(big * sizeof *v);
    size_t packed0 = czk_gpu_stager_chunks_packed(st);
    fill(&rng, v, 0, 3, 0);
    check_upload(g, st, NULL, v, 3, 5, "3 small values");
    fill(&rng, v, 0, 100000, 1);
    check_upload(g, st, pool, v, 100000, 0, "one chunk, 1 per mille other");
    fill(&rng, v, 0, 100000, 300);
    check_upload(g, st, pool, v, 100000, 1000, "one chunk, 30 % other");
    CHECK_MSG(czk_gpu_stager_chunks_packed(st) - packed0 == 3, "%zu chunks packed of 3",
              czk_gpu_stager_chunks_packed(st) - packed0);
    packed0 = czk_gpu_stager_chunks_packed(st);
    fill(&rng, v, 0, M, 1000);
    fill(&rng, v, M, M + 12345, 2);
    check_upload(g, st, pool, v, M + 12345, 7, "a raw chunk, then a packed one");
    fill(&rng, v, 0, M, 5);
    fill(&rng, v, M, M + 12345, 1000);
    check_upload(g, st, pool, v, M + 12345, 0, "a packed chunk, then a raw one");
    CHECK_MSG(czk_gpu_stager_chunks_packed(st) - packed0 == 2, "%zu chunks packed of 2",
              czk_gpu_stager_chunks_packed(st) - packed0);
    fill(&rng, v, 0, big, 100);
    check_upload(g, st, pool, v, big, 3, "three chunks, 10 % other");
    /* vectors packed on the host first (czk_fr_packed), through this
     * stager and through one opened without CZK_GPU_PACK (its device
     * buffers for packed chunks are made at the first such upload) */
    czk_gpu_stager *plain = NULL;
    unsetenv("CZK_GPU_PACK");
    CHECK(czk_gpu_stager_open(g, &plain, msg, sizeof msg) == CZK_OK);
    for (int s = 0; s < 2 && plain; s++) {
        czk_gpu_stager *via = s ? plain : st;
        fill(&rng, v, 0, M, 2);
        fill(&rng, v, M, 2 * M, 1000);
        fill(&rng, v, 2 * M, big, 5);
        check_upload_as(g, via, pool, v, big, 11, true, "packed on the host: packed, raw, packed chunks");
        fill(&rng, v, 0, 777, 1);
        check_upload_as(g, via, NULL, v, 777, 0, true, "packed on the host: 777 values");
    }
    czk_gpu_stager_close(plain);
    free(v);
    czk_gpu_stager_close(st);
    czk_pool_destroy(pool);
    czk_gpu_close(g);
    printf("test_gpu_upload: %d failures\n", test_failures);
    return test_failures ? 1 : 0;
}
