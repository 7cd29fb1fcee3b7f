"""vecmath: dot products, norms and axpy over list[float], computed by the
vendor's C library (libvecmath). The typed stub ppy reads: the three public
functions check their arguments as the pure-Python vecmath.py does, then call
the library through the @extern declarations (docs/writing-a-plugin.md)."""

from ppy import extern


@extern("vecmath_dot", library="vecmath")
def _dot(a: list[float], b: list[float]) -> float: ...


@extern("vecmath_norm", library="vecmath")
def _norm(a: list[float]) -> float: ...


@extern("vecmath_axpy", library="vecmath")
def _axpy(alpha: float, x: list[float], y: list[float]) -> None: ...


def dot(a: list[float], b: list[float]) -> float:
    if len(a) != len(b):
        raise ValueError(f"dot: the vectors have lengths {len(a)} and {len(b)}")
    return _dot(a, b)


def norm(a: list[float]) -> float:
    return _norm(a)


def axpy(alpha: float, x: list[float], y: list[float]) -> None:
    if len(x) != len(y):
        raise ValueError(f"axpy: the vectors have lengths {len(x)} and {len(y)}")
    _axpy(alpha, x, y)
