/* czk — neptune 11's legacy Poseidon circuit (src/circuit.rs: Elt,
 * PoseidonCircuit::{hash, full_round, partial_round, product_mds*},
 * quintic_s_box, quintic_s_box_pre_add, constant_quintic_s_box_pre_add_tag,
 * square_sum, mul_sum, scalar_product). See gadget_poseidon.h. */
#include <string.h>

#include "czk/gadget_poseidon.h"
#include "gadget_internal.h"

#define W CZK_POSEIDON_MAX_WIDTH

/* neptune's Elt: an AllocatedNum, or a Num (an LC and its value). The LC is
 * built only when the constraint system needs LCs. */
typedef struct {
    bool allocated;
    czk_var var; /* allocated only */
    czk_lc lc;   /* Num only */
    bool has_value;
    czk_fr value;
} elt;

typedef struct {
    czk_cs *cs;
    const czk_poseidon_constants *c;
    bool lcs;
    elt e[W];
    czk_lc la, lb, lc; /* scratch for one constraint */
    czk_lc r[W];       /* scratch for the MDS products */
    unsigned round;    /* current_round, for the choice of matrix */
    size_t off;        /* constants_offset */
} pcirc;

static void set_allocated(elt *x, const czk_num *n) {
    x->allocated = true;
    x->var = n->var;
    x->has_value = n->has_value;
    x->value = n->value;
}

static czk_err alloc_num(pcirc *p, czk_num *out, const char *ns, bool has, const czk_fr *v) {
    out->has_value = has;
    if (has) out->value = *v;
    else czk_fr_set_zero(&out->value);
    czk_cs_push_namespace(p->cs, ns);
    czk_err e = czk_cs_alloc(p->cs, &out->var, "num", has ? v : NULL);
    czk_cs_pop_namespace(p->cs);
    return e;
}

static void enforce(pcirc *p, const char *name, const czk_lc *a, const czk_lc *b, const czk_lc *c) {
    if (p->lcs) czk_cs_enforce(p->cs, name, a, b, c);
    else czk_cs_enforce(p->cs, name, NULL, NULL, NULL);
}

static void scratch_clear(pcirc *p) {
    czk_lc_clear(&p->la);
    czk_lc_clear(&p->lb);
    czk_lc_clear(&p->lc);
}

/* Elt::ensure_allocated(cs, enforce = true): an Allocated passes through; a
 * Num gets aux "allocate for Elt::Num" and "enforce num allocation preserves
 * lc": lc · ONE = v. */
static czk_err ensure_allocated(pcirc *p, czk_num *out, const elt *x) {
    if (x->allocated) {
        out->var = x->var;
        out->has_value = x->has_value;
        out->value = x->value;
        return CZK_OK;
    }
    czk_err e = alloc_num(p, out, "allocate for Elt::Num", x->has_value, &x->value);
    if (e) return e;
    if (p->lcs) {
        scratch_clear(p);
        czk_lc_add(&p->lb, CZK_VAR_ONE, NULL);
        czk_lc_add(&p->lc, out->var, NULL);
    }
    enforce(p, "enforce num allocation preserves lc", &x->lc, &p->lb, &p->lc);
    return CZK_OK;
}

/* square_sum: aux "squared sum" = (l + k)², "squared sum constraint":
 * (l + k·ONE) · (l + k·ONE) = res. */
static czk_err square_sum(pcirc *p, czk_num *out, const czk_fr *k, const czk_num *l) {
    czk_fr v = {{0}};
    if (l->has_value) {
        czk_fr_add(&v, &l->value, k);
        czk_fr_sqr(&v, &v);
    }
    czk_err e = alloc_num(p, out, "squared sum", l->has_value, &v);
    if (e) return e;
    if (p->lcs) {
        scratch_clear(p);
        czk_lc_add(&p->la, l->var, NULL);
        czk_lc_add(&p->la, CZK_VAR_ONE, k);
        czk_lc_add(&p->lc, out->var, NULL);
    }
    enforce(p, "squared sum constraint", &p->la, &p->la, &p->lc);
    return CZK_OK;
}

