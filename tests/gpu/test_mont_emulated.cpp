/* czk — the device Montgomery product (src/gpu/mont.cuh) checked on the host:
 * its PTX primitives emulated in C++ with an explicit carry flag
 * (ptx_emulated.h), the product compared with GMP for Fp (12 limbs,
 * operands < 2p as fp2.cuh passes them) and Fr (8 limbs, operands < r), on
 * random and edge values; the square (mont_sqr) against GMP and against
 * the product of a by itself.
 * What the GPU tests check on a device (NTT and MSM against the CPU), this
 * checks here in CI: that the chains carry and reduce correctly. */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ptx_emulated.h"

#include "../../src/gpu/mont.cuh"

static const uint32_t FP_LIMBS[12] = {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u,
                                      0xf38512bfu, 0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau};
static const uint32_t FR_LIMBS[8] = {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u,
                                     0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u};
struct fp_mod {
    static uint32_t p(int i) { return FP_LIMBS[i]; }
    static const uint32_t m0 = 0xfffcfffdu;
    static const bool low64 = false;
};
struct fr_mod {
    static uint32_t p(int i) { return FR_LIMBS[i]; }
    static const uint32_t m0 = 0xffffffffu;
    static const bool low64 = true; /* r ≡ 2^64 - 2^32 + 1 (mod 2^64): the short reduction rows */
};
/* Fr through the general rows too (the rows Fp uses) */
struct fr_mod_general {
    static uint32_t p(int i) { return FR_LIMBS[i]; }
    static const uint32_t m0 = 0xffffffffu;
    static const bool low64 = false;
};

static void to_mpz(mpz_t z, const uint32_t *l, int n) { mpz_import(z, (size_t)n, -1, 4, 0, 0, l); }
static void from_mpz(uint32_t *l, int n, const mpz_t z) {
    for (int i = 0; i < n; i++) l[i] = 0;
    mpz_export(l, NULL, -1, 4, 0, 0, z);
}

static gmp_randstate_t rs;
static long failures, checks;

/* want = a·b·2^(-32N) mod p */
template <int N> static void expect(mpz_t want, const mpz_t p, const mpz_t a, const mpz_t b) {
    mpz_t rinv;
    mpz_init(rinv);
    mpz_setbit(rinv, 32 * N);
    mpz_invert(rinv, rinv, p);
    mpz_mul(want, a, b);
    mpz_mul(want, want, rinv);
    mpz_mod(want, want, p);
    mpz_clear(rinv);
}

/* one product against GMP: a·b·2^(-32N) mod p, fully reduced (FULL), or
 * (the lazy product) congruent to it and below 2p */
template <int N, class M, bool FULL = true>
static void check(const mpz_t p, const mpz_t a, const mpz_t b, const char *what) {
    uint32_t la[N], lb[N], lr[N];
    from_mpz(la, N, a);
    from_mpz(lb, N, b);
    mont_mul<N, M, FULL>(lr, la, lb);
    mpz_t r, want;
    mpz_inits(r, want, NULL);
    to_mpz(r, lr, N);
    expect<N>(want, p, a, b);
    checks++;
    bool ok = mpz_cmp(r, want) == 0;
    if (!FULL && !ok && mpz_cmp(r, p) >= 0) { /* r in [p, 2p) must be want + p */
        mpz_sub(r, r, p);
        ok = mpz_cmp(r, want) == 0;
        mpz_add(r, r, p);
    }
    if (!ok) {
        if (failures++ < 10) gmp_fprintf(stderr, "FAIL %s: a=%Zx b=%Zx got %Zx want %Zx\n", what, a, b, r, want);
    }
    mpz_clears(r, want, NULL);
}

/* mont_sqr(a) against GMP (a^2·2^(-32N) mod p) and against mont_mul(a, a) */
template <int N, class M> static void check_sqr(const mpz_t p, const mpz_t a, const char *what) {
    uint32_t la[N], lr[N], lm[N];
    from_mpz(la, N, a);
    mont_sqr<N, M>(lr, la);
    mont_mul<N, M>(lm, la, la);
    mpz_t r, want;
    mpz_inits(r, want, NULL);
    to_mpz(r, lr, N);
    expect<N>(want, p, a, a);
    checks++;
    bool same = true;
    for (int k = 0; k < N; k++) same = same && lr[k] == lm[k];
    if (mpz_cmp(r, want) != 0 || !same) {
        if (failures++ < 10) gmp_fprintf(stderr, "FAIL %s square: a=%Zx got %Zx want %Zx\n", what, a, r, want);
    }
    mpz_clears(r, want, NULL);
}

/* operands below bound (p for Fr, 2p for Fp): random ones, and the edges 0,
 * 1, bound-1, bound-2, p-1, p, 2^k - 1 below bound, with every pairing */
