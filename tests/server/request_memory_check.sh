#!/bin/sh
# Request bytes are bounded by the memory budget (issue M, point 3): czkd with
# a 512 MiB budget, a 64 MiB message limit and 128 MiB of gRPC receive
# buffers gets 16 SubmitProof calls of 60 MB at once, each on its own
# connection (960 MB in flight). Each is answered INVALID_ARGUMENT (it names
# no proof: it was charged, decoded and refused) or RESOURCE_EXHAUSTED (the
# budget had no room for it then, or gRPC's receive buffers were full), at
# least one of them INVALID_ARGUMENT; and czkd's peak resident memory (VmHWM)
# stays under its resident memory when ready plus the budget (without the
# receive quota the peak was 0.8 to 1.0 GB; without both it and the charge,
# 1.0 GB). First, a receive buffer no larger than the message limit is
# refused at start.
#   request_memory_check.sh BUILD_DIR
# Exit 0 pass, 1 fail, 77 SKIP (no czkd, no python3-grpcio, no /proc).
set -u
BUILD=${1:?usage: request_memory_check.sh BUILD_DIR}
CZKD=$BUILD/czkd
PY=/usr/bin/python3
BUDGET_MIB=512
if [ ! -x "$CZKD" ]; then echo "SKIP: $CZKD is not built"; exit 77; fi
if [ ! -x "$PY" ] || ! "$PY" -c 'import grpc' 2>/dev/null; then
    echo "SKIP: $PY with grpcio (python3-grpcio) is missing"
    exit 77
fi
if [ ! -r /proc/self/status ]; then echo "SKIP: no /proc"; exit 77; fi

T=$(mktemp -d "${TMPDIR:-/tmp}/czk-request-memory.XXXXXX")
PID=
trap '[ -n "$PID" ] && kill -9 $PID 2>/dev/null; rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*"
    echo "--- czkd's log (last lines):"
    tail -n 20 "$T/czkd.log"
    exit 1
}
printf '[daemon]\nmax_message_size = "64MiB"\nreceive_buffer = "64MiB"\n' >"$T/bad.toml"
"$CZKD" --config "$T/bad.toml" --listen "unix://$T/bad.sock" --status-listen "" --backend cpu --budget 1GiB \
    --state-dir "$T/state" --param-cache "$T/params" >"$T/czkd.log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "daemon.receive_buffer (67108864 bytes) must be larger than daemon.max_message_size" \
    "$T/czkd.log" || fail "a receive buffer of the message limit's size: exit $rc"
printf '[daemon]\nmax_message_size = "64MiB"\nreceive_buffer = "128MiB"\n' >"$T/czkd.toml"
"$CZKD" --config "$T/czkd.toml" --listen "unix://$T/czkd.sock" --status-listen "" --backend cpu \
    --budget ${BUDGET_MIB}MiB --state-dir "$T/state" --param-cache "$T/params" >"$T/czkd.log" 2>&1 &
PID=$!
i=0
while ! grep -q "czkd ready" "$T/czkd.log"; do
    if ! kill -0 $PID 2>/dev/null || [ $i -ge 300 ]; then fail "czkd did not start"; fi
    sleep 0.1
    i=$((i + 1))
done
kb() { sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" /proc/$PID/status; }
RSS0=$(kb VmRSS)

"$PY" "$(dirname "$0")/request_flood.py" "unix://$T/czkd.sock" 16 60000000 >"$T/answers" 2>&1 ||
    fail "the client failed: $(cat "$T/answers")"
HWM=$(kb VmHWM)
n_in=$(grep -c "^INVALID_ARGUMENT the request names no proof" "$T/answers")
n_budget=$(grep -c "^RESOURCE_EXHAUSTED the memory budget has no room now for this request" "$T/answers")
n_quota=$(grep -c "^RESOURCE_EXHAUSTED .*RST_STREAM" "$T/answers")
n=$(wc -l <"$T/answers")
echo "16 requests of 60 MB: $n_in decoded and refused, $n_budget refused for the budget, $n_quota reset by gRPC's" \
    "receive quota; czkd's resident memory $((RSS0 / 1024)) MiB when ready, peak $((HWM / 1024)) MiB" \
    "(budget $BUDGET_MIB MiB)"
[ "$n" -eq 16 ] || fail "$n answers: $(cat "$T/answers")"
[ $((n_in + n_budget + n_quota)) -eq 16 ] || fail "unexpected answers: $(sort "$T/answers" | uniq -c | cut -c1-300)"
[ "$n_in" -ge 1 ] || fail "no request got through: $(sort "$T/answers" | uniq -c | cut -c1-300)"
[ "$HWM" -le $((RSS0 + BUDGET_MIB * 1024)) ] ||
    fail "peak resident memory $((HWM / 1024)) MiB is above $((RSS0 / 1024)) MiB + the budget's $BUDGET_MIB MiB"
kill -TERM $PID
wait $PID
rc=$?
PID=
[ $rc -eq 0 ] || fail "czkd exited $rc"
echo "request_memory_check: ok"
