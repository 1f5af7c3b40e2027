/* A PoSt request's input (filecoin_post_input.h):
 *  - the challenges against SHA-256 of the byte layouts computed here with
 *    OpenSSL (generate_leaf_challenge: randomness ‖ sector id LE ‖ challenge
 *    index LE; generate_sector_challenge: prover id ‖ randomness ‖ n LE),
 *    get_challenge_index per ApiVersion (1.0: sector_index · count + n,
 *    1.2: n), the sector index k · sector_count + i;
 *  - vanilla proofs built here (a whole Poseidon tree_r_last at 2 KiB, a
 *    partial one over the challenged leaves at 32 GiB, encoded with
 *    czk_fil_post_encode_sector_proof) decode into the partition the circuit
 *    reads: wpost-2k of 2 sectors and of 1 (padded), winning-2k (one sector
 *    of 66 proofs reshaped into 66 sectors of 1) are satisfied in CHECK mode;
 *    czk_fil_post_public_inputs equals the witness's public inputs and the
 *    layout computed here; a partition decoded for the wrong k fails with
 *    ApiVersion 1.0 and passes with 1.2; wpost-32g and winning-32g (sparse)
 *    decode and give their public inputs (not synthesized: 125M constraints);
 *  - every refusal the header lists, with its error and the field path. */
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/filecoin/bincode.h"
#include "../../src/filecoin/testseal_internal.h"
#include "czk/circuit.h"
#include "czk/circuit_post.h"
#include "czk/filecoin_post_input.h"
#include "czk/groth16.h"
#include "czk/instance.h"
#include "test.h"

/* ---- the spec's derivations, here ------------------------------------------------ */

static uint64_t le64_of(const uint8_t *b) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

static uint64_t spec_leaf(uint64_t sector_size, const uint8_t rand[32], uint64_t sid, uint64_t ci) {
    uint8_t buf[48], h[32];
    memcpy(buf, rand, 32);
    for (int i = 0; i < 8; i++) buf[32 + i] = (uint8_t)(sid >> (8 * i)), buf[40 + i] = (uint8_t)(ci >> (8 * i));
    SHA256(buf, sizeof buf, h);
    return le64_of(h) % (sector_size / 32);
}

static uint64_t spec_sector(const uint8_t rand[32], const uint8_t prover[32], uint64_t n, uint64_t len) {
    uint8_t buf[72], h[32];
    memcpy(buf, prover, 32);
    memcpy(buf + 32, rand, 32);
    for (int i = 0; i < 8; i++) buf[64 + i] = (uint8_t)(n >> (8 * i));
    SHA256(buf, sizeof buf, h);
    return le64_of(h) % len;
}

/* challenge c of the sector at position i of partition k, as
 * generate_public_inputs draws it */
static uint64_t spec_challenge(const czk_fil_post_proof *p, const uint8_t rand[32], uint64_t sid, uint64_t k,
                               uint64_t i, uint64_t c) {
    const uint64_t si = k * p->circuit_sector_count + i;
    const uint64_t ci = p->api == CZK_FIL_API_1_2 ? c : si * p->circuit_challenge_count + c;
    return spec_leaf(p->sector_size, rand, sid, ci);
}

static void random_domain(uint8_t out[32], czk_rng *rng) {
    czk_fr v;
    czk_fr_random(&v, rng);
    czk_domain_from_fr(out, &v);
}

