/* czk — the command-line tool: shared helpers for the commands. */
#ifndef CZK_CLI_H
#define CZK_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 success (or "valid"), 1 failure (or "invalid"), 2 usage. */
#define CLI_OK 0
#define CLI_FAIL 1
#define CLI_USAGE 2

/* --name value options after the command words. */
typedef struct {
    const char *name;
    const char *value;
    bool used;
} cli_opt;

#define CLI_MAX_OPTS 32

typedef struct {
    cli_opt opts[CLI_MAX_OPTS];
    int n;
    const char *positional[4];
    int npos;
} cli_args;

/* Parses argv[from..]; false (and a message on stderr) on a malformed line. */
bool cli_parse(cli_args *a, int argc, char **argv, int from, const char *const *known);
const char *cli_get(cli_args *a, const char *name);
/* Reports a required option that is missing; returns CLI_USAGE. */
int cli_missing(const char *cmd, const char *name);
bool cli_parse_u64(const char *s, uint64_t *out);
double cli_now(void);

int cmd_demo(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_params_info(int argc, char **argv);
int cmd_params_check(int argc, char **argv);
/* czk verify --c1 (cmd_verify_c1.c): 0 valid, 1 invalid, 2 unusable input. */
int cmd_verify_c1(const char *vk_path, const char *proof_path, const char *c1_path);
int cmd_circuit_info(int argc, char **argv);
int cmd_bench_pipeline(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_testseal(int argc, char **argv);
/* czk testseal --kind winning|window (cmd_testseal_post.c) */
int cmd_testseal_post(int argc, char **argv);
/* czk testseal --kind snap (cmd_testseal_update.c) */
int cmd_testseal_update(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* ---- Filecoin requests from files (cmd_check.c) ---------------------------- */
#include "czk/filecoin_request.h"
/* Reads a whole file of at most max bytes: CLI_OK, else CLI_USAGE (cannot
 * read it) or CLI_FAIL (too large, out of memory) with a message. */
int cli_read_file(const char *path, uint8_t **out, size_t *len, size_t max, char *msg, size_t msglen);
/* A request file (czk_fil_request_from_json) into *r. */
int cli_request_load(const char *cmd, const char *path, czk_fil_request *r);
/* The POREP_SEAL_COMMIT request Curio sends for a C1 file (envelope or
 * bare): --miner-id (required), --sector-number (required for a bare
 * file), --registered-proof (default the file's); request id porep-M-S,
 * priority NORMAL. Only decoded here, not checked: that is
 * czk_fil_request_prepare's. */
int cli_request_from_c1(const char *cmd, cli_args *a, const char *path, czk_fil_request *r);
/* --request FILE or the --c1 shorthand into *r; CLI_OK or an exit code
 * after a message. */
int cli_request_get(const char *cmd, cli_args *a, czk_fil_request *r);
/* The partition proofs (proof, len bytes) of request r checked with the vk
 * at vk_path and the public inputs czk_fil_prepared_public_inputs computes
 * (cmd_verify_request.c): CLI_OK valid, CLI_FAIL invalid, CLI_USAGE an
 * unusable request, vk or kind (a message each time but valid). */
int cli_request_verify(const czk_fil_request *r, const char *vk_path, const uint8_t *proof, size_t len, char *msg,
                       size_t msglen);
/* czk verify --request: prints valid / invalid; the exit code as above. */
int cmd_verify_request(const char *vk_path, const char *proof_path, const char *request_path);

#ifdef CZK_HAVE_SERVER
/* the client commands (apps/czk/client_*.c): calls to a czkd over gRPC */
bool cli_has_addr(int argc, char **argv);
int cmd_client_prove(int argc, char **argv);
int cmd_client_submit(int argc, char **argv);
int cmd_client_await(int argc, char **argv);
int cmd_client_cancel(int argc, char **argv);
int cmd_client_status(int argc, char **argv);
int cmd_client_metrics(int argc, char **argv);
int cmd_client_preload(int argc, char **argv);
int cmd_client_evict(int argc, char **argv);
int cmd_client_bench_batch(int argc, char **argv);
int cmd_client_bench_stress(int argc, char **argv);
#endif

#endif
