/* A tiny sealed sector built natively for the PoRep circuit tests: random
 * data, the SDR labels of czk_fil_labels_compute, tree D (SHA-256, binary),
 * tree C (Poseidon over the column hashes) and tree R_last (Poseidon over
 * the encoded nodes) with the shape's arities, comm_r = H(comm_c,
 * comm_r_last), and the circuit input of one partition for given
 * challenges. Everything is test code: a consistent input, not a prover. */
#ifndef CZK_TEST_POREP_SEALER_H
#define CZK_TEST_POREP_SEALER_H

#include <stdbool.h>
#include <stdint.h>

#include "czk/circuit_porep.h"
#include "czk/filecoin_graph.h"
#include "czk/rng.h"

typedef struct {
    size_t levels;
    unsigned arity[64];
    czk_fr *nodes[65]; /* nodes[l]: level l, 0 = leaves */
} sealer_tree;

typedef struct {
    czk_porep_shape s;
    czk_fil_graph g;
    uint8_t replica_id[32];
    uint8_t *data;   /* nodes · 32 */
    uint8_t *labels; /* layers · nodes · 32, layer l at (l − 1) · nodes · 32 */
    sealer_tree td, tc, tr;
    uint8_t comm_d[32], comm_c[32], comm_r_last[32], comm_r[32];
} sealer_sector;

/* Seals a random sector of shape s with porep_id and api; false on failure. */
bool sealer_seal(sealer_sector *x, const czk_porep_shape *s, const uint8_t porep_id[32], czk_fil_api api,
                 const uint8_t replica_id[32], czk_rng *rng);
void sealer_free(sealer_sector *x);
/* The partition input for the given challenged nodes (s.challenges of
 * them); free with czk_fil_porep_partition_free. */
bool sealer_partition(const sealer_sector *x, const uint64_t *nodes, czk_fil_porep_partition *out);

#endif
