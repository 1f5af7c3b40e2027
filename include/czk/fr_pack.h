/* czk — Fr vectors packed, for the trip over PCIe (the staged uploads of
 * src/gpu/gpu.c, unpacked on the device by unpack.cu) and for keeping a
 * partition's a, b, c between their evaluation and the prover
 * (czk_fr_packed below): a value that is k·1 for |k| <= CZK_FR_PACK_SMALL
 * (0 included) takes one byte, any other value the escape byte plus its 32
 * bytes. In a SHA-256 circuit nearly every value of a, b, c and of the
 * witness is such a small multiple of one, so the bytes shrink about
 * 13- to 30-fold; vectors of other values are better kept as they are.
 *
 * The packed form of n values (n <= CZK_FR_PACK_MAX), in groups of
 * CZK_FR_PACK_GROUP values (G = ceil(n / GROUP)):
 *   uint32 first[G + 1]  index in others of group j's first escaped value;
 *                        first[G] = the number of escaped values
 *   uint8  code[n]       at byte czk_fr_pack_codes_at(n): k (two's
 *                        complement) for k·1, CZK_FR_PACK_ESC for the next
 *                        value of others
 *   czk_fr others[]      at byte czk_fr_pack_others_at(n), in value order
 * Everything is host byte order (little-endian) and 16-byte aligned. */
#ifndef CZK_FR_PACK_H
#define CZK_FR_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "czk/fr.h"
#include "czk/mem.h"
#include "czk/pool.h"

#define CZK_FR_PACK_SMALL 16
#define CZK_FR_PACK_ESC 0x80u
#define CZK_FR_PACK_GROUP 1024u
/* the most values of one packed chunk: even with every value escaped
 * (33 bytes each) and the group table, it fits in 64 MiB */
#define CZK_FR_PACK_MAX (((size_t)1 << 21) - ((size_t)1 << 16))

/* k·1 (Montgomery form) for k = -SMALL … SMALL at small[k + SMALL], and
 * the packer's perfect hash of their low limbs: value v can only be the
 * small value cand[slot[(v.l[0]·mul) >> 56]] (cand[0]: all ones, which no
 * canonical value is), whose byte is code[] of the same index. */
typedef struct {
    czk_fr small[2 * CZK_FR_PACK_SMALL + 1];
    uint64_t mul;
    uint8_t slot[256];
    czk_fr cand[2 * CZK_FR_PACK_SMALL + 2];
    uint8_t code[2 * CZK_FR_PACK_SMALL + 2];
} czk_fr_pack_table;

void czk_fr_pack_table_init(czk_fr_pack_table *t);

/* the layout, for the host and for unpack.cu */
#ifdef __CUDACC__
#define CZK_FR_PACK_FN static inline __host__ __device__
#else
#define CZK_FR_PACK_FN static inline
#endif
CZK_FR_PACK_FN size_t czk_fr_pack_groups(size_t n) { return (n + CZK_FR_PACK_GROUP - 1) / CZK_FR_PACK_GROUP; }
CZK_FR_PACK_FN size_t czk_fr_pack_codes_at(size_t n) { return ((czk_fr_pack_groups(n) + 1) * 4 + 15) & ~(size_t)15; }
CZK_FR_PACK_FN size_t czk_fr_pack_others_at(size_t n) { return (czk_fr_pack_codes_at(n) + n + 15) & ~(size_t)15; }

/* Packs src[0 … n) into dst (cap bytes; n <= CZK_FR_PACK_MAX and cap >=
 * czk_fr_pack_others_at(n) + 32·n, the worst case) on pool (NULL: this
 * thread) and returns the packed bytes. Returns 0 without packing when a
 * sample of the values says that most of them are not small (then the
 * vector is better copied as it is). */
size_t czk_fr_pack(const czk_fr_pack_table *t, const czk_fr *src, size_t n, void *dst, size_t cap, czk_pool *pool);

/* The host's unpacking of czk_fr_pack's output (the reference for the
 * device's, and for tests): out[0 … n). */
void czk_fr_unpack(const czk_fr_pack_table *t, const void *packed, size_t n, czk_fr *out);

/* ---- packed vectors --------------------------------------------------------- */

/* The table every packed vector uses, made at the first call. */
const czk_fr_pack_table *czk_fr_pack_table_get(void);

/* One chunk of a packed vector: values [off, off + n), n <= CZK_FR_PACK_MAX,
 * in czk_fr_pack's form (packed) or as they are (its sample said most of
 * them are not small); data is a czk_mem buffer of `bytes` bytes. */
typedef struct {
    size_t off, n, bytes;
    bool packed;
    void *data;
} czk_fr_chunk;

/* n values in chunks of CZK_FR_PACK_MAX (the last one shorter), each chunk
 * as the GPU's staged uploads move it (one chunk, one pinned buffer). */
typedef struct {
    size_t n, n_chunks;
    czk_fr_chunk *chunks;
} czk_fr_packed;

/* Packs src[0 … n) into *out (a czk_mem buffer of `tag`, its chunks too),
 * on pool. Each chunk decides for itself (czk_fr_pack's sample of 64 of its
 * values): mostly other values, kept plain; else packed. When no chunk would
 * pack, nothing is made: *out = NULL and CZK_OK (src is better kept as it
 * is). CZK_ERR_NO_MEMORY leaves *out NULL. */
czk_err czk_fr_packed_make(czk_fr_packed **out, const czk_fr *src, size_t n, czk_mem_tag tag, czk_pool *pool);
/* Building one chunk by chunk (the packed evaluation of a, b, c):
 * czk_fr_packed_new makes v for n values with its chunks' places (off, n)
 * and no data; czk_fr_packed_set_chunk packs chunk i from src (its n
 * values), or keeps them as they are where its sample says most are not
 * small. Every chunk must be set before v is used. */
czk_err czk_fr_packed_new(czk_fr_packed **out, size_t n, czk_mem_tag tag);
czk_err czk_fr_packed_set_chunk(czk_fr_packed *v, size_t i, const czk_fr *src, czk_mem_tag tag, czk_pool *pool);
/* Frees v and its chunks (NULL is ignored). */
void czk_fr_packed_free(czk_fr_packed *v);
/* The bytes v holds (its chunks and itself). */
size_t czk_fr_packed_bytes(const czk_fr_packed *v);
/* out[0 … v->n) = the values, on pool (a chunk a task). */
void czk_fr_packed_unpack(const czk_fr_packed *v, czk_fr *out, czk_pool *pool);

#endif
