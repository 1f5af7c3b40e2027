#!/usr/bin/python3
"""czk — czkd's token and mutual TLS seen by an independent client (Python
grpcio, nothing shared with czk's C client). Calls GetStatus with an empty
request (its encoding is zero bytes), so no stubs are needed.

    tls_client_test.py --unix unix:///…/czkd.sock --token-file FILE   a plaintext czkd with that token
                       --tls HOST:PORT --certs DIR                     a mutual-TLS czkd without token
                                                                       (DIR: ca.pem, client.pem/.key,
                                                                       other.pem, stranger.pem/.key)

Exit 0 when every check passed, 1 otherwise, 77 without grpcio.
"""
import argparse
import os
import sys

try:
    import grpc
except ImportError:
    print("SKIP: python3-grpcio is missing")
    sys.exit(77)

STATUS = "/cuzk.v1.ProvingEngine/GetStatus"
FAILS = 0


def call(channel, metadata=None):
    """GetStatus: (code, details)."""
    fn = channel.unary_unary(STATUS, request_serializer=None, response_deserializer=None)
    try:
        fn(b"", metadata=metadata, timeout=10)
        return grpc.StatusCode.OK, ""
    except grpc.RpcError as e:
        return e.code(), e.details() or ""


def check(what, got, want_code, want_text=""):
    global FAILS
    code, details = got
    if code != want_code or want_text not in details:
        print("FAIL: %s: got %s %r, want %s %r" % (what, code, details, want_code, want_text))
        FAILS += 1


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unix", required=True)
    ap.add_argument("--token-file", required=True)
    ap.add_argument("--tls", required=True)
    ap.add_argument("--certs", required=True)
    a = ap.parse_args()
    token = read(a.token_file).decode().strip()

    with grpc.insecure_channel(a.unix) as ch:
        unauth = grpc.StatusCode.UNAUTHENTICATED
        check("no token", call(ch), unauth, "needs a token")
        check("a wrong token", call(ch, [("authorization", "Bearer " + token + "x")]), unauth, "not this czkd's token")
        check("a token prefix", call(ch, [("authorization", "Bearer " + token[:-1])]), unauth, "not this czkd's token")
        check("not a bearer", call(ch, [("authorization", "Basic " + token)]), unauth, "is not 'Bearer")
        check("the token", call(ch, [("authorization", "Bearer " + token)]), grpc.StatusCode.OK)
        check("the token, lower-case scheme", call(ch, [("authorization", "bearer " + token)]), grpc.StatusCode.OK)

    d = a.certs
    good = grpc.ssl_channel_credentials(read(os.path.join(d, "ca.pem")), read(os.path.join(d, "client.key")),
                                        read(os.path.join(d, "client.pem")))
    nocert = grpc.ssl_channel_credentials(read(os.path.join(d, "ca.pem")))
    stranger = grpc.ssl_channel_credentials(read(os.path.join(d, "ca.pem")), read(os.path.join(d, "stranger.key")),
                                            read(os.path.join(d, "stranger.pem")))
    wrong_ca = grpc.ssl_channel_credentials(read(os.path.join(d, "other.pem")), read(os.path.join(d, "client.key")),
                                            read(os.path.join(d, "client.pem")))
    for name, creds, want in [("mutual TLS", good, grpc.StatusCode.OK),
                              ("no client certificate", nocert, grpc.StatusCode.UNAVAILABLE),
                              ("a certificate of another CA", stranger, grpc.StatusCode.UNAVAILABLE),
                              ("a server of another CA", wrong_ca, grpc.StatusCode.UNAVAILABLE)]:
        with grpc.secure_channel(a.tls, creds) as ch:
            check(name, call(ch), want)
    with grpc.insecure_channel(a.tls) as ch:
        check("plaintext to a TLS port", call(ch), grpc.StatusCode.UNAVAILABLE)
    if FAILS == 0:
        print("tls_client_test: ok")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
