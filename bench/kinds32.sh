#!/bin/sh
# czk — issue J's benchmark: the other proof kinds at 32 GiB through czkd on one GPU, in ONE call of
# the GPU machine (it starts bare; a call stops at 10 minutes), one kind per call (their parameters
# do not fit the disk together):
#   KIND=winning  WinningPoSt latency (submit to proof, client side) on an idle czkd and while a
#                 batch of 32 GiB PoRep C2 proofs keeps the GPU busy (the same czkd), PoRep's s/proof
#   KIND=wpost    a 32 GiB WindowPoSt partition (2,349 sectors x 10 challenges): latency of one alone,
#                 then N at once (s/partition in steady state)
#   KIND=snap     a 32 GiB SnapDeals proof (16 partitions): latency of one alone, then N at once
# Every request is a sparse `czk testseal --kind …` request, sent with `czk prove --request` and its
# proof verified from the request (--vk). Development parameters (czk setup --gpu), not Filecoin's.
#   KIND=winning sh bench/kinds32.sh [OUTDIR]     (default: $OUT, else bench/results/kinds32)
# Environment: PW, GW (czkd's partition / GPU workers), N (concurrent requests, wpost / snap), ALONE=2
# (requests one at a time before them),
# PROOFS (PoRep batch, winning), WORK=/tmp/czkk (emptied first unless KEEP=1: a warm machine keeps
# the last call's files, and one kind's parameters leave no room for another's), SKIP_BUILD=1,
# STOP_AFTER=prepare (stop once the request, R1CS and parameters exist: a second call with KEEP=1
# SKIP_BUILD=1 on the still-warm machine goes on from there; steps already done are skipped).
# OUTDIR gets kinds32-<kind>.csv (a row per request: what ran beside it, latency, czkd's stage
# times, verified), kinds32-<kind>-steps.log and kinds32-<kind>-logs.tgz.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
RES=${1:-${OUT:-$ROOT/bench/results/kinds32}}
mkdir -p "$RES"
KIND=${KIND:-winning}
WORK=${WORK:-/tmp/czkk}
PROOFS=${PROOFS:-8}
N=${N:-3}
T0=$(date +%s)
case "$KIND" in
winning) CIRCUIT=winning-32g PW=${PW:-4} GW=${GW:-1} ;;
wpost) CIRCUIT=wpost-32g PW=${PW:-4} GW=${GW:-1} ;;
snap) CIRCUIT=snap-32g PW=${PW:-8} GW=${GW:-1} ;;
*) echo "KIND must be winning, wpost or snap" >&2; exit 2 ;;
esac
el() { echo $(( $(date +%s) - T0 )); }
[ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"
L=$WORK/log
mkdir -p "$L"
say() { echo "[$(el) s] $*" | tee -a "$L/steps.log"; }
B=build-device
CZK=$ROOT/$B/czk
CZKD=$ROOT/$B/czkd
CSV=$L/kinds32-$KIND.csv
finish() {
    cp "$CSV" "$RES/" 2>/dev/null
    cp "$L/steps.log" "$RES/kinds32-$KIND-steps.log" 2>/dev/null
    tar czf "$RES/kinds32-$KIND-logs.tgz" -C "$L" . 2>/dev/null
}
trap finish EXIT
STATE=$WORK/state
# wpost-32g's development parameters are about 61 GB (h 134M, l 127M, a 96M, b 92M G1 points and
# 92M G2 points, uncompressed) and its compact R1CS 7.8 GB: beside the build they do not fit the
# GPU machine's 64 GiB disk, so its parameters go to /dev/shm (126 GiB of memory)
case "$KIND" in wpost) PARAMS=${PARAMS:-/dev/shm/czk-params} ;; *) PARAMS=${PARAMS:-$WORK/params} ;; esac
[ "${KEEP:-0}" = 1 ] || rm -rf "$PARAMS"
mkdir -p "$STATE/r1cs" "$PARAMS"
say "disk: $(df -h "$WORK" | awk 'NR == 2 {print $4 " free of " $2}') (wpost-32g needs about 60 GB: parameters and R1CS)"
say "host: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), \
$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    say "build"
    CZK_BUILD_TARGETS="czk_cli czkd" sh scripts/device-build $B > "$L/build.log" 2>&1 ||
        { tail -30 "$L/build.log"; say "BUILD FAILED"; exit 1; }
fi
. scripts/device-env
say "built"

