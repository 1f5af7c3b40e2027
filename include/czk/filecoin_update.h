/* czk — Filecoin's empty sector update (SnapDeals) protocol facts:
 * storage-proofs-update src/vanilla.rs (phi, rho, EmptySectorUpdate::verify,
 * PartitionProof / ChallengeProof), src/challenges.rs (Challenges::new) and
 * filecoin-proofs src/api/update.rs (the public inputs
 * verify_empty_sector_update_proof builds, h = h_default). It knows nothing
 * of circuits: it fills czk_fil_update_partition (filecoin_vanilla_post.h),
 * which the snap-* circuits read.
 *
 * What Curio sends for SNAP_DEALS_UPDATE (cuzk prove_snap_deals): one
 * vanilla proof per partition, each bincode::serialize(PartitionProof<TreeR>)
 * of the sector's TreeR shape:
 *   PartitionProof { comm_c: PoseidonDomain, apex_leafs: Vec<Sha256Domain>,
 *                    challenge_proofs: Vec<ChallengeProof> }
 *   ChallengeProof { proof_r_old: MerkleProof<Poseidon, TreeR arities>,
 *                    proof_d_new: MerkleProof<Sha256, U2> (Single, log2(nodes) levels),
 *                    proof_r_new: MerkleProof<Poseidon, TreeR arities> }
 * (MerkleProof's layout: src/filecoin/bincode.h.) Domains are kept as their
 * 32 little-endian bytes. */
#ifndef CZK_FILECOIN_UPDATE_H
#define CZK_FILECOIN_UPDATE_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin_post.h"
#include "czk/filecoin_request.h"
#include "czk/filecoin_vanilla_post.h"
#include "czk/fr.h"

/* phi = Poseidon(comm_d_new, comm_r_old) with POSEIDON_CONSTANTS_GEN_RANDOMNESS
 * (arity 2, domain tag 2^40), each input read as its little-endian Fr.
 * CZK_ERR_NOT_CANONICAL when an input is >= r (rust-fil-proofs panics in
 * From<Domain> for Fr). About 1 Poseidon-2. */
czk_err czk_fil_update_phi(const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], uint8_t phi[32]);
/* rho = Poseidon_GEN_RANDOMNESS(phi, Fr::from(high)) (vanilla.rs rho()),
 * high being the h high bits of a node index (node >> (log2(nodes) − h)).
 * The result is an Fr (rust-fil-proofs keeps rho as Fr); as canonical bytes
 * here. CZK_ERR_NOT_CANONICAL for phi >= r. */
czk_err czk_fil_update_rho(const uint8_t phi[32], uint32_t high, uint8_t rho[32]);
/* The first count challenges of partition k (challenges.rs
 * Challenges::new(sector_nodes, comm_r_new, k)): digest j =
 * Poseidon_GEN_RANDOMNESS(comm_r_new, j) for j from k · digests_per_partition,
 * floor(254 / r) challenges of r = log2(nodes) − log2(partitions) bits each,
 * taken from its little-endian bits, with k in the bits above.
 * count may exceed challenge_count (the iterator's formula is kept, as the
 * vectors of rust-fil-proofs' tests take 5). CZK_ERR_INVALID_ARGUMENT for a
 * node count outside ALLOWED_SECTOR_SIZES or k >= partition_count;
 * CZK_ERR_NOT_CANONICAL for comm_r_new >= r. */
czk_err czk_fil_update_challenges(uint64_t sector_nodes, const uint8_t comm_r_new[32], uint32_t k, uint32_t count,
                                  uint64_t *out);

