#include "test.h"

#include <ctype.h>
#include <string.h>

int test_failures = 0;

uint64_t test_seed_rng(czk_rng *rng, const char *test_name) {
    const char *env = getenv("CZK_TEST_SEED");
    uint64_t seed;
    if (env && *env) {
        seed = strtoull(env, NULL, 0);
    } else if (czk_os_random(&seed, sizeof seed) != CZK_OK) {
        seed = 1;
    }
    printf("%s: seed %llu (set CZK_TEST_SEED to repeat)\n", test_name, (unsigned long long)seed);
    czk_rng_seed(rng, seed);
    return seed;
}

long test_cases(long default_n) {
    const char *env = getenv("CZK_TEST_SCALE");
    if (!env || !*env) return default_n;
    double s = strtod(env, NULL);
    long n = (long)(default_n * s);
    return n < 1 ? 1 : n;
}

uint8_t *test_read_vector(const char *relpath, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CZK_VECTORS_DIR, relpath);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = (size_t)n;
    }
    return buf;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long test_hex_decode(uint8_t *out, size_t cap, const char *hex) {
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

char *test_vector_value(const char *relpath, const char *name) {
    size_t len;
    char *text = (char *)test_read_vector(relpath, &len);
    if (!text) return NULL;
    char *result = NULL;
    size_t nlen = strlen(name);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        while (*line == ' ') line++;
        if (strncmp(line, name, nlen) != 0) continue;
        char *p = line + nlen;
        while (*p == ' ') p++;
        if (*p != '=') continue;
        p++;
        while (*p == ' ') p++;
        size_t vlen = 0;
        while (p[vlen] && !isspace((unsigned char)p[vlen])) vlen++;
        result = malloc(vlen + 1);
        memcpy(result, p, vlen);
        result[vlen] = 0;
        break;
    }
    free(text);
    return result;
}

int test_finish(const char *test_name) {
    if (test_failures) {
        printf("%s: FAILED (%d checks)\n", test_name, test_failures);
        return 1;
    }
    printf("%s: ok\n", test_name);
    return 0;
}
