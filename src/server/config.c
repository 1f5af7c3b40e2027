/* czk — czkd's configuration (include/czk/daemon_config.h): defaults, sizes
 * and durations, the keys of the TOML file (read with toml.h's lexer) and the
 * command-line flags. */
#define _GNU_SOURCE
#include "czk/daemon_config.h"
#include "toml.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void set_msg(char *msg, size_t msglen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_msg(char *msg, size_t msglen, const char *fmt, ...) {
    if (!msg || !msglen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
}

const char *czk_backend_kind_name(czk_backend_kind k) {
    return k == CZK_BACKEND_KIND_CPU ? "cpu" : k == CZK_BACKEND_KIND_CUDA ? "cuda" : "auto";
}

void czk_daemon_param_cache_default(char *out, size_t cap) {
    const char *pc = getenv("CZK_PARAM_CACHE"), *fil = getenv("FIL_PROOFS_PARAMETER_CACHE");
    if (pc && *pc) snprintf(out, cap, "%s", pc);
    else if (fil && *fil) snprintf(out, cap, "%s", fil);
    else snprintf(out, cap, "/var/tmp/filecoin-proof-parameters");
}

void czk_daemon_config_default(czk_daemon_config *c) {
    memset(c, 0, sizeof *c);
    snprintf(c->listen, sizeof c->listen, "127.0.0.1:9820");
    snprintf(c->status_listen, sizeof c->status_listen, "127.0.0.1:9821");
    const char *home = getenv("HOME");
    if (!home || !*home) home = "/tmp";
    const char *xs = getenv("XDG_STATE_HOME");
    if (xs && *xs) snprintf(c->state_dir, sizeof c->state_dir, "%s/czk", xs);
    else snprintf(c->state_dir, sizeof c->state_dir, "%s/.local/state/czk", home);
    czk_daemon_param_cache_default(c->param_cache, sizeof c->param_cache);
    c->gpu_workers_per_device = 2;
    c->partition_workers = 2;
    c->critical_workers = 1;
    c->pack_abc = true;
    c->log_level = CZK_LOG_INFO;
    c->backend = CZK_BACKEND_KIND_AUTO;
    c->queue_limit = 1024;
    c->result_keep_ms = 24L * 3600 * 1000;
    c->max_message_bytes = (size_t)256 << 20;
    c->status_per_ip_limit = 8;
    c->status_connection_limit = 64;
    c->status_request_timeout_ms = 10000;
    c->grpc_token = true;
    c->socket_mode = 0660;
    c->journal_max_disk_share = 0.5;
    c->receive_timeout_ms = 60000;
    c->journal_max_disk_bytes = 0;
}

/* ---- sizes and durations ------------------------------------------------------------- */

/* A non-negative decimal number (digits, optional fraction) at *p. */
static bool parse_number(const char **p, double *out) {
    const char *s = *p;
    if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1]))) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !isfinite(v) || v < 0) return false;
    for (const char *q = s; q < end; q++) /* no exponents, hex or inf: digits and a dot */
        if (!isdigit((unsigned char)*q) && *q != '.') return false;
    *p = end;
    *out = v;
    return true;
}

czk_err czk_parse_size(const char *s, size_t *out, char *msg, size_t msglen) {
    const char *p = s ? s : "";
    while (isspace((unsigned char)*p)) p++;
    double v;
    if (!parse_number(&p, &v)) goto bad;
    while (isspace((unsigned char)*p)) p++;
    static const struct {
        const char *unit;
        double mul;
    } units[] = {{"", 1},
                 {"B", 1},
                 {"K", 1024.0},
                 {"KiB", 1024.0},
                 {"KB", 1e3},
                 {"k", 1024.0},
                 {"kB", 1e3},
                 {"M", 1048576.0},
                 {"MiB", 1048576.0},
                 {"MB", 1e6},
                 {"G", 1073741824.0},
                 {"GiB", 1073741824.0},
                 {"GB", 1e9},
                 {"T", 1099511627776.0},
                 {"TiB", 1099511627776.0},
                 {"TB", 1e12}};
    size_t ul = strlen(p);
    while (ul && isspace((unsigned char)p[ul - 1])) ul--;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strlen(units[i].unit) != ul || strncmp(units[i].unit, p, ul)) continue;
        double bytes = v * units[i].mul;
        if (!units[i].unit[0] && strchr(s, '.')) goto bad; /* a bare number must be whole bytes */
        if (bytes >= 18446744073709551615.0) goto bad;
        *out = (size_t)(bytes + 0.5);
        return CZK_OK;
    }
