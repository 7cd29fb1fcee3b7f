"""devicelib: a device library's typed stub. `scale` runs on the device
through the library's C symbol; the plugin's pass marks its callers for the
devicelib backend."""

from ppy import extern


@extern("devicelib_scale", library="devicelib")
def scale(factor: float, values: list[float]) -> None: ...
