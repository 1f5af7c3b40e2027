/* czk — the BLS12-381 scalar field Fr, r = 0x73eda753...00000001 (255 bits).
 *
 * Elements are 4 little-endian 64-bit limbs in Montgomery form (a·2^256 mod r),
 * always fully reduced. Output arguments may alias inputs. Two-adicity 32,
 * multiplicative generator 7. */
#ifndef CZK_FR_H
#define CZK_FR_H

#include <stdbool.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/rng.h"

#define CZK_FR_LIMBS 4
#define CZK_FR_BYTES 32
#define CZK_FR_TWO_ADICITY 32

typedef struct {
    uint64_t l[CZK_FR_LIMBS];
} czk_fr;

extern const czk_fr CZK_FR_MODULUS;  /* r itself, raw limbs */
extern const czk_fr CZK_FR_ONE;      /* Montgomery one */
extern const czk_fr CZK_FR_R2;       /* 2^512 mod r */

static inline void czk_fr_set_zero(czk_fr *r) { *r = (czk_fr){{0}}; }
static inline void czk_fr_set_one(czk_fr *r) { *r = CZK_FR_ONE; }
void czk_fr_from_u64(czk_fr *r, uint64_t v);

bool czk_fr_is_zero(const czk_fr *a);
bool czk_fr_is_one(const czk_fr *a);
bool czk_fr_equal(const czk_fr *a, const czk_fr *b);

void czk_fr_add(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_sub(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_neg(czk_fr *r, const czk_fr *a);
void czk_fr_dbl(czk_fr *r, const czk_fr *a);
void czk_fr_mul(czk_fr *r, const czk_fr *a, const czk_fr *b);
void czk_fr_sqr(czk_fr *r, const czk_fr *a);
void czk_fr_pow(czk_fr *r, const czk_fr *a, const uint64_t *e, int n);
void czk_fr_inv(czk_fr *r, const czk_fr *a);          /* 1/0 = 0; variable time (safegcd) */
void czk_fr_inv_fermat(czk_fr *r, const czk_fr *a);   /* a^(r-2): slow reference */
int czk_fr_legendre(const czk_fr *a);
bool czk_fr_sqrt(czk_fr *r, const czk_fr *a);         /* Tonelli–Shanks */

/* The primitive 2^k-th root of unity ω_k = ω_32^(2^(32-k)), k <= 32. */
void czk_fr_root_of_unity(czk_fr *r, int k);

bool czk_fr_from_canonical(czk_fr *r, const uint64_t v[CZK_FR_LIMBS]);
void czk_fr_to_canonical(uint64_t v[CZK_FR_LIMBS], const czk_fr *a);
/* 32-byte encodings; from_* fail when the value is >= r. Little-endian is
 * Filecoin's (and bellperson's) encoding of Fr. */
bool czk_fr_from_bytes_le(czk_fr *r, const uint8_t in[CZK_FR_BYTES]);
void czk_fr_to_bytes_le(uint8_t out[CZK_FR_BYTES], const czk_fr *a);
bool czk_fr_from_bytes_be(czk_fr *r, const uint8_t in[CZK_FR_BYTES]);
void czk_fr_to_bytes_be(uint8_t out[CZK_FR_BYTES], const czk_fr *a);

/* Uniform random element from a seeded generator (reproducible). */
void czk_fr_random(czk_fr *r, czk_rng *rng);
/* Uniform random element from the operating system's CSPRNG (toxic waste,
 * proof randomness r and s). */
czk_err czk_fr_random_os(czk_fr *r);

#endif
