/* zcash point encodings: every malformed input gets its exact error code, for
 * G1 and G2, and the output point is untouched on error. */
#include <string.h>

#include "czk/g1.h"
#include "czk/g2.h"
#include "test.h"

#define NAME "test_encoding"

/* One group, seen through untyped wrappers so that the cases are written once.
 * A coordinate is `fe` bytes (48 or 96); fe is also the compressed length. */
typedef struct {
    const char *name;
    size_t fe;
    czk_err (*decode)(void *r, const uint8_t *in, size_t len, czk_decode_mode m);
    czk_err (*decode_c)(void *r, const uint8_t *in, czk_decode_mode m);
    czk_err (*decode_u)(void *r, const uint8_t *in, czk_decode_mode m);
    void (*enc_c)(uint8_t *out, const void *a);
    void (*enc_u)(uint8_t *out, const void *a);
    bool (*is_inf)(const void *a);
    /* generator, a point on the curve outside the subgroup, -generator */
    void (*gen)(void *a);
    void (*outside)(void *a, czk_rng *rng);
    void (*neg)(void *r, const void *a);
    /* writes a canonical x (fe bytes, no flags) with x^3 + b not a square */
    void (*x_no_sqrt)(uint8_t *out);
    size_t psize;
} group;

/* ---- G1 wrappers ----------------------------------------------------------- */
static czk_err g1_dec(void *r, const uint8_t *in, size_t len, czk_decode_mode m) { return czk_g1_decode(r, in, len, m); }
static czk_err g1_dec_c(void *r, const uint8_t *in, czk_decode_mode m) { return czk_g1_decode_compressed(r, in, m); }
static czk_err g1_dec_u(void *r, const uint8_t *in, czk_decode_mode m) { return czk_g1_decode_uncompressed(r, in, m); }
static void g1_enc_c(uint8_t *o, const void *a) { czk_g1_to_compressed(o, a); }
static void g1_enc_u(uint8_t *o, const void *a) { czk_g1_to_uncompressed(o, a); }
static bool g1_inf(const void *a) { return czk_g1_affine_is_infinity(a); }
static void g1_gen(void *a) { *(czk_g1_affine *)a = CZK_G1_GENERATOR; }
static void g1_neg(void *r, const void *a) { czk_g1_affine_neg(r, a); }
static void g1_outside(void *out, czk_rng *rng) {
    czk_fp x, y, rhs, b;
    czk_fp_from_u64(&b, 4);
    for (;;) {
        czk_fp_random(&x, rng);
        czk_fp_sqr(&rhs, &x);
        czk_fp_mul(&rhs, &rhs, &x);
        czk_fp_add(&rhs, &rhs, &b);
        if (!czk_fp_sqrt(&y, &rhs)) continue;
        czk_g1_affine a = {x, y};
        if (czk_g1_affine_in_subgroup(&a)) continue;
        *(czk_g1_affine *)out = a;
        return;
    }
}
static void g1_x_no_sqrt(uint8_t *out) {
    czk_fp x, rhs, b;
    czk_fp_from_u64(&b, 4);
    for (uint64_t v = 0;; v++) {
        czk_fp_from_u64(&x, v);
        czk_fp_sqr(&rhs, &x);
        czk_fp_mul(&rhs, &rhs, &x);
        czk_fp_add(&rhs, &rhs, &b);
        if (czk_fp_legendre(&rhs) == -1) break;
    }
    czk_fp_to_bytes_be(out, &x);
}

