#include "ppy/host/env.h"

#include <cstdlib>

namespace ppy::host {

EnvLookup process_env() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  };
}

std::filesystem::path running_install_prefix() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path().parent_path();
}

}  // namespace ppy::host
