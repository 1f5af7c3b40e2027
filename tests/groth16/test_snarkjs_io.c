/* snarkjs JSON export (verification_key.json, proof.json, public.json) and the
 * public.json reader; decimals checked against GMP. */
#include <gmp.h>
#include <jansson.h>

#include "io_fixtures.h"

#define NAME "test_snarkjs_io"

static czk_rng rng;
static char msg[1024];

/* GMP's decimal of n little-endian limbs: the oracle. */
static void gmp_dec(char *out, size_t cap, const uint64_t *limbs, size_t n) {
    mpz_t z;
    mpz_init(z);
    mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, limbs);
    CHECK(mpz_sizeinbase(z, 10) + 2 <= cap);
    mpz_get_str(out, 10, z);
    mpz_clear(z);
}

static void fp_expect(char *out, size_t cap, const czk_fp *a) {
    uint64_t v[6];
    czk_fp_to_canonical(v, a);
    gmp_dec(out, cap, v, 6);
}

static int str_is(const json_t *j, const char *want) {
    return json_is_string(j) && strcmp(json_string_value(j), want) == 0;
}

static void check_g1(const json_t *j, const czk_g1_affine *p, const char *what) {
    char x[200], y[200];
    CHECK_MSG(json_is_array(j) && json_array_size(j) == 3, "%s: not a 3-array", what);
    if (czk_g1_affine_is_infinity(p)) {
        CHECK_MSG(str_is(json_array_get(j, 0), "0") && str_is(json_array_get(j, 1), "1") &&
                      str_is(json_array_get(j, 2), "0"),
                  "%s: infinity", what);
        return;
    }
    fp_expect(x, sizeof x, &p->x);
    fp_expect(y, sizeof y, &p->y);
    CHECK_MSG(str_is(json_array_get(j, 0), x) && str_is(json_array_get(j, 1), y) &&
                  str_is(json_array_get(j, 2), "1"),
              "%s: coordinates differ from GMP's decimals", what);
}

static void check_g2(const json_t *j, const czk_g2_affine *p, const char *what) {
    CHECK_MSG(json_is_array(j) && json_array_size(j) == 3, "%s: not a 3-array", what);
    const char *want[3][2];
    char b[4][200];
    if (czk_g2_affine_is_infinity(p)) {
        want[0][0] = want[0][1] = want[2][0] = want[2][1] = want[1][1] = "0";
        want[1][0] = "1";
    } else {
        fp_expect(b[0], sizeof b[0], &p->x.c0);
        fp_expect(b[1], sizeof b[1], &p->x.c1);
        fp_expect(b[2], sizeof b[2], &p->y.c0);
        fp_expect(b[3], sizeof b[3], &p->y.c1);
        want[0][0] = b[0], want[0][1] = b[1], want[1][0] = b[2], want[1][1] = b[3];
        want[2][0] = "1", want[2][1] = "0";
    }
    for (int i = 0; i < 3; i++) {
        const json_t *c = json_array_get(j, (size_t)i);
        CHECK_MSG(json_is_array(c) && json_array_size(c) == 2 && str_is(json_array_get(c, 0), want[i][0]) &&
                      str_is(json_array_get(c, 1), want[i][1]),
                  "%s: coordinate %d differs from GMP's decimals", what, i);
    }
}

static json_t *load(const char *path) {
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    CHECK_MSG(j != NULL, "%s: %s", path, e.text);
    return j;
}

