#!/bin/sh
# The status page in a real browser: starts czkd (temporary state and param
# cache, any free ports), submits jobs with the czk client, loads
# http://.../ in headless Chromium (--dump-dom, with virtual time so the
# page's fetch of /status runs) and checks that the DOM shows a running job
# that was submitted, the stages, the GPU workers and the memory bars; then
# SIGTERM must stop czkd with status 0. Then czkd with --token-file: the page
# and /status need the token (401 without it), a foreign Host is refused (403,
# DNS rebinding), and the browser that opens /?token=... once gets the page
# and its fetches of /status through the cookie.
# usage: html_check.sh CZKD CZK            exit 77 (skip) without chromium
set -u
CZKD=$1
CZK=$2
CHROMIUM=${CHROMIUM:-}
if [ -z "$CHROMIUM" ]; then
    for c in chromium chromium-browser google-chrome; do
        if command -v "$c" >/dev/null 2>&1; then CHROMIUM=$(command -v "$c"); break; fi
    done
fi
if [ -z "$CHROMIUM" ]; then
    echo "html_check: SKIP (no chromium)"
    exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/czk-html-XXXXXX")
PID=
fail() {
    echo "html_check: FAIL: $*"
    [ -f "$T/czkd.log" ] && tail -20 "$T/czkd.log"
    touch "$T/stop"
    [ -n "$PID" ] && kill -KILL "$PID" 2>/dev/null
    exit 1
}
CIRCUIT=${CZK_HTML_CIRCUIT:-synthetic-16}
JOBS=${CZK_HTML_JOBS:-4}

: >"$T/czkd.log"
"$CZKD" --state-dir "$T/state" --param-cache "$T/params" --listen 127.0.0.1:0 --status-listen 127.0.0.1:0 \
    --budget 2GiB --backend cpu --generate-dev-params true >"$T/czkd.log" 2>&1 &
PID=$!
i=0
while ! grep -q "czkd ready" "$T/czkd.log"; do
    i=$((i + 1))
    [ $i -gt 300 ] && fail "czkd did not start"
    kill -0 "$PID" 2>/dev/null || fail "czkd exited"
    sleep 0.1
done
GRPC=$(sed -n 's/.*czkd ready: gRPC on .* (port \([0-9]*\)), status page.*/\1/p' "$T/czkd.log")
HTTP=$(sed -n 's/.*status page .* (port \([0-9]*\)), backend.*/\1/p' "$T/czkd.log")
[ -n "$GRPC" ] && [ -n "$HTTP" ] || fail "no ports in the log"
ADDR=127.0.0.1:$GRPC

# parameters first (development parameters are created on first use), then the jobs
"$CZK" preload --addr "$ADDR" --circuit "$CIRCUIT" >"$T/preload.out" 2>&1 || fail "preload: $(cat "$T/preload.out")"
: >"$T/ids"
n=1
while [ $n -le "$JOBS" ]; do
    out=$("$CZK" submit --addr "$ADDR" --circuit "$CIRCUIT" --input "$n") || fail "submit: $out"
    echo "$out" | sed -n 's/^job \(czk-[0-9]*\) .*/\1/p' >>"$T/ids"
    n=$((n + 1))
done
[ "$(wc -l <"$T/ids")" -eq "$JOBS" ] || fail "submit printed no job ids"
# a Curio-shaped id with markup in it: shown as text, never as markup (low
# priority: the submitter below keeps it queued while the page loads)
CURIO='wdpost-1000-0-[12 34] <b id="inj">x</b></script>&amp;'
"$CZK" submit --addr "$ADDR" --circuit "$CIRCUIT" --input 9999 --request-id "$CURIO" --priority low >"$T/curio.out" 2>&1 ||
    fail "submit $CURIO: $(cat "$T/curio.out")"
# keep the pipeline busy while the browser loads the page, however fast
# this machine proves
(
    while [ ! -f "$T/stop" ]; do
        "$CZK" submit --addr "$ADDR" --circuit "$CIRCUIT" --input "$n" 2>/dev/null |
            sed -n 's/^job \(czk-[0-9]*\) .*/\1/p' >>"$T/ids"
        n=$((n + 1))
    done
) &
SUBMITTER=$!

timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile" \
    --virtual-time-budget=3000 --dump-dom "http://127.0.0.1:$HTTP/" >"$T/dom.html" 2>"$T/chromium.err" ||
    fail "chromium: $(tail -3 "$T/chromium.err")"
touch "$T/stop"
wait "$SUBMITTER"

