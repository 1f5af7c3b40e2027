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
            "  setup   --circuit ID --out DIR [--seed N] [--gpu [--device N]]\n"
            "                                         write DIR/ID.params, DIR/ID.vk (and DIR/ID.r1cs; with\n"
            "                                         --gpu the points are made on a GPU and streamed to\n"
            "                                         the files, no .r1cs)\n"
            "                                         development parameters, NOT a trusted setup; for a\n"
            "                                         Filecoin circuit (porep-2k …) under Filecoin's v28\n"
            "                                         file names, never over an existing file\n"
            "  prove   --circuit ID --params FILE --input SEED --proof OUT [--public OUT.json]\n"
            "  verify  --vk FILE --proof FILE --public FILE.json | --c1 C1.json | --request FILE\n"
            "                                         prints valid (exit 0) or invalid (exit 1); with --c1 the\n"
            "                                         PoRep partition proofs, inputs computed as verify_seal does;\n"
            "                                         --request: a request file's, inputs from its public data\n"
            "  export  --format snarkjs --vk FILE [--proof FILE --public FILE.json] --out DIR\n"
            "  check   --request FILE [--partition K] | --c1 C1.json --miner-id M [--sector-number S]\n"
            "                                         a Filecoin request (proto3 JSON of SubmitProofRequest) decoded\n"
            "                                         and validated as czkd does, each partition synthesized in\n"
            "                                         CHECK mode: satisfied (exit 0) or the first failing\n"
            "                                         constraint (exit 1); no parameters, no daemon\n"
            "  params info FILE                       JSON: counts, sizes, validation\n"
            "  params check DIR                       each Filecoin v28 file in DIR: Filecoin's, development\n"
            "                                         or corrupt (its digest against parameters.json's)\n"
            "  circuit info ID                        JSON: constraints, inputs, aux, non-zeros, densities\n"
            "  hash    poseidon --arity N X1 … XN | sha256 --hex DATA\n"
            "  testseal --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB --registered-proof N --miner-id M\n"
            "          --sector-number S --seed X --out DIR [--sparse] [--data FILE] [--ticket HEX]\n"
            "          [--request-out FILE]\n"
            "                                         a test sector's C1: DIR/c1.json, DIR/envelope.json (full\n"
            "                                         SDR up to 8 MiB; --sparse: only what the challenges open);\n"
            "                                         --data: the sector's fr32-padded bytes (zero-extended),\n"
            "                                         --ticket: 32 bytes hex, as given; --request-out: Curio's\n"
            "                                         PoRep request for it (proto3 JSON, for check --request)\n"
            "  testseal --kind winning|window --registered-proof N --miner-id M [--partition K] [--sectors N] --seed X [--sparse] --request-out FILE: a test PoSt request\n"
            "  testseal --kind snap --registered-proof N --seed X [--sparse] --request-out FILE: a test SnapDeals request\n"
            "\n"
            "built-in circuits: demo, synthetic-K (K = 10 … 27), gadget-sha256-block, gadget-sha256-512,\n"
            "                   gadget-poseidon-N (N = 2, 4, 8, 11), gadget-insert-N (N = 2, 4, 8);\n"
            "                   Filecoin's PoRep C2: porep-2k, porep-8m, porep-512m, porep-32g, porep-64g\n"
            "environment: CZK_THREADS = worker threads (default: one per CPU)\n");