static void challenges(czk_rng *rng) {
    uint8_t rand[32], prover[32];
    for (int t = 0; t < 200; t++) {
        random_domain(rand, rng);
        const uint64_t sid = czk_rng_next(rng), ci = czk_rng_next(rng) % 100000;
        static const uint64_t SIZES[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30, 32};
        const uint64_t size = SIZES[t % 6];
        uint64_t got = ~0ull;
        CHECK(czk_fil_post_leaf_challenge(size, rand, sid, ci, &got) == CZK_OK);
        CHECK_MSG(got == spec_leaf(size, rand, sid, ci), "leaf challenge %d: %llu", t, (unsigned long long)got);
        czk_fil_prover_id(czk_rng_next(rng) % 5000000, prover);
        const uint64_t len = 1 + czk_rng_next(rng) % 100000, n = czk_rng_next(rng) % 1000;
        CHECK(czk_fil_post_sector_challenge(rand, prover, n, len, &got) == CZK_OK);
        CHECK_MSG(got == spec_sector(rand, prover, n, len), "sector challenge %d", t);
    }
    uint64_t v, many[5];
    CHECK(czk_fil_post_sector_challenges(rand, prover, 5, 77, many) == CZK_OK);
    for (int n = 0; n < 5; n++) CHECK(many[n] == spec_sector(rand, prover, (uint64_t)n, 77));
    CHECK(czk_fil_post_leaf_challenge(16, rand, 1, 1, &v) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_post_sector_challenge(rand, prover, 0, 0, &v) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_post_sector_challenges(rand, prover, 0, 0, many) == CZK_ERR_INVALID_ARGUMENT);
    /* get_challenge_index */
    CHECK(czk_fil_post_challenge_index(CZK_FIL_API_1_0, 3, 10, 7) == 37);
    CHECK(czk_fil_post_challenge_index(CZK_FIL_API_1_1, 3, 10, 7) == 37);
    CHECK(czk_fil_post_challenge_index(CZK_FIL_API_1_2, 3, 10, 7) == 7);
    /* per registered proof: window V1 (1.0), V1_2 (1.2), winning (1.0, 66 x 1) */
    static const uint64_t IDS[] = {5, 10, 8, 13, 0, 3};
    for (size_t t = 0; t < sizeof IDS / sizeof *IDS; t++) {
        const czk_fil_post_proof *p = czk_fil_post_proof_get(IDS[t]);
        uint64_t ch[10];
        const uint64_t sid = czk_rng_next(rng), k = t & 1 ? 3 : 0, i = p->circuit_sector_count - 1;
        CHECK(czk_fil_post_sector_leaf_challenges(p, rand, sid, p->kind == CZK_FIL_POST_WINNING ? 0 : k, i, ch) == CZK_OK);
        for (uint32_t c = 0; c < p->circuit_challenge_count; c++)
            CHECK_MSG(ch[c] == spec_challenge(p, rand, sid, p->kind == CZK_FIL_POST_WINNING ? 0 : k, i, c),
                      "%s sector %llu challenge %u", p->name, (unsigned long long)i, c);
    }
    /* winning: circuit sector i's one challenge is the vanilla proof's challenge i */
    const czk_fil_post_proof *w = czk_fil_post_proof_get(0);
    for (uint64_t i = 0; i < 66; i++) {
        CHECK(czk_fil_post_sector_leaf_challenges(w, rand, 99, 0, i, &v) == CZK_OK);
        CHECK(v == spec_leaf(2048, rand, 99, i));
    }
    printf("challenges: leaf and sector challenges equal SHA-256 of the spec's layouts\n");
}

/* ---- vanilla proofs built here ---------------------------------------------------- */

typedef struct {
    uint64_t seed;
    unsigned sector;
} fill_ctx;

static void fill(const void *ctx, unsigned level, uint64_t index, uint8_t out[32]) {
    const fill_ctx *f = ctx;
    czk_fil_ts_arbitrary(f->seed, 100 + f->sector, level, index, out);
}

static unsigned tree_arities(const czk_fil_post_proof *p, uint8_t *arity) {
    unsigned levels = 0;
    for (uint64_t n = p->sector_size / 32 / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1); n > 1;
         n /= p->tree_base)
        arity[levels++] = p->tree_base;
    if (p->tree_sub) arity[levels++] = p->tree_sub;
    if (p->tree_top) arity[levels++] = p->tree_top;
    return levels;
}

typedef struct {
    uint8_t comm_c[32], comm_r_last[32], comm_r[32];
} sector_info;

