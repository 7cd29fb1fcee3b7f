#pragma once
/// Which installed plugins' pass servers a compile starts: each plugin with an
/// `executable` that claims a module the program imports. A program that
/// imports none starts nothing, so a plugin costs nothing to the programs that
/// do not use it.

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/host/discovery.h"
#include "ppy/plugin_host/remote_plugin.h"

namespace ppy::plugin_host {

/// The modules a source names in its import statements (`import a.b as c, d`,
/// `from a.b import c`), as written, each once. A text scan: the frontend
/// resolves imports; this only says which plugins may be needed.
std::vector<std::string> imported_modules(std::string_view source);

/// Pass servers started for one compile, and the pipeline's view of them.
struct StartedPlugins {
  std::vector<std::unique_ptr<RemotePlugin>> plugins;
  /// The modules each plugin claims (plugins' order).
  std::vector<std::vector<std::string>> claims;
  /// For PipelineOptions::plugins (not owned), sorted by plugin name.
  std::vector<pipeline::Plugin*> list() const;
  /// The plugins whose passes run over the module of `source`: those claiming
  /// a module it imports. A module that imports none of a plugin's is not
  /// touched by it, so its cache key needs no plugin's fingerprint.
  std::vector<pipeline::Plugin*> for_source(std::string_view source) const;
};

/// Starts the pass server of each plugin of `index` that claims a module one
/// of `sources` imports, but those named in `disabled` (the project's
/// `[tool.ppy.plugins.NAME] enabled = false`). A server that cannot start or is
/// refused is the compile's error (E1903, E1902, E1905, naming the plugin).
[[nodiscard]] absl::StatusOr<StartedPlugins> start_plugins_for(const host::ManifestIndex& index,
                                                               const std::vector<std::string_view>& sources,
                                                               const std::set<std::string>& disabled = {});

/// The same over the installed plugins (the backend search path), scanned only
/// when a source has an import statement at all.
[[nodiscard]] absl::StatusOr<StartedPlugins> start_installed_plugins(const std::vector<std::string_view>& sources,
                                                                     const std::set<std::string>& disabled = {});

}  // namespace ppy::plugin_host
