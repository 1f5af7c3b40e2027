/* czk — SnapDeals vanilla proofs (include/czk/filecoin_update.h): bincode
 * PartitionProofs decoded and checked as EmptySectorUpdate::verify does,
 * plus what the circuit relies on (apex leaves and partition path). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bincode.h"
#include "c1_hash.h"
#include "czk/filecoin_update.h"
#include "czk/poseidon.h"
#include "prim.h"
#include "snap_internal.h"

czk_err czk_fil_update_path_up(czk_fil_c1_hasher h, const uint8_t leaf[32], const czk_fil_path *path,
                               size_t levels, uint8_t out[32]) {
    size_t bad_level;
    int bad_sibling;
    return czk_fil_c1_path_root(h, path, 0, levels < path->n_levels ? levels : path->n_levels, leaf, out, &bad_level,
                                &bad_sibling);
}

void czk_fil_update_partitions_free(czk_fil_update_partition *parts, size_t n) {
    if (!parts) return;
    for (size_t i = 0; i < n; i++) czk_fil_update_partition_free(&parts[i]);
    free(parts);
}

/* What every partition of one request shares. */
typedef struct {
    const czk_fil_update_proof *p;
    czk_fil_update_facts f;
    czk_bc_tree_shape shape_r, shape_d;
    const uint8_t *comm_r_old, *comm_d_new, *comm_r_new;
    uint8_t phi[32];
    uint64_t *challenges; /* f.challenges */
} job;

/* Reads PartitionProof k into *part (its bytes only; nothing checked but the format). */
static czk_err read_partition(const job *j, czk_bc_reader *r, czk_fil_update_partition *part) {
    uint64_t n;
    czk_err e = czk_bc_domain(r, "comm_c", CZK_BC_POSEIDON, part->comm_c);
    if (!e) e = czk_bc_len(r, "apex_leafs", UINT32_MAX, 32, &n);
    if (!e && n != j->f.apex_leaves)
        e = czk_bc_fail(r, CZK_ERR_MISMATCH, "apex_leafs", "%llu apex leaves, the sector size takes %u",
                        (unsigned long long)n, j->f.apex_leaves);
    if (e) return e;
    part->apex_leafs = malloc(n * sizeof *part->apex_leafs);
    if (!part->apex_leafs) return czk_bc_fail(r, CZK_ERR_NO_MEMORY, NULL, "out of memory");
    part->n_apex = n;
    for (size_t i = 0; i < n && !e; i++) {
        char f[40];
        snprintf(f, sizeof f, "apex_leafs[%zu]", i);
        e = czk_bc_domain(r, f, CZK_BC_SHA256, part->apex_leafs[i]);
    }
    /* a ChallengeProof is at least three MerkleProof tags and roots */
    if (!e) e = czk_bc_len(r, "challenge_proofs", UINT32_MAX, 3 * 68, &n);
    if (!e && n != j->f.challenges)
        e = czk_bc_fail(r, CZK_ERR_MISMATCH, "challenge_proofs", "%llu challenge proofs, the sector size takes %u",
                        (unsigned long long)n, j->f.challenges);
    if (e) return e;
    part->challenges = calloc(n, sizeof *part->challenges);
    if (!part->challenges) return czk_bc_fail(r, CZK_ERR_NO_MEMORY, NULL, "out of memory");
    part->n_challenges = n;
    for (size_t c = 0; c < n && !e; c++) {
        czk_fil_update_challenge *ch = &part->challenges[c];
        uint8_t root_r_old[32], root_d[32], root_r_new[32];
        const size_t m = czk_bc_enter(r, ".challenge_proofs[%zu]", c);
        e = czk_bc_merkle_read(r, "proof_r_old", &j->shape_r, ch->leaf_r_old, root_r_old, &ch->path_r_old);
        if (!e) e = czk_bc_merkle_read(r, "proof_d_new", &j->shape_d, ch->leaf_d_new, root_d, &ch->path_d_new);
        if (!e) e = czk_bc_merkle_read(r, "proof_r_new", &j->shape_r, ch->leaf_r_new, root_r_new, &ch->path_r_new);
        if (e) break;
        ch->node = czk_bc_path_index(&ch->path_r_old);
        /* the roots as stated; root_r_old / root_r_new are the first challenge's (verify) */
        if (c == 0) {
            memcpy(part->root_r_old, root_r_old, 32);
            memcpy(part->root_r_new, root_r_new, 32);
        } else if (memcmp(root_r_old, part->root_r_old, 32)) {
            e = czk_bc_fail(r, CZK_ERR_MISMATCH, "proof_r_old.root", "not root_r_old (challenge_proofs[0]'s)");
        } else if (memcmp(root_r_new, part->root_r_new, 32)) {
            e = czk_bc_fail(r, CZK_ERR_MISMATCH, "proof_r_new.root", "not root_r_new (challenge_proofs[0]'s)");
        }
        if (!e && memcmp(root_d, j->comm_d_new, 32))
            e = czk_bc_fail(r, CZK_ERR_MISMATCH, "proof_d_new.root", "not comm_d_new");
        if (!e) czk_bc_leave(r, m);
    }
    if (!e) e = czk_bc_end(r);
    return e;
}

