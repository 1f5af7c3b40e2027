/* czk — the MSM's window sums (src/gpu/msm_sums.cuh) run on the host as
 * launch_window_sums launches them: the parts' running sums thread by
 * thread, then each group of the tree on host threads, one per device
 * thread, with the lane exchange emulated (host_lanes: a warp's shuffles
 * through a shared slot array between two barriers of its 32 threads, the
 * block's barrier for sync) and the PTX emulated (ptx_emulated.h). Each
 * window's result must equal Σ_k (k+1)·B_k by the CPU's group law, for G1
 * (parts over fp_t, tree over fpc_t, as msm.cu) and G2 (fp2c_t, as
 * msm_g2.cu), with buckets drawn from a small pool holding infinity, P, -P,
 * 2P (equal and opposite points meet in the running sums and in the tree)
 * and with random buckets; shapes from one part a window (a group of one
 * pair) to 1,024 parts (a level of 8-warp groups, then a level of 4 pairs).
 * What the GPU MSM tests check on a device with forced windows, this checks
 * in CI. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "ptx_emulated.h"

#include "../../src/gpu/msm_sums.cuh"

extern "C" {
#include "czk/fr.h"
#include "czk/rng.h"
}

#include "emulated_groups.h"

static long checks, failures;

static void expect(bool ok, const char *what, long i) {
    checks++;
    if (!ok && failures++ < 20) fprintf(stderr, "FAIL %s (%ld)\n", what, i);
}

/* The lane exchange on host threads: thread j of the block (tid) writes
 * its value to its slot, the warp's 32 threads meet, each reads lane + d's
 * slot (its own value where lane + d >= 32, as __shfl_down_sync), and they
 * meet again before the slots are reused. */
#define SLOT_BYTES 512
struct host_lanes {
    static inline thread_local unsigned tid;
    static inline unsigned char *slots;
    static inline pthread_barrier_t *warp_bar, block_bar;
    static unsigned lane() { return tid & 31; }
    template <class T> static T down(const T &v, unsigned d) {
        static_assert(sizeof(T) <= SLOT_BYTES, "slot size");
        memcpy(slots + (size_t)tid * SLOT_BYTES, &v, sizeof v);
        pthread_barrier_wait(&warp_bar[tid >> 5]);
        T r = v;
        if (lane() + d < 32) memcpy(&r, slots + (size_t)(tid + d) * SLOT_BYTES, sizeof r);
        pthread_barrier_wait(&warp_bar[tid >> 5]);
        return r;
    }
    static void sync() { pthread_barrier_wait(&block_bar); }
};

template <class F, bool FINAL> struct group_job {
    const xyzz_t<F> *in;
    unsigned P, glog, j, threads;
    void *out;
    size_t b;
    xyzz_t<F> *sh;
};

template <class F, bool FINAL> static void *group_thread(void *arg) {
    const group_job<F, FINAL> *x = (const group_job<F, FINAL> *)arg;
    host_lanes::tid = x->j;
    tree_group<F, FINAL, host_lanes>(x->in, x->P, x->glog, x->out, x->b, x->j, x->threads, x->sh);
    return NULL;
}

