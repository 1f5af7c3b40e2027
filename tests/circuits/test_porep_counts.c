/* The StackedCircuit's structure against rust-fil-proofs' own figures:
 * storage-proofs-porep tests/stacked_circuit.rs (2 layers, 1 challenge, 8
 * nodes per base tree, Poseidon trees 2, 8, 8-4, 8-4-2: 22 inputs and
 * 1,206,212 / 1,199,620 / 1,296,576 / 1,346,982 constraints) and the 8 MiB
 * PoRep partition (3,844,929 constraints, 40 inputs; shared/reference).
 * Counted with czk_r1cs_count (COUNT mode: the blank circuit, not
 * recorded); for the smallest tree also recorded, to check that COUNT gives
 * RECORD's counts, non-zeros and densities, and the SHA-256 of its matrices
 * against a pinned value (czk's own: it catches any change of the R1CS). The
 * circuit ids porep-2k …
 * porep-64g resolve with their table's partitions. */
#include <openssl/evp.h>
#include <string.h>
#include <time.h>

#include "czk/circuit_porep.h"
#include "test.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the base-8 tree's R1CS as czk records it (see r1cs_digest) */
#define BASE_8_DIGEST "60fda20f0b3238b2b350198f63e2da9b8f8cd2712ce032cd30f52e02f400182a"

static czk_err blank(czk_cs *cs, void *ctx) { return czk_porep_synthesize(cs, ctx, NULL); }

typedef struct {
    const char *name;
    czk_porep_shape s;
    size_t constraints, inputs;
} expect;

static void count_one(const expect *x) {
    czk_r1cs_counts k;
    char msg[256] = "";
    double t0 = now();
    czk_err e = czk_r1cs_count(&k, blank, (void *)&x->s, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", x->name, msg);
    printf("%-22s constraints %zu (expected %zu), inputs %zu (expected %zu), aux %zu, nnz %llu/%llu/%llu, "
           "density %zu/%zu/%zu, %.2f s\n",
           x->name, k.n_constraints, x->constraints, k.n_inputs, x->inputs, k.n_aux, (unsigned long long)k.nnz_a,
           (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c, k.a_aux_density, k.b_input_density,
           k.b_aux_density, now() - t0);
    CHECK_MSG(k.n_constraints == x->constraints, "%s: %zu constraints", x->name, k.n_constraints);
    CHECK_MSG(k.n_inputs == x->inputs, "%s: %zu inputs", x->name, k.n_inputs);
    CHECK(k.n_inputs == czk_porep_input_count(&x->s));
}

/* SHA-256 of the recorded matrices: per matrix A, B, C the row pointers
 * (u64 LE), the columns (u32 LE) and the coefficients (canonical 32-byte
 * LE). czk's own figure: a regression pin on the exact R1CS (any change of
 * a coefficient or of an order changes it), not a reference value. */
static void r1cs_digest(const czk_r1cs *r, char hex[65]) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    const czk_csr *m[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i <= r->n_constraints; i++) {
            uint8_t b[8];
            for (int j = 0; j < 8; j++) b[j] = (uint8_t)(m[k]->row_ptr[i] >> (8 * j));
            EVP_DigestUpdate(ctx, b, 8);
        }
        for (uint64_t i = 0; i < m[k]->nnz; i++) {
            uint8_t b[36];
            for (int j = 0; j < 4; j++) b[j] = (uint8_t)(m[k]->col[i] >> (8 * j));
            czk_fr_to_bytes_le(b + 4, &m[k]->coeff[i]);
            EVP_DigestUpdate(ctx, b, 36);
        }
    }
    uint8_t md[32];
    unsigned len = 0;
    EVP_DigestFinal_ex(ctx, md, &len);
    EVP_MD_CTX_free(ctx);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

/* COUNT against RECORD + czk_r1cs_density on one shape. */
static void count_vs_record(const czk_porep_shape *s, const char *digest) {
    czk_r1cs_counts k;
    czk_r1cs r;
    char msg[256] = "";
    CHECK(czk_r1cs_count(&k, blank, (void *)s, msg, sizeof msg) == CZK_OK);
    double t0 = now();
    czk_err e = czk_r1cs_record(&r, blank, (void *)s, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    if (e) return;
    printf("record of %zu constraints: %.2f s\n", r.n_constraints, now() - t0);
    czk_bitmap da, dbi, dba;
    CHECK(czk_r1cs_density(&r, &da, &dbi, &dba) == CZK_OK);
    CHECK(k.n_constraints == r.n_constraints && k.n_inputs == r.n_inputs && k.n_aux == r.n_aux);
    CHECK(k.nnz_a == r.a.nnz && k.nnz_b == r.b.nnz && k.nnz_c == r.c.nnz);
    CHECK(k.a_aux_density == czk_bitmap_count(&da));
    CHECK(k.b_input_density == czk_bitmap_count(&dbi));
    CHECK(k.b_aux_density == czk_bitmap_count(&dba));
    char hex[65];
    r1cs_digest(&r, hex);
    printf("R1CS digest: %s\n", hex);
    CHECK_MSG(!strcmp(hex, digest), "the R1CS changed: digest %s, pinned %s", hex, digest);
    czk_bitmap_free(&da);
    czk_bitmap_free(&dbi);
    czk_bitmap_free(&dba);
    czk_r1cs_free(&r);
}

static void registry(void) {
    static const char *const ids[] = {"porep-2k", "porep-8m", "porep-512m", "porep-32g", "porep-64g"};
    static const size_t partitions[] = {1, 1, 1, 10, 10};
    for (size_t i = 0; i < 5; i++) {
        czk_circuit c;
        char msg[512] = "";
        CHECK_MSG(czk_circuit_find(&c, ids[i], msg, sizeof msg) == CZK_OK, "%s", msg);
        CHECK(c.partitions == partitions[i]);
        czk_porep_shape s;
        CHECK(czk_porep_circuit_shape(&c, &s, msg, sizeof msg) == CZK_OK);
        CHECK(czk_porep_shape_check(&s, msg, sizeof msg) == CZK_OK);
        /* a seed gives no witness */
        CHECK(czk_circuit_check(&c, 0, 1, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    }
    czk_circuit c;
    char msg[512];
    CHECK(czk_circuit_find(&c, "porep-1k", msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
}

int main(void) {
    const expect tests[] = {
        {"poseidon_base_2", {8, 2, 1, 2, 0, 0}, 1206212, 22},
        {"poseidon_base_8", {8, 2, 1, 8, 0, 0}, 1199620, 22},
        {"poseidon_sub_8_4", {32, 2, 1, 8, 4, 0}, 1296576, 22},
        {"poseidon_top_8_4_2", {64, 2, 1, 8, 4, 2}, 1346982, 22},
        {"porep-8m", {(8u << 20) / 32, 2, 2, 8, 0, 0}, 3844929, 40},
    };
    /* CZK_TEST_SCALE < 1 (the sanitizer passes, 14x slower here): the
     * base-8 tree only, counted and recorded; every count in Release */
    bool full = test_cases(10) >= 10;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (full || i == 1) count_one(&tests[i]);
    count_vs_record(&tests[1].s, BASE_8_DIGEST);
    registry();
    return test_finish("test_porep_counts");
}
