/* czk — rank-1 constraint systems (placeholder contract; the r1cs module
 * replaces this header with the full builder API). */
#ifndef CZK_R1CS_H
#define CZK_R1CS_H

#include <stddef.h>
#include <stdint.h>
#include "czk/bitmap.h"
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/pool.h"

/* One matrix in compressed sparse rows: row i's entries are
 * col[row_ptr[i] .. row_ptr[i+1]) with coefficients coeff[...]. A column
 * index v < n_inputs is input v (0 is ONE); otherwise aux v - n_inputs. */
typedef struct {
    uint64_t *row_ptr; /* n_constraints + 1 */
    uint32_t *col;
    czk_fr *coeff;
    uint64_t nnz;
} czk_csr;

/* A recorded circuit. n_constraints counts the circuit's own constraints,
 * not bellperson's extra `input_i · 0 = 0` rows (which every consumer adds
 * itself, after them, in input order). */
typedef struct {
    size_t n_inputs; /* including ONE */
    size_t n_aux;
    size_t n_constraints;
    czk_csr a, b, c;
} czk_r1cs;

#endif
