/* libFuzzer: the PoSt vanilla-proof decoder (czk_fil_post_decode,
 * filecoin_post_input.h). The first byte picks the registered proof
 * (winning-2k, wpost-2k V1 or V1_2) and the partition index (0 … 3), the
 * rest is one bincode FallbackPoStSectorProof (WindowPoSt: split in two
 * sectors at the second byte's fraction when bit 7 of the first is set).
 * A refusal is FORMAT, NOT_CANONICAL, MISMATCH or INVALID_ARGUMENT with a
 * message and a zeroed partition; an accepted input has its sectors'
 * challenges and their paths' indices equal, re-encodes to the same bytes,
 * and gives its public inputs. Seeds: valid proofs of a whole 2 KiB tree. */
#include "czk/filecoin_post_input.h"
#include "czk/poseidon.h"
#include "fuzz_common.h"

static const uint64_t IDS[3] = {0, 5, 10};
static const uint8_t RAND[32] = {7, 1, 2, 3};

/* A whole 2 KiB tree_r_last: leaf i = i + 1, levels of 8. */
static czk_fr leaf[64], mid[8], root;

static void tree(void) {
    for (int i = 0; i < 64; i++) czk_fr_from_u64(&leaf[i], (uint64_t)i + 1);
    for (int j = 0; j < 8; j++) czk_poseidon_hash(&mid[j], &leaf[8 * j], 8);
    czk_poseidon_hash(&root, mid, 8);
}

static void path_of(uint64_t c, czk_fil_path *p, czk_fil_path_level lv[2], uint8_t out_leaf[32]) {
    p->n_levels = 2;
    p->levels = lv;
    const czk_fr *rows[2] = {&leaf[c / 8 * 8], mid};
    const unsigned at[2] = {(unsigned)(c % 8), (unsigned)(c / 8)};
    for (int l = 0; l < 2; l++) {
        lv[l].arity = 8;
        lv[l].index = (uint8_t)at[l];
        for (unsigned j = 0, s = 0; j < 8; j++)
            if (j != at[l]) czk_fr_to_bytes_le(lv[l].siblings[s++], &rows[l][j]);
    }
    czk_fr_to_bytes_le(out_leaf, &leaf[c]);
}

static void seed_proof(uint8_t sel, uint64_t sid, uint32_t k, uint64_t i) {
    const czk_fil_post_proof *p = czk_fil_post_proof_get(IDS[sel % 3]);
    const bool winning = p->kind == CZK_FIL_POST_WINNING;
    static czk_fil_path paths[66];
    static czk_fil_path_level lv[66][2];
    static uint8_t leaves[66][32];
    uint64_t ch[66];
    if (winning)
        for (size_t c = 0; c < 66; c++) czk_fil_post_sector_leaf_challenges(p, RAND, sid, 0, c, &ch[c]);
    else
        czk_fil_post_sector_leaf_challenges(p, RAND, sid, k, i, ch);
    for (size_t c = 0; c < p->challenge_count; c++) path_of(ch[c], &paths[c], lv[c], leaves[c]);
    uint8_t comm_c[32] = {5}, comm_r_last[32], comm_r[32];
    czk_fr_to_bytes_le(comm_r_last, &root);
    czk_fr in[2], r;
    czk_fr_from_u64(&in[0], 5);
    in[1] = root;
    czk_poseidon_hash(&r, in, 2);
    czk_fr_to_bytes_le(comm_r, &r);
    czk_fil_bytes b;
    if (czk_fil_post_encode_sector_proof(p, sid, comm_r, comm_c, comm_r_last, p->challenge_count,
                                         (const uint8_t(*)[32])leaves, paths, &b) != CZK_OK)
        return;
    uint8_t *all = malloc(b.len + 1);
    if (all) {
        all[0] = (uint8_t)(sel | (uint8_t)(k << 2));
        memcpy(all + 1, b.data, b.len);
        char name[32];
        snprintf(name, sizeof name, "post-%u-%u", sel, k);
        fuzz_seed(name, all, b.len + 1);
        free(all);
    }
    free(b.data);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    tree();
    seed_proof(1, 11, 0, 0); /* wpost-2k V1 */
    seed_proof(2, 12, 3, 0); /* wpost-2k V1_2, partition 3 */
    seed_proof(0, 13, 0, 0); /* winning-2k: 66 proofs, past run.sh's -max_len */
    fuzz_seed("post-short", "\x01\x0b\0\0\0\0\0\0\0", 9);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    const czk_fil_post_proof *p = czk_fil_post_proof_get(IDS[(data[0] & 3) % 3]);
    const uint32_t k = (data[0] >> 2) & 3;
    czk_fil_bytes v[2] = {{(uint8_t *)data + 1, size - 1}, {NULL, 0}};
    size_t n = 1;
    if ((data[0] & 0x80) && p->kind == CZK_FIL_POST_WINDOW) {
        const size_t cut = (size - 1) * data[1] / 256;
        v[0].len = cut;
        v[1].data = (uint8_t *)data + 1 + cut;
        v[1].len = size - 1 - cut;
        n = 2;
    }
    char msg[512];
    czk_fil_post_partition part;
    czk_err e = czk_fil_post_decode(p, 1000, k, RAND, v, n, &part, msg, sizeof msg);
    if (e != CZK_OK) {
        FUZZ_ASSERT((e == CZK_ERR_FORMAT || e == CZK_ERR_NOT_CANONICAL || e == CZK_ERR_MISMATCH ||
                     e == CZK_ERR_INVALID_ARGUMENT) && msg[0]);
        static const czk_fil_post_partition z;
        FUZZ_ASSERT(!memcmp(&part, &z, sizeof z));
        return 0;
    }
    const bool winning = p->kind == CZK_FIL_POST_WINNING;
    FUZZ_ASSERT(part.n_sectors == (winning ? 66 : n));
    for (size_t i = 0; i < part.n_sectors; i++)
        for (size_t c = 0; c < part.sectors[i].n_challenges; c++)
            FUZZ_ASSERT(part.sectors[i].paths[c].n_levels == 2 &&
                        part.sectors[i].paths[c].levels[0].index + 8u * part.sectors[i].paths[c].levels[1].index ==
                            part.sectors[i].challenges[c]);
    if (!winning)
        for (size_t i = 0; i < n; i++) {
            const czk_fil_post_sector *s = &part.sectors[i];
            czk_fil_bytes b;
            FUZZ_ASSERT(czk_fil_post_encode_sector_proof(p, s->sector_id, s->comm_r, s->comm_c, s->comm_r_last,
                                                         s->n_challenges, (const uint8_t(*)[32])s->leaves, s->paths,
                                                         &b) == CZK_OK);
            FUZZ_ASSERT(b.len == v[i].len && !memcmp(b.data, v[i].data, b.len));
            free(b.data);
        }
    czk_fr in[132];
    size_t m = 0;
    FUZZ_ASSERT(czk_fil_post_public_inputs(p, &part, in, 132, &m, msg, sizeof msg) == CZK_OK &&
                m == czk_fil_post_input_count(p));
    (void)czk_fil_post_partition_bytes(&part);
    czk_fil_post_partition_free(&part);
    return 0;
}
