/* czk — `testseal`: a test sector's C1 output for fixtures and benchmarks
 * (czk/filecoin_testseal.h), written as Curio hands it to a C2 prover.
 *   czk testseal --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB --registered-proof N
 *                --miner-id M --sector-number S --seed X --out DIR [--sparse]
 *                [--data FILE] [--ticket HEX] [--request-out FILE]
 * --data: the sector's data as seal_pre_commit_phase1 reads its staged file
 * (fr32-padded bytes, at most the sector size, zero-extended; full mode
 * only); --ticket: 32 bytes in hex, byte 0 first, used unmasked. The seed
 * then picks only what they do not give (the interactive seed), so a sector
 * sealed elsewhere is reproduced and its comm_d and comm_r can be compared.
 * --request-out: the request Curio would send for it (proto3 JSON of
 * SubmitProofRequest: POREP_SEAL_COMMIT, the envelope in vanillaProof), the
 * input of `czk check --request` and `czk prove --request`.
 * writes DIR/c1.json (the SealCommitPhase1Output JSON) and DIR/envelope.json
 * (cuzk's {"SectorNum", "Phase1Out", "SectorSize"}), each through a
 * temporary file renamed into place, and prints what it sealed (comm_d,
 * comm_r, replica_id, ticket and seed in hex, byte 0 first), the time and
 * the peak RSS. Full SDR without --sparse (2 KiB and 8 MiB only). Exit 0
 * sealed, 1 a failure, 2 a usage error. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "cli.h"
#include "czk/filecoin_c1.h"
#include "czk/filecoin_request.h"
#include "czk/filecoin_testseal.h"

static const char *const KNOWN[] = {"sector-size", "registered-proof", "miner-id", "sector-number", "seed", "out",
                                    "data", "ticket", "request-out", NULL};

static int usage(void) {
    fprintf(stderr, "usage: czk testseal --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB --registered-proof N\n"
                    "                    --miner-id M --sector-number S --seed X --out DIR [--sparse]\n"
                    "                    [--data FILE] [--ticket HEX] [--request-out FILE]\n");
    return CLI_USAGE;
}

static void print_hex(const char *name, const uint8_t b[32]) {
    printf("%s ", name);
    for (int i = 0; i < 32; i++) printf("%02x", b[i]);
    printf("\n");
}

/* Writes data to dir/name through dir/name.tmp. */
static bool write_file(const char *dir, const char *name, const char *data, size_t len) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
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