/* ---- G2 wrappers ----------------------------------------------------------- */
static czk_err g2_dec(void *r, const uint8_t *in, size_t len, czk_decode_mode m) { return czk_g2_decode(r, in, len, m); }
static czk_err g2_dec_c(void *r, const uint8_t *in, czk_decode_mode m) { return czk_g2_decode_compressed(r, in, m); }
static czk_err g2_dec_u(void *r, const uint8_t *in, czk_decode_mode m) { return czk_g2_decode_uncompressed(r, in, m); }
static void g2_enc_c(uint8_t *o, const void *a) { czk_g2_to_compressed(o, a); }
static void g2_enc_u(uint8_t *o, const void *a) { czk_g2_to_uncompressed(o, a); }
static bool g2_inf(const void *a) { return czk_g2_affine_is_infinity(a); }
static void g2_gen(void *a) { *(czk_g2_affine *)a = CZK_G2_GENERATOR; }
static void g2_neg(void *r, const void *a) { czk_g2_affine_neg(r, a); }
static void g2_b(czk_fp2 *b) {
    czk_fp_from_u64(&b->c0, 4);
    b->c1 = b->c0;
}
static void g2_outside(void *out, czk_rng *rng) {
    czk_fp2 x, y, rhs, b;
    g2_b(&b);
    for (;;) {
        czk_fp2_random(&x, rng);
        czk_fp2_sqr(&rhs, &x);
        czk_fp2_mul(&rhs, &rhs, &x);
        czk_fp2_add(&rhs, &rhs, &b);
        if (!czk_fp2_sqrt(&y, &rhs)) continue;
        czk_g2_affine a = {x, y};
        if (czk_g2_affine_in_subgroup(&a)) continue;
        *(czk_g2_affine *)out = a;
        return;
    }
}
static void g2_x_no_sqrt(uint8_t *out) {
    czk_fp2 x, rhs, b;
    g2_b(&b);
    czk_fp2_set_zero(&x);
    for (uint64_t v = 0;; v++) {
        czk_fp_from_u64(&x.c0, v);
        czk_fp2_sqr(&rhs, &x);
        czk_fp2_mul(&rhs, &rhs, &x);
        czk_fp2_add(&rhs, &rhs, &b);
        if (czk_fp2_legendre(&rhs) == -1) break;
    }
    czk_fp2_to_bytes_be(out, &x);
}

static const group GROUPS[2] = {
    {"G1", 48, g1_dec, g1_dec_c, g1_dec_u, g1_enc_c, g1_enc_u, g1_inf, g1_gen, g1_outside, g1_neg,
     g1_x_no_sqrt, sizeof(czk_g1_affine)},
    {"G2", 96, g2_dec, g2_dec_c, g2_dec_u, g2_enc_c, g2_enc_u, g2_inf, g2_gen, g2_outside, g2_neg,
     g2_x_no_sqrt, sizeof(czk_g2_affine)},
};

/* ---- the checks ------------------------------------------------------------ */

#define MAXB 192
typedef union {
    czk_g1_affine g1;
    czk_g2_affine g2;
    uint8_t bytes[sizeof(czk_g2_affine)];
} any_point;

static const group *G;

/* decode (either form) must give want, and leave r untouched on error. */
static void expect(const uint8_t *in, size_t len, czk_err want, czk_decode_mode mode, int line) {
    any_point r;
    memset(&r, 0xa5, sizeof r);
    czk_err got = G->decode(&r, in, len, mode);
    CHECK_MSG(got == want, "%s line %d: got %s (%d), want %s (%d)", G->name, line, czk_err_str(got), got,
              czk_err_str(want), want);
    if (want != CZK_OK) {
        any_point s;
        memset(&s, 0xa5, sizeof s);
        CHECK_MSG(memcmp(&r, &s, sizeof r) == 0, "%s line %d: output written on error", G->name, line);
    }
    /* the form-specific decoder agrees when the length is that form's */
    if (len == G->fe || len == 2 * G->fe) {
        memset(&r, 0xa5, sizeof r);
        bool comp_flag = len && (in[0] & 0x80);
        bool form_c = len == G->fe;
        czk_err w2 = comp_flag != form_c ? CZK_ERR_COMPRESSION_FLAG : want;
        got = form_c ? G->decode_c(&r, in, mode) : G->decode_u(&r, in, mode);
        CHECK_MSG(got == w2, "%s line %d (form-specific): got %s, want %s", G->name, line, czk_err_str(got),
                  czk_err_str(w2));
        if (w2 != CZK_OK) {
            any_point s;
            memset(&s, 0xa5, sizeof s);
            CHECK_MSG(memcmp(&r, &s, sizeof r) == 0, "%s line %d: output written on error", G->name, line);
        }
    }
}
#define EXPECT(in, len, want) expect(in, len, want, CZK_DECODE_CHECKED, __LINE__)

/* Writes p + add as 48 bytes big-endian. */
static void write_p(uint8_t *out, uint64_t add) {
    uint64_t l[6];
    memcpy(l, CZK_FP_MODULUS.l, sizeof l);
    unsigned __int128 c = add;
    for (int i = 0; i < 6; i++) {
        c += l[i];
        l[i] = (uint64_t)c;
        c >>= 64;
    }
    for (int i = 0; i < 48; i++) out[i] = (uint8_t)(l[5 - i / 8] >> (56 - 8 * (i % 8)));
}

