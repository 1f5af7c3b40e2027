/* The GPU setup (czk/setup_gpu.h) against the CPU's: for demo,
 * synthetic-12, gadget-sha256-512 and porep-2k (at CZK_TEST_SCALE >= 1)
 * with a toxic waste from the printed seed, czk_gpu_setup_write's .params
 * and .vk are byte-identical to czk_params_write / czk_vk_write of
 * czk_groth16_setup's result. Chunks of 2^22 points and of 96 (65,632
 * for porep-2k: many chunks, a short last one, groups of 32 cut short). Then the
 * refusals: an existing file with replace = 0 is left as it was
 * (CZK_ERR_IO), nothing is left behind. SKIP (77) without a CUDA device. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "czk/circuit.h"
#include "czk/gpu.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/r1cs_compact.h"
#include "czk/setup_gpu.h"
#include "test.h"

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* The first differing byte, or -1. */
static long diff_at(const char *a, const char *b) {
    size_t la = 0, lb = 0;
    uint8_t *x = slurp(a, &la), *y = slurp(b, &lb);
    long at = -1;
    if (!x || !y) at = 0;
    else if (la != lb || memcmp(x, y, la) != 0) {
        size_t i = 0;
        while (i < la && i < lb && x[i] == y[i]) i++;
        at = (long)i;
    }
    free(x);
    free(y);
    return at;
}

static void log_line(void *ctx, const char *line) { printf("  %s: %s\n", (const char *)ctx, line); }

static void check_circuit(const char *id, const char *dir, uint64_t seed, czk_pool *pool) {
    char msg[512] = "", pref[600], vref[600], pgot[600], vgot[600];
    czk_circuit c;
    CHECK(czk_circuit_find(&c, id, msg, sizeof msg) == CZK_OK);
    czk_r1cs r;
    czk_err e = czk_circuit_record(&c, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", id, msg);
    if (e) return;
    czk_r1cs_compact rc;
    e = czk_r1cs_compact_from_csr(&rc, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", id, msg);
    czk_toxic t;
    czk_toxic_from_seed(&t, seed);
    czk_params p;
    e = czk_groth16_setup(&p, &r, &t, pool, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", id, msg);
    czk_r1cs_free(&r);
    snprintf(pref, sizeof pref, "%s/%s.ref.params", dir, id);
    snprintf(vref, sizeof vref, "%s/%s.ref.vk", dir, id);
    snprintf(pgot, sizeof pgot, "%s/%s.params", dir, id);
    snprintf(vgot, sizeof vgot, "%s/%s.vk", dir, id);
    CHECK(czk_params_write(&p, pref, msg, sizeof msg) == CZK_OK);
    CHECK(czk_vk_write(&p.vk, vref, msg, sizeof msg) == CZK_OK);
    czk_params_free(&p);
    /* many chunks, the last one short (65,632 for porep-2k's 2.7M points) */
    const size_t chunks[2] = {0, strncmp(id, "porep", 5) ? 96 : 65632};
    for (int k = 0; k < 2; k++) {
        unlink(pgot);
        unlink(vgot);
        czk_gpu_setup_opts o = {.chunk = chunks[k], .log = log_line, .log_ctx = (void *)id};
        e = czk_gpu_setup_write(&rc, &t, pgot, vgot, &o, pool, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s: %s", id, msg);
        long pd = diff_at(pref, pgot), vd = diff_at(vref, vgot);
        CHECK_MSG(pd < 0, "%s (chunk %zu): the GPU's params differ from the CPU's at byte %ld", id, chunks[k], pd);
        CHECK_MSG(vd < 0, "%s (chunk %zu): the GPU's vk differs from the CPU's at byte %ld", id, chunks[k], vd);
        printf("%s, seed %llu, chunk %zu: params and vk %s\n", id, (unsigned long long)seed, chunks[k],
               pd < 0 && vd < 0 ? "identical" : "DIFFER");
    }
    /* never over an existing file: the one there stays as it was */
    czk_gpu_setup_opts o = {0};
    czk_toxic t2;
    czk_toxic_from_seed(&t2, seed + 1);
    CHECK(czk_gpu_setup_write(&rc, &t2, pgot, vgot, &o, pool, msg, sizeof msg) == CZK_ERR_IO);
    CHECK_MSG(strstr(msg, "not overwriting") != NULL, "%s", msg);
    CHECK(diff_at(pref, pgot) < 0);
    unlink(pgot);
    CHECK(czk_gpu_setup_write(&rc, &t2, pgot, vgot, &o, pool, msg, sizeof msg) == CZK_ERR_IO); /* the vk is there */
    struct stat st;
    CHECK(stat(pgot, &st) != 0);
    unlink(pref), unlink(vref), unlink(vgot);
    czk_r1cs_compact_free(&rc);
}

int main(void) {
    if (czk_gpu_count() == 0) {
        printf("test_gpu_setup: SKIP (no CUDA device)\n");
        return TEST_SKIP;
    }
    czk_rng rng;
    test_seed_rng(&rng, "test_gpu_setup");
    char dir[] = "/tmp/czk_gpu_setup.XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "cannot make a temporary directory\n");
        return 1;
    }
    czk_pool *pool = czk_pool_default();
    check_circuit("demo", dir, czk_rng_next(&rng), pool);
    check_circuit("synthetic-12", dir, czk_rng_next(&rng), pool);
    check_circuit("gadget-sha256-512", dir, czk_rng_next(&rng), pool);
    if (test_cases(1) >= 1) check_circuit("porep-2k", dir, czk_rng_next(&rng), pool);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s)\"", dir);
    CHECK_MSG(system(cmd) == 0, "files left in %s", dir);
    rmdir(dir);
    return test_finish("test_gpu_setup");
}
