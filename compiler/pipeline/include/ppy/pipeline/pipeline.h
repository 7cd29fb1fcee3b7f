#pragma once
/// The shared pipeline above the backend boundary, in the contract's order:
///
///   after-ir-generation      plugins' passes
///   (canonicalization)       canonicalize: first in the after-canonicalization stage
///   after-canonicalization   plugins' passes
///   before-optimization      plugins' passes
///   (shared optimization)    the -O level's passes: first in the after-optimization stage
///   after-optimization       plugins' passes
///   before-backend           plugins' passes
///
/// The PassManager has no stage of its own for canonicalization or the shared
/// optimization, so they lead the stage named after them; a snapshot taken
/// after `before-optimization` (ppy inspect --stage) is therefore the IR
/// before the shared optimization, and one after `after-optimization` has it.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ppy/ir/pass.h"
#include "ppy/pipeline/plugin.h"

namespace ppy::pipeline {

/// The passes of the shared optimization at `level` (clamped to 0..3), in order:
///   0: none (the contract still canonicalizes, in its own stage);
///   1: mem2reg, canonicalize, simplify-cfg, dce, canonicalize;
///   2: level 1, then inline and that round again with cse after simplify-cfg;
///   3: level 2 with a larger inlining budget and a third round.
/// The last pass is always canonicalize, so the IR handed on is canonical.
std::vector<std::unique_ptr<ir::Pass>> shared_optimization_passes(int level);

/// The contract's optimize_shared_ir: canonicalize, then the shared
/// optimization at `level`, over one module. The module is verified before
/// and after; an invalid result names the pass (E1901).
absl::Status optimize_shared_ir(ir::Module& m, int level);

struct PipelineOptions {
  int opt_level = 2;
  /// Plugins whose passes join the pipeline, in this order (not owned).
  std::vector<Plugin*> plugins;
};

/// Fills `pm` (normally empty) with canonicalize, the shared optimization and
/// every plugin's passes at their stages, as the header comment lays out. A
/// plugin asking for the `backend` stage is refused (E1902, naming it).
absl::Status build_shared_pipeline(ir::PassManager& pm, const PipelineOptions& options);

/// `name=fingerprint` of each plugin, for the module's cache key.
std::vector<std::string> plugin_fingerprints(const std::vector<Plugin*>& plugins);

}  // namespace ppy::pipeline
