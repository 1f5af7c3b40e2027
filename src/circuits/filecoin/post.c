/* czk — storage-proofs-post fallback/circuit.rs: FallbackPoStCircuit and
 * Sector::synthesize, and the shapes the circuit depends on.
 *
 * rust-fil-proofs synthesizes this circuit two ways: synthesize_default
 * (here) where the constraint system is not extensible, as in the
 * parameter generator (KeypairAssembly), and synthesize_extendable in the
 * prover (ProvingAssignment, extensible): sectors in chunks, each chunk in
 * a fresh constraint system whose first input is a "temp ONE" = 1, the
 * chunks then appended in order by extend, which drops that first input
 * and concatenates the rest. Within a chunk the sectors run in order and
 * the chunks are appended in order, so the inputs, aux variables and
 * constraints are the default's in the default's order; a chunk's
 * constraints that name its temp ONE (input 0) name ONE after the append;
 * only namespaces differ (no "outer namespace", sector_i counted within
 * the chunk), and they never reach the R1CS. Both give this R1CS and
 * witness. */
#include <stdio.h>
#include <string.h>

#include "czk/circuit_post.h"
#include "czk/gadget_poseidon.h"
#include "porep_internal.h"

static unsigned log2_u64(uint64_t x) { return (unsigned)(63 - __builtin_clzll(x)); }
static bool arity_ok(unsigned a) { return a == 2 || a == 4 || a == 8; }

void czk_post_shape_from_proof(czk_post_shape *out, const czk_fil_post_proof *p) {
    memset(out, 0, sizeof *out);
    out->nodes = p->sector_size / 32;
    out->sectors = p->circuit_sector_count;
    out->challenges = p->circuit_challenge_count;
    out->tree_base = p->tree_base;
    out->tree_sub = p->tree_sub;
    out->tree_top = p->tree_top;
}

/* leaves of one base tree */
static uint64_t base_leaves(const czk_post_shape *s) {
    uint64_t n = s->nodes;
    if (s->tree_sub) n /= s->tree_sub;
    if (s->tree_top) n /= s->tree_top;
    return n;
}

czk_err czk_post_shape_check(const czk_post_shape *s, char *msg, size_t msglen) {
    const char *why = NULL;
    if (!s->sectors || s->sectors >= (1u << 24)) why = "sectors must be in [1, 2^24)";
    else if (!s->challenges || s->challenges >= (1u << 24)) why = "challenges must be in [1, 2^24)";
    else if (!arity_ok(s->tree_base)) why = "base arity must be 2, 4 or 8";
    else if (s->tree_sub && !arity_ok(s->tree_sub)) why = "sub-tree arity must be 0, 2, 4 or 8";
    else if (s->tree_top && !arity_ok(s->tree_top)) why = "top-tree arity must be 0, 2, 4 or 8";
    else if (s->tree_top && !s->tree_sub) why = "a top tree needs a sub tree";
    else if (s->nodes < 2 || s->nodes > ((uint64_t)1 << 32) || (s->nodes & (s->nodes - 1)))
        why = "nodes must be a power of two in [2, 2^32]";
    else {
        uint64_t n = base_leaves(s);
        unsigned b = log2_u64(s->tree_base);
        if (n < 2 || (n & (n - 1)) || log2_u64(n) % b ||
            n * (s->tree_sub ? s->tree_sub : 1) * (s->tree_top ? s->tree_top : 1) != s->nodes)
            why = "nodes do not split into whole base trees of the base arity";
    }
    if (!why) return CZK_OK;
    if (msg && msglen) snprintf(msg, msglen, "PoSt shape: %s", why);
    return CZK_ERR_INVALID_ARGUMENT;
}

size_t czk_post_input_count(const czk_post_shape *s) { return 1 + (size_t)s->sectors * (1 + (size_t)s->challenges); }

