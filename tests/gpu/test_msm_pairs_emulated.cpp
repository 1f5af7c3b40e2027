/* czk — the pairing rounds of the G1 bucket accumulation
 * (src/gpu/msm_pairs.cuh) run on the host exactly as the kernels of msm.cu
 * launch them, thread by thread, the PTX emulated (ptx_emulated.h), and
 * checked against the CPU's group law:
 * - a window's sorted pairs (runs of 1 … 300 slots, zero digits last, random
 *   signs): after R rounds, the live slots of every bucket (pair sums, or
 *   bases with their signs) must add up to the bucket's original sum;
 * - with distinct random bases, the rounds must actually pair: at most
 *   m/2^R + 3·R per run of slots stay live;
 * - with a small pool holding infinity, equal and opposite bases, the
 *   candidates that cannot be added affinely (infinity, x equal: doubling
 *   or P - P) must be left alone and the sums still hold;
 * - then the bucket accumulation as the device runs it: every slice of L
 *   slots (msm_chunks_slice, which skips the dead slots) and the fix-up of
 *   the runs that cross slices (the fix kernels' rule, here on the host),
 *   with buckets and partials starting as garbage: every bucket must come
 *   out equal to its original sum (slices of 1, 5, 16 and 64 slots); the
 *   same without the rounds (the slices' plain path).
 * What the GPU test checks on a device (the MSM against the CPU, with the
 * rounds forced on at every size), this checks in CI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "ptx_emulated.h"

#include "../../src/gpu/msm_slice.cuh"

extern "C" {
#include "czk/fp.h"
#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/rng.h"
}

static long checks, failures;

static void expect(bool ok, const char *what, long i) {
    checks++;
    if (!ok && failures++ < 20) fprintf(stderr, "FAIL %s (%ld)\n", what, i);
}

/* The rounds as czk_gpu_launch_msm_pairs launches them. */
static void run_rounds(const uint32_t *keys, uint32_t *vals, size_t m, uint32_t nb, unsigned rounds,
                       const g1_aff_t *bases, g1_aff_t *pts) {
    for (unsigned r = 1; r <= rounds && ((size_t)1 << (r - 1)) < m; r++) {
        const pair_round c = {keys, vals, m, nb, r, bases, pts};
        size_t T[PAIR_MAX_LEVELS], off[PAIR_MAX_LEVELS + 1];
        const size_t J = pair_candidates(m, r);
        const unsigned L = pair_tree(J, T, off);
        std::vector<fp_t> sc(off[L]);
        fp_t *s = sc.data();
#define PRE(l) pair_pre(s, off, l)
#define TOT(l) pair_tot(s, T, off, l)
        for (size_t t = 0; t < T[0]; t++) pair_up0(c, J, T[0], t, PRE(0), TOT(0));
        for (unsigned l = 1; l < L; l++)
            for (size_t t = 0; t < T[l]; t++) pair_up(TOT(l - 1), T[l - 1], T[l], t, PRE(l), TOT(l));
        czk_fp_inv((czk_fp *)TOT(L - 1), (const czk_fp *)TOT(L - 1)); /* as the launcher, on the host */
        for (unsigned l = L; l-- > 1;)
            for (size_t t = 0; t < T[l]; t++) pair_down(TOT(l - 1), T[l - 1], T[l], t, PRE(l), TOT(l));
        for (size_t t = 0; t < T[0]; t++) pair_add0(c, J, T[0], t, PRE(0), TOT(0));
#undef PRE
#undef TOT
    }
}

static void add_affine(czk_g1 *acc, const czk_g1_affine *a, bool neg) {
    czk_g1 q;
    czk_g1_from_affine(&q, a);
    if (neg) czk_g1_neg(&q, &q);
    czk_g1_add(acc, acc, &q);
}

/* One window: m slots over nbases bases (pool: its first entries special),
 * R rounds; checks the sums and returns the live slots after. */