/* Sector sid's FallbackPoStSectorProof at position i of partition k:
 * n_proofs inclusion proofs of the challenges spec_challenge derives
 * (WinningPoSt: challenge c is circuit sector c's), a whole tree for
 * 2 KiB, a partial one over the challenged leaves otherwise. */
static bool make_vanilla(const czk_fil_post_proof *p, const uint8_t rand[32], uint64_t sid, uint64_t k, uint64_t i,
                         size_t n_proofs, uint64_t seed, czk_fil_bytes *out, sector_info *info) {
    const bool winning = p->kind == CZK_FIL_POST_WINNING;
    const uint64_t nodes = p->sector_size / 32;
    uint64_t ch[66];
    for (size_t c = 0; c < n_proofs && c < 66; c++)
        ch[c] = winning ? spec_challenge(p, rand, sid, 0, c, 0) : spec_challenge(p, rand, sid, k, i, c);
    const bool whole = nodes <= 4096;
    const size_t nl = whole ? nodes : n_proofs;
    czk_fil_ts_node *leaves = malloc(nl * sizeof *leaves);
    if (!leaves) return false;
    for (size_t j = 0; j < nl; j++) {
        leaves[j].index = whole ? j : ch[j];
        czk_fil_ts_arbitrary(seed, 90, (uint32_t)i, leaves[j].index, leaves[j].v);
    }
    uint8_t arity[CZK_FIL_TS_MAX_LEVELS];
    const unsigned levels = tree_arities(p, arity);
    fill_ctx fc = {seed, (unsigned)i};
    czk_fil_ts_tree t;
    char msg[256];
    if (czk_fil_ts_tree_build(&t, CZK_HASHER_POSEIDON, arity, levels, leaves, nl, fill, &fc, msg, sizeof msg)) {
        fprintf(stderr, "tree: %s\n", msg);
        return false;
    }
    memcpy(info->comm_r_last, czk_fil_ts_tree_root(&t), 32);
    czk_fil_ts_arbitrary(seed, 91, (uint32_t)i, 0, info->comm_c);
    czk_fr kids[2], r;
    bool ok = czk_domain_to_fr(&kids[0], info->comm_c) && czk_domain_to_fr(&kids[1], info->comm_r_last) &&
              czk_hasher_node(CZK_HASHER_POSEIDON, &r, kids, 2) == CZK_OK;
    czk_domain_from_fr(info->comm_r, &r);
    uint8_t (*lv)[32] = calloc(n_proofs ? n_proofs : 1, 32);
    czk_fil_path *paths = calloc(n_proofs ? n_proofs : 1, sizeof *paths);
    ok = ok && lv && paths;
    for (size_t c = 0; ok && c < n_proofs; c++) ok = czk_fil_ts_tree_path(&t, ch[c % 66], &paths[c], lv[c]) == CZK_OK;
    ok = ok && czk_fil_post_encode_sector_proof(p, sid, info->comm_r, info->comm_c, info->comm_r_last, n_proofs,
                                                (const uint8_t(*)[32])lv, paths, out) == CZK_OK;
    for (size_t c = 0; paths && c < n_proofs; c++) free(paths[c].levels);
    free(paths);
    free(lv);
    czk_fil_ts_tree_free(&t);
    return ok;
}

typedef struct {
    const czk_fil_post_proof *p;
    uint64_t miner;
    uint32_t k;
    uint8_t rand[32];
    size_t n;
    czk_fil_bytes v[4];
    uint64_t sid[4];
    sector_info info[4];
} fixture;

static bool make_fixture(fixture *f, uint64_t id, uint32_t k, size_t n, czk_rng *rng) {
    memset(f, 0, sizeof *f);
    f->p = czk_fil_post_proof_get(id);
    f->miner = 1000 + czk_rng_next(rng) % 100000;
    f->k = k;
    f->n = n;
    random_domain(f->rand, rng);
    const uint64_t seed = czk_rng_next(rng);
    for (size_t i = 0; i < n; i++) {
        f->sid[i] = czk_rng_next(rng) % 1000000;
        if (!make_vanilla(f->p, f->rand, f->sid[i], k, i, f->p->challenge_count, seed, &f->v[i], &f->info[i]))
            return false;
    }
    return true;
}

