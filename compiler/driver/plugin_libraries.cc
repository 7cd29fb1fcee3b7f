// plugins: a plugin's native libraries in the JIT's process (plugin_libraries.h).
// Loaded global, so the JIT's search of the process's symbols finds them.
#include "plugin_libraries.h"

#include <dlfcn.h>

#include <filesystem>

#include "ppy/project/plugins.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy::driver {

absl::Status load_plugin_libraries(const Compilation& c) {
  if (!c.project) return absl::OkStatus();
  for (const auto& [name, use] : plugin_uses(*c.project))
    for (const std::string& lib : use.libraries)
      if (!dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
        const char* why = dlerror();
        return coded_error("E1802", str_cat("backend 'llvm' cannot load the library ", lib, " of plugin '", name, "' (",
                                            use.distribution, " ", use.version, "): ", why ? why : "?"));
      }
  return absl::OkStatus();
}

std::string native_library_name(const std::string& file) {
  std::string name = std::filesystem::path(file).filename().string();
  if (size_t so = name.find(".so"); so != std::string::npos) name.resize(so);
  if (name.starts_with("lib") && name.size() > 3) name.erase(0, 3);
  return name;
}

std::map<std::string, std::string> plugin_library_files(const Project& project) {
  std::map<std::string, std::string> files;
  for (const auto& [name, use] : plugin_uses(project))
    for (const std::string& lib : use.libraries) files.emplace(native_library_name(lib), lib);
  return files;
}

std::vector<std::string> plugin_link_args(const Project& project) {
  std::vector<std::string> args;
  for (const auto& [name, file] : plugin_library_files(project)) {
    args.push_back(file);
    args.push_back("-Wl,-rpath," + std::filesystem::path(file).parent_path().string());
  }
  return args;
}

}  // namespace ppy::driver
