#!/bin/sh
# `czk hash`: the Poseidon vectors of shared/reference/filecoin (arity 2),
# SHA-256 test vectors, and the error paths (exit 2 with a clear message).
#   hash_cli_check.sh CZK_BINARY
set -u
CZK=$1
# expect CODE PATTERN -- command...
. "$(cd "$(dirname "$0")/../common" && pwd)/expect.sh"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cd "$DIR"

# H(0, 1) and H(1, 0), limbs [l0, l1, l2, l3] printed as l3 l2 l1 l0
expect 0 "^0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff$" -- "$CZK" hash poseidon --arity 2 0 1
expect 0 "^0x042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e$" -- "$CZK" hash poseidon --arity 2 1 0
expect 0 "^0x042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e$" -- "$CZK" hash poseidon --arity 2 0x01 0x0
# the root of the filecoin-hashers tree [1, 0, 0, 1]: H(H(1, 0), H(0, 1))
expect 0 "^0x1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671$" -- "$CZK" hash poseidon --arity 2 \
    0x042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e \
    0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff
expect 0 "^0x[0-9a-f]\{64\}$" -- "$CZK" hash poseidon --arity 8 1 2 3 4 5 6 7 8
expect 0 "^0x[0-9a-f]\{64\}$" -- "$CZK" hash poseidon --arity 11 1 2 3 4 5 6 7 8 9 10 11
# filecoin-hashers test_hash_md (arity 36): H(H(1 ×36), 1 ×35)
ONES35="1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
# shellcheck disable=SC2086
FIRST=$("$CZK" hash poseidon --arity 36 1 $ONES35)
# shellcheck disable=SC2086
expect 0 "^0x59f42220e09ff6f75fd9623643ed9622c26f6d625f4e8195351c54133b332c90$" -- "$CZK" hash poseidon --arity 36 "$FIRST" $ONES35
# r - 1 is the largest canonical value
expect 0 "^0x" -- "$CZK" hash poseidon --arity 2 1 52435875175126190479447740508185965837690552500527637822603658699938581184512
expect 0 "^0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad$" -- "$CZK" hash sha256 --hex 616263
expect 0 "^0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855$" -- "$CZK" hash sha256 --hex ""

# the gadget test circuits
expect 0 '"constraints": 505' -- "$CZK" circuit info gadget-poseidon-8
expect 0 '"constraints": 26352' -- "$CZK" circuit info gadget-sha256-block
expect 0 '"constraints": 25' -- "$CZK" circuit info gadget-insert-8

# errors
expect 2 "needs 2 elements, got 1" -- "$CZK" hash poseidon --arity 2 1
expect 2 "needs 4 elements, got 5" -- "$CZK" hash poseidon --arity 4 1 2 3 4 5
expect 2 "not canonical" -- "$CZK" hash poseidon --arity 2 1 52435875175126190479447740508185965837690552500527637822603658699938581184513
expect 2 "not canonical" -- "$CZK" hash poseidon --arity 2 1 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
expect 2 "not canonical" -- "$CZK" hash poseidon --arity 2 1 0x10000000000000000000000000000000000000000000000000000000000000000
expect 2 "not a decimal or 0x-hex number" -- "$CZK" hash poseidon --arity 2 1 -5
expect 2 "not a decimal or 0x-hex number" -- "$CZK" hash poseidon --arity 2 1 0xzz
expect 2 "arity must be" -- "$CZK" hash poseidon --arity 1 5
expect 2 "arity must be" -- "$CZK" hash poseidon --arity 37 5
expect 2 "usage: czk hash poseidon" -- "$CZK" hash poseidon 1 2
expect 2 "odd number of hex digits" -- "$CZK" hash sha256 --hex abc
expect 2 "not hex" -- "$CZK" hash sha256 --hex 6g
expect 2 "usage: czk hash" -- "$CZK" hash md5 --hex 00

if [ "$FAILS" -ne 0 ]; then
    echo "hash_cli_check: $FAILS failed"
    exit 1
fi
echo "hash_cli_check: ok"
