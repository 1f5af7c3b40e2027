/* czk — `params info` and `circuit info`: JSON descriptions; `circuit info
 * ID --compact` measures the compact R1CS (czk/r1cs_compact.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "czk/circuit.h"
#include "czk/groth16_io.h"
#include "czk/mem.h"
#include "czk/r1cs_compact.h"

static int print_json(json_t *o) {
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!s) return CLI_FAIL;
    printf("%s\n", s);
    free(s);
    return CLI_OK;
}

int cmd_params_info(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: czk params info FILE\n");
        return CLI_USAGE;
    }
    const char *path = argv[3];
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "czk params info: cannot open %s\n", path);
        return CLI_FAIL;
    }
    char msg[1024] = "";
    czk_params p;
    double t0 = cli_now();
    czk_err e = czk_params_read(&p, path, CZK_DECODE_CHECKED, czk_pool_default(), msg, sizeof msg);
    json_t *o = json_object();
    json_object_set_new(o, "file", json_string(path));
    json_object_set_new(o, "bytes", json_integer((json_int_t)st.st_size));
    if (e == CZK_OK) {
        json_object_set_new(o, "ic", json_integer((json_int_t)p.vk.n_ic));
        json_object_set_new(o, "public_inputs", json_integer((json_int_t)p.vk.n_ic - 1));
        json_object_set_new(o, "h", json_integer((json_int_t)p.n_h));
        json_object_set_new(o, "domain", json_integer((json_int_t)p.n_h + 1));
        json_object_set_new(o, "l", json_integer((json_int_t)p.n_l));
        json_object_set_new(o, "a", json_integer((json_int_t)p.n_a));
        json_object_set_new(o, "b_g1", json_integer((json_int_t)p.n_b_g1));
        json_object_set_new(o, "b_g2", json_integer((json_int_t)p.n_b_g2));
        json_object_set_new(o, "valid", json_true());
        json_object_set_new(o, "checks", json_string("structure, on curve, subgroup"));
        json_object_set_new(o, "seconds", json_real(cli_now() - t0));
        czk_params_free(&p);
    } else {
        json_object_set_new(o, "valid", json_false());
        json_object_set_new(o, "error", json_string(msg));
    }
    int rc = print_json(o);
    return e == CZK_OK ? rc : CLI_FAIL;
}

static czk_err count_adapter(czk_cs *cs, void *ctx) {
    const czk_circuit *c = ctx;
    return c->synthesize(cs, c, 0, 0);
}

/* The structure of c: the Filecoin circuits (those with synthesize_input:
 * 130M constraints for a 32 GiB PoRep partition, 125M for wpost-32g) are
 * counted without being recorded (czk_r1cs_count); the others, whose
 * synthesis may read values back, are recorded. Both give the same figures. */
static czk_err circuit_counts(const czk_circuit *c, czk_r1cs_counts *k, char *msg, size_t msglen) {
    if (c->synthesize_input) return czk_r1cs_count(k, count_adapter, (void *)c, msg, msglen);
    czk_r1cs r;
    czk_err e = czk_circuit_record(c, &r, msg, msglen);
    if (e) return e;
    czk_bitmap da, dbi, dba;
    e = czk_r1cs_density(&r, &da, &dbi, &dba);
    if (!e) {
        *k = (czk_r1cs_counts){r.n_inputs, r.n_aux, r.n_constraints, r.a.nnz, r.b.nnz, r.c.nnz,
                               czk_bitmap_count(&da), czk_bitmap_count(&dbi), czk_bitmap_count(&dba)};
        czk_bitmap_free(&da);
        czk_bitmap_free(&dbi);
        czk_bitmap_free(&dba);
    } else if (msg && msglen) {
        snprintf(msg, msglen, "out of memory for the densities");
    }
    czk_r1cs_free(&r);
    return e;
}

static json_t *jint(uint64_t v) { return json_integer((json_int_t)v); }

/* The compact R1CS of c, recorded (or loaded from `load`, and saved to
 * `save` when given): counts, dictionary size, bytes per matrix, the
 * densities' popcounts, the seconds of each step and the process's peak RSS. */
