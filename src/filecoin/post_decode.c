/* czk — a PoSt partition's bincode vanilla proofs decoded and checked
 * (filecoin_post_input.h czk_fil_post_decode), and their encoder. Sources:
 * filecoin-proofs src/types/mod.rs FallbackPoStSectorProof, src/api/
 * window_post.rs generate_single_window_post_with_vanilla, winning_post.rs
 * generate_winning_post_with_vanilla, post_util.rs
 * single_partition_vanilla_proofs; storage-proofs-post src/fallback/
 * vanilla.rs Proof, SectorProof, FallbackPoSt::verify; storage-proofs-core
 * src/merkle/proof.rs (MerkleProof, validate, path_index).
 *
 * What filecoin-proofs checks and czk checks alike: randomness and prover id
 * below r (as_safe_commitment); WindowPoSt at most sector_count proofs,
 * WinningPoSt exactly one of one SectorProof; then FallbackPoSt::verify of
 * the partition: comm_r = Poseidon2(comm_c, inclusion_proofs[0].root), each
 * root equal to that, each path as long as the tree's and validate(
 * challenged leaf) (the path hashes from its leaf to its root and its index
 * is the challenge). What czk checks more strictly (each a proof that could
 * not verify, or that filecoin-proofs would mis-handle): every inclusion
 * proof against its derived challenge (generate_winning_post_with_vanilla's
 * own verify only reaches the first of the 66); the SectorProof's comm_r_last
 * field equal to the roots (the vanilla prover writes them equal; the circuit
 * uses the root); one SectorProof per FallbackPoStSectorProof; no sector id
 * twice (single_partition_vanilla_proofs would take the first one's proof
 * for both); no trailing bytes. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bincode.h"
#include "c1_hash.h"
#include "czk/filecoin_post_input.h"
#include "czk/fr.h"
#include "czk/pool.h"
#include "czk/poseidon.h"

static void hex8(char out[17], const uint8_t v[32]) {
    for (int i = 0; i < 8; i++) snprintf(out + 2 * i, 3, "%02x", v[i]);
}

/* The tree_r_last shape of p's sector size. */
static czk_err post_shape(const czk_fil_post_proof *p, czk_bc_tree_shape *s) {
    czk_err e = czk_bc_tree_shape_r(p->sector_size / 32, p->tree_base, p->tree_sub, p->tree_top, s);
    s->kind = CZK_BC_POSEIDON;
    return e;
}

/* Poseidon2(comm_c, comm_r_last) (PoseidonFunction::hash2). */
static czk_err hash2(const uint8_t a[32], const uint8_t b[32], uint8_t out[32]) {
    czk_fr in[2], r;
    if (!czk_fr_from_bytes_le(&in[0], a) || !czk_fr_from_bytes_le(&in[1], b)) return CZK_ERR_NOT_CANONICAL;
    czk_err e = czk_poseidon_hash(&r, in, 2);
    if (e) return e;
    czk_fr_to_bytes_le(out, &r);
    return CZK_OK;
}

/* One FallbackPoStSectorProof as read, before its checks. */
typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32], comm_c[32], comm_r_last[32];
    size_t n;              /* inclusion proofs */
    uint8_t (*leaves)[32]; /* n */
    uint8_t (*roots)[32];  /* n */
    czk_fil_path *paths;   /* n */
} raw_proof;

static void raw_free(raw_proof *x) {
    for (size_t c = 0; x->paths && c < x->n; c++) free(x->paths[c].levels);
    free(x->paths);
    free(x->leaves);
    free(x->roots);
    memset(x, 0, sizeof *x);
}

/* bincode FallbackPoStSectorProof {sector_id, comm_r, vanilla_proof: Proof
 * {sectors: Vec<SectorProof {inclusion_proofs, comm_c, comm_r_last}>}} with
 * one SectorProof of want proofs of shape s, and nothing after it. */
