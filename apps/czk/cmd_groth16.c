/* czk — setup, prove, verify and export. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "czk/circuit.h"
#include "czk/filecoin.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/instance.h"
#include "czk/r1cs_compact.h"
#include "czk/setup_gpu.h"

#define MSG 1024

static void join(char *out, size_t cap, const char *dir, const char *id, const char *ext) {
    snprintf(out, cap, "%s/%s%s", dir, id, ext);
}

/* Writes params (or vk) to path only if no file is there: written to
 * path.tmp, then linked to path (link refuses an existing name). */
static czk_err write_new(const char *path, const czk_params *params, const czk_vk *vk, char *msg, size_t msglen) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    czk_err e = params ? czk_params_write(params, tmp, msg, msglen) : czk_vk_write(vk, tmp, msg, msglen);
    if (e != CZK_OK) {
        unlink(tmp);
        return e;
    }
    if (link(tmp, path) != 0) {
        snprintf(msg, msglen, "%s: %s; not overwriting it", path, strerror(errno));
        unlink(tmp);
        return CZK_ERR_IO;
    }
    unlink(tmp);
    return CZK_OK;
}

/* FILE.params -> FILE.r1cs (the recorded circuit setup saved beside it). */
static void sibling(char *out, size_t cap, const char *params_path, const char *ext) {
    snprintf(out, cap, "%s", params_path);
    char *dot = strrchr(out, '.');
    char *slash = strrchr(out, '/');
    if (dot && (!slash || dot > slash)) *dot = 0;
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s", ext);
}

static czk_err record_adapter(czk_cs *cs, void *ctx) {
    const czk_circuit *c = ctx;
    return c->synthesize(cs, c, 0, 0);
}

static void setup_log(void *ctx, const char *line) {
    printf("setup %s: %s\n", (const char *)ctx, line);
    fflush(stdout);
}

/* czk setup --gpu: the compact R1CS (never the CSR: porep-32g's is 29 GB)
 * and czk_gpu_setup_write, which writes both files; no .r1cs is saved
 * (prove records the circuit when it is absent). */
static int setup_gpu(const czk_circuit *c, const char *id, const char *ppath, const char *vpath, int replace,
                     int device, const char *seed_s, uint64_t seed) {
    char msg[MSG] = "";
    double t0 = cli_now();
    czk_r1cs_compact r;
    czk_err e = czk_r1cs_compact_record(&r, record_adapter, (void *)c, msg, sizeof msg);
    if (e != CZK_OK) {
        fprintf(stderr, "czk setup: recording %s failed: %s\n", id, msg);
        return CLI_FAIL;
    }
    printf("setup %s: recorded the compact R1CS (%zu constraints, %zu inputs, %zu aux, %.2f GiB) in %.2f s\n", id,
           r.n_constraints, r.n_inputs, r.n_aux, (double)czk_r1cs_compact_bytes(&r) / (double)(1u << 30),
           cli_now() - t0);
    fflush(stdout);
    czk_toxic toxic;
    if (seed_s) {
        czk_toxic_from_seed(&toxic, seed);
    } else if (czk_toxic_from_os(&toxic) != CZK_OK) {
        fprintf(stderr, "czk setup: no randomness from the operating system\n");
        czk_r1cs_compact_free(&r);
        return CLI_FAIL;
    }
    czk_gpu_setup_opts o = {.ordinal = device, .replace = replace, .log = setup_log, .log_ctx = (void *)id};
    e = czk_gpu_setup_write(&r, &toxic, ppath, vpath, &o, czk_pool_default(), msg, sizeof msg);
    memset(&toxic, 0, sizeof toxic);
    czk_r1cs_compact_free(&r);
    if (e != CZK_OK) {
        fprintf(stderr, "czk setup: %s\n", msg);
        return CLI_FAIL;
    }
    printf("setup %s: wrote %s and %s in %.2f s (GPU)\n", id, ppath, vpath, cli_now() - t0);
    printf("these are development parameters from %s, not a trusted setup\n",
           seed_s ? "a fixed seed" : "the OS random generator");
    return CLI_OK;
}

