/* czk — params files written section by section (czk/params_writer.h):
 * the vk, then each section's u32 count and its points as they come, with
 * plain write(2) calls on a temporary file that is moved into place. */
#define _GNU_SOURCE
#include "czk/params_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "czk/groth16_io.h"

#define G1U CZK_G1_UNCOMPRESSED_BYTES
#define G2U CZK_G2_UNCOMPRESSED_BYTES
#define ENCODE_CHUNK ((size_t)1 << 16) /* host points encoded per write */

static const char *const NAME[CZK_PW_SECTIONS] = {"h", "l", "a", "b_g1", "b_g2"};

struct czk_params_writer {
    int fd;
    char *path, *tmp;
    int no_replace;
    size_t count[CZK_PW_SECTIONS];
    int cur;          /* the section being written; its count is in the file */
    size_t done;      /* points of cur written */
    uint64_t bytes;   /* written so far */
    int failed;
    uint8_t *buf;     /* ENCODE_CHUNK · G2U, for put_points */
};

static czk_err fail(czk_params_writer *w, czk_err e, char *msg, size_t msglen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static czk_err fail(czk_params_writer *w, czk_err e, char *msg, size_t msglen, const char *fmt, ...) {
    if (w) w->failed = 1;
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return e;
}

static size_t point_bytes(int s) { return s == CZK_PW_B_G2 ? G2U : G1U; }

static czk_err write_all(czk_params_writer *w, const void *p, size_t n, char *msg, size_t msglen) {
    const uint8_t *b = p;
    while (n) {
        ssize_t k = write(w->fd, b, n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return fail(w, CZK_ERR_IO, msg, msglen, "cannot write %s: %s", w->tmp, strerror(k < 0 ? errno : EIO));
        b += k;
        n -= (size_t)k;
        w->bytes += (uint64_t)k;
    }
    return CZK_OK;
}

static czk_err put_count(czk_params_writer *w, size_t n, char *msg, size_t msglen) {
    uint8_t c[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    return write_all(w, c, 4, msg, msglen);
}

/* A temporary file beside path: path.tmp.XXXXXX. */
static czk_err open_tmp(czk_params_writer *w, const char *path, char *msg, size_t msglen) {
    size_t n = strlen(path);
    w->path = strdup(path);
    w->tmp = malloc(n + sizeof ".tmp.XXXXXX");
    if (!w->path || !w->tmp) return fail(w, CZK_ERR_NO_MEMORY, msg, msglen, "out of memory");
    memcpy(w->tmp, path, n);
    memcpy(w->tmp + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    w->fd = mkostemp(w->tmp, O_CLOEXEC);
    if (w->fd < 0) {
        int e = errno;
        free(w->tmp);
        w->tmp = NULL;
        return fail(w, CZK_ERR_IO, msg, msglen, "cannot create a temporary file next to %s: %s", path, strerror(e));
    }
    (void)fchmod(w->fd, 0644);
    return CZK_OK;
}

static void release(czk_params_writer *w) {
    if (w->fd >= 0) close(w->fd);
    if (w->tmp) unlink(w->tmp);
    free(w->tmp);
    free(w->path);
    free(w->buf);
    free(w);
}

/* fsync, close, then rename or link into place; the temporary name is gone
 * afterwards whatever happens. */
static czk_err finish_file(czk_params_writer *w, char *msg, size_t msglen) {
    if (fsync(w->fd) != 0) return fail(w, CZK_ERR_IO, msg, msglen, "cannot write %s: %s", w->path, strerror(errno));
    int fd = w->fd;
    w->fd = -1;
    if (close(fd) != 0) return fail(w, CZK_ERR_IO, msg, msglen, "cannot write %s: %s", w->path, strerror(errno));
    if (w->no_replace) {
        if (link(w->tmp, w->path) != 0)
            return fail(w, CZK_ERR_IO, msg, msglen, "%s: %s; not overwriting it", w->path, strerror(errno));
    } else if (rename(w->tmp, w->path) != 0) {
        return fail(w, CZK_ERR_IO, msg, msglen, "cannot rename %s to %s: %s", w->tmp, w->path, strerror(errno));
    } else {
        free(w->tmp);
        w->tmp = NULL;
    }
    /* the directory entry itself */
    char *dir = strdup(w->path);
    if (dir) {
        char *slash = strrchr(dir, '/');
        const char *d = slash ? (slash == dir ? "/" : (*slash = 0, dir)) : ".";
        int dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    return CZK_OK;
}

czk_err czk_params_writer_open(czk_params_writer **out, const char *path, const czk_vk *vk,
                               const size_t counts[CZK_PW_SECTIONS], int no_replace, char *msg, size_t msglen) {
    *out = NULL;
    if (!path || !*path || !vk || !counts) return fail(NULL, CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params writer: no path, vk or counts");
    for (int s = 0; s < CZK_PW_SECTIONS; s++)
        if (counts[s] > UINT32_MAX)
            return fail(NULL, CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                        "params: section %s has %zu points, more than a u32 count holds", NAME[s], counts[s]);
    size_t vk_len = 0;
    czk_err e = czk_vk_encode(vk, NULL, 0, &vk_len, msg, msglen);
    if (e != CZK_OK) return e;
    czk_params_writer *w = calloc(1, sizeof *w);
    if (!w) return fail(NULL, CZK_ERR_NO_MEMORY, msg, msglen, "out of memory");
    w->fd = -1;
    w->no_replace = no_replace;
    memcpy(w->count, counts, sizeof w->count);
    if ((e = open_tmp(w, path, msg, msglen)) != CZK_OK) {
        release(w);
        return e;
    }
    uint8_t *vkb = malloc(vk_len);
    if (!vkb) {
        release(w);
        return fail(NULL, CZK_ERR_NO_MEMORY, msg, msglen, "out of memory (%zu bytes)", vk_len);
    }
    e = czk_vk_encode(vk, vkb, vk_len, &vk_len, msg, msglen);
    if (e == CZK_OK) e = write_all(w, vkb, vk_len, msg, msglen);
    free(vkb);
    if (e == CZK_OK) e = put_count(w, w->count[0], msg, msglen);
    if (e != CZK_OK) {
        release(w);
        return e;
    }
    *out = w;
    return CZK_OK;
}

/* Moves to `section`, closing the complete sections before it. */
static czk_err advance(czk_params_writer *w, int section, size_t count, char *msg, size_t msglen) {
    if (w->failed) return fail(w, CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params writer: an earlier call failed");
    if (section < w->cur || section >= CZK_PW_SECTIONS)
        return fail(w, CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params writer: section %d out of order (now %s)",
                    section, NAME[w->cur]);
    while (w->cur < section) {
        if (w->done != w->count[w->cur])
            return fail(w, CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                        "params writer: section %s has %zu of its %zu points when %s starts", NAME[w->cur], w->done,
                        w->count[w->cur], NAME[section]);
        w->cur++;
        w->done = 0;
        czk_err e = put_count(w, w->count[w->cur], msg, msglen);
        if (e != CZK_OK) return e;
    }
    if (count > w->count[section] - w->done)
        return fail(w, CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                    "params writer: section %s: %zu more points would exceed its count %zu (%zu written)",
                    NAME[section], count, w->count[section], w->done);
    return CZK_OK;
}

czk_err czk_params_writer_put_encoded(czk_params_writer *w, int section, const uint8_t *bytes, size_t count,
                                      char *msg, size_t msglen) {
    czk_err e = advance(w, section, count, msg, msglen);
    if (e != CZK_OK) return e;
    const size_t pb = point_bytes(section);
    for (size_t i = 0; i < count; i++)
        if (bytes[i * pb] & 0x40)
            return fail(w, CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                        "params: section %s, point %zu is the point at infinity, which bellperson's reader rejects",
                        NAME[section], w->done + i);
    if ((e = write_all(w, bytes, count * pb, msg, msglen)) != CZK_OK) return e;
    w->done += count;
    return CZK_OK;
}

typedef struct {
    const void *points;
    uint8_t *out;
    int g2;
} encode_ctx;

static void encode_task(void *vctx, size_t begin, size_t end, int worker) {
    const encode_ctx *c = vctx;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        if (c->g2) czk_g2_to_uncompressed(c->out + i * G2U, (const czk_g2_affine *)c->points + i);
        else czk_g1_to_uncompressed(c->out + i * G1U, (const czk_g1_affine *)c->points + i);
    }
}

czk_err czk_params_writer_put_points(czk_params_writer *w, int section, const void *points, size_t count,
                                     czk_pool *pool, char *msg, size_t msglen) {
    czk_err e = advance(w, section, count, msg, msglen);
    if (e != CZK_OK) return e;
    if (!w->buf && !(w->buf = malloc(ENCODE_CHUNK * G2U)))
        return fail(w, CZK_ERR_NO_MEMORY, msg, msglen, "out of memory");
    const int g2 = section == CZK_PW_B_G2;
    const size_t esize = g2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
    for (size_t i = 0; i < count; i += ENCODE_CHUNK) {
        size_t k = count - i < ENCODE_CHUNK ? count - i : ENCODE_CHUNK;
        encode_ctx c = {(const uint8_t *)points + i * esize, w->buf, g2};
        if (pool) czk_pool_run(pool, k, 1024, encode_task, &c);
        else encode_task(&c, 0, k, 0);
        if ((e = czk_params_writer_put_encoded(w, section, w->buf, k, msg, msglen)) != CZK_OK) return e;
    }
    return CZK_OK;
}

czk_err czk_params_writer_commit(czk_params_writer *w, char *msg, size_t msglen) {
    if (!w) return fail(NULL, CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params writer: none given");
    czk_err e = advance(w, CZK_PW_SECTIONS - 1, 0, msg, msglen);
    if (e == CZK_OK && w->done != w->count[CZK_PW_SECTIONS - 1])
        e = fail(w, CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params writer: section b_g2 has %zu of its %zu points",
                 w->done, w->count[CZK_PW_SECTIONS - 1]);
    if (e == CZK_OK) e = finish_file(w, msg, msglen);
    release(w);
    return e;
}

void czk_params_writer_abort(czk_params_writer *w) {
    if (w) release(w);
}

uint64_t czk_params_writer_bytes(const czk_params_writer *w) { return w ? w->bytes : 0; }

czk_err czk_params_writer_vk(const czk_vk *vk, const char *path, int no_replace, char *msg, size_t msglen) {
    if (!path || !*path || !vk) return fail(NULL, CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk writer: no path or vk");
    size_t len = 0;
    czk_err e = czk_vk_encode(vk, NULL, 0, &len, msg, msglen);
    if (e != CZK_OK) return e;
    czk_params_writer *w = calloc(1, sizeof *w);
    uint8_t *b = malloc(len);
    if (!w || !b) {
        free(w);
        free(b);
        return fail(NULL, CZK_ERR_NO_MEMORY, msg, msglen, "out of memory");
    }
    w->fd = -1;
    w->no_replace = no_replace;
    if ((e = open_tmp(w, path, msg, msglen)) == CZK_OK && (e = czk_vk_encode(vk, b, len, &len, msg, msglen)) == CZK_OK &&
        (e = write_all(w, b, len, msg, msglen)) == CZK_OK)
        e = finish_file(w, msg, msglen);
    free(b);
    release(w);
    return e;
}
