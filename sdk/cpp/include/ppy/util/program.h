#pragma once
/// Finding a tool the way ppy's builtins do (`ppy doctor`'s `cc at /usr/bin/cc`):
/// a backend that drives a compiler, a linker or an SDK's own tool looks it up
/// on `PATH` when it reports its toolchain, and runs that path when it builds.
/// A helper's `PATH` is the user's (the sandbox keeps it), so what `doctor`
/// reports is what `build` runs.

#include <filesystem>
#include <optional>
#include <string_view>

namespace ppy {

/// The first executable regular file named `name` in the folders of
/// `search_path` (colon-separated; empty: the `PATH` variable, or
/// `/usr/local/bin:/usr/bin:/bin` where it is unset), or nullopt. A `name`
/// holding a `/` is that file, when it is executable.
[[nodiscard]] std::optional<std::filesystem::path> find_program(std::string_view name,
                                                                std::string_view search_path = {});

}  // namespace ppy
