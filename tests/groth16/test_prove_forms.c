/* The assignment's forms on the CPU prover (czk_prove_start): a, b, c
 * given plain, given packed, or left to start to evaluate from the compact
 * R1CS (asg->r1cs), each with the aux values plain or packed
 * (asg->aux_packed), give byte-identical proofs for the same r, s, which
 * verify; czk_prove_check refuses the malformed forms (an R1CS of other
 * counts, aux given twice, neither a, b, c nor an R1CS, packed aux of the
 * wrong length) and start frees everything also then. Random r, s per
 * instance (CZK_TEST_SEED repeats). */
#include <string.h>

#include "czk/circuit.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/instance.h"
#include "czk/mem.h"
#include "czk/r1cs_compact.h"
#include "test.h"

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

/* v packed chunk by chunk (chunks of mostly other values stay plain): a
 * czk_fr_packed whatever the values */
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

enum { ABC_PLAIN, ABC_PACKED, ABC_R1CS, ABC_R1CS_AND_PLAIN, ABC_FORMS };
static const char *const abc_names[] = {"a, b, c plain", "a, b, c packed", "a, b, c from the R1CS",
                                        "a, b, c plain with an R1CS too"};

/* instance seed's assignment in form `abc`, aux packed or not */
static bool make_assignment(keys *k, uint64_t seed, int abc, bool aux_packed, czk_assignment *asg, czk_pool *pool) {
    char msg[512] = "";
    czk_witness w;
    memset(asg, 0, sizeof *asg);
    if (czk_circuit_witness(&k->c, 0, seed, &w, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "witness of %s: %s\n", k->c.id, msg);
        return false;
    }
    asg->input = w.input;
    asg->n_input = w.n_input;
    asg->aux = w.aux;
    asg->n_aux = w.n_aux;
    asg->n_abc = k->key.r1cs.n_constraints + k->key.r1cs.n_inputs;
    asg->a_aux_density = &k->key.a_aux;
    asg->b_input_density = &k->key.b_input;
    asg->b_aux_density = &k->key.b_aux;
    bool ok = true;
    if (abc != ABC_R1CS) ok = czk_r1cs_eval_abc(&k->key.r1cs, &w, &asg->a, &asg->b, &asg->c, pool) == CZK_OK;
    if (ok && abc == ABC_PACKED) {
        czk_fr **v[3] = {&asg->a, &asg->b, &asg->c};
        czk_fr_packed **pv[3] = {&asg->a_packed, &asg->b_packed, &asg->c_packed};
        for (int j = 0; j < 3 && ok; j++) {
            *pv[j] = pack_all(*v[j], asg->n_abc, CZK_MEM_ABC, pool);
            ok = *pv[j] != NULL;
            czk_mem_free(*v[j]);
            *v[j] = NULL;
        }
    }
    if (abc == ABC_R1CS || abc == ABC_R1CS_AND_PLAIN) asg->r1cs = &k->rc;
    if (ok && aux_packed) {
        asg->aux_packed = pack_all(w.aux, w.n_aux, CZK_MEM_SYNTH, pool);
        ok = asg->aux_packed != NULL;
        czk_mem_free(asg->aux);
        asg->aux = NULL;
    }
    if (!ok) czk_assignment_release(asg);
    return ok;
}

static bool nothing_in_use(void) {
    return czk_mem_in_use(CZK_MEM_ABC) == 0 && czk_mem_in_use(CZK_MEM_SYNTH) == 0 &&
           czk_mem_in_use(CZK_MEM_PENDING) == 0;
}

