/* bellperson proofs (192 bytes: A ‖ B ‖ C compressed), single and concatenated. */
#include "io_fixtures.h"

#define NAME "test_proof_io"

static czk_rng rng;
static char msg[1024];

static void random_proof(czk_proof *p) {
    fx_g1(&p->a, &rng);
    fx_g2(&p->b, &rng);
    fx_g1(&p->c, &rng);
}

static int proof_equal(const czk_proof *x, const czk_proof *y) {
    return czk_g1_affine_equal(&x->a, &y->a) && czk_g2_affine_equal(&x->b, &y->b) &&
           czk_g1_affine_equal(&x->c, &y->c);
}

static void expect_fail(const uint8_t in[192], const char *w1, const char *w2, int line) {
    czk_proof p, untouched;
    memset(&p, 0x5a, sizeof p);
    untouched = p;
    msg[0] = 0;
    czk_err e = czk_proof_decode(&p, in, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_FORMAT, "line %d: got %s (%s)", line, czk_err_str(e), msg);
    CHECK_MSG(strstr(msg, w1) && (!w2 || strstr(msg, w2)), "line %d: message '%s' lacks '%s'/'%s'", line, msg, w1,
              w2 ? w2 : "");
    CHECK_MSG(memcmp(&p, &untouched, sizeof p) == 0, "line %d: output written on error", line);
}

static void test_single(void) {
    for (long t = 0; t < test_cases(8); t++) {
        czk_proof p, q;
        random_proof(&p);
        uint8_t b[CZK_PROOF_BYTES], c[CZK_PROOF_BYTES];
        czk_proof_encode(b, &p);
        uint8_t part[96];
        czk_g1_to_compressed(part, &p.a);
        CHECK(memcmp(b, part, 48) == 0);
        czk_g2_to_compressed(part, &p.b);
        CHECK(memcmp(b + 48, part, 96) == 0);
        czk_g1_to_compressed(part, &p.c);
        CHECK(memcmp(b + 144, part, 48) == 0);
        CHECK((b[0] & 0x80) && (b[48] & 0x80) && (b[144] & 0x80));
        CHECK_MSG(czk_proof_decode(&q, b, msg, sizeof msg) == CZK_OK, "%s", msg);
        CHECK(proof_equal(&p, &q));
        czk_proof_encode(c, &q);
        CHECK(memcmp(b, c, sizeof b) == 0);
    }

    czk_proof p;
    random_proof(&p);
    uint8_t good[192], b[192];
    czk_proof_encode(good, &p);
    /* identity: rejected for each of A, B, C (bellperson's read_many) */
    static const char *part[3] = {"A (offset 0)", "B (offset 48)", "C (offset 144)"};
    static const size_t off[3] = {0, 48, 144}, sz[3] = {48, 96, 48};
    for (int i = 0; i < 3; i++) {
        memcpy(b, good, 192);
        memset(b + off[i], 0, sz[i]);
        b[off[i]] = 0xc0;
        expect_fail(b, part[i], "point at infinity", __LINE__);
        /* x >= p */
        memcpy(b, good, 192);
        fx_modulus_be(b + off[i]);
        b[off[i]] |= 0x80;
        expect_fail(b, part[i], "not below its modulus", __LINE__);
        /* uncompressed flag on a compressed encoding */
        memcpy(b, good, 192);
        b[off[i]] &= 0x7f;
        expect_fail(b, part[i], "compression flag", __LINE__);
    }
    /* not in the subgroup: the proof decoder always checks */
    czk_g1_affine o1;
    czk_g2_affine o2;
    fx_g1_outside(&o1, &rng);
    fx_g2_outside(&o2, &rng);
    memcpy(b, good, 192);
    czk_g1_to_compressed(b, &o1);
    expect_fail(b, "A (offset 0)", "subgroup", __LINE__);
    memcpy(b, good, 192);
    czk_g2_to_compressed(b + 48, &o2);
    expect_fail(b, "B (offset 48)", "subgroup", __LINE__);
    memcpy(b, good, 192);
    czk_g1_to_compressed(b + 144, &o1);
    expect_fail(b, "C (offset 144)", "subgroup", __LINE__);
    /* x with no point on the curve: flip x bits until the decoder says so */
    int seen = 0;
    for (int bit = 0; bit < 64 && !seen; bit++) {
        memcpy(b, good, 192);
        b[47 - bit / 8] ^= (uint8_t)(1u << (bit % 8));
        czk_proof q;
        if (czk_proof_decode(&q, b, msg, sizeof msg) == CZK_ERR_FORMAT && strstr(msg, "not on the curve")) seen = 1;
    }
    CHECK(seen);
}

