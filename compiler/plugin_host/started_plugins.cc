#include "ppy/plugin_host/started_plugins.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "ppy/host/env.h"
#include "ppy/host/plugin_handle.h"

namespace ppy::plugin_host {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

/// The dotted name at the start of `s`, consumed.
std::string take_name(std::string_view& s) {
  s = trim_left(s);
  size_t n = 0;
  while (n < s.size() && is_name_char(s[n])) ++n;
  std::string name(s.substr(0, n));
  s.remove_prefix(n);
  return name;
}

}  // namespace

std::vector<std::string> imported_modules(std::string_view source) {
  std::set<std::string> out;
  while (!source.empty()) {
    size_t end = source.find('\n');
    std::string_view line = trim_left(source.substr(0, end));
    source.remove_prefix(end == std::string_view::npos ? source.size() : end + 1);
    if (line.starts_with("from ")) {
      line.remove_prefix(5);
      if (std::string name = take_name(line); !name.empty() && name.front() != '.') out.insert(name);
    } else if (line.starts_with("import ")) {
      line.remove_prefix(7);
      for (;;) {
        if (std::string name = take_name(line); !name.empty()) out.insert(name);
        size_t comma = line.find(',');
        if (comma == std::string_view::npos) break;
        line.remove_prefix(comma + 1);
      }
    }
  }
  return {out.begin(), out.end()};
}

std::vector<pipeline::Plugin*> StartedPlugins::list() const {
  std::vector<pipeline::Plugin*> out;
  for (const auto& p : plugins) out.push_back(p.get());
  return out;
}

std::vector<pipeline::Plugin*> StartedPlugins::for_source(std::string_view source) const {
  std::vector<pipeline::Plugin*> out;
  if (plugins.empty()) return out;
  const std::vector<std::string> imports = imported_modules(source);
  auto claimed_by = [&](const std::vector<std::string>& claims, const std::string& module) {
    // A claim covers the module and every module below it (`vecmath` covers `vecmath.linalg`).
    return std::any_of(claims.begin(), claims.end(), [&](const std::string& c) {
      return module == c || (module.starts_with(c) && module.size() > c.size() && module[c.size()] == '.');
    });
  };
  for (size_t i = 0; i < plugins.size(); ++i)
    if (std::any_of(imports.begin(), imports.end(), [&](const std::string& m) { return claimed_by(claims[i], m); }))
      out.push_back(plugins[i].get());
  return out;
}

absl::StatusOr<StartedPlugins> start_plugins_for(const host::ManifestIndex& index,
                                                 const std::vector<std::string_view>& sources,
                                                 const std::set<std::string>& disabled) {
  std::set<const host::PluginEntry*> wanted;
  for (std::string_view source : sources)
    for (const std::string& module : imported_modules(source))
      if (const host::PluginEntry* p = index.plugin_for_module(module);
          p && !p->executable.empty() && !disabled.count(p->name))
        wanted.insert(p);
  std::vector<const host::PluginEntry*> ordered(wanted.begin(), wanted.end());
  std::sort(ordered.begin(), ordered.end(), [](auto* a, auto* b) { return a->name < b->name; });
  StartedPlugins out;
  for (const host::PluginEntry* entry : ordered) {
    absl::StatusOr<std::unique_ptr<host::PluginHandle>> handle =
        host::PluginHandle::connect(host::plugin_launch(*entry));
    if (!handle.ok()) return handle.status();
    out.plugins.push_back(std::make_unique<RemotePlugin>(std::shared_ptr<host::PluginHandle>(std::move(*handle))));
    out.claims.push_back(entry->modules);
  }
  return out;
}

absl::StatusOr<StartedPlugins> start_installed_plugins(const std::vector<std::string_view>& sources,
                                                       const std::set<std::string>& disabled) {
  const bool imports = std::any_of(sources.begin(), sources.end(),
                                   [](std::string_view s) { return s.find("import ") != std::string_view::npos; });
  if (!imports) return StartedPlugins{};
  host::ManifestIndex index =
      host::ManifestIndex::scan(host::backend_search_path(host::process_env(), host::running_install_prefix()));
  if (index.plugins().empty()) return StartedPlugins{};
  return start_plugins_for(index, sources, disabled);
}

}  // namespace ppy::plugin_host
