/* czk — `czk check`: a Filecoin request's partitions synthesized in CHECK
 * mode, as czkd would prove them, without parameter files or a daemon.
 *   czk check --request FILE [--partition K]
 *   czk check --c1 C1.json --miner-id M [--sector-number S] [--registered-proof N] [--partition K]
 * --request: a request file (SubmitProofRequest as proto3 JSON,
 * czk_fil_request_from_json); --c1 is the PoRep shorthand: the request Curio
 * sends for that C1 output (cuzk's envelope or the bare JSON, whose sector
 * number must then be given). Either way czk_fil_request_prepare decodes and
 * validates it, then each partition (or only K) of the circuit it names is
 * synthesized in CHECK mode. Prints `partition K: satisfied` or the first
 * failing constraint's name. Exit 0 every partition satisfied, 1 one is not
 * or the request is refused, 2 a usage error or an unreadable file. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/circuit.h"
#include "czk/filecoin_c1.h"
#include "czk/filecoin_request.h"

#define MSG 1024

int cli_read_file(const char *path, uint8_t **out, size_t *len, size_t max, char *msg, size_t msglen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "cannot open %s: %s", path, strerror(errno));
        return CLI_USAGE;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    while (b) {
        if (n == cap) {
            uint8_t *nb = cap > max ? NULL : realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    bool err = ferror(f);
    fclose(f);
    if (!b || err || n > max) {
        snprintf(msg, msglen, "%s: %s", path, err ? "read error" : b ? "too large" : "too large or out of memory");
        free(b);
        return err ? CLI_USAGE : CLI_FAIL;
    }
    *out = b;
    *len = n;
    return CLI_OK;
}

static bool opt_u64(const char *cmd, cli_args *a, const char *name, bool *given, uint64_t *v) {
    const char *s = cli_get(a, name);
    *given = s != NULL;
    if (s && !cli_parse_u64(s, v)) {
        fprintf(stderr, "czk %s: --%s must be a non-negative integer, not '%s'\n", cmd, name, s);
        return false;
    }
    return true;
}

int cli_request_from_c1(const char *cmd, cli_args *a, const char *path, czk_fil_request *r) {
    memset(r, 0, sizeof *r);
    bool has_rp, has_sn, has_miner;
    uint64_t rp = 0, sn = 0, miner = 0;
    if (!opt_u64(cmd, a, "registered-proof", &has_rp, &rp) || !opt_u64(cmd, a, "sector-number", &has_sn, &sn) ||
        !opt_u64(cmd, a, "miner-id", &has_miner, &miner))
        return CLI_USAGE;
    if (!has_miner) {
        fprintf(stderr, "czk %s: --miner-id is required with --c1 (a C1 output does not hold it)\n", cmd);
        return CLI_USAGE;
    }
    char msg[MSG] = "";
    uint8_t *raw = NULL;
    size_t len = 0;
    int rc = cli_read_file(path, &raw, &len, (size_t)1 << 34, msg, sizeof msg);
    if (rc != CLI_OK) {
        fprintf(stderr, "czk %s: %s\n", cmd, msg);
        return rc;
    }
    /* the facts the file holds, for the fields not given */
    czk_fil_c1 c1;
    if (czk_fil_c1_decode(&c1, raw, len, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk %s: %s: %s\n", cmd, path, msg);
        free(raw);
        return CLI_FAIL;
    }
    if (!has_sn && !c1.enveloped) {
        fprintf(stderr, "czk %s: %s is a bare C1 output: give --sector-number (only cuzk's envelope holds it)\n", cmd,
                path);
        czk_fil_c1_free(&c1);
        free(raw);
        return CLI_USAGE;
    }
    r->kind = CZK_FIL_KIND_POREP_C2;
    r->registered_proof = has_rp ? rp : c1.proof->id;
    r->sector_size = c1.proof->sector_size;
    r->sector_number = has_sn ? sn : c1.sector_num;
    r->miner_id = miner;
    r->priority = 2; /* NORMAL, as Curio sends it */
    r->vanilla_proof.data = raw;
    r->vanilla_proof.len = len;
    char id[64];
    snprintf(id, sizeof id, "porep-%" PRIu64 "-%" PRIu64, r->miner_id, r->sector_number);
    r->request_id = strdup(id);
    czk_fil_c1_free(&c1);
    return CLI_OK;
}

