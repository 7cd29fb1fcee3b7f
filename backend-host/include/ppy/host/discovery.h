#pragma once
/// Discovery of installed backends: TOML manifests found on a search path and
/// read without starting anything (the contract's "discovery reads the entry
/// points without importing anything"). A backend process is started only when
/// one is selected, by BackendProcess / connect_backend.
///
/// A distribution is a folder holding `manifest.toml`:
///
///     [distribution]
///     name = "ppy-toy"
///     version = "0.1"
///     [backends.toy]
///     executable = "ppy-backend-toy"   # relative to the manifest's folder, or absolute
///     # or, for long-running servers: endpoint = "host:port", or a farm:
///     # endpoints = ["host:port", ...]; and tls-ca/tls-cert/tls-key
///     [backend-formats]                # optional hint: format -> backend
///     toy = "toy"
///
/// A distribution may also (or only) hold plugins, which model a library for
/// the frontend (docs/writing-a-plugin.md):
///
///     [plugins.vecmath]
///     modules = ["vecmath"]               # the modules it claims
///     stub = "vecmath.pyi"                # its typed stub
///     libraries = ["lib/libvecmath.so"]   # optional: native libraries its externs name
///     executable = "ppy-plugin-vecmath"   # optional: its pass server
///
/// Problems are reported in the reference compiler's words and never stop the
/// other distributions from being listed.

#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/host/env.h"
#include "ppy/host/settings.h"

namespace ppy::host {

/// One backend an installed distribution provides, as its manifest says.
struct BackendEntry {
  std::string name;
  std::string distribution;
  std::string version;
  /// The manifest it came from; its folder is where relative paths resolve.
  std::filesystem::path manifest;
  /// Absolute path of the helper executable; empty for a remote backend.
  std::filesystem::path executable;
  /// The file `executable` really is, every symbolic link resolved (a vendor
  /// may install its program elsewhere and link it into the distribution's
  /// folder): what a strict sandbox makes visible and runs, and what `ppy
  /// doctor` names. Empty when it does not resolve (a missing file: starting
  /// it says why) and for a remote backend.
  std::filesystem::path real_executable;
  /// Extra command-line arguments the manifest gives the helper.
  std::vector<std::string> args;
  /// How the helper is reached (`connection = "fd" | "socket"`).
  HelperConnection connection = HelperConnection::SocketPair;
  /// The long-running servers it is reached at (`host:port`, `dns:///name:port`):
  /// one, or a farm's several; empty for a local helper.
  std::vector<std::string> endpoints;
  /// TLS files for `endpoints` (absolute), each optional.
  TlsFiles tls;
  /// Formats the distribution's `[backend-formats]` hint gives this backend.
  std::vector<std::string> formats;
  /// plugins: the plugins' dialects it takes (`dialects = ["devicelib"]`);
  /// every other backend refuses their ops (E1802).
  std::vector<std::string> dialects;
  /// Host settings the manifest's table carries (sandbox, pass-env, timeout-ms,
  /// limits); the project's table and the command line override them.
  HostSettings settings;

  bool remote() const { return !endpoints.empty(); }
  /// `<distribution> <version> (<manifest>)`: how messages name where it came from.
  std::string origin() const;
};

/// One plugin an installed distribution provides (`[plugins.NAME]`), its paths
/// resolved like a backend's. Nothing of it is read or started at discovery.
struct PluginEntry {
  std::string name;
  std::string distribution;
  std::string version;
  std::filesystem::path manifest;
  /// The modules it claims (dotted names), sorted.
  std::vector<std::string> modules;
  /// Absolute path of its typed stub (`.pyi`).
  std::filesystem::path stub;
  /// Absolute paths of the native libraries its externs call, in manifest order.
  std::vector<std::filesystem::path> libraries;
  /// Absolute path of its pass server; empty for a plugin without passes.
  std::filesystem::path executable;
  /// `executable` with every link resolved; empty when it does not resolve.
  std::filesystem::path real_executable;
  /// Extra command-line arguments for the pass server.
  std::vector<std::string> args;
  /// The dialects it registers (`dialects = ["devicelib"]`): open dialects the
  /// driver verifies its stub's `@ppy.op`s against.
  std::vector<std::string> dialects;

