/* czk — for the host tests of the device point code (test_xyzz_emulated,
 * test_msm_sums_emulated): the CPU group behind each device field type
 * (g1_host for fp_t / fpc_t, g2_host for fp2_t / fp2c_t), conversions
 * between the device's XYZZ points and the host's Jacobian ones, and a
 * small pool of points with the exceptional cases (make_pool). Include
 * after ptx_emulated.h and xyzz.cuh. */
#ifndef CZK_TEST_EMULATED_GROUPS_H
#define CZK_TEST_EMULATED_GROUPS_H

#include <string.h>

extern "C" {
#include "czk/fr.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/rng.h"
}

/* The host group behind a device field type: G1 over fp_t / fpc_t, G2 over
 * fp2_t / fp2c_t (the device types have the host's bytes). */
struct g1_host {
    typedef czk_g1 jac;
    typedef czk_g1_affine aff;
    static jac generator() {
        jac g;
        czk_g1_from_affine(&g, &CZK_G1_GENERATOR);
        return g;
    }
    static void mul(jac *r, const jac *a, const czk_fr *k) { czk_g1_mul_fr(r, a, k); }
    static void add(jac *r, const jac *a, const jac *b) { czk_g1_add(r, a, b); }
    static void dbl(jac *r, const jac *a) { czk_g1_dbl(r, a); }
    static void neg(jac *r, const jac *a) { czk_g1_neg(r, a); }
    static void inf(jac *r) { czk_g1_set_infinity(r); }
    static void to_aff(aff *r, const jac *a) { czk_g1_to_affine(r, a); }
    static void from_aff(jac *r, const aff *a) { czk_g1_from_affine(r, a); }
    static bool equal(const jac *a, const jac *b) { return czk_g1_equal(a, b); }
};

struct g2_host {
    typedef czk_g2 jac;
    typedef czk_g2_affine aff;
    static jac generator() {
        jac g;
        czk_g2_from_affine(&g, &CZK_G2_GENERATOR);
        return g;
    }
    static void mul(jac *r, const jac *a, const czk_fr *k) { czk_g2_mul_fr(r, a, k); }
    static void add(jac *r, const jac *a, const jac *b) { czk_g2_add(r, a, b); }
    static void dbl(jac *r, const jac *a) { czk_g2_dbl(r, a); }
    static void neg(jac *r, const jac *a) { czk_g2_neg(r, a); }
    static void inf(jac *r) { czk_g2_set_infinity(r); }
    static void to_aff(aff *r, const jac *a) { czk_g2_to_affine(r, a); }
    static void from_aff(jac *r, const aff *a) { czk_g2_from_affine(r, a); }
    static bool equal(const jac *a, const jac *b) { return czk_g2_equal(a, b); }
};

/* the device sum as a host point */
template <class H, class F> static typename H::jac to_host(const xyzz_t<F> &p) {
    static_assert(sizeof(jac_t<F>) == sizeof(typename H::jac), "layouts");
    jac_t<F> j;
    xyzz_store_jac(&j, p);
    typename H::jac r;
    memcpy(&r, &j, sizeof r);
    return r;
}

/* XYZZ (X·Z^2... as (X, Y, Z^2, Z^3)) of a host Jacobian point */
template <class H, class F> static xyzz_t<F> from_host(const typename H::jac &a) {
    jac_t<F> j;
    memcpy(&j, &a, sizeof j);
    xyzz_t<F> p;
    if (fe_is_zero(j.z)) {
        xyzz_set_inf(p);
        return p;
    }
    p.x = j.x;
    p.y = j.y;
    p.zz = fe_sqr(j.z);
    p.zzz = fe_mul(p.zz, j.z);
    return p;
}

/* A pool: infinity, P, -P, 2P, Q, P + Q, with Jacobian Z != 1 (the CPU's
 * products and sums leave them so). */
template <class H> static void make_pool(typename H::jac pool[6], czk_rng *rng) {
    typename H::jac g = H::generator();
    czk_fr k;
    czk_fr_random(&k, rng);
    H::mul(&pool[1], &g, &k);
    czk_fr_random(&k, rng);
    H::mul(&pool[4], &g, &k);
    H::inf(&pool[0]);
    H::neg(&pool[2], &pool[1]);
    H::dbl(&pool[3], &pool[1]);
    H::add(&pool[5], &pool[1], &pool[4]);
}

#endif
