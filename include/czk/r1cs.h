/* czk — rank-1 constraint systems: the circuit builder API, recorded CSR
 * matrices, witness-only synthesis, checking, a·b·c evaluation, densities and
 * R1CS files.
 *
 * Semantics follow bellpepper-core (the constraint system bellperson uses):
 *  - ONE is input 0, allocated by the constraint system before the circuit
 *    runs; inputs, aux variables and constraints are numbered in call order.
 *  - A linear combination keeps its input terms sorted by index, then its aux
 *    terms sorted by index; adding a variable that is already present adds to
 *    its coefficient; terms are never removed, so a coefficient that becomes
 *    (or starts as) zero stays as an explicit zero term. A recorded CSR row is
 *    exactly the LC's terms in that order, so columns are strictly increasing.
 *  - Namespaces only name things; they never change the R1CS.
 *  - Densities count a variable only where its coefficient is non-zero
 *    (bellperson's eval_with_trackers); inputs have full density in A. */
#ifndef CZK_R1CS_H
#define CZK_R1CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/bitmap.h"
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/fr_pack.h"
#include "czk/pool.h"

/* ---- recorded systems ---------------------------------------------------- */

/* One matrix in compressed sparse rows: row i's entries are
 * col[row_ptr[i] .. row_ptr[i+1]) with coefficients coeff[...]. A column
 * index v < n_inputs is input v (0 is ONE); otherwise aux v - n_inputs.
 * Within a row columns are strictly increasing. All three arrays are czk_mem
 * buffers tagged CZK_MEM_R1CS; col and coeff are NULL when nnz is 0. */
typedef struct {
    uint64_t *row_ptr; /* n_constraints + 1 */
    uint32_t *col;
    czk_fr *coeff;
    uint64_t nnz;
} czk_csr;

/* A recorded circuit. n_constraints counts the circuit's own constraints,
 * not bellperson's extra `input_i · 0 = 0` rows (which every consumer adds
 * itself, after them, in input order). n_inputs + n_aux < 2^31. */
typedef struct {
    size_t n_inputs; /* including ONE */
    size_t n_aux;
    size_t n_constraints;
    czk_csr a, b, c;
} czk_r1cs;

/* ---- variables and linear combinations ----------------------------------- */

typedef struct {
    uint32_t index;
    uint32_t is_input;
} czk_var; /* input 0 is ONE */
#define CZK_VAR_ONE ((czk_var){0, 1})

typedef struct {
    czk_var var;
    czk_fr coeff;
} czk_lc_term;

/* bellpepper's LinearCombination (see the top of this file for the term
 * order and merging). Build it only through czk_lc_* functions. `failed` is
 * set when an allocation failed; czk_cs_enforce then fails the synthesis with
 * CZK_ERR_NO_MEMORY. A zeroed struct is a valid empty LC. */
typedef struct {
    czk_lc_term *terms;
    size_t len, cap;
    bool failed;
} czk_lc;

void czk_lc_init(czk_lc *lc);
void czk_lc_free(czk_lc *lc);
/* Empties lc, keeping its memory for reuse. */
void czk_lc_clear(czk_lc *lc);
/* lc + coeff·v (coeff NULL means 1). Appending in increasing variable order
 * costs O(1); otherwise a binary search and an insertion. */
void czk_lc_add(czk_lc *lc, czk_var v, const czk_fr *coeff);
/* lc - coeff·v (coeff NULL means 1): adds -coeff·v. */
void czk_lc_sub(czk_lc *lc, czk_var v, const czk_fr *coeff);
/* lc + coeff·other, term by term in other's order (coeff NULL means 1).
 * other must not be lc. */
void czk_lc_add_lc(czk_lc *lc, const czk_lc *other, const czk_fr *coeff);
/* lc - coeff·other (coeff NULL means 1). other must not be lc. */
void czk_lc_sub_lc(czk_lc *lc, const czk_lc *other, const czk_fr *coeff);
/* Σ coeff·value over the terms, with input and aux values given as arrays
 * (indices are not range-checked). */
void czk_lc_eval(czk_fr *out, const czk_lc *lc, const czk_fr *input, const czk_fr *aux);

/* ---- constraint systems --------------------------------------------------- */

typedef enum {
    CZK_CS_RECORD,  /* builds the CSR matrices; values optional */
    CZK_CS_WITNESS, /* only stores values; enforce is ~free */
    CZK_CS_CHECK,   /* stores values and evaluates each constraint as enforced */
    CZK_CS_COUNT    /* as RECORD for the circuit (values optional, LCs built), but
                     * keeps only counts and density bitmaps: czk_r1cs_count */
} czk_cs_mode;

