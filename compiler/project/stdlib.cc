// The standard library written in ppy (docs/stdlib.md): modules such as heapq
// and bisect are ppy source shipped with the compiler, added to a project that
// imports them and compiled like its own modules, so every backend gets them.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "imports.h"
#include "ppy/project/project.h"
#include "ppy/util/error.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

#ifndef PPY_STDLIB_SOURCE_DIR
#define PPY_STDLIB_SOURCE_DIR ""
#endif

namespace ppy {
namespace fs = std::filesystem;
namespace {

bool is_ident_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

bool defines(const Project& p, const std::string& root) {
  for (const auto& m : p.modules)
    if (m.name == root || m.name.starts_with(root + ".")) return true;
  return false;
}

}  // namespace

/// The top-level package of each module an `import a.b` / `from a.b import c`
/// line of `text` names (a scan of lines, enough to find what to add: the
/// frontend reports what is wrong with an import).
std::set<std::string> imported_roots(const std::string& text) {
  std::set<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos) continue;
    line.remove_prefix(i);
    bool from = line.starts_with("from ");
    if (!from && !line.starts_with("import ")) continue;
    line.remove_prefix(from ? 5 : 7);
    // `import a, b.c as d` names several; `from a import b` one.
    for (;;) {
      size_t s = line.find_first_not_of(" \t(");
      if (s == std::string_view::npos) break;
      line.remove_prefix(s);
      size_t n = 0;
      while (n < line.size() && is_ident_byte(line[n])) ++n;
      if (n == 0) break;
      std::string name(line.substr(0, n));
      out.insert(name.substr(0, name.find('.')));
      if (from) break;
      size_t comma = line.find(',');
      if (comma == std::string_view::npos) break;
      line.remove_prefix(comma + 1);
    }
  }
  return out;
}

std::string stdlib_dir() {
  std::error_code ec;
  if (const char* env = std::getenv("PPY_STDLIB"); env && *env) return env;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path beside = exe.parent_path().parent_path() / "share" / "ppy" / "stdlib";
    if (fs::is_directory(beside, ec)) return beside.string();
  }
  return PPY_STDLIB_SOURCE_DIR;
}

absl::Status add_stdlib_modules(Project& p) {
  const std::string dir = stdlib_dir();
  if (dir.empty()) return absl::OkStatus();
  std::vector<std::string> todo;
  for (const auto& m : p.modules) todo.push_back(m.text);
  bool added = false;
  while (!todo.empty()) {
    std::string text = std::move(todo.back());
    todo.pop_back();
    for (const std::string& root : imported_roots(text)) {
      if (defines(p, root)) continue;  // the project's own module shadows the standard library's
      fs::path file = fs::path(dir) / (root + ".ppy");
      std::error_code ec;
      if (!fs::is_regular_file(file, ec)) continue;
      absl::StatusOr<std::string> read = read_file(file);
      if (!read.ok()) return coded_error("E1205", std::string(read.status().message()));
      SourceModule m;
      m.name = root;
      m.path = file.string();
      m.text = std::move(*read);
      todo.push_back(m.text);
      p.modules.push_back(std::move(m));
      added = true;
    }
  }
  if (added)
    std::sort(p.modules.begin(), p.modules.end(),
              [](const SourceModule& a, const SourceModule& b) { return a.name < b.name; });
  return absl::OkStatus();
}

}  // namespace ppy
