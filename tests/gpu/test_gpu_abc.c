/* a, b, c from the compact R1CS on the device (src/gpu/spmv.cu,
 * src/gpu/r1cs_dev.c) and the CUDA backend's starts that make them there:
 *  - random compact R1CSs with short rows, rows just over and far over the
 *    warp-per-row threshold (CZK_GPU_SPMV_SHORT_MAX), empty rows, random
 *    dictionary indices (0 and 1 mostly): the device's a, b, c equal
 *    czk_r1cs_compact_eval_abc's exactly, and are zero beyond n_abc;
 *  - built-in circuits (demo, synthetic-12, synthetic-14, gadget-sha256-512)
 *    on random witnesses: equal to czk_r1cs_eval_abc's (the CSR);
 *  - whole proofs: the CUDA backend given asg->r1cs (a, b, c on the device)
 *    with aux plain and packed, given plain a, b, c, and with a, b, c made
 *    on the host (CZK_GPU_ABC=host), B in G2 on the GPU and on the CPU:
 *    byte-identical to the CPU backend's for the same r, s; the R1CS is
 *    charged in czk_backend_cuda_mem_used and forget drops it.
 * SKIP without a device. CZK_TEST_SEED repeats. */
#include <stdlib.h>
#include <string.h>

#include "../../src/gpu/gpu_internal.h"
#include "czk/backend.h"
#include "czk/circuit.h"
#include "czk/gpu.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/instance.h"
#include "czk/mem.h"
#include "czk/r1cs_compact.h"
#include "test.h"

static size_t domain_of(size_t n) {
    size_t d = 1;
    while (d < n) d <<= 1;
    return d;
}

/* device a, b, c of r from w against want (n_out values each, as the host made them) */
static void compare(czk_gpu *g, const czk_r1cs_compact *r, const czk_witness *w, czk_fr *const want[3],
                    size_t n_out, czk_pool *pool, const char *what) {
    char msg[512] = "";
    czk_fr *got[3];
    for (int k = 0; k < 3; k++) {
        got[k] = malloc(n_out * sizeof(czk_fr));
        memset(got[k], 0x5a, n_out * sizeof(czk_fr));
    }
    czk_err e = czk_gpu_r1cs_eval(g, r, w, got[0], got[1], got[2], n_out, pool, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", what, msg);
    for (int k = 0; k < 3 && e == CZK_OK; k++) {
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n_out; i++)
            if (memcmp(&got[k][i], &want[k][i], sizeof(czk_fr))) {
                if (!bad) first = i;
                bad++;
            }
        CHECK_MSG(bad == 0, "%s: %zu of %zu values of %c differ (the first at %zu; %zu rows)", what, bad, n_out,
                  "abc"[k], first, r->n_constraints);
    }
    for (int k = 0; k < 3; k++) free(got[k]);
}

/* ---- random compact R1CSs ------------------------------------------------------ */

static void random_matrix(czk_csr_compact *m, size_t rows, size_t cols, size_t n_dict, czk_rng *rng) {
    m->row_ptr = czk_mem_alloc((rows + 1) * sizeof *m->row_ptr, CZK_MEM_R1CS);
    uint32_t *len = malloc(rows * sizeof *len);
    size_t nnz = 0;
    for (size_t i = 0; i < rows; i++) {
        const uint64_t x = czk_rng_next(rng) % 1000;
        /* mostly 0 to 3 terms; some at and just over the threshold; a few hundreds */
        len[i] = x < 900   ? (uint32_t)(x % 4)
                 : x < 950 ? CZK_GPU_SPMV_SHORT_MAX + (uint32_t)(x % 3) - 1
                 : x < 990 ? 20 + (uint32_t)(czk_rng_next(rng) % 60)
                           : 200 + (uint32_t)(czk_rng_next(rng) % 400);
        nnz += len[i];
    }
    m->nnz = nnz;
    m->col = nnz ? czk_mem_alloc(nnz * sizeof *m->col, CZK_MEM_R1CS) : NULL;
    m->coeff = nnz ? czk_mem_alloc(nnz * sizeof *m->coeff, CZK_MEM_R1CS) : NULL;
    size_t j = 0;
    for (size_t i = 0; i < rows; i++) {
        m->row_ptr[i] = (uint32_t)j;
        for (uint32_t t = 0; t < len[i]; t++, j++) {
            m->col[j] = (uint32_t)(czk_rng_next(rng) % cols);
            const uint64_t y = czk_rng_next(rng) % 10;
            m->coeff[j] = (uint16_t)(y < 5 ? 0 : y < 8 ? 1 : 2 + czk_rng_next(rng) % (n_dict - 2));
        }
    }
    m->row_ptr[rows] = (uint32_t)j;
    free(len);
}

