/* czk — a Fallback PoSt (WindowPoSt, WinningPoSt) request's input: its
 * challenges, its bincode vanilla proofs decoded and checked into
 * czk_fil_post_partition (filecoin_vanilla_post.h), and its public inputs
 * as the verifier computes them. Sources: storage-proofs-post
 * src/fallback/{vanilla,utils,compound}.rs, filecoin-proofs
 * src/api/{window_post,winning_post,post_util}.rs, src/parameters.rs.
 *
 * What Curio sends: randomness already masked (randomness[31] &= 0x3f, in
 * Go); cuzk passes the 32 bytes unchanged to filecoin-proofs, whose
 * as_safe_commitment refuses a value ≥ r. So does czk (nothing is masked
 * here). The prover id is czk_fil_prover_id(miner_id).
 *
 * WinningPoSt: the request carries one FallbackPoStSectorProof with one
 * SectorProof of 66 inclusion proofs (challenge n = leaf challenge of
 * challenge index n). The circuit (winning_post_setup_params) is 66 sectors
 * of 1 challenge; single_partition_vanilla_proofs unrolls the 66 inclusion
 * proofs into 66 one-challenge SectorProofs of the same comm_c and
 * comm_r_last, and verify_winning_post lists the public sector 66 times, so
 * sector i's challenge index is i. The decoder does that reshaping: the
 * partition then holds 66 sectors of one challenge each. */
#ifndef CZK_FILECOIN_POST_INPUT_H
#define CZK_FILECOIN_POST_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"
#include "czk/filecoin.h"
#include "czk/filecoin_post.h"
#include "czk/filecoin_request.h"
#include "czk/filecoin_vanilla_post.h"
#include "czk/fr.h"

/* ---- challenges (fallback/utils.rs, vanilla.rs) ------------------------------ */

/* get_challenge_index: sector_index · challenge_count + n for ApiVersion
 * 1.0 and 1.1, n for 1.2. */
uint64_t czk_fil_post_challenge_index(czk_fil_api api, uint64_t sector_index, uint64_t challenge_count, uint64_t n);
/* generate_leaf_challenge(_inner): LE u64 of the first 8 bytes of
 * SHA-256(randomness ‖ sector_id u64 LE ‖ challenge_index u64 LE), mod
 * sector_size / 32. CZK_ERR_INVALID_ARGUMENT for sector_size < 32;
 * CZK_ERR_NO_MEMORY if libcrypto fails. */
czk_err czk_fil_post_leaf_challenge(uint64_t sector_size, const uint8_t randomness[32], uint64_t sector_id,
                                    uint64_t challenge_index, uint64_t *out);
/* The circuit_challenge_count challenged leaves of the sector at position i
 * of partition k of the circuit (sector index k · circuit_sector_count + i):
 * what FallbackPoSt::verify and FallbackPoStCompound::generate_public_inputs
 * derive, so what the vanilla prover opened. For WinningPoSt, i is the
 * reshaped sector (= the vanilla proof's challenge n) and k is 0. */
czk_err czk_fil_post_sector_leaf_challenges(const czk_fil_post_proof *p, const uint8_t randomness[32],
                                            uint64_t sector_id, uint64_t k, uint64_t i, uint64_t *out);
/* generate_sector_challenge: LE u64 of SHA-256(prover_id ‖ randomness ‖
 * n u64 LE)[0..8] mod sector_set_len (WinningPoSt's choice of the sector
 * among the miner's). CZK_ERR_INVALID_ARGUMENT for sector_set_len 0. */
czk_err czk_fil_post_sector_challenge(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t n,
                                      uint64_t sector_set_len, uint64_t *out);
/* generate_sector_challenges: n = 0 … count − 1. */
czk_err czk_fil_post_sector_challenges(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t count,
                                       uint64_t sector_set_len, uint64_t *out);

/* ---- vanilla proofs (bincode FallbackPoStSectorProof) -------------------------- */

