/* czk — Fr arithmetic (see include/czk/fr.h). */
#include "czk/fr.h"

#include <string.h>

#include "fp_adx.h"
#include "modinv.h"
#include "mont.h"
#include "pow_window.h"

#define N CZK_FR_LIMBS

const czk_fr CZK_FR_MODULUS = {{0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                0x73eda753299d7d48ULL}};
const czk_fr CZK_FR_ONE = {{0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                            0x1824b159acc5056fULL}};
const czk_fr CZK_FR_R2 = {{0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                           0x0748d9d99f59ff11ULL}};
/* -r^-1 mod 2^64 */
#define FR_MINV 0xfffffffeffffffffULL

/* ω_32: a primitive 2^32-th root of unity, 7^((r-1)/2^32), canonical. */
static const uint64_t FR_OMEGA32[N] = {0x3829971f439f0d2bULL, 0xb63683508c2280b9ULL,
                                       0xd09b681922c813b4ULL, 0x16a2a19edfe81f20ULL};

static const uint64_t *const R = CZK_FR_MODULUS.l;

void czk_fr_mul(czk_fr *r, const czk_fr *a, const czk_fr *b) {
#if CZK_HAVE_ADX_ASM
    if (czk_mont_adx_active()) {
        czk_fr_mul_adx(r->l, a->l, b->l);
        return;
    }
#endif
    uint64_t t[N];
    mont_mul_n(t, a->l, b->l, R, FR_MINV, N);
    memcpy(r->l, t, sizeof t);
}
void czk_fr_sqr(czk_fr *r, const czk_fr *a) { czk_fr_mul(r, a, a); }
void czk_fr_add(czk_fr *r, const czk_fr *a, const czk_fr *b) { mont_add_n(r->l, a->l, b->l, R, N); }
void czk_fr_sub(czk_fr *r, const czk_fr *a, const czk_fr *b) { mont_sub_n(r->l, a->l, b->l, R, N); }
void czk_fr_dbl(czk_fr *r, const czk_fr *a) { mont_add_n(r->l, a->l, a->l, R, N); }
void czk_fr_neg(czk_fr *r, const czk_fr *a) { mont_neg_n(r->l, a->l, R, N); }

void czk_fr_from_u64(czk_fr *r, uint64_t v) {
    czk_fr t = {{v, 0, 0, 0}};
    czk_fr_mul(r, &t, &CZK_FR_R2);
}

bool czk_fr_is_zero(const czk_fr *a) { return mont_is_zero_n(a->l, N); }
bool czk_fr_is_one(const czk_fr *a) { return mont_eq_n(a->l, CZK_FR_ONE.l, N); }
bool czk_fr_equal(const czk_fr *a, const czk_fr *b) { return mont_eq_n(a->l, b->l, N); }

DEFINE_POW_WINDOW(fr_pow, czk_fr, czk_fr_set_one, czk_fr_mul, czk_fr_sqr)

void czk_fr_pow(czk_fr *r, const czk_fr *a, const uint64_t *e, int n) { fr_pow(r, a, e, n); }

/* 2^768 mod r, see czk_fp_inv. */
static const czk_fr FR_R3 = {{0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL, 0x73d13c71c7b5f418ULL,
                              0x6e2a5bb9c8db33e9ULL}};

void czk_fr_inv(czk_fr *r, const czk_fr *a) {
    modinv_modulus mod;
    modinv_modulus_init(&mod, R, N);
    czk_fr t;
    modinv_var(t.l, a->l, &mod);
    czk_fr_mul(r, &t, &FR_R3);
}

void czk_fr_inv_fermat(czk_fr *r, const czk_fr *a) {
    uint64_t e[N];
    memcpy(e, R, sizeof e);
    e[0] -= 2;
    czk_fr_pow(r, a, e, N);
}

int czk_fr_legendre(const czk_fr *a) {
    if (czk_fr_is_zero(a)) return 0;
    uint64_t e[N];
    for (int j = 0; j < N - 1; j++) e[j] = (R[j] >> 1) | (R[j + 1] << 63);
    e[N - 1] = R[N - 1] >> 1;
    czk_fr t;
    czk_fr_pow(&t, a, e, N);
    return czk_fr_is_one(&t) ? 1 : -1;
}

void czk_fr_root_of_unity(czk_fr *r, int k) {
    czk_fr w;
    czk_fr_from_canonical(&w, FR_OMEGA32);
    for (int i = k; i < CZK_FR_TWO_ADICITY; i++) czk_fr_sqr(&w, &w);
    *r = w;
}