static int hex_nibble(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* 64 hex digits, byte 0 first. */
static bool parse_hex32(const char *s, uint8_t out[32]) {
    if (strlen(s) != 64) return false;
    for (int i = 0; i < 32; i++) {
        int hi = hex_nibble(s[2 * i]), lo = hex_nibble(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

/* The PoRep C2 request for the sealed sector (envelope: its cuzk envelope),
 * as Curio sends it, to path through path.tmp. */
static bool write_request_porep(const char *path, const czk_fil_seal_proof *p, uint64_t miner, uint64_t sector,
                                char *env, size_t env_len) {
    char id[64];
    snprintf(id, sizeof id, "porep-%llu-%llu", (unsigned long long)miner, (unsigned long long)sector);
    czk_fil_request r;
    memset(&r, 0, sizeof r);
    r.kind = CZK_FIL_KIND_POREP_C2;
    r.registered_proof = p->id;
    r.sector_size = p->sector_size;
    r.sector_number = sector;
    r.miner_id = miner;
    r.priority = 2; /* NORMAL */
    r.request_id = id;
    r.vanilla_proof.data = (uint8_t *)env;
    r.vanilla_proof.len = env_len;
    char *js = NULL;
    size_t n = 0;
    if (czk_fil_request_to_json(&r, &js, &n) != CZK_OK) {
        fprintf(stderr, "czk testseal: encoding the request: out of memory\n");
        return false;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *name = path;
    if (slash) {
        *slash = 0;
        name = slash + 1;
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    bool ok = write_file(dir, name, js, n);
    free(js);
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

int cmd_testseal(int argc, char **argv) {
    /* --kind winning|window: a PoSt request (cmd_testseal_post.c) */
    for (int i = 2; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--kind") && (!strcmp(argv[i + 1], "winning") || !strcmp(argv[i + 1], "window")))
            return cmd_testseal_post(argc, argv);
    /* --kind snap: a SnapDeals request (cmd_testseal_update.c) */
    for (int i = 2; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--kind") && !strcmp(argv[i + 1], "snap")) return cmd_testseal_update(argc, argv);
    /* --sparse is a flag; the other options take values */
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

    int rc = CLI_USAGE;
    uint64_t id, miner, sector, seed, size = 0;
    if (!get_u64(&a, "registered-proof", &id, &rc) || !get_u64(&a, "miner-id", &miner, &rc) ||
        !get_u64(&a, "sector-number", &sector, &rc) || !get_u64(&a, "seed", &seed, &rc))
        return rc;
    const char *size_s = cli_get(&a, "sector-size"), *out = cli_get(&a, "out");
    if (!size_s) return cli_missing("testseal", "sector-size");
    if (!out) return cli_missing("testseal", "out");
    if (!czk_fil_testseal_parse_size(size_s, &size)) {
        fprintf(stderr, "czk testseal: --sector-size '%s': not 2KiB, 8MiB, 512MiB, 32GiB or 64GiB\n", size_s);
        return CLI_USAGE;
    }
    char msg[512] = "";
    const czk_fil_seal_proof *p;
    if (czk_fil_seal_proof_find(id, &p, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk testseal: --registered-proof: %s\n", msg);
        return CLI_USAGE;
    }
    if (p->sector_size != size) {
        fprintf(stderr, "czk testseal: registered proof %llu (%s) seals %llu-byte sectors, not %s\n",
                (unsigned long long)id, p->name, (unsigned long long)p->sector_size, size_s);
        return CLI_USAGE;
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "czk testseal: %s: %s\n", out, strerror(errno));
        return CLI_FAIL;
    }

    czk_fil_testseal_opts o = {.proof = p, .miner_id = miner, .sector_number = sector, .seed = seed, .sparse = sparse};
    const char *data_path = cli_get(&a, "data"), *ticket_s = cli_get(&a, "ticket"), *req_out = cli_get(&a, "request-out");
    uint8_t ticket[32], *data = NULL;
    size_t data_len = 0;
    if (ticket_s) {
        if (!parse_hex32(ticket_s, ticket)) {
            fprintf(stderr, "czk testseal: --ticket must be 64 hex digits (32 bytes, byte 0 first), not '%s'\n",
                    ticket_s);
            return CLI_USAGE;
        }
        o.ticket = ticket;
    }
    if (data_path) {
        if (sparse) {
            fprintf(stderr, "czk testseal: --data seals the whole sector: not with --sparse\n");
            return CLI_USAGE;
        }
        int r = cli_read_file(data_path, &data, &data_len, (size_t)p->sector_size, msg, sizeof msg);
        if (r != CLI_OK) {
            fprintf(stderr, "czk testseal: --data %s\n", strstr(msg, "too large") ? "is larger than the sector" : msg);
            return CLI_USAGE;
        }
        o.data = data;
        o.data_len = data_len;
    }
    czk_fil_testseal_stats st;
    czk_fil_c1 c1;
    double t0 = cli_now();
    czk_err e = czk_fil_testseal(&o, &c1, &st, msg, sizeof msg);
    free(data);
    if (e != CZK_OK) {
        fprintf(stderr, "czk testseal: %s\n", strncmp(msg, "testseal: ", 10) ? msg : msg + 10);
        return e == CZK_ERR_INVALID_ARGUMENT ? CLI_USAGE : CLI_FAIL;
    }
    char *bare = NULL, *env = NULL;
    size_t bare_len = 0, env_len = 0;
    bool ok = czk_fil_c1_encode(&c1, false, &bare, &bare_len, msg, sizeof msg) == CZK_OK &&
              czk_fil_c1_encode(&c1, true, &env, &env_len, msg, sizeof msg) == CZK_OK;
    if (!ok) fprintf(stderr, "czk testseal: encoding the C1: %s\n", msg);
    ok = ok && write_file(out, "c1.json", bare, bare_len) && write_file(out, "envelope.json", env, env_len);
    /* PoSt and SnapDeals fixtures (J3/J4's library functions, testseal_post.c / testseal_update.c) write their
     * requests here too: a --kind option choosing among them is the lead's to wire in */
    ok = ok && (!req_out || write_request_porep(req_out, p, miner, sector, env, env_len));
    double total = cli_now() - t0;
    if (ok) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("sealed %s (%s), miner %llu, sector %llu, seed %llu: %zu partitions x %u challenges\n", p->name,
               sparse ? "sparse" : "full SDR", (unsigned long long)miner, (unsigned long long)sector,
               (unsigned long long)seed, c1.n_partitions, p->challenges_per_partition);
        print_hex("comm_d    ", c1.comm_d);
        print_hex("comm_r    ", c1.comm_r);
        print_hex("replica_id", c1.replica_id);
        print_hex("ticket    ", c1.ticket);
        print_hex("seed      ", c1.seed);
        printf("seal %.2f s (%llu labels, %llu columns, %llu tree nodes), with encoding and writing %.2f s, "
               "peak RSS %.1f MiB\n",
               st.seconds, (unsigned long long)st.labels_hashed, (unsigned long long)st.columns,
               (unsigned long long)st.tree_nodes, total, (double)ru.ru_maxrss / 1024.0);
        printf("wrote %s/c1.json (%zu bytes), %s/envelope.json (%zu bytes)\n", out, bare_len, out, env_len);
        if (req_out) printf("wrote the request %s\n", req_out);
    }
    free(bare);
    free(env);
    czk_fil_c1_free(&c1);
    return ok ? CLI_OK : CLI_FAIL;
}
