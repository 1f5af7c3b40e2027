/* czk — encoding a C1 output (filecoin_c1.h) as filecoin-proofs-api's
 * SealCommitPhase1Output serializes with serde_json: struct fields in
 * declaration order, enums externally tagged, [u8; 32] as 32 integers, no
 * white space; and cuzk's envelope as Go's json.Marshal writes Curio's
 * c1OutputWrapper (lib/ffi/cuzk_funcs.go: SectorNum, Phase1Out as standard
 * padded base64, SectorSize). */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin_c1.h"

typedef struct {
    char *b;
    size_t n, cap;
    bool oom;
} sb;

static void put(sb *s, const char *p, size_t n) {
    if (s->oom) return;
    if (s->n + n + 1 > s->cap) {
        size_t c = s->cap ? s->cap : 4096;
        while (c < s->n + n + 1) c *= 2;
        char *q = realloc(s->b, c);
        if (!q) {
            s->oom = true;
            return;
        }
        s->b = q;
        s->cap = c;
    }
    memcpy(s->b + s->n, p, n);
    s->n += n;
    s->b[s->n] = '\0';
}

static void puts_(sb *s, const char *p) { put(s, p, strlen(p)); }

static void put_u64(sb *s, uint64_t v) {
    char t[24];
    int n = snprintf(t, sizeof t, "%llu", (unsigned long long)v);
    put(s, t, (size_t)n);
}

static void put_b32(sb *s, const uint8_t v[32]) {
    char t[32 * 4 + 2];
    size_t n = 0;
    t[n++] = '[';
    for (int i = 0; i < 32; i++) {
        unsigned x = v[i];
        if (i) t[n++] = ',';
        if (x >= 100) t[n++] = (char)('0' + x / 100);
        if (x >= 10) t[n++] = (char)('0' + x / 10 % 10);
        t[n++] = (char)('0' + x % 10);
    }
    t[n++] = ']';
    put(s, t, n);
}

static void put_levels(sb *s, const czk_fil_path_level *lv, size_t n) {
    puts_(s, "{\"path\":[");
    for (size_t i = 0; i < n; i++) {
        if (i) puts_(s, ",");
        puts_(s, "{\"hashes\":[");
        for (unsigned j = 0; j + 1 < lv[i].arity; j++) {
            if (j) puts_(s, ",");
            put_b32(s, lv[i].siblings[j]);
        }
        puts_(s, "],\"index\":");
        put_u64(s, lv[i].index);
        puts_(s, "}");
    }
    puts_(s, "]}");
}

/* MerkleProof {"data": {"Single" | "Sub" | "Top": …}} */
static bool put_merkle(sb *s, const czk_fil_path *p, const czk_fil_c1_merkle *m) {
    if ((size_t)m->n_base + m->n_sub + m->n_top != p->n_levels || m->kind > CZK_FIL_PROOF_TOP) return false;
    const czk_fil_path_level *lv = p->levels;
    if (m->kind == CZK_FIL_PROOF_SINGLE) {
        puts_(s, "{\"data\":{\"Single\":{\"root\":");
        put_b32(s, m->root);
        puts_(s, ",\"leaf\":");
        put_b32(s, m->leaf);
        puts_(s, ",\"path\":");
        put_levels(s, lv, m->n_base);
        puts_(s, "}}}");
        return true;
    }
    puts_(s, m->kind == CZK_FIL_PROOF_SUB ? "{\"data\":{\"Sub\":{\"base_proof\":" : "{\"data\":{\"Top\":{\"base_proof\":");
    put_levels(s, lv, m->n_base);
    puts_(s, ",\"sub_proof\":");
    put_levels(s, lv + m->n_base, m->n_sub);
    if (m->kind == CZK_FIL_PROOF_TOP) {
        puts_(s, ",\"top_proof\":");
        put_levels(s, lv + m->n_base + m->n_sub, m->n_top);
    }
    puts_(s, ",\"root\":");
    put_b32(s, m->root);
    puts_(s, ",\"leaf\":");
    put_b32(s, m->leaf);
    puts_(s, "}}}");
    return true;
}