static void fixture_free(fixture *f) {
    for (size_t i = 0; i < 4; i++) free(f->v[i].data);
    memset(f, 0, sizeof *f);
}

static czk_err decode(const fixture *f, czk_fil_post_partition *out, char *msg, size_t len) {
    return czk_fil_post_decode(f->p, f->miner, f->k, f->rand, f->v, f->n, out, msg, len);
}

static bool zeroed(const czk_fil_post_partition *p) {
    static const czk_fil_post_partition z;
    return !memcmp(p, &z, sizeof z);
}

/* The public inputs as laid out here: per circuit sector comm_r then its
 * challenges; WinningPoSt's one sector listed 66 times; the last repeated. */
static size_t spec_inputs(const fixture *f, czk_fr *out) {
    const czk_fil_post_proof *p = f->p;
    const bool winning = p->kind == CZK_FIL_POST_WINNING;
    const size_t listed = winning ? 66 : f->n, per = 1 + p->circuit_challenge_count;
    size_t m = 0;
    for (size_t i = 0; i < p->circuit_sector_count; i++) {
        const size_t s = winning ? 0 : (i < listed ? i : listed - 1), pos = i < listed ? i : listed - 1;
        if (!czk_domain_to_fr(&out[m++], f->info[s].comm_r)) return 0;
        for (uint32_t c = 0; c < p->circuit_challenge_count; c++)
            czk_fr_from_u64(&out[m++], spec_challenge(p, f->rand, f->sid[s], winning ? 0 : f->k, pos, c));
    }
    return m == czk_fil_post_input_count(p) && m == p->circuit_sector_count * per ? m : 0;
}