/* group b of the tree as a block of max(P, 32) threads */
template <class F, bool FINAL>
static void run_group(const xyzz_t<F> *in, unsigned P, unsigned glog, void *out, size_t b) {
    const unsigned threads = P < 32 ? 32 : P, nw = threads / 32;
    std::vector<unsigned char> slots((size_t)threads * SLOT_BYTES);
    std::vector<pthread_barrier_t> wb(nw);
    std::vector<xyzz_t<F>> sh(2 * nw);
    host_lanes::slots = slots.data();
    host_lanes::warp_bar = wb.data();
    for (unsigned w = 0; w < nw; w++) pthread_barrier_init(&wb[w], NULL, 32);
    pthread_barrier_init(&host_lanes::block_bar, NULL, threads);
    std::vector<group_job<F, FINAL>> jobs(threads);
    std::vector<pthread_t> th(threads);
    for (unsigned j = 0; j < threads; j++) {
        jobs[j] = group_job<F, FINAL>{in, P, glog, j, threads, out, b, sh.data()};
        if (pthread_create(&th[j], NULL, group_thread<F, FINAL>, &jobs[j]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(1);
        }
    }
    for (unsigned j = 0; j < threads; j++) pthread_join(th[j], NULL);
    for (unsigned w = 0; w < nw; w++) pthread_barrier_destroy(&wb[w]);
    pthread_barrier_destroy(&host_lanes::block_bar);
}

/* W windows of nb buckets, parts of 2^glog: the parts (over FP, as
 * msm_parts_kernel), then the tree (over FC) level by level as
 * launch_window_sums runs it; out: W Jacobian points. */
template <class FP, class FC>
static void window_sums(const std::vector<xyzz_t<FP>> &buckets, unsigned W, uint32_t nb, unsigned glog,
                        std::vector<jac_t<FC>> &out) {
    size_t Q = nb >> glog;
    std::vector<xyzz_t<FC>> a(2 * W * Q), c(2 * W * (Q / tree_group_pairs(Q)));
    for (size_t t = 0; t < W * Q; t++) { /* thread t = (w, p) */
        const size_t w = t / Q, p = t % Q, G = nb / Q;
        xyzz_t<FP> run, tot;
        running_sums(buckets.data() + w * nb + p * G, G, run, tot);
        memcpy(&a[2 * t], &tot, sizeof tot);
        memcpy(&a[2 * t + 1], &run, sizeof run);
    }
    out.resize(W);
    std::vector<xyzz_t<FC>> *in = &a, *o = &c;
    for (;;) {
        const unsigned P = tree_group_pairs(Q);
        const size_t groups = W * (Q / P);
        if (Q == P) {
            for (size_t b = 0; b < groups; b++) run_group<FC, true>(in->data(), P, glog, out.data(), b);
            return;
        }
        for (size_t b = 0; b < groups; b++) run_group<FC, false>(in->data(), P, glog, o->data(), b);
        std::swap(in, o);
        Q /= P;
        for (unsigned p = P; p > 1; p >>= 1) glog++;
    }
}

template <class H, class FP, class FC> static void run(const char *name, czk_rng *rng) {
    static_assert(sizeof(xyzz_t<FP>) == sizeof(xyzz_t<FC>), "layouts");
    /* (nb, W, glog): one part a window (one pair a group), 32 pairs (one
     * warp), 128 (4 warps), 1,024 (8-warp groups, then a group of 4) */
    static const unsigned shapes[][3] = {{8, 2, 3}, {64, 3, 1}, {512, 2, 2}, {1024, 2, 0}};
    char what[96];
    typename H::jac pool[6];
    make_pool<H>(pool, rng);
    for (int from_pool = 1; from_pool >= 0; from_pool--) {
        for (const auto &sh : shapes) {
            const uint32_t nb = sh[0];
            const unsigned W = sh[1], glog = sh[2];
            std::vector<typename H::jac> hb((size_t)W * nb);
            std::vector<xyzz_t<FP>> db((size_t)W * nb);
            const typename H::jac g = H::generator();
            for (size_t i = 0; i < hb.size(); i++) {
                const uint64_t r = czk_rng_next(rng);
                if (from_pool || r % 8 == 0) { /* random buckets: an eighth from the pool */
                    hb[i] = pool[(r >> 8) % 4]; /* infinity, P, -P, 2P */
                } else {
                    czk_fr k;
                    czk_fr_random(&k, rng);
                    H::mul(&hb[i], &g, &k);
                }
                db[i] = from_host<H, FP>(hb[i]);
            }
            std::vector<jac_t<FC>> got;
            window_sums<FP, FC>(db, W, nb, glog, got);
            for (unsigned w = 0; w < W; w++) {
                typename H::jac run, tot, r;
                H::inf(&run);
                H::inf(&tot);
                for (size_t k = nb; k-- > 0;) { /* Σ (k+1)·B_k by running sums */
                    H::add(&run, &run, &hb[(size_t)w * nb + k]);
                    H::add(&tot, &tot, &run);
                }
                memcpy(&r, &got[w], sizeof r);
                snprintf(what, sizeof what, "%s window sum, %s buckets, nb %u, parts of %u", name,
                         from_pool ? "pool" : "random", nb, 1u << glog);
                expect(H::equal(&r, &tot), what, (long)w);
            }
        }
    }
}

int main(void) {
    czk_rng rng;
    czk_rng_seed(&rng, 20261201u);
    run<g1_host, fp_t, fpc_t>("G1", &rng);
    run<g2_host, fp2c_t, fp2c_t>("G2", &rng);
    printf("test_msm_sums_emulated: %ld checks, %ld wrong\n", checks, failures);
    return failures ? 1 : 0;
}