RUNNING=$(grep -o '<tr id="job-czk-[0-9]*" data-state="running"' "$T/dom.html" | sed 's/.*job-\(czk-[0-9]*\).*/\1/')
[ -n "$RUNNING" ] || fail "no running job in the DOM: $(grep -o '<tbody id="jobs">.\{0,400\}' "$T/dom.html")"
found=
for r in $RUNNING; do grep -qx "$r" "$T/ids" && found=$r; done
[ -n "$found" ] || fail "running job(s) $RUNNING were not submitted by this test"
grep -q "<td>$CIRCUIT</td>" "$T/dom.html" || fail "the circuit id is not shown"
grep -qF '<td>wdpost-1000-0-[12 34] &lt;b id="inj"&gt;x&lt;/b&gt;&lt;/script&gt;&amp;amp;</td>' "$T/dom.html" ||
    fail "the Curio-shaped id is not shown as text: $(grep -o '<tbody id="jobs">.\{0,600\}' "$T/dom.html")"
grep -q '<b id="inj">' "$T/dom.html" && fail "the job id was rendered as markup"
grep -q 'class="lbl">synthesizing</span>' "$T/dom.html" || fail "no partitions by stage"
grep -q 'class="gw' "$T/dom.html" || fail "no GPU workers"
grep -q 'class="lbl">budget reserved</span>' "$T/dom.html" || fail "no memory bars"
grep -q 'id="error" class="err">status unavailable' "$T/dom.html" && fail "the page could not fetch /status"

kill -TERM "$PID"
wait "$PID"
rc=$?
PID=
[ $rc -eq 0 ] || fail "czkd exited with $rc after SIGTERM"
grep -q "unfinished job(s) stay in the journal\|service closed" "$T/czkd.log" || fail "no orderly shutdown in the log"

# ---- the token and the Host header, through czkd's flags
printf 'czk-html-%s-token\n' "$$" >"$T/token"
TOK=$(cat "$T/token")
: >"$T/czkd2.log"
"$CZKD" --state-dir "$T/state2" --param-cache "$T/params" --listen 127.0.0.1:0 --status-listen 127.0.0.1:0 \
    --budget 1GiB --backend cpu --generate-dev-params true --token-file "$T/token" >"$T/czkd2.log" 2>&1 &
PID=$!
i=0
while ! grep -q "czkd ready" "$T/czkd2.log"; do
    i=$((i + 1))
    [ $i -gt 300 ] && fail "czkd --token-file did not start: $(cat "$T/czkd2.log")"
    kill -0 "$PID" 2>/dev/null || fail "czkd --token-file exited: $(cat "$T/czkd2.log")"
    sleep 0.1
done
HTTP=$(sed -n 's/.*status page .* (port \([0-9]*\)), backend.*/\1/p' "$T/czkd2.log")
grep -q "$TOK" "$T/czkd2.log" && fail "the token is in the log"
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
if command -v curl >/dev/null 2>&1; then
    c=$(code "http://127.0.0.1:$HTTP/status"); [ "$c" = 401 ] || fail "/status without the token: $c"
    c=$(code -H "Authorization: Bearer $TOK" "http://127.0.0.1:$HTTP/status"); [ "$c" = 200 ] || fail "/status with the token: $c"
    c=$(code -H "Authorization: Bearer x$TOK" "http://127.0.0.1:$HTTP/metrics"); [ "$c" = 401 ] || fail "a wrong token: $c"
    c=$(code -H "Host: evil.example:$HTTP" -H "Authorization: Bearer $TOK" "http://127.0.0.1:$HTTP/status")
    [ "$c" = 403 ] || fail "Host evil.example: $c"
fi
timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile2" \
    --virtual-time-budget=3000 --dump-dom "http://127.0.0.1:$HTTP/?token=$TOK" >"$T/dom2.html" 2>"$T/chromium2.err" ||
    fail "chromium (token): $(tail -3 "$T/chromium2.err")"
grep -q 'class="lbl">budget reserved</span>' "$T/dom2.html" || fail "with the token: no page: $(head -c 300 "$T/dom2.html")"
grep -q 'id="error" class="err">status unavailable' "$T/dom2.html" && fail "with the token: the page could not fetch /status"
grep -q 'id="summary" class="muted">backend cpu' "$T/dom2.html" || fail "with the token: no summary"
timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile3" \
    --virtual-time-budget=1000 --dump-dom "http://127.0.0.1:$HTTP/" >"$T/dom3.html" 2>"$T/chromium3.err"
grep -q 'budget reserved' "$T/dom3.html" && fail "without the token the browser got the page"
kill -TERM "$PID"
wait "$PID"
rc=$?
PID=
[ $rc -eq 0 ] || fail "czkd --token-file exited with $rc after SIGTERM"

echo "html_check: ok (job $found running in the DOM; $JOBS jobs of $CIRCUIT; token and Host checks)"
rm -rf "$T"
exit 0
