/* The PoSt vanilla-proof decoder and the PoSt test sealer spread over
 * threads (czk_fil_post_decode_threads, czk_fil_testseal_post_opts.threads)
 * give what their one-thread runs give:
 *  - the sealer: the same request bytes for threads 1, 3 and the default;
 *  - the decoder on valid partitions: the same partition (every sector's
 *    ids, commitments, challenges, leaves and paths) for threads 1, 2, 3, 8
 *    and the default;
 *  - the decoder on partitions with failures injected at random sectors
 *    (bit flips anywhere, truncations, a trailing byte, a sector id copied
 *    from an earlier sector, several at once): the same error and the same
 *    message (also truncated to a short buffer, and with no buffer), the
 *    output zeroed; with flips and truncations only, the message names the
 *    lowest failing sector (what the sequential loop reports first).
 * Partitions of many sectors are cheap with a 2 KiB WindowPoSt proof whose
 * sector_count is raised to 64 here (2 to 24 sectors used) (the decoder and the sealer read it as a
 * limit only; the challenges derive from circuit_sector_count as before); a
 * sparse 32 GiB one of 8 sectors runs the real shape. With
 * CZK_TEST_POST_BENCH=N the test also times the sealer and the decoder on a
 * sparse 32 GiB partition of N sectors at threads 1, 2, 4, 8, 16. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/filecoin_post_input.h"
#include "czk/filecoin_testseal_post.h"
#include "test.h"

static bool same_path(const czk_fil_path *a, const czk_fil_path *b) {
    if (a->n_levels != b->n_levels) return false;
    for (size_t l = 0; l < a->n_levels; l++) {
        const czk_fil_path_level *x = &a->levels[l], *y = &b->levels[l];
        if (x->arity != y->arity || x->index != y->index || x->arity < 1 || x->arity > CZK_FIL_MAX_ARITY ||
            memcmp(x->siblings, y->siblings, (size_t)(x->arity - 1) * 32))
            return false;
    }
    return true;
}

static bool same_partition(const czk_fil_post_partition *a, const czk_fil_post_partition *b) {
    if (a->registered_proof != b->registered_proof || a->partition_index != b->partition_index ||
        memcmp(a->randomness, b->randomness, 32) || memcmp(a->prover_id, b->prover_id, 32) ||
        a->n_sectors != b->n_sectors)
        return false;
    for (size_t i = 0; i < a->n_sectors; i++) {
        const czk_fil_post_sector *x = &a->sectors[i], *y = &b->sectors[i];
        if (x->sector_id != y->sector_id || memcmp(x->comm_r, y->comm_r, 32) || memcmp(x->comm_c, y->comm_c, 32) ||
            memcmp(x->comm_r_last, y->comm_r_last, 32) || x->n_challenges != y->n_challenges)
            return false;
        for (size_t c = 0; c < x->n_challenges; c++)
            if (x->challenges[c] != y->challenges[c] || memcmp(x->leaves[c], y->leaves[c], 32) ||
                !same_path(&x->paths[c], &y->paths[c]))
                return false;
    }
    return true;
}

static bool zeroed(const czk_fil_post_partition *p) {
    static const czk_fil_post_partition z;
    return !memcmp(p, &z, sizeof z);
}

typedef struct {
    const czk_fil_post_proof *p;
    const czk_fil_request *r;
    const czk_fil_bytes *v; /* the vanilla proofs to decode (r's or altered copies) */
} input;

static czk_err dec(const input *in, int threads, czk_fil_post_partition *out, char *msg, size_t len) {
    return czk_fil_post_decode_threads(in->p, in->r->miner_id, in->r->partition_index, in->r->randomness.data, in->v,
                                       in->r->n_vanilla_proofs, threads, out, msg, len);
}

static const int THREADS[] = {2, 3, 8, 0};

/* Decodes in at threads 1 and at every THREADS (all) or at one of them
 * (THREADS[pick % 4]): same result, same messages (full, truncated to 24
 * bytes, none). Returns the one-thread error; its message in msg. */