/* The checks of one challenge proof (verify's, then the circuit's). */
static czk_err check_challenge(const job *j, czk_bc_reader *r, const czk_fil_update_partition *part, size_t c,
                               const uint8_t (*apex_rows)[32], uint8_t apex_root[32]) {
    const czk_fil_update_challenge *ch = &part->challenges[c];
    const uint64_t want = j->challenges[c];
    const czk_fil_update_facts *f = &j->f;
    const unsigned apex_height = f->challenge_bits - f->partition_bits - f->apex_bits;
    const czk_fil_path *paths[3] = {&ch->path_r_old, &ch->path_d_new, &ch->path_r_new};
    const uint8_t *leaves[3] = {ch->leaf_r_old, ch->leaf_d_new, ch->leaf_r_new};
    const uint8_t *roots[3] = {part->root_r_old, j->comm_d_new, part->root_r_new};
    static const char *const names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
    static const czk_fil_c1_hasher hashers[3] = {CZK_FIL_C1_POSEIDON, CZK_FIL_C1_SHA256, CZK_FIL_C1_POSEIDON};
    const size_t m = czk_bc_enter(r, ".challenge_proofs[%zu]", c);
    czk_err e = CZK_OK;
    for (int t = 0; t < 3; t++) {
        uint64_t got = czk_bc_path_index(paths[t]);
        if (got != want)
            return czk_bc_fail(r, CZK_ERR_MISMATCH, names[t],
                               "opens node %llu, the challenge is node %llu (Challenges::new(comm_r_new, k = %u))",
                               (unsigned long long)got, (unsigned long long)want, part->k);
    }
    for (int t = 0; t < 3; t++) {
        uint8_t root[32];
        e = czk_fil_update_path_up(hashers[t], leaves[t], paths[t], paths[t]->n_levels, root);
        if (e) return czk_bc_fail(r, e, names[t], "a value is not a field element");
        if (memcmp(root, roots[t], 32))
            return czk_bc_fail(r, CZK_ERR_MISMATCH, names[t], "its path does not hash to its root");
    }
    /* the encoding */
    czk_fr old, d, rho, phi, calc, stated;
    czk_fr_from_bytes_le(&phi, j->phi);
    if (!czk_fr_from_bytes_le(&old, ch->leaf_r_old) || !czk_fr_from_bytes_le(&d, ch->leaf_d_new) ||
        !czk_fr_from_bytes_le(&stated, ch->leaf_r_new))
        return czk_bc_fail(r, CZK_ERR_NOT_CANONICAL, NULL, "a leaf is not a field element");
    e = czk_fil_update_rho_fr(&phi, (uint32_t)(want >> (f->challenge_bits - part->h)), &rho);
    if (e) return czk_bc_fail(r, e, NULL, "rho: out of memory");
    czk_fr_mul(&calc, &d, &rho);
    czk_fr_add(&calc, &calc, &old);
    if (!czk_fr_equal(&calc, &stated))
        return czk_bc_fail(r, CZK_ERR_MISMATCH, "proof_r_new.leaf",
                           "not the encoding proof_r_old.leaf + proof_d_new.leaf * rho(phi, c >> %u)",
                           f->challenge_bits - part->h);
    /* the apex path: the node at the apex leaves' level the apex leaf the
     * challenge selects, the node above it the apex root (the circuit's), each
     * sibling in its apex-tree row (verify's), the partition path the first
     * challenge's (the circuit's) */
    const czk_fil_path *pd = &ch->path_d_new;
    uint8_t node[32];
    e = czk_fil_update_path_up(CZK_FIL_C1_SHA256, ch->leaf_d_new, pd, apex_height, node);
    const uint64_t sel = (want >> apex_height) & (f->apex_leaves - 1);
    if (!e && memcmp(node, part->apex_leafs[sel], 32)) {
        char field[40];
        snprintf(field, sizeof field, "apex_leafs[%llu]", (unsigned long long)sel);
        czk_bc_leave(r, m);
        return czk_bc_fail(r, CZK_ERR_MISMATCH, field, "not challenge_proofs[%zu].proof_d_new's node at level %u", c,
                           apex_height);
    }
    if (!e) e = czk_fil_update_path_up(CZK_FIL_C1_SHA256, ch->leaf_d_new, pd, apex_height + f->apex_bits, node);
    if (!e && memcmp(node, apex_root, 32)) {
        czk_bc_leave(r, m);
        return czk_bc_fail(r, CZK_ERR_MISMATCH, "apex_leafs",
                           "their apex tree's root is not challenge_proofs[%zu].proof_d_new's node at level %u", c,
                           apex_height + f->apex_bits);
    }
    if (e) return czk_bc_fail(r, e, names[1], "a value is not a field element");
    size_t row_start = 0, row_len = f->apex_leaves;
    for (unsigned l = 0; l < f->apex_bits; l++) {
        const uint8_t *sib = pd->levels[apex_height + l].siblings[0];
        size_t i = 0;
        while (i < row_len && memcmp(apex_rows[row_start + i], sib, 32)) i++;
        if (i == row_len)
            return czk_bc_fail(r, CZK_ERR_MISMATCH, names[1], "path[%u].hashes[0] is not in row %u of the apex tree",
                               apex_height + l, l);
        row_start += row_len;
        row_len /= 2;
    }
    for (unsigned l = f->challenge_bits - f->partition_bits; l < f->challenge_bits && c; l++)
        if (memcmp(pd->levels[l].siblings[0], part->challenges[0].path_d_new.levels[l].siblings[0], 32))
            return czk_bc_fail(r, CZK_ERR_MISMATCH, names[1],
                               "path[%u].hashes[0] is not the partition path (challenge_proofs[0]'s)", l);
    czk_bc_leave(r, m);
    return CZK_OK;
}

