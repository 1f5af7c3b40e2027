/* comm_d against rust-fil-proofs filecoin-proofs/tests/pieces.rs
 * test_compute_comm_d_empty (the zero sectors of 2048 and 128 bytes, copied
 * as test data), a tree of 8 patterned leaves against Python (hashlib.sha256
 * with byte 31 &= 0x3f per node), the general root of zero leaves equal to
 * the zero comm_d at 2 KiB and 8 MiB, and the argument checks. */
#include <string.h>

#include "czk/filecoin.h"
#include "test.h"

int main(void) {
    static const uint8_t ZERO_2K[32] = {252, 126, 146, 130, 150, 229, 22,  250, 173, 233, 134,
                                        178, 143, 146, 212, 74,  79,  36,  185, 53,  72,  82,
                                        35,  55,  106, 121, 144, 39,  188, 24,  248, 51};
    uint8_t c[32], want[32];
    char msg[128] = "";
    CHECK(czk_fil_comm_d_zero(2048, c, msg, sizeof msg) == CZK_OK);
    CHECK(memcmp(c, ZERO_2K, 32) == 0);
    CHECK(czk_fil_comm_d_zero(128, c, msg, sizeof msg) == CZK_OK);
    CHECK(test_hex_decode(want, 32, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333") == 32);
    CHECK(memcmp(c, want, 32) == 0);

    uint8_t leaves[8 * 32];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 32; j++) leaves[32 * i + j] = j < 31 ? (uint8_t)(i * 37 + j) : 0;
    CHECK(czk_fil_tree_d_root(leaves, 8, c, msg, sizeof msg) == CZK_OK);
    CHECK(test_hex_decode(want, 32, "d0e960f62744603426993fa461339b6bc0c0e6a09caac1803da02e7d421ce129") == 32);
    CHECK(memcmp(c, want, 32) == 0);
    CHECK(czk_fil_tree_d_root(leaves, 1, c, msg, sizeof msg) == CZK_OK && memcmp(c, leaves, 32) == 0);

    const uint64_t sizes[2] = {2048, 8ull << 20};
    for (int s = 0; s < 2; s++) {
        const uint64_t n = sizes[s] / 32;
        uint8_t *z = calloc(n, 32);
        CHECK(z != NULL);
        if (!z) continue;
        uint8_t a[32], b[32];
        CHECK(czk_fil_tree_d_root(z, n, a, msg, sizeof msg) == CZK_OK);
        CHECK(czk_fil_comm_d_zero(sizes[s], b, msg, sizeof msg) == CZK_OK);
        CHECK(memcmp(a, b, 32) == 0);
        free(z);
    }
    CHECK(czk_fil_tree_d_root(leaves, 6, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT && msg[0]);
    CHECK(czk_fil_tree_d_root(leaves, 0, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_comm_d_zero(96, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_fil_comm_d_zero(16, c, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    return test_finish("test_filecoin_comm_d");
}
