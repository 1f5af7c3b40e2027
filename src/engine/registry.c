/* czk — circuits registered with the engine: their parameters, prover key
 * and prepared vk stay resident (charged to the budget) while registered,
 * and their per-partition memory estimate.
 *
 * One partition's reservation (bytes), with n_in inputs (ONE included),
 * n_aux aux variables, N = the evaluation domain (a power of two >=
 * constraints + inputs) and T = the pool's thread slots:
 *
 *   witness  = 32·(cap(n_in, hint_in) + cap(n_aux, hint_aux))
 *              cap(n, h) = the smallest 256·2^k >= max(n, h) (0 when both are
 *              0): the witness buffers double from 256 elements, starting at
 *              the synthesizer's hints (the profile's inputs and
 *              constraints for synthetic circuits)
 *   abc      = 3·N·32                        a, b, c sized for the domain; 0 when the
 *                                            backend evaluates them on its device from
 *                                            a compact prover key (device_abc)
 *   scratch  = max(czk_msm_aux_bytes(N, T, G1),     the H MSM (largest G1 MSM)
 *                  czk_msm_aux_bytes(n_in + n_aux, T, G2),  B in G2 (finish)
 *                  32·2^ceil(log2 N / 2)·(16·T + 8))        NTT column scratch
 *                                                            and twiddles
 *   pending  = 4096                          the pending state's own struct
 *   estimate = witness + abc + scratch + pending
 *
 * A backend that takes the witness packed (packed_witness) gets it so: the
 * reservation shrinks to the packed bytes plus the inputs once it is packed.
 * After start (a, b, c freed) the reservation shrinks to
 *   min(estimate, pending_bytes(handle) + czk_msm_aux_bytes(n_in + n_aux, T, G2) + 4096). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/msm.h"
#include "engine_internal.h"

#define PENDING_OVERHEAD 4096

static size_t vec_cap(size_t n, size_t hint) {
    size_t need = n > hint ? n : hint;
    if (!need) return 0;
    size_t cap = 256;
    while (cap < need) cap *= 2;
    return cap;
}

static size_t max3(size_t a, size_t b, size_t c) {
    size_t m = a > b ? a : b;
    return m > c ? m : c;
}

static size_t resident_of(const eng_circuit *c) {
    const czk_params *p = &c->params;
    size_t s = czk_mem_size(p->h) + czk_mem_size(p->l) + czk_mem_size(p->a) + czk_mem_size(p->b_g1) +
               czk_mem_size(p->b_g2) + czk_mem_size(p->vk.ic);
    s += czk_prover_key_bytes(&c->key);
    s += c->pvk.n_ic * sizeof(czk_g1_affine) + sizeof *c;
    return s;
}

static void estimate(eng_circuit *c, int slots, bool device_abc) {
    const czk_r1cs *r = &c->key.r1cs;
    size_t n_vars = r->n_inputs + r->n_aux;
    size_t witness = 32 * (vec_cap(r->n_inputs, c->c.profile.inputs) + vec_cap(r->n_aux, c->c.profile.constraints));
    size_t abc = device_abc ? 0 : 3 * c->domain * 32;
    unsigned lg = 0;
    while (((size_t)1 << lg) < c->domain) lg++;
    size_t ntt = 32 * ((size_t)1 << ((lg + 1) / 2)) * (16 * (size_t)slots + 8);
    size_t g2 = czk_msm_aux_bytes(n_vars, slots, true);
    size_t scratch = max3(czk_msm_aux_bytes(c->domain, slots, false), g2, ntt);
    c->est_bytes = witness + abc + scratch + PENDING_OVERHEAD;
    c->est_after_start = g2 + PENDING_OVERHEAD;
}

eng_circuit *eng_circuit_find(czk_engine *e, const char *id) {
    for (eng_circuit *c = e->circuits; c; c = c->next)
        if (!strcmp(c->c.id, id)) return c;
    return NULL;
}

/* Frees c's memory, then gives its charge back. */
void eng_circuit_free(czk_engine *e, eng_circuit *c) {
    czk_backend_forget(e->backend, &c->params);
    czk_prepared_vk_free(&c->pvk);
    czk_prover_key_free(&c->key);
    czk_params_free(&c->params);
    czk_budget_release(&c->resident);
    free(c);
}

size_t czk_engine_partition_estimate(czk_engine *e, const char *circuit_id) {
    pthread_mutex_lock(&e->mu);
    eng_circuit *c = circuit_id ? eng_circuit_find(e, circuit_id) : NULL;
    size_t v = c ? c->est_bytes : 0;
    pthread_mutex_unlock(&e->mu);
    return v;
}

