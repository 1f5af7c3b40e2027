/* czk — safegcd modular inversion (see modinv.h).
 *
 * State: f, g (f starts at the modulus, g at x), d, e with d·x ≡ f and
 * e·x ≡ g (mod m) up to a common power of two that the updates divide out.
 * Each round runs 62 divsteps on the low 64 bits of f and g only, producing a
 * 2x2 matrix scaled by 2^62, then applies it to the full-width f, g (exactly
 * divisible by 2^62) and to d, e (made divisible by adding a multiple of m).
 * When g reaches 0, f = ±1 and x^-1 = ±d. Bounds kept: |f|, |g| <= m and
 * d, e in (-2m, m), so 7 signed 62-bit limbs suffice for 381-bit moduli. */
#include "modinv.h"

#include <string.h>

#define M62 ((uint64_t)-1 >> 2)

typedef __int128 i128;

void modinv_modulus_init(modinv_modulus *mod, const uint64_t *m, int words) {
    mod->words = words;
    mod->len = (64 * words + 2 + 61) / 62 + 1;
    if (mod->len > MODINV_MAX_LIMBS) mod->len = MODINV_MAX_LIMBS;
    memset(mod->m, 0, sizeof mod->m);
    for (int i = 0; i < mod->len; i++) {
        int bit = 62 * i, w = bit / 64, s = bit % 64;
        uint64_t v = w < words ? m[w] >> s : 0;
        if (s > 2 && w + 1 < words) v |= m[w + 1] << (64 - s);
        mod->m[i] = (int64_t)(v & M62);
    }
    /* Newton iteration for m^-1 mod 2^64: each step doubles the correct bits. */
    uint64_t inv = m[0]; /* correct to 3 bits for odd m */
    for (int i = 0; i < 5; i++) inv *= 2 - m[0] * inv;
    mod->m_inv62 = inv & M62;
}

static void to_signed62(int64_t *out, const uint64_t *x, const modinv_modulus *mod) {
    for (int i = 0; i < mod->len; i++) {
        int bit = 62 * i, w = bit / 64, s = bit % 64;
        uint64_t v = w < mod->words ? x[w] >> s : 0;
        if (s > 2 && w + 1 < mod->words) v |= x[w + 1] << (64 - s);
        out[i] = (int64_t)(v & M62);
    }
}

/* x in [0, m) in signed-62 form (non-negative limbs) to 64-bit words. */
static void from_signed62(uint64_t *out, const int64_t *x, const modinv_modulus *mod) {
    memset(out, 0, sizeof(uint64_t) * (size_t)mod->words);
    for (int i = 0; i < mod->len; i++) {
        int bit = 62 * i, w = bit / 64, s = bit % 64;
        uint64_t v = (uint64_t)x[i];
        if (w < mod->words) out[w] |= v << s;
        if (s > 2 && w + 1 < mod->words) out[w + 1] |= v >> (64 - s);
    }
}

typedef struct {
    int64_t u, v, q, r;
} matrix;

/* -f^-1 mod 16 for odd f, indexed by (f mod 16) / 2. */
static const uint8_t NEG_INV16[8] = {15, 5, 3, 9, 7, 13, 11, 1};

/* 62 divsteps on the low bits of f and g; returns the new eta (eta = -delta)
 * and the transition matrix scaled by 2^62. */
