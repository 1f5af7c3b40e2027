/* czk — `czk bench pipeline`: N jobs of P partitions through the engine in
 * this process, every proof verified independently afterwards; prints the
 * time per proof (steady state and overall), per-stage busy time, the GPU
 * workers' idle fraction, peak reserved budget bytes and peak RSS, and fails
 * when the peak RSS passes the budget plus a fixed overhead (below). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "czk/engine.h"
#include "czk/gpu.h"
#include "czk/groth16_io.h"

#define MSG 1024

/* What the process may hold beside the budget: code and libraries, thread
 * stacks, malloc's arenas, the parameters' decoding and the prepared vk. On
 * the CPU backend the whole process of a demo run peaks at 12 MiB and
 * synthetic-16's at 100 MiB with 36 MiB resident (docs/engine.md); 64 MiB
 * leaves room for more threads. The CUDA runtime maps host memory of its own
 * (and the backend its pinned staging buffers), so the CUDA backend's bound
 * is wider until the GPU machine has measured it. --rss-overhead overrides. */
#define RSS_OVERHEAD_CPU ((size_t)64 << 20)
#define RSS_OVERHEAD_CUDA ((size_t)1 << 30)

static bool parse_size(const char *s, size_t *out) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || v <= 0) return false;
    double mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1048576.0; end++; break;
    case 'g': case 'G': mul = 1073741824.0; end++; break;
    case 't': case 'T': mul = 1099511627776.0; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'B') end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
    if (*end) return false;
    *out = (size_t)(v * mul);
    return *out > 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* FILE.params -> FILE.r1cs when present, else the circuit recorded. */
static czk_err load_key(czk_prover_key *key, const czk_circuit *c, const char *params_path, const czk_params *p,
                        char *msg, size_t msglen) {
    char path[4096];
    snprintf(path, sizeof path, "%s", params_path);
    char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash)) *dot = 0;
    size_t len = strlen(path);
    snprintf(path + len, sizeof path - len, ".r1cs");
    czk_r1cs r1cs;
    struct stat st;
    czk_err e = stat(path, &st) == 0 ? czk_r1cs_load(&r1cs, c->id, path, msg, msglen)
                                     : czk_circuit_record(c, &r1cs, msg, msglen);
    if (e != CZK_OK) return e;
    if (r1cs.n_inputs != p->vk.n_ic || r1cs.n_aux != p->n_l) {
        snprintf(msg, msglen, "the parameters are not for circuit %s", c->id);
        czk_r1cs_free(&r1cs);
        return CZK_ERR_MISMATCH;
    }
    return czk_prover_key_init(key, &r1cs, msg, msglen);
}

static bool parse_int(const char *s, const char *name, long lo, long hi, long *out) {
    uint64_t v;
    if (!cli_parse_u64(s, &v) || (long)v < lo || (long)v > hi) {
        fprintf(stderr, "czk bench pipeline: --%s must be an integer in [%ld, %ld], not '%s'\n", name, lo, hi, s);
        return false;
    }
    *out = (long)v;
    return true;
}

