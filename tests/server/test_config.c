/* czkd's configuration: cuzk's example file parses (ignored keys warned
 * about), the TOML subset (comments, escapes, literal strings, multi-line
 * arrays, dotted keys, CRLF), one message for every kind of bad file (naming
 * file, line and key), sizes and durations, flags over the file over the
 * defaults. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czk/daemon_config.h"
#include "test.h"

#define GiB ((size_t)1 << 30)

/* cuzk.example.toml (Curio extern/cuzk), abridged to its keys and a few comments. */
static const char CUZK_EXAMPLE[] =
    "# cuzk daemon configuration\n"
    "[daemon]\n"
    "# TCP:   \"0.0.0.0:9820\"\n"
    "listen = \"0.0.0.0:9820\"\n"
    "\n"
    "[srs]\n"
    "param_cache = \"/data/zk/params\"\n"
    "\n"
    "[memory]\n"
    "total_budget = \"auto\"\n"
    "safety_margin = \"5GiB\"\n"
    "eviction_min_idle = \"5m\"\n"
    "\n"
    "[gpus]\n"
    "devices = []\n"
    "gpu_threads = 32\n"
    "gpu_workers_per_device = 2\n"
    "\n"
    "[scheduler]\n"
    "max_batch_size = 1\n"
    "max_batch_wait_ms = 10000\n"
    "sort_by_type = true\n"
    "\n"
    "[synthesis]\n"
    "threads = 0\n"
    "\n"
    "[pipeline]\n"
    "enabled = true\n"
    "synthesis_lookahead = 1\n"
    "synthesis_concurrency = 1\n"
    "\n"
    "[logging]\n"
    "# Log level: trace, debug, info, warn, error\n"
    "level = \"info\"\n"
    "# format = \"json\"\n";

static czk_err parse(czk_daemon_config *c, const char *text, char *msg, size_t msglen) {
    czk_daemon_config_default(c);
    return czk_daemon_config_parse(c, text, strlen(text), "t.toml", msg, msglen);
}

static void test_defaults(void) {
    czk_daemon_config c;
    setenv("HOME", "/home/u", 1);
    unsetenv("XDG_STATE_HOME");
    unsetenv("XDG_CACHE_HOME");
    unsetenv("CZK_PARAM_CACHE");
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    czk_daemon_config_default(&c);
    CHECK(!strcmp(c.listen, "127.0.0.1:9820") && !strcmp(c.status_listen, "127.0.0.1:9821"));
    CHECK(!strcmp(c.state_dir, "/home/u/.local/state/czk"));
    CHECK(!strcmp(c.param_cache, "/var/tmp/filecoin-proof-parameters")); /* rust-fil-proofs' default */
    CHECK(c.total_budget == 0 && c.backend == CZK_BACKEND_KIND_AUTO && c.log_level == CZK_LOG_INFO);
    CHECK(c.gpu_workers_per_device == 2 && c.partition_workers == 2 && c.queue_limit == 1024);
    CHECK(c.critical_workers == 1);
    CHECK(c.token_file[0] == 0 && c.status_allowed_hosts[0] == 0 && c.status_per_ip_limit == 8 &&
          c.status_connection_limit == 64 && c.status_request_timeout_ms == 10000);
    CHECK(c.receive_timeout_ms == 60000); /* the gRPC receive timeout */
    CHECK(c.receive_buffer_bytes == 0 && czk_daemon_receive_buffer(&c) == (size_t)512 << 20); /* 2 x 256 MiB */
    setenv("XDG_STATE_HOME", "/xs", 1);
    setenv("XDG_CACHE_HOME", "/xc", 1);
    czk_daemon_config_default(&c);
    CHECK(!strcmp(c.state_dir, "/xs/czk") && !strcmp(c.param_cache, "/var/tmp/filecoin-proof-parameters"));
    setenv("FIL_PROOFS_PARAMETER_CACHE", "/fil", 1);
    czk_daemon_config_default(&c);
    CHECK(!strcmp(c.param_cache, "/fil"));
    setenv("CZK_PARAM_CACHE", "/pc", 1);
    czk_daemon_config_default(&c);
    CHECK(!strcmp(c.param_cache, "/pc"));
    unsetenv("CZK_PARAM_CACHE");
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
}

