#!/bin/sh
# czk — the GPU machine's whole job in one call: build (scripts/device-build),
# the GPU tests, then bench_gpu, bench_fr_pack (the host's packing of uploads)
# and bench_gpu_prove (the CUDA backend's start
# on PoRep-shaped partitions of 2^20, 2^24 and 2^27; 2^20 and 2^22 with
# --quick; skipped with --msm or --g2). Logs and the CSVs go to $OUT (or
# bench/results when OUT is unset). Pass --quick to bench only 2^20, 2^22
# (NTT, H, and the G1 and G2 MSM rows), --msm for the MSM rows only (G1 and
# G2), --g2 for the G2 MSM rows only (2^20 … 2^25), --pack-ab for only
# start at 2^27 with a SHA-256 circuit's a, b, c given plain and given
# packed (bench_gpu_prove --abc sha [--packed]; about 300 s after the tests).
#   device run: set -o pipefail; sh bench/gpu.sh 2>&1 | tee $OUT/log
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOG=${OUT:-$ROOT/bench/results}
mkdir -p "$LOG"
cd "$ROOT" || exit 1
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv 2>&1 | tee "$LOG/nvidia-smi.txt"
t0=$(date +%s)
if ! sh scripts/device-build build-device >"$LOG/build.log" 2>&1; then
    tail -40 "$LOG/build.log"
    echo "gpu.sh: build FAILED"
    exit 1
fi
echo "gpu.sh: built in $(( $(date +%s) - t0 )) s"
. scripts/device-env
t0=$(date +%s)
(cd build-device && ctest -R '^test_gpu' --output-on-failure) >"$LOG/test.log" 2>&1
trc=$?
cat "$LOG/test.log"
echo "gpu.sh: tests rc=$trc in $(( $(date +%s) - t0 )) s"
case " $* " in
*" --pack-ab "*)
    prc=0
    for p in "" --packed; do
        ./build-device/bench_gpu_prove --reps 3 --workers 1 --abc sha $p 27 2>&1 | tee -a "$LOG/bench_prove.log"
        r=$?
        [ $r -ne 0 ] && prc=$r
    done
    cp bench/results/gpu_prove_abc_sha*.csv "$LOG/" 2>/dev/null
    echo "gpu.sh: tests rc=$trc prove bench rc=$prc"
    [ $trc -eq 0 ] && [ $prc -eq 0 ]
    exit $?
    ;;
esac
./build-device/bench_gpu "$@" 2>&1 | tee "$LOG/bench.log"
brc=$?
# the host's packing against the copy it would replace (packed uploads pay
# only where it is faster; seconds)
./build-device/bench_fr_pack 2>&1 | tee "$LOG/bench_fr_pack.log"
[ -f bench/results/fr_pack.csv ] && cp bench/results/fr_pack.csv "$LOG/fr_pack.csv"
[ -f bench/results/gpu.csv ] && cp bench/results/gpu.csv "$LOG/gpu.csv"
prc=0
case " $* " in
*" --msm "* | *" --g2 "*) ;;
*" --quick "*) ./build-device/bench_gpu_prove --reps 3 20 22 2>&1 | tee "$LOG/bench_prove.log"; prc=$? ;;
*) ./build-device/bench_gpu_prove --reps 5 20 24 27 2>&1 | tee "$LOG/bench_prove.log"; prc=$? ;;
esac
[ -f bench/results/gpu_prove.csv ] && cp bench/results/gpu_prove.csv "$LOG/gpu_prove.csv"
echo "gpu.sh: tests rc=$trc bench rc=$brc prove bench rc=$prc"
[ $trc -eq 0 ] && [ $brc -eq 0 ] && [ $prc -eq 0 ]