static void test_decimal(void) {
    /* edge values and random ones against GMP */
    czk_fr vals[6];
    czk_fr_set_zero(&vals[0]);
    czk_fr_set_one(&vals[1]);
    czk_fr_neg(&vals[2], &vals[1]); /* r - 1 */
    czk_fr_from_u64(&vals[3], 10000000000000000000ULL);
    czk_fr_from_u64(&vals[4], 9999999999999999999ULL);
    czk_fr_from_u64(&vals[5], UINT64_MAX);
    for (long t = 0; t < 6 + test_cases(200); t++) {
        czk_fr a;
        if (t < 6) a = vals[t];
        else czk_fr_random(&a, &rng);
        char got[CZK_FR_DECIMAL_MAX], want[100];
        uint64_t v[4];
        czk_fr_to_decimal(got, &a);
        czk_fr_to_canonical(v, &a);
        gmp_dec(want, sizeof want, v, 4);
        CHECK_MSG(strcmp(got, want) == 0, "decimal %s, GMP %s", got, want);
        czk_fr b;
        CHECK(czk_fr_from_decimal(&b, got, strlen(got), msg, sizeof msg) == CZK_OK && czk_fr_equal(&a, &b));
    }
    /* r itself, r + 1, 2^256, 10^78, and r - 1 with leading zeros */
    char r_dec[100], buf[200];
    gmp_dec(r_dec, sizeof r_dec, CZK_FR_MODULUS.l, 4);
    czk_fr a;
    CHECK(czk_fr_from_decimal(&a, r_dec, strlen(r_dec), msg, sizeof msg) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(msg, "not below the field modulus r"), "%s", msg);
    mpz_t z;
    mpz_init_set_str(z, r_dec, 10);
    mpz_add_ui(z, z, 1);
    mpz_get_str(buf, 10, z);
    CHECK(czk_fr_from_decimal(&a, buf, strlen(buf), msg, sizeof msg) == CZK_ERR_FORMAT);
    mpz_ui_pow_ui(z, 2, 256);
    mpz_get_str(buf, 10, z);
    CHECK(czk_fr_from_decimal(&a, buf, strlen(buf), msg, sizeof msg) == CZK_ERR_FORMAT);
    mpz_ui_pow_ui(z, 10, 78);
    mpz_sub_ui(z, z, 1);
    mpz_get_str(buf, 10, z);
    CHECK(strlen(buf) == 78 && czk_fr_from_decimal(&a, buf, 78, msg, sizeof msg) == CZK_ERR_FORMAT);
    mpz_set_str(z, r_dec, 10);
    mpz_sub_ui(z, z, 1);
    strcpy(buf, "0000000000");
    mpz_get_str(buf + 10, 10, z);
    CHECK(czk_fr_from_decimal(&a, buf, strlen(buf), msg, sizeof msg) == CZK_OK);
    czk_fr m1;
    czk_fr_set_one(&m1);
    czk_fr_neg(&m1, &m1);
    CHECK(czk_fr_equal(&a, &m1));
    mpz_clear(z);
    memset(buf, '9', 150);
    CHECK(czk_fr_from_decimal(&a, buf, 150, msg, sizeof msg) == CZK_ERR_FORMAT && strstr(msg, "150 digits"));
    static const char *bad[] = {"", "-1", "+1", " 1", "1 ", "1.0", "0x10", "1e3", "12a"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_MSG(czk_fr_from_decimal(&a, bad[i], strlen(bad[i]), msg, sizeof msg) == CZK_ERR_FORMAT, "'%s'",
                  bad[i]);
    CHECK(czk_fr_from_decimal(&a, "12\0003", 4, msg, sizeof msg) == CZK_ERR_FORMAT && strstr(msg, "byte 0x00"));
    CHECK(czk_fr_from_decimal(&a, "000", 3, msg, sizeof msg) == CZK_OK && czk_fr_is_zero(&a));
}

static void test_vk_proof_json(const char *dir) {
    for (int inf = 0; inf < 2; inf++) {
        czk_vk vk;
        fx_vk(&vk, 4, inf, &rng);
        char path[600];
        fx_path(path, sizeof path, dir, "verification_key.json");
        CHECK_MSG(czk_snarkjs_write_vk(&vk, path, msg, sizeof msg) == CZK_OK, "%s", msg);
        json_t *j = load(path);
        if (!j) continue;
        CHECK(json_object_size(j) == 8);
        CHECK(str_is(json_object_get(j, "protocol"), "groth16"));
        CHECK(str_is(json_object_get(j, "curve"), "bls12381"));
        CHECK(json_is_integer(json_object_get(j, "nPublic")) &&
              json_integer_value(json_object_get(j, "nPublic")) == 3);
        check_g1(json_object_get(j, "vk_alpha_1"), &vk.alpha_g1, "vk_alpha_1");
        check_g2(json_object_get(j, "vk_beta_2"), &vk.beta_g2, "vk_beta_2");
        check_g2(json_object_get(j, "vk_gamma_2"), &vk.gamma_g2, "vk_gamma_2");
        check_g2(json_object_get(j, "vk_delta_2"), &vk.delta_g2, "vk_delta_2");
        const json_t *ic = json_object_get(j, "IC");
        CHECK(json_is_array(ic) && json_array_size(ic) == 4);
        for (size_t i = 0; i < 4; i++) check_g1(json_array_get(ic, i), &vk.ic[i], "IC");
        json_decref(j);
        czk_vk_free(&vk);
    }
    czk_vk empty = {0};
    char path[600];
    fx_path(path, sizeof path, dir, "vk0.json");
    CHECK(czk_snarkjs_write_vk(&empty, path, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(access(path, F_OK) != 0);

    czk_proof p;
    fx_g1(&p.a, &rng);
    fx_g2(&p.b, &rng);
    fx_g1(&p.c, &rng);
    fx_path(path, sizeof path, dir, "proof.json");
    CHECK_MSG(czk_snarkjs_write_proof(&p, path, msg, sizeof msg) == CZK_OK, "%s", msg);
    json_t *j = load(path);
    if (j) {
        CHECK(json_object_size(j) == 5);
        CHECK(str_is(json_object_get(j, "protocol"), "groth16"));
        CHECK(str_is(json_object_get(j, "curve"), "bls12381"));
        check_g1(json_object_get(j, "pi_a"), &p.a, "pi_a");
        check_g2(json_object_get(j, "pi_b"), &p.b, "pi_b");
        check_g1(json_object_get(j, "pi_c"), &p.c, "pi_c");
        json_decref(j);
    }
    CHECK(czk_snarkjs_write_proof(&p, "/nonexistent/proof.json", msg, sizeof msg) == CZK_ERR_IO);
}

static void test_public(const char *dir) {
    enum { N = 5 };
    czk_fr in[N];
    for (int i = 0; i < N; i++) czk_fr_random(&in[i], &rng);
    czk_fr_set_zero(&in[1]);
    char path[600];
    fx_path(path, sizeof path, dir, "public.json");
    CHECK_MSG(czk_snarkjs_write_public(in, N, path, msg, sizeof msg) == CZK_OK, "%s", msg);
    json_t *j = load(path);
    CHECK(j && json_is_array(j) && json_array_size(j) == N);
    for (size_t i = 0; j && i < N; i++) {
        uint64_t v[4];
        char want[100];
        czk_fr_to_canonical(v, &in[i]);
        gmp_dec(want, sizeof want, v, 4);
        CHECK(str_is(json_array_get(j, i), want));
    }
    json_decref(j);
    czk_fr *out;
    size_t n;
    CHECK_MSG(czk_public_read_json(&out, &n, path, msg, sizeof msg) == CZK_OK && n == N, "%s", msg);
    for (size_t i = 0; i < n; i++) CHECK(czk_fr_equal(&out[i], &in[i]));
    free(out);
    /* empty is fine, both ways */
    CHECK(czk_snarkjs_write_public(NULL, 0, path, msg, sizeof msg) == CZK_OK);
    CHECK(czk_public_read_json(&out, &n, path, msg, sizeof msg) == CZK_OK && n == 0 && out == NULL);
    CHECK(czk_public_parse_json(&out, &n, " [ ] ", 5, msg, sizeof msg) == CZK_OK && n == 0 && out == NULL);

    char r_dec[100], big[200];
    gmp_dec(r_dec, sizeof r_dec, CZK_FR_MODULUS.l, 4);
    snprintf(big, sizeof big, "[\"1\", \"%s\"]", r_dec);
    static const struct {
        const char *json, *w1, *w2;
    } bad[] = {
        {"", "invalid JSON", NULL},
        {"[\"1\", ", "invalid JSON", NULL},
        {"[\"1\"] x", "invalid JSON", NULL},
        {"{\"a\": \"1\"}", "top level is an object", NULL},
        {"\"1\"", "top level is a string", NULL},
        {"[\"1\", 2]", "element 1 is an integer", NULL},
        {"[\"1\", \"2\", null]", "element 2 is null", NULL},
        {"[[\"1\"]]", "element 0 is an array", NULL},
        {"[1.5]", "element 0 is a real number", NULL},
        {"[\"1\", \"-2\"]", "element 1", "not a decimal digit"},
        {"[\"0x12\"]", "element 0", "character 1 ('x')"},
        {"[\"\"]", "element 0", "empty string"},
        {"[\"1\\u00002\"]", "invalid JSON", NULL}, /* jansson refuses NUL in strings */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        out = (czk_fr *)1;
        n = 7;
        czk_err e = czk_public_parse_json(&out, &n, bad[i].json, strlen(bad[i].json), msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_FORMAT, "%s: %s", bad[i].json, czk_err_str(e));
        CHECK(out == NULL && n == 0);
        CHECK_MSG(strstr(msg, "public.json") && strstr(msg, bad[i].w1) && (!bad[i].w2 || strstr(msg, bad[i].w2)),
                  "%s: message '%s'", bad[i].json, msg);
    }
    CHECK(czk_public_parse_json(&out, &n, big, strlen(big), msg, sizeof msg) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(msg, "element 1") && strstr(msg, "not below the field modulus r"), "%s", msg);
    CHECK(czk_public_read_json(&out, &n, "/nonexistent/public.json", msg, sizeof msg) == CZK_ERR_IO);
    fx_write_raw(path, "[\"12\", 3]", 9);
    CHECK(czk_public_read_json(&out, &n, path, msg, sizeof msg) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(msg, path) && strstr(msg, "element 1 is an integer"), "%s", msg);
}

int main(void) {
    test_seed_rng(&rng, NAME);
    char *dir = fx_tmpdir();
    test_decimal();
    test_vk_proof_json(dir);
    test_public(dir);
    fx_tmpdir_remove(dir);
    return test_finish(NAME);
}
