#!/bin/sh
# WinningPoSt, WindowPoSt and SnapDeals end to end at 2 KiB, as Curio runs
# them against czkd: requests made by `czk testseal --kind …` (vanilla proofs
# in rust-fil-proofs' bincode, from test sectors' trees), each checked by
# `czk check --request`; development parameters by `czk setup` under
# Filecoin's file names; czkd on the CPU backend; every request sent as
# Curio's Prove (tests/server/curio_prove.py: protobuf's own JSON reader,
# Curio's request ids and priorities) and its proof verified by `czk verify
# --request` from the request's public data. Then the refusals at submit, each
# naming its field: a tampered vanilla proof, wrong randomness, each wrong
# commitment, a wrong registered proof or sector size; czkd stays up. A
# SnapDeals job across a restart (the journal keeps the request). Then
# priorities under load: PoRep C2 jobs submitted, the prover busy with the
# first and the second queued, a WinningPoSt submitted after them finishes
# before the queued PoRep.
#   kinds_check.sh BUILD_DIR
# CZK_PARAMS_2K=DIR: porep-2k's parameters made earlier (porep_check.sh saves
# them there in make test); without them porep-2k is set up here (3 min).
# Exit 0 pass, 1 fail, 77 SKIP (no czkd, no python3-grpcio / protoc).
set -u
BUILD=${1:?usage: kinds_check.sh BUILD_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
CZKD=$BUILD/czkd
CZK=$BUILD/czk
PY=/usr/bin/python3
[ -x "$CZKD" ] && [ -x "$CZK" ] || { echo "SKIP: czkd or czk is not built"; exit 77; }
if ! "$PY" -c 'import grpc, google.protobuf' 2>/dev/null || ! command -v protoc >/dev/null 2>&1; then
    echo "SKIP: python3-grpcio, python3-protobuf or protoc is missing"
    exit 77
fi
MINER=1000
WIN_RP=0   # StackedDrgWinning2KiBV1
WIN_CIRCUIT=winning-2k
WDP_RP=10  # StackedDrgWindow2KiBV1_2 (Go: …V1_1), what Curio sends today
WDP_CIRCUIT=wpost-2k
SNAP_RP=0  # RegisteredUpdateProof StackedDrg2KiBV1
SNAP_CIRCUIT=snap-2k
T=$(mktemp -d "${TMPDIR:-/tmp}/czk-kinds-XXXXXX")
PID=
cleanup() {
    [ -n "$PID" ] && kill -9 "$PID" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
FAILS=0
EXPECT_OUT=$T/out.txt
. "$HERE/../common/expect.sh"
fail() {
    echo "kinds_check: FAIL: $*"
    [ -f "$T/czkd.log" ] && tail -20 "$T/czkd.log"
    exit 1
}
ADDR="unix://$T/czkd.sock"
curio() { # curio REQUEST EXPECT [curio_prove.py flags]: Curio's Prove of a request file
    # (it runs inside expect: its variables must not be expect's want, pattern, out, got)
    cp_req=$1 cp_want=$2
    shift 2
    "$PY" "$HERE/curio_prove.py" --addr "$ADDR" --request "$cp_req" --expect "$cp_want" "$@"
}
start_czkd() { # start_czkd LOG [czkd flags]
    log=$1
    shift
    rm -f "$T/czkd.sock"
    "$CZKD" --listen "$ADDR" --status-listen "" --backend cpu --budget 8GiB --state-dir "$T/state" \
        --param-cache "$T/params" "$@" >"$log" 2>&1 &
    PID=$!
    i=0
    while [ ! -S "$T/czkd.sock" ]; do
        kill -0 "$PID" 2>/dev/null || fail "czkd exited: $(tail -5 "$log")"
        [ $i -ge 300 ] && fail "czkd did not start"
        sleep 0.1
        i=$((i + 1))
    done
}
stop_czkd() {
    kill -TERM "$PID"
    wait "$PID"
    rc=$?
    PID=
    [ $rc -eq 0 ] || fail "czkd exited $rc after SIGTERM"
}
# edit REQUEST OUT PYTHON: a copy of a request file with r (its JSON) changed;
# b(name, i) / setb(name, i, bytes) read and write a base64 field (i: the
# element of a repeated one)
edit() {
    "$PY" - "$@" <<'EOF'
import base64, json, sys
src, dst, code = sys.argv[1:4]
r = json.load(open(src))
def b(name, i=None):
    v = r[name] if i is None else r[name][i]
    return bytearray(base64.b64decode(v))
def setb(name, i, data):
    v = base64.b64encode(bytes(data)).decode()
    if i is None: r[name] = v
    else: r[name][i] = v
exec(code)
json.dump(r, open(dst, "w"))
EOF
}

# ---- the requests, as `czk testseal` makes them, and CHECK mode on each ----
t0=$(date +%s)
expect 0 "" -- "$CZK" testseal --kind winning --registered-proof $WIN_RP --miner-id $MINER --seed 11 \
    --request-out "$T/winning.json"
expect 0 "" -- "$CZK" testseal --kind window --registered-proof $WDP_RP --miner-id $MINER --partition 0 --sectors 1 \
    --seed 12 --request-out "$T/window.json"
expect 0 "" -- "$CZK" testseal --kind snap --registered-proof $SNAP_RP --seed 13 --request-out "$T/snap.json"
for k in winning window snap; do
    [ -s "$T/$k.json" ] || fail "testseal wrote no $k.json"
    expect 0 "satisfied" -- "$CZK" check --request "$T/$k.json"
done
# Curio's request ids (lib/ffi/cuzk_funcs.go): winpost-<miner>-<randomness[:8] hex>,
# wdpost-<miner>-<partition>-<randomness[:8] as Go's %d prints a byte slice>, snap-<miner>-<sector>
rnd() { # rnd REQUEST hex|go: the randomness' first 8 bytes in hex, or as Go's %d prints a []byte
    "$PY" -c 'import base64, json, sys
r = base64.b64decode(json.load(open(sys.argv[1]))["randomness"])[:8]
print(r.hex() if sys.argv[2] == "hex" else "[" + " ".join(str(x) for x in r) + "]")' "$@"
}
WIN_ID=winpost-$MINER-$(rnd "$T/winning.json" hex)
WDP_ID="wdpost-$MINER-0-$(rnd "$T/window.json" go)"
SNAP_ID=snap-$MINER-13
echo "kinds_check: requests made and checked in $(( $(date +%s) - t0 )) s ($WIN_ID, $WDP_ID, $SNAP_ID)"

# ---- parameters -------------------------------------------------------------------------------------
t0=$(date +%s)
mkdir -p "$T/params"
for c in $WIN_CIRCUIT $WDP_CIRCUIT $SNAP_CIRCUIT; do
    expect 0 "not a trusted setup" -- "$CZK" setup --circuit $c --out "$T/p-$c" --seed 3
    cp "$T/p-$c"/* "$T/params/" || fail "czk setup --circuit $c wrote nothing"
done
WIN_VK=$(ls "$T/p-$WIN_CIRCUIT"/*.vk | head -1)
WDP_VK=$(ls "$T/p-$WDP_CIRCUIT"/*.vk | head -1)
SNAP_VK=$(ls "$T/p-$SNAP_CIRCUIT"/*.vk | head -1)
case "$WIN_VK$WDP_VK" in *proof-of-spacetime-fallback*proof-of-spacetime-fallback*) ;;
*) fail "PoSt .vk files are not under Filecoin's names: $WIN_VK $WDP_VK" ;; esac
case "$SNAP_VK" in *empty-sector-update-merkletree*) ;; *) fail "snap .vk not under Filecoin's name: $SNAP_VK" ;; esac
echo "kinds_check: set up $WIN_CIRCUIT, $WDP_CIRCUIT, $SNAP_CIRCUIT in $(( $(date +%s) - t0 )) s"

# ---- each kind proved as Curio asks, verified from its request ----------------------------------------
start_czkd "$T/czkd.log"
expect 0 "COMPLETED.*192 bytes" -- curio "$T/winning.json" completed --request-id "$WIN_ID" --proof "$T/winning.bin"
expect 0 "^valid" -- "$CZK" verify --request "$T/winning.json" --vk "$WIN_VK" --proof "$T/winning.bin"
expect 0 "COMPLETED.*192 bytes" -- curio "$T/window.json" completed --request-id "$WDP_ID" --proof "$T/window.bin"
expect 0 "^valid" -- "$CZK" verify --request "$T/window.json" --vk "$WDP_VK" --proof "$T/window.bin"
expect 0 "COMPLETED" -- curio "$T/snap.json" completed --request-id "$SNAP_ID" --proof "$T/snap.bin"
expect 0 "^valid" -- "$CZK" verify --request "$T/snap.json" --vk "$SNAP_VK" --proof "$T/snap.bin"
# a proof does not verify for another request of its kind (another sector, other randomness)
"$CZK" testseal --kind window --registered-proof $WDP_RP --miner-id $MINER --partition 0 --sectors 2 --seed 14 \
    --request-out "$T/window2.json" >/dev/null 2>&1 || fail "testseal of a second WindowPoSt request"
expect 1 "^invalid" -- "$CZK" verify --request "$T/window2.json" --vk "$WDP_VK" --proof "$T/window.bin"
# czk's own client sends the same requests (a full partition of two sectors this time)
expect 0 "^valid" -- "$CZK" prove --addr "$ADDR" --request "$T/window2.json" --vk "$WDP_VK" --proof "$T/window2.bin"
expect 0 "^valid" -- "$CZK" prove --addr "$ADDR" --request "$T/winning.json" --request-id win-again --vk "$WIN_VK"

# ---- refused at submit, naming the field; czkd stays up -------------------------------------------------
bad() { # bad NAME SOURCE PYTHON PATTERN: the edited request refused with PATTERN
    edit "$T/$2.json" "$T/bad-$1.json" "$3" || fail "edit $1"
    expect 0 "$4" -- curio "$T/bad-$1.json" invalid_argument --request-id "bad-$1"
}
# a flipped byte in the last inclusion proof's region, in the first sector's comm_r, in comm_r_last (the last 32 bytes)
bad leaf winning 'v = b("vanillaProofs", 0); v[len(v) // 2] ^= 1; setb("vanillaProofs", 0, v)' \
    "INVALID_ARGUMENT.*vanilla_proofs\[0\]"
bad comm_r window 'v = b("vanillaProofs", 0); v[8] ^= 1; setb("vanillaProofs", 0, v)' \
    "INVALID_ARGUMENT.*vanilla_proofs\[0\].*comm_r"
bad comm_r_last window 'v = b("vanillaProofs", 0); v[-1] ^= 1; setb("vanillaProofs", 0, v)' \
    "INVALID_ARGUMENT.*vanilla_proofs\[0\]"
bad trailing window 'v = b("vanillaProofs", 0); v.append(0); setb("vanillaProofs", 0, v)' \
    "INVALID_ARGUMENT.*vanilla_proofs\[0\] has 5681 bytes.*exactly 5680"
bad randomness window 'v = b("randomness"); v[0] ^= 1; setb("randomness", None, v)' \
    "INVALID_ARGUMENT.*vanilla_proofs\[0\]"
bad randomness_len winning 'v = b("randomness"); setb("randomness", None, v[:31])' \
    "INVALID_ARGUMENT.*randomness must be 32 bytes"
bad winning_partition winning 'r["partitionIndex"] = 1' "INVALID_ARGUMENT.*partition"
bad kind window 'r["registeredProof"] = "0"' "INVALID_ARGUMENT.*Winning"
bad sector_size window 'r["sectorSize"] = "8388608"' "INVALID_ARGUMENT.*sector_size"
bad no_vanilla window 'r["vanillaProofs"] = []' "INVALID_ARGUMENT.*vanilla_proofs"
bad same_sector window2 'r["vanillaProofs"][1] = r["vanillaProofs"][0]' "INVALID_ARGUMENT.*vanilla_proofs\[1\].sector_id"
bad three_sectors window2 'r["vanillaProofs"].append(r["vanillaProofs"][0])' "INVALID_ARGUMENT.*vanilla_proofs has 3 entries.*at most 2"
bad comm_r_new snap 'v = b("commRNew"); v[0] ^= 1; setb("commRNew", None, v)' "INVALID_ARGUMENT.*comm_r_new"
bad comm_r_old snap 'v = b("commROld"); v[0] ^= 1; setb("commROld", None, v)' "INVALID_ARGUMENT.*comm_r_old"
bad comm_d_new snap 'v = b("commDNew"); v[0] ^= 1; setb("commDNew", None, v)' "INVALID_ARGUMENT.*comm_d_new"
bad snap_leaf snap 'v = b("vanillaProofs", 0); v[len(v) // 2] ^= 1; setb("vanillaProofs", 0, v)' \
    "INVALID_ARGUMENT.*vanilla_proofs\[0\]"
bad snap_count snap 'r["vanillaProofs"] = r["vanillaProofs"] * 2' "INVALID_ARGUMENT.*vanilla_proofs has 2 entries.*at most 1"
kill -0 "$PID" 2>/dev/null || fail "czkd died"
expect 0 '"completed":5' -- "$CZK" status --addr "$ADDR" --format json

# nothing lost across a restart: a SnapDeals job submitted, czkd stopped while
# it proves, started again on the same state; the job comes back from the
# journalled request (decoded and checked again) and its proof verifies
expect 0 "SUBMITTED" -- curio "$T/snap.json" submitted --mode submit --request-id "$SNAP_ID-restart"
i=0
until grep -q "job=$SNAP_ID-restart part=0 synthesized" "$T/czkd.log"; do
    [ $i -ge 600 ] && fail "the SnapDeals job did not start"
    sleep 0.1
    i=$((i + 1))
done
stop_czkd
start_czkd "$T/czkd-restart.log"
# re-queued in the background once czkd listens: wait for the line, 60 s at most
i=0
until grep -q "job=$SNAP_ID-restart re-queued: $SNAP_CIRCUIT, SNAP_DEALS_UPDATE" "$T/czkd-restart.log" ||
    [ $i -ge 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
grep -q "job=$SNAP_ID-restart re-queued: $SNAP_CIRCUIT, SNAP_DEALS_UPDATE" "$T/czkd-restart.log" ||
    fail "the SnapDeals job was not re-queued: $(grep -i "restart\|journal" "$T/czkd-restart.log")"
expect 0 "COMPLETED" -- curio "$T/snap.json" completed --mode await --request-id "$SNAP_ID-restart" \
    --proof "$T/snap-restart.bin"
expect 0 "^valid" -- "$CZK" verify --request "$T/snap.json" --vk "$SNAP_VK" --proof "$T/snap-restart.bin"
stop_czkd

# ---- priorities under load: PoRep queued, a WinningPoSt submitted later finishes first -------------------
t0=$(date +%s)
if [ -n "${CZK_PARAMS_2K:-}" ] && ls "$CZK_PARAMS_2K"/v28-stacked-proof-of-replication-*.params >/dev/null 2>&1; then
    cp "$CZK_PARAMS_2K"/v28-stacked-proof-of-replication-* "$T/params/" || fail "copy porep-2k parameters"
else
    expect 0 "not a trusted setup" -- "$CZK" setup --circuit porep-2k --out "$T/p-porep" --seed 3
    cp "$T/p-porep"/* "$T/params/"
fi
for s in 1 2; do
    "$CZK" testseal --sector-size 2KiB --registered-proof 5 --miner-id $MINER --sector-number $s --seed $((20 + s)) \
        --out "$T/seal$s" >/dev/null 2>&1 || fail "testseal PoRep sector $s"
done
# one partition synthesized and one proved at a time: the second PoRep waits behind the first
# (critical_workers stays at its default, 1)
printf '[synthesis]\npartition_workers = 1\n[gpus]\ngpu_workers_per_device = 1\n' >"$T/czkd.toml"
start_czkd "$T/czkd-load.log" --config "$T/czkd.toml"
for s in 1 2; do
    expect 0 "SUBMITTED" -- "$PY" "$HERE/curio_prove.py" --addr "$ADDR" --envelope "$T/seal$s/envelope.json" \
        --registered-proof 5 --miner-id $MINER --mode submit --expect submitted
done
i=0
until grep -q "job=porep-$MINER-1 part=0 synthesized" "$T/czkd-load.log"; do
    [ $i -ge 1200 ] && fail "PoRep sector 1 was not synthesized"
    sleep 0.1
    i=$((i + 1))
done
expect 0 "COMPLETED.*192 bytes" -- curio "$T/winning.json" completed --request-id "$WIN_ID-load" \
    --proof "$T/winning-load.bin"
# the WinningPoSt is done; the PoRep queued before it is not (it is left in the journal: czkd stops now)
i=0
until grep -q "job=$WIN_ID-load done:" "$T/czkd-load.log" || [ $i -ge 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
order=$(sed -n 's/.*job=\([^ ]*\) .*done: .*/\1/p' "$T/czkd-load.log" | tr '\n' ' ')
echo "kinds_check: done under load when the WinningPoSt returned: $order"
case "$order" in
*"$WIN_ID-load "*) ;;
*) echo "FAIL: the WinningPoSt's end is not in czkd's log: $order"; FAILS=$((FAILS + 1)) ;;
esac
case "$order" in
*"porep-$MINER-2 "*) echo "FAIL: the PoRep queued before the WinningPoSt finished first: $order"; FAILS=$((FAILS + 1)) ;;
esac
expect 0 "^valid" -- "$CZK" verify --request "$T/winning.json" --vk "$WIN_VK" --proof "$T/winning-load.bin"
expect 0 "COMPLETED" -- "$PY" "$HERE/curio_prove.py" --addr "$ADDR" --envelope "$T/seal1/envelope.json" \
    --registered-proof 5 --miner-id $MINER --mode await --expect completed
stop_czkd
echo "kinds_check: priorities under load in $(( $(date +%s) - t0 )) s"

[ "$FAILS" -eq 0 ] || fail "$FAILS check(s) failed"
echo "kinds_check: ok (2 KiB WinningPoSt, WindowPoSt of a partial and a full partition, SnapDeals proved through czkd and verified from their requests; 17 bad requests refused naming the field; a SnapDeals job across a restart; a WinningPoSt ahead of queued PoRep)"
exit 0
