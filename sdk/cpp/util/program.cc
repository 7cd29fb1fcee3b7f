#include "ppy/util/program.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace ppy {
namespace {

bool executable_file(const std::filesystem::path& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::filesystem::path> find_program(std::string_view name, std::string_view search_path) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string_view::npos) {
    std::filesystem::path p(name);
    return executable_file(p) ? std::optional(p) : std::nullopt;
  }
  std::string dirs(search_path);
  if (dirs.empty()) {
    const char* env = std::getenv("PATH");
    dirs = env && *env ? env : "/usr/local/bin:/usr/bin:/bin";
  }
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string_view dir = std::string_view(dirs).substr(start, end - start);
    start = end + 1;
    if (dir.empty()) continue;  // an empty entry would mean the working folder: never a tool's place
    std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (executable_file(candidate)) return candidate;
  }
  return std::nullopt;
}

}  // namespace ppy
