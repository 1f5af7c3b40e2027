#!/bin/sh
# PoRep C2 end to end, as a storage provider's Curio would run it against
# czkd: a sector sealed by `czk testseal`, development parameters written by
# `czk setup` under Filecoin's file names into a temporary param cache, czkd
# started on it, exactly Curio's Prove request sent (tests/server/curio_prove.py,
# an independent Python gRPC client), and the returned proof verified with
# `czk verify --c1` (public inputs computed from the C1 output as verify_seal
# computes them). Then the refusals: a flipped label, a wrong Merkle path, a
# wrong comm_r, a C1 for another sector size, truncated JSON, a missing
# parameter file — each refused with its own message while czkd stays up;
# and a job submitted, czkd restarted while it runs, the job proved after;
# then czk's own client: prove / submit / await / bench batch --c1.
#   porep_check.sh BUILD_DIR [SECTOR_SIZE]     (2KiB by default; 8MiB in make bench)
# CZK_POREP_PARAMS=DIR: copy DIR's parameters (czk setup's) instead of setting up.
# CZK_PARAMS_SAVE=DIR: copy the parameters into DIR once set up (for kinds_check.sh,
# which loads PoRep beside the other proof kinds).
# Exit 0 pass, 1 fail, 77 SKIP (no czkd, no python3-grpcio / protoc).
set -u
BUILD=${1:?usage: porep_check.sh BUILD_DIR [SECTOR_SIZE]}
SIZE=${2:-2KiB}
HERE=$(cd "$(dirname "$0")" && pwd)
CZKD=$BUILD/czkd
CZK=$BUILD/czk
PY=/usr/bin/python3
[ -x "$CZKD" ] && [ -x "$CZK" ] || { echo "SKIP: czkd or czk is not built"; exit 77; }
if ! "$PY" -c 'import grpc, google.protobuf' 2>/dev/null || ! command -v protoc >/dev/null 2>&1; then
    echo "SKIP: python3-grpcio, python3-protobuf or protoc is missing"
    exit 77
fi
case $SIZE in
2KiB) RP=5 CIRCUIT=porep-2k OTHER=8MiB OTHER_RP=6 ;;
8MiB) RP=6 CIRCUIT=porep-8m OTHER=2KiB OTHER_RP=5 ;;
*) echo "porep_check: sector size 2KiB or 8MiB, not $SIZE"; exit 2 ;;
esac
MINER=1000
SECTOR=5
T=$(mktemp -d "${TMPDIR:-/tmp}/czk-porep-XXXXXX")
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
    echo "porep_check: FAIL: $*"
    [ -f "$T/czkd.log" ] && tail -20 "$T/czkd.log"
    exit 1
}
prove() { # prove EXPECT ENVELOPE [RP] [PROOF]: Curio's Prove call
    "$PY" "$HERE/curio_prove.py" --addr "unix://$T/czkd.sock" --envelope "$2" --registered-proof "${3:-$RP}" \
        --miner-id "$MINER" --expect "$1" ${4:+--proof "$4"}
}

t0=$(date +%s)
expect 0 "" -- "$CZK" testseal --sector-size "$SIZE" --registered-proof "$RP" --miner-id "$MINER" \
    --sector-number "$SECTOR" --seed 7 --out "$T/seal"
[ -s "$T/seal/c1.json" ] && [ -s "$T/seal/envelope.json" ] || fail "testseal wrote no c1.json / envelope.json"
if [ -n "${CZK_POREP_PARAMS:-}" ]; then # parameters made earlier by czk setup (for reruns)
    cp -r "$CZK_POREP_PARAMS" "$T/params" || fail "no $CZK_POREP_PARAMS"
else
    expect 0 "not a trusted setup" -- "$CZK" setup --circuit "$CIRCUIT" --out "$T/params" --seed 3
