/* czk — random numbers: a seeded, reproducible generator for tests and
 * development setups, and the operating system's generator for secrets. */
#ifndef CZK_RNG_H
#define CZK_RNG_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"

/* xoshiro256** state; not cryptographic. Seed it with czk_rng_seed or
 * czk_rng_seed_os. */
typedef struct {
    uint64_t s[4];
} czk_rng;

/* Deterministic seeding: the same seed always gives the same stream. */
void czk_rng_seed(czk_rng *rng, uint64_t seed);
/* Seeds from the operating system (getrandom). */
czk_err czk_rng_seed_os(czk_rng *rng);
uint64_t czk_rng_next(czk_rng *rng);
void czk_rng_bytes(czk_rng *rng, void *out, size_t len);

/* Fills out with len bytes from the operating system's CSPRNG. */
czk_err czk_os_random(void *out, size_t len);

#endif
