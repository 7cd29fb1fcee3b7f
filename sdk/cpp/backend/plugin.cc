#include "ppy/backend/plugin.h"

#include <cctype>

#include "ppy/util/str_cat.h"

namespace ppy {

namespace {

/// A TOML basic string. Names and versions reach here already checked, so
/// only what could break the line needs escaping.
std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

/// The driver's rule for backend and plugin names: letters, digits, `-`, `_`, `.`.
bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

}  // namespace

void PluginPassRegistrar::add(ir::Stage stage, Factory factory) { entries_.push_back({stage, std::move(factory)}); }

std::vector<PassInfo> describe_passes(const Plugin& plugin) {
  PluginPassRegistrar registrar;
  plugin.register_passes(registrar);
  std::vector<PassInfo> out;
  for (const auto& e : registrar.entries()) {
    std::unique_ptr<ir::Pass> p = e.factory ? e.factory() : nullptr;
    out.push_back(
        PassInfo{p ? std::string(p->name()) : std::string("(null pass)"), std::string(ir::stage_name(e.stage))});
  }
  return out;
}

absl::StatusOr<std::string> manifest_toml(const Plugin& plugin, std::string_view executable) {
  const std::string name(plugin.name());
  if (!valid_name(name))
    return absl::InvalidArgumentError(str_cat("'", name, "' is not a plugin name (letters, digits, '-', '_', '.')"));
  const Distribution dist = plugin.distribution();
  if (dist.name.empty() || dist.version.empty())
    return absl::InvalidArgumentError(
        str_cat("plugin '", name, "' declares no distribution name and version (override distribution())"));
  return str_cat("# The distribution of plugin '", name, "', as `", executable,
                 " --print-manifest` prints it\n# from the plugin class (", kSdkVersion,
                 ").\n[distribution]\nname = ", toml_string(dist.name), "\nversion = ", toml_string(dist.version),
                 "\n\n[plugins.", name, "]\nexecutable = ", toml_string(executable), "\n");
}

}  // namespace ppy
