/* The CUDA prover backend against the CPU backend: start + finish on the GPU
 * (B in G2 on the GPU and on the CPU) give byte-identical proofs to the CPU
 * for the same r, s, and they verify; a, b, c are freed inside start; two
 * threads share one backend (the device lock); forget drops resident bases;
 * a tiny device memory cap fails cleanly and leaks nothing; a, b, c given
 * packed give the same proofs and cross PCIe packed; plain uploads go
 * packed exactly when CZK_GPU_PACK asks. SKIP without a CUDA device. */
#include <pthread.h>
#include <string.h>

#include "czk/backend.h"
#include "czk/circuit.h"
#include "czk/gpu.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/instance.h"
#include "czk/mem.h"
#include "test.h"

typedef struct {
    czk_circuit c;
    czk_params params;
    czk_prover_key key;
    czk_prepared_vk pvk;
} keys;

static bool make_keys(keys *k, const char *id, uint64_t seed, czk_pool *pool) {
    char msg[512] = "";
    czk_r1cs r1cs;
    czk_toxic t;
    czk_toxic_from_seed(&t, seed);
    if (czk_circuit_find(&k->c, id, msg, sizeof msg) != CZK_OK || czk_circuit_record(&k->c, &r1cs, msg, sizeof msg) != CZK_OK ||
        czk_groth16_setup(&k->params, &r1cs, &t, pool, msg, sizeof msg) != CZK_OK ||
        czk_prover_key_init(&k->key, &r1cs, msg, sizeof msg) != CZK_OK || czk_vk_prepare(&k->pvk, &k->params.vk) != CZK_OK) {
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

static bool in_flight_zero(void) {
    return czk_mem_in_use(CZK_MEM_ABC) == 0 && czk_mem_in_use(CZK_MEM_SYNTH) == 0 &&
           czk_mem_in_use(CZK_MEM_PENDING) == 0;
}

/* The assignment of instance `seed` (partition 0). */
static bool make_assignment(keys *k, uint64_t seed, czk_assignment *asg, czk_pool *pool) {
    char msg[512] = "";
    czk_witness w;
    czk_fr *a, *b, *c;
    if (czk_circuit_witness(&k->c, 0, seed, &w, msg, sizeof msg) != CZK_OK) return false;
    if (czk_r1cs_eval_abc(&k->key.r1cs, &w, &a, &b, &c, pool) != CZK_OK) {
        czk_witness_free(&w);
        return false;
    }
    czk_assignment v = {w.input, w.n_input, w.aux, w.n_aux, a, b, c,
                        k->key.r1cs.n_constraints + k->key.r1cs.n_inputs, &k->key.a_aux, &k->key.b_input,
                        &k->key.b_aux, NULL, NULL, NULL, NULL, NULL};
    *asg = v;
    return true;
}

/* Proves instance seed with be (pack: a, b, c given packed where they
 * pack, *packed says whether any did; NULL: plain); the encoded proof into
 * out. */
static czk_err prove_packed(czk_backend *be, keys *k, uint64_t seed, const czk_fr *r, const czk_fr *s,
                            uint8_t out[CZK_PROOF_BYTES], czk_pool *pool, bool *packed, char *msg, size_t msglen) {
    czk_assignment asg;
    if (!make_assignment(k, seed, &asg, pool)) return CZK_ERR_SYNTHESIS;
    if (packed) {
        if (czk_assignment_pack_abc(&asg, pool, NULL) != CZK_OK) {
            czk_assignment_release(&asg);
            return CZK_ERR_NO_MEMORY;
        }
        *packed = asg.a_packed || asg.b_packed || asg.c_packed;
    }
    czk_backend_pending *p = NULL;
    czk_err e = czk_backend_start(be, &p, &k->params, &asg, r, s, msg, msglen);
    if (e != CZK_OK) return e;
    if (asg.a || asg.b || asg.c || asg.a_packed || asg.b_packed || asg.c_packed) {
        snprintf(msg, msglen, "a, b, c still held after start");
        czk_backend_destroy(be, p);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_proof proof;
    e = czk_backend_finish(be, p, &proof, msg, msglen);
    if (e == CZK_OK) czk_proof_encode(out, &proof);
    return e;
}

static czk_err prove_with(czk_backend *be, keys *k, uint64_t seed, const czk_fr *r, const czk_fr *s,
                          uint8_t out[CZK_PROOF_BYTES], czk_pool *pool, char *msg, size_t msglen) {
    return prove_packed(be, k, seed, r, s, out, pool, NULL, msg, msglen);
}

static bool verifies(keys *k, uint64_t seed, const uint8_t enc[CZK_PROOF_BYTES]) {
    char msg[256];
    czk_witness w;
    czk_proof proof;
    if (czk_proof_decode(&proof, enc, msg, sizeof msg) != CZK_OK) return false;
    if (czk_circuit_witness(&k->c, 0, seed, &w, msg, sizeof msg) != CZK_OK) return false;
    bool ok = czk_verify(&k->pvk, &proof, w.input + 1, w.n_input - 1) == CZK_OK;
    czk_witness_free(&w);
    return ok;
}

/* try_packed: seed 2's a, b, c given packed */
static void equal_to_cpu(keys *k, czk_backend *cpu, czk_backend *gpu, const char *label, bool try_packed,
                         czk_pool *pool) {
    czk_rng rng;
    test_seed_rng(&rng, "test_gpu_backend");
    for (uint64_t seed = 1; seed <= 3; seed++) {
        char msg[512] = "";
        czk_fr r, s;
        czk_fr_random(&r, &rng);
        czk_fr_random(&s, &rng);
        if (seed == 3) { /* the edge of the randomness */
            czk_fr_set_zero(&r);
            czk_fr_set_zero(&s);
        }
        uint8_t pc[CZK_PROOF_BYTES], pg[CZK_PROOF_BYTES];
        czk_err e = prove_with(cpu, k, seed, &r, &s, pc, pool, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "cpu %s: %s", k->c.id, msg);
        /* seed 2: a, b, c given packed (the synthetic circuits' pack, and
         * then cross PCIe packed; the demo's stay plain) */
        bool packed = false;
        czk_backend_cuda_timings t0, t1;
        czk_backend_cuda_timings_get(gpu, &t0);
        e = prove_packed(gpu, k, seed, &r, &s, pg, pool, try_packed && seed == 2 ? &packed : NULL, msg, sizeof msg);
        czk_backend_cuda_timings_get(gpu, &t1);
        if (packed)
            CHECK_MSG(t1.packed_chunks > t0.packed_chunks, "%s %s: packed a, b, c went up plain", label, k->c.id);
        else if (!getenv("CZK_GPU_PACK"))
            CHECK_MSG(t1.packed_chunks == t0.packed_chunks, "%s %s: plain a, b, c went up packed", label, k->c.id);
        CHECK_MSG(e == CZK_OK, "%s %s seed %llu: %s (%s)", label, k->c.id, (unsigned long long)seed, czk_err_str(e),
                  msg);
        if (e != CZK_OK) continue;
        CHECK_MSG(!memcmp(pc, pg, sizeof pc), "%s %s seed %llu: the GPU proof differs from the CPU proof", label,
                  k->c.id, (unsigned long long)seed);
        CHECK_MSG(verifies(k, seed, pg), "%s %s: the GPU proof does not verify", label, k->c.id);
        CHECK(in_flight_zero()); /* a, b, c freed by start, the rest by finish */
    }
}

typedef struct {
    czk_backend *be;
    keys *k;
    uint64_t seed;
    czk_fr r, s;
    uint8_t proof[CZK_PROOF_BYTES];
    czk_err e;
    char msg[512];
    czk_pool *pool;
} job;

static void *run_job(void *arg) {
    job *j = arg;
    j->e = prove_with(j->be, j->k, j->seed, &j->r, &j->s, j->proof, j->pool, j->msg, sizeof j->msg);
    return NULL;
}

/* Four threads share one backend; each proof equals the CPU's. When a
 * start found the device lock taken, a start staged at least its a while
 * waiting (the params' bases are resident, the device has room; one start
 * stages at a time). */
static void shared_backend(keys *k, czk_backend *cpu, czk_backend *gpu, czk_pool *pool) {
    job j[4];
    pthread_t th[4];
    czk_backend_cuda_timings t0, t1;
    czk_backend_cuda_timings_get(gpu, &t0);
    czk_rng rng;
    test_seed_rng(&rng, "test_gpu_backend");
    for (int i = 0; i < 4; i++) {
        memset(&j[i], 0, sizeof j[i]);
        j[i].be = gpu;
        j[i].k = k;
        j[i].seed = 10 + (uint64_t)i;
        j[i].pool = NULL; /* the pool is not re-entrant across threads */
        czk_fr_random(&j[i].r, &rng);
        czk_fr_random(&j[i].s, &rng);
        CHECK(pthread_create(&th[i], NULL, run_job, &j[i]) == 0);
    }
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    czk_backend_cuda_timings_get(gpu, &t1);
    const unsigned long busy = t1.lock_busy - t0.lock_busy, staged = t1.prestaged - t0.prestaged;
    printf("shared backend: %lu of 4 starts found the lock taken, %lu vectors staged while waiting\n", busy, staged);
    CHECK_MSG(busy == 0 || (staged >= 1 && staged <= 3 * busy), "%lu busy starts staged %lu vectors", busy, staged);
    for (int i = 0; i < 4; i++) {
        CHECK_MSG(j[i].e == CZK_OK, "shared backend, thread %d: %s", i, j[i].msg);
        uint8_t pc[CZK_PROOF_BYTES];
        char msg[512] = "";
        CHECK(prove_with(cpu, k, j[i].seed, &j[i].r, &j[i].s, pc, pool, msg, sizeof msg) == CZK_OK);
        CHECK_MSG(!memcmp(pc, j[i].proof, sizeof pc), "shared backend, thread %d: proof differs from the CPU", i);
    }
}

/* A device cap too small for anything: start fails with CZK_ERR_NO_MEMORY
 * and a message, frees the assignment and leaves nothing on the device. */
static void tiny_cap(keys *k) {
    char msg[512] = "";
    czk_backend *be = NULL;
    czk_backend_cuda_config cfg = {0, (size_t)1 << 20, CZK_G2_GPU, NULL};
    CHECK(czk_backend_cuda_open(&be, &cfg, msg, sizeof msg) == CZK_OK);
    if (!be) return;
    czk_assignment asg;
    CHECK(make_assignment(k, 4, &asg, NULL));
    czk_backend_pending *p = NULL;
    czk_fr r = CZK_FR_ONE, s = CZK_FR_ONE;
    msg[0] = 0;
    czk_err e = czk_backend_start(be, &p, &k->params, &asg, &r, &s, msg, sizeof msg);
    CHECK_MSG(e == CZK_ERR_NO_MEMORY, "tiny cap: %s (%s)", czk_err_str(e), msg);
    CHECK_MSG(strstr(msg, "GPU") != NULL, "tiny cap: the message does not say what failed: %s", msg);
    CHECK(p == NULL);
    CHECK(in_flight_zero());
    /* what stays is the cached twiddle tables, not the partition's buffers:
     * a second failure holds no more */
    size_t held = czk_backend_cuda_mem_used(be);
    CHECK(make_assignment(k, 5, &asg, NULL));
    e = czk_backend_start(be, &p, &k->params, &asg, &r, &s, msg, sizeof msg);
    CHECK(e == CZK_ERR_NO_MEMORY && p == NULL);
    CHECK(in_flight_zero());
    CHECK_MSG(czk_backend_cuda_mem_used(be) == held && held < ((size_t)1 << 20),
              "tiny cap: %zu bytes held on the device after a second failure, %zu after the first",
              czk_backend_cuda_mem_used(be), held);
    czk_backend_close(be);
}

/* Device caps too small to keep the bases: every MSM streams them (in
 * chunks at the smaller cap) and the proofs still equal the CPU's. */
static void streamed(keys *k, czk_backend *cpu, czk_pool *pool) {
    static const size_t caps_mib[] = {200, 24};
    for (size_t i = 0; i < 2; i++) {
        char msg[512] = "";
        czk_backend *be = NULL;
        czk_backend_cuda_config cfg = {0, caps_mib[i] << 20, CZK_G2_GPU, pool};
        CHECK(czk_backend_cuda_open(&be, &cfg, msg, sizeof msg) == CZK_OK);
        if (!be) return;
        czk_fr r, s;
        czk_rng rng;
        test_seed_rng(&rng, "test_gpu_backend");
        czk_fr_random(&r, &rng);
        czk_fr_random(&s, &rng);
        uint8_t pc[CZK_PROOF_BYTES], pg[CZK_PROOF_BYTES];
        CHECK(prove_with(cpu, k, 21, &r, &s, pc, pool, msg, sizeof msg) == CZK_OK);
        czk_err e = prove_with(be, k, 21, &r, &s, pg, pool, msg, sizeof msg);
        CHECK_MSG(e == CZK_OK, "cap %zu MiB: %s (%s)", caps_mib[i], czk_err_str(e), msg);
        CHECK_MSG(e != CZK_OK || !memcmp(pc, pg, sizeof pc), "cap %zu MiB: the proof differs from the CPU's",
                  caps_mib[i]);
        czk_backend_cuda_timings t;
        czk_backend_cuda_timings_get(be, &t);
        /* H, L and the aux shares of A, B-G1, B-G2 on the device (the inputs'
         * shares run on the host): 5 uploads; more when chunked */
        printf("cap %zu MiB: %lu streamed chunks\n", caps_mib[i], t.streamed_chunks);
        CHECK_MSG(t.streamed_chunks >= 5, "cap %zu MiB: the bases were not streamed (%lu chunks)", caps_mib[i],
                  t.streamed_chunks);
        if (i == 1) CHECK_MSG(t.streamed_chunks > 5, "cap 24 MiB: no MSM was split into chunks");
        czk_backend_close(be);
    }
}

int main(void) {
    if (czk_gpu_count() == 0) {
        printf("test_gpu_backend: SKIP (no CUDA device)\n");
        return 77;
    }
    czk_pool *pool = NULL;
    CHECK(czk_pool_create(&pool, 0) == CZK_OK);
    czk_backend *cpu = NULL, *gpu = NULL, *gpu_g2cpu = NULL;
    char msg[512] = "";
    CHECK(czk_backend_cpu_open(&cpu, pool) == CZK_OK);
    czk_backend_cuda_config cfg = {0, 0, CZK_G2_GPU, pool};
    CHECK_MSG(czk_backend_cuda_open(&gpu, &cfg, msg, sizeof msg) == CZK_OK, "%s", msg);
    cfg.g2 = CZK_G2_CPU;
    CHECK_MSG(czk_backend_cuda_open(&gpu_g2cpu, &cfg, msg, sizeof msg) == CZK_OK, "%s", msg);
    CHECK(!strcmp(czk_backend_name(gpu), "cuda"));
    printf("device: %s\n", czk_backend_cuda_describe(gpu));

    const char *ids[] = {"demo", "synthetic-10", "synthetic-13", "synthetic-16"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids && gpu && gpu_g2cpu; i++) {
        keys k;
        if (!make_keys(&k, ids[i], 7 + i, pool)) {
            CHECK_MSG(false, "setup of %s failed", ids[i]);
            continue;
        }
        equal_to_cpu(&k, cpu, gpu, "cuda", true, pool);
        equal_to_cpu(&k, cpu, gpu_g2cpu, "cuda (B in G2 on the CPU)", false, pool);
        if (i == 2) {
            shared_backend(&k, cpu, gpu, pool);
            tiny_cap(&k);
        }
        if (i == 3) streamed(&k, cpu, pool);
        size_t before = czk_backend_cuda_mem_used(gpu);
        czk_backend_forget(gpu, &k.params);
        czk_backend_forget(gpu_g2cpu, &k.params);
        size_t after = czk_backend_cuda_mem_used(gpu);
        CHECK_MSG(after < before, "forget left the bases of %s on the device (%zu -> %zu bytes)", ids[i], before,
                  after);
        free_keys(&k);
    }
    /* CZK_GPU_PACK=a or 1 (test_gpu_backend_pack_a): the synthetic circuits'
     * a is mostly small values, so plain uploads went packed too (the B in
     * G2 on the CPU backend gets no packed assignments); unset, none there */
    czk_backend_cuda_timings t;
    czk_backend_cuda_timings_get(gpu_g2cpu, &t);
    const char *pack = getenv("CZK_GPU_PACK");
    printf("upload chunks packed by plain uploads: %lu (CZK_GPU_PACK=%s)\n", t.packed_chunks, pack ? pack : "");
    if (pack && (pack[0] == 'a' || pack[0] == '1'))
        CHECK_MSG(t.packed_chunks > 0, "CZK_GPU_PACK=%s, but no upload went packed", pack);
    else
        CHECK_MSG(t.packed_chunks == 0, "%lu upload chunks went packed without CZK_GPU_PACK", t.packed_chunks);
    czk_backend_close(gpu);
    czk_backend_close(gpu_g2cpu);
    czk_backend_close(cpu);
    czk_pool_destroy(pool);
    return test_finish("test_gpu_backend");
}
