/* czk — the device side of the packed uploads (czk/fr_pack.h): one block of 256
 * threads per group of CZK_FR_PACK_GROUP values, 4 adjacent values a
 * thread. A thread counts the escapes among its 4 codes, a scan over the
 * block gives each its place in the group's run of other values, and every
 * value is written: k·1 from the small table, or the next other value. */
#include <cuda_runtime.h>

#include "fr.cuh"
#include "czk/fr_pack.h"
#include "gpu_internal.h"

#define UNPACK_THREADS (CZK_FR_PACK_GROUP / 4)

__global__ void __launch_bounds__(UNPACK_THREADS) unpack_kernel(const uint8_t *packed, size_t n, const fr_t *small,
                                                                fr_t *out) {
    __shared__ unsigned warp_sum[UNPACK_THREADS / 32];
    const size_t g = blockIdx.x;
    const uint32_t *first = (const uint32_t *)packed;
    const uint8_t *code = packed + czk_fr_pack_codes_at(n);
    const fr_t *others = (const fr_t *)(packed + czk_fr_pack_others_at(n));
    const unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;
    const size_t i0 = g * CZK_FR_PACK_GROUP + 4 * (size_t)t;
    uint8_t c[4];
    unsigned esc = 0;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        c[k] = i0 + k < n ? code[i0 + k] : 0;
        esc += i0 + k < n && c[k] == CZK_FR_PACK_ESC;
    }
    unsigned x = esc; /* inclusive scan over the warp, then over the warps */
#pragma unroll
    for (unsigned o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) warp_sum[w] = x;
    __syncthreads();
    unsigned before = 0;
    for (unsigned j = 0; j < w; j++) before += warp_sum[j];
    unsigned at = first[g] + before + x - esc;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        if (i0 + k >= n) break;
        const fr_t v = c[k] == CZK_FR_PACK_ESC ? fr_ldg(others + at++) : fr_ldg(small + ((int8_t)c[k] + CZK_FR_PACK_SMALL));
        fr_store(out + i0 + k, v);
    }
}

extern "C" cudaError_t czk_gpu_launch_unpack(const void *packed, size_t n, const void *small, void *out,
                                             cudaStream_t s) {
    if (n == 0) return cudaSuccess;
    if (n > CZK_FR_PACK_MAX) return cudaErrorInvalidValue;
    unpack_kernel<<<(unsigned)czk_fr_pack_groups(n), UNPACK_THREADS, 0, s>>>((const uint8_t *)packed, n,
                                                                              (const fr_t *)small, (fr_t *)out);
    return cudaGetLastError();
}