static czk_err read_proof(const czk_fil_bytes *b, size_t j, const czk_bc_tree_shape *s, size_t want, raw_proof *x,
                          char *msg, size_t msglen) {
    memset(x, 0, sizeof *x);
    char root[48];
    snprintf(root, sizeof root, "vanilla_proofs[%zu]", j);
    czk_bc_reader r;
    czk_bc_reader_init(&r, b->data, b->len, root, msg, msglen);
    uint64_t nsec, nincl;
    czk_err e = czk_bc_u64(&r, "sector_id", &x->sector_id);
    if (!e) e = czk_bc_domain(&r, "comm_r", CZK_BC_POSEIDON, x->comm_r);
    if (e) return e;
    const size_t m0 = czk_bc_enter(&r, ".vanilla_proof");
    /* a SectorProof is at least its Vec length and two domains */
    if ((e = czk_bc_len(&r, "sectors", UINT32_MAX, 72, &nsec))) return e;
    if (nsec != 1) return czk_bc_fail(&r, CZK_ERR_MISMATCH, "sectors", "%" PRIu64 " sector proofs, not 1", nsec);
    czk_bc_enter(&r, ".sectors[0]");
    /* a MerkleProof is at least its tag, two domains and a path length */
    if ((e = czk_bc_len(&r, "inclusion_proofs", UINT32_MAX, 76, &nincl))) return e;
    if (nincl != want)
        return czk_bc_fail(&r, CZK_ERR_MISMATCH, "inclusion_proofs", "%" PRIu64 " inclusion proofs, the proof takes %zu",
                           nincl, want);
    x->leaves = calloc(want, sizeof *x->leaves);
    x->roots = calloc(want, sizeof *x->roots);
    x->paths = calloc(want, sizeof *x->paths);
    if (!x->leaves || !x->roots || !x->paths) {
        raw_free(x);
        return czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "%s: out of memory", root);
    }
    x->n = want;
    for (size_t c = 0; c < want && !e; c++) {
        char f[40];
        snprintf(f, sizeof f, "inclusion_proofs[%zu]", c);
        e = czk_bc_merkle_read(&r, f, s, x->leaves[c], x->roots[c], &x->paths[c]);
    }
    if (!e) e = czk_bc_domain(&r, "comm_c", CZK_BC_POSEIDON, x->comm_c);
    if (!e) e = czk_bc_domain(&r, "comm_r_last", CZK_BC_POSEIDON, x->comm_r_last);
    if (!e) {
        czk_bc_leave(&r, m0);
        e = czk_bc_end(&r);
    }
    if (e) raw_free(x);
    return e;
}

/* FallbackPoSt::verify of proof j's inclusion proofs against their
 * challenges ch, and of its comm_r. */
static czk_err check_proof(const raw_proof *x, const uint64_t *ch, size_t j, char *msg, size_t msglen) {
    char h1[17], h2[17];
    const char *f = "vanilla_proof.sectors[0]";
    for (size_t c = 0; c < x->n; c++) {
        if (memcmp(x->roots[c], x->comm_r_last, 32)) {
            hex8(h1, x->roots[c]), hex8(h2, x->comm_r_last);
            return czk_err_msg(
                msg, msglen, CZK_ERR_MISMATCH,
                "vanilla_proofs[%zu].%s.inclusion_proofs[%zu].root: %s… is not the sector proof's comm_r_last "
                "%s…",
                j, f, c, h1, h2);
        }
    }
    uint8_t want[32];
    czk_err e = hash2(x->comm_c, x->comm_r_last, want);
    if (e)
        return czk_err_msg(msg, msglen, e, "vanilla_proofs[%zu]: cannot hash comm_c and comm_r_last (%s)", j,
                           czk_err_str(e));
    if (memcmp(want, x->comm_r, 32)) {
        hex8(h1, x->comm_r), hex8(h2, want);
        return czk_err_msg(msg, msglen, CZK_ERR_MISMATCH,
                           "vanilla_proofs[%zu].comm_r: %s… is not Poseidon2(comm_c, comm_r_last) = %s…", j, h1, h2);
    }
    for (size_t c = 0; c < x->n; c++) {
        const uint64_t got = czk_bc_path_index(&x->paths[c]);
        if (got != ch[c])
            return czk_err_msg(msg, msglen, CZK_ERR_MISMATCH,
                               "vanilla_proofs[%zu].%s.inclusion_proofs[%zu]: the path opens leaf %" PRIu64
                               ", the challenge is %" PRIu64,
                               j, f, c, got, ch[c]);
        uint8_t top[32];
        size_t bl = 0;
        int bs = 0;
        e = czk_fil_c1_path_root(CZK_FIL_C1_POSEIDON, &x->paths[c], 0, x->paths[c].n_levels, x->leaves[c], top, &bl,
                                 &bs);
        if (e == CZK_ERR_NO_MEMORY) return czk_err_msg(msg, msglen, e, "vanilla_proofs[%zu]: out of memory hashing", j);
        if (e)
            return czk_err_msg(msg, msglen, CZK_ERR_MISMATCH,
                               "vanilla_proofs[%zu].%s.inclusion_proofs[%zu]: level %zu cannot be hashed (%s)", j, f, c,
                               bl, czk_err_str(e));
        if (memcmp(top, x->roots[c], 32)) {
            hex8(h1, top), hex8(h2, x->roots[c]);
            return czk_err_msg(msg, msglen, CZK_ERR_MISMATCH,
                               "vanilla_proofs[%zu].%s.inclusion_proofs[%zu]: the path hashes to %s…, not its root %s…",
                               j, f, c, h1, h2);
        }
    }
    return CZK_OK;
}

