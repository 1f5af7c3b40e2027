/* The setup's scalar code (czk/setup_scalars.h) and the streaming params
 * writer (czk/params_writer.h):
 * - u, v, w from the CSR and from the compact form, on pools of 1, 3 and
 *   the default number of slots, equal the plain sequential sums over the
 *   CSR rows (plus the input rows), for built-in circuits and a random τ;
 * - h's powers and ext against a plain loop;
 * - zero compaction keeps the non-zero values in order;
 * - the writer, fed czk_groth16_setup's points in random chunk sizes (host
 *   points and pre-encoded bytes), writes files byte-identical to
 *   czk_params_write / czk_vk_write; and its refusals: a section out of
 *   order, too many points, an identity point, a short section at commit,
 *   an existing file under no_replace. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "czk/circuit.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/mem.h"
#include "czk/params_writer.h"
#include "czk/setup_scalars.h"
#include "test.h"

static void plain_sums(czk_fr *out, const czk_csr *m, size_t rows, const czk_fr *L) {
    for (size_t i = 0; i < rows; i++)
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            czk_fr t;
            czk_fr_mul(&t, &m->coeff[k], &L[i]);
            czk_fr_add(&out[m->col[k]], &out[m->col[k]], &t);
        }
}

static int same(const czk_fr *a, const czk_fr *b, size_t n) { return memcmp(a, b, n * sizeof(czk_fr)) == 0; }

static void check_qap(const char *id, czk_rng *rng, czk_pool *pools[3]) {
    char msg[512] = "";
    czk_circuit c;
    CHECK(czk_circuit_find(&c, id, msg, sizeof msg) == CZK_OK);
    czk_r1cs r;
    czk_err e = czk_circuit_record(&c, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", id, msg);
    if (e) return;
    czk_r1cs_compact rc;
    e = czk_r1cs_compact_from_csr(&rc, &r, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", id, msg);
    const size_t ni = r.n_inputs, nv = r.n_inputs + r.n_aux, rows = r.n_constraints + ni;
    czk_fr *L = czk_mem_alloc(rows * sizeof(czk_fr), CZK_MEM_AUX);
    czk_fr *want = czk_mem_alloc(3 * nv * sizeof(czk_fr), CZK_MEM_AUX);
    czk_fr *got = czk_mem_alloc(3 * nv * sizeof(czk_fr), CZK_MEM_AUX);
    for (size_t i = 0; i < rows; i++) czk_fr_random(&L[i], rng);
    plain_sums(want, &r.a, r.n_constraints, L);
    plain_sums(want + nv, &r.b, r.n_constraints, L);
    plain_sums(want + 2 * nv, &r.c, r.n_constraints, L);
    for (size_t i = 0; i < ni; i++) czk_fr_add(&want[i], &want[i], &L[r.n_constraints + i]);
    for (int p = 0; p < 3 && !e; p++) {
        for (int form = 0; form < 2; form++) {
            for (size_t i = 0; i < 3 * nv; i++) czk_fr_random(&got[i], rng); /* must be overwritten */
            if (form == 0) czk_setup_qap_csr(&r, L, got, got + nv, got + 2 * nv, pools[p]);
            else czk_setup_qap_compact(&rc, L, got, got + nv, got + 2 * nv, pools[p]);
            CHECK_MSG(same(got, want, 3 * nv), "%s: u, v, w from the %s form on %d slots", id,
                      form ? "compact" : "CSR", czk_pool_slots(pools[p]));
        }
    }
    printf("%s: %zu constraints, %zu variables, nnz %llu/%llu/%llu: u, v, w agree\n", id, r.n_constraints, nv,
           (unsigned long long)r.a.nnz, (unsigned long long)r.b.nnz, (unsigned long long)r.c.nnz);
    czk_mem_free(L);
    czk_mem_free(want);
    czk_mem_free(got);
    czk_r1cs_compact_free(&rc);
    czk_r1cs_free(&r);
}

