/* czk — messages, mapped input files and atomic output files for the Groth16
 * file modules (see io_internal.h). */
#define _GNU_SOURCE
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

czk_err czk_io_fail(czk_err code, char *msg, size_t msglen, const char *fmt, ...) {
    if (msg && msglen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return code;
}

czk_err czk_io_map_open(czk_io_map *m, const char *path, char *msg, size_t msglen) {
    *m = (czk_io_map){0};
    if (!path) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "no path given");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot stat %s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return czk_io_fail(CZK_ERR_IO, msg, msglen, "%s is not a regular file", path);
    }
    if (st.st_size > 0) {
        if ((uint64_t)st.st_size > SIZE_MAX) {
            close(fd);
            return czk_io_fail(CZK_ERR_IO, msg, msglen, "%s is too large to map", path);
        }
        size_t len = (size_t)st.st_size;
        void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot map %s (%zu bytes): %s", path, len, strerror(e));
        }
        madvise(p, len, MADV_WILLNEED);
        m->map = p;
        m->map_len = len;
        m->data = p;
        m->len = len;
    }
    close(fd);
    return CZK_OK;
}

void czk_io_map_close(czk_io_map *m) {
    if (m->map) munmap(m->map, m->map_len);
    *m = (czk_io_map){0};
}

static char *str_dup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

czk_err czk_io_out_open(czk_io_out *o, const char *path, char *msg, size_t msglen) {
    *o = (czk_io_out){0};
    if (!path || !*path) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "no path given");
    size_t n = strlen(path);
    o->path = str_dup(path);
    o->tmp = malloc(n + sizeof ".tmp.XXXXXX");
    if (!o->path || !o->tmp) {
        free(o->path);
        free(o->tmp);
        *o = (czk_io_out){0};
        return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "out of memory");
    }
    memcpy(o->tmp, path, n);
    memcpy(o->tmp + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkostemp(o->tmp, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        free(o->path);
        free(o->tmp);
        *o = (czk_io_out){0};
        return czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot create a temporary file next to %s: %s", path,
                           strerror(e));
    }
    (void)fchmod(fd, 0644);
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        free(o->path);
        free(o->tmp);
        *o = (czk_io_out){0};
        return czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot open a stream for %s: %s", path, strerror(e));
    }
    setvbuf(o->f, NULL, _IOFBF, 1 << 20);
    return CZK_OK;
}

void czk_io_out_write(czk_io_out *o, const void *p, size_t n) {
    if (o->failed || n == 0) return;
    if (fwrite(p, 1, n, o->f) != n) {
        o->failed = true;
        o->err = errno ? errno : EIO;
    }
}

static void release(czk_io_out *o) {
    free(o->tmp);
    free(o->path);
    *o = (czk_io_out){0};
}

void czk_io_out_abort(czk_io_out *o) {
    if (!o->f) return;
    fclose(o->f);
    unlink(o->tmp);
    release(o);
}

static void sync_dir(const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : str_dup(".");
    if (!dir) return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: some file systems refuse fsync on directories */
        close(fd);
    }
    free(dir);
}

czk_err czk_io_out_commit(czk_io_out *o, char *msg, size_t msglen) {
    if (!o->f) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "output file is not open");
    if (!o->failed && fflush(o->f) != 0) {
        o->failed = true;
        o->err = errno;
    }
    if (!o->failed && fsync(fileno(o->f)) != 0) {
        o->failed = true;
        o->err = errno;
    }
    if (o->failed) {
        czk_err e = czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot write %s: %s", o->path, strerror(o->err));
        czk_io_out_abort(o);
        return e;
    }
    if (fclose(o->f) != 0) {
        int e = errno;
        o->f = NULL;
        unlink(o->tmp);
        czk_err r = czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot write %s: %s", o->path, strerror(e));
        release(o);
        return r;
    }
    o->f = NULL;
    if (rename(o->tmp, o->path) != 0) {
        int e = errno;
        unlink(o->tmp);
        czk_err r = czk_io_fail(CZK_ERR_IO, msg, msglen, "cannot rename %s to %s: %s", o->tmp, o->path,
                                strerror(e));
        release(o);
        return r;
    }
    sync_dir(o->path);
    release(o);
    return CZK_OK;
}

czk_err czk_io_write_file(const char *path, const void *p, size_t n, char *msg, size_t msglen) {
    czk_io_out o;
    czk_err e = czk_io_out_open(&o, path, msg, msglen);
    if (e != CZK_OK) return e;
    czk_io_out_write(&o, p, n);
    return czk_io_out_commit(&o, msg, msglen);
}
