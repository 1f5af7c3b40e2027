/* czk — the Groth16 prover, split in two (see include/czk/groth16.h):
 *
 * start:  the witness plain and a, b, c evaluated from the compact R1CS
 *         where the assignment gives them so (czk_assignment_unpack_aux,
 *         czk_assignment_eval_abc);
 *         H = (A·B - C)/Z through NTTs (czk_poly_h), then the G1 MSMs
 *         H·h, aux·l, w·a (inputs full, aux by a_aux density) and w·b_g1
 *         (by the b densities); a, b, c are freed as soon as H is known and
 *         the H MSM has run. The witness moves into the pending state.
 * finish: B in G2 = w·b_g2 (by the b densities), then bellperson's assembly
 *         A = α + Σa + rδ,  B = β + Σb_g2 + sδ,
 *         C = sΣa + rΣb_g1 + rsδ + sα + rβ + Σh + Σl,
 *         and the witness is freed. */
#include <stdio.h>
#include <string.h>

#include "czk/groth16.h"
#include "czk/mem.h"
#include "czk/msm.h"
#include "czk/poly.h"

#define SET_MSG(...)                                          \
    do {                                                      \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
    } while (0)

struct czk_pending {
    const czk_params *params;
    czk_fr *input, *aux; /* owned (czk_mem) */
    size_t n_input, n_aux;
    const czk_bitmap *b_input_density, *b_aux_density;
    czk_g1 a_sum, b_g1_sum, h_sum, l_sum;
    czk_fr r, s;
};

size_t czk_pending_bytes(const czk_pending *p) {
    return p ? sizeof *p + czk_mem_size(p->input) + czk_mem_size(p->aux) : 0;
}

void czk_pending_destroy(czk_pending *p) {
    if (!p) return;
    czk_mem_free(p->input);
    czk_mem_free(p->aux);
    czk_mem_free(p);
}

void czk_assignment_release(czk_assignment *asg) {
    czk_mem_free(asg->a);
    czk_mem_free(asg->b);
    czk_mem_free(asg->c);
    czk_mem_free(asg->input);
    czk_mem_free(asg->aux);
    czk_fr_packed_free(asg->a_packed);
    czk_fr_packed_free(asg->b_packed);
    czk_fr_packed_free(asg->c_packed);
    czk_fr_packed_free(asg->aux_packed);
    asg->a = asg->b = asg->c = asg->input = asg->aux = NULL;
    asg->a_packed = asg->b_packed = asg->c_packed = asg->aux_packed = NULL;
}

czk_err czk_assignment_unpack_aux(czk_assignment *asg, czk_pool *pool) {
    if (!asg->aux_packed) return CZK_OK;
    if (asg->aux || asg->aux_packed->n != asg->n_aux) return CZK_ERR_INVALID_ARGUMENT;
    czk_fr *w = czk_mem_alloc((asg->n_aux ? asg->n_aux : 1) * sizeof(czk_fr), CZK_MEM_SYNTH);
    if (!w) return CZK_ERR_NO_MEMORY;
    czk_fr_packed_unpack(asg->aux_packed, w, pool);
    czk_fr_packed_free(asg->aux_packed);
    asg->aux_packed = NULL;
    asg->aux = w;
    return CZK_OK;
}

static bool abc_absent(const czk_assignment *asg) {
    return !asg->a && !asg->b && !asg->c && !asg->a_packed && !asg->b_packed && !asg->c_packed;
}

czk_err czk_assignment_eval_abc(czk_assignment *asg, bool packed, czk_pool *pool) {
    if (!asg->r1cs || !abc_absent(asg)) return CZK_OK;
    if (asg->aux_packed) return CZK_ERR_INVALID_ARGUMENT;
    const czk_witness w = {asg->input, asg->n_input, asg->aux, asg->n_aux};
    if (packed) return czk_r1cs_compact_eval_abc_packed(asg->r1cs, &w, &asg->a_packed, &asg->b_packed, &asg->c_packed, pool);
    return czk_r1cs_compact_eval_abc(asg->r1cs, &w, &asg->a, &asg->b, &asg->c, pool);
}

