#!/bin/sh
# czk — issue I's benchmark: 32 GiB (or 64 GiB) PoRep C2 proved by czkd on one GPU, measured as a storage
# provider runs it, in ONE call of the GPU machine (it starts bare and a call stops at 10 minutes):
#   build (scripts/device-build) → sparse test seals → the compact R1CS (cached in czkd's state folder) →
#   development parameters on the GPU (czk setup --gpu; reused when present) → for each configuration of
#   the sweep: czkd --backend cuda, `czk bench batch --c1` of Curio-shaped requests, every proof verified,
#   GPU busy sampled, czkd's peak RSS (VmHWM) → CSV, logs and plots.
#
#   sh bench/porep32.sh [OUTDIR]        (default: $OUT, else bench/results/porep32)
# Environment:
#   SIZE=32GiB|64GiB   the sector size (default 32GiB)
#   PROOFS=8           proofs per configuration (>= 8 for issue I)
#   SWEEP="10:2 5:2"   configurations pw:gw (partition workers : GPU workers), in order
#   SEALS=4            distinct test sectors the batch cycles through
#   WORK=/tmp/czkb     seals, state folder (journal, compact R1CS) and, unless PARAMS is set, parameters
#   PARAMS=DIR         parameter folder to use (and fill if empty)
#   SKIP_BUILD=1       use build-device as it is
#   DEADLINE=540       seconds after which no new configuration is started
# Logs go to $WORK/log; OUTDIR gets (at the end, also after a failure) porep32.csv, the plots,
# porep32-steps.log and porep32-logs.tgz (every log). The summary is porep32.csv: a row per configuration (proofs made, verified, s/proof in steady
# state and with the fill, first-proof latency, czkd's peak RSS, GPU busy); per-proof rows in
# batch-<cfg>.csv; per-partition stage timelines in timeline-<cfg>.csv (from czkd's debug log).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
RES=${1:-${OUT:-$ROOT/bench/results/porep32}}
mkdir -p "$RES"
SIZE=${SIZE:-32GiB}
PROOFS=${PROOFS:-8}
SWEEP=${SWEEP:-10:2}
SEALS=${SEALS:-4}
WORK=${WORK:-/tmp/czkb}
DEADLINE=${DEADLINE:-540}
T0=$(date +%s)
case "$SIZE" in
32GiB) RP=8 CIRCUIT=porep-32g ;;
64GiB) RP=9 CIRCUIT=porep-64g ;;
*) echo "SIZE must be 32GiB or 64GiB" >&2; exit 2 ;;
esac
el() { echo $(( $(date +%s) - T0 )); }
say() { echo "[$(el) s] $*" | tee -a "$L/steps.log"; }
B=build-device
CZK=$ROOT/$B/czk
CZKD=$ROOT/$B/czkd
L=$WORK/log
mkdir -p "$L"
# what comes back (at most 8 files): the summary, the plots, every log in one archive
finish() {
    cp "$L/porep32.csv" "$L/timeline.png" "$L/sweep.png" "$RES/" 2>/dev/null
    cp "$L/steps.log" "$RES/porep32-steps.log" 2>/dev/null
    tar czf "$RES/porep32-logs.tgz" -C "$L" . 2>/dev/null
}
trap finish EXIT
STATE=$WORK/state
PARAMS=${PARAMS:-$WORK/params}
mkdir -p "$WORK" "$STATE/r1cs" "$PARAMS"

say "host: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), \
$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)"
df -h "$WORK" /dev/shm 2>/dev/null | tee -a "$L/steps.log"

# ---- build -------------------------------------------------------------------------------------------
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    say "build"
    if ! sh scripts/device-build $B > "$L/build.log" 2>&1; then
        tail -30 "$L/build.log"; say "BUILD FAILED"; exit 1
    fi
fi
. scripts/device-env
say "built"

