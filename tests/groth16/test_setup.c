/* Parameter generation against bellperson's definitions, recomputed the
 * simple way: Lagrange polynomials from their closed form
 * L_j(τ) = (τ^n - 1)·ω^j / (n·(τ - ω^j)), QAP sums straight from the CSR rows
 * (plus one A entry per input for the `input_i · 0 = 0` rows), and every
 * query point as a plain scalar multiplication of the toxic generators. */
#include <string.h>

#include "czk/circuit.h"
#include "czk/groth16.h"
#include "czk/mem.h"
#include "test.h"

static void g1_at(czk_g1_affine *out, const czk_g1 *g, const czk_fr *k) {
    czk_g1 t;
    czk_g1_mul_fr(&t, g, k);
    czk_g1_to_affine(out, &t);
}

static void g2_at(czk_g2_affine *out, const czk_g2 *g, const czk_fr *k) {
    czk_g2 t;
    czk_g2_mul_fr(&t, g, k);
    czk_g2_to_affine(out, &t);
}

static void column_sums(czk_fr *out, const czk_csr *m, size_t rows, const czk_fr *L) {
    for (size_t i = 0; i < rows; i++)
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            czk_fr t;
            czk_fr_mul(&t, &m->coeff[k], &L[i]);
            czk_fr_add(&out[m->col[k]], &out[m->col[k]], &t);
        }
}