bad:
    set_msg(msg, msglen, "'%s' is not a size (examples: 64GiB, 1.5G, 512MiB, 500MB, 4096)", s ? s : "");
    return CZK_ERR_INVALID_ARGUMENT;
}

czk_err czk_parse_duration_ms(const char *s, long *out, char *msg, size_t msglen) {
    const char *p = s ? s : "";
    while (isspace((unsigned char)*p)) p++;
    double v;
    if (!parse_number(&p, &v)) goto bad;
    while (isspace((unsigned char)*p)) p++;
    double mul;
    if (!*p || !strcmp(p, "s")) mul = 1000;
    else if (!strcmp(p, "ms")) mul = 1;
    else if (!strcmp(p, "m")) mul = 60000;
    else if (!strcmp(p, "h")) mul = 3600000;
    else if (!strcmp(p, "d")) mul = 86400000;
    else goto bad;
    if (v * mul > 9.2e18) goto bad;
    *out = (long)(v * mul + 0.5);
    return CZK_OK;
bad:
    set_msg(msg, msglen, "'%s' is not a duration (examples: 24h, 5m, 300s, 250ms, 60)", s ? s : "");
    return CZK_ERR_INVALID_ARGUMENT;
}

/* ---- keys ------------------------------------------------------------------------------ */

typedef struct {
    const char *key;
    czk_err (*apply)(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl);
} key_handler;

static czk_err want(const czk_toml_value *v, czk_toml_type t, char *why, size_t wl) {
    if (v->t == t) return CZK_OK;
    set_msg(why, wl, "expected %s, got %s", czk_toml_type_name(t), czk_toml_type_name(v->t));
    return CZK_ERR_INVALID_ARGUMENT;
}

