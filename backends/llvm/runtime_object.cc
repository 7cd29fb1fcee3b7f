// The runtime's object, compiled once per machine and kept in the user's cache.
#include "runtime_object.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>

#include "native.h"
#include "ppy/runtime/runtime_source.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::llvm_backend {
namespace {

/// The cache folder, or empty when there is none to use.
fs::path cache_folder() {
  if (const char* p = std::getenv("PPY_RUNTIME_CACHE"); p && *p) return fs::path(p);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "ppy" / "runtime";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "ppy" / "runtime";
  return {};
}

/// What names the object: everything that changes it.
std::string object_name(const std::vector<std::string>& argv, const std::string& text, const fs::path& source,
                        const fs::path& object) {
  std::string key = str_cat(runtime::digest(), "\n", text, "\n");
  for (const std::string& a : argv)
    str_append(key, a == source.string() ? "<source>" : a == object.string() ? "<object>" : a, "\n");
  struct stat st {};
  if (::stat(argv[0].c_str(), &st) == 0)
    str_append(key, static_cast<int64_t>(st.st_size), " ", static_cast<int64_t>(st.st_mtim.tv_sec), " ",
               static_cast<int64_t>(st.st_mtim.tv_nsec), "\n");
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016zx", std::hash<std::string>{}(key));
  return str_cat(std::string(runtime::digest().substr(0, 16)), "-", hex, ".o");
}

}  // namespace

absl::Status compile_runtime(const std::vector<std::string>& argv, const std::string& text, const fs::path& source,
                             const fs::path& object, const fs::path& work) {
  fs::path folder = cache_folder();
  std::error_code ec;
  fs::path cached = folder.empty() ? fs::path() : folder / object_name(argv, text, source, object);
  if (!cached.empty() && fs::exists(cached, ec) &&
      fs::copy_file(cached, object, fs::copy_options::overwrite_existing, ec))
    return absl::OkStatus();
  if (auto r = run_tool(argv, work); !r.ok()) return r.status();
  if (cached.empty()) return absl::OkStatus();
  // Whole or not at all: a copy under a name of its own, renamed into place.
  fs::create_directories(folder, ec);
  fs::path partial = folder / str_cat(".", cached.filename().string(), ".", ::getpid());
  if (fs::copy_file(object, partial, fs::copy_options::overwrite_existing, ec)) fs::rename(partial, cached, ec);
  if (ec) fs::remove(partial, ec);
  return absl::OkStatus();  // a cache that cannot be written is only slower
}

}  // namespace ppy::llvm_backend