static void test_good(void) {
    czk_daemon_config c;
    char msg[512] = "";
    czk_err e = parse(&c, CUZK_EXAMPLE, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "cuzk example: %s", msg);
    CHECK(!strcmp(c.listen, "0.0.0.0:9820") && !strcmp(c.param_cache, "/data/zk/params"));
    CHECK(c.total_budget == 0 && c.safety_margin == 5 * GiB && c.n_devices == 0 && c.gpu_workers_per_device == 2);
    CHECK(c.synthesis_threads == 0 && c.log_level == CZK_LOG_INFO && c.pack_abc);
    CHECK(strstr(c.warnings, "t.toml:12: memory.eviction_min_idle is a cuzk setting") != NULL);
    CHECK(strstr(c.warnings, "gpus.gpu_threads") && strstr(c.warnings, "scheduler.sort_by_type") &&
          strstr(c.warnings, "pipeline.synthesis_concurrency"));

    static const char FULL[] =
        "# every key, and the syntax\r\n"
        "memory.total_budget = \"64GiB\"   # a dotted key before any table\r\n"
        "[daemon]\n"
        "listen = 'unix:///run/czk/czk.sock'  # a literal string\n"
        "status_listen = \"\"\n"
        "state_dir = \"/var/lib/czk \\\"x\\\" \\u00e9\\t1\"\n"
        "queue_limit = 2_000\n"
        "result_retention = \"90m\"\n"
        "max_message_size = \"64MiB\"\n"
        "\n"
        "  [ gpus ]  # spaces are fine\n"
        "devices = [\n"
        "  0,  # first\n"
        "  3,\n"
        "]\n"
        "gpu_workers_per_device = 3\n"
        "[memory]\n"
        "safety_margin = 1073741824\n"
        "[synthesis]\n"
        "threads = +16\n"
        "partition_workers = 7\n"
        "critical_workers = 0\n"
        "pack_abc = false\n"
        "[srs]\n"
        "\"param_cache\" = \"/p\"\n"
        "[logging]\n"
        "level = \"DEBUG\"\n"
        "format = \"json\"";
    e = parse(&c, FULL, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "full: %s", msg);
    CHECK(c.total_budget == 64 * GiB && !strcmp(c.listen, "unix:///run/czk/czk.sock") && c.status_listen[0] == 0);
    CHECK_MSG(!strcmp(c.state_dir, "/var/lib/czk \"x\" \xc3\xa9\t1"), "state_dir '%s'", c.state_dir);
    CHECK(c.queue_limit == 2000 && c.result_keep_ms == 90L * 60000 && c.max_message_bytes == ((size_t)64 << 20));
    CHECK(c.n_devices == 2 && c.devices[0] == 0 && c.devices[1] == 3 && c.gpu_workers_per_device == 3);
    CHECK(c.safety_margin == GiB && c.synthesis_threads == 16 && c.partition_workers == 7 && !c.pack_abc);
    CHECK(c.critical_workers == 0);
    CHECK(!strcmp(c.param_cache, "/p") && c.log_level == CZK_LOG_DEBUG);
    CHECK(strstr(c.warnings, "logging.format") != NULL);

    /* an empty file and a comment-only file change nothing */
    CHECK(parse(&c, "", msg, sizeof msg) == CZK_OK && !strcmp(c.listen, "127.0.0.1:9820"));
    CHECK(parse(&c, "# nothing\n\n   # here\n", msg, sizeof msg) == CZK_OK);
    CHECK(parse(&c, "[memory]\ntotal_budget = 1024\n", msg, sizeof msg) == CZK_OK && c.total_budget == 1024);
    CHECK(parse(&c, "[daemon]\nresult_retention = 60\n", msg, sizeof msg) == CZK_OK && c.result_keep_ms == 60000);
    /* the status server's limits, Host allow-list and token (czk keys) */
    e = parse(&c,
              "[daemon]\ntoken_file = \"/etc/czk/token\"\n"
              "status_allowed_hosts = [\"status.example\", \"[fd00::1]:8443\", \"*\"]\n"
              "status_per_ip_limit = 2\nstatus_connection_limit = 16\nstatus_request_timeout = \"1500ms\"\n",
              msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "status keys: %s", msg);
    CHECK(!strcmp(c.token_file, "/etc/czk/token") &&
          !strcmp(c.status_allowed_hosts, "status.example,[fd00::1]:8443,*"));
    CHECK(c.status_per_ip_limit == 2 && c.status_connection_limit == 16 && c.status_request_timeout_ms == 1500);
    CHECK(parse(&c, "[daemon]\nstatus_request_timeout = 5\nstatus_allowed_hosts = []\n", msg, sizeof msg) ==
              CZK_OK &&
          c.status_request_timeout_ms == 5000 && c.status_allowed_hosts[0] == 0);
    /* the gRPC receive path (czk keys) */
    CHECK(parse(&c, "[daemon]\nreceive_timeout = \"2m\"\n", msg, sizeof msg) == CZK_OK &&
          c.receive_timeout_ms == 120000);
    CHECK(parse(&c, "[daemon]\nreceive_timeout = 7\n", msg, sizeof msg) == CZK_OK && c.receive_timeout_ms == 7000);
    CHECK(parse(&c, "[daemon]\nmax_message_size = \"64MiB\"\n", msg, sizeof msg) == CZK_OK &&
          czk_daemon_receive_buffer(&c) == (size_t)128 << 20); /* twice the message limit */
    CHECK(parse(&c, "[daemon]\nreceive_buffer = \"1GiB\"\n", msg, sizeof msg) == CZK_OK &&
          c.receive_buffer_bytes == (size_t)1 << 30 && czk_daemon_receive_buffer(&c) == (size_t)1 << 30);
}

