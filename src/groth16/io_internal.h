/* czk — helpers shared by the Groth16 file modules (params_io.c, vk_io.c,
 * proof_io.c, snarkjs.c): messages, read-only mapped input files, atomic
 * output files, and the vk layout that both .vk and .params files start
 * with. Internal: not installed, not part of the public API. */
#ifndef CZK_GROTH16_IO_INTERNAL_H
#define CZK_GROTH16_IO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "czk/err.h"
#include "czk/groth16.h"

#define CZK_IO_VK_FIXED_BYTES (3 * CZK_G1_UNCOMPRESSED_BYTES + 3 * CZK_G2_UNCOMPRESSED_BYTES)

/* snprintf into msg when msglen > 0; returns code (for `return czk_io_fail(...)`). */
czk_err czk_io_fail(czk_err code, char *msg, size_t msglen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A whole file mapped read-only. data is NULL when len is 0. */
typedef struct {
    const uint8_t *data;
    size_t len;
    void *map;
    size_t map_len;
} czk_io_map;

/* CZK_ERR_IO when the file cannot be opened, is not a regular file or cannot
 * be mapped; the message names path and the system's reason. */
czk_err czk_io_map_open(czk_io_map *m, const char *path, char *msg, size_t msglen);
void czk_io_map_close(czk_io_map *m);

/* An output file written atomically: bytes go to a fresh temporary file in
 * path's directory; commit flushes, fsyncs, renames it over path and fsyncs
 * the directory; abort removes it. After commit or abort o is closed. */
typedef struct {
    FILE *f;
    char *tmp;
    char *path;
    bool failed;
    int err; /* errno of the first failed write */
} czk_io_out;

czk_err czk_io_out_open(czk_io_out *o, const char *path, char *msg, size_t msglen);
/* Buffered; a failure is remembered and reported by commit. */
void czk_io_out_write(czk_io_out *o, const void *p, size_t n);
czk_err czk_io_out_commit(czk_io_out *o, char *msg, size_t msglen);
void czk_io_out_abort(czk_io_out *o);
/* open + write + commit of one buffer. */
czk_err czk_io_write_file(const char *path, const void *p, size_t n, char *msg, size_t msglen);

/* Structure only: the vk at the start of in[0, len) fits (fixed points,
 * count, IC points); *size is its encoded size. Nothing is allocated. */
czk_err czk_io_vk_layout(const uint8_t *in, size_t len, size_t *size, const char *what, char *msg, size_t msglen);
/* The vk at the start of in[0, len). On success *used is the vk's size and
 * out->ic a czk_mem buffer. Messages start with `what` (e.g. "vk" or
 * "params: vk"); offsets are relative to in. Structure is checked before
 * the IC buffer is allocated. */
czk_err czk_io_vk_parse(czk_vk *out, const uint8_t *in, size_t len, size_t *used, const char *what, char *msg,
                        size_t msglen);
/* Writes the vk's czk_vk_encoded_size(n_ic) bytes; the caller has checked it
 * (czk_io_vk_check). */
void czk_io_vk_put(uint8_t *out, const czk_vk *vk);
/* CZK_ERR_INVALID_ARGUMENT when the vk cannot be written in a form the
 * readers accept (an IC point at infinity, n_ic over u32). */
czk_err czk_io_vk_check(const czk_vk *vk, char *msg, size_t msglen);

static inline uint32_t czk_io_get_u32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline void czk_io_put_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
