/* The optimal ate pairing: e(G1, G2) against the reference vector, the final
 * exponentiation against a plain power by 3(p^12-1)/r, bilinearity on random
 * scalars, e^r = 1, multi-pairings (with points at infinity) against
 * products, the prepared form against the plain one, e(-P, Q)·e(P, Q) = 1.
 * Prints the time of one pairing, Miller loop and final exponentiation. */
#include <gmp.h>
#include <string.h>
#include <time.h>

#include "czk/pairing.h"
#include "test.h"

static mpz_t P, R;

static int limbs_of(uint64_t *out, int cap, const mpz_t e) {
    size_t count = 0;
    if ((int)((mpz_sizeinbase(e, 2) + 63) / 64) > cap) return -1;
    mpz_export(out, &count, -1, sizeof(uint64_t), 0, 0, e);
    if (count == 0) out[count++] = 0;
    return (int)count;
}

static void fp12_pow_mpz(czk_fp12 *r, const czk_fp12 *a, const mpz_t e) {
    uint64_t el[80];
    int n = limbs_of(el, 80, e);
    czk_fp12_pow(r, a, el, n);
}

static bool decode_hex_point(void *out, const char *name, bool g2) {
    char *hex = test_vector_value("bls12_381/constants.txt", name);
    if (!hex) return false;
    uint8_t buf[CZK_G2_UNCOMPRESSED_BYTES];
    long len = test_hex_decode(buf, sizeof buf, hex);
    free(hex);
    if (len < 0) return false;
    czk_err err = g2 ? czk_g2_decode(out, buf, (size_t)len, CZK_DECODE_CHECKED)
                     : czk_g1_decode(out, buf, (size_t)len, CZK_DECODE_CHECKED);
    return err == CZK_OK;
}

/* The vector file: '#' comment lines, then 12 lines of 96 hex digits. */
static bool read_gt_vector(czk_fp12 *r) {
    size_t len;
    char *text = (char *)test_read_vector("bls12_381/pairing_g1_g2.txt", &len);
    if (!text) return false;
    uint8_t bytes[CZK_FP12_BYTES];
    int k = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == 0) continue;
        size_t n = strcspn(line, " \r\t");
        line[n] = 0;
        if (k >= 12 || test_hex_decode(bytes + k * CZK_FP_BYTES, CZK_FP_BYTES, line) != CZK_FP_BYTES) {
            free(text);
            return false;
        }
        k++;
    }
    free(text);
    return k == 12 && czk_fp12_from_bytes_be(r, bytes);
}

static void g1_random(czk_g1_affine *r, czk_fr *k, const czk_g1_affine *g, czk_rng *rng) {
    czk_g1 t;
    czk_fr_random(k, rng);
    czk_g1_from_affine(&t, g);
    czk_g1_mul_fr(&t, &t, k);
    czk_g1_to_affine(r, &t);
}

static void g2_random(czk_g2_affine *r, czk_fr *k, const czk_g2_affine *g, czk_rng *rng) {
    czk_g2 t;
    czk_fr_random(k, rng);
    czk_g2_from_affine(&t, g);
    czk_g2_mul_fr(&t, &t, k);
    czk_g2_to_affine(r, &t);
}

static void fp12_pow_fr(czk_fp12 *r, const czk_fp12 *a, const czk_fr *k) {
    uint64_t v[CZK_FR_LIMBS];
    czk_fr_to_canonical(v, k);
    czk_fp12_pow(r, a, v, CZK_FR_LIMBS);
}

