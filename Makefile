# czk — top-level commands. CMake does the building; this file wraps it.
#   make demo    build; czkd in the background; a batch of demo proofs over gRPC, verified
#   make test    build and run the test suite, then again under ASan+UBSan
#   make bench   build and run the benchmarks (tables + CSV under bench/results/), the
#                32 GiB PoRep and WindowPoSt witnesses, and PoRep C2 end to end at 8 MiB
#   make build   configure and build only (Release)

BUILD      ?= build
BUILD_SAN  ?= build-asan
BUILD_TSAN ?= build-tsan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
GENERATOR  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all build demo test test-release test-sanitize test-tsan bench deps tools clean

all: build

deps:
	@scripts/install-deps --check >/dev/null 2>&1 || scripts/install-deps

tools:
	@scripts/install-tools

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# demo: czkd in the background (temporary state and parameter cache, a unix
# socket), a short batch of demo-circuit proofs over gRPC, every proof
# verified; the table and czkd's memory counters; czkd stopped (SIGTERM).
# The local, daemon-less demo is `$(BUILD)/czk demo`.
DEMO_COUNT ?= 8
DEMO_JOBS  ?= 4
demo: build
	@d=$$(mktemp -d "$${TMPDIR:-/tmp}/czk-demo.XXXXXX"); sock="unix://$$d/czkd.sock"; \
	$(BUILD)/czkd --listen "$$sock" --status-listen "" --state-dir "$$d/state" --param-cache "$$d/params" \
	    --generate-dev-params true >"$$d/czkd.log" 2>&1 & pid=$$!; \
	trap 'kill -9 $$pid 2>/dev/null; rm -rf "$$d"' EXIT; \
	i=0; while [ ! -S "$$d/czkd.sock" ]; do \
	    if ! kill -0 $$pid 2>/dev/null || [ $$i -ge 300 ]; then echo "czkd did not start:"; cat "$$d/czkd.log"; exit 1; fi; \
	    sleep 0.1; i=$$((i + 1)); done; \
	sed -n 's/.*\(czkd ready.*\)/\1/p' "$$d/czkd.log"; \
	$(BUILD)/czk bench batch --addr "$$sock" --circuit demo --count $(DEMO_COUNT) -j $(DEMO_JOBS) \
	    --param-cache "$$d/params"; rc=$$?; \
	kill -TERM $$pid; wait $$pid; src=$$?; \
	echo "czkd stopped (exit $$src)"; \
	if [ $$rc -ne 0 ] || [ $$src -ne 0 ]; then echo "demo FAILED; czkd's log:"; tail -n 20 "$$d/czkd.log"; exit 1; fi

test-release: build tools
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitize: | deps
	cmake -S . -B $(BUILD_SAN) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCZK_SANITIZE=ON -DCZK_CUDA=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_SAN) -j $(JOBS)
	cd $(BUILD_SAN) && CZK_TEST_SCALE=$${CZK_TEST_SCALE:-0.2} ctest --output-on-failure -j $(JOBS) -E 'fuzz_decoders|snarkjs_verify|porep_check|kinds_check|request_memory_check'

# ThreadSanitizer over the multi-threaded modules (the service and its journal among them; not the
# gRPC tests: libgrpc is not instrumented, so TSan takes its own locking for races)
test-tsan: | deps
	cmake -S . -B $(BUILD_TSAN) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCZK_TSAN=ON -DCZK_CUDA=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_TSAN) -j $(JOBS)
	cd $(BUILD_TSAN) && CZK_TEST_SCALE=$${CZK_TEST_SCALE:-0.1} ctest --output-on-failure -j $(JOBS) -R 'pool|msm|ntt|poly|r1cs_eval|witness_parts|groth16|setup|fixed_base|test_io|engine|test_budget|test_service|test_journal|post_decode_threads'

test: test-release test-sanitize test-tsan

bench: build
	$(BUILD)/bench_bls12_381
	$(BUILD)/bench_poly
	$(BUILD)/bench_msm
	$(BUILD)/bench_r1cs
	$(BUILD)/bench_groth16
	$(BUILD)/bench_gadget_sha256
	$(BUILD)/bench_gadget_poseidon
	$(BUILD)/bench_fr_pack
	$(BUILD)/bench_porep_witness
	$(BUILD)/bench_post_witness
	sh tests/server/porep_check.sh $(BUILD) 8MiB
	@echo "GPU benchmarks run on the GPU machine: sh bench/gpu.sh (see docs/benchmarks.md)"

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_TSAN)
