/* The v28 parameter files (every entry of parameters.json: PoRep, PoSt, sector update) and their
 * digest. Sources (rust-fil-proofs):
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
    /* PoSt (winning, window) and sector update (SnapDeals; its Poseidon variant only for 32/64 GiB):
     * names from include/czk/filecoin_post.h's cache identifiers */
    {"winning-2k", 2048ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params",
     "82c88066be968bb550a05e30ff6c2413", "QmcSTqDcFVLGGVYz1njhUZ7B6fkKtBumsLUwx4nkh22TzS",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk",
     "ffd79788d614d27919ae5bd2d94eacb6", "QmSTCXF2ipGA3f6muVo6kHc2URSx6PzZxGUqu7uykaH5KU"},
    {"wpost-2k", 2048ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params",
     "7610b9f82bfc88405b7a832b651ce2f6", "QmVxjFRyhmyQaZEtCh7nk2abc7LhFkzhnRX4rcHqCCpikR",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk",
     "0e0958009936b9d5e515ec97b8cb792d", "QmcS5JZs8X3TdtkEBpHAdUYjdNDqcL7fWQFtQz69mpnu2X"},
    {"winning-8m", 8388608ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.params",
     "700171ecf7334e3199437c930676af82", "QmU9SBzJNrcjRFDiFc4GcApqdApN6z9X7MpUr66mJ2kAJP",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.vk",
     "79ebb55f56fda427743e35053edad8fc", "QmbmUMa3TbbW3X5kFhExs6WgC4KeWT18YivaVmXDkB6ANG"},
    {"wpost-8m", 8388608ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.params",
     "c49499bb76a0762884896f9683403f55", "QmdNEL2RtqL52GQNuj8uz6mVj5Z34NVnbaJ1yMyh1oXtBx",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.vk",
     "34d4feeacd9abf788d69ef1bb4d8fd00", "QmUiVYCQUgr6Y13pZFr8acWpSM4xvTXUdcvGmxyuHbKhsc"},
    {"winning-512m", 536870912ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.params",
     "827359440349fe8f5a016e7598993b79", "QmVgCsJFRXKLuuUhT3aMYwKVGNA9rDeR6DCrs7cAe8riBT",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.vk",
     "bd2cd62f65c1ab84f19ca27e97b7c731", "QmfA31fbCWojSmhSGvvfxmxaYCpMoXP95zEQ9sLvBGHNaN"},
    {"wpost-512m", 536870912ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.params",
     "1a7d4a9c8a502a497ed92a54366af33f", "QmUiRx71uxfmUE8V3H9sWAsAXoM88KR4eo1ByvvcFNeTLR",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.vk",
     "4dae975de4f011f101f5a2f86d1daaba", "QmfCeddjFpWtavzfEzZpJfzSajGNwfL4RjFXWAvA9TSnTV"},
    {"winning-32g", 34359738368ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params",
     "d84f79a16fe40e9e25a36e2107bb1ba0", "Qmdtczp7p4wrbDofmHdGhiixn9irAcN77mV9AEHZBaTt1i",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.vk",
     "fc02943678dd119e69e7fab8420e8819", "QmZCvxKcKP97vDAk8Nxs9R1fWtqpjQrAhhfXPoCi1nkDoF"},
    {"wpost-32g", 34359738368ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params",
     "2cf49eb26f1fee94c85781a390ddb4c8", "QmaUmfcJt6pozn8ndq1JVBzLRjRJdHMTPd4foa8iw5sjBZ",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.vk",
     "0f8ec542485568fa3468c066e9fed82b", "QmR9i9KL3vhhAqTBGj1bPPC7LvkptxrH9RvxJxLN1vvsBE"},
    {"winning-64g", 68719476736ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.params",
     "2170a91ad5bae22ea61f2ea766630322", "QmVkrXc1SLcpgcudK5J25HH93QvR9tNsVhVTYHm5UymXAz",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.vk",
     "6d3789148fb6466d07ee1e24d6292fd6", "QmbfQjPD7EpzjhWGmvWAsyN2mAZ4PcYhsf3ujuhU9CSuBm"},
    {"wpost-64g", 68719476736ull,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.params",
     "3810b7780ac0e299b22ae70f1f94c9bc", "QmeAN4vuANhXsF8xP2Lx5j2L6yMSdogLzpcvqCJThRGK1V",
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.vk",
     "59d2bf1857adc59a4f08fcf2afaa916b", "QmWV8rqZLxs1oQN9jxNWmnT1YdgLwCcscv94VARrhHf1T7"},
    {"snap-2k", 2048ull,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params",
     "311f92a3e75036ced01b1c0025f1fa0c", "QmYM6Hg7mjmvA3ZHTsqkss1fkdyDju5dDmLiBZGJ5pz9y9",
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.vk",
     "eadad9784969890d30f2749708c79771", "QmaQsTLL3nc5dw6wAvaioJSBfd1jhQrA2o6ucFf7XeV74P"},
    {"snap-8m", 8388608ull,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63.params",
     "5aedd2cf3e5c0a15623d56a1b43110ad", "QmQiT4qBGodrVNEgVTDXxBNDdPbaD8Ag7Sx3ZTq1zHX79S",
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63.vk",
     "abd80269054d391a734febdac0d2e687", "QmdcpKUQvHM8RFRVKbk1yHfEqMcBzhtFWKRp9SNEmWq37i"},
    {"snap-512m", 536870912ull,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c.params",
     "c3ad7bb549470b82ad52ed070aebb4f4", "Qma5WL6abSqYg9uUQAZ3EHS286bsNsha7oAGsJBD48Bq2q",
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c.vk",
     "994c5b7d450ca9da348c910689f2dc7f", "QmUa7f9JtJMsqJJ3s3ZXk6WyF4xJLE8FiqYskZGgk8GCDv"},
    {"snap-32g", 34359738368ull,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params",
     "1b3cfd761a961543f9eb273e435a06a2", "QmNPc75iEfcahCwNKdqnWLtxnjspUGGR4iscjiz3wP3RtS",
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.vk",
     "3a6941983754737fde880d29c7094905", "QmdFFUe1gcz9MMHc6YW8aoV48w4ckvcERjt7PkydQAMfCN"},
    {"snap-poseidon-32g", 34359738368ull,
     "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params",
     "b69983b5d7a97a20f43b3d5ff2a4ed04", "QmfK4tonETepL6F4kDFdJ3fr72fzRWoRPf3XGMhV3RLX1S",
     "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.vk",
     "1ac05784f304129f74c5184190c1ec78", "QmYCTYJQPu8wgtB2rMZ7HJC9nDx8c1fzYRPdCUiErK4q5a"},
    {"snap-64g", 68719476736ull,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params",
     "1a392e7b759fb18e036c7559b5ece816", "QmUB6xTVjzBQGuDNeyJMrrJ1byk58vhPm8eY2Lv9pgwanp",
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.vk",
     "80e366df2f1011953c2d01c7b7c9ee8e", "Qmd794Jty7k26XJ8Eg4NDEks65Qk8G4GVfGkwqvymv8HAg"},
    {"snap-poseidon-64g", 68719476736ull,
     "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params",
     "a6d4f96e2b641a6d7a1a8e6dc1155c8a", "QmNaaQXfm2NveN2Hf7bJ3udnQB2Qa4moMcUoJYJS6oWL6w",
     "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.vk",
     "8e8fb9e2c56eb5d740d0de135305a7b8", "QmXyeg9hbM7x9dGuUuAS68ozhiFEez4UkPTgwSDCVYKHBw"},
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