static bool put_column_proof(sb *s, uint32_t index, const uint8_t (*rows)[32], size_t n_rows, const czk_fil_path *p,
                             const czk_fil_c1_merkle *m) {
    puts_(s, "{\"column\":{\"index\":");
    put_u64(s, index);
    puts_(s, ",\"rows\":[");
    for (size_t i = 0; i < n_rows; i++) {
        if (i) puts_(s, ",");
        put_b32(s, rows[i]);
    }
    puts_(s, "],\"_h\":null},\"inclusion_proof\":");
    bool ok = put_merkle(s, p, m);
    puts_(s, "}");
    return ok;
}

static void put_label_proof(sb *s, const czk_fil_porep_challenge *c, size_t layer) {
    puts_(s, "{\"parents\":[");
    for (size_t j = 0; j < CZK_FIL_LABEL_PARENTS; j++) {
        if (j) puts_(s, ",");
        put_b32(s, czk_fil_c1_label_parent(c, layer, j));
    }
    puts_(s, "],\"layer_index\":");
    put_u64(s, layer);
    puts_(s, ",\"node\":");
    put_u64(s, c->node);
    puts_(s, "}");
}

static czk_err put_vanilla(sb *s, const czk_fil_porep_challenge *c, const czk_fil_c1_claims *cl, char *msg,
                           size_t msglen, size_t k, size_t i) {
    size_t layers = cl->n_rows;
    bool ok = layers >= 1 && layers <= CZK_FIL_C1_MAX_LAYERS && c->node <= UINT32_MAX;
    for (size_t j = 0; ok && j < CZK_FIL_DRG_PARENTS; j++) ok = c->drg_parents[j].n_rows == layers;
    for (size_t j = 0; ok && j < CZK_FIL_EXP_PARENTS; j++) ok = c->exp_parents[j].n_rows == layers;
    puts_(s, "{\"comm_d_proofs\":");
    ok = ok && put_merkle(s, &c->comm_d_path, &cl->comm_d);
    puts_(s, ",\"comm_r_last_proof\":");
    ok = ok && put_merkle(s, &c->comm_r_last_path, &cl->comm_r_last);
    puts_(s, ",\"replica_column_proofs\":{\"c_x\":");
    ok = ok && put_column_proof(s, (uint32_t)c->node, (const uint8_t(*)[32])cl->c_x_rows, layers, &c->comm_c_path, &cl->c_x);
    puts_(s, ",\"drg_parents\":[");
    for (size_t j = 0; ok && j < CZK_FIL_DRG_PARENTS; j++) {
        if (j) puts_(s, ",");
        const czk_fil_column *col = &c->drg_parents[j];
        ok = put_column_proof(s, col->index, (const uint8_t(*)[32])col->rows, col->n_rows, &col->path, &cl->drg[j]);
    }
    puts_(s, "],\"exp_parents\":[");
    for (size_t j = 0; ok && j < CZK_FIL_EXP_PARENTS; j++) {
        if (j) puts_(s, ",");
        const czk_fil_column *col = &c->exp_parents[j];
        ok = put_column_proof(s, col->index, (const uint8_t(*)[32])col->rows, col->n_rows, &col->path, &cl->exp[j]);
    }
    if (!ok) {
        if (msg && msglen)
            snprintf(msg, msglen, "vanilla_proofs[%zu][%zu]: the challenge's paths, columns or claims disagree in shape",
                     k, i);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    puts_(s, "]},\"labeling_proofs\":[");
    for (size_t l = 1; l <= layers; l++) {
        if (l > 1) puts_(s, ",");
        put_label_proof(s, c, l);
    }
    puts_(s, "],\"encoding_proof\":");
    put_label_proof(s, c, layers);
    puts_(s, "}");
    return CZK_OK;
}

static const char *shape_name(uint64_t size) {
    switch (size) {
    case 2048ull: return "StackedDrg2KiBV1";
    case 8ull << 20: return "StackedDrg8MiBV1";
    case 512ull << 20: return "StackedDrg512MiBV1";
    case 32ull << 30: return "StackedDrg32GiBV1";
    case 64ull << 30: return "StackedDrg64GiBV1";
    default: return NULL;
    }
}

static czk_err encode_c1(const czk_fil_c1 *c1, sb *s, char *msg, size_t msglen) {
    const char *shape = shape_name(c1->shape_sector_size ? c1->shape_sector_size : c1->proof->sector_size);
    if (!shape) {
        if (msg && msglen) snprintf(msg, msglen, "vanilla_proofs: no variant for a sector of %llu bytes",
                                    (unsigned long long)c1->shape_sector_size);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    puts_(s, "{\"registered_proof\":\"");
    puts_(s, c1->proof->name);
    puts_(s, "\",\"vanilla_proofs\":{\"");
    puts_(s, shape);
    puts_(s, "\":[");
    for (size_t k = 0; k < c1->n_partitions; k++) {
        const czk_fil_porep_partition *p = &c1->partitions[k];
        if (k) puts_(s, ",");
        puts_(s, "[");
        for (size_t i = 0; i < p->n_challenges; i++) {
            if (i) puts_(s, ",");
            czk_err e = put_vanilla(s, &p->challenges[i], &c1->claims[k][i], msg, msglen, k, i);
            if (e) return e;
        }
        puts_(s, "]");
    }
    puts_(s, "]},\"comm_r\":");
    put_b32(s, c1->comm_r);
    puts_(s, ",\"comm_d\":");
    put_b32(s, c1->comm_d);
    puts_(s, ",\"replica_id\":");
    put_b32(s, c1->replica_id);
    puts_(s, ",\"seed\":");
    put_b32(s, c1->seed);
    puts_(s, ",\"ticket\":");
    put_b32(s, c1->ticket);
    puts_(s, "}");
    return CZK_OK;
}

czk_err czk_fil_c1_encode(const czk_fil_c1 *c1, bool envelope, char **out, size_t *len, char *msg, size_t msglen) {
    *out = NULL;
    *len = 0;
    if (msg && msglen) msg[0] = '\0';
    if (!c1 || !c1->proof || (c1->n_partitions && (!c1->partitions || !c1->claims))) {
        if (msg && msglen) snprintf(msg, msglen, "a C1 needs its registered proof, partitions and claims");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    sb s = {0};
    czk_err e = encode_c1(c1, &s, msg, msglen);
    if (!e && s.oom) e = CZK_ERR_NO_MEMORY;
    if (!e && envelope) {
        if (s.n > (size_t)0x5fffffff) e = CZK_ERR_INVALID_ARGUMENT; /* EVP_EncodeBlock takes an int */
        sb w = {0};
        size_t b64 = 4 * ((s.n + 2) / 3);
        char *tmp = e ? NULL : malloc(b64 + 1);
        if (!e && !tmp) e = CZK_ERR_NO_MEMORY;
        if (!e) {
            EVP_EncodeBlock((unsigned char *)tmp, (const unsigned char *)s.b, (int)s.n);
            free(s.b);
            s.b = NULL;
            puts_(&w, "{\"SectorNum\":");
            put_u64(&w, c1->sector_num);
            puts_(&w, ",\"Phase1Out\":\"");
            put(&w, tmp, b64);
            puts_(&w, "\",\"SectorSize\":");
            put_u64(&w, c1->sector_size ? c1->sector_size : c1->proof->sector_size);
            puts_(&w, "}");
            free(tmp);
            if (w.oom) {
                free(w.b);
                e = CZK_ERR_NO_MEMORY;
            } else {
                s = w;
            }
        }
    }
    if (e) {
        free(s.b);
        if (e == CZK_ERR_NO_MEMORY && msg && msglen) snprintf(msg, msglen, "out of memory encoding the C1");
        return e;
    }
    *out = s.b;
    *len = s.n;
    return CZK_OK;
}

/* ---- the largest text (czk_fil_c1_json_max) ----------------------------------------
 *
 * The encoder above, counted instead of written, with every value at its
 * widest: each byte of a 32-byte value 3 digits, each path index arity − 1,
 * each node and column index nodes − 1, SectorNum 20 digits. The literals
 * are the encoder's. */

#define L(s) (sizeof(s) - 1)
#define B32_MAX ((size_t)(2 + 32 * 3 + 31)) /* "[255,…,255]" */

static size_t digits(uint64_t v) {
    size_t n = 1;
    while (v >= 10) v /= 10, n++;
    return n;
}

static size_t levels_max(size_t n, unsigned arity) {
    size_t elem = L("{\"hashes\":[") + (arity - 1) * B32_MAX + (arity - 2) + L("],\"index\":") + digits(arity - 1) +
                  L("}");
    return L("{\"path\":[") + n * elem + (n ? n - 1 : 0) + L("]}");
}

typedef struct {
    czk_fil_proof_kind kind;
    size_t n_base;
    unsigned base, sub, top;
} tree_shape;

static size_t merkle_max(const tree_shape *t) {
    if (t->kind == CZK_FIL_PROOF_SINGLE)
        return L("{\"data\":{\"Single\":{\"root\":") + B32_MAX + L(",\"leaf\":") + B32_MAX + L(",\"path\":") +
               levels_max(t->n_base, t->base) + L("}}}");
    size_t n = (t->kind == CZK_FIL_PROOF_SUB ? L("{\"data\":{\"Sub\":{\"base_proof\":")
                                             : L("{\"data\":{\"Top\":{\"base_proof\":")) +
               levels_max(t->n_base, t->base) + L(",\"sub_proof\":") + levels_max(1, t->sub);
    if (t->kind == CZK_FIL_PROOF_TOP) n += L(",\"top_proof\":") + levels_max(1, t->top);
    return n + L(",\"root\":") + B32_MAX + L(",\"leaf\":") + B32_MAX + L("}}}");
}

static size_t column_max(const czk_fil_seal_proof *p, const tree_shape *c) {
    return L("{\"column\":{\"index\":") + digits(p->nodes - 1) + L(",\"rows\":[") + p->layers * B32_MAX +
           (p->layers - 1) + L("],\"_h\":null},\"inclusion_proof\":") + merkle_max(c) + L("}");
}

static size_t label_max(const czk_fil_seal_proof *p, size_t layer) {
    return L("{\"parents\":[") + CZK_FIL_LABEL_PARENTS * B32_MAX + (CZK_FIL_LABEL_PARENTS - 1) +
           L("],\"layer_index\":") + digits(layer) + L(",\"node\":") + digits(p->nodes - 1) + L("}");
}

size_t czk_fil_c1_json_max(const czk_fil_seal_proof *p, bool envelope) {
    const char *shape = p ? shape_name(p->sector_size) : NULL;
    if (!shape || p->layers < 1 || p->nodes < 2) return 0;
    unsigned lg = 0;
    for (uint64_t x = p->nodes; x > 1; x >>= 1) lg++;
    const tree_shape d = {CZK_FIL_PROOF_SINGLE, lg, 2, 0, 0};
    tree_shape r = {p->tree_top ? CZK_FIL_PROOF_TOP : p->tree_sub ? CZK_FIL_PROOF_SUB : CZK_FIL_PROOF_SINGLE, 0,
                    p->tree_base, p->tree_sub, p->tree_top};
    for (uint64_t x = p->nodes / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1); x > 1;
         x /= p->tree_base)
        r.n_base++;
    size_t labels = 0;
    for (size_t l = 1; l <= p->layers; l++) labels += label_max(p, l);
    const size_t col = column_max(p, &r);
    const size_t vanilla = L("{\"comm_d_proofs\":") + merkle_max(&d) + L(",\"comm_r_last_proof\":") + merkle_max(&r) +
                           L(",\"replica_column_proofs\":{\"c_x\":") + col + L(",\"drg_parents\":[") +
                           CZK_FIL_DRG_PARENTS * col + (CZK_FIL_DRG_PARENTS - 1) + L("],\"exp_parents\":[") +
                           CZK_FIL_EXP_PARENTS * col + (CZK_FIL_EXP_PARENTS - 1) + L("]},\"labeling_proofs\":[") +
                           labels + (p->layers - 1) + L("],\"encoding_proof\":") + label_max(p, p->layers) + L("}");
    const size_t ch = p->challenges_per_partition, parts = p->partitions;
    const size_t partition = L("[") + ch * vanilla + (ch ? ch - 1 : 0) + L("]");
    size_t n = L("{\"registered_proof\":\"") + strlen(p->name) + L("\",\"vanilla_proofs\":{\"") + strlen(shape) +
               L("\":[") + parts * partition + (parts ? parts - 1 : 0) + L("]},\"comm_r\":") + B32_MAX +
               L(",\"comm_d\":") + B32_MAX + L(",\"replica_id\":") + B32_MAX + L(",\"seed\":") + B32_MAX +
               L(",\"ticket\":") + B32_MAX + L("}");
    if (!envelope) return n;
    return L("{\"SectorNum\":") + digits(UINT64_MAX) + L(",\"Phase1Out\":\"") + 4 * ((n + 2) / 3) +
           L("\",\"SectorSize\":") + digits(p->sector_size) + L("}");
}
