// Project loading: pyproject.toml's [tool.ppy] and the modules under the source roots.
#include "ppy/project/project.h"
#include "ppy/project/plugins.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include <openssl/evp.h>

#include "ppy/util/error.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy {
namespace fs = std::filesystem;

namespace {

absl::StatusOr<std::string> read_text(const fs::path& p) {
  absl::StatusOr<std::string> text = read_file(p);
  if (!text.ok()) return coded_error("E1205", std::string(text.status().message()));
  return text;
}

std::string to_toml_text(const toml::node& n) {
  std::ostringstream ss;
  if (auto* t = n.as_table()) {
    ss << toml::toml_formatter(*t);
  } else if (auto* a = n.as_array()) {
    ss << toml::toml_formatter(*a);
  } else {
    n.visit([&](auto&& v) {
      if constexpr (toml::is_value<decltype(v)>) ss << toml::toml_formatter(v);
    });
  }
  return ss.str();
}

std::string join(const fs::path& root, const std::string& rel) {
  if (root.empty() || root == ".") return rel;
  return (root / rel).string();
}

absl::Status collect_modules(const std::string& root_as_given, Project& p) {
  fs::path root(root_as_given);
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return coded_error("E1202", str_cat("source root ", root_as_given, " is not a folder"));
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path& fp = it->path();
    std::string base = fp.filename().string();
    if (it->is_directory() && (base.starts_with(".") || base == "__pycache__")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && (fp.extension() == ".ppy" || fp.extension() == ".py")) files.push_back(fp.string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    if (fs::path(f).extension() != p.module_suffix) {
      fs::path twin = fs::path(f).replace_extension(p.module_suffix);
      if (std::find(files.begin(), files.end(), twin.string()) != files.end())
        return coded_error("E1203", str_cat("module ", module_name_for(root_as_given, f), " comes from both ",
                                            twin.string(), " and ", f, ": ppy reads the ", p.module_suffix,
                                            " file (module-suffix = \"", p.module_suffix,
                                            "\") and python3 imports the .py file; keep one"));
      ++p.other_suffix_files;
      continue;
    }
    SourceModule m;
    m.name = module_name_for(root_as_given, f);
    m.path = f;
    if (const SourceModule* other = p.module(m.name))
      return coded_error("E1203", str_cat("module ", m.name, " comes from both ", other->path, " and ", f));
    PPY_ASSIGN_OR_RETURN(m.text, read_text(f));
    p.modules.push_back(std::move(m));
  }
  return absl::OkStatus();
}

absl::Status bad(const std::string& file, const std::string& msg) {
  return coded_error("E1201", str_cat(file, ": ", msg));
}

absl::Status read_pyproject(Project& p) {
  toml::table doc;
  try {
    doc = toml::parse_file(p.pyproject);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return bad(str_cat(p.pyproject, ":", static_cast<int64_t>(b.line), ":", static_cast<int64_t>(b.column)),
               std::string(e.description()));
  }
  fs::path root(p.root);
  std::vector<std::string> roots;
  const toml::table* tool = doc["tool"]["ppy"].as_table();
  if (tool) {
    if (auto* sr = tool->get("source-roots")) {
      auto* arr = sr->as_array();
      if (!arr) return bad(p.pyproject, "[tool.ppy] source-roots must be an array of strings");
      for (auto& e : *arr) {
        auto s = e.value<std::string>();
        if (!s) return bad(p.pyproject, "[tool.ppy] source-roots must be an array of strings");
        roots.push_back(join(root, *s));
      }
    }
    if (auto* en = tool->get("entry")) {
      auto s = en->value<std::string>();
      if (!s) return bad(p.pyproject, "[tool.ppy] entry must be a module name (a string)");
      p.entry = *s;
    }
    if (auto* ol = tool->get("opt-level")) {
      auto v = ol->value<int64_t>();
      if (!v || *v < 0 || *v > 3) return bad(p.pyproject, "[tool.ppy] opt-level must be an integer from 0 to 3");
      p.opt_level = static_cast<int>(*v);
    }
    if (auto* cm = tool->get("cache-max-size")) {
      std::optional<uint64_t> size;
      if (auto* n = cm->as_integer(); n && n->get() >= 0) size = static_cast<uint64_t>(n->get());
      if (auto* t = cm->as_string()) size = parse_byte_size(t->get());
      if (!size)
        return bad(p.pyproject, "[tool.ppy] cache-max-size must be a size: a number of bytes, or a number with "
                                "K, M, G or T (\"500M\", \"2G\")");
      p.cache_max_size = *size;
    }
    if (auto* ms = tool->get("module-suffix")) {
      auto v = ms->value<std::string>();
      if (!v || (*v != ".ppy" && *v != ".py")) return bad(p.pyproject, "[tool.ppy] module-suffix must be \".ppy\" or \".py\"");
      p.module_suffix = *v;
    }
    if (auto* rc = tool->get("remote-cache")) {
      auto* s = rc->as_string();
      if (!s || !(s->get().starts_with("http://") || s->get().starts_with("https://")))
        return bad(p.pyproject, "[tool.ppy] remote-cache must be an http:// or https:// URL (a string)");
      p.remote_cache = s->get();
    }
    if (auto* be = tool->get("backends")) {
      auto* bt = be->as_table();
      if (!bt) return bad(p.pyproject, "[tool.ppy.backends] must be a table of tables");
      for (auto&& [k, v] : *bt) {
        auto* t = v.as_table();
        if (!t) return bad(p.pyproject, str_cat("[tool.ppy.backends.", std::string(k.str()), "] must be a table"));
        BackendTable out;
        out.toml_text = to_toml_text(*t);
        for (auto&& [ok, ov] : *t) out.options[std::string(ok.str())] = to_toml_text(ov);
        out.digest = sha256_hex(out.toml_text);
        p.backends[std::string(k.str())] = std::move(out);
      }
    }
  }
  if (roots.empty()) {
    std::error_code ec;
    roots.push_back(fs::is_directory(root / "src", ec) ? join(root, "src") : p.root);
  }
  p.source_roots = roots;
  return absl::OkStatus();
}

std::string default_entry(const Project& p) {
  if (p.modules.size() == 1) return p.modules[0].name;
  std::string found;
  for (const auto& m : p.modules) {
    if (m.name == "main" || m.name == "__main__") return m.name;
    if (m.name.ends_with(".main") || m.name.ends_with(".__main__")) {
      if (!found.empty()) return "";
      found = m.name;
    }
  }
  return found;
}

}  // namespace

