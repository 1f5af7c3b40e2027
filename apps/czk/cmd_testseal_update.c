/* czk — `testseal --kind snap`: a test SnapDeals (empty sector update)
 * request for fixtures and benchmarks (czk/filecoin_testseal_update.h), as
 * Curio sends it to cuzk.
 *   czk testseal --kind snap --registered-proof N --seed X [--sparse]
 *                --request-out FILE
 * --registered-proof: a RegisteredUpdateProof number (0 2 KiB, 1 8 MiB,
 * 2 512 MiB, 3 32 GiB, 4 64 GiB); --sparse: a periodic sector (needed above
 * 8 MiB). Writes the request (proto3 JSON of SubmitProofRequest:
 * SNAP_DEALS_UPDATE, one PartitionProof per partition in vanillaProofs)
 * through FILE.tmp renamed into place and prints comm_r_old, comm_d_new and
 * comm_r_new (hex, byte 0 first), the partitions and the time. Exit 0 made,
 * 1 a failure, 2 a usage error. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/filecoin_request.h"
#include "czk/filecoin_testseal_update.h"

static const char *const KNOWN[] = {"kind", "registered-proof", "seed", "request-out", NULL};

static int usage(void) {
    fprintf(stderr, "usage: czk testseal --kind snap --registered-proof N --seed X [--sparse] --request-out FILE\n");
    return CLI_USAGE;
}

static void print_hex(const char *name, const uint8_t b[32]) {
    printf("%s ", name);
    for (int i = 0; i < 32; i++) printf("%02x", b[i]);
    printf("\n");
}

static bool write_atomic(const char *path, const char *data, size_t len) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "czk testseal: %s: %s\n", tmp, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "czk testseal: writing %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    return ok;
}

static bool get_u64(cli_args *a, const char *name, uint64_t *v, int *rc) {
    const char *s = cli_get(a, name);
    if (!s) {
        *rc = cli_missing("testseal", name);
        return false;
    }
    if (!cli_parse_u64(s, v)) {
        fprintf(stderr, "czk testseal: --%s must be an unsigned integer, not '%s'\n", name, s);
        *rc = CLI_USAGE;
        return false;
    }
    return true;
}

int cmd_testseal_update(int argc, char **argv) {
    char **rest = malloc((size_t)argc * sizeof *rest);
    if (!rest) return CLI_FAIL;
    int n = 0;
    bool sparse = false;
    for (int i = 0; i < argc; i++) {
        if (i >= 2 && !strcmp(argv[i], "--sparse"))
            sparse = true;
        else
            rest[n++] = argv[i];
    }
    cli_args a;
    bool parsed = cli_parse(&a, n, rest, 2, KNOWN);
    free(rest);
    if (!parsed || a.npos) return usage();
    const char *kind = cli_get(&a, "kind"), *out = cli_get(&a, "request-out");
    if (!kind || strcmp(kind, "snap")) return usage();
    int rc = CLI_USAGE;
    uint64_t id, seed;
    if (!get_u64(&a, "registered-proof", &id, &rc) || !get_u64(&a, "seed", &seed, &rc)) return rc;
    if (!out) return cli_missing("testseal", "request-out");
    const czk_fil_update_proof *p = czk_fil_update_proof_get(id);
    if (!p) {
        fprintf(stderr, "czk testseal: --registered-proof %llu is not a RegisteredUpdateProof (0 to %zu)\n",
                (unsigned long long)id, czk_fil_update_proof_count() - 1);
        return CLI_USAGE;
    }
    czk_fil_testseal_update_opts o = {.proof = p, .seed = seed, .sparse = sparse};
    czk_fil_testseal_update_info info;
    czk_fil_request r;
    char msg[512] = "";
    czk_err e = czk_fil_testseal_update(&o, &r, &info, msg, sizeof msg);
    if (e) {
        fprintf(stderr, "czk testseal: %s\n", msg[0] ? msg : czk_err_str(e));
        return e == CZK_ERR_INVALID_ARGUMENT ? CLI_USAGE : CLI_FAIL;
    }
    char rid[64];
    snprintf(rid, sizeof rid, "snap-%s-%llu", p->name, (unsigned long long)seed);
    r.request_id = strdup(rid);
    r.priority = 2; /* NORMAL */
    char *js = NULL;
    size_t len = 0;
    bool ok = r.request_id && czk_fil_request_to_json(&r, &js, &len) == CZK_OK;
    if (!ok) fprintf(stderr, "czk testseal: encoding the request: out of memory\n");
    ok = ok && write_atomic(out, js, len);
    if (ok) {
        size_t bytes = 0;
        for (size_t i = 0; i < r.n_vanilla_proofs; i++) bytes += r.vanilla_proofs[i].len;
        printf("%s (%s): %zu partitions, %zu bytes of vanilla proofs, period %llu nodes\n", p->name,
               sparse ? "sparse" : "full", r.n_vanilla_proofs, bytes, (unsigned long long)info.period);
        print_hex("comm_r_old", info.comm_r_old);
        print_hex("comm_d_new", info.comm_d_new);
        print_hex("comm_r_new", info.comm_r_new);
        printf("request %s written (%.2f s, %llu tree nodes hashed)\n", out, info.seconds,
               (unsigned long long)info.hashed);
    }
    free(js);
    czk_fil_request_free(&r);
    return ok ? CLI_OK : CLI_FAIL;
}
