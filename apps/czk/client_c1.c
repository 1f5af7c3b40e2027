/* czk — a PoRep C1 output sent to czkd as Curio sends it (lib/ffi/cuzk_funcs.go
 * PoRepSnarkCuzk), and the returned proof checked as verify_seal checks it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "czk/filecoin_c1.h"
#include "czk/filecoin_porep.h"
#include "czk/groth16_io.h"

static czk_err read_all(const char *path, uint8_t **out, size_t *len, char *msg, size_t msglen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "cannot open %s: %s", path, strerror(errno));
        return CZK_ERR_IO;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    while (b) {
        if (n == cap) {
            uint8_t *nb = cap > ((size_t)1 << 34) ? NULL : realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    bool err = ferror(f);
    fclose(f);
    if (!b || err) {
        free(b);
        snprintf(msg, msglen, "%s: %s", path, b ? "read error" : "out of memory");
        return b ? CZK_ERR_IO : CZK_ERR_NO_MEMORY;
    }
    *out = b;
    *len = n;
    return CZK_OK;
}

/* Standard base64 with padding (Go's encoding/json for []byte); out holds
 * 4 * ceil(n / 3) bytes. */
static size_t base64_std(const uint8_t *in, size_t n, char *out) {
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = al[v >> 18];
        out[o++] = al[v >> 12 & 63];
        out[o++] = al[v >> 6 & 63];
        out[o++] = al[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = al[v >> 18];
        out[o++] = al[v >> 12 & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = al[v >> 18];
        out[o++] = al[v >> 12 & 63];
        out[o++] = al[v >> 6 & 63];
        out[o++] = '=';
    }
    return o;
}

/* wrapC1Output: json.Marshal(c1OutputWrapper{SectorNum, Phase1Out, SectorSize}). */
static czk_err wrap_envelope(const uint8_t *json, size_t n, uint64_t sector, uint64_t size, uint8_t **out,
                             size_t *len) {
    size_t b64 = 4 * ((n + 2) / 3), cap = b64 + 96;
    char *e = malloc(cap);
    if (!e) return CZK_ERR_NO_MEMORY;
    int h = snprintf(e, cap, "{\"SectorNum\":%lld,\"Phase1Out\":\"", (long long)sector);
    size_t o = (size_t)h + base64_std(json, n, e + h);
    o += (size_t)snprintf(e + o, cap - o, "\",\"SectorSize\":%llu}", (unsigned long long)size);
    *out = (uint8_t *)e;
    *len = o;
    return CZK_OK;
}

static bool flag_u64(const char *cmd, cli_args *a, const char *name, bool *given, uint64_t *v) {
    const char *s = cli_get(a, name);
    *given = s != NULL;
    if (s && !cli_parse_u64(s, v)) {
        fprintf(stderr, "czk %s: --%s must be a non-negative integer, not '%s'\n", cmd, name, s);
        return false;
    }
    return true;
}

int client_c1_load(const char *cmd, cli_args *a, const char *path, client_c1 *out) {
    memset(out, 0, sizeof *out);
    out->path = path;
    char msg[CLIENT_MSG] = "";
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    czk_fil_c1 c1;
    memset(&c1, 0, sizeof c1);
    int rc = CLI_USAGE;
    bool has_rp, has_sn, has_miner;
    uint64_t rp = 0, sn = 0, miner = 0;
    if (!flag_u64(cmd, a, "registered-proof", &has_rp, &rp) || !flag_u64(cmd, a, "sector-number", &has_sn, &sn) ||
        !flag_u64(cmd, a, "miner-id", &has_miner, &miner))
        return CLI_USAGE;
    if (!has_miner) {
        fprintf(stderr, "czk %s: --miner-id is required with --c1 (a C1 output does not hold it)\n", cmd);
        return CLI_USAGE;
    }
    if (read_all(path, &raw, &raw_len, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk %s: %s\n", cmd, msg);
        return CLI_USAGE;
    }
    if (czk_fil_c1_decode(&c1, raw, raw_len, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk %s: %s: %s\n", cmd, path, msg);
        goto done;
    }
    const czk_fil_seal_proof *p = c1.proof;
    if (has_rp && rp != p->id) {
        fprintf(stderr, "czk %s: --registered-proof %llu disagrees with %s: its registered_proof is %s (%llu)\n", cmd,
                (unsigned long long)rp, path, p->name, (unsigned long long)p->id);
        goto done;
    }
    if (has_sn && c1.enveloped && sn != c1.sector_num) {
        fprintf(stderr, "czk %s: --sector-number %llu disagrees with %s: its SectorNum is %llu\n", cmd,
                (unsigned long long)sn, path, (unsigned long long)c1.sector_num);
        goto done;
    }
    if (!has_sn && !c1.enveloped) {
        fprintf(stderr, "czk %s: %s is a bare C1 output: give --sector-number (only cuzk's envelope holds it)\n", cmd,
                path);
        goto done;
    }
    out->registered_proof = p->id;
    out->sector_size = p->sector_size;
    out->sector_number = c1.enveloped ? c1.sector_num : sn;
    out->miner_id = miner;
    out->proof = p;
    /* the request's facts against the file: SectorSize, and replica_id (the
     * miner and sector number are in it) */
    if (czk_fil_c1_check_request(&c1, out->registered_proof, out->sector_size, out->miner_id, out->sector_number, msg,
                                 sizeof msg) != CZK_OK) {
        fprintf(stderr, "czk %s: the request disagrees with %s: %s\n", cmd, path, msg);
        goto done;
    }
    snprintf(out->request_id, sizeof out->request_id, "porep-%llu-%llu", (unsigned long long)out->miner_id,
             (unsigned long long)out->sector_number);
    /* verify_seal's public inputs, then the decoded C1 is dropped */
    out->n_inputs = czk_fil_porep_input_count(p);
    out->partitions = p->partitions;
    out->inputs = malloc(out->n_inputs * out->partitions * sizeof *out->inputs);
    if (!out->inputs) {
        fprintf(stderr, "czk %s: out of memory\n", cmd);
        rc = CLI_FAIL;
        goto done;
    }
    czk_fil_porep_instance in;
    memset(&in, 0, sizeof in);
    in.proof = p;
    memcpy(in.replica_id, c1.replica_id, 32);
    memcpy(in.comm_d, c1.comm_d, 32);
    memcpy(in.comm_r, c1.comm_r, 32);
    memcpy(in.seed, c1.seed, 32);
    for (uint32_t k = 0; k < out->partitions; k++)
        if (czk_fil_porep_public_inputs(&in, k, out->inputs + (size_t)k * out->n_inputs, msg, sizeof msg) != CZK_OK) {
            fprintf(stderr, "czk %s: %s: partition %u's public inputs: %s\n", cmd, path, k, msg);
            goto done;
        }
    /* the envelope as Curio builds it; a file that is one is sent unchanged */
    if (c1.enveloped) {
        out->envelope = raw;
        out->envelope_len = raw_len;
        raw = NULL;
    } else if (wrap_envelope(raw, raw_len, out->sector_number, out->sector_size, &out->envelope,
                             &out->envelope_len) != CZK_OK) {
        fprintf(stderr, "czk %s: out of memory\n", cmd);
        rc = CLI_FAIL;
        goto done;
    }
    out->enveloped = c1.enveloped;
    rc = CLI_OK;
done:
    czk_fil_c1_free(&c1);
    free(raw);
    if (rc != CLI_OK) client_c1_free(out);
    return rc;
}

void client_c1_request(const client_c1 *c, const char *request_id, Cuzk__V1__SubmitProofRequest *rq) {
    rq->request_id = (char *)(request_id ? request_id : c->request_id);
    rq->proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    rq->sector_size = c->sector_size;
    rq->registered_proof = c->registered_proof;
    rq->priority = CUZK__V1__PRIORITY__NORMAL;
    rq->vanilla_proof.data = c->envelope;
    rq->vanilla_proof.len = c->envelope_len;
    rq->sector_number = c->sector_number;
    rq->miner_id = c->miner_id;
}

czk_err client_c1_vk_load(client_vk *v, const char *vk_path, const char *cache, const client_c1 *c, char *msg,
                          size_t msglen) {
    char path[4096];
    if (!vk_path) {
        const czk_fil_params_file *f = czk_fil_params_file_find(c->proof->circuit_id);
        if (!f || !cache) {
            snprintf(msg, msglen, "no verifying key for %s: give --vk FILE", c->proof->name);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        snprintf(path, sizeof path, "%s/%s", cache, f->vk_name);
        vk_path = path;
    }
    czk_err e = client_vk_load(v, vk_path, NULL, NULL, msg, msglen);
    if (e == CZK_OK && v->n_ic != c->n_inputs + 1) {
        snprintf(msg, msglen, "%s takes %zu public inputs; a partition of %s has %zu", vk_path, v->n_ic - 1,
                 c->proof->name, c->n_inputs);
        client_vk_free(v);
        return CZK_ERR_MISMATCH;
    }
    return e;
}

czk_err client_c1_verify(const client_c1 *c, const client_vk *v, const uint8_t *proof, size_t len, char *msg,
                         size_t msglen) {
    if (len != (size_t)c->partitions * CZK_PROOF_BYTES) {
        snprintf(msg, msglen, "the proof has %zu bytes; %s's %u partition proofs take %zu", len, c->proof->name,
                 c->partitions, (size_t)c->partitions * CZK_PROOF_BYTES);
        return CZK_ERR_BAD_LENGTH;
    }
    czk_proof *proofs = NULL;
    size_t n = 0;
    char inner[512] = "";
    czk_err e = czk_proofs_decode(&proofs, &n, proof, len, inner, sizeof inner);
    if (e != CZK_OK) {
        snprintf(msg, msglen, "malformed proof: %s", inner);
        return e;
    }
    for (size_t k = 0; k < n && e == CZK_OK; k++) {
        e = czk_verify(&v->pvk, &proofs[k], c->inputs + k * c->n_inputs, c->n_inputs);
        if (e != CZK_OK)
            snprintf(msg, msglen, "partition %zu: %s", k,
                     e == CZK_ERR_PROOF_INVALID ? "the proof does not verify" : czk_err_str(e));
    }
    free(proofs);
    return e;
}

void client_c1_free(client_c1 *c) {
    free(c->envelope);
    free(c->inputs);
    memset(c, 0, sizeof *c);
}
