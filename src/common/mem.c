/* czk — tagged large-buffer allocation (see include/czk/mem.h).
 *
 * Each buffer starts with a 64-byte header (size, tag, how it was obtained);
 * the caller gets the address just after it. Buffers >= 1 MiB come from mmap
 * and go back with munmap; smaller ones from calloc. Counters are atomics. */
#include "czk/mem.h"

#include <stdatomic.h>
#include <stdlib.h>
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

void *czk_mem_alloc(size_t bytes, czk_mem_tag tag) {
    if (bytes == 0 || (unsigned)tag >= CZK_MEM__COUNT || bytes > SIZE_MAX - HEADER) return NULL;
    size_t total = bytes + HEADER;
    void *base;
    int mapped = total >= MMAP_THRESHOLD;
    if (mapped) {
        base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) return NULL;
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

size_t czk_mem_size(const void *p) { return p ? ((const header *)((const char *)p - HEADER))->bytes : 0; }
size_t czk_mem_in_use(czk_mem_tag tag) { return tag < CZK_MEM__COUNT ? atomic_load(&in_use[tag]) : 0; }
size_t czk_mem_high_water(czk_mem_tag tag) { return tag < CZK_MEM__COUNT ? atomic_load(&high[tag]) : 0; }
size_t czk_mem_buffers(czk_mem_tag tag) { return tag < CZK_MEM__COUNT ? atomic_load(&count[tag]) : 0; }

const char *czk_mem_tag_name(czk_mem_tag tag) {
    static const char *names[CZK_MEM__COUNT] = {"synth", "abc", "aux", "pending", "srs", "r1cs"};
    return tag < CZK_MEM__COUNT ? names[tag] : "unknown";
}