static size_t run_window(czk_rng *rng, const std::vector<czk_g1_affine> &bases, size_t m, uint32_t nb,
                         unsigned R, const char *what, size_t *runs_out) {
    std::vector<uint32_t> keys(m), vals(m);
    /* runs of random lengths over increasing keys, then zero digits (nb) */
    size_t s = 0, runs = 0;
    uint32_t k = 0;
    while (s < m) {
        const uint64_t x = czk_rng_next(rng);
        size_t len = 1 + (size_t)(x % 8 == 0 ? x % 300 : x % 40);
        if (len > m - s) len = m - s;
        const bool zero = s > m * 9 / 10 || k >= nb;
        for (size_t i = 0; i < len; i++) keys[s + i] = zero ? nb : k;
        if (!zero) runs++;
        s += len;
        k += 1 + (uint32_t)((x >> 20) % 3);
        if (k > nb) k = nb;
    }
    for (size_t i = 0; i < m; i++) {
        const uint64_t x = czk_rng_next(rng);
        vals[i] = (uint32_t)(x % bases.size()) | ((x >> 40) & 1 ? 0x80000000u : 0u);
    }
    /* the buckets' sums before */
    std::vector<czk_g1> want(nb), got(nb);
    for (uint32_t b = 0; b < nb; b++) {
        czk_g1_set_infinity(&want[b]);
        czk_g1_set_infinity(&got[b]);
    }
    for (size_t i = 0; i < m; i++)
        if (keys[i] < nb) add_affine(&want[keys[i]], &bases[vals[i] & PAIR_IDX], vals[i] >> 31);

    const std::vector<uint32_t> vals0 = vals; /* before the rounds */
    std::vector<g1_aff_t> pts((m + 1) / 2);
    static_assert(sizeof(g1_aff_t) == sizeof(czk_g1_affine), "layouts");
    run_rounds(keys.data(), vals.data(), m, nb, R, (const g1_aff_t *)bases.data(), pts.data());

    size_t live = 0;
    for (size_t i = 0; i < m; i++) {
        if (keys[i] >= nb) continue;
        const uint32_t v = vals[i];
        if (v == PAIR_DEAD) continue;
        live++;
        if (v & PAIR_SUM) {
            expect((i & 1) == 0, "a pair sum sits in an even slot", (long)i);
            czk_g1_affine a;
            memcpy(&a, &pts[i >> 1], sizeof a);
            add_affine(&got[keys[i]], &a, false);
        } else {
            add_affine(&got[keys[i]], &bases[v & PAIR_IDX], v >> 31);
        }
    }
    for (uint32_t b = 0; b < nb; b++) expect(czk_g1_equal(&got[b], &want[b]), what, (long)b);

    /* the bucket accumulation over the slots after the rounds (and, the
     * plain path, over the list before them) */
    static const unsigned slice[] = {1, 5, 16, 64};
    for (int paired = 0; paired < 2; paired++) {
        for (unsigned L : slice) {
            const size_t ns = (m + L - 1) / L;
            std::vector<g1_xyzz_t> buckets(nb), partial(2 * ns);
            czk_rng_bytes(rng, buckets.data(), buckets.size() * sizeof(g1_xyzz_t));
            czk_rng_bytes(rng, partial.data(), partial.size() * sizeof(g1_xyzz_t));
            const g1_aff_t *ba = (const g1_aff_t *)bases.data();
            for (size_t t = 0; t < ns; t++) {
                if (paired)
                    msm_chunks_slice<fp_t, true>(t, keys.data(), vals.data(), m, L, nb, ba, pts.data(), buckets.data(),
                                                 partial.data());
                else
                    msm_chunks_slice<fp_t, false>(t, keys.data(), vals0.data(), m, L, nb, ba, NULL, buckets.data(),
                                                  partial.data());
            }
            for (uint32_t b = 0; b < nb; b++) { /* the fix kernels' rule */
                size_t s0 = m, e0 = 0;
                for (size_t i = 0; i < m; i++)
                    if (keys[i] == b) {
                        if (s0 == m) s0 = i;
                        e0 = i + 1;
                    }
                if (s0 == m) {
                    xyzz_set_inf(buckets[b]);
                    continue;
                }
                const size_t t0 = s0 / L, t1 = (e0 - 1) / L;
                if (t0 == t1) continue;
                g1_xyzz_t acc = partial[2 * t0 + (s0 == t0 * L ? 0 : 1)];
                for (size_t t = t0 + 1; t <= t1; t++) xyzz_add(acc, partial[2 * t]);
                buckets[b] = acc;
            }
            for (uint32_t b = 0; b < nb; b++) {
                g1_jac_t j;
                xyzz_store_jac(&j, buckets[b]);
                czk_g1 h;
                memcpy(&h, &j, sizeof h);
                expect(czk_g1_equal(&h, &want[b]),
                       paired ? "slices + fix after the rounds: bucket sums" : "slices + fix, no rounds: bucket sums",
                       (long)(L * 100000 + b));
            }
        }
    }
    *runs_out = runs;
    return live;
}