static void check_powers_ext(czk_rng *rng, czk_pool *pool) {
    enum { N = 20000, NI = 7 };
    czk_fr *x = czk_mem_alloc(N * sizeof(czk_fr), CZK_MEM_AUX), *u = czk_mem_alloc(N * sizeof(czk_fr), CZK_MEM_AUX);
    czk_fr *v = czk_mem_alloc(N * sizeof(czk_fr), CZK_MEM_AUX), *w = czk_mem_alloc(N * sizeof(czk_fr), CZK_MEM_AUX);
    czk_fr c0, tau, acc;
    czk_fr_random(&c0, rng);
    czk_fr_random(&tau, rng);
    czk_setup_powers(x, 12345, N, &c0, &tau, pool);
    uint64_t e = 12345;
    czk_fr_pow(&acc, &tau, &e, 1);
    czk_fr_mul(&acc, &acc, &c0);
    int ok = 1;
    for (size_t i = 0; i < N; i++) {
        ok &= czk_fr_equal(&x[i], &acc);
        czk_fr_mul(&acc, &acc, &tau);
    }
    CHECK_MSG(ok, "czk_setup_powers");

    czk_toxic t;
    czk_toxic_from_seed(&t, czk_rng_next(rng));
    for (size_t i = 0; i < N; i++) {
        czk_fr_random(&u[i], rng);
        czk_fr_random(&v[i], rng);
        czk_fr_random(&w[i], rng);
    }
    memcpy(x, w, N * sizeof(czk_fr));
    char msg[256] = "";
    CHECK(czk_setup_ext(x, u, v, NI, N, &t, pool, msg, sizeof msg) == CZK_OK);
    czk_fr gi, di;
    czk_fr_inv(&gi, &t.gamma);
    czk_fr_inv(&di, &t.delta);
    ok = 1;
    for (size_t i = 0; i < N; i++) {
        czk_fr s, k;
        czk_fr_mul(&s, &u[i], &t.beta);
        czk_fr_mul(&k, &v[i], &t.alpha);
        czk_fr_add(&s, &s, &k);
        czk_fr_add(&s, &s, &w[i]);
        czk_fr_mul(&s, &s, i < NI ? &gi : &di);
        ok &= czk_fr_equal(&s, &x[i]);
    }
    CHECK_MSG(ok, "czk_setup_ext");
    /* an aux variable with u = v = w = 0: refused, named */
    memset(&u[NI + 11], 0, sizeof(czk_fr));
    memset(&v[NI + 11], 0, sizeof(czk_fr));
    memset(&w[NI + 11], 0, sizeof(czk_fr));
    memset(&u[NI + 900], 0, sizeof(czk_fr));
    memset(&v[NI + 900], 0, sizeof(czk_fr));
    memset(&w[NI + 900], 0, sizeof(czk_fr));
    memcpy(x, w, N * sizeof(czk_fr));
    CHECK(czk_setup_ext(x, u, v, NI, N, &t, pool, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(msg, "aux variable 11 ") != NULL, "%s", msg);

    /* zero compaction */
    size_t nz = 0;
    for (size_t i = 0; i < N; i++) {
        if (czk_rng_next(rng) % 3 == 0 || czk_fr_is_zero(&u[i])) memset(&u[i], 0, sizeof(czk_fr));
        else v[nz++] = u[i];
    }
    CHECK(czk_setup_count_nonzero(u, N, pool) == nz);
    CHECK(czk_setup_compact_nonzero(u, N) == nz);
    CHECK(same(u, v, nz));
    czk_mem_free(x);
    czk_mem_free(u);
    czk_mem_free(v);
    czk_mem_free(w);
}

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static int files_equal(const char *a, const char *b) {
    size_t la, lb;
    uint8_t *x = slurp(a, &la), *y = slurp(b, &lb);
    int eq = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return eq;
}

static void section_of(const czk_params *p, int s, const void **pts, size_t *n) {
    switch (s) {
    case CZK_PW_H: *pts = p->h, *n = p->n_h; break;
    case CZK_PW_L: *pts = p->l, *n = p->n_l; break;
    case CZK_PW_A: *pts = p->a, *n = p->n_a; break;
    case CZK_PW_B_G1: *pts = p->b_g1, *n = p->n_b_g1; break;
    default: *pts = p->b_g2, *n = p->n_b_g2; break;
    }
}

static void check_writer(const char *dir, czk_rng *rng, czk_pool *pool) {
    char msg[512] = "", ref[600], got[600], vref[600], vgot[600];
    czk_circuit c;
    CHECK(czk_circuit_find(&c, "demo", msg, sizeof msg) == CZK_OK);
    czk_r1cs r;
    CHECK(czk_circuit_record(&c, &r, msg, sizeof msg) == CZK_OK);
    czk_toxic t;
    czk_toxic_from_seed(&t, czk_rng_next(rng));
    czk_params p;
    czk_err e = czk_groth16_setup(&p, &r, &t, pool, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s", msg);
    czk_r1cs_free(&r);
    if (e) return;
    snprintf(ref, sizeof ref, "%s/ref.params", dir);
    snprintf(got, sizeof got, "%s/got.params", dir);
    snprintf(vref, sizeof vref, "%s/ref.vk", dir);
    snprintf(vgot, sizeof vgot, "%s/got.vk", dir);
    CHECK(czk_params_write(&p, ref, msg, sizeof msg) == CZK_OK);
    CHECK(czk_vk_write(&p.vk, vref, msg, sizeof msg) == CZK_OK);
    size_t counts[CZK_PW_SECTIONS];
    for (int s = 0; s < CZK_PW_SECTIONS; s++) {
        const void *pts;
        section_of(&p, s, &pts, &counts[s]);
    }
    for (int round = 0; round < 4; round++) {
        unlink(got);
        czk_params_writer *w;
        e = czk_params_writer_open(&w, got, &p.vk, counts, 0, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s", msg);
        if (e) break;
        for (int s = 0; s < CZK_PW_SECTIONS && !e; s++) {
            const void *pts;
            size_t n;
            section_of(&p, s, &pts, &n);
            const size_t esize = s == CZK_PW_B_G2 ? sizeof(czk_g2_affine) : sizeof(czk_g1_affine);
            const size_t pb = s == CZK_PW_B_G2 ? CZK_G2_UNCOMPRESSED_BYTES : CZK_G1_UNCOMPRESSED_BYTES;
            for (size_t i = 0; i < n && !e;) {
                size_t k = 1 + czk_rng_next(rng) % 37;
                if (k > n - i) k = n - i;
                const uint8_t *src = (const uint8_t *)pts + i * esize;
                if (round & 1) {
                    e = czk_params_writer_put_points(w, s, src, k, round & 2 ? pool : NULL, msg, sizeof msg);
                } else {
                    uint8_t buf[37 * CZK_G2_UNCOMPRESSED_BYTES];
                    for (size_t j = 0; j < k; j++) {
                        if (s == CZK_PW_B_G2) czk_g2_to_uncompressed(buf + j * pb, (const czk_g2_affine *)src + j);
                        else czk_g1_to_uncompressed(buf + j * pb, (const czk_g1_affine *)src + j);
                    }
                    e = czk_params_writer_put_encoded(w, s, buf, k, msg, sizeof msg);
                }
                i += k;
            }
        }
        CHECK_MSG(e == CZK_OK, "%s", msg);
        if (e) {
            czk_params_writer_abort(w);
            break;
        }
        e = czk_params_writer_commit(w, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "%s", msg);
        CHECK_MSG(files_equal(ref, got), "round %d: the streamed params differ from czk_params_write's", round);
    }
    unlink(vgot);
    CHECK(czk_params_writer_vk(&p.vk, vgot, 1, msg, sizeof msg) == CZK_OK);
    CHECK(files_equal(vref, vgot));
    /* refusals */
    CHECK(czk_params_writer_vk(&p.vk, vgot, 1, msg, sizeof msg) == CZK_ERR_IO);
    CHECK_MSG(strstr(msg, "not overwriting") != NULL, "%s", msg);
    czk_params_writer *w;
    CHECK(czk_params_writer_open(&w, got, &p.vk, counts, 1, msg, sizeof msg) == CZK_OK);
    CHECK(czk_params_writer_put_points(w, CZK_PW_H, p.h, p.n_h, NULL, msg, sizeof msg) == CZK_OK);
    CHECK(czk_params_writer_put_points(w, CZK_PW_L, p.l, 1, NULL, msg, sizeof msg) == CZK_OK);
    CHECK(czk_params_writer_put_points(w, CZK_PW_H, p.h, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    czk_params_writer_abort(w);
    CHECK(czk_params_writer_open(&w, got, &p.vk, counts, 0, msg, sizeof msg) == CZK_OK);
    CHECK(czk_params_writer_put_points(w, CZK_PW_L, p.l, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(msg, "section h has 0 of") != NULL, "%s", msg);
    czk_params_writer_abort(w);
    CHECK(czk_params_writer_open(&w, got, &p.vk, counts, 0, msg, sizeof msg) == CZK_OK);
    CHECK(czk_params_writer_put_points(w, CZK_PW_H, p.h, p.n_h, NULL, msg, sizeof msg) == CZK_OK);
    CHECK(czk_params_writer_put_points(w, CZK_PW_H, p.h, 1, NULL, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    czk_params_writer_abort(w);
    CHECK(czk_params_writer_open(&w, got, &p.vk, counts, 0, msg, sizeof msg) == CZK_OK);
    uint8_t inf[CZK_G1_UNCOMPRESSED_BYTES] = {0x40};
    CHECK(czk_params_writer_put_encoded(w, CZK_PW_H, inf, 1, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(msg, "point at infinity") != NULL, "%s", msg);
    czk_params_writer_abort(w);
    CHECK(czk_params_writer_open(&w, got, &p.vk, counts, 0, msg, sizeof msg) == CZK_OK);
    CHECK(czk_params_writer_put_points(w, CZK_PW_H, p.h, p.n_h, NULL, msg, sizeof msg) == CZK_OK);
    CHECK(czk_params_writer_commit(w, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_params_writer_open(&w, got, &p.vk, counts, 1, msg, sizeof msg) == CZK_OK);
    for (int s = 0; s < CZK_PW_SECTIONS; s++) {
        const void *pts;
        size_t n;
        section_of(&p, s, &pts, &n);
        CHECK(czk_params_writer_put_points(w, s, pts, n, NULL, msg, sizeof msg) == CZK_OK);
    }
    CHECK(czk_params_writer_commit(w, msg, sizeof msg) == CZK_ERR_IO); /* got exists */
    CHECK(files_equal(ref, got));
    /* no temporary file left behind */
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", dir);
    CHECK(system(cmd) != 0);
    unlink(ref), unlink(got), unlink(vref), unlink(vgot);
    czk_params_free(&p);
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_setup_scalars");
    czk_pool *p1 = NULL, *p3 = NULL;
    czk_pool_create(&p1, 1);
    czk_pool_create(&p3, 3);
    czk_pool *pools[3] = {p1, p3, czk_pool_default()};
    check_qap("demo", &rng, pools);
    check_qap("synthetic-12", &rng, pools);
    check_qap("gadget-sha256-512", &rng, pools);
    check_powers_ext(&rng, p3);
    char dir[] = "/tmp/czk_setup_scalars.XXXXXX";
    if (mkdtemp(dir)) {
        check_writer(dir, &rng, p3);
        rmdir(dir);
    } else {
        CHECK(0);
    }
    czk_pool_destroy(p1);
    czk_pool_destroy(p3);
    return test_finish("test_setup_scalars");
}
