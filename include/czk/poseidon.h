/* czk — the Poseidon hash of neptune 11 (Filecoin's) over BLS12-381 Fr:
 * x^5 S-box, width t = arity + 1, Strength::Standard, HashType::MerkleTree.
 *
 * The constants are computed at run time exactly as neptune's
 * PoseidonConstants::new_with_strength_and_type does (round_numbers.rs,
 * round_constants.rs, mds.rs, preprocessing.rs): the round numbers from the
 * Poseidon paper's security inequalities (with neptune's f32 arithmetic), the
 * round constants from the Grain LFSR, the Cauchy MDS matrix, the compressed
 * round constants and the sparse-matrix factorisation used by the partial
 * rounds. The circuit (gadget_poseidon.h) takes its R1CS coefficients from
 * them, so they must be bit-exact. */
#ifndef CZK_POSEIDON_H
#define CZK_POSEIDON_H

#include <stdbool.h>
#include <stddef.h>
#include "czk/err.h"
#include "czk/fr.h"

#define CZK_POSEIDON_MIN_ARITY 2
#define CZK_POSEIDON_MAX_ARITY 36 /* filecoin-hashers: 2, 4, 8, 11, 16; hash_md: 36 */
#define CZK_POSEIDON_MAX_WIDTH (CZK_POSEIDON_MAX_ARITY + 1)
#define CZK_POSEIDON_FULL_ROUNDS 8       /* R_F for every supported width */
#define CZK_POSEIDON_MAX_PARTIAL_ROUNDS 64 /* R_P is 55 … 60 for t = 3 … 37 */

typedef struct {
    unsigned arity, width;
    unsigned full_rounds, half_full_rounds, partial_rounds;
    czk_fr domain_tag; /* 2^arity - 1 (MerkleTree, Standard); id·2^40 for Custom(Arbitrary(id)) */
    /* Grain LFSR output, (R_F + R_P)·t elements, round r's keys at [r·t, (r+1)·t). */
    czk_fr round_constants[(CZK_POSEIDON_FULL_ROUNDS + CZK_POSEIDON_MAX_PARTIAL_ROUNDS) * CZK_POSEIDON_MAX_WIDTH];
    /* preprocessing.rs compress_round_constants: R_F·t + R_P elements. */
    czk_fr compressed_round_constants[CZK_POSEIDON_FULL_ROUNDS * CZK_POSEIDON_MAX_WIDTH +
                                      CZK_POSEIDON_MAX_PARTIAL_ROUNDS];
    /* Matrices as rows: m[i][j] is row i, column j; only [0,t)×[0,t) used.
     * neptune applies them to the state as a row vector (state·M). */
    czk_fr mds[CZK_POSEIDON_MAX_WIDTH][CZK_POSEIDON_MAX_WIDTH];     /* 1/(i + t + j) */
    czk_fr mds_inv[CZK_POSEIDON_MAX_WIDTH][CZK_POSEIDON_MAX_WIDTH];
    czk_fr pre_sparse[CZK_POSEIDON_MAX_WIDTH][CZK_POSEIDON_MAX_WIDTH];
    /* sparse matrix k (k < R_P, in order of use): w_hat (t entries, the first
     * column) and v_rest (t - 1 entries, the first row without [0][0]). */
    czk_fr sparse_w_hat[CZK_POSEIDON_MAX_PARTIAL_ROUNDS][CZK_POSEIDON_MAX_WIDTH];
    czk_fr sparse_v_rest[CZK_POSEIDON_MAX_PARTIAL_ROUNDS][CZK_POSEIDON_MAX_WIDTH - 1];
} czk_poseidon_constants;

/* neptune's round_numbers(arity, Standard) = calc_round_numbers(arity + 1,
 * true): (R_F, R_P). false for an arity outside [MIN_ARITY, MAX_ARITY]. */
bool czk_poseidon_round_numbers(unsigned arity, unsigned *full_rounds, unsigned *partial_rounds);

/* The constants for arity (MIN_ARITY … MAX_ARITY), computed on first use and
 * cached for the life of the process; thread-safe. NULL for an unsupported
 * arity. The first call for an arity costs about a millisecond (arity 8) to
 * 0.1 s (arity 36). */
const czk_poseidon_constants *czk_poseidon_constants_get(unsigned arity);

/* neptune's HashType::Custom(CType::Arbitrary(id)) differs from MerkleTree
 * only in the domain tag, id·2^40 (hash_type.rs CType::domain_tag; no
 * padding, the same round constants and matrices). */
#define CZK_POSEIDON_GEN_RANDOMNESS_ID 1
/* storage-proofs-update's POSEIDON_CONSTANTS_GEN_RANDOMNESS: arity 2,
 * Strength::Standard, HashType::Custom(CType::Arbitrary(1)), so domain tag
 * 2^40. Used for SnapDeals' phi, rho and challenges. Computed on first use
 * and cached for the process; thread-safe; NULL only when out of memory. */
const czk_poseidon_constants *czk_poseidon_constants_gen_randomness(void);

/* Computes the constants into c (no caching). CZK_ERR_INVALID_ARGUMENT for
 * an unsupported arity, CZK_ERR_NO_MEMORY when scratch space is missing.
 * c is large (sizeof ≈ 0.4 MB): allocate it rather than use the stack. */
czk_err czk_poseidon_constants_compute(czk_poseidon_constants *c, unsigned arity);

/* neptune's Poseidon::hash (HashMode::OptimizedStatic) of c->arity elements:
 * state = [domain tag, in…], output element 1. About (t·R_F + R_P) S-boxes. */
void czk_poseidon_hash_with(czk_fr *out, const czk_poseidon_constants *c, const czk_fr *in);
/* neptune's HashMode::Correct: the plain specification (every round key, the
 * dense MDS matrix in every round). Same result, for tests. */
void czk_poseidon_hash_correct(czk_fr *out, const czk_poseidon_constants *c, const czk_fr *in);
/* czk_poseidon_hash_with on the cached constants of arity n (n elements);
 * CZK_ERR_INVALID_ARGUMENT for an unsupported arity. */
czk_err czk_poseidon_hash(czk_fr *out, const czk_fr *in, unsigned n);

#endif
