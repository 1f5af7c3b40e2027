/* czk — the PoSt test sealer (filecoin_testseal_post.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/filecoin_post_input.h"
#include "czk/filecoin_testseal_post.h"
#include "czk/fr.h"
#include "czk/pool.h"
#include "czk/poseidon.h"
#include "prim.h"
#include "testseal_internal.h"

#define TAG_LEAF 16u
#define TAG_COMM_C 17u
#define TAG_NODE 18u

void czk_fil_testseal_post_randomness(uint64_t seed, uint8_t out[32]) { czk_fil_ts_derive("post-randomness", seed, out); }

uint64_t czk_fil_testseal_post_sector_id(uint64_t seed, uint32_t i) {
    static const char TAG[] = "czk-testseal/post-sector";
    uint8_t s[8], ib[4], h[32];
    for (int b = 0; b < 8; b++) s[b] = (uint8_t)(seed >> (8 * b));
    for (int b = 0; b < 4; b++) ib[b] = (uint8_t)(i >> (8 * b));
    const void *p[3] = {TAG, s, ib};
    const size_t l[3] = {sizeof TAG - 1, 8, 4};
    if (!czk_fil_sha256(p, l, 3, h)) return i; /* libcrypto out of memory: still distinct */
    uint64_t v = 0;
    for (int b = 7; b >= 0; b--) v = v << 8 | h[b];
    return v & 0xffffffffu;
}

typedef struct {
    uint64_t seed;
    uint32_t position;
} fill_ctx;

static void fill(const void *ctx, unsigned level, uint64_t index, uint8_t out[32]) {
    const fill_ctx *f = ctx;
    czk_fil_ts_arbitrary(f->seed, TAG_NODE + f->position, level, index, out);
}

static unsigned tree_arities(const czk_fil_post_proof *p, uint8_t arity[CZK_FIL_TS_MAX_LEVELS]) {
    unsigned levels = 0;
    const uint64_t below = (uint64_t)(p->tree_sub ? p->tree_sub : 1) * (p->tree_top ? p->tree_top : 1);
    for (uint64_t n = p->sector_size / 32 / below; n > 1 && levels < CZK_FIL_TS_MAX_LEVELS - 2; n /= p->tree_base)
        arity[levels++] = p->tree_base;
    if (p->tree_sub) arity[levels++] = p->tree_sub;
    if (p->tree_top) arity[levels++] = p->tree_top;
    return levels;
}

/* Sector at position i: its tree, comm_c, comm_r and the encoded proof of
 * its n challenges ch. */
static czk_err make_sector(const czk_fil_testseal_post_opts *o, uint32_t i, uint64_t sid, const uint64_t *ch,
                           size_t n, czk_fil_bytes *out, uint8_t comm_r[32], uint64_t *hashed, char *msg,
                           size_t msglen) {
    const czk_fil_post_proof *p = o->proof;
    const uint64_t nodes = p->sector_size / 32;
    const size_t nl = o->sparse ? n : (size_t)nodes;
    czk_fil_ts_node *leaves = malloc(nl * sizeof *leaves);
    if (!leaves) return czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
    for (size_t j = 0; j < nl; j++) {
        leaves[j].index = o->sparse ? ch[j] : j;
        czk_fil_ts_arbitrary(o->seed, TAG_LEAF, i, leaves[j].index, leaves[j].v);
    }
    uint8_t arity[CZK_FIL_TS_MAX_LEVELS];
    const unsigned levels = tree_arities(p, arity);
    const fill_ctx fc = {o->seed, i};
    czk_fil_ts_tree t;
    czk_err e = czk_fil_ts_tree_build(&t, CZK_HASHER_POSEIDON, arity, levels, leaves, nl, fill, &fc, msg, msglen);
    if (e) return e;
    *hashed += t.hashed;
    uint8_t comm_c[32], comm_r_last[32];
    memcpy(comm_r_last, czk_fil_ts_tree_root(&t), 32);
    czk_fil_ts_arbitrary(o->seed, TAG_COMM_C, i, 0, comm_c);
    czk_fr in[2], r;
    uint8_t (*lv)[32] = calloc(n, 32);
    czk_fil_path *paths = calloc(n, sizeof *paths);
    if (!lv || !paths) e = czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
    if (!e && (!czk_fr_from_bytes_le(&in[0], comm_c) || !czk_fr_from_bytes_le(&in[1], comm_r_last)))
        e = czk_err_msg(msg, msglen, CZK_ERR_NOT_CANONICAL, "sector %" PRIu64 ": comm_c or comm_r_last not canonical",
                        sid);
    if (!e && (e = czk_poseidon_hash(&r, in, 2)))
        czk_err_msg(msg, msglen, e, "sector %" PRIu64 ": cannot hash comm_r", sid);
    if (!e) czk_fr_to_bytes_le(comm_r, &r);
    for (size_t c = 0; !e && c < n; c++)
        if ((e = czk_fil_ts_tree_path(&t, ch[c], &paths[c], lv[c])))
            czk_err_msg(msg, msglen, e, "sector %" PRIu64 ": no path to leaf %" PRIu64, sid, ch[c]);
    if (!e && (e = czk_fil_post_encode_sector_proof(p, sid, comm_r, comm_c, comm_r_last, n, (const uint8_t(*)[32])lv,
                                                    paths, out)))
        czk_err_msg(msg, msglen, e, "sector %" PRIu64 ": cannot encode (%s)", sid, czk_err_str(e));
    for (size_t c = 0; paths && c < n; c++) free(paths[c].levels);
    free(paths);
    free(lv);
    czk_fil_ts_tree_free(&t);
    return e;
}

