/* libFuzzer: the C1 decoder (filecoin_c1.h), bare JSON and cuzk's envelope.
 * A refusal is FORMAT, NOT_CANONICAL or NOT_FOUND with a message and a
 * zeroed result; an accepted input re-encodes (bare and enveloped) to text
 * that decodes to the same encoding again, and its size is computable. */
#include "czk/filecoin_c1.h"
#include "fuzz_common.h"

static const char *const SEEDS[] = {
    "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[]},"
    "\"comm_r\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,0],"
    "\"comm_d\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"
    "\"replica_id\":[9,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,63],"
    "\"seed\":[255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,"
    "255,255,255,255,255],\"ticket\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,7]}",
    "{\"registered_proof\":\"StackedDrg32GiBV1_1\",\"vanilla_proofs\":{\"StackedDrg32GiBV1\":[[],[]]}}",
    "{\"SectorNum\":7,\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29mIjoiU3RhY2tlZERyZzJLaUJWMSJ9\",\"SectorSize\":2048}",
    "{\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[{\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[0,0,0,0,0,0,0,0,0,0,"
    "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"leaf\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
    "0,0,0],\"path\":{\"path\":[{\"hashes\":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]],"
    "\"index\":1}]}}}},\"replica_column_proofs\":{\"c_x\":{\"column\":{\"index\":3,\"rows\":[[0,0,0,0,0,0,0,0,0,0,0,0,0,"
    "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Sub\":{\"base_proof\":{"
    "\"path\":[]},\"sub_proof\":{\"path\":[]},\"root\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
    "0],\"leaf\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}}}}}}]]}}",
    "{\"labeling_proofs\":[{\"parents\":[],\"layer_index\":1,\"node\":18446744073709551615}],"
    "\"encoding_proof\":{\"parents\":[[0,0]],\"layer_index\":4294967296}}",
    "{\"a\":[1,-2.5e3,true,false,null,\"\\u00e9\\ud83d\\ude00\\\"\"],\"b\":{}}",
};

/* A whole C1 of one partition and one challenge (one row, one-level paths),
 * made by the encoder: about 12 KB, past run.sh's -max_len, for longer runs. */
static void seed_whole(void) {
    static czk_fil_path_level lv[CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS + 3];
    static uint8_t rows[CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS][1][32];
    static czk_fil_porep_challenge ch;
    static czk_fil_c1_claims cl;
    static czk_fil_porep_partition part;
    static czk_fil_c1_claims *clp = &cl;
    czk_fil_c1 c1;
    memset(&c1, 0, sizeof c1);
    for (size_t i = 0; i < sizeof lv / sizeof *lv; i++) lv[i].arity = 2, lv[i].index = (uint8_t)(i & 1);
    czk_fil_path *paths[3] = {&ch.comm_d_path, &ch.comm_r_last_path, &ch.comm_c_path};
    for (int i = 0; i < 3; i++) paths[i]->n_levels = 1, paths[i]->levels = &lv[i];
    czk_fil_c1_merkle *ms[3] = {&cl.comm_d, &cl.comm_r_last, &cl.c_x};
    for (int i = 0; i < 3; i++) ms[i]->n_base = 1;
    for (int j = 0; j < CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS; j++) {
        czk_fil_column *col = j < CZK_FIL_DRG_PARENTS ? &ch.drg_parents[j] : &ch.exp_parents[j - CZK_FIL_DRG_PARENTS];
        col->index = (uint32_t)j;
        col->n_rows = 1;
        col->rows = rows[j];
        col->path.n_levels = 1;
        col->path.levels = &lv[3 + j];
        (j < CZK_FIL_DRG_PARENTS ? &cl.drg[j] : &cl.exp[j - CZK_FIL_DRG_PARENTS])->n_base = 1;
    }
    cl.n_rows = 1;
    ch.node = 5;
    part.n_challenges = 1;
    part.challenges = &ch;
    c1.proof = czk_fil_seal_proof_get(5);
    c1.n_partitions = 1;
    c1.partitions = &part;
    c1.claims = &clp;
    char *t, msg[256];
    size_t n;
    if (czk_fil_c1_encode(&c1, false, &t, &n, msg, sizeof msg) == CZK_OK) {
        fuzz_seed("c1-whole", t, n);
        free(t);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    seed_whole();
    for (size_t i = 0; i < sizeof SEEDS / sizeof *SEEDS; i++) {
        char name[32];
        snprintf(name, sizeof name, "c1-%zu", i);
        fuzz_seed(name, SEEDS[i], strlen(SEEDS[i]));
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char msg[512];
    czk_fil_c1 c1;
    czk_err e = czk_fil_c1_decode(&c1, data, size, msg, sizeof msg);
    if (e != CZK_OK) {
        FUZZ_ASSERT((e == CZK_ERR_FORMAT || e == CZK_ERR_NOT_CANONICAL || e == CZK_ERR_NOT_FOUND) && msg[0]);
        FUZZ_ASSERT(c1.partitions == NULL && c1.claims == NULL && c1.n_partitions == 0 && c1.proof == NULL);
        return 0;
    }
    FUZZ_ASSERT(c1.proof != NULL);
    (void)czk_fil_c1_bytes(&c1);
    for (int env = 0; env < 2; env++) {
        char *a, *b;
        size_t na, nb;
        czk_fil_c1 d;
        FUZZ_ASSERT(czk_fil_c1_encode(&c1, env, &a, &na, msg, sizeof msg) == CZK_OK);
        FUZZ_ASSERT(czk_fil_c1_decode(&d, a, na, msg, sizeof msg) == CZK_OK);
        FUZZ_ASSERT(d.n_partitions == c1.n_partitions && d.proof == c1.proof && d.enveloped == env);
        FUZZ_ASSERT(czk_fil_c1_encode(&d, env, &b, &nb, msg, sizeof msg) == CZK_OK);
        FUZZ_ASSERT(na == nb && memcmp(a, b, na) == 0);
        free(a);
        free(b);
        czk_fil_c1_free(&d);
    }
    czk_fil_c1_free(&c1);
    return 0;
}
