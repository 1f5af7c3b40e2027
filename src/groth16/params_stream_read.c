/* czk — a params file streamed section by section (groth16_io.h,
 * czk_params_stream_read): the vk decoded on the host, the query points
 * handed to a sink as raw file bytes in chunks of its buffers, so that no
 * section is ever held whole (a 32 GiB PoRep's file is 47 GB). */
#define _GNU_SOURCE
#include "czk/groth16_io.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_internal.h"

#define READERS_DEFAULT 4
#define READERS_MAX 64
#define READ_PART_MIN ((size_t)4 << 20) /* a reader thread gets at least this much of a chunk */

static const char *const SECTION_NAME[CZK_PARAMS_N_SECTIONS] = {"h", "l", "a", "b_g1", "b_g2"};

const char *czk_params_section_name(czk_params_section s) {
    return (unsigned)s < CZK_PARAMS_N_SECTIONS ? SECTION_NAME[s] : "?";
}

size_t czk_params_section_point_bytes(czk_params_section s) {
    return s == CZK_PARAMS_B_G2 ? CZK_G2_UNCOMPRESSED_BYTES : CZK_G1_UNCOMPRESSED_BYTES;
}

/* Exactly len bytes at off, or CZK_ERR_IO (a short read: the file shrank). */
static czk_err pread_all(int fd, uint8_t *buf, size_t len, uint64_t off, const char *path, char *msg, size_t msglen) {
    while (len > 0) {
        ssize_t k = pread(fd, buf, len, (off_t)off);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return czk_io_fail(CZK_ERR_IO, msg, msglen, "%s: read at offset %llu failed: %s", path,
                                      (unsigned long long)off, strerror(errno));
        if (k == 0)
            return czk_io_fail(CZK_ERR_IO, msg, msglen, "%s: the file ended at offset %llu while it was read (it "
                               "shrank?)", path, (unsigned long long)off);
        buf += k;
        len -= (size_t)k;
        off += (uint64_t)k;
    }
    return CZK_OK;
}

typedef struct {
    int fd;
    uint8_t *buf;
    size_t len;
    uint64_t off;
    const char *path;
    czk_err e;
    char msg[256];
} read_part;

static void *read_part_run(void *arg) {
    read_part *r = arg;
    r->e = pread_all(r->fd, r->buf, r->len, r->off, r->path, r->msg, sizeof r->msg);
    return NULL;
}

/* len bytes at off into buf, split over up to `readers` threads (the
 * calling thread takes the first part); where a thread cannot be made, the
 * calling thread reads that part. */
static czk_err read_chunk(int fd, uint8_t *buf, size_t len, uint64_t off, unsigned readers, const char *path,
                          char *msg, size_t msglen) {
    size_t parts = len / READ_PART_MIN;
    if (parts > readers) parts = readers;
    if (parts <= 1) return pread_all(fd, buf, len, off, path, msg, msglen);
    read_part rp[READERS_MAX] = {{0}};
    pthread_t th[READERS_MAX];
    bool started[READERS_MAX] = {false};
    const size_t step = (len / parts + 4095) & ~(size_t)4095;
    size_t n = 0;
    for (size_t at = 0; at < len; at += step, n++) {
        rp[n] = (read_part){fd, buf + at, len - at < step ? len - at : step, off + at, path, CZK_OK, ""};
        if (n > 0) started[n] = pthread_create(&th[n], NULL, read_part_run, &rp[n]) == 0;
    }
    read_part_run(&rp[0]);
    for (size_t i = 1; i < n; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else read_part_run(&rp[i]);
    }
    for (size_t i = 0; i < n; i++)
        if (rp[i].e != CZK_OK) return czk_io_fail(rp[i].e, msg, msglen, "%s", rp[i].msg);
    return CZK_OK;
}

/* The vk at offset 0 (decoded into *vk, its size to *used), then the
 * counts of the five sections against the file's size, without trailing
 * bytes. Messages as czk_params_decode's. */