/* Decodes and checks the n vanilla proofs of one PoSt partition into out.
 * Each is a FallbackPoStSectorProof {sector_id: u64, comm_r: Domain,
 * vanilla_proof: {sectors: Vec<SectorProof {inclusion_proofs:
 * Vec<MerkleProof>, comm_c, comm_r_last}>}} in bincode, with no trailing
 * bytes (bincode::deserialize would ignore them). Refused:
 * - CZK_ERR_INVALID_ARGUMENT: p NULL; n = 0 (filecoin-proofs panics on an
 *   empty partition); WindowPoSt n > sector_count ("can only prove a single
 *   partition"); WinningPoSt n ≠ 1 or partition_index ≠ 0; a sector id
 *   twice (filecoin-proofs would use the first one's proof for both);
 * - CZK_ERR_NOT_CANONICAL: randomness ≥ r (as_safe_commitment), any domain
 *   not below r;
 * - CZK_ERR_FORMAT: truncated, trailing bytes, a bad enum tag, an index ≥
 *   its arity;
 * - CZK_ERR_MISMATCH: vanilla_proof.sectors ≠ 1, an inclusion proof count ≠
 *   challenge_count (10; 66 for WinningPoSt), a proof of another tree shape
 *   (variant, levels, hashes), a path that does not select the derived
 *   challenge, does not hash to its root, a root ≠ comm_r_last, comm_r ≠
 *   Poseidon2(comm_c, comm_r_last) (a flipped comm_c is reported as this,
 *   under comm_r).
 * Every message names the field ("vanilla_proofs[3].vanilla_proof.sectors[0]
 * .inclusion_proofs[7].path[2].index: …"). out is zeroed on failure; on
 * success it owns its arrays (czk_fil_post_partition_free). Cost: one
 * Poseidon per path level, ≈ 2349 × 10 × 10 arity-8 hashes for a 32 GiB
 * WindowPoSt partition. */
czk_err czk_fil_post_decode(const czk_fil_post_proof *p, uint64_t miner_id, uint32_t partition_index,
                            const uint8_t randomness[32], const czk_fil_bytes *vanilla, size_t n,
                            czk_fil_post_partition *out, char *msg, size_t msglen);
/* The same with the vanilla proofs read and checked on up to threads
 * threads of czk_pool_default() (the caller included): 1 runs on the caller
 * only, <= 0 takes min(the pool's slots, 8) (what czk_fil_post_decode
 * does). The result, the partition and the message do not depend on
 * threads: on several failures the one the sequential loop meets first
 * (the lowest proof's) is reported. */
czk_err czk_fil_post_decode_threads(const czk_fil_post_proof *p, uint64_t miner_id, uint32_t partition_index,
                                    const uint8_t randomness[32], const czk_fil_bytes *vanilla, size_t n, int threads,
                                    czk_fil_post_partition *out, char *msg, size_t msglen);

/* ---- public inputs (FallbackPoStCompound::generate_public_inputs) -------------- */

/* Public inputs of one partition, without the leading ONE (as
 * filecoin_porep.h): circuit_sector_count · (1 + circuit_challenge_count). */
size_t czk_fil_post_input_count(const czk_fil_post_proof *p);
/* The public inputs of the partition: per circuit sector i, comm_r then its
 * circuit_challenge_count challenged leaves (the PoR input: the node index
 * itself); sectors past part->n_sectors repeat the last one's inputs
 * verbatim (the compound's padding). Reads only registered_proof (must be
 * p's id), partition_index, randomness and the sectors' sector_id and
 * comm_r: the challenges are derived again, as the verifier does. A
 * WinningPoSt partition of 1 sector is listed 66 times first
 * (verify_winning_post), one of 66 is taken as is. *n is set to the count
 * (also on failure). CZK_ERR_INVALID_ARGUMENT for cap < count, another
 * registered proof, no sectors or more than circuit_sector_count, a
 * WinningPoSt partition_index ≠ 0; CZK_ERR_NOT_CANONICAL for a randomness
 * or comm_r ≥ r. */
czk_err czk_fil_post_public_inputs(const czk_fil_post_proof *p, const czk_fil_post_partition *part, czk_fr *out,
                                   size_t cap, size_t *n, char *msg, size_t msglen);

/* ---- encoder (fixtures) ------------------------------------------------------- */

/* The bincode FallbackPoStSectorProof of one sector with one SectorProof of
 * n_proofs inclusion proofs (leaves[c] and paths[c], each to comm_r_last, in
 * the tree shape of p's sector size) into out (malloc'd). CZK_ERR_INVALID_
 * ARGUMENT for a path of another shape, CZK_ERR_NO_MEMORY. */
/* The length of every bincode FallbackPoStSectorProof of p (one SectorProof
 * of challenge_count inclusion proofs of p's tree shape; what
 * czk_fil_post_encode_sector_proof writes and czk_fil_post_decode takes); 0
 * for a proof without a shape. 32 GiB: 24,960 bytes (WindowPoSt), 164,064
 * (WinningPoSt). */
size_t czk_fil_post_sector_proof_bytes(const czk_fil_post_proof *p);
czk_err czk_fil_post_encode_sector_proof(const czk_fil_post_proof *p, uint64_t sector_id, const uint8_t comm_r[32],
                                         const uint8_t comm_c[32], const uint8_t comm_r_last[32], size_t n_proofs,
                                         const uint8_t (*leaves)[32], const czk_fil_path *paths, czk_fil_bytes *out);

#endif
