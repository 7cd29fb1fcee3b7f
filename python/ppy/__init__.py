"""The `ppy` package for CPython: a ppy program is a Python program, and runs
unchanged under python3 with this package on its path.

The names are those the compiler reads (`from ppy import export, pure, opt,
cuda, native, xla, extern, op`); under python3 each marker is a no-op: decorators return the
function unchanged (`opt` checks its level as the compiler does). GPU kernels are
compiled by ppy, not run by python3. `python3 -m ppy TARGET [ARGS...]` runs a
file, or a project folder as ppy reads it (its `.ppy` modules importing each
other; see __main__.py).
"""


def export(fn):
    return fn


class _Cuda:
    @staticmethod
    def kernel(fn):
        return fn

    @staticmethod
    def device(fn):
        return fn


class _Pointer:
    def __class_getitem__(cls, item):
        return cls


class _Native:
    ptr = _Pointer
    const_ptr = _Pointer


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
