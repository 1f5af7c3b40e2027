/* libFuzzer: the SnapDeals vanilla-proof decoder (czk_fil_update_decode,
 * filecoin_update.h) on StackedDrg2KiBV1 (one partition). A 2 KiB sector
 * update is built here (old replica leaf i = i + 1, data leaf i = 3i + 7,
 * comm_c 5, the encoding with rho, whole trees) and its PartitionProof
 * encoded: 15,064 bytes, past run.sh's -max_len, so the first byte picks how
 * the rest is read: even, as the partition's bytes themselves; odd, as
 * (offset u16 LE, xor u8) edits of the valid encoding, then cut to
 * byte 1 · 64 bytes fewer when byte 1 is not 0 (bytes 2… the edits).
 * A refusal is FORMAT, NOT_CANONICAL or MISMATCH with a message and no
 * partitions; an accepted input re-encodes to the same bytes, opens the
 * challenges Challenges::new derives and gives its public inputs. */
#include <openssl/evp.h>

#include "czk/filecoin_update.h"
#include "czk/poseidon.h"
#include "fuzz_common.h"

static const czk_fil_update_proof *P;
static uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
static czk_fil_bytes valid;

static void sha_node(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]) {
    unsigned len = 32;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    FUZZ_ASSERT(c && EVP_DigestInit_ex(c, EVP_sha256(), NULL) && EVP_DigestUpdate(c, a, 32) &&
                EVP_DigestUpdate(c, b, 32) && EVP_DigestFinal_ex(c, out, &len));
    EVP_MD_CTX_free(c);
    out[31] &= 0x3f;
}

/* tree D (binary, 7 rows of 64 … 1) and a TreeR (8-0-0, rows of 64, 8, 1) */
static uint8_t d[7][64][32], r_old[3][64][32], r_new[3][64][32];

static void tree_r(uint8_t t[3][64][32]) {
    for (int l = 1; l < 3; l++)
        for (int i = 0; i < (l == 1 ? 8 : 1); i++) {
            czk_fr ch[8], h;
            for (int j = 0; j < 8; j++) czk_fr_from_bytes_le(&ch[j], t[l - 1][8 * i + j]);
            czk_poseidon_hash(&h, ch, 8);
            czk_fr_to_bytes_le(t[l][i], &h);
        }
}

static void comm_r(uint8_t out[32], const uint8_t root[32]) {
    czk_fr in[2], h;
    czk_fr_from_u64(&in[0], 5);
    czk_fr_from_bytes_le(&in[1], root);
    czk_poseidon_hash(&h, in, 2);
    czk_fr_to_bytes_le(out, &h);
}

static void path(uint8_t (*rows)[64][32], unsigned levels, unsigned arity, uint64_t c, czk_fil_path *p) {
    p->n_levels = levels;
    p->levels = calloc(levels, sizeof *p->levels);
    FUZZ_ASSERT(p->levels);
    for (unsigned l = 0; l < levels; l++, c /= arity) {
        czk_fil_path_level *lv = &p->levels[l];
        lv->arity = (uint8_t)arity;
        lv->index = (uint8_t)(c % arity);
        for (unsigned j = 0, s = 0; j < arity; j++)
            if (j != lv->index) memcpy(lv->siblings[s++], rows[l][c - lv->index + j], 32);
    }
}

