/* czk — stacked/circuit/create_label.rs create_label_circuit, and the bit
 * order helper the labeling uses (storage-proofs-core util.rs
 * reverse_bit_numbering over AllocatedNum::to_bits_le). */
#include <stdlib.h>

#include "czk/gadget_sha256.h"
#include "porep_internal.h"

/* id | layer ‖ node | 37 parents, 32 bytes each */
#define LABEL_BITS ((2 + POREP_TOTAL_PARENTS) * 256)

czk_err porep_num_to_bits_reversed(czk_cs *cs, czk_boolean out[256], const czk_num *a) {
    czk_boolean le[256];
    czk_err e = czk_num_to_bits_le(cs, le, a);
    if (e) return e;
    le[255] = czk_boolean_constant(false);
    for (unsigned byte = 0; byte < 32; byte++)
        for (unsigned k = 0; k < 8; k++) out[8 * byte + k] = le[8 * byte + 7 - k];
    return CZK_OK;
}

czk_err porep_create_label(czk_cs *cs, czk_num *out, const czk_boolean replica_id[256],
                           const czk_boolean *const parents[POREP_TOTAL_PARENTS], uint32_t layer,
                           const czk_uint64 *node) {
    czk_boolean *bits = malloc(LABEL_BITS * sizeof *bits);
    if (!bits) return czk_cs_error(cs, CZK_ERR_NO_MEMORY, "create_label: out of memory");
    size_t n = 0;
    for (unsigned i = 0; i < 256; i++) bits[n++] = replica_id[i];
    czk_uint32 layer_word = czk_uint32_constant(layer);
    czk_uint32_into_bits_be(bits + n, &layer_word);
    n += 32;
    czk_uint64_to_bits_be(bits + n, node);
    n += 64;
    while (n < 512) bits[n++] = czk_boolean_constant(false);
    for (unsigned p = 0; p < POREP_TOTAL_PARENTS; p++)
        for (unsigned i = 0; i < 256; i++) bits[n++] = parents[p][i];

    czk_boolean digest[256], rev[256];
    czk_cs_push_namespace(cs, "hash");
    czk_err e = czk_sha256(cs, digest, bits, LABEL_BITS);
    czk_cs_pop_namespace(cs);
    free(bits);
    if (e) return e;
    for (unsigned byte = 0; byte < 32; byte++)
        for (unsigned k = 0; k < 8; k++) rev[8 * byte + k] = digest[8 * byte + 7 - k];
    czk_cs_push_namespace(cs, "result_num");
    e = czk_multipack_pack_bits(cs, out, rev, CZK_MULTIPACK_CAPACITY);
    czk_cs_pop_namespace(cs);
    return e;
}
