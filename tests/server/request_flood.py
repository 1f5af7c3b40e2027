#!/usr/bin/python3
"""czk — N SubmitProof calls of SIZE bytes each at once, one process and one
connection per call (so that all of them send at the same time), for
request_memory_check.sh. Each request carries one vanilla proof (field 11) of
SIZE bytes and names no proof kind. Prints one answer per line: OK, or the
status code's name and its message.

    request_flood.py ADDR N SIZE
"""
import multiprocessing
import sys

import grpc


def varint(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        if not v:
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def one(job):
    addr, size = job
    body = b"\x5a" + varint(size) + b"\x01" * size
    ch = grpc.insecure_channel(addr, options=[("grpc.max_send_message_length", 1 << 30)])
    call = ch.unary_unary("/cuzk.v1.ProvingEngine/SubmitProof", request_serializer=None, response_deserializer=None)
    try:
        call(body, timeout=120)
        return "OK"
    except grpc.RpcError as e:
        return "%s %s" % (e.code().name, e.details())
    finally:
        ch.close()


def main():
    addr, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with multiprocessing.get_context("spawn").Pool(n) as pool:
        for a in pool.map(one, [(addr, size)] * n):
            print(a)


if __name__ == "__main__":
    main()
