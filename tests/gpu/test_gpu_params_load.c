/* czk_backend_cuda_params_load against czk_params_read: for small circuits,
 * params streamed from their file to the device give proofs byte-identical
 * (same r, s) to the host params uploaded the old way, through the same
 * CUDA backend, also from a moved copy of the czk_params (as the engine
 * keeps them) and in chunks of 1 MiB; start uploads nothing for them; a
 * truncated file, a point off the curve (with the check), a point at
 * infinity, a flag or a coordinate >= p are refused naming the point, and
 * leave nothing on the device; a device too small is refused with the
 * sizes; B in G2 on the CPU, the CPU backend and forgotten params are
 * refused. SKIP without a CUDA device. Random r, s: CZK_TEST_SEED repeats
 * them. */
#include <string.h>
#include <unistd.h>

#include "czk/backend.h"
#include "czk/circuit.h"
#include "czk/gpu.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/instance.h"
#include "czk/mem.h"
#include "test.h"

#define NAME "test_gpu_params_load"

static czk_rng rng;
static czk_pool *pool;
static char msg[1024];
static char dir[256];

typedef struct {
    czk_circuit c;
    czk_params params;
    czk_prover_key key;
    czk_prepared_vk pvk;
} keys;

static bool make_keys(keys *k, const char *id, uint64_t seed) {
    czk_r1cs r1cs;
    czk_toxic t;
    czk_toxic_from_seed(&t, seed);
    if (czk_circuit_find(&k->c, id, msg, sizeof msg) != CZK_OK ||
        czk_circuit_record(&k->c, &r1cs, msg, sizeof msg) != CZK_OK ||
        czk_groth16_setup(&k->params, &r1cs, &t, pool, msg, sizeof msg) != CZK_OK ||
        czk_prover_key_init(&k->key, &r1cs, msg, sizeof msg) != CZK_OK ||
        czk_vk_prepare(&k->pvk, &k->params.vk) != CZK_OK) {
        fprintf(stderr, "make_keys(%s): %s\n", id, msg);
        return false;
    }
    return true;
}

static void free_keys(keys *k) {
    czk_prepared_vk_free(&k->pvk);
    czk_prover_key_free(&k->key);
    czk_params_free(&k->params);
}

static czk_err prove(czk_backend *be, keys *k, const czk_params *params, uint64_t seed, const czk_fr *r,
                     const czk_fr *s, uint8_t out[CZK_PROOF_BYTES]) {
    czk_witness w;
    czk_fr *a, *b, *c;
    if (czk_circuit_witness(&k->c, 0, seed, &w, msg, sizeof msg) != CZK_OK) return CZK_ERR_SYNTHESIS;
    if (czk_r1cs_eval_abc(&k->key.r1cs, &w, &a, &b, &c, pool) != CZK_OK) {
        czk_witness_free(&w);
        return CZK_ERR_SYNTHESIS;
    }
    czk_assignment asg = {w.input, w.n_input, w.aux, w.n_aux, a, b, c,
                          k->key.r1cs.n_constraints + k->key.r1cs.n_inputs, &k->key.a_aux, &k->key.b_input,
                          &k->key.b_aux, NULL, NULL, NULL, NULL, NULL};
    czk_backend_pending *p = NULL;
    czk_err e = czk_backend_start(be, &p, params, &asg, r, s, msg, sizeof msg);
    if (e != CZK_OK) return e;
    czk_proof proof;
    e = czk_backend_finish(be, p, &proof, msg, sizeof msg);
    if (e == CZK_OK) czk_proof_encode(out, &proof);
    return e;
}

static uint8_t *file_bytes(const czk_params *p, size_t *len) {
    *len = czk_params_encoded_size(p);
    uint8_t *buf = malloc(*len);
    size_t got = 0;
    if (!buf || czk_params_encode(p, buf, *len, &got, pool, msg, sizeof msg) != CZK_OK || got != *len) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void write_file(const char *path, const uint8_t *b, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(b, 1, n, f) != n)) {
        perror(path);
        exit(1);
    }
    fclose(f);
}

