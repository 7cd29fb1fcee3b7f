"""The Python toy's behaviour on hand-made wire modules (no gRPC calls; the
conformance test, PyToy.PassesConformance, checks the served backend)."""

import os
import struct
import tempfile
import unittest

from ppy.ir.v1 import ir_pb2

from pytoy import toy


def module(name="m", gpu=False, op_loc=True):
    """`f(x: i64) -> i64` with two adds and a ret (a `gpu.thread_id.x` first when
    `gpu`), function attributes `a.first` and `z.last`, and a declaration `g`."""
    strings = ["", "core.add", "core.ret", "overflow", "wrap", "x", "entry", "a.first", "z.last", "f.ppy",
               "gpu.thread_id.x"]
    m = ir_pb2.Module(schema_version=1, name=name, strings=strings)
    m.types.add(scalar=ir_pb2.SCALAR_KIND_I64)
    m.types.add(scalar=ir_pb2.SCALAR_KIND_INDEX)
    f = m.functions.add(name="f", results=[0])
    f.params.add(type=0, name=5)
    f.attrs.add(key=7, value=ir_pb2.Attribute(bool_value=True))
    f.attrs.add(key=8, value=ir_pb2.Attribute(bool_value=False))
    f.loc.file, f.loc.line, f.loc.col = 9, 1, 0
    b = f.body.blocks.add(label=6, arg_types=[0])
    if gpu:
        op = b.ops.add(name=10, result_types=[1])
        if op_loc:
            op.loc.file, op.loc.line, op.loc.col = 9, 2, 10
    wrap = ir_pb2.NamedAttribute(key=3, value=ir_pb2.Attribute(text=4))
    b.ops.add(name=1, operands=[0, 0], result_types=[0], attrs=[wrap])
    b.ops.add(name=1, operands=[1, 1], result_types=[0], attrs=[wrap])
    b.ops.add(name=2, operands=[2])
    m.functions.add(name="g", results=[0])
    return m


class CountOps(unittest.TestCase):
    def test_sets_the_count_in_key_order_once(self):
        m = module()
        self.assertTrue(toy.count_ops_pass(m))
        f = m.functions[0]
        self.assertEqual([m.strings[a.key] for a in f.attrs], ["a.first", "pytoy.ops", "z.last"])
        self.assertEqual(f.attrs[1].value.int_value, 3)
        self.assertEqual(len(m.functions[1].attrs), 0)  # a declaration has no body to count
        self.assertFalse(toy.count_ops_pass(m))
        # The module still decodes: what the pass wrote is a valid message.
        self.assertEqual(ir_pb2.Module.FromString(m.SerializeToString()), m)

    def test_a_stale_count_is_replaced(self):
        m = module()
        toy.count_ops_pass(m)
        m.functions[0].body.blocks[0].ops.pop(0)
        self.assertTrue(toy.count_ops_pass(m))
        self.assertEqual(m.functions[0].attrs[1].value.int_value, 2)


class Validate(unittest.TestCase):
    def test_accepts_core(self):
        toy.validate(module())

    def test_refuses_a_gpu_op_naming_it_and_where(self):
        with self.assertRaises(toy.Refusal) as r:
            toy.validate(module(name="k", gpu=True))
        self.assertEqual(r.exception.what, "gpu.thread_id.x in f")
        self.assertEqual(r.exception.location, ("f.ppy", 2, 10))
        self.assertEqual(r.exception.module, "k")
        self.assertEqual(r.exception.message(),
                         "backend 'pytoy' cannot take gpu.thread_id.x in f at f.ppy:2:10 (needs device kernels)")

    def test_an_op_without_a_location_is_placed_at_its_function(self):
        with self.assertRaises(toy.Refusal) as r:
            toy.validate(module(gpu=True, op_loc=False))
        self.assertEqual(r.exception.location, ("f.ppy", 1, 0))


class Emit(unittest.TestCase):
    def test_text_counts_each_defined_function(self):
        m = module()
        self.assertEqual(toy.text(m), "// f: 3 operations\n^entry: core.add core.add core.ret\n\n")
        m.functions[0].attrs.add(key=toy.string_index(m, toy.OPS_ATTR), value=ir_pb2.Attribute(int_value=7))
        self.assertTrue(toy.text(m).startswith("// f: 7 operations\n"))  # the pass's count wins

    def test_image_is_length_prefixed(self):
        a, b = module("app"), module("lib")
        img = toy.image([a, b])
        self.assertEqual(img[:8], b"TOYIMG01")
        self.assertEqual(struct.unpack_from("<I", img, 8)[0], 2)
        at = 12
        for m in (a, b):
            (n,) = struct.unpack_from("<I", img, at)
            self.assertEqual(img[at + 4:at + 4 + n], m.name.encode())
            at += 4 + n
            (size,) = struct.unpack_from("<Q", img, at)
            self.assertEqual(img[at + 8:at + 8 + size], toy.text(m).encode())
            at += 8 + size
        self.assertEqual(at, len(img))

    def test_build_writes_one_file_per_module(self):
        with tempfile.TemporaryDirectory() as d:
            outputs, note = toy.build([module("app"), module("lib")], d, {"sdk-version": 2})
            self.assertEqual(outputs, ["app.pytoy", "lib.pytoy"])
            self.assertEqual(sorted(os.listdir(d)), outputs)
            self.assertEqual(note, "pytoy: built 2 module(s) with pytoy sdk 2")

    def test_toolchain_and_fingerprint_follow_the_table(self):
        self.assertEqual(toy.toolchain({}), (True, "pytoy sdk 0"))
        self.assertEqual(toy.toolchain({"sdk-version": "missing"}), (False, "missing pytoy-sdk"))
        self.assertEqual(toy.fingerprint({"sdk-version": "1.4"}), "pytoy:1.4")


if __name__ == "__main__":
    unittest.main()
