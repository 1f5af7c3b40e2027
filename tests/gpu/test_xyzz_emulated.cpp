/* czk — the device's XYZZ point arithmetic (src/gpu/xyzz.cuh over fp.cuh
 * and fp2.cuh) checked on the host against the CPU's G1 and G2 group law:
 * the PTX primitives emulated (ptx_emulated.h), the headers compiled as they
 * are. For each field type the MSM kernels use (G1: fp_t in the hot kernels,
 * fpc_t in the cold ones; G2: fp2_t and fp2c_t):
 * - chains of mixed additions (the bucket loop's add_base) over a small pool
 *   of affine points with infinity among them and random signs, so that the
 *   running sum often meets a point or its negation (doubling, P - P);
 * - XYZZ + XYZZ additions over every pair of a pool holding infinity, P,
 *   -P, 2P and others, with non-trivial ZZ;
 * - doublings of that pool.
 * Every result, through xyzz_store_jac, must equal the CPU's (czk_g1_equal,
 * czk_g2_equal). What the GPU tests check on a device (MSMs against the
 * CPU), this checks in CI. */
#include <stdio.h>
#include <string.h>

#include "ptx_emulated.h"

#include "../../src/gpu/xyzz.cuh"

extern "C" {
#include "czk/fr.h"
#include "czk/rng.h"
}

#include "emulated_groups.h"

static long checks, failures;

static void expect(bool ok, const char *what, int i, int j) {
    checks++;
    if (!ok && failures++ < 20) fprintf(stderr, "FAIL %s (%d, %d)\n", what, i, j);
}

template <class H, class F> static void run(const char *name, czk_rng *rng, int rounds) {
    static_assert(sizeof(aff_t<F>) == sizeof(typename H::aff), "layouts");
    char what[96];
    for (int round = 0; round < rounds; round++) {
        typename H::jac pool[6];
        make_pool<H>(pool, rng);

        /* chains of mixed additions over infinity, P, 2P, Q (affine) */
        typename H::aff aff[4];
        H::to_aff(&aff[0], &pool[0]);
        H::to_aff(&aff[1], &pool[1]);
        H::to_aff(&aff[2], &pool[3]);
        H::to_aff(&aff[3], &pool[4]);
        snprintf(what, sizeof what, "%s mixed-addition chain", name);
        for (int chain = 0; chain < 40; chain++) {
            xyzz_t<F> acc;
            xyzz_set_inf(acc);
            typename H::jac want;
            H::inf(&want);
            for (int step = 0; step < 8; step++) {
                const uint64_t r = czk_rng_next(rng);
                const int pick = (int)(r % 4);
                const bool neg = (r >> 8) & 1;
                aff_t<F> b;
                memcpy(&b, &aff[pick], sizeof b);
                if (!aff_is_inf(b.x, b.y)) xyzz_add_aff(acc, b.x, b.y, neg);
                typename H::jac q;
                H::from_aff(&q, &aff[pick]);
                if (neg) H::neg(&q, &q);
                H::add(&want, &want, &q);
                typename H::jac got = to_host<H, F>(acc);
                expect(H::equal(&got, &want), what, chain, step);
            }
        }

        /* XYZZ + XYZZ over every pair, and doublings */
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                xyzz_t<F> p = from_host<H, F>(pool[i]);
                const xyzz_t<F> q = from_host<H, F>(pool[j]);
                xyzz_add(p, q);
                typename H::jac want, got = to_host<H, F>(p);
                H::add(&want, &pool[i], &pool[j]);
                snprintf(what, sizeof what, "%s XYZZ addition", name);
                expect(H::equal(&got, &want), what, i, j);
            }
            xyzz_t<F> p = from_host<H, F>(pool[i]);
            xyzz_dbl(p);
            typename H::jac want, got = to_host<H, F>(p);
            H::dbl(&want, &pool[i]);
            snprintf(what, sizeof what, "%s XYZZ doubling", name);
            expect(H::equal(&got, &want), what, i, i);
        }
    }
}

int main(void) {
    czk_rng rng;
    czk_rng_seed(&rng, 20261201u);
    run<g1_host, fp_t>("G1 (fp_t)", &rng, 20);
    run<g1_host, fpc_t>("G1 (fpc_t)", &rng, 5);
    run<g2_host, fp2_t>("G2 (fp2_t)", &rng, 5);
    run<g2_host, fp2c_t>("G2 (fp2c_t)", &rng, 3);
    printf("test_xyzz_emulated: %ld checks, %ld wrong\n", checks, failures);
    return failures ? 1 : 0;
}
