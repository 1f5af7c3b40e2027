/* czk — the daemon's HTTP status server (libmicrohttpd):
 *   GET /         a self-contained page (inline CSS and JS, no external
 *                 resources) that shows jobs, partitions by stage, GPU
 *                 workers and memory, refreshed from /status every second
 *   GET /status   czk_service_status_json
 *   GET /metrics  czk_service_metrics_text (Prometheus text format 0.0.4)
 * Anything else: 404; a method other than GET or HEAD: 405.
 *
 * Hostile clients (docs/daemon.md, "Limits, faults and security"):
 *   - a connection must deliver each request and take its answer within
 *     request_timeout_ms of being opened (or of its previous answer), however
 *     slowly it trickles bytes; then it is closed without an answer. Idle
 *     connections are closed after idle_timeout_s.
 *   - at most per_ip_limit connections from one address, connection_limit
 *     in all: a connection over either is closed at once, unanswered.
 *   - the Host header must name this server (DNS rebinding): localhost, an
 *     IP literal, the listen host or an allowed_hosts entry, with the bound
 *     port when a port is given; else 403. A request without Host (HTTP/1.0)
 *     is taken.
 *   - with a token: every request needs "Authorization: Bearer TOKEN" or the
 *     cookie czk_token=TOKEN, else 401 (WWW-Authenticate: Bearer). GET
 *     /?token=TOKEN sets that cookie (HttpOnly, SameSite=Strict) and
 *     redirects to /, so that a browser's page and its fetches of /status
 *     work. */
#ifndef CZK_HTTP_H
#define CZK_HTTP_H

#include <stddef.h>
#include "czk/err.h"
#include "czk/service.h"

typedef struct czk_http czk_http;

typedef struct {
    unsigned connection_limit;   /* default 64 */
    unsigned per_ip_limit;       /* default 8 */
    unsigned idle_timeout_s;     /* default 10 */
    long request_timeout_ms;     /* default 10000 */
    const char *allowed_hosts;   /* extra Host names, comma-separated: "name" (the bound port or none),
                                  * "name:port" (that port), "*" (any Host); NULL or "" = none */
    const char *token;           /* NULL or "" = no token */
} czk_http_options;

void czk_http_options_default(czk_http_options *o);

/* Serves svc (borrowed: it must outlive the server) on listen, "host:port"
 * ("127.0.0.1:9821", "0.0.0.0:9821", "[::1]:9821"; port 0: any free port,
 * see czk_http_port). CZK_ERR_INVALID_ARGUMENT for a malformed address,
 * CZK_ERR_IO when it cannot be bound. */
czk_err czk_http_start(czk_http **out, czk_service *svc, const char *listen, char *msg, size_t msglen);
/* The same with options (NULL: the defaults); the strings are copied.
 * CZK_ERR_INVALID_ARGUMENT for a zero limit or timeout, or a token that is
 * not 1 to 256 printable ASCII characters without spaces, ';' or ','. */
czk_err czk_http_start_opts(czk_http **out, czk_service *svc, const char *listen, const czk_http_options *o,
                            char *msg, size_t msglen);
/* The bound port. */
int czk_http_port(const czk_http *h);
/* Stops serving and frees everything (NULL is ignored). */
void czk_http_stop(czk_http *h);

/* Splits "host:port" / "[v6]:port" into host (without brackets) and port.
 * CZK_ERR_INVALID_ARGUMENT with a message for anything else. */
czk_err czk_http_split_addr(const char *addr, char *host, size_t hostlen, int *port, char *msg, size_t msglen);

/* Reads a token file: its content without trailing whitespace (newlines),
 * checked as czk_http_start_opts does. CZK_ERR_IO when it cannot be read,
 * CZK_ERR_INVALID_ARGUMENT for a bad token (the message names the file,
 * never the token). */
czk_err czk_http_token_load(const char *path, char *token, size_t cap, char *msg, size_t msglen);

#endif
