#!/usr/bin/python3
"""czk — Curio's PoRep C2 call, made the way Curio's cuzk client makes it.

lib/ffi/cuzk_funcs.go PoRepSnarkCuzk: one Prove call with request_id
"porep-<miner>-<sector>", proof_kind POREP_SEAL_COMMIT, sector_size,
registered_proof, priority NORMAL, vanilla_proof = cuzk's envelope
{"SectorNum", "Phase1Out" (base64 of the C1 JSON), "SectorSize"},
sector_number and miner_id, over plaintext gRPC with 256 MiB messages.
Stubs are generated at run time from proto/cuzk/v1/proving.proto; nothing is
shared with czk's C client.

    curio_prove.py --addr ADDR --envelope FILE --registered-proof N --miner-id M
                   [--proof OUT] [--request-id ID] [--mode prove|submit|await]
    curio_prove.py --addr ADDR --request FILE [--proof OUT] [--request-id ID] [--mode …]

--request: any proof kind, the SubmitProofRequest read from a request file
(proto3's JSON mapping, as `czk testseal --request-out` writes it) by
protobuf's own json_format, so that czk's JSON writer is checked by another
implementation; Curio's WindowPoSt, WinningPoSt and SnapDeals calls are this
request sent as Prove.
                   [--expect completed|submitted|invalid_argument|failed_precondition|failed|not_found]

Prints the outcome (COMPLETED with the proof length, or the gRPC code and
details); exit 0 when it is the expected one, 1 otherwise, 77 when grpcio or
protoc is missing.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PROTO_DIR = os.path.join(ROOT, "proto")
PROTO = os.path.join(PROTO_DIR, "cuzk", "v1", "proving.proto")
PLUGIN = "/usr/bin/grpc_python_plugin"
MAX_MSG = 256 << 20  # Curio's client limit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--addr", required=True)
    ap.add_argument("--envelope")
    ap.add_argument("--request")
    ap.add_argument("--registered-proof", type=int)
    ap.add_argument("--miner-id", type=int)
    ap.add_argument("--proof")
    ap.add_argument("--request-id")
    ap.add_argument("--expect", default="completed")
    ap.add_argument("--mode", choices=("prove", "submit", "await"), default="prove",
                    help="prove: Curio's Prove call; submit / await: the same request through SubmitProof, "
                         "then AwaitProof of its id (for restarts in between)")
    args = ap.parse_args()
    if bool(args.envelope) == bool(args.request) or (args.envelope and (args.registered_proof is None or
                                                                         args.miner_id is None)):
        ap.error("give --envelope with --registered-proof and --miner-id, or --request")
    try:
        import grpc
    except ImportError:
        print("SKIP: python3-grpcio is not installed")
        return 77
    protoc = shutil.which("protoc")
    if not protoc or not os.path.exists(PLUGIN):
        print("SKIP: protoc or %s is missing" % PLUGIN)
        return 77
    stubs = tempfile.mkdtemp(prefix="czk-curio-stubs-")
    try:
        r = subprocess.run([protoc, "-I", PROTO_DIR, "--python_out=" + stubs,
                            "--plugin=protoc-gen-grpc_python=" + PLUGIN, "--grpc_python_out=" + stubs, PROTO],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("protoc failed:", r.stderr)
            return 1
        sys.path.insert(0, stubs)
        from cuzk.v1 import proving_pb2 as pb, proving_pb2_grpc as pb_grpc

        opts = [("grpc.max_send_message_length", MAX_MSG), ("grpc.max_receive_message_length", MAX_MSG)]
        target = args.addr
        channel = grpc.insecure_channel(target, options=opts)
        stub = pb_grpc.ProvingEngineStub(channel)
        if args.request:
            from google.protobuf import json_format
            with open(args.request) as f:
                req = json_format.Parse(f.read(), pb.SubmitProofRequest())
            if args.request_id:
                req.request_id = args.request_id
        else:
            with open(args.envelope, "rb") as f:
                envelope = f.read()
            env = json.loads(envelope)
            sector, size = int(env["SectorNum"]), int(env["SectorSize"])
            req = pb.SubmitProofRequest(
                request_id=args.request_id or "porep-%d-%d" % (args.miner_id, sector),
                proof_kind=pb.POREP_SEAL_COMMIT, sector_size=size, registered_proof=args.registered_proof,
                priority=pb.NORMAL, vanilla_proof=envelope, sector_number=sector, miner_id=args.miner_id)
        try:
            if args.mode == "submit":
                s = stub.SubmitProof(req, timeout=600)
                print("SUBMITTED: job %s, queue position %d" % (s.job_id, s.queue_position))
                return 0 if args.expect == "submitted" else 1
            if args.mode == "await":
                res = stub.AwaitProof(pb.AwaitProofRequest(job_id=req.request_id), timeout=1800)
            else:
                res = stub.Prove(pb.ProveRequest(submit=req), timeout=1800).result
        except grpc.RpcError as e:
            outcome = e.code().name.lower()
            print("%s: %s" % (e.code().name, e.details()))
            return 0 if outcome == args.expect else 1
        status = pb.AwaitProofResponse.Status.Name(res.status).lower()
        if res.status == pb.AwaitProofResponse.COMPLETED:
            print("COMPLETED: job %s, %d bytes (%d partition proofs), total %d ms, gpu %d ms" %
                  (res.job_id, len(res.proof), len(res.proof) // 192, res.total_ms, res.gpu_compute_ms))
            if args.proof:
                with open(args.proof, "wb") as f:
                    f.write(res.proof)
        else:
            print("%s: %s" % (status.upper(), res.error_message))
        return 0 if status == args.expect else 1
    finally:
        shutil.rmtree(stubs, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