static void tree_shape(const czk_post_shape *s, czk_por_shape *out) {
    memset(out, 0, sizeof *out);
    out->hasher = CZK_HASHER_POSEIDON;
    out->base_arity = s->tree_base;
    out->sub_arity = s->tree_sub;
    out->top_arity = s->tree_top;
    out->base_levels = log2_u64(base_leaves(s)) / log2_u64(s->tree_base);
}

size_t czk_post_path_levels(const czk_post_shape *s) {
    czk_por_shape t;
    tree_shape(s, &t);
    return czk_por_path_len(&t);
}

/* AllocatedNum::alloc in namespace ns of a 32-byte value (NULL: unknown). */
static czk_err alloc_value(czk_cs *cs, czk_num *out, const char *ns, const uint8_t *bytes) {
    czk_fr v;
    czk_err e = bytes ? porep_domain_value(cs, &v, bytes, ns) : CZK_OK;
    if (e) return e;
    czk_cs_push_namespace(cs, ns);
    e = czk_num_alloc(cs, out, bytes ? &v : NULL);
    czk_cs_pop_namespace(cs);
    return e;
}

/* The challenged leaf a path opens: Σ index_l · Π_{k<l} arity_k. */
static uint64_t path_challenge(const czk_fil_path *p) {
    uint64_t c = 0, w = 1;
    for (size_t l = 0; l < p->n_levels; l++) {
        c += w * p->levels[l].index;
        w *= p->levels[l].arity;
    }
    return c;
}

/* What Sector::synthesize asserts and what the circuit reads, before any
 * allocation: the counts and arrays (the paths' levels are checked by
 * porep_enforce_inclusion_val). */
static czk_err sector_check(czk_cs *cs, const czk_post_shape *s, const czk_fil_post_sector *in, size_t i) {
    if (in->n_challenges != s->challenges || !in->leaves || !in->paths)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "PoSt sector %zu (id %llu) has %zu challenges, the circuit %u",
                            i, (unsigned long long)in->sector_id, in->n_challenges, s->challenges);
    if (!in->challenges) return CZK_OK;
    for (size_t j = 0; j < in->n_challenges; j++)
        if (in->paths[j].levels && in->paths[j].n_levels <= 64 && path_challenge(&in->paths[j]) != in->challenges[j])
            return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT,
                                "PoSt sector %zu (id %llu) challenge %zu: the path opens leaf %llu, not %llu", i,
                                (unsigned long long)in->sector_id, j,
                                (unsigned long long)path_challenge(&in->paths[j]),
                                (unsigned long long)in->challenges[j]);
    return CZK_OK;
}

/* Sector::synthesize (in NULL: Sector::blank_circuit). 3 + 311 + 1 constraints
 * (inputize, Poseidon2, the comm_r equality) plus one PoRCircuit per challenge. */
static czk_err sector_synthesize(czk_cs *cs, const czk_post_shape *s, const czk_por_shape *tree,
                                 const czk_fil_post_sector *in) {
    czk_num comm_r_last, comm_c, comm_r, hash;
    czk_err e = alloc_value(cs, &comm_r_last, "comm_r_last", in ? in->comm_r_last : NULL);
    if (!e) e = alloc_value(cs, &comm_c, "comm_c", in ? in->comm_c : NULL);
    if (!e) e = alloc_value(cs, &comm_r, "comm_r", in ? in->comm_r : NULL);
    if (!e) {
        czk_cs_push_namespace(cs, "comm_r_input");
        e = czk_num_inputize(cs, &comm_r);
        czk_cs_pop_namespace(cs);
    }
    if (!e) {
        const czk_num pre[2] = {comm_c, comm_r_last}; /* hash2_circuit(comm_c, comm_r_last) */
        czk_cs_push_namespace(cs, "H_comm_c_comm_r_last");
        e = czk_poseidon_hash_gadget(cs, &hash, pre, 2);
        czk_cs_pop_namespace(cs);
    }
    if (e) return e;
    czk_num_enforce_equal(cs, "enforce_comm_c_comm_r_last_hash_comm_r", &comm_r, &hash);

    for (uint32_t j = 0; j < s->challenges && !e; j++) {
        czk_fr leaf;
        if (in) e = porep_domain_value(cs, &leaf, in->leaves[j], "a challenged leaf");
        if (e) break;
        char ns[48] = "";
        if (czk_cs_get_mode(cs) == CZK_CS_CHECK) snprintf(ns, sizeof ns, "challenge_inclusion_%u", j);
        e = porep_enforce_inclusion_val(cs, ns, tree, in ? &in->paths[j] : NULL, &comm_r_last, in ? &leaf : NULL);
    }
    return e;
}

