#!/bin/sh
# The czk tool's command lines: the documented forms work, and missing,
# corrupt or mismatched files give clear errors and the documented exit codes
# (0 valid/success, 1 invalid/failure, 2 usage).
#   cli_check.sh CZK_BINARY
set -u
CZK=$1
# expect CODE PATTERN -- command...
. "$(cd "$(dirname "$0")/../common" && pwd)/expect.sh"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cd "$DIR"

expect 2 "usage" -- "$CZK"
expect 0 "setup   --circuit ID" -- "$CZK" help
expect 2 "unknown command" -- "$CZK" frobnicate
if "$CZK" help | grep -q "client commands"; then # built with the service
    expect 0 "prove   --addr A --c1 C1.json" -- "$CZK" help
    expect 2 "miner-id is required" -- "$CZK" prove --addr unix:///nonexistent --c1 c1.json
    expect 2 "cannot open c1.json" -- "$CZK" prove --addr unix:///nonexistent --c1 c1.json --miner-id 1
    expect 2 "no --circuit or --input" -- "$CZK" submit --addr unix:///nonexistent --c1 c1.json --circuit demo
fi
expect 2 "unknown circuit 'nope'" -- "$CZK" setup --circuit nope --out keys
expect 2 "--out is required" -- "$CZK" setup --circuit demo
expect 2 "unknown option '--bogus'" -- "$CZK" setup --circuit demo --out keys --bogus 1
expect 2 "non-negative integer" -- "$CZK" setup --circuit demo --out keys --seed -3
expect 0 "not a trusted setup" -- "$CZK" setup --circuit demo --out keys --seed 1
expect 0 "not a trusted setup" -- "$CZK" setup --circuit synthetic-10 --out keys --seed 2
expect 0 "proved demo" -- "$CZK" prove --circuit demo --params keys/demo.params --input 5 --proof p.bin --public pub.json
expect 0 "^valid" -- "$CZK" verify --vk keys/demo.vk --proof p.bin --public pub.json
[ "$(wc -c <p.bin)" -eq 192 ] || { echo "FAIL: proof is not 192 bytes"; FAILS=$((FAILS + 1)); }

# params check: Filecoin's v28 file names judged by their digest
mkdir fil
expect 0 "no Filecoin v28 parameter file" -- "$CZK" params check fil
[ -z "$(ls fil)" ] || { echo "FAIL: params check wrote into its directory"; FAILS=$((FAILS + 1)); }
expect 2 "usage" -- "$CZK" params check
expect 1 "not a directory" -- "$CZK" params check nowhere

# Filecoin requests: testseal --request-out writes Curio's PoRep request,
# czk check decodes, validates and CHECKs it as czkd would (--c1: the shorthand)
TS="testseal --sector-size 2KiB --registered-proof 5 --miner-id 1000 --sector-number 7 --seed 3"
expect 0 "wrote the request ts/request.json" -- "$CZK" $TS --out ts --request-out ts/request.json
expect 0 '"proofKind": "POREP_SEAL_COMMIT"' -- cat ts/request.json
expect 0 "^partition 0: satisfied" -- "$CZK" check --request ts/request.json
expect 0 "^partition 0: satisfied" -- "$CZK" check --request ts/request.json --partition 0
expect 0 "circuit porep-2k, 1 partition" -- "$CZK" check --c1 ts/envelope.json --miner-id 1000
expect 0 "^partition 0: satisfied" -- "$CZK" check --c1 ts/c1.json --miner-id 1000 --sector-number 7
expect 2 "the request has 1 partition" -- "$CZK" check --request ts/request.json --partition 1
expect 1 "not the replica id of miner 1001" -- "$CZK" check --c1 ts/envelope.json --miner-id 1001
expect 2 "bare C1 output: give --sector-number" -- "$CZK" check --c1 ts/c1.json --miner-id 1000
expect 2 "miner-id is required" -- "$CZK" check --c1 ts/c1.json
expect 2 "not both" -- "$CZK" check --request ts/request.json --c1 ts/c1.json --miner-id 1000
expect 2 "go with --c1" -- "$CZK" check --request ts/request.json --miner-id 1000
expect 2 "--request is required" -- "$CZK" check
expect 2 "cannot open missing.json" -- "$CZK" check --request missing.json
sed 's/"minerId": "1000"/"minerId": "1001"/' ts/request.json >wrong_miner.json
expect 1 "not the replica id of miner 1001" -- "$CZK" check --request wrong_miner.json
sed 's/"minerId"/"minerID"/' ts/request.json >unknown.json
expect 2 'unknown field "minerID"' -- "$CZK" check --request unknown.json
sed 's/"registeredProof": "5"/"registeredProof": "5", "registered_proof": 5/' ts/request.json >twice.json
expect 2 "registeredProof given twice" -- "$CZK" check --request twice.json
sed 's/"POREP_SEAL_COMMIT"/"SEAL"/' ts/request.json >kind.json
expect 2 'proofKind: unknown value "SEAL"' -- "$CZK" check --request kind.json
# testseal --data / --ticket: zero data (shorter than the sector: zero-extended)
# seals to the empty 2 KiB sector's comm_d, rust-fil-proofs' test_compute_comm_d_empty
head -c 1000 /dev/zero >zero.bin
T1=0101010101010101010101010101010101010101010101010101010101010101
expect 0 "comm_d     fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833" -- \
    "$CZK" $TS --out tz --data zero.bin --ticket $T1