/* The byte offset of point i of section s in p's file. */
static size_t point_offset(const czk_params *p, int s, size_t i) {
    size_t off = czk_vk_encoded_size(p->vk.n_ic);
    const size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
    for (int k = 0; k < s; k++) off += 4 + n[k] * (k == 4 ? 192 : 96);
    return off + 4 + i * (s == 4 ? 192 : 96);
}

/* Loading path is refused with want, the message naming `what`, and leaves
 * the device as it was. */
static void expect_refused(czk_backend *be, const char *path, const czk_params_load_options *o, czk_err want,
                           const char *what, const char *label) {
    const size_t used0 = czk_backend_cuda_mem_used(be), srs0 = czk_mem_in_use(CZK_MEM_SRS);
    czk_params d;
    msg[0] = 0;
    czk_err e = czk_backend_cuda_params_load_opts(be, path, o, &d, NULL, msg, sizeof msg);
    CHECK_MSG(e == want && (!what || strstr(msg, what)), "%s: %s (%s), wanted %s naming '%s'", label,
              czk_err_str(e), msg, czk_err_str(want), what ? what : "");
    CHECK_MSG(d.device == NULL && d.vk.ic == NULL && d.n_h == 0, "%s: output not empty", label);
    CHECK_MSG(czk_backend_cuda_mem_used(be) == used0, "%s: %zu bytes left on the device", label,
              czk_backend_cuda_mem_used(be) - used0);
    CHECK_MSG(czk_mem_in_use(CZK_MEM_SRS) == srs0, "%s: host SRS bytes left", label);
}

static void test_circuit(czk_backend *be, czk_backend *cpu, const char *id, uint64_t setup_seed) {
    keys k;
    if (!make_keys(&k, id, setup_seed)) {
        CHECK_MSG(false, "setup of %s failed", id);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s.params", dir, id);
    CHECK_MSG(czk_params_write(&k.params, path, msg, sizeof msg) == CZK_OK, "%s", msg);
    czk_params host;
    CHECK_MSG(czk_params_read(&host, path, CZK_DECODE_TRUSTED, pool, msg, sizeof msg) == CZK_OK, "%s", msg);

    const size_t used0 = czk_backend_cuda_mem_used(be);
    const czk_params_load_options small = {.check_curve = true, .chunk_bytes = (size_t)1 << 20, .readers = 3};
    czk_params dev, dev2;
    czk_params_load_stats st;
    czk_err e = czk_backend_cuda_params_load_opts(be, path, &small, &dev, &st, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: load: %s", id, msg);
    if (e != CZK_OK) goto out;
    printf("%s: %llu bytes loaded in %.3f s (%.2f GB/s; read %.3f s, DMA wait %.3f s)\n", id, st.file_bytes,
           st.seconds, st.gb_per_s, st.read_s, st.wait_s);
    CHECK(dev.device && !dev.h && !dev.l && !dev.a && !dev.b_g1 && !dev.b_g2);
    CHECK(dev.n_h == host.n_h && dev.n_l == host.n_l && dev.n_a == host.n_a && dev.n_b_g1 == host.n_b_g1 &&
          dev.n_b_g2 == host.n_b_g2 && dev.vk.n_ic == host.vk.n_ic);
    CHECK(st.file_bytes == czk_params_encoded_size(&host));
    CHECK(czk_backend_cuda_mem_used(be) >= used0 + (host.n_h + host.n_l + host.n_a + host.n_b_g1) * 96 +
                                                   host.n_b_g2 * 192);
    e = czk_backend_cuda_params_load(be, path, &dev2, msg, sizeof msg); /* the default options, a second copy */
    CHECK_MSG(e == CZK_OK, "%s: load: %s", id, msg);

    for (uint64_t seed = 1; seed <= 2 && e == CZK_OK; seed++) {
        czk_fr r, s;
        czk_fr_random(&r, &rng);
        czk_fr_random(&s, &rng);
        uint8_t ph[CZK_PROOF_BYTES], pd[CZK_PROOF_BYTES], pm[CZK_PROOF_BYTES];
        czk_err eh = prove(be, &k, &host, seed, &r, &s, ph);
        CHECK_MSG(eh == CZK_OK, "%s host params: %s", id, msg);
        czk_backend_cuda_timings t0, t1;
        czk_backend_cuda_timings_get(be, &t0);
        czk_err ed = prove(be, &k, &dev, seed, &r, &s, pd);
        czk_backend_cuda_timings_get(be, &t1);
        CHECK_MSG(ed == CZK_OK, "%s device params: %s", id, msg);
        CHECK_MSG(t1.streamed_chunks == t0.streamed_chunks, "%s: device params were streamed", id);
        CHECK_MSG(eh != CZK_OK || ed != CZK_OK || !memcmp(ph, pd, sizeof ph),
                  "%s seed %llu: the proof from device-loaded params differs", id, (unsigned long long)seed);
        /* a moved copy, as the engine keeps them (the first start bound the entry to &dev) */
        czk_params moved = dev2;
        czk_err em = prove(be, &k, &moved, seed, &r, &s, pm);
        CHECK_MSG(em == CZK_OK && !memcmp(ph, pm, sizeof ph), "%s: the moved copy: %s", id, msg);
    }
    /* the CPU backend cannot use them */
    {
        uint8_t pc[CZK_PROOF_BYTES];
        czk_fr r, s;
        czk_fr_random(&r, &rng);
        czk_fr_random(&s, &rng);
        e = prove(cpu, &k, &dev, 1, &r, &s, pc);
        CHECK_MSG(e == CZK_ERR_UNSUPPORTED && strstr(msg, "GPU"), "cpu backend: %s (%s)", czk_err_str(e), msg);
    }
    /* forget frees them; a start afterwards is refused, not crashed */
    czk_backend_forget(be, &host);
    czk_backend_forget(be, &dev);
    czk_backend_forget(be, &dev2);
    CHECK_MSG(czk_backend_cuda_mem_used(be) <= used0, "%s: %zu bytes left after forget", id,
              czk_backend_cuda_mem_used(be) - used0);
    {
        uint8_t pf[CZK_PROOF_BYTES];
        czk_fr r, s;
        czk_fr_random(&r, &rng);
        czk_fr_random(&s, &rng);
        e = prove(be, &k, &dev, 1, &r, &s, pf);
        CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "forgotten"), "forgotten: %s (%s)", czk_err_str(e),
                  msg);
    }
    czk_params_free(&dev);
    czk_params_free(&dev2);
out:
    czk_params_free(&host);
    free_keys(&k);
}

