/* czk — parameter (SRS) residency of the service: <param_cache>/<id>.params
 * loaded (or, when the config allows it, development parameters created and
 * saved there for a built-in circuit), the R1CS recorded (or read from
 * <id>.r1cs), the prover key built and the circuit registered with the
 * engine; eviction.
 *
 * The budget is checked before anything is read or made: what the load
 * will hold in host memory (budget_admit, from the files' sizes or the
 * circuit's shape) against what the budget leaves. The engine checks the
 * exact resident bytes again when the circuit is registered (they include
 * an R1CS recorded during the load, which no file announced). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "czk/backend.h"
#include "czk/circuit.h"
#include "czk/filecoin.h"
#include "czk/groth16_io.h"
#include "czk/instance.h"
#include "czk/log.h"
#include "czk/mem.h"
#include "service_internal.h"

static void set_msg(char *msg, size_t msglen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_msg(char *msg, size_t msglen, const char *fmt, ...) {
    if (!msg || !msglen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
}

static int mkdir_p(const char *path) {
    char buf[PATH_MAX];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++)
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
            buf[i] = c;
        }
    return 0;
}

/* Frees params, and first their device copy (czk_backend_cuda_params_load). */
static void params_drop(czk_service *s, czk_params *params) {
    if (params->device) czk_backend_forget(s->cfg.engine.backend, params);
    czk_params_free(params);
}

/* A Filecoin circuit's prover key in the compact form (czk/r1cs_compact.h:
 * 5.5 GiB for a 32 GiB PoRep partition, where the CSR would take 29 GB):
 * read from <state_dir>/r1cs/<id>.r1cc, else recorded (about 40 s for
 * porep-32g) and saved there for the next start. A cache file that does not
 * load is recorded again (and replaced). */
static bool compact_path(const czk_service *s, const czk_circuit *c, char dir[PATH_MAX], char path[PATH_MAX]) {
    return (size_t)snprintf(dir, PATH_MAX, "%s/r1cs", s->state_dir) < PATH_MAX - sizeof c->id - 8 &&
           (size_t)snprintf(path, PATH_MAX, "%s/%.63s.r1cc", dir, c->id) < PATH_MAX;
}

