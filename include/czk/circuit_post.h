/* czk — Filecoin's Fallback PoSt circuit (WindowPoSt and WinningPoSt):
 * storage-proofs-post's FallbackPoStCircuit (fallback/circuit.rs) and the
 * blank circuit of FallbackPoStCompound (fallback/compound.rs), ported line
 * by line so that the R1CS (allocation order, constraint order, every
 * coefficient) is the one Filecoin's v28 PoSt .params files were made for.
 *
 * One partition: per sector (namespace "sector_i" inside "outer namespace")
 * aux comm_r_last, comm_c, comm_r; comm_r inputized; comm_r = Poseidon2(
 * comm_c, comm_r_last); then per challenge a PoRCircuit into tree_r_last
 * (leaf allocated, root comm_r_last, private) whose packed index bits are
 * one public input. Public inputs, ONE included: 1 + sectors·(1 +
 * challenges). The prover id and the sector id are not in the circuit. */
#ifndef CZK_CIRCUIT_POST_H
#define CZK_CIRCUIT_POST_H

#include <stddef.h>
#include <stdint.h>
#include "czk/circuit.h"
#include "czk/err.h"
#include "czk/filecoin_post.h"
#include "czk/filecoin_vanilla_post.h"
#include "czk/r1cs.h"

/* What the R1CS depends on. */
typedef struct {
    uint64_t nodes;      /* sector nodes: leaves of tree_r_last */
    uint32_t sectors;    /* sectors per partition (fallback::PublicParams.sector_count) */
    uint32_t challenges; /* challenges per sector (challenge_count) */
    uint8_t tree_base, tree_sub, tree_top; /* tree_r_last arities (U, V, W; 0 = none) */
} czk_post_shape;

/* The circuit shape of a registered PoSt proof: its nodes, tree and
 * circuit_sector_count / circuit_challenge_count (WinningPoSt: 66 x 1). */
void czk_post_shape_from_proof(czk_post_shape *out, const czk_fil_post_proof *p);
/* CZK_ERR_INVALID_ARGUMENT (and why) unless: sectors and challenges >= 1
 * (and < 2^24 each); base arity 2, 4 or 8, sub and top 0, 2, 4 or 8, top
 * only with sub; nodes a power of two in [2, 2^32] that the tree shape
 * divides into whole base trees of at least two leaves. */
czk_err czk_post_shape_check(const czk_post_shape *s, char *msg, size_t msglen);
/* Public inputs including ONE: 1 + sectors · (1 + challenges). */
size_t czk_post_input_count(const czk_post_shape *s);
/* Path levels of tree_r_last (base levels, then sub, then top). */
size_t czk_post_path_levels(const czk_post_shape *s);

/* FallbackPoStCircuit::synthesize of one partition. in NULL: the blank
 * circuit (every value unknown; RECORD and COUNT modes only). Otherwise
 * sector i of the circuit reads in->sectors[min(i, n_sectors - 1)] (the
 * last real sector repeated, as FallbackPoStCompound::circuit pads); in must
 * have 1 ≤ n_sectors ≤ shape->sectors, each sector exactly
 * shape->challenges leaves and paths whose levels and arities are the
 * tree's, each path's index the sector's challenge (when challenges is
 * non-NULL), every value canonical; else CZK_ERR_INVALID_ARGUMENT /
 * CZK_ERR_NOT_CANONICAL with a message through czk_cs_error. CHECK mode
 * names the first unsatisfied constraint by its bellperson path, e.g.
 * "outer namespace/sector_3/challenge_inclusion_0/enforce root is correct". */
czk_err czk_post_synthesize(czk_cs *cs, const czk_post_shape *shape, const czk_fil_post_partition *in);
/* The witness czk_post_synthesize gives in WITNESS mode (the same values,
 * in the same order), with the sectors synthesized in parallel on pool
 * (NULL: the calling thread), as rust-fil-proofs' synthesize_extendable
 * synthesizes chunks of sectors apart and appends them
 * (czk_witness_generate_parts). in must not be NULL. */
czk_err czk_post_witness(czk_witness *out, const czk_post_shape *shape, const czk_fil_post_partition *in,
                         czk_pool *pool, char *msg, size_t msglen);

/* ---- the circuit provider (src/circuits/registry.c) ----------------------- */

/* For czk_circuit_find: "winning-<size>" and "wpost-<size>" for size 2k, 8m,
 * 512m, 32g, 64g (czk/filecoin_post.h's circuit ids), one partition each
 * (one WindowPoSt partition per request). Its synthesize gives the blank
 * circuit in RECORD and COUNT modes and fails with CZK_ERR_INVALID_ARGUMENT
 * in the others; its synthesize_input is czk_post_circuit_synthesize_input. */
bool czk_post_circuit_lookup(czk_circuit *out, const char *id);
/* The shape of a winning-* / wpost-* circuit; CZK_ERR_INVALID_ARGUMENT for
 * another. */
czk_err czk_post_circuit_shape(const czk_circuit *c, czk_post_shape *out, char *msg, size_t msglen);
/* czk_circuit.synthesize_input of those circuits: input points to ONE
 * czk_fil_post_partition, read for partition 0 (another partition is
 * CZK_ERR_INVALID_ARGUMENT), whose registered_proof must name this circuit
 * (else CZK_ERR_MISMATCH). */
czk_err czk_post_circuit_synthesize_input(czk_cs *cs, const czk_circuit *c, size_t partition, const void *input);

#endif