static void test_bad(void) {
    static const struct {
        const char *text, *want;
        czk_err err;
    } cases[] = {
        {"[daemon]\nlisen = \"x\"\n", "t.toml:2: key 'daemon.lisen': unknown key", CZK_ERR_INVALID_ARGUMENT},
        {"[nope]\nx = 1\n", "t.toml:2: key 'nope.x': unknown key", CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nqueue_limit = \"x\"\n", "t.toml:2: key 'daemon.queue_limit': expected an integer, got a string",
         CZK_ERR_INVALID_ARGUMENT},
        {"[gpus]\n\ngpu_workers_per_device = 0\n", "t.toml:3: key 'gpus.gpu_workers_per_device': must be in [1, 64]",
         CZK_ERR_INVALID_ARGUMENT},
        {"[memory]\ntotal_budget = \"64 parsecs\"\n", "t.toml:2: key 'memory.total_budget': '64 parsecs' is not a size",
         CZK_ERR_INVALID_ARGUMENT},
        {"[memory]\nsafety_margin = true\n", "key 'memory.safety_margin': expected a size such as",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nlisten = \"abc\n", "t.toml:2: key 'daemon.listen': unterminated string", CZK_ERR_FORMAT},
        {"[daemon]\nlisten \"abc\"\n", "t.toml:2: key 'daemon.listen': expected '=' after the key", CZK_ERR_FORMAT},
        {"[logging]\nlevel = info\n", "t.toml:2: key 'logging.level': 'info' is not a value (strings need quotes",
         CZK_ERR_FORMAT},
        {"[daemon]\nlisten = \"a\"\nlisten = \"b\"\n", "t.toml:3: key 'daemon.listen': set twice", CZK_ERR_FORMAT},
        {"[daemon]\n[srs]\n[daemon]\n", "t.toml:3: table [daemon] appears twice", CZK_ERR_FORMAT},
        {"[gpus]\ndevices = [0,\n1,\n", "key 'gpus.devices': unterminated array", CZK_ERR_FORMAT},
        {"[daemon]\nlisten = \"a\" \"b\"\n", "t.toml:2: key 'daemon.listen': unexpected '\"' after the value",
         CZK_ERR_FORMAT},
        {"[daemon]\nlisten = \"a\\q\"\n", "unknown escape \\q", CZK_ERR_FORMAT},
        {"[[daemon]]\n", "t.toml:1: arrays of tables", CZK_ERR_FORMAT},
        {"[gpus]\ndevices = [0, \"a\"]\n", "t.toml:2: key 'gpus.devices': element 1: expected a GPU ordinal",
         CZK_ERR_INVALID_ARGUMENT},
        {"[gpus]\ndevices = [1, 1]\n", "device 1 is listed twice", CZK_ERR_INVALID_ARGUMENT},
        {"[logging]\nlevel = \"loud\"\n", "t.toml:2: key 'logging.level': log level must be", CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nlisten = { a = 1 }\n", "inline tables are not supported", CZK_ERR_FORMAT},
        {"[daemon]\nqueue_limit = 007\n", "leading zeros", CZK_ERR_FORMAT},
        {"[synthesis]\nthreads = 1.5\n", "key 'synthesis.threads': expected an integer, got a float",
         CZK_ERR_INVALID_ARGUMENT},
        {"[synthesis]\npack_abc = 1\n", "t.toml:2: key 'synthesis.pack_abc': expected a boolean, got an integer",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nlisten = \"\"\n", "key 'daemon.listen': must not be empty", CZK_ERR_INVALID_ARGUMENT},
        {"[gpus]\ndevices = [\n0,\n1\n]\n[daemon]\nbogus = 1\n", "t.toml:7: key 'daemon.bogus'",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon\n", "t.toml:1: expected ']' after the table name", CZK_ERR_FORMAT},
        {"= 3\n", "t.toml:1: bad character '='", CZK_ERR_FORMAT},
        {"[daemon]\nqueue_limit = 99999999999999999999\n", "out of range", CZK_ERR_FORMAT},
        {"[daemon]\nresult_retention = \"soon\"\n", "'soon' is not a duration", CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nlisten = \"\"\"x\"\"\"\n", "multi-line strings are not supported", CZK_ERR_FORMAT},
        {"[gpus]\ndevices = [0 1]\n", "expected ',' or ']'", CZK_ERR_FORMAT},
        {"[daemon]\nstatus_per_ip_limit = 0\n", "key 'daemon.status_per_ip_limit': must be in [1, 1024]",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nstatus_connection_limit = 5000\n", "must be in [1, 4096]", CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nstatus_request_timeout = \"10ms\"\n", "key 'daemon.status_request_timeout': must be between",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nstatus_request_timeout = 0\n", "must be between 1 and 3600 seconds", CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nreceive_timeout = \"50ms\"\n", "key 'daemon.receive_timeout': must be between 100ms and 1h",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nreceive_timeout = 0\n", "key 'daemon.receive_timeout': must be between 1 and 3600 seconds",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nreceive_buffer = \"512KiB\"\n", "key 'daemon.receive_buffer': must be between 1 MiB and 64 GiB",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nstatus_allowed_hosts = \"a.example\"\n", "key 'daemon.status_allowed_hosts': expected an array",
         CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nstatus_allowed_hosts = [\"a, b\"]\n", "element 0: expected a host name", CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\nstatus_allowed_hosts = [\"a\", 3]\n", "element 1: expected a host name", CZK_ERR_INVALID_ARGUMENT},
        {"[daemon]\ntoken_file = 1\n", "key 'daemon.token_file': expected a string", CZK_ERR_INVALID_ARGUMENT},
        /* an error inside a nested array frees what was read of it (LeakSanitizer) */
        {"[gpus]\ndevices = [[1, [2, x]]]\n", "t.toml:2: key 'gpus.devices': 'x' is not a value", CZK_ERR_FORMAT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        czk_daemon_config c;
        char msg[512] = "";
        czk_err e = parse(&c, cases[i].text, msg, sizeof msg);
        CHECK_MSG(e == cases[i].err && strstr(msg, cases[i].want), "case %zu: %s, message '%s' (want '%s')", i,
                  czk_err_str(e), msg, cases[i].want);
    }
    /* a NUL byte */
    czk_daemon_config c;
    char msg[512];
    czk_daemon_config_default(&c);
    CHECK(czk_daemon_config_parse(&c, "[daemon]\n\0x", 11, "t.toml", msg, sizeof msg) == CZK_ERR_FORMAT &&
          strstr(msg, "NUL"));
    CHECK(czk_daemon_config_load(&c, "/nonexistent/czk.toml", msg, sizeof msg) == CZK_ERR_IO &&
          strstr(msg, "/nonexistent/czk.toml"));
}

static void test_sizes(void) {
    static const struct {
        const char *s;
        size_t v;
    } good[] = {{"64GiB", 64 * GiB},      {"1.5G", 3 * GiB / 2},         {"512MiB", (size_t)512 << 20},
                {"500MB", 500000000},     {"4096", 4096},                {"1KiB", 1024},
                {"2 GiB", 2 * GiB},       {"10TB", 10000000000000ULL},   {"3T", (size_t)3 << 40},
                {"7B", 7},                {" 1k ", 1024},                {"0.5KiB", 512}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        size_t v = 0;
        char msg[256];
        CHECK_MSG(czk_parse_size(good[i].s, &v, msg, sizeof msg) == CZK_OK && v == good[i].v, "'%s' -> %zu",
                  good[i].s, v);
    }
    static const char *const bad[] = {"", "GiB", "-1G", "1.5", "1e3", "12XB", "0x10", "1 G B", "auto", "1GiBs"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v;
        char msg[256] = "";
        CHECK_MSG(czk_parse_size(bad[i], &v, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && strstr(msg, "not a size"),
                  "'%s' accepted", bad[i]);
    }
    long ms;
    char msg[256];
    CHECK(czk_parse_duration_ms("24h", &ms, msg, sizeof msg) == CZK_OK && ms == 86400000L);
    CHECK(czk_parse_duration_ms("5m", &ms, msg, sizeof msg) == CZK_OK && ms == 300000);
    CHECK(czk_parse_duration_ms("300s", &ms, msg, sizeof msg) == CZK_OK && ms == 300000);
    CHECK(czk_parse_duration_ms("250ms", &ms, msg, sizeof msg) == CZK_OK && ms == 250);
    CHECK(czk_parse_duration_ms("60", &ms, msg, sizeof msg) == CZK_OK && ms == 60000);
    CHECK(czk_parse_duration_ms("2d", &ms, msg, sizeof msg) == CZK_OK && ms == 2 * 86400000L);
    CHECK(czk_parse_duration_ms("5 minutes", &ms, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_parse_duration_ms("", &ms, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
}

static czk_err args(czk_daemon_config *c, bool *help, char *msg, size_t msglen, ...) {
    char *argv[32] = {"czkd"};
    int argc = 1;
    va_list ap;
    va_start(ap, msglen);
    const char *a;
    while ((a = va_arg(ap, const char *)) && argc < 31) argv[argc++] = (char *)a;
    va_end(ap);
    czk_daemon_config_default(c);
    return czk_daemon_config_from_args(c, argc, argv, help, msg, msglen);
}

static void test_flags(void) {
    char path[] = "/tmp/czk-config-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return;
    static const char FILE_TEXT[] = "[daemon]\nlisten = \"10.0.0.1:1\"\nstatus_listen = \"10.0.0.1:2\"\n"
                                    "[memory]\ntotal_budget = \"32GiB\"\n[srs]\nparam_cache = \"/file/params\"\n"
                                    "[logging]\nlevel = \"warn\"\n";
    if (write(fd, FILE_TEXT, sizeof FILE_TEXT - 1) != (ssize_t)(sizeof FILE_TEXT - 1)) CHECK(false);
    close(fd);
    czk_daemon_config c;
    char msg[512] = "";
    bool help = true;
    /* the file over the defaults, flags over the file, whatever their order */
    CHECK(args(&c, &help, msg, sizeof msg, "--listen", "1.2.3.4:5", "--config", path, NULL) == CZK_OK && !help);
    CHECK(!strcmp(c.listen, "1.2.3.4:5") && !strcmp(c.status_listen, "10.0.0.1:2"));
    CHECK(c.total_budget == 32 * GiB && !strcmp(c.param_cache, "/file/params") && c.log_level == CZK_LOG_WARN);
    CHECK(!strcmp(c.config_path, path));
    CHECK(args(&c, &help, msg, sizeof msg, "--config", path, "--budget", "8GiB", "--param-cache=/flag", "--state-dir",
               "/st", "--status-listen=", "--backend", "cpu", "--log-level", "error", NULL) == CZK_OK);
    CHECK(c.total_budget == 8 * GiB && !strcmp(c.param_cache, "/flag") && !strcmp(c.state_dir, "/st"));
    CHECK(c.status_listen[0] == 0 && c.backend == CZK_BACKEND_KIND_CPU && c.log_level == CZK_LOG_ERROR);
    CHECK(args(&c, &help, msg, sizeof msg, "--config", path, "--budget", "auto", NULL) == CZK_OK && c.total_budget == 0);
    CHECK(args(&c, &help, msg, sizeof msg, "--token-file", "/run/tok", NULL) == CZK_OK &&
          !strcmp(c.token_file, "/run/tok"));
    CHECK(args(&c, &help, msg, sizeof msg, "--token-file=", NULL) == CZK_OK && c.token_file[0] == 0);
    CHECK(args(&c, &help, msg, sizeof msg, "--backend", "cuda", NULL) == CZK_OK && c.backend == CZK_BACKEND_KIND_CUDA);
    CHECK(args(&c, &help, msg, sizeof msg, NULL) == CZK_OK && !strcmp(c.listen, "127.0.0.1:9820"));
    CHECK(args(&c, &help, msg, sizeof msg, "--help", NULL) == CZK_OK && help);
    /* errors */
    CHECK(args(&c, &help, msg, sizeof msg, "--bogus", "1", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "unknown option '--bogus'"));
    CHECK(args(&c, &help, msg, sizeof msg, "--listen", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "--listen needs a value"));
    CHECK(args(&c, &help, msg, sizeof msg, "--backend", "tpu", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "--backend must be cpu, cuda or auto, not 'tpu'"));
    CHECK(args(&c, &help, msg, sizeof msg, "--budget", "lots", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "--budget: 'lots' is not a size"));
    CHECK(args(&c, &help, msg, sizeof msg, "--log-level", "loud", NULL) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(args(&c, &help, msg, sizeof msg, "--listen=", NULL) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(args(&c, &help, msg, sizeof msg, "stray", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "unexpected argument 'stray'"));
    CHECK(args(&c, &help, msg, sizeof msg, "--config", "/nonexistent.toml", NULL) == CZK_ERR_IO);
    unlink(path);
    CHECK(strstr(czk_daemon_usage(), "--status-listen") != NULL && strstr(czk_daemon_usage(), "--token-file"));
}

/* who may reach and call gRPC: daemon.tls_*, insecure_listen, grpc_token, socket_* and their flags */
static void test_grpc_security(void) {
    czk_daemon_config c;
    char msg[512] = "";
    bool help = false;
    czk_daemon_config_default(&c);
    CHECK(!c.tls_cert[0] && !c.tls_key[0] && !c.tls_client_ca[0] && !c.insecure_listen && c.grpc_token &&
          c.socket_mode == 0660 && !c.socket_group[0]);
    czk_err e = parse(&c,
                      "[daemon]\ntls_cert = \"/etc/czk/server.pem\"\ntls_key = \"/etc/czk/server.key\"\n"
                      "tls_client_ca = \"/etc/czk/ca.pem\"\ninsecure_listen = true\ngrpc_token = false\n"
                      "socket_mode = \"0600\"\nsocket_group = \"curio\"\n",
                      msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "security keys: %s", msg);
    CHECK(!strcmp(c.tls_cert, "/etc/czk/server.pem") && !strcmp(c.tls_key, "/etc/czk/server.key") &&
          !strcmp(c.tls_client_ca, "/etc/czk/ca.pem"));
    CHECK(c.insecure_listen && !c.grpc_token && c.socket_mode == 0600 && !strcmp(c.socket_group, "curio"));
    CHECK(parse(&c, "[daemon]\nsocket_mode = \"777\"\n", msg, sizeof msg) == CZK_OK && c.socket_mode == 0777);
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"[daemon]\ninsecure_listen = \"yes\"\n", "key 'daemon.insecure_listen': expected a boolean, got a string"},
        {"[daemon]\ngrpc_token = 1\n", "key 'daemon.grpc_token': expected a boolean"},
        {"[daemon]\nsocket_mode = 660\n", "key 'daemon.socket_mode': expected a string"},
        {"[daemon]\nsocket_mode = \"0980\"\n", "'0980' is not a mode in octal, 0 to 0777"},
        {"[daemon]\nsocket_mode = \"1777\"\n", "'1777' is not a mode in octal"},
        {"[daemon]\nsocket_mode = \"\"\n", "key 'daemon.socket_mode': '' is not a mode"},
        {"[daemon]\ntls_cert = 3\n", "key 'daemon.tls_cert': expected a string"},
        {"[daemon]\ntls_client_ca = true\n", "key 'daemon.tls_client_ca': expected a string"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e = parse(&c, bad[i].text, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT && strstr(msg, bad[i].want), "case %zu: '%s' (want '%s')", i, msg,
                  bad[i].want);
    }
    /* flags: the boolean ones take no value, or =yes / =no */
    CHECK(args(&c, &help, msg, sizeof msg, "--tls-cert", "/c.pem", "--tls-key=/k.pem", "--tls-client-ca", "/ca.pem",
               "--insecure-listen", "--listen", "0.0.0.0:1", "--socket-mode", "0640", "--socket-group", "42",
               "--grpc-token=no", NULL) == CZK_OK);
    CHECK(!strcmp(c.tls_cert, "/c.pem") && !strcmp(c.tls_key, "/k.pem") && !strcmp(c.tls_client_ca, "/ca.pem"));
    CHECK(c.insecure_listen && !c.grpc_token && c.socket_mode == 0640 && !strcmp(c.socket_group, "42") &&
          !strcmp(c.listen, "0.0.0.0:1"));
    CHECK(args(&c, &help, msg, sizeof msg, "--insecure-listen=yes", "--insecure-listen=no", "--grpc-token", NULL) ==
              CZK_OK &&
          !c.insecure_listen && c.grpc_token);
    CHECK(args(&c, &help, msg, sizeof msg, "--insecure-listen=maybe", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "--insecure-listen takes yes or no"));
    CHECK(args(&c, &help, msg, sizeof msg, "--socket-mode", "rw", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "--socket-mode: 'rw' is not a mode in octal"));
    CHECK(args(&c, &help, msg, sizeof msg, "--tls-cert", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "--tls-cert needs a value"));
    const char *u = czk_daemon_usage();
    CHECK(strstr(u, "--tls-cert") && strstr(u, "--tls-client-ca") && strstr(u, "--insecure-listen") &&
          strstr(u, "--socket-mode") && strstr(u, "--socket-group") && strstr(u, "--grpc-token"));
}

/* [journal]: the journal's disk limit (czk keys) */
static void test_journal_keys(void) {
    czk_daemon_config c;
    char msg[512] = "";
    czk_daemon_config_default(&c);
    CHECK(c.journal_max_disk_share == 0.5 && c.journal_max_disk_bytes == 0);
    CHECK_MSG(parse(&c, "[journal]\nmax_disk_share = 0.25\nmax_disk_size = \"200GiB\"\n", msg, sizeof msg) == CZK_OK,
              "%s", msg);
    CHECK(c.journal_max_disk_share == 0.25 && c.journal_max_disk_bytes == ((size_t)200 << 30));
    CHECK(parse(&c, "journal.max_disk_share = 1\njournal.max_disk_size = 0\n", msg, sizeof msg) == CZK_OK &&
          c.journal_max_disk_share == 1.0 && c.journal_max_disk_bytes == 0);
    CHECK(parse(&c, "[journal]\nmax_disk_size = 1073741824\n", msg, sizeof msg) == CZK_OK &&
          c.journal_max_disk_bytes == ((size_t)1 << 30));
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"[journal]\nmax_disk_share = 0\n", "t.toml:2: key 'journal.max_disk_share': must be between 0.01 and 1, not 0"},
        {"[journal]\nmax_disk_share = 1.5\n", "must be between 0.01 and 1, not 1.5"},
        {"[journal]\nmax_disk_share = \"half\"\n", "expected a number such as 0.5, got a string"},
        {"[journal]\nmax_disk_size = \"512KiB\"\n", "key 'journal.max_disk_size': must be at least 1 MiB (or 0: no cap)"},
        {"[journal]\nmax_disk_size = -5\n", "key 'journal.max_disk_size': must be positive"},
        {"[journal]\nmax_disk_size = \"lots\"\n", "'lots' is not a size"},
        {"[journal]\nmax_disk = 5\n", "key 'journal.max_disk': unknown key"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = 0;
        czk_err e = parse(&c, bad[i].text, msg, sizeof msg);
        CHECK_MSG(e == CZK_ERR_INVALID_ARGUMENT && strstr(msg, bad[i].want), "journal case %zu: %s, '%s'", i,
                  czk_err_str(e), msg);
    }
}

/* Development parameters made by czkd: off by default, srs.generate_dev_params
 * in the file, --generate-dev-params over it. */
static void test_generate_dev_params(void) {
    czk_daemon_config c;
    char msg[512] = "";
    bool help = false;
    czk_daemon_config_default(&c);
    CHECK(!c.generate_dev_params);
    CHECK(parse(&c, CUZK_EXAMPLE, msg, sizeof msg) == CZK_OK && !c.generate_dev_params);
    CHECK_MSG(parse(&c, "[srs]\ngenerate_dev_params = true\n", msg, sizeof msg) == CZK_OK && c.generate_dev_params,
              "%s", msg);
    CHECK(parse(&c, "srs.generate_dev_params = false\n", msg, sizeof msg) == CZK_OK && !c.generate_dev_params);
    CHECK(parse(&c, "[srs]\ngenerate_dev_params = \"yes\"\n", msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "t.toml:2: key 'srs.generate_dev_params': expected a boolean, got a string"));
    CHECK(args(&c, &help, msg, sizeof msg, "--generate-dev-params", "true", NULL) == CZK_OK && c.generate_dev_params);
    CHECK(args(&c, &help, msg, sizeof msg, "--generate-dev-params=false", NULL) == CZK_OK && !c.generate_dev_params);
    CHECK(args(&c, &help, msg, sizeof msg, NULL) == CZK_OK && !c.generate_dev_params);
    CHECK(args(&c, &help, msg, sizeof msg, "--generate-dev-params", "1", NULL) == CZK_ERR_INVALID_ARGUMENT &&
          strstr(msg, "--generate-dev-params must be true or false, not '1'"));
    char path[] = "/tmp/czk-config-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return;
    static const char FILE_TEXT[] = "[srs]\ngenerate_dev_params = true\n";
    if (write(fd, FILE_TEXT, sizeof FILE_TEXT - 1) != (ssize_t)(sizeof FILE_TEXT - 1)) CHECK(false);
    close(fd);
    CHECK(args(&c, &help, msg, sizeof msg, "--config", path, NULL) == CZK_OK && c.generate_dev_params);
    CHECK(args(&c, &help, msg, sizeof msg, "--generate-dev-params", "false", "--config", path, NULL) == CZK_OK &&
          !c.generate_dev_params);
    unlink(path);
    CHECK(strstr(czk_daemon_usage(), "--generate-dev-params true|false") != NULL);
}

int main(void) {
    test_journal_keys();
    test_defaults();
    test_grpc_security();
    test_good();
    test_bad();
    test_sizes();
    test_flags();
    test_generate_dev_params();
    return test_finish("config");
}