/* Decodes and checks a request's vanilla proofs: n must equal p->partitions
 * (one PartitionProof per partition, in order, no trailing bytes). Every
 * check EmptySectorUpdate::verify does (k < partition_count, h in hs(),
 * apex_leaf_count apex leaves, challenge_count challenge proofs, comm_r_old =
 * Poseidon(comm_c, root_r_old), comm_r_new = Poseidon(comm_c, root_r_new)
 * with the roots of the first challenge's proofs, each proof's path index
 * the challenge derived from comm_r_new and k, its root root_r_old /
 * comm_d_new / root_r_new, each path hashing to its root, the encoding
 * leaf_r_new = leaf_r_old + leaf_d_new · rho(phi, c >> (log2(nodes) − h)),
 * every apex-path sibling among its apex-tree row) and those the circuit
 * relies on besides (the tree-D node at the apex leaves' level is the apex
 * leaf the challenge's bits select, the apex tree's root is the node above,
 * the partition path is the first challenge's). Failures name the field:
 * "vanilla_proofs[1].challenge_proofs[3].proof_r_new.path[2].index: 9 is
 * not below the arity 8" (CZK_ERR_FORMAT, CZK_ERR_MISMATCH,
 * CZK_ERR_NOT_CANONICAL), "comm_r_new: not Poseidon(comm_c, root_r_new)
 * (vanilla_proofs[0])" (CZK_ERR_MISMATCH), "vanilla_proofs: 2 partition
 * proofs, StackedDrg8MiBV1 takes 4" (CZK_ERR_BAD_LENGTH). The commitments must
 * be canonical (comm_d_new also a SHA-256 root: its top two bits clear).
 * On success *out is a malloc'd array of n partitions (k = index, h =
 * p->h, poseidon 0, comm_* copied, roots from the first challenge); free it
 * with czk_fil_update_partitions_free(*out, n). On failure *out is NULL.
 * Cost: 2 Poseidon-2 and 3 Merkle paths per challenge (32 GiB: 1,376
 * challenges, about 28,000 Poseidon-8 and 41,000 SHA-256 blocks). */
czk_err czk_fil_update_decode(const czk_fil_update_proof *p, const uint8_t comm_r_old[32],
                              const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
                              const czk_fil_bytes *vanilla, size_t n, czk_fil_update_partition **out, char *msg,
                              size_t msglen);
/* Frees what czk_fil_update_decode made (n partitions and the array); NULL is fine. */
void czk_fil_update_partitions_free(czk_fil_update_partition *parts, size_t n);

/* Public inputs per partition, ONE excluded: 4. */
size_t czk_fil_update_input_count(void);
/* The public inputs of partition k as verify_empty_sector_update_proof
 * computes them (circuit.rs PublicInputs::new(...).to_vec() with h =
 * p->h, the proof's h_default): k_and_h_select = k | h_select << log2(partitions)
 * (h_select = 2^i for the first i with hs[i] = h), comm_r_old, comm_d_new,
 * comm_r_new as Fr. Up to cap values into out, their number into *n
 * (CZK_ERR_BAD_LENGTH when cap is too small, *n still set; out may then be
 * NULL). CZK_ERR_INVALID_ARGUMENT for k >= partitions, CZK_ERR_NOT_CANONICAL
 * for a commitment >= r (each with a message). */
czk_err czk_fil_update_public_inputs(const czk_fil_update_proof *p, uint32_t k, const uint8_t comm_r_old[32],
                                     const uint8_t comm_d_new[32], const uint8_t comm_r_new[32], czk_fr *out,
                                     size_t cap, size_t *n, char *msg, size_t msglen);

/* bincode::serialize of the partition's PartitionProof (the layout above):
 * comm_c, apex_leafs, then per challenge proof_r_old, proof_d_new and
 * proof_r_new with their leaves and the partition's roots (root_r_old,
 * comm_d_new, root_r_new). out->data is malloc'd. CZK_ERR_INVALID_ARGUMENT
 * when a path has not the proof's shape; CZK_ERR_NO_MEMORY. */
/* The length of every bincode PartitionProof of p (what
 * czk_fil_update_encode_partition writes and czk_fil_update_decode takes); 0
 * for an unknown sector size. */
size_t czk_fil_update_partition_proof_bytes(const czk_fil_update_proof *p);
czk_err czk_fil_update_encode_partition(const czk_fil_update_proof *p, const czk_fil_update_partition *part,
                                        czk_fil_bytes *out);

#endif