int cmd_setup(int argc, char **argv) {
    static const char *const known[] = {"circuit", "out", "seed", "device", NULL};
    /* --gpu is a bare flag, taken out before the --name value options */
    char *args[64];
    int nargs = 0, gpu = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 2 && !strcmp(argv[i], "--gpu")) gpu = 1;
        else if (nargs < 64) args[nargs++] = argv[i];
    }
    cli_args a;
    if (!cli_parse(&a, nargs, args, 2, known) || a.npos) return CLI_USAGE;
    const char *id = cli_get(&a, "circuit"), *dir = cli_get(&a, "out"), *seed_s = cli_get(&a, "seed");
    const char *dev_s = cli_get(&a, "device");
    if (!id) return cli_missing("setup", "circuit");
    if (!dir) return cli_missing("setup", "out");
    uint64_t seed = 0, device = 0;
    if (seed_s && !cli_parse_u64(seed_s, &seed)) {
        fprintf(stderr, "czk setup: --seed must be a non-negative integer, not '%s'\n", seed_s);
        return CLI_USAGE;
    }
    if (dev_s && (!gpu || !cli_parse_u64(dev_s, &device) || device > 1024)) {
        fprintf(stderr, "czk setup: --device takes a CUDA device number, with --gpu\n");
        return CLI_USAGE;
    }
    char msg[MSG] = "";
    czk_circuit c;
    if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk setup: %s\n", msg);
        return CLI_USAGE;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "czk setup: cannot create %s: %s\n", dir, strerror(errno));
        return CLI_FAIL;
    }
    /* a Filecoin circuit: Filecoin's file names, and never over a file
     * (it may be the real one) */
    const czk_fil_params_file *fil = czk_fil_params_file_find(id);
    char ppath[4096], vpath[4096];
    if (fil) {
        snprintf(ppath, sizeof ppath, "%s/%s", dir, fil->params_name);
        snprintf(vpath, sizeof vpath, "%s/%s", dir, fil->vk_name);
    } else {
        join(ppath, sizeof ppath, dir, id, ".params");
        join(vpath, sizeof vpath, dir, id, ".vk");
    }
    struct stat st;
    if (fil && (stat(ppath, &st) == 0 || stat(vpath, &st) == 0)) {
        fprintf(stderr, "czk setup: %s exists; not overwriting it\n", stat(ppath, &st) == 0 ? ppath : vpath);
        return CLI_FAIL;
    }
    if (gpu) return setup_gpu(&c, id, ppath, vpath, !fil, (int)device, seed_s, seed);
    double t0 = cli_now();
    czk_r1cs r1cs;
    czk_err e = czk_circuit_record(&c, &r1cs, msg, sizeof msg);
    if (e != CZK_OK) {
        fprintf(stderr, "czk setup: recording %s failed: %s\n", id, msg);
        return CLI_FAIL;
    }
    czk_toxic toxic;
    if (seed_s) {
        czk_toxic_from_seed(&toxic, seed);
    } else if (czk_toxic_from_os(&toxic) != CZK_OK) {
        fprintf(stderr, "czk setup: no randomness from the operating system\n");
        czk_r1cs_free(&r1cs);
        return CLI_FAIL;
    }
    czk_params params;
    e = czk_groth16_setup(&params, &r1cs, &toxic, czk_pool_default(), msg, sizeof msg);
    memset(&toxic, 0, sizeof toxic);
    if (e != CZK_OK) {
        fprintf(stderr, "czk setup: %s\n", msg);
        czk_r1cs_free(&r1cs);
        return CLI_FAIL;
    }
    char path[4096];
    int rc = CLI_OK;
    if ((e = fil ? write_new(ppath, &params, NULL, msg, sizeof msg) : czk_params_write(&params, ppath, msg, sizeof msg)) !=
        CZK_OK)
        goto fail;
    if ((e = fil ? write_new(vpath, NULL, &params.vk, msg, sizeof msg) : czk_vk_write(&params.vk, vpath, msg, sizeof msg)) !=
        CZK_OK)
        goto fail;
    join(path, sizeof path, dir, id, ".r1cs");
    if ((e = czk_r1cs_save(&r1cs, id, path, msg, sizeof msg)) != CZK_OK) goto fail;
    if (fil)
        printf("setup %s: %zu constraints, %zu inputs, %zu aux; wrote %s, %s and %s/%s.r1cs in %.2f s\n", id,
               r1cs.n_constraints, r1cs.n_inputs, r1cs.n_aux, ppath, vpath, dir, id, cli_now() - t0);
    else
        printf("setup %s: %zu constraints, %zu inputs, %zu aux; wrote %s/%s.{params,vk,r1cs} in %.2f s\n", id,
               r1cs.n_constraints, r1cs.n_inputs, r1cs.n_aux, dir, id, cli_now() - t0);
    printf("these are development parameters from %s, not a trusted setup\n",
           seed_s ? "a fixed seed" : "the OS random generator");
    goto done;
