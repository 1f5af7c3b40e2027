/* czk — internal: the x86-64 MULX/ADX Montgomery multiplications (mont_adx.S)
 * and the CPU test that allows them. */
#ifndef CZK_FP_ADX_H
#define CZK_FP_ADX_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#define CZK_HAVE_ADX_ASM 1
/* r = a·b·2^-384 mod p, r < p, for a, b < p. r may alias a or b. */
void czk_fp_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
/* r = a·b·2^-256 mod r, for a, b < r. */
void czk_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
/* The full 768-bit product of a, b < 2^384 (no reduction). */
void czk_fp_mul_wide_adx(uint64_t r[12], const uint64_t a[6], const uint64_t b[6]);
/* Montgomery reduction: r = t·2^-384 mod p, for t < p·2^384; r < p. */
void czk_fp_redc_adx(uint64_t r[6], const uint64_t t[12]);
/* r = a ± b mod p, r = 2a mod p; plain x86-64 (used on both paths' CPUs). */
void czk_fp_add_asm(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
void czk_fp_sub_asm(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
void czk_fp_dbl_asm(uint64_t r[6], const uint64_t a[6]);
/* True when the CPU has BMI2 (MULX) and ADX (ADCX/ADOX). */
bool czk_cpu_has_adx(void);
/* The path in use (decided at first call from the CPU, changed by
 * czk_fp_set_impl). */
extern int czk_mont_adx_flag;
static inline bool czk_mont_adx_active(void) {
    if (__builtin_expect(czk_mont_adx_flag < 0, 0)) czk_mont_adx_flag = czk_cpu_has_adx();
    return czk_mont_adx_flag;
}
#else
#define CZK_HAVE_ADX_ASM 0
#endif

#endif
