/* czk — zcash encodings of G1 and G2 points (see g1.h for the error order).
 *
 * Byte 0 carries three flags: 0x80 compressed, 0x40 infinity, 0x20 "y is the
 * lexicographically larger root" (compressed, finite points only). A G1
 * coordinate is 48 bytes big-endian; a G2 coordinate is c1 ‖ c0. */
#include <string.h>

#include "czk/g1.h"
#include "czk/g2.h"

#define FLAG_COMPRESSED 0x80
#define FLAG_INFINITY 0x40
#define FLAG_SORT 0x20
#define FLAGS_MASK 0xe0

/* The checks that only look at the flags and the length. `form` is 0 (either
 * form: the flag decides, a length that does not match it is BAD_LENGTH), or
 * the length the caller requires (a flag that disagrees is COMPRESSION_FLAG).
 * On success *compressed and *infinity say what follows. */
static czk_err check_flags(const uint8_t *in, size_t len, size_t clen, size_t form, bool *compressed,
                           bool *infinity) {
    if (len == 0) return CZK_ERR_BAD_LENGTH;
    bool c = (in[0] & FLAG_COMPRESSED) != 0;
    if (form) {
        if (len != form) return CZK_ERR_BAD_LENGTH;
        if (c != (form == clen)) return CZK_ERR_COMPRESSION_FLAG;
    } else if (len != (c ? clen : 2 * clen)) {
        return CZK_ERR_BAD_LENGTH;
    }
    bool inf = (in[0] & FLAG_INFINITY) != 0;
    bool sort = (in[0] & FLAG_SORT) != 0;
    if (inf) {
        uint8_t any = in[0] & (uint8_t)~FLAGS_MASK;
        for (size_t i = 1; i < len; i++) any |= in[i];
        if (any) return CZK_ERR_INFINITY_NOT_ZERO;
        if (sort) return CZK_ERR_SORT_FLAG;
    } else if (sort && !c) {
        return CZK_ERR_SORT_FLAG;
    }
    *compressed = c;
    *infinity = inf;
    return CZK_OK;
}

/* ---- G1 --------------------------------------------------------------------- */

