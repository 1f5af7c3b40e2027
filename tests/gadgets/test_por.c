/* PoR (storage-proofs-core gadgets::por) on real trees built natively:
 * Poseidon base 2/4/8 with sub/top variants and SHA-256 binary trees. The
 * constraint counts are storage-proofs-core's own (tests/por_circuit.rs,
 * 64 leaves per base tree); the circuit accepts the right path with the
 * public inputs PoRCompound generates, and rejects a wrong leaf and a wrong
 * root. por_no_challenge_input likewise. */
#include <string.h>

#include "czk/gadget_por.h"
#include "czk/mem.h"
#include "test.h"

/* A complete tree with per-level arities: nodes[l] holds level l (0 = leaves). */
typedef struct {
    czk_por_shape s;
    size_t levels;
    unsigned arity[16];
    czk_fr *nodes[17];
    size_t count[17];
} tree;

static void tree_build(tree *t, const czk_por_shape *s, czk_rng *rng) {
    memset(t, 0, sizeof *t);
    t->s = *s;
    t->levels = czk_por_path_len(s);
    size_t n = (size_t)czk_por_leaves(s);
    for (size_t l = 0; l < t->levels; l++) t->arity[l] = czk_por_level_arity(s, l);
    t->count[0] = n;
    t->nodes[0] = malloc(n * sizeof(czk_fr));
    for (size_t i = 0; i < n; i++) czk_fr_random(&t->nodes[0][i], rng);
    for (size_t l = 0; l < t->levels; l++) {
        size_t m = t->count[l] / t->arity[l];
        t->count[l + 1] = m;
        t->nodes[l + 1] = malloc(m * sizeof(czk_fr));
        for (size_t k = 0; k < m; k++)
            CHECK(czk_hasher_node(s->hasher, &t->nodes[l + 1][k], &t->nodes[l][k * t->arity[l]], t->arity[l]) ==
                  CZK_OK);
    }
    CHECK(t->count[t->levels] == 1);
}

static void tree_free(tree *t) {
    for (size_t l = 0; l <= t->levels; l++) free(t->nodes[l]);
}

static void tree_path(const tree *t, uint64_t c, czk_por_path_elem *path) {
    uint64_t pos = c;
    for (size_t l = 0; l < t->levels; l++) {
        unsigned a = t->arity[l];
        uint64_t first = pos / a * a;
        path[l].index = (unsigned)(pos % a);
        for (unsigned i = 0, k = 0; i < a; i++)
            if (i != path[l].index) path[l].siblings[k++] = t->nodes[l][first + i];
        pos /= a;
    }
}

typedef struct {
    const czk_por_shape *s;
    const czk_fr *leaf, *root;
    const czk_por_path_elem *path;
    bool private_root;
} por_ctx;

static czk_err por_fn(czk_cs *cs, void *p) {
    por_ctx *x = p;
    return czk_por_circuit(cs, x->s, x->leaf, x->path, x->root, x->private_root);
}

