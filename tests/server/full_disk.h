/* A full disk for the tests, without root: SQLite's unix VFS lets a program
 * replace the system calls it makes (xSetSystemCall), so its write, pwrite
 * and pwrite64 fail with ENOSPC once `full_disk_room` bytes have been written (-1: no
 * limit; a write that does not fit is cut short, as on a real disk). Only
 * SQLite's writes are affected. full_disk_install() returns false when the
 * VFS cannot do it; full_disk_remove() puts the real calls back.
 * Header-only: each test includes it once. */
#ifndef CZK_TEST_FULL_DISK_H
#define CZK_TEST_FULL_DISK_H

#include <errno.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>
#include <unistd.h>

/* bytes SQLite may still write; -1: no limit. Atomic: the test sets it while
 * the service's threads write through SQLite. */
static _Atomic long long full_disk_room = -1;
static sqlite3_syscall_ptr real_sq_write, real_sq_pwrite, real_sq_pwrite64;

static ssize_t full_disk_take(size_t n) { /* how much of n may be written; -1 with ENOSPC when none */
    long long room = atomic_load(&full_disk_room);
    for (;;) {
        if (room < 0) return (ssize_t)n;
        if (room == 0) {
            errno = ENOSPC;
            return -1;
        }
        size_t k = (unsigned long long)room < n ? (size_t)room : n;
        if (atomic_compare_exchange_weak(&full_disk_room, &room, room - (long long)k)) return (ssize_t)k;
    }
}

static ssize_t full_write(int fd, const void *p, size_t n) {
    ssize_t k = full_disk_take(n);
    return k < 0 ? -1 : ((ssize_t(*)(int, const void *, size_t))real_sq_write)(fd, p, (size_t)k);
}

static ssize_t full_pwrite(int fd, const void *p, size_t n, off_t off) {
    ssize_t k = full_disk_take(n);
    return k < 0 ? -1 : ((ssize_t(*)(int, const void *, size_t, off_t))real_sq_pwrite)(fd, p, (size_t)k, off);
}

static ssize_t full_pwrite64(int fd, const void *p, size_t n, off_t off) {
    ssize_t k = full_disk_take(n);
    return k < 0 ? -1 : ((ssize_t(*)(int, const void *, size_t, off_t))real_sq_pwrite64)(fd, p, (size_t)k, off);
}

static bool full_disk_install(void) {
    sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
    if (!vfs || vfs->iVersion < 3 || !vfs->xSetSystemCall || !vfs->xGetSystemCall) return false;
    real_sq_write = vfs->xGetSystemCall(vfs, "write");
    real_sq_pwrite = vfs->xGetSystemCall(vfs, "pwrite");
    real_sq_pwrite64 = vfs->xGetSystemCall(vfs, "pwrite64");
    bool ok = real_sq_write && vfs->xSetSystemCall(vfs, "write", (sqlite3_syscall_ptr)full_write) == SQLITE_OK;
    if (ok && real_sq_pwrite)
        ok = vfs->xSetSystemCall(vfs, "pwrite", (sqlite3_syscall_ptr)full_pwrite) == SQLITE_OK;
    if (ok && real_sq_pwrite64)
        ok = vfs->xSetSystemCall(vfs, "pwrite64", (sqlite3_syscall_ptr)full_pwrite64) == SQLITE_OK;
    return ok;
}

static void full_disk_remove(void) {
    sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
    if (vfs && vfs->xSetSystemCall) vfs->xSetSystemCall(vfs, NULL, NULL); /* all back to the defaults */
}

#endif
