/* Native Poseidon (neptune 11): round numbers, the Grain round constants, the
 * MDS factorisation, filecoin-hashers' vectors, and the optimized hash
 * against the plain specification on random inputs for every arity. */
#include <openssl/evp.h>
#include <pthread.h>
#include <string.h>

#include "czk/gadget_poseidon.h"
#include "czk/poseidon.h"
#include "test.h"

static czk_fr from_limbs(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    uint64_t v[4] = {a, b, c, d};
    czk_fr r;
    if (!czk_fr_from_canonical(&r, v)) czk_fr_set_zero(&r);
    return r;
}

static czk_fr fr(uint64_t v) {
    czk_fr r;
    czk_fr_from_u64(&r, v);
    return r;
}

/* neptune round_numbers.rs test_round_numbers_against_known_values (t, R_P). */
static void test_round_numbers(void) {
    static const unsigned cases[][2] = {{3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},
                                        {9, 57},  {10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57},
                                        {15, 57}, {16, 59}, {17, 59}, {25, 59}, {37, 60}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned rf = 0, rp = 0;
        CHECK(czk_poseidon_round_numbers(cases[i][0] - 1, &rf, &rp));
        CHECK_MSG(rf == 8 && rp == cases[i][1], "t = %u: R_F %u R_P %u", cases[i][0], rf, rp);
    }
    unsigned rf, rp;
    CHECK(!czk_poseidon_round_numbers(1, &rf, &rp));
    CHECK(!czk_poseidon_round_numbers(CZK_POSEIDON_MAX_ARITY + 1, &rf, &rp));
    CHECK(czk_poseidon_constants_get(1) == NULL);
    CHECK(czk_poseidon_constants_get(CZK_POSEIDON_MAX_ARITY + 1) == NULL);
}

static void test_constants(void) {
    const czk_poseidon_constants *c = czk_poseidon_constants_get(8);
    CHECK(c != NULL);
    if (!c) return;
    /* shared/reference/filecoin: the first t = 9 round constant */
    uint8_t be[32], want[32];
    czk_fr_to_bytes_be(be, &c->round_constants[0]);
    CHECK(test_hex_decode(want, 32, "6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9") == 32);
    CHECK(memcmp(be, want, 32) == 0);
    CHECK(c->width == 9 && c->full_rounds == 8 && c->partial_rounds == 57);
    /* all 585: SHA-256 of their 32-byte big-endian encodings, computed from
     * neptune's parameters/round_constants-1-1-255-9-8-57-….txt (the output
     * of the Poseidon authors' create_rcs_grain.sage), and the last one */
    uint8_t all[585 * 32], md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    for (int i = 0; i < 585; i++) czk_fr_to_bytes_be(&all[32 * i], &c->round_constants[i]);
    CHECK(EVP_Digest(all, sizeof all, md, &mdlen, EVP_sha256(), NULL) == 1 && mdlen == 32);
    CHECK(test_hex_decode(want, 32, "53d16e2f1c0141cbfd5d8bfa4cb69abcbbd056d13a523f929a93e981434ee9f7") == 32);
    CHECK_MSG(memcmp(md, want, 32) == 0, "t = 9 round constants digest");
    CHECK(test_hex_decode(want, 32, "3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c") == 32);
    CHECK(memcmp(&all[584 * 32], want, 32) == 0);
    czk_fr tag = fr(255);
    CHECK(czk_fr_equal(&c->domain_tag, &tag));
    for (unsigned a = CZK_POSEIDON_MIN_ARITY; a <= CZK_POSEIDON_MAX_ARITY; a++) {
        c = czk_poseidon_constants_get(a);
        CHECK(c && c->arity == a && c->width == a + 1);
        if (!c) continue;
        unsigned t = c->width;
        /* M is symmetric (neptune relies on it) and M·M^-1 = I */
        bool ok = true;
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++) {
                if (!czk_fr_equal(&c->mds[i][j], &c->mds[j][i])) ok = false;
                czk_fr acc, p;
                czk_fr_set_zero(&acc);
                for (unsigned k = 0; k < t; k++) {
                    czk_fr_mul(&p, &c->mds[i][k], &c->mds_inv[k][j]);
                    czk_fr_add(&acc, &acc, &p);
                }
                if (i == j ? !czk_fr_is_one(&acc) : !czk_fr_is_zero(&acc)) ok = false;
            }
        CHECK_MSG(ok, "arity %u: MDS inverse or symmetry", a);
        /* the cached set equals a fresh computation */
        if (a != 2 && a != 8 && a != 11) continue;
        czk_poseidon_constants *fresh = malloc(sizeof *fresh);
        CHECK(fresh && czk_poseidon_constants_compute(fresh, a) == CZK_OK);
        if (fresh) CHECK(memcmp(fresh, c, sizeof *fresh) == 0);
        free(fresh);
    }
}

