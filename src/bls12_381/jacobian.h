/* czk — internal: Jacobian arithmetic on y^2 = x^3 + b (a = 0), shared by G1
 * (over Fp) and G2 (over Fp2). Not a public header.
 *
 * The including file defines, before including it:
 *   FE, AFF, JAC                 the field element, affine and Jacobian types
 *   fe_add fe_sub fe_dbl fe_neg fe_mul fe_sqr fe_inv fe_is_zero fe_equal
 *   fe_set_zero fe_set_one       field operations with the fp.h signatures
 *   CURVE_B                      an expression of type const FE *, the curve's b
 * and gets static functions jac_* / aff_* / wnaf_* used by its exported
 * wrappers. Points: affine infinity is x = y = 0, Jacobian infinity is Z = 0.
 * Costs: M and S are multiplications and squarings in FE. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void jac_set_inf(JAC *r) {
    fe_set_one(&r->x);
    fe_set_one(&r->y);
    fe_set_zero(&r->z);
}

static inline bool jac_is_inf(const JAC *a) { return fe_is_zero(&a->z); }

static inline void aff_set_inf(AFF *r) {
    fe_set_zero(&r->x);
    fe_set_zero(&r->y);
}

static inline bool aff_is_inf(const AFF *a) { return fe_is_zero(&a->x) && fe_is_zero(&a->y); }

static inline void jac_from_aff(JAC *r, const AFF *a) {
    if (aff_is_inf(a)) {
        jac_set_inf(r);
        return;
    }
    r->x = a->x;
    r->y = a->y;
    fe_set_one(&r->z);
}

/* 1 inversion + 3M + 1S. */
static inline void jac_to_aff(AFF *r, const JAC *a) {
    if (jac_is_inf(a)) {
        aff_set_inf(r);
        return;
    }
    FE zi, zi2;
    fe_inv(&zi, &a->z);
    fe_sqr(&zi2, &zi);
    fe_mul(&r->x, &a->x, &zi2);
    fe_mul(&zi2, &zi2, &zi);
    fe_mul(&r->y, &a->y, &zi2);
}

/* Montgomery's trick: 1 inversion + 6M + 1S per point. out[i].x holds the
 * prefix products on the way up; out must not overlap in. */
static inline void jac_batch_to_aff(AFF *out, const JAC *in, size_t n) {
    FE acc, t, zi, zi2;
    fe_set_one(&acc);
    for (size_t i = 0; i < n; i++) {
        out[i].x = acc;
        if (!jac_is_inf(&in[i])) fe_mul(&acc, &acc, &in[i].z);
    }
    fe_inv(&acc, &acc); /* acc = 1 / (product of the non-zero Z) */
    for (size_t i = n; i-- > 0;) {
        if (jac_is_inf(&in[i])) {
            aff_set_inf(&out[i]);
            continue;
        }
        fe_mul(&zi, &acc, &out[i].x);   /* 1 / Z_i */
        fe_mul(&acc, &acc, &in[i].z);   /* drop Z_i from the running inverse */
        fe_sqr(&zi2, &zi);
        fe_mul(&t, &zi2, &zi);
        fe_mul(&out[i].x, &in[i].x, &zi2);
        fe_mul(&out[i].y, &in[i].y, &t);
    }
}

/* 3M + 2S (4M + 3S in the worst case). */
static inline bool jac_equal(const JAC *a, const JAC *b) {
    bool ia = jac_is_inf(a), ib = jac_is_inf(b);
    if (ia || ib) return ia && ib;
    FE z1z1, z2z2, u1, u2, s1, s2;
    fe_sqr(&z1z1, &a->z);
    fe_sqr(&z2z2, &b->z);
    fe_mul(&u1, &a->x, &z2z2);
    fe_mul(&u2, &b->x, &z1z1);
    if (!fe_equal(&u1, &u2)) return false;
    fe_mul(&s1, &a->y, &z2z2);
    fe_mul(&s1, &s1, &b->z);
    fe_mul(&s2, &b->y, &z1z1);
    fe_mul(&s2, &s2, &a->z);
    return fe_equal(&s1, &s2);
}