static czk_err copy_str(char *dst, size_t cap, const czk_toml_value *v, bool allow_empty, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_STRING, why, wl);
    if (e) return e;
    if (!allow_empty && !v->s[0]) {
        set_msg(why, wl, "must not be empty");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (strlen(v->s) >= cap) {
        set_msg(why, wl, "longer than %zu bytes", cap - 1);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    snprintf(dst, cap, "%s", v->s);
    return CZK_OK;
}

static czk_err int_in(const czk_toml_value *v, long long lo, long long hi, long long *out, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_INT, why, wl);
    if (e) return e;
    if (v->i < lo || v->i > hi) {
        set_msg(why, wl, "must be in [%lld, %lld], not %lld", lo, hi, v->i);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    *out = v->i;
    return CZK_OK;
}

/* A size: a string ("64GiB") or an integer of bytes. */
static czk_err size_of(const czk_toml_value *v, size_t *out, char *why, size_t wl) {
    if (v->t == CZK_TOML_INT) {
        if (v->i <= 0) {
            set_msg(why, wl, "must be positive, not %lld", v->i);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        *out = (size_t)v->i;
        return CZK_OK;
    }
    if (v->t != CZK_TOML_STRING) {
        set_msg(why, wl, "expected a size such as \"64GiB\", got %s", czk_toml_type_name(v->t));
        return CZK_ERR_INVALID_ARGUMENT;
    }
    return czk_parse_size(v->s, out, why, wl);
}

static czk_err k_listen(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->listen, sizeof c->listen, v, false, why, wl);
}
static czk_err k_status_listen(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->status_listen, sizeof c->status_listen, v, true, why, wl);
}
static czk_err k_token_file(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->token_file, sizeof c->token_file, v, true, why, wl);
}
static czk_err k_allowed_hosts(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_ARRAY, why, wl);
    if (e) return e;
    char buf[sizeof c->status_allowed_hosts];
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < v->n; i++) {
        const czk_toml_value *x = &v->items[i];
        if (x->t != CZK_TOML_STRING || !x->s[0] || strpbrk(x->s, ", \t")) {
            set_msg(why, wl, "element %zu: expected a host name, \"name:port\" or \"*\"", i);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        size_t n = strlen(x->s);
        if (len + n + 2 > sizeof buf) {
            set_msg(why, wl, "longer than %zu bytes in all", sizeof buf - 1);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        if (len) buf[len++] = ',';
        memcpy(buf + len, x->s, n + 1);
        len += n;
    }
    memcpy(c->status_allowed_hosts, buf, len + 1);
    return CZK_OK;
}
static czk_err k_per_ip(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    long long x;
    czk_err e = int_in(v, 1, 1024, &x, why, wl);
    if (!e) c->status_per_ip_limit = (unsigned)x;
    return e;
}
static czk_err k_conn_limit(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    long long x;
    czk_err e = int_in(v, 1, 4096, &x, why, wl);
    if (!e) c->status_connection_limit = (unsigned)x;
    return e;
}
/* A timeout of 100 ms … 1 h: a duration string ("10s", "500ms") or integer seconds (1 … 3600). */
static czk_err timeout_ms(const czk_toml_value *v, long *out, char *why, size_t wl) {
    if (v->t == CZK_TOML_INT) {
        if (v->i <= 0 || v->i > 3600) {
            set_msg(why, wl, "must be between 1 and 3600 seconds");
            return CZK_ERR_INVALID_ARGUMENT;
        }
        *out = (long)v->i * 1000;
        return CZK_OK;
    }
    long ms;
    czk_err e = want(v, CZK_TOML_STRING, why, wl);
    if (!e) e = czk_parse_duration_ms(v->s, &ms, why, wl);
    if (!e && (ms < 100 || ms > 3600L * 1000)) {
        set_msg(why, wl, "must be between 100ms and 1h");
        e = CZK_ERR_INVALID_ARGUMENT;
    }
    if (!e) *out = ms;
    return e;
}
static czk_err k_request_timeout(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return timeout_ms(v, &c->status_request_timeout_ms, why, wl);
}
/* the gRPC receive path (docs/daemon.md, "gRPC: slow clients") */
static czk_err k_receive_timeout(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return timeout_ms(v, &c->receive_timeout_ms, why, wl);
}
static czk_err k_receive_buffer(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    size_t n;
    czk_err e = size_of(v, &n, why, wl);
    if (!e && (n < ((size_t)1 << 20) || n > ((size_t)64 << 30))) {
        set_msg(why, wl, "must be between 1 MiB and 64 GiB");
        e = CZK_ERR_INVALID_ARGUMENT;
    }
    if (!e) c->receive_buffer_bytes = n;
    return e;
}

size_t czk_daemon_receive_buffer(const czk_daemon_config *c) {
    return c->receive_buffer_bytes ? c->receive_buffer_bytes : 2 * c->max_message_bytes;
}
static czk_err k_state_dir(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->state_dir, sizeof c->state_dir, v, false, why, wl);
}
static czk_err k_param_cache(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->param_cache, sizeof c->param_cache, v, false, why, wl);
}
static czk_err k_queue_limit(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    long long x;
    czk_err e = int_in(v, 1, 1000000, &x, why, wl);
    if (!e) c->queue_limit = (size_t)x;
    return e;
}
static czk_err k_retention(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    long ms;
    if (v->t == CZK_TOML_INT) {
        if (v->i <= 0 || v->i > 100LL * 365 * 86400) {
            set_msg(why, wl, "must be a positive number of seconds");
            return CZK_ERR_INVALID_ARGUMENT;
        }
        c->result_keep_ms = (long)v->i * 1000;
        return CZK_OK;
    }
    czk_err e = want(v, CZK_TOML_STRING, why, wl);
    if (!e) e = czk_parse_duration_ms(v->s, &ms, why, wl);
    if (!e && ms <= 0) {
        set_msg(why, wl, "must be positive");
        e = CZK_ERR_INVALID_ARGUMENT;
    }
    if (!e) c->result_keep_ms = ms;
    return e;
}
static czk_err k_max_msg(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    size_t n;
    czk_err e = size_of(v, &n, why, wl);
    if (!e && (n < 4096 || n > ((size_t)2 << 30) - 1)) {
        set_msg(why, wl, "must be between 4 KiB and 2 GiB");
        e = CZK_ERR_INVALID_ARGUMENT;
    }
    if (!e) c->max_message_bytes = n;
    return e;
}
/* ---- who may reach and call gRPC (daemon.tls_*, insecure_listen, grpc_token, socket_*) ---- */
static czk_err k_tls_cert(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->tls_cert, sizeof c->tls_cert, v, true, why, wl);
}
static czk_err k_tls_key(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->tls_key, sizeof c->tls_key, v, true, why, wl);
}
static czk_err k_tls_client_ca(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->tls_client_ca, sizeof c->tls_client_ca, v, true, why, wl);
}
static czk_err k_insecure_listen(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_BOOL, why, wl);
    if (!e) c->insecure_listen = v->b;
    return e;
}
static czk_err k_grpc_token(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_BOOL, why, wl);
    if (!e) c->grpc_token = v->b;
    return e;
}
/* "0660": 1 to 4 octal digits, at most 0777. */
static bool parse_mode(const char *s, unsigned *out) {
    size_t n = strlen(s);
    if (n == 0 || n > 4) return false;
    unsigned m = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '7') return false;
        m = m * 8 + (unsigned)(s[i] - '0');
    }
    if (m > 0777) return false;
    *out = m;
    return true;
}
static czk_err k_socket_mode(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_STRING, why, wl);
    if (e) return e;
    if (!parse_mode(v->s, &c->socket_mode)) {
        set_msg(why, wl, "'%s' is not a mode in octal, 0 to 0777 (e.g. \"0660\")", v->s);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    return CZK_OK;
}
static czk_err k_socket_group(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return copy_str(c->socket_group, sizeof c->socket_group, v, true, why, wl);
}
/* ---- the journal's disk (journal.*) ---- */
static czk_err k_journal_share(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    double x;
    if (v->t == CZK_TOML_FLOAT) x = v->f;
    else if (v->t == CZK_TOML_INT) x = (double)v->i;
    else {
        set_msg(why, wl, "expected a number such as 0.5, got %s", czk_toml_type_name(v->t));
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (!(x >= 0.01 && x <= 1)) {
        set_msg(why, wl, "must be between 0.01 and 1, not %g", x);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    c->journal_max_disk_share = x;
    return CZK_OK;
}
static czk_err k_journal_size(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    size_t n = 0;
    if (v->t == CZK_TOML_INT && v->i == 0) {
        c->journal_max_disk_bytes = 0; /* no cap */
        return CZK_OK;
    }
    czk_err e = size_of(v, &n, why, wl);
    if (!e && n < ((size_t)1 << 20)) {
        set_msg(why, wl, "must be at least 1 MiB (or 0: no cap)");
        e = CZK_ERR_INVALID_ARGUMENT;
    }
    if (!e) c->journal_max_disk_bytes = n;
    return e;
}

static czk_err k_total_budget(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    if (v->t == CZK_TOML_STRING && !strcasecmp(v->s, "auto")) {
        c->total_budget = 0;
        return CZK_OK;
    }
    return size_of(v, &c->total_budget, why, wl);
}
static czk_err k_safety_margin(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    return size_of(v, &c->safety_margin, why, wl);
}
static czk_err k_devices(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_ARRAY, why, wl);
    if (e) return e;
    if (v->n > CZK_DAEMON_MAX_DEVICES) {
        set_msg(why, wl, "at most %d devices", CZK_DAEMON_MAX_DEVICES);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < v->n; i++) {
        if (v->items[i].t != CZK_TOML_INT || v->items[i].i < 0 || v->items[i].i > 1023) {
            set_msg(why, wl, "element %zu: expected a GPU ordinal (an integer >= 0)", i);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        for (size_t k = 0; k < i; k++)
            if (v->items[k].i == v->items[i].i) {
                set_msg(why, wl, "device %lld is listed twice", v->items[i].i);
                return CZK_ERR_INVALID_ARGUMENT;
            }
        c->devices[i] = (int)v->items[i].i;
    }
    c->n_devices = v->n;
    return CZK_OK;
}
static czk_err k_gw(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    long long x;
    czk_err e = int_in(v, 1, 64, &x, why, wl);
    if (!e) c->gpu_workers_per_device = (int)x;
    return e;
}
static czk_err k_pw(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    long long x;
    czk_err e = int_in(v, 1, 256, &x, why, wl);
    if (!e) c->partition_workers = (int)x;
    return e;
}
static czk_err k_cw(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    long long x;
    czk_err e = int_in(v, 0, 64, &x, why, wl);
    if (!e) c->critical_workers = (int)x;
    return e;
}
static czk_err k_threads(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    long long x;
    czk_err e = int_in(v, 0, 4096, &x, why, wl);
    if (!e) c->synthesis_threads = (int)x;
    return e;
}
static czk_err k_pack_abc(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_BOOL, why, wl);
    if (!e) c->pack_abc = v->b;
    return e;
}
/* parameters: development ones made by czkd itself (off unless asked for) */
static czk_err k_generate_dev(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_BOOL, why, wl);
    if (!e) c->generate_dev_params = v->b;
    return e;
}

