#pragma once
/// plugins: the native libraries of the plugins a program imports, loaded into
/// the driver before the JIT links the program, so its `core.call_extern` of a
/// vendor's symbol resolves (plugin_libraries.cc).
#include "absl/status/status.h"
#include "ppy/driver/compile.h"

namespace ppy::driver {

/// dlopen()s (global, now) every library of every plugin `c`'s project uses.
/// E1802 naming the library and the plugin when one cannot be loaded.
[[nodiscard]] absl::Status load_plugin_libraries(const Compilation& c);

}  // namespace ppy::driver
