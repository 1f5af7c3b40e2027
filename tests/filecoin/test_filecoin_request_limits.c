/* How many bytes a Filecoin request may carry (filecoin_request.h
 * czk_fil_request_limits_get, czk_fil_request_check_size; the sizes from
 * czk_fil_c1_json_max, czk_fil_post_sector_proof_bytes,
 * czk_fil_update_partition_proof_bytes):
 *  - czk_fil_c1_json_max is exactly the length czk_fil_c1_encode writes for
 *    a C1 of the proof's shape whose every value is at its widest (all bytes
 *    255, every index at its largest), bare and enveloped, at every sector
 *    size;
 *  - the test sealer's C1 outputs (2 KiB full, 32 GiB sparse), PoSt
 *    (every registered proof) and SnapDeals (2 KiB, 32 GiB) requests, sparse,
 *    are within their limits, each PoSt and SnapDeals vanilla proof exactly
 *    its size; a PartitionProof of every update proof's shape encodes to its
 *    size;
 *  - refused, naming the field, its size and the bound: a C1 padded past the
 *    bound with white space, a vanilla proof one byte longer or shorter, too
 *    many vanilla proofs, a field the kind does not read; accepted: the C1
 *    with a trailing newline (and it still decodes and validates).
 * Prints the bounds per sector size. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../src/filecoin/snap_internal.h"
#include "czk/filecoin_c1.h"
#include "czk/filecoin_post.h"
#include "czk/filecoin_post_input.h"
#include "czk/filecoin_request.h"
#include "czk/filecoin_testseal.h"
#include "czk/filecoin_testseal_post.h"
#include "czk/filecoin_testseal_update.h"
#include "czk/filecoin_update.h"
#include "test.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- a C1 whose every value is at its widest ---------------------------------- */

static void fill_path(czk_fil_path *p, size_t n_base, unsigned base, unsigned sub, unsigned top) {
    p->n_levels = n_base + (sub ? 1 : 0) + (top ? 1 : 0);
    p->levels = calloc(p->n_levels, sizeof *p->levels);
    for (size_t l = 0; p->levels && l < p->n_levels; l++) {
        unsigned a = l < n_base ? base : l == n_base ? sub : top;
        p->levels[l].arity = (uint8_t)a;
        p->levels[l].index = (uint8_t)(a - 1);
        memset(p->levels[l].siblings, 0xff, sizeof p->levels[l].siblings);
    }
}

static void claim(czk_fil_c1_merkle *m, size_t n_base, unsigned sub, unsigned top) {
    m->kind = top ? CZK_FIL_PROOF_TOP : sub ? CZK_FIL_PROOF_SUB : CZK_FIL_PROOF_SINGLE;
    m->n_base = (uint8_t)n_base;
    m->n_sub = sub ? 1 : 0;
    m->n_top = top ? 1 : 0;
    memset(m->leaf, 0xff, 32);
    memset(m->root, 0xff, 32);
}

static unsigned log_of(uint64_t x, unsigned base) {
    unsigned n = 0;
    while (x > 1) x /= base, n++;
    return n;
}