static czk_err load_key_compact(czk_service *s, const czk_circuit *c, czk_prover_key *key, char *msg,
                                size_t msglen) {
    char dir[PATH_MAX], path[PATH_MAX], m2[256] = "";
    if (!compact_path(s, c, dir, path)) {
        set_msg(msg, msglen, "the state folder's path is too long");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_r1cs_compact rc;
    double t0 = czk_svc_now_s();
    struct stat st;
    czk_err e = CZK_ERR_IO;
    if (stat(path, &st) == 0) {
        e = czk_r1cs_compact_load(&rc, c->id, path, m2, sizeof m2);
        if (e == CZK_OK) czk_log_info("%s: R1CS read from %s in %.1f s", c->id, path, czk_svc_now_s() - t0);
        else czk_log_warn("%s: %s; recording the circuit again", path, m2);
    }
    if (e != CZK_OK) {
        t0 = czk_svc_now_s();
        if ((e = czk_circuit_record_compact(c, &rc, msg, msglen)) != CZK_OK) return e;
        czk_log_info("%s: R1CS recorded (compact, %.2f GiB) in %.1f s", c->id,
                     (double)czk_r1cs_compact_bytes(&rc) / 1073741824.0, czk_svc_now_s() - t0);
        if (mkdir_p(dir) != 0) czk_log_warn("cannot make %s: %s", dir, strerror(errno));
        else if (czk_r1cs_compact_save(&rc, c->id, path, m2, sizeof m2) != CZK_OK)
            czk_log_warn("could not save %s: %s", path, m2);
    }
    if ((e = czk_prover_key_init_compact(key, &rc, msg, msglen)) != CZK_OK) czk_r1cs_compact_free(&rc);
    return e;
}

/* ---- what a load holds, against the budget ---------------------------------------- */

static double gib(uint64_t b) { return (double)b / 1073741824.0; }

/* Bytes of the regular file at path; 0 when there is none (the load itself
 * then says what is wrong with it). */
static uint64_t file_bytes(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

static size_t domain_of(size_t rows) {
    size_t n = 1;
    while (n < rows) n *= 2;
    return n;
}

/* Host bytes that czk_groth16_setup (src/groth16/setup.c) holds at once for
 * a domain of n and nv variables, at the moment its queries are all made and
 * not yet compacted: h (n - 1 G1 points), the QAP scalars u, v, w (3·nv Fr),
 * a, b_g1 and ext (3·nv G1), b_g2 (nv G2), ic and l (nv G1). A lower bound:
 * the compacted queries and the fixed-base tables come on top of it. */
static uint64_t setup_bytes(size_t n, size_t nv) {
    const uint64_t g1 = sizeof(czk_g1_affine), g2 = sizeof(czk_g2_affine), fr = sizeof(czk_fr);
    return (uint64_t)(n ? n - 1 : 0) * g1 + (uint64_t)nv * (3 * fr + 4 * g1 + g2);
}

/* Host bytes of r's matrices. */
static uint64_t r1cs_bytes(const czk_r1cs *r) {
    const czk_csr *m[3] = {&r->a, &r->b, &r->c};
    uint64_t b = 0;
    for (int i = 0; i < 3; i++) b += czk_mem_size(m[i]->row_ptr) + czk_mem_size(m[i]->col) + czk_mem_size(m[i]->coeff);
    return b;
}

/* Admits a load of circuit ent->id that will hold `need` more bytes of host
 * memory (`what` says what they are). CZK_ERR_PRECONDITION when the budget
 * can never hold them: more than it leaves beside the backend's fixed
 * memory (what is resident that no circuit holds), so that no eviction
 * makes room. CZK_ERR_NO_MEMORY when it cannot now: the resident bytes, the
 * needs admitted to the other loads in progress, and one partition of the
 * largest circuit with unfinished jobs (the room the engine keeps for them,
 * czk_engine_register_circuit) leave too little. On success the need is
 * ent's until its load ends, counted against the loads admitted after it;
 * a second admit of the same load replaces it. */
static czk_err budget_admit(czk_service *s, srs_entry *ent, uint64_t need, const char *what, char *msg,
                            size_t msglen) {
    /* one partition of each circuit with unfinished jobs (a short list: one
     * entry per resident circuit at most) */
    uint64_t partition = 0;
    pthread_mutex_lock(&s->mu);
    size_t n_ids = 0, cap = 0;
    for (srs_entry *x = s->srs; x; x = x->next) cap++;
    char (*ids)[64] = cap ? malloc(cap * sizeof *ids) : NULL;
    for (srs_entry *x = s->srs; x && ids; x = x->next) {
        bool used = false;
        for (svc_job *j = s->jobs; j && !used; j = j->next) used = !strcmp(j->circuit_id, x->id);
        if (used && x->loaded) memcpy(ids[n_ids++], x->id, sizeof x->id);
    }
    pthread_mutex_unlock(&s->mu);
    for (size_t i = 0; i < n_ids; i++) {
        uint64_t p = czk_engine_partition_estimate(s->engine, ids[i]);
        if (p > partition) partition = p;
    }
    free(ids);

    czk_engine_stats st;
    czk_engine_stats_get(s->engine, &st);
    uint64_t total = st.budget_total, resident = st.budget_resident, circuits = 0, others = 0;
    size_t n_resident = 0;
    czk_err e = CZK_OK;
    pthread_mutex_lock(&s->mu);
    for (srs_entry *x = s->srs; x; x = x->next) {
        if (x->loaded) circuits += x->size_bytes, n_resident++;
        else if (x->loading && x != ent) others += x->need_bytes;
    }
    uint64_t fixed = resident > circuits ? resident - circuits : 0;
    uint64_t room_ever = total > fixed ? total - fixed : 0, held = resident + others + partition;
    if (need > room_ever) {
        e = CZK_ERR_PRECONDITION;
        set_msg(msg, msglen,
                "the memory budget (%" PRIu64 " bytes, %.3g GiB) is too small for the parameters of %s: %s "
                "takes %" PRIu64 " bytes (%.3g GiB), more than the %" PRIu64
                " bytes it leaves beside the backend's %" PRIu64 " fixed bytes; raise the budget to at least %" PRIu64
                " bytes (%.3g GiB)",
                total, gib(total), ent->id, what, need, gib(need), room_ever, fixed, fixed + need,
                gib(fixed + need));
    } else if (need > total - (held < total ? held : total)) {
        e = CZK_ERR_NO_MEMORY;
        set_msg(msg, msglen,
                "the memory budget (%" PRIu64 " bytes, %.3g GiB) has no room now for the parameters of %s: %s takes %" PRIu64
                " bytes (%.3g GiB), and %" PRIu64 " bytes are held: %" PRIu64 " resident (the backend's %" PRIu64
                " and %zu circuit(s), which EvictSRS frees), %" PRIu64 " admitted to other loads in progress, %" PRIu64
                " kept for a partition of the unfinished jobs",
                total, gib(total), ent->id, what, need, gib(need), held, resident, fixed, n_resident, others,
                partition);
    } else {
        ent->need_bytes = need;
    }
    pthread_mutex_unlock(&s->mu);
    return e;
}

/* ---- loading -------------------------------------------------------------------- */

/* Development parameters for built-in circuit c, made and saved as ppath
 * (and rpath, the .vk beside it): the budget is checked against setup's
 * buffers and the R1CS, from the circuit's shape before it is recorded when
 * its profile gives it (a synthetic circuit: one variable per row besides
 * ONE, a domain of rows + inputs), and from the recorded R1CS before setup. */
static czk_err make_dev_params(czk_service *s, srs_entry *ent, const czk_circuit *c, const char *ppath,
                               const char *rpath, czk_params *params, czk_r1cs *r1cs, char *msg, size_t msglen) {
    czk_err e;
    const czk_synthetic_profile *pr = &c->profile;
    if (pr->constraints &&
        (e = budget_admit(s, ent, setup_bytes(domain_of(pr->constraints + pr->inputs), pr->constraints + 1),
                          "making development parameters (setup's buffers)", msg, msglen)) != CZK_OK)
        return e;
    if (s->cfg.on_load) s->cfg.on_load(s->cfg.on_load_ctx, c->id);
    czk_log_warn("%s not found: creating development parameters for %s (NOT from a trusted setup)", ppath, c->id);
    if ((e = czk_circuit_record(c, r1cs, msg, msglen)) != CZK_OK) return e;
    size_t nv = r1cs->n_inputs + r1cs->n_aux;
    if ((e = budget_admit(s, ent,
                          setup_bytes(domain_of(r1cs->n_constraints + r1cs->n_inputs), nv) + r1cs_bytes(r1cs),
                          "making development parameters (setup's buffers and the R1CS)", msg, msglen)) != CZK_OK) {
        czk_r1cs_free(r1cs);
        return e;
    }
    czk_toxic t;
    if ((e = czk_toxic_from_os(&t)) != CZK_OK ||
        (e = czk_groth16_setup(params, r1cs, &t, czk_pool_default(), msg, msglen)) != CZK_OK) {
        memset(&t, 0, sizeof t);
        czk_r1cs_free(r1cs);
        return e;
    }
    memset(&t, 0, sizeof t);
    if (mkdir_p(s->param_cache) != 0) {
        set_msg(msg, msglen, "param cache %s: %s", s->param_cache, strerror(errno));
        e = CZK_ERR_IO;
    } else if ((e = czk_params_write(params, ppath, msg, msglen)) == CZK_OK) {
        char m2[256];
        if (czk_r1cs_save(r1cs, c->id, rpath, m2, sizeof m2) != CZK_OK)
            czk_log_warn("could not save %s: %s", rpath, m2);
        char vpath[PATH_MAX];
        snprintf(vpath, sizeof vpath, "%s/%s.vk", s->param_cache, c->id);
        if (czk_vk_write(&params->vk, vpath, m2, sizeof m2) != CZK_OK) czk_log_warn("could not save %s: %s", vpath, m2);
        czk_log_info("saved development parameters for %s to %s", c->id, ppath);
    }
    if (e != CZK_OK) {
        params_drop(s, params);
        czk_r1cs_free(r1cs);
    }
    return e;
}

/* Parameters and prover key of circuit c from the param cache. A Filecoin
 * circuit's parameters are Filecoin's v28 files under their own names, never
 * made up here (CZK_ERR_PRECONDITION naming the file when absent); czk's
 * own circuits get development parameters (saved there) when theirs is
 * absent and the config allows it (CZK_ERR_PRECONDITION otherwise). */
static czk_err load_params(czk_service *s, srs_entry *ent, const czk_circuit *c, czk_params *params,
                           czk_prover_key *key, char *msg, size_t msglen) {
    char ppath[PATH_MAX], rpath[PATH_MAX], cdir[PATH_MAX], cpath[PATH_MAX] = "";
    const czk_fil_params_file *fil = czk_fil_params_file_find(c->id);
    if (fil) snprintf(ppath, sizeof ppath, "%s/%s", s->param_cache, fil->params_name);
    else snprintf(ppath, sizeof ppath, "%s/%s.params", s->param_cache, c->id);
    snprintf(rpath, sizeof rpath, "%s/%s.r1cs", s->param_cache, c->id);
    struct stat st;
    czk_r1cs r1cs;
    czk_err e;
    memset(params, 0, sizeof *params);
    if (stat(ppath, &st) != 0) {
        if (errno != ENOENT) {
            set_msg(msg, msglen, "%s: %s", ppath, strerror(errno));
            return CZK_ERR_IO;
        }
        if (fil) {
            set_msg(msg, msglen,
                    "the parameters of %s are not in the param cache: %s is missing (Filecoin's v28 file, as "
                    "paramfetch downloads it; `czk setup --circuit %s --out DIR` writes development ones)",
                    c->id, ppath, c->id);
            return CZK_ERR_PRECONDITION;
        }
        if (!s->cfg.generate_dev_params) {
            set_msg(msg, msglen,
                    "the parameters of %s are not in the param cache: %s is missing; `czk setup --circuit %s --out "
                    "%s` writes development ones (NOT a trusted setup), or czkd makes them itself with "
                    "srs.generate_dev_params = true (--generate-dev-params true)",
                    c->id, ppath, c->id, s->param_cache);
            return CZK_ERR_PRECONDITION;
        }
        if ((e = make_dev_params(s, ent, c, ppath, rpath, params, &r1cs, msg, msglen)) != CZK_OK) return e;
    } else {
        /* the queries' points take in memory the bytes they take in the file
         * (uncompressed, as czk_g1_affine and czk_g2_affine hold them); the
         * R1CS, as its file (or the compact one) says, when there is one */
        _Static_assert(sizeof(czk_g1_affine) == 96 && sizeof(czk_g2_affine) == 192,
                       "a decoded point takes its uncompressed encoding's bytes");
        uint64_t r1 = fil ? (compact_path(s, c, cdir, cpath) ? file_bytes(cpath) : 0) : file_bytes(rpath);
        czk_backend *be = s->cfg.engine.backend;
        bool cuda = be && !strcmp(czk_backend_name(be), "cuda");
        const char *r1path = fil ? cpath : rpath;
        char what[2 * PATH_MAX + 64];
        if (cuda) snprintf(what, sizeof what, "reading %s (the parameters go to the GPU)", r1 ? r1path : "no R1CS file");
        else snprintf(what, sizeof what, "reading %s%s%s", ppath, r1 ? " and " : "", r1 ? r1path : "");
        if ((e = budget_admit(s, ent, (cuda ? 0 : (uint64_t)st.st_size) + r1, what, msg, msglen)) != CZK_OK)
            return e;
        if (s->cfg.on_load) s->cfg.on_load(s->cfg.on_load_ctx, c->id);
        /* with the CUDA backend the queries go from the file straight to the
         * device (a 32 GiB PoRep's 47 GB never touch the host); the host
         * copy only where the backend cannot take them (B in G2 on the CPU) */
        e = CZK_ERR_UNSUPPORTED;
        if (cuda) {
            double t0 = czk_svc_now_s();
            char m2[400] = "";
            e = czk_backend_cuda_params_load(be, ppath, params, m2, sizeof m2);
            if (e == CZK_OK)
                czk_log_info("%s: parameters loaded to the GPU in %.1f s (%.1f GB)", c->id, czk_svc_now_s() - t0,
                             (double)st.st_size / 1e9);
            else if (e == CZK_ERR_UNSUPPORTED)
                czk_log_info("%s: parameters read to the host (%s)", c->id, m2);
            else {
                set_msg(msg, msglen, "%s", m2);
                return e;
            }
            if (e == CZK_ERR_UNSUPPORTED) {
                snprintf(what, sizeof what, "reading %s to the host%s%s", ppath, r1 ? " and " : "", r1 ? r1path : "");
                czk_err b = budget_admit(s, ent, (uint64_t)st.st_size + r1, what, msg, msglen);
                if (b != CZK_OK) return b;
            }
        }
        if (e == CZK_ERR_UNSUPPORTED &&
            (e = czk_params_read(params, ppath, CZK_DECODE_TRUSTED, czk_pool_default(), msg, msglen)) != CZK_OK)
            return e;
        if (fil) {
            if ((e = load_key_compact(s, c, key, msg, msglen)) != CZK_OK) {
                params_drop(s, params);
                return e;
            }
            if (key->r1cs.n_inputs != params->vk.n_ic || key->r1cs.n_aux != params->n_l) {
                set_msg(msg, msglen,
                        "%s does not belong to circuit %s (%zu inputs, %zu aux; the circuit has %zu, %zu)", ppath,
                        c->id, params->vk.n_ic, params->n_l, key->r1cs.n_inputs, key->r1cs.n_aux);
                params_drop(s, params);
                czk_prover_key_free(key);
                return CZK_ERR_MISMATCH;
            }
            return CZK_OK;
        }
        e = stat(rpath, &st) == 0 ? czk_r1cs_load(&r1cs, c->id, rpath, msg, msglen)
                                  : czk_circuit_record(c, &r1cs, msg, msglen);
        if (e != CZK_OK) {
            params_drop(s, params);
            return e;
        }
        if (r1cs.n_inputs != params->vk.n_ic || r1cs.n_aux != params->n_l) {
            set_msg(msg, msglen, "%s does not belong to circuit %s (%zu inputs, %zu aux; the circuit has %zu, %zu)",
                    ppath, c->id, params->vk.n_ic, params->n_l, r1cs.n_inputs, r1cs.n_aux);
            params_drop(s, params);
            czk_r1cs_free(&r1cs);
            return CZK_ERR_MISMATCH;
        }
    }
    if ((e = czk_prover_key_init(key, &r1cs, msg, msglen)) != CZK_OK) {
        params_drop(s, params);
        czk_r1cs_free(&r1cs);
    }
    return e;
}

/* Makes circuit_id resident (one loader at a time per circuit; others wait
 * for it). *load_ms: 0 when it already was. */
czk_err czk_svc_ensure_loaded(czk_service *s, const char *circuit_id, bool *already, uint64_t *load_ms, char *msg,
                             size_t msglen) {
    *already = false;
    *load_ms = 0;
    czk_circuit c;
    czk_err e = czk_circuit_find(&c, circuit_id, msg, msglen);
    if (e != CZK_OK) return e;
    pthread_mutex_lock(&s->mu);
    srs_entry *ent = czk_svc_find_srs(s, c.id);
    if (!ent) {
        ent = calloc(1, sizeof *ent);
        if (!ent) {
            pthread_mutex_unlock(&s->mu);
            return CZK_ERR_NO_MEMORY;
        }
        snprintf(ent->id, sizeof ent->id, "%s", c.id);
        ent->next = s->srs;
        s->srs = ent;
    }
    while (ent->loading && !s->closing) pthread_cond_wait(&s->cv, &s->mu);
    if (s->closing) {
        pthread_mutex_unlock(&s->mu);
        set_msg(msg, msglen, "the service is shutting down");
        return CZK_ERR_SHUTDOWN;
    }
    if (ent->loaded) {
        *already = true;
        pthread_mutex_unlock(&s->mu);
        return CZK_OK;
    }
    ent->loading = true;
    ent->need_bytes = 0;
    ent->load_start_s = czk_svc_now_s();
    pthread_mutex_unlock(&s->mu);

    double t0 = czk_svc_now_s();
    czk_log_info("loading parameters of %s from %s", c.id, s->param_cache);
    czk_params params;
    czk_prover_key key;
    size_t size = 0;
    e = load_params(s, ent, &c, &params, &key, msg, msglen);
    if (e == CZK_OK) {
        czk_engine_stats a, b;
        czk_engine_stats_get(s->engine, &a);
        e = czk_engine_register_circuit(s->engine, &c, &params, &key, msg, msglen);
        czk_engine_stats_get(s->engine, &b);
        if (e != CZK_OK) {
            params_drop(s, &params);
            czk_prover_key_free(&key);
        } else {
            size = b.budget_resident > a.budget_resident ? b.budget_resident - a.budget_resident : 0;
        }
    }
    uint64_t ms = czk_svc_ms_of(czk_svc_now_s() - t0);
    pthread_mutex_lock(&s->mu);
    ent->loading = false;
    ent->need_bytes = 0;
    if (e == CZK_OK) {
        ent->loaded = true;
        ent->size_bytes = size;
        ent->load_ms = ms;
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (e == CZK_OK) {
        czk_log_info("%s resident: %.1f MiB in %" PRIu64 " ms", c.id, (double)size / 1048576.0, ms);
        *load_ms = ms;
    } else {
        /* a refusal before the load (the budget, a missing file) is the
         * caller's to see, a load cut short by the shutdown nobody's; a load
         * that failed is the daemon's problem */
        czk_log(e == CZK_ERR_SHUTDOWN                                 ? CZK_LOG_INFO
                : e == CZK_ERR_PRECONDITION || e == CZK_ERR_NO_MEMORY ? CZK_LOG_WARN
                                                                      : CZK_LOG_ERROR,
                NULL, CZK_LOG_NO_PART, "%s not loaded: %s", c.id, msg && msglen ? msg : czk_err_str(e));
    }
    return e;
}

czk_err czk_service_preload(czk_service *s, const char *circuit_id, bool *already_loaded, uint64_t *load_ms,
                            char *msg, size_t msglen) {
    bool al = false;
    uint64_t ms = 0;
    if (!circuit_id) {
        set_msg(msg, msglen, "no circuit id");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (!czk_svc_enter(s)) {
        set_msg(msg, msglen, "the service is closed");
        return CZK_ERR_SHUTDOWN;
    }
    czk_err e = czk_svc_wait_restored(s, msg, msglen) ? czk_svc_ensure_loaded(s, circuit_id, &al, &ms, msg, msglen)
                                                      : CZK_ERR_SHUTDOWN;
    czk_svc_leave(s);
    if (already_loaded) *already_loaded = al;
    if (load_ms) *load_ms = ms;
    return e;
}

czk_err czk_service_evict(czk_service *s, const char *circuit_id, bool *was_loaded, uint64_t *freed_bytes,
                          char *msg, size_t msglen) {
    if (was_loaded) *was_loaded = false;
    if (freed_bytes) *freed_bytes = 0;
    if (!circuit_id) {
        set_msg(msg, msglen, "no circuit id");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (!czk_svc_enter(s)) {
        set_msg(msg, msglen, "the service is closed");
        return CZK_ERR_SHUTDOWN;
    }
    czk_err e = CZK_OK;
    if (!czk_svc_wait_restored(s, msg, msglen)) {
        czk_svc_leave(s);
        return CZK_ERR_SHUTDOWN;
    }
    pthread_mutex_lock(&s->submit_mu);
    pthread_mutex_lock(&s->mu);
    srs_entry *ent = czk_svc_find_srs(s, circuit_id);
    size_t users = 0;
    for (svc_job *j = s->jobs; j; j = j->next) users += !strcmp(j->circuit_id, circuit_id);
    if (!ent || (!ent->loaded && !ent->loading)) {
        pthread_mutex_unlock(&s->mu);
        goto out;
    }
    if (ent->loading || users) {
        pthread_mutex_unlock(&s->mu);
        if (users) set_msg(msg, msglen, "%s is in use by %zu unfinished job(s)", circuit_id, users);
        else set_msg(msg, msglen, "%s is being loaded", circuit_id);
        e = CZK_ERR_BUSY;
        goto out;
    }
    uint64_t size = ent->size_bytes;
    pthread_mutex_unlock(&s->mu);
    e = czk_engine_evict_circuit(s->engine, circuit_id, msg, msglen);
    if (e == CZK_OK || e == CZK_ERR_NOT_FOUND) {
        pthread_mutex_lock(&s->mu);
        ent->loaded = false;
        ent->size_bytes = 0;
        pthread_mutex_unlock(&s->mu);
        if (e == CZK_OK) {
            if (was_loaded) *was_loaded = true;
            if (freed_bytes) *freed_bytes = size;
            czk_log_info("%s evicted: %.1f MiB freed", circuit_id, (double)size / 1048576.0);
        }
        e = CZK_OK;
    }
out:
    pthread_mutex_unlock(&s->submit_mu);
    czk_svc_leave(s);
    return e;
}