static czk_err k_level(czk_daemon_config *c, const czk_toml_value *v, char *why, size_t wl) {
    czk_err e = want(v, CZK_TOML_STRING, why, wl);
    return e ? e : czk_log_level_parse(&c->log_level, v->s, why, wl);
}

static const key_handler KEYS[] = {
    {"daemon.listen", k_listen},
    {"daemon.status_listen", k_status_listen},
    {"daemon.token_file", k_token_file},
    {"daemon.status_allowed_hosts", k_allowed_hosts},
    {"daemon.status_per_ip_limit", k_per_ip},
    {"daemon.status_connection_limit", k_conn_limit},
    {"daemon.status_request_timeout", k_request_timeout},
    {"daemon.state_dir", k_state_dir},
    {"daemon.queue_limit", k_queue_limit},
    {"daemon.result_retention", k_retention},
    {"daemon.max_message_size", k_max_msg},
    {"daemon.tls_cert", k_tls_cert},
    {"daemon.tls_key", k_tls_key},
    {"daemon.tls_client_ca", k_tls_client_ca},
    {"daemon.insecure_listen", k_insecure_listen},
    {"daemon.grpc_token", k_grpc_token},
    {"daemon.socket_mode", k_socket_mode},
    {"daemon.socket_group", k_socket_group},
    {"daemon.receive_timeout", k_receive_timeout},
    {"daemon.receive_buffer", k_receive_buffer},
    {"journal.max_disk_share", k_journal_share},
    {"journal.max_disk_size", k_journal_size},
    {"memory.total_budget", k_total_budget},
    {"memory.safety_margin", k_safety_margin},
    {"gpus.devices", k_devices},
    {"gpus.gpu_workers_per_device", k_gw},
    {"synthesis.threads", k_threads},
    {"synthesis.partition_workers", k_pw},
    {"synthesis.critical_workers", k_cw},
    {"synthesis.pack_abc", k_pack_abc},
    {"srs.param_cache", k_param_cache},
    {"srs.generate_dev_params", k_generate_dev},
    {"logging.level", k_level},
};

