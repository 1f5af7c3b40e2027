/* czk — helpers shared by the client commands: connecting, errors,
 * verification of returned proofs, output files, the progress bar. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "client.h"
#include "czk/daemon_config.h"
#include "czk/fr.h"
#include "czk/groth16_io.h"
#include "czk/grpc_server.h"
#include "czk/http.h"

bool cli_has_addr(int argc, char **argv) {
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--addr")) return true;
    return false;
}

const char *client_addr(const char *cmd, cli_args *a) {
    const char *addr = cli_get(a, "addr");
    if (!addr) addr = getenv("CZK_ADDR");
    if (!addr) addr = "127.0.0.1:9820"; /* czkd's default */
    if (!*addr) {
        fprintf(stderr, "czk %s: --addr is empty (host:port or unix:///path)\n", cmd);
        return NULL;
    }
    return addr;
}

/* --NAME, else the variable ENV; NULL when neither is set or the one used is "". */
static const char *opt_or_env(cli_args *a, const char *name, const char *env) {
    const char *v = cli_get(a, name);
    if (!v) v = getenv(env);
    return v && *v ? v : NULL;
}

int client_open(const char *cmd, cli_args *a, bool wait_for_ready, czk_grpc_client **out) {
    const char *addr = client_addr(cmd, a);
    if (!addr) return CLI_USAGE;
    char msg[CLIENT_MSG] = "";
    czk_grpc_client_options o;
    memset(&o, 0, sizeof o);
    o.wait_for_ready = wait_for_ready;
    o.tls_ca_file = opt_or_env(a, "tls-ca", "CZK_TLS_CA");
    o.tls_cert_file = opt_or_env(a, "tls-cert", "CZK_TLS_CERT");
    o.tls_key_file = opt_or_env(a, "tls-key", "CZK_TLS_KEY");
    o.tls_server_name = opt_or_env(a, "tls-server-name", "CZK_TLS_SERVER_NAME");
    const char *token_file = opt_or_env(a, "token-file", "CZK_TOKEN_FILE");
    char token[300] = "";
    if (token_file) {
        if (czk_http_token_load(token_file, token, sizeof token, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "czk %s: %s\n", cmd, msg);
            return CLI_USAGE;
        }
        o.token = token;
        if (!o.tls_ca_file && !czk_grpc_addr_is_local(addr))
            fprintf(stderr, "czk %s: warning: the token goes to %s without TLS: whoever sees the traffic sees it\n",
                    cmd, addr);
    }
    czk_err e = czk_grpc_client_open_opts(out, addr, &o, msg, sizeof msg);
    memset(token, 0, sizeof token);
    if (e != CZK_OK) {
        fprintf(stderr, "czk %s: %s\n", cmd, msg);
        return CLI_USAGE;
    }
    return CLI_OK;
}

int client_rpc_fail(const char *cmd, int code, const char *details) {
    fprintf(stderr, "czk %s: %s%s%s\n", cmd, czk_grpc_code_name(code), details && *details ? ": " : "",
            details ? details : "");
    /* INVALID_ARGUMENT is the command line's fault */
    return code == 3 ? CLI_USAGE : CLI_FAIL;
}

bool client_parse_priority(const char *s, Cuzk__V1__Priority *out) {
    static const char *const names[] = {"unspecified", "low", "normal", "high", "critical"};
    for (int i = 1; i <= 4; i++)
        if (!strcasecmp(s, names[i]) || (s[0] == '0' + i && !s[1])) {
            *out = (Cuzk__V1__Priority)i;
            return true;
        }
    return false;
}

const char *client_await_status_name(int s) {
    static const char *const names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    return s >= 0 && s <= 4 ? names[s] : "UNKNOWN";
}

const char *client_param_cache(cli_args *a) {
    static char buf[4096];
    const char *p = cli_get(a, "param-cache");
    if (p && *p) return p;
    czk_daemon_param_cache_default(buf, sizeof buf); /* czkd's default */
    return buf;
}

/* ---- verifying keys ------------------------------------------------------------ */

