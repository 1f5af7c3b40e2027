/* Shared by the libFuzzer harnesses: seed files written into the corpus
 * directory named by CZK_FUZZ_SEED_DIR (run.sh sets it), and a trap that
 * turns a broken invariant into a crash libFuzzer reports. */
#ifndef CZK_FUZZ_COMMON_H
#define CZK_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/g1.h"
#include "czk/g2.h"
#include "czk/groth16.h"
#include "czk/groth16_io.h"
#include "czk/mem.h"

#define FUZZ_ASSERT(c)                                                              \
    do {                                                                            \
        if (!(c)) {                                                                 \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #c); \
            abort();                                                                \
        }                                                                           \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static inline void fuzz_seed(const char *name, const void *p, size_t n) {
    const char *dir = getenv("CZK_FUZZ_SEED_DIR");
    if (!dir || !*dir) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(p, 1, n, f);
    fclose(f);
}

/* k·G1 and k·G2 for small k: subgroup points without randomness. */
static inline void fuzz_g1(czk_g1_affine *out, uint64_t k) {
    czk_g1 g, r;
    czk_g1_from_affine(&g, &CZK_G1_GENERATOR);
    czk_g1_mul(&r, &g, &k, 1);
    czk_g1_to_affine(out, &r);
}

static inline void fuzz_g2(czk_g2_affine *out, uint64_t k) {
    czk_g2 g, r;
    czk_g2_from_affine(&g, &CZK_G2_GENERATOR);
    czk_g2_mul(&r, &g, &k, 1);
    czk_g2_to_affine(out, &r);
}

static inline void fuzz_vk(czk_vk *vk, size_t n_ic, uint64_t base) {
    fuzz_g1(&vk->alpha_g1, base + 1);
    fuzz_g1(&vk->beta_g1, base + 2);
    fuzz_g2(&vk->beta_g2, base + 3);
    fuzz_g2(&vk->gamma_g2, base + 4);
    fuzz_g1(&vk->delta_g1, base + 5);
    fuzz_g2(&vk->delta_g2, base + 6);
    vk->n_ic = n_ic;
    vk->ic = n_ic ? czk_mem_alloc(n_ic * sizeof *vk->ic, CZK_MEM_SRS) : NULL;
    for (size_t i = 0; i < n_ic; i++) fuzz_g1(&vk->ic[i], base + 7 + i);
}

#endif
