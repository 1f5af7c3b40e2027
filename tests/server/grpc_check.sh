#!/bin/sh
# czkd's gRPC service against an independent client (tests/server/grpc_client_test.py,
# Python grpcio with stubs generated from our .proto): starts a czkd on a unix
# socket with a temporary state directory and parameter cache, and a second
# one with a small queue and message limit, runs the Python tests, stops both
# (SIGTERM: each must exit 0).
#   grpc_check.sh BUILD_DIR [TEST ...]
# Exit 0 pass, 1 fail, 77 SKIP (no czkd built, or no python3-grpcio / protoc).
set -u
BUILD=${1:?usage: grpc_check.sh BUILD_DIR [TEST ...]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)
CZKD=$BUILD/czkd
CZK=$BUILD/czk
PY=/usr/bin/python3
if [ ! -x "$CZKD" ]; then echo "SKIP: $CZKD is not built"; exit 77; fi
if [ ! -x "$CZK" ]; then echo "SKIP: $CZK is not built"; exit 77; fi
if [ ! -x "$PY" ] || ! "$PY" -c 'import grpc, google.protobuf' 2>/dev/null; then
    echo "SKIP: $PY with grpcio and protobuf (python3-grpcio, python3-protobuf) is missing"
    exit 77
fi
if ! command -v protoc >/dev/null 2>&1 || [ ! -x /usr/bin/grpc_python_plugin ]; then
    echo "SKIP: protoc or grpc_python_plugin (protobuf-compiler-grpc) is missing"
    exit 77
fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/czk-grpc-check.XXXXXX")
PID1= PID2=
cleanup() {
    for p in $PID1 $PID2; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$DIR"
}
trap cleanup EXIT
mkdir -p "$DIR/params"
printf '[daemon]\nqueue_limit = 2\nmax_message_size = "1MiB"\n' >"$DIR/small.toml"

# start NAME ARGS...: czkd in the background, waits until its socket answers
start() {
    name=$1
    shift
    "$CZKD" --status-listen "" --backend cpu --budget 4GiB --state-dir "$DIR/state-$name" \
        --param-cache "$DIR/params" --generate-dev-params true --listen "unix://$DIR/$name.sock" "$@" >"$DIR/$name.log" 2>&1 &
    pid=$!
    i=0
    while [ ! -S "$DIR/$name.sock" ]; do
        if ! kill -0 "$pid" 2>/dev/null || [ $i -ge 300 ]; then
            echo "FAIL: czkd ($name) did not start:"
            cat "$DIR/$name.log"
            exit 1
        fi
        sleep 0.1
        i=$((i + 1))
    done
}

# stop PID NAME: SIGTERM, then it must exit 0 within 60 s
stop() {
    kill -TERM "$1"
    i=0
    while kill -0 "$1" 2>/dev/null; do
        if [ $i -ge 600 ]; then
            echo "FAIL: czkd ($2) did not stop within 60 s of SIGTERM"
            return 1
        fi
        sleep 0.1
        i=$((i + 1))
    done
    wait "$1"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: czkd ($2) exited $rc after SIGTERM; its log:"
        tail -n 30 "$DIR/$2.log"
        return 1
    fi
    return 0
}

start main
PID1=$pid
start small --config "$DIR/small.toml"
PID2=$pid

"$PY" "$HERE/grpc_client_test.py" --addr "unix://$DIR/main.sock" --small-addr "unix://$DIR/small.sock" \
    --czk "$CZK" --param-cache "$DIR/params" "$@"
status=$?

