/* czk — the optimal ate pairing (see include/czk/pairing.h).
 *
 * Lines. With the M-type twist ψ(x', y') = (x'/w^2, y'/w^3) from
 * E': y^2 = x^3 + b', b' = 4ξ, to E: y^2 = x^3 + 4, the line through ψ(T)
 * with slope λ'/w, evaluated at P = (xp, yp) and multiplied by w^3, is
 *   (λ'·x_T - y_T) + (-λ'·xp)·v + yp·v·w,
 * a sparse Fp12 element (mul_by_014). Factors in a proper subfield (w^3, Fp2
 * scalars, vertical lines) are sent to 1 by the final exponentiation and are
 * dropped. */
#include "czk/pairing.h"

/* |x| = 0xd201000000010000; x is negative. */
#define X_ABS 0xd201000000010000ULL
#define X_BITS 64

/* Homogeneous projective point on E': x' = X/Z, y' = Y/Z. */
typedef struct {
    czk_fp2 x, y, z;
} g2_proj;

static inline void fp2_half(czk_fp2 *r, const czk_fp2 *a) {
    czk_fp_half(&r->c0, &a->c0);
    czk_fp_half(&r->c1, &a->c1);
}

/* T = 2T and the tangent line at T (Costello–Lange–Naehrig / Aranha et al.,
 * a = 0): with B = Y^2, C = Z^2, E = 3b'·C, F = 3E, H = 2YZ,
 *   X3 = XY/2·(B - F),  Y3 = ((B + F)/2)^2 - 3E^2,  Z3 = B·H,
 *   line = (B - E) + (-3X^2·xp)·v + (H·yp)·v·w.
 * 3m + 6s. */
static void dbl_step(czk_pairing_line *l, g2_proj *t) {
    czk_fp2 a, b, c, e, f, g, h, j, s;
    czk_fp2_mul(&a, &t->x, &t->y);
    fp2_half(&a, &a);
    czk_fp2_sqr(&b, &t->y);
    czk_fp2_sqr(&c, &t->z);
    /* e = 3·4ξ·C = 12ξ·C */
    czk_fp2_mul_by_nonresidue(&e, &c);
    czk_fp2_dbl(&e, &e);
    czk_fp2_dbl(&e, &e);
    czk_fp2_dbl(&s, &e);
    czk_fp2_add(&e, &e, &s);
    czk_fp2_dbl(&f, &e);
    czk_fp2_add(&f, &f, &e);
    czk_fp2_add(&g, &b, &f);
    fp2_half(&g, &g);
    czk_fp2_add(&h, &t->y, &t->z);
    czk_fp2_sqr(&h, &h);
    czk_fp2_sub(&h, &h, &b);
    czk_fp2_sub(&h, &h, &c);
    czk_fp2_sqr(&j, &t->x);

    /* line */
    czk_fp2_sub(&l->c0, &b, &e);
    czk_fp2_dbl(&s, &j);
    czk_fp2_add(&s, &s, &j);
    czk_fp2_neg(&l->c1, &s);
    l->c2 = h;

    /* point */
    czk_fp2_sub(&s, &b, &f);
    czk_fp2_mul(&t->x, &a, &s);
    czk_fp2_sqr(&e, &e);
    czk_fp2_dbl(&s, &e);
    czk_fp2_add(&s, &s, &e);
    czk_fp2_sqr(&g, &g);
    czk_fp2_sub(&t->y, &g, &s);
    czk_fp2_mul(&t->z, &b, &h);
}

/* T = T + Q (Q affine, T ≠ ±Q) and the line through them: with
 * θ = Y - y2·Z, λ = X - x2·Z, D = λ^2, E = λ^3, G = X·D,
 * H = E + Z·θ^2 - 2G,
 *   X3 = λ·H,  Y3 = θ(G - H) - E·Y,  Z3 = Z·E,
 *   line = (θ·x2 - λ·y2) + (-θ·xp)·v + (λ·yp)·v·w.
 * 11m + 2s. */
