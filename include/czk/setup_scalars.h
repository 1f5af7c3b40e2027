/* czk — the scalar half of Groth16 parameter generation (bellperson's
 * generate_parameters), shared by the CPU setup (czk_groth16_setup) and the
 * GPU setup (czk/setup_gpu.h): every point of the parameters is g^s for one
 * of these field elements s, with g the toxic g1 or g2.
 *
 *   L_j(τ)        the Lagrange basis at τ (czk_domain_lagrange_at)
 *   u_v, v_v, w_v Σ_rows coeff · L_row(τ) per variable, from A, B, C, plus
 *                 bellperson's `input_i · 0 = 0` rows (u_i += L_{nc+i}(τ))
 *   h_i           τ^i · Z(τ) / δ, i < domain - 1
 *   ext_v         (β u_v + α v_v + w_v) / γ for inputs, / δ for aux
 *
 * The queries: h ← h_i; l ← ext of the aux; ic (the vk) ← ext of the
 * inputs; a ← u, b_g1 and b_g2 ← v, the zero scalars (the points at
 * infinity) dropped. All arrays are Montgomery czk_fr. */
#ifndef CZK_SETUP_SCALARS_H
#define CZK_SETUP_SCALARS_H

#include <stddef.h>

#include "czk/err.h"
#include "czk/fr.h"
#include "czk/groth16.h"
#include "czk/pool.h"
#include "czk/poly.h"
#include "czk/r1cs.h"
#include "czk/r1cs_compact.h"

/* u, v, w (n_inputs + n_aux each, overwritten) from lagrange (at least
 * n_constraints + n_inputs values L_j(τ)), input rows included. The
 * transposed product runs on the pool with the columns split into one
 * range per slot: each task scans every row and sums only its own columns
 * (so no accumulator is shared and none is larger than its range), which
 * reads each matrix's columns once per slot: porep-32g's 722M non-zeros
 * are 16 × 2.9 GB of sequential reads on 16 slots, and 722M additions or
 * products (the compact form's dictionary entries one and minus one are
 * added or subtracted). The sums are exact, so both forms, any slot count
 * and the sequential loop give identical values. */
void czk_setup_qap_csr(const czk_r1cs *r, const czk_fr *lagrange, czk_fr *u, czk_fr *v, czk_fr *w, czk_pool *pool);
void czk_setup_qap_compact(const czk_r1cs_compact *r, const czk_fr *lagrange, czk_fr *u, czk_fr *v, czk_fr *w,
                           czk_pool *pool);

/* out[i] = first_coeff · τ^(first + i), i < count, on the pool (one power
 * per task, then a product per element). */
void czk_setup_powers(czk_fr *out, size_t first, size_t count, const czk_fr *first_coeff, const czk_fr *tau,
                      czk_pool *pool);

/* *coeff = Z(τ)/δ, h's factor. CZK_ERR_INVALID_ARGUMENT (with a message)
 * when Z(τ) = 0 (τ in the domain: every h point would be the identity) or
 * δ = 0. */
czk_err czk_setup_h_coeff(czk_fr *coeff, const czk_domain *dom, const czk_toxic *t, char *msg, size_t msglen);

/* w[v] = ext_v in place for v < nv (ni inputs first), on the pool.
 * CZK_ERR_INVALID_ARGUMENT when γ or δ is zero, or an aux ext is zero (the
 * message names the first such aux variable as czk_groth16_setup does: its
 * L point would be the identity). */
czk_err czk_setup_ext(czk_fr *w, const czk_fr *u, const czk_fr *v, size_t ni, size_t nv, const czk_toxic *t,
                      czk_pool *pool, char *msg, size_t msglen);

/* The number of non-zero x[i], i < n, on the pool. */
size_t czk_setup_count_nonzero(const czk_fr *x, size_t n, czk_pool *pool);
/* Moves the non-zero x[i] to the front, in order; returns their number.
 * Sequential, one pass (about 1 s for 130M elements). */
size_t czk_setup_compact_nonzero(czk_fr *x, size_t n);

/* The GPU setup's window tables of P (src/gpu/setup.cuh): out[w·256 + j]
 * = j·2^(8w)·P in affine form for w < 32, j < 256 (j = 0: the identity,
 * (0, 0)); 8,160 additions and 32 batched inversions (a few ms). */
#define CZK_SETUP_TABLE_POINTS (32 * 256)
czk_err czk_setup_table_g1(czk_g1_affine *out, const czk_g1 *p);
czk_err czk_setup_table_g2(czk_g2_affine *out, const czk_g2 *p);

/* The vk's six fixed points from t (CPU, a few ms); ic untouched. */
void czk_setup_vk_fixed(czk_vk *vk, const czk_toxic *t);

#endif