/* cuzk keys that czk reads and ignores. */
static const char *const IGNORED[] = {
    "memory.eviction_min_idle", "memory.pinned_budget",       "memory.working_memory_budget",
    "gpus.gpu_threads",         "srs.preload",                "logging.format",
    "scheduler.max_batch_size", "scheduler.max_batch_wait_ms", "scheduler.sort_by_type",
    "pipeline.enabled",         "pipeline.synthesis_lookahead", "pipeline.synthesis_concurrency",
    "pipeline.slot_size",       "pipeline.max_gpu_queue_depth",
};

static void add_warning(czk_daemon_config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_warning(czk_daemon_config *c, const char *fmt, ...) {
    size_t n = strlen(c->warnings);
    if (n + 2 >= sizeof c->warnings) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->warnings + n, sizeof c->warnings - n, fmt, ap);
    va_end(ap);
    n = strlen(c->warnings);
    if (n + 1 < sizeof c->warnings) {
        c->warnings[n] = '\n';
        c->warnings[n + 1] = 0;
    }
}

typedef struct {
    char **keys;
    size_t n, cap;
} keyset;

static bool keyset_add(keyset *ks, const char *k) {
    for (size_t i = 0; i < ks->n; i++)
        if (!strcmp(ks->keys[i], k)) return false;
    if (ks->n == ks->cap) {
        size_t cap = ks->cap ? 2 * ks->cap : 32;
        char **p = realloc(ks->keys, cap * sizeof *p);
        if (!p) return true; /* duplicates go unnoticed when out of memory */
        ks->keys = p;
        ks->cap = cap;
    }
    char *d = strdup(k);
    if (d) ks->keys[ks->n++] = d;
    return true;
}

static void keyset_free(keyset *ks) {
    for (size_t i = 0; i < ks->n; i++) free(ks->keys[i]);
    free(ks->keys);
}

static czk_err apply_key(czk_daemon_config *c, czk_toml_lexer *lx, const czk_toml_value *v) {
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++) {
        if (strcmp(KEYS[i].key, lx->key)) continue;
        char why[384] = "";
        czk_err e = KEYS[i].apply(c, v, why, sizeof why);
        if (e != CZK_OK) {
            czk_toml_error(lx, "%s", why);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        return CZK_OK;
    }
    for (size_t i = 0; i < sizeof IGNORED / sizeof IGNORED[0]; i++)
        if (!strcmp(IGNORED[i], lx->key)) {
            add_warning(c, "%s:%d: %s is a cuzk setting that czk does not use; ignored", lx->name, lx->line, lx->key);
            return CZK_OK;
        }
    czk_toml_error(lx, "unknown key");
    return CZK_ERR_INVALID_ARGUMENT;
}

