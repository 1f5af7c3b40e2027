/* czk — proving circuit instances with the CPU prover: what `czk prove`,
 * `czk demo` and the tests share. */
#ifndef CZK_INSTANCE_H
#define CZK_INSTANCE_H

#include "czk/circuit.h"
#include "czk/groth16.h"

/* The recorded circuit and its density bitmaps: what proving needs besides
 * the parameters. */
typedef struct {
    czk_r1cs r1cs;
    czk_bitmap a_aux, b_input, b_aux;
} czk_prover_key;

/* Takes ownership of *r1cs (which is zeroed) and computes the densities. */
czk_err czk_prover_key_init(czk_prover_key *k, czk_r1cs *r1cs, char *msg, size_t msglen);
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
