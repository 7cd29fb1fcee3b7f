#pragma once
// devicelib: a device library and its backend in one distribution. The plugin
// (claiming the module `devicelib`) marks each function that calls into the
// library for offload; the backend, which knows the device, reads the mark.
// Both classes declare the one distribution; ppy_add_plugin(... WITH_BACKEND)
// writes the one manifest holding [backends.devicelib] and [plugins.devicelib].

#include "ppy/backend/backend.h"

namespace devicelib {

inline const ppy::Distribution kDistribution{"ppy-devicelib", "0.1"};

/// The function attribute the plugin's pass sets and the backend reads.
inline constexpr char kOffload[] = "devicelib.offload";

/// The plugin's dialect: the stub's `@op("devicelib.fill")` lowers to an op of
/// it, which this backend takes and every other backend refuses (E1802).
inline constexpr char kDialect[] = "devicelib";

/// The C symbols of the device library (the stub's `@extern`s call them).
inline bool is_device_symbol(std::string_view callee) { return callee.starts_with("devicelib_"); }

}  // namespace devicelib
