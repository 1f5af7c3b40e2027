#!/usr/bin/python3
"""czk — an independent client for czkd's cuzk.v1 gRPC service.

Python's grpcio and protobuf (Debian's python3-grpcio, python3-protobuf), with
stubs generated at test time from proto/cuzk/v1/proving.proto by protoc and
grpc_python_plugin: nothing here shares code with czk's C client.

    grpc_client_test.py --addr ADDR --czk CZK --param-cache DIR
                        [--small-addr ADDR]   a czkd with queue_limit 2 and a 1 MiB message limit
                        [-v] [TestCase.test_name ...]

Exit 0 when every test passed, 1 otherwise, 77 when grpcio or protoc is missing.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PROTO_DIR = os.path.join(ROOT, "proto")
PROTO = os.path.join(PROTO_DIR, "cuzk", "v1", "proving.proto")
PLUGIN = "/usr/bin/grpc_python_plugin"
# BLS12-381's scalar field modulus
FR_MODULUS = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
METHODS = ["SubmitProof", "AwaitProof", "Prove", "CancelProof", "GetStatus", "GetMetrics", "PreloadSRS", "EvictSRS"]
SLOW = "synthetic-16"  # a circuit that takes about a second per proof on the CPU backend

ARGS = None
pb = None
pb_grpc = None
grpc = None


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def generate_stubs(out_dir):
    protoc = shutil.which("protoc")
    if not protoc or not os.path.exists(PLUGIN):
        skip("protoc or %s is missing" % PLUGIN)
    cmd = [protoc, "-I", PROTO_DIR, "--python_out=" + out_dir, "--plugin=protoc-gen-grpc_python=" + PLUGIN,
           "--grpc_python_out=" + out_dir, PROTO]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print("protoc failed:", " ".join(cmd), r.stderr, sep="\n")
        sys.exit(1)
    sys.path.insert(0, out_dir)


def le_to_int(b):
    return int.from_bytes(b, "little")


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.channel = grpc.insecure_channel(ARGS.addr)
        grpc.channel_ready_future(cls.channel).result(timeout=30)
        cls.stub = pb_grpc.ProvingEngineStub(cls.channel)
        cls.tmp = tempfile.mkdtemp(prefix="czk-grpc-test-")
        cls.run_id = "%d-%d" % (os.getpid(), int(time.time() * 1000))

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    # ---- helpers ----
    def rid(self, name):
        return "%s-%s-%s" % (self.run_id, self.id().split(".")[-1], name)

    def submit(self, circuit="demo", seed=1, rid=None, priority=0, timeout=60):
        req = pb.SubmitProofRequest(circuit_id=circuit, circuit_input=str(seed).encode(),
                                    request_id=rid or "", priority=priority)
        return self.stub.SubmitProof(req, timeout=timeout)

    def await_(self, job_id, timeout_ms=0, timeout=300):
        return self.stub.AwaitProof(pb.AwaitProofRequest(job_id=job_id, timeout_ms=timeout_ms), timeout=timeout)

    def assertCode(self, code, fn, *args, **kw):
        with self.assertRaises(grpc.RpcError) as cm:
            fn(*args, **kw)
        self.assertEqual(cm.exception.code(), code, "details: %s" % cm.exception.details())
        self.assertTrue(cm.exception.details(), "a status without a message")
        return cm.exception

    def check_completed(self, r, n_public=1):
        self.assertEqual(r.status, pb.AwaitProofResponse.COMPLETED, r.error_message)
        self.assertGreater(len(r.proof), 0)
        self.assertEqual(len(r.proof) % 192, 0)
        n_parts = len(r.proof) // 192
        self.assertEqual(len(r.public_inputs), n_parts * n_public)
        for x in r.public_inputs:
            self.assertEqual(len(x), 32)
            self.assertLess(le_to_int(x), FR_MODULUS)
        self.assertGreaterEqual(r.total_ms, r.gpu_compute_ms)

    def czk_verify(self, circuit, proof, inputs):
        """czk verify with the vk czkd wrote into the param cache: 0 valid, 1 invalid."""
        vk = os.path.join(ARGS.param_cache, circuit + ".vk")
        self.assertTrue(os.path.exists(vk), "czkd wrote no %s" % vk)
        pf = os.path.join(self.tmp, "proof.bin")
        pj = os.path.join(self.tmp, "public.json")
        with open(pf, "wb") as f:
            f.write(proof)
        with open(pj, "w") as f:
            json.dump([str(le_to_int(x)) for x in inputs], f)
        r = subprocess.run([ARGS.czk, "verify", "--vk", vk, "--proof", pf, "--public", pj],
                           capture_output=True, text=True)
        return r.returncode, r.stdout.strip()

    def cancel_quietly(self, job_id):
        try:
            self.stub.CancelProof(pb.CancelProofRequest(job_id=job_id), timeout=30)
        except grpc.RpcError:
            pass


class Status(Base):
    def test_get_status(self):
        r = self.stub.GetStatus(pb.GetStatusRequest(), timeout=30)
        self.assertGreaterEqual(r.uptime_seconds, 0)
        self.assertGreater(r.pinned_memory_limit_bytes, 0)
        self.assertGreaterEqual(r.pinned_memory_limit_bytes, r.pinned_memory_bytes)
        js = json.loads(r.status_json)
        self.assertIsInstance(js, dict)
        self.assertIn("memory", js)
        for q in r.queues:
            self.assertTrue(q.proof_kind)
        # czkd runs here with --backend cpu: no GPU is listed (devices come from the backend)
        self.assertEqual(len(r.gpus), 0, r.gpus)
        self.assertEqual(js["backend"], "cpu")

    def test_get_metrics(self):
        r = self.stub.GetMetrics(pb.GetMetricsRequest(), timeout=30)
        self.assertIn("# TYPE", r.prometheus_text)
        for line in r.prometheus_text.splitlines():
            if line and not line.startswith("#"):
                name_labels, value = line.rsplit(" ", 1)
                float(value)  # every sample's value is a number

    def test_unknown_method(self):
        fn = self.channel.unary_unary("/cuzk.v1.ProvingEngine/NoSuchMethod",
                                      request_serializer=None, response_deserializer=None)
        self.assertCode(grpc.StatusCode.UNIMPLEMENTED, fn, b"", timeout=30)
        fn = self.channel.unary_unary("/other.Service/GetStatus", request_serializer=None,
                                      response_deserializer=None)
        self.assertCode(grpc.StatusCode.UNIMPLEMENTED, fn, b"", timeout=30)


class Proofs(Base):
    def test_submit_await_verify(self):
        s = self.submit(seed=11, rid=self.rid("a"))
        self.assertEqual(s.job_id, self.rid("a"))  # the request id is the job id
        r = self.await_(self.rid("a"))
        self.assertEqual(r.job_id, s.job_id)
        self.check_completed(r)
        rc, out = self.czk_verify("demo", r.proof, r.public_inputs)
        self.assertEqual((rc, out), (0, "valid"))
        # a wrong public input must not verify
        bad = [((le_to_int(r.public_inputs[0]) + 1) % FR_MODULUS).to_bytes(32, "little")]
        rc, out = self.czk_verify("demo", r.proof, bad)
        self.assertEqual((rc, out), (1, "invalid"))
        # the result stays retrievable
        r2 = self.await_(s.job_id, timeout_ms=1)
        self.assertEqual(r2.proof, r.proof)

    def test_prove(self):
        sub = pb.SubmitProofRequest(circuit_id="demo", circuit_input=b"12", request_id=self.rid("p"),
                                    priority=pb.HIGH)
        r = self.stub.Prove(pb.ProveRequest(submit=sub), timeout=300).result
        self.check_completed(r)
        self.assertEqual(self.czk_verify("demo", r.proof, r.public_inputs), (0, "valid"))
        # the same request again: the same job, no new work
        r2 = self.stub.Prove(pb.ProveRequest(submit=sub), timeout=300).result
        self.assertEqual(r2.job_id, r.job_id)
        self.assertEqual(r2.proof, r.proof)

    def test_different_seeds_differ(self):
        sa, sb = self.submit(seed=21), self.submit(seed=22)
        # without a request id: generated ids, of a form no request id may take
        for x in (sa, sb):
            self.assertRegex(x.job_id, r"^czk-[1-9][0-9]*$")
        self.assertNotEqual(sa.job_id, sb.job_id)
        a, b = self.await_(sa.job_id), self.await_(sb.job_id)
        self.check_completed(a)
        self.check_completed(b)
        self.assertNotEqual(a.public_inputs[0], b.public_inputs[0])

    def test_many_concurrent(self):
        with concurrent.futures.ThreadPoolExecutor(8) as ex:
            futs = [ex.submit(lambda i: self.stub.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
                circuit_id="demo", circuit_input=str(100 + i).encode())), timeout=300).result, i) for i in range(16)]
            results = [f.result() for f in futs]
        self.assertEqual(len({r.job_id for r in results}), 16)
        for r in results:
            self.check_completed(r)
        for r in results[:3]:
            self.assertEqual(self.czk_verify("demo", r.proof, r.public_inputs), (0, "valid"))


class Idempotency(Base):
    def test_duplicate_request_id(self):
        rid = self.rid("dup")
        a = self.submit(circuit=SLOW, seed=31, rid=rid)
        b = self.submit(circuit=SLOW, seed=31, rid=rid)
        self.assertEqual(a.job_id, rid)
        self.assertEqual(b.job_id, rid)
        # while it is unfinished, the same id for other content is refused
        e = self.assertCode(grpc.StatusCode.ALREADY_EXISTS, self.submit, circuit=SLOW, seed=32, rid=rid)
        self.assertIn(rid, e.details())
        self.assertCode(grpc.StatusCode.ALREADY_EXISTS, self.submit, seed=31, rid=rid)
        done = self.await_(rid)
        self.check_completed(done)
        # after it ended, the same content is the same job
        c = self.submit(circuit=SLOW, seed=31, rid=rid)
        self.assertEqual(c.job_id, rid)
        self.assertEqual(self.await_(rid, timeout_ms=1).proof, done.proof)
        # and other content replaces it under the same id (cuzk's: the id is the caller's)
        d = self.submit(seed=32, rid=rid)
        self.assertEqual(d.job_id, rid)
        r = self.await_(rid)
        self.check_completed(r)
        self.assertNotEqual(r.public_inputs[0], done.public_inputs[0])
        self.assertEqual(self.czk_verify("demo", r.proof, r.public_inputs), (0, "valid"))

    def test_retry_after_cancel(self):
        rid = self.rid("retry")
        self.submit(circuit=SLOW, seed=35, rid=rid, priority=pb.LOW)
        self.stub.CancelProof(pb.CancelProofRequest(job_id=rid), timeout=30)
        self.assertIn(self.await_(rid).status,
                      (pb.AwaitProofResponse.CANCELLED, pb.AwaitProofResponse.COMPLETED))
        # the same request again: a new attempt, not the cancelled result
        self.assertEqual(self.submit(seed=36, rid=rid).job_id, rid)
        self.check_completed(self.await_(rid))

    def test_concurrent_duplicates(self):
        rid = self.rid("race")
        with concurrent.futures.ThreadPoolExecutor(8) as ex:
            ids = list(ex.map(lambda _: self.submit(seed=33, rid=rid).job_id, range(8)))
        self.assertEqual(len(set(ids)), 1, ids)
        self.check_completed(self.await_(ids[0]))


class CurioRequests(Base):
    """Requests shaped as Curio's cuzk client (lib/ffi/cuzk_funcs.go) makes them."""
    WDPOST = "wdpost-1000-0-[12 34 56 78 90 12 34 56]"

    def test_vanilla_proofs_decoded(self):
        vp = [b"\x01" * 100, b"\x02" * 200, b"\x03" * 37]
        req = pb.SubmitProofRequest(request_id=self.rid("wd"), proof_kind=pb.WINDOW_POST_PARTITION,
                                    sector_size=34359738368, registered_proof=13, priority=pb.HIGH,
                                    vanilla_proofs=vp, miner_id=1000, randomness=b"\x07" * 32, partition_index=0)
        for call in (lambda: self.stub.SubmitProof(req, timeout=30),
                     lambda: self.stub.Prove(pb.ProveRequest(submit=req), timeout=30)):
            e = self.assertCode(grpc.StatusCode.INVALID_ARGUMENT, call)
            # field 11 reached the decoder, which names the first bad proof
            self.assertIn("vanilla_proofs[0]", e.details())

    def test_curio_id_everywhere(self):
        rid = "%s %s" % (self.WDPOST, self.run_id)
        s = self.submit(circuit=SLOW, seed=401, rid=rid, priority=pb.LOW)
        self.assertEqual(s.job_id, rid)
        st = self.stub.GetStatus(pb.GetStatusRequest(), timeout=30)
        active = json.loads(st.status_json)["jobs"]["active"]
        r = self.await_(rid)
        self.check_completed(r)
        self.assertEqual(r.job_id, rid)
        self.assertEqual(self.czk_verify(SLOW, r.proof, r.public_inputs), (0, "valid"))
        self.assertIn(rid, [j["job_id"] for j in active])  # SLOW runs for about a second
        # cancel of an ended job: OK, nothing changes
        self.assertFalse(self.stub.CancelProof(pb.CancelProofRequest(job_id=rid), timeout=30).was_running)
        self.assertEqual(self.await_(rid, timeout_ms=1).status, pb.AwaitProofResponse.COMPLETED)
        # never a metrics label value
        m = self.stub.GetMetrics(pb.GetMetricsRequest(), timeout=30).prometheus_text
        self.assertNotIn(self.WDPOST, m)

    def test_curio_id_cancel(self):
        rid = "porep-1000-%s" % self.run_id
        jobs = [self.submit(circuit=SLOW, seed=410 + i, priority=pb.LOW).job_id for i in range(8)]
        try:
            self.assertEqual(self.submit(circuit=SLOW, seed=409, rid=rid, priority=pb.LOW).job_id, rid)
            self.stub.CancelProof(pb.CancelProofRequest(job_id=rid), timeout=30)
            self.assertIn(self.await_(rid).status,
                          (pb.AwaitProofResponse.CANCELLED, pb.AwaitProofResponse.COMPLETED))
        finally:
            for j in jobs:
                self.cancel_quietly(j)
            for j in jobs:
                self.await_(j)