static void test_many(const char *dir) {
    enum { N = 10 };
    czk_proof p[N];
    for (int i = 0; i < N; i++) random_proof(&p[i]);
    uint8_t buf[N * 192 + 1];
    czk_proofs_encode(buf, p, N);
    for (int i = 0; i < N; i++) {
        uint8_t one[192];
        czk_proof_encode(one, &p[i]);
        CHECK(memcmp(buf + i * 192, one, 192) == 0);
    }
    czk_proof *q;
    size_t n;
    CHECK(czk_proofs_decode(&q, &n, buf, N * 192, msg, sizeof msg) == CZK_OK && n == N);
    for (int i = 0; i < N; i++) CHECK(proof_equal(&p[i], &q[i]));
    free(q);
    /* other lengths */
    static const size_t bad_len[] = {0, 1, 191, 193, 383, N * 192 + 1};
    for (size_t k = 0; k < sizeof bad_len / sizeof *bad_len; k++) {
        q = (czk_proof *)1;
        n = 99;
        CHECK(czk_proofs_decode(&q, &n, buf, bad_len[k], msg, sizeof msg) == CZK_ERR_FORMAT);
        CHECK(q == NULL && n == 0);
        CHECK_MSG(bad_len[k] == 0 ? strstr(msg, "empty") != NULL : strstr(msg, "not a multiple") != NULL, "%s", msg);
    }
    /* a bad proof in the middle is named */
    buf[3 * 192 + 48 + 95] ^= 1;
    czk_err e = czk_proofs_decode(&q, &n, buf, N * 192, msg, sizeof msg);
    CHECK(e == CZK_ERR_FORMAT && q == NULL && n == 0);
    CHECK_MSG(strstr(msg, "proof 3 of 10: B (offset 624)"), "%s", msg);
    buf[3 * 192 + 48 + 95] ^= 1;

    /* files */
    char path[600];
    fx_path(path, sizeof path, dir, "proof.bin");
    CHECK_MSG(czk_proofs_write(p, N, path, msg, sizeof msg) == CZK_OK, "%s", msg);
    size_t flen;
    uint8_t *file = fx_read_raw(path, &flen);
    CHECK(file && flen == N * 192 && memcmp(file, buf, flen) == 0);
    free(file);
    CHECK_MSG(czk_proofs_read(&q, &n, path, msg, sizeof msg) == CZK_OK && n == N, "%s", msg);
    for (int i = 0; i < N; i++) CHECK(proof_equal(&p[i], &q[i]));
    free(q);
    fx_write_raw(path, buf, 200);
    CHECK(czk_proofs_read(&q, &n, path, msg, sizeof msg) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(msg, path) && strstr(msg, "200 bytes"), "%s", msg);
    CHECK(czk_proofs_read(&q, &n, "/nonexistent/p.bin", msg, sizeof msg) == CZK_ERR_IO);
    CHECK(czk_proofs_write(p, 0, path, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    czk_g2_affine_set_infinity(&p[4].b);
    CHECK(czk_proofs_write(p, N, path, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "proof 4"));
}

int main(void) {
    test_seed_rng(&rng, NAME);
    char *dir = fx_tmpdir();
    test_single();
    test_many(dir);
    fx_tmpdir_remove(dir);
    return test_finish(NAME);
}
