/* czk — the command-line tool: dispatch and help. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: czk <command> [options]\n"
            "\n"
            "  demo                                   setup, prove and verify the demo circuit;\n"
            "                                         compute e(G1, G2); print timings\n"
            "  setup   --circuit ID --out DIR [--seed N]\n"
            "                                         write DIR/ID.params, DIR/ID.vk (and DIR/ID.r1cs)\n"
            "                                         development parameters, NOT a trusted setup\n"
            "  prove   --circuit ID --params FILE --input SEED --proof OUT [--public OUT.json]\n"
            "  verify  --vk FILE --proof FILE --public FILE.json\n"
            "                                         prints valid (exit 0) or invalid (exit 1)\n"
            "  export  --format snarkjs --vk FILE [--proof FILE --public FILE.json] --out DIR\n"
            "  params info FILE                       JSON: counts, sizes, validation\n"
            "  circuit info ID                        JSON: constraints, inputs, aux, non-zeros, densities\n"
            "\n"
            "built-in circuits: demo, synthetic-K (K = 10 … 27)\n"
            "environment: CZK_THREADS = worker threads (default: one per CPU)\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "demo")) return cmd_demo(argc, argv);
    if (!strcmp(cmd, "setup")) return cmd_setup(argc, argv);
    if (!strcmp(cmd, "prove")) return cmd_prove(argc, argv);
    if (!strcmp(cmd, "verify")) return cmd_verify(argc, argv);
    if (!strcmp(cmd, "export")) return cmd_export(argc, argv);
    if (!strcmp(cmd, "params") && argc > 2 && !strcmp(argv[2], "info")) return cmd_params_info(argc, argv);
    if (!strcmp(cmd, "circuit") && argc > 2 && !strcmp(argv[2], "info")) return cmd_circuit_info(argc, argv);
    if (!strcmp(cmd, "bench") && argc > 2 && !strcmp(argv[2], "pipeline")) return cmd_bench_pipeline(argc, argv);
    fprintf(stderr, "czk: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return CLI_USAGE;
}
