/* czk — internal: fixed 4-bit-window exponentiation, written once for every
 * field of the tower. DEFINE_POW_WINDOW(NAME, T, SET_ONE, MUL, SQR) defines
 *   static void NAME(T *r, const T *a, const uint64_t *e, int n)
 * computing r = a^e for e given as n little-endian 64-bit limbs, with SET_ONE,
 * MUL and SQR taking pointers (outputs may alias inputs). Cost: bits(e)
 * squarings + bits(e)/4 multiplications + 14 for the table. Variable time. */
#ifndef CZK_POW_WINDOW_H
#define CZK_POW_WINDOW_H

#include <stdint.h>

static inline int pow_window_bits(const uint64_t *e, int n) {
    for (int j = n - 1; j >= 0; j--)
        if (e[j]) return 64 * j + 64 - __builtin_clzll(e[j]);
    return 0;
}

#define DEFINE_POW_WINDOW(NAME, T, SET_ONE, MUL, SQR)                        \
    static void NAME(T *r, const T *a, const uint64_t *e, int n) {            \
        T table[16], acc;                                                     \
        SET_ONE(&table[0]);                                                   \
        table[1] = *a;                                                        \
        for (int i = 2; i < 16; i++) MUL(&table[i], &table[i - 1], a);        \
        int top = (pow_window_bits(e, n) + 3) / 4 * 4;                        \
        SET_ONE(&acc);                                                        \
        for (int i = top - 4; i >= 0; i -= 4) {                               \
            if (i != top - 4)                                                 \
                for (int k = 0; k < 4; k++) SQR(&acc, &acc);                  \
            unsigned w = (unsigned)(e[i / 64] >> (i % 64)) & 15;              \
            if (w) MUL(&acc, &acc, &table[w]);                                \
        }                                                                     \
        *r = acc;                                                             \
    }

#endif