typedef struct czk_cs czk_cs;

/* false in WITNESS mode: gadgets may skip building LCs. */
bool czk_cs_needs_lc(const czk_cs *cs);
czk_cs_mode czk_cs_get_mode(const czk_cs *cs);

/* Allocates an aux (alloc) or input (alloc_input) variable with `value`.
 * value may be NULL only in RECORD mode (otherwise CZK_ERR_SYNTHESIS). name
 * may be NULL and is only read in CHECK mode. Fails with the constraint
 * system's sticky error once one has happened (out of memory, a bad
 * constraint), so circuits stop early. WITNESS mode costs a few ns. */
czk_err czk_cs_alloc(czk_cs *cs, czk_var *out, const char *name, const czk_fr *value);
czk_err czk_cs_alloc_input(czk_cs *cs, czk_var *out, const char *name, const czk_fr *value);

/* Adds the constraint a·b = c. A NULL lc is the empty LC. In WITNESS mode it
 * only counts the constraint (the lcs may be NULL). Errors (out of memory, a
 * term on an unallocated variable) become the sticky error. */
void czk_cs_enforce(czk_cs *cs, const char *name, const czk_lc *a, const czk_lc *b, const czk_lc *c);

/* Namespaces: O(1) in RECORD and WITNESS modes (no string is built); CHECK
 * mode copies the name into the current path. Pop without push is ignored. */
void czk_cs_push_namespace(czk_cs *cs, const char *name);
void czk_cs_pop_namespace(czk_cs *cs);

/* The value of v; false when unknown (RECORD mode once any variable was
 * allocated without a value, or v not allocated). */
bool czk_cs_value(const czk_cs *cs, czk_var v, czk_fr *out);

/* Counts so far (ONE included in inputs). */
size_t czk_cs_num_inputs(const czk_cs *cs);
size_t czk_cs_num_aux(const czk_cs *cs);
size_t czk_cs_num_constraints(const czk_cs *cs);

/* For circuits: records a message for the caller's msg buffer and returns
 * code, e.g. `return czk_cs_error(cs, CZK_ERR_SYNTHESIS, "bad leaf %zu", i);`.
 * The first message wins. */
