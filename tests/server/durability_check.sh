#!/bin/sh
# Durability is ordered, not only written: czkd runs under fsync_shim (an
# LD_PRELOAD library that logs, in order, every open, write, fsync,
# fdatasync, rename, unlink and close of a file under the state folder);
# the test submits N jobs one after the other with `czk submit`, appending
# "ack <request id>" to the same log as soon as each reply has arrived. Then,
# for each acknowledged job, between the previous reply and its own:
#  1. its spool file (spool/*.tmp) was written and fsynced (or fdatasynced)
#     after its last write and before it was renamed into place;
#  2. the spool folder was fsynced after that rename;
#  3. the job's row (the WAL write whose page holds its request id) was
#     written after the rename, and journal.sqlite-wal was synced after that
#     write (SQLite's synchronous=FULL; NORMAL or OFF do not sync at commit).
# Any fsync removed, the rename moved before the fsync, synchronous lowered or
# the row committed before the spool file was in place fails one of these.
#   durability_check.sh CZKD CZK SHIM [N]
# Exit 0 pass, 1 fail, 77 SKIP (a program is not built). CZK_DURABILITY_KEEP=1
# keeps the temporary folder (the log is io.log).
set -u
CZKD=${1:?usage: durability_check.sh CZKD CZK SHIM [N]}
CZK=${2:?usage: durability_check.sh CZKD CZK SHIM [N]}
SHIM=${3:?usage: durability_check.sh CZKD CZK SHIM [N]}
N=${4:-6}
CIRCUIT=demo
for f in "$CZKD" "$CZK" "$SHIM"; do
    if [ ! -e "$f" ]; then echo "SKIP: $f is not built"; exit 77; fi
done

DIR=$(mktemp -d "${TMPDIR:-/tmp}/czk-durable.XXXXXX")
DIR=$(cd "$DIR" && pwd -P)
PID=
cleanup() {
    if [ -n "$PID" ]; then kill -9 "$PID" 2>/dev/null; fi
    if [ -n "${CZK_DURABILITY_KEEP:-}" ]; then echo "durability: kept $DIR"; else rm -rf "$DIR"; fi
}
trap cleanup EXIT
A="unix://$DIR/czkd.sock"
STATE=$DIR/state
LOG=$DIR/io.log
: >"$LOG"

# ASan wants its runtime first in the list of libraries; the shim is not
# instrumented and only forwards calls, so the order check is turned off.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    LD_PRELOAD="$SHIM${LD_PRELOAD:+ $LD_PRELOAD}" CZK_SHIM_DIR="$STATE" CZK_SHIM_LOG="$LOG" \
    "$CZKD" --status-listen "" --backend cpu --budget 2GiB --state-dir "$STATE" --param-cache "$DIR/params" \
    --generate-dev-params true --listen "$A" >"$DIR/czkd.log" 2>&1 &
PID=$!
i=0
while [ ! -S "$DIR/czkd.sock" ]; do
    if ! kill -0 "$PID" 2>/dev/null || [ $i -ge 600 ]; then
        echo "FAIL: czkd did not start:"
        cat "$DIR/czkd.log"
        exit 1
    fi
    sleep 0.1
    i=$((i + 1))
done
if ! grep -q "^open $STATE/" "$LOG"; then
    echo "FAIL: the shim logged nothing under $STATE (is LD_PRELOAD honoured?)"
    cat "$DIR/czkd.log"
    exit 1
fi
"$CZK" preload --addr "$A" --circuit "$CIRCUIT" >/dev/null || { echo "FAIL: preload $CIRCUIT"; exit 1; }

i=1
while [ "$i" -le "$N" ]; do
    if ! out=$("$CZK" submit --addr "$A" --circuit "$CIRCUIT" --input "$((700 + i))" --request-id "durreq-$i" 2>&1);
    then
        echo "FAIL: submit $i: $out"
        exit 1
    fi
    echo "ack durreq-$i" >>"$LOG"
    i=$((i + 1))
done
kill -TERM "$PID"
wait "$PID"
rc=$?
PID=
if [ $rc -ne 0 ]; then
    echo "FAIL: czkd exited $rc after SIGTERM"
    tail -n 20 "$DIR/czkd.log"
    exit 1
fi

awk -v state="$STATE" -v want="$N" '
function synced(k) { return op[k] == "fsync" || op[k] == "fdatasync" }
function has_token(list, tok,    n, parts, t) {
    n = split(list, parts, ",")
    for (t = 1; t <= n; t++) if (parts[t] == tok) return 1
    return 0
}
function fail(req, why) { printf "FAIL: %s: %s\n", req, why; fails++ }
# checks the acknowledged job req between lines lo and hi (its reply)
function check(lo, hi, req,    k, r, tmp, lw, fs, d, w, s) {
    r = 0
    for (k = hi - 1; k > lo && !r; k--)
        if (op[k] == "rename" && index(x[k], spool "/") == 1 && x[k] ~ /\.tmp$/ &&
            y[k] == substr(x[k], 1, length(x[k]) - 4)) r = k
    if (!r) { fail(req, "no spool file was renamed into place before the reply"); return }
    tmp = x[r]
    lw = 0
    for (k = r - 1; k > lo && !lw; k--) if (op[k] == "write" && x[k] == tmp) lw = k
    if (!lw) { fail(req, "no bytes were written to " tmp " before its rename"); return }
    fs = 0
    for (k = lw + 1; k < r && !fs; k++) if (synced(k) && x[k] == tmp) fs = k
    if (!fs) fail(req, "the bytes of " tmp " were not fsynced between its last write (line " lw ") and its rename (line " r ")")
    d = 0
    for (k = r + 1; k < hi && !d; k++) if (synced(k) && x[k] == spool) d = k
    if (!d) fail(req, "the spool folder was not fsynced between the rename (line " r ") and the reply (line " hi ")")
    w = 0
    for (k = lo + 1; k < hi && !w; k++) if (op[k] == "write" && x[k] == wal && has_token(z[k], req)) w = k
    if (!w) { fail(req, "no write to " wal " holds its row before the reply"); return }
    if (w < r) fail(req, "its row reached the WAL (line " w ") before its spool file was renamed into place (line " r ")")
    s = 0
    for (k = w + 1; k < hi && !s; k++) if (synced(k) && x[k] == wal) s = k
    if (!s) fail(req, "the WAL was not synced between its row (line " w ") and the reply (line " hi ") (synchronous=FULL?)")
    checked++
}
BEGIN { spool = state "/spool"; wal = state "/journal.sqlite-wal"; prev = 0; fails = 0; checked = 0 }
{ op[NR] = $1; x[NR] = $2; y[NR] = $3; z[NR] = (NF >= 4 ? $4 : "") }
$1 == "ack" { check(prev, NR, $2); prev = NR; acks++ }
END {
    if (acks != want) { printf "FAIL: %d replies logged, %d jobs submitted\n", acks, want; fails++ }
    if (fails) exit 1
    printf "durability: ok: %d jobs, each spool file fsynced before its rename, the folder after it, the WAL after the row, all before the reply\n", checked
}' "$LOG"
rc=$?
if [ $rc -ne 0 ]; then
    echo "durability: the log ($LOG):"
    grep -v "^\(open\|close\) " "$LOG" | head -n 80
    exit 1
fi
exit 0