static bool widest_c1(const czk_fil_seal_proof *p, czk_fil_c1 *c1) {
    memset(c1, 0, sizeof *c1);
    c1->proof = p;
    c1->shape_sector_size = p->sector_size;
    memset(c1->comm_r, 0xff, 32), memset(c1->comm_d, 0xff, 32), memset(c1->replica_id, 0xff, 32);
    memset(c1->seed, 0xff, 32), memset(c1->ticket, 0xff, 32);
    c1->enveloped = true;
    c1->sector_num = UINT64_MAX;
    c1->sector_size = p->sector_size;
    const unsigned nd = log_of(p->nodes, 2),
                   nr = log_of(p->nodes / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1),
                               p->tree_base);
    c1->n_partitions = p->partitions;
    c1->partitions = calloc(p->partitions, sizeof *c1->partitions);
    c1->claims = calloc(p->partitions, sizeof *c1->claims);
    if (!c1->partitions || !c1->claims) return false;
    for (size_t k = 0; k < p->partitions; k++) {
        czk_fil_porep_partition *part = &c1->partitions[k];
        const size_t nc = p->challenges_per_partition;
        part->n_challenges = nc;
        part->challenges = calloc(nc, sizeof *part->challenges);
        c1->claims[k] = calloc(nc, sizeof *c1->claims[k]);
        if (!part->challenges || !c1->claims[k]) return false;
        for (size_t i = 0; i < nc; i++) {
            czk_fil_porep_challenge *c = &part->challenges[i];
            czk_fil_c1_claims *cl = &c1->claims[k][i];
            c->node = p->nodes - 1;
            fill_path(&c->comm_d_path, nd, 2, 0, 0);
            fill_path(&c->comm_r_last_path, nr, p->tree_base, p->tree_sub, p->tree_top);
            fill_path(&c->comm_c_path, nr, p->tree_base, p->tree_sub, p->tree_top);
            cl->n_rows = (uint8_t)p->layers;
            memset(cl->c_x_rows, 0xff, sizeof cl->c_x_rows);
            claim(&cl->comm_d, nd, 0, 0);
            claim(&cl->comm_r_last, nr, p->tree_sub, p->tree_top);
            claim(&cl->c_x, nr, p->tree_sub, p->tree_top);
            for (size_t j = 0; j < CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS; j++) {
                czk_fil_column *col = j < CZK_FIL_DRG_PARENTS ? &c->drg_parents[j] : &c->exp_parents[j - CZK_FIL_DRG_PARENTS];
                col->index = (uint32_t)(p->nodes - 1);
                col->n_rows = p->layers;
                col->rows = malloc(p->layers * sizeof *col->rows);
                if (!col->rows) return false;
                memset(col->rows, 0xff, p->layers * sizeof *col->rows);
                fill_path(&col->path, nr, p->tree_base, p->tree_sub, p->tree_top);
                claim(j < CZK_FIL_DRG_PARENTS ? &cl->drg[j] : &cl->exp[j - CZK_FIL_DRG_PARENTS], nr, p->tree_sub,
                      p->tree_top);
            }
        }
    }
    return true;
}

/* One interactive proof per sector size: the C1 bound is the encoder's widest text. */
static void test_c1_max(void) {
    static const uint64_t ids[] = {5, 6, 7, 8, 9}; /* StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1_1 */
    for (size_t t = 0; t < sizeof ids / sizeof ids[0]; t++) {
        const czk_fil_seal_proof *p = czk_fil_seal_proof_get(ids[t]);
        czk_fil_c1 c1;
        char msg[256] = "";
        bool ok = widest_c1(p, &c1);
        CHECK_MSG(ok, "%s: out of memory", p->name);
        for (int env = 0; ok && env <= 1; env++) {
            char *text = NULL;
            size_t len = 0;
            czk_err e = czk_fil_c1_encode(&c1, env, &text, &len, msg, sizeof msg);
            size_t max = czk_fil_c1_json_max(p, env);
            CHECK_MSG(e == CZK_OK && len == max, "%s %s: encoded %zu bytes, czk_fil_c1_json_max %zu (%s)", p->name,
                      env ? "enveloped" : "bare", len, max, msg);
            free(text);
        }
        czk_fil_request_limits lim;
        CHECK(czk_fil_request_limits_get(CZK_FIL_KIND_POREP_C2, p->id, &lim, msg, sizeof msg) == CZK_OK &&
              lim.c1_max == czk_fil_c1_json_max(p, true) &&
              lim.vanilla_proof == lim.c1_max + lim.c1_max / 64 + 4096 && !lim.vanilla_proofs && !lim.randomness);
        printf("%s: C1 at most %zu bytes bare, %zu enveloped; vanilla_proof bound %zu\n", p->name,
               czk_fil_c1_json_max(p, false), lim.c1_max, lim.vanilla_proof);
        czk_fil_c1_free(&c1);
    }
    CHECK(czk_fil_c1_json_max(NULL, true) == 0);
}

