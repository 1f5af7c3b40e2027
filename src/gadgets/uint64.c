/* czk — storage-proofs-core gadgets::uint64 (UInt64). See gadget_insert.h. */
#include "czk/gadget_insert.h"
#include "czk/gadget_uint32.h"
#include "gadget_internal.h"

czk_uint64 czk_uint64_constant(uint64_t value) {
    czk_uint64 r;
    for (int i = 0; i < 64; i++) r.bits[i] = czk_boolean_constant((value >> i) & 1);
    r.has_value = true;
    r.value = value;
    return r;
}

czk_err czk_uint64_alloc(czk_cs *cs, czk_uint64 *out, const uint64_t *value) {
    out->has_value = value != NULL;
    out->value = value ? *value : 0;
    for (int i = 0; i < 64; i++) {
        bool v = value ? (*value >> i) & 1 : false;
        czk_bit b;
        czk_gadget_push_ns_idx(cs, "allocated bit %ld", i);
        czk_err e = czk_bit_alloc(cs, &b, value ? &v : NULL);
        czk_cs_pop_namespace(cs);
        if (e) return e;
        out->bits[i] = czk_boolean_is(&b);
    }
    return CZK_OK;
}

void czk_uint64_to_bits_be(czk_boolean bits[64], const czk_uint64 *a) {
    for (int i = 0; i < 64; i++) bits[i] = a->bits[63 - i];
}

void czk_uint64_to_bits_le(czk_boolean bits[64], const czk_uint64 *a) {
    for (int i = 0; i < 64; i++) bits[i] = a->bits[i];
}

void czk_uint64_from_bits(czk_uint64 *out, const czk_boolean bits[64]) {
    czk_uint64 r;
    uint64_t v = 0;
    bool has = true;
    for (int i = 63; i >= 0; i--) {
        bool b = false;
        r.bits[i] = bits[i];
        if (!czk_boolean_value(&bits[i], &b)) has = false;
        v = v << 1 | (uint64_t)b;
    }
    r.has_value = has;
    r.value = has ? v : 0;
    *out = r;
}

void czk_uint64_from_bits_be(czk_uint64 *out, const czk_boolean bits[64]) {
    czk_boolean le[64];
    for (int i = 0; i < 64; i++) le[i] = bits[63 - i];
    czk_uint64_from_bits(out, le);
}

czk_err czk_uint64_pack_into_input(czk_cs *cs, const czk_uint64 *a) {
    return czk_multipack_pack_into_inputs(cs, a->bits, 64);
}