/* a == (bx, by) for a finite affine point given by coordinates. 3M + 1S. */
static inline bool jac_equal_xy(const JAC *a, const FE *bx, const FE *by) {
    if (jac_is_inf(a)) return false;
    FE zz, t;
    fe_sqr(&zz, &a->z);
    fe_mul(&t, bx, &zz);
    if (!fe_equal(&t, &a->x)) return false;
    fe_mul(&zz, &zz, &a->z);
    fe_mul(&t, by, &zz);
    return fe_equal(&t, &a->y);
}

/* y^2 == x^3 + b, without treating (0, 0) as infinity. 1M + 2S. */
static inline bool xy_on_curve(const FE *x, const FE *y) {
    FE l, r;
    fe_sqr(&l, y);
    fe_sqr(&r, x);
    fe_mul(&r, &r, x);
    fe_add(&r, &r, CURVE_B);
    return fe_equal(&l, &r);
}

static inline bool aff_on_curve(const AFF *a) { return aff_is_inf(a) || xy_on_curve(&a->x, &a->y); }

/* Y^2 == X^3 + b Z^6. 3M + 4S. */
static inline bool jac_on_curve(const JAC *a) {
    if (jac_is_inf(a)) return true;
    FE l, r, z6;
    fe_sqr(&z6, &a->z);
    fe_mul(&r, &z6, &a->z);
    fe_sqr(&z6, &r);
    fe_mul(&z6, &z6, CURVE_B);
    fe_sqr(&r, &a->x);
    fe_mul(&r, &r, &a->x);
    fe_add(&r, &r, &z6);
    fe_sqr(&l, &a->y);
    return fe_equal(&l, &r);
}

static inline void jac_neg(JAC *r, const JAC *a) {
    r->x = a->x;
    fe_neg(&r->y, &a->y);
    r->z = a->z;
}

static inline void aff_neg(AFF *r, const AFF *a) {
    r->x = a->x;
    fe_neg(&r->y, &a->y);
}

/* dbl-2009-l: 2M + 5S. Infinity (Z = 0) and 2-torsion (Y = 0) give Z3 = 0. */
static inline void jac_dbl(JAC *r, const JAC *p) {
    FE a, b, c, d, e, f;
    fe_sqr(&a, &p->x);
    fe_sqr(&b, &p->y);
    fe_sqr(&c, &b);
    fe_add(&d, &p->x, &b);
    fe_sqr(&d, &d);
    fe_sub(&d, &d, &a);
    fe_sub(&d, &d, &c);
    fe_dbl(&d, &d);
    fe_dbl(&e, &a);
    fe_add(&e, &e, &a);
    fe_sqr(&f, &e);
    fe_mul(&r->z, &p->y, &p->z);   /* reads p->y, p->z before they are written */
    fe_dbl(&r->z, &r->z);
    fe_sub(&r->x, &f, &d);
    fe_sub(&r->x, &r->x, &d);
    fe_sub(&d, &d, &r->x);
    fe_mul(&d, &d, &e);
    fe_dbl(&c, &c);
    fe_dbl(&c, &c);
    fe_dbl(&c, &c);
    fe_sub(&r->y, &d, &c);
}

/* add-2007-bl: 11M + 5S; falls back to doubling when P == Q. */
static inline void jac_add(JAC *r, const JAC *p, const JAC *q) {
    if (jac_is_inf(p)) {
        *r = *q;
        return;
    }
    if (jac_is_inf(q)) {
        *r = *p;
        return;
    }
    FE z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v;
    fe_sqr(&z1z1, &p->z);
    fe_sqr(&z2z2, &q->z);
    fe_mul(&u1, &p->x, &z2z2);
    fe_mul(&u2, &q->x, &z1z1);
    fe_mul(&s1, &p->y, &q->z);
    fe_mul(&s1, &s1, &z2z2);
    fe_mul(&s2, &q->y, &p->z);
    fe_mul(&s2, &s2, &z1z1);
    fe_sub(&h, &u2, &u1);
    fe_sub(&rr, &s2, &s1);
    if (fe_is_zero(&h)) {
        if (fe_is_zero(&rr)) jac_dbl(r, p);
        else jac_set_inf(r);
        return;
    }
    fe_dbl(&rr, &rr);
    fe_dbl(&i, &h);
    fe_sqr(&i, &i);
    fe_mul(&j, &h, &i);
    fe_mul(&v, &u1, &i);
    /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H, before r->z may overwrite p->z */
    fe_add(&u2, &p->z, &q->z);
    fe_sqr(&u2, &u2);
    fe_sub(&u2, &u2, &z1z1);
    fe_sub(&u2, &u2, &z2z2);
    fe_mul(&r->z, &u2, &h);
    fe_sqr(&r->x, &rr);
    fe_sub(&r->x, &r->x, &j);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&v, &v, &r->x);
    fe_mul(&v, &v, &rr);
    fe_mul(&s1, &s1, &j);
    fe_dbl(&s1, &s1);
    fe_sub(&r->y, &v, &s1);
}

