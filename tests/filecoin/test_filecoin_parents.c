/* The SDR parent graph against the parent caches rust-fil-proofs publishes in
 * storage-proofs-porep/parent_cache.json: the SHA-256 of the whole cache (14
 * little-endian u32 per node, stacked/vanilla/cache.rs generate) for 2 KiB
 * API 1.0 (StackedDrg2KiBV1), 2 KiB API 1.1 (StackedDrg2KiBV1_1) and 8 MiB
 * API 1.1 (StackedDrg8MiBV1_1), and the cache names (cache.rs cache_path) of
 * all ten published caches (V1 and V1_1 of every size). Also the structure
 * drgraph.rs and graph.rs promise: where the predecessor is, parents below
 * the node, expander parents in range, and the argument checks. */
#include <openssl/evp.h>
#include <pthread.h>
#include <string.h>

#include "czk/filecoin_graph.h"
#include "test.h"

typedef struct {
    const czk_fil_graph *g;
    uint64_t first, count;
    uint8_t *out;
    czk_err e;
} fill_job;

static void *fill(void *arg) {
    fill_job *j = arg;
    j->e = czk_fil_graph_cache_fill(j->g, j->first, j->count, j->out, NULL, 0);
    return NULL;
}

static int graph_of(uint64_t proof, czk_fil_graph *g) {
    const czk_fil_seal_proof *p = czk_fil_seal_proof_get(proof);
    uint8_t pid[32];
    czk_fil_porep_id(p, pid);
    char msg[128] = "";
    const czk_err e = czk_fil_graph_init(g, p->nodes, pid, p->api, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "%s: %s", p->name, msg);
    return e == CZK_OK;
}

