/* czk — the daemon's HTTP status server (libmicrohttpd):
 *   GET /         a self-contained page (inline CSS and JS, no external
 *                 resources) that shows jobs, partitions by stage, GPU
 *                 workers and memory, refreshed from /status every second
 *   GET /status   czk_service_status_json
 *   GET /metrics  czk_service_metrics_text (Prometheus text format 0.0.4)
 * Anything else: 404; a method other than GET or HEAD: 405. */
#ifndef CZK_HTTP_H
#define CZK_HTTP_H

#include <stddef.h>
#include "czk/err.h"
#include "czk/service.h"

typedef struct czk_http czk_http;

/* Serves svc (borrowed: it must outlive the server) on listen, "host:port"
 * ("127.0.0.1:9821", "0.0.0.0:9821", "[::1]:9821"; port 0: any free port,
 * see czk_http_port). CZK_ERR_INVALID_ARGUMENT for a malformed address,
 * CZK_ERR_IO when it cannot be bound. */
czk_err czk_http_start(czk_http **out, czk_service *svc, const char *listen, char *msg, size_t msglen);
/* The bound port. */
int czk_http_port(const czk_http *h);
/* Stops serving and frees everything (NULL is ignored). */
void czk_http_stop(czk_http *h);

/* Splits "host:port" / "[v6]:port" into host (without brackets) and port.
 * CZK_ERR_INVALID_ARGUMENT with a message for anything else. */
czk_err czk_http_split_addr(const char *addr, char *host, size_t hostlen, int *port, char *msg, size_t msglen);

#endif