czk_err czk_daemon_config_parse(czk_daemon_config *c, const char *text, size_t len, const char *name, char *msg,
                                size_t msglen) {
    czk_toml_lexer lx = {
        .p = text, .end = text + len, .line = 1, .name = name ? name : "config", .msg = msg, .msglen = msglen};
    char table[128] = "";
    keyset seen = {0}, tables = {0};
    czk_err e = CZK_OK;
    if (memchr(text, 0, len)) {
        lx.line = 1;
        for (const char *q = text; q < text + len && *q; q++) lx.line += *q == '\n';
        e = czk_toml_error(&lx, "NUL byte in the file");
        goto out;
    }
    for (;;) {
        czk_toml_skip_ws_nl(&lx);
        if (czk_toml_at_end(&lx)) break;
        lx.key[0] = 0;
        if (*lx.p == '[') {
            lx.p++;
            if (czk_toml_peek(&lx) == '[') {
                e = czk_toml_error(&lx, "arrays of tables ([[...]]) are not supported");
                goto out;
            }
            char t[128];
            if ((e = czk_toml_lex_key(&lx, t, sizeof t)) != CZK_OK) goto out;
            czk_toml_skip_ws(&lx);
            if (czk_toml_peek(&lx) != ']') {
                e = czk_toml_error(&lx, "expected ']' after the table name");
                goto out;
            }
            lx.p++;
            if (!keyset_add(&tables, t)) {
                e = czk_toml_error(&lx, "table [%s] appears twice", t);
                goto out;
            }
            snprintf(table, sizeof table, "%s", t);
            if ((e = czk_toml_end_of_line(&lx)) != CZK_OK) goto out;
            continue;
        }
        char k[128];
        if ((e = czk_toml_lex_key(&lx, k, sizeof k)) != CZK_OK) goto out;
        if (table[0]) snprintf(lx.key, sizeof lx.key, "%s.%s", table, k);
        else snprintf(lx.key, sizeof lx.key, "%s", k);
        czk_toml_skip_ws(&lx);
        if (czk_toml_peek(&lx) != '=') {
            e = czk_toml_error(&lx, "expected '=' after the key");
            goto out;
        }
        lx.p++;
        czk_toml_skip_ws(&lx);
        int line = lx.line;
        czk_toml_value v;
        memset(&v, 0, sizeof v);
        if ((e = czk_toml_lex_value(&lx, &v)) != CZK_OK) {
            czk_toml_value_free(&v);
            goto out;
        }
        int end_line = lx.line;
        lx.line = line; /* messages about the key name the line where it starts */
        if (!keyset_add(&seen, lx.key)) {
            czk_toml_value_free(&v);
            e = czk_toml_error(&lx, "set twice");
            goto out;
        }
        e = apply_key(c, &lx, &v);
        czk_toml_value_free(&v);
        if (e != CZK_OK) goto out;
        lx.line = end_line;
        if ((e = czk_toml_end_of_line(&lx)) != CZK_OK) goto out;
        lx.key[0] = 0;
    }
out:
    keyset_free(&seen);
    keyset_free(&tables);
    return e;
}

czk_err czk_daemon_config_load(czk_daemon_config *c, const char *path, char *msg, size_t msglen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_msg(msg, msglen, "config %s: %s", path, strerror(errno));
        return CZK_ERR_IO;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 8192;
            if (cap > ((size_t)16 << 20)) {
                free(buf);
                fclose(f);
                set_msg(msg, msglen, "config %s: larger than 16 MiB", path);
                return CZK_ERR_FORMAT;
            }
            char *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                return CZK_ERR_NO_MEMORY;
            }
            buf = p;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0) break;
    }
    bool err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        set_msg(msg, msglen, "config %s: read error", path);
        return CZK_ERR_IO;
    }
    czk_err e = czk_daemon_config_parse(c, buf ? buf : "", len, path, msg, msglen);
    free(buf);
    if (e == CZK_OK) snprintf(c->config_path, sizeof c->config_path, "%s", path);
    return e;
}

/* ---- flags -------------------------------------------------------------------------------- */

