/* libFuzzer: czk_vk_decode. A decoded vk must re-encode to the same bytes
 * (the encoding is canonical), and all SRS memory must be released. */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    czk_vk vk;
    for (int k = 0; k < 3; k++) {
        fuzz_vk(&vk, (size_t)k + 1, (uint64_t)k * 10);
        if (k == 2) czk_g1_affine_set_infinity(&vk.alpha_g1);
        size_t len;
        czk_vk_encode(&vk, NULL, 0, &len, NULL, 0);
        uint8_t *buf = malloc(len);
        if (buf && czk_vk_encode(&vk, buf, len, &len, NULL, 0) == CZK_OK) {
            char name[32];
            snprintf(name, sizeof name, "vk-%d", k);
            fuzz_seed(name, buf, len);
        }
        free(buf);
        czk_vk_free(&vk);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char msg[512];
    czk_vk vk;
    czk_err e = czk_vk_decode(&vk, data, size, msg, sizeof msg);
    if (e != CZK_OK) {
        FUZZ_ASSERT(e == CZK_ERR_FORMAT && msg[0] && vk.ic == NULL && vk.n_ic == 0);
        FUZZ_ASSERT(czk_mem_in_use(CZK_MEM_SRS) == 0);
        return 0;
    }
    size_t len;
    uint8_t *buf = malloc(size);
    FUZZ_ASSERT(buf != NULL);
    FUZZ_ASSERT(czk_vk_encode(&vk, buf, size, &len, msg, sizeof msg) == CZK_OK);
    FUZZ_ASSERT(len == size && memcmp(buf, data, size) == 0);
    free(buf);
    czk_vk_free(&vk);
    FUZZ_ASSERT(czk_mem_in_use(CZK_MEM_SRS) == 0);
    return 0;
}