/* Moves proof c of x into sector s (one challenge, for WinningPoSt) or all
 * of them (WindowPoSt, c = SIZE_MAX). */
static czk_err fill_sector(czk_fil_post_sector *s, raw_proof *x, const uint64_t *ch, size_t c) {
    const size_t first = c == SIZE_MAX ? 0 : c, n = c == SIZE_MAX ? x->n : 1;
    s->sector_id = x->sector_id;
    memcpy(s->comm_r, x->comm_r, 32);
    memcpy(s->comm_c, x->comm_c, 32);
    memcpy(s->comm_r_last, x->comm_r_last, 32);
    s->challenges = calloc(n, sizeof *s->challenges);
    s->leaves = calloc(n, sizeof *s->leaves);
    s->paths = calloc(n, sizeof *s->paths);
    if (!s->challenges || !s->leaves || !s->paths) {
        free(s->challenges), free(s->leaves), free(s->paths);
        s->challenges = NULL, s->leaves = NULL, s->paths = NULL;
        return CZK_ERR_NO_MEMORY;
    }
    s->n_challenges = n;
    for (size_t i = 0; i < n; i++) {
        s->challenges[i] = ch[first + i];
        memcpy(s->leaves[i], x->leaves[first + i], 32);
        s->paths[i] = x->paths[first + i];
        memset(&x->paths[first + i], 0, sizeof x->paths[first + i]);
    }
    return CZK_OK;
}

/* ---- the partition, spread over threads ----------------------------------------
 *
 * The sequential decoder reads vanilla proof j, checks its sector id against
 * proofs 0 … j − 1, derives its challenges, checks it, moves it into sector
 * j, and stops at the first failure. Only the duplicate check and the move
 * depend on other proofs, so the work is split in two: runners (chunks of
 * one pool job) take proofs in increasing order from a shared counter and
 * read, derive and check each on their own (phase 1); then the calling
 * thread walks the proofs in order, doing the duplicate check and the move,
 * and reports the first failure in the sequential order (phase 2): at proof
 * j a failed read, else a duplicate id, else a failed derivation or check.
 * A runner that fails at j lowers `lowest` to j and stops; proofs above the
 * lowest failure are skipped (the sequential loop never reaches them). As a
 * runner's proofs increase, its first failure is its only one, so its one
 * message buffer (msglen bytes: truncated as the caller's would be) holds
 * it. */

enum { ST_TODO, ST_OK, ST_READ_FAILED, ST_CHECK_FAILED, ST_SKIPPED };

typedef struct {
    raw_proof x;
    uint64_t *ch;  /* want challenges */
    czk_err e;
    int state;
    size_t runner; /* whose buffer holds the message */
} proof_slot;

typedef struct {
    const czk_fil_post_proof *p;
    uint32_t partition_index;
    const uint8_t *randomness;
    const czk_fil_bytes *vanilla;
    size_t n, want;
    const czk_bc_tree_shape *shape;
    bool winning;
    proof_slot *slots;
    char *msgs;    /* runners × msglen, or NULL */
    size_t msglen; /* 0 when the caller wants no message */
    size_t next;   /* next proof to take (atomic) */
    size_t lowest; /* lowest failed proof, n if none (atomic) */
} decode_job;

/* Phase 1 of proof j: what the sequential loop does before and after the
 * duplicate check, with the same messages. */
static void decode_one(decode_job *d, size_t j, char *msg, size_t msglen) {
    proof_slot *s = &d->slots[j];
    const czk_fil_post_proof *p = d->p;
    czk_err e = read_proof(&d->vanilla[j], j, d->shape, d->want, &s->x, msg, msglen);
    if (e) {
        s->e = e, s->state = ST_READ_FAILED;
        return;
    }
    /* WindowPoSt: sector j of partition k; WinningPoSt: challenge c of
     * the one sector is circuit sector c of one challenge */
    for (size_t c = 0; c < (d->winning ? d->want : 1) && !e; c++)
        e = czk_fil_post_sector_leaf_challenges(p, d->randomness, s->x.sector_id, d->winning ? 0 : d->partition_index,
                                                d->winning ? c : j, d->winning ? &s->ch[c] : s->ch);
    if (e == CZK_ERR_NO_MEMORY) e = czk_err_msg(msg, msglen, e, "out of memory deriving the challenges");
    if (!e) e = check_proof(&s->x, s->ch, j, msg, msglen);
    s->e = e, s->state = e ? ST_CHECK_FAILED : ST_OK;
}