class BadRequests(Base):
    def raw(self, method):
        return self.channel.unary_unary("/cuzk.v1.ProvingEngine/" + method, request_serializer=None,
                                        response_deserializer=None)

    def test_garbage_bytes(self):
        garbage = [b"\xff\xff\xff\xff", b"\x0a\x80", b"\x0a\x05ab", b"\x12\xff\xff\xff\xff\x0f", b"\x07",
                   b"\x0b\x0c", bytes(range(256))]
        for m in METHODS:
            for g in garbage:
                with self.subTest(method=m, data=g[:8]):
                    try:
                        self.raw(m)(g, timeout=30)
                    except grpc.RpcError as e:
                        self.assertIn(e.code(), (grpc.StatusCode.INVALID_ARGUMENT,), e.details())
                        continue
                    # some byte strings happen to parse (unknown fields are skipped): GetStatus and
                    # GetMetrics accept anything that parses
                    self.assertIn(m, ("GetStatus", "GetMetrics"))

    def test_wrong_message_type(self):
        # an AwaitProofRequest whose job_id is a varint: wrong wire type
        self.assertCode(grpc.StatusCode.INVALID_ARGUMENT, self.raw("AwaitProof"), b"\x08\x05", timeout=30)

    def test_empty_messages(self):
        for m, code in (("SubmitProof", grpc.StatusCode.INVALID_ARGUMENT),
                        ("AwaitProof", grpc.StatusCode.NOT_FOUND),  # job_id "": no such job
                        ("Prove", grpc.StatusCode.INVALID_ARGUMENT),
                        ("CancelProof", grpc.StatusCode.NOT_FOUND),
                        ("PreloadSRS", grpc.StatusCode.INVALID_ARGUMENT),
                        ("EvictSRS", grpc.StatusCode.INVALID_ARGUMENT)):
            with self.subTest(method=m):
                self.assertCode(code, self.raw(m), b"", timeout=30)
        self.raw("GetStatus")(b"", timeout=30)
        self.raw("GetMetrics")(b"", timeout=30)

    def test_bad_job_ids(self):
        # a NUL inside a string field cannot name anything: the message is refused
        for jid in ["1\x00", "12\x00abc"]:
            with self.subTest(job_id=jid):
                self.assertCode(grpc.StatusCode.INVALID_ARGUMENT, self.await_, jid, timeout_ms=1)
                self.assertCode(grpc.StatusCode.INVALID_ARGUMENT, self.stub.CancelProof,
                                pb.CancelProofRequest(job_id=jid), timeout=30)

    def test_unknown_job_ids(self):
        # any string is a well-formed id (cuzk's): an unknown one is NOT_FOUND
        for jid in ["987654321", "18446744073709551615", "", "abc", "-1", "0", " 1", "1 ", "0x10",
                    "99999999999999999999999999", "1\u00e9", "czk-987654321", "porep-1000-404",
                    "wdpost-1000-0-[1 2 3 4 5 6 7 8]", "x" * 300]:
            with self.subTest(job_id=jid):
                self.assertCode(grpc.StatusCode.NOT_FOUND, self.await_, jid, timeout_ms=1)
                self.assertCode(grpc.StatusCode.NOT_FOUND, self.await_, jid)
                self.assertCode(grpc.StatusCode.NOT_FOUND, self.stub.CancelProof,
                                pb.CancelProofRequest(job_id=jid), timeout=30)

    def test_bad_submissions(self):
        S = pb.SubmitProofRequest
        inv = grpc.StatusCode.INVALID_ARGUMENT
        cases = [
            (S(), inv),                                                       # names nothing
            (S(circuit_id="nope", circuit_input=b"1"), inv),                  # unknown circuit
            (S(circuit_id="demo/../x", circuit_input=b"1"), inv),             # not an id
            (S(circuit_id="x" * 64, circuit_input=b"1"), inv),
            (S(circuit_id="demo\x00x", circuit_input=b"1"), inv),            # a NUL inside
            (S(circuit_id="demo", circuit_input=b"1", request_id="a\x00b"), inv),
            (S(circuit_id="demo", circuit_input=b"abc"), inv),                # the seed is decimal
            (S(circuit_id="demo", circuit_input=b""), inv),
            (S(circuit_id="demo", circuit_input=b"99999999999999999999999"), inv),
            (S(circuit_id="demo", circuit_input=b"1", priority=9), inv),
            (S(circuit_id="demo", circuit_input=b"1", request_id="r" * 5000), inv),
            (S(circuit_id="demo", circuit_input=b"1", request_id="r" * 256), inv),   # ids are < 256 bytes
            (S(circuit_id="demo", circuit_input=b"1", request_id="czk-12"), inv),    # reserved for generated ids
            (S(proof_kind=pb.SNAP_DEALS_UPDATE, comm_r_old=b"\x01" * 40), inv),     # a CID, not 32 bytes
            (S(proof_kind=pb.SNAP_DEALS_UPDATE, comm_r_new=b"\x01" * 31), inv),
            (S(proof_kind=pb.SNAP_DEALS_UPDATE, comm_d_new=b"\x01"), inv),
            (S(proof_kind=pb.SNAP_DEALS_UPDATE, comm_r_old=b"\x01" * 32, comm_r_new=b"\x02" * 32,
               comm_d_new=b"\x03" * 32), inv),                                      # no vanilla proofs
            # NI-PoRep: Filecoin returns a SnarkPack aggregate, which czk cannot make yet
            (S(proof_kind=pb.POREP_SEAL_COMMIT, registered_proof=18, vanilla_proof=b"{}"),
             grpc.StatusCode.UNIMPLEMENTED),
            (S(proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=b"{}"), inv),            # not a C1 output
            (S(proof_kind=pb.POREP_SEAL_COMMIT, registered_proof=8), inv),             # no C1 output at all
            (S(proof_kind=pb.WINNING_POST), inv),                                     # no vanilla proofs
            (S(proof_kind=77), inv),
        ]
        for req, code in cases:
            with self.subTest(req=str(req)[:80]):
                e = self.assertCode(code, self.stub.SubmitProof, req, timeout=30)
                if code == grpc.StatusCode.UNIMPLEMENTED:
                    self.assertIn("aggregate", e.details())
                self.assertCode(code, self.stub.Prove, pb.ProveRequest(submit=req), timeout=30)
        self.assertCode(inv, self.stub.Prove, pb.ProveRequest(), timeout=30)

    def test_bad_srs_requests(self):
        for cid, code in (("", grpc.StatusCode.INVALID_ARGUMENT), ("../etc", grpc.StatusCode.INVALID_ARGUMENT),
                          ("a b", grpc.StatusCode.INVALID_ARGUMENT)):
            with self.subTest(circuit=cid):
                self.assertCode(code, self.stub.PreloadSRS, pb.PreloadSrsRequest(circuit_id=cid), timeout=30)
                self.assertCode(code, self.stub.EvictSRS, pb.EvictSrsRequest(circuit_id=cid), timeout=30)
        e = self.assertCode(grpc.StatusCode.INVALID_ARGUMENT, self.stub.PreloadSRS,
                            pb.PreloadSrsRequest(circuit_id="nope"), timeout=30)
        self.assertIn("nope", e.details())