void czk_g1_to_compressed(uint8_t out[CZK_G1_COMPRESSED_BYTES], const czk_g1_affine *a) {
    if (czk_g1_affine_is_infinity(a)) {
        memset(out, 0, CZK_G1_COMPRESSED_BYTES);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    czk_fp_to_bytes_be(out, &a->x);
    out[0] |= FLAG_COMPRESSED;
    if (czk_fp_is_lexicographically_largest(&a->y)) out[0] |= FLAG_SORT;
}

void czk_g1_to_uncompressed(uint8_t out[CZK_G1_UNCOMPRESSED_BYTES], const czk_g1_affine *a) {
    if (czk_g1_affine_is_infinity(a)) {
        memset(out, 0, CZK_G1_UNCOMPRESSED_BYTES);
        out[0] = FLAG_INFINITY;
        return;
    }
    czk_fp_to_bytes_be(out, &a->x);
    czk_fp_to_bytes_be(out + CZK_FP_BYTES, &a->y);
}

/* noinline: once inlined into the fixed-length wrappers, GCC warns about the
 * uncompressed branch reading past a 48-byte array it can never reach. */
__attribute__((noinline)) static czk_err g1_decode(czk_g1_affine *r, const uint8_t *in, size_t len, size_t form, czk_decode_mode mode) {
    bool compressed, infinity;
    czk_err e = check_flags(in, len, CZK_G1_COMPRESSED_BYTES, form, &compressed, &infinity);
    if (e != CZK_OK) return e;
    czk_g1_affine p;
    if (infinity) {
        czk_g1_affine_set_infinity(&p);
        *r = p;
        return CZK_OK;
    }
    uint8_t buf[CZK_FP_BYTES];
    memcpy(buf, in, CZK_FP_BYTES);
    buf[0] &= (uint8_t)~FLAGS_MASK;
    if (!czk_fp_from_bytes_be(&p.x, buf)) return CZK_ERR_NOT_CANONICAL;
    if (compressed) {
        czk_fp rhs;
        czk_fp_sqr(&rhs, &p.x);
        czk_fp_mul(&rhs, &rhs, &p.x);
        czk_fp four;
        czk_fp_from_u64(&four, 4);
        czk_fp_add(&rhs, &rhs, &four);
        if (!czk_fp_sqrt(&p.y, &rhs)) return CZK_ERR_NOT_ON_CURVE;
        if (czk_fp_is_lexicographically_largest(&p.y) != ((in[0] & FLAG_SORT) != 0)) czk_fp_neg(&p.y, &p.y);
    } else {
        if (!czk_fp_from_bytes_be(&p.y, in + CZK_FP_BYTES)) return CZK_ERR_NOT_CANONICAL;
        if (!czk_g1_xy_on_curve(&p.x, &p.y)) return CZK_ERR_NOT_ON_CURVE;
    }
    if (mode != CZK_DECODE_TRUSTED && !czk_g1_affine_in_subgroup(&p)) return CZK_ERR_NOT_IN_SUBGROUP;
    *r = p;
    return CZK_OK;
}

czk_err czk_g1_decode(czk_g1_affine *r, const uint8_t *in, size_t len, czk_decode_mode mode) {
    return g1_decode(r, in, len, 0, mode);
}

czk_err czk_g1_decode_compressed(czk_g1_affine *r, const uint8_t in[CZK_G1_COMPRESSED_BYTES],
                                 czk_decode_mode mode) {
    return g1_decode(r, in, CZK_G1_COMPRESSED_BYTES, CZK_G1_COMPRESSED_BYTES, mode);
}

czk_err czk_g1_decode_uncompressed(czk_g1_affine *r, const uint8_t in[CZK_G1_UNCOMPRESSED_BYTES],
                                   czk_decode_mode mode) {
    return g1_decode(r, in, CZK_G1_UNCOMPRESSED_BYTES, CZK_G1_UNCOMPRESSED_BYTES, mode);
}

/* ---- G2 --------------------------------------------------------------------- */

#define FP2_BYTES (2 * CZK_FP_BYTES)

void czk_g2_to_compressed(uint8_t out[CZK_G2_COMPRESSED_BYTES], const czk_g2_affine *a) {
    if (czk_g2_affine_is_infinity(a)) {
        memset(out, 0, CZK_G2_COMPRESSED_BYTES);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    czk_fp2_to_bytes_be(out, &a->x);
    out[0] |= FLAG_COMPRESSED;
    if (czk_fp2_is_lexicographically_largest(&a->y)) out[0] |= FLAG_SORT;
}

void czk_g2_to_uncompressed(uint8_t out[CZK_G2_UNCOMPRESSED_BYTES], const czk_g2_affine *a) {
    if (czk_g2_affine_is_infinity(a)) {
        memset(out, 0, CZK_G2_UNCOMPRESSED_BYTES);
        out[0] = FLAG_INFINITY;
        return;
    }
    czk_fp2_to_bytes_be(out, &a->x);
    czk_fp2_to_bytes_be(out + FP2_BYTES, &a->y);
}

/* noinline: see g1_decode. */
__attribute__((noinline)) static czk_err g2_decode(czk_g2_affine *r, const uint8_t *in, size_t len, size_t form, czk_decode_mode mode) {
    bool compressed, infinity;
    czk_err e = check_flags(in, len, CZK_G2_COMPRESSED_BYTES, form, &compressed, &infinity);
    if (e != CZK_OK) return e;
    czk_g2_affine p;
    if (infinity) {
        czk_g2_affine_set_infinity(&p);
        *r = p;
        return CZK_OK;
    }
    uint8_t buf[FP2_BYTES];
    memcpy(buf, in, FP2_BYTES);
    buf[0] &= (uint8_t)~FLAGS_MASK;
    if (!czk_fp2_from_bytes_be(&p.x, buf)) return CZK_ERR_NOT_CANONICAL;
    if (compressed) {
        czk_fp2 rhs, b;
        czk_fp2_sqr(&rhs, &p.x);
        czk_fp2_mul(&rhs, &rhs, &p.x);
        czk_fp_from_u64(&b.c0, 4);
        b.c1 = b.c0;
        czk_fp2_add(&rhs, &rhs, &b);
        if (!czk_fp2_sqrt(&p.y, &rhs)) return CZK_ERR_NOT_ON_CURVE;
        if (czk_fp2_is_lexicographically_largest(&p.y) != ((in[0] & FLAG_SORT) != 0))
            czk_fp2_neg(&p.y, &p.y);
    } else {
        if (!czk_fp2_from_bytes_be(&p.y, in + FP2_BYTES)) return CZK_ERR_NOT_CANONICAL;
        if (!czk_g2_xy_on_curve(&p.x, &p.y)) return CZK_ERR_NOT_ON_CURVE;
    }
    if (mode != CZK_DECODE_TRUSTED && !czk_g2_affine_in_subgroup(&p)) return CZK_ERR_NOT_IN_SUBGROUP;
    *r = p;
    return CZK_OK;
}

czk_err czk_g2_decode(czk_g2_affine *r, const uint8_t *in, size_t len, czk_decode_mode mode) {
    return g2_decode(r, in, len, 0, mode);
}

czk_err czk_g2_decode_compressed(czk_g2_affine *r, const uint8_t in[CZK_G2_COMPRESSED_BYTES],
                                 czk_decode_mode mode) {
    return g2_decode(r, in, CZK_G2_COMPRESSED_BYTES, CZK_G2_COMPRESSED_BYTES, mode);
}

czk_err czk_g2_decode_uncompressed(czk_g2_affine *r, const uint8_t in[CZK_G2_UNCOMPRESSED_BYTES],
                                   czk_decode_mode mode) {
    return g2_decode(r, in, CZK_G2_UNCOMPRESSED_BYTES, CZK_G2_UNCOMPRESSED_BYTES, mode);
}
