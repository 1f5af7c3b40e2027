/* czk — generic Montgomery arithmetic on N 64-bit limbs, shared by Fp and Fr.
 *
 * Internal header: each field file includes it after defining MONT_N and
 * MONT_PREFIX. Moduli must have a top limb below 2^63 - 1 so that the
 * "no-carry" CIOS variant applies (both p and r do; a test checks it): every
 * intermediate of the product loop then fits in N limbs plus the carries. */
#include <stdbool.h>
#include <stdint.h>

typedef unsigned __int128 u128;

/* r = a·b·2^(-64N) mod m, for a, b < m. N^2 multiplications + N^2 for the
 * reduction, no branches except the final subtraction. */
static inline void mont_mul_n(uint64_t *restrict r, const uint64_t *a, const uint64_t *b,
                              const uint64_t *m, uint64_t minv, int n) {
    uint64_t t[8] = {0};
    for (int i = 0; i < n; i++) {
        u128 acc = (u128)a[0] * b[i] + t[0];
        uint64_t A = (uint64_t)(acc >> 64);
        uint64_t lo = (uint64_t)acc;
        uint64_t q = lo * minv;
        u128 red = (u128)q * m[0] + lo;
        uint64_t C = (uint64_t)(red >> 64);
        for (int j = 1; j < n; j++) {
            acc = (u128)a[j] * b[i] + t[j] + A;
            A = (uint64_t)(acc >> 64);
            red = (u128)q * m[j] + (uint64_t)acc + C;
            C = (uint64_t)(red >> 64);
            t[j - 1] = (uint64_t)red;
        }
        t[n - 1] = C + A;
    }
    /* t < 2m: subtract m once if needed. */
    uint64_t s[8];
    uint64_t borrow = 0;
    for (int j = 0; j < n; j++) {
        u128 d = (u128)t[j] - m[j] - borrow;
        s[j] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    if (borrow) {
        for (int j = 0; j < n; j++) r[j] = t[j];
    } else {
        for (int j = 0; j < n; j++) r[j] = s[j];
    }
}

/* r = a + b mod m. */
static inline void mont_add_n(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                              int n) {
    uint64_t t[8], s[8];
    uint64_t carry = 0;
    for (int j = 0; j < n; j++) {
        u128 x = (u128)a[j] + b[j] + carry;
        t[j] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
    /* a + b < 2m < 2^(64n) because the top limb of m is < 2^63: carry is 0. */
    uint64_t borrow = 0;
    for (int j = 0; j < n; j++) {
        u128 d = (u128)t[j] - m[j] - borrow;
        s[j] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    const uint64_t *src = borrow ? t : s;
    for (int j = 0; j < n; j++) r[j] = src[j];
}

/* r = a - b mod m. */
static inline void mont_sub_n(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                              int n) {
    uint64_t t[8];
    uint64_t borrow = 0;
    for (int j = 0; j < n; j++) {
        u128 d = (u128)a[j] - b[j] - borrow;
        t[j] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t mask = 0 - borrow, carry = 0;
    for (int j = 0; j < n; j++) {
        u128 x = (u128)t[j] + (m[j] & mask) + carry;
        r[j] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
}

/* r = -a mod m (0 stays 0). */
static inline void mont_neg_n(uint64_t *r, const uint64_t *a, const uint64_t *m, int n) {
    uint64_t nz = 0;
    for (int j = 0; j < n; j++) nz |= a[j];
    uint64_t mask = 0 - (uint64_t)(nz != 0), borrow = 0;
    for (int j = 0; j < n; j++) {
        u128 d = (u128)m[j] - a[j] - borrow;
        r[j] = (uint64_t)d & mask;
        borrow = (uint64_t)(d >> 64) & 1;
    }
}

/* r = a/2 mod m (m odd). */
static inline void mont_half_n(uint64_t *r, const uint64_t *a, const uint64_t *m, int n) {
    uint64_t t[8];
    uint64_t mask = 0 - (a[0] & 1), carry = 0;
    for (int j = 0; j < n; j++) {
        u128 x = (u128)a[j] + (m[j] & mask) + carry;
        t[j] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
    for (int j = 0; j < n - 1; j++) r[j] = (t[j] >> 1) | (t[j + 1] << 63);
    r[n - 1] = (t[n - 1] >> 1) | (carry << 63);
}

/* a < m as integers. */
static inline bool mont_lt_n(const uint64_t *a, const uint64_t *m, int n) {
    for (int j = n - 1; j >= 0; j--) {
        if (a[j] != m[j]) return a[j] < m[j];
    }
    return false;
}

static inline bool mont_is_zero_n(const uint64_t *a, int n) {
    uint64_t acc = 0;
    for (int j = 0; j < n; j++) acc |= a[j];
    return acc == 0;
}

static inline bool mont_eq_n(const uint64_t *a, const uint64_t *b, int n) {
    uint64_t acc = 0;
    for (int j = 0; j < n; j++) acc |= a[j] ^ b[j];
    return acc == 0;
}