/* ---- real requests ------------------------------------------------------------- */

static czk_fil_request porep_request(const czk_fil_seal_proof *p, const char *text, size_t len) {
    czk_fil_request r = {.kind = CZK_FIL_KIND_POREP_C2, .registered_proof = p->id, .sector_size = p->sector_size,
                         .sector_number = 42, .miner_id = 1000, .borrowed = 1};
    r.vanilla_proof.data = (uint8_t *)text;
    r.vanilla_proof.len = len;
    return r;
}

static bool refused(const czk_fil_request *r, const char *want, const char *what) {
    char msg[512] = "";
    czk_err e = czk_fil_request_check_size(r, msg, sizeof msg);
    bool ok = e == CZK_ERR_INVALID_ARGUMENT && strstr(msg, want);
    CHECK_MSG(ok, "%s: %s: '%s' (want '%s')", what, czk_err_str(e), msg, want);
    /* and czk_fil_request_prepare says the same, before decoding */
    czk_fil_prepared prep;
    char m2[512] = "";
    e = czk_fil_request_prepare(r, &prep, m2, sizeof m2);
    CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT && !strcmp(m2, msg), "%s: prepare: %s: '%s'", what, czk_err_str(e), m2);
    if (e == CZK_OK) czk_fil_prepared_free(&prep);
    return ok;
}