static void lower(size_t *slot, size_t v) {
    size_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while (v < cur && !__atomic_compare_exchange_n(slot, &cur, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

static void decode_runner(void *ctx, size_t begin, size_t end, int worker) {
    (void)end, (void)worker;
    decode_job *d = ctx;
    char *msg = d->msgs ? d->msgs + begin * d->msglen : NULL;
    for (;;) {
        const size_t j = __atomic_fetch_add(&d->next, 1, __ATOMIC_RELAXED);
        if (j >= d->n) return;
        if (j > __atomic_load_n(&d->lowest, __ATOMIC_RELAXED)) {
            d->slots[j].state = ST_SKIPPED;
            continue;
        }
        if (msg) msg[0] = 0;
        decode_one(d, j, msg, d->msglen);
        if (d->slots[j].state != ST_OK) {
            d->slots[j].runner = begin;
            lower(&d->lowest, j);
            return;
        }
    }
}

/* At most 8 runners by default: a 32 GiB WindowPoSt partition's 2,349
 * proofs take 5-8 ms each on one core (11-18 s in all); 8 runners cut that
 * about 8-fold and leave the default pool's other threads to the prover. */
#define DEFAULT_RUNNERS 8

static size_t runner_count(int threads, size_t n, czk_pool **pool) {
    *pool = NULL;
    if (threads == 1 || n < 2) return 1;
    czk_pool *dp = czk_pool_default();
    const size_t slots = (size_t)czk_pool_slots(dp);
    size_t r = threads <= 0 ? (slots < DEFAULT_RUNNERS ? slots : DEFAULT_RUNNERS) : (size_t)threads;
    if (r > n) r = n;
    if (r > 1) *pool = dp;
    return r < 1 ? 1 : r;
}

czk_err czk_fil_post_decode_threads(const czk_fil_post_proof *p, uint64_t miner_id, uint32_t partition_index,
                                    const uint8_t randomness[32], const czk_fil_bytes *vanilla, size_t n, int threads,
                                    czk_fil_post_partition *out, char *msg, size_t msglen) {
    if (msg && msglen) msg[0] = 0;
    if (!out) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "no output");
    memset(out, 0, sizeof *out);
    if (!p) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "registered_proof: not a PoSt proof");
    if (!randomness) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "randomness: missing");
    if (n == 0 || !vanilla) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "vanilla_proofs: none");
    const bool winning = p->kind == CZK_FIL_POST_WINNING;
    if (winning && n != 1)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT,
                           "vanilla_proofs: %zu for %s, WinningPoSt takes 1 (the challenged sector's)", n, p->name);
    if (winning && partition_index != 0)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT,
                           "partition_index: %" PRIu32 " for %s, WinningPoSt has the one partition 0", partition_index,
                           p->name);
    if (!winning && n > p->sector_count)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT,
                           "vanilla_proofs: %zu sectors, a %s partition holds %" PRIu32
                           " (can only prove a single partition)",
                           n, p->name, p->sector_count);
    czk_fr t;
    if (!czk_fr_from_bytes_le(&t, randomness))
        return czk_err_msg(msg, msglen, CZK_ERR_NOT_CANONICAL,
                           "randomness: not below the field modulus r (as_safe_commitment)");
    czk_bc_tree_shape shape;
    if (post_shape(p, &shape)) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "%s: no tree shape", p->name);
    const size_t want = p->challenge_count;

    out->registered_proof = p->id;
    out->partition_index = partition_index;
    memcpy(out->randomness, randomness, 32);
    czk_fil_prover_id(miner_id, out->prover_id);
    const size_t n_out = winning ? p->circuit_sector_count : n;
    czk_pool *pool;
    const size_t runners = runner_count(threads, n, &pool);
    const bool with_msg = msg && msglen;
    decode_job d = {
        .p = p,
        .partition_index = partition_index,
        .randomness = randomness,
        .vanilla = vanilla,
        .n = n,
        .want = want,
        .shape = &shape,
        .winning = winning,
        .slots = calloc(n, sizeof *d.slots),
        .msgs = with_msg ? malloc(runners * msglen) : NULL,
        .msglen = with_msg ? msglen : 0,
        .next = 0,
        .lowest = n,
    };
    uint64_t *ch = calloc(n * want, sizeof *ch);
    out->sectors = calloc(n_out, sizeof *out->sectors);
    czk_err e = CZK_OK;
    if (!out->sectors || !d.slots || !ch || (with_msg && !d.msgs)) {
        e = czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    for (size_t j = 0; j < n; j++) d.slots[j].ch = ch + j * want;
    czk_pool_run(pool, runners, 1, decode_runner, &d);

    for (size_t j = 0; j < n && !e; j++) {
        proof_slot *s = &d.slots[j];
        const char *why = with_msg ? d.msgs + s->runner * msglen : NULL;
        if (s->state == ST_READ_FAILED) {
            e = s->e;
            if (with_msg) snprintf(msg, msglen, "%s", why);
            break;
        }
        for (size_t i = 0; i < j && !e; i++)
            if (out->sectors[i].sector_id == s->x.sector_id)
                e = czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT,
                                "vanilla_proofs[%zu].sector_id: %" PRIu64 " is vanilla_proofs[%zu]'s too", j,
                                s->x.sector_id, i);
        if (!e && s->state == ST_CHECK_FAILED) {
            e = s->e;
            if (with_msg) snprintf(msg, msglen, "%s", why);
        }
        if (!e && s->state != ST_OK) /* skipped below a failure that is not there: cannot happen */
            e = czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "vanilla_proofs[%zu]: not checked", j);
        if (!e && winning) {
            for (size_t c = 0; c < want && !e; c++) {
                e = fill_sector(&out->sectors[c], &s->x, s->ch, c);
                out->n_sectors++;
            }
        } else if (!e) {
            e = fill_sector(&out->sectors[j], &s->x, s->ch, SIZE_MAX);
            if (!e) out->n_sectors++;
        }
        if (e == CZK_ERR_NO_MEMORY && !(msg && msg[0])) czk_err_msg(msg, msglen, e, "out of memory");
        raw_free(&s->x);
    }
