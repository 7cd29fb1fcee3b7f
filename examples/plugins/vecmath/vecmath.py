"""vecmath in pure Python: what the plugin's programs print under python3 (the
compiled program calls the C library through vecmath.pyi instead)."""

import math


def dot(a: list[float], b: list[float]) -> float:
    if len(a) != len(b):
        raise ValueError(f"dot: the vectors have lengths {len(a)} and {len(b)}")
    total = 0.0
    for i in range(len(a)):
        total += a[i] * b[i]
    return total


def norm(a: list[float]) -> float:
    return math.sqrt(dot(a, a))


def axpy(alpha: float, x: list[float], y: list[float]) -> None:
    if len(x) != len(y):
        raise ValueError(f"axpy: the vectors have lengths {len(x)} and {len(y)}")
    for i in range(len(x)):
        y[i] += alpha * x[i]