static czk_err compare(const input *in, bool all, uint64_t pick, const char *what, char *msg, size_t len) {
    czk_fil_post_partition seq;
    memset(&seq, 0x5a, sizeof seq);
    const czk_err e = dec(in, 1, &seq, msg, len);
    char shorty[24];
    czk_fil_post_partition tmp;
    const czk_err es = dec(in, 1, &tmp, shorty, sizeof shorty);
    CHECK_MSG(es == e, "%s: one thread, short buffer: %s vs %s", what, czk_err_str(es), czk_err_str(e));
    if (es == CZK_OK) czk_fil_post_partition_free(&tmp);
    CHECK_MSG(e != CZK_OK || seq.n_sectors, "%s: no sectors", what);
    CHECK_MSG(e == CZK_OK || zeroed(&seq), "%s: one thread: output not zeroed", what);
    for (size_t t = all ? 0 : pick % 4; t < (all ? 4 : pick % 4 + 1); t++) {
        char m[512] = "", ms[24] = "";
        czk_fil_post_partition par;
        memset(&par, 0x5a, sizeof par);
        const czk_err ep = dec(in, THREADS[t], &par, m, sizeof m);
        CHECK_MSG(ep == e, "%s: threads %d: %s, one thread %s (%s | %s)", what, THREADS[t], czk_err_str(ep),
                  czk_err_str(e), m, msg);
        CHECK_MSG(!strcmp(m, msg), "%s: threads %d: message\n  '%s'\n  one thread\n  '%s'", what, THREADS[t], m, msg);
        if (ep == CZK_OK) {
            CHECK_MSG(e == CZK_OK && same_partition(&par, &seq), "%s: threads %d: another partition", what, THREADS[t]);
            czk_fil_post_partition_free(&par);
        } else {
            CHECK_MSG(zeroed(&par), "%s: threads %d: output not zeroed", what, THREADS[t]);
        }
        const czk_err e2 = dec(in, THREADS[t], &par, ms, sizeof ms);
        CHECK_MSG(e2 == e && !strcmp(ms, shorty), "%s: threads %d, 24-byte buffer: '%s' vs '%s'", what, THREADS[t], ms,
                  shorty);
        if (e2 == CZK_OK) czk_fil_post_partition_free(&par);
        const czk_err e3 = dec(in, THREADS[t], &par, NULL, 0);
        CHECK_MSG(e3 == e, "%s: threads %d, no buffer: %s", what, THREADS[t], czk_err_str(e3));
        if (e3 == CZK_OK) czk_fil_post_partition_free(&par);
    }
    if (e == CZK_OK) czk_fil_post_partition_free(&seq);
    return e;
}

static bool same_request(const czk_fil_request *a, const czk_fil_request *b) {
    bool same = a->n_vanilla_proofs == b->n_vanilla_proofs && a->randomness.len == b->randomness.len &&
                !memcmp(a->randomness.data, b->randomness.data, a->randomness.len);
    for (size_t i = 0; same && i < a->n_vanilla_proofs; i++)
        same = a->vanilla_proofs[i].len == b->vanilla_proofs[i].len &&
               !memcmp(a->vanilla_proofs[i].data, b->vanilla_proofs[i].data, a->vanilla_proofs[i].len);
    return same;
}

/* Seals o at threads 1, 3 and the default: the same request; *out is the
 * one-thread one. */
