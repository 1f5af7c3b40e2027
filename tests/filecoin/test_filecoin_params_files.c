/* The v28 PoRep parameter files:
 * - the 2 KiB and 32 GiB entries against names, digests and sector sizes copied from
 *   rust-fil-proofs filecoin-proofs/parameters.json;
 * - every registered proof's cache identifier, computed from its facts as parameter_cache.rs
 *   cache_identifier and stacked/vanilla/params.rs PublicParams::identifier do, names exactly
 *   the files of its circuit id (so porep_id, API version and feature do not change the circuit);
 *   the same for every registered PoSt and update proof (filecoin_post.h), and the 32 GiB Window
 *   PoSt and update entries copied from parameters.json;
 * - the digest (BLAKE2b-512, first 16 bytes in hex, filecoin-proofs/src/param.rs) on known
 *   inputs, values computed with Python's hashlib.blake2b(data).hexdigest()[:32], in memory and
 *   from a file of more than one read. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "czk/filecoin.h"
#include "test.h"

static void check_file(const char *circuit, uint64_t size, const char *params, const char *params_digest,
                       const char *vk, const char *vk_digest) {
    const czk_fil_params_file *f = czk_fil_params_file_find(circuit);
    CHECK_MSG(f != NULL, "%s missing", circuit);
    if (!f) return;
    CHECK_MSG(f->sector_size == size, "%s: sector size", circuit);
    CHECK_MSG(strcmp(f->params_name, params) == 0, "%s: %s", circuit, f->params_name);
    CHECK_MSG(strcmp(f->params_digest, params_digest) == 0, "%s: params digest", circuit);
    CHECK_MSG(strcmp(f->vk_name, vk) == 0, "%s: %s", circuit, f->vk_name);
    CHECK_MSG(strcmp(f->vk_digest, vk_digest) == 0, "%s: vk digest", circuit);
}

int main(void) {
    check_file("porep-2k", 2048,
               "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
               "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params",
               "434fb1338ecfaf0f59256f30dde4968f",
               "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
               "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk",
               "dc1ade9929ade1708238f155343044ac");
    check_file("porep-32g", 34359738368ull,
               "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
               "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params",
               "6a388072a518cf46ebd661f5cc46900a",
               "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
               "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk",
               "0c7b4aac1c40fdb7eb82bc355b41addf");
    CHECK(czk_fil_params_file_find("porep-1t") == NULL);
    CHECK(czk_fil_params_file_find(NULL) == NULL);
    CHECK(czk_fil_params_file_count() == 22); /* the .params entries of parameters.json */
    /* 32 GiB Window PoSt and sector update, copied from parameters.json */
    check_file("wpost-32g", 34359738368ull,
               "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
               "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params",
               "2cf49eb26f1fee94c85781a390ddb4c8",
               "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
               "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.vk",
               "0f8ec542485568fa3468c066e9fed82b");
    check_file("snap-32g", 34359738368ull,
               "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
               "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params",
               "1b3cfd761a961543f9eb273e435a06a2",
               "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
               "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.vk",
               "3a6941983754737fde880d29c7094905");

    /* every registered proof: the file names follow from its facts */
    for (uint64_t id = 0; id < czk_fil_seal_proof_count(); id++) {
        const czk_fil_seal_proof *p = czk_fil_seal_proof_get(id);
        const czk_fil_params_file *f = czk_fil_params_file_find(p->circuit_id);
        CHECK_MSG(f && f->sector_size == p->sector_size, "%s: no file for %s", p->name, p->circuit_id);
        if (!f) continue;
        char cid[256], want[300];
        CHECK(czk_fil_porep_cache_id(p, cid, sizeof cid) == CZK_OK);
        snprintf(want, sizeof want, "v28-%s.params", cid);
        CHECK_MSG(strcmp(want, f->params_name) == 0, "%s: computed %s", p->name, want);
        snprintf(want, sizeof want, "v28-%s.vk", cid);
        CHECK_MSG(strcmp(want, f->vk_name) == 0, "%s: computed %s", p->name, want);
        CHECK(czk_fil_porep_cache_id(p, cid, 40) == CZK_ERR_INVALID_ARGUMENT);
    }
    for (size_t i = 0; i < czk_fil_params_file_count(); i++) {
        const czk_fil_params_file *f = czk_fil_params_file_at(i);
        CHECK(strlen(f->params_digest) == 32 && strlen(f->vk_digest) == 32);
    }
    CHECK(czk_fil_params_file_at(22) == NULL);

    /* the digest: hashlib.blake2b(b"").hexdigest()[:32], hashlib.blake2b(b"abc")… */
    char d[33];
    CHECK(czk_fil_params_digest("", 0, d) == CZK_OK);
    CHECK_MSG(strcmp(d, "786a02f742015903c6c6fd852552d272") == 0, "empty: %s", d);
    CHECK(czk_fil_params_digest("abc", 3, d) == CZK_OK);
    CHECK_MSG(strcmp(d, "ba80a53f981c4d0d6a2797b69f12f6e9") == 0, "abc: %s", d);
    /* bytes (i·131 + 7) mod 256 for i < 3·2^20 + 12345, in memory and as a file */
    const size_t n = 3 * (1u << 20) + 12345;
    uint8_t *buf = malloc(n);
    CHECK(buf != NULL);
    if (buf) {
        for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i * 131 + 7);
        CHECK(czk_fil_params_digest(buf, n, d) == CZK_OK);
        CHECK_MSG(strcmp(d, "3cf6ed6e2f0b3f716eb456906ca2da54") == 0, "pattern: %s", d);
        char path[] = "/tmp/czk_fil_digestXXXXXX";
        const int fd = mkstemp(path);
        CHECK(fd >= 0);
        if (fd >= 0) {
            CHECK(write(fd, buf, n) == (ssize_t)n);
            close(fd);
            char msg[200] = "";
            CHECK(czk_fil_params_digest_file(path, d, msg, sizeof msg) == CZK_OK);
            CHECK_MSG(strcmp(d, "3cf6ed6e2f0b3f716eb456906ca2da54") == 0, "file: %s (%s)", d, msg);
            unlink(path);
            CHECK(czk_fil_params_digest_file(path, d, msg, sizeof msg) == CZK_ERR_IO && msg[0] && d[0] == 0);
        }
        free(buf);
    }
    return test_finish("test_filecoin_params_files");
}