expect 0 "ticket     $T1" -- "$CZK" $TS --out tz --data zero.bin --ticket $T1
printf '\300' | dd of=zero.bin bs=1 seek=63 conv=notrunc 2>/dev/null
expect 2 "node 1 of the data (byte 63 = 0xc0) has its top two bits set" -- "$CZK" $TS --out tz --data zero.bin
head -c 2049 /dev/zero >long.bin
expect 2 "larger than the sector" -- "$CZK" $TS --out tz --data long.bin
expect 2 "64 hex digits" -- "$CZK" $TS --out tz --ticket 0102
expect 2 "not with --sparse" -- "$CZK" $TS --out tz --data long.bin --sparse

# mismatched files
expect 1 "another circuit" -- "$CZK" prove --circuit demo --params keys/synthetic-10.params --input 5 --proof q.bin
expect 1 "^invalid" -- "$CZK" verify --vk keys/synthetic-10.vk --proof p.bin --public pub.json
echo '["1", "2"]' >two.json
expect 1 "expects 1 public inputs" -- "$CZK" verify --vk keys/demo.vk --proof p.bin --public two.json
# corrupt and missing files
head -c 1000 keys/demo.params >short.params
expect 1 "short.params" -- "$CZK" prove --circuit demo --params short.params --input 5 --proof q.bin
expect 1 "cannot open\|No such file" -- "$CZK" prove --circuit demo --params missing.params --input 5 --proof q.bin
cp p.bin bad.bin
# byte 100 (inside B) complemented: always a change (writing 0xff left a proof
# whose byte 100 was already 0xff valid, one run in 256)
byte=$(od -An -tu1 -j100 -N1 p.bin | tr -d ' ')
printf "$(printf '\\%03o' $((255 - byte)))" | dd of=bad.bin bs=1 seek=100 conv=notrunc 2>/dev/null
cmp -s p.bin bad.bin && { echo "FAIL: bad.bin equals p.bin"; FAILS=$((FAILS + 1)); }
expect 1 "^invalid" -- "$CZK" verify --vk keys/demo.vk --proof bad.bin --public pub.json
head -c 100 p.bin >cut.bin
expect 1 "^invalid" -- "$CZK" verify --vk keys/demo.vk --proof cut.bin --public pub.json
expect 2 "missing.vk" -- "$CZK" verify --vk missing.vk --proof p.bin --public pub.json
# verify --request: the request's partitions against the proof and the vk
expect 1 "the verifying key takes 1 public inputs" -- "$CZK" verify --vk keys/demo.vk --proof p.bin --request ts/request.json
expect 1 "the proof has 100 bytes" -- "$CZK" verify --vk keys/demo.vk --proof cut.bin --request ts/request.json
expect 2 "request is refused" -- "$CZK" verify --vk keys/demo.vk --proof p.bin --request wrong_miner.json
expect 2 "one of --public, --c1 and --request" -- "$CZK" verify --vk keys/demo.vk --proof p.bin --request x --c1 y
echo '[1]' >notstr.json
expect 2 "notstr.json" -- "$CZK" verify --vk keys/demo.vk --proof p.bin --public notstr.json
expect 1 '"valid": false' -- "$CZK" params info short.params
expect 0 '"valid": true' -- "$CZK" params info keys/demo.params
expect 2 "unknown format" -- "$CZK" export --format zokrates --vk keys/demo.vk --out sj
expect 0 "verification_key.json" -- "$CZK" export --format snarkjs --vk keys/demo.vk --proof p.bin --public pub.json --out sj
expect 0 '"constraints": 10' -- "$CZK" circuit info demo
expect 0 '"b_input_density": 1' -- "$CZK" circuit info synthetic-10
expect 2 "unknown circuit" -- "$CZK" circuit info synthetic-9

if [ "$FAILS" -ne 0 ]; then
    echo "$FAILS command-line checks failed"
    exit 1
fi
echo "command-line checks: ok"