const SourceModule* Project::module(const std::string& name) const {
  for (const auto& m : modules)
    if (m.name == name) return &m;
  return nullptr;
}

std::string module_name_for(const std::string& source_root, const std::string& file) {
  fs::path rel = fs::path(file).lexically_relative(source_root);
  if (rel.empty() || rel.string().starts_with("..")) rel = fs::path(file).filename();
  rel.replace_extension();
  std::string name;
  for (const auto& part : rel) {
    if (part == ".") continue;
    if (!name.empty()) name += '.';
    name += part.string();
  }
  if (name == "__init__") return name;
  if (name.ends_with(".__init__")) name.resize(name.size() - 9);
  return name;
}

absl::StatusOr<Project> load_project(const std::string& path) {
  Project p;
  std::error_code ec;
  fs::path fp(path);
  if (!fs::exists(fp, ec)) return coded_error("E1202", str_cat("no such file or folder: ", path));
  if (fs::is_regular_file(fp, ec)) {
    p.root = fp.parent_path().string();
    if (p.root.empty()) p.root = ".";
    SourceModule m;
    m.name = fp.stem().string();
    m.path = path;
    PPY_ASSIGN_OR_RETURN(m.text, read_text(fp));
    p.modules.push_back(std::move(m));
    p.entry = p.modules[0].name;
    PPY_RETURN_IF_ERROR(add_stdlib_modules(p));  // heapq, bisect ... (stdlib.cc)
    PPY_RETURN_IF_ERROR(add_plugin_modules(p));  // plugins' typed stubs (plugin_modules.cc)
    return p;
  }
  p.root = path;
  if (fs::exists(fp / "pyproject.toml", ec)) {
    p.pyproject = join(fp, "pyproject.toml");
    PPY_RETURN_IF_ERROR(read_pyproject(p));
  } else {
    p.source_roots.push_back(fs::is_directory(fp / "src", ec) ? join(fp, "src") : path);
  }
  for (const std::string& r : p.source_roots) PPY_RETURN_IF_ERROR(collect_modules(r, p));
  std::sort(p.modules.begin(), p.modules.end(),
            [](const SourceModule& a, const SourceModule& b) { return a.name < b.name; });
  if (p.modules.empty())
    return coded_error("E1202", str_cat("the project ", path, " has no ", p.module_suffix,
                                        " modules under its source roots",
                                        p.other_suffix_files == 0 ? ""
                                        : p.module_suffix == ".ppy"
                                            ? " (it has .py files: set module-suffix = \".py\" in [tool.ppy] to "
                                              "compile them)"
                                            : " (it has .ppy files: module-suffix = \".py\" in [tool.ppy] says to "
                                              "read .py ones)"));
  if (p.entry.empty()) {
    p.entry = default_entry(p);
  } else if (!p.module(p.entry)) {
    std::string names;
    for (const auto& m : p.modules) str_append(names, names.empty() ? "" : ", ", m.name);
    return coded_error("E1204", str_cat("the entry module ", p.entry, " is not in the project; the modules are ", names));
  }
  PPY_RETURN_IF_ERROR(add_stdlib_modules(p));  // heapq, bisect ... (stdlib.cc)
  PPY_RETURN_IF_ERROR(add_plugin_modules(p));  // plugins' typed stubs (plugin_modules.cc)
  return p;
}

const EVP_MD* sha256_md() {
  // Never freed: it lives as long as the process's hashing may.
  static const EVP_MD* const md = [] {
    const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return fetched ? fetched : EVP_sha256();
  }();
  return md;
}

std::string sha256_hex(const std::string& data) {
  // OpenSSL's (the gRPC stack already carries it), not LLVM's: the driver links no LLVM.
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), digest, &n, sha256_md(), nullptr);
  return hex_lower(std::string_view(reinterpret_cast<const char*>(digest), n));
}

std::string hex_lower(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    auto b = static_cast<unsigned char>(bytes[i]);
    out[2 * i] = kDigits[b >> 4];
    out[2 * i + 1] = kDigits[b & 15];
  }
  return out;
}

std::optional<uint64_t> parse_byte_size(std::string_view text) {
  size_t i = 0;
  uint64_t n = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (n > (UINT64_MAX - 9) / 10) return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  std::string_view unit = text.substr(i);
  if (unit.empty() || unit == "B" || unit == "b") return n;
  int shift = 0;
  switch (unit[0]) {
    case 'K': case 'k': shift = 10; break;
    case 'M': case 'm': shift = 20; break;
    case 'G': case 'g': shift = 30; break;
    case 'T': case 't': shift = 40; break;
    default: return std::nullopt;
  }
  unit.remove_prefix(1);
  if (!(unit.empty() || unit == "B" || unit == "b" || unit == "iB")) return std::nullopt;
  if (n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

}  // namespace ppy
