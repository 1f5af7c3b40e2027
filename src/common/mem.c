/* czk — tagged large-buffer allocation (see include/czk/mem.h).
 *
 * Each buffer starts with a 64-byte header (size, tag, how it was obtained);
 * the caller gets the address just after it. Buffers >= 1 MiB come from mmap
 * and go back with munmap; smaller ones from calloc. Counters are atomics. */
#define _GNU_SOURCE /* mremap */
#include "czk/mem.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HEADER 64
#define MMAP_THRESHOLD (1u << 20)
#define MAGIC 0x637a6b6d656d3031ULL /* "czkmem01" */

typedef struct {
    uint64_t magic;
    uint64_t bytes;
    uint32_t tag;
    uint32_t mapped;
} header;

static atomic_size_t in_use[CZK_MEM__COUNT];
static atomic_size_t high[CZK_MEM__COUNT];
static atomic_size_t count[CZK_MEM__COUNT];

static void charge(czk_mem_tag tag, size_t bytes) {
    size_t now = atomic_fetch_add(&in_use[tag], bytes) + bytes;
    size_t h = atomic_load(&high[tag]);
    while (now > h && !atomic_compare_exchange_weak(&high[tag], &h, now)) {
    }
    atomic_fetch_add(&count[tag], 1);
}

/* Transparent huge pages for large buffers: first-touch faults then cost one
 * per 2 MiB instead of one per 4 KiB. A hint; failure is harmless. */
static void advise_huge(void *base, size_t total) {
#ifdef MADV_HUGEPAGE
    if (total >= (4u << 20)) (void)madvise(base, total, MADV_HUGEPAGE);
#else
    (void)base, (void)total;
#endif
}

void *czk_mem_alloc(size_t bytes, czk_mem_tag tag) {
    if (bytes == 0 || (unsigned)tag >= CZK_MEM__COUNT || bytes > SIZE_MAX - HEADER) return NULL;
    size_t total = bytes + HEADER;
    void *base;
    int mapped = total >= MMAP_THRESHOLD;
    if (mapped) {
        base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) return NULL;
        advise_huge(base, total);
    } else {
        base = aligned_alloc(64, (total + 63) & ~(size_t)63);
        if (!base) return NULL;
        __builtin_memset(base, 0, total);
    }
    header *h = base;
    h->magic = MAGIC;
    h->bytes = bytes;
    h->tag = (uint32_t)tag;
    h->mapped = (uint32_t)mapped;
    charge(tag, bytes);
    return (char *)base + HEADER;
}

void czk_mem_free(void *p) {
    if (!p) return;
    header *h = (header *)((char *)p - HEADER);
    if (h->magic != MAGIC) abort(); /* not ours: a bug in the caller, never input-driven */
    h->magic = 0;
    czk_mem_tag tag = (czk_mem_tag)h->tag;
    size_t bytes = h->bytes;
    atomic_fetch_sub(&in_use[tag], bytes);
    atomic_fetch_sub(&count[tag], 1);
    if (h->mapped) munmap(h, bytes + HEADER);
    else free(h);
}

void *czk_mem_realloc(void *p, size_t bytes) {
    if (!p) return NULL;
    header *h = (header *)((char *)p - HEADER);
    if (h->magic != MAGIC) abort();
    czk_mem_tag tag = (czk_mem_tag)h->tag;
    size_t old = h->bytes;
    if (bytes == 0 || bytes > SIZE_MAX - HEADER) return NULL;
    if (h->mapped && bytes + HEADER >= MMAP_THRESHOLD) {
        void *base = mremap(h, old + HEADER, bytes + HEADER, MREMAP_MAYMOVE);
        if (base == MAP_FAILED) return NULL;
        h = base;
        h->bytes = bytes;
        if (bytes > old) {
            atomic_fetch_add(&in_use[tag], bytes - old);
            size_t now = atomic_load(&in_use[tag]), hw = atomic_load(&high[tag]);
            while (now > hw && !atomic_compare_exchange_weak(&high[tag], &hw, now)) {
            }
            advise_huge(base, bytes + HEADER);
        } else {
            atomic_fetch_sub(&in_use[tag], old - bytes);
        }
        return (char *)base + HEADER;
    }
    void *q = czk_mem_alloc(bytes, tag);
    if (!q) return NULL;
    memcpy(q, p, old < bytes ? old : bytes);
    czk_mem_free(p);
    return q;
}

size_t czk_mem_size(const void *p) { return p ? ((const header *)((const char *)p - HEADER))->bytes : 0; }
size_t czk_mem_in_use(czk_mem_tag tag) { return tag < CZK_MEM__COUNT ? atomic_load(&in_use[tag]) : 0; }
size_t czk_mem_high_water(czk_mem_tag tag) { return tag < CZK_MEM__COUNT ? atomic_load(&high[tag]) : 0; }
size_t czk_mem_buffers(czk_mem_tag tag) { return tag < CZK_MEM__COUNT ? atomic_load(&count[tag]) : 0; }

const char *czk_mem_tag_name(czk_mem_tag tag) {
    static const char *names[CZK_MEM__COUNT] = {"synth", "abc", "aux", "pending", "srs", "r1cs"};
    return tag < CZK_MEM__COUNT ? names[tag] : "unknown";
}

void czk_mem_process_rss(size_t *rss, size_t *peak) {
    *rss = *peak = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        unsigned long long kb;
        if (sscanf(line, "VmRSS: %llu kB", &kb) == 1) *rss = (size_t)kb * 1024;
        if (sscanf(line, "VmHWM: %llu kB", &kb) == 1) *peak = (size_t)kb * 1024;
    }
    fclose(f);
}