static void test_porep(void) {
    char msg[512] = "", want[300];
    /* 2 KiB, sealed in full */
    const czk_fil_seal_proof *p = czk_fil_seal_proof_get(5);
    czk_fil_testseal_opts o = {.proof = p, .miner_id = 1000, .sector_number = 42, .seed = 7};
    czk_fil_c1 c1;
    CHECK_MSG(czk_fil_testseal(&o, &c1, NULL, msg, sizeof msg) == CZK_OK, "testseal 2 KiB: %s", msg);
    char *env = NULL;
    size_t len = 0;
    CHECK(czk_fil_c1_encode(&c1, true, &env, &len, msg, sizeof msg) == CZK_OK);
    czk_fil_c1_free(&c1);
    czk_fil_request_limits lim;
    czk_fil_request_limits_get(CZK_FIL_KIND_POREP_C2, p->id, &lim, msg, sizeof msg);
    CHECK_MSG(env && len <= lim.c1_max, "2 KiB envelope of %zu bytes, bound %zu", len, lim.c1_max);
    printf("%s: a sealed C1's envelope: %zu bytes (%.0f %% of the longest)\n", p->name, len,
           100.0 * (double)len / (double)lim.c1_max);
    /* with a trailing newline: accepted, decoded, validated */
    char *text = malloc(lim.vanilla_proof + 2);
    if (!env || !text) return;
    memcpy(text, env, len);
    text[len] = '\n';
    czk_fil_request r = porep_request(p, text, len + 1);
    czk_fil_prepared prep;
    CHECK_MSG(czk_fil_request_prepare(&r, &prep, msg, sizeof msg) == CZK_OK, "with a newline: %s", msg);
    czk_fil_prepared_free(&prep);
    /* padded with spaces to the bound: passes the size check (the bound
     * allows it), one byte more does not */
    memset(text + len, ' ', lim.vanilla_proof - len);
    r.vanilla_proof.len = lim.vanilla_proof;
    CHECK_MSG(czk_fil_request_check_size(&r, msg, sizeof msg) == CZK_OK, "at the bound: %s", msg);
    r.vanilla_proof.len = lim.vanilla_proof + 1;
    snprintf(want, sizeof want,
             "vanilla_proof has %zu bytes; the C1 output of StackedDrg2KiBV1_1 (registered_proof 5) takes at most "
             "%zu (its longest encoding, enveloped, is %zu bytes",
             lim.vanilla_proof + 1, lim.vanilla_proof, lim.c1_max);
    text[lim.vanilla_proof] = ' ';
    refused(&r, want, "2 KiB C1 one byte past the bound");
    /* fields a PoRep does not read */
    r.vanilla_proof.len = len;
    uint8_t five[5] = {1, 2, 3, 4, 5};
    r.randomness = (czk_fil_bytes){five, 5};
    refused(&r, "randomness has 5 bytes; POREP_SEAL_COMMIT does not use the field (it must be empty)", "randomness");
    r.randomness = (czk_fil_bytes){NULL, 0};
    r.comm_d_new = (czk_fil_bytes){five, 5};
    refused(&r, "comm_d_new has 5 bytes; POREP_SEAL_COMMIT does not use the field", "comm_d_new");
    r.comm_d_new = (czk_fil_bytes){NULL, 0};
    czk_fil_bytes one = {five, 5};
    r.vanilla_proofs = &one;
    r.n_vanilla_proofs = 1;
    refused(&r, "vanilla_proofs has 1 entries; POREP_SEAL_COMMIT does not use the field (it must be empty)",
            "vanilla_proofs");
    r.vanilla_proofs = NULL;
    r.n_vanilla_proofs = 0;
    /* an unknown registered proof: left to the decoder */
    r.registered_proof = 99;
    CHECK(czk_fil_request_check_size(&r, msg, sizeof msg) == CZK_OK);
    free(text);
    free(env);

    /* 32 GiB, sealed sparse: within the bound */
    p = czk_fil_seal_proof_get(8);
    o = (czk_fil_testseal_opts){.proof = p, .miner_id = 1000, .sector_number = 42, .seed = 9, .sparse = true};
    CHECK_MSG(czk_fil_testseal(&o, &c1, NULL, msg, sizeof msg) == CZK_OK, "testseal 32 GiB: %s", msg);
    env = NULL;
    CHECK(czk_fil_c1_encode(&c1, true, &env, &len, msg, sizeof msg) == CZK_OK);
    czk_fil_c1_free(&c1);
    czk_fil_request_limits_get(CZK_FIL_KIND_POREP_C2, p->id, &lim, msg, sizeof msg);
    r = porep_request(p, env, len);
    CHECK_MSG(env && len <= lim.c1_max && czk_fil_request_check_size(&r, msg, sizeof msg) == CZK_OK,
              "32 GiB envelope of %zu bytes, bound %zu: %s", len, lim.c1_max, msg);
    printf("%s: a sealed C1's envelope: %zu bytes (%.0f %% of the longest)\n", p->name, len,
           100.0 * (double)len / (double)lim.c1_max);
    free(env);
}

