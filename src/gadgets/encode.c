/* czk — storage-proofs-core's encode / decode (gadget_encode.h). */
#include "czk/gadget_encode.h"

czk_err czk_encode(czk_cs *cs, czk_num *out, const czk_num *key, const czk_num *value) {
    czk_cs_push_namespace(cs, "encode_add");
    czk_err e = czk_constraint_add(cs, out, key, value);
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err czk_decode(czk_cs *cs, czk_num *out, const czk_num *key, const czk_num *value) {
    czk_cs_push_namespace(cs, "decode_sub");
    czk_err e = czk_constraint_sub(cs, out, value, key);
    czk_cs_pop_namespace(cs);
    return e;
}
