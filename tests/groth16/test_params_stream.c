/* czk_params_stream_read against czk_params_read: the chunks it hands out,
 * decoded on the host, reassemble to exactly the sections czk_params_read
 * decodes, with the same vk, for several buffer sizes and reader counts
 * (random parameters, CZK_TEST_SEED repeats them); chunks come in order and
 * cover each section once; a truncated or padded file and a count too
 * large are refused before the sink sees anything; a sink's error ends the
 * read with it and leaves nothing allocated. */
#include "czk/pool.h"
#include "io_fixtures.h"

#define NAME "test_params_stream"

static czk_rng rng;
static char msg[1024];

/* Decodes every chunk into arrays of its own, checking order and bounds. */
typedef struct {
    size_t cap;
    uint8_t *buf;
    czk_params_layout lay;
    int begun;
    size_t next[CZK_PARAMS_N_SECTIONS]; /* the next point each section expects */
    int last_section;
    void *arr[CZK_PARAMS_N_SECTIONS];
    size_t chunks;
    size_t fail_at; /* the chunk (1-based) that returns an error; 0: none */
    int bad;        /* an out-of-order chunk, a failed decode */
} sink_state;

static czk_err s_begin(void *ctx, const czk_params_layout *lay, char *m, size_t ml) {
    sink_state *st = ctx;
    st->lay = *lay;
    st->begun++;
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS; s++) {
        size_t esize = s == CZK_PARAMS_B_G2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
        st->arr[s] = lay->n[s] ? calloc(lay->n[s], esize) : NULL;
    }
    return CZK_OK;
}

static czk_err s_buffer(void *ctx, uint8_t **buf, size_t *cap, char *m, size_t ml) {
    sink_state *st = ctx;
    memset(st->buf, 0xa5, st->cap); /* stale bytes must not survive into a chunk */
    *buf = st->buf;
    *cap = st->cap;
    return CZK_OK;
}

static czk_err s_chunk(void *ctx, czk_params_section s, size_t first, size_t count, uint8_t *buf, char *m,
                       size_t ml) {
    sink_state *st = ctx;
    st->chunks++;
    if (st->fail_at && st->chunks == st->fail_at) {
        snprintf(m, ml, "the sink gives up at chunk %zu", st->chunks);
        return CZK_ERR_NO_MEMORY;
    }
    const size_t psize = czk_params_section_point_bytes(s);
    if ((int)s < st->last_section || first != st->next[s] || count == 0 || first + count > st->lay.n[s] ||
        buf != st->buf || count * psize > st->cap ||
        (first + count < st->lay.n[s] && (count + 1) * psize <= st->cap)) { /* a chunk as full as the buffer */
        st->bad++;
        return CZK_OK;
    }
    st->last_section = (int)s;
    for (size_t i = 0; i < count; i++) {
        czk_err e = s == CZK_PARAMS_B_G2
                        ? czk_g2_decode_uncompressed((czk_g2_affine *)st->arr[s] + first + i, buf + i * psize,
                                                     CZK_DECODE_TRUSTED)
                        : czk_g1_decode_uncompressed((czk_g1_affine *)st->arr[s] + first + i, buf + i * psize,
                                                     CZK_DECODE_TRUSTED);
        if (e != CZK_OK) st->bad++;
    }
    st->next[s] = first + count;
    return CZK_OK;
}

static void sink_free(sink_state *st) {
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS; s++) free(st->arr[s]);
    free(st->buf);
}

static czk_err stream(const char *path, sink_state *st, size_t cap, unsigned readers, czk_vk *vk,
                      czk_params_layout *lay) {
    memset(st, 0, sizeof *st);
    st->cap = cap;
    st->buf = malloc(cap);
    czk_params_sink sink = {st, s_begin, s_buffer, s_chunk};
    return czk_params_stream_read(path, vk, lay, &sink, readers, msg, sizeof msg);
}

static int section_equal(const void *a, const void *b, size_t n, size_t esize) {
    return n == 0 || (a && b && memcmp(a, b, n * esize) == 0);
}

/* One random parameters file, streamed with each buffer size. */
static void test_against_read(const char *dir, size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b,
                              const size_t *caps, size_t ncaps, unsigned readers) {
    czk_params p;
    fx_params(&p, n_ic, n_h, n_l, n_a, n_b, n_b, 1, &rng);
    char path[600];
    fx_path(path, sizeof path, dir, "s.params");
    CHECK_MSG(czk_params_write(&p, path, msg, sizeof msg) == CZK_OK, "%s", msg);
    czk_params_free(&p);
    czk_params ref;
    CHECK_MSG(czk_params_read(&ref, path, CZK_DECODE_TRUSTED, NULL, msg, sizeof msg) == CZK_OK, "%s", msg);
    for (size_t c = 0; c < ncaps; c++) {
        sink_state st;
        czk_vk vk;
        czk_params_layout lay;
        czk_err e = stream(path, &st, caps[c], readers, &vk, &lay);
        CHECK_MSG(e == CZK_OK, "cap %zu: %s", caps[c], msg);
        if (e == CZK_OK) {
            CHECK(st.begun == 1 && st.bad == 0);
            CHECK(fx_vk_equal(&vk, &ref.vk));
            size_t counts[CZK_PARAMS_N_SECTIONS] = {ref.n_h, ref.n_l, ref.n_a, ref.n_b_g1, ref.n_b_g2};
            const void *arrays[CZK_PARAMS_N_SECTIONS] = {ref.h, ref.l, ref.a, ref.b_g1, ref.b_g2};
            uint64_t off = czk_vk_encoded_size(ref.vk.n_ic);
            CHECK(lay.vk_bytes == off && lay.file_bytes == czk_params_encoded_size(&ref));
            for (int s = 0; s < CZK_PARAMS_N_SECTIONS; s++) {
                size_t esize = s == CZK_PARAMS_B_G2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
                CHECK_MSG(lay.n[s] == counts[s] && st.next[s] == counts[s], "cap %zu section %s", caps[c],
                          czk_params_section_name((czk_params_section)s));
                CHECK(lay.offset[s] == off + 4);
                off += 4 + counts[s] * czk_params_section_point_bytes((czk_params_section)s);
                CHECK_MSG(section_equal(st.arr[s], arrays[s], counts[s], esize), "cap %zu section %s", caps[c],
                          czk_params_section_name((czk_params_section)s));
            }
            czk_vk_free(&vk);
        }
        sink_free(&st);
    }
    czk_params_free(&ref);
}

