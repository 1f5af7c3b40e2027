/* czk — storage-proofs-core's gadgets::encode: the labelling encoding of
 * PoRep replicas in-circuit. encode(key, value) = key + value and
 * decode(key, value) = value - key, each one aux variable and one
 * constraint (constraint::add in namespace "encode_add", constraint::sub in
 * "decode_sub"; see gadget_num.h). */
#ifndef CZK_GADGET_ENCODE_H
#define CZK_GADGET_ENCODE_H

#include "czk/gadget_num.h"

czk_err czk_encode(czk_cs *cs, czk_num *out, const czk_num *key, const czk_num *value);
czk_err czk_decode(czk_cs *cs, czk_num *out, const czk_num *key, const czk_num *value);

#endif