/* madd-2007-bl: 7M + 4S; falls back to doubling when P == Q. */
static inline void jac_add_aff(JAC *r, const JAC *p, const AFF *q) {
    if (aff_is_inf(q)) {
        *r = *p;
        return;
    }
    if (jac_is_inf(p)) {
        jac_from_aff(r, q);
        return;
    }
    FE z1z1, u2, s2, h, hh, i, j, rr, v;
    fe_sqr(&z1z1, &p->z);
    fe_mul(&u2, &q->x, &z1z1);
    fe_mul(&s2, &q->y, &p->z);
    fe_mul(&s2, &s2, &z1z1);
    fe_sub(&h, &u2, &p->x);
    fe_sub(&rr, &s2, &p->y);
    if (fe_is_zero(&h)) {
        if (fe_is_zero(&rr)) jac_dbl(r, p);
        else jac_set_inf(r);
        return;
    }
    fe_dbl(&rr, &rr);
    fe_sqr(&hh, &h);
    fe_dbl(&i, &hh);
    fe_dbl(&i, &i);
    fe_mul(&j, &h, &i);
    fe_mul(&v, &p->x, &i);
    fe_mul(&s2, &p->y, &j);   /* Y1·J, before r->y may overwrite p->y */
    fe_dbl(&s2, &s2);
    fe_add(&u2, &p->z, &h);
    fe_sqr(&u2, &u2);
    fe_sub(&u2, &u2, &z1z1);
    fe_sub(&r->z, &u2, &hh);
    fe_sqr(&r->x, &rr);
    fe_sub(&r->x, &r->x, &j);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&r->x, &r->x, &v);
    fe_sub(&v, &v, &r->x);
    fe_mul(&v, &v, &rr);
    fe_sub(&r->y, &v, &s2);
}

/* ---- scalar multiplication ------------------------------------------------ */

/* The window: digits are odd, |d| < 2^(W-1); tables hold the 2^(W-2) odd
 * multiples P, 3P, ..., (2^(W-1) - 1)P. */
#define WNAF_W 5
#define WNAF_TABLE (1 << (WNAF_W - 2))
/* Longest scalar (in limbs) taken by the wNAF path; longer ones are rare and
 * go through plain double-and-add. */
#define WNAF_MAX_LIMBS 8

static inline unsigned wnaf_bits(const uint64_t *k, int nbits, int pos, int count) {
    unsigned v = 0;
    for (int b = 0; b < count; b++) {
        int i = pos + b;
        if (i < nbits && (k[i >> 6] >> (i & 63) & 1)) v |= 1u << b;
    }
    return v;
}

/* Width-W NAF of the nbits-bit integer k into d[0 .. nbits + W - 1] (the top
 * W positions absorb the final carry). Returns 1 + the index of the highest
 * non-zero digit (0 for k = 0). */
static inline int wnaf_recode(int8_t *d, const uint64_t *k, int nbits) {
    int len = nbits + WNAF_W, top = 0, carry = 0;
    memset(d, 0, (size_t)len);
    for (int bit = 0; bit < len;) {
        if ((int)wnaf_bits(k, nbits, bit, 1) == carry) {
            bit++;
            continue;
        }
        int word = (int)wnaf_bits(k, nbits, bit, WNAF_W) + carry;
        carry = (word >> (WNAF_W - 1)) & 1;
        word -= carry << WNAF_W;
        d[bit] = (int8_t)word;
        top = bit + 1;
        bit += WNAF_W;
    }
    return top;
}