static czk_err check_shapes(const czk_circuit *c, const czk_params *p, const czk_prover_key *k, size_t *domain,
                            char *msg, size_t msglen) {
    if (!c->id[0] || !memchr(c->id, 0, sizeof c->id) || !c->synthesize || c->partitions == 0) {
        ENG_MSG(msg, msglen, "the circuit needs an id, a synthesizer and at least one partition");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    const czk_r1cs *r = &k->r1cs;
    size_t rows = r->n_constraints + r->n_inputs, n = 1;
    while (n < rows) n *= 2;
    *domain = n;
    if (p->vk.n_ic != r->n_inputs || p->n_l != r->n_aux || p->n_h + 1 != n || k->a_aux.nbits != r->n_aux ||
        k->b_aux.nbits != r->n_aux || k->b_input.nbits != r->n_inputs) {
        ENG_MSG(msg, msglen,
                "the parameters (%zu inputs, %zu aux, domain %zu) do not belong to the prover key of '%s' "
                "(%zu inputs, %zu aux, domain %zu)",
                p->vk.n_ic, p->n_l, p->n_h + 1, c->id, r->n_inputs, r->n_aux, n);
        return CZK_ERR_MISMATCH;
    }
    return CZK_OK;
}

czk_err czk_engine_register_circuit(czk_engine *e, const czk_circuit *c, czk_params *params, czk_prover_key *key,
                                    char *msg, size_t msglen) {
    if (!e || !c || !params || !key) {
        ENG_MSG(msg, msglen, "NULL argument");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    size_t domain;
    czk_err err = check_shapes(c, params, key, &domain, msg, msglen);
    if (err != CZK_OK) return err;
    eng_circuit *ec = calloc(1, sizeof *ec);
    if (!ec) return CZK_ERR_NO_MEMORY;
    ec->c = *c;
    ec->domain = domain;
    ec->n_public = key->r1cs.n_inputs - 1;
    /* witness buffers sized once (czk_circuit_witness*'s hints): a circuit
     * without a profile (a PoRep partition: 130M aux) would otherwise grow
     * its buffers by doubling */
    if (!ec->c.profile.inputs && !ec->c.profile.constraints) {
        ec->c.profile.inputs = key->r1cs.n_inputs;
        ec->c.profile.constraints = key->r1cs.n_aux;
    }
    if ((err = czk_vk_prepare(&ec->pvk, &params->vk)) != CZK_OK) {
        ENG_MSG(msg, msglen, "preparing the verifying key failed: %s", czk_err_str(err));
        free(ec);
        return err;
    }
    ec->params = *params;
    ec->key = *key;
    ec->device_abc = czk_prover_key_is_compact(key) && e->backend->ops->device_abc;
    estimate(ec, czk_pool_slots(e->pool), ec->device_abc);
    ec->resident_bytes = resident_of(ec);

    pthread_mutex_lock(&e->reg_mu);
    pthread_mutex_lock(&e->mu);
    if (!e->accepting) {
        err = CZK_ERR_SHUTDOWN;
        ENG_MSG(msg, msglen, "the engine is shutting down");
    } else if (eng_circuit_find(e, c->id)) {
        err = CZK_ERR_INVALID_ARGUMENT;
        ENG_MSG(msg, msglen, "a circuit '%s' is already registered", c->id);
    } else {
        size_t largest = 0; /* what unfinished jobs still need room for */
        for (eng_circuit *x = e->circuits; x; x = x->next)
            if (x->users && x->est_bytes > largest) largest = x->est_bytes;
        size_t total = czk_budget_total(e->budget), need = e->resident_total + ec->resident_bytes + largest;
        if (need > total || need < largest) {
            err = CZK_ERR_NO_MEMORY;
            ENG_MSG(msg, msglen,
                    "circuit '%s' does not fit the budget: resident %zu MiB (parameters, R1CS) + already resident "
                    "%zu MiB + one partition of the jobs in flight %zu MiB > budget %zu MiB",
                    c->id, ec->resident_bytes >> 20, e->resident_total >> 20, largest >> 20, total >> 20);
        }
    }
    pthread_mutex_unlock(&e->mu);
    if (err == CZK_OK) {
        /* fits once in-flight partitions are done: wait for them if needed */
        err = czk_budget_reserve(e->budget, ec->resident_bytes, CZK_PRIO_CRITICAL, NULL, -1, &ec->resident, msg,
                                 msglen);
    }
    if (err != CZK_OK) {
        pthread_mutex_unlock(&e->reg_mu);
        czk_prepared_vk_free(&ec->pvk);
        free(ec); /* params and key are still the caller's */
        return err;
    }
    pthread_mutex_lock(&e->mu);
    ec->next = e->circuits;
    e->circuits = ec;
    e->resident_total += ec->resident_bytes;
    pthread_mutex_unlock(&e->mu);
    pthread_mutex_unlock(&e->reg_mu);
    memset(params, 0, sizeof *params);
    memset(key, 0, sizeof *key);
    return CZK_OK;
}

czk_err czk_engine_evict_circuit(czk_engine *e, const char *circuit_id, char *msg, size_t msglen) {
    if (!e || !circuit_id) return CZK_ERR_INVALID_ARGUMENT;
    pthread_mutex_lock(&e->mu);
    eng_circuit **pp = &e->circuits;
    while (*pp && strcmp((*pp)->c.id, circuit_id)) pp = &(*pp)->next;
    eng_circuit *c = *pp;
    if (!c) {
        pthread_mutex_unlock(&e->mu);
        ENG_MSG(msg, msglen, "no circuit '%s' is registered", circuit_id);
        return CZK_ERR_NOT_FOUND;
    }
    if (c->users) {
        size_t u = c->users;
        pthread_mutex_unlock(&e->mu);
        ENG_MSG(msg, msglen, "circuit '%s' is in use by %zu unfinished job(s)", circuit_id, u);
        return CZK_ERR_BUSY;
    }
    *pp = c->next;
    e->resident_total -= c->resident_bytes;
    pthread_mutex_unlock(&e->mu);
    eng_circuit_free(e, c);
    return CZK_OK;
}
