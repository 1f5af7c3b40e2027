/* czk — stacked/circuit/proof.rs StackedCircuit::synthesize: the public
 * replica_id, comm_d and comm_r, the private comm_r_last and comm_c,
 * comm_r = H(comm_c, comm_r_last), then one Proof::synthesize per challenge
 * (challenge.c); and the shapes the circuit depends on. */
#include <stdio.h>
#include <string.h>

#include "czk/gadget_poseidon.h"
#include "porep_internal.h"

static unsigned log2_u64(uint64_t x) { return (unsigned)(63 - __builtin_clzll(x)); }
static bool arity_ok(unsigned a) { return a == 2 || a == 4 || a == 8; }

void czk_porep_shape_from_proof(czk_porep_shape *out, const czk_fil_seal_proof *p) {
    memset(out, 0, sizeof *out);
    out->nodes = p->nodes;
    out->layers = p->layers;
    out->challenges = p->challenges_per_partition;
    out->tree_base = p->tree_base;
    out->tree_sub = p->tree_sub;
    out->tree_top = p->tree_top;
}

/* leaves of one base tree */
static uint64_t base_leaves(const czk_porep_shape *s) {
    uint64_t n = s->nodes;
    if (s->tree_sub) n /= s->tree_sub;
    if (s->tree_top) n /= s->tree_top;
    return n;
}

czk_err czk_porep_shape_check(const czk_porep_shape *s, char *msg, size_t msglen) {
    const char *why = NULL;
    if (s->layers != 2 && s->layers != 11) why = "layers must be 2 or 11 (hash_single_column)";
    else if (!s->challenges) why = "no challenges";
    else if (!arity_ok(s->tree_base)) why = "base arity must be 2, 4 or 8";
    else if (s->tree_sub && !arity_ok(s->tree_sub)) why = "sub-tree arity must be 0, 2, 4 or 8";
    else if (s->tree_top && !arity_ok(s->tree_top)) why = "top-tree arity must be 0, 2, 4 or 8";
    else if (s->tree_top && !s->tree_sub) why = "a top tree needs a sub tree";
    else if (s->nodes < 2 || s->nodes > ((uint64_t)1 << 32) || (s->nodes & (s->nodes - 1)))
        why = "nodes must be a power of two in [2, 2^32]";
    else {
        uint64_t n = base_leaves(s);
        unsigned b = log2_u64(s->tree_base);
        if (n < 2 || (n & (n - 1)) || log2_u64(n) % b || n * (s->tree_sub ? s->tree_sub : 1) *
                                                                 (s->tree_top ? s->tree_top : 1) != s->nodes)
            why = "nodes do not split into whole base trees of the base arity";
    }
    if (!why) return CZK_OK;
    if (msg && msglen) snprintf(msg, msglen, "PoRep shape: %s", why);
    return CZK_ERR_INVALID_ARGUMENT;
}

size_t czk_porep_input_count(const czk_porep_shape *s) { return 4 + 18 * (size_t)s->challenges; }

size_t czk_porep_base_levels(const czk_porep_shape *s) {
    return log2_u64(base_leaves(s)) / log2_u64(s->tree_base);
}

size_t czk_porep_tree_d_levels(const czk_porep_shape *s) { return log2_u64(s->nodes); }

/* AllocatedNum::alloc in namespace ns of a 32-byte value (bytes NULL:
 * unknown), optionally inputized in namespace input_ns. */
static czk_err alloc_root(czk_cs *cs, czk_num *out, const char *ns, const uint8_t *bytes, const char *input_ns) {
    czk_fr v;
    czk_err e = bytes ? porep_domain_value(cs, &v, bytes, ns) : CZK_OK;
    if (e) return e;
    czk_cs_push_namespace(cs, ns);
    e = czk_num_alloc(cs, out, bytes ? &v : NULL);
    czk_cs_pop_namespace(cs);
    if (e || !input_ns) return e;
    czk_cs_push_namespace(cs, input_ns);
    e = czk_num_inputize(cs, out);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err czk_porep_synthesize(czk_cs *cs, const czk_porep_shape *shape, const czk_fil_porep_partition *in) {
    char msg[160];
    czk_err e = czk_porep_shape_check(shape, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_cs_mode mode = czk_cs_get_mode(cs);
    if (!in && mode != CZK_CS_RECORD && mode != CZK_CS_COUNT)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the blank PoRep circuit has no witness");
    if (in && (in->n_challenges != shape->challenges || !in->challenges))
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the partition has %zu challenges, the circuit %u",
                            in->n_challenges, shape->challenges);

    czk_num replica_id, comm_d, comm_r, comm_r_last, comm_c, hash;
    czk_boolean replica_id_bits[256];
    e = alloc_root(cs, &replica_id, "replica_id", in ? in->replica_id : NULL, "replica_id_input");
    if (!e) {
        czk_cs_push_namespace(cs, "replica_id_bits");
        e = porep_num_to_bits_reversed(cs, replica_id_bits, &replica_id);
        czk_cs_pop_namespace(cs);
    }
    if (!e) e = alloc_root(cs, &comm_d, "comm_d", in ? in->comm_d : NULL, "comm_d_input");
    if (!e) e = alloc_root(cs, &comm_r, "comm_r", in ? in->comm_r : NULL, "comm_r_input");
    if (!e) e = alloc_root(cs, &comm_r_last, "comm_r_last", in ? in->comm_r_last : NULL, NULL);
    if (!e) e = alloc_root(cs, &comm_c, "comm_c", in ? in->comm_c : NULL, NULL);
    if (!e) {
        const czk_num pre[2] = {comm_c, comm_r_last};
        czk_cs_push_namespace(cs, "H_comm_c_comm_r_last");
        e = czk_poseidon_hash_gadget(cs, &hash, pre, 2);
        czk_cs_pop_namespace(cs);
    }
    if (e) return e;
    czk_num_enforce_equal(cs, "enforce comm_r = H(comm_c || comm_r_last)", &comm_r, &hash);

    for (uint32_t i = 0; i < shape->challenges && !e; i++) {
        porep_push_ns_idx(cs, "challenge_%ld", (long)i);
        e = porep_challenge_synthesize(cs, shape, in ? &in->challenges[i] : NULL, &comm_d, &comm_c, &comm_r_last,
                                       replica_id_bits);
        czk_cs_pop_namespace(cs);
    }
    return e;
}
