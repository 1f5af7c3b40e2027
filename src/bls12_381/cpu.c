/* czk — CPU feature detection and the choice of multiplication code. */
#include "czk/fp.h"
#include "fp_adx.h"

#if CZK_HAVE_ADX_ASM
#include <cpuid.h>

int czk_mont_adx_flag = -1;

bool czk_cpu_has_adx(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 8)) && (b & (1u << 19)); /* BMI2, ADX */
}

czk_fp_impl czk_fp_get_impl(void) { return czk_mont_adx_active() ? CZK_FP_IMPL_ADX : CZK_FP_IMPL_PORTABLE; }

bool czk_fp_set_impl(czk_fp_impl impl) {
    if (impl == CZK_FP_IMPL_PORTABLE) {
        czk_mont_adx_flag = 0;
        return true;
    }
    if (impl == CZK_FP_IMPL_ADX && czk_cpu_has_adx()) {
        czk_mont_adx_flag = 1;
        return true;
    }
    return false;
}
#else
czk_fp_impl czk_fp_get_impl(void) { return CZK_FP_IMPL_PORTABLE; }
bool czk_fp_set_impl(czk_fp_impl impl) { return impl == CZK_FP_IMPL_PORTABLE; }
#endif
