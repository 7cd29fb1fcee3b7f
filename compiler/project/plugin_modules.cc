// Plugins' typed stubs as modules of the project (ppy/project/plugins.h): a
// module an installed plugin claims is its `.pyi` stub, compiled like the
// project's own modules (its `@ppy.extern` declarations lower to calls of the
// vendor's library, compiler/frontend/plugin_stub.cc).
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "imports.h"
#include "ppy/host/discovery.h"
#include "ppy/host/env.h"
#include "ppy/project/plugins.h"
#include "ppy/util/error.h"
#include "ppy/util/file.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy {
namespace fs = std::filesystem;
namespace {

bool defines(const Project& p, const std::string& root) {
  for (const auto& m : p.modules)
    if (m.name == root || m.name.starts_with(root + ".")) return true;
  return false;
}

std::string file_digest(const std::string& path) {
  absl::StatusOr<std::string> bytes = read_file(path);
  return bytes.ok() ? sha256_hex(*bytes) : "missing";
}

host::ManifestIndex scan_plugins() {
  auto search = host::backend_search_path(host::process_env(), host::running_install_prefix());
  return host::ManifestIndex::scan(search);
}

/// `[tool.ppy.plugins.NAME]`: each table's one key is `enabled`.
absl::StatusOr<std::set<std::string>> read_disabled(const Project& p) {
  std::set<std::string> off;
  if (p.pyproject.empty()) return off;
  toml::table doc;
  try {
    doc = toml::parse_file(p.pyproject);
  } catch (const toml::parse_error&) {
    return off;  // load_project reported it already
  }
  const toml::node* pl = doc["tool"]["ppy"]["plugins"].node();
  if (!pl) return off;
  auto bad = [&](const std::string& msg) { return coded_error("E1201", str_cat(p.pyproject, ": ", msg)); };
  const toml::table* pt = pl->as_table();
  if (!pt) return bad("[tool.ppy.plugins] must be a table of tables");
  for (auto&& [k, v] : *pt) {
    std::string where = str_cat("[tool.ppy.plugins.", std::string(k.str()), "]");
    const toml::table* t = v.as_table();
    if (!t) return bad(str_cat(where, " must be a table"));
    for (auto&& [ok, ov] : *t) {
      if (ok.str() != "enabled" || !ov.is_boolean())
        return bad(str_cat(where, ": the one key is 'enabled' (true or false)"));
      if (!*ov.value<bool>()) off.insert(std::string(k.str()));
    }
  }
  return off;
}

}  // namespace

bool is_plugin_stub(const SourceModule& m) { return m.path.ends_with(".pyi"); }

std::string plugin_fingerprint(const std::string& distribution, const std::string& version, const std::string& stub,
                               const std::vector<std::string>& libraries, const std::string& executable) {
  std::string out = str_cat(distribution, " ", version, "; stub ", file_digest(stub));
  for (const std::string& lib : libraries)
    str_append(out, "; library ", fs::path(lib).filename().string(), " ", file_digest(lib));
  if (!executable.empty()) str_append(out, "; executable ", file_digest(executable));
  return out;
}

std::set<std::string> disabled_plugins(const Project& p) { return read_disabled(p).value_or(std::set<std::string>{}); }

std::map<std::string, PluginUse> plugin_uses(const Project& p) {
  std::map<std::string, PluginUse> out;
  bool any = std::any_of(p.modules.begin(), p.modules.end(), is_plugin_stub);
  if (!any) return out;
  host::ManifestIndex index = scan_plugins();
  for (const SourceModule& m : p.modules) {
    if (!is_plugin_stub(m)) continue;
    const host::PluginEntry* plugin = index.plugin_for_module(m.name);
    if (!plugin || plugin->stub.string() != m.path) continue;
    PluginUse& use = out[plugin->name];
    if (use.fingerprint.empty()) {
      use.distribution = plugin->distribution;
      use.version = plugin->version;
      for (const fs::path& lib : plugin->libraries) use.libraries.push_back(lib.string());
      use.dialects = plugin->dialects;
      use.fingerprint = plugin_fingerprint(plugin->distribution, plugin->version, plugin->stub.string(), use.libraries,
                                           plugin->executable.string());
    }
    use.modules.push_back(m.name);
  }
  return out;
}

std::map<std::string, std::string> installed_plugin_dialects() {
  std::map<std::string, std::string> out;
  host::ManifestIndex index = scan_plugins();
  for (const host::PluginEntry& p : index.plugins())
    for (const std::string& d : p.dialects) out.emplace(d, p.name);
  return out;
}

std::map<std::string, std::string> plugin_fingerprints_of(const std::map<std::string, PluginUse>& uses,
                                                          const SourceModule& m) {
  std::map<std::string, std::string> out;
  if (uses.empty()) return out;
  std::set<std::string> roots = imported_roots(m.text);
  for (const auto& [name, use] : uses) {
    bool uses = false;
    for (const std::string& mod : use.modules) uses = uses || roots.count(mod) || mod == m.name;
    if (uses) out[name] = use.fingerprint;
  }
  return out;
}

absl::Status add_plugin_modules(Project& p) {
  std::set<std::string> wanted;
  for (const auto& m : p.modules)
    for (const std::string& root : imported_roots(m.text))
      if (!defines(p, root)) wanted.insert(root);
  wanted.erase("ppy");  // the project's own markers, never a plugin's
  if (wanted.empty()) return absl::OkStatus();
  PPY_ASSIGN_OR_RETURN(std::set<std::string> off, read_disabled(p));
  host::ManifestIndex index = scan_plugins();
  bool added = false;
  while (!wanted.empty()) {  // a stub may import another claimed module: added in turn
    std::string root = *wanted.begin();
    wanted.erase(wanted.begin());
    if (defines(p, root)) continue;
    const host::PluginEntry* plugin = index.plugin_for_module(root);
    if (!plugin || off.count(plugin->name)) continue;  // the frontend says the module is unknown
    absl::StatusOr<std::string> text = read_file(plugin->stub);
    if (!text.ok())
      return coded_error("E1205", str_cat("the stub of plugin '", plugin->name, "' (", plugin->origin(),
                                          ") cannot be read: ", std::string(text.status().message())));
    SourceModule m;
    m.name = root;
    m.path = plugin->stub.string();
    m.text = std::move(*text);
    for (const std::string& r : imported_roots(m.text))
      if (r != "ppy" && r != root && !defines(p, r)) wanted.insert(r);
    p.modules.push_back(std::move(m));
    added = true;
  }
  if (!added) return absl::OkStatus();
  std::sort(p.modules.begin(), p.modules.end(),
            [](const SourceModule& a, const SourceModule& b) { return a.name < b.name; });
  return add_stdlib_modules(p);  // what the stubs import of the standard library
}

}  // namespace ppy