static void check_circuit(const char *id, size_t constraints, size_t inputs, uint64_t seed) {
    char msg[512];
    czk_circuit c;
    CHECK(czk_circuit_find(&c, id, msg, sizeof msg) == CZK_OK);
    if (constraints) {
        c.profile.constraints = constraints;
        c.profile.inputs = inputs;
    }
    czk_r1cs r;
    CHECK(czk_circuit_record(&c, &r, msg, sizeof msg) == CZK_OK);
    czk_toxic t;
    czk_toxic_from_seed(&t, seed);
    czk_params p;
    czk_err e = czk_groth16_setup(&p, &r, &t, NULL, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    if (e != CZK_OK) {
        czk_r1cs_free(&r);
        return;
    }
    const size_t ni = r.n_inputs, na = r.n_aux, nc = r.n_constraints, nv = ni + na;
    size_t n = 1;
    while (n < nc + ni) n <<= 1;
    unsigned log_n = (unsigned)__builtin_ctzll(n);
    CHECK(p.n_h == n - 1);

    /* closed-form Lagrange basis at τ */
    czk_fr omega, w, zt, ninv, *L = calloc(n, sizeof(czk_fr));
    czk_fr_root_of_unity(&omega, (int)log_n);
    czk_fr tn = t.tau;
    for (unsigned i = 0; i < log_n; i++) czk_fr_sqr(&tn, &tn);
    czk_fr_sub(&zt, &tn, &CZK_FR_ONE);
    czk_fr_from_u64(&ninv, n);
    czk_fr_inv(&ninv, &ninv);
    czk_fr_set_one(&w);
    for (size_t j = 0; j < n; j++) {
        czk_fr d;
        czk_fr_sub(&d, &t.tau, &w);
        czk_fr_inv(&d, &d);
        czk_fr_mul(&L[j], &zt, &w);
        czk_fr_mul(&L[j], &L[j], &ninv);
        czk_fr_mul(&L[j], &L[j], &d);
        czk_fr_mul(&w, &w, &omega);
    }
    czk_fr *u = calloc(nv, sizeof(czk_fr)), *v = calloc(nv, sizeof(czk_fr)), *ww = calloc(nv, sizeof(czk_fr));
    column_sums(u, &r.a, nc, L);
    column_sums(v, &r.b, nc, L);
    column_sums(ww, &r.c, nc, L);
    for (size_t i = 0; i < ni; i++) czk_fr_add(&u[i], &u[i], &L[nc + i]);

    /* h */
    czk_fr dinv, ginv, k;
    czk_fr_inv(&dinv, &t.delta);
    czk_fr_inv(&ginv, &t.gamma);
    czk_fr_mul(&k, &zt, &dinv);
    for (size_t i = 0; i + 1 < n; i++) {
        if (i < 4 || i + 3 > n) {
            czk_g1_affine want;
            g1_at(&want, &t.g1, &k);
            CHECK_MSG(czk_g1_affine_equal(&want, &p.h[i]), "%s h[%zu]", id, i);
        }
        czk_fr_mul(&k, &k, &t.tau);
    }
    /* a, b_g1, b_g2 without identities; ic and l */
    size_t ka = 0, kb = 0;
    for (size_t i = 0; i < nv; i++) {
        czk_g1_affine want;
        if (!czk_fr_is_zero(&u[i])) {
            g1_at(&want, &t.g1, &u[i]);
            CHECK_MSG(ka < p.n_a && czk_g1_affine_equal(&want, &p.a[ka]), "%s a[%zu]", id, ka);
            ka++;
        }
        if (!czk_fr_is_zero(&v[i])) {
            g1_at(&want, &t.g1, &v[i]);
            CHECK_MSG(kb < p.n_b_g1 && czk_g1_affine_equal(&want, &p.b_g1[kb]), "%s b_g1[%zu]", id, kb);
            czk_g2_affine want2;
            g2_at(&want2, &t.g2, &v[i]);
            CHECK_MSG(kb < p.n_b_g2 && czk_g2_affine_equal(&want2, &p.b_g2[kb]), "%s b_g2[%zu]", id, kb);
            kb++;
        }
        czk_fr ext, tmp;
        czk_fr_mul(&ext, &u[i], &t.beta);
        czk_fr_mul(&tmp, &v[i], &t.alpha);
        czk_fr_add(&ext, &ext, &tmp);
        czk_fr_add(&ext, &ext, &ww[i]);
        czk_fr_mul(&ext, &ext, i < ni ? &ginv : &dinv);
        g1_at(&want, &t.g1, &ext);
        if (i < ni) CHECK_MSG(czk_g1_affine_equal(&want, &p.vk.ic[i]), "%s ic[%zu]", id, i);
        else CHECK_MSG(czk_g1_affine_equal(&want, &p.l[i - ni]), "%s l[%zu]", id, i - ni);
    }
    CHECK(ka == p.n_a && kb == p.n_b_g1 && kb == p.n_b_g2);
    CHECK(p.vk.n_ic == ni && p.n_l == na);
    /* the verifying key */
    czk_g1_affine a1;
    czk_g2_affine a2;
    g1_at(&a1, &t.g1, &t.alpha);
    CHECK(czk_g1_affine_equal(&a1, &p.vk.alpha_g1));
    g1_at(&a1, &t.g1, &t.beta);
    CHECK(czk_g1_affine_equal(&a1, &p.vk.beta_g1));
    g1_at(&a1, &t.g1, &t.delta);
    CHECK(czk_g1_affine_equal(&a1, &p.vk.delta_g1));
    g2_at(&a2, &t.g2, &t.beta);
    CHECK(czk_g2_affine_equal(&a2, &p.vk.beta_g2));
    g2_at(&a2, &t.g2, &t.gamma);
    CHECK(czk_g2_affine_equal(&a2, &p.vk.gamma_g2));
    g2_at(&a2, &t.g2, &t.delta);
    CHECK(czk_g2_affine_equal(&a2, &p.vk.delta_g2));

    free(L);
    free(u);
    free(v);
    free(ww);
    czk_params_free(&p);
    czk_r1cs_free(&r);
}

/* An aux variable in no constraint: bellperson refuses (UnconstrainedVariable). */
static czk_err loose(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    (void)c;
    (void)partition;
    (void)seed;
    czk_var x, y;
    czk_fr one = CZK_FR_ONE;
    czk_err e;
    if ((e = czk_cs_alloc(cs, &x, "x", &one)) != CZK_OK) return e;
    if ((e = czk_cs_alloc(cs, &y, "unused", &one)) != CZK_OK) return e;
    czk_lc a;
    czk_lc_init(&a);
    czk_lc_add(&a, x, NULL);
    czk_cs_enforce(cs, "x*x=x", &a, &a, &a);
    czk_lc_free(&a);
    return CZK_OK;
}

int main(void) {
    czk_rng rng;
    uint64_t seed = test_seed_rng(&rng, "test_setup");
    check_circuit("demo", 0, 0, seed);
    check_circuit("synthetic-10", 0, 0, seed + 1);
    check_circuit("synthetic-10", 61, 3, seed + 2); /* 64 rows: a full domain */
    check_circuit("synthetic-10", 100, 2, seed + 3);

    czk_circuit c;
    memset(&c, 0, sizeof c);
    snprintf(c.id, sizeof c.id, "loose");
    c.partitions = 1;
    c.synthesize = loose;
    char msg[512] = "";
    czk_r1cs r;
    CHECK(czk_circuit_record(&c, &r, msg, sizeof msg) == CZK_OK);
    czk_toxic t;
    czk_toxic_from_seed(&t, seed);
    czk_params p;
    CHECK(czk_groth16_setup(&p, &r, &t, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(msg, "unconstrained") != NULL, "message: %s", msg);
    czk_r1cs_free(&r);
    CHECK(czk_mem_in_use(CZK_MEM_SRS) == 0 && czk_mem_in_use(CZK_MEM_AUX) == 0);
    return test_finish("test_setup");
}
