/* czk — the client commands' shared helpers (apps/czk/client_*.c; built
 * only with the service, CZK_HAVE_SERVER). */
#ifndef CZK_CLIENT_H
#define CZK_CLIENT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "czk/filecoin.h"
#include "czk/fr.h"
#include "czk/groth16.h"
#include "czk/grpc_client.h"

#define CLIENT_MSG 1024

/* The options every client command takes to reach a czkd, for its list of
 * known options: --addr, and TLS and the token (client_open). */
#define CLIENT_CONN_OPTS "addr", "tls-ca", "tls-cert", "tls-key", "tls-server-name", "token-file"

/* The --addr option, else $CZK_ADDR, else czkd's default 127.0.0.1:9820;
 * NULL (and a message) when empty. */
const char *client_addr(const char *cmd, cli_args *a);
/* Opens a client for --addr (see client_addr): over TLS when --tls-ca (else
 * $CZK_TLS_CA) names the server's CA, with --tls-cert/--tls-key
 * ($CZK_TLS_CERT, $CZK_TLS_KEY) for mutual TLS and --tls-server-name
 * ($CZK_TLS_SERVER_NAME) for the name its certificate must carry; sending
 * the token of --token-file ($CZK_TOKEN_FILE) with every call. An option
 * given as "" turns its variable off. CLI_OK or an exit code. */
int client_open(const char *cmd, cli_args *a, bool wait_for_ready, czk_grpc_client **out);
/* Prints "czk CMD: CODE: details" and returns the exit code for it. */
int client_rpc_fail(const char *cmd, int code, const char *details);
/* low | normal | high | critical (or 1 … 4). */
bool client_parse_priority(const char *s, Cuzk__V1__Priority *out);
const char *client_await_status_name(int s);
/* The parameter cache: --param-cache, else czkd's default (czk_daemon_param_cache_default). */
const char *client_param_cache(cli_args *a);

/* A verifying key, prepared. */
typedef struct {
    czk_prepared_vk pvk;
    size_t n_ic;
    bool loaded;
} client_vk;

/* Loads vk_path (a .vk file, or a .params file whose vk prefix is read), or
 * when NULL <cache>/<circuit>.vk, else <cache>/<circuit>.params. */
czk_err client_vk_load(client_vk *v, const char *vk_path, const char *cache, const char *circuit, char *msg,
                       size_t msglen);
void client_vk_free(client_vk *v);
/* Checks a COMPLETED response: proof length, public input count and length,
 * canonical inputs, and every partition proof against v. */
czk_err client_verify(const client_vk *v, const Cuzk__V1__AwaitProofResponse *r, char *msg, size_t msglen);
/* Writes the proof bytes and (when public_path) the public inputs as snarkjs JSON. */
czk_err client_write_result(const Cuzk__V1__AwaitProofResponse *r, const char *proof_path, const char *public_path,
                            char *msg, size_t msglen);
void client_print_result(FILE *f, const Cuzk__V1__AwaitProofResponse *r);

/* GetStatus's status_json (malloc'd), NULL when unavailable. */
char *client_status_json(czk_grpc_client *c, char *msg, size_t msglen);

/* A progress bar on stderr when it is a terminal. */
typedef struct {
    bool tty;
    double t0, last;
    int width;
} client_progress;
void client_progress_init(client_progress *p);
/* done of total (total 0: only a count); extra: a short text after the bar. */
void client_progress_show(client_progress *p, double done, double total, const char *extra);
void client_progress_end(client_progress *p);

/* argv with "-j N" rewritten to "--jobs N" (a copy; free with free()). */
char **client_argv_dash_j(int argc, char **argv);

/* A PoRep C1 output (client_c1.c) ready to send as Curio's PoRepSnarkCuzk
 * does: the envelope, the request's facts, and verify_seal's public inputs
 * of every partition; the decoded C1 itself is not kept. */
typedef struct {
    const char *path;
    const czk_fil_seal_proof *proof;
    uint64_t registered_proof, sector_size, sector_number, miner_id;
    bool enveloped;            /* the file was cuzk's envelope (sent unchanged) */
    uint8_t *envelope;         /* vanilla_proof: the file, or the bare JSON wrapped as wrapC1Output does */
    size_t envelope_len;
    char request_id[96];       /* Curio's: porep-<miner>-<sector> */
    uint32_t partitions;
    size_t n_inputs;           /* per partition */
    czk_fr *inputs;            /* partitions x n_inputs */
} client_c1;

/* Reads and decodes path (cuzk's envelope or the bare JSON). The registered
 * proof and sector size come from the file, the sector number from the
 * envelope; --registered-proof, --sector-number (required for a bare file)
 * and --miner-id (required) must agree with it: replica_id is checked
 * against them (czk_fil_c1_check_request). CLI_OK, or an exit code after a
 * message naming the field that disagrees. Costs one decode of the file. */
int client_c1_load(const char *cmd, cli_args *a, const char *path, client_c1 *out);
/* Fills rq as Curio does for POREP_SEAL_COMMIT (priority NORMAL); request_id
 * NULL: c->request_id. rq points into c. */
void client_c1_request(const client_c1 *c, const char *request_id, Cuzk__V1__SubmitProofRequest *rq);
/* Loads vk_path, or when NULL the parameter cache's v28 .vk of c's proof, and
 * checks its input count. */
czk_err client_c1_vk_load(client_vk *v, const char *vk_path, const char *cache, const client_c1 *c, char *msg,
                          size_t msglen);
/* Checks the partition proofs (proof, len bytes) against c's public inputs. */
czk_err client_c1_verify(const client_c1 *c, const client_vk *v, const uint8_t *proof, size_t len, char *msg,
                         size_t msglen);
void client_c1_free(client_c1 *c);

/* A request file (client_request.c) and the array rq's vanilla_proofs
 * points to. */
typedef struct {
    czk_fil_request req;
    ProtobufCBinaryData *bins;
    bool loaded;
} client_request;

/* Loads path (cli_request_load) into out and fills every field of rq it
 * holds (rq points into out; --request-id and --priority may override
 * after). CLI_OK or an exit code after a message. */
int client_request_load(const char *cmd, const char *path, client_request *out, Cuzk__V1__SubmitProofRequest *rq);
void client_request_free(client_request *c);

#endif