# ---- test sectors -------------------------------------------------------------------------------------
C1S=""
i=1
while [ $i -le "$SEALS" ]; do
    d=$WORK/seal$i
    if [ ! -f "$d/envelope.json" ]; then
        "$CZK" testseal --sector-size "$SIZE" --registered-proof $RP --miner-id 1000 --sector-number $i \
            --seed $((7 + i)) --out "$d" --sparse > "$L/seal$i.log" 2>&1 &
    fi
    C1S="${C1S:+$C1S,}$d/envelope.json"
    i=$((i + 1))
done
wait
i=1
while [ $i -le "$SEALS" ]; do
    [ -f "$WORK/seal$i/envelope.json" ] || { cat "$L/seal$i.log"; say "SEAL $i FAILED"; exit 1; }
    i=$((i + 1))
done
say "sealed $SEALS sparse $SIZE test sectors"

# ---- the compact R1CS (cached where czkd reads it) and the parameters (development, made on the
# GPU; reused when present), side by side: each records the circuit on one core --------------------
R1CC=$STATE/r1cs/$CIRCUIT.r1cc
if [ ! -f "$R1CC" ]; then
    /usr/bin/time -v "$CZK" circuit info $CIRCUIT --compact --save "$R1CC" > "$L/r1cs.json" 2> "$L/r1cs.time" &
    r1pid=$!
fi
if ! ls "$PARAMS"/v28-stacked-proof-of-replication-*.params >/dev/null 2>&1; then
    say "setup $CIRCUIT on the GPU into $PARAMS"
    /usr/bin/time -v "$CZK" setup --circuit $CIRCUIT --gpu --out "$PARAMS" > "$L/setup.log" 2>&1 ||
        { tail -30 "$L/setup.log"; say "SETUP FAILED"; exit 1; }
    tail -12 "$L/setup.log"
fi
if [ -n "${r1pid:-}" ]; then
    wait $r1pid || { cat "$L/r1cs.json" "$L/r1cs.time"; say "R1CS FAILED"; exit 1; }
fi
"$CZK" circuit info $CIRCUIT --compact --load "$R1CC" > "$L/r1cs_load.json" 2>&1 ||
    { cat "$L/r1cs_load.json"; say "R1CS LOAD FAILED"; exit 1; }
