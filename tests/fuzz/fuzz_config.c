/* libFuzzer: czkd's TOML configuration (src/server/config.c over the lexer
 * of src/server/toml.c). For any bytes:
 *  - czk_daemon_config_parse returns CZK_OK, CZK_ERR_FORMAT or
 *    CZK_ERR_INVALID_ARGUMENT, and an error comes with a message that names
 *    the file and a line ("fuzz.toml:N: ...") within the text's line count;
 *  - it is deterministic: a second parse gives the same result, the same
 *    message and the same config bytes;
 *  - an accepted text with a newline appended is accepted the same way;
 *  - every string of an accepted config is terminated inside its field, and
 *    its numbers lie in the documented ranges;
 *  - the lexer alone (values and keys read one after another from the same
 *    bytes) never moves past the end and frees all it allocates (leaks are
 *    caught by LeakSanitizer). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/daemon_config.h"
#include "fuzz_common.h"
#include "toml.h"

static void seed(const char *name, const char *text) { fuzz_seed(name, text, strlen(text)); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    seed("full.toml", "# czkd\n"
                      "[daemon]\n"
                      "listen = \"unix:///run/czkd.sock\"\n"
                      "status_listen = \"\"\n"
                      "state_dir = '/var/lib/czk'\n"
                      "queue_limit = 1_000\n"
                      "result_retention = \"12h\"\n"
                      "max_message_size = \"64MiB\"\n"
                      "[memory]\n"
                      "total_budget = \"1.5G\"\n"
                      "safety_margin = \"512MB\"\n"
                      "pinned_budget = \"8GiB\"\n"
                      "[gpus]\n"
                      "devices = [0, 1,\n  2, # third\n]\n"
                      "gpu_workers_per_device = 3\n"
                      "[synthesis]\n"
                      "threads = 0\n"
                      "partition_workers = 4\n"
                      "pack_abc = false\n"
                      "[srs]\n"
                      "param_cache = \"/data/params\"\n"
                      "[logging]\n"
                      "level = \"debug\"\n");
    seed("dotted.toml", "daemon.listen = \"127.0.0.1:1\"\r\n\"memory\".'total_budget' = \"auto\"\r\n"
                        "synthesis.threads = +8\n");
    seed("escapes.toml", "[daemon]\nstate_dir = \"/tmp/\\u00e9\\t\\\"x\\\"\\U0001F600\"\n");
    seed("ignored.toml", "[scheduler]\nmax_batch_size = 4\nsort_by_type = true\n[pipeline]\nslot_size = 1.5e3\n");
    seed("bad-table.toml", "[daemon]\n[daemon]\n");
    seed("bad-nested.toml", "gpus.devices = [[[[[[[[[1]]]]]]]]]\n");
    seed("bad-inline.toml", "memory = { total_budget = \"1G\" }\n");
    return 0;
}

static size_t count_lines(const uint8_t *d, size_t n) {
    size_t lines = 1;
    for (size_t i = 0; i < n; i++) lines += d[i] == '\n';
    return lines;
}

static bool terminated(const char *s, size_t cap) { return memchr(s, 0, cap) != NULL; }

static void check_config(const czk_daemon_config *c) {
    FUZZ_ASSERT(terminated(c->listen, sizeof c->listen));
    FUZZ_ASSERT(terminated(c->status_listen, sizeof c->status_listen));
    FUZZ_ASSERT(terminated(c->state_dir, sizeof c->state_dir));
    FUZZ_ASSERT(terminated(c->param_cache, sizeof c->param_cache));
    FUZZ_ASSERT(terminated(c->config_path, sizeof c->config_path));
    FUZZ_ASSERT(terminated(c->warnings, sizeof c->warnings));
    FUZZ_ASSERT(c->n_devices <= CZK_DAEMON_MAX_DEVICES);
    FUZZ_ASSERT(c->gpu_workers_per_device >= 1 && c->gpu_workers_per_device <= 64);
    FUZZ_ASSERT(c->partition_workers >= 1 && c->partition_workers <= 256);
    FUZZ_ASSERT(c->synthesis_threads >= 0 && c->synthesis_threads <= 4096);
    FUZZ_ASSERT(c->queue_limit >= 1 && c->queue_limit <= 1000000);
    FUZZ_ASSERT(c->max_message_bytes >= 4096 && c->max_message_bytes <= ((size_t)2 << 30));
    FUZZ_ASSERT(c->result_keep_ms >= 0);
}

/* The lexer on its own: values and keys one after another, as far as they go. */
static void lex_all(const uint8_t *data, size_t size) {
    char msg[256];
    czk_toml_lexer lx = {.p = (const char *)data, .end = (const char *)data + size, .line = 1, .name = "lex",
                         .msg = msg, .msglen = sizeof msg};
    for (int round = 0; round < 64 && !czk_toml_at_end(&lx); round++) {
        const char *before = lx.p;
        czk_toml_skip_ws_nl(&lx);
        FUZZ_ASSERT(lx.p >= before && lx.p <= lx.end);
        if (czk_toml_at_end(&lx)) break;
        czk_toml_value v;
        memset(&v, 0, sizeof v);
        czk_err e = czk_toml_lex_value(&lx, &v);
        FUZZ_ASSERT(lx.p <= lx.end);
        FUZZ_ASSERT(e == CZK_OK || e == CZK_ERR_FORMAT);
        if (e == CZK_OK && v.t == CZK_TOML_STRING) FUZZ_ASSERT(v.s != NULL);
        if (e == CZK_OK && v.t == CZK_TOML_ARRAY) FUZZ_ASSERT(v.n == 0 || v.items != NULL);
        czk_toml_value_free(&v);
        if (e != CZK_OK) {
            FUZZ_ASSERT(terminated(msg, sizeof msg) && msg[0]);
            char key[128];
            e = czk_toml_lex_key(&lx, key, sizeof key);
            FUZZ_ASSERT(lx.p <= lx.end);
            if (e == CZK_OK) FUZZ_ASSERT(terminated(key, sizeof key));
        }
        if (lx.p == before) lx.p++; /* no progress: step over a byte */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static czk_daemon_config a, b;
    char ma[1024], mb[1024];
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    czk_daemon_config_default(&a);
    czk_daemon_config_default(&b);
    memset(ma, 0x55, sizeof ma);
    ma[0] = 0;
    mb[0] = 0;
    czk_err ea = czk_daemon_config_parse(&a, (const char *)data, size, "fuzz.toml", ma, sizeof ma);
    czk_err eb = czk_daemon_config_parse(&b, (const char *)data, size, "fuzz.toml", mb, sizeof mb);
    FUZZ_ASSERT(ea == CZK_OK || ea == CZK_ERR_FORMAT || ea == CZK_ERR_INVALID_ARGUMENT);
    FUZZ_ASSERT(ea == eb);
    if (ea != CZK_OK) {
        FUZZ_ASSERT(terminated(ma, sizeof ma));
        FUZZ_ASSERT(!strcmp(ma, mb));
        FUZZ_ASSERT(!strncmp(ma, "fuzz.toml:", 10));
        char *end;
        unsigned long line = strtoul(ma + 10, &end, 10);
        FUZZ_ASSERT(end != ma + 10 && *end == ':');
        FUZZ_ASSERT(line >= 1 && line <= count_lines(data, size));
    } else {
        FUZZ_ASSERT(memcmp(&a, &b, sizeof a) == 0);
        check_config(&a);
        /* the same text with a newline after it: accepted, the same config */
        uint8_t *nl = malloc(size + 1);
        FUZZ_ASSERT(nl != NULL);
        if (size) memcpy(nl, data, size);
        nl[size] = '\n';
        memset(&b, 0, sizeof b);
        czk_daemon_config_default(&b);
        eb = czk_daemon_config_parse(&b, (const char *)nl, size + 1, "fuzz.toml", mb, sizeof mb);
        FUZZ_ASSERT(eb == CZK_OK);
        FUZZ_ASSERT(memcmp(&a, &b, sizeof a) == 0);
        free(nl);
    }
    lex_all(data, size);
    return 0;
}