static czk_err read_prefix(const char *path, uint8_t **out, size_t *len, char *msg, size_t msglen) {
    /* a .params file begins with the vk (bellperson's layout): 864 bytes of
     * points, a u32 big-endian count, then 96 bytes per IC point */
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "cannot open %s: %s", path, strerror(errno));
        return CZK_ERR_IO;
    }
    uint8_t head[868];
    if (fread(head, 1, sizeof head, f) != sizeof head) {
        fclose(f);
        snprintf(msg, msglen, "%s is too short to hold a verifying key", path);
        return CZK_ERR_FORMAT;
    }
    uint32_t n_ic = (uint32_t)head[864] << 24 | (uint32_t)head[865] << 16 | (uint32_t)head[866] << 8 | head[867];
    if (n_ic == 0 || n_ic > (1u << 24)) {
        fclose(f);
        snprintf(msg, msglen, "%s: implausible IC count %u", path, n_ic);
        return CZK_ERR_FORMAT;
    }
    size_t n = czk_vk_encoded_size(n_ic);
    uint8_t *buf = malloc(n);
    if (!buf) {
        fclose(f);
        snprintf(msg, msglen, "out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    memcpy(buf, head, sizeof head);
    if (fread(buf + sizeof head, 1, n - sizeof head, f) != n - sizeof head) {
        fclose(f);
        free(buf);
        snprintf(msg, msglen, "%s is truncated inside its verifying key", path);
        return CZK_ERR_FORMAT;
    }
    fclose(f);
    *out = buf;
    *len = n;
    return CZK_OK;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

czk_err client_vk_load(client_vk *v, const char *vk_path, const char *cache, const char *circuit, char *msg,
                       size_t msglen) {
    memset(v, 0, sizeof *v);
    char path[4096];
    if (!vk_path) {
        if (!cache || !circuit) {
            snprintf(msg, msglen, "no verifying key: give --vk FILE or --param-cache DIR");
            return CZK_ERR_INVALID_ARGUMENT;
        }
        snprintf(path, sizeof path, "%s/%s.vk", cache, circuit);
        if (access(path, R_OK) != 0) snprintf(path, sizeof path, "%s/%s.params", cache, circuit);
        vk_path = path;
    }
    czk_vk vk;
    czk_err e;
    if (ends_with(vk_path, ".params")) {
        uint8_t *buf = NULL;
        size_t len = 0;
        e = read_prefix(vk_path, &buf, &len, msg, msglen);
        if (e != CZK_OK) return e;
        char inner[512] = "";
        e = czk_vk_decode(&vk, buf, len, inner, sizeof inner);
        free(buf);
        if (e != CZK_OK) {
            snprintf(msg, msglen, "%s: %s", vk_path, inner);
            return e;
        }
    } else if ((e = czk_vk_read(&vk, vk_path, msg, msglen)) != CZK_OK) {
        return e;
    }
    v->n_ic = vk.n_ic;
    e = czk_vk_prepare(&v->pvk, &vk);
    czk_vk_free(&vk);
    if (e != CZK_OK) {
        snprintf(msg, msglen, "%s: %s", vk_path, czk_err_str(e));
        return e;
    }
    v->loaded = true;
    return CZK_OK;
}

void client_vk_free(client_vk *v) {
    if (v->loaded) czk_prepared_vk_free(&v->pvk);
    memset(v, 0, sizeof *v);
}

static czk_err inputs_of(const Cuzk__V1__AwaitProofResponse *r, czk_fr **out, char *msg, size_t msglen) {
    *out = calloc(r->n_public_inputs ? r->n_public_inputs : 1, sizeof **out);
    if (!*out) {
        snprintf(msg, msglen, "out of memory");
        return CZK_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < r->n_public_inputs; i++) {
        if (r->public_inputs[i].len != CZK_FR_BYTES) {
            snprintf(msg, msglen, "public input %zu has %zu bytes, not %d", i, r->public_inputs[i].len, CZK_FR_BYTES);
            free(*out);
            *out = NULL;
            return CZK_ERR_BAD_LENGTH;
        }
        if (!czk_fr_from_bytes_le(&(*out)[i], r->public_inputs[i].data)) {
            snprintf(msg, msglen, "public input %zu is not a canonical field element", i);
            free(*out);
            *out = NULL;
            return CZK_ERR_NOT_CANONICAL;
        }
    }
    return CZK_OK;
}

czk_err client_verify(const client_vk *v, const Cuzk__V1__AwaitProofResponse *r, char *msg, size_t msglen) {
    if (r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
        snprintf(msg, msglen, "job %s is %s, not COMPLETED", r->job_id, client_await_status_name(r->status));
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (r->proof.len == 0 || r->proof.len % CZK_PROOF_BYTES) {
        snprintf(msg, msglen, "job %s: the proof has %zu bytes, not a positive multiple of %d", r->job_id,
                 r->proof.len, CZK_PROOF_BYTES);
        return CZK_ERR_BAD_LENGTH;
    }
    size_t np = r->proof.len / CZK_PROOF_BYTES, k = v->n_ic - 1;
    if (r->n_public_inputs != np * k) {
        snprintf(msg, msglen, "job %s: %zu public inputs for %zu partition proofs; the vk takes %zu each", r->job_id,
                 r->n_public_inputs, np, k);
        return CZK_ERR_MISMATCH;
    }
    czk_fr *in = NULL;
    czk_err e = inputs_of(r, &in, msg, msglen);
    if (e != CZK_OK) return e;
    czk_proof *proofs = NULL;
    size_t n = 0;
    char inner[512] = "";
    e = czk_proofs_decode(&proofs, &n, r->proof.data, r->proof.len, inner, sizeof inner);
    if (e != CZK_OK) {
        snprintf(msg, msglen, "job %s: malformed proof: %s", r->job_id, inner);
        free(in);
        return e;
    }
    for (size_t i = 0; i < n && e == CZK_OK; i++) {
        e = czk_verify(&v->pvk, &proofs[i], in + i * k, k);
        if (e != CZK_OK)
            snprintf(msg, msglen, "job %s: partition %zu: %s", r->job_id, i,
                     e == CZK_ERR_PROOF_INVALID ? "the proof does not verify" : czk_err_str(e));
    }
    free(proofs);
    free(in);
    return e;
}

czk_err client_write_result(const Cuzk__V1__AwaitProofResponse *r, const char *proof_path, const char *public_path,
                            char *msg, size_t msglen) {
    if (proof_path) {
        FILE *f = fopen(proof_path, "wb");
        if (!f || fwrite(r->proof.data, 1, r->proof.len, f) != r->proof.len || fclose(f) != 0) {
            snprintf(msg, msglen, "cannot write %s: %s", proof_path, strerror(errno));
            return CZK_ERR_IO;
        }
    }
    if (public_path) {
        czk_fr *in = NULL;
        czk_err e = inputs_of(r, &in, msg, msglen);
        if (e != CZK_OK) return e;
        e = czk_snarkjs_write_public(in, r->n_public_inputs, public_path, msg, msglen);
        free(in);
        if (e != CZK_OK) return e;
    }
    return CZK_OK;
}

void client_print_result(FILE *f, const Cuzk__V1__AwaitProofResponse *r) {
    fprintf(f, "job %s %s", r->job_id, client_await_status_name(r->status));
    if (r->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
        fprintf(f, ": %zu partition proof%s, %zu public inputs; queue %llu ms, srs %llu ms, synthesis %llu ms, gpu "
                   "%llu ms, total %llu ms",
                r->proof.len / CZK_PROOF_BYTES, r->proof.len / CZK_PROOF_BYTES == 1 ? "" : "s", r->n_public_inputs,
                (unsigned long long)r->queue_wait_ms, (unsigned long long)r->srs_load_ms,
                (unsigned long long)r->synthesis_ms, (unsigned long long)r->gpu_compute_ms,
                (unsigned long long)r->total_ms);
    else if (r->error_message && *r->error_message)
        fprintf(f, ": %s", r->error_message);
    fprintf(f, "\n");
}

char *client_status_json(czk_grpc_client *c, char *msg, size_t msglen) {
    Cuzk__V1__GetStatusRequest rq = CUZK__V1__GET_STATUS_REQUEST__INIT;
    ProtobufCMessage *resp = NULL;
    int st = czk_grpc_client_unary(c, "GetStatus", &rq.base, &cuzk__v1__get_status_response__descriptor, 10000, &resp,
                                   msg, msglen);
    if (st != CZK_GRPC_OK) return NULL;
    const Cuzk__V1__GetStatusResponse *r = (const Cuzk__V1__GetStatusResponse *)resp;
    char *json = r->status_json && *r->status_json ? strdup(r->status_json) : NULL;
    protobuf_c_message_free_unpacked(resp, NULL);
    return json;
}

/* ---- progress ------------------------------------------------------------------- */

void client_progress_init(client_progress *p) {
    p->tty = isatty(STDERR_FILENO) && !getenv("CZK_NO_PROGRESS");
    p->t0 = cli_now();
    p->last = 0;
    p->width = 30;
}

void client_progress_show(client_progress *p, double done, double total, const char *extra) {
    if (!p->tty) return;
    double now = cli_now();
    if (now - p->last < 0.1 && done < total) return;
    p->last = now;
    char bar[64];
    int filled = total > 0 ? (int)(p->width * (done / total > 1 ? 1 : done / total)) : 0;
    for (int i = 0; i < p->width; i++) bar[i] = i < filled ? '#' : '.';
    bar[p->width] = 0;
    if (total > 0)
        fprintf(stderr, "\r[%s] %5.1f%% %6.1f s  %s\033[K", bar, 100.0 * done / total, now - p->t0,
                extra ? extra : "");
    else
        fprintf(stderr, "\r%.0f %6.1f s  %s\033[K", done, now - p->t0, extra ? extra : "");
    fflush(stderr);
}

void client_progress_end(client_progress *p) {
    if (!p->tty) return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

char **client_argv_dash_j(int argc, char **argv) {
    char **v = calloc((size_t)argc + 1, sizeof *v);
    if (!v) return NULL;
    for (int i = 0; i < argc; i++) v[i] = !strcmp(argv[i], "-j") ? (char *)"--jobs" : argv[i];
    return v;
}
