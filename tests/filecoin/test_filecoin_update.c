/* SnapDeals (filecoin_update.h, filecoin_testseal_update.h):
 *  - Challenges::new against rust-fil-proofs' hard-coded vectors
 *    (challenges.rs test_challenges_against_hardcoded: comm_r_new the first
 *    PoseidonDomain::random of XorShiftRng::from_seed(TEST_SEED)) and against
 *    a derivation here from the specification (Poseidon's plain form, bits
 *    of the canonical limbs); phi and rho likewise;
 *  - the test sealer's 2 KiB sector recomputed here node by node (old
 *    replica, data, rho, encoding, the three trees, comm_r_old, comm_r_new);
 *    its request decodes, and the snap-2k circuit is satisfied (CHECK) with
 *    the public inputs equal to the circuit's inputized values;
 *  - refusals, each naming its field: a flipped leaf_r_new, sibling, index,
 *    apex leaf, comm_r_new, comm_d_new, a value >= r, the encoding with
 *    another h, truncation, trailing bytes, the partition count;
 *  - sparse (periodic) sectors: at 16 KiB and 32 KiB the trees equal the
 *    full trees over the same periodic sector recomputed here; one 8 MiB
 *    partition (4 partitions, h = 10, 128 apex leaves) satisfies snap-8m;
 *    32 GiB: decode and public inputs only (its circuit is 81 M
 *    constraints). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "czk/circuit.h"
#include "czk/circuit_update.h"
#include "czk/filecoin_testseal.h"
#include "czk/filecoin_testseal_update.h"
#include "czk/filecoin_update.h"
#include "czk/gadget_por.h"
#include "czk/poseidon.h"
#include "czk/r1cs.h"
#include "test.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- rand_xorshift 0.3 and blstrs Scalar::random ----------------------------- */

typedef struct {
    uint32_t x, y, z, w;
} xorshift;

static uint32_t xs_u32(xorshift *r) {
    uint32_t x = r->x, t = x ^ (x << 11);
    r->x = r->y;
    r->y = r->z;
    r->z = r->w;
    r->w = r->w ^ (r->w >> 19) ^ (t ^ (t >> 8));
    return r->w;
}

static uint64_t xs_u64(xorshift *r) { /* next_u64_via_u32: low word first */
    uint64_t lo = xs_u32(r), hi = xs_u32(r);
    return hi << 32 | lo;
}

/* Scalar::random: four u64, the top bit masked, rejected until < r. */
static void xs_fr(xorshift *r, czk_fr *out) {
    for (;;) {
        uint64_t raw[4];
        for (int i = 0; i < 4; i++) raw[i] = xs_u64(r);
        raw[3] &= UINT64_MAX >> 1;
        if (czk_fr_from_canonical(out, raw)) return;
    }
}

/* ---- the specification's hashes ------------------------------------------- */

static void gen_rand(czk_fr *out, const czk_fr *a, const czk_fr *b) {
    const czk_fr in[2] = {*a, *b};
    czk_poseidon_hash_correct(out, czk_poseidon_constants_gen_randomness(), in);
}

static void spec_challenges(uint64_t nodes, const czk_fr *comm_r_new, uint32_t k, uint32_t count, uint64_t *out) {
    unsigned cbl = 0, pbl = 0;
    while ((1ull << cbl) < nodes) cbl++;
    uint32_t parts = nodes <= 256 ? 1 : nodes <= 1024 ? 2 : nodes <= (1u << 19) ? 4 : 16;
    uint32_t chal = nodes <= (1u << 19) ? 10 : 86;
    while ((1u << pbl) < parts) pbl++;
    unsigned bits = cbl - pbl, per = 254 / bits;
    uint64_t digest = (uint64_t)k * ((chal + per - 1) / per);
    for (uint32_t n = 0; n < count; n++) {
        unsigned i = n % per;
        if (n && i == 0) digest++;
        czk_fr j, d;
        czk_fr_from_u64(&j, digest);
        gen_rand(&d, comm_r_new, &j);
        uint64_t limbs[4], c = 0;
        czk_fr_to_canonical(limbs, &d);
        for (unsigned b = 0; b < bits; b++) c |= ((limbs[(i * bits + b) / 64] >> ((i * bits + b) % 64)) & 1) << b;
        out[n] = c | (uint64_t)k << bits;
    }
}

