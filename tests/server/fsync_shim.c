/* An LD_PRELOAD library for durability_check.sh: it records, in order, what a
 * process does to the files under one folder, so that a checker can tell
 * whether data was on disk before the process said it was.
 *
 *   CZK_SHIM_DIR   the folder to watch (absolute; files below it are traced)
 *   CZK_SHIM_LOG   the log file, appended to one line per call:
 *                    open PATH | close PATH | write PATH BYTES [TOKENS]
 *                    fsync PATH | fdatasync PATH | rename OLD NEW | unlink PATH
 *                    truncate PATH
 *                  TOKENS: every "durreq-<digits>" in the written bytes (the
 *                  request ids the checker submits), comma-separated, so that
 *                  the WAL frame holding a job's row can be found.
 *
 * Every call goes on to the real function (dlsym RTLD_NEXT); the shim only
 * watches. Lines are written with one write(2) each on an O_APPEND file, so
 * another process (the checker's client) can append its own lines ("ack …")
 * in causal order. Not for production: it takes a mutex on every traced call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FD 4096

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char *paths[MAX_FD];
static dev_t devs[MAX_FD]; /* what paths[fd] named when it was opened: an fd */
static ino_t inos[MAX_FD]; /* closed behind the shim's back and reused is dropped */
static char watch[PATH_MAX];
static size_t watch_len;
static int log_fd = -1;
static int inited;

static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static int (*real___open_2)(const char *, int);
static int (*real___open64_2)(const char *, int);
static int (*real___openat_2)(int, const char *, int);
static int (*real___openat64_2)(int, const char *, int);
static int (*real_creat)(const char *, mode_t);
static int (*real_close)(int);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);
static int (*real_renameat2)(int, const char *, int, const char *, unsigned);
static int (*real_unlink)(const char *);
static int (*real_unlinkat)(int, const char *, int);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off_t);

#define RESOLVE(name) real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name)