/* What czk_post_synthesize checks before it allocates anything. */
static czk_err post_check(czk_cs *cs, const czk_post_shape *shape, const czk_fil_post_partition *in) {
    char msg[160];
    czk_err e = czk_post_shape_check(shape, msg, sizeof msg);
    if (e) return czk_cs_error(cs, e, "%s", msg);
    czk_cs_mode mode = czk_cs_get_mode(cs);
    if (!in && mode != CZK_CS_RECORD && mode != CZK_CS_COUNT)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the blank PoSt circuit has no witness");
    if (in && (!in->n_sectors || in->n_sectors > shape->sectors || !in->sectors))
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "the PoSt partition has %zu sectors, the circuit %u",
                            in->n_sectors, shape->sectors);
    for (size_t i = 0; in && i < in->n_sectors; i++)
        if ((e = sector_check(cs, shape, &in->sectors[i], i))) return e;
    return CZK_OK;
}

/* Sector i of the circuit, in its namespace (the caller is in "outer namespace"). */
static czk_err sector_at(czk_cs *cs, const czk_post_shape *shape, const czk_por_shape *tree,
                         const czk_fil_post_partition *in, uint32_t i) {
    const czk_fil_post_sector *sec = NULL;
    if (in) sec = &in->sectors[i < in->n_sectors ? i : in->n_sectors - 1];
    porep_push_ns_idx(cs, "sector_%ld", (long)i);
    czk_err e = sector_synthesize(cs, shape, tree, sec);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err czk_post_synthesize(czk_cs *cs, const czk_post_shape *shape, const czk_fil_post_partition *in) {
    czk_err e = post_check(cs, shape, in);
    if (e) return e;
    czk_por_shape tree;
    tree_shape(shape, &tree);
    czk_cs_push_namespace(cs, "outer namespace");
    for (uint32_t i = 0; i < shape->sectors && !e; i++) e = sector_at(cs, shape, &tree, in, i);
    czk_cs_pop_namespace(cs);
    return e;
}

/* ---- the witness with the sectors in parallel ---------------------------------- */

typedef struct {
    const czk_post_shape *shape;
    czk_por_shape tree;
    const czk_fil_post_partition *in;
} post_parts;

/* Part i of czk_witness_generate_parts: sector i (part 0 checks the input
 * first, as czk_post_synthesize does before sector 0). */
static czk_err post_part(czk_cs *cs, void *ctx, size_t i) {
    const post_parts *x = ctx;
    czk_err e = i == 0 ? post_check(cs, x->shape, x->in) : CZK_OK;
    if (e) return e;
    czk_cs_push_namespace(cs, "outer namespace");
    e = sector_at(cs, x->shape, &x->tree, x->in, (uint32_t)i);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err czk_post_witness(czk_witness *out, const czk_post_shape *shape, const czk_fil_post_partition *in,
                         czk_pool *pool, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    czk_err e = czk_post_shape_check(shape, msg, msglen);
    if (e) return e;
    if (!in) {
        if (msg && msglen) snprintf(msg, msglen, "the blank PoSt circuit has no witness");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    post_parts x = {.shape = shape, .in = in};
    tree_shape(shape, &x.tree);
    return czk_witness_generate_parts(out, post_part, &x, shape->sectors, pool, msg, msglen);
}
