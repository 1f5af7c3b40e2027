/* czk — czkd's configuration: defaults, then a TOML file, then command-line
 * flags (each overriding the one before).
 *
 * The file is cuzk's (Curio extern/cuzk, cuzk.example.toml): the keys that
 * mean something to czk keep cuzk's names and meanings; cuzk keys that do
 * not apply to czk (scheduler.*, pipeline.*, gpus.gpu_threads,
 * memory.eviction_min_idle, memory.pinned_budget,
 * memory.working_memory_budget, srs.preload, logging.format) are accepted
 * with a warning, so a cuzk.toml works unchanged; any other key is an error.
 *
 *   [daemon]    listen = "127.0.0.1:9820"     gRPC: "host:port" or "unix:///path"
 *               status_listen = "127.0.0.1:9821"   HTTP status page; "" turns it off
 *               state_dir = "..."             (czk) journal and spool
 *               queue_limit = 1024            (czk) unfinished jobs accepted at most
 *               result_retention = "24h"      (czk) how long finished results are kept
 *               max_message_size = "256MiB"   (czk) largest gRPC message
 *               token_file = "..."            (czk) a file holding the token every HTTP request must
 *                                             carry (Authorization: Bearer); "" = none (default)
 *               status_allowed_hosts = []     (czk) Host names the status page answers besides
 *                                             localhost, IP literals and the listen host ("name",
 *                                             "name:port", "*" = any)
 *               status_per_ip_limit = 8       (czk) status connections from one address at most
 *               status_connection_limit = 64  (czk) status connections at most
 *               status_request_timeout = "10s" (czk) a status connection's time for a request
 *               tls_cert = "", tls_key = ""   (czk) gRPC over TLS with this PEM certificate and key
 *               tls_client_ca = ""            (czk) mutual TLS: clients need a certificate of this CA
 *               insecure_listen = false       (czk) plaintext gRPC on a non-loopback address allowed
 *               grpc_token = true             (czk) gRPC calls need token_file's token as well
 *               socket_mode = "0660"          (czk) the unix socket's mode, whatever the umask
 *               socket_group = ""             (czk) the unix socket's group
 *               receive_timeout = "60s"       (czk) a gRPC call's time to send its whole request
 *   [journal]   max_disk_share = 0.5          (czk) the journal's share of its bytes and the state
 *                                             folder's free ones; past it SubmitProof is refused
 *               max_disk_size = "0"           (czk) a cap on the journal's bytes; 0 = none (default)
 *   [memory]    total_budget = "auto" | "64GiB" | bytes
 *               safety_margin = "5GiB"        subtracted from the detected memory (auto only;
 *                                             default: 10% of it)
 *   [gpus]      devices = [0, 1]              GPU ordinals; [] = every GPU
 *               gpu_workers_per_device = 2
 *   [synthesis] threads = 0                   CPU threads (0: one per CPU)
 *               partition_workers = 2         (cuzk: deprecated; czk: partitions synthesized at once)
 *               critical_workers = 1          (czk) workers that take only CRITICAL jobs
 *               pack_abc = true               (czk) keep waiting partitions' a, b, c packed
 *   [srs]       param_cache = "..."           <circuit id>.params files
 *               generate_dev_params = false   (czk) make development parameters (NOT a trusted
 *                                             setup) for a built-in circuit whose file is missing
 *   [logging]   level = "info"                trace, debug, info, warn, error
 *
 * The TOML subset: [table] headers, key = value with bare or dotted keys,
 * basic "..." (escapes \" \\ \n \t \r \uXXXX) and literal '...' strings,
 * integers (with _ separators), floats, true/false, arrays of those (across
 * lines too), # comments. Sizes: a number with B, KiB, MiB, GiB, TiB (or K,
 * M, G, T) in powers of 1024, or KB, MB, GB, TB in powers of 1000; an integer
 * is bytes. Durations: a number with ms, s, m, h or d (an integer: seconds).
 * Every error names the file, the line and the key. */
#ifndef CZK_DAEMON_CONFIG_H
#define CZK_DAEMON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include "czk/err.h"
#include <stdbool.h>

#include "czk/log.h"

#define CZK_DAEMON_MAX_DEVICES 64
#define CZK_DAEMON_PATH_MAX 4096

typedef enum { CZK_BACKEND_KIND_AUTO = 0, CZK_BACKEND_KIND_CPU, CZK_BACKEND_KIND_CUDA } czk_backend_kind;