static void build(void) {
    P = czk_fil_update_proof_get(0);
    for (int i = 0; i < 64; i++) {
        czk_fr v;
        czk_fr_from_u64(&v, (uint64_t)i + 1);
        czk_fr_to_bytes_le(r_old[0][i], &v);
        czk_fr_from_u64(&v, 3 * (uint64_t)i + 7);
        czk_fr_to_bytes_le(d[0][i], &v);
    }
    for (int l = 1; l < 7; l++)
        for (int i = 0; i < 64 >> l; i++) sha_node(d[l][i], d[l - 1][2 * i], d[l - 1][2 * i + 1]);
    memcpy(comm_d_new, d[6][0], 32);
    tree_r(r_old);
    comm_r(comm_r_old, r_old[2][0]);
    uint8_t phi[32];
    FUZZ_ASSERT(czk_fil_update_phi(comm_d_new, comm_r_old, phi) == CZK_OK);
    for (int i = 0; i < 64; i++) { /* h = 1: rho(phi, i >> 5) */
        uint8_t rho_b[32];
        czk_fr o, x, rho;
        FUZZ_ASSERT(czk_fil_update_rho(phi, (uint32_t)i >> 5, rho_b) == CZK_OK);
        czk_fr_from_bytes_le(&rho, rho_b);
        czk_fr_from_bytes_le(&o, r_old[0][i]);
        czk_fr_from_bytes_le(&x, d[0][i]);
        czk_fr_mul(&x, &x, &rho);
        czk_fr_add(&o, &o, &x);
        czk_fr_to_bytes_le(r_new[0][i], &o);
    }
    tree_r(r_new);
    comm_r(comm_r_new, r_new[2][0]);

    czk_fil_update_partition part = {.registered_proof = 0, .k = 0, .h = 1, .n_apex = 8, .n_challenges = 10};
    memcpy(part.comm_r_old, comm_r_old, 32);
    memcpy(part.comm_d_new, comm_d_new, 32);
    memcpy(part.comm_r_new, comm_r_new, 32);
    czk_fr five;
    czk_fr_from_u64(&five, 5);
    czk_fr_to_bytes_le(part.comm_c, &five);
    memcpy(part.root_r_old, r_old[2][0], 32);
    memcpy(part.root_r_new, r_new[2][0], 32);
    part.apex_leafs = malloc(8 * 32);
    part.challenges = calloc(10, sizeof *part.challenges);
    FUZZ_ASSERT(part.apex_leafs && part.challenges);
    memcpy(part.apex_leafs, d[3], 8 * 32);
    uint64_t ch[10];
    FUZZ_ASSERT(czk_fil_update_challenges(64, comm_r_new, 0, 10, ch) == CZK_OK);
    for (int c = 0; c < 10; c++) {
        czk_fil_update_challenge *x = &part.challenges[c];
        x->node = ch[c];
        memcpy(x->leaf_r_old, r_old[0][ch[c]], 32);
        memcpy(x->leaf_d_new, d[0][ch[c]], 32);
        memcpy(x->leaf_r_new, r_new[0][ch[c]], 32);
        path(r_old, 2, 8, ch[c], &x->path_r_old);
        path(d, 6, 2, ch[c], &x->path_d_new);
        path(r_new, 2, 8, ch[c], &x->path_r_new);
    }
    FUZZ_ASSERT(czk_fil_update_encode_partition(P, &part, &valid) == CZK_OK);
    czk_fil_update_partition_free(&part);
    /* the base of the edits is a valid proof */
    char msg[512] = "";
    czk_fil_update_partition *parts = NULL;
    czk_err e = czk_fil_update_decode(P, comm_r_old, comm_d_new, comm_r_new, &valid, 1, &parts, msg, sizeof msg);
    if (e) fprintf(stderr, "fuzz_update: the built proof is refused: %s\n", msg);
    FUZZ_ASSERT(e == CZK_OK && valid.len == 15064);
    czk_fil_update_partitions_free(parts, 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    build();
    /* the valid proof, unedited; with a flipped byte of each part; its first bytes */
    const uint8_t edits[][5] = {{1, 0, 0, 0, 0}, {1, 0, 3, 1, 1}, {1, 0, 40, 1, 0x10}, {1, 0, 0x40, 2, 0x20},
                                {1, 0, 0x80, 5, 2}, {1, 3, 0, 0, 0}};
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "update-edit-%zu", i);
        fuzz_seed(name, edits[i], i == 0 || i == 5 ? 2 : 5);
    }
    uint8_t *raw = malloc(4097);
    if (raw) {
        raw[0] = 0;
        memcpy(raw + 1, valid.data, 4096);
        fuzz_seed("update-raw", raw, 4097);
        free(raw);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    czk_fil_bytes v;
    uint8_t *buf = NULL;
    if (!(data[0] & 1)) {
        v.data = (uint8_t *)data + 1;
        v.len = size - 1;
    } else {
        buf = malloc(valid.len);
        FUZZ_ASSERT(buf);
        memcpy(buf, valid.data, valid.len);
        for (size_t i = 2; i + 3 <= size; i += 3) {
            size_t at = ((size_t)data[i] | (size_t)data[i + 1] << 8) % valid.len;
            buf[at] ^= data[i + 2];
        }
        v.data = buf;
        v.len = valid.len;
        if (size >= 2 && data[1]) v.len = (size_t)data[1] * 64 < valid.len ? valid.len - (size_t)data[1] * 64 : 0;
    }
    char msg[512] = "";
    czk_fil_update_partition *parts = (czk_fil_update_partition *)&v;
    czk_err e = czk_fil_update_decode(P, comm_r_old, comm_d_new, comm_r_new, &v, 1, &parts, msg, sizeof msg);
    if (e != CZK_OK) {
        FUZZ_ASSERT((e == CZK_ERR_FORMAT || e == CZK_ERR_NOT_CANONICAL || e == CZK_ERR_MISMATCH) && msg[0] &&
                    parts == NULL);
        free(buf);
        return 0;
    }
    uint64_t ch[10];
    FUZZ_ASSERT(czk_fil_update_challenges(64, comm_r_new, 0, 10, ch) == CZK_OK);
    FUZZ_ASSERT(parts[0].n_challenges == 10 && parts[0].n_apex == 8 && parts[0].k == 0 && parts[0].h == 1);
    for (int c = 0; c < 10; c++) FUZZ_ASSERT(parts[0].challenges[c].node == ch[c]);
    czk_fil_bytes again;
    FUZZ_ASSERT(czk_fil_update_encode_partition(P, &parts[0], &again) == CZK_OK);
    FUZZ_ASSERT(again.len == v.len && !memcmp(again.data, v.data, v.len));
    czk_fr in[4];
    size_t n = 0;
    FUZZ_ASSERT(czk_fil_update_public_inputs(P, 0, comm_r_old, comm_d_new, comm_r_new, in, 4, &n, msg, sizeof msg) ==
                    CZK_OK &&
                n == 4);
    free(again.data);
    czk_fil_update_partitions_free(parts, 1);
    free(buf);
    return 0;
}