static void random_case(czk_gpu *g, czk_rng *rng, size_t rows, size_t n_in, size_t n_aux, czk_pool *pool) {
    czk_r1cs_compact r;
    memset(&r, 0, sizeof r);
    r.n_inputs = n_in;
    r.n_aux = n_aux;
    r.n_constraints = rows;
    r.n_dict = 2 + czk_rng_next(rng) % 50;
    r.dict = czk_mem_alloc(r.n_dict * sizeof(czk_fr), CZK_MEM_R1CS);
    r.dict[0] = CZK_FR_ONE;
    czk_fr_neg(&r.dict[1], &CZK_FR_ONE);
    for (size_t i = 2; i < r.n_dict; i++) czk_fr_random(&r.dict[i], rng);
    random_matrix(&r.a, rows, n_in + n_aux, r.n_dict, rng);
    random_matrix(&r.b, rows, n_in + n_aux, r.n_dict, rng);
    random_matrix(&r.c, rows, n_in + n_aux, r.n_dict, rng);
    czk_witness w = {czk_mem_alloc(n_in * sizeof(czk_fr), CZK_MEM_SYNTH), n_in,
                     n_aux ? czk_mem_alloc(n_aux * sizeof(czk_fr), CZK_MEM_SYNTH) : NULL, n_aux};
    for (size_t i = 0; i < n_in + n_aux; i++) {
        czk_fr *x = i < n_in ? &w.input[i] : &w.aux[i - n_in];
        const uint64_t y = czk_rng_next(rng) % 4;
        if (y == 0) czk_fr_set_zero(x);
        else if (y == 1) *x = CZK_FR_ONE;
        else czk_fr_random(x, rng);
    }
    w.input[0] = CZK_FR_ONE;
    czk_fr *want[3];
    CHECK(czk_r1cs_compact_eval_abc(&r, &w, &want[0], &want[1], &want[2], pool) == CZK_OK);
    char what[96];
    snprintf(what, sizeof what, "random R1CS of %zu rows, %zu inputs, %zu aux", rows, n_in, n_aux);
    compare(g, &r, &w, want, domain_of(rows + n_in), pool, what);
    for (int k = 0; k < 3; k++) czk_mem_free(want[k]);
    czk_witness_free(&w);
    czk_r1cs_compact_free(&r);
}

/* ---- built-in circuits ------------------------------------------------------------ */

static void circuit_case(czk_gpu *g, const char *id, uint64_t seed, czk_pool *pool) {
    char msg[512] = "";
    czk_circuit c;
    czk_r1cs r1cs;
    czk_r1cs_compact rc;
    czk_witness w;
    if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK || czk_circuit_record(&c, &r1cs, msg, sizeof msg) != CZK_OK) {
        CHECK_MSG(false, "%s: %s", id, msg);
        return;
    }
    CHECK_MSG(czk_r1cs_compact_from_csr(&rc, &r1cs, msg, sizeof msg) == CZK_OK, "%s: %s", id, msg);
    CHECK_MSG(czk_circuit_witness(&c, 0, seed, &w, msg, sizeof msg) == CZK_OK, "%s: %s", id, msg);
    czk_fr *want[3];
    CHECK(czk_r1cs_eval_abc(&r1cs, &w, &want[0], &want[1], &want[2], pool) == CZK_OK);
    compare(g, &rc, &w, want, domain_of(r1cs.n_constraints + r1cs.n_inputs), pool, id);
    for (int k = 0; k < 3; k++) czk_mem_free(want[k]);
    czk_witness_free(&w);
    czk_r1cs_compact_free(&rc);
    czk_r1cs_free(&r1cs);
}

/* ---- whole proofs -------------------------------------------------------------------- */

typedef struct {
    czk_circuit c;
    czk_params params;
    czk_prover_key key;
    czk_r1cs_compact rc;
    czk_prepared_vk pvk;
} keys;

static bool make_keys(keys *k, const char *id, uint64_t seed, czk_pool *pool) {
    char msg[512] = "";
    czk_r1cs r1cs;
    czk_toxic t;
    czk_toxic_from_seed(&t, seed);
    memset(k, 0, sizeof *k);
    if (czk_circuit_find(&k->c, id, msg, sizeof msg) != CZK_OK ||
        czk_circuit_record(&k->c, &r1cs, msg, sizeof msg) != CZK_OK ||
        czk_groth16_setup(&k->params, &r1cs, &t, pool, msg, sizeof msg) != CZK_OK ||
        czk_prover_key_init(&k->key, &r1cs, msg, sizeof msg) != CZK_OK ||
        czk_r1cs_compact_from_csr(&k->rc, &k->key.r1cs, msg, sizeof msg) != CZK_OK ||
        czk_vk_prepare(&k->pvk, &k->params.vk) != CZK_OK) {
        fprintf(stderr, "make_keys(%s): %s\n", id, msg);
        return false;
    }
    return true;
}

