/* czk — the GPU setup's device math (src/gpu/setup.cuh over fr.cuh, fp.cuh,
 * fp2.cuh and xyzz.cuh) checked on the host with the PTX emulated: for G1
 * and G2, a random base P, its window table from czk_setup_table_g1/_g2,
 * and scalars (random, and 0, 1, 2, -1, 255, 256, 2^248, a scalar whose
 * every digit is non-zero), setup_mul then setup_affine_group over groups
 * of several sizes must give exactly the bytes czk_g1_to_uncompressed /
 * czk_g2_to_uncompressed give for k·P computed by the CPU (k = 0: the
 * infinity encoding). What test_gpu_setup checks on a device, this checks
 * in CI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_emulated.h"

#include "../../src/gpu/setup.cuh"

extern "C" {
#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/mem.h"
#include "czk/rng.h"
#include "czk/setup_scalars.h"
}

#include "emulated_groups.h"

static long checks, failures;

enum { NPTS = 48 };

static void scalars(czk_fr *k, czk_rng *rng) {
    czk_fr_from_u64(&k[0], 0);
    czk_fr_from_u64(&k[1], 1);
    czk_fr_from_u64(&k[2], 2);
    czk_fr_from_u64(&k[3], 1);
    czk_fr_neg(&k[3], &k[3]);
    czk_fr_from_u64(&k[4], 255);
    czk_fr_from_u64(&k[5], 256);
    uint64_t e[4] = {0, 0, 0, (uint64_t)1 << 56};
    czk_fr_from_canonical(&k[6], e);
    uint64_t f[4] = {0x0101010101010101ull, 0x0101010101010101ull, 0x0101010101010101ull, 0x0101010101010101ull};
    czk_fr_from_canonical(&k[7], f);
    for (int i = 8; i < NPTS; i++) czk_fr_random(&k[i], rng);
}

template <class H, class F, class ENC> static void run(const char *name, const typename H::jac &p, czk_rng *rng,
                                                       czk_err (*table_fn)(typename H::aff *, const typename H::jac *),
                                                       ENC enc, size_t pbytes) {
    static_assert(sizeof(aff_t<F>) == sizeof(typename H::aff), "layouts");
    typename H::aff *table = new typename H::aff[CZK_SETUP_TABLE_POINTS];
    if (table_fn(table, &p) != CZK_OK) {
        failures++;
        return;
    }
    czk_fr k[NPTS];
    scalars(k, rng);
    xyzz_t<F> pts[NPTS];
    F pre[NPTS];
    for (int i = 0; i < NPTS; i++) {
        fr_t m;
        memcpy(&m, &k[i], sizeof m);
        setup_mul(pts[i], (const aff_t<F> *)table, setup_fr_canonical(m));
    }
    /* groups: 32 + 13 + 1 + 2 */
    uint32_t *out = new uint32_t[NPTS * pbytes / 4];
    const size_t groups[][2] = {{0, 32}, {32, 13}, {45, 1}, {46, 2}};
    for (auto &g : groups) setup_affine_group(out, pts, pre, g[0], g[1]);
    for (int i = 0; i < NPTS; i++) {
        typename H::jac q;
        H::mul(&q, &p, &k[i]);
        typename H::aff a;
        H::to_aff(&a, &q);
        uint8_t want[192];
        enc(want, &a);
        checks++;
        if (memcmp(want, (const uint8_t *)out + i * pbytes, pbytes) != 0 && failures++ < 20)
            fprintf(stderr, "FAIL %s: point %d differs from the CPU's\n", name, i);
    }
    delete[] out;
    delete[] table;
}

int main() {
    czk_rng rng;
    uint64_t seed = 0;
    const char *s = getenv("CZK_TEST_SEED");
    if (s) seed = strtoull(s, NULL, 0);
    else {
        czk_fr t;
        seed = czk_fr_random_os(&t) == CZK_OK ? t.l[0] : 1;
    }
    printf("test_setup_emulated: seed %llu (CZK_TEST_SEED repeats it)\n", (unsigned long long)seed);
    czk_rng_seed(&rng, seed);
    czk_fr r;
    czk_fr_random(&r, &rng);
    g1_host::jac p1 = g1_host::generator();
    g1_host::mul(&p1, &p1, &r);
    run<g1_host, fp_t>("G1", p1, &rng, czk_setup_table_g1, czk_g1_to_uncompressed, CZK_G1_UNCOMPRESSED_BYTES);
    czk_fr_random(&r, &rng);
    g2_host::jac p2 = g2_host::generator();
    g2_host::mul(&p2, &p2, &r);
    run<g2_host, fp2_t>("G2", p2, &rng, czk_setup_table_g2, czk_g2_to_uncompressed, CZK_G2_UNCOMPRESSED_BYTES);
    printf("test_setup_emulated: %ld checks, %ld failures\n", checks, failures);
    return failures ? 1 : 0;
}
