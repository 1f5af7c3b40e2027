/* czk — a tiny test harness: checks that count failures, a printed and
 * settable seed (CZK_TEST_SEED), helpers to read vector files. */
#ifndef CZK_TEST_H
#define CZK_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "czk/rng.h"

#define TEST_SKIP 77

extern int test_failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            test_failures++;                                                     \
            if (test_failures <= 20)                                             \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_MSG(cond, ...)                                                     \
    do {                                                                         \
        if (!(cond)) {                                                           \
            test_failures++;                                                     \
            if (test_failures <= 20) {                                           \
                fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                    \
                fputc('\n', stderr);                                             \
            }                                                                    \
        }                                                                        \
    } while (0)

/* Seeds rng from CZK_TEST_SEED or the OS, prints the seed, returns it. */
uint64_t test_seed_rng(czk_rng *rng, const char *test_name);
/* Number of random cases: default_n, scaled by CZK_TEST_SCALE (a float) if set. */
long test_cases(long default_n);
/* Reads a whole file under CZK_VECTORS_DIR into a malloc'd buffer. */
uint8_t *test_read_vector(const char *relpath, size_t *len);
/* Parses hex (no 0x) into out; returns number of bytes or -1. */
long test_hex_decode(uint8_t *out, size_t cap, const char *hex);
/* Finds "name = value" in a vector text file; returns malloc'd value or NULL. */
char *test_vector_value(const char *relpath, const char *name);
/* Prints the summary line and returns the process exit code. */
int test_finish(const char *test_name);

#endif