int cli_request_load(const char *cmd, const char *path, czk_fil_request *r) {
    char msg[MSG] = "";
    uint8_t *raw = NULL;
    size_t len = 0;
    memset(r, 0, sizeof *r);
    int rc = cli_read_file(path, &raw, &len, (size_t)1 << 34, msg, sizeof msg);
    if (rc != CLI_OK) {
        fprintf(stderr, "czk %s: %s\n", cmd, msg);
        return rc;
    }
    czk_err e = czk_fil_request_from_json((const char *)raw, len, r, msg, sizeof msg);
    free(raw);
    if (e != CZK_OK) {
        fprintf(stderr, "czk %s: %s: %s\n", cmd, path, msg);
        return e == CZK_ERR_NO_MEMORY ? CLI_FAIL : CLI_USAGE;
    }
    return CLI_OK;
}

/* --request FILE or --c1 FILE …: the request into *r; CLI_OK or an exit code. */
int cli_request_get(const char *cmd, cli_args *a, czk_fil_request *r) {
    const char *rq = cli_get(a, "request"), *c1 = cli_get(a, "c1");
    memset(r, 0, sizeof *r);
    if (rq && c1) {
        fprintf(stderr, "czk %s: give --request or --c1, not both\n", cmd);
        return CLI_USAGE;
    }
    if (c1) return cli_request_from_c1(cmd, a, c1, r);
    if (!rq) return cli_missing(cmd, "request");
    if (cli_get(a, "miner-id") || cli_get(a, "sector-number") || cli_get(a, "registered-proof")) {
        fprintf(stderr, "czk %s: --miner-id, --sector-number and --registered-proof go with --c1; a request file "
                        "holds them\n", cmd);
        return CLI_USAGE;
    }
    return cli_request_load(cmd, rq, r);
}

int cmd_check(int argc, char **argv) {
    static const char *const known[] = {"request", "c1", "partition", "miner-id", "sector-number", "registered-proof",
                                        NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    bool one;
    uint64_t k1 = 0;
    if (!opt_u64("check", &a, "partition", &one, &k1)) return CLI_USAGE;
    czk_fil_request r;
    int rc = cli_request_get("check", &a, &r);
    if (rc != CLI_OK) return rc;
    char msg[MSG] = "";
    czk_fil_prepared p;
    double t0 = cli_now();
    czk_err e = czk_fil_request_prepare(&r, &p, msg, sizeof msg);
    const char *kind = czk_fil_kind_name(r.kind);
    czk_fil_request_free(&r);
    if (e != CZK_OK) {
        printf("refused\n");
        fprintf(stderr, "czk check: the request is refused (%s): %s\n", czk_err_str(e), msg);
        return CLI_FAIL;
    }
    czk_circuit c;
    if (czk_circuit_find(&c, p.circuit_id, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk check: %s\n", msg);
        czk_fil_prepared_free(&p);
        return CLI_FAIL;
    }
    if (one && k1 >= p.partitions) {
        fprintf(stderr, "czk check: --partition %" PRIu64 ": the request has %zu partition%s\n", k1, p.partitions,
                p.partitions == 1 ? "" : "s");
        czk_fil_prepared_free(&p);
        return CLI_USAGE;
    }
    printf("%s request: circuit %s, %zu partition%s (decoded and validated in %.2f s)\n", kind ? kind : "?",
           p.circuit_id, p.partitions, p.partitions == 1 ? "" : "s", cli_now() - t0);
    rc = CLI_OK;
    for (size_t k = one ? (size_t)k1 : 0; k < (one ? (size_t)k1 + 1 : p.partitions); k++) {
        double t1 = cli_now();
        e = czk_circuit_check_input(&c, k, p.data, msg, sizeof msg);
        if (e == CZK_OK) {
            printf("partition %zu: satisfied (%.2f s)\n", k, cli_now() - t1);
        } else if (e == CZK_ERR_UNSATISFIED) {
            printf("partition %zu: unsatisfied: %s\n", k, msg);
            rc = CLI_FAIL;
        } else {
            printf("partition %zu: failed: %s: %s\n", k, czk_err_str(e), msg);
            rc = CLI_FAIL;
        }
        fflush(stdout);
    }
    czk_fil_prepared_free(&p);
    return rc;
}
