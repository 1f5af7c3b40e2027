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