# ---- requests (sparse test sectors), made beside the R1CS and the parameters ---------------------------
make_requests() {
case "$KIND" in
winning)
    "$CZK" testseal --kind winning --registered-proof 3 --miner-id 1000 --seed 31 --sparse \
        --request-out "$WORK/req.json" > "$L/testseal.log" 2>&1 || { cat "$L/testseal.log"; say "TESTSEAL FAILED"; exit 1; }
    for i in 1 2 3 4; do
        d=$WORK/seal$i
        "$CZK" testseal --sector-size 32GiB --registered-proof 8 --miner-id 1000 --sector-number $i \
            --seed $((7 + i)) --out "$d" --sparse > "$L/seal$i.log" 2>&1 &
    done
    wait
    for i in 1 2 3 4; do [ -f "$WORK/seal$i/envelope.json" ] || { cat "$L/seal$i.log"; say "SEAL $i FAILED"; exit 1; }; done
    ;;
wpost)
    "$CZK" testseal --kind window --registered-proof 13 --miner-id 1000 --partition 0 --sectors 2349 --seed 32 \
        --sparse --request-out "$WORK/req.json" > "$L/testseal.log" 2>&1 ||
        { cat "$L/testseal.log"; say "TESTSEAL FAILED"; exit 1; }
    ;;
snap)
    "$CZK" testseal --kind snap --registered-proof 3 --seed 33 --sparse --request-out "$WORK/req.json" \
        > "$L/testseal.log" 2>&1 || { cat "$L/testseal.log"; say "TESTSEAL FAILED"; exit 1; }
    ;;
esac
}