static bool seal(czk_fil_testseal_post_opts *o, czk_fil_testseal_post_result *out, const char *what) {
    char msg[512];
    o->threads = 1;
    if (czk_fil_testseal_post(o, out, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(false, "%s: seal: %s", what, msg);
        return false;
    }
    static const int T[] = {3, 0};
    for (size_t t = 0; t < 2; t++) {
        czk_fil_testseal_post_result x;
        o->threads = T[t];
        CHECK_MSG(czk_fil_testseal_post(o, &x, msg, sizeof msg) == CZK_OK, "%s: seal threads %d: %s", what, T[t], msg);
        CHECK_MSG(same_request(&out->request, &x.request) && x.tree_nodes == out->tree_nodes,
                  "%s: seal threads %d: another request", what, T[t]);
        czk_fil_testseal_post_free(&x);
    }
    o->threads = 0;
    return true;
}

/* Copies of r's vanilla proofs, one byte of slack each (for a trailing byte). */
static czk_fil_bytes *copy_proofs(const czk_fil_request *r) {
    czk_fil_bytes *v = calloc(r->n_vanilla_proofs, sizeof *v);
    for (size_t j = 0; v && j < r->n_vanilla_proofs; j++) {
        v[j].data = malloc(r->vanilla_proofs[j].len + 1);
        if (v[j].data) memcpy(v[j].data, r->vanilla_proofs[j].data, r->vanilla_proofs[j].len);
        v[j].len = r->vanilla_proofs[j].len;
    }
    return v;
}

static void restore(czk_fil_bytes *v, const czk_fil_request *r, size_t j) {
    memcpy(v[j].data, r->vanilla_proofs[j].data, r->vanilla_proofs[j].len);
    v[j].len = r->vanilla_proofs[j].len;
}

static void free_proofs(czk_fil_bytes *v, size_t n) {
    for (size_t j = 0; v && j < n; j++) free(v[j].data);
    free(v);
}

/* `cases` (>= 1) rounds of 1-4 failures at random sectors: a bit flipped, a cut,
 * a trailing byte, or the sector id of an earlier sector copied in (then
 * nothing else is done to that sector: the id changes its challenges too,
 * so it fails both the duplicate check and the path check, and the
 * sequential loop reports the duplicate, which it meets first). The lowest
 * touched sector is the one reported. */
static size_t dup_reported; /* cases where the lowest touched sector was a duplicate */

static void injected(const czk_fil_post_proof *p, const czk_fil_request *r, size_t cases, czk_rng *rng,
                     const char *what) {
    const size_t n = r->n_vanilla_proofs;
    czk_fil_bytes *v = copy_proofs(r);
    unsigned char *mark = calloc(n, 1); /* 0 untouched, 1 altered, 2 an earlier id copied in */
    CHECK(v != NULL && mark != NULL);
    if (!v || !mark) {
        free_proofs(v, n), free(mark);
        return;
    }
    input in = {p, r, v};
    if (cases < 1) cases = 1;
    for (size_t t = 0; t < cases; t++) {
        /* case 0 of a partition of 2 or more: one duplicate id alone */
        const bool forced = t == 0 && n > 1;
        const size_t k = forced ? 1 : 1 + czk_rng_next(rng) % 4;
        char desc[256];
        int dl = snprintf(desc, sizeof desc, "%s, case %zu:", what, t);
        for (size_t f = 0; f < k; f++) {
            const size_t j = forced ? 1 + czk_rng_next(rng) % (n - 1) : czk_rng_next(rng) % n;
            const unsigned kind = forced ? 7 : (unsigned)(czk_rng_next(rng) % 8);
            if (mark[j] == 2) continue;
            if (kind >= 6 && j > 0 && !mark[j]) {
                const size_t i = czk_rng_next(rng) % j;
                memcpy(v[j].data, v[i].data, 8);
                mark[j] = 2;
                dl += snprintf(desc + dl, sizeof desc - (size_t)dl, " dup@%zu(of %zu)", j, i);
                continue;
            }
            if (kind == 4) { /* truncated */
                v[j].len = czk_rng_next(rng) % v[j].len;
                dl += snprintf(desc + dl, sizeof desc - (size_t)dl, " cut@%zu", j);
            } else if (kind == 5) { /* a trailing byte (where nothing was cut) */
                if (v[j].len == r->vanilla_proofs[j].len) v[j].data[v[j].len++] = 0;
                dl += snprintf(desc + dl, sizeof desc - (size_t)dl, " tail@%zu", j);
            } else { /* a bit flipped anywhere */
                const size_t off = czk_rng_next(rng) % v[j].len;
                v[j].data[off] ^= (uint8_t)(1u << (czk_rng_next(rng) % 8));
                dl += snprintf(desc + dl, sizeof desc - (size_t)dl, " flip@%zu+%zu", j, off);
            }
            mark[j] = 1;
        }
        size_t lowest = 0;
        while (lowest < n && !mark[lowest]) lowest++;
        char msg[512] = "";
        const czk_err e = compare(&in, false, czk_rng_next(rng), desc, msg, sizeof msg);
        char want[64];
        if (lowest < n && mark[lowest] == 2) {
            dup_reported++;
            snprintf(want, sizeof want, "vanilla_proofs[%zu].sector_id: ", lowest);
            CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT && !strncmp(msg, want, strlen(want)) && strstr(msg, "'s too"),
                      "%s: %s (%s), want sector %zu's duplicate id", desc, czk_err_str(e), msg, lowest);
        } else {
            snprintf(want, sizeof want, "vanilla_proofs[%zu]", lowest);
            CHECK_MSG(lowest < n && e != CZK_OK && !strncmp(msg, want, strlen(want)),
                      "%s: %s (%s), want the lowest failing sector %zu", desc, czk_err_str(e), msg, lowest);
        }
        if (t < 3) printf("%s: %s: %s\n", desc, czk_err_str(e), msg);
        for (size_t j = 0; j < n; j++)
            if (mark[j]) restore(v, r, j), mark[j] = 0;
    }
    char msg[512];
    CHECK_MSG(compare(&in, false, cases, what, msg, sizeof msg) == CZK_OK, "%s: restored: %s", what, msg);
    free_proofs(v, n);
    free(mark);
}