static void test_post(void) {
    char msg[512] = "", want[300];
    for (size_t id = 0; id < czk_fil_post_proof_count(); id++) {
        const czk_fil_post_proof *p = czk_fil_post_proof_get(id);
        if (!p) continue;
        const bool winning = p->kind == CZK_FIL_POST_WINNING;
        czk_fil_testseal_post_opts o = {.proof = p, .miner_id = 1000, .seed = 3, .n_sectors = winning ? 1 : 2,
                                        .sparse = true, .threads = 1};
        czk_fil_testseal_post_result t;
        czk_err e = czk_fil_testseal_post(&o, &t, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "testseal %s: %s", p->name, msg);
        if (e) continue;
        czk_fil_request *r = &t.request;
        czk_fil_request_limits lim;
        CHECK(czk_fil_request_limits_get(r->kind, p->id, &lim, msg, sizeof msg) == CZK_OK);
        CHECK(lim.vanilla_proofs == (winning ? 1 : p->sector_count) && lim.randomness == 32 && !lim.vanilla_proof &&
              !lim.comm_r_old && lim.vanilla_proof_each == czk_fil_post_sector_proof_bytes(p));
        for (size_t i = 0; i < r->n_vanilla_proofs; i++)
            CHECK_MSG(r->vanilla_proofs[i].len == lim.vanilla_proof_each, "%s: vanilla_proofs[%zu] %zu bytes, %zu",
                      p->name, i, r->vanilla_proofs[i].len, lim.vanilla_proof_each);
        CHECK_MSG(czk_fil_request_check_size(r, msg, sizeof msg) == CZK_OK, "%s: %s", p->name, msg);
        if (p->sector_size == (32ull << 30))
            printf("%s: each FallbackPoStSectorProof %zu bytes, at most %zu of them\n", p->name, lim.vanilla_proof_each,
                   lim.vanilla_proofs);
        /* one byte more, one byte less */
        czk_fil_bytes *v = &r->vanilla_proofs[r->n_vanilla_proofs - 1];
        uint8_t *longer = malloc(v->len + 1);
        if (longer) {
            memcpy(longer, v->data, v->len);
            longer[v->len] = 0;
            czk_fil_bytes keep = *v;
            *v = (czk_fil_bytes){longer, keep.len + 1};
            snprintf(want, sizeof want, "vanilla_proofs[%zu] has %zu bytes; a FallbackPoStSectorProof of %s is exactly %zu bytes",
                     r->n_vanilla_proofs - 1, keep.len + 1, p->name, keep.len);
            refused(r, want, "a vanilla proof one byte longer");
            v->len = keep.len - 1;
            snprintf(want, sizeof want, "vanilla_proofs[%zu] has %zu bytes;", r->n_vanilla_proofs - 1, keep.len - 1);
            refused(r, want, "a vanilla proof one byte shorter");
            *v = keep;
            free(longer);
        }
        /* vanilla_proof (the C1's field) set */
        uint8_t junk[3] = {1, 2, 3};
        r->vanilla_proof = (czk_fil_bytes){junk, 3};
        snprintf(want, sizeof want, "vanilla_proof has 3 bytes; %s does not use the field", czk_fil_kind_name(r->kind));
        refused(r, want, "vanilla_proof on a PoSt");
        r->vanilla_proof = (czk_fil_bytes){NULL, 0};
        r->comm_r_old = (czk_fil_bytes){junk, 3};
        refused(r, "comm_r_old has 3 bytes;", "comm_r_old on a PoSt");
        r->comm_r_old = (czk_fil_bytes){NULL, 0};
        czk_fil_testseal_post_free(&t);
    }
    /* more entries than a partition holds: WinningPoSt takes one */
    const czk_fil_post_proof *w = czk_fil_post_proof_get(3); /* StackedDrgWinning32GiBV1 */
    size_t each = czk_fil_post_sector_proof_bytes(w);
    uint8_t *b = calloc(1, each);
    czk_fil_bytes two[2] = {{b, each}, {b, each}};
    uint8_t rnd[32] = {0};
    czk_fil_request r = {.kind = CZK_FIL_KIND_WINNING_POST, .registered_proof = 3, .n_vanilla_proofs = 2,
                         .vanilla_proofs = two, .randomness = {rnd, 32}, .borrowed = 1};
    snprintf(want, sizeof want, "vanilla_proofs has 2 entries; a WINNING_POST request of %s takes at most 1", w->name);
    refused(&r, want, "two WinningPoSt proofs");
    free(b);
}

/* A PartitionProof of p's shape (no value checked) encoded: its length
 * against czk_fil_update_partition_proof_bytes. */