static void init(void) {
    if (inited) return;
    RESOLVE(open);
    RESOLVE(open64);
    RESOLVE(openat);
    RESOLVE(openat64);
    RESOLVE(__open_2);
    RESOLVE(__open64_2);
    RESOLVE(__openat_2);
    RESOLVE(__openat64_2);
    RESOLVE(creat);
    RESOLVE(close);
    RESOLVE(write);
    RESOLVE(pwrite);
    RESOLVE(pwrite64);
    RESOLVE(writev);
    RESOLVE(fsync);
    RESOLVE(fdatasync);
    RESOLVE(rename);
    RESOLVE(renameat);
    RESOLVE(renameat2);
    RESOLVE(unlink);
    RESOLVE(unlinkat);
    RESOLVE(ftruncate);
    RESOLVE(ftruncate64);
    const char *d = getenv("CZK_SHIM_DIR");
    const char *l = getenv("CZK_SHIM_LOG");
    if (d && *d && l && *l && strlen(d) < sizeof watch) {
        strcpy(watch, d);
        watch_len = strlen(watch);
        while (watch_len > 1 && watch[watch_len - 1] == '/') watch[--watch_len] = 0;
        log_fd = real_open(l, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    }
    inited = 1;
}

__attribute__((constructor)) static void shim_init(void) {
    pthread_mutex_lock(&mu);
    init();
    pthread_mutex_unlock(&mu);
}

static void ensure(void) {
    if (!inited) {
        pthread_mutex_lock(&mu);
        init();
        pthread_mutex_unlock(&mu);
    }
}

/* Folds "." and ".." and repeated slashes out of an absolute path. */
static void normalize(char *p) {
    char out[PATH_MAX];
    size_t n = 0;
    const char *s = p;
    while (*s) {
        while (*s == '/') s++;
        if (!*s) break;
        const char *e = s;
        while (*e && *e != '/') e++;
        size_t len = (size_t)(e - s);
        if (len == 1 && s[0] == '.') {
        } else if (len == 2 && s[0] == '.' && s[1] == '.') {
            while (n > 0 && out[n - 1] != '/') n--;
            if (n > 0) n--;
        } else if (n + 1 + len < sizeof out) {
            out[n++] = '/';
            memcpy(out + n, s, len);
            n += len;
        }
        s = e;
    }
    if (n == 0) out[n++] = '/';
    out[n] = 0;
    memcpy(p, out, n + 1);
}

/* The absolute path of PATH opened relative to DIRFD, in OUT; 0 when it cannot be told. */
static int absolute(int dirfd, const char *path, char *out, size_t cap) {
    if (!path) return 0;
    if (strlen(path) >= PATH_MAX / 2) return 0;
    if (path[0] == '/') {
        snprintf(out, cap, "%s", path);
    } else {
        char base[PATH_MAX / 2];
        if (dirfd == AT_FDCWD) {
            if (!getcwd(base, sizeof base)) return 0;
        } else if (dirfd >= 0 && dirfd < MAX_FD && paths[dirfd]) {
            snprintf(base, sizeof base, "%s", paths[dirfd]);
        } else {
            return 0;
        }
        snprintf(out, cap, "%s/%s", base, path);
    }
    normalize(out);
    return 1;
}

static int watched(const char *abs) {
    return watch_len && strncmp(abs, watch, watch_len) == 0 && (abs[watch_len] == 0 || abs[watch_len] == '/');
}

/* One line to the log; the caller holds mu. */
static void emit(const char *fmt, ...) {
    if (log_fd < 0) return;
    char line[PATH_MAX * 2 + 512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    ssize_t w = real_write(log_fd, line, (size_t)n);
    (void)w;
}

/* The traced path of FD, or NULL; the caller holds mu. An fd closed by a
 * path the shim does not see (fclose, dup2) and reused for something else no
 * longer names the same inode and is forgotten. */
static const char *fd_path(int fd) {
    if (fd < 0 || fd >= MAX_FD || !paths[fd]) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_dev != devs[fd] || st.st_ino != inos[fd]) {
        free(paths[fd]);
        paths[fd] = NULL;
    }
    return paths[fd];
}

/* Unlocked first look, so untraced fds (sockets, pipes) cost no lock. */
static int maybe_traced(int fd) { return fd >= 0 && fd < MAX_FD && __atomic_load_n(&paths[fd], __ATOMIC_RELAXED); }

static void track_open(int fd, int dirfd, const char *path) {
    if (fd < 0 || fd >= MAX_FD) return;
    char abs[PATH_MAX];
    pthread_mutex_lock(&mu);
    free(paths[fd]);
    paths[fd] = NULL;
    struct stat st;
    if (absolute(dirfd, path, abs, sizeof abs) && watched(abs) && fstat(fd, &st) == 0) {
        paths[fd] = strdup(abs);
        devs[fd] = st.st_dev;
        inos[fd] = st.st_ino;
        emit("open %s", abs);
    }
    pthread_mutex_unlock(&mu);
}

/* The request-id tokens in BUF: "durreq-" and its digits, comma-separated. */
static void tokens(const void *buf, size_t n, char *out, size_t cap) {
    static const char pre[] = "durreq-";
    const size_t pl = sizeof pre - 1;
    const char *b = buf;
    size_t o = 0;
    out[0] = 0;
    for (size_t i = 0; i + pl < n; i++) {
        if (b[i] != 'd' || memcmp(b + i, pre, pl) != 0) continue;
        size_t j = i + pl;
        while (j < n && b[j] >= '0' && b[j] <= '9') j++;
        if (j == i + pl) continue;
        size_t len = j - i;
        if (o + len + 2 >= cap) break;
        if (o) out[o++] = ',';
        memcpy(out + o, b + i, len);
        o += len;
        out[o] = 0;
        i = j - 1;
    }
}

static void note_write(int fd, const void *buf, ssize_t w) {
    if (w < 0) return;
    pthread_mutex_lock(&mu);
    const char *p = fd_path(fd);
    if (p) {
        char tok[1024];
        tokens(buf, (size_t)w, tok, sizeof tok);
        emit("write %s %zd%s%s", p, w, tok[0] ? " " : "", tok);
    }
    pthread_mutex_unlock(&mu);
}

static void note_fd(const char *op, int fd) {
    pthread_mutex_lock(&mu);
    const char *p = fd_path(fd);
    if (p) emit("%s %s", op, p);
    pthread_mutex_unlock(&mu);
}

static void note_path2(const char *op, int d1, const char *a, int d2, const char *b) {
    char x[PATH_MAX], y[PATH_MAX];
    pthread_mutex_lock(&mu);
    int ok1 = absolute(d1, a, x, sizeof x), ok2 = b ? absolute(d2, b, y, sizeof y) : 0;
    if ((ok1 && watched(x)) || (ok2 && watched(y))) {
        if (b) emit("%s %s %s", op, ok1 ? x : a, ok2 ? y : b);
        else emit("%s %s", op, x);
    }
    pthread_mutex_unlock(&mu);
}

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...) {
    ensure();
    va_list ap;
    va_start(ap, flags);
    mode_t m = mode_arg(flags, ap);
    va_end(ap);
    int fd = real_open(path, flags, m);
    track_open(fd, AT_FDCWD, path);
    return fd;
}

int open64(const char *path, int flags, ...) {
    ensure();
    va_list ap;
    va_start(ap, flags);
    mode_t m = mode_arg(flags, ap);
    va_end(ap);
    int fd = real_open64 ? real_open64(path, flags, m) : real_open(path, flags, m);
    track_open(fd, AT_FDCWD, path);
    return fd;
}

int openat(int dirfd, const char *path, int flags, ...) {
    ensure();
    va_list ap;
    va_start(ap, flags);
    mode_t m = mode_arg(flags, ap);
    va_end(ap);
    int fd = real_openat(dirfd, path, flags, m);
    track_open(fd, dirfd, path);
    return fd;
}

int openat64(int dirfd, const char *path, int flags, ...) {
    ensure();
    va_list ap;
    va_start(ap, flags);
    mode_t m = mode_arg(flags, ap);
    va_end(ap);
    int fd = real_openat64 ? real_openat64(dirfd, path, flags, m) : real_openat(dirfd, path, flags, m);
    track_open(fd, dirfd, path);
    return fd;
}

