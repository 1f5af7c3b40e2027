#!/bin/sh
# Who may reach and call czkd's gRPC (docs/daemon.md, "gRPC: TLS, token,
# socket"), with a test CA made here by the openssl CLI:
#   - TLS: czk with the CA succeeds (prove, verified); without TLS, with
#     another CA or the wrong server name it fails (UNAVAILABLE);
#   - mutual TLS with the token: no client certificate, or one of another CA,
#     is refused; with the certificate, no token or a wrong one is
#     UNAUTHENTICATED; with both, submit, await, status, cancel, preload work;
#   - a non-loopback address without TLS: refused (exit 2) unless
#     --insecure-listen, which logs a warning; with TLS it starts;
#   - the unix socket: mode 0660 under umask 000 and 077, --socket-mode,
#     --socket-group, an unknown group refused;
#   - an independent client (tls_client_test.py, Python grpcio, when there):
#     the token over the plaintext unix socket, mutual TLS with and without
#     a certificate.
#   tls_check.sh BUILD_DIR        exit 0 pass, 1 fail, 77 SKIP (no czkd, no openssl)
set -u
BUILD=${1:?usage: tls_check.sh BUILD_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
CZKD=$BUILD/czkd
CZK=$BUILD/czk
PY=/usr/bin/python3
if [ ! -x "$CZKD" ] || [ ! -x "$CZK" ]; then echo "SKIP: czkd or czk is not built in $BUILD"; exit 77; fi
if ! command -v openssl >/dev/null 2>&1; then echo "SKIP: no openssl"; exit 77; fi

T=$(mktemp -d "${TMPDIR:-/tmp}/czk-tls-check.XXXXXX")
PID=
cleanup() {
    [ -n "$PID" ] && kill -9 "$PID" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
. "$HERE/../common/expect.sh"
EXPECT_OUT=$T/out.txt
status=0

# ---- the certificates: a CA, czkd's (localhost, 127.0.0.1), a client's; another CA and its client
ossl() {
    openssl "$@" >>"$T/openssl.log" 2>&1 || { echo "FAIL: openssl $*"; cat "$T/openssl.log"; exit 1; }
}
EC="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
mkca() { # NAME
    ossl req -x509 $EC -keyout "$T/$1.key" -out "$T/$1.pem" -days 2 -subj "/CN=$1" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
}
mkcert() { # NAME CA SUBJECT EXTENSIONS
    ossl req $EC -keyout "$T/$1.key" -out "$T/$1.csr" -subj "$3"
    printf '%s\n' "$4" >"$T/$1.ext"
    ossl x509 -req -in "$T/$1.csr" -CA "$T/$2.pem" -CAkey "$T/$2.key" -set_serial "0x$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" \
        -days 2 -out "$T/$1.pem" -extfile "$T/$1.ext"
}
mkca ca
mkca other
mkcert server ca /CN=localhost "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth"
mkcert client ca /CN=curio "extendedKeyUsage=clientAuth"
mkcert stranger other /CN=stranger "extendedKeyUsage=clientAuth"
printf 'tok-%s\n' "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" >"$T/token"
printf 'tok-wrong\n' >"$T/wrong"

# start NAME ARGS...: czkd in the background; PORT is its gRPC port once it is ready
start() {
    name=$1
    shift
    "$CZKD" --status-listen "" --backend cpu --budget 2GiB --state-dir "$T/state-$name" --param-cache "$T/params" \
        --generate-dev-params true \
        "$@" >"$T/$name.log" 2>&1 &
    PID=$!
    i=0
    while ! grep -q "czkd ready" "$T/$name.log"; do
        if ! kill -0 "$PID" 2>/dev/null || [ $i -ge 300 ]; then
            echo "FAIL: czkd ($name) did not start:"
            cat "$T/$name.log"
            exit 1
        fi
        sleep 0.05
        i=$((i + 1))
    done
    PORT=$(sed -n 's/.*czkd ready: gRPC on [^ ]* (port \([0-9]*\)).*/\1/p' "$T/$name.log")
}
stop() { # NAME
    kill -TERM "$PID"
    wait "$PID"
    rc=$?
    PID=
    if [ $rc -ne 0 ]; then
        echo "FAIL: czkd ($1) exited $rc after SIGTERM:"
        tail -n 20 "$T/$1.log"
        status=1
    fi
}

# ---- TLS (server certificate only)
start tls --listen 127.0.0.1:0 --tls-cert "$T/server.pem" --tls-key "$T/server.key"
A=127.0.0.1:$PORT
expect 0 "^valid" -- "$CZK" prove --addr "$A" --tls-ca "$T/ca.pem" --circuit demo --input 3 --param-cache "$T/params"
# the DNS name of the certificate (not resolved: gRPC's c-ares resolver leaks 10 bytes at exit under LeakSanitizer)
expect 0 "uptime" -- "$CZK" status --addr "$A" --tls-ca "$T/ca.pem" --tls-server-name localhost
expect 0 "uptime" -- env CZK_TLS_CA="$T/ca.pem" "$CZK" status --addr "$A"
expect 1 "UNAVAILABLE" -- "$CZK" status --addr "$A"
expect 1 "UNAVAILABLE" -- env CZK_TLS_CA="$T/ca.pem" "$CZK" status --addr "$A" --tls-ca ""
expect 1 "UNAVAILABLE" -- "$CZK" status --addr "$A" --tls-ca "$T/other.pem"
expect 1 "UNAVAILABLE" -- "$CZK" status --addr "$A" --tls-ca "$T/ca.pem" --tls-server-name elsewhere.example
expect 2 "needs the CA" -- "$CZK" status --addr "$A" --tls-cert "$T/client.pem" --tls-key "$T/client.key"
expect 2 "needs its key" -- "$CZK" status --addr "$A" --tls-ca "$T/ca.pem" --tls-cert "$T/client.pem"
expect 2 "is not the key of" -- "$CZK" status --addr "$A" --tls-ca "$T/ca.pem" --tls-cert "$T/client.pem" \
    --tls-key "$T/server.key"
expect 2 "no PEM certificate" -- "$CZK" status --addr "$A" --tls-ca "$T/token"
expect 2 "missing.pem: No such file" -- "$CZK" status --addr "$A" --tls-ca "$T/missing.pem"
stop tls

# ---- mutual TLS and the token
start mtls --listen 127.0.0.1:0 --tls-cert "$T/server.pem" --tls-key "$T/server.key" --tls-client-ca "$T/ca.pem" \
    --token-file "$T/token"
A=127.0.0.1:$PORT
M="--tls-ca $T/ca.pem --tls-cert $T/client.pem --tls-key $T/client.key"
expect 1 "UNAVAILABLE" -- "$CZK" status --addr "$A" --tls-ca "$T/ca.pem" --token-file "$T/token"
expect 1 "UNAVAILABLE" -- "$CZK" status --addr "$A" --tls-ca "$T/ca.pem" --tls-cert "$T/stranger.pem" \
    --tls-key "$T/stranger.key" --token-file "$T/token"
expect 1 "UNAUTHENTICATED: this czkd needs a token" -- "$CZK" status --addr "$A" $M
expect 1 "UNAUTHENTICATED: the token .* is not this czkd's token" -- "$CZK" status --addr "$A" $M --token-file "$T/wrong"
expect 1 "UNAUTHENTICATED" -- "$CZK" cancel --addr "$A" $M anyjob
expect 1 "UNAUTHENTICATED" -- "$CZK" preload --addr "$A" $M --circuit demo
expect 0 "uptime" -- "$CZK" status --addr "$A" $M --token-file "$T/token"
expect 0 "uptime" -- env CZK_TOKEN_FILE="$T/token" CZK_TLS_CA="$T/ca.pem" CZK_TLS_CERT="$T/client.pem" \
    CZK_TLS_KEY="$T/client.key" "$CZK" status --addr "$A"
expect 0 "demo: " -- "$CZK" preload --addr "$A" $M --token-file "$T/token" --circuit demo
expect 0 "^job m1 queue_position" -- "$CZK" submit --addr "$A" $M --token-file "$T/token" --circuit demo --input 9 \
    --request-id m1
expect 0 "COMPLETED" -- "$CZK" await --addr "$A" $M --token-file "$T/token" m1 --timeout 60000 \
    --vk "$T/params/demo.vk"
expect 0 "had already ended" -- "$CZK" cancel --addr "$A" $M --token-file "$T/token" m1
grep -q "tok-" "$T/mtls.log" && { echo "FAIL: the token is in czkd's log"; status=1; }
stop mtls

# ---- a non-loopback address: TLS or --insecure-listen
expect 2 "is not loopback and TLS is not configured" -- "$CZKD" --status-listen "" --state-dir "$T/state-x" \
    --listen 0.0.0.0:0
expect 2 "is not loopback" -- "$CZKD" --status-listen "" --state-dir "$T/state-x" --listen "[::]:0"
expect 2 "is not loopback" -- "$CZKD" --status-listen "" --state-dir "$T/state-x" --listen 0.0.0.0:0 \
    --insecure-listen=no
expect 2 "needs both a certificate and its key" -- "$CZKD" --status-listen "" --state-dir "$T/state-x" \
    --listen 0.0.0.0:0 --tls-cert "$T/server.pem"
expect 2 "is not the key of the certificate" -- "$CZKD" --status-listen "" --state-dir "$T/state-x" \
    --listen 127.0.0.1:0 --tls-cert "$T/server.pem" --tls-key "$T/client.key"
expect 2 "which need TLS" -- "$CZKD" --status-listen "" --state-dir "$T/state-x" --tls-client-ca "$T/ca.pem"
start open --listen 0.0.0.0:0 --insecure-listen
grep -q "WARN.*without TLS (--insecure-listen)" "$T/open.log" ||
    { echo "FAIL: no warning for plaintext on 0.0.0.0:"; cat "$T/open.log"; status=1; }
expect 0 "uptime" -- "$CZK" status --addr "127.0.0.1:$PORT"
stop open
start opentls --listen 0.0.0.0:0 --tls-cert "$T/server.pem" --tls-key "$T/server.key"
grep -q "without TLS" "$T/opentls.log" && { echo "FAIL: a TLS listener warned of plaintext"; status=1; }
expect 0 "uptime" -- "$CZK" status --addr "127.0.0.1:$PORT" --tls-ca "$T/ca.pem"
stop opentls

# ---- the unix socket's mode and group, whatever the umask
sockmode() { stat -c %a "$1"; }
UMASK=$(umask)
for u in 000 077; do
    umask $u
    start "umask$u" --listen "unix://$T/u$u.sock"
    umask "$UMASK"
    m=$(sockmode "$T/u$u.sock")
    [ "$m" = 660 ] || { echo "FAIL: under umask $u the socket has mode $m, not 660"; status=1; }
    stop "umask$u"
done
G=$(id -g)
umask 000
start sg --listen "unix://$T/sg.sock" --socket-mode 0600 --socket-group "$G"
umask "$UMASK"
m=$(sockmode "$T/sg.sock") g=$(stat -c %g "$T/sg.sock")
[ "$m" = 600 ] && [ "$g" = "$G" ] || { echo "FAIL: --socket-mode 0600 --socket-group $G gave $m, group $g"; status=1; }
expect 0 "uptime" -- "$CZK" status --addr "unix://$T/sg.sock"
stop sg
expect 2 "no such group" -- "$CZKD" --status-listen "" --state-dir "$T/state-x" --listen "unix://$T/x.sock" \
    --socket-group czk-no-such-group
expect 2 "not a mode in octal" -- "$CZKD" --status-listen "" --state-dir "$T/state-x" --socket-mode 0999

# ---- an independent client: Python grpcio (the token on the unix socket, mutual TLS)
if [ -x "$PY" ] && "$PY" -c 'import grpc' 2>/dev/null; then
    start pyunix --listen "unix://$T/py.sock" --token-file "$T/token"
    P1=$PID
    PID=
    start pytls --listen 127.0.0.1:0 --tls-cert "$T/server.pem" --tls-key "$T/server.key" --tls-client-ca "$T/ca.pem"
    "$PY" "$HERE/tls_client_test.py" --unix "unix://$T/py.sock" --token-file "$T/token" --tls "127.0.0.1:$PORT" \
        --certs "$T" || status=1
    stop pytls
    PID=$P1
    stop pyunix
else
    echo "tls_check: note: no python3-grpcio, the independent client was not run"
fi

[ "$FAILS" -eq 0 ] || status=1
if grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$T"/*.log >/dev/null; then
    echo "FAIL: sanitizer reports in czkd's logs:"
    grep -E -A5 "AddressSanitizer|runtime error|LeakSanitizer" "$T"/*.log | head -40
    status=1
fi
[ $status -eq 0 ] && echo "tls_check: ok"
exit $status
