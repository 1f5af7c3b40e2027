/* Fixed-base multiplication against czk_g1_mul_fr / czk_g2_mul_fr. */
#include "czk/fixed_base.h"
#include "test.h"

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_fixed_base");
    czk_fr k;
    czk_g1 g1, b1, r1, w1;
    czk_g2 g2, b2, r2, w2;
    czk_g1_from_affine(&g1, &CZK_G1_GENERATOR);
    czk_g2_from_affine(&g2, &CZK_G2_GENERATOR);
    czk_fr_random(&k, &rng);
    czk_g1_mul_fr(&b1, &g1, &k); /* a random base */
    czk_g2_mul_fr(&b2, &g2, &k);
    czk_g1_fixed_base *t1;
    czk_g2_fixed_base *t2;
    CHECK(czk_g1_fixed_base_new(&t1, &b1) == CZK_OK);
    CHECK(czk_g2_fixed_base_new(&t2, &b2) == CZK_OK);

    enum { N = 300 };
    static czk_fr scalars[N];
    for (int i = 0; i < N; i++) czk_fr_random(&scalars[i], &rng);
    czk_fr_set_zero(&scalars[0]);
    czk_fr_set_one(&scalars[1]);
    czk_fr_neg(&scalars[2], &scalars[1]); /* r - 1 */
    for (int i = 0; i < N; i++) {
        czk_g1_fixed_base_mul(&r1, t1, &scalars[i]);
        czk_g1_mul_fr(&w1, &b1, &scalars[i]);
        CHECK_MSG(czk_g1_equal(&r1, &w1), "G1 scalar %d", i);
        if (i % 4 == 0) {
            czk_g2_fixed_base_mul(&r2, t2, &scalars[i]);
            czk_g2_mul_fr(&w2, &b2, &scalars[i]);
            CHECK_MSG(czk_g2_equal(&r2, &w2), "G2 scalar %d", i);
        }
    }
    static czk_g1_affine out1[N], out1b[N];
    static czk_g2_affine out2[N];
    czk_pool *pool;
    CHECK(czk_pool_create(&pool, 3) == CZK_OK);
    CHECK(czk_g1_fixed_base_mul_many(out1, t1, scalars, N, NULL) == CZK_OK);
    CHECK(czk_g1_fixed_base_mul_many(out1b, t1, scalars, N, pool) == CZK_OK);
    CHECK(czk_g2_fixed_base_mul_many(out2, t2, scalars, N, pool) == CZK_OK);
    CHECK(czk_g1_affine_is_infinity(&out1[0]));
    for (int i = 0; i < N; i++) {
        czk_g1_affine a;
        czk_g1_mul_fr(&w1, &b1, &scalars[i]);
        czk_g1_to_affine(&a, &w1);
        CHECK(czk_g1_affine_equal(&a, &out1[i]) && czk_g1_affine_equal(&a, &out1b[i]));
        if (i % 16 == 0) {
            czk_g2_affine q;
            czk_g2_mul_fr(&w2, &b2, &scalars[i]);
            czk_g2_to_affine(&q, &w2);
            CHECK(czk_g2_affine_equal(&q, &out2[i]));
        }
    }
    czk_pool_destroy(pool);
    czk_g1_fixed_base_free(t1);
    czk_g2_fixed_base_free(t2);
    return test_finish("test_fixed_base");
}