/* decode → CHECK mode satisfied → public inputs = the witness's = spec_inputs */
static void round_trip(const fixture *f, const char *what, bool synthesize) {
    char msg[512] = "";
    czk_fil_post_partition part;
    czk_err e = decode(f, &part, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: decode: %s", what, msg);
    if (e) return;
    const bool winning = f->p->kind == CZK_FIL_POST_WINNING;
    CHECK(part.registered_proof == f->p->id && part.partition_index == f->k && !memcmp(part.randomness, f->rand, 32));
    uint8_t prover[32];
    czk_fil_prover_id(f->miner, prover);
    CHECK(!memcmp(part.prover_id, prover, 32));
    CHECK_MSG(part.n_sectors == (winning ? 66 : f->n), "%s: %zu sectors", what, part.n_sectors);
    for (size_t i = 0; i < part.n_sectors; i++) {
        const czk_fil_post_sector *s = &part.sectors[i];
        const size_t src = winning ? 0 : i;
        CHECK(s->sector_id == f->sid[src] && !memcmp(s->comm_r, f->info[src].comm_r, 32) &&
              !memcmp(s->comm_c, f->info[src].comm_c, 32) && !memcmp(s->comm_r_last, f->info[src].comm_r_last, 32));
        CHECK(s->n_challenges == f->p->circuit_challenge_count);
        for (size_t c = 0; c < s->n_challenges; c++)
            CHECK(s->challenges[c] == spec_challenge(f->p, f->rand, s->sector_id, winning ? 0 : f->k, i, c) &&
                  czk_bc_path_index(&s->paths[c]) == s->challenges[c]);
    }
    const size_t count = czk_fil_post_input_count(f->p);
    czk_fr *got = calloc(count, sizeof *got), *want = calloc(count, sizeof *want);
    size_t n = 0;
    CHECK(got && want);
    if (!got || !want) goto out;
    e = czk_fil_post_public_inputs(f->p, &part, got, count, &n, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK && n == count, "%s: public inputs: %s", what, msg);
    CHECK(spec_inputs(f, want) == count);
    size_t same = 0;
    for (size_t i = 0; i < count; i++) same += czk_fr_equal(&got[i], &want[i]);
    CHECK_MSG(same == count, "%s: %zu of %zu public inputs as laid out here", what, same, count);
    if (winning) { /* the one sector, not reshaped: listed 66 times */
        czk_fil_post_partition one = part;
        one.n_sectors = 1;
        czk_fr *g1 = calloc(count, sizeof *g1);
        CHECK(g1 && czk_fil_post_public_inputs(f->p, &one, g1, count, &n, msg, sizeof msg) == CZK_OK);
        for (size_t i = 0; g1 && i < count; i++) CHECK(czk_fr_equal(&g1[i], &got[i]));
        free(g1);
    }
    if (synthesize) {
        czk_circuit c;
        CHECK(czk_circuit_find(&c, f->p->circuit_id, msg, sizeof msg) == CZK_OK);
        e = czk_circuit_check_input(&c, 0, &part, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s: CHECK: %s", what, msg);
        czk_post_shape shape;
        czk_post_shape_from_proof(&shape, f->p);
        CHECK(czk_post_input_count(&shape) - 1 == count);
        czk_witness w;
        e = czk_circuit_witness_input(&c, 0, &part, &w, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s: witness: %s", what, msg);
        if (!e) {
            size_t eq = 0;
            CHECK(w.n_input == count + 1);
            for (size_t i = 0; i < count && i + 1 < w.n_input; i++) eq += czk_fr_equal(&w.input[i + 1], &got[i]);
            CHECK_MSG(eq == count, "%s: %zu of %zu inputs equal the witness's", what, eq, count);
            czk_witness_free(&w);
        }
        printf("%s: decoded (%zu sectors), CHECK %s, %zu public inputs = the witness's\n", what, part.n_sectors,
               e == CZK_OK ? "satisfied" : msg, count);
    } else {
        printf("%s: decoded (%zu sectors, %zu bytes), %zu public inputs as laid out here\n", what, part.n_sectors,
               czk_fil_post_partition_bytes(&part), count);
    }
out:
    free(got);
    free(want);
    czk_fil_post_partition_free(&part);
}

/* ---- refusals ------------------------------------------------------------------- */

static void refused(const fixture *f, czk_err want, const char *needle, const char *what) {
    char msg[512] = "";
    czk_fil_post_partition part;
    memset(&part, 0x5a, sizeof part);
    czk_err e = decode(f, &part, msg, sizeof msg);
    CHECK_MSG(e == want, "%s: %s, want %s (%s)", what, czk_err_str(e), czk_err_str(want), msg);
    CHECK_MSG(strstr(msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, msg, needle);
    CHECK_MSG(zeroed(&part), "%s: output not zeroed", what);
    if (e == CZK_OK) czk_fil_post_partition_free(&part);
    printf("refused, %s: %s: %s\n", what, czk_err_str(e), msg);
}

/* Flips bit of byte off of vanilla proof j, runs refused, restores. */
static void flip(fixture *f, size_t j, size_t off, uint8_t bit, czk_err want, const char *needle, const char *what) {
    CHECK(off < f->v[j].len);
    if (off >= f->v[j].len) return;
    f->v[j].data[off] ^= bit;
    refused(f, want, needle, what);
    f->v[j].data[off] ^= bit;
}

/* 2 KiB (Single proofs of 2 levels of 8): sector_id 8, comm_r 32, sectors
 * len 8, inclusion_proofs len 8, then 556 bytes a proof (tag 4, root 32,
 * leaf 32, path len 8, per level: hashes len 8, 7 hashes, index 8), then
 * comm_c, comm_r_last. */
#define P2K(c) (56 + 556 * (size_t)(c))
#define LEVEL2K(c, l) (P2K(c) + 76 + 240 * (size_t)(l))

static void refusals(czk_rng *rng) {
    fixture f;
    CHECK(make_fixture(&f, 5, 0, 2, rng)); /* StackedDrgWindow2KiBV1 */
    CHECK(f.v[1].len == P2K(10) + 64);
    char msg[512];
    czk_fil_post_partition part;
    CHECK(decode(&f, &part, msg, sizeof msg) == CZK_OK);
    czk_fil_post_partition_free(&part);

    flip(&f, 1, P2K(3) + 36, 1, CZK_ERR_MISMATCH,
         "vanilla_proofs[1].vanilla_proof.sectors[0].inclusion_proofs[3]: the path hashes to", "a flipped leaf");
    flip(&f, 0, LEVEL2K(7, 1) + 8 + 32 * 4 + 2, 0x20, CZK_ERR_MISMATCH,
         "vanilla_proofs[0].vanilla_proof.sectors[0].inclusion_proofs[7]: the path hashes to", "a flipped sibling");
    flip(&f, 1, 8, 1, CZK_ERR_MISMATCH, "vanilla_proofs[1].comm_r: ", "a flipped comm_r");
    flip(&f, 0, P2K(10) + 5, 4, CZK_ERR_MISMATCH, "vanilla_proofs[0].comm_r: ", "a flipped comm_c");
    flip(&f, 0, P2K(10) + 32, 1, CZK_ERR_MISMATCH,
         "vanilla_proofs[0].vanilla_proof.sectors[0].inclusion_proofs[0].root: ", "a flipped comm_r_last");
    flip(&f, 1, P2K(6) + 4, 1, CZK_ERR_MISMATCH, "vanilla_proofs[1].vanilla_proof.sectors[0].inclusion_proofs[6].root: ",
         "a flipped root");
    {
        uint8_t *ix = &f.v[0].data[LEVEL2K(2, 0) + 232];
        const uint8_t keep = *ix;
        *ix = (uint8_t)((keep + 1) % 8);
        refused(&f, CZK_ERR_MISMATCH, "vanilla_proofs[0].vanilla_proof.sectors[0].inclusion_proofs[2]: the path opens leaf",
                "another index");
        *ix = 9;
        refused(&f, CZK_ERR_FORMAT, "vanilla_proofs[0].vanilla_proof.sectors[0].inclusion_proofs[2].path[0].index: 9",
                "an index >= arity");
        *ix = keep;
    }
    flip(&f, 1, P2K(4), 1, CZK_ERR_MISMATCH, "inclusion_proofs[4].data", "a Sub proof for a Single tree");
    flip(&f, 1, P2K(4), 4, CZK_ERR_FORMAT, "inclusion_proofs[4].data", "a bad enum tag");
    flip(&f, 0, P2K(0) + 68, 1, CZK_ERR_MISMATCH, "inclusion_proofs[0].path", "a path of 3 levels");
    flip(&f, 0, LEVEL2K(1, 1), 1, CZK_ERR_MISMATCH, "inclusion_proofs[1].path[1].hashes", "6 hashes");
    flip(&f, 1, 40, 3, CZK_ERR_MISMATCH, "vanilla_proofs[1].vanilla_proof.sectors: 2 sector proofs", "2 sector proofs");
    flip(&f, 1, 48, 3, CZK_ERR_MISMATCH, "vanilla_proofs[1].vanilla_proof.sectors[0].inclusion_proofs: 9", "9 inclusion proofs");
    flip(&f, 0, 8 + 31, 0xc0, CZK_ERR_NOT_CANONICAL, "vanilla_proofs[0].comm_r", "comm_r >= r");
    flip(&f, 0, P2K(5) + 36 + 31, 0xc0, CZK_ERR_NOT_CANONICAL, "inclusion_proofs[5].leaf", "a leaf >= r");
    /* truncated, trailing */
    f.v[1].len--;
    refused(&f, CZK_ERR_FORMAT, "vanilla_proofs[1].vanilla_proof.sectors[0].comm_r_last: truncated", "1 byte short");
    f.v[1].len = 30;
    refused(&f, CZK_ERR_FORMAT, "vanilla_proofs[1].comm_r: truncated", "30 bytes");
    f.v[1].len = P2K(10) + 64;
    {
        uint8_t *b = realloc(f.v[1].data, f.v[1].len + 1);
        CHECK(b);
        if (b) {
            f.v[1].data = b;
            b[f.v[1].len++] = 0;
            refused(&f, CZK_ERR_FORMAT, "vanilla_proofs[1]: 1 trailing byte", "a trailing byte");
            f.v[1].len--;
        }
    }
    /* counts, ids, partition */
    f.n = 0;
    refused(&f, CZK_ERR_INVALID_ARGUMENT, "vanilla_proofs", "no vanilla proofs");
    f.n = 3;
    f.v[2] = f.v[0];
    refused(&f, CZK_ERR_INVALID_ARGUMENT, "3 sectors, a StackedDrgWindow2KiBV1 partition holds 2", "3 sectors of 2");
    f.n = 2;
    const czk_fil_bytes v1 = f.v[1];
    f.v[1] = f.v[0];
    refused(&f, CZK_ERR_INVALID_ARGUMENT, "vanilla_proofs[1].sector_id", "a sector twice");
    f.v[1] = v1;
    memset(&f.v[2], 0, sizeof f.v[2]);
    fixture_free(&f);

    CHECK(make_fixture(&f, 5, 0, 2, rng));
    uint8_t keep[32];
    memcpy(keep, f.rand, 32);
    memset(f.rand, 0xff, 32);
    refused(&f, CZK_ERR_NOT_CANONICAL, "randomness", "randomness >= r");
    memset(f.rand, 0, 32); /* r's bytes: 0x73eda753…00000001 little-endian */
    static const uint8_t R[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
                                  0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    memcpy(f.rand, R, 32);
    refused(&f, CZK_ERR_NOT_CANONICAL, "randomness", "randomness = r");
    memcpy(f.rand, keep, 32);
    /* the partition index: ApiVersion 1.0 challenges depend on it */
    f.k = 1;
    /* the first challenge that moves names its proof: with 64 leaves a challenge stays put 1 time in 64 */
    refused(&f, CZK_ERR_MISMATCH, "vanilla_proofs[0].vanilla_proof.sectors[0].inclusion_proofs[",
            "V1 decoded as partition 1");
    f.k = 0;
    char m2[512];
    CHECK(czk_fil_post_decode(NULL, 1, 0, f.rand, f.v, 1, &part, m2, sizeof m2) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_post_decode(czk_fil_post_proof_get(6), 1, 0, f.rand, f.v, 1, &part, m2, sizeof m2) ==
          CZK_ERR_MISMATCH); /* an 8 MiB proof: another tree */
    CHECK(zeroed(&part));
    fixture_free(&f);

    /* V1_2: the same proofs for any partition index */
    CHECK(make_fixture(&f, 10, 0, 2, rng));
    f.k = 7;
    CHECK_MSG(decode(&f, &part, msg, sizeof msg) == CZK_OK, "V1_2 at partition 7: %s", msg);
    czk_fil_post_partition_free(&part);
    fixture_free(&f);

    /* winning */
    CHECK(make_fixture(&f, 0, 0, 1, rng));
    f.k = 1;
    refused(&f, CZK_ERR_INVALID_ARGUMENT, "partition_index: 1", "winning at partition 1");
    f.k = 0;
    f.n = 2;
    f.v[1] = f.v[0];
    refused(&f, CZK_ERR_INVALID_ARGUMENT, "vanilla_proofs: 2 for StackedDrgWinning2KiBV1", "winning of 2 sectors");
    memset(&f.v[1], 0, sizeof f.v[1]);
    f.n = 1;
    flip(&f, 0, P2K(65) + 36, 1, CZK_ERR_MISMATCH,
         "vanilla_proofs[0].vanilla_proof.sectors[0].inclusion_proofs[65]: the path hashes to", "winning, the last leaf");
    {
        uint8_t *ix = &f.v[0].data[LEVEL2K(40, 1) + 232];
        const uint8_t k2 = *ix;
        *ix = (uint8_t)((k2 + 3) % 8);
        refused(&f, CZK_ERR_MISMATCH, "inclusion_proofs[40]: the path opens leaf", "winning, another index");
        *ix = k2;
    }
    fixture_free(&f);
    /* a winning proof of 10 inclusion proofs */
    memset(&f, 0, sizeof f);
    f.p = czk_fil_post_proof_get(0);
    f.n = 1;
    random_domain(f.rand, rng);
    CHECK(make_vanilla(f.p, f.rand, 4, 0, 0, 10, 1, &f.v[0], &f.info[0]));
    refused(&f, CZK_ERR_MISMATCH, "inclusion_proofs: 10 inclusion proofs, the proof takes 66", "winning of 10 proofs");
    fixture_free(&f);
}

static void public_input_refusals(czk_rng *rng) {
    fixture f;
    CHECK(make_fixture(&f, 10, 1, 2, rng));
    czk_fil_post_partition part;
    char msg[512];
    CHECK(decode(&f, &part, msg, sizeof msg) == CZK_OK);
    czk_fr out[44];
    size_t n = 0;
    CHECK(czk_fil_post_public_inputs(f.p, &part, out, 44, &n, msg, sizeof msg) == CZK_OK && n == 22);
    CHECK(czk_fil_post_public_inputs(f.p, &part, out, 21, &n, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && n == 22);
    part.n_sectors = 0;
    CHECK(czk_fil_post_public_inputs(f.p, &part, out, 44, &n, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    part.n_sectors = 3;
    CHECK(czk_fil_post_public_inputs(f.p, &part, out, 44, &n, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    part.n_sectors = 2;
    part.sectors[1].comm_r[31] |= 0xc0;
    CHECK(czk_fil_post_public_inputs(f.p, &part, out, 44, &n, msg, sizeof msg) == CZK_ERR_NOT_CANONICAL &&
          strstr(msg, "sectors[1].comm_r"));
    part.sectors[1].comm_r[31] &= 0x3f;
    part.randomness[31] |= 0xc0;
    CHECK(czk_fil_post_public_inputs(f.p, &part, out, 44, &n, msg, sizeof msg) == CZK_ERR_NOT_CANONICAL &&
          strstr(msg, "randomness"));
    czk_fil_post_partition_free(&part);
    fixture_free(&f);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_filecoin_post_input");
    challenges(&rng);
    fixture f;
    CHECK(make_fixture(&f, 5, 0, 2, &rng));
    round_trip(&f, "wpost-2k V1, 2 sectors", true);
    fixture_free(&f);
    CHECK(make_fixture(&f, 10, 3, 1, &rng));
    round_trip(&f, "wpost-2k V1_2 partition 3, 1 sector of 2", true);
    fixture_free(&f);
    CHECK(make_fixture(&f, 5, 2, 1, &rng));
    round_trip(&f, "wpost-2k V1 partition 2, 1 sector of 2", true);
    fixture_free(&f);
    CHECK(make_fixture(&f, 0, 0, 1, &rng));
    round_trip(&f, "winning-2k", true);
    fixture_free(&f);
    CHECK(make_fixture(&f, 13, 5, 3, &rng));
    round_trip(&f, "wpost-32g V1_2 partition 5, 3 sectors of 2349 (sparse)", false);
    fixture_free(&f);
    CHECK(make_fixture(&f, 3, 0, 1, &rng));
    round_trip(&f, "winning-32g (sparse)", false);
    fixture_free(&f);
    refusals(&rng);
    public_input_refusals(&rng);
    return test_finish("test_filecoin_post_input");
}
