/* The v28 PoRep parameter files and their digest. Sources (rust-fil-proofs):
 * - names, digests, cids, sector sizes: filecoin-proofs/parameters.json (the same file as the
 *   top-level and storage-proofs-core/parameters.json)
 * - name derivation: storage-proofs-core/src/parameter_cache.rs (VERSION = 28, parameter_id,
 *   verifying_key_id, CacheableParameters::cache_identifier), storage-proofs-porep/src/stacked/
 *   circuit/proof.rs (StackedCompound::cache_prefix), stacked/vanilla/params.rs
 *   (PublicParams::identifier), storage-proofs-core/src/merkle/tree.rs (display)
 * - digest: filecoin-proofs/src/param.rs get_digest_for_file_within_cache and parameter_cache.rs
 *   verify_production_entry: blake2b_simd default State (BLAKE2b-512) over the whole file,
 *   to_hex()[..32] */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin.h"
#include "prim.h"

static const czk_fil_params_file FILES[] = {
    {"porep-2k", 2048ull,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params",
     "434fb1338ecfaf0f59256f30dde4968f", "QmWceMgnWYLopMuM4AoGMvGEau7tNe5UK83XFjH5V9B17h",
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk",
     "dc1ade9929ade1708238f155343044ac", "QmamahpFCstMUqHi2qGtVoDnRrsXhid86qsfvoyCTKJqHr"},
    {"porep-8m", 8388608ull,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.params",
     "09e612e4eeb7a0eb95679a88404f960c", "QmPXAPPuQtuQz7Zz3MHMAMEtsYwqM1o9H1csPLeiMUQwZH",
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.vk",
     "b687beb9adbd9dabe265a7e3620813e4", "QmYCuipFyvVW1GojdMrjK1JnMobXtT4zRCZs1CGxjizs99"},
    {"porep-512m", 536870912ull,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.params",
     "6c77597eb91ab936c1cef4cf19eba1b3", "QmYBpTt7LWNAWr1JXThV5VxX7wsQFLd1PHrGYVbrU1EZjC",
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.vk",
     "065179da19fbe515507267677f02823e", "QmWionkqH2B6TXivzBSQeSyBxojaiAFbzhjtwYRrfwd8nH"},
    {"porep-32g", 34359738368ull,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params",
     "6a388072a518cf46ebd661f5cc46900a", "QmengpM684XLQfG8754ToonszgEg2bQeAGUan5uXTHUQzJ",
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk",
     "0c7b4aac1c40fdb7eb82bc355b41addf", "Qmf93EMrADXAK6CyiSfE8xx45fkMfR3uzKEPCvZC1n2kzb"},
    {"porep-64g", 68719476736ull,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params",
     "1801f8a6e1b00bceb00cc27314bb5ce3", "QmS7ye6Ri2MfFzCkcUJ7FQ6zxDKuJ6J6B8k5PN7wzSR9sX",
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.vk",
     "a89884252c04c298d0b3c81bfd884164", "QmehSmC6BhrgRZakPDta2ewoH9nosNzdjCqQRXsNFNUkLN"},
};
#define NFILES (sizeof FILES / sizeof FILES[0])

size_t czk_fil_params_file_count(void) { return NFILES; }

const czk_fil_params_file *czk_fil_params_file_at(size_t i) { return i < NFILES ? &FILES[i] : NULL; }

const czk_fil_params_file *czk_fil_params_file_find(const char *circuit_id) {
    if (!circuit_id) return NULL;
    for (size_t i = 0; i < NFILES; i++)
        if (strcmp(FILES[i].circuit_id, circuit_id) == 0) return &FILES[i];
    return NULL;
}

static void hex(const uint8_t *b, size_t n, char *out) {
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[b[i] >> 4];
        out[2 * i + 1] = d[b[i] & 15];
    }
    out[2 * n] = 0;
}

czk_err czk_fil_porep_cache_id(const czk_fil_seal_proof *p, char *out, size_t cap) {
    char tree[64], ident[400];
    snprintf(tree, sizeof tree, "merkletree-poseidon_hasher-%u-%u-%u", p->tree_base, p->tree_sub, p->tree_top);
    const int n = snprintf(ident, sizeof ident,
                           "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
                           "base_graph: drgraph::BucketGraph{size: %llu; degree: 6; hasher: poseidon_hasher} }, "
                           "challenges: LayerChallenges { layers: %u, max_count: %u }, tree: %s }",
                           (unsigned long long)p->nodes, p->layers, p->challenges_per_partition, tree);
    if (n < 0 || (size_t)n >= sizeof ident) return CZK_ERR_INVALID_ARGUMENT;
    uint8_t h[32];
    const void *pieces[1] = {ident};
    const size_t lens[1] = {(size_t)n};
    if (!czk_fil_sha256(pieces, lens, 1, h)) return CZK_ERR_NO_MEMORY;
    char hh[65];
    hex(h, 32, hh);
    const int m = snprintf(out, cap, "stacked-proof-of-replication-%s-sha256_hasher-%s", tree, hh);
    return m < 0 || (size_t)m >= cap ? CZK_ERR_INVALID_ARGUMENT : CZK_OK;
}

static void digest_hex(EVP_MD_CTX *md, char out_hex[33], int *ok) {
    uint8_t h[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    *ok = *ok && EVP_DigestFinal_ex(md, h, &len) == 1 && len == 64;
    if (*ok)
        hex(h, 16, out_hex);
    else
        out_hex[0] = 0;
}

czk_err czk_fil_params_digest(const void *data, size_t len, char out_hex[33]) {
    out_hex[0] = 0;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int ok = md && EVP_DigestInit_ex(md, EVP_blake2b512(), NULL) == 1 && EVP_DigestUpdate(md, data, len) == 1;
    if (md) digest_hex(md, out_hex, &ok);
    EVP_MD_CTX_free(md);
    return ok ? CZK_OK : CZK_ERR_NO_MEMORY;
}

czk_err czk_fil_params_digest_file(const char *path, char out_hex[33], char *msg, size_t msglen) {
    out_hex[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (msg && msglen) snprintf(msg, msglen, "cannot open %s", path);
        return CZK_ERR_IO;
    }
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int ok = md && EVP_DigestInit_ex(md, EVP_blake2b512(), NULL) == 1;
    static const size_t CHUNK = 1 << 20;
    uint8_t *buf = ok ? malloc(CHUNK) : NULL;
    czk_err e = CZK_OK;
    if (!buf) {
        e = CZK_ERR_NO_MEMORY;
    } else {
        size_t n;
        while (ok && (n = fread(buf, 1, CHUNK, f)) > 0) ok = EVP_DigestUpdate(md, buf, n) == 1;
        if (ferror(f)) e = CZK_ERR_IO;
        else if (!ok) e = CZK_ERR_NO_MEMORY;
        else digest_hex(md, out_hex, &ok);
        if (e == CZK_OK && !ok) e = CZK_ERR_NO_MEMORY;
    }
    if (e != CZK_OK && msg && msglen)
        snprintf(msg, msglen, "%s: %s", path, e == CZK_ERR_IO ? "read failed" : "BLAKE2b failed");
    free(buf);
    EVP_MD_CTX_free(md);
    fclose(f);
    return e;
}
