/* czk — the compact form of a recorded R1CS: what a 130M-constraint circuit
 * (a 32 GiB PoRep partition: 722M non-zeros, about 29 GB as czk_csr) is
 * kept as on the host, in a cache file and resident on the GPU.
 *
 * Per matrix, compressed sparse rows with 32-bit row offsets, 32-bit column
 * indices (the same column numbering as czk_csr: input v is column v, aux j
 * is column n_inputs + j) and a 16-bit index into one dictionary of the
 * distinct coefficients shared by A, B and C. dict[0] is one and dict[1] is
 * minus one (present even where unused), so a consumer can add or subtract
 * without a multiplication for those, which are nearly all terms. Explicit
 * zero coefficients (bellpepper keeps them as terms) stay terms, with zero
 * in the dictionary; densities ignore them, exactly as czk_r1cs_density.
 * Rows hold the same terms in the same order as the recorded CSR.
 *
 * Bytes: 4·(rows + 1) + 6·nnz per matrix, plus 32 per dictionary entry;
 * porep-32g: about 5.5 GiB for A, B and C together.
 * Limits: nnz of each matrix < 2^32, at most CZK_R1CS_COMPACT_DICT_MAX
 * distinct coefficients (CZK_ERR_UNSUPPORTED with a message beyond them). */
#ifndef CZK_R1CS_COMPACT_H
#define CZK_R1CS_COMPACT_H

#include <stddef.h>
#include <stdint.h>

#include "czk/bitmap.h"
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/fr_pack.h"
#include "czk/pool.h"
#include "czk/r1cs.h"

#define CZK_R1CS_COMPACT_DICT_MAX 65536u

/* Row i's terms are col[row_ptr[i] .. row_ptr[i+1]) with coefficients
 * dict[coeff[...]]. All arrays are czk_mem buffers tagged CZK_MEM_R1CS;
 * col and coeff are NULL when nnz is 0. */
typedef struct {
    uint32_t *row_ptr; /* n_constraints + 1 */
    uint32_t *col;
    uint16_t *coeff;
    uint64_t nnz;
} czk_csr_compact;

/* n_constraints counts the circuit's own rows, as czk_r1cs (bellperson's
 * input rows are added by every consumer). dict: n_dict Montgomery values,
 * a czk_mem buffer tagged CZK_MEM_R1CS, n_dict >= 2. */
typedef struct {
    size_t n_inputs; /* including ONE */
    size_t n_aux;
    size_t n_constraints;
    czk_csr_compact a, b, c;
    czk_fr *dict;
    size_t n_dict;
} czk_r1cs_compact;

/* Runs fn in a recording mode that writes the compact form directly (the
 * CSR is never made): peak memory is about the result plus one growth step
 * of its arrays. On failure nothing is left allocated and msg says why. */
czk_err czk_r1cs_compact_record(czk_r1cs_compact *out, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen);

/* The compact form of a recorded CSR (r is left as it is). */
czk_err czk_r1cs_compact_from_csr(czk_r1cs_compact *out, const czk_r1cs *r, char *msg, size_t msglen);
/* The CSR of a compact form (for the CPU setup and tests). */
czk_err czk_r1cs_compact_to_csr(czk_r1cs *out, const czk_r1cs_compact *r, char *msg, size_t msglen);

/* Frees the arrays (not r itself) and zeroes r; a zeroed r is fine. */
void czk_r1cs_compact_free(czk_r1cs_compact *r);
/* The bytes of its arrays. */
size_t czk_r1cs_compact_bytes(const czk_r1cs_compact *r);

/* As czk_r1cs_density, from the compact form. */
czk_err czk_r1cs_compact_density(const czk_r1cs_compact *r, czk_bitmap *a_aux, czk_bitmap *b_input,
                                 czk_bitmap *b_aux);

/* As czk_r1cs_eval_abc and czk_r1cs_eval_abc_packed (the same values, the
 * same buffers and tags, the same errors), from the compact form. */
czk_err czk_r1cs_compact_eval_abc(const czk_r1cs_compact *r, const czk_witness *w, czk_fr **a, czk_fr **b,
                                  czk_fr **c, czk_pool *pool);
czk_err czk_r1cs_compact_eval_abc_packed(const czk_r1cs_compact *r, const czk_witness *w, czk_fr_packed **a,
                                         czk_fr_packed **b, czk_fr_packed **c, czk_pool *pool);

/* Cache files, our own format, little-endian: a 136-byte header (magic
 * "CZKR1CC\0", version, SHA-256 of the circuit id, the counts and a SHA-256
 * over the header and the SHA-256s of the body's 64 MiB chunks, so that
 * both ends hash on all the pool's threads; src/r1cs/compact_file.c has the
 * byte layout), then the dictionary (32-byte canonical values), then
 * row_ptr, col and coeff of A, B and C in turn, as they are in memory. save
 * writes a temporary file beside path, fsyncs and renames it into place.
 * load reads straight into the arrays (czk_pool_default's threads), checks
 * magic, version, circuit id, sizes, checksum and structure (row offsets
 * non-decreasing and ending at nnz, columns in range, dictionary indices in
 * range, dict[0] = 1 and dict[1] = -1): CZK_ERR_FORMAT, or CZK_ERR_MISMATCH
 * for another circuit, with a message naming the problem; CZK_ERR_IO for a
 * missing or unreadable file. */
czk_err czk_r1cs_compact_save(const czk_r1cs_compact *r, const char *circuit_id, const char *path, char *msg,
                              size_t msglen);
czk_err czk_r1cs_compact_load(czk_r1cs_compact *out, const char *circuit_id, const char *path, char *msg,
                              size_t msglen);

#endif