/* Tonelli–Shanks with r - 1 = 2^32·t, t odd; z = ω_32 (a non-square's t-th
 * power: ω_32 = 7^t and 7 is a non-residue). */
bool czk_fr_sqrt(czk_fr *r, const czk_fr *a) {
    if (czk_fr_is_zero(a)) {
        czk_fr_set_zero(r);
        return true;
    }
    if (czk_fr_legendre(a) != 1) return false;
    /* t = (r - 1) >> 32; (t - 1)/2 */
    uint64_t t[N], e[N];
    for (int j = 0; j < N - 1; j++) t[j] = (R[j] >> 32) | (R[j + 1] << 32);
    t[N - 1] = R[N - 1] >> 32;
    for (int j = 0; j < N - 1; j++) e[j] = (t[j] >> 1) | (t[j + 1] << 63);
    e[N - 1] = t[N - 1] >> 1;
    czk_fr w, x, b, z;
    czk_fr_pow(&w, a, e, N);    /* a^((t-1)/2) */
    czk_fr_mul(&x, a, &w);      /* a^((t+1)/2) */
    czk_fr_mul(&b, &x, &w);     /* a^t */
    czk_fr_root_of_unity(&z, CZK_FR_TWO_ADICITY);
    int m = CZK_FR_TWO_ADICITY;
    while (!czk_fr_is_one(&b)) {
        int k = 0;
        czk_fr b2 = b;
        while (!czk_fr_is_one(&b2)) {
            czk_fr_sqr(&b2, &b2);
            k++;
        }
        czk_fr g = z;
        for (int i = 0; i < m - k - 1; i++) czk_fr_sqr(&g, &g);
        czk_fr_sqr(&z, &g);
        czk_fr_mul(&x, &x, &g);
        czk_fr_mul(&b, &b, &z);
        m = k;
    }
    *r = x;
    return true;
}

bool czk_fr_from_canonical(czk_fr *r, const uint64_t v[N]) {
    if (!mont_lt_n(v, R, N)) return false;
    czk_fr t;
    memcpy(t.l, v, sizeof t.l);
    czk_fr_mul(r, &t, &CZK_FR_R2);
    return true;
}

void czk_fr_to_canonical(uint64_t v[N], const czk_fr *a) {
    czk_fr one = {{1, 0, 0, 0}}, t;
    czk_fr_mul(&t, a, &one);
    memcpy(v, t.l, sizeof t.l);
}

bool czk_fr_from_bytes_le(czk_fr *r, const uint8_t in[CZK_FR_BYTES]) {
    uint64_t v[N];
    for (int j = 0; j < N; j++) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--) w = w << 8 | in[j * 8 + k];
        v[j] = w;
    }
    return czk_fr_from_canonical(r, v);
}

void czk_fr_to_bytes_le(uint8_t out[CZK_FR_BYTES], const czk_fr *a) {
    uint64_t v[N];
    czk_fr_to_canonical(v, a);
    for (int j = 0; j < N; j++) {
        for (int k = 0; k < 8; k++) out[j * 8 + k] = (uint8_t)(v[j] >> (8 * k));
    }
}

bool czk_fr_from_bytes_be(czk_fr *r, const uint8_t in[CZK_FR_BYTES]) {
    uint8_t le[CZK_FR_BYTES];
    for (int i = 0; i < CZK_FR_BYTES; i++) le[i] = in[CZK_FR_BYTES - 1 - i];
    return czk_fr_from_bytes_le(r, le);
}

void czk_fr_to_bytes_be(uint8_t out[CZK_FR_BYTES], const czk_fr *a) {
    uint8_t le[CZK_FR_BYTES];
    czk_fr_to_bytes_le(le, a);
    for (int i = 0; i < CZK_FR_BYTES; i++) out[i] = le[CZK_FR_BYTES - 1 - i];
}

void czk_fr_random(czk_fr *r, czk_rng *rng) {
    for (;;) {
        for (int j = 0; j < N; j++) r->l[j] = czk_rng_next(rng);
        r->l[N - 1] &= (1ULL << 63) - 1; /* r < 2^255 */
        if (mont_lt_n(r->l, R, N)) return;
    }
}

czk_err czk_fr_random_os(czk_fr *r) {
    for (;;) {
        czk_fr t;
        czk_err e = czk_os_random(t.l, sizeof t.l);
        if (e != CZK_OK) return e;
        t.l[N - 1] &= (1ULL << 63) - 1;
        if (mont_lt_n(t.l, R, N)) {
            *r = t;
            return CZK_OK;
        }
    }
}