/* the cache of the proof's graph, built on two threads, hashed; its first 8 hex digits and the whole */
static void check_cache(uint64_t proof, const char *digest) {
    czk_fil_graph g;
    if (!graph_of(proof, &g)) return;
    const size_t bytes = g.nodes * CZK_FIL_CACHE_ENTRY_BYTES;
    uint8_t *buf = malloc(bytes);
    CHECK(buf != NULL);
    if (!buf) return;
    fill_job jobs[2] = {{&g, 0, g.nodes / 2, buf, CZK_OK},
                        {&g, g.nodes / 2, g.nodes - g.nodes / 2, buf + g.nodes / 2 * CZK_FIL_CACHE_ENTRY_BYTES, CZK_OK}};
    pthread_t th;
    const int threaded = pthread_create(&th, NULL, fill, &jobs[1]) == 0;
    fill(&jobs[0]);
    if (threaded)
        pthread_join(th, NULL);
    else
        fill(&jobs[1]);
    CHECK(jobs[0].e == CZK_OK && jobs[1].e == CZK_OK);
    uint8_t h[32];
    unsigned hl = 0;
    CHECK(EVP_Digest(buf, bytes, h, &hl, EVP_sha256(), NULL) == 1 && hl == 32);
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", h[i]);
    CHECK_MSG(strcmp(hex, digest) == 0, "proof %llu: cache digest %s, published %s", (unsigned long long)proof, hex,
              digest);

    /* structure, on the same cache */
    const int legacy = g.api == CZK_FIL_API_1_0;
    size_t bad_pred = 0, bad_range = 0, bad_first = 0;
    for (uint64_t v = 0; v < g.nodes; v++) {
        uint32_t p[CZK_FIL_DEGREE];
        const uint8_t *e = buf + v * CZK_FIL_CACHE_ENTRY_BYTES;
        for (int i = 0; i < CZK_FIL_DEGREE; i++)
            p[i] = (uint32_t)e[4 * i] | (uint32_t)e[4 * i + 1] << 8 | (uint32_t)e[4 * i + 2] << 16 |
                   (uint32_t)e[4 * i + 3] << 24;
        if (v < 2) {
            for (int i = 0; i < CZK_FIL_DRG_DEGREE; i++) bad_first += p[i] != 0;
        } else {
            bad_pred += p[legacy ? CZK_FIL_DRG_DEGREE - 1 : 0] != v - 1;
            for (int i = 0; i < CZK_FIL_DRG_DEGREE; i++) bad_range += p[i] >= v;
        }
        for (int i = CZK_FIL_DRG_DEGREE; i < CZK_FIL_DEGREE; i++) bad_range += p[i] >= g.nodes;
    }
    CHECK_MSG(bad_first == 0 && bad_pred == 0 && bad_range == 0, "proof %llu: %zu %zu %zu structure faults",
              (unsigned long long)proof, bad_first, bad_pred, bad_range);
    /* czk_fil_graph_parents agrees with the cache */
    uint32_t p[CZK_FIL_DEGREE];
    const uint32_t v = (uint32_t)(g.nodes - 1);
    czk_fil_graph_parents(&g, v, p);
    const uint8_t *e = buf + (uint64_t)v * CZK_FIL_CACHE_ENTRY_BYTES;
    CHECK(p[0] == ((uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16 | (uint32_t)e[3] << 24));
    CHECK(p[13] == ((uint32_t)e[52] | (uint32_t)e[53] << 8 | (uint32_t)e[54] << 16 | (uint32_t)e[55] << 24));
    free(buf);
}

int main(void) {
    /* parent_cache.json "digest" (the README's 8-digit prefixes 3da49221, 84005770, 03cd1356) */
    check_cache(0, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d");
    check_cache(5, "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97");
    check_cache(6, "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab");

    /* parent_cache.json keys, with the sector_size each is recorded under */
    static const struct {
        uint64_t proof;
        const char *name;
    } NAMES[] = {
        {0, "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899"},
        {5, "v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b"},
        {1, "v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc"},
        {6, "v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5"},
        {2, "v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42"},
        {7, "v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34"},
        {3, "v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13"},
        {8, "v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117"},
        {4, "v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6"},
        {9, "v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b"},
    };
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        czk_fil_graph g;
        if (!graph_of(NAMES[i].proof, &g)) continue;
        char name[100];
        CHECK(czk_fil_graph_cache_name(&g, name, sizeof name) == CZK_OK);
        CHECK_MSG(strcmp(name, NAMES[i].name) == 0, "proof %llu: %s", (unsigned long long)NAMES[i].proof, name);
        CHECK(czk_fil_graph_cache_name(&g, name, 79) == CZK_ERR_INVALID_ARGUMENT);
    }

    /* 32 and 64 GiB, API 1.0 and 1.1, nodes 2, 1000003 and the last: parents computed by a
     * second implementation (Python: ChaCha8 written out, hashlib's SHA-256 and BLAKE2b, the
     * bucket sampling with math.log2; it reproduces the 2 KiB v1.1 cache digest too). API 1.0's
     * expander parents stay below 2^29 (the u32 truncation: graph.rs
     * test_graph_distribution_pathology) */
    static const struct {
        uint64_t proof;
        uint32_t node, parents[CZK_FIL_DEGREE];
    } BIG[] = {
        {3, 2u, {0, 0, 1, 0, 0, 1, 400853530, 328272173, 484523968, 337953528, 195912658, 380473339, 445606617, 401399919}},
        {3, 1000003u, {999970, 999991, 999996, 997298, 998722, 1000002, 216111490, 426838775, 443809151, 439057609, 189881240, 53226912, 32878003, 171222118}},
        {3, 1073741823u, {1073717791, 1073729651, 356271464, 1073741667, 1073518238, 1073741822, 195269793, 55928625, 117716005, 370196974, 457529501, 256849605, 282938428, 400621728}},
        {8, 2u, {1, 1, 0, 1, 0, 0, 694934376, 792214855, 560882435, 923855168, 468160064, 444658509, 700174899, 650486437}},
        {8, 1000003u, {1000002, 1000002, 999999, 62089, 999998, 657844, 709623691, 760452288, 856722995, 908371359, 927848101, 769087162, 667996548, 124771347}},
        {8, 1073741823u, {1073741822, 1073258530, 440642413, 663190843, 1073741654, 1073741786, 307718517, 715446084, 558280128, 265147410, 110937796, 626719228, 201839602, 653041812}},
        {4, 2u, {1, 0, 0, 1, 1, 1, 41578211, 98678541, 201847558, 133755553, 343172703, 359045127, 209359854, 387247893}},
        {4, 1000003u, {985899, 995025, 947658, 974169, 972458, 1000002, 128617790, 535648408, 94131270, 107675714, 119415422, 373808342, 379100592, 305909648}},
        {4, 2147483647u, {2141235863, 2147212826, 2147482039, 772148166, 2147483452, 2147483646, 410488621, 225034157, 275186360, 7928278, 248739608, 415470629, 20246382, 24229879}},
        {9, 2u, {1, 1, 0, 1, 0, 0, 712831275, 1199298225, 376978799, 1694222890, 1893784888, 258014408, 1369861727, 1689646049}},
        {9, 1000003u, {1000002, 999588, 999980, 970172, 988282, 631722, 1790000468, 1351193281, 1066383888, 1602921989, 1098842949, 60670926, 566452797, 1271923338}},
        {9, 2147483647u, {2147483646, 2147483645, 2147473607, 2147483646, 2147483609, 1322413322, 319537050, 259923117, 180788485, 1838730986, 786079656, 319786570, 1561782586, 1183784015}},
    };
    for (size_t i = 0; i < sizeof BIG / sizeof BIG[0]; i++) {
        czk_fil_graph g;
        if (!graph_of(BIG[i].proof, &g)) continue;
        uint32_t p[CZK_FIL_DEGREE];
        czk_fil_graph_parents(&g, BIG[i].node, p);
        CHECK_MSG(memcmp(p, BIG[i].parents, sizeof p) == 0, "proof %llu node %u", (unsigned long long)BIG[i].proof,
                  BIG[i].node);
    }

    /* 64 GiB (2^31 nodes): the last node's parents are in range in both versions */
    for (uint64_t proof = 4; proof <= 9; proof += 5) {
        czk_fil_graph g;
        if (!graph_of(proof, &g)) continue;
        uint32_t p[CZK_FIL_DEGREE];
        czk_fil_graph_parents(&g, (uint32_t)(g.nodes - 1), p);
        for (int i = 0; i < CZK_FIL_DEGREE; i++) CHECK(p[i] < g.nodes);
        CHECK(p[proof == 4 ? 5 : 0] == g.nodes - 2);
    }

    /* argument checks */
    czk_fil_graph g;
    uint8_t pid[32] = {0};
    char msg[128] = "";
    CHECK(czk_fil_graph_init(&g, 1, pid, CZK_FIL_API_1_1, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && msg[0]);
    CHECK(czk_fil_graph_init(&g, 1ull << 32, pid, CZK_FIL_API_1_1, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_graph_init(&g, 64, pid, (czk_fil_api)7, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_graph_init(&g, 64, pid, CZK_FIL_API_1_2, msg, sizeof msg) == CZK_OK);
    uint8_t one[CZK_FIL_CACHE_ENTRY_BYTES];
    CHECK(czk_fil_graph_cache_fill(&g, 64, 1, one, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_graph_cache_fill(&g, 63, 1, one, msg, sizeof msg) == CZK_OK);
    CHECK(czk_fil_graph_cache_fill(&g, 64, 0, one, msg, sizeof msg) == CZK_OK);
    return test_finish("test_filecoin_parents");
}