/* Malformed files and a device too small, on synthetic-10's params. */
static void test_refused(czk_backend *be, czk_backend *g2cpu) {
    keys k;
    if (!make_keys(&k, "synthetic-10", 5)) {
        CHECK_MSG(false, "setup failed");
        return;
    }
    const czk_params *p = &k.params;
    size_t len;
    uint8_t *good = file_bytes(p, &len), *bad = malloc(len);
    char path[512];
    snprintf(path, sizeof path, "%s/bad.params", dir);
    const czk_params_load_options chk = {.check_curve = true}, nochk = {.check_curve = false};

    write_file(path, good, len - 1);
    expect_refused(be, path, &chk, CZK_ERR_FORMAT, "params:", "truncated");
    memcpy(bad, good, len);
    write_file(path, bad, len + 0);
    /* l's point 3 off the curve: y's last byte changed (y stays < p) */
    const size_t l3 = point_offset(p, 1, 3);
    bad[l3 + 95] ^= 1;
    write_file(path, bad, len);
    expect_refused(be, path, &chk, CZK_ERR_FORMAT, "section l, point 3 of", "off the curve");
    CHECK_MSG(strstr(msg, "not on the curve") != NULL, "%s", msg);
    {   /* unchecked, as bellperson reads a trusted file: accepted */
        czk_params d;
        czk_err e = czk_backend_cuda_params_load_opts(be, path, &nochk, &d, NULL, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "off the curve, unchecked: %s", msg);
        if (e == CZK_OK) czk_backend_forget(be, &d);
        czk_params_free(&d);
    }
    memcpy(bad, good, len);
    /* h's point 5 at infinity: rejected as bellperson does, also unchecked */
    const size_t h5 = point_offset(p, 0, 5);
    memset(bad + h5, 0, 96);
    bad[h5] = 0x40;
    write_file(path, bad, len);
    expect_refused(be, path, &nochk, CZK_ERR_FORMAT, "section h, point 5 of", "infinity");
    CHECK_MSG(strstr(msg, "point at infinity") != NULL, "%s", msg);
    memcpy(bad, good, len);
    /* b_g2's point 2: the compression flag; b_g1's point 1: x >= p */
    const size_t g2 = point_offset(p, 4, 2), b1 = point_offset(p, 3, 1);
    bad[g2] |= 0x80;
    memset(bad + b1, 0xff, 48);
    bad[b1] = 0x1f;
    write_file(path, bad, len);
    expect_refused(be, path, &nochk, CZK_ERR_FORMAT, "section b_g1, point 1 of", "x >= p");
    CHECK_MSG(strstr(msg, "not below its modulus") != NULL, "%s", msg); /* b_g1 comes first */
    memcpy(bad + b1, good + b1, 48);
    write_file(path, bad, len);
    expect_refused(be, path, &nochk, CZK_ERR_FORMAT, "section b_g2, point 2 of", "compression flag");
    CHECK_MSG(strstr(msg, "compression flag") != NULL, "%s", msg);
    /* an input's A point (kept on the host too) off the curve */
    memcpy(bad, good, len);
    bad[point_offset(p, 2, 0) + 95] ^= 1;
    write_file(path, bad, len);
    expect_refused(be, path, &chk, CZK_ERR_FORMAT, "section a, point 0 of", "a's input point");
    /* no such file; B in G2 on the CPU */
    snprintf(path, sizeof path, "%s/none.params", dir);
    expect_refused(be, path, &chk, CZK_ERR_IO, NULL, "no file");
    snprintf(path, sizeof path, "%s/ok.params", dir);
    write_file(path, good, len);
    expect_refused(g2cpu, path, &chk, CZK_ERR_UNSUPPORTED, "CZK_G2_CPU", "B in G2 on the CPU");
    /* a device with room for half the queries */
    const size_t q = (p->n_h + p->n_l + p->n_a + p->n_b_g1) * 96 + p->n_b_g2 * 192;
    czk_backend *tiny = NULL;
    czk_backend_cuda_config cfg = {0, q / 2, CZK_G2_GPU, pool};
    CHECK_MSG(czk_backend_cuda_open(&tiny, &cfg, msg, sizeof msg) == CZK_OK, "%s", msg);
    if (tiny) expect_refused(tiny, path, &chk, CZK_ERR_NO_MEMORY, "GiB on the device", "a small device");
    czk_backend_close(tiny);
    unlink(path);
    snprintf(path, sizeof path, "%s/bad.params", dir);
    unlink(path);
    free(good);
    free(bad);
    free_keys(&k);
}