static int circuit_info_compact(const czk_circuit *c, const char *save, const char *load) {
    char msg[1024] = "";
    czk_r1cs_compact r;
    json_t *o = json_object();
    json_object_set_new(o, "circuit", json_string(c->id));
    double t0 = cli_now();
    czk_err e = load ? czk_r1cs_compact_load(&r, c->id, load, msg, sizeof msg)
                     : czk_r1cs_compact_record(&r, count_adapter, (void *)c, msg, sizeof msg);
    double t1 = cli_now();
    if (e) {
        fprintf(stderr, "czk circuit info: %s\n", msg);
        json_decref(o);
        return CLI_FAIL;
    }
    json_object_set_new(o, load ? "load_seconds" : "record_seconds", json_real(t1 - t0));
    if (load) json_object_set_new(o, "file", json_string(load));
    json_object_set_new(o, "constraints", jint(r.n_constraints));
    json_object_set_new(o, "inputs", jint(r.n_inputs));
    json_object_set_new(o, "aux", jint(r.n_aux));
    /* as recorded: without bellperson's input rows (the plain info adds them to A) */
    json_object_set_new(o, "nnz_a", jint(r.a.nnz));
    json_object_set_new(o, "nnz_b", jint(r.b.nnz));
    json_object_set_new(o, "nnz_c", jint(r.c.nnz));
    json_object_set_new(o, "n_dict", jint(r.n_dict));
    const czk_csr_compact *m[3] = {&r.a, &r.b, &r.c};
    const char *names[3] = {"bytes_a", "bytes_b", "bytes_c"};
    for (int k = 0; k < 3; k++) json_object_set_new(o, names[k], jint(4 * (r.n_constraints + 1) + 6 * m[k]->nnz));
    json_object_set_new(o, "bytes_dict", jint(32 * r.n_dict));
    json_object_set_new(o, "bytes", jint(czk_r1cs_compact_bytes(&r)));
    json_object_set_new(o, "gib", json_real((double)czk_r1cs_compact_bytes(&r) / (double)(1u << 30)));
    czk_bitmap da, dbi, dba;
    double t2 = cli_now();
    if (czk_r1cs_compact_density(&r, &da, &dbi, &dba) == CZK_OK) {
        json_object_set_new(o, "a_aux_density", jint(czk_bitmap_count(&da)));
        json_object_set_new(o, "b_input_density", jint(czk_bitmap_count(&dbi)));
        json_object_set_new(o, "b_aux_density", jint(czk_bitmap_count(&dba)));
        json_object_set_new(o, "density_seconds", json_real(cli_now() - t2));
        czk_bitmap_free(&da);
        czk_bitmap_free(&dbi);
        czk_bitmap_free(&dba);
    }
    if (save) {
        double t3 = cli_now();
        e = czk_r1cs_compact_save(&r, c->id, save, msg, sizeof msg);
        if (e) fprintf(stderr, "czk circuit info: %s\n", msg);
        json_object_set_new(o, "saved", json_string(save));
        json_object_set_new(o, "save_seconds", json_real(cli_now() - t3));
    }
    czk_r1cs_compact_free(&r);
    size_t rss = 0, peak = 0;
    czk_mem_process_rss(&rss, &peak);
    json_object_set_new(o, "peak_rss_bytes", jint(peak));
    json_object_set_new(o, "threads", json_integer(czk_pool_slots(czk_pool_default())));
    int rc = print_json(o);
    return e ? CLI_FAIL : rc;
}

int cmd_circuit_info(int argc, char **argv) {
    bool compact = false;
    const char *save = NULL, *load = NULL;
    int bad = argc < 4;
    for (int i = 4; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--compact")) compact = true;
        else if (!strcmp(argv[i], "--save") && i + 1 < argc) save = argv[++i];
        else if (!strcmp(argv[i], "--load") && i + 1 < argc) load = argv[++i];
        else bad = 1;
    }
    if (bad || ((save || load) && !compact)) {
        fprintf(stderr, "usage: czk circuit info ID [--compact [--save FILE | --load FILE]]\n");
        return CLI_USAGE;
    }
    char msg[1024] = "";
    czk_circuit c;
    if (czk_circuit_find(&c, argv[3], msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk circuit info: %s\n", msg);
        return CLI_USAGE;
    }
    if (compact) return circuit_info_compact(&c, save, load);
    czk_r1cs_counts k;
    if (circuit_counts(&c, &k, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk circuit info: %s\n", msg);
        return CLI_FAIL;
    }
    /* bellperson's extra input rows add one A entry per input */
    json_t *o = json_object();
    json_object_set_new(o, "circuit", json_string(c.id));
    json_object_set_new(o, "partitions", json_integer((json_int_t)c.partitions));
    json_object_set_new(o, "constraints", json_integer((json_int_t)k.n_constraints));
    json_object_set_new(o, "inputs", json_integer((json_int_t)k.n_inputs));
    json_object_set_new(o, "aux", json_integer((json_int_t)k.n_aux));
    json_object_set_new(o, "domain", json_integer((json_int_t)1 << (64 - __builtin_clzll(
                                                      (unsigned long long)(k.n_constraints + k.n_inputs - 1)))));
    json_object_set_new(o, "nnz_a", json_integer((json_int_t)(k.nnz_a + k.n_inputs)));
    json_object_set_new(o, "nnz_b", json_integer((json_int_t)k.nnz_b));
    json_object_set_new(o, "nnz_c", json_integer((json_int_t)k.nnz_c));
    json_object_set_new(o, "a_aux_density", json_integer((json_int_t)k.a_aux_density));
    json_object_set_new(o, "b_input_density", json_integer((json_int_t)k.b_input_density));
    json_object_set_new(o, "b_aux_density", json_integer((json_int_t)k.b_aux_density));
    return print_json(o);
}