static void test_challenge_vectors(void) {
    static const uint8_t TEST_SEED[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                          0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};
    xorshift r;
    memcpy(&r.x, TEST_SEED, 4), memcpy(&r.y, TEST_SEED + 4, 4), memcpy(&r.z, TEST_SEED + 8, 4),
        memcpy(&r.w, TEST_SEED + 12, 4); /* le::read_u32_into (a little-endian host) */
    czk_fr comm;
    xs_fr(&r, &comm);
    uint8_t cb[32];
    czk_fr_to_bytes_le(cb, &comm);
    static const struct {
        unsigned log_nodes, k;
        uint64_t want[5];
    } V[] = {
        {5, 0, {21, 7, 3, 31, 0}},
        {6, 0, {53, 51, 56, 3, 0}},
        {7, 0, {117, 25, 62, 0, 72}},
        {8, 0, {245, 140, 15, 128, 28}},
        {9, 0, {245, 140, 15, 128, 28}},
        {9, 1, {286, 308, 493, 510, 508}},
        {10, 0, {245, 454, 3, 400, 193}},
        {10, 1, {542, 666, 955, 927, 911}},
        {18, 0, {36085, 32783, 44060, 10950, 3731}},
        {18, 1, {78878, 130797, 112892, 93994, 78379}},
        {19, 0, {101621, 16391, 109319, 25944, 41193}},
        {19, 1, {209950, 163702, 175679, 224741, 197410}},
        {24, 0, {1019125, 116736, 706220, 59698, 799498}},
        {24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
        {24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
        {24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
        {30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
        {30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
        {30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
        {30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
        {31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
        {31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
        {31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
        {31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
    };
    size_t ok = 0;
    for (size_t v = 0; v < sizeof V / sizeof V[0]; v++) {
        uint64_t got[5], spec[5];
        czk_err e = czk_fil_update_challenges(1ull << V[v].log_nodes, cb, V[v].k, 5, got);
        spec_challenges(1ull << V[v].log_nodes, &comm, V[v].k, 5, spec);
        CHECK_MSG(e == CZK_OK && !memcmp(got, V[v].want, sizeof got), "2^%u nodes, k = %u: %llu %llu %llu …",
                  V[v].log_nodes, V[v].k, (unsigned long long)got[0], (unsigned long long)got[1],
                  (unsigned long long)got[2]);
        CHECK(!memcmp(spec, V[v].want, sizeof spec));
        ok += e == CZK_OK && !memcmp(got, V[v].want, sizeof got);
    }
    printf("challenges: %zu of %zu rust-fil-proofs vectors\n", ok, sizeof V / sizeof V[0]);
    /* all of a partition's challenges, across digests, against the specification */
    czk_rng rng;
    czk_rng_seed(&rng, 7);
    for (int t = 0; t < 20; t++) {
        czk_fr c;
        czk_fr_random(&c, &rng);
        czk_fr_to_bytes_le(cb, &c);
        const unsigned logs[4] = {6, 18, 30, 31};
        unsigned ln = logs[t % 4];
        uint32_t parts = ln <= 8 ? 1 : ln <= 19 ? 4 : 16, k = (uint32_t)(t * 7) % parts, n = ln >= 24 ? 86 : 10;
        uint64_t got[86], spec[86];
        CHECK(czk_fil_update_challenges(1ull << ln, cb, k, n, got) == CZK_OK);
        spec_challenges(1ull << ln, &c, k, n, spec);
        CHECK(!memcmp(got, spec, n * sizeof *got));
        for (uint32_t i = 0; i < n; i++) CHECK(got[i] >> (ln - (parts == 1 ? 0 : parts == 4 ? 2 : 4)) == k);
    }
    uint64_t x[1];
    CHECK(czk_fil_update_challenges(1ull << 30, cb, 16, 1, x) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_update_challenges(1ull << 20, cb, 0, 1, x) == CZK_ERR_INVALID_ARGUMENT);
    memset(cb, 0xff, 32);
    CHECK(czk_fil_update_challenges(1ull << 30, cb, 0, 1, x) == CZK_ERR_NOT_CANONICAL);
}

static void test_phi_rho(void) {
    czk_rng rng;
    czk_rng_seed(&rng, 11);
    for (int t = 0; t < 8; t++) {
        czk_fr d, r, phi, rho, hi;
        czk_fr_random(&d, &rng);
        czk_fr_random(&r, &rng);
        uint8_t db[32], rb[32], pb[32], hb[32], want[32];
        czk_fr_to_bytes_le(db, &d);
        czk_fr_to_bytes_le(rb, &r);
        CHECK(czk_fil_update_phi(db, rb, pb) == CZK_OK);
        gen_rand(&phi, &d, &r);
        czk_fr_to_bytes_le(want, &phi);
        CHECK(!memcmp(pb, want, 32));
        uint32_t high = t ? (uint32_t)czk_rng_next(&rng) % 4096 : 0;
        CHECK(czk_fil_update_rho(pb, high, hb) == CZK_OK);
        czk_fr_from_u64(&hi, high);
        gen_rand(&rho, &phi, &hi);
        czk_fr_to_bytes_le(want, &rho);
        CHECK(!memcmp(hb, want, 32));
    }
    uint8_t bad[32], ok[32] = {0}, o[32];
    memset(bad, 0xff, 32);
    CHECK(czk_fil_update_phi(bad, ok, o) == CZK_ERR_NOT_CANONICAL);
    CHECK(czk_fil_update_phi(ok, bad, o) == CZK_ERR_NOT_CANONICAL);
    CHECK(czk_fil_update_rho(bad, 1, o) == CZK_ERR_NOT_CANONICAL);
}

/* ---- a sector recomputed here ---------------------------------------------- */

/* The root of the whole tree over n leaves (overwritten). */
static void tree_root(czk_hasher h, const uint8_t *arity, unsigned levels, uint8_t (*v)[32], size_t n,
                      uint8_t root[32]) {
    for (unsigned l = 0; l < levels; l++) {
        unsigned a = arity[l];
        for (size_t i = 0; i < n / a; i++) {
            czk_fr ch[8], out;
            for (unsigned j = 0; j < a; j++) czk_domain_to_fr(&ch[j], v[i * a + j]);
            czk_hasher_node(h, &out, ch, a);
            czk_domain_from_fr(v[i], &out);
        }
        n /= a;
    }
    memcpy(root, v[0], 32);
}

static void poseidon2(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]) {
    czk_fr in[2], o;
    czk_domain_to_fr(&in[0], a);
    czk_domain_to_fr(&in[1], b);
    czk_poseidon_hash_correct(&o, czk_poseidon_constants_get(2), in);
    czk_domain_from_fr(out, &o);
}

/* Recomputes the sealed sector's commitments from the node derivations. */
static void recompute(const czk_fil_update_proof *p, uint64_t seed, const czk_fil_testseal_update_info *info,
                      const char *what) {
    const uint64_t nodes = p->sector_size / 32, period = info->period;
    unsigned cbl = 0;
    while ((1ull << cbl) < nodes) cbl++;
    uint8_t(*old)[32] = malloc(nodes * 32), (*data)[32] = malloc(nodes * 32), (*enc)[32] = malloc(nodes * 32);
    CHECK(old && data && enc);
    if (!old || !data || !enc) goto out;
    for (uint64_t i = 0; i < nodes; i++) {
        czk_fil_testseal_update_old(seed, period, i, old[i]);
        czk_fil_testseal_data(seed, period, i, data[i]);
    }
    uint8_t ad[64], ar[64], root[32], comm[32], phi_b[32];
    unsigned nr = 0;
    for (unsigned l = 0; l < cbl; l++) ad[l] = 2;
    for (uint64_t left = nodes / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1); left > 1; left /= 8)
        ar[nr++] = 8;
    if (p->tree_sub) ar[nr++] = p->tree_sub;
    if (p->tree_top) ar[nr++] = p->tree_top;
    memcpy(enc, data, nodes * 32);
    tree_root(CZK_HASHER_SHA256, ad, cbl, enc, nodes, root);
    CHECK_MSG(!memcmp(root, info->comm_d_new, 32), "%s: comm_d_new", what);
    memcpy(enc, old, nodes * 32);
    tree_root(CZK_HASHER_POSEIDON, ar, nr, enc, nodes, root);
    CHECK_MSG(!memcmp(root, info->root_r_old, 32), "%s: root_r_old", what);
    poseidon2(comm, info->comm_c, root);
    CHECK_MSG(!memcmp(comm, info->comm_r_old, 32), "%s: comm_r_old", what);
    czk_fr d, r, phi;
    czk_domain_to_fr(&d, info->comm_d_new);
    czk_domain_to_fr(&r, comm);
    gen_rand(&phi, &d, &r);
    czk_fr_to_bytes_le(phi_b, &phi);
    CHECK_MSG(!memcmp(phi_b, info->phi, 32), "%s: phi", what);
    const unsigned shr = cbl - p->h;
    czk_fr rho = {{0}};
    for (uint64_t i = 0; i < nodes; i++) {
        if (i % (1ull << shr) == 0) {
            czk_fr hi;
            czk_fr_from_u64(&hi, i >> shr);
            gen_rand(&rho, &phi, &hi);
        }
        czk_fr o, x;
        czk_domain_to_fr(&o, old[i]);
        czk_domain_to_fr(&x, data[i]);
        czk_fr_mul(&x, &x, &rho);
        czk_fr_add(&o, &o, &x);
        czk_domain_from_fr(enc[i], &o);
    }
    tree_root(CZK_HASHER_POSEIDON, ar, nr, enc, nodes, root);
    CHECK_MSG(!memcmp(root, info->root_r_new, 32), "%s: root_r_new", what);
    poseidon2(comm, info->comm_c, root);
    CHECK_MSG(!memcmp(comm, info->comm_r_new, 32), "%s: comm_r_new", what);
out:
    free(old);
    free(data);
    free(enc);
}

/* ---- decode, refusals ----------------------------------------------------------- */

typedef struct {
    const czk_fil_update_proof *p;
    czk_fil_request r;
} sealed;

static czk_err decode(const sealed *s, const czk_fil_bytes *v, size_t n, czk_fil_update_partition **parts, char *msg,
                      size_t msglen) {
    return czk_fil_update_decode(s->p, s->r.comm_r_old.data, s->r.comm_d_new.data, s->r.comm_r_new.data, v, n, parts,
                                 msg, msglen);
}

/* decode must fail with code e and a message containing want */
static void refused(const sealed *s, const czk_fil_bytes *v, size_t n, czk_err e, const char *want, const char *what) {
    char msg[512] = "";
    czk_fil_update_partition *parts = (void *)1;
    czk_err got = decode(s, v, n, &parts, msg, sizeof msg);
    CHECK_MSG(got == e && strstr(msg, want) && parts == NULL, "%s: %s (%s), want %s '%s'", what, czk_err_str(got),
              msg, czk_err_str(e), want);
    if (got == CZK_OK) czk_fil_update_partitions_free(parts, n);
    else if (got == e && strstr(msg, want)) printf("  refused, %s: %s\n", what, msg);
}

/* Re-encodes partition 0 of parts after mutate, then expects the refusal. */
typedef void (*mutate_fn)(czk_fil_update_partition *q);
static void refused_mutated(const sealed *s, mutate_fn m, czk_err e, const char *want, const char *what) {
    char msg[512];
    czk_fil_update_partition *copy = NULL;
    CHECK(decode(s, s->r.vanilla_proofs, s->r.n_vanilla_proofs, &copy, msg, sizeof msg) == CZK_OK);
    if (!copy) return;
    m(&copy[0]);
    czk_fil_bytes *v = malloc(s->r.n_vanilla_proofs * sizeof *v);
    memcpy(v, s->r.vanilla_proofs, s->r.n_vanilla_proofs * sizeof *v);
    CHECK(czk_fil_update_encode_partition(s->p, &copy[0], &v[0]) == CZK_OK);
    refused(s, v, s->r.n_vanilla_proofs, e, want, what);
    free(v[0].data);
    free(v);
    czk_fil_update_partitions_free(copy, s->r.n_vanilla_proofs);
}

#define CP "vanilla_proofs[0].challenge_proofs"

static void flip_leaf_r_new(czk_fil_update_partition *q) { q->challenges[3].leaf_r_new[0] ^= 1; }
static void flip_sibling(czk_fil_update_partition *q) { q->challenges[2].path_r_old.levels[1].siblings[4][5] ^= 1; }
static void flip_d_sibling(czk_fil_update_partition *q) { q->challenges[1].path_d_new.levels[0].siblings[0][0] ^= 1; }
static void flip_index(czk_fil_update_partition *q) {
    czk_fil_path_level *l = &q->challenges[4].path_r_new.levels[0];
    l->index = (uint8_t)((l->index + 1) % l->arity);
}
static void flip_apex(czk_fil_update_partition *q) { q->apex_leafs[5][3] ^= 0x10; }
static void big_leaf(czk_fil_update_partition *q) { memset(q->challenges[6].leaf_r_old, 0xff, 32); }
static void big_comm_c(czk_fil_update_partition *q) { memset(q->comm_c, 0xff, 31), q->comm_c[31] = 0x73; }

static void seal(sealed *s, uint64_t id, uint64_t seed, bool sparse, uint32_t h, czk_fil_testseal_update_info *info) {
    char msg[256] = "";
    s->p = czk_fil_update_proof_get(id);
    czk_fil_testseal_update_opts o = {.proof = s->p, .seed = seed, .sparse = sparse, .h = h};
    czk_err e = czk_fil_testseal_update(&o, &s->r, info, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "testseal %s: %s", s->p->name, msg);
}

/* The circuit's inputized values against czk_fil_update_public_inputs. */
static void check_circuit(const char *id, const sealed *s, czk_fil_update_partition *parts, size_t k) {
    char msg[512] = "";
    czk_circuit c;
    CHECK_MSG(czk_circuit_find(&c, id, msg, sizeof msg) == CZK_OK, "%s", msg);
    double t0 = now();
    czk_err e = czk_circuit_check_input(&c, k, parts, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s partition %zu: CHECK: %s", id, k, msg);
    printf("%s partition %zu: CHECK %s (%.1f s)\n", id, k, e ? "failed" : "satisfied", now() - t0);
    czk_witness w;
    e = czk_circuit_witness_input(&c, k, parts, &w, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s witness: %s", id, msg);
    if (e) return;
    czk_fr want[4];
    size_t n = 0;
    e = czk_fil_update_public_inputs(s->p, (uint32_t)k, s->r.comm_r_old.data, s->r.comm_d_new.data,
                                     s->r.comm_r_new.data, want, 4, &n, msg, sizeof msg);
    CHECK(e == CZK_OK && n == 4 && w.n_input == 5);
    size_t same = 0;
    for (size_t i = 0; i < 4 && i + 1 < w.n_input; i++) same += czk_fr_equal(&w.input[i + 1], &want[i]);
    CHECK_MSG(same == 4, "%s: %zu of 4 public inputs as the circuit's", id, same);
    printf("%s partition %zu: %zu aux, public inputs as the circuit's: %zu of 4\n", id, k, w.n_aux, same);
    czk_witness_free(&w);
}

static void test_2k(void) {
    czk_fil_testseal_update_info info;
    sealed s = {0};
    const uint64_t seed = 0x5eed;
    seal(&s, 0, seed, false, 0, &info);
    if (!s.r.n_vanilla_proofs) return;
    CHECK(s.r.kind == CZK_FIL_KIND_SNAP && s.r.registered_proof == 0 && s.r.n_vanilla_proofs == 1);
    CHECK(s.r.comm_r_old.len == 32 && !memcmp(s.r.comm_r_old.data, info.comm_r_old, 32));
    CHECK(s.r.comm_r_new.len == 32 && !memcmp(s.r.comm_r_new.data, info.comm_r_new, 32));
    CHECK(s.r.comm_d_new.len == 32 && !memcmp(s.r.comm_d_new.data, info.comm_d_new, 32));
    /* bincode size: comm_c 32, apex 8 + 8·32, challenges 8 + 10 · (556 + 364 + 556) */
    CHECK_MSG(s.r.vanilla_proofs[0].len == 32 + 8 + 256 + 8 + 10 * 1476, "2 KiB PartitionProof: %zu bytes",
              s.r.vanilla_proofs[0].len);
    recompute(s.p, seed, &info, "2 KiB");

    char msg[512] = "";
    czk_fil_update_partition *parts = NULL;
    czk_err e = decode(&s, s.r.vanilla_proofs, 1, &parts, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "decode: %s", msg);
    if (e) return;
    const czk_fil_update_partition *q = &parts[0];
    CHECK(q->k == 0 && q->h == 1 && !q->poseidon && q->n_apex == 8 && q->n_challenges == 10);
    CHECK(!memcmp(q->comm_c, info.comm_c, 32) && !memcmp(q->root_r_old, info.root_r_old, 32) &&
          !memcmp(q->root_r_new, info.root_r_new, 32));
    uint64_t chal[10];
    CHECK(czk_fil_update_challenges(64, info.comm_r_new, 0, 10, chal) == CZK_OK);
    for (int c = 0; c < 10; c++) {
        /* the encoding, recomputed from the derivations */
        uint8_t o[32], d[32], want[32];
        czk_fil_testseal_update_old(seed, 64, chal[c], o);
        czk_fil_testseal_data(seed, 64, chal[c], d);
        czk_fr fo, fd, phi, hi, rho;
        czk_domain_to_fr(&fo, o);
        czk_domain_to_fr(&fd, d);
        czk_domain_to_fr(&phi, info.phi);
        czk_fr_from_u64(&hi, chal[c] >> 5);
        gen_rand(&rho, &phi, &hi);
        czk_fr_mul(&fd, &fd, &rho);
        czk_fr_add(&fo, &fo, &fd);
        czk_domain_from_fr(want, &fo);
        CHECK(!memcmp(q->challenges[c].leaf_r_old, o, 32) && !memcmp(q->challenges[c].leaf_d_new, d, 32));
        CHECK(!memcmp(q->challenges[c].leaf_r_new, want, 32));
    }
    /* encode(decode(x)) = x */
    czk_fil_bytes again;
    CHECK(czk_fil_update_encode_partition(s.p, q, &again) == CZK_OK);
    CHECK(again.len == s.r.vanilla_proofs[0].len && !memcmp(again.data, s.r.vanilla_proofs[0].data, again.len));
    free(again.data);

    check_circuit("snap-2k", &s, parts, 0);
    /* the circuit refuses a leaf_r_new that is not the encoding */
    parts[0].challenges[2].leaf_r_new[0] ^= 1;
    czk_circuit c;
    CHECK(czk_circuit_find(&c, "snap-2k", msg, sizeof msg) == CZK_OK);
    e = czk_circuit_check_input(&c, 0, parts, msg, sizeof msg);
    CHECK_MSG(e != CZK_OK && strstr(msg, "challenge 2"), "snap-2k with a wrong leaf_r_new: %s", msg);
    parts[0].challenges[2].leaf_r_new[0] ^= 1;

    /* public inputs */
    czk_fr in[4];
    size_t n = 0;
    CHECK(czk_fil_update_public_inputs(s.p, 0, info.comm_r_old, info.comm_d_new, info.comm_r_new, NULL, 0, &n, msg,
                                       sizeof msg) == CZK_ERR_BAD_LENGTH && n == 4);
    CHECK(czk_fil_update_public_inputs(s.p, 1, info.comm_r_old, info.comm_d_new, info.comm_r_new, in, 4, &n, msg,
                                       sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_update_input_count() == 4);

    /* refusals */
    refused_mutated(&s, flip_leaf_r_new, CZK_ERR_MISMATCH,
                    CP "[3].proof_r_new: its path does not hash", "flipped leaf_r_new");
    refused_mutated(&s, flip_sibling, CZK_ERR_MISMATCH,
                    CP "[2].proof_r_old: its path does not hash", "flipped sibling");
    refused_mutated(&s, flip_d_sibling, CZK_ERR_MISMATCH,
                    CP "[1].proof_d_new: its path does not hash", "flipped tree D sibling");
    refused_mutated(&s, flip_index, CZK_ERR_MISMATCH, CP "[4].proof_r_new: opens node",
                    "another index");
    refused_mutated(&s, flip_apex, CZK_ERR_MISMATCH, "apex_leafs", "flipped apex leaf");
    refused_mutated(&s, big_leaf, CZK_ERR_NOT_CANONICAL, CP "[6].proof_r_old.leaf",
                    "leaf_r_old >= r");
    refused_mutated(&s, big_comm_c, CZK_ERR_NOT_CANONICAL, "vanilla_proofs[0].comm_c", "comm_c >= r");
    {
        sealed t = s;
        uint8_t other[32];
        memcpy(other, s.r.comm_r_new.data, 32);
        other[1] ^= 1;
        t.r.comm_r_new.data = other;
        refused(&t, s.r.vanilla_proofs, 1, CZK_ERR_MISMATCH, "comm_r_new: not Poseidon(comm_c, root_r_new)",
                "another comm_r_new");
        memcpy(other, s.r.comm_d_new.data, 32);
        other[2] ^= 1;
        t.r.comm_r_new = s.r.comm_r_new;
        t.r.comm_d_new.data = other;
        refused(&t, s.r.vanilla_proofs, 1, CZK_ERR_MISMATCH, "challenge_proofs[0].proof_d_new.root: not comm_d_new",
                "another comm_d_new");
        other[31] = 0x40; /* < r, but no trimmed SHA-256 digest */
        refused(&t, s.r.vanilla_proofs, 1, CZK_ERR_NOT_CANONICAL, "comm_d_new: its top two bits",
                "comm_d_new top bits");
        memcpy(other, s.r.comm_r_old.data, 32);
        other[0] ^= 1;
        t.r.comm_d_new = s.r.comm_d_new;
        t.r.comm_r_old.data = other;
        refused(&t, s.r.vanilla_proofs, 1, CZK_ERR_MISMATCH, "comm_r_old: not Poseidon(comm_c, root_r_old)",
                "another comm_r_old");
        memset(other, 0xff, 32);
        refused(&t, s.r.vanilla_proofs, 1, CZK_ERR_NOT_CANONICAL, "comm_r_old: not a canonical", "comm_r_old >= r");
    }
    {
        czk_fil_bytes v = s.r.vanilla_proofs[0];
        v.len--;
        refused(&s, &v, 1, CZK_ERR_FORMAT, "truncated", "truncated by one byte");
        v.len = 1000;
        refused(&s, &v, 1, CZK_ERR_FORMAT, CP ": truncated", "truncated to 1000 bytes");
        v.len = 0;
        refused(&s, &v, 1, CZK_ERR_FORMAT, "vanilla_proofs[0].comm_c", "empty");
        uint8_t *longer = malloc(s.r.vanilla_proofs[0].len + 3);
        memcpy(longer, s.r.vanilla_proofs[0].data, s.r.vanilla_proofs[0].len);
        memset(longer + s.r.vanilla_proofs[0].len, 0, 3);
        v.data = longer;
        v.len = s.r.vanilla_proofs[0].len + 3;
        refused(&s, &v, 1, CZK_ERR_FORMAT, "3 trailing bytes", "trailing bytes");
        /* the apex leaves' count: the length field after comm_c */
        memcpy(longer, s.r.vanilla_proofs[0].data, s.r.vanilla_proofs[0].len);
        longer[32] = 7;
        v.len = s.r.vanilla_proofs[0].len;
        refused(&s, &v, 1, CZK_ERR_MISMATCH, "vanilla_proofs[0].apex_leafs: 7 apex leaves", "7 apex leaves");
        free(longer);
        czk_fil_bytes two[2] = {s.r.vanilla_proofs[0], s.r.vanilla_proofs[0]};
        refused(&s, two, 2, CZK_ERR_BAD_LENGTH, "vanilla_proofs: 2 partition proofs, StackedDrg2KiBV1 takes 1",
                "two partitions");
        refused(&s, two, 0, CZK_ERR_BAD_LENGTH, "vanilla_proofs: 0 partition proofs", "no partitions");
    }
    czk_fil_update_partitions_free(parts, 1);
    czk_fil_request_free(&s.r);

    /* a replica encoded with h = 2 instead of h_default = 1: rho differs above node 15 */
    sealed w = {0};
    seal(&w, 0, seed, false, 2, NULL);
    if (w.r.n_vanilla_proofs) {
        char want[96];
        CHECK(czk_fil_update_challenges(64, w.r.comm_r_new.data, 0, 10, chal) == CZK_OK);
        int i = 0;
        while (i < 10 && (chal[i] >> 4) == (chal[i] >> 5)) i++;
        snprintf(want, sizeof want, "challenge_proofs[%d].proof_r_new.leaf: not the encoding", i);
        if (i < 10) refused(&w, w.r.vanilla_proofs, 1, CZK_ERR_MISMATCH, want, "encoded with h = 2");
    }
    czk_fil_request_free(&w.r);
}

/* Sparse sectors of the test sizes 16 KiB (8-8-0) and 32 KiB (8-8-2), which
 * no registered proof has: their periodic trees against the full trees over
 * the same sector, and their proofs decode. At 32 KiB (h = 1: two rho
 * regions of 512 nodes) the sub-tree level lies above the period and within
 * a region, the top level above a region: each class of node. */
static void test_sparse_small(void) {
    static const czk_fil_update_proof P[2] = {
        {.id = 100, .name = "test16KiB", .sector_size = 16384, .partitions = 2, .challenges_per_partition = 10,
         .h = 1, .tree_base = 8, .tree_sub = 8, .tree_top = 0},
        {.id = 101, .name = "test32KiB", .sector_size = 32768, .partitions = 2, .challenges_per_partition = 10,
         .h = 1, .tree_base = 8, .tree_sub = 8, .tree_top = 2},
    };
    for (int i = 0; i < 2; i++) {
        char msg[512] = "";
        czk_fil_testseal_update_info info;
        sealed s = {.p = &P[i]};
        czk_fil_testseal_update_opts o = {.proof = &P[i], .seed = 99 + (uint64_t)i, .sparse = true};
        CHECK_MSG(czk_fil_testseal_update(&o, &s.r, &info, msg, sizeof msg) == CZK_OK, "%s: %s", P[i].name, msg);
        if (!s.r.n_vanilla_proofs) continue;
        CHECK(info.period == CZK_FIL_TESTSEAL_UPDATE_PERIOD && s.r.n_vanilla_proofs == 2);
        recompute(&P[i], o.seed, &info, P[i].name);
        czk_fil_update_partition *parts = NULL;
        czk_err e = decode(&s, s.r.vanilla_proofs, 2, &parts, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "sparse %s decode: %s", P[i].name, msg);
        czk_fil_update_partitions_free(parts, 2);
        czk_fil_request_free(&s.r);
    }
}

static void test_sparse(void) {
    czk_fil_testseal_update_info info;
    sealed s = {0};
    double t0 = now();
    seal(&s, 1, 42, true, 0, &info);
    printf("sparse 8 MiB: sealed in %.2f s (%llu nodes hashed, period %llu)\n", now() - t0,
           (unsigned long long)info.hashed, (unsigned long long)info.period);
    if (!s.r.n_vanilla_proofs) return;
    CHECK(info.period == CZK_FIL_TESTSEAL_UPDATE_PERIOD && s.r.n_vanilla_proofs == 4);
    char msg[512] = "";
    czk_fil_update_partition *parts = NULL;
    czk_err e = decode(&s, s.r.vanilla_proofs, 4, &parts, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "sparse 8 MiB decode: %s", msg);
    if (!e) {
        check_circuit("snap-8m", &s, parts, 2);
        czk_fil_update_partitions_free(parts, 4);
    }
    /* the partitions in another order */
    czk_fil_bytes swapped[4] = {s.r.vanilla_proofs[1], s.r.vanilla_proofs[0], s.r.vanilla_proofs[2],
                                s.r.vanilla_proofs[3]};
    refused(&s, swapped, 4, CZK_ERR_MISMATCH, CP "[0].proof_r_old: opens node",
            "partitions swapped");
    czk_fil_request_free(&s.r);

    /* 32 GiB: decode and public inputs */
    t0 = now();
    seal(&s, 3, 7, true, 0, &info);
    printf("sparse 32 GiB: sealed in %.2f s (%llu nodes hashed)\n", now() - t0, (unsigned long long)info.hashed);
    if (!s.r.n_vanilla_proofs) return;
    CHECK(s.r.n_vanilla_proofs == 16);
    t0 = now();
    e = decode(&s, s.r.vanilla_proofs, 16, &parts, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "sparse 32 GiB decode: %s", msg);
    printf("sparse 32 GiB: decoded in %.2f s (%zu bytes of vanilla proof per partition)\n", now() - t0,
           s.r.vanilla_proofs[0].len);
    if (!e) {
        for (uint32_t k = 0; k < 16; k++) {
            CHECK(parts[k].k == k && parts[k].h == 10 && parts[k].n_apex == 128 && parts[k].n_challenges == 86);
            czk_fr in[4], want;
            size_t n;
            CHECK(czk_fil_update_public_inputs(s.p, k, s.r.comm_r_old.data, s.r.comm_d_new.data, s.r.comm_r_new.data,
                                               in, 4, &n, msg, sizeof msg) == CZK_OK);
            czk_fr_from_u64(&want, k | 8u << 4); /* h = 10 is hs[3]: h_select 8, above 4 partition bits */
            CHECK(czk_fr_equal(&in[0], &want));
            uint64_t hsel;
            CHECK(czk_update_h_select(1ull << 30, 10, &hsel) == CZK_OK && hsel == 8);
            for (int i = 0; i < 3; i++) {
                const uint8_t *cm = i == 0 ? s.r.comm_r_old.data : i == 1 ? s.r.comm_d_new.data : s.r.comm_r_new.data;
                czk_fr_from_bytes_le(&want, cm);
                CHECK(czk_fr_equal(&in[1 + i], &want));
            }
        }
        czk_fil_update_partitions_free(parts, 16);
    }
    czk_fil_request_free(&s.r);
    /* full mode refuses 32 GiB */
    czk_fil_testseal_update_opts o = {.proof = czk_fil_update_proof_get(3), .seed = 1};
    CHECK(czk_fil_testseal_update(&o, &s.r, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "sparse"));
}

int main(void) {
    test_challenge_vectors();
    test_phi_rho();
    test_2k();
    test_sparse_small();
    test_sparse();
    return test_finish("test_filecoin_update");
}