const char *czk_daemon_usage(void) {
    return "usage: czkd [--config FILE] [--listen ADDR] [--status-listen ADDR] [--state-dir DIR]\n"
           "            [--param-cache DIR] [--backend cpu|cuda|auto] [--budget SIZE|auto]\n"
           "            [--log-level trace|debug|info|warn|error] [--token-file FILE]\n"
           "            [--tls-cert FILE --tls-key FILE [--tls-client-ca FILE]] [--insecure-listen]\n"
           "            [--grpc-token=yes|no] [--socket-mode MODE] [--socket-group GROUP]\n"
           "            [--generate-dev-params true|false]\n"
           "  --config FILE         a cuzk-style TOML file (flags override it)\n"
           "  --listen ADDR         gRPC address, host:port or unix:///path (default 127.0.0.1:9820)\n"
           "  --status-listen ADDR  HTTP status page, host:port; \"\" turns it off (default 127.0.0.1:9821)\n"
           "  --state-dir DIR       journal and spool (default $XDG_STATE_HOME/czk or ~/.local/state/czk)\n"
           "  --param-cache DIR     parameter files (default $CZK_PARAM_CACHE, else $FIL_PROOFS_PARAMETER_CACHE,\n"
           "                        else /var/tmp/filecoin-proof-parameters)\n"
           "  --backend KIND        prover backend: cpu, cuda or auto (default auto)\n"
           "  --budget SIZE         memory budget, e.g. 64GiB, or auto (default auto)\n"
           "  --log-level LEVEL     log level (default info)\n"
           "  --token-file FILE     a file holding the token HTTP requests and gRPC calls must carry\n"
           "                        (Authorization: Bearer)\n"
           "  --tls-cert FILE, --tls-key FILE  gRPC over TLS with this PEM certificate (chain) and key\n"
           "  --tls-client-ca FILE  mutual TLS: every client needs a certificate signed by this PEM CA\n"
           "  --insecure-listen     allow plaintext gRPC on an address that is not loopback\n"
           "  --grpc-token=no       the token of --token-file is for HTTP only (default yes: gRPC too)\n"
           "  --socket-mode MODE    a unix socket's mode in octal (default 0660)\n"
           "  --socket-group GROUP  a unix socket's group (default the process's)\n"
           "  --generate-dev-params true|false\n"
           "                        make development parameters (NOT a trusted setup) for a built-in circuit\n"
           "                        whose parameter file is missing (default false)\n";
}

static const char *const FLAGS[] = {"config",   "listen",  "status-listen", "state-dir", "param-cache",
                                    "backend",  "budget",  "log-level",     "token-file",
                                    /* gRPC security: 9 … 15 */
                                    "tls-cert", "tls-key", "tls-client-ca", "insecure-listen", "grpc-token",
                                    "socket-mode", "socket-group",
                                    /* parameters: 16 */
                                    "generate-dev-params", NULL};
/* flags that take no value unless given as --flag=value (yes, no, true, false) */
#define FLAG_IS_BOOL(k) ((k) == 12 || (k) == 13)