static void run_group(const group *grp, czk_rng *rng) {
    G = grp;
    const size_t fe = G->fe, c = fe, u = 2 * fe;
    any_point g, ng, o, r;
    uint8_t cg[MAXB], ug[MAXB], b[MAXB + 8];
    G->gen(&g);
    G->neg(&ng, &g);
    G->enc_c(cg, &g);
    G->enc_u(ug, &g);

    /* valid inputs, both forms, both roots, infinity */
    EXPECT(cg, c, CZK_OK);
    EXPECT(ug, u, CZK_OK);
    G->enc_c(b, &ng);
    CHECK((b[0] & 0x20) != (cg[0] & 0x20));
    EXPECT(b, c, CZK_OK);
    CHECK(G->decode(&r, b, c, CZK_DECODE_CHECKED) == CZK_OK && memcmp(&r, &ng, G->psize) == 0);
    memset(b, 0, u);
    b[0] = 0xc0;
    EXPECT(b, c, CZK_OK);
    CHECK(G->decode(&o, b, c, CZK_DECODE_CHECKED) == CZK_OK && G->is_inf(&o));
    b[0] = 0x40;
    EXPECT(b, u, CZK_OK);
    CHECK(G->decode(&o, b, u, CZK_DECODE_CHECKED) == CZK_OK && G->is_inf(&o));

    /* wrong lengths: the 0x80 flag names the form, the length must match it */
    EXPECT(cg, 0, CZK_ERR_BAD_LENGTH);
    EXPECT(cg, 1, CZK_ERR_BAD_LENGTH);
    EXPECT(cg, c - 1, CZK_ERR_BAD_LENGTH);
    memcpy(b, cg, c);
    memset(b + c, 0, u - c + 1);
    EXPECT(b, c + 1, CZK_ERR_BAD_LENGTH);
    EXPECT(b, u, CZK_ERR_BAD_LENGTH);          /* compressed flag, uncompressed length */
    EXPECT(ug, u - 1, CZK_ERR_BAD_LENGTH);
    memcpy(b, ug, u);
    b[u] = 0;
    EXPECT(b, u + 1, CZK_ERR_BAD_LENGTH);
    EXPECT(ug, c, CZK_ERR_BAD_LENGTH);         /* flag clear, compressed length */
    /* form-specific decoders: the flag names the other form */
    memset(&r, 0xa5, sizeof r);
    CHECK(G->decode_c(&r, ug, CZK_DECODE_CHECKED) == CZK_ERR_COMPRESSION_FLAG);
    memcpy(b, cg, c);
    memset(b + c, 0, c);
    CHECK(G->decode_u(&r, b, CZK_DECODE_CHECKED) == CZK_ERR_COMPRESSION_FLAG);
    {
        any_point s;
        memset(&s, 0xa5, sizeof s);
        CHECK(memcmp(&r, &s, sizeof r) == 0);
    }

    /* infinity with stray bits, in byte 0 and in later bytes, both forms */
    for (int form = 0; form < 2; form++) {
        size_t len = form ? u : c;
        uint8_t f = form ? 0x40 : 0xc0;
        memset(b, 0, len);
        b[0] = f | 0x01;
        EXPECT(b, len, CZK_ERR_INFINITY_NOT_ZERO);
        b[0] = f | 0x10;
        EXPECT(b, len, CZK_ERR_INFINITY_NOT_ZERO);
        b[0] = f;
        b[len - 1] = 1;
        EXPECT(b, len, CZK_ERR_INFINITY_NOT_ZERO);
        b[len - 1] = 0;
        b[1] = 0x80;
        EXPECT(b, len, CZK_ERR_INFINITY_NOT_ZERO);
        b[1] = 0;
        b[len / 2] = 0x01;   /* second half (G2: x.c0, uncompressed: y) */
        EXPECT(b, len, CZK_ERR_INFINITY_NOT_ZERO);
        /* the generator's coordinates with the infinity flag */
        memcpy(b, form ? ug : cg, len);
        b[0] |= 0x40;
        EXPECT(b, len, CZK_ERR_INFINITY_NOT_ZERO);
        /* stray bits and 0x20: stray bits come first */
        memset(b, 0, len);
        b[0] = f | 0x20;
        b[len - 1] = 1;
        EXPECT(b, len, CZK_ERR_INFINITY_NOT_ZERO);
    }

    /* 0x20 on uncompressed and on infinity */
    memcpy(b, ug, u);
    b[0] |= 0x20;
    EXPECT(b, u, CZK_ERR_SORT_FLAG);
    memset(b, 0, u);
    b[0] = 0xe0;
    EXPECT(b, c, CZK_ERR_SORT_FLAG);
    b[0] = 0x60;
    EXPECT(b, u, CZK_ERR_SORT_FLAG);
    /* 0x20 on uncompressed beats a non-canonical x */
    memset(b, 0xff, u);
    b[0] = 0x3f;
    EXPECT(b, u, CZK_ERR_SORT_FLAG);

    /* coordinates >= p: x = p, p + 1, all ones; each Fp part of each coordinate */
    for (int part = 0; part < (int)(u / 48); part++) {
        uint64_t adds[2] = {0, 1};
        for (int a = 0; a < 3; a++) {
            for (int form = 0; form < 2; form++) {
                size_t len = form ? u : c;
                if (48 * (size_t)part >= len) continue;
                memcpy(b, form ? ug : cg, len);
                uint8_t flags = b[0] & 0xe0;
                if (a < 2) write_p(b + 48 * part, adds[a]);
                else memset(b + 48 * part, 0xff, 48);
                if (part == 0) b[0] = (uint8_t)((b[0] & 0x1f) | flags);
                CHECK(len > 48 * (size_t)part);
                EXPECT(b, len, CZK_ERR_NOT_CANONICAL);
                if (part == 0 && !form) {
                    b[0] |= 0x20;   /* with the sort flag too */
                    EXPECT(b, len, CZK_ERR_NOT_CANONICAL);
                }
            }
        }
    }
    /* all ones everywhere: infinity flag set with stray bits */
    memset(b, 0xff, u);
    EXPECT(b, c, CZK_ERR_INFINITY_NOT_ZERO);
    b[0] = 0x9f;
    EXPECT(b, c, CZK_ERR_NOT_CANONICAL);
    b[0] = 0x1f;
    EXPECT(b, u, CZK_ERR_NOT_CANONICAL);
    /* y = y_G + p (fits 48 bytes; not a flag position) */
    if (fe == 48) {
        memcpy(b, ug, u);
        uint8_t pb[48];
        write_p(pb, 0);
        unsigned carry = 0;
        for (int i = 47; i >= 0; i--) {
            unsigned s = (unsigned)b[48 + i] + pb[i] + carry;
            b[48 + i] = (uint8_t)s;
            carry = s >> 8;
        }
        CHECK(carry == 0);
        EXPECT(b, u, CZK_ERR_NOT_CANONICAL);
    }

    /* not on the curve */
    memcpy(b, ug, u);
    b[u - 1] ^= 1;                               /* y changed */
    EXPECT(b, u, CZK_ERR_NOT_ON_CURVE);
    memset(b, 0, u);                             /* (0, 0) without the infinity flag */
    EXPECT(b, u, CZK_ERR_NOT_ON_CURVE);
    G->x_no_sqrt(b);                             /* x^3 + b has no square root */
    b[0] |= 0x80;
    EXPECT(b, c, CZK_ERR_NOT_ON_CURVE);
    b[0] |= 0x20;
    EXPECT(b, c, CZK_ERR_NOT_ON_CURVE);
    b[0] &= 0x1f;
    memcpy(b + fe, ug + fe, fe);
    EXPECT(b, u, CZK_ERR_NOT_ON_CURVE);

    /* on the curve, outside the subgroup: CHECKED rejects, TRUSTED accepts */
    for (int i = 0; i < 4; i++) {
        any_point q, d;
        G->outside(&q, rng);
        G->enc_c(b, &q);
        expect(b, c, CZK_ERR_NOT_IN_SUBGROUP, CZK_DECODE_CHECKED, __LINE__);
        expect(b, c, CZK_OK, CZK_DECODE_TRUSTED, __LINE__);
        CHECK(G->decode(&d, b, c, CZK_DECODE_TRUSTED) == CZK_OK && memcmp(&d, &q, G->psize) == 0);
        G->enc_u(b, &q);
        expect(b, u, CZK_ERR_NOT_IN_SUBGROUP, CZK_DECODE_CHECKED, __LINE__);
        expect(b, u, CZK_OK, CZK_DECODE_TRUSTED, __LINE__);
        CHECK(G->decode(&d, b, u, CZK_DECODE_TRUSTED) == CZK_OK && memcmp(&d, &q, G->psize) == 0);
    }
    /* TRUSTED still rejects everything else */
    G->x_no_sqrt(b);
    b[0] |= 0x80;
    expect(b, c, CZK_ERR_NOT_ON_CURVE, CZK_DECODE_TRUSTED, __LINE__);
    memcpy(b, ug, u);
    b[0] |= 0x20;
    expect(b, u, CZK_ERR_SORT_FLAG, CZK_DECODE_TRUSTED, __LINE__);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, NAME);
    for (int i = 0; i < 2; i++) run_group(&GROUPS[i], &rng);
    return test_finish(NAME);
}