fail:
    fprintf(stderr, "czk setup: %s\n", msg);
    rc = CLI_FAIL;
done:
    czk_params_free(&params);
    czk_r1cs_free(&r1cs);
    return rc;
}

/* Loads FILE.r1cs saved by setup, or records the circuit when it is absent;
 * checks it against the parameters. */
static czk_err load_key(czk_prover_key *key, const czk_circuit *c, const char *params_path, const czk_params *p,
                        char *msg, size_t msglen) {
    char path[4096];
    sibling(path, sizeof path, params_path, ".r1cs");
    czk_r1cs r1cs;
    czk_err e;
    struct stat st;
    if (stat(path, &st) == 0) e = czk_r1cs_load(&r1cs, c->id, path, msg, msglen);
    else e = czk_circuit_record(c, &r1cs, msg, msglen);
    if (e != CZK_OK) return e;
    if (r1cs.n_inputs != p->vk.n_ic || r1cs.n_aux != p->n_l) {
        snprintf(msg, msglen,
                 "the parameters are not for circuit %s (they have %zu inputs and %zu aux variables, the circuit "
                 "%zu and %zu)",
                 c->id, p->vk.n_ic, p->n_l, r1cs.n_inputs, r1cs.n_aux);
        czk_r1cs_free(&r1cs);
        return CZK_ERR_MISMATCH;
    }
    return czk_prover_key_init(key, &r1cs, msg, msglen);
}