static czk_err decode_one(const job *j, uint32_t k, const czk_fil_bytes *b, czk_fil_update_partition *part,
                          char *msg, size_t msglen) {
    char root[40];
    snprintf(root, sizeof root, "vanilla_proofs[%u]", k);
    czk_bc_reader r;
    czk_bc_reader_init(&r, b->data, b->len, root, msg, msglen);
    part->registered_proof = j->p->id;
    part->poseidon = 0;
    part->k = k;
    part->h = j->p->h;
    memcpy(part->comm_r_old, j->comm_r_old, 32);
    memcpy(part->comm_d_new, j->comm_d_new, 32);
    memcpy(part->comm_r_new, j->comm_r_new, 32);
    czk_err e = read_partition(j, &r, part);
    if (e) return e;

    /* comm_r_old / comm_r_new against comm_c and the first challenge's roots */
    czk_fr cc, ro, rn, calc, want;
    czk_fr_from_bytes_le(&cc, part->comm_c);
    czk_fr_from_bytes_le(&ro, part->root_r_old);
    czk_fr_from_bytes_le(&rn, part->root_r_new);
    /* TreeRHasher::Function::hash2: Poseidon-2 with the MerkleTree tag */
    const czk_fr pre_old[2] = {cc, ro}, pre_new[2] = {cc, rn};
    if ((e = czk_poseidon_hash(&calc, pre_old, 2))) return e;
    czk_fr_from_bytes_le(&want, j->comm_r_old);
    if (!czk_fr_equal(&calc, &want)) {
        snprintf(msg, msglen, "comm_r_old: not Poseidon(comm_c, root_r_old) of %s (its comm_c and "
                 "challenge_proofs[0].proof_r_old.root)", root);
        return CZK_ERR_MISMATCH;
    }
    if ((e = czk_poseidon_hash(&calc, pre_new, 2))) return e;
    czk_fr_from_bytes_le(&want, j->comm_r_new);
    if (!czk_fr_equal(&calc, &want)) {
        snprintf(msg, msglen, "comm_r_new: not Poseidon(comm_c, root_r_new) of %s (its comm_c and "
                 "challenge_proofs[0].proof_r_new.root)", root);
        return CZK_ERR_MISMATCH;
    }

    /* the apex tree: rows of apex_leaves, apex_leaves / 2, … 1 */
    const size_t n_rows = 2 * (size_t)j->f.apex_leaves - 1;
    uint8_t(*rows)[32] = malloc(n_rows * sizeof *rows);
    if (!rows) return czk_bc_fail(&r, CZK_ERR_NO_MEMORY, NULL, "out of memory");
    memcpy(rows, part->apex_leafs, j->f.apex_leaves * sizeof *rows);
    for (size_t in = 0, o = j->f.apex_leaves; o < n_rows && !e; in += 2, o++) {
        /* Sha256Function::hash2: SHA-256 of the two, trimmed to fr32 */
        const void *pieces[2] = {rows[in], rows[in + 1]};
        const size_t lens[2] = {32, 32};
        if (!czk_fil_sha256(pieces, lens, 2, rows[o])) e = CZK_ERR_NO_MEMORY;
        rows[o][31] &= 0x3f;
    }
    if (!e) e = czk_fil_update_challenges(j->f.nodes, j->comm_r_new, k, j->f.challenges, j->challenges);
    for (size_t c = 0; c < part->n_challenges && !e; c++) e = check_challenge(j, &r, part, c, rows, rows[n_rows - 1]);
    free(rows);
    return e;
}

