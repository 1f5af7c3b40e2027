/* bellperson .vk and .params files: byte-exact round trips, and every kind of
 * malformed input rejected with the right code and a message naming where. */
#include <errno.h>
#include <sys/stat.h>

#include "czk/pool.h"
#include "io_fixtures.h"

#define NAME "test_io"

static czk_rng rng;
static czk_pool *pool;
static char msg[1024];

#define G1U 96
#define G2U 192

/* Offset of section s's count (0 = h … 4 = b_g2) in p's encoding. */
static size_t section_count_offset(const czk_params *p, int s) {
    size_t off = czk_vk_encoded_size(p->vk.n_ic);
    size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    for (int i = 0; i < s; i++) off += 4 + n[i] * (i == 4 ? G2U : G1U);
    return off;
}

static uint8_t *encode_params(const czk_params *p, size_t *len) {
    CHECK(czk_params_encode(p, NULL, 0, len, pool, msg, sizeof msg) == CZK_OK);
    CHECK(*len == czk_params_encoded_size(p));
    uint8_t *buf = malloc(*len);
    czk_err e = czk_params_encode(p, buf, *len, len, pool, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    return buf;
}

/* decode must fail with want and a message containing each of the words. */
static void expect_params_fail(const uint8_t *buf, size_t len, czk_decode_mode mode, czk_err want, const char *w1,
                               const char *w2, int line) {
    czk_params p;
    memset(&p, 0xa5, sizeof p);
    size_t before = czk_mem_in_use(CZK_MEM_SRS);
    msg[0] = 0;
    czk_err e = czk_params_decode(&p, buf, len, mode, pool, msg, sizeof msg);
    CHECK_MSG(e == want, "line %d: got %s, want %s (%s)", line, czk_err_str(e), czk_err_str(want), msg);
    CHECK_MSG(!w1 || strstr(msg, w1), "line %d: message '%s' lacks '%s'", line, msg, w1);
    CHECK_MSG(!w2 || strstr(msg, w2), "line %d: message '%s' lacks '%s'", line, msg, w2);
    CHECK_MSG(p.h == NULL && p.n_h == 0 && p.vk.ic == NULL && p.b_g2 == NULL, "line %d: output not emptied", line);
    CHECK_MSG(czk_mem_in_use(CZK_MEM_SRS) == before, "line %d: SRS memory leaked", line);
    if (e == CZK_OK) czk_params_free(&p);
}

static int params_equal(const czk_params *a, const czk_params *b) {
    if (!fx_vk_equal(&a->vk, &b->vk)) return 0;
    if (a->n_h != b->n_h || a->n_l != b->n_l || a->n_a != b->n_a || a->n_b_g1 != b->n_b_g1 ||
        a->n_b_g2 != b->n_b_g2)
        return 0;
    for (size_t i = 0; i < a->n_h; i++) if (!czk_g1_affine_equal(&a->h[i], &b->h[i])) return 0;
    for (size_t i = 0; i < a->n_l; i++) if (!czk_g1_affine_equal(&a->l[i], &b->l[i])) return 0;
    for (size_t i = 0; i < a->n_a; i++) if (!czk_g1_affine_equal(&a->a[i], &b->a[i])) return 0;
    for (size_t i = 0; i < a->n_b_g1; i++) if (!czk_g1_affine_equal(&a->b_g1[i], &b->b_g1[i])) return 0;
    for (size_t i = 0; i < a->n_b_g2; i++) if (!czk_g2_affine_equal(&a->b_g2[i], &b->b_g2[i])) return 0;
    return 1;
}

/* ---- vk ------------------------------------------------------------------------ */

static void test_vk(const char *dir) {
    for (int inf = 0; inf < 2; inf++) {
        czk_vk vk;
        fx_vk(&vk, inf ? 1 : 4, inf, &rng);
        size_t len;
        CHECK(czk_vk_encode(&vk, NULL, 0, &len, msg, sizeof msg) == CZK_OK);
        CHECK(len == 864 + 4 + 96 * vk.n_ic && len == czk_vk_encoded_size(vk.n_ic));
        uint8_t *buf = malloc(len + 200);
        size_t len2;
        CHECK(czk_vk_encode(&vk, buf, len - 1, &len2, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
        CHECK(czk_vk_encode(&vk, buf, len, &len2, msg, sizeof msg) == CZK_OK && len2 == len);
        /* the layout, field by field */
        uint8_t pt[192];
        czk_g1_to_uncompressed(pt, &vk.alpha_g1);
        CHECK(memcmp(buf, pt, 96) == 0);
        czk_g2_to_uncompressed(pt, &vk.gamma_g2);
        CHECK(memcmp(buf + 96 * 2 + 192, pt, 192) == 0);
        czk_g2_to_uncompressed(pt, &vk.delta_g2);
        CHECK(memcmp(buf + 96 * 3 + 192 * 2, pt, 192) == 0);
        CHECK(buf[864] == 0 && buf[865] == 0 && buf[866] == 0 && buf[867] == vk.n_ic);
        czk_g1_to_uncompressed(pt, &vk.ic[vk.n_ic - 1]);
        CHECK(memcmp(buf + len - 96, pt, 96) == 0);
        if (inf) CHECK(buf[0] == 0x40 && buf[96 * 2 + 192] == 0x40);

        czk_vk back;
        CHECK_MSG(czk_vk_decode(&back, buf, len, msg, sizeof msg) == CZK_OK, "%s", msg);
        CHECK(fx_vk_equal(&vk, &back));
        czk_vk_free(&back);

        char path[600];
        fx_path(path, sizeof path, dir, "x.vk");
        CHECK_MSG(czk_vk_write(&vk, path, msg, sizeof msg) == CZK_OK, "%s", msg);
        size_t flen;
        uint8_t *file = fx_read_raw(path, &flen);
        CHECK(file && flen == len && memcmp(file, buf, len) == 0);
        free(file);
        CHECK_MSG(czk_vk_read(&back, path, msg, sizeof msg) == CZK_OK, "%s", msg);
        CHECK(fx_vk_equal(&vk, &back));
        czk_vk_free(&back);

        /* every truncation */
        for (size_t l = 0; l < len; l++) {
            czk_err e = czk_vk_decode(&back, buf, l, msg, sizeof msg);
            CHECK_MSG(e == CZK_ERR_FORMAT, "vk truncated to %zu: %s", l, czk_err_str(e));
            CHECK_MSG(strstr(msg, "truncated") || strstr(msg, "IC count"), "len %zu: %s", l, msg);
            CHECK(back.ic == NULL && back.n_ic == 0);
        }
        CHECK(strstr(msg, "IC count"));
        czk_vk_decode(&back, buf, 100, msg, sizeof msg);
        CHECK(strstr(msg, "truncated in beta_g1"));
        /* trailing bytes */
        memset(buf + len, 0, 200);
        CHECK(czk_vk_decode(&back, buf, len + 1, msg, sizeof msg) == CZK_ERR_FORMAT && strstr(msg, "trailing"));
        /* a flipped byte in each fixed point */
        static const char *names[6] = {"alpha_g1", "beta_g1", "beta_g2", "gamma_g2", "delta_g1", "delta_g2"};
        static const size_t offs[6] = {0, 96, 192, 384, 576, 672};
        for (int i = 0; i < 6; i++) {
            if (inf && (i == 0 || i == 3)) continue;
            size_t at = offs[i] + (i == 2 || i == 3 || i == 5 ? 150 : 70);
            buf[at] ^= 0x10;
            CHECK(czk_vk_decode(&back, buf, len, msg, sizeof msg) == CZK_ERR_FORMAT);
            CHECK_MSG(strstr(msg, names[i]) && strstr(msg, "not on the curve"), "%s", msg);
            buf[at] ^= 0x10;
        }
        /* in the IC */
        buf[len - 10] ^= 1;
        CHECK(czk_vk_decode(&back, buf, len, msg, sizeof msg) == CZK_ERR_FORMAT);
        char want[64];
        snprintf(want, sizeof want, "IC[%zu]", vk.n_ic - 1);
        CHECK_MSG(strstr(msg, want), "%s", msg);
        buf[len - 10] ^= 1;
        /* IC at infinity: rejected, as bellperson does */
        memset(buf + len - 96, 0, 96);
        buf[len - 96] = 0x40;
        CHECK(czk_vk_decode(&back, buf, len, msg, sizeof msg) == CZK_ERR_FORMAT && strstr(msg, "infinity"));
        czk_g1_affine inf_pt;
        czk_g1_affine_set_infinity(&inf_pt);
        czk_g1_affine save = vk.ic[0];
        vk.ic[0] = inf_pt;
        CHECK(czk_vk_encode(&vk, buf, len, &len2, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
        CHECK(strstr(msg, "IC[0]"));
        vk.ic[0] = save;
        czk_vk_encode(&vk, buf, len, &len2, msg, sizeof msg);
        /* huge IC count: fails on the structure, allocates nothing */
        size_t bufs = czk_mem_buffers(CZK_MEM_SRS);
        buf[864] = 0xff;
        CHECK(czk_vk_decode(&back, buf, len, msg, sizeof msg) == CZK_ERR_FORMAT && strstr(msg, "IC count"));
        CHECK(czk_mem_buffers(CZK_MEM_SRS) == bufs);
        buf[864] = 0;
        /* not in the subgroup: a vk is always checked (bellperson's VerifyingKey::read) */
        czk_g1_affine out;
        fx_g1_outside(&out, &rng);
        czk_g1_to_uncompressed(buf + 96, &out);
        CHECK(czk_vk_decode(&back, buf, len, msg, sizeof msg) == CZK_ERR_FORMAT);
        CHECK_MSG(strstr(msg, "beta_g1") && strstr(msg, "subgroup"), "%s", msg);
        czk_g2_affine out2;
        fx_g2_outside(&out2, &rng);
        czk_g1_to_uncompressed(buf + 96, &vk.beta_g1);
        czk_g2_to_uncompressed(buf + 672, &out2);
        CHECK(czk_vk_decode(&back, buf, len, msg, sizeof msg) == CZK_ERR_FORMAT);
        CHECK_MSG(strstr(msg, "delta_g2") && strstr(msg, "subgroup"), "%s", msg);
        free(buf);
        czk_vk_free(&vk);
    }
    /* a vk without IC points is what bellperson reads too */
    czk_vk vk, back;
    fx_vk(&vk, 0, 0, &rng);
    uint8_t buf[868];
    size_t len;
    CHECK(czk_vk_encode(&vk, buf, sizeof buf, &len, msg, sizeof msg) == CZK_OK && len == 868);
    CHECK(czk_vk_decode(&back, buf, len, msg, sizeof msg) == CZK_OK && back.n_ic == 0 && back.ic == NULL);
    CHECK(czk_vk_read(&back, "/nonexistent/czk.vk", msg, sizeof msg) == CZK_ERR_IO);
    CHECK(strstr(msg, "/nonexistent/czk.vk"));
}

/* ---- params -------------------------------------------------------------------- */

static void test_params_roundtrip(const char *dir) {
    czk_params p;
    fx_params(&p, 3, 7, 5, 4, 3, 3, 1, &rng);
    size_t len;
    uint8_t *buf = encode_params(&p, &len);
    /* layout */
    size_t off = section_count_offset(&p, 0);
    CHECK(off == 868 + 3 * 96);
    CHECK(buf[off + 3] == 7 && buf[off] == 0);
    CHECK(buf[section_count_offset(&p, 4) + 3] == 3);
    uint8_t pt[192];
    czk_g2_to_uncompressed(pt, &p.b_g2[2]);
    CHECK(len == section_count_offset(&p, 4) + 4 + 3 * 192 && memcmp(buf + len - 192, pt, 192) == 0);
    czk_g1_to_uncompressed(pt, &p.l[0]);
    CHECK(memcmp(buf + section_count_offset(&p, 1) + 4, pt, 96) == 0);

    char path[600];
    fx_path(path, sizeof path, dir, "x.params");
    CHECK_MSG(czk_params_write(&p, path, msg, sizeof msg) == CZK_OK, "%s", msg);
    size_t flen;
    uint8_t *file = fx_read_raw(path, &flen);
    CHECK(file && flen == len && memcmp(file, buf, len) == 0);
    free(file);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);

    for (int mode = 0; mode < 2; mode++)
        for (int use_pool = 0; use_pool < 2; use_pool++) {
            czk_params q;
            czk_err e = czk_params_read(&q, path, (czk_decode_mode)mode, use_pool ? pool : NULL, msg, sizeof msg);
            CHECK_MSG(e == CZK_OK, "%s", msg);
            CHECK(params_equal(&p, &q));
            size_t len2;
            uint8_t *again = encode_params(&q, &len2);
            CHECK(len2 == len && memcmp(again, buf, len) == 0);
            free(again);
            czk_params_free(&q);
            CHECK(q.h == NULL && q.vk.ic == NULL);
        }
    /* empty sections */
    czk_params e0;
    fx_params(&e0, 1, 0, 0, 0, 0, 0, 0, &rng);
    size_t l0;
    uint8_t *b0 = encode_params(&e0, &l0);
    CHECK(l0 == 868 + 96 + 5 * 4);
    czk_params q;
    CHECK(czk_params_decode(&q, b0, l0, CZK_DECODE_CHECKED, pool, msg, sizeof msg) == CZK_OK);
    CHECK(params_equal(&e0, &q) && q.h == NULL && q.b_g2 == NULL);
    czk_params_free(&q);
    free(b0);
    czk_params_free(&e0);

    /* a point at infinity in a query cannot be written */
    czk_g1_affine save = p.l[1];
    czk_g1_affine_set_infinity(&p.l[1]);
    char path2[600];
    fx_path(path2, sizeof path2, dir, "bad.params");
    CHECK(czk_params_write(&p, path2, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(msg, "section l, point 1"), "%s", msg);
    CHECK(access(path2, F_OK) != 0);
    p.l[1] = save;
    /* write errors: the file is never half there */
    CHECK(czk_params_write(&p, "/nonexistent-dir/x.params", msg, sizeof msg) == CZK_ERR_IO);
    CHECK(czk_params_read(&q, "/nonexistent-dir/x.params", CZK_DECODE_CHECKED, pool, msg, sizeof msg) ==
          CZK_ERR_IO);
    CHECK(strstr(msg, "No such file"));
    CHECK(czk_params_read(&q, dir, CZK_DECODE_CHECKED, pool, msg, sizeof msg) == CZK_ERR_IO);
    /* a file with a bad point names the path */
    buf[len - 1] ^= 1;
    fx_write_raw(path2, buf, len);
    CHECK(czk_params_read(&q, path2, CZK_DECODE_CHECKED, pool, msg, sizeof msg) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(msg, path2) && strstr(msg, "section b_g2, point 2 of 3"), "%s", msg);
    /* truncated files */
    buf[len - 1] ^= 1;
    const size_t cuts[] = {1, 95, 863, 867, 868 + 50, section_count_offset(&p, 3) + 1, len - 192, len - 1};
    for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
        fx_write_raw(path2, buf, cuts[k]);
        CHECK(czk_params_read(&q, path2, CZK_DECODE_CHECKED, pool, msg, sizeof msg) == CZK_ERR_FORMAT);
        CHECK_MSG(strstr(msg, path2) && (strstr(msg, "truncated") || strstr(msg, "count")), "%zu: %s", cuts[k], msg);
        czk_vk v;
        CHECK(czk_vk_read(&v, path2, msg, sizeof msg) == (cuts[k] == czk_vk_encoded_size(3) ? CZK_OK : CZK_ERR_FORMAT));
    }
    /* an empty file */
    fx_write_raw(path2, buf, 0);
    CHECK(czk_params_read(&q, path2, CZK_DECODE_CHECKED, pool, msg, sizeof msg) == CZK_ERR_FORMAT);
    CHECK_MSG(strstr(msg, "truncated in alpha_g1"), "%s", msg);
    free(buf);
    czk_params_free(&p);
}

static void test_params_malformed(void) {
    czk_params p;
    fx_params(&p, 2, 6, 4, 3, 2, 2, 0, &rng);
    size_t len;
    uint8_t *buf = encode_params(&p, &len);
    uint8_t *tmp = malloc(len + 300);
    memcpy(tmp, buf, len);

    /* every truncation fails on the structure */
    for (size_t l = 0; l < len; l++) {
        czk_params q;
        czk_err e = czk_params_decode(&q, buf, l, CZK_DECODE_CHECKED, pool, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_FORMAT, "truncated to %zu: %s", l, czk_err_str(e));
        CHECK_MSG(strstr(msg, "truncated") || strstr(msg, "count") || strstr(msg, "trailing"), "%zu: %s", l, msg);
    }
    expect_params_fail(buf, section_count_offset(&p, 2) + 2, 0, CZK_ERR_FORMAT, "count of section a", NULL,
                       __LINE__);
    expect_params_fail(buf, section_count_offset(&p, 2) + 4 + 50, 0, CZK_ERR_FORMAT, "section a: count 3", NULL,
                       __LINE__);
    /* trailing bytes */
    memset(tmp + len, 0, 300);
    expect_params_fail(tmp, len + 1, 0, CZK_ERR_FORMAT, "1 trailing bytes", NULL, __LINE__);
    expect_params_fail(tmp, len + 192, 0, CZK_ERR_FORMAT, "192 trailing bytes", NULL, __LINE__);

    /* bad counts: huge ones fail at once without allocating */
    static const char *secs[5] = {"section h", "section l", "section a", "section b_g1", "section b_g2"};
    for (int s = 0; s < 5; s++) {
        size_t co = section_count_offset(&p, s);
        size_t bufs = czk_mem_buffers(CZK_MEM_SRS);
        memset(tmp + co, 0xff, 4);
        expect_params_fail(tmp, len, 0, CZK_ERR_FORMAT, secs[s], "count 4294967295", __LINE__);
        CHECK(czk_mem_buffers(CZK_MEM_SRS) == bufs && czk_mem_high_water(CZK_MEM_SRS) < ((size_t)1 << 30));
        /* one more or one less than written */
        memcpy(tmp + co, buf + co, 4);
        tmp[co + 3]++;
        expect_params_fail(tmp, len, 0, CZK_ERR_FORMAT, NULL, NULL, __LINE__);
        tmp[co + 3] -= 2;
        expect_params_fail(tmp, len, 0, CZK_ERR_FORMAT, NULL, NULL, __LINE__);
        memcpy(tmp + co, buf + co, 4);
    }
    memset(tmp + 864, 0xff, 4);
    expect_params_fail(tmp, len, 0, CZK_ERR_FORMAT, "params: vk: IC count 4294967295", NULL, __LINE__);
    memcpy(tmp, buf, len);

    /* a byte flipped in each point of each section: named by section and index */
    for (int s = 0; s < 5; s++) {
        size_t n[5] = {p.n_h, p.n_l, p.n_a, p.n_b_g1, p.n_b_g2};
        size_t ps = s == 4 ? G2U : G1U;
        for (size_t i = 0; i < n[s]; i++) {
            size_t at = section_count_offset(&p, s) + 4 + i * ps + ps - 7; /* in y */
            for (int mode = 0; mode < 2; mode++) {
                tmp[at] ^= 0x04;
                char want[64];
                snprintf(want, sizeof want, "%s, point %zu of %zu", secs[s], i, n[s]);
                expect_params_fail(tmp, len, (czk_decode_mode)mode, CZK_ERR_FORMAT, want, "not on the curve",
                                   __LINE__);
                tmp[at] ^= 0x04;
            }
        }
    }
    for (size_t i = 0; i < 2; i++) {
        size_t at = 868 + i * 96 + 80;
        tmp[at] ^= 0x80;
        char want[32];
        snprintf(want, sizeof want, "params: vk: IC[%zu]", i);
        expect_params_fail(tmp, len, CZK_DECODE_TRUSTED, CZK_ERR_FORMAT, want, "not on the curve", __LINE__);
        tmp[at] ^= 0x80;
    }
    tmp[100] ^= 1;
    expect_params_fail(tmp, len, CZK_DECODE_TRUSTED, CZK_ERR_FORMAT, "params: vk: beta_g1 (offset 96)", NULL,
                       __LINE__);
    tmp[100] ^= 1;

    /* x >= p, flag bits */
    size_t h1 = section_count_offset(&p, 0) + 4 + G1U;
    fx_modulus_be(tmp + h1);
    expect_params_fail(tmp, len, 0, CZK_ERR_FORMAT, "section h, point 1 of 6", "not below its modulus", __LINE__);
    memcpy(tmp + h1, buf + h1, G1U);
    tmp[h1] |= 0x80;
    expect_params_fail(tmp, len, 0, CZK_ERR_FORMAT, "section h, point 1 of 6", "compression flag", __LINE__);
    tmp[h1] = buf[h1] | 0x20;
    expect_params_fail(tmp, len, 0, CZK_ERR_FORMAT, "section h, point 1 of 6", "sort flag", __LINE__);
    memcpy(tmp + h1, buf + h1, G1U);
    /* infinity in a query: rejected in both modes, as bellperson does */
    size_t a2 = section_count_offset(&p, 2) + 4 + 2 * G1U;
    memset(tmp + a2, 0, G1U);
    tmp[a2] = 0x40;
    for (int mode = 0; mode < 2; mode++)
        expect_params_fail(tmp, len, (czk_decode_mode)mode, CZK_ERR_FORMAT, "section a, point 2 of 3",
                           "point at infinity", __LINE__);
    memcpy(tmp + a2, buf + a2, G1U);
    size_t g0 = section_count_offset(&p, 4) + 4;
    memset(tmp + g0, 0, G2U);
    tmp[g0] = 0x40;
    expect_params_fail(tmp, len, CZK_DECODE_TRUSTED, CZK_ERR_FORMAT, "section b_g2, point 0 of 2",
                       "point at infinity", __LINE__);
    memcpy(tmp + g0, buf + g0, G2U);

    /* not in the subgroup: rejected CHECKED, accepted TRUSTED */
    czk_g1_affine o1;
    czk_g2_affine o2;
    fx_g1_outside(&o1, &rng);
    fx_g2_outside(&o2, &rng);
    size_t l3 = section_count_offset(&p, 1) + 4 + 3 * G1U;
    size_t g1 = section_count_offset(&p, 4) + 4 + G2U;
    czk_g1_to_uncompressed(tmp + l3, &o1);
    czk_g2_to_uncompressed(tmp + g1, &o2);
    expect_params_fail(tmp, len, CZK_DECODE_CHECKED, CZK_ERR_FORMAT, "section l, point 3 of 4", "subgroup",
                       __LINE__);
    czk_params q;
    CHECK_MSG(czk_params_decode(&q, tmp, len, CZK_DECODE_TRUSTED, pool, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(q.n_l == 4 && czk_g1_affine_equal(&q.l[3], &o1) && czk_g2_affine_equal(&q.b_g2[1], &o2));
    czk_params_free(&q);
    memcpy(tmp + l3, buf + l3, G1U);
    expect_params_fail(tmp, len, CZK_DECODE_CHECKED, CZK_ERR_FORMAT, "section b_g2, point 1 of 2", "subgroup",
                       __LINE__);
    memcpy(tmp + g1, buf + g1, G2U);
    /* the vk is checked in both modes (bellperson reads it with from_uncompressed) */
    czk_g1_to_uncompressed(tmp + 868, &o1);
    expect_params_fail(tmp, len, CZK_DECODE_TRUSTED, CZK_ERR_FORMAT, "params: vk: IC[0]", "subgroup", __LINE__);
    memcpy(tmp, buf, len);
    CHECK(czk_params_decode(&q, tmp, len, CZK_DECODE_CHECKED, pool, msg, sizeof msg) == CZK_OK);
    czk_params_free(&q);

    free(tmp);
    free(buf);
    czk_params_free(&p);
}

/* Several bad points in a section big enough to be split among threads: the
 * first in file order is reported, every time. */
static void test_params_first_error(void) {
    czk_params p;
    fx_params(&p, 1, 1000, 700, 2, 2, 2, 0, &rng);
    size_t len;
    uint8_t *buf = encode_params(&p, &len);
    size_t h0 = section_count_offset(&p, 0) + 4;
    size_t l0 = section_count_offset(&p, 1) + 4;
    buf[l0 + 5 * G1U + 90] ^= 1;
    buf[h0 + 999 * G1U + 90] ^= 1;
    buf[h0 + 611 * G1U + 90] ^= 1;
    buf[h0 + 317 * G1U + 90] ^= 1;
    for (int rep = 0; rep < 5; rep++)
        expect_params_fail(buf, len, CZK_DECODE_TRUSTED, CZK_ERR_FORMAT, "section h, point 317 of 1000", NULL,
                           __LINE__);
    buf[h0 + 999 * G1U + 90] ^= 1;
    buf[h0 + 611 * G1U + 90] ^= 1;
    buf[h0 + 317 * G1U + 90] ^= 1;
    expect_params_fail(buf, len, CZK_DECODE_TRUSTED, CZK_ERR_FORMAT, "section l, point 5 of 700", NULL, __LINE__);
    buf[l0 + 5 * G1U + 90] ^= 1;
    czk_params q;
    CHECK(czk_params_decode(&q, buf, len, CZK_DECODE_CHECKED, pool, msg, sizeof msg) == CZK_OK);
    CHECK(params_equal(&p, &q));
    czk_params_free(&q);
    free(buf);
    czk_params_free(&p);
}

int main(void) {
    test_seed_rng(&rng, NAME);
    if (czk_pool_create(&pool, 4) != CZK_OK) return 1;
    char *dir = fx_tmpdir();
    size_t srs0 = czk_mem_in_use(CZK_MEM_SRS);
    test_vk(dir);
    test_params_roundtrip(dir);
    test_params_malformed();
    test_params_first_error();
    CHECK_MSG(czk_mem_in_use(CZK_MEM_SRS) == srs0, "SRS bytes in use: %zu, at start %zu", czk_mem_in_use(CZK_MEM_SRS),
              srs0);
    fx_tmpdir_remove(dir);
    czk_pool_destroy(pool);
    return test_finish(NAME);
}