# the czk client commands against the same daemon
A="unix://$DIR/main.sock"
check() {
    if ! "$@" >"$DIR/out.txt" 2>&1; then
        echo "FAIL: $*"
        sed 's/^/    /' "$DIR/out.txt"
        status=1
    fi
}
check "$CZK" prove --addr "$A" --circuit demo --input 5 --proof "$DIR/p.bin" --public "$DIR/p.json" --vk "$DIR/params/demo.vk"
check "$CZK" verify --vk "$DIR/params/demo.vk" --proof "$DIR/p.bin" --public "$DIR/p.json"
check "$CZK" status --addr "$A"
check "$CZK" metrics --addr "$A"
check "$CZK" bench batch --addr "$A" --count 6 -j 3 --param-cache "$DIR/params"
check "$CZK" bench stress --addr "$A" --duration 3 -j 3 --param-cache "$DIR/params"
# expect CODE PATTERN -- command... (tests/common/expect.sh)
. "$HERE/../common/expect.sh"
EXPECT_OUT=$DIR/out.txt
expect 1 "NOT_FOUND" -- "$CZK" await --addr "$A" 424242424242
expect 1 "NOT_FOUND: no job abc" -- "$CZK" await --addr "$A" abc
expect 2 "give one job id" -- "$CZK" cancel --addr "$A"
expect 1 "NOT_FOUND" -- "$CZK" cancel --addr "$A" 424242424242
expect 2 "unknown circuit" -- "$CZK" submit --addr "$A" --circuit nope --input 1
expect 2 "--priority" -- "$CZK" submit --addr "$A" --circuit demo --input 1 --priority urgent
expect 0 "^job cli-1 queue_position" -- "$CZK" submit --addr "$A" --circuit demo --input 77 --request-id cli-1
expect 0 "COMPLETED" -- "$CZK" await --addr "$A" cli-1 --timeout 60000 --vk "$DIR/params/demo.vk"
expect 0 "^job czk-[0-9]* queue_position" -- "$CZK" submit --addr "$A" --circuit demo --input 79
expect 0 "COMPLETED" -- "$CZK" await --addr "$A" "$(sed -n 's/^job \(czk-[0-9]*\) .*/\1/p' "$DIR/out.txt")" \
    --timeout 60000 --vk "$DIR/params/demo.vk"
expect 2 "reserved" -- "$CZK" submit --addr "$A" --circuit demo --input 1 --request-id czk-5
expect 0 "^valid" -- "$CZK" prove --addr "$A" --circuit demo --input 78 --param-cache "$DIR/params"
expect 0 "already loaded\|loaded in" -- "$CZK" preload --addr "$A" --circuit demo
expect 0 "evicted" -- "$CZK" evict --addr "$A" --circuit demo
expect 0 "was not loaded" -- "$CZK" evict --addr "$A" --circuit demo
expect 0 '"memory"' -- "$CZK" status --addr "$A" --format json
expect 1 "UNAVAILABLE" -- "$CZK" status --addr "unix://$DIR/nobody.sock"
[ "$FAILS" -eq 0 ] || status=1

# a Curio-shaped WindowPoSt id across a restart: submitted (queued behind
# slow jobs), czkd stopped and started again on the same state directory,
# then awaited, proved and verified under the same id; one cancelled before
# the stop stays cancelled
WD="wdpost-1000-0-[12 34 56 78 90 12 34 56]"
WD2="wdpost-1000-1-[12 34 56 78 90 12 34 56]"
WD_RE='wdpost-1000-0-\[12 34 56 78 90 12 34 56\]' WD2_RE='wdpost-1000-1-\[12 34 56 78 90 12 34 56\]'
for s in 1 2 3; do "$CZK" submit --addr "$A" --circuit synthetic-16 --input "90$s" >/dev/null; done
expect 0 "^job $WD_RE queue_position" -- "$CZK" submit --addr "$A" --circuit demo --input 88 --request-id "$WD"
expect 0 "^job $WD2_RE queue_position" -- "$CZK" submit --addr "$A" --circuit synthetic-16 --input 89 --request-id "$WD2"
expect 0 "cancel" -- "$CZK" cancel --addr "$A" "$WD2"
grep -q "job=\"$WD_RE\" accepted" "$DIR/main.log" ||
    { echo "FAIL: the log has no quoted line for $WD"; status=1; }
stop "$PID1" main || status=1
rm -f "$DIR/main.sock"
start main
PID1=$pid
expect 0 "COMPLETED" -- "$CZK" await --addr "$A" "$WD" --timeout 120000 --vk "$DIR/params/demo.vk"
grep -q '^valid' "$DIR/out.txt" || { echo "FAIL: $WD after the restart: $(cat "$DIR/out.txt")"; status=1; }
expect 1 "CANCELLED" -- "$CZK" await --addr "$A" "$WD2" --timeout 120000
[ "$FAILS" -eq 0 ] || status=1

stop "$PID1" main || status=1
PID1=
stop "$PID2" small || status=1
PID2=
if grep -E "ERROR|AddressSanitizer|runtime error" "$DIR/main.log" "$DIR/small.log" >/dev/null; then
    echo "FAIL: errors in czkd's log:"
    grep -E "ERROR|AddressSanitizer|runtime error" "$DIR/main.log" "$DIR/small.log" | head -20
    status=1
fi
if [ $status -eq 0 ]; then echo "grpc_check: ok"; fi
exit $status
