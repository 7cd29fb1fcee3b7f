#pragma once
/// The backends the driver can select: the builtins linked into it and
/// the installed distributions discovery finds. Nothing is started until a
/// backend is selected (`load`), and each backend is started at most once per
/// run (the handle is kept for the run's later questions).

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/backend/backend.h"
#include "ppy/driver/commands.h"
#include "ppy/host/discovery.h"
#include "ppy/host/handle.h"
#include "ppy/host/settings.h"
#include "ppy/project/project.h"

namespace ppy::driver {

/// The command line's layer of host settings, the one above the project's
/// table: `--sandbox` and `--backend-timeout` read in one step. A sandbox mode
/// that is not one is E1002.
absl::StatusOr<host::HostSettings> command_line_settings(const HostFlags& flags);

/// A warning for a helper whose sandbox lacks protections its mode asks for
/// (this kernel cannot give them), or empty: the driver never keeps quiet
/// about a protection it does not have.
std::string sandbox_warning(const host::BackendHandle& backend);

/// A backend's table from the project, as the backend and the host read it.
struct BackendConfig {
  Options options;              ///< handed to the backend's factory, and to no other
  host::HostSettings settings;  ///< sandbox, pass-env, timeout-ms, limits
  std::string digest;           ///< of the table; part of the cache key
  std::string target;           ///< the table's `target`, the one key the driver reads
};

/// Reads `[tool.ppy.backends.NAME]` (absent: empty options). A malformed
/// table is an error naming the backend.
absl::StatusOr<BackendConfig> backend_config(const Project* project, const std::string& name);

/// The builtins this driver links, sorted: some or all of the contract's
/// builtin names (host::kBuiltinBackends), which are reserved whether linked or not.
std::vector<std::string> linked_builtins();

class BackendCatalog {
 public:
  /// Scans the search path (PPY_BACKEND_PATH, the install prefix, the user's folder).
  static BackendCatalog discover();
  /// Over an explicit index (tests).
  explicit BackendCatalog(host::ManifestIndex index);

  /// The linked builtins and the installed backends, sorted.
  std::vector<std::string> names() const;
  bool is_builtin(const std::string& name) const;
  const host::ManifestIndex& index() const { return index_; }

  /// Starts (or returns the already started) backend `name` with its table
  /// from `project`, and `command_line` over both the manifest's and the
  /// table's settings. E1903 for every load error in the contract's words.
  absl::StatusOr<host::BackendHandle*> load(const std::string& name, const Project* project,
                                            const host::HostSettings& command_line);

  /// The backend that owns `format`: builtins first, then the manifests' hint
  /// (the named backend is asked all the same), then every installed backend.
  /// E1903 when none or several do.
  absl::StatusOr<host::BackendHandle*> format_owner(const std::string& format, const Project* project,
                                                    const host::HostSettings& command_line);

 private:
  host::ManifestIndex index_;
  std::map<std::string, std::unique_ptr<host::BackendHandle>> loaded_;
};

}  // namespace ppy::driver
