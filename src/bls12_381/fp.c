/* czk — Fp arithmetic (see include/czk/fp.h). */
#include "czk/fp.h"

#include <string.h>

#include "fp_adx.h"
#include "modinv.h"
#include "mont.h"
#include "pow_window.h"

#define N CZK_FP_LIMBS

const czk_fp CZK_FP_MODULUS = {{0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}};
const czk_fp CZK_FP_ONE = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                            0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}};
const czk_fp CZK_FP_R2 = {{0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                           0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}};
/* -p^-1 mod 2^64 */
#define FP_MINV 0x89f3fffcfffcfffdULL

static const uint64_t *const P = CZK_FP_MODULUS.l;

void czk_fp_mul(czk_fp *r, const czk_fp *a, const czk_fp *b) {
#if CZK_HAVE_ADX_ASM
    if (czk_mont_adx_active()) {
        czk_fp_mul_adx(r->l, a->l, b->l);
        return;
    }
#endif
    uint64_t t[N];
    mont_mul_n(t, a->l, b->l, P, FP_MINV, N);
    memcpy(r->l, t, sizeof t);
}

void czk_fp_sqr(czk_fp *r, const czk_fp *a) { czk_fp_mul(r, a, a); }

/* Additions use the assembly on the ADX path (it needs only x86-64, but the
 * path switch keeps the portable C under test too). */
void czk_fp_add(czk_fp *r, const czk_fp *a, const czk_fp *b) {
#if CZK_HAVE_ADX_ASM
    if (czk_mont_adx_active()) {
        czk_fp_add_asm(r->l, a->l, b->l);
        return;
    }
#endif
    mont_add_n(r->l, a->l, b->l, P, N);
}
void czk_fp_sub(czk_fp *r, const czk_fp *a, const czk_fp *b) {
#if CZK_HAVE_ADX_ASM
    if (czk_mont_adx_active()) {
        czk_fp_sub_asm(r->l, a->l, b->l);
        return;
    }
#endif
    mont_sub_n(r->l, a->l, b->l, P, N);
}
void czk_fp_dbl(czk_fp *r, const czk_fp *a) {
#if CZK_HAVE_ADX_ASM
    if (czk_mont_adx_active()) {
        czk_fp_dbl_asm(r->l, a->l);
        return;
    }
#endif
    mont_add_n(r->l, a->l, a->l, P, N);
}
void czk_fp_neg(czk_fp *r, const czk_fp *a) { mont_neg_n(r->l, a->l, P, N); }
void czk_fp_half(czk_fp *r, const czk_fp *a) { mont_half_n(r->l, a->l, P, N); }

void czk_fp_from_u64(czk_fp *r, uint64_t v) {
    czk_fp t = {{v, 0, 0, 0, 0, 0}};
    czk_fp_mul(r, &t, &CZK_FP_R2);
}

bool czk_fp_is_zero(const czk_fp *a) { return mont_is_zero_n(a->l, N); }
bool czk_fp_is_one(const czk_fp *a) { return mont_eq_n(a->l, CZK_FP_ONE.l, N); }
bool czk_fp_equal(const czk_fp *a, const czk_fp *b) { return mont_eq_n(a->l, b->l, N); }

DEFINE_POW_WINDOW(fp_pow, czk_fp, czk_fp_set_one, czk_fp_mul, czk_fp_sqr)

void czk_fp_pow(czk_fp *r, const czk_fp *a, const uint64_t *e, int n) { fp_pow(r, a, e, n); }

/* 2^1152 mod p: turns (a·2^384)^-1 back into Montgomery form with one
 * multiplication. */
static const czk_fp FP_R3 = {{0xed48ac6bd94ca1e0ULL, 0x315f831e03a7adf8ULL, 0x9a53352a615e29ddULL,
                              0x34c04e5e921e1761ULL, 0x2512d43565724728ULL, 0x0aa6346091755d4dULL}};

/* Variable-time safegcd inversion (modinv.c) + 1M. */
void czk_fp_inv(czk_fp *r, const czk_fp *a) {
    modinv_modulus mod;
    modinv_modulus_init(&mod, P, N);
    czk_fp t;
    modinv_var(t.l, a->l, &mod);
    czk_fp_mul(r, &t, &FP_R3);
}