typedef struct {
    char listen[512];                      /* default 127.0.0.1:9820 */
    char status_listen[512];               /* default 127.0.0.1:9821; "" = off */
    char token_file[CZK_DAEMON_PATH_MAX];  /* "" = no token (default) */
    char status_allowed_hosts[1024];       /* comma-separated; default "" */
    unsigned status_per_ip_limit;          /* default 8 */
    unsigned status_connection_limit;      /* default 64 */
    long status_request_timeout_ms;        /* default 10 s */
    char state_dir[CZK_DAEMON_PATH_MAX];   /* default $XDG_STATE_HOME/czk or ~/.local/state/czk */
    char param_cache[CZK_DAEMON_PATH_MAX]; /* default: czk_daemon_param_cache_default */
    bool generate_dev_params;              /* default false (czk_service_config.generate_dev_params) */
    size_t total_budget;                   /* bytes; 0 = auto */
    size_t safety_margin;                  /* bytes; 0 = the engine's default (10%) */
    int devices[CZK_DAEMON_MAX_DEVICES];
    size_t n_devices;                      /* 0 = every GPU */
    int gpu_workers_per_device;            /* default 2 */
    int partition_workers;                 /* default 2 */
    int critical_workers;                  /* default 1: workers for CRITICAL jobs only (czk) */
    int synthesis_threads;                 /* 0 = one per CPU */
    bool pack_abc;                         /* default true (czk_engine_config.pack_abc) */
    czk_log_level log_level;               /* default info */
    czk_backend_kind backend;              /* --backend; default auto */
    size_t queue_limit;                    /* default 1024 */
    long result_keep_ms;                   /* default 24 h */
    size_t max_message_bytes;              /* default 256 MiB */
    /* who may reach and call gRPC (czk only; docs/daemon.md, "gRPC: TLS, token, socket") */
    char tls_cert[CZK_DAEMON_PATH_MAX];      /* PEM certificate chain; "" = no TLS (default) */
    char tls_key[CZK_DAEMON_PATH_MAX];       /* PEM private key of tls_cert */
    char tls_client_ca[CZK_DAEMON_PATH_MAX]; /* PEM CA: mutual TLS, client certificates required; "" = none */
    bool insecure_listen;                    /* plaintext on a non-loopback address allowed; default false */
    bool grpc_token;                         /* gRPC calls need token_file's token too; default true */
    unsigned socket_mode;                    /* a unix socket's mode; default 0660 */
    char socket_group[256];                  /* a unix socket's group, name or number; "" = the process's */
    /* the gRPC receive path (czk only; docs/daemon.md, "gRPC: slow clients") */
    long receive_timeout_ms; /* a call's time from its start to its whole request message; default 60 s */
    size_t receive_buffer_bytes; /* gRPC's memory for the messages it receives, reserved in the budget;
                                  * 0 (default): twice max_message_bytes (czk_daemon_receive_buffer) */
    double journal_max_disk_share;         /* default 0.5 (0.01 … 1) */
    size_t journal_max_disk_bytes;         /* default 0: no cap */
    char config_path[CZK_DAEMON_PATH_MAX]; /* the file read ("" for none) */
    char warnings[2048];                   /* one line per ignored key, for the log */
} czk_daemon_config;

/* daemon.receive_buffer as czkd uses it: the configured size, or twice the
 * message limit. */
size_t czk_daemon_receive_buffer(const czk_daemon_config *c);

/* The defaults above (reads HOME, XDG_STATE_HOME, CZK_PARAM_CACHE,
 * FIL_PROOFS_PARAMETER_CACHE). */
void czk_daemon_config_default(czk_daemon_config *c);
/* The parameter cache czkd and the client use by default: $CZK_PARAM_CACHE,
 * else rust-fil-proofs' own default ($FIL_PROOFS_PARAMETER_CACHE, else
 * /var/tmp/filecoin-proof-parameters), so that a storage provider's
 * downloaded v28 files are found where Lotus and Curio keep them. */
void czk_daemon_param_cache_default(char *out, size_t cap);

/* Applies the TOML text (len bytes; `name` is used in messages) on top of
 * *c. On error (CZK_ERR_FORMAT for syntax, CZK_ERR_INVALID_ARGUMENT for a
 * bad or unknown key) msg reads "NAME:LINE: key 'table.key': reason" and *c
 * may be partly changed. */
czk_err czk_daemon_config_parse(czk_daemon_config *c, const char *text, size_t len, const char *name, char *msg,
                                size_t msglen);
/* Reads and applies a file (CZK_ERR_IO when it cannot be read). */
czk_err czk_daemon_config_load(czk_daemon_config *c, const char *path, char *msg, size_t msglen);

/* czkd's command line (argv[0] is the program):
 *   [--config FILE] [--listen ADDR] [--status-listen ADDR] [--state-dir DIR]
 *   [--param-cache DIR] [--backend cpu|cuda|auto] [--budget SIZE|auto]
 *   [--log-level LEVEL] [--token-file FILE] [--tls-cert FILE --tls-key FILE
 *   [--tls-client-ca FILE]] [--insecure-listen] [--grpc-token=yes|no]
 *   [--socket-mode MODE] [--socket-group GROUP] [--generate-dev-params true|false] [--help]
 * (also --flag=value). The file named by --config is applied first, then
 * the other flags, whatever their order. *help: --help was given (nothing
 * else is done). CZK_ERR_INVALID_ARGUMENT with a message for an unknown
 * flag, a missing or bad value. */
czk_err czk_daemon_config_from_args(czk_daemon_config *c, int argc, char **argv, bool *help, char *msg,
                                    size_t msglen);
const char *czk_daemon_usage(void);

/* "64GiB", "1.5G", "512MB", "4096" → bytes (see above); "auto" is not a
 * size. CZK_ERR_INVALID_ARGUMENT with a message otherwise. */
czk_err czk_parse_size(const char *s, size_t *out, char *msg, size_t msglen);
/* "5m", "300s", "24h", "250ms", "60" (seconds) → milliseconds. */
czk_err czk_parse_duration_ms(const char *s, long *out, char *msg, size_t msglen);
const char *czk_backend_kind_name(czk_backend_kind k);

#endif
