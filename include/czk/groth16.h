/* czk — Groth16 over BLS12-381, bit-compatible with bellperson.
 *
 * Parameters (the SRS), verifying keys and proofs use bellperson's layout and
 * meaning. Proving is split: czk_prove_start does the NTT/H work and every G1
 * MSM and consumes the a/b/c vectors; czk_prove_finish does B in G2 and the
 * assembly of A, B, C. See groth16_io.h for the files. */
#ifndef CZK_GROTH16_H
#define CZK_GROTH16_H

#include <stdbool.h>
#include <stddef.h>
#include "czk/bitmap.h"
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/fr_pack.h"
#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/pairing.h"
#include "czk/pool.h"
#include "czk/r1cs.h"
#include "czk/r1cs_compact.h"

typedef struct {
    czk_g1_affine alpha_g1, beta_g1;
    czk_g2_affine beta_g2, gamma_g2;
    czk_g1_affine delta_g1;
    czk_g2_affine delta_g2;
    czk_g1_affine *ic; /* one per input, ONE first; czk_mem buffer (CZK_MEM_SRS) */
    size_t n_ic;
} czk_vk;

/* bellperson's Parameters: the vk and the five queries. Points at infinity
 * are dropped from a, b_g1 and b_g2 (so their lengths are the densities'
 * totals); h has domain - 1 points and l one per aux variable. All arrays are
 * czk_mem buffers tagged CZK_MEM_SRS. */
typedef struct {
    czk_vk vk;
    czk_g1_affine *h;
    size_t n_h;
    czk_g1_affine *l;
    size_t n_l;
    czk_g1_affine *a;
    size_t n_a;
    czk_g1_affine *b_g1;
    size_t n_b_g1;
    czk_g2_affine *b_g2;
    size_t n_b_g2;
    /* NULL, or the five queries are on a GPU instead (loaded there by
     * czk_backend_cuda_params_load): h … b_g2 are then NULL with their
     * counts set, and only that backend can prove with these params. Owned
     * by that backend (freed by its forget or close, after which the params
     * are only fit for czk_params_free); czk_params_free leaves it alone. */
    struct czk_params_device *device;
} czk_params;

typedef struct {
    czk_g1_affine a;
    czk_g2_affine b;
    czk_g1_affine c;
} czk_proof;

#define CZK_PROOF_BYTES 192 /* A (48) ‖ B (96) ‖ C (48), zcash compressed */

void czk_vk_free(czk_vk *vk);
void czk_params_free(czk_params *p); /* frees the arrays, not p itself */

/* ---- setup (development parameters, NOT a trusted-setup ceremony) -------- */

/* The toxic waste of bellperson's generate_parameters: random generators g1,
 * g2 and the scalars α, β, γ, δ, τ. */
typedef struct {
    czk_g1 g1;
    czk_g2 g2;
    czk_fr alpha, beta, gamma, delta, tau;
} czk_toxic;

/* Deterministic toxic waste from a seed (reproducible test parameters). */
void czk_toxic_from_seed(czk_toxic *t, uint64_t seed);
/* Toxic waste from the operating system's CSPRNG. */
czk_err czk_toxic_from_os(czk_toxic *t);

/* Parameters for a recorded circuit, exactly as bellperson's
 * generate_parameters computes them from the same toxic waste. Fails with
 * CZK_ERR_INVALID_ARGUMENT (and a message) for an unconstrained aux variable,
 * or when γ or δ is zero. */
czk_err czk_groth16_setup(czk_params *out, const czk_r1cs *r1cs, const czk_toxic *toxic, czk_pool *pool,
                          char *msg, size_t msglen);

/* ---- proving --------------------------------------------------------------- */

/* What a prover is given for one circuit instance. czk_prove_start takes
 * ownership of every buffer (all czk_mem buffers): a, b, c are freed before
 * it returns; input and aux move into the pending state if finish needs them
 * and are freed at their last use. The densities and r1cs are borrowed.
 * Each of a, b, c is either plain (a) or packed (a_packed, czk/fr_pack.h:
 * what a partition keeps while it waits for the prover), never both; or
 * all six are NULL and r1cs is set: start evaluates a, b, c = A·w, B·w, C·w
 * itself (with bellperson's input rows; n_abc = constraints + inputs as
 * always), on the host (czk_r1cs_compact_eval_abc) or, for a backend with
 * device_abc, on its device. The aux values are plain (aux) or packed
 * (aux_packed, n_aux values), never both. */
typedef struct {
    czk_fr *input; /* n_input values, input[0] = 1 */
    size_t n_input;
    czk_fr *aux;
    size_t n_aux;
    czk_fr *a, *b, *c; /* n_abc = constraints + inputs evaluations each */
    size_t n_abc;
    const czk_bitmap *a_aux_density, *b_input_density, *b_aux_density;
    czk_fr_packed *a_packed, *b_packed, *c_packed; /* the same, packed */
    const czk_r1cs_compact *r1cs; /* a, b, c from it when all of the above are NULL (borrowed) */
    czk_fr_packed *aux_packed;    /* aux packed, in place of aux */
} czk_assignment;

typedef struct czk_pending czk_pending;

