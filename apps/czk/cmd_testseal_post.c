/* czk — `testseal --kind winning|window`: a test PoSt request for fixtures
 * and benchmarks (czk/filecoin_testseal_post.h), as Curio sends it to cuzk.
 *   czk testseal --kind winning|window --registered-proof N --miner-id M
 *                [--partition K] [--sectors N] [--sector-ids A,B,…]
 *                [--randomness HEX] --seed X [--sparse] --request-out FILE
 * --registered-proof: a RegisteredPoStProof number (0–4 winning, 5–14
 * window) of the kind; --partition: WindowPoSt's partition index (default
 * 0); --sectors: the partition's sectors (default all of it: sector_count;
 * WinningPoSt 1, the challenged sector); --sector-ids: the ids (default from
 * the seed); --randomness: 32 bytes hex, byte 0 first, used as given (default
 * from the seed, canonical); --sparse: only the challenged leaves of each
 * tree_r_last (needed above 8 MiB). Writes the request (proto3 JSON of
 * SubmitProofRequest: WINDOW_POST_PARTITION or WINNING_POST) through
 * FILE.tmp renamed into place and prints the randomness and each sector's id
 * and comm_r (hex, byte 0 first), and the time. Exit 0 made, 1 a failure, 2
 * a usage error. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/filecoin_request.h"
#include "czk/filecoin_testseal_post.h"

static const char *const KNOWN[] = {"kind", "registered-proof", "miner-id", "partition", "sectors", "sector-ids",
                                    "randomness", "seed", "request-out", NULL};

static int usage(void) {
    fprintf(stderr, "usage: czk testseal --kind winning|window --registered-proof N --miner-id M [--partition K]\n"
                    "                    [--sectors N] [--sector-ids A,B,...] [--randomness HEX] --seed X [--sparse]\n"
                    "                    --request-out FILE\n");
    return CLI_USAGE;
}

static void print_hex(const char *name, const uint8_t b[32]) {
    printf("%s", name);
    for (int i = 0; i < 32; i++) printf("%02x", b[i]);
    printf("\n");
}

static int hex_nibble(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool parse_hex32(const char *s, uint8_t out[32]) {
    if (strlen(s) != 64) return false;
    for (int i = 0; i < 32; i++) {
        int hi = hex_nibble(s[2 * i]), lo = hex_nibble(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

/* "A,B,C" into a malloc'd array; false on a malformed list. */
static bool parse_ids(const char *s, uint64_t **out, size_t *n) {
    size_t cap = 1;
    for (const char *c = s; *c; c++) cap += *c == ',';
    uint64_t *v = malloc(cap * sizeof *v);
    char *dup = strdup(s);
    bool ok = v && dup;
    size_t k = 0;
    for (char *save = NULL, *tok = ok ? strtok_r(dup, ",", &save) : NULL; ok && tok; tok = strtok_r(NULL, ",", &save))
        ok = k < cap && cli_parse_u64(tok, &v[k++]);
    free(dup);
    if (!ok || k == 0) {
        free(v);
        return false;
    }
    *out = v;
    *n = k;
    return true;
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

static bool get_u64(cli_args *a, const char *name, bool required, uint64_t *v, int *rc) {
    const char *s = cli_get(a, name);
    if (!s) {
        if (required) *rc = cli_missing("testseal", name);
        return !required;
    }
    if (!cli_parse_u64(s, v)) {
        fprintf(stderr, "czk testseal: --%s must be an unsigned integer, not '%s'\n", name, s);
        *rc = CLI_USAGE;
        return false;
    }
    return true;
}

int cmd_testseal_post(int argc, char **argv) {
    char **rest = malloc((size_t)argc * sizeof *rest);
    if (!rest) return CLI_FAIL;
    int n = 0;
    bool sparse = false;
    for (int i = 0; i < argc; i++) {
        if (i >= 2 && !strcmp(argv[i], "--sparse")) sparse = true;
        else rest[n++] = argv[i];
    }
    cli_args a;
    bool parsed = cli_parse(&a, n, rest, 2, KNOWN);
    free(rest);
    if (!parsed || a.npos) return usage();
    const char *kind = cli_get(&a, "kind"), *out = cli_get(&a, "request-out");
    if (!kind || (strcmp(kind, "winning") && strcmp(kind, "window"))) return usage();
    int rc = CLI_USAGE;
    uint64_t id, miner, seed, partition = 0, sectors = 0;
    if (!get_u64(&a, "registered-proof", true, &id, &rc) || !get_u64(&a, "miner-id", true, &miner, &rc) ||
        !get_u64(&a, "seed", true, &seed, &rc) || !get_u64(&a, "partition", false, &partition, &rc) ||
        !get_u64(&a, "sectors", false, &sectors, &rc))
        return rc;
    if (!out) return cli_missing("testseal", "request-out");
    const czk_fil_post_proof *p = czk_fil_post_proof_get(id);
    const czk_fil_post_kind want = strcmp(kind, "winning") ? CZK_FIL_POST_WINDOW : CZK_FIL_POST_WINNING;
    if (!p || p->kind != want) {
        fprintf(stderr, "czk testseal: --registered-proof %llu is not a %s PoSt proof (%s)\n", (unsigned long long)id,
                kind, want == CZK_FIL_POST_WINNING ? "0 to 4" : "5 to 14");
        return CLI_USAGE;
    }
    if (partition > UINT32_MAX) {
        fprintf(stderr, "czk testseal: --partition %llu is past a uint32\n", (unsigned long long)partition);
        return CLI_USAGE;
    }
    uint8_t rand[32];
    const char *rand_s = cli_get(&a, "randomness"), *ids_s = cli_get(&a, "sector-ids");
    if (rand_s && !parse_hex32(rand_s, rand)) {
        fprintf(stderr, "czk testseal: --randomness must be 64 hex digits\n");
        return CLI_USAGE;
    }
    uint64_t *ids = NULL;
    size_t n_ids = 0;
    if (ids_s && !parse_ids(ids_s, &ids, &n_ids)) {
        fprintf(stderr, "czk testseal: --sector-ids must be a comma-separated list of unsigned integers\n");
        return CLI_USAGE;
    }
    if (ids && sectors && sectors != n_ids) {
        fprintf(stderr, "czk testseal: --sectors %llu but %zu --sector-ids\n", (unsigned long long)sectors, n_ids);
        free(ids);
        return CLI_USAGE;
    }
    czk_fil_testseal_post_opts o = {.proof = p,
                                    .miner_id = miner,
                                    .partition_index = (uint32_t)partition,
                                    .seed = seed,
                                    .randomness = rand_s ? rand : NULL,
                                    .n_sectors = ids ? n_ids : (size_t)sectors,
                                    .sector_ids = ids,
                                    .sparse = sparse};
    czk_fil_testseal_post_result t;
    char msg[512] = "";
    czk_err e = czk_fil_testseal_post(&o, &t, msg, sizeof msg);
    free(ids);
    if (e) {
        fprintf(stderr, "czk testseal: %s: %s\n", czk_err_str(e), msg);
        return e == CZK_ERR_INVALID_ARGUMENT ? CLI_USAGE : CLI_FAIL;
    }
    char *js = NULL;
    size_t len = 0;
    rc = CLI_OK;
    if (czk_fil_request_to_json(&t.request, &js, &len) != CZK_OK) {
        fprintf(stderr, "czk testseal: encoding the request: out of memory\n");
        rc = CLI_FAIL;
    } else if (!write_atomic(out, js, len)) {
        rc = CLI_FAIL;
    }
    free(js);
    if (rc == CLI_OK) {
        printf("%s %s (%s), miner %llu, partition %u, %zu sector%s, %s\n", czk_fil_kind_name(t.request.kind), p->name,
               p->circuit_id, (unsigned long long)miner, (unsigned)partition, t.n_sectors, t.n_sectors == 1 ? "" : "s",
               sparse ? "sparse" : "full trees");
        print_hex("randomness ", t.request.randomness.data);
        for (size_t i = 0; i < t.n_sectors; i++) {
            printf("sector %llu comm_r ", (unsigned long long)t.sector_ids[i]);
            print_hex("", t.comm_r[i]);
        }
        printf("request %s (%zu bytes), %llu tree nodes hashed, %.2f s\n", out, len,
               (unsigned long long)t.tree_nodes, t.seconds);
    }
    czk_fil_testseal_post_free(&t);
    return rc;
}