int cmd_bench_pipeline(int argc, char **argv) {
    static const char *const known[] = {"circuit", "params", "jobs", "partitions", "pw", "gw", "budget", "backend",
                                        "threads", "pack-abc", "rss-overhead", NULL};
    /* --json takes no value: take it out before parsing */
    bool json = false;
    char **av = calloc((size_t)argc + 1, sizeof *av);
    int ac = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 3 && !strcmp(argv[i], "--json")) json = true;
        else av[ac++] = argv[i];
    }
    cli_args a;
    bool ok = cli_parse(&a, ac, av, 3, known) && !a.npos;
    free(av);
    if (!ok) return CLI_USAGE;
    const char *id = cli_get(&a, "circuit"), *pp = cli_get(&a, "params"), *bk = cli_get(&a, "backend");
    if (!id) return cli_missing("bench pipeline", "circuit");
    if (!pp) return cli_missing("bench pipeline", "params");
    long jobs = 8, parts = 1, pw = 2, gw = 2, threads = 0;
    if ((cli_get(&a, "jobs") && !parse_int(cli_get(&a, "jobs"), "jobs", 1, 100000, &jobs)) ||
        (cli_get(&a, "partitions") && !parse_int(cli_get(&a, "partitions"), "partitions", 1, 1000, &parts)) ||
        (cli_get(&a, "pw") && !parse_int(cli_get(&a, "pw"), "pw", 1, 256, &pw)) ||
        (cli_get(&a, "gw") && !parse_int(cli_get(&a, "gw"), "gw", 1, 256, &gw)) ||
        (cli_get(&a, "threads") && !parse_int(cli_get(&a, "threads"), "threads", 1, 4096, &threads)))
        return CLI_USAGE;
    size_t budget = 0;
    if (cli_get(&a, "budget") && !parse_size(cli_get(&a, "budget"), &budget)) {
        fprintf(stderr, "czk bench pipeline: --budget must be a size such as 64G or 512MiB, not '%s'\n",
                cli_get(&a, "budget"));
        return CLI_USAGE;
    }
    size_t overhead = 0;
    if (cli_get(&a, "rss-overhead") && !parse_size(cli_get(&a, "rss-overhead"), &overhead)) {
        fprintf(stderr, "czk bench pipeline: --rss-overhead must be a size such as 64MiB, not '%s'\n",
                cli_get(&a, "rss-overhead"));
        return CLI_USAGE;
    }
    const char *pk = cli_get(&a, "pack-abc");
    if (pk && strcmp(pk, "yes") && strcmp(pk, "no")) {
        fprintf(stderr, "czk bench pipeline: --pack-abc is yes or no, not '%s'\n", pk);
        return CLI_USAGE;
    }
    if (bk && strcmp(bk, "cpu") && strcmp(bk, "cuda")) {
        fprintf(stderr, "czk bench pipeline: --backend must be cpu or cuda, not '%s'\n", bk);
        return CLI_USAGE;
    }
    char msg[MSG] = "";
    czk_backend *backend = NULL;
    const char *backend_name = bk && !strcmp(bk, "cuda") ? "cuda" : "cpu";
    if (!cli_get(&a, "rss-overhead")) overhead = !strcmp(backend_name, "cuda") ? RSS_OVERHEAD_CUDA : RSS_OVERHEAD_CPU;
    czk_circuit c;
    if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk bench pipeline: %s\n", msg);
        return CLI_USAGE;
    }
    c.partitions = (size_t)parts;

    czk_params params;
    czk_prover_key key;
    czk_prepared_vk pvk;
    czk_err e = czk_params_read(&params, pp, CZK_DECODE_TRUSTED, czk_pool_default(), msg, sizeof msg);
    if (e != CZK_OK) {
        fprintf(stderr, "czk bench pipeline: %s\n", msg);
        return CLI_FAIL;
    }
    if ((e = load_key(&key, &c, pp, &params, msg, sizeof msg)) != CZK_OK ||
        (e = czk_vk_prepare(&pvk, &params.vk)) != CZK_OK) {
        fprintf(stderr, "czk bench pipeline: %s\n", msg[0] ? msg : czk_err_str(e));
        czk_params_free(&params);
        return CLI_FAIL;
    }
    czk_engine_config cfg;
    czk_engine_config_default(&cfg);
    cfg.budget_bytes = budget;
    cfg.partition_workers = (int)pw;
    cfg.gpu_workers = (int)gw;
    cfg.pack_abc = pk && !strcmp(pk, "yes");
    cfg.threads = (int)threads;
    czk_engine *eng = NULL;
    int rc = CLI_FAIL;
    uint64_t *ids = calloc((size_t)jobs, sizeof *ids);
    double *t_sub = calloc((size_t)jobs, sizeof *t_sub);
    double *ends = calloc((size_t)(jobs * parts), sizeof *ends);
    size_t n_ends = 0, verified = 0, failed = 0;
    if (!ids || !t_sub || !ends) goto out;
    if (!strcmp(backend_name, "cuda")) {
        czk_backend_cuda_config bcfg = {0, 0, CZK_G2_GPU, czk_pool_default()};
        if (czk_backend_cuda_open(&backend, &bcfg, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "czk bench pipeline: the CUDA backend cannot be used: %s (%d CUDA device(s) visible)\n",
                    msg, czk_gpu_count());
            czk_params_free(&params);
            czk_prover_key_free(&key);
            goto out;
        }
        cfg.backend = backend;
    }
    if ((e = czk_engine_create(&eng, &cfg, msg, sizeof msg)) != CZK_OK ||
        (e = czk_engine_register_circuit(eng, &c, &params, &key, msg, sizeof msg)) != CZK_OK) {
        fprintf(stderr, "czk bench pipeline: %s\n", msg);
        czk_params_free(&params); /* still ours when registration failed (no-ops when moved) */
        czk_prover_key_free(&key);
        goto out;
    }
    double t0 = cli_now();
    for (long i = 0; i < jobs; i++) {
        t_sub[i] = cli_now();
        if ((e = czk_engine_submit(eng, NULL, id, (uint64_t)i + 1, CZK_PRIO_NORMAL, &ids[i], msg, sizeof msg)) !=
            CZK_OK) {
            fprintf(stderr, "czk bench pipeline: %s\n", msg);
            goto out;
        }
    }
    double t_last = t0;
    for (long i = 0; i < jobs; i++) {
        czk_job_result r;
        e = czk_engine_await(eng, ids[i], -1, &r);
        if (e != CZK_OK) {
            fprintf(stderr, "czk bench pipeline: job %ld: %s\n", i, r.message[0] ? r.message : czk_err_str(e));
            failed++;
            czk_job_result_free(&r);
            continue;
        }
        for (size_t p = 0; p < r.n_partitions; p++) {
            double end = t_sub[i] + r.timeline[p].finalize_end;
            ends[n_ends++] = end;
            if (end > t_last) t_last = end;
            czk_proof proof;
            if (czk_proof_decode(&proof, r.proofs + p * CZK_PROOF_BYTES, msg, sizeof msg) == CZK_OK &&
                czk_verify(&pvk, &proof, r.public_inputs + p * r.n_public, r.n_public) == CZK_OK)
                verified++;
        }
        czk_job_result_free(&r);
    }
    double wall = t_last - t0;
    qsort(ends, n_ends, sizeof *ends, cmp_double);
    /* steady state: without the first and last `depth` completions (the
     * pipeline filling and draining), depth = pw + queue + gw */
    size_t depth = (size_t)(pw + gw + gw);
    double steady = n_ends > 1 ? (ends[n_ends - 1] - ends[0]) / (double)(n_ends - 1) : wall;
    if (n_ends > 2 * depth + 1)
        steady = (ends[n_ends - 1 - depth] - ends[depth]) / (double)(n_ends - 1 - 2 * depth);
    double overall = n_ends ? wall / (double)n_ends : 0;
    czk_engine_stats s;
    czk_engine_stats_get(eng, &s);
    size_t estimate = czk_engine_partition_estimate(eng, id);
    double gpu_idle = wall > 0 ? 1.0 - s.busy_s[CZK_STAGE_GPU] / ((double)gw * wall) : 0;
    if (gpu_idle < 0) gpu_idle = 0;
    bool zero = true;
    for (int f = 0; f < CZK_FLIGHT__COUNT; f++) zero &= s.now[f] == 0;
    size_t rss_now, rss;
    czk_mem_process_rss(&rss_now, &rss);
    size_t expected = (size_t)(jobs * parts);
    /* the promise: the process stays within its budget plus the overhead;
     * above the bytes it really reserved plus the overhead, memory is held
     * outside the budget's accounting (a warning: still within the budget) */
    bool rss_ok = rss <= s.budget_total + overhead;
    bool rss_reserved_ok = rss <= s.budget_high_water + overhead;
    rc = verified == expected && !failed && zero && rss_ok ? CLI_OK : CLI_FAIL;
    if (json) {
        json_t *o = json_object(), *busy = json_object(), *ctr = json_object();
        json_object_set_new(o, "circuit", json_string(id));
        json_object_set_new(o, "backend", json_string(backend_name));
        json_object_set_new(o, "jobs", json_integer(jobs));
        json_object_set_new(o, "partitions", json_integer(parts));
        json_object_set_new(o, "pw", json_integer(pw));
        json_object_set_new(o, "gw", json_integer(gw));
        json_object_set_new(o, "threads", json_integer(threads));
        json_object_set_new(o, "pack_abc", json_boolean(cfg.pack_abc));
        json_object_set_new(o, "proofs", json_integer((json_int_t)expected));
        json_object_set_new(o, "proofs_verified", json_integer((json_int_t)verified));
        json_object_set_new(o, "jobs_failed", json_integer((json_int_t)failed));
        json_object_set_new(o, "wall_s", json_real(wall));
        json_object_set_new(o, "s_per_proof", json_real(steady));
        json_object_set_new(o, "s_per_proof_with_fill_drain", json_real(overall));
        for (int k = 0; k < CZK_STAGE__COUNT; k++)
            json_object_set_new(busy, czk_stage_name((czk_stage)k), json_real(s.busy_s[k]));
        json_object_set_new(o, "busy_s", busy);
        json_object_set_new(o, "gpu_idle_fraction", json_real(gpu_idle));
        json_object_set_new(o, "budget_bytes", json_integer((json_int_t)s.budget_total));
        json_object_set_new(o, "resident_bytes", json_integer((json_int_t)s.budget_resident));
        json_object_set_new(o, "partition_estimate_bytes", json_integer((json_int_t)estimate));
        json_object_set_new(o, "peak_reserved_bytes", json_integer((json_int_t)s.budget_high_water));
        json_object_set_new(o, "peak_rss_bytes", json_integer((json_int_t)rss));
        json_object_set_new(o, "rss_overhead_bytes", json_integer((json_int_t)overhead));
        json_object_set_new(o, "rss_within_budget", json_boolean(rss_ok));
        json_object_set_new(o, "rss_within_reserved", json_boolean(rss_reserved_ok));
        json_object_set_new(o, "abc_high_water_bytes", json_integer((json_int_t)czk_mem_high_water(CZK_MEM_ABC)));
        for (int f = 0; f < CZK_FLIGHT__COUNT; f++)
            json_object_set_new(ctr, czk_flight_name((czk_flight)f), json_integer(s.now[f]));
        json_object_set_new(o, "counters_at_end", ctr);
        json_t *hw = json_object();
        for (int f = 0; f < CZK_FLIGHT__COUNT; f++)
            json_object_set_new(hw, czk_flight_name((czk_flight)f), json_integer(s.high_water[f]));
        json_object_set_new(o, "counters_high_water", hw);
        char *str = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(o);
        if (str) printf("%s\n", str);
        free(str);
    } else {
        printf("pipeline %s: %ld jobs × %ld partitions, pw %ld, gw %ld, backend %s%s\n", id, jobs, parts, pw, gw,
               backend_name, cfg.pack_abc ? ", a, b, c kept packed" : "");
        printf("  proofs verified      %zu / %zu\n", verified, expected);
        printf("  s/proof              %.4f steady state, %.4f with fill and drain (wall %.3f s)\n", steady, overall,
               wall);
        printf("  busy (thread-s)      synth %.3f, gpu %.3f, finish %.3f, verify %.3f\n", s.busy_s[CZK_STAGE_SYNTH],
               s.busy_s[CZK_STAGE_GPU], s.busy_s[CZK_STAGE_FINISH], s.busy_s[CZK_STAGE_VERIFY]);
        printf("  GPU workers idle     %.1f%%\n", 100 * gpu_idle);
        printf("  budget               %.1f MiB; resident %.1f MiB; one partition %.1f MiB; peak reserved %.1f MiB\n",
               s.budget_total / 1048576.0, s.budget_resident / 1048576.0, estimate / 1048576.0,
               s.budget_high_water / 1048576.0);
        printf("  peak RSS             %.1f MiB; a, b, c at most %.1f MiB at once\n", rss / 1048576.0,
               czk_mem_high_water(CZK_MEM_ABC) / 1048576.0);
        printf("  RSS bound            peak RSS %.1f MiB against budget %.1f MiB + overhead %.1f MiB: %s\n",
               rss / 1048576.0, s.budget_total / 1048576.0, overhead / 1048576.0, rss_ok ? "ok" : "EXCEEDED");
        printf("  counters at end     ");
        for (int f = 0; f < CZK_FLIGHT__COUNT; f++) printf(" %s=%lld", czk_flight_name((czk_flight)f), (long long)s.now[f]);
        printf("\n");
    }
    if (!rss_ok)
        fprintf(stderr,
                "czk bench pipeline: FAILED: peak RSS %zu bytes exceeds the budget (%zu) plus the fixed overhead "
                "(%zu, --rss-overhead)\n",
                rss, s.budget_total, overhead);
    else if (!rss_reserved_ok)
        fprintf(stderr,
                "czk bench pipeline: warning: peak RSS %zu bytes exceeds the peak reserved (%zu) plus the overhead "
                "(%zu): memory is held outside the budget's accounting\n",
                rss, s.budget_high_water, overhead);
out:
    czk_engine_destroy(eng);
    czk_backend_close(backend); /* after the engine, which borrowed it */
    czk_prepared_vk_free(&pvk);
    free(ids);
    free(t_sub);
    free(ends);
    return rc;
}
