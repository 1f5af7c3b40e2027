#!/bin/sh
# After a restart czkd answers at once, while the parameters of the jobs it
# re-queues are still loading (docs/daemon.md, "Parameters, the budget and
# restarts"). Run 1 leaves jobs unfinished in the journal (kill -9 with most
# of them queued); run 2 starts under slow_open_shim, which holds every open
# of a *.params file until a gate file exists. While it is held: the socket
# answers, GetStatus works and says "restoring" and which circuit loads, and
# a SubmitProof waits (it has not answered 2 s later). Once the gate opens:
# that submit is answered, every job of both runs completes, GetStatus says
# "ready", and SIGTERM stops czkd with status 0.
#   restart_check.sh CZKD CZK SHIM
# Exit 0 pass, 1 fail, 77 SKIP (not built).
set -u
CZKD=${1:?usage: restart_check.sh CZKD CZK SHIM}
CZK=${2:?usage: restart_check.sh CZKD CZK SHIM}
SHIM=${3:?usage: restart_check.sh CZKD CZK SHIM}
CIRCUIT=synthetic-15
N=6
for f in "$CZKD" "$CZK" "$SHIM"; do
    if [ ! -e "$f" ]; then echo "SKIP: $f is not built"; exit 77; fi
done

DIR=$(mktemp -d "${TMPDIR:-/tmp}/czk-restart.XXXXXX")
DIR=$(cd "$DIR" && pwd -P)
PID= SUB=
cleanup() {
    for p in $PID $SUB; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$DIR"
}
trap cleanup EXIT
A="unix://$DIR/czkd.sock"
FAILS=0
fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}
printf '[synthesis]\npartition_workers = 1\n' >"$DIR/czkd.toml"

# start LOG [ENV=VALUE ...]: czkd in the background; no wait
start() {
    log=$1
    shift
    rm -f "$DIR/czkd.sock"
    env "$@" "$CZKD" --config "$DIR/czkd.toml" --status-listen "" --backend cpu --budget 2GiB \
        --state-dir "$DIR/state" --param-cache "$DIR/params" --listen "$A" >"$DIR/$log" 2>&1 &
    PID=$!
}

# wait_socket LOG TENTHS: until the socket exists (status 1 when not in time)
wait_socket() {
    i=0
    while [ ! -S "$DIR/czkd.sock" ]; do
        if ! kill -0 "$PID" 2>/dev/null || [ "$i" -ge "$2" ]; then return 1; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 0
}

"$CZK" setup --circuit $CIRCUIT --out "$DIR/params" --seed 5 >/dev/null 2>&1 || { echo "FAIL: czk setup"; exit 1; }

# ---- run 1: N jobs accepted, czkd killed while they are queued behind one partition worker
start run1.log
wait_socket run1.log 300 || { echo "FAIL: czkd did not start:"; cat "$DIR/run1.log"; exit 1; }
"$CZK" preload --addr "$A" --circuit $CIRCUIT >/dev/null || fail "preload"
i=1
while [ $i -le $N ]; do
    "$CZK" submit --addr "$A" --circuit $CIRCUIT --input "$((40 + i))" --request-id "rs-$i" >/dev/null ||
        fail "submit rs-$i"
    i=$((i + 1))
done
kill -9 "$PID"
wait "$PID" 2>/dev/null
PID=

# ---- run 2: the parameter load is held until the gate file exists
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
start run2.log LD_PRELOAD="$SHIM${LD_PRELOAD:+ $LD_PRELOAD}" CZK_SHIM_GATE="$DIR/gate" \
    CZK_SHIM_LOG="$DIR/shim.log"
if ! wait_socket run2.log 100; then
    fail "czkd did not listen within 10 s of its start while its parameters load"
    touch "$DIR/gate"
    wait_socket run2.log 600 || { echo "FAIL: czkd did not start:"; cat "$DIR/run2.log"; exit 1; }
fi
left=$(sed -n 's/.*journal: \([0-9]*\) unfinished job(s) from an earlier run.*/\1/p' "$DIR/run2.log")
if [ "${left:-0}" -lt 1 ]; then
    fail "run 1 left no unfinished job (all $N were proved before the kill: the machine is too fast for this test)"
fi
if [ ! -e "$DIR/gate" ]; then
    grep -q "^held $DIR/params/$CIRCUIT.params" "$DIR/shim.log" 2>/dev/null ||
        fail "the shim held no open of $CIRCUIT.params (is LD_PRELOAD honoured?)"
    st=$("$CZK" status --addr "$A" --format json 2>&1) || fail "GetStatus while loading: $st"
    case $st in
    *'"state":"restoring"'*) ;;
    *) fail "GetStatus while loading does not say restoring: $st" ;;
    esac
    case $st in
    *'"srs_loading":[{"circuit_id":"'$CIRCUIT'"'*) ;;
    *) fail "GetStatus while loading does not name $CIRCUIT: $st" ;;
    esac
    "$CZK" submit --addr "$A" --circuit $CIRCUIT --input 99 --request-id new-1 >"$DIR/new.out" 2>&1 &
    SUB=$!
    i=0
    while [ $i -lt 20 ] && kill -0 "$SUB" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    kill -0 "$SUB" 2>/dev/null || fail "SubmitProof answered while the parameters loaded: $(cat "$DIR/new.out")"
    touch "$DIR/gate"
fi
if [ -n "$SUB" ]; then
    wait "$SUB" || fail "SubmitProof after the load: $(cat "$DIR/new.out")"
    SUB=
    grep -q "^job new-1 " "$DIR/new.out" || fail "SubmitProof after the load: $(cat "$DIR/new.out")"
fi
i=1
while [ $i -le $N ]; do
    out=$("$CZK" await --addr "$A" "rs-$i" --timeout 120000 2>&1) || fail "await rs-$i: $out"
    i=$((i + 1))
done
out=$("$CZK" await --addr "$A" new-1 --timeout 120000 2>&1) || fail "await new-1: $out"
st=$("$CZK" status --addr "$A" --format json 2>&1)
case $st in
*'"state":"ready"'*) ;;
*) fail "GetStatus after the load does not say ready: $st" ;;
esac
kill -TERM "$PID"
wait "$PID"
rc=$?
PID=
[ $rc -eq 0 ] || fail "czkd exited $rc after SIGTERM"

if [ $FAILS -ne 0 ]; then
    echo "restart: $FAILS failure(s); czkd's logs:"
    tail -n 25 "$DIR/run1.log" "$DIR/run2.log"
    exit 1
fi
echo "restart: ${left} job(s) re-queued while their parameters loaded; czkd answered meanwhile; all $((N + 1)) proved"
