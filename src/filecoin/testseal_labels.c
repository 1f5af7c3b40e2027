/* czk — the test sealer's derived values and the columns a sparse seal
 * opens (testseal_internal.h): challenged nodes' labels by create_label
 * (czk_fil_label_hash) of their parents' labels, all other labels arbitrary.
 * Cost: layers · challenged create_label calls and 15 columns per
 * challenge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/fr.h"
#include "czk/poseidon.h"
#include "prim.h"
#include "testseal_internal.h"

#define FAIL(code, ...)                                        \
    do {                                                       \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__); \
        return code;                                           \
    } while (0)

static void le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void czk_fil_ts_derive(const char *what, uint64_t seed, uint8_t out[32]) {
    char dst[64];
    int n = snprintf(dst, sizeof dst, "czk-testseal/%s", what);
    uint8_t s[8];
    le64(s, seed);
    const void *p[2] = {dst, s};
    const size_t l[2] = {(size_t)n, 8};
    if (!czk_fil_sha256(p, l, 2, out)) memset(out, 0, 32); /* libcrypto out of memory: still canonical */
    out[31] &= 0x3f;
}

void czk_fil_ts_arbitrary(uint64_t seed, uint32_t tag, uint32_t a, uint64_t b, uint8_t out[32]) {
    static const char dst[] = "czk-testseal/fill";
    uint8_t m[24];
    le64(m, seed);
    for (int i = 0; i < 4; i++) m[8 + i] = (uint8_t)(tag >> (8 * i));
    for (int i = 0; i < 4; i++) m[12 + i] = (uint8_t)(a >> (8 * i));
    le64(m + 16, b);
    const void *p[2] = {dst, m};
    const size_t l[2] = {sizeof dst - 1, sizeof m};
    if (!czk_fil_sha256(p, l, 2, out)) memset(out, 0, 32);
    out[31] &= 0x3f;
}

czk_err czk_fil_ts_column_hash(const uint8_t (*rows)[32], uint32_t n, uint8_t out[32]) {
    czk_fr in[CZK_POSEIDON_MAX_ARITY], h;
    if (n < CZK_POSEIDON_MIN_ARITY || n > CZK_POSEIDON_MAX_ARITY) return CZK_ERR_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < n; i++)
        if (!czk_fr_from_bytes_le(&in[i], rows[i])) return CZK_ERR_NOT_CANONICAL;
    czk_err e = czk_poseidon_hash(&h, in, n);
    if (e == CZK_OK) czk_fr_to_bytes_le(out, &h);
    return e;
}

static int by_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* sorts and removes duplicates; returns the new length */
static size_t sort_unique(uint64_t *v, size_t n) {
    qsort(v, n, sizeof *v, by_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i]) v[m++] = v[i];
    return m;
}

static size_t find_index(const uint64_t *v, size_t n, uint64_t x) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == x ? lo : SIZE_MAX;
}

const uint8_t (*czk_fil_ts_columns_find(const czk_fil_ts_columns *c, uint64_t node))[32] {
    size_t i = find_index(c->node, c->n, node);
    return i == SIZE_MAX ? NULL : (const uint8_t(*)[32])c->rows[i * c->layers];
}

void czk_fil_ts_columns_free(czk_fil_ts_columns *c) {
    free(c->node);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

czk_err czk_fil_ts_columns_sparse(czk_fil_ts_columns *out, const czk_fil_graph *g, const uint8_t replica_id[32],
                                  uint32_t layers, uint64_t seed, const uint64_t *challenged, size_t n_challenged,
                                  uint64_t *hashed, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (layers < 1 || n_challenged == 0) FAIL(CZK_ERR_INVALID_ARGUMENT, "sparse labels: %u layers, %zu challenges",
                                              layers, n_challenged);
    uint64_t *s = malloc(n_challenged * sizeof *s);
    uint64_t *cols = malloc(n_challenged * (1 + CZK_FIL_DEGREE) * sizeof *cols);
    if (!s || !cols) {
        free(s);
        free(cols);
        FAIL(CZK_ERR_NO_MEMORY, "sparse labels: %zu challenges", n_challenged);
    }
    for (size_t i = 0; i < n_challenged; i++) {
        if (challenged[i] >= g->nodes) {
            free(s);
            free(cols);
            FAIL(CZK_ERR_INVALID_ARGUMENT, "sparse labels: node %llu outside %llu", (unsigned long long)challenged[i],
                 (unsigned long long)g->nodes);
        }
        s[i] = challenged[i];
    }
    size_t ns = sort_unique(s, n_challenged), nc = 0;
    for (size_t i = 0; i < ns; i++) {
        uint32_t par[CZK_FIL_DEGREE];
        czk_fil_graph_parents(g, (uint32_t)s[i], par);
        cols[nc++] = s[i];
        for (int k = 0; k < CZK_FIL_DEGREE; k++) cols[nc++] = par[k];
    }
    nc = sort_unique(cols, nc);
    uint8_t(*rows)[32] = malloc(nc * layers * sizeof *rows);
    if (!rows) {
        free(s);
        free(cols);
        FAIL(CZK_ERR_NO_MEMORY, "sparse labels: %zu columns", nc);
    }
    for (size_t i = 0; i < nc; i++)
        for (uint32_t l = 1; l <= layers; l++)
            czk_fil_ts_arbitrary(seed, CZK_FIL_TS_TAG_LABEL, l, cols[i], rows[i * layers + l - 1]);
    /* Layer by layer, nodes ascending: a DRG parent (below the node, same
     * layer) and an expander parent (layer below) are final when read. */
    czk_err e = CZK_OK;
    for (uint32_t l = 1; l <= layers && e == CZK_OK; l++)
        for (size_t i = 0; i < ns && e == CZK_OK; i++) {
            uint32_t par[CZK_FIL_DEGREE];
            uint8_t pl[CZK_FIL_DEGREE][32];
            czk_fil_graph_parents(g, (uint32_t)s[i], par);
            for (int k = 0; k < CZK_FIL_DEGREE; k++) {
                size_t j = find_index(cols, nc, par[k]);
                uint32_t layer = k < CZK_FIL_DRG_DEGREE ? l : l - 1;
                if (layer >= 1) memcpy(pl[k], rows[j * layers + layer - 1], 32);
                else memset(pl[k], 0, 32); /* layer 1 reads no expander parent */
            }
            size_t me = find_index(cols, nc, s[i]);
            e = czk_fil_label_hash(replica_id, l, s[i], (const uint8_t(*)[32])pl, rows[me * layers + l - 1]);
            if (hashed) (*hashed)++;
        }
    free(s);
    if (e != CZK_OK) {
        free(cols);
        free(rows);
        FAIL(e, "sparse labels: create_label failed");
    }
    out->layers = layers;
    out->n = nc;
    out->node = cols;
    out->rows = rows;
    return CZK_OK;
}