int main(void) {
    if (czk_gpu_count() == 0) {
        printf("%s: SKIP (no CUDA device)\n", NAME);
        return TEST_SKIP;
    }
    test_seed_rng(&rng, NAME);
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/czk_pl_XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    CHECK(czk_pool_create(&pool, 0) == CZK_OK);
    czk_backend *cpu = NULL, *gpu = NULL, *g2cpu = NULL;
    CHECK(czk_backend_cpu_open(&cpu, pool) == CZK_OK);
    czk_backend_cuda_config cfg = {0, 0, CZK_G2_GPU, pool};
    CHECK_MSG(czk_backend_cuda_open(&gpu, &cfg, msg, sizeof msg) == CZK_OK, "%s", msg);
    cfg.g2 = CZK_G2_CPU;
    CHECK_MSG(czk_backend_cuda_open(&g2cpu, &cfg, msg, sizeof msg) == CZK_OK, "%s", msg);
    const size_t srs0 = czk_mem_in_use(CZK_MEM_SRS);
    if (gpu && g2cpu && cpu) {
        printf("device: %s\n", czk_backend_cuda_describe(gpu));
        const char *ids[] = {"demo", "synthetic-10", "synthetic-16"};
        for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) test_circuit(gpu, cpu, ids[i], 11 + i);
        test_refused(gpu, g2cpu);
    }
    CHECK_MSG(czk_mem_in_use(CZK_MEM_SRS) == srs0, "host SRS bytes left: %zu", czk_mem_in_use(CZK_MEM_SRS) - srs0);
    czk_backend_close(g2cpu);
    czk_backend_close(gpu);
    czk_backend_close(cpu);
    czk_pool_destroy(pool);
    rmdir(dir);
    return test_finish(NAME);
}