static void free_keys(keys *k) {
    czk_prepared_vk_free(&k->pvk);
    czk_r1cs_compact_free(&k->rc);
    czk_prover_key_free(&k->key);
    czk_params_free(&k->params);
}

static czk_fr_packed *pack_all(const czk_fr *v, size_t n, czk_mem_tag tag, czk_pool *pool) {
    czk_fr_packed *p = NULL;
    if (czk_fr_packed_new(&p, n, tag) != CZK_OK) return NULL;
    for (size_t i = 0; i < p->n_chunks; i++)
        if (czk_fr_packed_set_chunk(p, i, v + p->chunks[i].off, tag, pool) != CZK_OK) {
            czk_fr_packed_free(p);
            return NULL;
        }
    return p;
}

/* instance seed proved by be: from_r1cs (a, b, c left to start) or plain
 * a, b, c; aux packed or plain */
static czk_err prove(czk_backend *be, keys *k, uint64_t seed, bool from_r1cs, bool aux_packed, const czk_fr *r,
                     const czk_fr *s, uint8_t out[CZK_PROOF_BYTES], czk_pool *pool, char *msg, size_t msglen) {
    czk_witness w;
    czk_err e = czk_circuit_witness(&k->c, 0, seed, &w, msg, msglen);
    if (e != CZK_OK) return e;
    czk_assignment asg;
    memset(&asg, 0, sizeof asg);
    asg.input = w.input;
    asg.n_input = w.n_input;
    asg.aux = w.aux;
    asg.n_aux = w.n_aux;
    asg.n_abc = k->key.r1cs.n_constraints + k->key.r1cs.n_inputs;
    asg.a_aux_density = &k->key.a_aux;
    asg.b_input_density = &k->key.b_input;
    asg.b_aux_density = &k->key.b_aux;
    if (from_r1cs) asg.r1cs = &k->rc;
    else if ((e = czk_r1cs_eval_abc(&k->key.r1cs, &w, &asg.a, &asg.b, &asg.c, pool)) != CZK_OK) goto fail;
    if (aux_packed) {
        asg.aux_packed = pack_all(w.aux, w.n_aux, CZK_MEM_SYNTH, pool);
        czk_mem_free(asg.aux);
        asg.aux = NULL;
        if (!asg.aux_packed) {
            e = CZK_ERR_NO_MEMORY;
            goto fail;
        }
    }
    czk_backend_pending *p = NULL;
    e = czk_backend_start(be, &p, &k->params, &asg, r, s, msg, msglen);
    if (e != CZK_OK) return e;
    czk_proof proof;
    e = czk_backend_finish(be, p, &proof, msg, msglen);
    if (e == CZK_OK) czk_proof_encode(out, &proof);
    return e;
fail:
    czk_assignment_release(&asg);
    return e;
}

static void proofs(keys *k, czk_backend *cpu, czk_backend *gpu, czk_backend *gpu_host, czk_backend *gpu_g2cpu,
                   czk_rng *rng, czk_pool *pool) {
    struct {
        czk_backend *be;
        bool from_r1cs, aux_packed;
        const char *what;
    } runs[] = {
        {gpu, true, false, "a, b, c on the device, aux plain"},
        {gpu, true, true, "a, b, c on the device, aux packed"},
        {gpu, false, false, "a, b, c given plain"},
        {gpu, false, true, "a, b, c given plain, aux packed"},
        {gpu_host, true, true, "a, b, c on the host (CZK_GPU_ABC=host), aux packed"},
        {gpu_g2cpu, true, true, "a, b, c on the device, aux packed, B in G2 on the CPU"},
    };
    for (uint64_t seed = 1; seed <= 2; seed++) {
        char msg[512] = "";
        czk_fr r, s;
        czk_fr_random(&r, rng);
        czk_fr_random(&s, rng);
        uint8_t ref[CZK_PROOF_BYTES], got[CZK_PROOF_BYTES];
        czk_err e = prove(cpu, k, seed, false, false, &r, &s, ref, pool, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "cpu %s: %s", k->c.id, msg);
        for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
            czk_backend_cuda_timings t0, t1;
            czk_backend_cuda_timings_get(runs[i].be, &t0);
            e = prove(runs[i].be, k, seed, runs[i].from_r1cs, runs[i].aux_packed, &r, &s, got, pool, msg, sizeof msg);
            czk_backend_cuda_timings_get(runs[i].be, &t1);
            CHECK_MSG(e == CZK_OK, "%s, %s: %s", k->c.id, runs[i].what, msg);
            if (e != CZK_OK) continue;
            CHECK_MSG(!memcmp(ref, got, sizeof ref), "%s seed %llu, %s: the proof differs from the CPU's", k->c.id,
                      (unsigned long long)seed, runs[i].what);
            const bool on_host = runs[i].be == gpu_host;
            if (runs[i].from_r1cs) {
                CHECK_MSG(on_host ? t1.host_abc_starts == t0.host_abc_starts + 1
                                  : t1.host_abc_starts == t0.host_abc_starts && t1.abc_device_s > t0.abc_device_s,
                          "%s, %s: a, b, c were made on the %s", k->c.id, runs[i].what, on_host ? "device" : "host");
            }
        }
        CHECK_MSG(czk_mem_in_use(CZK_MEM_ABC) == 0 && czk_mem_in_use(CZK_MEM_SYNTH) == 0 &&
                      czk_mem_in_use(CZK_MEM_PENDING) == 0,
                  "%s: buffers left in use after the proofs", k->c.id);
    }
}