class Srs(Base):
    def test_preload_evict(self):
        # the demo circuit: a fresh load, then resident, then evicted
        self.stub.EvictSRS(pb.EvictSrsRequest(circuit_id="demo"), timeout=60)
        r = self.stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="demo"), timeout=600)
        self.assertFalse(r.already_loaded)
        r = self.stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="demo"), timeout=600)
        self.assertTrue(r.already_loaded)
        st = self.stub.GetStatus(pb.GetStatusRequest(), timeout=30)
        self.assertIn("demo", [s.circuit_id for s in st.loaded_srs])
        e = self.stub.EvictSRS(pb.EvictSrsRequest(circuit_id="demo"), timeout=60)
        self.assertTrue(e.was_loaded)
        self.assertGreater(e.freed_bytes, 0)
        st = self.stub.GetStatus(pb.GetStatusRequest(), timeout=30)
        self.assertNotIn("demo", [s.circuit_id for s in st.loaded_srs])
        e = self.stub.EvictSRS(pb.EvictSrsRequest(circuit_id="demo"), timeout=60)
        self.assertFalse(e.was_loaded)
        # a proof after the eviction loads it again
        self.check_completed(self.await_(self.submit(seed=41).job_id))

    def test_evict_in_use(self):
        s = self.submit(circuit=SLOW, seed=42, priority=pb.LOW)
        try:
            self.assertCode(grpc.StatusCode.FAILED_PRECONDITION, self.stub.EvictSRS,
                            pb.EvictSrsRequest(circuit_id=SLOW), timeout=60)
        finally:
            self.cancel_quietly(s.job_id)
        self.assertIn(self.await_(s.job_id).status,
                      (pb.AwaitProofResponse.CANCELLED, pb.AwaitProofResponse.COMPLETED))


