#include "ppy/driver/keys_memo.h"

#include <sys/stat.h>

#include <filesystem>

#include "ppy/util/file.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::driver {
namespace {

constexpr std::string_view kHeader = "ppy-keys 1\n";
constexpr std::string_view kEnd = "end\n";

/// A field as `<length>:<bytes>`, so no two inputs write alike.
void put(std::string& out, std::string_view s) { str_append(out, s.size(), ":", s); }

/// Whether `s` can stand in the memo's tab- and line-separated text.
bool plain(std::string_view s) { return s.find_first_of("\t\n") == std::string_view::npos && !s.empty(); }

}  // namespace

std::string keys_memo_path(const std::string& cache_root, const Project& project, int opt_level, bool portable_paths) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  struct stat st;
  if (ec || ::stat(self.c_str(), &st) != 0) return {};
  std::string text = "ppy-keys-memo 1\n";
  put(text, self.string());
  put(text, str_cat(st.st_size, " ", st.st_mtim.tv_sec, ".", st.st_mtim.tv_nsec, " ", st.st_dev, " ", st.st_ino));
  put(text, compiler_fingerprint());
  put(text, std::to_string(opt_level));
  put(text, portable_paths ? "portable" : "as-given");
  put(text, project.root);
  put(text, project.pyproject.empty() ? std::string() : read_file(project.pyproject).value_or("unreadable"));
  for (const auto& [k, v] : project_key_options(project)) {
    put(text, k);
    put(text, v);
  }
  for (const SourceModule& m : project.modules) {
    put(text, m.name);
    put(text, m.path);
    put(text, sha256_hex(m.text));
  }
  return (fs::path(cache_root) / "keys" / sha256_hex(text)).string();
}

std::optional<std::map<std::string, ModuleKey>> read_keys_memo(const std::string& path, const Project& project,
                                                               int opt_level) {
  if (path.empty()) return std::nullopt;
  auto text = read_file(path);
  if (!text.ok() || !text->starts_with(kHeader) || !text->ends_with(kEnd)) return std::nullopt;
  std::map<std::string, ModuleKey> keys;
  ModuleKey* current = nullptr;
  std::string_view rest(*text);
  rest.remove_prefix(kHeader.size());
  rest.remove_suffix(kEnd.size());
  const std::map<std::string, std::string> options = project_key_options(project);
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) return std::nullopt;
    std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl + 1);
    size_t tab = line.find('\t');
    if (line.size() < 2 || line[1] != ' ' || tab == std::string_view::npos) return std::nullopt;
    std::string first(line.substr(2, tab - 2)), second(line.substr(tab + 1));
    if (line[0] == 'm') {
      ModuleKey& k = keys[first];
      k.source_digest = second;
      k.compiler_version = compiler_version();
      k.compiler_fingerprint = compiler_fingerprint();
      k.opt_level = opt_level;
      k.project_options = options;
      current = &k;
    } else if (line[0] == 'a' && current) {
      current->dependency_abi[first] = second;
    } else {
      return std::nullopt;
    }
  }
  if (keys.empty()) return std::nullopt;
  return keys;
}

void write_keys_memo(const std::string& path, const Compilation& c) {
  if (path.empty()) return;
  std::string text(kHeader);
  for (const auto& [name, key] : c.keys) {
    if (!plain(name) || !plain(key.source_digest) || !key.directives.empty() || !key.plugin_fingerprints.empty())
      return;  // not what this memo can hold: the next build compiles
    str_append(text, "m ", name, "\t", key.source_digest, "\n");
    for (const auto& [from, digest] : key.dependency_abi) {
      if (!plain(from) || !plain(digest)) return;
      str_append(text, "a ", from, "\t", digest, "\n");
    }
  }
  text += kEnd;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  (void)write_file_atomic(path, text, {});
}

}  // namespace ppy::driver