fi
VK=$(ls "$T"/params/v28-*.vk 2>/dev/null | head -1)
[ -n "$VK" ] || fail "czk setup wrote no v28 .vk file"
if [ -n "${CZK_PARAMS_SAVE:-}" ]; then
    mkdir -p "$CZK_PARAMS_SAVE" && cp "$T"/params/* "$CZK_PARAMS_SAVE/" || fail "cannot save the parameters to $CZK_PARAMS_SAVE"
fi
expect 1 "exists; not overwriting" -- "$CZK" setup --circuit "$CIRCUIT" --out "$T/params" --seed 4
expect 0 "development" -- "$CZK" params check "$T/params"
echo "porep_check: sealed $SIZE and set up $CIRCUIT in $(( $(date +%s) - t0 )) s"

"$CZKD" --listen "unix://$T/czkd.sock" --status-listen "" --backend cpu --budget 8GiB --state-dir "$T/state" \
    --param-cache "$T/params" >"$T/czkd.log" 2>&1 &
PID=$!
i=0
while [ ! -S "$T/czkd.sock" ]; do
    kill -0 "$PID" 2>/dev/null || fail "czkd exited"
    [ $i -ge 300 ] && fail "czkd did not start"
    sleep 0.1
    i=$((i + 1))
done

# the proof Curio asks for, then VerifySeal's check of it
expect 0 "COMPLETED" -- prove completed "$T/seal/envelope.json" "$RP" "$T/proof.bin"
expect 0 "^valid" -- "$CZK" verify --vk "$VK" --proof "$T/proof.bin" --c1 "$T/seal/c1.json"
# a proof of another sector's C1 does not verify against this one's inputs
"$CZK" testseal --sector-size "$SIZE" --registered-proof "$RP" --miner-id "$MINER" --sector-number 6 --seed 8 \
    --out "$T/seal6" >/dev/null 2>&1 || fail "testseal of sector 6"
expect 1 "^invalid" -- "$CZK" verify --vk "$VK" --proof "$T/proof.bin" --c1 "$T/seal6/c1.json"

# tampered inputs: each refused with its own message; czkd stays up
b64() { "$PY" -c 'import base64,json,sys; e=json.load(open(sys.argv[1])); c=json.loads(base64.b64decode(e["Phase1Out"])); exec(sys.argv[3]); e["Phase1Out"]=base64.b64encode(json.dumps(c,separators=(",",":")).encode()).decode(); open(sys.argv[2],"w").write(json.dumps(e))' "$@"; }
P0='list(c["vanilla_proofs"].values())[0][0][0]'
b64 "$T/seal/envelope.json" "$T/label.json" "v=$P0[\"labeling_proofs\"][0]; v[\"parents\"][0][0]^=1"
expect 0 "INVALID_ARGUMENT.*label" -- prove invalid_argument "$T/label.json"
b64 "$T/seal/envelope.json" "$T/path.json" "d=$P0[\"comm_r_last_proof\"][\"data\"]; d=list(d.values())[0]; d[\"path\"][\"path\"][0][\"hashes\"][0][0]^=1"
expect 0 "INVALID_ARGUMENT.*comm_r_last" -- prove invalid_argument "$T/path.json"
b64 "$T/seal/envelope.json" "$T/commr.json" 'c["comm_r"][0]^=1'
expect 0 "INVALID_ARGUMENT.*comm_r" -- prove invalid_argument "$T/commr.json"
"$CZK" testseal --sector-size "$OTHER" --registered-proof "$OTHER_RP" --miner-id "$MINER" --sector-number "$SECTOR" \
    --seed 9 --out "$T/other" --sparse >/dev/null 2>&1 || fail "testseal $OTHER"
expect 0 "INVALID_ARGUMENT.*registered_proof" -- prove invalid_argument "$T/other/envelope.json"
head -c 300 "$T/seal/envelope.json" >"$T/trunc.json"
printf '{"SectorNum":%s,"Phase1Out":"%s","SectorSize":%s}' "$SECTOR" \
    "$(head -c 200 "$T/seal/c1.json" | base64 -w0)" "$(echo "$SIZE" | sed 's/2KiB/2048/; s/8MiB/8388608/')" \
    >"$T/trunc.json"
expect 0 "INVALID_ARGUMENT" -- prove invalid_argument "$T/trunc.json"
# a parameter file czkd cannot find: FAILED_PRECONDITION naming it
expect 0 "FAILED_PRECONDITION.*v28-stacked-proof-of-replication" -- prove failed_precondition "$T/other/envelope.json" \
    "$OTHER_RP"
kill -0 "$PID" 2>/dev/null || fail "czkd died"
expect 0 '"completed":1' -- "$CZK" status --addr "unix://$T/czkd.sock" --format json

# nothing lost across a restart: sector 6 submitted (SubmitProof), czkd
# stopped while it proves, started again on the same state; its job comes
# back under Curio's id, from the journalled C1, and its proof verifies
submit6() { "$PY" "$HERE/curio_prove.py" --addr "unix://$T/czkd.sock" --envelope "$T/seal6/envelope.json" \
    --registered-proof "$RP" --miner-id "$MINER" "$@"; }
expect 0 "SUBMITTED: job porep-$MINER-6" -- submit6 --mode submit --expect submitted
i=0
until grep -q "job=porep-$MINER-6 part=0 synthesized" "$T/czkd.log"; do
    [ $i -ge 600 ] && fail "sector 6 did not start"
    sleep 0.1
    i=$((i + 1))
done
kill -TERM "$PID"
wait "$PID"
rm -f "$T/czkd.sock"
"$CZKD" --listen "unix://$T/czkd.sock" --status-listen "" --backend cpu --budget 8GiB --state-dir "$T/state" \
    --param-cache "$T/params" >"$T/czkd2.log" 2>&1 &
PID=$!
i=0
while [ ! -S "$T/czkd.sock" ]; do
    kill -0 "$PID" 2>/dev/null || fail "czkd did not restart: $(tail -5 "$T/czkd2.log")"
    [ $i -ge 300 ] && fail "czkd did not restart"
    sleep 0.1
    i=$((i + 1))
done
# the journal's jobs are re-queued in the background once czkd listens (docs/daemon.md,
# "Parameters, the budget and restarts"): wait for the line, 60 s at most
i=0
until grep -q "job=porep-$MINER-6 re-queued: $CIRCUIT, sector 6 of miner $MINER" "$T/czkd2.log" || [ $i -ge 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
grep -q "job=porep-$MINER-6 re-queued: $CIRCUIT, sector 6 of miner $MINER" "$T/czkd2.log" ||
    fail "sector 6 was not re-queued: $(grep -i "porep-$MINER-6\|journal" "$T/czkd2.log")"
expect 0 "COMPLETED" -- submit6 --mode await --proof "$T/proof6.bin"
expect 0 "^valid" -- "$CZK" verify --vk "$VK" --proof "$T/proof6.bin" --c1 "$T/seal6/c1.json"

# czk's own client sends the same request (--c1): the envelope as it is, the
# bare JSON wrapped byte for byte as Curio's wrapC1Output wraps it (so czkd
# answers both from the job Curio's Prove made); a flag that disagrees with
# the C1 is refused naming the field; a proof checked against another C1 is
# invalid; bench batch proves 3 more (unique request ids) and verifies each
ADDR="unix://$T/czkd.sock"
expect 0 "^valid" -- "$CZK" prove --addr "$ADDR" --c1 "$T/seal/envelope.json" --miner-id "$MINER" \
    --proof "$T/proof_c1.bin" --vk "$VK"
cmp -s "$T/proof_c1.bin" "$T/proof.bin" || fail "czk prove --c1 returned another proof than Curio's Prove"
expect 0 "^valid" -- "$CZK" prove --addr "$ADDR" --c1 "$T/seal/c1.json" --miner-id "$MINER" --sector-number "$SECTOR" \
    --registered-proof "$RP" --proof "$T/proof_bare.bin" --param-cache "$T/params" --write-envelope "$T/sent.json"
cmp -s "$T/sent.json" "$T/seal/envelope.json" || fail "the bare C1 was not wrapped as Curio wraps it"
expect 2 "registered_proof" -- "$CZK" prove --addr "$ADDR" --c1 "$T/seal/envelope.json" --miner-id "$MINER" \
    --registered-proof "$OTHER_RP"
expect 2 "SectorNum is $SECTOR" -- "$CZK" prove --addr "$ADDR" --c1 "$T/seal/envelope.json" --miner-id "$MINER" \
    --sector-number 9
expect 2 "replica_id" -- "$CZK" prove --addr "$ADDR" --c1 "$T/seal/c1.json" --miner-id 1001 --sector-number "$SECTOR"
expect 2 "give --sector-number" -- "$CZK" submit --addr "$ADDR" --c1 "$T/seal/c1.json" --miner-id "$MINER"
expect 1 "^invalid" -- "$CZK" await --addr "$ADDR" "porep-$MINER-$SECTOR" --c1 "$T/seal6/envelope.json" \
    --miner-id "$MINER" --vk "$VK"
expect 0 "all 3 proofs verified" -- "$CZK" bench batch --addr "$ADDR" --c1 "$T/seal/envelope.json,$T/seal6/envelope.json" \
    --miner-id "$MINER" --count 3 -j 2 --param-cache "$T/params" --csv "$T/bench.csv"
[ "$(grep -c ",COMPLETED,yes," "$T/bench.csv")" -eq 3 ] || fail "bench.csv: $(cat "$T/bench.csv")"

kill -TERM "$PID"
wait "$PID"
rc=$?
PID=
[ $rc -eq 0 ] || fail "czkd exited $rc after SIGTERM"
[ "$FAILS" -eq 0 ] || fail "$FAILS check(s) failed"
echo "porep_check: ok ($SIZE: Curio's Prove proved, verified with the C1's public inputs; 6 tampered requests refused; a job across a restart proved; czk prove/bench batch --c1 verified)"
exit 0