static void forms_agree(keys *k, czk_rng *rng, czk_pool *pool) {
    for (uint64_t seed = 1; seed <= 2; seed++) {
        czk_fr r, s;
        czk_fr_random(&r, rng);
        czk_fr_random(&s, rng);
        uint8_t ref[CZK_PROOF_BYTES];
        bool have_ref = false;
        for (int abc = 0; abc < ABC_FORMS; abc++) {
            for (int ap = 0; ap < 2; ap++) {
                char msg[512] = "";
                czk_assignment asg;
                if (!make_assignment(k, seed, abc, ap, &asg, pool)) {
                    CHECK_MSG(false, "%s: the assignment (%s, aux %s) could not be made", k->c.id, abc_names[abc],
                              ap ? "packed" : "plain");
                    continue;
                }
                czk_proof proof;
                czk_err e = czk_prove(&proof, &k->params, &asg, &r, &s, pool, msg, sizeof msg);
                CHECK_MSG(e == CZK_OK, "%s (%s, aux %s): %s", k->c.id, abc_names[abc], ap ? "packed" : "plain", msg);
                if (e != CZK_OK) continue;
                uint8_t enc[CZK_PROOF_BYTES];
                czk_proof_encode(enc, &proof);
                if (!have_ref) {
                    memcpy(ref, enc, sizeof ref);
                    have_ref = true;
                    czk_witness w;
                    CHECK(czk_circuit_witness(&k->c, 0, seed, &w, msg, sizeof msg) == CZK_OK);
                    CHECK_MSG(czk_verify(&k->pvk, &proof, w.input + 1, w.n_input - 1) == CZK_OK,
                              "%s: the proof does not verify", k->c.id);
                    czk_witness_free(&w);
                } else {
                    CHECK_MSG(!memcmp(ref, enc, sizeof ref), "%s seed %llu: %s with aux %s proves differently",
                              k->c.id, (unsigned long long)seed, abc_names[abc], ap ? "packed" : "plain");
                }
                CHECK_MSG(nothing_in_use(), "%s (%s, aux %s): buffers left in use after the proof", k->c.id,
                          abc_names[abc], ap ? "packed" : "plain");
            }
        }
    }
}

/* malformed assignments: refused by czk_prove_check and by start, which
 * frees them */
static void refused(keys *k, czk_pool *pool) {
    size_t n = 0;
    char msg[512];
    czk_fr r = CZK_FR_ONE, s = CZK_FR_ONE;
    for (int bad = 0; bad < 5; bad++) {
        czk_assignment asg;
        if (!make_assignment(k, 1, ABC_R1CS, bad == 1 || bad == 4, &asg, pool)) {
            CHECK(false);
            continue;
        }
        czk_r1cs_compact other = k->rc;
        czk_err want = CZK_ERR_INVALID_ARGUMENT;
        const char *what = "";
        if (bad == 0) { /* an R1CS of another shape */
            other.n_constraints++;
            asg.r1cs = &other;
            want = CZK_ERR_MISMATCH;
            what = "an R1CS of other counts";
        } else if (bad == 1) { /* aux given plain and packed */
            asg.aux = czk_mem_alloc((asg.n_aux ? asg.n_aux : 1) * sizeof(czk_fr), CZK_MEM_SYNTH);
            what = "aux given twice";
        } else if (bad == 2) { /* no a, b, c and no R1CS */
            asg.r1cs = NULL;
            what = "neither a, b, c nor an R1CS";
        } else if (bad == 3) { /* half of a, b, c and an R1CS */
            asg.b = czk_mem_alloc(asg.n_abc * sizeof(czk_fr), CZK_MEM_ABC);
            what = "only b given, with an R1CS";
        } else { /* packed aux of the wrong length */
            asg.aux_packed->n++;
            what = "packed aux of n_aux + 1 values";
        }
        msg[0] = 0;
        czk_err e = czk_prove_check(&k->params, &asg, &n, msg, sizeof msg);
        CHECK_MSG(e == want, "%s: %s gave %s (%s), not %s", k->c.id, what, czk_err_str(e), msg, czk_err_str(want));
        czk_pending *p = NULL;
        e = czk_prove_start(&p, &k->params, &asg, &r, &s, pool, msg, sizeof msg);
        CHECK_MSG(e == want && !p, "%s: start with %s gave %s", k->c.id, what, czk_err_str(e));
        CHECK_MSG(!asg.aux && !asg.aux_packed && !asg.input && !asg.b, "%s: start left %s's buffers", k->c.id, what);
        CHECK_MSG(nothing_in_use(), "%s: %s left buffers in use", k->c.id, what);
    }
    /* czk_assignment_release frees a packed aux */
    czk_assignment asg;
    CHECK(make_assignment(k, 1, ABC_R1CS, true, &asg, pool));
    CHECK(asg.aux_packed != NULL);
    czk_assignment_release(&asg);
    CHECK(!asg.aux_packed && nothing_in_use());
}

int main(void) {
    czk_rng rng;
    test_seed_rng(&rng, "test_prove_forms");
    czk_pool *pool = NULL;
    CHECK(czk_pool_create(&pool, 0) == CZK_OK);
    const char *ids[] = {"demo", "synthetic-10", "gadget-poseidon-2"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        keys k;
        if (!make_keys(&k, ids[i], 5 + i, pool)) {
            CHECK_MSG(false, "setup of %s failed", ids[i]);
            continue;
        }
        forms_agree(&k, &rng, pool);
        if (i == 0) refused(&k, pool);
        free_keys(&k);
    }
    czk_pool_destroy(pool);
    return test_finish("test_prove_forms");
}
