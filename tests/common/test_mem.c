/* Tagged buffers: zero-filled, counted per tag with high-water marks,
 * resized with contents kept across the small/mapped boundary. */
#include <stdbool.h>
#include <string.h>

#include "czk/mem.h"
#include "test.h"

static bool all_zero(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

int main(void) {
    CHECK(czk_mem_alloc(0, CZK_MEM_AUX) == NULL);
    CHECK(czk_mem_alloc(16, CZK_MEM__COUNT) == NULL);
    size_t sizes[] = {1, 100, 4096, (1u << 20) - 64, 1u << 20, 5u << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint8_t *p = czk_mem_alloc(sizes[i], CZK_MEM_AUX);
        CHECK(p != NULL && ((uintptr_t)p & 63) == 0);
        CHECK(all_zero(p, sizes[i]));
        CHECK(czk_mem_size(p) == sizes[i]);
        CHECK(czk_mem_in_use(CZK_MEM_AUX) == sizes[i] && czk_mem_buffers(CZK_MEM_AUX) == 1);
        memset(p, 0xab, sizes[i]);
        czk_mem_free(p);
        CHECK(czk_mem_in_use(CZK_MEM_AUX) == 0 && czk_mem_buffers(CZK_MEM_AUX) == 0);
    }
    CHECK(czk_mem_high_water(CZK_MEM_AUX) == 5u << 20);

    /* realloc: small -> mapped -> larger -> small, contents kept, new bytes zero */
    uint8_t *p = czk_mem_alloc(1000, CZK_MEM_SYNTH);
    for (int i = 0; i < 1000; i++) p[i] = (uint8_t)i;
    size_t steps[] = {3000, 2u << 20, 9u << 20, 1500, 700};
    size_t have = 1000;
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        uint8_t *q = czk_mem_realloc(p, steps[s]);
        CHECK(q != NULL);
        if (!q) break;
        p = q;
        size_t keep = have < steps[s] ? have : steps[s];
        bool ok = true;
        for (size_t i = 0; i < keep && i < 1000; i++) ok &= p[i] == (uint8_t)i;
        CHECK_MSG(ok, "contents kept at step %zu", s);
        if (steps[s] > have) CHECK(all_zero(p + have, steps[s] - have));
        CHECK(czk_mem_size(p) == steps[s] && czk_mem_in_use(CZK_MEM_SYNTH) == steps[s]);
        have = steps[s];
    }
    czk_mem_free(p);
    czk_mem_free(NULL);
    CHECK(czk_mem_in_use(CZK_MEM_SYNTH) == 0);
    /* a copy to a smaller buffer briefly holds both */
    CHECK(czk_mem_high_water(CZK_MEM_SYNTH) >= 9u << 20 && czk_mem_high_water(CZK_MEM_SYNTH) <= (9u << 20) + 4096);
    CHECK(!strcmp(czk_mem_tag_name(CZK_MEM_ABC), "abc"));
    /* the resident set: a 16 MiB buffer written in full is resident */
    size_t rss, peak, big = (size_t)16 << 20;
    uint8_t *b = czk_mem_alloc(big, CZK_MEM_AUX);
    CHECK(b != NULL);
    if (b) memset(b, 1, big);
    czk_mem_process_rss(&rss, &peak);
    CHECK_MSG(rss >= big && peak >= rss, "rss %zu, peak %zu with 16 MiB written", rss, peak);
    czk_mem_free(b);
    return test_finish("test_mem");
}
