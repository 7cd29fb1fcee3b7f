#pragma once
/// Passes and the staged pass manager of the contract's pipeline.
///
/// The stages are the contract's: the shared pipeline and the plugins own every
/// stage up to `before-backend`; `backend` belongs to the selected backend alone,
/// so a backend's pass cannot shape the canonical IR every other backend receives.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// State a pass may read: the dialects the module is verified against, the
/// optimization level.
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

/// A pass that sees one function with a body at a time (declarations are
/// skipped: they have nothing to transform). It must not add or remove functions.
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

  /// Hangs `pass` at `stage`. Refuses, adding nothing, a backend's pass at any
  /// stage but `backend` (E1802, naming `owner_name`), and a plugin's (E1902) or
  /// a shared one (E1901) at `backend`. Adding a plugin's or a backend's pass
  /// turns verify_each on, as the contract asks.
  absl::Status add(Stage stage, std::unique_ptr<Pass> pass, PassOwner owner = PassOwner::Shared,
                   std::string_view owner_name = {});
  /// Verify after every pass. Cannot be turned off while a plugin's or a
  /// backend's pass is registered: the contract wants the breaking pass named.
  void set_verify_each(bool on) { verify_each_ = on; }
  bool verify_each() const { return verify_each_ || has_extension_pass_; }

  /// Called after the last pass of each stage that ran (with passes or not),
  /// e.g. for `ppy inspect --stage`; the module has verified if verify_each.
  void set_after_stage(std::function<void(Stage, const Module&)> fn) { after_stage_ = std::move(fn); }

  /// Runs the passes of stages [from, to] in stage order, insertion order within
  /// a stage. The module is verified before the first pass and after the last,
  /// and after every pass when verify_each; a pass that leaves the IR invalid is
  /// named in the error, whose code (ppy/util/error.h) is E1902 (plugin), E1904
  /// (backend) or E1901 (shared), e.g. E1904 with `backend pass 'toy-break' left
  /// the IR invalid: <first diagnostic>`. An error a pass returns is returned as is.
  absl::Status run(Module& m, Stage from = Stage::AfterIRGeneration, Stage to = Stage::Backend);

  /// (stage, pass name) in the order they would run.
  std::vector<std::pair<Stage, std::string>> schedule() const;

 private:
  struct Entry {
    Stage stage;
    std::unique_ptr<Pass> pass;
    PassOwner owner;
    std::string owner_name;
  };
  /// Entries in run order: by stage, then insertion.
  std::vector<const Entry*> ordered() const;

  PassContext ctx_;
  std::vector<Entry> passes_;
  std::function<void(Stage, const Module&)> after_stage_;
  bool verify_each_ = false;
  bool has_extension_pass_ = false;
};

}  // namespace ppy::ir
