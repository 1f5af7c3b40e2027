/* czk — a params file (bellperson's format, czk/groth16_io.h) written
 * section by section from chunks of points, never whole in memory: the
 * bytes are exactly those czk_params_write writes for the same parameters.
 *
 * The writer is told every section's count up front (the counts precede the
 * points in the file), takes the points of h, l, a, b_g1 and b_g2 in file
 * order, either already encoded (96-byte G1 / 192-byte G2 uncompressed
 * points, as a GPU produces them) or as host affine points, and checks at
 * commit that every section received exactly its count. Encoded points
 * are checked for the infinity flag (bellperson's reader rejects the
 * identity in a query; the points themselves are not decoded). The file
 * goes to a temporary name beside path, is fsynced and then moved into
 * place: renamed over path, or, with no_replace, linked to path so that an
 * existing file is never replaced (CZK_ERR_IO naming it). Errors: CZK_ERR_IO
 * (with the system's reason), CZK_ERR_INVALID_ARGUMENT (a section out of
 * order, more points than its count, an identity point, a short section at
 * commit); after an error the writer only accepts czk_params_writer_abort. */
#ifndef CZK_PARAMS_WRITER_H
#define CZK_PARAMS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "czk/err.h"
#include "czk/groth16.h"
#include "czk/pool.h"

/* Sections in file order. */
enum { CZK_PW_H = 0, CZK_PW_L, CZK_PW_A, CZK_PW_B_G1, CZK_PW_B_G2, CZK_PW_SECTIONS };

typedef struct czk_params_writer czk_params_writer;

/* Opens the temporary file and writes vk (checked as czk_vk_write checks
 * it) and h's count. counts: the points of each section (each < 2^32). */
czk_err czk_params_writer_open(czk_params_writer **out, const char *path, const czk_vk *vk,
                               const size_t counts[CZK_PW_SECTIONS], int no_replace, char *msg, size_t msglen);
/* Appends count encoded points of `section` (the current one, or a later
 * one once the current is complete; empty sections between are written). */
czk_err czk_params_writer_put_encoded(czk_params_writer *w, int section, const uint8_t *bytes, size_t count,
                                      char *msg, size_t msglen);
/* The same from host affine points (czk_g1_affine, or czk_g2_affine for
 * b_g2), encoded on the pool (NULL: the calling thread). */
czk_err czk_params_writer_put_points(czk_params_writer *w, int section, const void *points, size_t count,
                                     czk_pool *pool, char *msg, size_t msglen);
/* Checks the counts, flushes, fsyncs and moves the file into place; frees w
 * whatever the outcome. */
czk_err czk_params_writer_commit(czk_params_writer *w, char *msg, size_t msglen);
/* Removes the temporary file and frees w (NULL ignored). */
void czk_params_writer_abort(czk_params_writer *w);
/* vk alone (czk_vk_write's bytes) to path, through a temporary file moved
 * into place as above (no_replace: never over an existing file). */
czk_err czk_params_writer_vk(const czk_vk *vk, const char *path, int no_replace, char *msg, size_t msglen);
/* Bytes written so far (vk, counts and points). */
uint64_t czk_params_writer_bytes(const czk_params_writer *w);

#endif
