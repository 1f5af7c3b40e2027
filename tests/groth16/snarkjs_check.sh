#!/bin/sh
# Verifies czk's proofs with snarkjs, an independent Groth16 implementation:
# setup, prove and export with the czk tool, then `snarkjs groth16 verify`
# must print OK for the real proof and refuse a wrong public input.
#   snarkjs_check.sh CZK_BINARY
# SNARKJS names the snarkjs command (default: .tools/node_modules/.bin/snarkjs
# in the repository, then snarkjs on PATH). Exits 77 (skip) without it.
set -eu
CZK=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SNARKJS=${SNARKJS:-}
if [ -z "$SNARKJS" ]; then
    if [ -x "$ROOT/.tools/node_modules/.bin/snarkjs" ]; then
        SNARKJS="$ROOT/.tools/node_modules/.bin/snarkjs"
    elif command -v snarkjs >/dev/null 2>&1; then
        SNARKJS=snarkjs
    else
        echo "SKIP: snarkjs not found (scripts/install-tools installs it)"
        exit 77
    fi
fi
command -v node >/dev/null 2>&1 || { echo "SKIP: node not found"; exit 77; }

DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cd "$DIR"
for circuit in demo synthetic-10 synthetic-12; do
    "$CZK" setup --circuit "$circuit" --out keys --seed 5 >/dev/null
    "$CZK" prove --circuit "$circuit" --params "keys/$circuit.params" --input 11 --proof p.bin --public pub.json >/dev/null
    "$CZK" export --format snarkjs --vk "keys/$circuit.vk" --proof p.bin --public pub.json --out sj >/dev/null
    if ! "$SNARKJS" groth16 verify sj/verification_key.json sj/public.json sj/proof.json >out.txt 2>&1 ||
        ! grep -q "OK" out.txt; then
        echo "FAIL: snarkjs rejects czk's proof for $circuit:"
        cat out.txt
        exit 1
    fi
    # a wrong public input must be refused
    sed 's/"\([0-9]*\)"/"\11"/' sj/public.json >sj/bad.json
    if "$SNARKJS" groth16 verify sj/verification_key.json sj/bad.json sj/proof.json >out.txt 2>&1 &&
        grep -q "OK!" out.txt; then
        echo "FAIL: snarkjs accepts a wrong public input for $circuit"
        exit 1
    fi
    echo "snarkjs verifies czk's $circuit proof: OK"
done