static void test_vectors(void) {
    czk_fr in[2], out, want;
    in[0] = fr(0), in[1] = fr(1);
    CHECK(czk_poseidon_hash(&out, in, 2) == CZK_OK);
    want = from_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b);
    CHECK_MSG(czk_fr_equal(&out, &want), "H(0, 1)");
    czk_fr h01 = out;
    in[0] = fr(1), in[1] = fr(0);
    CHECK(czk_poseidon_hash(&out, in, 2) == CZK_OK);
    want = from_limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3);
    CHECK_MSG(czk_fr_equal(&out, &want), "H(1, 0)");
    /* filecoin-hashers test_poseidon_hasher: the root of the tree [1, 0, 0, 1] */
    in[0] = out, in[1] = h01;
    CHECK(czk_poseidon_hash(&out, in, 2) == CZK_OK);
    want = from_limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb);
    CHECK_MSG(czk_fr_equal(&out, &want), "root of [1, 0, 0, 1]");
    const czk_poseidon_constants *c = czk_poseidon_constants_get(2);
    czk_fr corr;
    czk_poseidon_hash_correct(&corr, c, in);
    CHECK(czk_fr_equal(&corr, &want));
    CHECK(czk_poseidon_hash(&out, in, 1) == CZK_ERR_INVALID_ARGUMENT);

    /* filecoin-hashers test_hash_md: PoseidonFunction::hash_md of 71 ones,
     * two arity-36 hashes chained: H(H(1, 1 ×35), 1 ×35) */
    czk_fr md[36];
    for (int i = 0; i < 36; i++) czk_fr_set_one(&md[i]);
    CHECK(czk_poseidon_hash(&md[0], md, 36) == CZK_OK);
    CHECK(czk_poseidon_hash(&out, md, 36) == CZK_OK);
    want = from_limbs(0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7);
    CHECK_MSG(czk_fr_equal(&out, &want), "hash_md of 71 ones (arity 36)");
}

static void test_random(czk_rng *rng) {
    for (unsigned a = CZK_POSEIDON_MIN_ARITY; a <= CZK_POSEIDON_MAX_ARITY; a++) {
        long cases = test_cases(a <= 16 ? 40 : 4);
        const czk_poseidon_constants *c = czk_poseidon_constants_get(a);
        if (!c) continue;
        int bad = 0;
        for (long k = 0; k < cases; k++) {
            czk_fr in[CZK_POSEIDON_MAX_ARITY], x, y;
            for (unsigned i = 0; i < a; i++) {
                if (k == 0) czk_fr_set_zero(&in[i]);
                else czk_fr_random(&in[i], rng);
            }
            czk_poseidon_hash_with(&x, c, in);
            czk_poseidon_hash_correct(&y, c, in);
            if (!czk_fr_equal(&x, &y)) bad++;
        }
        CHECK_MSG(bad == 0, "arity %u: optimized != correct in %d of %ld cases", a, bad, cases);
    }
}

/* Concurrent first use gets one set of constants. */
static void *race(void *arg) {
    (void)arg;
    return (void *)czk_poseidon_constants_get(11);
}

static void test_threads(void) {
    pthread_t th[4];
    void *r[4];
    for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, race, NULL);
    for (int i = 0; i < 4; i++) pthread_join(th[i], &r[i]);
    for (int i = 0; i < 4; i++) CHECK(r[i] != NULL && r[i] == r[0]);
}

