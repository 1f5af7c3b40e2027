/* czk — Filecoin requests as the service's jobs: the request decoded and
 * checked once (czk_fil_request_prepare), the engine input made of it, and
 * the payload the journal keeps so that a restart can decode it again.
 *
 * The journal's payload of a Filecoin job is the whole request:
 *
 *   "czk-fil-request 2\n" kind u32, registered_proof u64, sector_size u64,
 *   sector_number u64, miner_id u64, partition_index u32, then the byte
 *   fields vanilla_proof, randomness, comm_r_old, comm_r_new, comm_d_new
 *   (each a u64 length and the bytes), a u64 count of vanilla_proofs and
 *   each of them (u64 length, bytes); every integer little-endian.
 *
 * Journals written before (PoRep C2 only) hold
 *   "czk-porep-c2 1\n" "<registered_proof> <sector_size> <sector_number> <miner_id>\n" <C1 bytes>
 * and are read back too. A payload that starts with neither is a built-in
 * circuit's seed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service_internal.h"

#define MAGIC_V1 "czk-porep-c2 1\n"
#define MAGIC_V2 "czk-fil-request 2\n"

static bool has_prefix(const uint8_t *in, size_t len, const char *m) {
    size_t n = strlen(m);
    return len >= n && !memcmp(in, m, n);
}

bool czk_svc_fil_is_payload(const uint8_t *in, size_t len) {
    return has_prefix(in, len, MAGIC_V1) || has_prefix(in, len, MAGIC_V2);
}

/* ---- framing ------------------------------------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t n;
} wbuf;

static void put(wbuf *w, const void *v, size_t n) {
    if (n) memcpy(w->p + w->n, v, n);
    w->n += n;
}

static void put_u64(wbuf *w, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    put(w, b, 8);
}

static void put_u32(wbuf *w, uint32_t v) {
    uint8_t b[4];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
    put(w, b, 4);
}

static void put_bytes(wbuf *w, const czk_fil_bytes *b) {
    put_u64(w, b->len);
    put(w, b->data, b->len);
}

czk_err czk_svc_fil_frame(const czk_fil_request *r, uint8_t **out, size_t *out_len) {
    const czk_fil_bytes *f[5] = {&r->vanilla_proof, &r->randomness, &r->comm_r_old, &r->comm_r_new, &r->comm_d_new};
    size_t n = sizeof MAGIC_V2 - 1 + 4 + 4 * 8 + 4 + 8;
    for (int i = 0; i < 5; i++) n += 8 + f[i]->len;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) n += 8 + r->vanilla_proofs[i].len;
    wbuf w = {malloc(n), 0};
    if (!w.p) return CZK_ERR_NO_MEMORY;
    put(&w, MAGIC_V2, sizeof MAGIC_V2 - 1);
    put_u32(&w, (uint32_t)r->kind);
    put_u64(&w, r->registered_proof);
    put_u64(&w, r->sector_size);
    put_u64(&w, r->sector_number);
    put_u64(&w, r->miner_id);
    put_u32(&w, r->partition_index);
    for (int i = 0; i < 5; i++) put_bytes(&w, f[i]);
    put_u64(&w, r->n_vanilla_proofs);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) put_bytes(&w, &r->vanilla_proofs[i]);
    *out = w.p;
    *out_len = w.n;
    return CZK_OK;
}

typedef struct {
    const uint8_t *p, *end;
    bool bad;
} rbuf;

static uint64_t get_u(rbuf *b, int width) {
    if (b->bad || (size_t)(b->end - b->p) < (size_t)width) {
        b->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < width; i++) v |= (uint64_t)b->p[i] << (8 * i);
    b->p += width;
    return v;
}

static void get_bytes(rbuf *b, czk_fil_bytes *out) {
    uint64_t n = get_u(b, 8);
    if (b->bad || n > (uint64_t)(b->end - b->p)) {
        b->bad = true;
        return;
    }
    out->data = n ? (uint8_t *)b->p : NULL;
    out->len = (size_t)n;
    b->p += n;
}

static czk_err unframe_v1(const uint8_t *in, size_t len, czk_fil_request *r) {
    const uint8_t *p = in + sizeof MAGIC_V1 - 1, *end = in + len;
    const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl || nl - p > 96) return CZK_ERR_FORMAT;
    char line[100];
    memcpy(line, p, (size_t)(nl - p));
    line[nl - p] = 0;
    if (sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &r->registered_proof, &r->sector_size,
               &r->sector_number, &r->miner_id) != 4)
        return CZK_ERR_FORMAT;
    r->kind = CZK_FIL_KIND_POREP_C2;
    r->vanilla_proof.data = (uint8_t *)(nl + 1);
    r->vanilla_proof.len = (size_t)(end - (nl + 1));
    return CZK_OK;
}

czk_err czk_svc_fil_unframe(const uint8_t *in, size_t len, czk_fil_request *r) {
    memset(r, 0, sizeof *r);
    r->borrowed = 1;
    if (has_prefix(in, len, MAGIC_V1)) return unframe_v1(in, len, r);
    if (!has_prefix(in, len, MAGIC_V2)) return CZK_ERR_FORMAT;
    rbuf b = {in + sizeof MAGIC_V2 - 1, in + len, false};
    r->kind = (czk_fil_kind)get_u(&b, 4);
    r->registered_proof = get_u(&b, 8);
    r->sector_size = get_u(&b, 8);
    r->sector_number = get_u(&b, 8);
    r->miner_id = get_u(&b, 8);
    r->partition_index = (uint32_t)get_u(&b, 4);
    czk_fil_bytes *f[5] = {&r->vanilla_proof, &r->randomness, &r->comm_r_old, &r->comm_r_new, &r->comm_d_new};
    for (int i = 0; i < 5; i++) get_bytes(&b, f[i]);
    uint64_t nv = get_u(&b, 8);
    /* each one takes at least its 8-byte length */
    if (b.bad || nv > (uint64_t)(b.end - b.p) / 8) return CZK_ERR_FORMAT;
    if (nv) {
        r->vanilla_proofs = calloc((size_t)nv, sizeof *r->vanilla_proofs);
        if (!r->vanilla_proofs) return CZK_ERR_NO_MEMORY;
        r->n_vanilla_proofs = (size_t)nv;
        for (size_t i = 0; i < r->n_vanilla_proofs; i++) get_bytes(&b, &r->vanilla_proofs[i]);
    }
    if (b.bad || b.p != b.end) {
        czk_fil_request_free(r);
        return CZK_ERR_FORMAT;
    }
    return CZK_OK;
}

/* ---- the engine's input ---------------------------------------------------------- */

static void prepared_free(void *p) {
    czk_fil_prepared_free(p);
    free(p);
}

czk_err czk_svc_fil_prepare(const czk_fil_request *r, czk_circuit_input *out, const char **circuit_id, char *msg,
                            size_t msglen) {
    memset(out, 0, sizeof *out);
    czk_fil_prepared *p = calloc(1, sizeof *p);
    if (!p) return CZK_ERR_NO_MEMORY;
    czk_err e = czk_fil_request_prepare(r, p, msg, msglen);
    if (e != CZK_OK) {
        free(p);
        return e;
    }
    *circuit_id = p->circuit_id;
    out->data = p->data;
    out->free_fn = prepared_free;
    out->free_arg = p;
    out->partitions = p->partitions;
    out->bytes = sizeof *p + p->bytes;
    return CZK_OK;
}
