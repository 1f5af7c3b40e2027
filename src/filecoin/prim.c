/* ChaCha block function (RFC 8439 §2.1–2.3, rounds as a parameter) and a
 * one-block BLAKE2b-512 (RFC 7693) for the Feistel round function. */
#include <openssl/evp.h>

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

uint64_t czk_fil_blake2b512_16_head(uint64_t m0, uint64_t m1) {
    /* parameter block: digest length 64, key length 0, fanout 1, depth 1 */
    const uint64_t h0 = B2_IV[0] ^ 0x01010040ull;
    uint64_t m[16] = {m0, m1};
    uint64_t v[16] = {
        h0,       B2_IV[1], B2_IV[2], B2_IV[3], B2_IV[4], B2_IV[5], B2_IV[6], B2_IV[7],
        B2_IV[0], B2_IV[1], B2_IV[2], B2_IV[3],
        B2_IV[4] ^ 16, /* t0: 16 bytes */
        B2_IV[5],      /* t1 */
        ~B2_IV[6],     /* f0: last block */
        B2_IV[7],
    };
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
    return h0 ^ v[0] ^ v[8];
}