/* storage-proofs-update's POSEIDON_CONSTANTS_GEN_RANDOMNESS: Custom(Arbitrary(1))
 * changes only the domain tag (1·2^40, limb 0 = 0x10000000000), so its hash
 * equals the plain specification run with that tag, differs from the
 * MerkleTree hash, and the circuit computes the same value. */
typedef struct {
    czk_fr in[2];
    czk_num out;
} gen_ctx;

static czk_err gen_circuit(czk_cs *cs, void *p) {
    gen_ctx *x = p;
    czk_num in[2];
    czk_err e;
    for (int i = 0; i < 2; i++)
        if ((e = czk_num_alloc(cs, &in[i], &x->in[i]))) return e;
    return czk_poseidon_hash_gadget_with(cs, &x->out, in, czk_poseidon_constants_gen_randomness());
}

static void test_gen_randomness(czk_rng *rng) {
    const czk_poseidon_constants *g = czk_poseidon_constants_gen_randomness(), *m = czk_poseidon_constants_get(2);
    CHECK(g != NULL && m != NULL && g != m);
    if (!g || !m) return;
    CHECK(g == czk_poseidon_constants_gen_randomness());
    czk_fr tag = from_limbs(0x0000010000000000, 0, 0, 0);
    CHECK_MSG(czk_fr_equal(&g->domain_tag, &tag), "GEN_RANDOMNESS domain tag is 2^40");
    tag = fr(3);
    CHECK_MSG(czk_fr_equal(&m->domain_tag, &tag), "MerkleTree arity-2 tag is 3");
    CHECK(g->arity == 2 && g->width == 3 && g->partial_rounds == m->partial_rounds);
    CHECK(memcmp(g->round_constants, m->round_constants, sizeof g->round_constants) == 0);
    CHECK(memcmp(g->mds, m->mds, sizeof g->mds) == 0);
    CHECK(memcmp(g->sparse_w_hat, m->sparse_w_hat, sizeof g->sparse_w_hat) == 0);
    int bad = 0, same = 0;
    for (long k = 0; k < test_cases(20); k++) {
        czk_fr in[2], x, y, z;
        czk_fr_random(&in[0], rng);
        czk_fr_random(&in[1], rng);
        czk_poseidon_hash_with(&x, g, in);
        czk_poseidon_hash_correct(&y, g, in);
        czk_poseidon_hash_with(&z, m, in);
        if (!czk_fr_equal(&x, &y)) bad++;
        if (czk_fr_equal(&x, &z)) same++;
    }
    CHECK_MSG(bad == 0, "GEN_RANDOMNESS: optimized != correct in %d cases", bad);
    CHECK_MSG(same == 0, "GEN_RANDOMNESS hash equals the MerkleTree hash in %d cases", same);

    gen_ctx x;
    czk_fr_random(&x.in[0], rng);
    czk_fr_random(&x.in[1], rng);
    czk_fr native;
    czk_poseidon_hash_with(&native, g, x.in);
    char msg[256] = "";
    czk_r1cs r;
    czk_err e = czk_r1cs_record(&r, gen_circuit, &x, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "record: %s", msg);
    if (e) return;
    CHECK(r.n_constraints == czk_poseidon_gadget_constraints(2));
    CHECK_MSG(x.out.has_value && czk_fr_equal(&x.out.value, &native), "gadget with GEN_RANDOMNESS = native");
    czk_witness w;
    gen_ctx xw = x;
    e = czk_witness_generate(&w, gen_circuit, &xw, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "witness: %s", msg);
    if (e == CZK_OK) {
        CHECK_MSG(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_OK, "satisfied: %s", msg);
        czk_witness_free(&w);
    }
    czk_r1cs_free(&r);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_poseidon");
    test_threads();
    test_round_numbers();
    test_constants();
    test_vectors();
    test_random(&rng);
    test_gen_randomness(&rng);
    return test_finish("test_poseidon");
}
