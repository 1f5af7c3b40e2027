/* R1CS files: save → load gives the same system and saving it again gives
 * the same bytes; load refuses a wrong magic, version, circuit id, a
 * truncated or oversized file, a flipped body byte (checksum) and a crafted
 * file with a valid checksum but broken structure, each with its own message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "czk/mem.h"
#include "czk/r1cs.h"
#include "test.h"

typedef struct {
    uint64_t seed;
    size_t n;
} gen_ctx;

/* A random satisfiable-or-not circuit: only the shape matters here. */
static czk_err gen_circuit(czk_cs *cs, void *p) {
    gen_ctx *g = p;
    czk_rng rng;
    czk_rng_seed(&rng, g->seed);
    czk_var v;
    czk_fr val;
    czk_err e;
    size_t ni = 1, na = 0;
    czk_lc l[3] = {{0}, {0}, {0}};
    for (size_t k = 0; k < g->n; k++) {
        czk_fr_random(&val, &rng);
        bool input = czk_rng_next(&rng) % 4 == 0;
        if ((e = input ? czk_cs_alloc_input(cs, &v, "v", &val) : czk_cs_alloc(cs, &v, "v", &val))) goto out;
        input ? ni++ : na++;
        for (int m = 0; m < 3; m++) {
            czk_lc_clear(&l[m]);
            for (int t = (int)(czk_rng_next(&rng) % 4); t > 0; t--) {
                uint64_t j = czk_rng_next(&rng) % (ni + na);
                czk_var u = j < ni ? (czk_var){(uint32_t)j, 1} : (czk_var){(uint32_t)(j - ni), 0};
                czk_fr_random(&val, &rng);
                czk_lc_add(&l[m], u, czk_rng_next(&rng) % 3 ? &val : NULL);
            }
        }
        czk_cs_enforce(cs, "c", &l[0], &l[1], &l[2]);
    }
    e = CZK_OK;
out:
    for (int m = 0; m < 3; m++) czk_lc_free(&l[m]);
    return e;
}

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void spit(const char *path, const uint8_t *b, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    if (fwrite(b, 1, len, f) != len) test_failures++;
    fclose(f);
}

static bool csr_equal(const czk_csr *x, const czk_csr *y, size_t rows) {
    return x->nnz == y->nnz && memcmp(x->row_ptr, y->row_ptr, (rows + 1) * 8) == 0 &&
           (x->nnz == 0 || (memcmp(x->col, y->col, x->nnz * 4) == 0 &&
                            memcmp(x->coeff, y->coeff, x->nnz * sizeof(czk_fr)) == 0));
}

static bool r1cs_equal(const czk_r1cs *x, const czk_r1cs *y) {
    return x->n_inputs == y->n_inputs && x->n_aux == y->n_aux && x->n_constraints == y->n_constraints &&
           csr_equal(&x->a, &y->a, x->n_constraints) && csr_equal(&x->b, &y->b, x->n_constraints) &&
           csr_equal(&x->c, &y->c, x->n_constraints);
}

/* Loads path expecting failure `want` with `needle` in the message. */
static void expect_reject(const char *path, const char *id, czk_err want, const char *needle) {
    char msg[512] = "";
    czk_r1cs r;
    czk_err e = czk_r1cs_load(&r, id, path, msg, sizeof msg);
    CHECK_MSG(e == want, "want %s, got %s (%s)", czk_err_str(want), czk_err_str(e), msg);
    CHECK_MSG(strstr(msg, needle) != NULL, "message \"%s\" lacks \"%s\"", msg, needle);
    CHECK(r.a.row_ptr == NULL && r.n_inputs == 0);
}

/* Recomputes the checksum of a modified file so that later checks are hit. */
static void reseal(uint8_t *b, size_t len) {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    unsigned int n;
    EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    EVP_DigestUpdate(md, b, 96);
    EVP_DigestUpdate(md, b + 128, len - 128);
    EVP_DigestFinal_ex(md, b + 96, &n);
    EVP_MD_CTX_free(md);
}