/* Fermat's a^(p-2): the slow reference that tests compare czk_fp_inv with. */
void czk_fp_inv_fermat(czk_fp *r, const czk_fp *a) {
    uint64_t e[N];
    memcpy(e, P, sizeof e);
    e[0] -= 2; /* the low limb of p is > 2: no borrow */
    czk_fp_pow(r, a, e, N);
}

int czk_fp_legendre(const czk_fp *a) {
    if (czk_fp_is_zero(a)) return 0;
    uint64_t e[N];
    for (int j = 0; j < N - 1; j++) e[j] = (P[j] >> 1) | (P[j + 1] << 63);
    e[N - 1] = P[N - 1] >> 1;
    czk_fp t;
    czk_fp_pow(&t, a, e, N);
    return czk_fp_is_one(&t) ? 1 : -1;
}

/* p ≡ 3 (mod 4): sqrt(a) = a^((p+1)/4) when a is a square. */
bool czk_fp_sqrt(czk_fp *r, const czk_fp *a) {
    uint64_t e[N];
    uint64_t carry = 1;
    uint64_t q[N];
    for (int j = 0; j < N; j++) {
        q[j] = P[j] + carry;
        carry = q[j] < carry;
    }
    for (int j = 0; j < N - 1; j++) e[j] = (q[j] >> 2) | (q[j + 1] << 62);
    e[N - 1] = q[N - 1] >> 2;
    czk_fp s, s2;
    czk_fp_pow(&s, a, e, N);
    czk_fp_sqr(&s2, &s);
    if (!czk_fp_equal(&s2, a)) return false;
    *r = s;
    return true;
}

bool czk_fp_from_canonical(czk_fp *r, const uint64_t v[N]) {
    if (!mont_lt_n(v, P, N)) return false;
    czk_fp t;
    memcpy(t.l, v, sizeof t.l);
    czk_fp_mul(r, &t, &CZK_FP_R2);
    return true;
}

void czk_fp_to_canonical(uint64_t v[N], const czk_fp *a) {
    czk_fp one = {{1, 0, 0, 0, 0, 0}}, t;
    czk_fp_mul(&t, a, &one);
    memcpy(v, t.l, sizeof t.l);
}

bool czk_fp_is_lexicographically_largest(const czk_fp *a) {
    uint64_t v[N], half[N];
    czk_fp_to_canonical(v, a);
    for (int j = 0; j < N - 1; j++) half[j] = (P[j] >> 1) | (P[j + 1] << 63);
    half[N - 1] = P[N - 1] >> 1;
    /* v > (p-1)/2 */
    return mont_lt_n(half, v, N);
}

bool czk_fp_from_bytes_be(czk_fp *r, const uint8_t in[CZK_FP_BYTES]) {
    uint64_t v[N];
    for (int j = 0; j < N; j++) {
        uint64_t w = 0;
        for (int k = 0; k < 8; k++) w = w << 8 | in[(N - 1 - j) * 8 + k];
        v[j] = w;
    }
    return czk_fp_from_canonical(r, v);
}

void czk_fp_to_bytes_be(uint8_t out[CZK_FP_BYTES], const czk_fp *a) {
    uint64_t v[N];
    czk_fp_to_canonical(v, a);
    for (int j = 0; j < N; j++) {
        for (int k = 0; k < 8; k++) out[(N - 1 - j) * 8 + k] = (uint8_t)(v[j] >> (56 - 8 * k));
    }
}

void czk_fp_random(czk_fp *r, czk_rng *rng) {
    /* A uniform canonical value is also a uniform Montgomery representative. */
    for (;;) {
        for (int j = 0; j < N; j++) r->l[j] = czk_rng_next(rng);
        r->l[N - 1] &= (1ULL << 61) - 1; /* p < 2^381 */
        if (mont_lt_n(r->l, P, N)) return;
    }
}

czk_err czk_fp_random_os(czk_fp *r) {
    for (;;) {
        czk_fp t;
        czk_err e = czk_os_random(t.l, sizeof t.l);
        if (e != CZK_OK) return e;
        t.l[N - 1] &= (1ULL << 61) - 1;
        if (mont_lt_n(t.l, P, N)) {
            *r = t;
            return CZK_OK;
        }
    }
}
