#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/fuzz_*.c) with clang against the
# library sources they need and runs each for SECONDS (default 10) from a seed
# corpus the harness writes itself, plus tests/fuzz/corpus/<harness>/ if that
# exists. Exit: 0 when no harness crashed, 1 on a crash (its input is kept and
# its path printed), 77 (SKIP) when clang or libFuzzer is missing.
# Environment: CLANG (compiler, default clang), CZK_FUZZ_JOBS (parallel
# compiles, default nproc), CZK_FUZZ_ONLY (run only the harnesses whose name
# contains it).
set -u

SECONDS_EACH=${1:-10}
case "$SECONDS_EACH" in
'' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CC=${CLANG:-clang}
JOBS=${CZK_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! command -v "$CC" >/dev/null 2>&1; then
    echo "SKIP: $CC not found"
    exit 77
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/czk-fuzz.XXXXXX")
keep=0
cleanup() { if [ "$keep" = 0 ]; then rm -rf "$WORK"; fi; }
trap cleanup EXIT

printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$WORK/probe.c"
if ! "$CC" -fsanitize=fuzzer,address,undefined "$WORK/probe.c" -o "$WORK/probe" >/dev/null 2>&1; then
    echo "SKIP: $CC cannot build libFuzzer programs (-fsanitize=fuzzer)"
    exit 77
fi
JANSSON_CFLAGS=$(pkg-config --cflags jansson 2>/dev/null || true)
JANSSON_LIBS=$(pkg-config --libs jansson 2>/dev/null || echo -ljansson)
CRYPTO_LIBS=$(pkg-config --libs libcrypto 2>/dev/null || echo -lcrypto)

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
CFLAGS="-std=gnu11 -O1 -g -fno-omit-frame-pointer $SAN -I$ROOT/include $JANSSON_CFLAGS"

# The library sources the decoders need: common, the curve, and the file modules.
SOURCES=$(ls "$ROOT"/src/common/*.c "$ROOT"/src/bls12_381/*.c "$ROOT"/src/bls12_381/*.S \
    "$ROOT"/src/groth16/*_io.c "$ROOT"/src/groth16/snarkjs.c 2>/dev/null)
mkdir -p "$WORK/obj"
echo "fuzz: compiling $(echo "$SOURCES" | wc -w) library sources with $CC into $WORK"
export CC CFLAGS WORK
if ! echo "$SOURCES" | xargs -P "$JOBS" -I{} sh -c \
    'f="{}"; o="$WORK/obj/$(echo "$f" | tr / _).o"; $CC $CFLAGS -fsanitize=fuzzer-no-link -c "$f" -o "$o"'; then
    echo "fuzz: FAILED to compile the library sources"
    exit 1
fi

# fuzz_proto (the gRPC server's request decoding) also needs protobuf-c's code
# for our .proto; without protoc-c and libprotobuf-c it is skipped.
PROTO_OBJS=
if command -v protoc-c >/dev/null 2>&1 && pkg-config --exists libprotobuf-c 2>/dev/null &&
    mkdir -p "$WORK/proto" "$WORK/obj-proto" &&
    protoc-c --proto_path="$ROOT/proto" --c_out="$WORK/proto" "$ROOT/proto/cuzk/v1/proving.proto"; then
    PROTO_CFLAGS="-I$WORK/proto -I$ROOT/src/server $(pkg-config --cflags libprotobuf-c)"
    if $CC $CFLAGS $PROTO_CFLAGS -fsanitize=fuzzer-no-link -c "$WORK/proto/cuzk/v1/proving.pb-c.c" \
        -o "$WORK/obj-proto/pb.o" &&
        $CC $CFLAGS $PROTO_CFLAGS -fsanitize=fuzzer-no-link -c "$ROOT/src/server/grpc_codec.c" \
            -o "$WORK/obj-proto/codec.o"; then
        PROTO_OBJS="$WORK/obj-proto/pb.o $WORK/obj-proto/codec.o $(pkg-config --libs libprotobuf-c)"
    else
        echo "fuzz: FAILED to compile the gRPC codec"
        exit 1
    fi
fi

# fuzz_config (czkd's TOML configuration) needs the config file's code from
# src/server: config.c, its lexer toml.c and log.c (log level names).
CONFIG_CFLAGS="-I$ROOT/src/server"
mkdir -p "$WORK/obj-config"
CONFIG_OBJS=
for f in config toml log; do
    if ! $CC $CFLAGS $CONFIG_CFLAGS -fsanitize=fuzzer-no-link -c "$ROOT/src/server/$f.c" -o "$WORK/obj-config/$f.o"; then
        echo "fuzz: FAILED to compile src/server/$f.c"
        exit 1
    fi
    CONFIG_OBJS="$CONFIG_OBJS $WORK/obj-config/$f.o"
done

status=0
total_execs=0
for src in "$HERE"/fuzz_*.c; do
    name=$(basename "$src" .c)
    if [ -n "${CZK_FUZZ_ONLY:-}" ] && [[ "$name" != *"$CZK_FUZZ_ONLY"* ]]; then continue; fi
    extra=
    if [ "$name" = fuzz_proto ]; then
        if [ -z "$PROTO_OBJS" ]; then
            echo "fuzz: $name skipped (no protoc-c or libprotobuf-c)"
            continue
        fi
        extra="$PROTO_CFLAGS $PROTO_OBJS $ROOT/src/filecoin/request.c"
    fi
    if [ "$name" = fuzz_config ]; then extra="$CONFIG_CFLAGS $CONFIG_OBJS"; fi
    if [ "$name" = fuzz_c1 ]; then extra=$(echo "$ROOT"/src/filecoin/{c1,c1_json,c1_decode,c1_encode,vanilla,registered}.c); fi
    if [ "$name" = fuzz_request_json ]; then extra="$ROOT/src/filecoin/request_json.c"; fi
    if [ "$name" = fuzz_update ]; then
        extra="$(echo "$ROOT"/src/filecoin/{update_challenges,update_decode,update_inputs,update_encode,bincode,c1_hash,c1,vanilla,registered,prim,registered_post,vanilla_post}.c) $ROOT/src/gadgets/poseidon.c $ROOT/src/gadgets/poseidon_constants.c"
    fi
    if [ "$name" = fuzz_post ]; then
        extra="$(echo "$ROOT"/src/filecoin/{post_decode,post_challenges,post_inputs,bincode,c1_hash,c1,vanilla,registered,prim,registered_post,vanilla_post,challenges}.c) $ROOT/src/gadgets/poseidon.c $ROOT/src/gadgets/poseidon_constants.c"
    fi
    if ! "$CC" $CFLAGS -fsanitize=fuzzer "$src" $extra "$WORK"/obj/*.o -o "$WORK/$name" \
        $JANSSON_LIBS $CRYPTO_LIBS -lpthread -lm; then
        echo "fuzz: FAILED to build $name"
        status=1
        continue
    fi
    corpus="$WORK/corpus-$name"
    mkdir -p "$corpus" "$WORK/crash-$name"
    if [ -d "$HERE/corpus/$name" ]; then cp "$HERE/corpus/$name"/* "$corpus"/ 2>/dev/null; fi
    log="$WORK/$name.log"
    CZK_FUZZ_SEED_DIR="$corpus" "$WORK/$name" -max_total_time="$SECONDS_EACH" -timeout=10 -max_len=8192 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$WORK/crash-$name/" "$corpus" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    if [ $rc -ne 0 ]; then
        echo "fuzz: $name CRASHED (exit $rc) after ${execs:-?} runs; log and input kept in $WORK"
        tail -n 40 "$log"
        ls -l "$WORK/crash-$name"
        keep=1
        status=1
    else
        echo "fuzz: $name ok: ${execs:-?} runs in ${SECONDS_EACH}s, ${cov:-cov ?}"
        total_execs=$((total_execs + ${execs:-0}))
    fi
done
if [ $status -eq 0 ]; then echo "fuzz: all harnesses ok ($total_execs runs)"; fi
exit $status
