#pragma once
/// Passes and the staged pass manager of the contract's pipeline.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ppy/ir/dialect.h"
#include "ppy/ir/ir.h"

namespace ppy::ir {

/// The pipeline's stages, in order; `backend` is last and only a backend's.
enum class Stage {
  AfterIRGeneration,
  AfterCanonicalization,
  BeforeOptimization,
  AfterOptimization,
  BeforeBackend,
  Backend,
};
inline constexpr Stage kAllStages[] = {Stage::AfterIRGeneration, Stage::AfterCanonicalization,
                                       Stage::BeforeOptimization, Stage::AfterOptimization,
                                       Stage::BeforeBackend, Stage::Backend};
/// `after-ir-generation`, ..., `backend`.
std::string_view stage_name(Stage s);
/// The stage of that spelling, or nullopt.
std::optional<Stage> parse_stage(std::string_view name);

/// State a pass may read: which module it runs in, the optimization level.
struct PassContext {
  const DialectRegistry* registry = &DialectRegistry::builtin();
  int opt_level = 2;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  /// Runs over the module; returns whether it changed anything, or an error.
  virtual absl::StatusOr<bool> run_on_module(Module& m, const PassContext& ctx) = 0;
};

/// A pass that sees one function with a body at a time.
class FunctionPass : public Pass {
 public:
  absl::StatusOr<bool> run_on_module(Module& m, const PassContext& ctx) final;
  virtual absl::StatusOr<bool> run_on_function(Function& f, const PassContext& ctx) = 0;
};

class ModulePass : public Pass {};

/// Who contributed a pass; decides the error code when it breaks the IR.
enum class PassOwner { Shared, Plugin, Backend };

class PassManager {
 public:
  explicit PassManager(PassContext ctx = {}) : ctx_(ctx) {}

  void add(Stage stage, std::unique_ptr<Pass> pass, PassOwner owner = PassOwner::Shared);
  /// Verify after every pass (the default once a plugin or backend pass is added).
  void set_verify_each(bool on) { verify_each_ = on; }

  /// Runs the passes of stages [from, to] in stage order. The module is verified
  /// before the first pass and after the last, and after every pass when
  /// verify_each; a pass that leaves the IR invalid is named in the error, whose
  /// message starts with E1902 (plugin), E1904 (backend) or E1901 (shared).
  absl::Status run(Module& m, Stage from = Stage::AfterIRGeneration, Stage to = Stage::Backend);

  /// (stage, pass name) in the order they would run.
  std::vector<std::pair<Stage, std::string>> schedule() const;

 private:
  struct Entry {
    Stage stage;
    std::unique_ptr<Pass> pass;
    PassOwner owner;
  };
  PassContext ctx_;
  std::vector<Entry> passes_;
  bool verify_each_ = false;
};

}  // namespace ppy::ir
