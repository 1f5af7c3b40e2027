/* libFuzzer: the public.json parser. Every accepted value must survive a
 * decimal round trip. */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    static const char *seeds[] = {
        "[]",
        "[\"1\", \"2\", \"3\"]",
        "[\"52435875175126190479447740508185965837690552500527637822603658699938581184512\"]",
        "[\"0\", \"000123\", \"18446744073709551616\"]",
        "[\"1\", 2, null, [\"3\"], {\"a\": \"4\"}]",
    };
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        char name[32];
        snprintf(name, sizeof name, "public-%zu", i);
        fuzz_seed(name, seeds[i], strlen(seeds[i]));
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char msg[512];
    czk_fr *v;
    size_t n;
    czk_err e = czk_public_parse_json(&v, &n, (const char *)data, size, msg, sizeof msg);
    if (e != CZK_OK) {
        FUZZ_ASSERT(e == CZK_ERR_FORMAT && msg[0] && v == NULL && n == 0);
        return 0;
    }
    FUZZ_ASSERT((n == 0) == (v == NULL));
    for (size_t i = 0; i < n; i++) {
        char d[CZK_FR_DECIMAL_MAX];
        czk_fr back;
        czk_fr_to_decimal(d, &v[i]);
        FUZZ_ASSERT(czk_fr_from_decimal(&back, d, strlen(d), msg, sizeof msg) == CZK_OK);
        FUZZ_ASSERT(czk_fr_equal(&back, &v[i]));
    }
    free(v);
    return 0;
}