static int64_t divsteps_62_var(int64_t eta, uint64_t f, uint64_t g, matrix *t) {
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int i = 62;
    for (;;) {
        /* Skip zero bits of g: each one is a divstep g /= 2, delta += 1. The
         * sentinel bit keeps ctz below i. */
        int zeros = __builtin_ctzll(g | ((uint64_t)-1 << i));
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros;
        i -= zeros;
        if (i == 0) break;
        /* g is odd. If delta > 0 swap (f, g) -> (g, -f). */
        if (eta < 0) {
            uint64_t tmp;
            eta = -eta;
            tmp = f; f = g; g = -tmp;
            tmp = u; u = q; q = -tmp;
            tmp = v; v = r; r = -tmp;
        }
        /* Cancel up to 4 low bits of g with a multiple of f (f odd). */
        int limit = ((int)eta + 1) > i ? i : ((int)eta + 1);
        if (limit > 4) limit = 4;
        uint64_t mask = ((uint64_t)-1 >> (64 - limit));
        uint64_t w = (g * NEG_INV16[(f & 15) >> 1]) & mask;
        g += f * w;
        q += u * w;
        r += v * w;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return eta;
}

/* (f, g) = t·(f, g) / 2^62, exactly. */
static void update_fg(int64_t *f, int64_t *g, const matrix *t, int len) {
    i128 cf = (i128)t->u * f[0] + (i128)t->v * g[0];
    i128 cg = (i128)t->q * f[0] + (i128)t->r * g[0];
    cf >>= 62;
    cg >>= 62;
    for (int i = 1; i < len; i++) {
        cf += (i128)t->u * f[i] + (i128)t->v * g[i];
        cg += (i128)t->q * f[i] + (i128)t->r * g[i];
        f[i - 1] = (int64_t)((uint64_t)cf & M62);
        g[i - 1] = (int64_t)((uint64_t)cg & M62);
        cf >>= 62;
        cg >>= 62;
    }
    f[len - 1] = (int64_t)cf;
    g[len - 1] = (int64_t)cg;
}

/* (d, e) = t·(d, e) / 2^62 mod m, keeping both in (-2m, m). */
static void update_de(int64_t *d, int64_t *e, const matrix *t, const modinv_modulus *mod) {
    const int len = mod->len;
    const int64_t *m = mod->m;
    int64_t sd = d[len - 1] >> 63, se = e[len - 1] >> 63;
    int64_t md = (t->u & sd) + (t->v & se);
    int64_t me = (t->q & sd) + (t->r & se);
    i128 cd = (i128)t->u * d[0] + (i128)t->v * e[0];
    i128 ce = (i128)t->q * d[0] + (i128)t->r * e[0];
    md -= (int64_t)((mod->m_inv62 * (uint64_t)cd + (uint64_t)md) & M62);
    me -= (int64_t)((mod->m_inv62 * (uint64_t)ce + (uint64_t)me) & M62);
    cd += (i128)m[0] * md;
    ce += (i128)m[0] * me;
    cd >>= 62;
    ce >>= 62;
    for (int i = 1; i < len; i++) {
        cd += (i128)t->u * d[i] + (i128)t->v * e[i] + (i128)m[i] * md;
        ce += (i128)t->q * d[i] + (i128)t->r * e[i] + (i128)m[i] * me;
        d[i - 1] = (int64_t)((uint64_t)cd & M62);
        e[i - 1] = (int64_t)((uint64_t)ce & M62);
        cd >>= 62;
        ce >>= 62;
    }
    d[len - 1] = (int64_t)cd;
    e[len - 1] = (int64_t)ce;
}

static int is_zero(const int64_t *g, int len) {
    int64_t acc = 0;
    for (int i = 0; i < len; i++) acc |= g[i];
    return acc == 0;
}

/* Brings v in (-2m, m), times sign (±1), into [0, m): add m if negative,
 * negate if sign < 0, add m if negative. Each pass propagates carries so
 * that the low limbs are in [0, 2^62) and the top limb carries the sign. */
static void normalize(int64_t *v, int64_t sign, const modinv_modulus *mod) {
    const int len = mod->len;
    for (int pass = 0; pass < 3; pass++) {
        int64_t add_m = pass == 1 ? 0 : v[len - 1] >> 63;
        int64_t negate = pass == 1 ? sign >> 63 : 0;
        i128 c = 0;
        for (int i = 0; i < len; i++) {
            int64_t x = ((v[i] ^ negate) - negate) + (mod->m[i] & add_m);
            c += x;
            v[i] = (int64_t)((uint64_t)c & M62);
            c >>= 62;
        }
        v[len - 1] += (int64_t)((uint64_t)c << 62);
    }
}

void modinv_var(uint64_t *out, const uint64_t *x, const modinv_modulus *mod) {
    const int len = mod->len;
    int64_t f[MODINV_MAX_LIMBS], g[MODINV_MAX_LIMBS], d[MODINV_MAX_LIMBS] = {0},
        e[MODINV_MAX_LIMBS] = {0};
    memcpy(f, mod->m, sizeof f);
    to_signed62(g, x, mod);
    e[0] = 1;
    int64_t eta = -1;
    while (!is_zero(g, len)) {
        matrix t;
        eta = divsteps_62_var(eta, (uint64_t)f[0], (uint64_t)g[0], &t);
        update_fg(f, g, &t, len);
        update_de(d, e, &t, mod);
    }
    /* f = ±1 (gcd is 1 for x != 0); x = 0 leaves f = m and d = 0. */
    normalize(d, f[len - 1] >> 63 ? -1 : 1, mod);
    from_signed62(out, d, mod);
}
