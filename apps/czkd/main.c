/* czkd — the czk proving daemon: the cuzk.v1 gRPC protocol (what Curio
 * speaks), an HTTP status page and metrics, a durable job journal, one
 * memory budget.
 *
 * Exit status: 0 after SIGTERM or SIGINT (new work refused, running work
 * abandoned and left in the journal, to be re-queued by the next start);
 * 1 when the service cannot start, or when a second signal cut the
 * shutdown short; 2 for a bad command line or config. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czk/daemon_config.h"
#include "czk/engine.h"
#include "czk/grpc_server.h"
#include "czk/http.h"
#include "czk/log.h"
#include "czk/service.h"
#include "czkd.h"

#define MSG 1024

static sigset_t stop_signals;

/* After the first signal: a second one ends the process at once (what was
 * accepted is in the journal either way). */
static void *second_signal(void *arg) {
    (void)arg;
    int sig = 0;
    sigwait(&stop_signals, &sig);
    czk_log_warn("second signal: exiting without waiting for running work");
    _exit(1);
    return NULL;
}

static void log_warnings(const char *w) {
    while (*w) {
        const char *nl = strchr(w, '\n');
        size_t n = nl ? (size_t)(nl - w) : strlen(w);
        if (n) czk_log_warn("%.*s", (int)n, w);
        w += n + (nl != NULL);
    }
}