/* mul_sum(a, b, pre, post): aux "mul_sum" = a·(b + pre) + post, constraint
 * (b + pre·ONE) · a = res − post·ONE (each sum only when its key is given). */
static czk_err mul_sum(pcirc *p, czk_num *out, const czk_num *a, const czk_num *b, const czk_fr *pre,
                       const czk_fr *post) {
    bool has = a->has_value && b->has_value;
    czk_fr v = {{0}};
    if (has) {
        v = b->value;
        if (pre) czk_fr_add(&v, &v, pre);
        czk_fr_mul(&v, &v, &a->value);
        if (post) czk_fr_add(&v, &v, post);
    }
    czk_err e = alloc_num(p, out, "mul_sum", has, &v);
    if (e) return e;
    if (p->lcs) {
        scratch_clear(p);
        czk_lc_add(&p->la, b->var, NULL);
        if (pre) czk_lc_add(&p->la, CZK_VAR_ONE, pre);
        czk_lc_add(&p->lb, a->var, NULL);
        czk_lc_add(&p->lc, out->var, NULL);
        if (post) {
            czk_fr neg;
            czk_fr_neg(&neg, post);
            czk_lc_add(&p->lc, CZK_VAR_ONE, &neg);
        }
    }
    const char *name = post ? (pre ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                            : (pre ? "mul sum constraint pre-add" : "mul sum constraint");
    enforce(p, name, &p->la, &p->lb, &p->lc);
    return CZK_OK;
}

static czk_err squared(pcirc *p, czk_num *out, const char *ns, const czk_num *x) {
    czk_cs_push_namespace(p->cs, ns);
    czk_err e = czk_num_square(p->cs, out, x);
    czk_cs_pop_namespace(p->cs);
    return e;
}

/* quintic_s_box(e, post): l = ensure_allocated(e) ("S-box input"),
 * l² ("l^2"), l⁴ ("l^4"), l⁵ + post ("(l4 * l) + rk)"). */
static czk_err quintic_s_box(pcirc *p, elt *x, const czk_fr *post) {
    czk_num l, l2, l4, l5;
    czk_err e;
    czk_cs_push_namespace(p->cs, "S-box input");
    e = ensure_allocated(p, &l, x);
    czk_cs_pop_namespace(p->cs);
    if (e || (e = squared(p, &l2, "l^2", &l)) || (e = squared(p, &l4, "l^4", &l2))) return e;
    czk_cs_push_namespace(p->cs, "(l4 * l) + rk)");
    e = mul_sum(p, &l5, &l4, &l, NULL, post);
    czk_cs_pop_namespace(p->cs);
    if (e) return e;
    set_allocated(x, &l5);
    return CZK_OK;
}

/* quintic_s_box_pre_add(e, pre, post): (l + pre)² ("(l+rk)^2"), its square
 * ("l^4"), l⁴·(l + pre) + post ("l4 * (l + rk)"). */
static czk_err quintic_s_box_pre_add(pcirc *p, elt *x, const czk_fr *pre, const czk_fr *post) {
    czk_num l, l2, l4, l5;
    czk_err e;
    czk_cs_push_namespace(p->cs, "S-box input");
    e = ensure_allocated(p, &l, x);
    czk_cs_pop_namespace(p->cs);
    if (e) return e;
    czk_cs_push_namespace(p->cs, "(l+rk)^2");
    e = square_sum(p, &l2, pre, &l);
    czk_cs_pop_namespace(p->cs);
    if (e || (e = squared(p, &l4, "l^4", &l2))) return e;
    czk_cs_push_namespace(p->cs, "l4 * (l + rk)");
    e = mul_sum(p, &l5, &l4, &l, pre, post);
    czk_cs_pop_namespace(p->cs);
    if (e) return e;
    set_allocated(x, &l5);
    return CZK_OK;
}

/* Elt::num_from_fr: the Num v·ONE. */
static void set_constant(pcirc *p, elt *x, const czk_fr *v) {
    x->allocated = false;
    x->has_value = true;
    x->value = *v;
    if (p->lcs) {
        czk_lc_clear(&x->lc);
        czk_lc_add(&x->lc, CZK_VAR_ONE, v);
    }
}

/* acc (+)= s·x, as Elt::scale then Num::add: each of x's coefficients times
 * s merged into the accumulator. Values are tracked in *val. */
static void add_scaled(pcirc *p, czk_lc *acc, bool *has, czk_fr *val, const elt *x, const czk_fr *s) {
    if (p->lcs) {
        if (x->allocated) czk_lc_add(acc, x->var, s);
        else czk_lc_add_lc(acc, &x->lc, s);
    }
    if (*has && x->has_value) {
        czk_fr t;
        czk_fr_mul(&t, &x->value, s);
        czk_fr_add(val, val, &t);
    } else {
        *has = false;
    }
}

/* product_mds_with_matrix: e_j = scalar_product(e, column j), all Nums. The
 * results are built in p->r's LCs, then swapped with the elements' (so LC
 * memory is reused from round to round). */
static void product_dense(pcirc *p, const czk_fr (*m)[W]) {
    unsigned t = p->c->width;
    bool has[W];
    czk_fr val[W];
    for (unsigned j = 0; j < t; j++) {
        has[j] = true;
        czk_fr_set_zero(&val[j]);
        czk_lc_clear(&p->r[j]);
        for (unsigned i = 0; i < t; i++) add_scaled(p, &p->r[j], &has[j], &val[j], &p->e[i], &m[i][j]);
    }
    for (unsigned j = 0; j < t; j++) {
        elt *x = &p->e[j];
        czk_lc tmp = x->lc;
        x->lc = p->r[j];
        p->r[j] = tmp;
        x->allocated = false;
        x->has_value = has[j];
        x->value = val[j];
    }
}

/* product_mds_with_sparse_matrix: e_0 = scalar_product(e, w_hat);
 * e_j = e_j + v_rest[j-1]·e_0 (e_j a Num). */
static czk_err product_sparse(pcirc *p, const czk_fr *w_hat, const czk_fr *v_rest) {
    unsigned t = p->c->width;
    bool has0 = true;
    czk_fr val0;
    czk_fr_set_zero(&val0);
    czk_lc_clear(&p->r[0]);
    for (unsigned i = 0; i < t; i++) add_scaled(p, &p->r[0], &has0, &val0, &p->e[i], &w_hat[i]);
    for (unsigned j = 1; j < t; j++) {
        elt *x = &p->e[j];
        if (x->allocated) /* neptune panics: "only two numbers may be added" */
            return czk_cs_error(p->cs, CZK_ERR_SYNTHESIS, "poseidon: sparse product on an allocated element");
        add_scaled(p, &x->lc, &x->has_value, &x->value, &p->e[0], &v_rest[j - 1]);
    }
    elt *x = &p->e[0];
    czk_lc tmp = x->lc;
    x->lc = p->r[0];
    p->r[0] = tmp;
    x->allocated = false;
    x->has_value = has0;
    x->value = val0;
    return CZK_OK;
}

/* PoseidonCircuit::product_mds: the pre-sparse matrix after the last initial
 * full round, sparse matrices after the partial rounds, M otherwise. */
static czk_err product_mds(pcirc *p) {
    const czk_poseidon_constants *c = p->c;
    unsigned h = c->half_full_rounds, round = p->round++;
    if (round == h - 1) product_dense(p, (const czk_fr(*)[W])c->pre_sparse);
    else if (round > h - 1 && round < h + c->partial_rounds)
        return product_sparse(p, c->sparse_w_hat[round - h], c->sparse_v_rest[round - h]);
    else product_dense(p, (const czk_fr(*)[W])c->mds);
    return CZK_OK;
}

/* PoseidonCircuit::full_round */
static czk_err full_round(pcirc *p, bool first, bool last) {
    const czk_poseidon_constants *c = p->c;
    unsigned t = c->width;
    const czk_fr *pre = first ? &c->compressed_round_constants[p->off] : NULL;
    if (first) p->off += t;
    const czk_fr *post = (first || !last) ? &c->compressed_round_constants[p->off] : NULL;
    if (post) p->off += t;
    for (unsigned i = 0; i < t; i++) {
        czk_err e = CZK_OK;
        if (first && i == 0) {
            /* constant_quintic_s_box_pre_add_tag: (tag + pre)^5 + post, a constant */
            czk_fr v, s;
            czk_fr_add(&v, &p->e[0].value, &pre[0]);
            czk_fr_sqr(&s, &v);
            czk_fr_sqr(&s, &s);
            czk_fr_mul(&v, &v, &s);
            czk_fr_add(&v, &v, &post[0]);
            set_constant(p, &p->e[0], &v);
            continue;
        }
        czk_gadget_push_ns_idx(p->cs, "quintic s-box %ld", (long)i);
        if (first) e = quintic_s_box_pre_add(p, &p->e[i], &pre[i], &post[i]);
        else e = quintic_s_box(p, &p->e[i], post ? &post[i] : NULL);
        czk_cs_pop_namespace(p->cs);
        if (e) return e;
    }
    return product_mds(p);
}

/* PoseidonCircuit::partial_round */
static czk_err partial_round(pcirc *p) {
    const czk_fr *k = &p->c->compressed_round_constants[p->off++];
    czk_cs_push_namespace(p->cs, "solitary quintic s-box");
    czk_err e = quintic_s_box(p, &p->e[0], k);
    czk_cs_pop_namespace(p->cs);
    return e ? e : product_mds(p);
}

static czk_err run(pcirc *p, czk_num *out) {
    const czk_poseidon_constants *c = p->c;
    czk_err e;
    czk_cs *cs = p->cs;
    czk_cs_push_namespace(cs, "first round");
    e = full_round(p, true, false);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    for (unsigned i = 1; i < c->half_full_rounds; i++) {
        czk_gadget_push_ns_idx(cs, "initial full round %ld", (long)i);
        e = full_round(p, false, false);
        czk_cs_pop_namespace(cs);
        if (e) return e;
    }
    for (unsigned i = 0; i < c->partial_rounds; i++) {
        czk_gadget_push_ns_idx(cs, "partial round %ld", (long)i);
        e = partial_round(p);
        czk_cs_pop_namespace(cs);
        if (e) return e;
    }
    for (unsigned i = 0; i + 1 < c->half_full_rounds; i++) {
        czk_gadget_push_ns_idx(cs, "final full round %ld", (long)i);
        e = full_round(p, false, false);
        czk_cs_pop_namespace(cs);
        if (e) return e;
    }
    czk_cs_push_namespace(cs, "terminal full round");
    e = full_round(p, false, true);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_cs_push_namespace(cs, "hash result");
    e = ensure_allocated(p, out, &p->e[1]);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err czk_poseidon_hash_gadget_with(czk_cs *cs, czk_num *out, const czk_num *preimage,
                                      const czk_poseidon_constants *c) {
    pcirc p;
    memset(&p, 0, sizeof p);
    p.cs = cs;
    p.c = c;
    p.lcs = czk_cs_needs_lc(cs);
    set_constant(&p, &p.e[0], &c->domain_tag);
    for (unsigned i = 0; i < c->arity; i++) set_allocated(&p.e[i + 1], &preimage[i]);
    czk_err e = run(&p, out);
    for (unsigned i = 0; i < c->width; i++) czk_lc_free(&p.e[i].lc);
    czk_lc_free(&p.la);
    czk_lc_free(&p.lb);
    czk_lc_free(&p.lc);
    for (unsigned i = 0; i < W; i++) czk_lc_free(&p.r[i]);
    return e;
}

czk_err czk_poseidon_hash_gadget(czk_cs *cs, czk_num *out, const czk_num *preimage, unsigned n) {
    const czk_poseidon_constants *c = czk_poseidon_constants_get(n);
    if (!c) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "poseidon: unsupported arity %u", n);
    return czk_poseidon_hash_gadget_with(cs, out, preimage, c);
}

size_t czk_poseidon_gadget_constraints(unsigned n) {
    unsigned rf, rp;
    if (!czk_poseidon_round_numbers(n, &rf, &rp)) return 0;
    size_t t = n + 1, sboxes = t * rf + rp - 1;
    return 3 * sboxes + t * rf + rp - n;
}
