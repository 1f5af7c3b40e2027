/* czk — `hash`: the native hashes Filecoin circuits use, for scripts and
 * cross-checks.
 *   czk hash poseidon --arity N X1 … XN   neptune's Poseidon (Merkle-tree
 *                                         domain tag 2^N - 1) of N elements of
 *                                         Fr, each decimal or 0x-hex, canonical
 *   czk hash sha256 --hex DATA            SHA-256 of the bytes DATA (hex)
 * Both print 0x and 64 lowercase hex digits (the Poseidon output as its
 * canonical big-endian value). Bad input exits 2 with a message. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "czk/poseidon.h"

static int hexdigit(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void print_hex(const uint8_t *b, size_t n) {
    printf("0x");
    for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
    printf("\n");
}

/* Parses a decimal or 0x-hex integer into 4 little-endian limbs; false (with
 * *why set) when it is not a number or is >= 2^256. */
static bool parse_u256(const char *s, uint64_t v[4], const char **why) {
    memset(v, 0, 4 * sizeof *v);
    *why = "not a decimal or 0x-hex number";
    if (!*s) return false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        if (!*s) return false;
        for (; *s; s++) {
            int d = hexdigit((unsigned char)*s);
            if (d < 0) return false;
            if (v[3] >> 60) {
                *why = "not canonical (>= r)";
                return false;
            }
            for (int k = 3; k > 0; k--) v[k] = v[k] << 4 | v[k - 1] >> 60;
            v[0] = v[0] << 4 | (uint64_t)d;
        }
        return true;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        unsigned __int128 carry = (unsigned)(*s - '0');
        for (int k = 0; k < 4; k++) {
            unsigned __int128 t = (unsigned __int128)v[k] * 10 + carry;
            v[k] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry) {
            *why = "not canonical (>= r)";
            return false;
        }
    }
    return true;
}

static int hash_poseidon(int argc, char **argv) {
    if (argc < 5 || strcmp(argv[3], "--arity") != 0) {
        fprintf(stderr, "usage: czk hash poseidon --arity N X1 … XN\n");
        return CLI_USAGE;
    }
    uint64_t n;
    if (!cli_parse_u64(argv[4], &n) || n < CZK_POSEIDON_MIN_ARITY || n > CZK_POSEIDON_MAX_ARITY) {
        fprintf(stderr, "czk hash poseidon: --arity must be an integer from %d to %d, not '%s'\n",
                CZK_POSEIDON_MIN_ARITY, CZK_POSEIDON_MAX_ARITY, argv[4]);
        return CLI_USAGE;
    }
    int given = argc - 5;
    if ((uint64_t)given != n) {
        fprintf(stderr, "czk hash poseidon: arity %llu needs %llu elements, got %d\n", (unsigned long long)n,
                (unsigned long long)n, given);
        return CLI_USAGE;
    }
    czk_fr in[CZK_POSEIDON_MAX_ARITY], out;
    for (int i = 0; i < given; i++) {
        uint64_t v[4];
        const char *why;
        if (!parse_u256(argv[5 + i], v, &why) || (why = "not canonical (>= r)", !czk_fr_from_canonical(&in[i], v))) {
            fprintf(stderr, "czk hash poseidon: element %d '%s': %s\n", i + 1, argv[5 + i], why);
            return CLI_USAGE;
        }
    }
    if (czk_poseidon_hash(&out, in, (unsigned)n) != CZK_OK) {
        fprintf(stderr, "czk hash poseidon: cannot compute the constants for arity %llu\n", (unsigned long long)n);
        return CLI_FAIL;
    }
    uint8_t be[CZK_FR_BYTES];
    czk_fr_to_bytes_be(be, &out);
    print_hex(be, sizeof be);
    return CLI_OK;
}

static int hash_sha256(int argc, char **argv) {
    if (argc != 5 || strcmp(argv[3], "--hex") != 0) {
        fprintf(stderr, "usage: czk hash sha256 --hex DATA\n");
        return CLI_USAGE;
    }
    const char *h = argv[4];
    if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X')) h += 2;
    size_t len = strlen(h);
    if (len % 2) {
        fprintf(stderr, "czk hash sha256: DATA has an odd number of hex digits\n");
        return CLI_USAGE;
    }
    uint8_t *data = malloc(len / 2 + 1);
    if (!data) return CLI_FAIL;
    for (size_t i = 0; i < len / 2; i++) {
        int a = hexdigit((unsigned char)h[2 * i]), b = hexdigit((unsigned char)h[2 * i + 1]);
        if (a < 0 || b < 0) {
            fprintf(stderr, "czk hash sha256: DATA is not hex (at character %zu)\n", 2 * i + (a < 0 ? 0 : 1) + 1);
            free(data);
            return CLI_USAGE;
        }
        data[i] = (uint8_t)(a << 4 | b);
    }
    uint8_t md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    int ok = EVP_Digest(data, len / 2, md, &mdlen, EVP_sha256(), NULL);
    free(data);
    if (!ok || mdlen != 32) {
        fprintf(stderr, "czk hash sha256: libcrypto failed\n");
        return CLI_FAIL;
    }
    print_hex(md, mdlen);
    return CLI_OK;
}

int cmd_hash(int argc, char **argv) {
    if (argc >= 3 && !strcmp(argv[2], "poseidon")) return hash_poseidon(argc, argv);
    if (argc >= 3 && !strcmp(argv[2], "sha256")) return hash_sha256(argc, argv);
    fprintf(stderr, "usage: czk hash poseidon --arity N X1 … XN\n"
                    "       czk hash sha256 --hex DATA\n");
    return CLI_USAGE;
}