czk_err czk_cs_error(czk_cs *cs, czk_err code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A circuit; ONE is allocated by the cs before fn runs. A non-OK return
 * aborts the synthesis and is propagated to the caller. */
typedef czk_err (*czk_synthesize_fn)(czk_cs *cs, void *ctx);

/* Runs fn in RECORD mode. On failure (fn's code, or the sticky error) nothing
 * is left allocated and msg says why. */
czk_err czk_r1cs_record(czk_r1cs *out, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen);
/* Frees the arrays (not r itself) and zeroes r; a zeroed r is fine. */
void czk_r1cs_free(czk_r1cs *r);

/* A full assignment. input and aux are czk_mem buffers tagged CZK_MEM_SYNTH
 * (possibly larger than needed; NULL when the count is 0); input[0] = 1. */
typedef struct {
    czk_fr *input;
    size_t n_input;
    czk_fr *aux;
    size_t n_aux;
} czk_witness;

/* Runs fn in WITNESS mode. */
czk_err czk_witness_generate(czk_witness *out, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen);
/* As czk_witness_generate, with capacity reserved up front for the expected
 * counts (avoids regrowth copies; the counts are hints, not limits). */
czk_err czk_witness_generate_reserve(czk_witness *out, czk_synthesize_fn fn, void *ctx, size_t n_input_hint,
                                     size_t n_aux_hint, char *msg, size_t msglen);
/* Frees the buffers and zeroes w; a zeroed w is fine. */
void czk_witness_free(czk_witness *w);
/* A circuit made of n_parts parts that follow ONE and nothing else, each
 * allocating the same numbers of inputs and aux variables and reading only
 * its own variables and ONE (Fallback PoSt's sectors): part k is
 * fn(cs, ctx, k). The witness is the one czk_witness_generate gives for
 * "for k in order: fn(cs, ctx, k)", made with the parts synthesized in
 * chunks on pool (NULL: the calling thread), each chunk in its own
 * WITNESS-mode system writing its aux values straight into the witness, so
 * that nothing is allocated beyond it. Part 0 runs first, alone: its counts
 * size the witness; a later part whose counts differ is CZK_ERR_MISMATCH
 * naming it. Errors as czk_witness_generate's (the first failing part's). */
typedef czk_err (*czk_witness_part_fn)(czk_cs *cs, void *ctx, size_t part);
czk_err czk_witness_generate_parts(czk_witness *out, czk_witness_part_fn fn, void *ctx, size_t n_parts,
                                   czk_pool *pool, char *msg, size_t msglen);


/* Runs fn in CHECK mode. CZK_ERR_UNSATISFIED when a constraint fails; msg is
 * then exactly the first failing constraint's full path, namespaces and
 * constraint name joined by '/' (e.g. "demo/round 3/square"; an unnamed
 * constraint is "#<its index>"). */
czk_err czk_cs_check(czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen);

/* ---- evaluation and densities -------------------------------------------- */

/* a, b, c = A·w, B·w, C·w, plus bellperson's input rows (a = input_i,
 * b = c = 0) after the circuit's rows: n_constraints + n_inputs values each,
 * in czk_mem buffers tagged CZK_MEM_ABC that have room (zero-filled) for the
 * whole evaluation domain, the next power of two, multi-threaded on pool (NULL: the
 * calling thread). CZK_ERR_MISMATCH when w's counts differ from r's. On
 * failure the outputs are NULL. */
czk_err czk_r1cs_eval_abc(const czk_r1cs *r, const czk_witness *w, czk_fr **a, czk_fr **b, czk_fr **c,
                          czk_pool *pool);
/* The same values packed (czk/fr_pack.h), evaluated a chunk of rows at a
 * time so that plain a, b, c never exist whole: n_constraints + n_inputs
 * values each (no room for the domain: the prover widens them when it
 * unpacks), tagged CZK_MEM_ABC. A chunk whose values are mostly not small
 * is kept as it is. CZK_ERR_MISMATCH as above, CZK_ERR_NO_MEMORY; on
 * failure the outputs are NULL. */
czk_err czk_r1cs_eval_abc_packed(const czk_r1cs *r, const czk_witness *w, czk_fr_packed **a, czk_fr_packed **b,
                                 czk_fr_packed **c, czk_pool *pool);

/* bellperson's density trackers: a_aux (n_aux bits), b_input (n_inputs bits),
 * b_aux (n_aux bits); a bit is set when the variable has a non-zero
 * coefficient in some row of that matrix (exactly as eval_with_trackers
 * counts). The bitmaps are initialised here; free them with czk_bitmap_free.
 * On failure nothing is left allocated. */
czk_err czk_r1cs_density(const czk_r1cs *r, czk_bitmap *a_aux, czk_bitmap *b_input, czk_bitmap *b_aux);

/* The structure of a circuit without recording it (CZK_CS_COUNT mode):
 * what czk_r1cs_record and czk_r1cs_density would give, in memory bounded
 * by the LCs of one constraint, 2·n_aux + n_inputs density bits and the
 * circuit's own state. nnz counts terms as a recorded CSR does (explicit zero
 * coefficients included; bellperson's per-input rows not included); the
 * densities are the popcounts of czk_r1cs_density's bitmaps. Values are
 * ignored (never stored). */
typedef struct {
    size_t n_inputs; /* including ONE */
    size_t n_aux;
    size_t n_constraints;
    uint64_t nnz_a, nnz_b, nnz_c;
    size_t a_aux_density, b_input_density, b_aux_density;
} czk_r1cs_counts;

/* Runs fn in COUNT mode. On failure *out is zeroed and msg says why. */
czk_err czk_r1cs_count(czk_r1cs_counts *out, czk_synthesize_fn fn, void *ctx, char *msg, size_t msglen);

/* Checks that every row of r holds on w (a·b = c); on failure msg names the
 * first failing row. CZK_ERR_MISMATCH for wrong counts. */
czk_err czk_r1cs_is_satisfied(const czk_r1cs *r, const czk_witness *w, char *msg, size_t msglen);

/* ---- files ------------------------------------------------------------------
 * Our own format, little-endian: a 128-byte header (magic "CZKR1CS\0",
 * version, SHA-256 of the circuit id string, the counts, and a SHA-256
 * checksum over the rest of the header and the whole body), then for A, B, C
 * in turn: row_ptr (u64), col (u32), coeff (32-byte canonical little-endian).
 * save writes a temporary file and renames it into place. load checks magic,
 * version, circuit id, size, checksum and structure (CZK_ERR_FORMAT or
 * CZK_ERR_MISMATCH for another circuit, with a message naming the problem). */
czk_err czk_r1cs_save(const czk_r1cs *r, const char *circuit_id, const char *path, char *msg, size_t msglen);
czk_err czk_r1cs_load(czk_r1cs *out, const char *circuit_id, const char *path, char *msg, size_t msglen);

#endif