#ifdef CZK_HAVE_SERVER
    fprintf(f,
            "\n"
            "client commands (a czkd at --addr host:port or unix:///path; default $CZK_ADDR,\n"
            "else 127.0.0.1:9820):\n"
            "  prove   --addr A --circuit ID --input SEED [--proof OUT] [--public OUT.json]\n"
            "          [--request-id R] [--priority low|normal|high|critical] [--vk FILE | --param-cache DIR]\n"
            "                                         prove remotely (Prove); with --vk or a parameter cache,\n"
            "                                         verify the proof here (prints valid)\n"
            "  prove   --addr A --c1 C1.json --miner-id M [--sector-number S] [--registered-proof N]\n"
            "          [--proof OUT] [--vk FILE | --param-cache DIR] [--request-id R] [--write-envelope OUT]\n"
            "                                         PoRep C2 as Curio asks for it: C1.json is cuzk's envelope\n"
            "                                         or the bare C1 JSON (then --sector-number is needed);\n"
            "                                         flags that disagree with it are refused; request id\n"
            "                                         porep-M-S; OUT: the partition proofs (N x 192 bytes);\n"
            "                                         verified as verify_seal does (the cache's v28 .vk)\n"
            "  prove   --addr A --request FILE [--proof OUT] [--vk FILE] [--request-id R] [--priority P]\n"
            "                                         any proof kind from a request file (proto3 JSON of\n"
            "                                         SubmitProofRequest, as testseal --request-out writes it);\n"
            "                                         with --vk, verified from the request's public data\n"
            "  submit  --addr A --circuit ID --input SEED | --c1 C1.json --miner-id M … | --request FILE\n"
            "          [--request-id R]\n"
            "          [--priority P]                 prints: job ID queue_position N\n"
            "  await   --addr A JOB [--timeout MS] [--proof OUT] [--public OUT.json] [--vk FILE]\n"
            "          [--c1 C1.json --miner-id M … | --request FILE]\n"
            "                                         exit 0 when the job COMPLETED, 1 otherwise (or invalid)\n"
            "  cancel  --addr A JOB\n"
            "  status  --addr A [--format text|json]\n"
            "  metrics --addr A                       Prometheus text\n"
            "  preload --addr A --circuit ID          load a circuit's parameters\n"
            "  evict   --addr A --circuit ID          free them\n"
            "  bench batch  --addr A [--count N] [-j J] [--circuit ID] [--vk FILE | --param-cache DIR]\n"
            "                                         J submit+await at a time; s/proof, stage times, memory;\n"
            "                                         every proof verified (--verify no: not); the circuit\n"
            "                                         is preloaded first (--preload no: not)\n"
            "          [--c1 F1,F2 … [--c1 F3] --miner-id M] [--csv FILE]\n"
            "                                         --c1: Curio's PoRep requests cycling through the C1\n"
            "                                         files (one registered proof; request ids made unique),\n"
            "                                         each proof verified against its C1; latency p50/p90/\n"
            "                                         p99; --csv: one row per proof\n"
            "  bench stress --addr A [--duration S] [-j J] [--circuit ID] [--cancel-rate R]\n"
            "                                         mixed priorities and cancellations\n"
            "--param-cache DIR (default as czkd's: $CZK_PARAM_CACHE, else $FIL_PROOFS_PARAMETER_CACHE, else\n"
            "/var/tmp/filecoin-proof-parameters)\n"
            "                                         where ID.vk or ID.params is found for verification\n");
#endif
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
#ifdef CZK_HAVE_SERVER
    if (!strcmp(cmd, "prove") && cli_has_addr(argc, argv)) return cmd_client_prove(argc, argv);
    if (!strcmp(cmd, "submit")) return cmd_client_submit(argc, argv);
    if (!strcmp(cmd, "await")) return cmd_client_await(argc, argv);
    if (!strcmp(cmd, "cancel")) return cmd_client_cancel(argc, argv);
    if (!strcmp(cmd, "status")) return cmd_client_status(argc, argv);
    if (!strcmp(cmd, "metrics")) return cmd_client_metrics(argc, argv);
    if (!strcmp(cmd, "preload")) return cmd_client_preload(argc, argv);
    if (!strcmp(cmd, "evict")) return cmd_client_evict(argc, argv);
    if (!strcmp(cmd, "bench") && argc > 2 && !strcmp(argv[2], "batch")) return cmd_client_bench_batch(argc, argv);
    if (!strcmp(cmd, "bench") && argc > 2 && !strcmp(argv[2], "stress")) return cmd_client_bench_stress(argc, argv);
#endif
    if (!strcmp(cmd, "demo")) return cmd_demo(argc, argv);
    if (!strcmp(cmd, "setup")) return cmd_setup(argc, argv);
    if (!strcmp(cmd, "prove")) return cmd_prove(argc, argv);
    if (!strcmp(cmd, "verify")) return cmd_verify(argc, argv);
    if (!strcmp(cmd, "export")) return cmd_export(argc, argv);
    if (!strcmp(cmd, "params") && argc > 2 && !strcmp(argv[2], "info")) return cmd_params_info(argc, argv);
    if (!strcmp(cmd, "params") && argc > 2 && !strcmp(argv[2], "check")) return cmd_params_check(argc, argv);
    if (!strcmp(cmd, "circuit") && argc > 2 && !strcmp(argv[2], "info")) return cmd_circuit_info(argc, argv);
    if (!strcmp(cmd, "bench") && argc > 2 && !strcmp(argv[2], "pipeline")) return cmd_bench_pipeline(argc, argv);
    if (!strcmp(cmd, "hash")) return cmd_hash(argc, argv);
    if (!strcmp(cmd, "testseal")) return cmd_testseal(argc, argv);
    if (!strcmp(cmd, "check")) return cmd_check(argc, argv);
    fprintf(stderr, "czk: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return CLI_USAGE;
}
