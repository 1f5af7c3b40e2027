/* libFuzzer: the params decoder, from a buffer (TRUSTED) and through a file
 * (a memfd, CHECKED, mmap path of czk_params_read). The two must agree
 * (CHECKED accepting implies TRUSTED accepting), an accepted input must
 * re-encode to the same bytes, and SRS memory must return to zero. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"

static void seed_params(const char *name, size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b1,
                        size_t n_b2) {
    czk_params p = {0};
    fuzz_vk(&p.vk, n_ic, 0);
    size_t n[5] = {n_h, n_l, n_a, n_b1, n_b2};
    czk_g1_affine *g1[4] = {NULL, NULL, NULL, NULL};
    for (int s = 0; s < 4; s++) {
        if (n[s]) g1[s] = czk_mem_alloc(n[s] * sizeof(czk_g1_affine), CZK_MEM_SRS);
        for (size_t i = 0; i < n[s]; i++) fuzz_g1(&g1[s][i], 20 + 10 * (uint64_t)s + i);
    }
    p.h = g1[0], p.n_h = n_h;
    p.l = g1[1], p.n_l = n_l;
    p.a = g1[2], p.n_a = n_a;
    p.b_g1 = g1[3], p.n_b_g1 = n_b1;
    if (n_b2) p.b_g2 = czk_mem_alloc(n_b2 * sizeof(czk_g2_affine), CZK_MEM_SRS);
    for (size_t i = 0; i < n_b2; i++) fuzz_g2(&p.b_g2[i], 70 + i);
    p.n_b_g2 = n_b2;
    size_t len;
    czk_params_encode(&p, NULL, 0, &len, NULL, NULL, 0);
    uint8_t *buf = malloc(len);
    if (buf && czk_params_encode(&p, buf, len, &len, NULL, NULL, 0) == CZK_OK) fuzz_seed(name, buf, len);
    free(buf);
    czk_params_free(&p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    seed_params("params-small", 2, 3, 2, 2, 1, 1);
    seed_params("params-empty", 1, 0, 0, 0, 0, 0);
    seed_params("params-g2", 1, 1, 0, 0, 0, 3);
    return 0;
}

static int memfd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char msg[512];
    czk_params p;
    czk_err trusted = czk_params_decode(&p, data, size, CZK_DECODE_TRUSTED, NULL, msg, sizeof msg);
    if (trusted == CZK_OK) {
        size_t len;
        uint8_t *buf = malloc(size ? size : 1);
        FUZZ_ASSERT(buf != NULL);
        FUZZ_ASSERT(czk_params_encode(&p, buf, size, &len, NULL, msg, sizeof msg) == CZK_OK);
        FUZZ_ASSERT(len == size && memcmp(buf, data, size) == 0);
        free(buf);
        czk_params_free(&p);
    } else {
        FUZZ_ASSERT(trusted == CZK_ERR_FORMAT && msg[0] && p.h == NULL && p.vk.ic == NULL);
    }
    FUZZ_ASSERT(czk_mem_in_use(CZK_MEM_SRS) == 0);

    if (memfd < 0) memfd = memfd_create("czk-fuzz-params", MFD_CLOEXEC);
    FUZZ_ASSERT(memfd >= 0);
    FUZZ_ASSERT(ftruncate(memfd, 0) == 0);
    FUZZ_ASSERT(pwrite(memfd, data, size, 0) == (ssize_t)size);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", memfd);
    czk_err checked = czk_params_read(&p, path, CZK_DECODE_CHECKED, NULL, msg, sizeof msg);
    FUZZ_ASSERT(checked == CZK_OK || (checked == CZK_ERR_FORMAT && msg[0]));
    if (checked == CZK_OK) {
        FUZZ_ASSERT(trusted == CZK_OK);
        czk_params_free(&p);
    }
    FUZZ_ASSERT(czk_mem_in_use(CZK_MEM_SRS) == 0);
    return 0;
}
