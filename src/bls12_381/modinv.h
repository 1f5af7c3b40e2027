/* czk — internal: variable-time modular inversion by Bernstein–Yang
 * "safegcd" divsteps, 62 at a time, with the variable-time jumps over runs of
 * zero bits. Used for Fp and Fr inversions (which are not secret in czk). */
#ifndef CZK_MODINV_H
#define CZK_MODINV_H

#include <stdint.h>

#define MODINV_MAX_LIMBS 7 /* signed 62-bit limbs: 434 bits, room for 381-bit moduli */

typedef struct {
    int64_t m[MODINV_MAX_LIMBS]; /* the odd modulus, in signed-62 form */
    uint64_t m_inv62;            /* m^-1 mod 2^62 */
    int len;                     /* signed-62 limbs used */
    int words;                   /* 64-bit words of the canonical form */
} modinv_modulus;

/* Sets up a modulus given as `words` little-endian 64-bit words (odd). */
void modinv_modulus_init(modinv_modulus *mod, const uint64_t *m, int words);
/* out = x^-1 mod m for canonical x < m (out = 0 for x = 0). */
void modinv_var(uint64_t *out, const uint64_t *x, const modinv_modulus *mod);

#endif
