/* czk — xoshiro256** (Blackman–Vigna), seeded by splitmix64; OS randomness
 * from getrandom(2). */
#include "czk/rng.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void czk_rng_seed(czk_rng *rng, uint64_t seed) {
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&seed);
}

czk_err czk_rng_seed_os(czk_rng *rng) {
    uint64_t seed;
    czk_err e = czk_os_random(&seed, sizeof seed);
    if (e == CZK_OK) czk_rng_seed(rng, seed);
    return e;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t czk_rng_next(czk_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void czk_rng_bytes(czk_rng *rng, void *out, size_t len) {
    uint8_t *p = out;
    while (len) {
        uint64_t v = czk_rng_next(rng);
        size_t n = len < 8 ? len : 8;
        memcpy(p, &v, n);
        p += n;
        len -= n;
    }
}

czk_err czk_os_random(void *out, size_t len) {
    uint8_t *p = out;
    while (len) {
        ssize_t n = getrandom(p, len, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return CZK_ERR_IO;
        }
        p += n;
        len -= (size_t)n;
    }
    return CZK_OK;
}
