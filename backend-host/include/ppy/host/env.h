#pragma once
/// The environment as the host reads it: discovery (PPY_BACKEND_PATH, the
/// user's folders), the sandbox (what a helper may be passed) and the process
/// (its defaults) all ask through an EnvLookup, so tests give them a made-up
/// environment without touching the real one; and where the running program
/// is installed.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ppy::host {

/// Reads an environment variable: its value, or nothing when unset.
using EnvLookup = std::function<std::optional<std::string>(std::string_view)>;

/// This process's environment (getenv), read at each call.
EnvLookup process_env();

/// The prefix the running executable is installed under (`<prefix>/bin/ppy`):
/// where discovery and the sandbox find what was installed beside it.
std::filesystem::path running_install_prefix();

}  // namespace ppy::host
