/* The Filecoin layer's primitives against OpenSSL: the ChaCha block function
 * (20 rounds) against EVP_chacha20's keystream, and the one-block BLAKE2b-512
 * against EVP_blake2b512, on random inputs. ChaCha8 itself is pinned by the
 * parent cache digests (test_filecoin_parents). */
#include <openssl/evp.h>
#include <string.h>

#include "../../src/filecoin/prim.h"
#include "test.h"

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
    EVP_CIPHER_CTX_free(cc);
    EVP_MD_CTX_free(md);
    return test_finish("test_filecoin_prim");
}