static void add_step(czk_pairing_line *l, g2_proj *t, const czk_g2_affine *q) {
    czk_fp2 theta, lambda, c, d, e, f, g, h, s;
    czk_fp2_mul(&theta, &q->y, &t->z);
    czk_fp2_sub(&theta, &t->y, &theta);
    czk_fp2_mul(&lambda, &q->x, &t->z);
    czk_fp2_sub(&lambda, &t->x, &lambda);
    czk_fp2_sqr(&c, &theta);
    czk_fp2_sqr(&d, &lambda);
    czk_fp2_mul(&e, &lambda, &d);
    czk_fp2_mul(&f, &t->z, &c);
    czk_fp2_mul(&g, &t->x, &d);
    czk_fp2_add(&h, &e, &f);
    czk_fp2_sub(&h, &h, &g);
    czk_fp2_sub(&h, &h, &g);

    czk_fp2_mul(&t->x, &lambda, &h);
    czk_fp2_sub(&s, &g, &h);
    czk_fp2_mul(&s, &s, &theta);
    czk_fp2_mul(&t->y, &e, &t->y);
    czk_fp2_sub(&t->y, &s, &t->y);
    czk_fp2_mul(&t->z, &t->z, &e);

    czk_fp2_mul(&c, &theta, &q->x);
    czk_fp2_mul(&d, &lambda, &q->y);
    czk_fp2_sub(&l->c0, &c, &d);
    czk_fp2_neg(&l->c1, &theta);
    l->c2 = lambda;
}

/* f = f·line(P): 4M + 13m. */
static inline void ell(czk_fp12 *f, const czk_pairing_line *l, const czk_g1_affine *p) {
    czk_fp2 b1, b4;
    czk_fp2_mul_fp(&b1, &l->c1, &p->x);
    czk_fp2_mul_fp(&b4, &l->c2, &p->y);
    czk_fp12_mul_by_014(f, f, &l->c0, &b1, &b4);
}

/* f = line(P), for the first line multiplied into f = 1: 4M. */
static inline void ell_first(czk_fp12 *f, const czk_pairing_line *l, const czk_g1_affine *p) {
    czk_fp12_set_zero(f);
    f->c0.c0 = l->c0;
    czk_fp2_mul_fp(&f->c0.c1, &l->c1, &p->x);
    czk_fp2_mul_fp(&f->c1.c1, &l->c2, &p->y);
}

static inline bool bit_at(int i) { return (X_ABS >> i) & 1; }

/* Pairs are processed in groups of this many, each group with its own
 * squaring chain; the accumulators live on the stack. */
#define GROUP 16

/* n >= 1 pairs, none at infinity. */
static void miller_group(czk_fp12 *f, const czk_g1_affine *p, const czk_g2_affine *q, size_t n) {
    g2_proj t[GROUP];
    czk_pairing_line l;
    for (size_t j = 0; j < n; j++) {
        t[j].x = q[j].x;
        t[j].y = q[j].y;
        czk_fp2_set_one(&t[j].z);
    }
    for (int i = X_BITS - 2; i >= 0; i--) {
        if (i != X_BITS - 2) czk_fp12_sqr(f, f);
        for (size_t j = 0; j < n; j++) {
            dbl_step(&l, &t[j]);
            if (i == X_BITS - 2 && j == 0)
                ell_first(f, &l, &p[j]);
            else
                ell(f, &l, &p[j]);
        }
        if (bit_at(i)) {
            for (size_t j = 0; j < n; j++) {
                add_step(&l, &t[j], &q[j]);
                ell(f, &l, &p[j]);
            }
        }
    }
}

void czk_multi_miller_loop(czk_fp12 *r, const czk_g1_affine *p, const czk_g2_affine *q, size_t n) {
    czk_g1_affine gp[GROUP];
    czk_g2_affine gq[GROUP];
    czk_fp12 acc, f;
    size_t m = 0;
    bool any = false;
    czk_fp12_set_one(&acc);
    for (size_t i = 0; i <= n; i++) {
        if (i < n) {
            if (czk_g1_affine_is_infinity(&p[i]) || czk_g2_affine_is_infinity(&q[i])) continue;
            gp[m] = p[i];
            gq[m] = q[i];
            m++;
        }
        if (m == GROUP || (i == n && m > 0)) {
            miller_group(&f, gp, gq, m);
            if (any)
                czk_fp12_mul(&acc, &acc, &f);
            else
                acc = f;
            any = true;
            m = 0;
        }
    }
    /* x < 0: f_{x,Q} = 1/f_{|x|,Q} up to factors the final exponentiation
     * removes, and the inverse is the conjugate there. */
    czk_fp12_conjugate(r, &acc);
}

void czk_miller_loop(czk_fp12 *r, const czk_g1_affine *p, const czk_g2_affine *q) {
    czk_multi_miller_loop(r, p, q, 1);
}

