// Project loading: pyproject.toml's [tool.ppy] and the modules under the source roots.
#include "ppy/project/project.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"

namespace ppy {
namespace fs = std::filesystem;

namespace {

absl::StatusOr<std::string> read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return coded_error("E1205", str_cat("cannot read ", p.string()));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
    if (it->is_regular_file() && fp.extension() == ".ppy") files.push_back(fp.string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    SourceModule m;
    m.name = module_name_for(root_as_given, f);
    m.path = f;
    if (const SourceModule* other = p.module(m.name))
      return coded_error("E1203", str_cat("module ", m.name, " comes from both ", other->path, " and ", f));
    auto text = read_text(f);
    if (!text.ok()) return text.status();
    m.text = std::move(*text);
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
    auto text = read_text(fp);
    if (!text.ok()) return text.status();
    m.text = std::move(*text);
    p.modules.push_back(std::move(m));
    p.entry = p.modules[0].name;
    return p;
  }
  p.root = path;
  if (fs::exists(fp / "pyproject.toml", ec)) {
    p.pyproject = join(fp, "pyproject.toml");
    if (absl::Status s = read_pyproject(p); !s.ok()) return s;
  } else {
    p.source_roots.push_back(fs::is_directory(fp / "src", ec) ? join(fp, "src") : path);
  }
  for (const std::string& r : p.source_roots)
    if (absl::Status s = collect_modules(r, p); !s.ok()) return s;
  std::sort(p.modules.begin(), p.modules.end(),
            [](const SourceModule& a, const SourceModule& b) { return a.name < b.name; });
  if (p.modules.empty())
    return coded_error("E1202", str_cat("the project ", path, " has no .ppy modules under its source roots"));
  if (p.entry.empty()) {
    p.entry = default_entry(p);
  } else if (!p.module(p.entry)) {
    std::string names;
    for (const auto& m : p.modules) str_append(names, names.empty() ? "" : ", ", m.name);
    return coded_error("E1204", str_cat("the entry module ", p.entry, " is not in the project; the modules are ", names));
  }
  return p;
}

// SHA-256 (FIPS 180-4), small and dependency-free: digests of backend tables.
std::string sha256_hex(const std::string& data) {
  static constexpr std::array<uint32_t, 64> k = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string msg = data;
  uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  msg.push_back(static_cast<char>(0x80));
  while (msg.size() % 64 != 56) msg.push_back(0);
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bits >> (i * 8)) & 0xff));
  auto rotr = [](uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (size_t off = 0; off < msg.size(); off += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      const auto* b = reinterpret_cast<const unsigned char*>(msg.data() + off + i * 4);
      w[i] = (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | uint32_t(b[3]);
    }
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      uint32_t ch = (e & f) ^ (~e & g);
      uint32_t t1 = hh + s1 + ch + k[i] + w[i];
      uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
      uint32_t t2 = s0 + maj;
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint32_t v : h)
    for (int i = 7; i >= 0; --i) out.push_back(hex[(v >> (i * 4)) & 0xf]);
  return out;
}

}  // namespace ppy