int main(void) {
    if (czk_gpu_count() == 0) {
        printf("test_gpu_abc: SKIP (no CUDA device)\n");
        return 77;
    }
    czk_rng rng;
    test_seed_rng(&rng, "test_gpu_abc");
    czk_pool *pool = NULL;
    CHECK(czk_pool_create(&pool, 0) == CZK_OK);
    char msg[512] = "";
    czk_gpu *g = NULL;
    CHECK_MSG(czk_gpu_open(&g, 0, 0, msg, sizeof msg) == CZK_OK, "%s", msg);
    if (g) {
        random_case(g, &rng, 1, 1, 0, pool);
        random_case(g, &rng, 100, 3, 50, pool);
        random_case(g, &rng, 5000, 7, 3000, pool);
        random_case(g, &rng, 70000, 12, 60000, pool);
        static const char *ids[] = {"demo", "synthetic-12", "synthetic-14", "gadget-sha256-512"};
        for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) circuit_case(g, ids[i], czk_rng_next(&rng), pool);
        czk_gpu_close(g);
    }

    czk_backend *cpu = NULL, *gpu = NULL, *gpu_host = NULL, *gpu_g2cpu = NULL;
    CHECK(czk_backend_cpu_open(&cpu, pool) == CZK_OK);
    czk_backend_cuda_config cfg = {0, 0, CZK_G2_GPU, pool};
    CHECK_MSG(czk_backend_cuda_open(&gpu, &cfg, msg, sizeof msg) == CZK_OK, "%s", msg);
    setenv("CZK_GPU_ABC", "host", 1);
    CHECK_MSG(czk_backend_cuda_open(&gpu_host, &cfg, msg, sizeof msg) == CZK_OK, "%s", msg);
    unsetenv("CZK_GPU_ABC");
    cfg.g2 = CZK_G2_CPU;
    CHECK_MSG(czk_backend_cuda_open(&gpu_g2cpu, &cfg, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(gpu && gpu->ops->device_abc && gpu->ops->packed_witness && !cpu->ops->device_abc);
    static const char *pids[] = {"demo", "synthetic-12", "gadget-sha256-512"};
    for (size_t i = 0; i < sizeof pids / sizeof *pids && gpu && gpu_host && gpu_g2cpu; i++) {
        keys k;
        if (!make_keys(&k, pids[i], 11 + i, pool)) {
            CHECK_MSG(false, "setup of %s failed", pids[i]);
            continue;
        }
        proofs(&k, cpu, gpu, gpu_host, gpu_g2cpu, &rng, pool);
        /* the R1CS is on the device, charged, and goes with forget */
        const size_t before = czk_backend_cuda_mem_used(gpu);
        CHECK_MSG(before >= czk_r1cs_compact_bytes(&k.rc), "%s: %zu bytes used on the device, the R1CS has %zu",
                  pids[i], before, czk_r1cs_compact_bytes(&k.rc));
        czk_backend_forget(gpu, &k.params);
        czk_backend_forget(gpu_host, &k.params);
        czk_backend_forget(gpu_g2cpu, &k.params);
        const size_t after = czk_backend_cuda_mem_used(gpu);
        CHECK_MSG(after < before && before - after >= czk_r1cs_compact_bytes(&k.rc),
                  "%s: forget freed %zu of the device's %zu bytes, the R1CS alone has %zu", pids[i],
                  before - after, before, czk_r1cs_compact_bytes(&k.rc));
        free_keys(&k);
    }
    czk_backend_cuda_timings t;
    czk_backend_cuda_timings_get(gpu, &t);
    printf("device a, b, c: %.1f ms in kernels, %.1f ms witness uploads, %.1f ms R1CS uploads, %lu host starts\n",
           t.abc_device_s * 1e3, t.witness_up_s * 1e3, t.r1cs_up_s * 1e3, t.host_abc_starts);
    czk_backend_close(gpu);
    czk_backend_close(gpu_host);
    czk_backend_close(gpu_g2cpu);
    czk_backend_close(cpu);
    czk_pool_destroy(pool);
    return test_finish("test_gpu_abc");
}
