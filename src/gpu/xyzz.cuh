/* czk — XYZZ points on y^2 = x^3 + b (a = 0) on the device, generic over
 * the coordinate field F (fp_t for G1, fp2_t for G2): affine points in the
 * host's layout ((0, 0) = infinity), XYZZ buckets, and the Jacobian output
 * in the host's czk_g1 / czk_g2 layout.
 *
 * XYZZ: (X, Y, ZZ, ZZZ) with ZZ^3 = ZZZ^2 is (X/ZZ, Y/ZZZ); ZZ = 0 is
 * infinity. The formulas and their special cases are those of the CPU's
 * src/msm/xyzz.h (EFD "xyzz": madd-2008-s, add-2008-s, dbl-2008-s-1,
 * mdbl-2008-s-1), so doubling, P + (-P) and infinity give the exact group
 * element. Costs in M/S of F. */
#ifndef CZK_GPU_XYZZ_CUH
#define CZK_GPU_XYZZ_CUH

#include "fp.cuh"
#include "fp2.cuh"

/* The field operations by overloading, so one template serves both fields. */
#define FE_OVERLOADS(T, P)                                                                                   \
    static __device__ __forceinline__ T fe_add(const T &a, const T &b) { return P##_add(a, b); }             \
    static __device__ __forceinline__ T fe_sub(const T &a, const T &b) { return P##_sub(a, b); }             \
    static __device__ __forceinline__ T fe_dbl(const T &a) { return P##_dbl(a); }                           \
    static __device__ __forceinline__ T fe_neg(const T &a) { return P##_neg(a); }                           \
    static __device__ __forceinline__ T fe_mul(const T &a, const T &b) { return P##_mul(a, b); }             \
    static __device__ __forceinline__ T fe_sqr(const T &a) { return P##_sqr(a); }                           \
    static __device__ __forceinline__ bool fe_is_zero(const T &a) { return P##_is_zero(a); }                \
    static __device__ __forceinline__ T fe_ldg(const T *p) { return P##_ldg(p); }                           \
    static __device__ __forceinline__ T fe_load(const T *p) { return P##_load(p); }                         \
    static __device__ __forceinline__ void fe_store(T *p, const T &a) { P##_store(p, a); }
FE_OVERLOADS(fp_t, fp)
FE_OVERLOADS(fp2_t, fp2)
#undef FE_OVERLOADS
static __device__ __forceinline__ fp2c_t fe_add(const fp2c_t &a, const fp2c_t &b) { return fp2c(fp2_add(a, b)); }
static __device__ __forceinline__ fp2c_t fe_sub(const fp2c_t &a, const fp2c_t &b) { return fp2c(fp2_sub(a, b)); }
static __device__ __forceinline__ fp2c_t fe_dbl(const fp2c_t &a) { return fp2c(fp2_dbl(a)); }
static __device__ __forceinline__ fp2c_t fe_neg(const fp2c_t &a) { return fp2c(fp2_neg(a)); }
static __device__ __forceinline__ fp2c_t fe_mul(const fp2c_t &a, const fp2c_t &b) { return fp2c(fp2_mul_call(a, b)); }
static __device__ __forceinline__ fp2c_t fe_sqr(const fp2c_t &a) { return fp2c(fp2_sqr_call(a)); }
static __device__ __forceinline__ bool fe_is_zero(const fp2c_t &a) { return fp2_is_zero(a); }
static __device__ __forceinline__ fp2c_t fe_ldg(const fp2c_t *p) { return fp2c(fp2_ldg(p)); }
static __device__ __forceinline__ fp2c_t fe_load(const fp2c_t *p) { return fp2c(fp2_load(p)); }
static __device__ __forceinline__ void fe_store(fp2c_t *p, const fp2c_t &a) { fp2_store(p, a); }

/* fp_t with an out-of-line product (one copy per kernel): the cold G1
 * kernels (segments2's combine step, the ones' reductions), whose XYZZ +
 * XYZZ additions spill heavily when every product is inlined. Same layout
 * as fp_t. */
struct __align__(16) fpc_t : fp_t {};
static __device__ __forceinline__ fpc_t fpc(const fp_t &a) {
    fpc_t r;
#pragma unroll
    for (int i = 0; i < FP_N; i++) r.l[i] = a.l[i];
    return r;
}
static __device__ __noinline__ fp_t fp_mul_call(const fp_t a, const fp_t b) { return fp_mul(a, b); }
static __device__ __forceinline__ fpc_t fe_add(const fpc_t &a, const fpc_t &b) { return fpc(fp_add(a, b)); }
static __device__ __forceinline__ fpc_t fe_sub(const fpc_t &a, const fpc_t &b) { return fpc(fp_sub(a, b)); }
static __device__ __forceinline__ fpc_t fe_dbl(const fpc_t &a) { return fpc(fp_dbl(a)); }
static __device__ __forceinline__ fpc_t fe_neg(const fpc_t &a) { return fpc(fp_neg(a)); }
static __device__ __forceinline__ fpc_t fe_mul(const fpc_t &a, const fpc_t &b) { return fpc(fp_mul_call(a, b)); }
static __device__ __forceinline__ fpc_t fe_sqr(const fpc_t &a) { return fpc(fp_mul_call(a, a)); }
static __device__ __forceinline__ bool fe_is_zero(const fpc_t &a) { return fp_is_zero(a); }
static __device__ __forceinline__ fpc_t fe_ldg(const fpc_t *p) { return fpc(fp_ldg(p)); }
static __device__ __forceinline__ fpc_t fe_load(const fpc_t *p) { return fpc(fp_load(p)); }
static __device__ __forceinline__ void fe_store(fpc_t *p, const fpc_t &a) { fp_store(p, a); }

template <class F> static __device__ __forceinline__ F fe_zero();
template <class F> static __device__ __forceinline__ F fe_one();
template <> __device__ __forceinline__ fp_t fe_zero<fp_t>() { return fp_zero(); }
template <> __device__ __forceinline__ fp_t fe_one<fp_t>() { return fp_one(); }
template <> __device__ __forceinline__ fpc_t fe_zero<fpc_t>() { return fpc(fp_zero()); }
template <> __device__ __forceinline__ fpc_t fe_one<fpc_t>() { return fpc(fp_one()); }
template <> __device__ __forceinline__ fp2_t fe_zero<fp2_t>() { return fp2_zero(); }
template <> __device__ __forceinline__ fp2_t fe_one<fp2_t>() { return fp2_one(); }
template <> __device__ __forceinline__ fp2c_t fe_zero<fp2c_t>() { return fp2c(fp2_zero()); }
template <> __device__ __forceinline__ fp2c_t fe_one<fp2c_t>() { return fp2c(fp2_one()); }

template <class F> struct aff_t {
    F x, y;
};

template <class F> struct jac_t {
    F x, y, z;
};

template <class F> struct xyzz_t {
    F x, y, zz, zzz;
};

template <class F> static __device__ __forceinline__ void xyzz_set_inf(xyzz_t<F> &p) {
    p.x = fe_one<F>();
    p.y = fe_one<F>();
    p.zz = fe_zero<F>();
    p.zzz = fe_zero<F>();
}

template <class F> static __device__ __forceinline__ bool xyzz_is_inf(const xyzz_t<F> &p) { return fe_is_zero(p.zz); }

template <class F> static __device__ __forceinline__ bool aff_is_inf(const F &x, const F &y) {
    return fe_is_zero(x) && fe_is_zero(y);
}

/* p = 2·(x, y), finite affine point with y != 0 (mdbl-2008-s-1): 2M + 3S. */
template <class F> static __device__ __forceinline__ void xyzz_dbl_aff(xyzz_t<F> &p, const F &x, const F &y) {
    F u = fe_dbl(y);
    F v = fe_sqr(u);
    F w = fe_mul(u, v);
    F s = fe_mul(x, v);
    F m = fe_sqr(x);
    m = fe_add(m, fe_dbl(m));
    F nx = fe_sub(fe_sub(fe_sqr(m), s), s);
    s = fe_mul(fe_sub(s, nx), m);
    p.y = fe_sub(s, fe_mul(w, y));
    p.x = nx;
    p.zz = v;
    p.zzz = w;
}

/* p = 2p (dbl-2008-s-1): 6M + 3S (infinity and Y = 0 give ZZ = 0). */
template <class F> static __device__ __forceinline__ void xyzz_dbl(xyzz_t<F> &p) {
    F u = fe_dbl(p.y);
    F v = fe_sqr(u);
    F w = fe_mul(u, v);
    F s = fe_mul(p.x, v);
    F m = fe_sqr(p.x);
    m = fe_add(m, fe_dbl(m));
    u = fe_mul(w, p.y);
    F nx = fe_sub(fe_sub(fe_sqr(m), s), s);
    s = fe_mul(fe_sub(s, nx), m);
    p.y = fe_sub(s, u);
    p.x = nx;
    p.zz = fe_mul(p.zz, v);
    p.zzz = fe_mul(p.zzz, w);
}

/* p += (x, ±y), (x, y) finite (madd-2008-s): 8M + 2S; doubling and P = -Q
 * handled. neg: add (x, -y). */
template <class F> static __device__ __forceinline__ void xyzz_add_aff(xyzz_t<F> &p, const F &x, const F &y, bool neg) {
    if (xyzz_is_inf(p)) {
        p.x = x;
        p.y = neg ? fe_neg(y) : y;
        p.zz = fe_one<F>();
        p.zzz = fe_one<F>();
        return;
    }
    F u2 = fe_mul(x, p.zz);
    F s2 = fe_mul(y, p.zzz);
    if (neg) s2 = fe_neg(s2);
    F pd = fe_sub(u2, p.x);
    F rd = fe_sub(s2, p.y);
    if (fe_is_zero(pd)) {
        if (!fe_is_zero(rd)) xyzz_set_inf(p);
        else xyzz_dbl_aff(p, x, neg ? fe_neg(y) : y);
        return;
    }
    F pp = fe_sqr(pd);
    F ppp = fe_mul(pd, pp);
    F q = fe_mul(p.x, pp);
    p.zz = fe_mul(p.zz, pp);
    p.zzz = fe_mul(p.zzz, ppp);
    F nx = fe_sub(fe_sub(fe_sub(fe_sqr(rd), ppp), q), q);
    q = fe_mul(fe_sub(q, nx), rd);
    p.y = fe_sub(q, fe_mul(ppp, p.y));
    p.x = nx;
}

/* p += q, both XYZZ (add-2008-s): 12M + 2S; infinity, P = Q and P = -Q handled. */
template <class F> static __device__ __forceinline__ void xyzz_add(xyzz_t<F> &p, const xyzz_t<F> &q) {
    if (xyzz_is_inf(q)) return;
    if (xyzz_is_inf(p)) {
        p = q;
        return;
    }
    F u1 = fe_mul(p.x, q.zz);
    F u2 = fe_mul(q.x, p.zz);
    F s1 = fe_mul(p.y, q.zzz);
    F s2 = fe_mul(q.y, p.zzz);
    F pd = fe_sub(u2, u1);
    F rd = fe_sub(s2, s1);
    if (fe_is_zero(pd)) {
        if (fe_is_zero(rd)) xyzz_dbl(p);
        else xyzz_set_inf(p);
        return;
    }
    F pp = fe_sqr(pd);
    F ppp = fe_mul(pd, pp);
    u1 = fe_mul(u1, pp); /* Q */
    p.zz = fe_mul(fe_mul(p.zz, q.zz), pp);
    p.zzz = fe_mul(fe_mul(p.zzz, q.zzz), ppp);
    F nx = fe_sub(fe_sub(fe_sub(fe_sqr(rd), ppp), u1), u1);
    F t = fe_mul(fe_sub(u1, nx), rd);
    p.y = fe_sub(t, fe_mul(s1, ppp));
    p.x = nx;
}

template <class F> static __device__ __forceinline__ void xyzz_load(xyzz_t<F> &p, const xyzz_t<F> *src) {
    p.x = fe_load(&src->x);
    p.y = fe_load(&src->y);
    p.zz = fe_load(&src->zz);
    p.zzz = fe_load(&src->zzz);
}

template <class F> static __device__ __forceinline__ void xyzz_store(xyzz_t<F> *dst, const xyzz_t<F> &p) {
    fe_store(&dst->x, p.x);
    fe_store(&dst->y, p.y);
    fe_store(&dst->zz, p.zz);
    fe_store(&dst->zzz, p.zzz);
}

/* Jacobian (X·ZZ^2, Y·ZZZ^2, ZZZ), infinity as (1, 1, 0): 2M + 2S. */
template <class F> static __device__ __forceinline__ void xyzz_store_jac(jac_t<F> *dst, const xyzz_t<F> &p) {
    if (xyzz_is_inf(p)) {
        fe_store(&dst->x, fe_one<F>());
        fe_store(&dst->y, fe_one<F>());
        fe_store(&dst->z, fe_zero<F>());
        return;
    }
    fe_store(&dst->x, fe_mul(p.x, fe_sqr(p.zz)));
    fe_store(&dst->y, fe_mul(p.y, fe_sqr(p.zzz)));
    fe_store(&dst->z, p.zzz);
}

#endif
