/* czk — MSM window choice and memory bound (include/czk/msm.h). */
#include "czk/msm.h"

static int gcd_i(int a, int b) {
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Cost model in bucket additions, for the task layout of pippenger.h:
 * W = ceil(256 / c) windows, R point ranges per window (W·R a multiple of the
 * thread count T when possible), each task m/R bucket additions plus 2^(c-1)
 * reduction steps costing `red` bucket additions each, run ceil(W·R / T)
 * tasks deep; `miss` charges cache misses per bucket addition once the
 * affine bucket table outgrows the L2 (2 MiB). red was fitted to
 * measurements (bench_msm, 2^16 and 2^20, batched affine buckets): a
 * reduction step (mixed + XYZZ addition) against one batched addition is
 * about 4 in G1 and 2 in G2, where the per-point bookkeeping weighs less. */
int czk_msm_window(size_t m, int threads, bool g2) {
    if (threads < 1) threads = 1;
    double best = 0;
    int best_c = 1;
    double red = g2 ? 2.0 : 4.0;
    double aff_bytes = g2 ? 192.0 : 96.0;
    for (int c = 1; c <= CZK_MSM_MAX_WINDOW; c++) {
        int w = (256 + c - 1) / c;
        int r = threads / gcd_i(w, threads);
        while (r > 1 && m / (size_t)r < 64) r--;
        double table = aff_bytes * (double)(1u << (c - 1));
        double miss = table > 2.0 * 1024 * 1024 ? 0.15 : 0.0;
        double task = (double)m / r * (1.0 + miss) + red * (double)(1u << (c - 1));
        double depth = (double)((w * r + threads - 1) / threads);
        double cost = depth * task;
        if (c == 1 || cost < best) {
            best = cost;
            best_c = c;
        }
    }
    return best_c;
}

/* Mirrors the allocations of pippenger.h and batch_affine.h: the canonical
 * scalars, per thread the bucket state for the largest window (affine bucket,
 * XYZZ overflow bucket and a flag per bucket, the batch queue), the per-chunk
 * scan results and the window sums; rounded up generously. */
size_t czk_msm_aux_bytes(size_t n, int threads, bool g2) {
    if (threads < 1) threads = 1;
    size_t fe = g2 ? 96 : 48;
    size_t per_bucket = 2 * fe + 4 * fe + 1, jac = 3 * fe;
    size_t nb = (size_t)1 << (CZK_MSM_MAX_WINDOW - 1);
    size_t queue = 512 * (2 * fe + 8 + 4);
    size_t state = nb * per_bucket + queue + 8 * 64;
    size_t chunks = (size_t)threads * 8 + 1;
    size_t sums = 256 * (size_t)threads * jac;
    return n * 32 + (size_t)threads * state + chunks * (4 * fe + sizeof(size_t)) + sums + 4096;
}
