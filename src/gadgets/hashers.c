/* czk — filecoin-hashers' Sha256Hasher and PoseidonHasher: domains, native
 * Merkle nodes (Algorithm::node / multi_node) and the circuit
 * hash_multi_leaf_circuit. See gadget_por.h. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "czk/gadget_por.h"
#include "czk/gadget_poseidon.h"
#include "czk/gadget_sha256.h"
#include "czk/gadget_uint32.h"
#include "gadget_internal.h"

void czk_sha256_domain_trim(uint8_t d[32]) { d[31] &= 0x3f; }

bool czk_domain_to_fr(czk_fr *out, const uint8_t d[32]) { return czk_fr_from_bytes_le(out, d); }

void czk_domain_from_fr(uint8_t d[32], const czk_fr *v) { czk_fr_to_bytes_le(d, v); }

czk_err czk_hasher_node(czk_hasher h, czk_fr *out, const czk_fr *children, unsigned n) {
    if (h == CZK_HASHER_POSEIDON) return czk_poseidon_hash(out, children, n);
    if (h != CZK_HASHER_SHA256 || (n != 2 && n != 4 && n != 8)) return CZK_ERR_INVALID_ARGUMENT;
    uint8_t buf[8 * 32], md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    for (unsigned i = 0; i < n; i++) czk_domain_from_fr(&buf[32 * i], &children[i]);
    if (EVP_Digest(buf, 32 * (size_t)n, md, &len, EVP_sha256(), NULL) != 1 || len != 32) return CZK_ERR_NO_MEMORY;
    czk_sha256_domain_trim(md);
    return czk_domain_to_fr(out, md) ? CZK_OK : CZK_ERR_NOT_CANONICAL; /* < 2^254: always canonical */
}

/* Sha256Function::hash_multi_leaf_circuit then hash_circuit. */
static czk_err sha256_multi_leaf(czk_cs *cs, czk_num *out, const czk_num *leaves, unsigned n) {
    czk_boolean *bits = malloc((size_t)n * 256 * sizeof *bits);
    if (!bits) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "sha256 hasher: out of memory");
    czk_err e = CZK_OK;
    czk_boolean le[256];
    for (unsigned i = 0; i < n && !e; i++) {
        czk_gadget_push_ns_idx(cs, "%ld_num_into_bits", (long)i);
        e = czk_num_to_bits_le(cs, le, &leaves[i]);
        czk_cs_pop_namespace(cs);
        le[255] = czk_boolean_constant(false);
        for (unsigned byte = 0; byte < 32; byte++)
            for (unsigned k = 0; k < 8; k++) bits[256 * i + 8 * byte + k] = le[8 * byte + 7 - k];
    }
    czk_boolean digest[256], packed[256];
    if (!e) {
        czk_cs_push_namespace(cs, "hash");
        e = czk_sha256(cs, digest, bits, (size_t)n * 256);
        czk_cs_pop_namespace(cs);
    }
    if (!e) {
        for (unsigned byte = 0; byte < 32; byte++)
            for (unsigned k = 0; k < 8; k++) packed[8 * byte + k] = digest[8 * byte + 7 - k];
        czk_cs_push_namespace(cs, "pack_le");
        e = czk_multipack_pack_bits(cs, out, packed, CZK_MULTIPACK_CAPACITY);
        czk_cs_pop_namespace(cs);
    }
    free(bits);
    return e;
}

czk_err czk_hasher_multi_leaf_circuit(czk_hasher h, czk_cs *cs, czk_num *out, const czk_num *leaves, unsigned n) {
    if (h == CZK_HASHER_POSEIDON) return czk_poseidon_hash_gadget(cs, out, leaves, n);
    if (h == CZK_HASHER_SHA256 && n >= 1 && n <= 16) return sha256_multi_leaf(cs, out, leaves, n);
    return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "hasher %d: unsupported arity %u", (int)h, n);
}
