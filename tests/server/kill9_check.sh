#!/bin/sh
# Durability: every job czkd accepted completes exactly once across a kill -9.
# Starts czkd, submits N jobs (with request ids), kills it with SIGKILL while
# they are being proved, restarts it on the same state directory, then:
#  - resubmitting the same request ids returns the same job ids;
#  - every job completes, and its proof verifies (czk await --vk);
#  - the journal counts N completed jobs, no job is reported done twice in
#    the logs of the two runs, and one with no "done" line (its end was
#    committed just before the kill) is not proved again.
#   kill9_check.sh BUILD_DIR [N]
# Exit 0 pass, 1 fail, 77 SKIP (czkd not built).
set -u
BUILD=${1:?usage: kill9_check.sh BUILD_DIR [N]}
N=${2:-12}
CZKD=$BUILD/czkd
CZK=$BUILD/czk
CIRCUIT=${CZK_KILL9_CIRCUIT:-synthetic-15}
if [ ! -x "$CZKD" ] || [ ! -x "$CZK" ]; then echo "SKIP: czkd or czk is not built in $BUILD"; exit 77; fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/czk-kill9.XXXXXX")
PID=
cleanup() {
    if [ -n "$PID" ]; then kill -9 "$PID" 2>/dev/null; fi
    rm -rf "$DIR"
}
trap cleanup EXIT
A="unix://$DIR/czkd.sock"
FAILS=0
fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}

start() { # start LOG
    rm -f "$DIR/czkd.sock"
    "$CZKD" --status-listen "" --backend cpu --budget 4GiB --state-dir "$DIR/state" --param-cache "$DIR/params" \
        --generate-dev-params true --listen "$A" >"$DIR/$1" 2>&1 &
    PID=$!
    i=0
    while [ ! -S "$DIR/czkd.sock" ]; do
        if ! kill -0 "$PID" 2>/dev/null || [ $i -ge 600 ]; then
            echo "FAIL: czkd did not start:"
            cat "$DIR/$1"
            exit 1
        fi
        sleep 0.1
        i=$((i + 1))
    done
}

completed() { # the journal's count of completed jobs, from GetStatus
    "$CZK" status --addr "$A" 2>/dev/null | sed -n 's/.*proofs completed \([0-9]*\).*/\1/p'
}

start run1.log
# the parameters first (their generation is not what this test is about)
"$CZK" preload --addr "$A" --circuit "$CIRCUIT" >/dev/null || fail "preload $CIRCUIT"
: >"$DIR/jobs"
i=1
while [ $i -le "$N" ]; do
    out=$("$CZK" submit --addr "$A" --circuit "$CIRCUIT" --input "$((500 + i))" --request-id "k9-$i") ||
        fail "submit $i: $out"
    echo "$i $(echo "$out" | awk '{print $2}')" >>"$DIR/jobs"
    i=$((i + 1))
done
# kill -9 once some jobs have completed and others have not
t=0
while :; do
    c=$(completed)
    c=${c:-0}
    if [ "$c" -ge 2 ] || [ $t -ge 1200 ]; then break; fi
    sleep 0.05
    t=$((t + 1))
done
kill -9 "$PID"
wait "$PID" 2>/dev/null
PID=
echo "kill9: killed czkd with $c of $N jobs completed"
if [ "$c" -ge "$N" ]; then echo "kill9: (all had completed before the kill: the test is weaker than meant)"; fi

start run2.log
# the same request ids: the same jobs, no new work
while read -r i id; do
    out=$("$CZK" submit --addr "$A" --circuit "$CIRCUIT" --input "$((500 + i))" --request-id "k9-$i")
    got=$(echo "$out" | awk '{print $2}')
    [ "$got" = "$id" ] || fail "request k9-$i: job $got after the restart, $id before"
done <"$DIR/jobs"
# every job completes and verifies
while read -r i id; do
    if ! "$CZK" await --addr "$A" "$id" --vk "$DIR/params/$CIRCUIT.vk" >"$DIR/await.txt" 2>&1 ||
        ! grep -q '^valid$' "$DIR/await.txt"; then
        fail "job $id:"
        sed 's/^/    /' "$DIR/await.txt"
    fi
done <"$DIR/jobs"
c=$(completed)
[ "${c:-0}" -eq "$N" ] || fail "the journal counts ${c:-?} completed jobs, not $N"
# never two ends for one job over the two runs (the log's "job=ID done"
# lines). The journal is the record: a job whose end was committed just
# before the kill has no line (czkd logs "done" after the commit), and the
# restarted czkd must not prove it again, so no line in run2 either.
if grep -q "job=k9-[0-9]* done" "$DIR/run1.log" "$DIR/run2.log"; then
    while read -r i id; do
        n=$(cat "$DIR/run1.log" "$DIR/run2.log" | grep -c "job=$id done")
        [ "$n" -le 1 ] || fail "job $id is reported done $n times"
        if [ "$n" -eq 0 ] && grep -q "job=$id part=" "$DIR/run2.log"; then
            fail "job $id was proved again after the restart, but no run reports it done"
        fi
    done <"$DIR/jobs"
fi
kill -TERM "$PID"
wait "$PID"
rc=$?
PID=
[ $rc -eq 0 ] || fail "czkd exited $rc after SIGTERM"
if [ $FAILS -ne 0 ]; then
    echo "kill9: $FAILS failure(s); czkd's logs:"
    tail -n 20 "$DIR/run1.log" "$DIR/run2.log"
    exit 1
fi
echo "kill9: ok: $N jobs, each completed exactly once and verified"
exit 0
