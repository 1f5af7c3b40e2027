/* comm_d: the binary SHA-256 tree over the sector's nodes. Sources (rust-fil-proofs):
 * filecoin-hashers/src/sha256.rs (Sha256Function::hash: the digest with trim_to_fr32, byte 31 &= 0x3f;
 * leaves are not hashed, a node is the hash of left ‖ right, merkletree's default Algorithm::node),
 * filecoin-proofs/src/pieces.rs empty_comm_d and tests/pieces.rs test_compute_comm_d_empty. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin.h"
#include "prim.h"

#define FAIL(code, ...)                                          \
    do {                                                         \
        if (msg && msglen) snprintf(msg, msglen, __VA_ARGS__);   \
        return code;                                             \
    } while (0)

czk_err czk_fil_tree_d_hash(const uint8_t left[32], const uint8_t right[32], uint8_t out[32]) {
    const void *p[2] = {left, right};
    const size_t l[2] = {32, 32};
    uint8_t h[32];
    if (!czk_fil_sha256(p, l, 2, h)) return CZK_ERR_NO_MEMORY;
    h[31] &= 0x3f;
    memcpy(out, h, 32);
    return CZK_OK;
}

czk_err czk_fil_tree_d_root(const uint8_t *leaves, uint64_t n, uint8_t out[32], char *msg, size_t msglen) {
    if (n == 0 || (n & (n - 1)) != 0) FAIL(CZK_ERR_INVALID_ARGUMENT, "%llu leaves: not a power of two",
                                           (unsigned long long)n);
    if (n == 1) {
        memcpy(out, leaves, 32);
        return CZK_OK;
    }
    uint8_t *row = malloc((size_t)(n / 2) * 32);
    if (!row) FAIL(CZK_ERR_NO_MEMORY, "tree_d of %llu leaves", (unsigned long long)n);
    const uint8_t *src = leaves;
    czk_err e = CZK_OK;
    for (uint64_t w = n / 2; w >= 1 && e == CZK_OK; w /= 2) {
        for (uint64_t i = 0; i < w && e == CZK_OK; i++) e = czk_fil_tree_d_hash(src + 64 * i, src + 64 * i + 32, row + 32 * i);
        src = row;
    }
    if (e == CZK_OK) memcpy(out, row, 32);
    free(row);
    if (e != CZK_OK) FAIL(e, "SHA-256 failed");
    return CZK_OK;
}

czk_err czk_fil_comm_d_zero(uint64_t sector_size, uint8_t out[32], char *msg, size_t msglen) {
    if (sector_size < 32 || (sector_size & (sector_size - 1)) != 0)
        FAIL(CZK_ERR_INVALID_ARGUMENT, "sector size %llu: not a power of two of at least 32 bytes",
             (unsigned long long)sector_size);
    uint8_t h[32] = {0};
    for (uint64_t n = sector_size / 32; n > 1; n /= 2)
        if (czk_fil_tree_d_hash(h, h, h) != CZK_OK) FAIL(CZK_ERR_NO_MEMORY, "SHA-256 failed");
    memcpy(out, h, 32);
    return CZK_OK;
}
