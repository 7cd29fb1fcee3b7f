#pragma once
/// Everything above the backend boundary, as the driver's roads share it: a
/// target (a `.ppy` file, a project folder, or a `.ppyir` file) in, verified
/// canonical IR of every module after the shared passes out, with each
/// module's half of the cache key.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ppy/driver/cache_key.h"
#include "ppy/frontend/diagnostics.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"
#include "ppy/ir/pass.h"
#include "ppy/project/project.h"

namespace ppy::driver {

/// The compiler's own version and fingerprint (part of every module key). The
/// fingerprint names the version, the IR schema and compiler_source_digest():
/// a compiler rebuilt from changed sources under the same version lowers to
/// other IR, so it must not reuse the old compiler's artifacts.
std::string compiler_version();
std::string compiler_fingerprint();

/// 16 hex digits of the sources of the compiler and its builtin backends
/// (generated at build time by cmake/source_digest.cmake).
std::string_view compiler_source_digest();

/// The project's options in every module key (its entry, its source roots).
std::map<std::string, std::string> project_key_options(const Project& project);

struct CompileOptions {
  std::string target;
  /// -O N; when absent, the project's `opt-level`, else 2.
  std::optional<int> opt_level;
  /// Stop after this stage (`ppy inspect --stage`); the backend stage is never run here.
  ir::Stage last_stage = ir::Stage::BeforeBackend;
  /// Modules through the shared passes at once (-j N); 0: the number of cores.
  int jobs = 0;
  /// The target's project when the road already loaded it (not read again).
  const Project* project = nullptr;
  /// Called (from any thread) as each module is through the shared passes,
  /// with how many there are: `ppy build`'s progress.
  std::function<void(const std::string& module, size_t total)> on_module;
  /// The modules' locations (and the entry's path a backend is told) relative
  /// to the project folder (ppy/driver/portable_paths.h): the roads whose
  /// artifacts are cached, so that every checkout makes and shares the same.
  bool portable_paths = false;
};

struct Compilation {
  /// The project behind the target; absent for a `.ppyir` target.
  std::optional<Project> project;
  /// Verified modules after the shared passes, in module-name order. A `.ppyir`
  /// target is one module, as read: it has been through the shared passes.
  std::vector<std::unique_ptr<ir::Module>> modules;
  /// Module name -> its half of the artifact identity.
  std::map<std::string, ModuleKey> keys;
  int opt_level = 2;
  bool from_ppyir = false;
  /// CompileOptions::portable_paths, as compiled.
  bool portable_paths = false;
  /// plugins: dialect -> the plugin registering it, for the plugins the modules
  /// use; the modules were verified against `registry`, the builtin dialects
  /// and these, open (ppy/ir/open_dialect.h). Only a backend declaring such a
  /// dialect takes its ops (refuse_plugin_dialects, plugin_dialects.h).
  std::map<std::string, std::string> plugin_dialects;
  std::shared_ptr<const ir::DialectRegistry> registry;

  std::vector<const ir::Module*> module_list() const;
};

/// Compiles `options.target`. Source errors are recorded in `diags` (the
/// caller renders them) and answered as an InvalidArgument "N error(s)"; other
/// failures (unreadable target, invalid .ppyir, a pass breaking the IR) are
/// the status.
absl::StatusOr<Compilation> compile(const CompileOptions& options, frontend::DiagnosticEngine& diags);

}  // namespace ppy::driver