static void snap_shape(const czk_fil_update_proof *p) {
    czk_fil_update_facts f;
    if (czk_fil_update_facts_get(p->sector_size / 32, &f)) {
        CHECK_MSG(0, "%s: no facts", p->name);
        return;
    }
    const unsigned nr = log_of(f.nodes / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1), p->tree_base);
    czk_fil_update_partition part = {.registered_proof = p->id, .n_apex = f.apex_leaves, .n_challenges = f.challenges};
    part.apex_leafs = calloc(f.apex_leaves, 32);
    part.challenges = calloc(f.challenges, sizeof *part.challenges);
    for (size_t c = 0; part.challenges && c < f.challenges; c++) {
        fill_path(&part.challenges[c].path_r_old, nr, p->tree_base, p->tree_sub, p->tree_top);
        fill_path(&part.challenges[c].path_d_new, f.challenge_bits, 2, 0, 0);
        fill_path(&part.challenges[c].path_r_new, nr, p->tree_base, p->tree_sub, p->tree_top);
    }
    czk_fil_bytes out = {0};
    czk_err e = czk_fil_update_encode_partition(p, &part, &out);
    CHECK_MSG(e == CZK_OK && out.len == czk_fil_update_partition_proof_bytes(p), "%s: encoded %zu bytes, %zu", p->name,
              out.len, czk_fil_update_partition_proof_bytes(p));
    free(out.data);
    czk_fil_update_partition_free(&part);
}

static void test_snap(void) {
    char msg[512] = "", want[300];
    for (size_t id = 0; id < czk_fil_update_proof_count(); id++) {
        const czk_fil_update_proof *p = czk_fil_update_proof_get(id);
        if (!p) continue;
        snap_shape(p);
        /* sealed (the seconds go to the larger sizes): 2 KiB and 32 GiB */
        if (p->sector_size != 2048 && p->sector_size != (32ull << 30)) continue;
        czk_fil_testseal_update_opts o = {.proof = p, .seed = 5, .sparse = true};
        czk_fil_request r;
        czk_err e = czk_fil_testseal_update(&o, &r, NULL, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "testseal %s: %s", p->name, msg);
        if (e) continue;
        czk_fil_request_limits lim;
        CHECK(czk_fil_request_limits_get(CZK_FIL_KIND_SNAP, p->id, &lim, msg, sizeof msg) == CZK_OK);
        CHECK(lim.vanilla_proofs == p->partitions && lim.comm_r_old == 32 && lim.comm_d_new == 32 && !lim.randomness &&
              lim.vanilla_proof_each == czk_fil_update_partition_proof_bytes(p));
        for (size_t i = 0; i < r.n_vanilla_proofs; i++)
            CHECK_MSG(r.vanilla_proofs[i].len == lim.vanilla_proof_each, "%s: vanilla_proofs[%zu] %zu bytes, %zu",
                      p->name, i, r.vanilla_proofs[i].len, lim.vanilla_proof_each);
        CHECK_MSG(czk_fil_request_check_size(&r, msg, sizeof msg) == CZK_OK, "%s: %s", p->name, msg);
        if (p->sector_size == (32ull << 30))
            printf("SnapDeals %s: each PartitionProof %zu bytes, %zu of them\n", p->name, lim.vanilla_proof_each,
                   lim.vanilla_proofs);
        czk_fil_bytes keep = r.vanilla_proofs[0];
        r.vanilla_proofs[0].len--;
        snprintf(want, sizeof want, "vanilla_proofs[0] has %zu bytes; a PartitionProof of %s is exactly %zu bytes",
                 keep.len - 1, p->name, keep.len);
        refused(&r, want, "a PartitionProof one byte shorter");
        r.vanilla_proofs[0] = keep;
        uint8_t rnd[32] = {0};
        r.randomness = (czk_fil_bytes){rnd, 32};
        refused(&r, "randomness has 32 bytes; SNAP_DEALS_UPDATE does not use the field", "randomness on SnapDeals");
        r.randomness = (czk_fil_bytes){NULL, 0};
        czk_fil_request_free(&r);
    }
}


int main(void) {
    double t0 = now_s();
    test_c1_max();
    double t1 = now_s();
    test_porep();
    double t2 = now_s();
    test_post();
    double t3 = now_s();
    test_snap();
    printf("C1 bounds %.2f s, PoRep %.2f s, PoSt %.2f s, SnapDeals %.2f s\n", t1 - t0, t2 - t1, t3 - t2, now_s() - t3);
    return test_finish("filecoin_request_limits");
}
