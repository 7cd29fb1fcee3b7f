#pragma once
/// The toy backend: the contract's minimal backend, in C++ on the SDK. It counts
/// each function's operations (`toy-count-ops`), refuses device kernels, emits a
/// `toy` text per module and a `toy-image` per program, and builds one `.toy` per
/// module. Tests and the docs use it as the worked example.

#include <memory>
#include <string>

#include "ppy/backend/backend.h"

namespace ppy::toy {

/// `toy-count-ops`: sets the function attribute `toy.ops` to the number of ops
/// in the body's blocks (nested regions' ops are not counted, as the reference's).
class CountOps final : public ir::FunctionPass {
 public:
  std::string_view name() const override { return "toy-count-ops"; }
  absl::StatusOr<bool> run_on_function(ir::Function& f, const ir::PassContext& ctx) override;
};

class ToyBackend final : public Backend {
 public:
  using Backend::Backend;

  std::string_view name() const override { return "toy"; }
  std::optional<int> api_version() const override { return 1; }  // a literal, never the constant
  Distribution distribution() const override { return {"ppy-toy", "0.1"}; }
  /// `toy:<sdk-version>` (option `sdk-version`, default "0").
  std::string fingerprint() const override;
  std::vector<EmitFormat> emit_formats() const override;
  void register_passes(BackendPassRegistrar& passes) const override;
  /// Refuses any `gpu` op, naming it, its function and its location.
  absl::Status validate(const ir::Module& module, const BackendContext& context) const override;
  absl::StatusOr<Artifact> emit(const ir::Module& module, const EmitFormat& format,
                                BackendContext& context) const override;
  absl::StatusOr<Artifact> emit_program(ModuleList modules, const EmitFormat& format,
                                        BackendContext& context) const override;
  absl::StatusOr<BuildResult> build(ModuleList modules, const std::filesystem::path& output_dir,
                                    BackendContext& context) const override;
  /// Available as `toy sdk <sdk-version>`; unavailable (`missing toy-sdk`) when
  /// `sdk-version` is "missing", so tests can exercise E1801.
  ToolchainStatus toolchain_status() const override;
};

/// The `toy` text of one module: per function with a body,
/// `// <name>: <N> operations\n`, the function as printed, and a blank line.
std::string toy_text(const ir::Module& module);

/// The `toy-image` of a program: `TOYIMG01`, the module count (u32 little
/// endian), then per module its name and its toy text, each length-prefixed
/// (u32 name length, name, u64 text length, text).
std::string toy_image(ModuleList modules);

std::unique_ptr<Backend> create_backend(const Options& options);

}  // namespace ppy::toy