int main(void) {
    czk_rng rng;
    uint64_t seed = test_seed_rng(&rng, "test_r1cs_file");
    char dir[] = "/tmp/czk_r1cs_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char path[256], path2[256], bad[256];
    snprintf(path, sizeof path, "%s/a.r1cs", dir);
    snprintf(path2, sizeof path2, "%s/b.r1cs", dir);
    snprintf(bad, sizeof bad, "%s/bad.r1cs", dir);
    const char *id = "test-circuit/v1";
    char msg[512];

    /* round trips, including the empty circuit */
    size_t sizes[3] = {0, 7, (size_t)test_cases(3000)};
    for (int s = 0; s < 3; s++) {
        gen_ctx g = {seed + (uint64_t)s, sizes[s]};
        czk_r1cs r, r2;
        czk_err e = czk_r1cs_record(&r, gen_circuit, &g, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s", msg);
        CHECK_MSG(czk_r1cs_save(&r, id, path, msg, sizeof msg) == CZK_OK, "%s", msg);
        e = czk_r1cs_load(&r2, id, path, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s", msg);
        CHECK(r1cs_equal(&r, &r2));
        CHECK(czk_r1cs_save(&r2, id, path2, msg, sizeof msg) == CZK_OK);
        size_t l1, l2;
        uint8_t *b1 = slurp(path, &l1), *b2 = slurp(path2, &l2);
        CHECK(b1 && b2 && l1 == l2 && memcmp(b1, b2, l1) == 0);
        free(b1), free(b2);
        czk_r1cs_free(&r2);
        czk_r1cs_free(&r);
    }

    /* rejections, on the last saved file */
    size_t len;
    uint8_t *orig = slurp(path, &len), *b = malloc(len);
    CHECK(orig && len > 200);

    memcpy(b, orig, len), b[0] ^= 1, spit(bad, b, len);
    expect_reject(bad, id, CZK_ERR_FORMAT, "bad magic");

    memcpy(b, orig, len), b[8] = 2, spit(bad, b, len);
    expect_reject(bad, id, CZK_ERR_FORMAT, "unsupported R1CS file version 2");

    expect_reject(path, "another-circuit/v1", CZK_ERR_MISMATCH, "another circuit");

    spit(bad, orig, len - 1);
    expect_reject(bad, id, CZK_ERR_FORMAT, "truncated R1CS file");
    spit(bad, orig, 100);
    expect_reject(bad, id, CZK_ERR_FORMAT, "shorter than the header");
    spit(bad, orig, len);
    {
        FILE *f = fopen(bad, "ab");
        fputc(0, f);
        fclose(f);
    }
    expect_reject(bad, id, CZK_ERR_FORMAT, "oversized R1CS file");

    for (int t = 0; t < 8; t++) { /* any body byte, or a count-free header byte */
        size_t at = 128 + czk_rng_next(&rng) % (len - 128);
        memcpy(b, orig, len), b[at] ^= (uint8_t)(1u << (czk_rng_next(&rng) % 8)), spit(bad, b, len);
        expect_reject(bad, id, CZK_ERR_FORMAT, "checksum mismatch");
    }
    memcpy(b, orig, len), b[100] ^= 0x10, spit(bad, b, len); /* the stored checksum itself */
    expect_reject(bad, id, CZK_ERR_FORMAT, "checksum mismatch");

    /* valid checksums over broken contents */
    size_t nc = (size_t)test_cases(3000);
    size_t col_a = 128 + (nc + 1) * 8;
    memcpy(b, orig, len);
    memset(b + col_a, 0xff, 4); /* column out of range */
    reseal(b, len), spit(bad, b, len);
    expect_reject(bad, id, CZK_ERR_FORMAT, "bad or unsorted column");
    memcpy(b, orig, len);
    b[128 + 15] = 0x7f; /* row_ptr[1] huge */
    reseal(b, len), spit(bad, b, len);
    expect_reject(bad, id, CZK_ERR_FORMAT, "bad bounds");
    {
        uint64_t nnz_a;
        memcpy(&nnz_a, orig + 72, 8);
        size_t coeff_a = col_a + nnz_a * 4;
        memcpy(b, orig, len);
        memset(b + coeff_a, 0xff, 32); /* >= r */
        reseal(b, len), spit(bad, b, len);
        expect_reject(bad, id, CZK_ERR_FORMAT, "coefficient >= r");
    }
    expect_reject("/nonexistent/dir/x.r1cs", id, CZK_ERR_IO, "cannot open");
    {
        czk_r1cs r = {0};
        CHECK(czk_r1cs_save(&r, id, path, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT); /* no row_ptr */
        gen_ctx g = {seed, 3};
        CHECK(czk_r1cs_record(&r, gen_circuit, &g, msg, sizeof msg) == CZK_OK);
        CHECK(czk_r1cs_save(&r, id, "/nonexistent/dir/x.r1cs", msg, sizeof msg) == CZK_ERR_IO);
        czk_r1cs_free(&r);
    }
    free(orig), free(b);
    unlink(path), unlink(path2), unlink(bad), rmdir(dir);
    CHECK(czk_mem_in_use(CZK_MEM_R1CS) == 0);
    return test_finish("test_r1cs_file");
}