/* A commitment must be canonical (comm_d_new also a SHA-256 root). */
static czk_err check_comm(const uint8_t v[32], const char *name, int sha, char *msg, size_t msglen) {
    czk_fr x;
    if (!czk_fr_from_bytes_le(&x, v)) {
        snprintf(msg, msglen, "%s: not a canonical field element (>= r)", name);
        return CZK_ERR_NOT_CANONICAL;
    }
    if (sha && (v[31] & 0xc0)) {
        snprintf(msg, msglen, "%s: its top two bits are set: no SHA-256 tree root (trim_to_fr32)", name);
        return CZK_ERR_NOT_CANONICAL;
    }
    return CZK_OK;
}

czk_err czk_fil_update_decode(const czk_fil_update_proof *p, const uint8_t comm_r_old[32],
                              const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
                              const czk_fil_bytes *vanilla, size_t n, czk_fil_update_partition **out, char *msg,
                              size_t msglen) {
    char scratch[8];
    if (!msg || !msglen) msg = scratch, msglen = sizeof scratch;
    msg[0] = 0;
    *out = NULL;
    if (!p || !comm_r_old || !comm_d_new || !comm_r_new || (n && !vanilla)) {
        snprintf(msg, msglen, "czk_fil_update_decode: missing argument");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    job j = {.p = p, .comm_r_old = comm_r_old, .comm_d_new = comm_d_new, .comm_r_new = comm_r_new};
    if (czk_fil_update_facts_get(p->sector_size / 32, &j.f) || j.f.partitions != p->partitions ||
        j.f.challenges != p->challenges_per_partition) {
        snprintf(msg, msglen, "%s: not a sector size of storage-proofs-update", p->name);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    int h_ok = 0;
    for (int i = 0; i < 6; i++) h_ok |= j.f.hs[i] == p->h;
    if (!h_ok) {
        snprintf(msg, msglen, "%s: h %u is none of the sector size's hs", p->name, p->h);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (n != p->partitions) {
        snprintf(msg, msglen, "vanilla_proofs: %zu partition proofs, %s takes %u", n, p->name, p->partitions);
        return CZK_ERR_BAD_LENGTH;
    }
    czk_err e = check_comm(comm_r_old, "comm_r_old", 0, msg, msglen);
    if (!e) e = check_comm(comm_d_new, "comm_d_new", 1, msg, msglen);
    if (!e) e = check_comm(comm_r_new, "comm_r_new", 0, msg, msglen);
    if (e) return e;
    if (czk_bc_tree_shape_r(j.f.nodes, p->tree_base, p->tree_sub, p->tree_top, &j.shape_r)) {
        snprintf(msg, msglen, "%s: the TreeR shape %u-%u-%u does not fit %llu nodes", p->name, p->tree_base,
                 p->tree_sub, p->tree_top, (unsigned long long)j.f.nodes);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    j.shape_d = (czk_bc_tree_shape){.kind = CZK_BC_SHA256, .base_arity = 2, .base_levels = j.f.challenge_bits};
    if ((e = czk_fil_update_phi(comm_d_new, comm_r_old, j.phi))) {
        snprintf(msg, msglen, "phi: %s", czk_err_str(e));
        return e;
    }
    czk_fil_update_partition *parts = calloc(n, sizeof *parts);
    j.challenges = malloc(j.f.challenges * sizeof *j.challenges);
    if (!parts || !j.challenges) {
        free(parts);
        free(j.challenges);
        snprintf(msg, msglen, "out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    for (size_t k = 0; k < n && !e; k++) e = decode_one(&j, (uint32_t)k, &vanilla[k], &parts[k], msg, msglen);
    free(j.challenges);
    if (e) {
        czk_fil_update_partitions_free(parts, n);
        return e;
    }
    *out = parts;
    return CZK_OK;
}
