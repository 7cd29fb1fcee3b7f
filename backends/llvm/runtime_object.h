#pragma once
/// The runtime's object for a native build, compiled once per machine (issue
/// 35): a build spent nine tenths of its processor time in `cc -O2` of the
/// runtime's text, the same text every time. The object is kept in the user's
/// cache (`$PPY_RUNTIME_CACHE`, else `$XDG_CACHE_HOME/ppy/runtime`, else
/// `~/.cache/ppy/runtime`), named by the runtime's digest, the compile's
/// arguments, the prelude and the compiler executable (its path, size and
/// modification time); without a cache folder it is compiled as before.

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace ppy::llvm_backend {

/// Runs `argv` (which compiles `source` into `object`, in `work`), or copies
/// the object an identical compile left in the cache; `text` is what `source`
/// holds (the prelude and the include of the runtime's header).
[[nodiscard]] absl::Status compile_runtime(const std::vector<std::string>& argv, const std::string& text,
                                           const std::filesystem::path& source, const std::filesystem::path& object,
                                           const std::filesystem::path& work);

}  // namespace ppy::llvm_backend