/* ---- the sectors, spread over threads ---------------------------------------
 *
 * Sectors are independent once their ids are drawn: runners (chunks of one
 * job on czk_pool_default()) take them in increasing order from a shared
 * counter, each with its own challenge buffer and message buffer; a runner
 * stops at its first failure and lowers `lowest`, sectors above the lowest
 * failure are skipped, and the lowest failing sector's error is reported
 * (what the sequential loop met first). The request does not depend on the
 * thread count. */

typedef struct {
    const czk_fil_testseal_post_opts *o;
    const uint8_t *rand;
    czk_fil_request *r;
    czk_fil_testseal_post_result *out;
    size_t n, nch;
    bool winning;
    czk_pool *pool;
    uint64_t *hashed;  /* n: tree nodes hashed per sector */
    czk_err *errs;     /* n */
    size_t *runner_of; /* n: whose message buffer holds sector i's message */
    uint64_t *ch;      /* runners × nch */
    char *msgs;        /* runners × msglen, or NULL */
    size_t msglen;
    size_t next, lowest; /* atomic */
} seal_job;

static czk_err seal_one(seal_job *s, size_t i, uint64_t *ch, char *msg, size_t msglen) {
    const czk_fil_post_proof *p = s->o->proof;
    const uint64_t sid = s->out->sector_ids[i];
    czk_err e = CZK_OK;
    if (s->winning)
        for (size_t c = 0; c < s->nch && !e; c++) e = czk_fil_post_sector_leaf_challenges(p, s->rand, sid, 0, c, &ch[c]);
    else
        e = czk_fil_post_sector_leaf_challenges(p, s->rand, sid, s->o->partition_index, i, ch);
    if (e) return czk_err_msg(msg, msglen, e, "sector %" PRIu64 ": cannot derive the challenges", sid);
    return make_sector(s->o, (uint32_t)i, sid, ch, s->nch, &s->r->vanilla_proofs[i], s->out->comm_r[i], &s->hashed[i],
                       msg, msglen);
}

static void seal_runner(void *ctx, size_t begin, size_t end, int worker) {
    (void)end, (void)worker;
    seal_job *s = ctx;
    char *msg = s->msgs ? s->msgs + begin * s->msglen : NULL;
    uint64_t *ch = s->ch + begin * s->nch;
    for (;;) {
        const size_t i = __atomic_fetch_add(&s->next, 1, __ATOMIC_RELAXED);
        if (i >= s->n) return;
        if (i > __atomic_load_n(&s->lowest, __ATOMIC_RELAXED)) continue;
        if ((s->errs[i] = seal_one(s, i, ch, msg, s->msglen))) {
            s->runner_of[i] = begin;
            size_t cur = __atomic_load_n(&s->lowest, __ATOMIC_RELAXED);
            while (i < cur && !__atomic_compare_exchange_n(&s->lowest, &cur, i, false, __ATOMIC_RELAXED,
                                                           __ATOMIC_RELAXED)) {
            }
            return;
        }
    }
}