done:
    for (size_t j = 0; d.slots && j < n; j++) raw_free(&d.slots[j].x);
    free(d.slots);
    free(d.msgs);
    free(ch);
    if (e) czk_fil_post_partition_free(out);
    return e;
}

czk_err czk_fil_post_decode(const czk_fil_post_proof *p, uint64_t miner_id, uint32_t partition_index,
                            const uint8_t randomness[32], const czk_fil_bytes *vanilla, size_t n,
                            czk_fil_post_partition *out, char *msg, size_t msglen) {
    return czk_fil_post_decode_threads(p, miner_id, partition_index, randomness, vanilla, n, 0, out, msg, msglen);
}

/* ---- encoder ---------------------------------------------------------------- */

size_t czk_fil_post_sector_proof_bytes(const czk_fil_post_proof *p) {
    czk_bc_tree_shape s;
    if (!p || post_shape(p, &s)) return 0;
    /* sector_id, comm_r, sectors' length, inclusion_proofs' length, the proofs, comm_c, comm_r_last */
    return 8 + 32 + 8 + 8 + (size_t)p->challenge_count * czk_bc_merkle_bytes(&s) + 32 + 32;
}

czk_err czk_fil_post_encode_sector_proof(const czk_fil_post_proof *p, uint64_t sector_id, const uint8_t comm_r[32],
                                         const uint8_t comm_c[32], const uint8_t comm_r_last[32], size_t n_proofs,
                                         const uint8_t (*leaves)[32], const czk_fil_path *paths, czk_fil_bytes *out) {
    if (!out) return CZK_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    czk_bc_tree_shape s;
    if (!p || !comm_r || !comm_c || !comm_r_last || (n_proofs && (!leaves || !paths)) || post_shape(p, &s))
        return CZK_ERR_INVALID_ARGUMENT;
    czk_bc_writer w = {0};
    czk_bc_w_u64(&w, sector_id);
    czk_bc_w_bytes(&w, comm_r, 32);
    czk_bc_w_u64(&w, 1);
    czk_bc_w_u64(&w, n_proofs);
    for (size_t c = 0; c < n_proofs; c++) {
        czk_err e = czk_bc_merkle_write(&w, &s, leaves[c], comm_r_last, &paths[c]);
        if (e) {
            czk_bc_writer_free(&w);
            return e;
        }
    }
    czk_bc_w_bytes(&w, comm_c, 32);
    czk_bc_w_bytes(&w, comm_r_last, 32);
    return czk_bc_writer_take(&w, &out->data, &out->len);
}