class Waiting(Base):
    def slow_jobs(self, n, base):
        return [self.submit(circuit=SLOW, seed=base + i, priority=pb.LOW).job_id for i in range(n)]

    def test_await_timeout(self):
        ids = self.slow_jobs(1, 51)
        try:
            t0 = time.monotonic()
            r = self.await_(ids[0], timeout_ms=50)
            dt = time.monotonic() - t0
            self.assertEqual(r.status, pb.AwaitProofResponse.TIMEOUT)
            self.assertEqual(r.job_id, ids[0])
            self.assertEqual(len(r.proof), 0)
            self.assertLess(dt, 5.0)
        finally:
            for j in ids:
                self.cancel_quietly(j)

    def test_cancel(self):
        # ten slow jobs: the last ones are still queued behind the partitions in flight
        # (partition workers + GPU queue + GPU workers: 6 with czkd's defaults)
        ids = self.slow_jobs(10, 61)
        last = ids[-1]
        c = self.stub.CancelProof(pb.CancelProofRequest(job_id=last), timeout=30)
        self.assertFalse(c.was_running)
        r = self.await_(last)
        self.assertEqual(r.status, pb.AwaitProofResponse.CANCELLED)
        self.assertEqual(len(r.proof), 0)
        self.assertTrue(r.error_message)
        # cancelling again, or a finished job: OK, nothing changes
        self.stub.CancelProof(pb.CancelProofRequest(job_id=last), timeout=30)
        self.assertEqual(self.await_(last).status, pb.AwaitProofResponse.CANCELLED)
        # a running one
        deadline = time.monotonic() + 120
        running = False
        while time.monotonic() < deadline and not running:
            st = json.loads(self.stub.GetStatus(pb.GetStatusRequest(), timeout=30).status_json)
            active = st.get("jobs", {}).get("active", [])
            running = any(str(j.get("job_id")) == ids[0] and j.get("state") == "running" for j in active)
            if not running:
                time.sleep(0.05)
        c = self.stub.CancelProof(pb.CancelProofRequest(job_id=ids[0]), timeout=30)
        r = self.await_(ids[0])
        if c.was_running:
            self.assertIn(r.status, (pb.AwaitProofResponse.CANCELLED, pb.AwaitProofResponse.COMPLETED))
        for j in ids:
            self.cancel_quietly(j)
        for j in ids:
            self.assertIn(self.await_(j).status,
                          (pb.AwaitProofResponse.CANCELLED, pb.AwaitProofResponse.COMPLETED))

    def test_waiters_do_not_block_others(self):
        ids = self.slow_jobs(2, 71)
        try:
            futs = [self.stub.AwaitProof.future(pb.AwaitProofRequest(job_id=ids[i % 2]), timeout=300)
                    for i in range(24)]
            time.sleep(0.3)
            t0 = time.monotonic()
            for _ in range(5):
                self.stub.GetStatus(pb.GetStatusRequest(), timeout=10)
            r = self.await_(self.submit(seed=72, priority=pb.CRITICAL).job_id)
            self.check_completed(r)
            self.assertLess(time.monotonic() - t0, 60)
        finally:
            for j in ids:
                self.cancel_quietly(j)
        for f in futs:
            self.assertIn(f.result().status,
                          (pb.AwaitProofResponse.CANCELLED, pb.AwaitProofResponse.COMPLETED))

    def test_client_deadline(self):
        ids = self.slow_jobs(1, 81)
        try:
            self.assertCode(grpc.StatusCode.DEADLINE_EXCEEDED, self.await_, ids[0], timeout=0.3)
            # the server is still fine
            self.stub.GetStatus(pb.GetStatusRequest(), timeout=10)
        finally:
            self.cancel_quietly(ids[0])


