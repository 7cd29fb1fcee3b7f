"""devicelib: a device library's typed stub. `scale` runs on the device
through the library's C symbol; `fill` is an op of the plugin's own dialect
`devicelib`, which only the devicelib backend takes. The plugin's pass marks
the callers of both for the devicelib backend."""

from ppy import extern, op


@extern("devicelib_scale", library="devicelib")
def scale(factor: float, values: list[float]) -> None: ...


@op("devicelib.fill")
def fill(count: int, value: float) -> float: ...
