"""A stand-in for the `ppy` package so corpus programs run under plain python3.

`python3 prog.ppy` puts this folder first on sys.path, so `from ppy import export`
finds this file. Only what host code needs at run time is here: decorators return
the function unchanged (`opt` checks its level as the reference does). GPU kernels
are compiled by ppy, not run by python3.
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