static void test_refused(const char *dir) {
    czk_params p;
    fx_params(&p, 2, 7, 5, 4, 3, 3, 0, &rng);
    size_t len = czk_params_encoded_size(&p);
    uint8_t *buf = malloc(len + 1);
    size_t got;
    CHECK(czk_params_encode(&p, buf, len, &got, NULL, msg, sizeof msg) == CZK_OK && got == len);
    char path[600];
    fx_path(path, sizeof path, dir, "bad.params");
    /* truncated anywhere: in the vk, at a count, inside the points; and one byte too many */
    size_t cuts[] = {0, 100, 868, czk_vk_encoded_size(2) + 2, len / 2, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0] + 1; i++) {
        size_t n = i < sizeof cuts / sizeof cuts[0] ? cuts[i] : len + 1;
        buf[len] = 0;
        fx_write_raw(path, buf, n);
        sink_state st;
        czk_vk vk;
        msg[0] = 0;
        czk_err e = stream(path, &st, 1000, 2, &vk, NULL);
        CHECK_MSG(e == CZK_ERR_FORMAT && st.begun == 0 && st.chunks == 0 && vk.ic == NULL && msg[0],
                  "%zu of %zu bytes: %s (%s)", n, len, czk_err_str(e), msg);
        sink_free(&st);
    }
    /* l's count beyond the file */
    size_t loff = czk_vk_encoded_size(2) + 4 + 7 * 96;
    CHECK(buf[loff] == 0 && buf[loff + 3] == 5);
    buf[loff] = 0x7f;
    fx_write_raw(path, buf, len);
    sink_state st;
    czk_vk vk;
    CHECK(stream(path, &st, 1000, 1, &vk, NULL) == CZK_ERR_FORMAT && st.begun == 0);
    CHECK_MSG(strstr(msg, "section l") != NULL, "%s", msg);
    sink_free(&st);
    buf[loff] = 0;
    /* the sink's error ends the read (the third chunk of 2 points each) */
    fx_write_raw(path, buf, len);
    memset(&st, 0, sizeof st);
    st.cap = 200;
    st.buf = malloc(st.cap);
    st.fail_at = 3;
    czk_params_sink sink = {&st, s_begin, s_buffer, s_chunk};
    CHECK(czk_params_stream_read(path, &vk, NULL, &sink, 1, msg, sizeof msg) == CZK_ERR_NO_MEMORY);
    CHECK(vk.ic == NULL && st.chunks == 3 && strstr(msg, "gives up"));
    sink_free(&st);
    /* a buffer smaller than a point */
    CHECK(stream(path, &st, 100, 1, &vk, NULL) == CZK_ERR_INVALID_ARGUMENT);
    sink_free(&st);
    /* no such file */
    fx_path(path, sizeof path, dir, "none.params");
    CHECK(stream(path, &st, 1000, 1, &vk, NULL) == CZK_ERR_IO);
    sink_free(&st);
    free(buf);
    czk_params_free(&p);
}

int main(void) {
    test_seed_rng(&rng, NAME);
    char *dir = fx_tmpdir();
    size_t srs0 = czk_mem_in_use(CZK_MEM_SRS);
    /* buffers of one G2 point, of a point and a bit, of a few, and of more
     * than the largest section */
    const size_t small[] = {192, 193, 3 * 96 + 5, 1000, 4096, 1 << 20};
    for (int k = 0; k < 3; k++) {
        size_t n_h = 1 + czk_rng_next(&rng) % 40, n_l = czk_rng_next(&rng) % 30, n_a = czk_rng_next(&rng) % 20;
        size_t n_b = czk_rng_next(&rng) % 12;
        test_against_read(dir, 1 + k, n_h, n_l, n_a, n_b, small, sizeof small / sizeof small[0], 1 + (unsigned)k);
    }
    /* chunks of several MiB read by parallel preads (l: 18 MB) */
    const size_t big[] = {(size_t)9 << 20, (size_t)16 << 20};
    test_against_read(dir, 3, 1000, 200000, 1000, 500, big, 2, 4);
    test_refused(dir);
    CHECK_MSG(czk_mem_in_use(CZK_MEM_SRS) == srs0, "SRS bytes in use: %zu, at start %zu", czk_mem_in_use(CZK_MEM_SRS),
              srs0);
    fx_tmpdir_remove(dir);
    return test_finish(NAME);
}
