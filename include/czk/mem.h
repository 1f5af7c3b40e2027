/* czk — large-buffer allocation with per-stage accounting.
 *
 * Every large buffer (witness, a/b/c, pending state, parameters, R1CS) is
 * allocated here with a stage tag. Buffers of 1 MiB or more are mapped and
 * unmapped directly, so freeing them returns the memory to the operating
 * system at once. The per-tag byte gauges and their high-water marks are the
 * buffer-flight counters: they read zero when nothing is in flight. */
#ifndef CZK_MEM_H
#define CZK_MEM_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    CZK_MEM_SYNTH = 0, /* witness (input and aux assignments) */
    CZK_MEM_ABC,       /* the a, b, c evaluation vectors */
    CZK_MEM_AUX,       /* other per-partition working buffers */
    CZK_MEM_PENDING,   /* state kept between prove_start and prove_finish */
    CZK_MEM_SRS,       /* proving parameters */
    CZK_MEM_R1CS,      /* recorded constraint systems */
    CZK_MEM__COUNT
} czk_mem_tag;

/* Zero-filled buffer of `bytes` bytes charged to `tag`; NULL when out of
 * memory (or bytes = 0). Aligned to 64 bytes. */
void *czk_mem_alloc(size_t bytes, czk_mem_tag tag);
/* Frees a buffer from czk_mem_alloc (NULL is ignored) and uncharges it. */
void czk_mem_free(void *p);
/* Resizes a buffer from czk_mem_alloc to `bytes`, keeping its contents (new
 * bytes are zero) and its tag; large buffers move with mremap, without a copy.
 * NULL when out of memory, and p is then still valid. */
void *czk_mem_realloc(void *p, size_t bytes);
/* The size a buffer was allocated with. */
size_t czk_mem_size(const void *p);

/* Bytes now charged to tag, and the most ever charged at once. */
size_t czk_mem_in_use(czk_mem_tag tag);
size_t czk_mem_high_water(czk_mem_tag tag);
/* Number of live buffers with tag. */
size_t czk_mem_buffers(czk_mem_tag tag);
const char *czk_mem_tag_name(czk_mem_tag tag);

/* The process's resident set now and at its peak (VmRSS and VmHWM of
 * /proc/self/status), in bytes; 0 where the system does not say. */
void czk_mem_process_rss(size_t *rss, size_t *peak);

#endif