static std::vector<czk_g1_affine> random_bases(czk_rng *rng, size_t n) {
    czk_g1 g, p;
    czk_g1_from_affine(&g, &CZK_G1_GENERATOR);
    std::vector<czk_g1_affine> b(n);
    for (size_t i = 0; i < n; i++) {
        czk_fr k;
        czk_fr_random(&k, rng);
        czk_g1_mul_fr(&p, &g, &k);
        czk_g1_to_affine(&b[i], &p);
    }
    return b;
}

int main(void) {
    czk_rng rng;
    czk_rng_seed(&rng, 20261201u);

    /* distinct bases: the rounds pair nearly everything */
    std::vector<czk_g1_affine> distinct = random_bases(&rng, 4096);
    for (unsigned R = 1; R <= 4; R++) {
        const size_t m = 3000 + 17 * R;
        size_t runs = 0;
        const size_t live = run_window(&rng, distinct, m, 1u << 12, R, "distinct bases: bucket sums", &runs);
        /* in-bucket slots: about 0.9 m; each run loses at most about R pairs at its edges */
        expect(live <= m / ((size_t)1 << R) + 3 * R * runs + 4, "distinct bases: the rounds pair", (long)R);
        printf("distinct, R=%u: m=%zu, %zu runs, %zu live\n", R, m, runs, live);
    }

    /* a pool with infinity, equal and opposite points: collisions everywhere */
    std::vector<czk_g1_affine> pool = random_bases(&rng, 6);
    memset(&pool[0], 0, sizeof pool[0]); /* infinity */
    pool[2] = pool[1];                   /* equal */
    czk_g1 q;
    czk_g1_from_affine(&q, &pool[1]);
    czk_g1_neg(&q, &q);
    czk_g1_to_affine(&pool[3], &q); /* opposite */
    czk_g1_from_affine(&q, &pool[4]);
    czk_g1_dbl(&q, &q);
    czk_g1_to_affine(&pool[5], &q); /* 2·pool[4] */
    for (unsigned R = 1; R <= 5; R++) {
        size_t runs = 0;
        const size_t live = run_window(&rng, pool, 2500 + 31 * R, 64, R, "small pool: bucket sums", &runs);
        printf("small pool, R=%u: %zu runs, %zu live\n", R, runs, live);
    }
    /* tiny windows: 1, 2, 3 slots */
    for (size_t m = 1; m <= 3; m++) {
        size_t runs = 0;
        run_window(&rng, distinct, m, 4, 3, "tiny window: bucket sums", &runs);
    }

    printf("test_msm_pairs_emulated: %ld checks, %ld wrong\n", checks, failures);
    return failures ? 1 : 0;
}