czk_err czk_assignment_pack_abc(czk_assignment *asg, czk_pool *pool, size_t *saved) {
    czk_fr **v[3] = {&asg->a, &asg->b, &asg->c};
    czk_fr_packed **pv[3] = {&asg->a_packed, &asg->b_packed, &asg->c_packed};
    size_t gave = 0;
    czk_err e = CZK_OK;
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        if (!*v[k] || *pv[k]) continue;
        czk_fr_packed *p = NULL;
        e = czk_fr_packed_make(&p, *v[k], asg->n_abc, CZK_MEM_ABC, pool);
        if (e != CZK_OK || !p) continue;
        const size_t plain = czk_mem_size(*v[k]), packed = czk_fr_packed_bytes(p);
        if (packed >= plain) { /* a vector of mostly other values after all */
            czk_fr_packed_free(p);
            continue;
        }
        czk_mem_free(*v[k]);
        *v[k] = NULL;
        *pv[k] = p;
        gave += plain - packed;
    }
    if (saved) *saved = gave;
    return e;
}

czk_err czk_assignment_unpack_abc(czk_assignment *asg, size_t n, czk_pool *pool) {
    czk_fr **v[3] = {&asg->a, &asg->b, &asg->c};
    czk_fr_packed **pv[3] = {&asg->a_packed, &asg->b_packed, &asg->c_packed};
    if (n < asg->n_abc) return CZK_ERR_INVALID_ARGUMENT;
    for (int k = 0; k < 3; k++) {
        if (!*pv[k]) continue;
        if ((*pv[k])->n != asg->n_abc || *v[k]) return CZK_ERR_INVALID_ARGUMENT;
        czk_fr *w = czk_mem_alloc(n * sizeof(czk_fr), CZK_MEM_ABC); /* zero beyond n_abc */
        if (!w) return CZK_ERR_NO_MEMORY;
        czk_fr_packed_unpack(*pv[k], w, pool);
        czk_fr_packed_free(*pv[k]);
        *pv[k] = NULL;
        *v[k] = w;
    }
    return CZK_OK;
}

size_t czk_assignment_abc_bytes(const czk_assignment *asg) {
    return czk_mem_size(asg->a) + czk_mem_size(asg->b) + czk_mem_size(asg->c) + czk_fr_packed_bytes(asg->a_packed) +
           czk_fr_packed_bytes(asg->b_packed) + czk_fr_packed_bytes(asg->c_packed);
}

/* Makes v hold n entries (zero beyond its n_abc values), reallocating when
 * its buffer is shorter. */
static czk_err widen(czk_fr **v, size_t have, size_t n) {
    if (czk_mem_size(*v) >= n * sizeof(czk_fr)) {
        memset(*v + have, 0, (n - have) * sizeof(czk_fr));
        return CZK_OK;
    }
    czk_fr *w = czk_mem_alloc(n * sizeof(czk_fr), CZK_MEM_ABC);
    if (!w) return CZK_ERR_NO_MEMORY;
    memcpy(w, *v, have * sizeof(czk_fr));
    czk_mem_free(*v);
    *v = w;
    return CZK_OK;
}

/* Two MSMs over one query split as [inputs | aux]: r = in·q[0..k) + aux·q[k..). */
static czk_err msm_split_g1(czk_g1 *r, const czk_g1_affine *q, size_t nq, const czk_fr *in, size_t n_in,
                            const czk_bitmap *in_density, const czk_fr *aux, size_t n_aux,
                            const czk_bitmap *aux_density, czk_pool *pool) {
    size_t k = in_density ? czk_bitmap_count(in_density) : n_in;
    czk_g1 t;
    czk_err e = czk_msm_g1(r, q, in, n_in, in_density, pool);
    if (e != CZK_OK) return e;
    e = czk_msm_g1(&t, q + k, aux, n_aux, aux_density, pool);
    if (e != CZK_OK) return e;
    (void)nq;
    czk_g1_add(r, r, &t);
    return CZK_OK;
}