int __open_2(const char *path, int flags);
int __open_2(const char *path, int flags) {
    ensure();
    int fd = real___open_2 ? real___open_2(path, flags) : real_open(path, flags, 0);
    track_open(fd, AT_FDCWD, path);
    return fd;
}

int __open64_2(const char *path, int flags);
int __open64_2(const char *path, int flags) {
    ensure();
    int fd = real___open64_2 ? real___open64_2(path, flags) : real_open(path, flags, 0);
    track_open(fd, AT_FDCWD, path);
    return fd;
}

int __openat_2(int dirfd, const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags) {
    ensure();
    int fd = real___openat_2 ? real___openat_2(dirfd, path, flags) : real_openat(dirfd, path, flags, 0);
    track_open(fd, dirfd, path);
    return fd;
}

int __openat64_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags) {
    ensure();
    int fd = real___openat64_2 ? real___openat64_2(dirfd, path, flags) : real_openat(dirfd, path, flags, 0);
    track_open(fd, dirfd, path);
    return fd;
}

int creat(const char *path, mode_t m) {
    ensure();
    int fd = real_creat(path, m);
    track_open(fd, AT_FDCWD, path);
    return fd;
}

int close(int fd) {
    ensure();
    pthread_mutex_lock(&mu);
    if (fd >= 0 && fd < MAX_FD && paths[fd]) {
        emit("close %s", paths[fd]);
        free(paths[fd]);
        paths[fd] = NULL;
    }
    pthread_mutex_unlock(&mu);
    return real_close(fd);
}

ssize_t write(int fd, const void *buf, size_t n) {
    ensure();
    ssize_t w = real_write(fd, buf, n);
    int e = errno;
    if (maybe_traced(fd)) note_write(fd, buf, w);
    errno = e;
    return w;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
    ensure();
    ssize_t w = real_pwrite(fd, buf, n, off);
    int e = errno;
    if (maybe_traced(fd)) note_write(fd, buf, w);
    errno = e;
    return w;
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
    ensure();
    ssize_t w = real_pwrite64 ? real_pwrite64(fd, buf, n, off) : real_pwrite(fd, buf, n, off);
    int e = errno;
    if (maybe_traced(fd)) note_write(fd, buf, w);
    errno = e;
    return w;
}

ssize_t writev(int fd, const struct iovec *iov, int cnt) {
    ensure();
    ssize_t w = real_writev(fd, iov, cnt);
    int e = errno;
    if (w >= 0 && maybe_traced(fd)) {
        ssize_t left = w;
        for (int i = 0; i < cnt && left > 0; i++) {
            ssize_t part = (ssize_t)iov[i].iov_len < left ? (ssize_t)iov[i].iov_len : left;
            note_write(fd, iov[i].iov_base, part);
            left -= part;
        }
    }
    errno = e;
    return w;
}

int fsync(int fd) {
    ensure();
    int rc = real_fsync(fd);
    int e = errno;
    if (rc == 0) note_fd("fsync", fd);
    errno = e;
    return rc;
}

int fdatasync(int fd) {
    ensure();
    int rc = real_fdatasync(fd);
    int e = errno;
    if (rc == 0) note_fd("fdatasync", fd);
    errno = e;
    return rc;
}

int ftruncate(int fd, off_t len) {
    ensure();
    int rc = real_ftruncate(fd, len);
    int e = errno;
    if (rc == 0) note_fd("truncate", fd);
    errno = e;
    return rc;
}

int ftruncate64(int fd, off_t len) {
    ensure();
    int rc = real_ftruncate64 ? real_ftruncate64(fd, len) : real_ftruncate(fd, len);
    int e = errno;
    if (rc == 0) note_fd("truncate", fd);
    errno = e;
    return rc;
}

int rename(const char *a, const char *b) {
    ensure();
    int rc = real_rename(a, b);
    int e = errno;
    if (rc == 0) note_path2("rename", AT_FDCWD, a, AT_FDCWD, b);
    errno = e;
    return rc;
}

int renameat(int da, const char *a, int db, const char *b) {
    ensure();
    int rc = real_renameat(da, a, db, b);
    int e = errno;
    if (rc == 0) note_path2("rename", da, a, db, b);
    errno = e;
    return rc;
}

int renameat2(int da, const char *a, int db, const char *b, unsigned flags) {
    ensure();
    int rc = real_renameat2(da, a, db, b, flags);
    int e = errno;
    if (rc == 0) note_path2("rename", da, a, db, b);
    errno = e;
    return rc;
}

int unlink(const char *p) {
    ensure();
    int rc = real_unlink(p);
    int e = errno;
    if (rc == 0) note_path2("unlink", AT_FDCWD, p, AT_FDCWD, NULL);
    errno = e;
    return rc;
}

int unlinkat(int d, const char *p, int flags) {
    ensure();
    int rc = real_unlinkat(d, p, flags);
    int e = errno;
    if (rc == 0) note_path2("unlink", d, p, AT_FDCWD, NULL);
    errno = e;
    return rc;
}
