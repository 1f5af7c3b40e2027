/* Variable-base MSM (czk_msm_g1 / czk_msm_g2) against the naive sum of
 * czk_gX_mul_fr, and at larger sizes against a plain unsigned-window
 * Pippenger written here with Jacobian buckets; scalar mixes (random, 0/1
 * heavy, all zero, all one, r - 1), density bitmaps (random, empty, full),
 * infinity bases, equal and opposite bases, every window size, thread
 * independence, argument errors and the AUX memory gauge. The test body is
 * written once for both groups (GROUP_TESTS below). */
#include <string.h>

#include "czk/mem.h"
#include "czk/msm.h"
#include "test.h"

typedef enum { MIX_RANDOM, MIX_01, MIX_ZERO, MIX_ONE, MIX_MINUS_ONE, MIX_SMALL } scalar_mix;

static void make_scalars(czk_fr *s, size_t n, scalar_mix mix, czk_rng *rng) {
    czk_fr minus_one;
    czk_fr_neg(&minus_one, &CZK_FR_ONE);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = czk_rng_next(rng);
        switch (mix) {
        case MIX_RANDOM: czk_fr_random(&s[i], rng); break;
        case MIX_01:     /* ~40% zero, ~40% one, ~15% random, ~5% r - 1 */
            if (v % 20 < 8) czk_fr_set_zero(&s[i]);
            else if (v % 20 < 16) czk_fr_set_one(&s[i]);
            else if (v % 20 < 19) czk_fr_random(&s[i], rng);
            else s[i] = minus_one;
            break;
        case MIX_ZERO:   czk_fr_set_zero(&s[i]); break;
        case MIX_ONE:    czk_fr_set_one(&s[i]); break;
        case MIX_MINUS_ONE: s[i] = minus_one; break;
        case MIX_SMALL:  czk_fr_from_u64(&s[i], v % 5); break; /* small digits, shared buckets */
        }
    }
}

/* Density with about `percent` % of the bits set (0 and 100 give empty and full). */
static size_t make_density(czk_bitmap *d, size_t n, int percent, czk_rng *rng) {
    CHECK(czk_bitmap_init(d, n) == CZK_OK);
    for (size_t i = 0; i < n; i++)
        if ((int)(czk_rng_next(rng) % 100) < percent) czk_bitmap_set(d, i);
    return czk_bitmap_count(d);
}

