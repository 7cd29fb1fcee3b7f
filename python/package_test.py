"""The pure-Python `ppy` package's GPU host side (issue 34): `cuda.launch` runs a
kernel once per thread, with the ids, pointers and barrier the compiler reads.
Run as `python3 package_test.py` with python/ on the path (ctest does)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ppy import cuda, native  # noqa: E402

SOURCE = os.path.dirname(HERE)


@cuda.kernel
def scale_rows(w: int, h: int, src: native.const_ptr[int], dst: native.ptr[int]) -> None:
    x = cuda.block_id("x") * cuda.block_dim("x") + cuda.thread_id("x")
    y = cuda.block_id("y") * cuda.block_dim("y") + cuda.thread_id("y")
    if x < w and y < h:
        native.store(native.offset(dst, y * w + x), native.load(native.offset(src, y * w + x)) * (y + 1))


@cuda.kernel
def rotate(n: int, buf: native.ptr[int], out: native.ptr[int]) -> None:
    t = cuda.thread_id()
    native.store(native.offset(buf, t), t * 10)
    cuda.syncthreads()  # every thread's store is seen after it
    native.store(native.offset(out, t), native.load(native.offset(buf, (t + 1) % n)))


@cuda.kernel
def bounds(n: int, out: native.ptr[int]) -> None:
    native.store(native.offset(out, cuda.global_id()), cuda.grid_dim() * 100 + cuda.block_dim())


class Launch(unittest.TestCase):
    def test_saxpy_prints_what_its_loop_over_threads_prints(self):
        # tests/device/gpu: the compiled launch's output is the reference's.
        env = dict(os.environ, PYTHONPATH=HERE)
        got = subprocess.run([sys.executable, os.path.join(SOURCE, "tests/device/gpu/saxpy_launch.ppy")],
                             capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
        self.assertEqual(got.returncode, 0, got.stderr)
        want = subprocess.run([sys.executable, os.path.join(SOURCE, "tests/device/gpu/saxpy_launch_reference.py")],
                              capture_output=True, text=True)
        self.assertEqual(got.stdout, want.stdout)

    def test_a_two_dimensional_grid_of_tuples(self):
        w, h = 5, 3
        src = list(range(w * h))
        dst = [0] * (w * h)
        cuda.launch(scale_rows, (2, 2), (4, 2), w, h, src, dst)
        self.assertEqual(dst, [v * (i // w + 1) for i, v in enumerate(src)])

    def test_syncthreads_waits_for_the_whole_block(self):
        n = 16
        buf, out = [0] * n, [0] * n
        cuda.launch(rotate, 1, n, n, buf, out)
        self.assertEqual(out, [((t + 1) % n) * 10 for t in range(n)])

    def test_grid_and_block_sizes_and_global_ids(self):
        out = [0] * 6
        cuda.launch(bounds, 3, 2, 6, out)
        self.assertEqual(out, [302] * 6)

    def test_an_error_in_a_thread_is_raised_by_the_launch(self):
        with self.assertRaises(IndexError):
            cuda.launch(rotate, 1, 4, 4, [0] * 3, [0] * 4)
        with self.assertRaises(TypeError):
            cuda.launch(bounds, (1, 1, 1, 1), 1, 1, [0])

    def test_ids_outside_a_launch_are_an_error(self):
        with self.assertRaises(RuntimeError):
            cuda.thread_id()


if __name__ == "__main__":
    unittest.main()