czk_err czk_prove_start(czk_pending **out, const czk_params *params, czk_assignment *asg, const czk_fr *r,
                        const czk_fr *s, czk_pool *pool, char *msg, size_t msglen);
/* Bytes the pending state holds (what finish still needs). */
size_t czk_pending_bytes(const czk_pending *p);
/* B in G2 and the assembly; consumes p (also on error). */
czk_err czk_prove_finish(czk_proof *out, czk_pending *p, czk_pool *pool, char *msg, size_t msglen);
/* Error path: frees everything p holds. NULL is ignored. */
void czk_pending_destroy(czk_pending *p);
/* start + finish. */
czk_err czk_prove(czk_proof *out, const czk_params *params, czk_assignment *asg, const czk_fr *r, const czk_fr *s,
                  czk_pool *pool, char *msg, size_t msglen);

/* ---- pieces for other prover backends (the CUDA backend) ------------------- */

/* Validates an assignment against the parameters as czk_prove_start does
 * (counts, densities against the query lengths, a usable delta) and gives
 * the evaluation domain's size. Errors as czk_prove_start's, with a message;
 * the assignment is left untouched. */
czk_err czk_prove_check(const czk_params *params, const czk_assignment *asg, size_t *domain_n, char *msg,
                        size_t msglen);
/* Frees every buffer of the assignment (aux_packed included) and sets the
 * pointers to NULL (r1cs, borrowed, is left). */
void czk_assignment_release(czk_assignment *asg);
/* Makes aux_packed plain (aux, tagged CZK_MEM_SYNTH) on pool and frees the
 * packed form; nothing to do without aux_packed. CZK_ERR_NO_MEMORY leaves
 * the assignment as it was; CZK_ERR_INVALID_ARGUMENT when aux is set too or
 * aux_packed does not hold n_aux values. */
czk_err czk_assignment_unpack_aux(czk_assignment *asg, czk_pool *pool);
/* Evaluates a, b, c from asg->r1cs on the host (czk_r1cs_compact_eval_abc,
 * plain with room for the domain, or packed: czk_r1cs_compact_eval_abc_packed)
 * when a, b, c are all absent and r1cs is set; aux must be plain. Errors as
 * those functions' (nothing changed on error); CZK_OK with nothing to do
 * otherwise. */
czk_err czk_assignment_eval_abc(czk_assignment *asg, bool packed, czk_pool *pool);
/* Packs each plain one of a, b, c that is mostly small values (tag
 * CZK_MEM_ABC) and frees its plain buffer; *saved (may be NULL) gets the
 * bytes this gave back. CZK_ERR_NO_MEMORY leaves the rest as it was. */
czk_err czk_assignment_pack_abc(czk_assignment *asg, czk_pool *pool, size_t *saved);
/* Makes each packed one of a, b, c plain again, in a buffer of n >= n_abc
 * values (zero beyond n_abc), and frees the packed form. */
czk_err czk_assignment_unpack_abc(czk_assignment *asg, size_t n, czk_pool *pool);
/* The bytes of a, b, c, plain or packed. */
size_t czk_assignment_abc_bytes(const czk_assignment *asg);

/* The five multi-scalar products of a proof. */
typedef struct {
    czk_g1 a;    /* w·a (inputs full, aux by the a_aux density) */
    czk_g1 b_g1; /* w·b_g1 (by the b densities) */
    czk_g1 h;    /* H·h */
    czk_g1 l;    /* aux·l */
    czk_g2 b_g2; /* w·b_g2 (by the b densities) */
} czk_prove_sums;

/* bellperson's assembly of A, B, C from the sums, r and s (what
 * czk_prove_finish does after B in G2): a few scalar multiplications. */
void czk_prove_assemble(czk_proof *out, const czk_vk *vk, const czk_prove_sums *sums, const czk_fr *r,
                        const czk_fr *s);

/* ---- verification ------------------------------------------------------------ */

typedef struct {
    czk_fp12 alpha_beta;          /* e(α, β) */
    czk_g2_prepared neg_gamma;    /* -γ, prepared */
    czk_g2_prepared neg_delta;    /* -δ, prepared */
    czk_g2_affine beta_g2, gamma_g2, delta_g2; /* for batch verification */
    czk_g1_affine alpha_g1;
    czk_g1_affine *ic;            /* copy of the vk's IC (malloc) */
    size_t n_ic;
} czk_prepared_vk;

czk_err czk_vk_prepare(czk_prepared_vk *out, const czk_vk *vk);
void czk_prepared_vk_free(czk_prepared_vk *pvk);

/* CZK_OK for a valid proof, CZK_ERR_PROOF_INVALID for an invalid one,
 * CZK_ERR_INVALID_ARGUMENT when the number of public inputs (without ONE)
 * does not match the vk. */
czk_err czk_verify(const czk_prepared_vk *pvk, const czk_proof *proof, const czk_fr *public_inputs, size_t n);
/* Many proofs under one vk with a random linear combination (one final
 * exponentiation); inputs are n_proofs rows of n values. CZK_OK when all are
 * valid; CZK_ERR_PROOF_INVALID when at least one is not. */
czk_err czk_verify_batch(const czk_prepared_vk *pvk, const czk_proof *proofs, size_t n_proofs,
                         const czk_fr *public_inputs, size_t n);

#endif
