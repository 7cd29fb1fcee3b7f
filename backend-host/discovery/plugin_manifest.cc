// The `[plugins.*]` tables of a distribution's manifest (docs/writing-a-plugin.md):
// read without opening the stub, the libraries or the executable, each table on
// its own so that one malformed plugin never hides the others.
#include <toml++/toml.h>

#include <algorithm>
#include <system_error>

#include "absl/status/statusor.h"
#include "ppy/host/discovery.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace fs = std::filesystem;

namespace ppy::host {
namespace {

bool valid_plugin_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

/// A dotted Python module name: identifiers joined by '.'.
bool valid_module_name(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  bool start = true;
  for (char c : s) {
    if (c == '.') {
      if (start) return false;
      start = true;
      continue;
    }
    bool alpha = std::isalpha(static_cast<unsigned char>(c)) || c == '_';
    if (!alpha && !(std::isdigit(static_cast<unsigned char>(c)) && !start)) return false;
    start = false;
  }
  return true;
}

fs::path resolve(const fs::path& base, const std::string& p) {
  if (p.empty()) return {};
  fs::path path(p);
  return path.is_absolute() ? path : (base / path).lexically_normal();
}

absl::StatusOr<std::vector<std::string>> string_array(const toml::table& t, std::string_view key,
                                                      std::string_view where) {
  std::vector<std::string> out;
  const toml::node* n = t.get(key);
  if (!n) return out;
  const toml::array* a = n->as_array();
  if (!a) return absl::InvalidArgumentError(str_cat(where, ": '", key, "' must be an array of strings"));
  for (const toml::node& x : *a) {
    if (!x.is_string()) return absl::InvalidArgumentError(str_cat(where, ": '", key, "' must be an array of strings"));
    out.push_back(*x.value<std::string>());
  }
  return out;
}

absl::StatusOr<std::string> string_value(const toml::table& t, std::string_view key, std::string_view where) {
  const toml::node* n = t.get(key);
  if (!n) return std::string();
  if (!n->is_string()) return absl::InvalidArgumentError(str_cat(where, ": '", key, "' must be a string"));
  return *n->value<std::string>();
}

absl::StatusOr<PluginEntry> read_plugin(const toml::table& t, const std::string& name, const fs::path& manifest) {
  std::string where = str_cat("[plugins.", name, "]");
  PluginEntry e;
  e.name = name;
  e.manifest = manifest;
  fs::path base = manifest.parent_path();
  for (const auto& [key, node] : t) {
    static constexpr std::string_view kKeys[] = {"modules", "stub", "libraries", "executable", "args", "dialects"};
    if (std::find(std::begin(kKeys), std::end(kKeys), key.str()) == std::end(kKeys))
      return absl::InvalidArgumentError(str_cat(where, ": unknown key '", std::string_view(key.str()),
                                                "' (modules, stub, libraries, executable, args, dialects)"));
  }
  PPY_ASSIGN_OR_RETURN(e.modules, string_array(t, "modules", where));
  if (e.modules.empty()) return absl::InvalidArgumentError(str_cat(where, " claims no module ('modules')"));
  for (const std::string& m : e.modules)
    if (!valid_module_name(m)) return absl::InvalidArgumentError(str_cat(where, ": '", m, "' is not a module name"));
  std::sort(e.modules.begin(), e.modules.end());
  e.modules.erase(std::unique(e.modules.begin(), e.modules.end()), e.modules.end());
  PPY_ASSIGN_OR_RETURN(std::string stub, string_value(t, "stub", where));
  if (stub.empty()) return absl::InvalidArgumentError(str_cat(where, " has no 'stub' (its typed .pyi)"));
  e.stub = resolve(base, stub);
  PPY_ASSIGN_OR_RETURN(std::vector<std::string> libs, string_array(t, "libraries", where));
  for (const std::string& l : libs) e.libraries.push_back(resolve(base, l));
  PPY_ASSIGN_OR_RETURN(std::string exe, string_value(t, "executable", where));
  e.executable = resolve(base, exe);
  if (!exe.empty()) {
    std::error_code ec;
    e.real_executable = fs::canonical(e.executable, ec);
    if (ec) e.real_executable.clear();
  }
  PPY_ASSIGN_OR_RETURN(e.args, string_array(t, "args", where));
  PPY_ASSIGN_OR_RETURN(e.dialects, string_array(t, "dialects", where));
  for (const std::string& d : e.dialects)
    if (d.empty() || d.find('.') != std::string::npos || d == "core" || d == "math" || d == "gpu")
      return absl::InvalidArgumentError(str_cat(
          where, ": '", d, "' is not a dialect a plugin may register (a name without dots, not core, math or gpu)"));
  return e;
}

}  // namespace

std::string PluginEntry::origin() const { return str_cat(distribution, " ", version, " (", manifest.string(), ")"); }

std::vector<PluginEntry> read_plugin_tables(const toml::table& root, const fs::path& manifest,
                                            const std::string& distribution, const std::string& version,
                                            std::vector<std::string>& problems) {
  std::vector<PluginEntry> out;
  const toml::node* pnode = root.get("plugins");
  if (!pnode) return out;
  std::string origin = str_cat(distribution, " ", version, " (", manifest.string(), ")");
  const toml::table* plugins = pnode->as_table();
  if (!plugins) {
    problems.push_back(str_cat("the plugins of ", origin, " are ignored: 'plugins' must be a table of tables"));
    return out;
  }
  for (const auto& [key, node] : *plugins) {
    std::string name(key.str());
    absl::StatusOr<PluginEntry> e = absl::InvalidArgumentError(str_cat("[plugins.", name, "] must be a table"));
    if (!valid_plugin_name(name))
      e = absl::InvalidArgumentError(str_cat("'", name, "' is not a plugin name (letters, digits, '-', '_', '.')"));
    else if (const toml::table* t = node.as_table())
      e = read_plugin(*t, name, manifest);
    if (!e.ok()) {
      problems.push_back(str_cat("the plugin '", name, "' of ", origin,
                                 " is malformed: ", std::string(e.status().message()), "; it is ignored"));
      continue;
    }
    e->distribution = distribution;
    e->version = version;
    out.push_back(std::move(*e));
  }
  return out;
}

const PluginEntry* ManifestIndex::plugin_for_module(std::string_view name) const {
  for (const PluginEntry& p : plugins_)
    for (const std::string& m : p.modules)
      if (name == m || (name.starts_with(m) && name.size() > m.size() && name[m.size()] == '.')) return &p;
  return nullptr;
}

const PluginEntry* ManifestIndex::plugin(std::string_view name) const {
  for (const PluginEntry& p : plugins_)
    if (p.name == name) return &p;
  return nullptr;
}

void ManifestIndex::finish_plugins() {
  // A plugin name two distributions register: neither is used, as a backend's.
  std::map<std::string, std::vector<PluginEntry>> by_name;
  for (auto& e : plugin_candidates_) by_name[e.name].push_back(std::move(e));
  plugin_candidates_.clear();
  for (auto& [name, entries] : by_name) {
    if (entries.size() == 1) {
      plugins_.push_back(std::move(entries.front()));
      continue;
    }
    std::vector<std::string> dists;
    for (auto& e : entries) dists.push_back(str_cat(e.distribution, " ", e.version));
    std::sort(dists.begin(), dists.end());
    std::string list;
    for (auto& d : dists) str_append(list, list.empty() ? "" : ", ", d);
    problems_.push_back(
        str_cat("plugin '", name, "' is registered by more than one distribution (", list, "); uninstall all but one"));
  }
  // A module two distributions claim is owned by neither (never settled by order).
  std::map<std::string, std::vector<std::string>> claims;  // module -> "dist version"
  for (const auto& p : plugins_)
    for (const auto& m : p.modules) claims[m].push_back(str_cat(p.distribution, " ", p.version));
  for (auto& [module, dists] : claims) {
    std::sort(dists.begin(), dists.end());
    dists.erase(std::unique(dists.begin(), dists.end()), dists.end());
    if (dists.size() < 2) continue;
    std::string list;
    for (auto& d : dists) str_append(list, list.empty() ? "" : ", ", d);
    problems_.push_back(
        str_cat("the module '", module, "' is claimed by more than one distribution (", list, "); neither owns it"));
    for (auto& p : plugins_) std::erase(p.modules, module);
  }
}

}  // namespace ppy::host
