# czk — the command-line checks' shared helper (sourced by tests/*/*_check.sh).
# expect CODE PATTERN -- command...: runs the command; unless it exits CODE
# with PATTERN (grep) in its stdout+stderr, prints both and counts a failure
# in FAILS. The output goes to $EXPECT_OUT (default: out.txt in the current
# directory).
FAILS=${FAILS:-0}
expect() {
    want=$1 pattern=$2
    shift 3
    out=${EXPECT_OUT:-out.txt}
    "$@" >"$out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ] || ! grep -q -- "$pattern" "$out"; then
        echo "FAIL: '$*' exited $got (want $want), output:"
        sed 's/^/    /' "$out"
        echo "    (wanted /$pattern/)"
        FAILS=$((FAILS + 1))
    fi
}
