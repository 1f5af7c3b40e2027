/* czk — gadget test circuits, one gadget each, for `czk circuit info ID` and
 * for proving a gadget alone. The seed picks the witness; no public inputs
 * besides ONE, so the constraint count is the gadget's own (plus the
 * allocation constraints of its inputs where they are bits):
 *   gadget-sha256-block   512 allocated bits, sha256_block_no_padding from the IV
 *                         (512 boolean constraints + 25,840)
 *   gadget-sha256-512     512 allocated bits, sha256 of the 512-bit message
 *                         (512 + 44,874)
 *   gadget-poseidon-N     N = 2, 4, 8, 11: N allocated numbers, neptune's
 *                         poseidon_hash (311 / 377 / 505 / 598)
 *   gadget-insert-N       N = 2, 4, 8: the element, N - 1 allocated numbers and
 *                         log2 N allocated index bits, storage-proofs'
 *                         insertion (log2 N + 2 / 8 / 22) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits.h"
#include "czk/gadget_insert.h"
#include "czk/gadget_poseidon.h"
#include "czk/gadget_sha256.h"

static void seed_rng(czk_rng *rng, uint64_t seed, size_t partition) {
    czk_rng_seed(rng, seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)partition) ^ 0x6761646765740000ULL);
}

/* The number after the last '-' of the id (the gadget's size). */
static unsigned id_size(const char *id) {
    const char *d = strrchr(id, '-');
    return d ? (unsigned)strtoul(d + 1, NULL, 10) : 0;
}

static czk_err alloc_bits(czk_cs *cs, czk_boolean *out, size_t n, czk_rng *rng) {
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 64 == 0) w = czk_rng_next(rng);
        bool b = (w >> (i % 64)) & 1;
        czk_bit bit;
        czk_err e = czk_bit_alloc(cs, &bit, &b);
        if (e) return e;
        out[i] = czk_boolean_is(&bit);
    }
    return CZK_OK;
}

static czk_err sha256_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    czk_rng rng;
    seed_rng(&rng, seed, partition);
    czk_boolean in[512], out[256];
    czk_cs_push_namespace(cs, "input");
    czk_err e = alloc_bits(cs, in, 512, &rng);
    czk_cs_pop_namespace(cs);
    if (e) return e;
    czk_cs_push_namespace(cs, "sha256");
    if (!strcmp(c->id, "gadget-sha256-block")) e = czk_sha256_block_no_padding(cs, out, in);
    else e = czk_sha256(cs, out, in, 512);
    czk_cs_pop_namespace(cs);
    return e;
}

static czk_err poseidon_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    unsigned n = id_size(c->id);
    if (n < CZK_POSEIDON_MIN_ARITY || n > CZK_POSEIDON_MAX_ARITY)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "%s: bad arity", c->id);
    czk_rng rng;
    seed_rng(&rng, seed, partition);
    czk_num in[CZK_POSEIDON_MAX_ARITY], out;
    czk_err e;
    for (unsigned i = 0; i < n; i++) {
        czk_fr v;
        czk_fr_random(&v, &rng);
        if ((e = czk_num_alloc(cs, &in[i], &v))) return e;
    }
    czk_cs_push_namespace(cs, "poseidon");
    e = czk_poseidon_hash_gadget(cs, &out, in, n);
    czk_cs_pop_namespace(cs);
    return e;
}

static czk_err insert_synthesize(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed) {
    unsigned n = id_size(c->id), nbits = n == 2 ? 1 : n == 4 ? 2 : n == 8 ? 3 : 0;
    if (!nbits) return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "%s: bad size", c->id);
    czk_rng rng;
    seed_rng(&rng, seed, partition);
    czk_num elt, siblings[7], out[8];
    czk_boolean bits[3];
    czk_err e;
    czk_fr v;
    czk_fr_random(&v, &rng);
    if ((e = czk_num_alloc(cs, &elt, &v))) return e;
    for (unsigned i = 0; i + 1 < n; i++) {
        czk_fr_random(&v, &rng);
        if ((e = czk_num_alloc(cs, &siblings[i], &v))) return e;
    }
    if ((e = alloc_bits(cs, bits, nbits, &rng))) return e;
    czk_cs_push_namespace(cs, "insert");
    e = czk_insert(cs, out, &elt, bits, nbits, siblings, n - 1);
    czk_cs_pop_namespace(cs);
    return e;
}

bool czk_gadget_circuit_lookup(czk_circuit *out, const char *id) {
    if (!strcmp(id, "gadget-sha256-block") || !strcmp(id, "gadget-sha256-512")) {
        out->synthesize = sha256_synthesize;
        return true;
    }
    if (!strcmp(id, "gadget-poseidon-2") || !strcmp(id, "gadget-poseidon-4") || !strcmp(id, "gadget-poseidon-8") ||
        !strcmp(id, "gadget-poseidon-11")) {
        out->synthesize = poseidon_synthesize;
        return true;
    }
    if (!strcmp(id, "gadget-insert-2") || !strcmp(id, "gadget-insert-4") || !strcmp(id, "gadget-insert-8")) {
        out->synthesize = insert_synthesize;
        return true;
    }
    return false;
}
