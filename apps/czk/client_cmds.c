/* czk — the client commands: prove (remote), submit, await, cancel, status,
 * metrics, preload, evict: one cuzk.v1 call each to a czkd. */
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "czk/groth16.h"

/* Fills a SubmitProofRequest from --request (a request file loaded into
 * *rf, every field it holds), --c1 (loaded into *c1, which rq then points
 * into; see client_c1_load) or --circuit and --input; then --request-id,
 * --priority. */
static int submit_request(const char *cmd, cli_args *a, Cuzk__V1__SubmitProofRequest *rq, client_c1 *c1,
                          client_request *rf) {
    const char *id = cli_get(a, "circuit"), *in = cli_get(a, "input"), *rid = cli_get(a, "request-id"),
               *prio = cli_get(a, "priority"), *c1p = cli_get(a, "c1"), *rqp = cli_get(a, "request");
    memset(c1, 0, sizeof *c1);
    memset(rf, 0, sizeof *rf);
    if (rqp) {
        if (id || in || c1p) {
            fprintf(stderr, "czk %s: --request sends a request file: no --circuit, --input or --c1 with it\n", cmd);
            return CLI_USAGE;
        }
        int rc = client_request_load(cmd, rqp, rf, rq);
        if (rc != CLI_OK) return rc;
    } else if (c1p) {
        if (id || in) {
            fprintf(stderr, "czk %s: --c1 sends a PoRep C1 output: no --circuit or --input with it\n", cmd);
            return CLI_USAGE;
        }
        int rc = client_c1_load(cmd, a, c1p, c1);
        if (rc != CLI_OK) return rc;
        client_c1_request(c1, NULL, rq);
        const char *env = cli_get(a, "write-envelope");
        if (env) {
            FILE *f = fopen(env, "wb");
            if (!f || fwrite(c1->envelope, 1, c1->envelope_len, f) != c1->envelope_len || fclose(f) != 0) {
                fprintf(stderr, "czk %s: cannot write %s\n", cmd, env);
                client_c1_free(c1);
                return CLI_FAIL;
            }
        }
    } else {
        if (!id) return cli_missing(cmd, "circuit");
        if (!in) return cli_missing(cmd, "input");
        rq->circuit_id = (char *)id;
        rq->circuit_input.data = (uint8_t *)in;
        rq->circuit_input.len = strlen(in);
    }
    if (rid) rq->request_id = (char *)rid;
    if (prio && !client_parse_priority(prio, &rq->priority)) {
        fprintf(stderr, "czk %s: --priority must be low, normal, high or critical, not '%s'\n", cmd, prio);
        client_c1_free(c1);
        client_request_free(rf);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static bool parse_timeout(const char *cmd, const char *s, long *out) {
    uint64_t v;
    if (!s) return true;
    if (!cli_parse_u64(s, &v) || v > (uint64_t)1 << 40) {
        fprintf(stderr, "czk %s: --timeout must be milliseconds, not '%s'\n", cmd, s);
        return false;
    }
    *out = (long)v;
    return true;
}

/* Verifies a PoRep job's proof against c1 with --vk or the parameter
 * cache's v28 .vk (when asked: --vk or --param-cache); prints valid or
 * invalid. */
static int verify_c1_result(const char *cmd, cli_args *a, const Cuzk__V1__AwaitProofResponse *r, const client_c1 *c1) {
    char msg[CLIENT_MSG] = "";
    const char *vkp = cli_get(a, "vk"), *cache = cli_get(a, "param-cache");
    if (!vkp && !cache) return CLI_OK;
    client_vk v;
    if (client_c1_vk_load(&v, vkp, cache, c1, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk %s: %s\n", cmd, msg);
        return CLI_FAIL;
    }
    czk_err e = client_c1_verify(c1, &v, r->proof.data, r->proof.len, msg, sizeof msg);
    client_vk_free(&v);
    if (e != CZK_OK) {
        printf("invalid\n");
        fprintf(stderr, "czk %s: job %s: %s\n", cmd, r->job_id, msg);
        return CLI_FAIL;
    }
    printf("valid\n");
    return CLI_OK;
}

/* Writes, verifies and prints a finished job; the exit code. c1: the job's
 * C1 output (its proof is checked against it), or NULL. */
static int finish_result(const char *cmd, cli_args *a, const Cuzk__V1__AwaitProofResponse *r, const char *circuit,
                         const client_c1 *c1, const client_request *rf) {
    char msg[CLIENT_MSG] = "";
    client_print_result(stdout, r);
    if (r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) return CLI_FAIL;
    const char *proof = cli_get(a, "proof"), *pub = c1 ? NULL : cli_get(a, "public"), *vkp = cli_get(a, "vk");
    if (client_write_result(r, proof, pub, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk %s: %s\n", cmd, msg);
        return CLI_FAIL;
    }
    if (c1) return verify_c1_result(cmd, a, r, c1);
    if (rf) { /* a request file: verified here with --vk, from the request's public data */
        if (!vkp) return CLI_OK;
        int rc = cli_request_verify(&rf->req, vkp, r->proof.data, r->proof.len, msg, sizeof msg);
        if (rc == CLI_OK) printf("valid\n");
        else if (rc == CLI_FAIL) printf("invalid\n");
        if (rc != CLI_OK) fprintf(stderr, "czk %s: job %s: %s\n", cmd, r->job_id, msg);
        return rc == CLI_OK ? CLI_OK : CLI_FAIL;
    }
    /* verify here only when asked: --vk, or --param-cache (with the circuit) */
    const char *cache = cli_get(a, "param-cache");
    if (vkp || (cache && circuit)) {
        client_vk v;
        if (client_vk_load(&v, vkp, cache, circuit, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "czk %s: %s\n", cmd, msg);
            return CLI_FAIL;
        }
        czk_err e = client_verify(&v, r, msg, sizeof msg);
        client_vk_free(&v);
        if (e != CZK_OK) {
            printf("invalid\n");
            fprintf(stderr, "czk %s: %s\n", cmd, msg);
            return CLI_FAIL;
        }
        printf("valid\n");
    }
    return CLI_OK;
}

int cmd_client_prove(int argc, char **argv) {
    static const char *const known[] = {CLIENT_CONN_OPTS, "circuit", "input", "proof", "public", "request-id",
                                        "priority", "vk", "param-cache", "timeout", "c1", "registered-proof",
                                        "sector-number", "miner-id", "write-envelope", "request", NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    long timeout = -1;
    if (!parse_timeout("prove", cli_get(&a, "timeout"), &timeout)) return CLI_USAGE;
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    client_c1 c1;
    client_request rf;
    int rc = submit_request("prove", &a, &sub, &c1, &rf);
    if (rc != CLI_OK) return rc;
    czk_grpc_client *c;
    if ((rc = client_open("prove", &a, false, &c)) != CLI_OK) {
        client_c1_free(&c1);
        client_request_free(&rf);
        return rc;
    }
    Cuzk__V1__ProveRequest rq = CUZK__V1__PROVE_REQUEST__INIT;
    rq.submit = &sub;
    ProtobufCMessage *resp = NULL;
    char msg[CLIENT_MSG] = "";
    int st = czk_grpc_client_unary(c, "Prove", &rq.base, &cuzk__v1__prove_response__descriptor, timeout, &resp, msg,
                                   sizeof msg);
    if (st != CZK_GRPC_OK) {
        czk_grpc_client_close(c);
        client_c1_free(&c1);
        client_request_free(&rf);
        return client_rpc_fail("prove", st, msg);
    }
    const Cuzk__V1__ProveResponse *r = (const Cuzk__V1__ProveResponse *)resp;
    if (!r->result) {
        fprintf(stderr, "czk prove: the response has no result\n");
        rc = CLI_FAIL;
    } else {
        rc = finish_result("prove", &a, r->result, sub.circuit_id, c1.envelope ? &c1 : NULL, rf.loaded ? &rf : NULL);
    }
    protobuf_c_message_free_unpacked(resp, NULL);
    czk_grpc_client_close(c);
    client_c1_free(&c1);
    client_request_free(&rf);
    return rc;
}

int cmd_client_submit(int argc, char **argv) {
    static const char *const known[] = {CLIENT_CONN_OPTS, "circuit", "input", "request-id", "priority", "c1",
                                        "registered-proof", "sector-number", "miner-id", "write-envelope", "request",
                                        NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    Cuzk__V1__SubmitProofRequest rq = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    client_c1 c1;
    client_request rf;
    int rc = submit_request("submit", &a, &rq, &c1, &rf);
    if (rc != CLI_OK) return rc;
    czk_grpc_client *c;
    if ((rc = client_open("submit", &a, false, &c)) != CLI_OK) {
        client_c1_free(&c1);
        client_request_free(&rf);
        return rc;
    }
    ProtobufCMessage *resp = NULL;
    char msg[CLIENT_MSG] = "";
    int st = czk_grpc_client_unary(c, "SubmitProof", &rq.base, &cuzk__v1__submit_proof_response__descriptor, 60000,
                                   &resp, msg, sizeof msg);
    czk_grpc_client_close(c);
    client_c1_free(&c1);
    client_request_free(&rf);
    if (st != CZK_GRPC_OK) return client_rpc_fail("submit", st, msg);
    const Cuzk__V1__SubmitProofResponse *r = (const Cuzk__V1__SubmitProofResponse *)resp;
    printf("job %s queue_position %u\n", r->job_id, r->queue_position);
    protobuf_c_message_free_unpacked(resp, NULL);
    return CLI_OK;
}

/* The job id: --job or the one positional argument. */
static const char *job_arg(const char *cmd, cli_args *a) {
    const char *j = cli_get(a, "job");
    if (!j && a->npos == 1) j = a->positional[0];
    if (!j || a->npos > 1) {
        fprintf(stderr, "czk %s: give one job id (czk %s --addr ADDR JOB)\n", cmd, cmd);
        return NULL;
    }
    return j;
}

int cmd_client_await(int argc, char **argv) {
    static const char *const known[] = {CLIENT_CONN_OPTS, "job", "timeout", "proof", "public", "vk", "param-cache",
                                        "circuit", "c1", "registered-proof", "sector-number", "miner-id", "request",
                                        NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known)) return CLI_USAGE;
    if (cli_get(&a, "c1") && cli_get(&a, "request")) {
        fprintf(stderr, "czk await: --c1 or --request, not both\n");
        return CLI_USAGE;
    }
    const char *job = job_arg("await", &a);
    if (!job) return CLI_USAGE;
    long timeout = 0;
    if (!parse_timeout("await", cli_get(&a, "timeout"), &timeout)) return CLI_USAGE;
    czk_grpc_client *c;
    int rc = client_open("await", &a, false, &c);
    if (rc != CLI_OK) return rc;
    Cuzk__V1__AwaitProofRequest rq = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    rq.job_id = (char *)job;
    rq.timeout_ms = (uint64_t)timeout;
    ProtobufCMessage *resp = NULL;
    char msg[CLIENT_MSG] = "";
    int st = czk_grpc_client_unary(c, "AwaitProof", &rq.base, &cuzk__v1__await_proof_response__descriptor, -1, &resp,
                                   msg, sizeof msg);
    czk_grpc_client_close(c);
    if (st != CZK_GRPC_OK) return client_rpc_fail("await", st, msg);
    /* --c1: the job's C1 output, --request: its request file, to verify its proof against */
    client_c1 c1;
    client_request rf;
    memset(&c1, 0, sizeof c1);
    memset(&rf, 0, sizeof rf);
    Cuzk__V1__SubmitProofRequest unused = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    if ((cli_get(&a, "c1") && (rc = client_c1_load("await", &a, cli_get(&a, "c1"), &c1)) != CLI_OK) ||
        (cli_get(&a, "request") && (rc = client_request_load("await", cli_get(&a, "request"), &rf, &unused)) != CLI_OK)) {
        protobuf_c_message_free_unpacked(resp, NULL);
        client_c1_free(&c1);
        return rc;
    }
    rc = finish_result("await", &a, (const Cuzk__V1__AwaitProofResponse *)resp, cli_get(&a, "circuit"),
                       c1.envelope ? &c1 : NULL, rf.loaded ? &rf : NULL);
    protobuf_c_message_free_unpacked(resp, NULL);
    client_c1_free(&c1);
    client_request_free(&rf);
    return rc;
}

int cmd_client_cancel(int argc, char **argv) {
    static const char *const known[] = {CLIENT_CONN_OPTS, "job", NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known)) return CLI_USAGE;
    const char *job = job_arg("cancel", &a);
    if (!job) return CLI_USAGE;
    czk_grpc_client *c;
    int rc = client_open("cancel", &a, false, &c);
    if (rc != CLI_OK) return rc;
    Cuzk__V1__CancelProofRequest rq = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    rq.job_id = (char *)job;
    ProtobufCMessage *resp = NULL;
    char msg[CLIENT_MSG] = "";
    int st = czk_grpc_client_unary(c, "CancelProof", &rq.base, &cuzk__v1__cancel_proof_response__descriptor, 60000,
                                   &resp, msg, sizeof msg);
    if (st != CZK_GRPC_OK) {
        czk_grpc_client_close(c);
        return client_rpc_fail("cancel", st, msg);
    }
    bool was_running = ((Cuzk__V1__CancelProofResponse *)resp)->was_running;
    protobuf_c_message_free_unpacked(resp, NULL);
    /* what became of it: a job that had already ended is not cancelled */
    Cuzk__V1__AwaitProofRequest aq = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    aq.job_id = (char *)job;
    aq.timeout_ms = 1;
    resp = NULL;
    st = czk_grpc_client_unary(c, "AwaitProof", &aq.base, &cuzk__v1__await_proof_response__descriptor, 60000, &resp,
                               msg, sizeof msg);
    czk_grpc_client_close(c);
    int state = st == CZK_GRPC_OK ? (int)((Cuzk__V1__AwaitProofResponse *)resp)->status : -1;
    if (resp) protobuf_c_message_free_unpacked(resp, NULL);
    if (state == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED ||
        state == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED)
        printf("job %s had already ended (%s): nothing was cancelled\n", job,
               state == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED ? "completed" : "failed");
    else if (state == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED)
        printf("job %s: cancelled (%s)\n", job, was_running ? "it was running" : "it was queued");
    else
        printf("job %s: cancel requested (%s); it stops at its next stage boundary\n", job,
               was_running ? "it was running" : "it was queued");
    return CLI_OK;
}

int cmd_client_status(int argc, char **argv) {
    static const char *const known[] = {CLIENT_CONN_OPTS, "format", NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    const char *fmt = cli_get(&a, "format");
    if (fmt && strcmp(fmt, "json") && strcmp(fmt, "text")) {
        fprintf(stderr, "czk status: --format is json or text, not '%s'\n", fmt);
        return CLI_USAGE;
    }
    czk_grpc_client *c;
    int rc = client_open("status", &a, false, &c);
    if (rc != CLI_OK) return rc;
    Cuzk__V1__GetStatusRequest rq = CUZK__V1__GET_STATUS_REQUEST__INIT;
    ProtobufCMessage *resp = NULL;
    char msg[CLIENT_MSG] = "";
    int st = czk_grpc_client_unary(c, "GetStatus", &rq.base, &cuzk__v1__get_status_response__descriptor, 30000, &resp,
                                   msg, sizeof msg);
    czk_grpc_client_close(c);
    if (st != CZK_GRPC_OK) return client_rpc_fail("status", st, msg);
    const Cuzk__V1__GetStatusResponse *r = (const Cuzk__V1__GetStatusResponse *)resp;
    if (fmt && !strcmp(fmt, "json")) {
        printf("%s\n", r->status_json && *r->status_json ? r->status_json : "{}");
    } else {
        printf("uptime %llu s; proofs completed %llu, failed %llu\n", (unsigned long long)r->uptime_seconds,
               (unsigned long long)r->total_proofs_completed, (unsigned long long)r->total_proofs_failed);
        for (size_t i = 0; i < r->n_gpus; i++)
            printf("gpu %u %s: %.1f of %.1f GiB free\n", r->gpus[i]->ordinal, r->gpus[i]->name,
                   (double)r->gpus[i]->vram_free_bytes / (1 << 30), (double)r->gpus[i]->vram_total_bytes / (1 << 30));
        if (r->n_gpus == 0) printf("no GPU (CPU backend)\n");
        for (size_t i = 0; i < r->n_loaded_srs; i++)
            printf("srs %s: %.1f MiB, %u unfinished job%s\n", r->loaded_srs[i]->circuit_id,
                   (double)r->loaded_srs[i]->size_bytes / (1 << 20), r->loaded_srs[i]->ref_count,
                   r->loaded_srs[i]->ref_count == 1 ? "" : "s");
        for (size_t i = 0; i < r->n_queues; i++)
            printf("queue %s: %u pending, %u in progress\n", r->queues[i]->proof_kind, r->queues[i]->pending,
                   r->queues[i]->in_progress);
    }
    protobuf_c_message_free_unpacked(resp, NULL);
    return CLI_OK;
}

int cmd_client_metrics(int argc, char **argv) {
    static const char *const known[] = {CLIENT_CONN_OPTS, NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    czk_grpc_client *c;
    int rc = client_open("metrics", &a, false, &c);
    if (rc != CLI_OK) return rc;
    Cuzk__V1__GetMetricsRequest rq = CUZK__V1__GET_METRICS_REQUEST__INIT;
    ProtobufCMessage *resp = NULL;
    char msg[CLIENT_MSG] = "";
    int st = czk_grpc_client_unary(c, "GetMetrics", &rq.base, &cuzk__v1__get_metrics_response__descriptor, 30000,
                                   &resp, msg, sizeof msg);
    czk_grpc_client_close(c);
    if (st != CZK_GRPC_OK) return client_rpc_fail("metrics", st, msg);
    fputs(((Cuzk__V1__GetMetricsResponse *)resp)->prometheus_text, stdout);
    protobuf_c_message_free_unpacked(resp, NULL);
    return CLI_OK;
}

static int srs_command(int argc, char **argv, bool preload) {
    const char *cmd = preload ? "preload" : "evict";
    static const char *const known[] = {CLIENT_CONN_OPTS, "circuit", NULL};
    cli_args a;
    if (!cli_parse(&a, argc, argv, 2, known) || a.npos) return CLI_USAGE;
    const char *id = cli_get(&a, "circuit");
    if (!id) return cli_missing(cmd, "circuit");
    czk_grpc_client *c;
    int rc = client_open(cmd, &a, false, &c);
    if (rc != CLI_OK) return rc;
    ProtobufCMessage *resp = NULL;
    char msg[CLIENT_MSG] = "";
    int st;
    if (preload) {
        Cuzk__V1__PreloadSrsRequest rq = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        rq.circuit_id = (char *)id;
        st = czk_grpc_client_unary(c, "PreloadSRS", &rq.base, &cuzk__v1__preload_srs_response__descriptor, -1, &resp,
                                   msg, sizeof msg);
    } else {
        Cuzk__V1__EvictSrsRequest rq = CUZK__V1__EVICT_SRS_REQUEST__INIT;
        rq.circuit_id = (char *)id;
        st = czk_grpc_client_unary(c, "EvictSRS", &rq.base, &cuzk__v1__evict_srs_response__descriptor, 60000, &resp,
                                   msg, sizeof msg);
    }
    czk_grpc_client_close(c);
    if (st != CZK_GRPC_OK) return client_rpc_fail(cmd, st, msg);
    if (preload) {
        const Cuzk__V1__PreloadSrsResponse *r = (const Cuzk__V1__PreloadSrsResponse *)resp;
        if (r->already_loaded) printf("%s: already loaded\n", id);
        else printf("%s: loaded in %llu ms\n", id, (unsigned long long)r->load_time_ms);
    } else {
        const Cuzk__V1__EvictSrsResponse *r = (const Cuzk__V1__EvictSrsResponse *)resp;
        if (r->was_loaded) printf("%s: evicted, %.1f MiB freed\n", id, (double)r->freed_bytes / (1 << 20));
        else printf("%s: was not loaded\n", id);
    }
    protobuf_c_message_free_unpacked(resp, NULL);
    return CLI_OK;
}

int cmd_client_preload(int argc, char **argv) {
    return srs_command(argc, argv, true);
}

int cmd_client_evict(int argc, char **argv) {
    return srs_command(argc, argv, false);
}
