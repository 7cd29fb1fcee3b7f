// plugins: a plugin's native libraries in the JIT's process (plugin_libraries.h).
// Loaded global, so the JIT's search of the process's symbols finds them.
#include "plugin_libraries.h"

#include <dlfcn.h>

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

}  // namespace ppy::driver
