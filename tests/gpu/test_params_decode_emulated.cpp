/* czk — the device decoder of params points (src/gpu/params_decode.cuh, the
 * PTX emulated, ptx_emulated.h) against the host decoder
 * (czk_g1/g2_decode_uncompressed, trusted) on random G1 and G2 points and
 * on mutations of them (a flipped bit anywhere, each flag, the point at
 * infinity, coordinates at and above p): the same verdict (the host's
 * error, or infinity, which a query refuses), and for accepted points the
 * same 96 / 192 bytes of affine Montgomery coordinates (so FP_R2 is the
 * host's CZK_FP_R2). Without the on-curve check an off-curve point passes.
 * CZK_TEST_SEED repeats the points. */
#include <stdio.h>
#include <string.h>

#include "ptx_emulated.h"

#include "../../src/gpu/params_decode.cuh"

extern "C" {
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/rng.h"
#include "test.h"
}

static long checks;

static int reason_of(czk_err e, bool infinity) {
    switch (e) {
    case CZK_OK: return infinity ? CZK_GPU_PARAMS_BAD_INFINITY : 0;
    case CZK_ERR_COMPRESSION_FLAG: return CZK_GPU_PARAMS_BAD_COMPRESSION;
    case CZK_ERR_INFINITY_NOT_ZERO: return CZK_GPU_PARAMS_BAD_INFINITY_NOT_ZERO;
    case CZK_ERR_SORT_FLAG: return CZK_GPU_PARAMS_BAD_SORT;
    case CZK_ERR_NOT_CANONICAL: return CZK_GPU_PARAMS_BAD_NOT_CANONICAL;
    case CZK_ERR_NOT_ON_CURVE: return CZK_GPU_PARAMS_BAD_NOT_ON_CURVE;
    default: return -1;
    }
}

/* One G1 encoding through both decoders. */
static void one_g1(const uint8_t enc[96], const char *what, long k) {
    czk_g1_affine h;
    const czk_err e = czk_g1_decode_uncompressed(&h, enc, CZK_DECODE_TRUSTED);
    const int want = reason_of(e, e == CZK_OK && czk_g1_affine_is_infinity(&h));
    uint32_t w[24];
    memcpy(w, enc, 96);
    fp_t x, y;
    const int got = params_decode_g1(w, x, y, 1);
    checks++;
    CHECK_MSG(got == want, "G1 %s %ld: device %d, host %d (%s)", what, k, got, want, czk_err_str(e));
    if (got == 0 && want == 0) {
        uint8_t d[96];
        memcpy(d, &x, 48);
        memcpy(d + 48, &y, 48);
        CHECK_MSG(!memcmp(d, &h, 96), "G1 %s %ld: coordinates differ", what, k);
    }
    if (want == CZK_GPU_PARAMS_BAD_NOT_ON_CURVE) /* unchecked: accepted */
        CHECK_MSG(params_decode_g1(w, x, y, 0) == 0, "G1 %s %ld: refused without the curve check", what, k);
}

static void one_g2(const uint8_t enc[192], const char *what, long k) {
    czk_g2_affine h;
    const czk_err e = czk_g2_decode_uncompressed(&h, enc, CZK_DECODE_TRUSTED);
    const int want = reason_of(e, e == CZK_OK && czk_g2_affine_is_infinity(&h));
    uint32_t w[48];
    memcpy(w, enc, 192);
    fp2_t x, y;
    const int got = params_decode_g2(w, x, y, 1);
    checks++;
    CHECK_MSG(got == want, "G2 %s %ld: device %d, host %d (%s)", what, k, got, want, czk_err_str(e));
    if (got == 0 && want == 0) {
        uint8_t d[192];
        memcpy(d, &x, 96);
        memcpy(d + 96, &y, 96);
        CHECK_MSG(!memcmp(d, &h, 192), "G2 %s %ld: coordinates differ", what, k);
    }
    if (want == CZK_GPU_PARAMS_BAD_NOT_ON_CURVE)
        CHECK_MSG(params_decode_g2(w, x, y, 0) == 0, "G2 %s %ld: refused without the curve check", what, k);
}

/* p as 48 big-endian bytes at out. */
static void modulus_be(uint8_t *out) {
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++) out[47 - (8 * i + j)] = (uint8_t)(CZK_FP_MODULUS.l[i] >> (8 * j));
}

/* The same mutations of a valid encoding of len bytes (a coordinate at
 * each 48). */
template <class F> static void mutations(const uint8_t *enc, size_t len, czk_rng *rng, long k, F one) {
    uint8_t m[192];
    one(enc, "valid", k);
    for (int t = 0; t < 4; t++) { /* a flipped bit anywhere */
        memcpy(m, enc, len);
        const uint64_t r = czk_rng_next(rng);
        m[r % len] ^= (uint8_t)(1u << ((r >> 16) % 8));
        one(m, "bit flip", k);
    }
    const uint8_t flags[] = {0x80, 0x40, 0x20, 0x60, 0xc0, 0xe0};
    for (size_t f = 0; f < sizeof flags; f++) {
        memcpy(m, enc, len);
        m[0] |= flags[f];
        one(m, "flag", k);
        memset(m, 0, len); /* an infinity encoding, with the flag set */
        m[0] = flags[f];
        one(m, "infinity", k);
        m[len - 1] = 1;
        one(m, "infinity with a bit", k);
    }
    for (size_t c = 0; c < len; c += 48) { /* each coordinate = p, and all ones */
        memcpy(m, enc, len);
        modulus_be(m + c);
        one(m, "coordinate p", k);
        memset(m + c, 0xff, 48);
        m[0] &= 0x1f;
        one(m, "coordinate 2^381-1", k);
    }
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_params_decode_emulated");
    const long n = test_cases(40);
    for (long k = 0; k < n; k++) {
        czk_fr s;
        czk_fr_random(&s, &rng);
        czk_g1 p1, g1;
        czk_g1_from_affine(&g1, &CZK_G1_GENERATOR);
        czk_g1_mul_fr(&p1, &g1, &s);
        czk_g1_affine a1;
        czk_g1_to_affine(&a1, &p1);
        uint8_t e1[96];
        czk_g1_to_uncompressed(e1, &a1);
        mutations(e1, 96, &rng, k, one_g1);
        czk_g2 p2, g2;
        czk_g2_from_affine(&g2, &CZK_G2_GENERATOR);
        czk_g2_mul_fr(&p2, &g2, &s);
        czk_g2_affine a2;
        czk_g2_to_affine(&a2, &p2);
        uint8_t e2[192];
        czk_g2_to_uncompressed(e2, &a2);
        mutations(e2, 192, &rng, k, one_g2);
    }
    printf("test_params_decode_emulated: %ld encodings\n", checks);
    return test_finish("test_params_decode_emulated");
}