class Limits(Base):
    """Against the second czkd (queue_limit 2, 1 MiB messages)."""

    @classmethod
    def setUpClass(cls):
        if not ARGS.small_addr:
            raise unittest.SkipTest("no --small-addr")
        cls.channel = grpc.insecure_channel(ARGS.small_addr)
        grpc.channel_ready_future(cls.channel).result(timeout=30)
        cls.stub = pb_grpc.ProvingEngineStub(cls.channel)
        cls.tmp = tempfile.mkdtemp(prefix="czk-grpc-test-")
        cls.run_id = "%d-%d" % (os.getpid(), int(time.time() * 1000))

    def test_queue_limit(self):
        ids = []
        try:
            ids.append(self.submit(circuit=SLOW, seed=91, rid=self.rid("q1")).job_id)
            ids.append(self.submit(circuit=SLOW, seed=92).job_id)
            self.assertCode(grpc.StatusCode.RESOURCE_EXHAUSTED, self.submit, circuit=SLOW, seed=93)
            self.assertCode(grpc.StatusCode.RESOURCE_EXHAUSTED, self.stub.Prove, pb.ProveRequest(
                submit=pb.SubmitProofRequest(circuit_id="demo", circuit_input=b"93")), timeout=30)
            # a duplicate of an accepted request is not new work: still answered
            self.assertEqual(self.submit(circuit=SLOW, seed=91, rid=self.rid("q1")).job_id, ids[0])
        finally:
            for j in ids:
                self.cancel_quietly(j)
            for j in ids:
                self.await_(j)
        # room again
        self.check_completed(self.await_(self.submit(seed=94).job_id))

    def test_message_limit(self):
        big = b"1" * (2 << 20)
        self.assertCode(grpc.StatusCode.RESOURCE_EXHAUSTED, self.stub.SubmitProof,
                        pb.SubmitProofRequest(circuit_id="demo", circuit_input=big), timeout=30)
        self.stub.GetStatus(pb.GetStatusRequest(), timeout=10)


def main():
    global ARGS, pb, pb_grpc, grpc
    ap = argparse.ArgumentParser()
    ap.add_argument("--addr", required=True)
    ap.add_argument("--small-addr")
    ap.add_argument("--czk", required=True)
    ap.add_argument("--param-cache", required=True)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("tests", nargs="*")
    ARGS = ap.parse_args()
    try:
        import grpc as grpc_mod
    except ImportError:
        skip("python3-grpcio is not installed")
    grpc = grpc_mod
    stub_dir = tempfile.mkdtemp(prefix="czk-stubs-")
    try:
        generate_stubs(stub_dir)
        from cuzk.v1 import proving_pb2, proving_pb2_grpc
        pb, pb_grpc = proving_pb2, proving_pb2_grpc
        loader = unittest.TestLoader()
        mod = sys.modules[__name__]
        suite = loader.loadTestsFromNames(ARGS.tests, mod) if ARGS.tests else loader.loadTestsFromModule(mod)
        res = unittest.TextTestRunner(verbosity=2 if ARGS.v else 1).run(suite)
        return 0 if res.wasSuccessful() else 1
    finally:
        shutil.rmtree(stub_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
