/* czk — Filecoin requests as the service's jobs: a PoRep C2 request's C1
 * output decoded and checked once (against its registered proof and the
 * request that carried it), the engine input made of it, and the payload
 * the journal keeps so that a restart can decode it again.
 *
 * The journal's payload of a PoRep C2 job is the request's facts, then the
 * C1 bytes as they came:
 *
 *   "czk-porep-c2 1\n" "<registered_proof> <sector_size> <sector_number> <miner_id>\n" <C1 bytes>
 *
 * (decimal numbers). A payload that does not start with the first line is
 * a built-in circuit's seed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czk/filecoin_c1.h"
#include "service_internal.h"

#define MAGIC "czk-porep-c2 1\n"

static void job_c1_free(void *p) {
    czk_fil_c1 *c1 = p;
    czk_fil_c1_free(c1);
    free(c1);
}

bool czk_svc_fil_is_payload(const uint8_t *in, size_t len) {
    return len >= sizeof MAGIC - 1 && !memcmp(in, MAGIC, sizeof MAGIC - 1);
}

czk_err czk_svc_fil_frame(const czk_service_request *req, uint8_t **out, size_t *out_len) {
    char head[sizeof MAGIC + 96];
    int n = snprintf(head, sizeof head, MAGIC "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                     req->fil.registered_proof, req->fil.sector_size, req->fil.sector_number, req->fil.miner_id);
    if (n < 0 || (size_t)n >= sizeof head) return CZK_ERR_INVALID_ARGUMENT;
    uint8_t *b = malloc((size_t)n + req->input_len + 1);
    if (!b) return CZK_ERR_NO_MEMORY;
    memcpy(b, head, (size_t)n);
    if (req->input_len) memcpy(b + n, req->input, req->input_len);
    *out = b;
    *out_len = (size_t)n + req->input_len;
    return CZK_OK;
}

czk_err czk_svc_fil_unframe(const uint8_t *in, size_t len, czk_service_filecoin *fil, const uint8_t **c1,
                            size_t *c1_len) {
    if (!czk_svc_fil_is_payload(in, len)) return CZK_ERR_FORMAT;
    const uint8_t *p = in + sizeof MAGIC - 1, *end = in + len;
    const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl || nl - p > 96) return CZK_ERR_FORMAT;
    char line[100];
    memcpy(line, p, (size_t)(nl - p));
    line[nl - p] = 0;
    memset(fil, 0, sizeof *fil);
    if (sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &fil->registered_proof, &fil->sector_size,
               &fil->sector_number, &fil->miner_id) != 4)
        return CZK_ERR_FORMAT;
    fil->kind = CZK_FIL_KIND_POREP_C2;
    *c1 = nl + 1;
    *c1_len = (size_t)(end - (nl + 1));
    return CZK_OK;
}

/* Decoding and checking errors are the request's fault: INVALID_ARGUMENT. */
static czk_err refused(czk_err e) {
    return e == CZK_ERR_NO_MEMORY ? e : CZK_ERR_INVALID_ARGUMENT;
}

czk_err czk_svc_fil_prepare(const czk_service_filecoin *fil, const uint8_t *c1_bytes, size_t c1_len,
                            czk_circuit_input *out, const char **circuit_id, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (fil->kind != CZK_FIL_KIND_POREP_C2) {
        snprintf(msg, msglen, "only PoRep C2 is implemented among Filecoin's proofs");
        return CZK_ERR_UNSUPPORTED;
    }
    if (!c1_len) {
        snprintf(msg, msglen, "vanilla_proof is empty: a PoRep C2 request carries the C1 output there");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_fil_c1 *c1 = calloc(1, sizeof *c1);
    if (!c1) return CZK_ERR_NO_MEMORY;
    char m[768] = "";
    czk_err e = czk_fil_c1_decode(c1, c1_bytes, c1_len, m, sizeof m);
    if (e == CZK_OK) e = czk_fil_c1_check_request(c1, fil->registered_proof, fil->sector_size, fil->miner_id,
                                                 fil->sector_number, m, sizeof m);
    if (e == CZK_OK) {
        /* about 3 s of one core for a 32 GiB C1 (13 times that for an
         * NI-PoRep sector): spread over up to 8 threads */
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        e = czk_fil_c1_validate_threads(c1, cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus, m, sizeof m);
    }
    if (e != CZK_OK) {
        snprintf(msg, msglen, "vanilla_proof (the C1 output): %s", m[0] ? m : czk_err_str(e));
        job_c1_free(c1);
        return refused(e);
    }
    *circuit_id = c1->proof->circuit_id;
    out->data = c1->partitions; /* what the porep-* circuits read */
    out->free_fn = job_c1_free;
    out->free_arg = c1;
    out->partitions = c1->n_partitions;
    out->bytes = sizeof *c1 + czk_fil_c1_bytes(c1);
    return CZK_OK;
}
