/* czk — internal: XYZZ coordinates on y^2 = x^3 + b (a = 0), the bucket
 * representation of the MSM. Not a public header; shared by G1 (over Fp)
 * and G2 (over Fp2).
 *
 * The including file defines FE, AFF, JAC and the field operations fe_add
 * fe_sub fe_dbl fe_neg fe_mul fe_sqr fe_is_zero fe_set_zero fe_set_one (fp.h
 * signatures). A point (X, Y, ZZ, ZZZ) with ZZ^3 = ZZZ^2 is (X/ZZ, Y/ZZZ);
 * ZZ = 0 is infinity. Formulas from the Explicit-Formulas Database
 * (Bernstein–Lange, "xyzz" shape, Sutherland 2008). Costs in M/S of FE. */
#include <stdbool.h>

typedef struct {
    FE x, y, zz, zzz;
} xyzz;

static inline void xyzz_set_inf(xyzz *p) {
    fe_set_one(&p->x);
    fe_set_one(&p->y);
    fe_set_zero(&p->zz);
    fe_set_zero(&p->zzz);
}

static inline bool xyzz_is_inf(const xyzz *p) { return fe_is_zero(&p->zz); }

static inline bool aff_xy_is_inf(const AFF *a) { return fe_is_zero(&a->x) && fe_is_zero(&a->y); }

/* p = 2·(x, y) for a finite affine point with y != 0 (mdbl-2008-s-1): 2M + 3S. */
static inline void xyzz_dbl_aff(xyzz *p, const FE *x, const FE *y) {
    FE u, v, w, s, m;
    fe_dbl(&u, y);
    fe_sqr(&v, &u);
    fe_mul(&w, &u, &v);
    fe_mul(&s, x, &v);
    fe_sqr(&m, x);
    fe_dbl(&u, &m);
    fe_add(&m, &m, &u);
    fe_sqr(&p->x, &m);
    fe_sub(&p->x, &p->x, &s);
    fe_sub(&p->x, &p->x, &s);
    fe_sub(&s, &s, &p->x);
    fe_mul(&s, &s, &m);
    fe_mul(&u, &w, y);
    fe_sub(&p->y, &s, &u);
    p->zz = v;
    p->zzz = w;
}

/* p = 2p (dbl-2008-s-1): 6M + 3S (infinity and Y = 0 give ZZ = 0). */
static inline void xyzz_dbl(xyzz *p) {
    FE u, v, w, s, m;
    fe_dbl(&u, &p->y);
    fe_sqr(&v, &u);
    fe_mul(&w, &u, &v);
    fe_mul(&s, &p->x, &v);
    fe_sqr(&m, &p->x);
    fe_dbl(&u, &m);
    fe_add(&m, &m, &u);
    fe_mul(&u, &w, &p->y);
    fe_sqr(&p->x, &m);
    fe_sub(&p->x, &p->x, &s);
    fe_sub(&p->x, &p->x, &s);
    fe_sub(&s, &s, &p->x);
    fe_mul(&s, &s, &m);
    fe_sub(&p->y, &s, &u);
    fe_mul(&p->zz, &p->zz, &v);
    fe_mul(&p->zzz, &p->zzz, &w);
}

/* p += (x, ±y) for an affine point given by coordinates, finite
 * (madd-2008-s): 8M + 2S; doubling and P = -Q handled. y_neg: add (x, -y). */
static inline void xyzz_add_xy(xyzz *p, const FE *x, const FE *y, bool y_neg) {
    if (xyzz_is_inf(p)) {
        p->x = *x;
        if (y_neg) fe_neg(&p->y, y);
        else p->y = *y;
        fe_set_one(&p->zz);
        fe_set_one(&p->zzz);
        return;
    }
    FE u2, s2, pd, rd, pp, ppp, q;
    fe_mul(&u2, x, &p->zz);
    fe_mul(&s2, y, &p->zzz);
    if (y_neg) fe_neg(&s2, &s2);
    fe_sub(&pd, &u2, &p->x);
    fe_sub(&rd, &s2, &p->y);
    if (fe_is_zero(&pd)) {
        if (!fe_is_zero(&rd)) {
            xyzz_set_inf(p);
        } else {
            FE ny;
            if (y_neg) fe_neg(&ny, y);
            else ny = *y;
            xyzz_dbl_aff(p, x, &ny);
        }
        return;
    }
    fe_sqr(&pp, &pd);
    fe_mul(&ppp, &pd, &pp);
    fe_mul(&q, &p->x, &pp);
    fe_mul(&p->zz, &p->zz, &pp);
    fe_mul(&p->zzz, &p->zzz, &ppp);
    fe_sqr(&p->x, &rd);
    fe_sub(&p->x, &p->x, &ppp);
    fe_sub(&p->x, &p->x, &q);
    fe_sub(&p->x, &p->x, &q);
    fe_sub(&q, &q, &p->x);
    fe_mul(&q, &q, &rd);
    fe_mul(&ppp, &ppp, &p->y);
    fe_sub(&p->y, &q, &ppp);
}

/* p += q, both XYZZ (add-2008-s): 12M + 2S; infinity, P = Q and P = -Q
 * handled. q may alias p. */
static inline void xyzz_add(xyzz *p, const xyzz *q) {
    if (xyzz_is_inf(q)) return;
    if (xyzz_is_inf(p)) {
        *p = *q;
        return;
    }
    FE u1, u2, s1, s2, pd, rd, pp, ppp, t;
    fe_mul(&u1, &p->x, &q->zz);
    fe_mul(&u2, &q->x, &p->zz);
    fe_mul(&s1, &p->y, &q->zzz);
    fe_mul(&s2, &q->y, &p->zzz);
    fe_sub(&pd, &u2, &u1);
    fe_sub(&rd, &s2, &s1);
    if (fe_is_zero(&pd)) {
        if (fe_is_zero(&rd)) xyzz_dbl(p);
        else xyzz_set_inf(p);
        return;
    }
    fe_sqr(&pp, &pd);
    fe_mul(&ppp, &pd, &pp);
    fe_mul(&u1, &u1, &pp); /* Q */
    fe_mul(&p->zz, &p->zz, &q->zz);
    fe_mul(&p->zz, &p->zz, &pp);
    fe_mul(&p->zzz, &p->zzz, &q->zzz);
    fe_mul(&p->zzz, &p->zzz, &ppp);
    fe_sqr(&p->x, &rd);
    fe_sub(&p->x, &p->x, &ppp);
    fe_sub(&p->x, &p->x, &u1);
    fe_sub(&p->x, &p->x, &u1);
    fe_sub(&t, &u1, &p->x);
    fe_mul(&t, &t, &rd);
    fe_mul(&s1, &s1, &ppp);
    fe_sub(&p->y, &t, &s1);
}

/* Jacobian (X·ZZ^2, Y·ZZZ^2, ZZZ): 2M + 2S. */
static inline void xyzz_to_jac(JAC *r, const xyzz *p) {
    if (xyzz_is_inf(p)) {
        fe_set_one(&r->x);
        fe_set_one(&r->y);
        fe_set_zero(&r->z);
        return;
    }
    FE t;
    fe_sqr(&t, &p->zz);
    fe_mul(&r->x, &p->x, &t);
    fe_sqr(&t, &p->zzz);
    fe_mul(&r->y, &p->y, &t);
    r->z = p->zzz;
}
