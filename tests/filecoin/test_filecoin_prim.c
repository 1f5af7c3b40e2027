/* The Filecoin layer's primitives against OpenSSL: the ChaCha block function
 * (20 rounds) and the ChaCha20 keystream at any offset against EVP_chacha20,
 * the one-block and the general BLAKE2b-512 against EVP_blake2b512, on random
 * inputs; keyed and short BLAKE2b against values computed with Python's
 * hashlib.blake2b(data, key=…, digest_size=…). ChaCha8 itself is pinned by the
 * parent cache digests (test_filecoin_parents). */
#include <openssl/evp.h>
#include <string.h>

#include "../../src/filecoin/prim.h"
#include "test.h"

static void check_b2(const uint8_t *key, size_t keylen, const uint8_t *m, size_t len, size_t outlen, const char *hex) {
    uint8_t want[64], got[64];
    CHECK(test_hex_decode(want, sizeof want, hex) == (long)outlen);
    czk_fil_blake2b(got, outlen, key, keylen, m, len);
    CHECK_MSG(memcmp(got, want, outlen) == 0, "BLAKE2b-%zu keylen %zu len %zu", 8 * outlen, keylen, len);
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_filecoin_prim");
    const long cases = test_cases(200);
    EVP_CIPHER_CTX *cc = EVP_CIPHER_CTX_new();
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    CHECK(cc && md);
    for (long t = 0; t < cases && cc && md; t++) {
        uint8_t key[32], iv[16], zero[128] = {0}, ks[128];
        czk_rng_bytes(&rng, key, sizeof key);
        czk_rng_bytes(&rng, iv, sizeof iv);
        iv[0] = (uint8_t)(iv[0] & 0x7f); /* the 32-bit counter must not wrap inside two blocks */
        int len = 0;
        CHECK(EVP_EncryptInit_ex(cc, EVP_chacha20(), NULL, key, iv) == 1);
        CHECK(EVP_EncryptUpdate(cc, ks, &len, zero, sizeof zero) == 1 && len == (int)sizeof zero);
        uint32_t st[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
        for (int i = 0; i < 8; i++) st[4 + i] = le32(key + 4 * i);
        for (int i = 0; i < 4; i++) st[12 + i] = le32(iv + 4 * i);
        for (int b = 0; b < 2; b++) {
            uint32_t out[16];
            czk_fil_chacha_block(st, 10, out);
            int bad = 0;
            for (int i = 0; i < 16; i++) bad |= out[i] != le32(ks + 64 * b + 4 * i);
            CHECK_MSG(!bad, "ChaCha20 block %d differs from OpenSSL (case %ld)", b, t);
            st[12]++;
        }

        const uint64_t m0 = czk_rng_next(&rng), m1 = czk_rng_next(&rng);
        uint8_t msg[16], h[64];
        for (int i = 0; i < 8; i++) {
            msg[i] = (uint8_t)(m0 >> (8 * i));
            msg[8 + i] = (uint8_t)(m1 >> (8 * i));
        }
        unsigned hl = 0;
        CHECK(EVP_DigestInit_ex(md, EVP_blake2b512(), NULL) == 1 && EVP_DigestUpdate(md, msg, 16) == 1 &&
              EVP_DigestFinal_ex(md, h, &hl) == 1 && hl == 64);
        uint64_t want = 0;
        for (int i = 7; i >= 0; i--) want = (want << 8) | h[i];
        CHECK_MSG(czk_fil_blake2b512_16_head(m0, m1) == want, "BLAKE2b-512 differs from OpenSSL (case %ld)", t);
    }
    /* the general BLAKE2b-512 and the keystream at an offset, against OpenSSL */
    for (long t = 0; t < cases && cc && md; t++) {
        uint8_t m[400], h[64], g[64];
        const size_t len = czk_rng_next(&rng) % sizeof m;
        czk_rng_bytes(&rng, m, len);
        unsigned hl = 0;
        CHECK(EVP_DigestInit_ex(md, EVP_blake2b512(), NULL) == 1 && EVP_DigestUpdate(md, m, len) == 1 &&
              EVP_DigestFinal_ex(md, h, &hl) == 1 && hl == 64);
        czk_fil_blake2b(g, 64, NULL, 0, m, len);
        CHECK_MSG(memcmp(g, h, 64) == 0, "BLAKE2b-512 of %zu bytes", len);

        uint8_t key[32], nonce[12], iv[16] = {0}, zero[300] = {0}, ks[300], part[200];
        czk_rng_bytes(&rng, key, sizeof key);
        czk_rng_bytes(&rng, nonce, sizeof nonce);
        memcpy(iv + 4, nonce, 12); /* OpenSSL's IV: 32-bit counter (0) ‖ nonce */
        int n = 0;
        CHECK(EVP_EncryptInit_ex(cc, EVP_chacha20(), NULL, key, iv) == 1);
        CHECK(EVP_EncryptUpdate(cc, ks, &n, zero, sizeof zero) == 1 && n == (int)sizeof zero);
        const size_t off = czk_rng_next(&rng) % 100, plen = czk_rng_next(&rng) % sizeof part;
        czk_fil_chacha20_keystream(key, nonce, off, part, plen);
        CHECK_MSG(memcmp(part, ks + off, plen) == 0, "ChaCha20 keystream [%zu, +%zu)", off, plen);
    }
    uint8_t m[300];
    for (int i = 0; i < 300; i++) m[i] = (uint8_t)i;
    static const uint8_t zero_key[64] = {0};
    const char *gen = "filecoin.io|PoRep|1|Synthetic|1|Generation";
    check_b2((const uint8_t *)gen, strlen(gen), m, 64, 32, "676f66f347f9d90a7de68e7dc3f9f111e4566d9c0ea6686e07ee2182a3fd8902");
    check_b2((const uint8_t *)"k", 1, m, 0, 32, "490b6c8300eb23464bd2f9ca37c036be5091da14ddbeafab424c4c0a1f9eaac5");
    check_b2(zero_key, 64, m, 300, 64,
             "d138f04afafaa79b14abe1488aa4edd2bc0d21397445d00b0b7f668739257b19"
             "087c1c615a1da20d18d30f4d24c1e2e31134918b93f3cd0193a9e2e34f0f2861");
    check_b2(NULL, 0, m, 256, 20, "2433af65183f411941345962733a8860df650139");
    EVP_CIPHER_CTX_free(cc);
    EVP_MD_CTX_free(md);
    return test_finish("test_filecoin_prim");
}