static void case_2k(czk_rng *rng, uint64_t seed) {
    /* 2 KiB WindowPoSt with room for 64 sectors */
    for (int variant = 0; variant < 2; variant++) {
        czk_fil_post_proof wide = *czk_fil_post_proof_get(variant ? 10 : 5);
        wide.sector_count = 64;
        for (int round = 0; round < 2; round++) {
            czk_fil_testseal_post_opts o = {.proof = &wide,
                                            .miner_id = 1000 + czk_rng_next(rng) % 100000,
                                            .partition_index = (uint32_t)(czk_rng_next(rng) % 4),
                                            .seed = seed + (uint64_t)(10 * variant + round),
                                            .n_sectors = 2 + czk_rng_next(rng) % 23,
                                            .sparse = round == 1};
            char what[96];
            snprintf(what, sizeof what, "wpost-2k %s, partition %u, %zu sectors%s", variant ? "V1_2" : "V1",
                     o.partition_index, o.n_sectors, o.sparse ? " (sparse)" : "");
            czk_fil_testseal_post_result t;
            if (!seal(&o, &t, what)) continue;
            input in = {&wide, &t.request, t.request.vanilla_proofs};
            char msg[512];
            CHECK_MSG(compare(&in, true, 0, what, msg, sizeof msg) == CZK_OK, "%s: %s", what, msg);
            injected(&wide, &t.request, (size_t)test_cases(12), rng, what);
            czk_fil_testseal_post_free(&t);
        }
    }
    /* WinningPoSt: one proof, the threads change nothing */
    czk_fil_testseal_post_opts o = {.proof = czk_fil_post_proof_get(0), .miner_id = 1234, .seed = seed};
    czk_fil_testseal_post_result t;
    if (seal(&o, &t, "winning-2k")) {
        input in = {o.proof, &t.request, t.request.vanilla_proofs};
        char msg[512];
        CHECK_MSG(compare(&in, true, 0, "winning-2k", msg, sizeof msg) == CZK_OK, "winning-2k: %s", msg);
        injected(o.proof, &t.request, (size_t)test_cases(4), rng, "winning-2k");
        czk_fil_testseal_post_free(&t);
    }
}

static void case_32g(czk_rng *rng, uint64_t seed) {
    czk_fil_testseal_post_opts o = {.proof = czk_fil_post_proof_get(13),
                                    .miner_id = 1000,
                                    .partition_index = 2,
                                    .seed = seed,
                                    .n_sectors = 8,
                                    .sparse = true};
    czk_fil_testseal_post_result t;
    if (!seal(&o, &t, "wpost-32g sparse, 8 sectors")) return;
    input in = {o.proof, &t.request, t.request.vanilla_proofs};
    char msg[512];
    CHECK_MSG(compare(&in, true, 0, "wpost-32g", msg, sizeof msg) == CZK_OK, "wpost-32g: %s", msg);
    injected(o.proof, &t.request, (size_t)test_cases(3), rng, "wpost-32g sparse, 8 sectors");
    czk_fil_testseal_post_free(&t);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench(size_t n) {
    czk_fil_testseal_post_opts o = {.proof = czk_fil_post_proof_get(13), .miner_id = 1000, .seed = 32, .n_sectors = n,
                                    .sparse = true};
    static const int T[] = {1, 2, 4, 8, 16};
    czk_fil_testseal_post_result t = {0};
    char msg[512];
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        czk_fil_testseal_post_result x;
        o.threads = T[i];
        if (czk_fil_testseal_post(&o, &x, msg, sizeof msg)) {
            CHECK_MSG(false, "bench seal: %s", msg);
            return;
        }
        printf("bench: seal wpost-32g %zu sectors, threads %d: %.2f s\n", n, T[i], x.seconds);
        if (i == 0) t = x;
        else czk_fil_testseal_post_free(&x);
    }
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        czk_fil_post_partition part;
        const double t0 = now();
        czk_err e = czk_fil_post_decode_threads(o.proof, 1000, 0, t.request.randomness.data, t.request.vanilla_proofs,
                                                n, T[i], &part, msg, sizeof msg);
        printf("bench: decode wpost-32g %zu sectors, threads %d: %.2f s (%s)\n", n, T[i], now() - t0, czk_err_str(e));
        CHECK(e == CZK_OK);
        if (!e) czk_fil_post_partition_free(&part);
    }
    czk_fil_testseal_post_free(&t);
}

int main(void) {
    czk_rng rng;
    const uint64_t seed = test_seed_rng(&rng, "test_filecoin_post_decode_threads");
    case_2k(&rng, seed);
    case_32g(&rng, seed);
    printf("%zu cases with a duplicate id as the lowest failure\n", dup_reported);
    CHECK(dup_reported >= 5); /* at least case 0 of each WindowPoSt partition */
    const char *b = getenv("CZK_TEST_POST_BENCH");
    if (b && atoi(b) > 0) bench((size_t)atoi(b));
    return test_finish("test_filecoin_post_decode_threads");
}