static czk_err flag_bool(bool *dst, const char *flag, const char *v, char *msg, size_t msglen) {
    if (!strcmp(v, "yes") || !strcmp(v, "true")) *dst = true;
    else if (!strcmp(v, "no") || !strcmp(v, "false")) *dst = false;
    else {
        set_msg(msg, msglen, "--%s takes yes or no (--%s=no), not '%s'", flag, flag, v);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    return CZK_OK;
}

/* argv[i] as --name[=value]: the flag's index in FLAGS and its value
 * (consuming the next argument when not given with '='). */
static czk_err next_flag(int argc, char **argv, int *i, int *flag, const char **value, char *msg, size_t msglen) {
    const char *a = argv[*i];
    if (strncmp(a, "--", 2) != 0) {
        set_msg(msg, msglen, "unexpected argument '%s'", a);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t nl = eq ? (size_t)(eq - name) : strlen(name);
    for (int k = 0; FLAGS[k]; k++) {
        if (strlen(FLAGS[k]) != nl || strncmp(FLAGS[k], name, nl)) continue;
        *flag = k;
        if (eq) *value = eq + 1;
        else if (FLAG_IS_BOOL(k)) *value = "yes";
        else if (*i + 1 < argc) *value = argv[++*i];
        else {
            set_msg(msg, msglen, "--%s needs a value", FLAGS[k]);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        return CZK_OK;
    }
    set_msg(msg, msglen, "unknown option '%s'", a);
    return CZK_ERR_INVALID_ARGUMENT;
}

static czk_err flag_path(char *dst, size_t cap, const char *flag, const char *v, bool allow_empty, char *msg,
                         size_t msglen) {
    if ((!allow_empty && !*v) || strlen(v) >= cap) {
        set_msg(msg, msglen, "--%s: %s", flag, *v ? "too long" : "must not be empty");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    snprintf(dst, cap, "%s", v);
    return CZK_OK;
}

czk_err czk_daemon_config_from_args(czk_daemon_config *c, int argc, char **argv, bool *help, char *msg,
                                    size_t msglen) {
    *help = false;
    const char *config = NULL;
    czk_err e = CZK_OK;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            *help = true;
            return CZK_OK;
        }
        int f;
        const char *v;
        if ((e = next_flag(argc, argv, &i, &f, &v, msg, msglen)) != CZK_OK) return e;
        if (f == 0) config = v;
    }
    if (config && (e = czk_daemon_config_load(c, config, msg, msglen)) != CZK_OK) return e;
    for (int i = 1; i < argc; i++) {
        int f;
        const char *v;
        char why[256];
        next_flag(argc, argv, &i, &f, &v, msg, msglen);
        switch (f) {
        case 0: break;
        case 1: e = flag_path(c->listen, sizeof c->listen, "listen", v, false, msg, msglen); break;
        case 2: e = flag_path(c->status_listen, sizeof c->status_listen, "status-listen", v, true, msg, msglen); break;
        case 3: e = flag_path(c->state_dir, sizeof c->state_dir, "state-dir", v, false, msg, msglen); break;
        case 4: e = flag_path(c->param_cache, sizeof c->param_cache, "param-cache", v, false, msg, msglen); break;
        case 5:
            if (!strcmp(v, "cpu")) c->backend = CZK_BACKEND_KIND_CPU;
            else if (!strcmp(v, "cuda")) c->backend = CZK_BACKEND_KIND_CUDA;
            else if (!strcmp(v, "auto")) c->backend = CZK_BACKEND_KIND_AUTO;
            else {
                set_msg(msg, msglen, "--backend must be cpu, cuda or auto, not '%s'", v);
                e = CZK_ERR_INVALID_ARGUMENT;
            }
            break;
        case 6:
            if (!strcasecmp(v, "auto")) c->total_budget = 0;
            else if (czk_parse_size(v, &c->total_budget, why, sizeof why) != CZK_OK) {
                set_msg(msg, msglen, "--budget: %s", why);
                e = CZK_ERR_INVALID_ARGUMENT;
            }
            break;
        case 7:
            if (czk_log_level_parse(&c->log_level, v, why, sizeof why) != CZK_OK) {
                set_msg(msg, msglen, "--log-level: %s", why);
                e = CZK_ERR_INVALID_ARGUMENT;
            }
            break;
        case 8: e = flag_path(c->token_file, sizeof c->token_file, "token-file", v, true, msg, msglen); break;
        case 9: e = flag_path(c->tls_cert, sizeof c->tls_cert, "tls-cert", v, true, msg, msglen); break;
        case 10: e = flag_path(c->tls_key, sizeof c->tls_key, "tls-key", v, true, msg, msglen); break;
        case 11: e = flag_path(c->tls_client_ca, sizeof c->tls_client_ca, "tls-client-ca", v, true, msg, msglen); break;
        case 12: e = flag_bool(&c->insecure_listen, "insecure-listen", v, msg, msglen); break;
        case 13: e = flag_bool(&c->grpc_token, "grpc-token", v, msg, msglen); break;
        case 14:
            if (!parse_mode(v, &c->socket_mode)) {
                set_msg(msg, msglen, "--socket-mode: '%s' is not a mode in octal, 0 to 0777 (e.g. 0660)", v);
                e = CZK_ERR_INVALID_ARGUMENT;
            }
            break;
        case 15: e = flag_path(c->socket_group, sizeof c->socket_group, "socket-group", v, true, msg, msglen); break;
        case 16:
            if (!strcmp(v, "true")) c->generate_dev_params = true;
            else if (!strcmp(v, "false")) c->generate_dev_params = false;
            else {
                set_msg(msg, msglen, "--generate-dev-params must be true or false, not '%s'", v);
                e = CZK_ERR_INVALID_ARGUMENT;
            }
            break;
        default: break;
        }
        if (e != CZK_OK) return e;
    }
    return CZK_OK;
}