# ---- compact R1CS and parameters per circuit (the R1CS on one core beside the GPU setup) -------------
wall_of() { sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1"; } # GNU time -v's line
prepare() { # prepare CIRCUIT
    c=$1
    r1=$STATE/r1cs/$c.r1cc
    [ -f "$STATE/r1cs/.done-$c" ] && [ -f "$PARAMS/.done-$c" ] && { say "$c: R1CS and parameters kept"; return; }
    /usr/bin/time -v "$CZK" circuit info "$c" --compact --save "$r1" > "$L/r1cs-$c.json" 2> "$L/r1cs-$c.time" &
    r1pid=$!
    /usr/bin/time -v "$CZK" setup --circuit "$c" --gpu --out "$PARAMS" > "$L/setup-$c.log" 2>&1 ||
        { tail -30 "$L/setup-$c.log"; say "SETUP $c FAILED"; exit 1; }
    wait $r1pid || { cat "$L/r1cs-$c.json" "$L/r1cs-$c.time"; say "R1CS $c FAILED"; exit 1; }
    touch "$STATE/r1cs/.done-$c" "$PARAMS/.done-$c"
    say "$c: setup $(wall_of "$L/setup-$c.log") wall, R1CS recorded in $(wall_of "$L/r1cs-$c.time")"
}
if [ -f "$WORK/.requests-done" ]; then
    say "requests kept"
    rqpid=
else
    ( make_requests && touch "$WORK/.requests-done" ) > "$L/requests.log" 2>&1 &
    rqpid=$!
fi
prepare $CIRCUIT
[ "$KIND" = winning ] && prepare porep-32g
[ -z "$rqpid" ] || wait $rqpid || { cat "$L/requests.log"; say "REQUESTS FAILED"; exit 1; }
[ -f "$WORK/.requests-done" ] || { cat "$L/requests.log"; say "REQUESTS FAILED"; exit 1; }
C1S=""
[ "$KIND" = winning ] && for i in 1 2 3 4; do C1S="${C1S:+$C1S,}$WORK/seal$i/envelope.json"; done
say "request: $(ls -l "$WORK/req.json" | awk '{print $5}') bytes"
ls -l "$PARAMS" | tee -a "$L/steps.log"
df -h "$WORK" | tee -a "$L/steps.log"
[ "${STOP_AFTER:-}" = prepare ] && { say "stopped after prepare"; exit 0; }
VK=$(ls "$PARAMS"/*.vk | grep -v stacked-proof-of-replication | head -1)

# ---- czkd ---------------------------------------------------------------------------------------------
SOCK=$WORK/czkd.sock
ADDR=unix://$SOCK
printf '[synthesis]\npartition_workers = %s\n[gpus]\ngpu_workers_per_device = %s\n' "$PW" "$GW" > "$WORK/czkd.toml"
"$CZKD" --config "$WORK/czkd.toml" --backend cuda --listen "$ADDR" --status-listen "" --state-dir "$STATE" \
    --param-cache "$PARAMS" --log-level debug > "$L/czkd.log" 2>&1 &
pid=$!
n=0
while [ ! -S "$SOCK" ]; do
    kill -0 $pid 2>/dev/null || { tail -20 "$L/czkd.log"; say "CZKD DIED"; exit 1; }
    n=$((n + 1)); [ $n -gt 1200 ] && { say "czkd did not start"; exit 1; }
    sleep 0.1
done
"$CZK" preload --addr "$ADDR" --circuit $CIRCUIT > "$L/preload.log" 2>&1
say "czkd ready (pw $PW, gw $GW), $CIRCUIT preloaded: $(cat "$L/preload.log" | tr '\n' ' ')"
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader,nounits -lms 100 \
    > "$L/gpu.csv" 2>/dev/null &
smi=$!

echo "kind,request,beside,latency_s,queue_ms,synthesis_ms,gpu_ms,total_ms,verified" > "$CSV"
one() { # one ID BESIDE: a request, timed from the client (submit to proof), then its proof verified
    t=$(date +%s.%N)
    "$CZK" prove --addr "$ADDR" --request "$WORK/req.json" --request-id "$1" --proof "$WORK/proof-$1.bin" \
        --timeout 600000 > "$L/prove-$1.log" 2>&1
    rc=$?
    lat=$(awk -v a="$(date +%s.%N)" -v b="$t" 'BEGIN {printf "%.3f", a - b}')
    [ $rc -eq 0 ] && "$CZK" verify --request "$WORK/req.json" --vk "$VK" --proof "$WORK/proof-$1.bin" \
        >> "$L/prove-$1.log" 2>&1 || rc=1
    line=$(grep "COMPLETED" "$L/prove-$1.log" | head -1)
    q=$(echo "$line" | sed -n 's/.*queue \([0-9]*\) ms.*/\1/p')
    s=$(echo "$line" | sed -n 's/.*synthesis \([0-9]*\) ms.*/\1/p')
    g=$(echo "$line" | sed -n 's/.*gpu \([0-9]*\) ms.*/\1/p')
    tt=$(echo "$line" | sed -n 's/.*total \([0-9]*\) ms.*/\1/p')
    v=no
    [ $rc -eq 0 ] && grep -q "^valid" "$L/prove-$1.log" && v=yes
    echo "$KIND,$1,$2,$lat,$q,$s,$g,$tt,$v" >> "$CSV"
    say "$1 ($2): ${lat} s, verified $v"
}

case "$KIND" in
winning)
    for i in 1 2 3; do one idle-$i idle; done
    "$CZK" preload --addr "$ADDR" --circuit porep-32g > "$L/preload-porep.log" 2>&1
    say "PoRep batch of $PROOFS starts; WinningPoSt every 10 s while it runs"
    "$CZK" bench batch --addr "$ADDR" --c1 "$C1S" --miner-id 1000 --count "$PROOFS" -j 3 --vk \
        "$(ls "$PARAMS"/v28-stacked-proof-of-replication-*.vk | head -1)" --csv "$L/porep-batch.csv" \
        > "$L/porep-batch.log" 2>&1 &
    bpid=$!
    sleep 25
    i=1
    while kill -0 $bpid 2>/dev/null && [ $i -le 6 ]; do
        one load-$i porep-batch
        i=$((i + 1))
        sleep 8
    done
    wait $bpid
    cat "$L/porep-batch.log" | tail -5 | tee -a "$L/steps.log"
    ;;
*)
    i=1
    while [ $i -le "${ALONE:-2}" ]; do one alone-$i none; i=$((i + 1)); done
    say "$N at once"
    j=1
    while [ $j -le "$N" ]; do one conc-$j "$N-at-once" & j=$((j + 1)); done
    wait
    ;;
esac
kill $smi 2>/dev/null
"$CZK" status --addr "$ADDR" --format json > "$L/status.json" 2>&1
hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
kill -TERM $pid; wait $pid
say "czkd peak RSS $(awk -v k="$hwm" 'BEGIN {printf "%.2f", k / 1048576}') GiB; GPU busy \
$(awk -F', *' '{s += $2; n++} END {if (n) printf "%.3f", s / n / 100}' "$L/gpu.csv")"
cat "$CSV" | tee -a "$L/steps.log"
say "done"
