/* ChaCha block function (RFC 8439 §2.1–2.3, rounds as a parameter) and a
 * one-block BLAKE2b-512 (RFC 7693) for the Feistel round function. */
#include <openssl/evp.h>
#include <string.h>

#include "prim.h"

bool czk_fil_sha256(const void *const *pieces, const size_t *lens, int n, uint8_t out[32]) {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!md) return false;
    bool ok = EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1;
    for (int i = 0; ok && i < n; i++) ok = EVP_DigestUpdate(md, pieces[i], lens[i]) == 1;
    unsigned len = 0;
    ok = ok && EVP_DigestFinal_ex(md, out, &len) == 1 && len == 32;
    EVP_MD_CTX_free(md);
    return ok;
}

static inline uint32_t rotl32(uint32_t x, unsigned r) { return (x << r) | (x >> (32 - r)); }
static inline uint64_t rotr64(uint64_t x, unsigned r) { return (x >> r) | (x << (64 - r)); }

#define QR(a, b, c, d)                \
    do {                              \
        a += b; d ^= a; d = rotl32(d, 16); \
        c += d; b ^= c; b = rotl32(b, 12); \
        a += b; d ^= a; d = rotl32(d, 8);  \
        c += d; b ^= c; b = rotl32(b, 7);  \
    } while (0)

void czk_fil_chacha_block(const uint32_t in[16], unsigned double_rounds, uint32_t out[16]) {
    uint32_t x[16];
    for (int i = 0; i < 16; i++) x[i] = in[i];
    for (unsigned r = 0; r < double_rounds; r++) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

static const uint64_t B2_IV[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

static const uint8_t B2_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

#define G(a, b, c, d, x, y)            \
    do {                               \
        a = a + b + (x); d = rotr64(d ^ a, 32); \
        c = c + d; b = rotr64(b ^ c, 24);       \
        a = a + b + (y); d = rotr64(d ^ a, 16); \
        c = c + d; b = rotr64(b ^ c, 63);       \
    } while (0)

/* the compression function F: h updated by block m, t bytes so far, last or not */
static void b2_compress(uint64_t h[8], const uint64_t m[16], uint64_t t, int last) {
    uint64_t v[16];
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[8 + i] = B2_IV[i];
    }
    v[12] ^= t;
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = B2_SIGMA[r];
        G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[8 + i];
}

static void b2_load_block(const uint8_t *p, size_t n, uint64_t m[16]) {
    uint8_t b[128] = {0};
    memcpy(b, p, n);
    for (int i = 0; i < 16; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | b[8 * i + j];
        m[i] = w;
    }
}

void czk_fil_blake2b(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len) {
    uint64_t h[8];
    for (int i = 0; i < 8; i++) h[i] = B2_IV[i];
    h[0] ^= 0x01010000ull ^ ((uint64_t)keylen << 8) ^ (uint64_t)outlen;
    uint64_t m[16], t = 0;
    if (keylen) {
        b2_load_block(key, keylen, m);
        t = 128;
        if (len == 0) {
            b2_compress(h, m, t, 1);
            goto done;
        }
        b2_compress(h, m, t, 0);
    }
    /* every full block but the last, then the last (possibly partial or empty) */
    while (len > 128) {
        b2_load_block(msg, 128, m);
        t += 128;
        b2_compress(h, m, t, 0);
        msg += 128;
        len -= 128;
    }
    b2_load_block(msg, len, m);
    t += len;
    b2_compress(h, m, t, 1);
done:
    for (size_t i = 0; i < outlen; i++) out[i] = (uint8_t)(h[i / 8] >> (8 * (i % 8)));
}

void czk_fil_chacha20_keystream(const uint8_t key[32], const uint8_t nonce[12], uint64_t offset, uint8_t *out,
                                size_t len) {
    uint32_t st[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; i++)
        st[4 + i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 | (uint32_t)key[4 * i + 2] << 16 |
                    (uint32_t)key[4 * i + 3] << 24;
    for (int i = 0; i < 3; i++)
        st[13 + i] = (uint32_t)nonce[4 * i] | (uint32_t)nonce[4 * i + 1] << 8 | (uint32_t)nonce[4 * i + 2] << 16 |
                     (uint32_t)nonce[4 * i + 3] << 24;
    uint64_t block = offset / 64;
    size_t skip = (size_t)(offset % 64);
    while (len) {
        st[12] = (uint32_t)block++;
        uint32_t w[16];
        czk_fil_chacha_block(st, 10, w);
        uint8_t b[64];
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 4; j++) b[4 * i + j] = (uint8_t)(w[i] >> (8 * j));
        const size_t n = 64 - skip < len ? 64 - skip : len;
        memcpy(out, b + skip, n);
        out += n;
        len -= n;
        skip = 0;
    }
}

/* The message words: only m0 and m1 are not zero. */
#define MW(i) ((i) == 0 ? m0 : (i) == 1 ? m1 : 0)
#define ROUND16(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
    do {                                                                             \
        G(v0, v4, v8, v12, MW(s0), MW(s1));                                          \
        G(v1, v5, v9, v13, MW(s2), MW(s3));                                          \
        G(v2, v6, v10, v14, MW(s4), MW(s5));                                         \
        G(v3, v7, v11, v15, MW(s6), MW(s7));                                         \
        G(v0, v5, v10, v15, MW(s8), MW(s9));                                         \
        G(v1, v6, v11, v12, MW(s10), MW(s11));                                       \
        G(v2, v7, v8, v13, MW(s12), MW(s13));                                        \
        G(v3, v4, v9, v14, MW(s14), MW(s15));                                        \
    } while (0)

/* unrolled, with the schedule of B2_SIGMA written out, so that the state and
 * the message stay in registers */
uint64_t czk_fil_blake2b512_16_head(uint64_t m0, uint64_t m1) {
    /* parameter block: digest length 64, key length 0, fanout 1, depth 1 */
    const uint64_t h0 = B2_IV[0] ^ 0x01010040ull;
    uint64_t v0 = h0, v1 = B2_IV[1], v2 = B2_IV[2], v3 = B2_IV[3], v4 = B2_IV[4], v5 = B2_IV[5], v6 = B2_IV[6],
             v7 = B2_IV[7];
    uint64_t v8 = B2_IV[0], v9 = B2_IV[1], v10 = B2_IV[2], v11 = B2_IV[3];
    uint64_t v12 = B2_IV[4] ^ 16; /* t0: 16 bytes */
    uint64_t v13 = B2_IV[5];      /* t1 */
    uint64_t v14 = ~B2_IV[6];     /* f0: the last block */
    uint64_t v15 = B2_IV[7];
    ROUND16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    ROUND16(14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3);
    ROUND16(11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4);
    ROUND16(7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8);
    ROUND16(9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13);
    ROUND16(2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9);
    ROUND16(12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11);
    ROUND16(13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10);
    ROUND16(6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5);
    ROUND16(10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0);
    ROUND16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    ROUND16(14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3);
    return h0 ^ v0 ^ v8;
}