/* variants 2: public and private root; 1: public only (the large SHA-256 trees) */
static void test_shape(czk_hasher h, unsigned base, unsigned sub, unsigned top, size_t want, int variants,
                       czk_rng *rng) {
    unsigned lg = base == 2 ? 1 : base == 4 ? 2 : 3;
    czk_por_shape s = {h, base, sub, top, 6 / lg}; /* 64 leaves per base tree */
    char msg[256] = "";
    CHECK(czk_por_shape_check(&s, msg, sizeof msg) == CZK_OK);
    tree t;
    tree_build(&t, &s, rng);
    const czk_fr *root = &t.nodes[t.levels][0];
    czk_por_path_elem path[16];
    uint64_t leaves = czk_por_leaves(&s);
    uint64_t c = czk_rng_next(rng) % leaves;
    tree_path(&t, c, path);
    czk_fr r2;
    CHECK(czk_por_root(&r2, &s, &t.nodes[0][c], path) == CZK_OK && czk_fr_equal(&r2, root));

    for (int priv = 0; priv < variants; priv++) {
        por_ctx x = {&s, &t.nodes[0][c], root, path, priv};
        size_t want_c = want - (size_t)priv;
        /* the blank circuit (no values) */
        por_ctx blank = {&s, NULL, NULL, NULL, priv};
        czk_r1cs r;
        czk_err e = czk_r1cs_record(&r, por_fn, &blank, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "record: %s", msg);
        if (e) continue;
        CHECK_MSG(r.n_constraints == want_c, "hasher %d %u/%u/%u private %d: %zu constraints, want %zu", (int)h, base,
                  sub, top, priv, r.n_constraints, want_c);
        CHECK(r.n_inputs == (size_t)(priv ? 2 : 3));
        czk_witness w;
        e = czk_witness_generate(&w, por_fn, &x, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "witness: %s", msg);
        if (e == CZK_OK) {
            CHECK(czk_r1cs_is_satisfied(&r, &w, msg, sizeof msg) == CZK_OK);
            czk_fr pub[2];
            size_t np = czk_por_public_inputs(pub, c, root, priv);
            CHECK(w.n_input == np + 1);
            for (size_t i = 0; i < np && i + 1 < w.n_input; i++) CHECK(czk_fr_equal(&w.input[i + 1], &pub[i]));
            czk_witness_free(&w);
        }
        czk_r1cs_free(&r);
        e = czk_cs_check(por_fn, &x, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "check: %s", msg);
        /* a wrong leaf, and a wrong root, are unsatisfied at the root check */
        czk_fr bad;
        czk_fr_add(&bad, x.leaf, &CZK_FR_ONE);
        por_ctx wrong = x;
        wrong.leaf = &bad;
        e = czk_cs_check(por_fn, &wrong, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_UNSATISFIED && strstr(msg, "enforce root is correct"), "wrong leaf: %d %s", (int)e, msg);
        wrong = x;
        czk_fr_add(&bad, root, &CZK_FR_ONE);
        wrong.root = &bad;
        e = czk_cs_check(por_fn, &wrong, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_UNSATISFIED, "wrong root: %d %s", (int)e, msg);
        /* another leaf's path */
        if (leaves > 1) {
            czk_por_path_elem other[16];
            tree_path(&t, (c + 1) % leaves, other);
            wrong = x;
            wrong.path = other;
            CHECK(czk_cs_check(por_fn, &wrong, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
        }
    }
    printf("por hasher %d base %u sub %u top %u: %zu constraints\n", (int)h, base, sub, top, want);
    tree_free(&t);
}

/* ---- por_no_challenge_input ----------------------------------------------------- */

typedef struct {
    const czk_por_shape *s;
    uint64_t c;
    const czk_fr *leaf, *root;
    const czk_por_path_elem *path;
} nci_ctx;

static czk_err nci_fn(czk_cs *cs, void *p) {
    nci_ctx *x = p;
    size_t nb = czk_por_challenge_bits(x->s), nl = czk_por_path_len(x->s);
    czk_bit bits[64];
    czk_num leaf, root, vals[16 * 7];
    czk_err e;
    for (size_t i = 0; i < nb; i++) {
        bool b = (x->c >> i) & 1;
        if ((e = czk_bit_alloc(cs, &bits[i], &b))) return e;
    }
    if ((e = czk_num_alloc(cs, &leaf, x->leaf))) return e;
    size_t k = 0;
    for (size_t l = 0; l < nl; l++)
        for (unsigned j = 0; j + 1 < czk_por_level_arity(x->s, l); j++)
            if ((e = czk_num_alloc(cs, &vals[k++], &x->path[l].siblings[j]))) return e;
    if ((e = czk_num_alloc(cs, &root, x->root))) return e;
    return czk_por_no_challenge_input(cs, x->s, bits, &leaf, vals, &root);
}

static void test_no_challenge_input(czk_rng *rng) {
    czk_por_shape s = {CZK_HASHER_POSEIDON, 8, 8, 2, 2};
    tree t;
    tree_build(&t, &s, rng);
    uint64_t c = czk_rng_next(rng) % czk_por_leaves(&s);
    czk_por_path_elem path[16];
    tree_path(&t, c, path);
    nci_ctx x = {&s, c, &t.nodes[0][c], &t.nodes[t.levels][0], path};
    char msg[256] = "";
    czk_r1cs r;
    CHECK(czk_r1cs_record(&r, nci_fn, &x, msg, sizeof msg) == CZK_OK);
    /* 10 bits; per level insert + hash; the root check */
    size_t want = 10 + 3 * (22 + 505) + (2 + 311) + 1;
    CHECK_MSG(r.n_constraints == want, "no-challenge: %zu constraints, want %zu", r.n_constraints, want);
    CHECK(r.n_inputs == 1);
    czk_r1cs_free(&r);
    czk_err e = czk_cs_check(nci_fn, &x, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "check: %s", msg);
    nci_ctx wrong = x;
    wrong.c = (c + 9) % czk_por_leaves(&s); /* another challenge, same path */
    e = czk_cs_check(nci_fn, &wrong, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_UNSATISFIED && strstr(msg, "calculated root == provided root"), "wrong challenge: %s",
              msg);
    czk_fr bad;
    czk_fr_add(&bad, x.leaf, &CZK_FR_ONE);
    wrong = x;
    wrong.leaf = &bad;
    CHECK(czk_cs_check(nci_fn, &wrong, msg, sizeof msg) == CZK_ERR_UNSATISFIED);
    tree_free(&t);
}

static void test_hashers(void) {
    /* SHA-256 node: sha256(le(a) || le(b)) with the last byte trimmed */
    czk_fr kids[2], out;
    czk_fr_from_u64(&kids[0], 1);
    czk_fr_from_u64(&kids[1], 2);
    CHECK(czk_hasher_node(CZK_HASHER_SHA256, &out, kids, 2) == CZK_OK);
    uint8_t d[32];
    czk_domain_from_fr(d, &out);
    CHECK(d[31] < 0x40);
    CHECK(czk_hasher_node(CZK_HASHER_SHA256, &out, kids, 3) == CZK_ERR_INVALID_ARGUMENT);
    uint8_t big[32];
    memset(big, 0xff, sizeof big);
    CHECK(!czk_domain_to_fr(&out, big));
    czk_sha256_domain_trim(big);
    CHECK(czk_domain_to_fr(&out, big));
    char msg[128];
    czk_por_shape bad = {CZK_HASHER_POSEIDON, 8, 0, 2, 1};
    CHECK(czk_por_shape_check(&bad, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    bad = (czk_por_shape){CZK_HASHER_POSEIDON, 3, 0, 0, 1};
    CHECK(czk_por_shape_check(&bad, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_por");
    test_hashers();
    /* storage-proofs-core tests/por_circuit.rs (public root; private is one less) */
    test_shape(CZK_HASHER_POSEIDON, 2, 0, 0, 1887, 2, &rng);
    test_shape(CZK_HASHER_POSEIDON, 4, 0, 0, 1164, 2, &rng);
    test_shape(CZK_HASHER_POSEIDON, 8, 0, 0, 1063, 2, &rng);
    test_shape(CZK_HASHER_POSEIDON, 8, 2, 0, 1377, 2, &rng);
    test_shape(CZK_HASHER_POSEIDON, 8, 4, 2, 1764, 2, &rng);
    test_shape(CZK_HASHER_POSEIDON, 8, 8, 0, 1593, 2, &rng);
    test_shape(CZK_HASHER_POSEIDON, 8, 8, 2, 1907, 2, &rng);
    test_shape(CZK_HASHER_POSEIDON, 8, 2, 4, 1764, 2, &rng);
    test_shape(CZK_HASHER_SHA256, 2, 0, 0, 272295, 2, &rng);
    test_shape(CZK_HASHER_SHA256, 4, 0, 0, 216258, 1, &rng);
    test_shape(CZK_HASHER_SHA256, 8, 0, 0, 250987, 1, &rng);
    test_no_challenge_input(&rng);
    for (int t = 0; t < CZK_MEM__COUNT; t++) CHECK(czk_mem_in_use((czk_mem_tag)t) == 0);
    return test_finish("test_por");
}
