#pragma once
/// plugins: the native libraries of the plugins a program imports, loaded into
/// the driver before the JIT links the program, so its `core.call_extern` of a
/// vendor's symbol resolves (plugin_libraries.cc).
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ppy/driver/compile.h"

namespace ppy::driver {

/// dlopen()s (global, now) every library of every plugin `c`'s project uses.
/// E1802 naming the library and the plugin when one cannot be loaded.
[[nodiscard]] absl::Status load_plugin_libraries(const Compilation& c);

/// The library name a stub's `@extern(..., library="vecmath")` gives for the
/// file `lib/libvecmath.so` (also `libvecmath.so.1`, `vecmath.so`): what a
/// backend matches the IR's `library` attribute against.
std::string native_library_name(const std::string& file);

/// Library name -> absolute file of every library of every plugin `project`
/// uses: the link inputs a built executable needs (the LLVM road receives them
/// as its `library.NAME` flags, backends/llvm/plugin_link.h).
std::map<std::string, std::string> plugin_library_files(const Project& project);

/// The C compiler's arguments linking those files, each with an rpath to its
/// folder so the executable runs from anywhere (`ppy run --backend c`).
std::vector<std::string> plugin_link_args(const Project& project);

}  // namespace ppy::driver