static czk_err check_shapes(const czk_params *p, const czk_assignment *asg, size_t domain_n, char *msg,
                            size_t msglen) {
    if (czk_g1_affine_is_infinity(&p->vk.delta_g1) || czk_g2_affine_is_infinity(&p->vk.delta_g2)) {
        SET_MSG("the parameters' delta is the identity (a subverted setup)");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (asg->n_input != p->vk.n_ic) {
        SET_MSG("the assignment has %zu inputs, the parameters %zu", asg->n_input, p->vk.n_ic);
        return CZK_ERR_MISMATCH;
    }
    if (asg->n_aux != p->n_l) {
        SET_MSG("the assignment has %zu aux variables, the parameters %zu", asg->n_aux, p->n_l);
        return CZK_ERR_MISMATCH;
    }
    if (domain_n - 1 != p->n_h) {
        SET_MSG("%zu constraint evaluations need %zu h points, the parameters have %zu", asg->n_abc,
                domain_n - 1, p->n_h);
        return CZK_ERR_MISMATCH;
    }
    const bool from_r1cs = asg->r1cs && abc_absent(asg);
    if (asg->n_input == 0 || !asg->input || (asg->n_aux && !asg->aux && !asg->aux_packed) ||
        (!from_r1cs && (!asg->a == !asg->a_packed || !asg->b == !asg->b_packed || !asg->c == !asg->c_packed))) {
        SET_MSG("the assignment is incomplete");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (asg->aux && asg->aux_packed) {
        SET_MSG("the assignment's aux is given both plain and packed");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (asg->aux_packed && asg->aux_packed->n != asg->n_aux) {
        SET_MSG("packed aux holds %zu values, not n_aux = %zu", asg->aux_packed->n, asg->n_aux);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (from_r1cs) {
        const czk_r1cs_compact *rc = asg->r1cs;
        if (rc->n_inputs != asg->n_input || rc->n_aux != asg->n_aux || rc->n_constraints + rc->n_inputs != asg->n_abc) {
            SET_MSG("the R1CS has %zu inputs, %zu aux and %zu constraints; the assignment %zu inputs, %zu aux and "
                    "n_abc = %zu", rc->n_inputs, rc->n_aux, rc->n_constraints, asg->n_input, asg->n_aux, asg->n_abc);
            return CZK_ERR_MISMATCH;
        }
        if (rc->n_dict < 2 || !rc->dict || !rc->a.row_ptr || !rc->b.row_ptr || !rc->c.row_ptr) {
            SET_MSG("the compact R1CS is incomplete");
            return CZK_ERR_INVALID_ARGUMENT;
        }
    }
    const czk_fr_packed *pk[3] = {asg->a_packed, asg->b_packed, asg->c_packed};
    for (int k = 0; k < 3; k++)
        if (pk[k] && pk[k]->n != asg->n_abc) {
            SET_MSG("packed %c holds %zu values, not n_abc = %zu", "abc"[k], pk[k]->n, asg->n_abc);
            return CZK_ERR_INVALID_ARGUMENT;
        }
    if (!asg->a_aux_density || !asg->b_input_density || !asg->b_aux_density ||
        asg->a_aux_density->nbits != asg->n_aux || asg->b_aux_density->nbits != asg->n_aux ||
        asg->b_input_density->nbits != asg->n_input) {
        SET_MSG("the density bitmaps do not match the assignment's sizes");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    size_t na = asg->n_input + czk_bitmap_count(asg->a_aux_density);
    size_t nb = czk_bitmap_count(asg->b_input_density) + czk_bitmap_count(asg->b_aux_density);
    if (na != p->n_a || nb != p->n_b_g1 || nb != p->n_b_g2) {
        SET_MSG("the densities select %zu A and %zu B points; the parameters have %zu, %zu and %zu", na, nb, p->n_a,
                p->n_b_g1, p->n_b_g2);
        return CZK_ERR_MISMATCH;
    }
    return CZK_OK;
}

czk_err czk_prove_check(const czk_params *params, const czk_assignment *asg, size_t *domain_n, char *msg,
                        size_t msglen) {
    size_t n = 1;
    while (n < asg->n_abc && n < ((size_t)1 << 40)) n <<= 1;
    if (n < asg->n_abc || n > ((size_t)1 << CZK_DOMAIN_MAX_LOG)) {
        SET_MSG("%zu constraint evaluations exceed the largest evaluation domain", asg->n_abc);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    *domain_n = n;
    return check_shapes(params, asg, n, msg, msglen);
}

czk_err czk_prove_start(czk_pending **out, const czk_params *params, czk_assignment *asg, const czk_fr *r,
                        const czk_fr *s, czk_pool *pool, char *msg, size_t msglen) {
    *out = NULL;
    czk_domain dom;
    czk_err e = czk_domain_init(&dom, asg->n_abc);
    if (e != CZK_OK) {
        SET_MSG("%zu constraint evaluations exceed the largest evaluation domain", asg->n_abc);
        czk_assignment_release(asg);
        return e;
    }
    size_t domain_n;
    if (params->device) { /* h … b_g2 are on a GPU (czk_backend_cuda_params_load) */
        SET_MSG("these parameters' queries are on a GPU: prove with the CUDA backend that loaded them");
        e = CZK_ERR_UNSUPPORTED;
        goto fail_early;
    }
    if ((e = czk_prove_check(params, asg, &domain_n, msg, msglen)) != CZK_OK) goto fail_early;
    czk_pending *p = czk_mem_alloc(sizeof *p, CZK_MEM_PENDING);
    if (!p) {
        e = CZK_ERR_NO_MEMORY;
        SET_MSG("out of memory");
        goto fail_early;
    }
    p->params = params;
    p->r = *r;
    p->s = *s;
    p->b_input_density = asg->b_input_density;
    p->b_aux_density = asg->b_aux_density;

    /* the witness plain, a, b, c from the compact R1CS where not given */
    if ((e = czk_assignment_unpack_aux(asg, pool)) != CZK_OK) {
        SET_MSG("out of memory unpacking the aux values");
        goto fail;
    }
    if ((e = czk_assignment_eval_abc(asg, false, pool)) != CZK_OK) {
        SET_MSG("evaluating a, b, c from the compact R1CS failed: %s", czk_err_str(e));
        goto fail;
    }
    /* H, then a, b, c are dead */
    if ((e = czk_assignment_unpack_abc(asg, dom.n, pool)) != CZK_OK) {
        SET_MSG("out of memory unpacking a, b, c");
        goto fail;
    }
    if ((e = widen(&asg->a, asg->n_abc, dom.n)) != CZK_OK || (e = widen(&asg->b, asg->n_abc, dom.n)) != CZK_OK ||
        (e = widen(&asg->c, asg->n_abc, dom.n)) != CZK_OK) {
        SET_MSG("out of memory widening a, b, c to the domain size %zu", dom.n);
        goto fail;
    }
    if ((e = czk_poly_h(&dom, asg->a, asg->b, asg->c, pool)) != CZK_OK) {
        SET_MSG("computing H failed: %s", czk_err_str(e));
        goto fail;
    }
    czk_mem_free(asg->b);
    czk_mem_free(asg->c);
    asg->b = asg->c = NULL;
    e = czk_msm_g1(&p->h_sum, params->h, asg->a, dom.n - 1, NULL, pool);
    czk_mem_free(asg->a);
    asg->a = NULL;
    if (e != CZK_OK) {
        SET_MSG("the H MSM failed: %s", czk_err_str(e));
        goto fail;
    }

    /* L, A and B in G1 */
    if ((e = czk_msm_g1(&p->l_sum, params->l, asg->aux, asg->n_aux, NULL, pool)) != CZK_OK ||
        (e = msm_split_g1(&p->a_sum, params->a, params->n_a, asg->input, asg->n_input, NULL, asg->aux, asg->n_aux,
                          asg->a_aux_density, pool)) != CZK_OK ||
        (e = msm_split_g1(&p->b_g1_sum, params->b_g1, params->n_b_g1, asg->input, asg->n_input,
                          asg->b_input_density, asg->aux, asg->n_aux, asg->b_aux_density, pool)) != CZK_OK) {
        SET_MSG("a G1 MSM failed: %s", czk_err_str(e));
        goto fail;
    }

    /* the witness is what finish still needs */
    p->input = asg->input;
    p->n_input = asg->n_input;
    p->aux = asg->aux;
    p->n_aux = asg->n_aux;
    asg->input = asg->aux = NULL;
    czk_domain_free(&dom);
    *out = p;
    return CZK_OK;

fail:
    czk_pending_destroy(p);
fail_early:
    czk_assignment_release(asg);
    czk_domain_free(&dom);
    return e;
}

/* k·P for any point of the curve (parameters read in trusted mode are not
 * known to be in the subgroup, where the endomorphism shortcut would apply). */
static void g1_mul(czk_g1 *r, const czk_g1 *p, const czk_fr *k) {
    uint64_t v[CZK_FR_LIMBS];
    czk_fr_to_canonical(v, k);
    czk_g1_mul(r, p, v, CZK_FR_LIMBS);
}

static void g2_mul(czk_g2 *r, const czk_g2 *p, const czk_fr *k) {
    uint64_t v[CZK_FR_LIMBS];
    czk_fr_to_canonical(v, k);
    czk_g2_mul(r, p, v, CZK_FR_LIMBS);
}

void czk_prove_assemble(czk_proof *out, const czk_vk *vk, const czk_prove_sums *sums, const czk_fr *r,
                        const czk_fr *s) {
    czk_g1 g_a, g_c, t, delta1, alpha1, beta1;
    czk_g2 g_b, delta2, beta2;
    czk_g1_from_affine(&delta1, &vk->delta_g1);
    czk_g1_from_affine(&alpha1, &vk->alpha_g1);
    czk_g1_from_affine(&beta1, &vk->beta_g1);
    czk_g2_from_affine(&delta2, &vk->delta_g2);
    czk_g2_from_affine(&beta2, &vk->beta_g2);

    /* A = rδ + α + Σa */
    g1_mul(&g_a, &delta1, r);
    czk_g1_add(&g_a, &g_a, &alpha1);
    czk_g1_add(&g_a, &g_a, &sums->a);
    /* B = sδ + β + Σb */
    g2_mul(&g_b, &delta2, s);
    czk_g2_add(&g_b, &g_b, &beta2);
    czk_g2_add(&g_b, &g_b, &sums->b_g2);
    /* C = sΣa + rΣb_g1 + rsδ + sα + rβ + Σh + Σl */
    czk_fr rs;
    czk_fr_mul(&rs, r, s);
    g1_mul(&g_c, &sums->a, s);
    g1_mul(&t, &sums->b_g1, r);
    czk_g1_add(&g_c, &g_c, &t);
    g1_mul(&t, &delta1, &rs);
    czk_g1_add(&g_c, &g_c, &t);
    g1_mul(&t, &alpha1, s);
    czk_g1_add(&g_c, &g_c, &t);
    g1_mul(&t, &beta1, r);
    czk_g1_add(&g_c, &g_c, &t);
    czk_g1_add(&g_c, &g_c, &sums->h);
    czk_g1_add(&g_c, &g_c, &sums->l);

    czk_g1_to_affine(&out->a, &g_a);
    czk_g2_to_affine(&out->b, &g_b);
    czk_g1_to_affine(&out->c, &g_c);
}

czk_err czk_prove_finish(czk_proof *out, czk_pending *p, czk_pool *pool, char *msg, size_t msglen) {
    const czk_params *params = p->params;
    const czk_vk *vk = &params->vk;
    czk_g2 b_sum, t2;
    size_t k = czk_bitmap_count(p->b_input_density);
    czk_err e = czk_msm_g2(&b_sum, params->b_g2, p->input, p->n_input, p->b_input_density, pool);
    if (e == CZK_OK) e = czk_msm_g2(&t2, params->b_g2 + k, p->aux, p->n_aux, p->b_aux_density, pool);
    if (e != CZK_OK) {
        SET_MSG("the B MSM in G2 failed: %s", czk_err_str(e));
        czk_pending_destroy(p);
        return e;
    }
    czk_g2_add(&b_sum, &b_sum, &t2);
    czk_mem_free(p->input);
    czk_mem_free(p->aux);
    p->input = p->aux = NULL;

    czk_prove_sums sums = {p->a_sum, p->b_g1_sum, p->h_sum, p->l_sum, b_sum};
    czk_prove_assemble(out, vk, &sums, &p->r, &p->s);
    czk_pending_destroy(p);
    return CZK_OK;
}

czk_err czk_prove(czk_proof *out, const czk_params *params, czk_assignment *asg, const czk_fr *r, const czk_fr *s,
                  czk_pool *pool, char *msg, size_t msglen) {
    czk_pending *p;
    czk_err e = czk_prove_start(&p, params, asg, r, s, pool, msg, msglen);
    if (e != CZK_OK) return e;
    return czk_prove_finish(out, p, pool, msg, msglen);
}
