/* czk — circuit providers: what the CLI, the prover, the engine and the
 * daemon know about a circuit id. Built-in ids:
 *   demo          knowledge of x with x^(2^n) = y (n = 10); y is public
 *   synthetic-K   K = 10 … 27: an always-satisfiable circuit shaped like a
 *                 32 GiB PoRep partition, scaled so that its evaluation
 *                 domain (constraints + inputs) is exactly 2^K
 *   gadget-sha256-block, gadget-sha256-512, gadget-poseidon-N (N = 2, 4,
 *                 8, 11), gadget-insert-N (N = 2, 4, 8): one gadget each
 *                 (src/circuits/gadget_circuits.c, docs/gadgets.md)
 *   porep-2k, porep-8m, porep-512m, porep-32g, porep-64g: Filecoin's PoRep
 *                 C2 partition (include/czk/circuit_porep.h, docs/porep.md);
 *                 their instance is a decoded C1 output (synthesize_input),
 *                 not a seed
 * The input of an instance is a 64-bit seed that picks its witness (mixed
 * with the partition index, so partitions differ); the R1CS never depends on
 * either. A caller may set `partitions` to make multi-partition instances of
 * the built-in circuits (the engine's tests and `czk bench pipeline` do). */
#ifndef CZK_CIRCUIT_H
#define CZK_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/r1cs.h"
#include "czk/r1cs_compact.h"

/* The shape of a synthetic circuit (all averages per circuit row). */
typedef struct {
    size_t constraints;     /* rows of the circuit (bellperson adds one per input) */
    size_t inputs;          /* public inputs, ONE included */
    double nnz_a, nnz_b, nnz_c;
    double bool_fraction;   /* variables constrained boolean, (1 - v)·v = 0: the b_aux density */
    double binary_fraction; /* witness values that are 0 or 1 */
} czk_synthetic_profile;

/* The 32 GiB PoRep partition's statistics (../shared/reference/filecoin),
 * scaled to a domain of 2^k. */
czk_err czk_synthetic_profile_porep(czk_synthetic_profile *p, unsigned k);

typedef struct czk_circuit czk_circuit;
struct czk_circuit {
    char id[64];
    size_t partitions; /* proofs per instance; 1 for the built-in circuits */
    /* Synthesizes partition `partition` of the instance picked by seed. */
    czk_err (*synthesize)(czk_cs *cs, const czk_circuit *c, size_t partition, uint64_t seed);
    /* Circuits whose instance is data, not a seed (Filecoin's: the decoded
     * C1 output): synthesizes partition `partition` of `input`, which the
     * circuit's decoder made (NULL for the others). synthesize then gives
     * the blank circuit (the R1CS; values unknown). */
    czk_err (*synthesize_input)(czk_cs *cs, const czk_circuit *c, size_t partition, const void *input);
    /* Optional: the witness of synthesize_input made faster (the same values:
     * a test compares them); czk_circuit_witness_input uses it when set. */
    czk_err (*witness_input)(const czk_circuit *c, size_t partition, const void *input, czk_witness *out, char *msg,
                             size_t msglen);
    czk_synthetic_profile profile; /* synthetic circuits only */
    unsigned demo_rounds;          /* demo only */
};

/* Looks up a built-in circuit; CZK_ERR_INVALID_ARGUMENT with a message
 * listing the valid ids when unknown. */
czk_err czk_circuit_find(czk_circuit *out, const char *id, char *msg, size_t msglen);

/* Record / witness / check one partition (adapters over r1cs.h). */
czk_err czk_circuit_record(const czk_circuit *c, czk_r1cs *out, char *msg, size_t msglen);
/* The same, straight into the compact form (czk/r1cs_compact.h). */
czk_err czk_circuit_record_compact(const czk_circuit *c, czk_r1cs_compact *out, char *msg, size_t msglen);
czk_err czk_circuit_witness(const czk_circuit *c, size_t partition, uint64_t seed, czk_witness *out, char *msg,
                            size_t msglen);
czk_err czk_circuit_check(const czk_circuit *c, size_t partition, uint64_t seed, char *msg, size_t msglen);

/* An instance's input, for a circuit with synthesize_input: shared by the
 * partitions of one job, owned by the engine from the submit (it calls
 * free_fn(free_arg) once the job has ended, or at once when the submit is
 * refused), and its bytes are charged to the budget while the job lives.
 * data is what synthesize_input reads (a porep-* circuit: the array of the
 * sector's czk_fil_porep_partition); free_arg what owns it (NULL: data). */
typedef struct {
    void *data;
    void (*free_fn)(void *arg); /* NULL: nothing is freed */
    size_t bytes;               /* heap bytes it holds */
    void *free_arg;
    size_t partitions;          /* the job's proofs; 0: the circuit's (NI-PoRep proves a sector in
                                   more partitions of the same circuit) */
} czk_circuit_input;

/* Gives an input back: free_fn(free_arg, else data), once; NULL is ignored. */
void czk_circuit_input_release(czk_circuit_input *in);

/* The witness / check of one partition of an input (c->synthesize_input,
 * or for the witness c->witness_input where the circuit has one;
 * CZK_ERR_INVALID_ARGUMENT when c has none). */
czk_err czk_circuit_witness_input(const czk_circuit *c, size_t partition, const void *input, czk_witness *out,
                                  char *msg, size_t msglen);
czk_err czk_circuit_check_input(const czk_circuit *c, size_t partition, const void *input, char *msg, size_t msglen);

#endif