int cmd_prove(int argc, char **argv) {
    static const char *const known[] = {"circuit", "params", "input", "proof", "public", NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    const char *id = cli_get(&a, "circuit"), *pp = cli_get(&a, "params"), *in = cli_get(&a, "input"),
               *out = cli_get(&a, "proof"), *pub = cli_get(&a, "public");
    if (!id) return cli_missing("prove", "circuit");
    if (!pp) return cli_missing("prove", "params");
    if (!in) return cli_missing("prove", "input");
    if (!out) return cli_missing("prove", "proof");
    uint64_t seed;
    if (!cli_parse_u64(in, &seed)) {
        fprintf(stderr, "czk prove: --input must be a non-negative integer seed, not '%s'\n", in);
        return CLI_USAGE;
    }
    char msg[MSG] = "";
    czk_circuit c;
    if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk prove: %s\n", msg);
        return CLI_USAGE;
    }
    double t0 = cli_now();
    czk_params params;
    czk_err e = czk_params_read(&params, pp, CZK_DECODE_TRUSTED, czk_pool_default(), msg, sizeof msg);
    if (e != CZK_OK) {
        fprintf(stderr, "czk prove: %s\n", msg);
        return CLI_FAIL;
    }
    double t1 = cli_now();
    czk_prover_key key;
    if ((e = load_key(&key, &c, pp, &params, msg, sizeof msg)) != CZK_OK) {
        fprintf(stderr, "czk prove: %s\n", msg);
        czk_params_free(&params);
        return CLI_FAIL;
    }
    size_t np = c.partitions;
    czk_proof *proofs = calloc(np, sizeof *proofs);
    czk_fr *inputs = NULL;
    size_t n_inputs = 0;
    int rc = CLI_OK;
    double t2 = cli_now();
    for (size_t i = 0; i < np && e == CZK_OK; i++) {
        free(inputs);
        e = czk_prove_instance(&proofs[i], &inputs, &n_inputs, &params, &key, &c, i, seed, NULL, NULL,
                               czk_pool_default(), msg, sizeof msg);
    }
    double t3 = cli_now();
    if (e != CZK_OK) goto fail;
    if ((e = czk_proofs_write(proofs, np, out, msg, sizeof msg)) != CZK_OK) goto fail;
    if (pub && (e = czk_snarkjs_write_public(inputs, n_inputs, pub, msg, sizeof msg)) != CZK_OK) goto fail;
    printf("proved %s input %llu: %zu proof%s (%zu bytes) in %.3f s (parameters %.3f s, keys %.3f s)\n", id,
           (unsigned long long)seed, np, np == 1 ? "" : "s", np * (size_t)CZK_PROOF_BYTES, t3 - t2, t1 - t0, t2 - t1);
    goto done;
fail:
    fprintf(stderr, "czk prove: %s\n", msg);
    rc = CLI_FAIL;
done:
    free(proofs);
    free(inputs);
    czk_prover_key_free(&key);
    czk_params_free(&params);
    return rc;
}