/* tab[i] = (2i + 1)·p for i < WNAF_TABLE: 1 doubling + (WNAF_TABLE - 1)
 * additions, then one batch inversion to affine (entries may be infinity for
 * points of small order outside the subgroup). */
static inline void aff_odd_multiples(AFF tab[WNAF_TABLE], const JAC *p) {
    JAC t[WNAF_TABLE], d;
    jac_dbl(&d, p);
    t[0] = *p;
    for (int i = 1; i < WNAF_TABLE; i++) jac_add(&t[i], &t[i - 1], &d);
    jac_batch_to_aff(tab, t, WNAF_TABLE);
}

static inline void aff_add_digit(JAC *acc, const AFF *tab, int d) {
    if (d > 0) {
        jac_add_aff(acc, acc, &tab[(d - 1) >> 1]);
    } else {
        AFF t;
        aff_neg(&t, &tab[(-d - 1) >> 1]);
        jac_add_aff(acc, acc, &t);
    }
}

/* r = sum_j (digits of d[j]) · tabs[j], interleaved: one doubling per digit
 * position above the lowest, one mixed addition per non-zero digit. */
static inline void aff_multi_wnaf(JAC *r, int m, const AFF *const *tabs, const int8_t *const *d, int len) {
    JAC acc;
    jac_set_inf(&acc);
    bool started = false;
    for (int i = len - 1; i >= 0; i--) {
        if (started) jac_dbl(&acc, &acc);
        for (int j = 0; j < m; j++) {
            int dj = d[j][i];
            if (dj) {
                aff_add_digit(&acc, tabs[j], dj);
                started = true;
            }
        }
    }
    *r = acc;
}

/* r = k·p for any point of the curve (not only the subgroup) and any
 * non-negative integer k of n limbs. wNAF with an affine table: for 255 bits,
 * 255 doublings + ~43 mixed additions + the table (1 inversion). */
static inline void jac_mul_generic(JAC *r, const JAC *p, const uint64_t *k, int n) {
    while (n > 0 && k[n - 1] == 0) n--;
    if (n <= 0 || jac_is_inf(p)) {
        jac_set_inf(r);
        return;
    }
    if (n > WNAF_MAX_LIMBS) {
        JAC acc, base = *p;
        jac_set_inf(&acc);
        for (int i = 64 * n - 1; i >= 0; i--) {
            jac_dbl(&acc, &acc);
            if (k[i >> 6] >> (i & 63) & 1) jac_add(&acc, &acc, &base);
        }
        *r = acc;
        return;
    }
    AFF tab[WNAF_TABLE];
    int8_t d[64 * WNAF_MAX_LIMBS + WNAF_W];
    aff_odd_multiples(tab, p);
    int len = wnaf_recode(d, k, 64 * n);
    const AFF *tabs[1] = {tab};
    const int8_t *ds[1] = {d};
    aff_multi_wnaf(r, 1, tabs, ds, len);
}

/* r = |k|·a by double-and-add over the bits of a 64-bit k (the curve
 * parameter |x| has 6 set bits: 63 doublings + 5 additions). */
static inline void jac_mul_u64_aff(JAC *r, const AFF *a, uint64_t k) {
    JAC acc;
    jac_from_aff(&acc, a);
    for (int i = 62 - __builtin_clzll(k); i >= 0; i--) {
        jac_dbl(&acc, &acc);
        if (k >> i & 1) jac_add_aff(&acc, &acc, a);
    }
    *r = acc;
}

static inline void jac_mul_u64(JAC *r, const JAC *a, uint64_t k) {
    JAC acc = *a, base = *a;
    for (int i = 62 - __builtin_clzll(k); i >= 0; i--) {
        jac_dbl(&acc, &acc);
        if (k >> i & 1) jac_add(&acc, &acc, &base);
    }
    *r = acc;
}

/* (q, rem) = k / d for a 4-limb k and a 64-bit d; q may alias k. */
static inline uint64_t divrem_u64(uint64_t q[4], const uint64_t k[4], uint64_t d) {
    unsigned __int128 rem = 0;
    for (int i = 3; i >= 0; i--) {
        unsigned __int128 cur = rem << 64 | k[i];
        q[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint64_t)rem;
}
