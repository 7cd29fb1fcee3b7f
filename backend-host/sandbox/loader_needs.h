#pragma once
// What starting a program opens besides the program itself: its `#!`
// interpreter, its ELF interpreter (the dynamic loader) and the shared
// libraries the loader finds through the program's RPATH/RUNPATH. A strict
// helper's mount namespace holds only the system folders and the helper's own
// folder, so each such file that lies elsewhere (a vendor's executable linked
// into a distribution folder, its libraries beside it under `$ORIGIN/../lib`)
// must be made visible too, and only those files.

#include <filesystem>
#include <functional>
#include <vector>

namespace ppy::host::internal {

/// Whether a path is already visible inside the sandbox.
using VisiblePath = std::function<bool(const std::filesystem::path&)>;

/// The files, beside `program` itself, that the kernel and the dynamic loader
/// open to start it and that `visible` says are not there yet, each at the
/// path it is opened by (so a library found through a symbolic link is named
/// by the link). `program` is its real path (every link resolved: `$ORIGIN` is
/// its folder, as the loader takes it from /proc/self/exe). Libraries the
/// loader takes from its default folders and cache are not searched (those
/// are system folders); nor are `$LIB`/`$PLATFORM` entries or LD_LIBRARY_PATH
/// (the sandbox scrubs the environment). A file that is not ELF or `#!`, or
/// cannot be read, needs nothing more. Bounded: at most 256 files.
[[nodiscard]] std::vector<std::filesystem::path> loader_needs(const std::filesystem::path& program,
                                                              const VisiblePath& visible);

}  // namespace ppy::host::internal