/* threads 1: the caller only; <= 0: every slot of the default pool. */
static size_t seal_runners(int threads, size_t n, czk_pool **pool) {
    *pool = NULL;
    if (threads == 1 || n < 2) return 1;
    czk_pool *dp = czk_pool_default();
    size_t r = threads <= 0 ? (size_t)czk_pool_slots(dp) : (size_t)threads;
    if (r > n) r = n;
    if (r > 1) *pool = dp;
    return r < 1 ? 1 : r;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sectors 0 … n − 1 of out (their ids drawn) into r's vanilla proofs. */
static czk_err seal_sectors(const czk_fil_testseal_post_opts *o, const uint8_t rand[32], czk_fil_request *r,
                            czk_fil_testseal_post_result *out, size_t n, size_t nch, bool winning, char *msg,
                            size_t msglen) {
    czk_err e = CZK_OK;
    seal_job sj = {
        .o = o,
        .rand = rand,
        .r = r,
        .out = out,
        .n = n,
        .nch = nch,
        .winning = winning,
        .hashed = calloc(n, sizeof *sj.hashed),
        .errs = calloc(n, sizeof *sj.errs),
        .runner_of = calloc(n, sizeof *sj.runner_of),
        .msglen = msg && msglen ? msglen : 0,
        .next = 0,
        .lowest = n,
    };
    const size_t runners = seal_runners(o->threads, n, &sj.pool);
    sj.ch = calloc(runners * nch, sizeof *sj.ch);
    sj.msgs = sj.msglen ? malloc(runners * sj.msglen) : NULL;
    if (!sj.hashed || !sj.errs || !sj.runner_of || !sj.ch || (sj.msglen && !sj.msgs)) {
        e = czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
    } else {
        czk_pool_run(sj.pool, runners, 1, seal_runner, &sj);
        /* the lowest failing sector's error, as the sequential loop met it first */
        for (size_t i = 0; i < n && !e; i++)
            if ((e = sj.errs[i]) && sj.msgs) snprintf(msg, msglen, "%s", sj.msgs + sj.runner_of[i] * sj.msglen);
        for (size_t i = 0; i < n && !e; i++) out->tree_nodes += sj.hashed[i];
    }
    /* every proof made is owned by the request, also the ones past a failure (freed with it) */
    r->n_vanilla_proofs = n;
    free(sj.hashed), free(sj.errs), free(sj.runner_of), free(sj.ch), free(sj.msgs);
    return e;
}

czk_err czk_fil_testseal_post(const czk_fil_testseal_post_opts *o, czk_fil_testseal_post_result *out, char *msg,
                              size_t msglen) {
    if (msg && msglen) msg[0] = 0;
    if (!out) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "no output");
    memset(out, 0, sizeof *out);
    if (!o || !o->proof) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "no registered PoSt proof");
    const double t0 = now();
    const czk_fil_post_proof *p = o->proof;
    const bool winning = p->kind == CZK_FIL_POST_WINNING;
    const size_t max = winning ? 1 : p->sector_count, n = o->n_sectors ? o->n_sectors : max;
    if (n > max)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "%zu sectors, a %s partition holds %zu", n, p->name,
                           max);
    if (winning && o->partition_index)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "WinningPoSt has one partition, not %" PRIu32,
                           o->partition_index);
    if (!o->sparse && p->sector_size / 32 > CZK_FIL_TESTSEAL_POST_FULL_MAX_NODES)
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "%s: full mode goes to 8 MiB; use sparse mode",
                           p->name);
    uint8_t rand[32];
    if (o->randomness) memcpy(rand, o->randomness, 32);
    else czk_fil_testseal_post_randomness(o->seed, rand);
    czk_fr t;
    if (!czk_fr_from_bytes_le(&t, rand))
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "randomness: not below the field modulus r");

    czk_fil_request *r = &out->request;
    r->kind = winning ? CZK_FIL_KIND_WINNING_POST : CZK_FIL_KIND_WINDOW_POST;
    r->registered_proof = p->id;
    r->miner_id = o->miner_id;
    r->partition_index = o->partition_index;
    r->randomness.data = malloc(32);
    r->randomness.len = 32;
    r->vanilla_proofs = calloc(n, sizeof *r->vanilla_proofs);
    out->sector_ids = calloc(n, sizeof *out->sector_ids);
    out->comm_r = calloc(n, sizeof *out->comm_r);
    const size_t nch = p->challenge_count;
    czk_err e = CZK_OK;
    if (!r->randomness.data || !r->vanilla_proofs || !out->sector_ids || !out->comm_r) {
        e = czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    memcpy(r->randomness.data, rand, 32);
    out->n_sectors = n;
    for (size_t i = 0; i < n; i++) {
        uint64_t sid;
        if (o->sector_ids) sid = o->sector_ids[i];
        else
            for (uint32_t tr = 0;; tr++) {
                sid = czk_fil_testseal_post_sector_id(o->seed, (uint32_t)i + (tr << 16));
                size_t j = 0;
                while (j < i && out->sector_ids[j] != sid) j++;
                if (j == i) break;
            }
        for (size_t j = 0; j < i; j++)
            if (out->sector_ids[j] == sid) {
                e = czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "sector id %" PRIu64 " twice", sid);
                goto done;
            }
        out->sector_ids[i] = sid;
    }
    e = seal_sectors(o, rand, r, out, n, nch, winning, msg, msglen);
done:
    if (e) czk_fil_testseal_post_free(out);
    else out->seconds = now() - t0;
    return e;
}

void czk_fil_testseal_post_free(czk_fil_testseal_post_result *t) {
    if (!t) return;
    czk_fil_request_free(&t->request);
    free(t->sector_ids);
    free(t->comm_r);
    memset(t, 0, sizeof *t);
}