  /// `<distribution> <version> (<manifest>)`.
  std::string origin() const;
};

/// Reads the `[plugins.*]` tables of one parsed manifest (plugin_manifest.cc).
/// A malformed table rejects that plugin only: its sentence goes to `problems`.
std::vector<PluginEntry> read_plugin_tables(const toml::table& root, const std::filesystem::path& manifest,
                                            const std::string& distribution, const std::string& version,
                                            std::vector<std::string>& problems);

/// The folders searched, in order: each entry of `PPY_BACKEND_PATH`
/// (colon-separated), `<install_prefix>/lib/ppy/backends`, then the user's
/// `$XDG_DATA_HOME/ppy/backends` (or `~/.local/share/ppy/backends`).
std::vector<std::filesystem::path> backend_search_path(const EnvLookup& env,
                                                       const std::filesystem::path& install_prefix);

/// The contract's builtin backend names, the one list of them: reserved, so a
/// distribution registering one is reported and ignored (never started),
/// whether or not this driver links that builtin. Sorted.
inline constexpr std::string_view kBuiltinBackends[] = {"c", "ir", "llvm", "nvvm", "python", "stablehlo"};

/// Whether `name` is one of kBuiltinBackends.
bool is_builtin_backend_name(std::string_view name);

/// What the search path holds: usable backends, problems, and the names that
/// are unusable because two distributions register them.
class ManifestIndex {
 public:
  /// Reads `*/manifest.toml` one level under each folder of `search_path`
  /// (missing folders are skipped). The builtin names (kBuiltinBackends) are
  /// reserved: a backend registering one is a problem and is left out.
  /// A distribution name seen again later on the path is shadowed, as a
  /// Python distribution is by the first of its name on sys.path.
  static ManifestIndex scan(std::span<const std::filesystem::path> search_path);
  /// Reads the given manifest files directly (one distribution each).
  static ManifestIndex from_manifests(std::span<const std::filesystem::path> manifests);

  /// Usable installed backends, sorted by name.
  const std::vector<BackendEntry>& backends() const { return backends_; }
  /// Usable installed plugins, sorted by name. A module two distributions
  /// claim is in neither's `modules` (a problem says so).
  const std::vector<PluginEntry>& plugins() const { return plugins_; }
  /// The plugin that owns module `name` (exactly, or a package above it), or null.
  const PluginEntry* plugin_for_module(std::string_view name) const;
  /// The plugin called `name`, or null.
  const PluginEntry* plugin(std::string_view name) const;
  /// Every problem found, one sentence each, in a stable order.
  const std::vector<std::string>& problems() const { return problems_; }
  /// Names registered by more than one distribution, with every registration.
  const std::map<std::string, std::vector<BackendEntry>>& duplicates() const { return duplicates_; }
  /// Manifests skipped because an earlier folder had a distribution of that name.
  const std::vector<std::filesystem::path>& shadowed() const { return shadowed_; }
  /// One sentence per shadowed manifest, naming the one used instead.
  const std::vector<std::string>& shadowed_notes() const { return shadowed_notes_; }

  /// The installed backend called `name`. A builtin's name gives null (the
  /// caller uses its builtin, or says it was built without it). Errors are E1903: an unknown name lists every
  /// backend there is (builtins included); a duplicated one names both
  /// distributions.
  absl::StatusOr<const BackendEntry*> lookup(std::string_view name) const;

  /// The backend the formats hint names for `format`, or null when no single
  /// distribution declares it. A hint only: the backend is asked all the same.
  const BackendEntry* format_hint(std::string_view format) const;

  /// Every name a backend can be selected by: builtins and installed, sorted.
  std::vector<std::string> all_names() const;

 private:
  void add_manifest(const std::filesystem::path& manifest, std::map<std::string, std::filesystem::path>& dists);
  void finish();
  void finish_plugins();

  std::vector<BackendEntry> backends_;
  std::vector<BackendEntry> candidates_;  // before duplicate resolution
  std::vector<PluginEntry> plugins_;
  std::vector<PluginEntry> plugin_candidates_;  // before name and module clashes are settled
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> format_claims_;  // format -> (dist, backend)
  std::map<std::string, std::string> format_owner_;                                       // format -> backend
  std::vector<std::string> problems_;
  std::map<std::string, std::vector<BackendEntry>> duplicates_;
  std::vector<std::filesystem::path> shadowed_;
  std::vector<std::string> shadowed_notes_;
};

}  // namespace ppy::host