void czk_g2_prepare(czk_g2_prepared *r, const czk_g2_affine *q) {
    if (czk_g2_affine_is_infinity(q)) {
        r->infinity = true;
        return;
    }
    r->infinity = false;
    g2_proj t = {q->x, q->y, {CZK_FP_ONE, {{0}}}};
    int k = 0;
    for (int i = X_BITS - 2; i >= 0; i--) {
        dbl_step(&r->lines[k++], &t);
        if (bit_at(i)) add_step(&r->lines[k++], &t, q);
    }
}

void czk_multi_miller_loop_prepared(czk_fp12 *r, const czk_g1_affine *p,
                                    const czk_g2_prepared *const *q, size_t n) {
    czk_fp12 f;
    czk_fp12_set_one(&f);
    int k = 0;
    for (int i = X_BITS - 2; i >= 0; i--) {
        if (i != X_BITS - 2) czk_fp12_sqr(&f, &f);
        for (size_t j = 0; j < n; j++) {
            if (q[j]->infinity || czk_g1_affine_is_infinity(&p[j])) continue;
            ell(&f, &q[j]->lines[k], &p[j]);
        }
        k++;
        if (bit_at(i)) {
            for (size_t j = 0; j < n; j++) {
                if (q[j]->infinity || czk_g1_affine_is_infinity(&p[j])) continue;
                ell(&f, &q[j]->lines[k], &p[j]);
            }
            k++;
        }
    }
    czk_fp12_conjugate(r, &f);
}

/* r = a^x for a in the cyclotomic subgroup: 63 cyclotomic squarings,
 * 5 multiplications, and a conjugation for the sign. */
static void exp_by_x(czk_fp12 *r, const czk_fp12 *a) {
    czk_fp12 acc = *a;
    for (int i = X_BITS - 2; i >= 0; i--) {
        czk_fp12_cyclotomic_sqr(&acc, &acc);
        if (bit_at(i)) czk_fp12_mul(&acc, &acc, a);
    }
    czk_fp12_conjugate(r, &acc);
}

/* Easy part: f^((p^6-1)(p^2+1)). Hard part with Hayashida–Hayasaka–Teruya's
 * decomposition 3·(p^4 - p^2 + 1)/r = (x-1)^2·(x+p)·(x^2+p^2-1) + 3, in which
 * every factor is an exponentiation by x, a Frobenius map or a conjugation;
 * so r = f^(3(p^12-1)/r). */
void czk_final_exponentiation(czk_fp12 *r, const czk_fp12 *f) {
    czk_fp12 t, a, b, c;
    /* t = f^(p^6-1) = conj(f)/f, then t^(p^2+1) */
    czk_fp12_inv(&a, f);
    czk_fp12_conjugate(&t, f);
    czk_fp12_mul(&t, &t, &a);
    czk_fp12_frobenius_map(&a, &t, 2);
    czk_fp12_mul(&t, &t, &a);

    /* a = t^(x-1) */
    exp_by_x(&a, &t);
    czk_fp12_conjugate(&b, &t);
    czk_fp12_mul(&a, &a, &b);
    /* a = a^(x-1) = t^((x-1)^2) */
    exp_by_x(&b, &a);
    czk_fp12_conjugate(&a, &a);
    czk_fp12_mul(&a, &a, &b);
    /* a = a^(x+p) */
    exp_by_x(&b, &a);
    czk_fp12_frobenius_map(&a, &a, 1);
    czk_fp12_mul(&a, &a, &b);
    /* a = a^(x^2+p^2-1) */
    exp_by_x(&b, &a);
    exp_by_x(&b, &b);
    czk_fp12_frobenius_map(&c, &a, 2);
    czk_fp12_mul(&b, &b, &c);
    czk_fp12_conjugate(&a, &a);
    czk_fp12_mul(&a, &a, &b);
    /* r = a·t^3 */
    czk_fp12_cyclotomic_sqr(&b, &t);
    czk_fp12_mul(&b, &b, &t);
    czk_fp12_mul(r, &a, &b);
}

void czk_pairing(czk_fp12 *r, const czk_g1_affine *p, const czk_g2_affine *q) {
    czk_fp12 f;
    czk_multi_miller_loop(&f, p, q, 1);
    czk_final_exponentiation(r, &f);
}

void czk_multi_pairing(czk_fp12 *r, const czk_g1_affine *p, const czk_g2_affine *q, size_t n) {
    czk_fp12 f;
    czk_multi_miller_loop(&f, p, q, n);
    czk_final_exponentiation(r, &f);
}