say "compact R1CS: $(tr -d '\n ' < "$L/r1cs.json" 2>/dev/null | grep -o '"bytes_total":[0-9]*') \
$(tr -d '\n ' < "$L/r1cs.json" 2>/dev/null | grep -o '"record_seconds":[0-9.]*') \
$(tr -d '\n ' < "$L/r1cs_load.json" | grep -o '"load_seconds":[0-9.]*')"
ls -l "$PARAMS" | tee -a "$L/steps.log"
VK=$(ls "$PARAMS"/*.vk | head -1)

# ---- the sweep ----------------------------------------------------------------------------------------
echo "sector_size,config,partition_workers,gpu_workers,proofs,verified,s_per_proof_steady,s_per_proof_fill,first_proof_s,\
czkd_ready_s,peak_rss_gib,gpu_busy" > "$L/porep32.csv"
SOCK=$WORK/czkd.sock
for cfg in $SWEEP; do
    if [ "$(el)" -gt "$DEADLINE" ]; then say "deadline: $cfg and later not run"; break; fi
    pw=${cfg%%:*}
    gw=${cfg##*:}
    name=pw${pw}gw${gw}
    cat > "$WORK/czkd.toml" <<EOF
[synthesis]
partition_workers = $pw
[gpus]
gpu_workers_per_device = $gw
EOF
    rm -f "$SOCK"
    tc=$(date +%s.%N)
    "$CZKD" --config "$WORK/czkd.toml" --backend cuda --listen "unix://$SOCK" --status-listen "" \
        --state-dir "$STATE" --param-cache "$PARAMS" --log-level debug > "$L/czkd-$name.log" 2>&1 &
    pid=$!
    n=0
    while [ ! -S "$SOCK" ]; do
        kill -0 $pid 2>/dev/null || { tail -20 "$L/czkd-$name.log"; say "CZKD DIED"; exit 1; }
        n=$((n + 1)); [ $n -gt 1200 ] && { say "czkd did not start"; kill -9 $pid; exit 1; }
        sleep 0.1
    done
    ready=$(awk -v a="$(date +%s.%N)" -v b="$tc" 'BEGIN {printf "%.1f", a - b}')
    # GPU utilization every 100 ms while the batch runs
    nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader,nounits -lms 100 \
        > "$L/gpu-$name.csv" 2>/dev/null &
    smi=$!
    # czkd's RSS every 0.5 s
    ( while kill -0 $pid 2>/dev/null; do
          echo "$(date +%s.%N) $(awk '/VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null)"; sleep 0.5
      done ) > "$L/rss-$name.txt" &
    rssmon=$!
    say "czkd $name ready in ${ready} s; batch of $PROOFS"
    "$CZK" bench batch --addr "unix://$SOCK" --c1 "$C1S" --miner-id 1000 --count "$PROOFS" -j $((pw / 10 + 2)) \
        --vk "$VK" --csv "$L/batch-$name.csv" > "$L/batch-$name.log" 2>&1
    brc=$?
    hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
    "$CZK" status --addr "unix://$SOCK" --format json > "$L/status-$name.json" 2>&1
    kill $smi 2>/dev/null
    kill -TERM $pid; wait $pid
    kill $rssmon 2>/dev/null
    cat "$L/batch-$name.log"
    made=$(awk -F, 'NR > 1 && $4 == "COMPLETED"' "$L/batch-$name.csv" 2>/dev/null | wc -l)
    ver=$(awk -F, 'NR > 1 && $5 == "yes"' "$L/batch-$name.csv" 2>/dev/null | wc -l)
    # steady state: proofs done after the first two, over the time between; fill: batch wall / proofs
    steady=$(awk -F, 'NR > 1 && $4 == "COMPLETED" {print $12}' "$L/batch-$name.csv" | sort -n |
        awk '{t[NR] = $1} END {if (NR >= 4) printf "%.2f", (t[NR] - t[2]) / (NR - 2); else print "nan"}')
    fill=$(awk -F, 'NR > 1 && $4 == "COMPLETED" {print $12}' "$L/batch-$name.csv" | sort -n |
        awk '{t = $1} END {if (NR) printf "%.2f", t / NR; else print "nan"}')
    first=$(awk -F, 'NR > 1 && $4 == "COMPLETED" {print $12}' "$L/batch-$name.csv" | sort -n | head -1)
    busy=$(awk -F', *' '{s += $2; n++} END {if (n) printf "%.3f", s / n / 100; else print "nan"}' \
        "$L/gpu-$name.csv")
    echo "$SIZE,$name,$pw,$gw,$made,$ver,$steady,$fill,$first,$ready,$(awk -v k="$hwm" 'BEGIN {printf "%.2f", k / 1048576}'),$busy" \
        >> "$L/porep32.csv"
    # per-partition timelines from the debug log
    sed -n 's/.*job="\{0,1\}\([^" ]*\)"\{0,1\} part=\{0,1\}\([0-9]*\).*synthesis \([0-9.]*\)\.\.\([0-9.]*\) s, queued \([0-9.]*\), gpu \([0-9.]*\)\.\.\([0-9.]*\) s, finalized \([0-9.]*\).*/\1,\2,\3,\4,\5,\6,\7,\8/p' \
        "$L/czkd-$name.log" > "$L/timeline-$name.csv"
    say "$name: $made made, $ver verified, steady $steady s/proof, peak RSS $(awk -v k="$hwm" 'BEGIN {printf "%.2f", k / 1048576}') GiB, GPU busy $busy (batch rc $brc)"
done
column -s, -t "$L/porep32.csv" 2>/dev/null || cat "$L/porep32.csv"
python3 "$ROOT/bench/porep32_plot.py" "$L" > "$L/plot.log" 2>&1 || say "plots not made here (see plot.log)"
say "done"
