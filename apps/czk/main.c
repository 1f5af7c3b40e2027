/* czk — the command-line tool. For now: `czk demo` computes e(G1, G2). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "czk/fp.h"
#include "czk/pairing.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_fp(const char *label, const czk_fp *a) {
    uint8_t b[CZK_FP_BYTES];
    czk_fp_to_bytes_be(b, a);
    printf("  %-8s ", label);
    for (int i = 0; i < CZK_FP_BYTES; i++) printf("%02x", b[i]);
    printf("\n");
}

/* e(G1, G2): its 12 Fp coefficients, then the time per pairing. */
static int cmd_demo(void) {
    czk_fp12 e;
    czk_pairing(&e, &CZK_G1_GENERATOR, &CZK_G2_GENERATOR);
    printf("e(G1, G2) =\n");
    const czk_fp6 *half[2] = {&e.c0, &e.c1};
    for (int i = 0; i < 2; i++) {
        const czk_fp2 *f2[3] = {&half[i]->c0, &half[i]->c1, &half[i]->c2};
        for (int j = 0; j < 3; j++) {
            char label[16];
            snprintf(label, sizeof label, "c%d.c%d.c0", i, j);
            print_fp(label, &f2[j]->c0);
            snprintf(label, sizeof label, "c%d.c%d.c1", i, j);
            print_fp(label, &f2[j]->c1);
        }
    }
    int n = 0;
    double t0 = now_s(), t;
    do {
        czk_pairing(&e, &CZK_G1_GENERATOR, &CZK_G2_GENERATOR);
        n++;
        t = now_s() - t0;
    } while (t < 0.5);
    printf("pairing: %.3f ms (mean of %d, one thread, %s multiplication)\n", t / n * 1e3, n,
           czk_fp_get_impl() == CZK_FP_IMPL_ADX ? "mulx/adx" : "portable");
    return 0;
}

static void usage(FILE *f) {
    fprintf(f,
            "usage: czk <command>\n"
            "commands:\n"
            "  demo    compute the pairing e(G1, G2), print it and its time\n"
            "  help    this text\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "demo")) return cmd_demo();
    fprintf(stderr, "czk: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