int main(int argc, char **argv) {
    /* Signals are taken synchronously by the main thread (sigwait); every
     * thread started from here on inherits the mask. */
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    char msg[MSG] = "";
    czk_daemon_config dc;
    czk_daemon_config_default(&dc);
    bool help = false;
    if (czk_daemon_config_from_args(&dc, argc, argv, &help, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czkd: %s\n(czkd --help lists the options)\n", msg);
        return 2;
    }
    if (help) {
        fputs(czk_daemon_usage(), stdout);
        return 0;
    }
    /* addresses are checked before anything is opened: a typo is a bad command line */
    if (czk_grpc_listen_check(dc.listen, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czkd: %s\n", msg);
        return 2;
    }
    if (dc.status_listen[0]) {
        char host[256];
        int port = 0;
        if (czk_http_split_addr(dc.status_listen, host, sizeof host, &port, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "czkd: status address: %s\n", msg);
            return 2;
        }
    }
    /* the status page's token: read before anything is opened (a bad file is a bad config) */
    static char token[300];
    if (dc.token_file[0] && czk_http_token_load(dc.token_file, token, sizeof token, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czkd: %s\n", msg);
        return 2;
    }
    czk_http_options ho;
    czk_http_options_default(&ho);
    ho.per_ip_limit = dc.status_per_ip_limit;
    ho.connection_limit = dc.status_connection_limit;
    ho.request_timeout_ms = dc.status_request_timeout_ms;
    ho.allowed_hosts = dc.status_allowed_hosts;
    ho.token = token;
    /* gRPC: the same token (unless daemon.grpc_token = false), TLS, the socket */
    czk_grpc_server_options go;
    memset(&go, 0, sizeof go);
    go.max_msg_bytes = dc.max_message_bytes;
    go.tls_cert_file = dc.tls_cert;
    go.tls_key_file = dc.tls_key;
    go.tls_client_ca_file = dc.tls_client_ca;
    go.token = dc.grpc_token ? token : NULL;
    go.insecure_listen = dc.insecure_listen;
    go.socket_mode = dc.socket_mode;
    go.socket_group = dc.socket_group;
    go.receive_timeout_ms = dc.receive_timeout_ms;
    go.receive_buffer_bytes = czk_daemon_receive_buffer(&dc); /* reserved in the budget below */
    if (go.receive_buffer_bytes <= dc.max_message_bytes) {
        fprintf(stderr,
                "czkd: daemon.receive_buffer (%zu bytes) must be larger than daemon.max_message_size (%zu bytes): a "
                "request of the largest size could never arrive\n",
                go.receive_buffer_bytes, dc.max_message_bytes);
        return 2;
    }
    czk_log_set_level(dc.log_level);
    if (czk_grpc_security_check(dc.listen, &go, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czkd: %s\n", msg);
        return 2;
    }
    if (dc.config_path[0]) czk_log_info("config %s", dc.config_path);
    log_warnings(dc.warnings);

    czk_backend *be = NULL;
    char be_name[32] = "cpu";
    if (czkd_backend_open(dc.backend, dc.devices, dc.n_devices, &be, be_name, sizeof be_name, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czkd: %s\n", msg);
        return 2;
    }
    int devices = 1; /* one backend: the CPU, or one CUDA device */

    czk_service_config sc;
    czk_service_config_default(&sc);
    sc.state_dir = dc.state_dir;
    sc.param_cache = dc.param_cache;
    sc.generate_dev_params = dc.generate_dev_params;
    sc.queue_limit = dc.queue_limit;
    sc.result_keep_ms = dc.result_keep_ms;
    sc.max_input_bytes = dc.max_message_bytes;
    sc.journal_max_disk_share = dc.journal_max_disk_share;
    sc.journal_max_disk_bytes = dc.journal_max_disk_bytes;
    sc.engine.budget_bytes = dc.total_budget;
    sc.engine.budget_margin_bytes = dc.safety_margin;
    sc.engine.outside_fixed_bytes = go.receive_buffer_bytes;
    sc.engine.partition_workers = dc.partition_workers;
    sc.engine.critical_workers = dc.critical_workers;
    sc.engine.gpu_workers = dc.gpu_workers_per_device * devices;
    sc.engine.threads = dc.synthesis_threads;
    sc.engine.pack_abc = dc.pack_abc;
    sc.engine.backend = be;

    czk_service *svc = NULL;
    czk_http *http = NULL;
    czk_grpc_server *grpc = NULL;
    int rc = 1;
    if (czk_service_open(&svc, &sc, msg, sizeof msg) != CZK_OK) {
        czk_log_error("cannot open the service: %s", msg);
        goto out;
    }
    if (dc.status_listen[0] && czk_http_start_opts(&http, svc, dc.status_listen, &ho, msg, sizeof msg) != CZK_OK) {
        czk_log_error("status page: %s", msg);
        goto out;
    }
    if (czk_grpc_server_start(&grpc, svc, dc.listen, &go, msg, sizeof msg) != CZK_OK) {
        czk_log_error("gRPC: %s", msg);
        goto out;
    }
    {
        czk_engine_stats st;
        czk_service_status ss;
        if (czk_service_status_get(svc, &ss) == CZK_OK) {
            st = ss.engine;
            char http_port[32] = "";
            if (http) snprintf(http_port, sizeof http_port, " (port %d)", czk_http_port(http));
            czk_log_info("czkd ready: gRPC on %s (port %d), status page %s%s, backend %s, budget %.1f GiB (%.0f MiB "
                         "of it gRPC's receive buffers), pw %d, gw %d%s",
                         dc.listen, czk_grpc_server_port(grpc), http ? dc.status_listen : "off", http_port, be_name,
                         (double)st.budget_total / 1073741824.0, (double)go.receive_buffer_bytes / 1048576.0,
                         st.partition_workers, st.gpu_workers,
                         dc.pack_abc ? ", a, b, c kept packed" : "");
            czk_service_status_free(&ss);
        }
    }
    int sig = 0;
    sigwait(&stop_signals, &sig);
    czk_log_info("%s: shutting down (unfinished jobs stay in the journal; a second signal exits at once)",
                 sig == SIGINT ? "SIGINT" : "SIGTERM");
    pthread_t t2;
    if (pthread_create(&t2, NULL, second_signal, NULL) == 0) pthread_detach(t2);
    rc = 0;
out:
    if (svc) czk_service_stop_accepting(svc);
    czk_grpc_server_stop(grpc);
    czk_http_stop(http);
    czk_service_close(svc);
    czk_backend_close(be);
    memset(token, 0, sizeof token);
    if (rc == 0) czk_log_info("czkd stopped");
    return rc;
}