int cmd_verify(int argc, char **argv) {
    static const char *const known[] = {"vk", "proof", "public", "c1", "request", NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    const char *vkp = cli_get(&a, "vk"), *pfp = cli_get(&a, "proof"), *pubp = cli_get(&a, "public"),
               *c1p = cli_get(&a, "c1");
    if (!vkp) return cli_missing("verify", "vk");
    if (!pfp) return cli_missing("verify", "proof");
    const char *rqp = cli_get(&a, "request");
    if ((pubp != NULL) + (c1p != NULL) + (rqp != NULL) > 1) {
        fprintf(stderr, "czk verify: give one of --public, --c1 and --request\n");
        return CLI_USAGE;
    }
    if (c1p) return cmd_verify_c1(vkp, pfp, c1p);
    if (rqp) return cmd_verify_request(vkp, pfp, rqp);
    if (!pubp) return cli_missing("verify", "public");
    char msg[MSG] = "";
    czk_vk vk;
    if (czk_vk_read(&vk, vkp, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk verify: %s\n", msg);
        return CLI_USAGE;
    }
    czk_fr *inputs = NULL;
    size_t n = 0;
    if (czk_public_read_json(&inputs, &n, pubp, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk verify: %s\n", msg);
        czk_vk_free(&vk);
        return CLI_USAGE;
    }
    int rc = CLI_FAIL;
    czk_proof *proofs = NULL;
    size_t np = 0;
    czk_prepared_vk pvk;
    memset(&pvk, 0, sizeof pvk);
    czk_err e = czk_proofs_read(&proofs, &np, pfp, msg, sizeof msg);
    if (e == CZK_ERR_IO) {
        fprintf(stderr, "czk verify: %s\n", msg);
        rc = CLI_USAGE;
        goto done;
    }
    if (e != CZK_OK) {
        printf("invalid\n");
        fprintf(stderr, "czk verify: the proof is malformed: %s\n", msg);
        goto done;
    }
    if (n + 1 != vk.n_ic) {
        printf("invalid\n");
        fprintf(stderr, "czk verify: the verifying key expects %zu public inputs, %s has %zu\n", vk.n_ic - 1, pubp, n);
        goto done;
    }
    if (np != 1) {
        fprintf(stderr, "czk verify: %s holds %zu partition proofs; this command verifies single proofs\n", pfp, np);
        rc = CLI_USAGE;
        goto done;
    }
    if ((e = czk_vk_prepare(&pvk, &vk)) != CZK_OK) {
        fprintf(stderr, "czk verify: %s\n", czk_err_str(e));
        goto done;
    }
    e = czk_verify(&pvk, &proofs[0], inputs, n);
    if (e == CZK_OK) {
        printf("valid\n");
        rc = CLI_OK;
    } else {
        printf("invalid\n");
        if (e != CZK_ERR_PROOF_INVALID) fprintf(stderr, "czk verify: %s\n", czk_err_str(e));
    }
done:
    czk_prepared_vk_free(&pvk);
    free(proofs);
    free(inputs);
    czk_vk_free(&vk);
    return rc;
}

int cmd_export(int argc, char **argv) {
    static const char *const known[] = {"format", "vk", "proof", "public", "out", NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    const char *fmt = cli_get(&a, "format"), *vkp = cli_get(&a, "vk"), *pfp = cli_get(&a, "proof"),
               *pubp = cli_get(&a, "public"), *dir = cli_get(&a, "out");
    if (!fmt) return cli_missing("export", "format");
    if (!vkp) return cli_missing("export", "vk");
    if (!dir) return cli_missing("export", "out");
    if (strcmp(fmt, "snarkjs") != 0) {
        fprintf(stderr, "czk export: unknown format '%s' (known: snarkjs)\n", fmt);
        return CLI_USAGE;
    }
    if (!pfp != !pubp) {
        fprintf(stderr, "czk export: --proof and --public go together\n");
        return CLI_USAGE;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "czk export: cannot create %s: %s\n", dir, strerror(errno));
        return CLI_FAIL;
    }
    char msg[MSG] = "", path[4096];
    czk_vk vk;
    czk_proof *proofs = NULL;
    czk_fr *inputs = NULL;
    size_t np = 0, n = 0;
    int rc = CLI_FAIL;
    if (czk_vk_read(&vk, vkp, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk export: %s\n", msg);
        return CLI_FAIL;
    }
    snprintf(path, sizeof path, "%s/verification_key.json", dir);
    if (czk_snarkjs_write_vk(&vk, path, msg, sizeof msg) != CZK_OK) goto fail;
    if (pfp) {
        if (czk_proofs_read(&proofs, &np, pfp, msg, sizeof msg) != CZK_OK) goto fail;
        if (np != 1) {
            snprintf(msg, sizeof msg, "%s holds %zu proofs; snarkjs takes one", pfp, np);
            goto fail;
        }
        if (czk_public_read_json(&inputs, &n, pubp, msg, sizeof msg) != CZK_OK) goto fail;
        if (n + 1 != vk.n_ic) {
            snprintf(msg, sizeof msg, "the verifying key expects %zu public inputs, %s has %zu", vk.n_ic - 1, pubp, n);
            goto fail;
        }
        snprintf(path, sizeof path, "%s/proof.json", dir);
        if (czk_snarkjs_write_proof(&proofs[0], path, msg, sizeof msg) != CZK_OK) goto fail;
        snprintf(path, sizeof path, "%s/public.json", dir);
        if (czk_snarkjs_write_public(inputs, n, path, msg, sizeof msg) != CZK_OK) goto fail;
    }
    printf("wrote %s/verification_key.json%s\n", dir, pfp ? ", proof.json, public.json" : "");
    rc = CLI_OK;
    goto done;
fail:
    fprintf(stderr, "czk export: %s\n", msg);
done:
    free(proofs);
    free(inputs);
    czk_vk_free(&vk);
    return rc;
}
