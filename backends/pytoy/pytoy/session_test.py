"""The Python toy's session engine on hand-made request streams (no server):
the order of its answers, its refusals, and a malformed stream."""

import unittest

import grpc

from ppy.backend.v1 import backend_pb2 as v1

from pytoy import session
from pytoy.toy_test import module


class Aborted(Exception):
    pass


class Context:
    """What session.run uses of a grpc.ServicerContext."""

    def __init__(self):
        self.code = None

    def is_active(self):
        return True

    def abort(self, code, details):
        self.code, self.details = code, details
        raise Aborted(details)


def stream(action, fmt="", modules=(), pieces=3, **header):
    """A header, then each module's bytes cut into `pieces` chunks."""
    h = v1.InvokeHeader(action=action, format=fmt, **header)
    for m in modules:
        h.modules.add(name=m.name)
    yield v1.InvokeRequest(header=h)
    for i, m in enumerate(modules):
        data = m.SerializeToString()
        cut = max(1, len(data) // pieces)
        parts = [data[at:at + cut] for at in range(0, len(data), cut)]
        for k, part in enumerate(parts):
            yield v1.InvokeRequest(module=v1.ModuleChunk(module_index=i, data=part, last=k == len(parts) - 1))


class Session(unittest.TestCase):
    def run_session(self, requests):
        ctx = Context()
        return list(session.run(requests, ctx)), ctx

    def test_emit_answers_one_artifact_per_module_then_finished(self):
        out, _ = self.run_session(stream(v1.InvokeHeader.EMIT, "pytoy", [module("app"), module("lib")],
                                         run_passes=True, validate=True, report_steps=True))
        kinds = [r.WhichOneof("msg") for r in out]
        self.assertEqual(kinds, ["step", "step", "step", "artifact", "artifact", "finished"])
        self.assertEqual([r.step.name for r in out[:3]], ["passes", "validate", "emit"])
        self.assertEqual([(r.artifact.module, r.artifact.binary, r.artifact.last) for r in out[3:5]],
                         [("app", False, True), ("lib", False, True)])
        self.assertTrue(out[3].artifact.data.startswith(b"// f: 3 operations\n"))
        self.assertEqual([(p.name, p.changed) for p in out[5].finished.passes], [("pytoy-count-ops", True)])

    def test_modules_come_back_after_the_passes_when_asked(self):
        out, _ = self.run_session(stream(v1.InvokeHeader.VALIDATE, modules=[module("app")], run_passes=True,
                                         return_modules=True))
        chunks = [r.module for r in out if r.WhichOneof("msg") == "module"]
        self.assertTrue(chunks[-1].last)
        back = session.ir_pb2.Module.FromString(b"".join(c.data for c in chunks))
        self.assertIn("pytoy.ops", [back.strings[a.key] for a in back.functions[0].attrs])

    def test_the_wrong_scope_an_unknown_format_and_a_missing_toolchain_are_refused(self):
        for requests, code in [
            (stream(v1.InvokeHeader.EMIT, "pytoy-image", [module()]), v1.BackendError.UNSUPPORTED),
            (stream(v1.InvokeHeader.EMIT_PROGRAM, "pytoy", [module()]), v1.BackendError.UNSUPPORTED),
            (stream(v1.InvokeHeader.EMIT, "nope", [module()]), v1.BackendError.UNSUPPORTED),
            (stream(v1.InvokeHeader.BUILD, "", [module()],
                    options=v1.ConfigTable(fields={"sdk-version": v1.ConfigValue(string_value="missing")})),
             v1.BackendError.TOOLCHAIN),
        ]:
            out, _ = self.run_session(requests)
            self.assertEqual(len(out), 1)
            self.assertEqual(out[0].error.code, code, out[0].error.message)
            self.assertEqual(out[0].error.backend, "pytoy")

    def test_a_refusal_is_located(self):
        out, _ = self.run_session(stream(v1.InvokeHeader.VALIDATE, modules=[module("k", gpu=True)]))
        e = out[-1].error
        self.assertEqual((e.code, e.what, e.capability, e.module), (v1.BackendError.VALIDATION,
                                                                   "gpu.thread_id.x in f", "device kernels", "k"))
        self.assertEqual((e.location.file, e.location.line, e.location.col), ("f.ppy", 2, 10))

    def test_build_sends_its_files_and_lists_them(self):
        out, _ = self.run_session(stream(v1.InvokeHeader.BUILD, modules=[module("app"), module("lib")]))
        files = [r.file for r in out if r.WhichOneof("msg") == "file"]
        self.assertEqual([f.path for f in files], ["app.pytoy", "lib.pytoy"])
        self.assertEqual(list(out[-1].finished.outputs), ["app.pytoy", "lib.pytoy"])
        self.assertEqual(out[0].note.text, "pytoy: built 2 module(s) with pytoy sdk 0")

    def test_awaited_steps_begin_once_the_driver_has_seen_them(self):
        args = (v1.InvokeHeader.EMIT, "pytoy", [module("app")])
        flags = dict(run_passes=True, validate=True, report_steps=True, await_steps=True)
        # No StepSeen comes: the session says its first step and goes no further.
        out, _ = self.run_session(stream(*args, **flags))
        self.assertEqual([r.WhichOneof("msg") for r in out], ["step"])
        # Each Step answered: the whole session.
        seen = [v1.InvokeRequest(step_seen=v1.StepSeen(name=n)) for n in ("passes", "validate", "emit")]
        out, _ = self.run_session(iter(list(stream(*args, **flags)) + seen))
        self.assertEqual([r.WhichOneof("msg") for r in out], ["step", "step", "step", "artifact", "finished"])

    def test_a_malformed_stream_is_invalid_argument(self):
        def out_of_order():
            requests = list(stream(v1.InvokeHeader.EMIT, "pytoy", [module("a"), module("b")], pieces=1))
            yield from [requests[0], requests[2], requests[1]]

        for requests in [out_of_order(), iter([]),
                         iter([v1.InvokeRequest(module=v1.ModuleChunk(module_index=0, last=True))])]:
            ctx = Context()
            with self.assertRaises(Aborted):
                list(session.run(requests, ctx))
            self.assertEqual(ctx.code, grpc.StatusCode.INVALID_ARGUMENT)

    def test_bytes_that_are_no_module_are_bad_module(self):
        h = v1.InvokeHeader(action=v1.InvokeHeader.VALIDATE)
        h.modules.add(name="junk")
        out, _ = self.run_session(iter([v1.InvokeRequest(header=h),
                                        v1.InvokeRequest(module=v1.ModuleChunk(data=b"\xff\xff\xff", last=True))]))
        self.assertEqual(out[-1].error.code, v1.BackendError.BAD_MODULE)


if __name__ == "__main__":
    unittest.main()