static czk_err read_layout(int fd, uint64_t size, czk_vk *vk, czk_params_layout *lay, const char *path, char *msg,
                           size_t msglen) {
    const size_t head = CZK_IO_VK_FIXED_BYTES + 4;
    if (size < head)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: params: vk: truncated: it needs at least %zu bytes, "
                           "the file has %llu", path, head, (unsigned long long)size);
    uint8_t h[CZK_IO_VK_FIXED_BYTES + 4];
    czk_err e = pread_all(fd, h, head, 0, path, msg, msglen);
    if (e != CZK_OK) return e;
    const uint64_t n_ic = czk_io_get_u32(h + CZK_IO_VK_FIXED_BYTES);
    const uint64_t vk_bytes = head + n_ic * CZK_G1_UNCOMPRESSED_BYTES;
    if (vk_bytes > size)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: params: vk: %llu IC points need %llu bytes, the file "
                           "has %llu", path, (unsigned long long)n_ic, (unsigned long long)vk_bytes,
                           (unsigned long long)size);
    uint8_t *vb = malloc((size_t)vk_bytes);
    if (!vb) return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "%s: out of memory for the vk (%llu bytes)", path,
                                (unsigned long long)vk_bytes);
    e = pread_all(fd, vb, (size_t)vk_bytes, 0, path, msg, msglen);
    size_t used = 0;
    char inner[384] = "";
    if (e == CZK_OK) {
        e = czk_io_vk_parse(vk, vb, (size_t)vk_bytes, &used, "params: vk", inner, sizeof inner);
        if (e != CZK_OK) czk_io_fail(e, msg, msglen, "%s: %s", path, inner);
    }
    free(vb);
    if (e != CZK_OK) return e;
    memset(lay, 0, sizeof *lay);
    lay->file_bytes = size;
    lay->vk_bytes = used;
    uint64_t off = used;
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS && e == CZK_OK; s++) {
        uint8_t cnt[4];
        if (size - off < 4) {
            e = czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: params: truncated at the count of section %s: it "
                            "needs bytes [%llu, %llu), the file has %llu", path, SECTION_NAME[s],
                            (unsigned long long)off, (unsigned long long)off + 4, (unsigned long long)size);
            break;
        }
        if ((e = pread_all(fd, cnt, 4, off, path, msg, msglen)) != CZK_OK) break;
        const uint64_t n = czk_io_get_u32(cnt), psize = czk_params_section_point_bytes((czk_params_section)s);
        off += 4;
        if (n > (size - off) / psize) {
            e = czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: params: section %s: count %llu needs %llu bytes of "
                            "points at offset %llu, only %llu bytes are left", path, SECTION_NAME[s],
                            (unsigned long long)n, (unsigned long long)(n * psize), (unsigned long long)off,
                            (unsigned long long)(size - off));
            break;
        }
        lay->offset[s] = off;
        lay->n[s] = (size_t)n;
        off += n * psize;
    }
    if (e == CZK_OK && off != size)
        e = czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: params: %llu trailing bytes after the last section "
                        "(b_g2 ends at offset %llu)", path, (unsigned long long)(size - off), (unsigned long long)off);
    if (e != CZK_OK) czk_vk_free(vk);
    return e;
}

czk_err czk_params_stream_read(const char *path, czk_vk *vk, czk_params_layout *layout, const czk_params_sink *sink,
                               unsigned readers, char *msg, size_t msglen) {
    if (!vk || !path || !sink || !sink->begin || !sink->buffer || !sink->chunk)
        return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params stream: missing argument");
    memset(vk, 0, sizeof *vk);
    if (readers == 0) readers = READERS_DEFAULT;
    if (readers > READERS_MAX) readers = READERS_MAX;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    czk_err e = CZK_OK;
    if (fstat(fd, &st) != 0) e = czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot stat %s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode)) e = czk_io_fail(CZK_ERR_IO, msg, msglen, "%s is not a regular file", path);
    czk_params_layout lay;
    if (e == CZK_OK) e = read_layout(fd, (uint64_t)st.st_size, vk, &lay, path, msg, msglen);
    if (e != CZK_OK) {
        close(fd);
        return e;
    }
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    e = sink->begin(sink->ctx, &lay, msg, msglen);
    for (int s = 0; s < CZK_PARAMS_N_SECTIONS && e == CZK_OK; s++) {
        const size_t psize = czk_params_section_point_bytes((czk_params_section)s);
        for (size_t first = 0; first < lay.n[s] && e == CZK_OK;) {
            uint8_t *buf = NULL;
            size_t cap = 0;
            if ((e = sink->buffer(sink->ctx, &buf, &cap, msg, msglen)) != CZK_OK) break;
            if (!buf || cap < psize) {
                e = czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "params stream: the sink's buffer holds "
                                "%zu bytes, less than one point (%zu)", cap, psize);
                break;
            }
            size_t count = cap / psize;
            if (count > lay.n[s] - first) count = lay.n[s] - first;
            e = read_chunk(fd, buf, count * psize, lay.offset[s] + (uint64_t)first * psize, readers, path, msg,
                           msglen);
            if (e == CZK_OK) e = sink->chunk(sink->ctx, (czk_params_section)s, first, count, buf, msg, msglen);
            first += count;
        }
    }
    close(fd);
    if (e != CZK_OK) {
        czk_vk_free(vk);
        return e;
    }
    if (layout) *layout = lay;
    return CZK_OK;
}