#define GROUP_TESTS(G, JAC, AFF)                                                                      \
    /* n subgroup points P0 + i·Q (random P0, Q), about 1 in 8 replaced by infinity when inf. */     \
    static AFF *G##_points(size_t n, bool inf, czk_rng *rng) {                                       \
        AFF *a = malloc((n ? n : 1) * sizeof *a);                                                    \
        JAC *j = malloc((n ? n : 1) * sizeof *j);                                                    \
        JAC p, q, g;                                                                                 \
        czk_fr k;                                                                                    \
        czk_##G##_from_affine(&g, &CZK_##G##_GENERATOR_REF);                                         \
        czk_fr_random(&k, rng);                                                                      \
        czk_##G##_mul_fr(&p, &g, &k);                                                                \
        czk_fr_random(&k, rng);                                                                      \
        czk_##G##_mul_fr(&q, &g, &k);                                                                \
        for (size_t i = 0; i < n; i++) {                                                             \
            j[i] = p;                                                                                \
            czk_##G##_add(&p, &p, &q);                                                               \
        }                                                                                            \
        czk_##G##_batch_to_affine(a, j, n);                                                          \
        if (inf)                                                                                     \
            for (size_t i = 0; i < n; i++)                                                           \
                if (czk_rng_next(rng) % 8 == 0) czk_##G##_affine_set_infinity(&a[i]);                \
        free(j);                                                                                     \
        return a;                                                                                    \
    }                                                                                                \
                                                                                                     \
    static void G##_naive(JAC *r, const AFF *b, const czk_fr *s, size_t n, const czk_bitmap *d) {    \
        czk_##G##_set_infinity(r);                                                                   \
        size_t j = 0;                                                                                \
        for (size_t i = 0; i < n; i++) {                                                             \
            if (d && !czk_bitmap_get(d, i)) continue;                                                \
            JAC p, t;                                                                                \
            czk_##G##_from_affine(&p, &b[j++]);                                                      \
            czk_##G##_mul_fr(&t, &p, &s[i]);                                                         \
            czk_##G##_add(r, r, &t);                                                                 \
        }                                                                                            \
    }                                                                                                \
                                                                                                     \
    /* Plain Pippenger: unsigned 4-bit windows from the top, Jacobian buckets. */                    \
    static void G##_simple(JAC *r, const AFF *b, const czk_fr *s, size_t n, const czk_bitmap *d) {   \
        uint64_t(*k)[4] = malloc((n ? n : 1) * 32);                                                  \
        const AFF **bp = malloc((n ? n : 1) * sizeof *bp);                                           \
        size_t m = 0, j = 0;                                                                         \
        for (size_t i = 0; i < n; i++) {                                                             \
            if (d && !czk_bitmap_get(d, i)) continue;                                                \
            czk_fr_to_canonical(k[m], &s[i]);                                                        \
            bp[m++] = &b[j++];                                                                       \
        }                                                                                            \
        czk_##G##_set_infinity(r);                                                                   \
        for (int w = 63; w >= 0; w--) {                                                              \
            JAC bk[15], run, tot;                                                                    \
            for (int i = 0; i < 4; i++) czk_##G##_dbl(r, r);                                         \
            for (int i = 0; i < 15; i++) czk_##G##_set_infinity(&bk[i]);                             \
            for (size_t i = 0; i < m; i++) {                                                         \
                unsigned dg = (unsigned)(k[i][w / 16] >> (4 * (w % 16)) & 15);                       \
                if (dg) czk_##G##_add_affine(&bk[dg - 1], &bk[dg - 1], bp[i]);                       \
            }                                                                                        \
            czk_##G##_set_infinity(&run);                                                            \
            czk_##G##_set_infinity(&tot);                                                            \
            for (int i = 14; i >= 0; i--) {                                                          \
                czk_##G##_add(&run, &run, &bk[i]);                                                   \
                czk_##G##_add(&tot, &tot, &run);                                                     \
            }                                                                                        \
            czk_##G##_add(r, r, &tot);                                                               \
        }                                                                                            \
        free(k);                                                                                     \
        free(bp);                                                                                    \
    }                                                                                                \
                                                                                                     \
    static bool G##_same_affine(const JAC *a, const JAC *b) {                                        \
        AFF x, y;                                                                                    \
        czk_##G##_to_affine(&x, a);                                                                  \
        czk_##G##_to_affine(&y, b);                                                                  \
        return czk_##G##_affine_equal(&x, &y);                                                       \
    }                                                                                                \
                                                                                                     \
    /* MSM with opts on pool against the naive sum (or the plain Pippenger when big). */            \
    static void G##_check(const char *what, const AFF *b, const czk_fr *s, size_t n,                 \
                          const czk_bitmap *d, czk_pool *pool, const czk_msm_opts *o, bool big) {    \
        JAC want, got;                                                                               \
        if (big) G##_simple(&want, b, s, n, d);                                                      \
        else G##_naive(&want, b, s, n, d);                                                           \
        czk_err e = czk_msm_##G##_ex(&got, b, s, n, d, pool, o);                                     \
        CHECK_MSG(e == CZK_OK, "%s %s n=%zu: error %d", #G, what, n, (int)e);                        \
        CHECK_MSG(czk_##G##_equal(&got, &want), "%s %s n=%zu window=%d", #G, what, n,                \
                  o ? o->window : 0);                                                                \
        CHECK(czk_##G##_is_on_curve(&got));                                                          \
    }                                                                                                \
                                                                                                     \
    static void G##_tests(czk_rng *rng, czk_pool *p2, czk_pool *p4, double scale) {                  \
        const size_t sizes[] = {0, 1, 2, 3, 5, 7, 31, 64, 100, 257, 513, 1023};                      \
        size_t maxn = 1023;                                                                          \
        AFF *b = G##_points(maxn, false, rng);                                                       \
        AFF *binf = G##_points(maxn, true, rng);                                                     \
        czk_fr *s = malloc(maxn * sizeof *s);                                                        \
        czk_msm_opts plain = {.no_split01 = true};                                                  \
        czk_msm_opts w9 = {.window = 9}, w9x = {.window = 9, .no_batch_affine = true};                                                              \
        /* sizes, random scalars, one or two threads */                                             \
        for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {                                \
            size_t n = sizes[t];                                                                     \
            if (scale < 0.5 && n > 300 && #G[1] == '2') continue;                                    \
            make_scalars(s, n, MIX_RANDOM, rng);                                                     \
            G##_check("random", b, s, n, NULL, t % 2 ? p2 : NULL, NULL, false);                      \
        }                                                                                            \
        /* scalar mixes, with and without the 0/1 split, with infinity bases */                    \
        for (int mix = MIX_01; mix <= MIX_SMALL; mix++) {                                            \
            size_t n = mix == MIX_01 ? 600 : 150;                                                    \
            make_scalars(s, n, (scalar_mix)mix, rng);                                                \
            G##_check("mix", b, s, n, NULL, NULL, NULL, false);                                      \
            G##_check("mix/plain", b, s, n, NULL, p2, &plain, false);                                \
            G##_check("mix/inf", binf, s, n, NULL, p2, NULL, false);                                 \
            G##_check("mix/batch", binf, s, n, NULL, NULL, &w9, false);                              \
        }                                                                                            \
        /* density: random, empty, full, sparse */                                                  \
        const int pct[] = {50, 0, 100, 3};                                                           \
        for (int t = 0; t < 4; t++) {                                                                \
            size_t n = 700;                                                                          \
            czk_bitmap d;                                                                            \
            make_density(&d, n, pct[t], rng);                                                        \
            make_scalars(s, n, t % 2 ? MIX_RANDOM : MIX_01, rng);                                    \
            G##_check("density", binf, s, n, &d, t % 2 ? NULL : p2, NULL, false);                    \
            czk_bitmap_free(&d);                                                                     \
        }                                                                                            \
        { /* a density longer than n: bits at and above n are ignored */                            \
            czk_bitmap d;                                                                            \
            make_density(&d, 200, 60, rng);                                                          \
            make_scalars(s, 150, MIX_RANDOM, rng);                                                   \
            G##_check("density/long", b, s, 150, &d, NULL, NULL, false);                             \
            czk_bitmap_free(&d);                                                                     \
        }                                                                                            \
        /* equal and opposite bases: doubling and cancellation inside buckets */                    \
        {                                                                                            \
            AFF eq[64];                                                                              \
            for (int i = 0; i < 64; i++) {                                                           \
                eq[i] = b[(i / 2) % 3];                                                                  \
                if (i % 4 == 1) czk_##G##_affine_neg(&eq[i], &eq[i]);                                \
            }                                                                                        \
            for (int mix = MIX_RANDOM; mix <= MIX_SMALL; mix++) {                                    \
                make_scalars(s, 64, (scalar_mix)mix, rng);                                           \
                if (mix == MIX_RANDOM)                                                               \
                    for (int i = 1; i < 64; i += 2) s[i] = s[i - 1]; /* same digits, same buckets */ \
                G##_check("equal", eq, s, 64, NULL, NULL, NULL, false);                              \
                G##_check("equal/plain", eq, s, 64, NULL, NULL, &plain, false);                      \
                G##_check("equal/batch", eq, s, 64, NULL, NULL, &w9, false);                         \
                G##_check("equal/xyzz", eq, s, 64, NULL, NULL, &w9x, false);                         \
            }                                                                                        \
            AFF pm[2] = {b[5], b[5]};                                                                \
            czk_##G##_affine_neg(&pm[1], &pm[1]);                                                    \
            czk_fr two[2];                                                                           \
            czk_fr_random(&two[0], rng);                                                             \
            two[1] = two[0];                                                                             \
            JAC r;                                                                                   \
            CHECK(czk_msm_##G(&r, pm, two, 2, NULL, NULL) == CZK_OK && czk_##G##_is_infinity(&r));  \
        }                                                                                            \
        /* every window size */                                                                     \
        for (int c = 1; c <= CZK_MSM_MAX_WINDOW; c++) {                                              \
            if (#G[1] == '2' && c > 12 && c != CZK_MSM_MAX_WINDOW) continue;                         \
            czk_msm_opts o = {.window = c, .no_split01 = c % 2 == 0, .no_batch_affine = c % 3 == 0};                                                        \
            size_t n = 97;                                                                           \
            make_scalars(s, n, c % 3 ? MIX_RANDOM : MIX_01, rng);                                    \
            G##_check("window", binf, s, n, NULL, c % 2 ? NULL : p2, &o, false);                     \
        }                                                                                            \
        /* thread independence: bit-identical affine results */                                    \
        for (int t = 0; t < 4; t++) {                                                                \
            size_t n = 1000;                                                                         \
            czk_msm_opts o = {.window = t == 2 ? 5 : t == 3 ? 10 : 0, .no_split01 = t == 1};                                               \
            make_scalars(s, n, t == 1 ? MIX_01 : MIX_RANDOM, rng);                                   \
            czk_bitmap d;                                                                            \
            make_density(&d, n, 70, rng);                                                            \
            JAC r1, r2, r4;                                                                          \
            CHECK(czk_msm_##G##_ex(&r1, binf, s, n, &d, NULL, &o) == CZK_OK);                        \
            CHECK(czk_msm_##G##_ex(&r2, binf, s, n, &d, p2, &o) == CZK_OK);                          \
            CHECK(czk_msm_##G##_ex(&r4, binf, s, n, &d, p4, &o) == CZK_OK);                          \
            CHECK_MSG(G##_same_affine(&r1, &r2) && G##_same_affine(&r1, &r4), "%s threads", #G);     \
            czk_bitmap_free(&d);                                                                     \
        }                                                                                            \
        /* argument errors; r untouched */                                                          \
        {                                                                                            \
            JAC r, keep;                                                                             \
            czk_##G##_from_affine(&r, &b[0]);                                                        \
            keep = r;                                                                                \
            czk_bitmap d;                                                                            \
            make_density(&d, 10, 50, rng);                                                           \
            czk_msm_opts bad = {.window = CZK_MSM_MAX_WINDOW + 1};                                      \
            CHECK(czk_msm_##G(NULL, b, s, 4, NULL, NULL) == CZK_ERR_INVALID_ARGUMENT);               \
            CHECK(czk_msm_##G(&r, NULL, s, 4, NULL, NULL) == CZK_ERR_INVALID_ARGUMENT);              \
            CHECK(czk_msm_##G(&r, b, NULL, 4, NULL, NULL) == CZK_ERR_INVALID_ARGUMENT);              \
            CHECK(czk_msm_##G(&r, b, s, 11, &d, NULL) == CZK_ERR_INVALID_ARGUMENT);                  \
            CHECK(czk_msm_##G##_ex(&r, b, s, 4, NULL, NULL, &bad) == CZK_ERR_INVALID_ARGUMENT);      \
            CHECK(czk_##G##_equal(&r, &keep));                                                       \
            CHECK(czk_msm_##G(&r, NULL, NULL, 0, NULL, NULL) == CZK_OK && czk_##G##_is_infinity(&r)); \
            czk_bitmap_free(&d);                                                                     \
        }                                                                                            \
        free(s);                                                                                     \
        free(b);                                                                                     \
        free(binf);                                                                                  \
    }                                                                                                \
                                                                                                     \
    /* Larger sizes against the plain Pippenger, default options and two threads. */                \
    static void G##_big(czk_rng *rng, czk_pool *p2, size_t n) {                                      \
        AFF *b = G##_points(n, true, rng);                                                           \
        czk_fr *s = malloc(n * sizeof *s);                                                           \
        make_scalars(s, n, MIX_RANDOM, rng);                                                         \
        G##_check("big/random", b, s, n, NULL, p2, NULL, true);                                      \
        czk_bitmap d;                                                                                \
        make_density(&d, n, 80, rng);                                                                \
        make_scalars(s, n, MIX_01, rng);                                                             \
        G##_check("big/01/density", b, s, n, &d, p2, NULL, true);                                    \
        czk_bitmap_free(&d);                                                                         \
        free(s);                                                                                     \
        free(b);                                                                                     \
    }

#define CZK_g1_GENERATOR_REF CZK_G1_GENERATOR
#define CZK_g2_GENERATOR_REF CZK_G2_GENERATOR
GROUP_TESTS(g1, czk_g1, czk_g1_affine)
GROUP_TESTS(g2, czk_g2, czk_g2_affine)

static void test_window_choice(void) {
    int prev = 0;
    for (size_t m = 1; m <= ((size_t)1 << 28); m *= 2) {
        int c = czk_msm_window(m, 1, false);
        CHECK(c >= 1 && c <= CZK_MSM_MAX_WINDOW);
        CHECK_MSG(c >= prev, "window shrinks at m=%zu", m); /* never smaller for more points */
        prev = c;
        CHECK(czk_msm_window(m, 2, true) >= 1);
    }
    CHECK(czk_msm_aux_bytes((size_t)1 << 27, 2, false) <= ((size_t)1 << 27) * 32 + ((size_t)20 << 20));
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_msm");
    double scale = (double)test_cases(1000) / 1000.0;
    czk_pool *p2, *p4;
    CHECK(czk_pool_create(&p2, 2) == CZK_OK);
    CHECK(czk_pool_create(&p4, 4) == CZK_OK);
    size_t aux0 = czk_mem_in_use(CZK_MEM_AUX), bufs0 = czk_mem_buffers(CZK_MEM_AUX);

    test_window_choice();
    g1_tests(&rng, p2, p4, scale);
    g2_tests(&rng, p2, p4, scale);
    g1_big(&rng, p2, scale < 0.5 ? 3000 : 8192);
    g2_big(&rng, p2, scale < 0.5 ? 1000 : 3000);

    CHECK_MSG(czk_mem_in_use(CZK_MEM_AUX) == aux0 && czk_mem_buffers(CZK_MEM_AUX) == bufs0,
              "AUX buffers left behind");
    /* the largest call above: G2, 8192 points at most, 4 threads */
    CHECK(czk_mem_high_water(CZK_MEM_AUX) - aux0 <= czk_msm_aux_bytes(8192, 4, true));
    czk_pool_destroy(p2);
    czk_pool_destroy(p4);
    return test_finish("test_msm");
}
