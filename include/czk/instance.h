/* czk — proving circuit instances with the CPU prover: what `czk prove`,
 * `czk demo` and the tests share. */
#ifndef CZK_INSTANCE_H
#define CZK_INSTANCE_H

#include "czk/circuit.h"
#include "czk/groth16.h"
#include "czk/r1cs_compact.h"

/* The recorded circuit and its density bitmaps: what proving needs besides
 * the parameters. The matrices are held in one of two forms: the CSR in
 * r1cs, or the compact form in compact (compact.dict != NULL; a 32 GiB
 * PoRep partition's R1CS is kept only so). r1cs's three counts are set in
 * both cases; its matrices are empty when compact holds them. */
typedef struct {
    czk_r1cs r1cs;
    czk_r1cs_compact compact;
    czk_bitmap a_aux, b_input, b_aux;
} czk_prover_key;

/* Takes ownership of *r1cs (which is zeroed) and computes the densities. */
czk_err czk_prover_key_init(czk_prover_key *k, czk_r1cs *r1cs, char *msg, size_t msglen);
/* The same for the compact form (*rc is zeroed). */
czk_err czk_prover_key_init_compact(czk_prover_key *k, czk_r1cs_compact *rc, char *msg, size_t msglen);
static inline bool czk_prover_key_is_compact(const czk_prover_key *k) { return k->compact.dict != NULL; }
/* a, b, c of w from whichever form k holds (czk_r1cs_eval_abc / _packed, or
 * their compact versions). */
czk_err czk_prover_key_eval_abc(const czk_prover_key *k, const czk_witness *w, czk_fr **a, czk_fr **b, czk_fr **c,
                                czk_pool *pool);
czk_err czk_prover_key_eval_abc_packed(const czk_prover_key *k, const czk_witness *w, czk_fr_packed **a,
                                       czk_fr_packed **b, czk_fr_packed **c, czk_pool *pool);
/* The bytes of its matrices and bitmaps. */
size_t czk_prover_key_bytes(const czk_prover_key *k);
void czk_prover_key_free(czk_prover_key *k);

/* Proves partition `partition` of the instance `seed` of circuit: witness,
 * a/b/c, a check that every row holds (CZK_ERR_UNSATISFIED naming the first
 * failing constraint by its namespace path otherwise), then czk_prove with r
 * and s (both NULL: fresh randomness from the OS). On success
 * *public_inputs (when not NULL) is a malloc'd copy of the public inputs
 * without ONE. */
czk_err czk_prove_instance(czk_proof *out, czk_fr **public_inputs, size_t *n_public, const czk_params *params,
                           const czk_prover_key *key, const czk_circuit *circuit, size_t partition, uint64_t seed,
                           const czk_fr *r, const czk_fr *s, czk_pool *pool, char *msg, size_t msglen);

#endif
