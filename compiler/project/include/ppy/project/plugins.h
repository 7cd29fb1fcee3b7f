#pragma once
/// plugins (issue 36, docs/writing-a-plugin.md): the modules installed plugins
/// claim, as the project sees them. A module an installed plugin claims that
/// the project imports is the plugin's typed stub (a `.pyi` file), added to the
/// project's modules; what the project uses of each plugin is found again from
/// those stubs when asked (plugin_modules.cc).

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ppy/project/project.h"

namespace ppy {

/// A plugin the project's modules import.
struct PluginUse {
  std::string distribution, version;
  /// What identifies its behaviour for the cache (plugin_fingerprint).
  std::string fingerprint;
  /// The modules it claims that the project imports, sorted.
  std::vector<std::string> modules;
  /// The native libraries its externs call, absolute paths.
  std::vector<std::string> libraries;
  /// The dialects it registers (its manifest's `dialects`): its stub's `@ppy.op`s.
  std::vector<std::string> dialects;
};

/// Dialect -> the installed plugin registering it, of every installed plugin
/// (a `.ppyir` holds no stubs to find its plugins by).
std::map<std::string, std::string> installed_plugin_dialects();

/// Whether `m` is a plugin's typed stub (its file is a `.pyi`).
bool is_plugin_stub(const SourceModule& m);

/// Adds the stub of each module an installed plugin claims that the project's
/// modules import and do not define, found by discovery on the backend search
/// path, unless the project's `[tool.ppy.plugins.NAME] enabled = false` turns
/// that plugin off (E1201 for a malformed table). Manifests are read only when
/// some import is neither the project's nor the standard library's.
absl::Status add_plugin_modules(Project& p);

/// The plugins the project's `[tool.ppy.plugins.NAME]` tables turn off.
std::set<std::string> disabled_plugins(const Project& p);

/// Plugin name -> what the project uses of it (its stubs among the modules).
std::map<std::string, PluginUse> plugin_uses(const Project& p);

/// Plugin name -> fingerprint of each plugin whose modules `m` imports (or
/// whose stub `m` is): that module's part of the cache key.
std::map<std::string, std::string> plugin_fingerprints_of(const std::map<std::string, PluginUse>& uses,
                                                          const SourceModule& m);

/// What identifies an installed plugin for the cache, read without starting
/// anything: its distribution and version, the digests of its stub, of each
/// library file and of its executable.
std::string plugin_fingerprint(const std::string& distribution, const std::string& version, const std::string& stub,
                               const std::vector<std::string>& libraries, const std::string& executable);

}  // namespace ppy