/* Thread CPU time: the test machines are shared, and wall time there
 * counts other processes. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_pairing");
    mpz_init_set_str(P,
                     "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
                     16);
    mpz_init_set_str(R, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);

    czk_g1_affine g1;
    czk_g2_affine g2;
    bool have_g = decode_hex_point(&g1, "G1", false) && decode_hex_point(&g2, "G2", true);
    CHECK(have_g);
    if (!have_g) return test_finish("test_pairing");

    /* e(G1, G2) = the reference value */
    czk_fp12 e, ref, f, t, u;
    czk_pairing(&e, &g1, &g2);
    CHECK(read_gt_vector(&ref));
    CHECK_MSG(czk_fp12_equal(&e, &ref), "e(G1, G2) differs from pairing_g1_g2.txt");

    /* the final exponentiation is the power by 3(p^12-1)/r (the convention of
     * the reference value, zkcrypto and blst) */
    mpz_t ex;
    mpz_init(ex);
    mpz_pow_ui(ex, P, 12);
    mpz_sub_ui(ex, ex, 1);
    CHECK(mpz_divisible_p(ex, R));
    mpz_divexact(ex, ex, R);
    mpz_mul_ui(ex, ex, 3);
    czk_miller_loop(&f, &g1, &g2);
    fp12_pow_mpz(&t, &f, ex);
    czk_final_exponentiation(&u, &f);
    CHECK_MSG(czk_fp12_equal(&t, &u), "final exponentiation is not f^(3(p^12-1)/r)");
    CHECK(czk_fp12_equal(&t, &ref));
    /* random f, and f = 0 */
    czk_fp12_random(&f, &rng);
    fp12_pow_mpz(&t, &f, ex);
    czk_final_exponentiation(&u, &f);
    CHECK(czk_fp12_equal(&t, &u));
    czk_fp12_set_zero(&f);
    czk_final_exponentiation(&u, &f);
    CHECK(czk_fp12_is_zero(&u));
    mpz_clear(ex);

    /* e is not 1 and e^r = 1 */
    uint64_t rl[4];
    limbs_of(rl, 4, R);
    CHECK(!czk_fp12_is_one(&e));
    czk_fp12_pow(&t, &e, rl, 4);
    CHECK(czk_fp12_is_one(&t));

    /* bilinearity: e(aP, bQ) = e(P, Q)^(ab) */
    long cases = test_cases(4);
    for (long i = 0; i < cases; i++) {
        czk_g1_affine ap;
        czk_g2_affine bq;
        czk_fr a, b, ab;
        g1_random(&ap, &a, &g1, &rng);
        g2_random(&bq, &b, &g2, &rng);
        czk_pairing(&t, &ap, &bq);
        czk_fr_mul(&ab, &a, &b);
        fp12_pow_fr(&u, &e, &ab);
        CHECK(czk_fp12_equal(&t, &u));
        czk_fp12_pow(&u, &t, rl, 4);
        CHECK(czk_fp12_is_one(&u));
        /* e(aP, Q)·e(-aP, Q) = 1 */
        czk_g1_affine neg;
        czk_g1_affine_neg(&neg, &ap);
        czk_g1_affine pp[2] = {ap, neg};
        czk_g2_affine qq[2] = {bq, bq};
        czk_pairing(&u, &neg, &bq);
        czk_fp12_mul(&u, &u, &t);
        CHECK(czk_fp12_is_one(&u));
        czk_multi_pairing(&u, pp, qq, 2);
        CHECK(czk_fp12_is_one(&u));
        /* e(P, -Q) = e(-P, Q) */
        czk_g2_affine nq;
        czk_g2_affine_neg(&nq, &bq);
        czk_pairing(&u, &ap, &nq);
        czk_pairing(&t, &neg, &bq);
        CHECK(czk_fp12_equal(&u, &t));
    }

    /* multi-pairing = product of pairings, n = 0..4 and 20 (two groups),
     * with points at infinity; prepared = unprepared */
    for (size_t n = 0; n <= 20; n = n < 4 ? n + 1 : 21) {
        czk_g1_affine ps[20];
        czk_g2_affine qs[20];
        czk_g2_prepared *prep = malloc(n * sizeof *prep + 1);
        const czk_g2_prepared *pq[20];
        czk_fr k;
        czk_fp12 prod, ml, ml2;
        czk_fp12_set_one(&prod);
        for (size_t i = 0; i < n; i++) {
            g1_random(&ps[i], &k, &g1, &rng);
            g2_random(&qs[i], &k, &g2, &rng);
            if (n >= 3 && i == 1) czk_g1_affine_set_infinity(&ps[i]);
            if (n >= 3 && i == 2) czk_g2_affine_set_infinity(&qs[i]);
            if (n >= 4 && i == 3) {
                czk_g1_affine_set_infinity(&ps[i]);
                czk_g2_affine_set_infinity(&qs[i]);
            }
            czk_pairing(&t, &ps[i], &qs[i]);
            if (czk_g1_affine_is_infinity(&ps[i]) || czk_g2_affine_is_infinity(&qs[i]))
                CHECK(czk_fp12_is_one(&t));
            czk_fp12_mul(&prod, &prod, &t);
            czk_g2_prepare(&prep[i], &qs[i]);
            pq[i] = &prep[i];
        }
        czk_multi_pairing(&t, ps, qs, n);
        CHECK_MSG(czk_fp12_equal(&t, &prod), "multi-pairing, n = %zu", n);
        czk_multi_miller_loop(&ml, ps, qs, n);
        czk_multi_miller_loop_prepared(&ml2, ps, pq, n);
        CHECK_MSG(czk_fp12_equal(&ml, &ml2), "prepared Miller loop, n = %zu", n);
        czk_final_exponentiation(&ml2, &ml2);
        CHECK_MSG(czk_fp12_equal(&ml2, &prod), "prepared multi-pairing, n = %zu", n);
        if (n == 0) CHECK(czk_fp12_is_one(&ml) && czk_fp12_is_one(&t));
        free(prep);
    }

    /* timing: median of runs (n = 1) */
    enum { RUNS = 30 };
    double tp[RUNS], tm[RUNS], tf[RUNS], tpp[RUNS];
    czk_g2_prepared *prepared = malloc(sizeof *prepared);
    czk_g2_prepare(prepared, &g2);
    const czk_g2_prepared *pp1[1] = {prepared};
    for (int i = 0; i < RUNS; i++) {
        double t0 = now();
        czk_pairing(&t, &g1, &g2);
        double t1 = now();
        czk_miller_loop(&f, &g1, &g2);
        double t2 = now();
        czk_final_exponentiation(&u, &f);
        double t3 = now();
        czk_multi_miller_loop_prepared(&f, &g1, pp1, 1);
        double t4 = now();
        tp[i] = t1 - t0;
        tm[i] = t2 - t1;
        tf[i] = t3 - t2;
        tpp[i] = t4 - t3;
    }
    free(prepared);
    qsort(tp, RUNS, sizeof(double), cmp_double);
    qsort(tm, RUNS, sizeof(double), cmp_double);
    qsort(tf, RUNS, sizeof(double), cmp_double);
    qsort(tpp, RUNS, sizeof(double), cmp_double);
    printf("test_pairing: median CPU time of %d: pairing %.1f us, Miller loop %.1f us (prepared %.1f us), "
           "final exponentiation %.1f us (fp impl %s)\n",
           RUNS, tp[RUNS / 2] * 1e6, tm[RUNS / 2] * 1e6, tpp[RUNS / 2] * 1e6, tf[RUNS / 2] * 1e6,
           czk_fp_get_impl() == CZK_FP_IMPL_ADX ? "adx" : "portable");

    mpz_clears(P, R, NULL);
    return test_finish("test_pairing");
}
