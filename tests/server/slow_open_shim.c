/* An LD_PRELOAD library for restart_check.sh: it holds every open of a file
 * whose name ends in CZK_SHIM_HOLD_SUFFIX (default ".params") until the
 * file CZK_SHIM_GATE exists, so that a process's parameter load takes as
 * long as the test wants.
 *
 *   CZK_SHIM_GATE  the gate file (unset: the shim holds nothing)
 *   CZK_SHIM_LOG   a log appended to: "held PATH" when an open is held,
 *                  "released PATH" when it goes on
 *
 * The held open polls for the gate every 20 ms (a test's file, not a
 * synchronization inside the program under test); then every call goes on
 * to the real function (dlsym RTLD_NEXT). Not for production. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void note(const char *what, const char *path) {
    const char *log = getenv("CZK_SHIM_LOG");
    if (!log || !*log) return;
    int (*real_open)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    if (!real_open) return;
    int fd = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    char line[4200];
    int n = snprintf(line, sizeof line, "%s %s\n", what, path);
    if (n > 0 && (size_t)n < sizeof line && write(fd, line, (size_t)n) != n) {
        /* the log is the test's; nothing to do */
    }
    close(fd);
}

static void hold(const char *path) {
    const char *gate = getenv("CZK_SHIM_GATE"), *suffix = getenv("CZK_SHIM_HOLD_SUFFIX");
    if (!gate || !*gate || !path) return;
    if (!suffix || !*suffix) suffix = ".params";
    size_t n = strlen(path), k = strlen(suffix);
    if (n < k || strcmp(path + n - k, suffix) != 0) return;
    struct stat st;
    if (stat(gate, &st) == 0) return;
    note("held", path);
    const struct timespec tick = {0, 20 * 1000 * 1000};
    while (stat(gate, &st) != 0) nanosleep(&tick, NULL);
    note("released", path);
}

static mode_t mode_of(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

#define OPEN_SHIM(name)                                                                       \
    int name(const char *path, int flags, ...) {                                             \
        static int (*real)(const char *, int, ...);                                           \
        if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name);           \
        va_list ap;                                                                           \
        va_start(ap, flags);                                                                  \
        mode_t mode = mode_of(flags, ap);                                                     \
        va_end(ap);                                                                           \
        hold(path);                                                                           \
        return real(path, flags, mode);                                                       \
    }
#define OPENAT_SHIM(name)                                                                     \
    int name(int dirfd, const char *path, int flags, ...) {                                  \
        static int (*real)(int, const char *, int, ...);                                      \
        if (!real) real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, #name);      \
        va_list ap;                                                                           \
        va_start(ap, flags);                                                                  \
        mode_t mode = mode_of(flags, ap);                                                     \
        va_end(ap);                                                                           \
        hold(path);                                                                           \
        return real(dirfd, path, flags, mode);                                                \
    }

int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);
int openat(int dirfd, const char *path, int flags, ...);
int openat64(int dirfd, const char *path, int flags, ...);
OPEN_SHIM(open)
OPEN_SHIM(open64)
OPENAT_SHIM(openat)
OPENAT_SHIM(openat64)