template <int N, class M> static void run(const uint32_t *limbs, int bound_times_p, const char *name, long randoms) {
    mpz_t p, bound, a, b;
    mpz_inits(p, bound, a, b, NULL);
    to_mpz(p, limbs, N);
    mpz_mul_ui(bound, p, (unsigned long)bound_times_p);
    mpz_t edge[12];
    int ne = 0;
    for (int i = 0; i < 12; i++) mpz_init(edge[i]);
    mpz_set_ui(edge[ne++], 0);
    mpz_set_ui(edge[ne++], 1);
    mpz_sub_ui(edge[ne++], bound, 1);
    mpz_sub_ui(edge[ne++], bound, 2);
    mpz_sub_ui(edge[ne++], p, 1);
    if (bound_times_p > 1) mpz_set(edge[ne++], p);
    for (int k = 32; k < 32 * N; k += 61) {
        mpz_set_ui(edge[ne], 0);
        mpz_setbit(edge[ne], (mp_bitcnt_t)k);
        mpz_sub_ui(edge[ne], edge[ne], 1);
        if (mpz_cmp(edge[ne], bound) < 0 && ne < 11) ne++;
    }
    for (int i = 0; i < ne; i++) {
        check_sqr<N, M>(p, edge[i], name);
        for (int j = 0; j < ne; j++) check<N, M>(p, edge[i], edge[j], name);
    }
    for (long t = 0; t < randoms; t++) {
        mpz_urandomm(a, rs, bound);
        mpz_urandomm(b, rs, bound);
        if (t % 4 == 1) mpz_sub_ui(a, bound, 1 + (unsigned long)(t & 7)); /* near the top */
        check<N, M>(p, a, b, name);
        check<N, M>(p, a, a, name);
        check_sqr<N, M>(p, a, name);
    }
    /* squares of operands with runs of all-ones and all-zero limbs (the
     * cross products' carries at their largest) */
    for (long t = 0; t < randoms / 10; t++) {
        uint32_t l[N];
        for (int k = 0; k < N; k++) {
            const unsigned pick = (unsigned)gmp_urandomm_ui(rs, 4);
            l[k] = pick == 0 ? 0u : pick == 1 ? 0xffffffffu : (uint32_t)gmp_urandomb_ui(rs, 32);
        }
        to_mpz(a, l, N);
        mpz_mod(a, a, bound);
        check_sqr<N, M>(p, a, name);
    }
    for (int i = 0; i < 12; i++) mpz_clear(edge[i]);
    mpz_clears(p, bound, a, b, NULL);
}

/* Fr with a < r and a lazy b <= 2r (the NTT's lazy operand as b; the
 * bound holds for any b < 2^256, checked at 2^256 - 1): the full product
 * and the lazy one (below 2r), random and edge operands */
static void run_fr_lazy(long randoms) {
    mpz_t p, two_p, a, b, ea[4], eb[7];
    mpz_inits(p, two_p, a, b, NULL);
    to_mpz(p, FR_LIMBS, 8);
    mpz_mul_ui(two_p, p, 2);
    for (int i = 0; i < 4; i++) mpz_init(ea[i]);
    for (int i = 0; i < 7; i++) mpz_init(eb[i]);
    mpz_set_ui(ea[0], 0), mpz_set_ui(ea[1], 1), mpz_sub_ui(ea[2], p, 1), mpz_sub_ui(ea[3], p, 2);
    mpz_set_ui(eb[0], 0), mpz_set_ui(eb[1], 1), mpz_sub_ui(eb[2], p, 1), mpz_set(eb[3], p), mpz_sub_ui(eb[4], two_p, 1);
    mpz_set(eb[5], two_p), mpz_ui_pow_ui(eb[6], 2, 256), mpz_sub_ui(eb[6], eb[6], 1);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 7; j++) {
            check<8, fr_mod, true>(p, ea[i], eb[j], "fr, b < 2r, full");
            check<8, fr_mod, false>(p, ea[i], eb[j], "fr, b < 2r, lazy");
        }
    for (long t = 0; t < randoms; t++) {
        mpz_urandomm(a, rs, p);
        mpz_add_ui(b, two_p, 1);
        mpz_urandomm(b, rs, b); /* b <= 2r */
        if (t % 4 == 1) mpz_sub_ui(b, two_p, 1 + (unsigned long)(t & 7));
        if (t % 4 == 2) mpz_sub_ui(a, p, 1 + (unsigned long)(t & 7));
        check<8, fr_mod, true>(p, a, b, "fr, b < 2r, full");
        check<8, fr_mod, false>(p, a, b, "fr, b < 2r, lazy");
    }
    for (int i = 0; i < 4; i++) mpz_clear(ea[i]);
    for (int i = 0; i < 7; i++) mpz_clear(eb[i]);
    mpz_clears(p, two_p, a, b, NULL);
}

int main(void) {
    gmp_randinit_mt(rs);
    gmp_randseed_ui(rs, 20261130u);
    run<12, fp_mod>(FP_LIMBS, 2, "fp (operands < 2p)", 100000);
    run<8, fr_mod>(FR_LIMBS, 1, "fr (operands < r)", 100000);
    run<8, fr_mod_general>(FR_LIMBS, 1, "fr, general rows (operands < r)", 20000);
    run_fr_lazy(100000);
    printf("test_mont_emulated: %ld products, %ld wrong\n", checks, failures);
    gmp_randclear(rs);
    return failures ? 1 : 0;
}
