/* czk — G1 (y^2 = x^3 + 4 over Fp) on the device: affine points in the
 * host's czk_g1_affine layout ((0, 0) = infinity), XYZZ buckets, and the
 * Jacobian output in the host's czk_g1 layout.
 *
 * XYZZ: (X, Y, ZZ, ZZZ) with ZZ^3 = ZZZ^2 is (X/ZZ, Y/ZZZ); ZZ = 0 is
 * infinity. The formulas and their special cases are those of the CPU's
 * src/msm/xyzz.h (EFD "xyzz": madd-2008-s, add-2008-s, dbl-2008-s-1,
 * mdbl-2008-s-1), so doubling, P + (-P) and infinity give the exact group
 * element. Costs in M/S of Fp. */
#ifndef CZK_GPU_G1_CUH
#define CZK_GPU_G1_CUH

#include "fp.cuh"

struct g1_aff_t {
    fp_t x, y;
};

struct g1_jac_t {
    fp_t x, y, z;
};

struct g1_xyzz_t {
    fp_t x, y, zz, zzz;
};

static __device__ __forceinline__ void xyzz_set_inf(g1_xyzz_t &p) {
    p.x = fp_one();
    p.y = fp_one();
    p.zz = fp_zero();
    p.zzz = fp_zero();
}

static __device__ __forceinline__ bool xyzz_is_inf(const g1_xyzz_t &p) { return fp_is_zero(p.zz); }

static __device__ __forceinline__ bool aff_is_inf(const fp_t &x, const fp_t &y) {
    return fp_is_zero(x) && fp_is_zero(y);
}

/* p = 2·(x, y), finite affine point with y != 0 (mdbl-2008-s-1): 2M + 3S. */
static __device__ __forceinline__ void xyzz_dbl_aff(g1_xyzz_t &p, const fp_t &x, const fp_t &y) {
    fp_t u = fp_dbl(y);
    fp_t v = fp_sqr(u);
    fp_t w = fp_mul(u, v);
    fp_t s = fp_mul(x, v);
    fp_t m = fp_sqr(x);
    m = fp_add(m, fp_dbl(m));
    fp_t nx = fp_sub(fp_sub(fp_sqr(m), s), s);
    s = fp_mul(fp_sub(s, nx), m);
    p.y = fp_sub(s, fp_mul(w, y));
    p.x = nx;
    p.zz = v;
    p.zzz = w;
}

/* p = 2p (dbl-2008-s-1): 6M + 3S (infinity and Y = 0 give ZZ = 0). */
static __device__ __forceinline__ void xyzz_dbl(g1_xyzz_t &p) {
    fp_t u = fp_dbl(p.y);
    fp_t v = fp_sqr(u);
    fp_t w = fp_mul(u, v);
    fp_t s = fp_mul(p.x, v);
    fp_t m = fp_sqr(p.x);
    m = fp_add(m, fp_dbl(m));
    u = fp_mul(w, p.y);
    fp_t nx = fp_sub(fp_sub(fp_sqr(m), s), s);
    s = fp_mul(fp_sub(s, nx), m);
    p.y = fp_sub(s, u);
    p.x = nx;
    p.zz = fp_mul(p.zz, v);
    p.zzz = fp_mul(p.zzz, w);
}

/* p += (x, ±y), (x, y) finite (madd-2008-s): 8M + 2S; doubling and P = -Q
 * handled. neg: add (x, -y). */
static __device__ __forceinline__ void xyzz_add_aff(g1_xyzz_t &p, const fp_t &x, const fp_t &y, bool neg) {
    if (xyzz_is_inf(p)) {
        p.x = x;
        p.y = neg ? fp_neg(y) : y;
        p.zz = fp_one();
        p.zzz = fp_one();
        return;
    }
    fp_t u2 = fp_mul(x, p.zz);
    fp_t s2 = fp_mul(y, p.zzz);
    if (neg) s2 = fp_neg(s2);
    fp_t pd = fp_sub(u2, p.x);
    fp_t rd = fp_sub(s2, p.y);
    if (fp_is_zero(pd)) {
        if (!fp_is_zero(rd)) xyzz_set_inf(p);
        else xyzz_dbl_aff(p, x, neg ? fp_neg(y) : y);
        return;
    }
    fp_t pp = fp_sqr(pd);
    fp_t ppp = fp_mul(pd, pp);
    fp_t q = fp_mul(p.x, pp);
    p.zz = fp_mul(p.zz, pp);
    p.zzz = fp_mul(p.zzz, ppp);
    fp_t nx = fp_sub(fp_sub(fp_sub(fp_sqr(rd), ppp), q), q);
    q = fp_mul(fp_sub(q, nx), rd);
    p.y = fp_sub(q, fp_mul(ppp, p.y));
    p.x = nx;
}

/* p += q, both XYZZ (add-2008-s): 12M + 2S; infinity, P = Q and P = -Q handled. */
static __device__ __forceinline__ void xyzz_add(g1_xyzz_t &p, const g1_xyzz_t &q) {
    if (xyzz_is_inf(q)) return;
    if (xyzz_is_inf(p)) {
        p = q;
        return;
    }
    fp_t u1 = fp_mul(p.x, q.zz);
    fp_t u2 = fp_mul(q.x, p.zz);
    fp_t s1 = fp_mul(p.y, q.zzz);
    fp_t s2 = fp_mul(q.y, p.zzz);
    fp_t pd = fp_sub(u2, u1);
    fp_t rd = fp_sub(s2, s1);
    if (fp_is_zero(pd)) {
        if (fp_is_zero(rd)) xyzz_dbl(p);
        else xyzz_set_inf(p);
        return;
    }
    fp_t pp = fp_sqr(pd);
    fp_t ppp = fp_mul(pd, pp);
    u1 = fp_mul(u1, pp); /* Q */
    p.zz = fp_mul(fp_mul(p.zz, q.zz), pp);
    p.zzz = fp_mul(fp_mul(p.zzz, q.zzz), ppp);
    fp_t nx = fp_sub(fp_sub(fp_sub(fp_sqr(rd), ppp), u1), u1);
    fp_t t = fp_mul(fp_sub(u1, nx), rd);
    p.y = fp_sub(t, fp_mul(s1, ppp));
    p.x = nx;
}

static __device__ __forceinline__ void xyzz_load(g1_xyzz_t &p, const g1_xyzz_t *src) {
    p.x = fp_load(&src->x);
    p.y = fp_load(&src->y);
    p.zz = fp_load(&src->zz);
    p.zzz = fp_load(&src->zzz);
}

static __device__ __forceinline__ void xyzz_store(g1_xyzz_t *dst, const g1_xyzz_t &p) {
    fp_store(&dst->x, p.x);
    fp_store(&dst->y, p.y);
    fp_store(&dst->zz, p.zz);
    fp_store(&dst->zzz, p.zzz);
}

/* Jacobian (X·ZZ^2, Y·ZZZ^2, ZZZ), infinity as (1, 1, 0): 2M + 2S. */
static __device__ __forceinline__ void xyzz_store_jac(g1_jac_t *dst, const g1_xyzz_t &p) {
    if (xyzz_is_inf(p)) {
        fp_store(&dst->x, fp_one());
        fp_store(&dst->y, fp_one());
        fp_store(&dst->z, fp_zero());
        return;
    }
    fp_store(&dst->x, fp_mul(p.x, fp_sqr(p.zz)));
    fp_store(&dst->y, fp_mul(p.y, fp_sqr(p.zzz)));
    fp_store(&dst->z, p.zzz);
}

#endif
