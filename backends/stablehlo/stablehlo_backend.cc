#include "ppy/backends/stablehlo_backend.h"

#include <fstream>

#include "ppy/backend/api_version.h"
#include "ppy/util/str_cat.h"
#include "stablehlo.h"

namespace ppy::backends {
namespace {

/// The version of the text this backend writes: bump it when the printed
/// form changes, so cached artifacts are not reused.
constexpr std::string_view kPrinterVersion = "1";

class StablehloBackend : public Backend {
 public:
  using Backend::Backend;

  std::string_view name() const override { return "stablehlo"; }
  std::optional<int> api_version() const override { return kBackendApiVersion; }
  /// Its own printer is the code generator: no SDK under it.
  std::string fingerprint() const override { return str_cat("stablehlo:printer-", kPrinterVersion); }
  ToolchainStatus toolchain_status() const override {
    return {true, str_cat("StableHLO text printer ", kPrinterVersion, " (no XLA needed to emit)")};
  }

  std::vector<EmitFormat> emit_formats() const override {
    return {{"stablehlo", ".mlir", false, "the @xla.jit functions as StableHLO (MLIR text), one per module",
             EmitScope::Module, false}};
  }

  absl::Status validate(const ir::Module& module, const BackendContext&) const override {
    if (auto r = stablehlo::check_module(module))
      return validation_error(BackendValidationError{"stablehlo", r->what, r->capability, r->location});
    return absl::OkStatus();
  }

  absl::StatusOr<Artifact> emit(const ir::Module& module, const EmitFormat&, BackendContext& context) const override {
    bool marked = false;
    for (const auto& f : module.functions()) marked |= stablehlo::is_marked(*f) && !f->is_declaration();
    // An empty module is a valid answer, but never a silent one.
    if (!marked)
      context.note(str_cat("module @", module.name(), " has no @xla.jit function: its StableHLO module is empty (mark "
                           "a function with @xla.jit, docs/device-backends.md)"));
    return Artifact(stablehlo::print_module(module));
  }

  absl::StatusOr<BuildResult> build(ModuleList modules, const std::filesystem::path& output_dir,
                                    BackendContext&) const override {
    BuildResult result;
    for (const ir::Module* m : modules) {
      bool marked = false;
      for (const auto& f : m->functions()) marked |= stablehlo::is_marked(*f) && !f->is_declaration();
      if (!marked) continue;
      auto path = output_dir / (m->name() + ".mlir");
      std::ofstream(path, std::ios::binary) << stablehlo::print_module(*m);
      result.outputs.push_back(path.filename());
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Backend> create_stablehlo_backend(const Options& options) {
  return std::make_unique<StablehloBackend>(options);
}

}  // namespace ppy::backends
