#!/bin/sh
# czk bench pipeline keeps the process within its budget: synthetic-14 with
# development parameters, 4 jobs of 2 partitions through pw 2 / gw 2 under a
# 256 MiB budget; the run must pass (every proof verified, counters at zero,
# peak RSS <= budget + the fixed overhead of docs/engine.md), print its RSS
# bound as ok, and stay within the bytes it really reserved plus the overhead
# (rss_within_reserved: nothing large is held outside the budget).
#   bench_rss_check.sh CZK
# Exit 0 pass, 1 fail, 77 SKIP (czk not built).
set -u
CZK=${1:?usage: bench_rss_check.sh CZK}
[ -x "$CZK" ] || { echo "SKIP: $CZK is not built"; exit 77; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/czk-rss.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
C=synthetic-14
"$CZK" setup --circuit $C --out "$DIR" >"$DIR/setup.log" 2>&1 || { echo "FAIL: setup"; cat "$DIR/setup.log"; exit 1; }
run() { "$CZK" bench pipeline --circuit $C --params "$DIR/$C.params" --jobs 4 --partitions 2 --pw 2 --gw 2 \
    --budget 256MiB "$@"; }
if ! run >"$DIR/text.txt" 2>&1; then echo "FAIL: bench pipeline:"; cat "$DIR/text.txt"; exit 1; fi
grep -q '^  RSS bound .*: ok$' "$DIR/text.txt" || { echo "FAIL: no RSS bound line ending in ok:"; cat "$DIR/text.txt"; exit 1; }
if ! run --json >"$DIR/out.json" 2>"$DIR/err.txt"; then echo "FAIL: bench pipeline --json:"; cat "$DIR/err.txt"; exit 1; fi
for k in '"rss_within_budget": true' '"rss_within_reserved": true'; do
    grep -q "$k" "$DIR/out.json" || { echo "FAIL: $k not in:"; cat "$DIR/out.json" "$DIR/err.txt"; exit 1; }
done
sed -n 's/^  \(RSS bound.*\)/rss: \1/p' "$DIR/text.txt"
exit 0
