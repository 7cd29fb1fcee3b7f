"""The `ppy` package for CPython: a ppy program is a Python program, and runs
unchanged under python3 with this package on its path.

The names are those the compiler reads (`from ppy import export, pure, opt,
cuda, native, xla, extern, op`); under python3 each marker is a no-op: decorators return the
function unchanged (`opt` checks its level as the compiler does). A GPU host
program runs too: `cuda.launch(kernel, grid, block, *args)` calls the kernel
once per thread of the grid, with `cuda.thread_id()` and its friends answering
that thread's place and a list passed for a pointer (`native.offset`, `load`,
`store`) changed in place, as the compiled launch copies it back; the threads of
a block run as Python threads, so `cuda.syncthreads()` waits for all of them. `python3 -m ppy TARGET [ARGS...]` runs a
file, or a project folder as ppy reads it (its `.ppy` modules importing each
other; see __main__.py).
"""

import threading


def export(fn):
    return fn


_DIMS = {"x": 0, "y": 1, "z": 2}


def _extent(size):
    """A launch's grid or block, an int or a tuple of up to three, as (x, y, z)."""
    sizes = (size,) if isinstance(size, int) else tuple(size)
    if not 1 <= len(sizes) <= 3 or not all(isinstance(n, int) and not isinstance(n, bool) for n in sizes):
        raise TypeError("cuda.launch: grid and block are an int or a tuple of up to three ints")
    return sizes + (1,) * (3 - len(sizes))


class _Place(threading.local):
    """The running thread's place in its launch: what cuda.thread_id() and friends read."""
    thread = block = block_dim = grid_dim = None
    barrier = None


_place = _Place()


def _dim(values, dim):
    if values is None:
        raise RuntimeError("cuda ids are only available in a kernel cuda.launch runs")
    if dim not in _DIMS:
        raise ValueError('a dimension is "x", "y" or "z"')
    return values[_DIMS[dim]]


class _Cuda:
    @staticmethod
    def kernel(fn):
        return fn

    @staticmethod
    def device(fn):
        return fn

    @staticmethod
    def thread_id(dim="x"):
        return _dim(_place.thread, dim)

    @staticmethod
    def block_id(dim="x"):
        return _dim(_place.block, dim)

    @staticmethod
    def block_dim(dim="x"):
        return _dim(_place.block_dim, dim)

    @staticmethod
    def grid_dim(dim="x"):
        return _dim(_place.grid_dim, dim)

    @staticmethod
    def global_id(dim="x"):
        return _dim(_place.block, dim) * _dim(_place.block_dim, dim) + _dim(_place.thread, dim)

    @staticmethod
    def syncthreads():
        if _place.barrier is not None:
            _place.barrier.wait()

    @staticmethod
    def launch(kernel, grid, block, *args):
        """Runs `kernel(*args)` once per thread of `grid` blocks of `block` threads
        (what the compiled `<<<grid, block>>>` does), block after block."""
        grid_dim, block_dim = _extent(grid), _extent(block)
        threads = [(x, y, z) for z in range(block_dim[2]) for y in range(block_dim[1]) for x in range(block_dim[0])]
        for bz in range(grid_dim[2]):
            for by in range(grid_dim[1]):
                for bx in range(grid_dim[0]):
                    _run_block(kernel, args, (bx, by, bz), block_dim, grid_dim, threads)


def _run_block(kernel, args, block, block_dim, grid_dim, threads):
    """One block's threads, each a Python thread (so a barrier can hold them
    all); the first exception one raises is raised here, after the others end."""
    barrier = threading.Barrier(len(threads)) if len(threads) > 1 else None
    errors = []

    def body(thread):
        _place.thread, _place.block, _place.block_dim, _place.grid_dim = thread, block, block_dim, grid_dim
        _place.barrier = barrier
        try:
            kernel(*args)
        except threading.BrokenBarrierError:
            pass  # another thread of the block raised: its error is the one reported
        except BaseException as e:  # noqa: BLE001 (re-raised by the launch)
            errors.append(e)
            if barrier is not None:
                barrier.abort()
        finally:
            _place.thread = _place.block = _place.block_dim = _place.grid_dim = _place.barrier = None

    if barrier is None:
        body(threads[0])
    else:
        running = [threading.Thread(target=body, args=(t,)) for t in threads]
        for t in running:
            t.start()
        for t in running:
            t.join()
    if errors:
        raise errors[0]


class _Pointer:
    """`native.ptr[T]`: under python3 a pointer is the list passed for it, or a
    place in one (`native.offset`)."""

    def __class_getitem__(cls, item):
        return cls


class _Address:
    __slots__ = ("items", "at")

    def __init__(self, items, at):
        self.items, self.at = items, at


def _where(p):
    return (p.items, p.at) if isinstance(p, _Address) else (p, 0)


class _Native:
    ptr = _Pointer
    const_ptr = _Pointer

    @staticmethod
    def offset(p, i):
        items, at = _where(p)
        return _Address(items, at + i)

    @staticmethod
    def load(p):
        items, at = _where(p)
        return items[at]

    @staticmethod
    def store(p, value):
        items, at = _where(p)
        items[at] = value


class _Xla:
    @staticmethod
    def jit(fn):
        return fn


cuda = _Cuda()
native = _Native()
xla = _Xla()


def pure(fn):
    return fn


def opt(level):
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 3:
        raise ValueError("@ppy.opt(level) requires an int level in 0..3")

    def bind(fn):
        return fn

    return bind


def extern(symbol, library=None):
    """A plugin stub's declaration of a C function of its vendor's library
    (docs/writing-a-plugin.md): the compiler calls `symbol`; under python3 a
    stub is never run (the pure-Python module is imported instead), so the
    marker only checks its arguments."""
    if not isinstance(symbol, str) or (library is not None and not isinstance(library, str)):
        raise TypeError("@ppy.extern(symbol, library=name) takes strings")

    def bind(fn):
        return fn

    return bind


def op(name):
    """A plugin stub's declaration of an op of the plugin's own dialect
    (docs/writing-a-plugin.md): the compiler lowers a call to the op
    `name` ("devicelib.fill"), which only a backend declaring the dialect
    takes; under python3 a stub is never run, so the marker only checks
    its argument."""
    if not isinstance(name, str) or "." not in name:
        raise TypeError('@ppy.op("dialect.name") takes the op\'s full name')

    def bind(fn):
        return fn

    return bind
