#include "ppy/backends/ir_backend.h"

#include <fstream>

#include "ppy/backend/api_version.h"
#include "ppy/ir/linker.h"
#include "ppy/ir/text.h"
#include "ppy/util/status_macros.h"

namespace ppy::backends {
namespace {

class IRBackend : public Backend {
 public:
  using Backend::Backend;

  std::string_view name() const override { return "ir"; }
  std::optional<int> api_version() const override { return kBackendApiVersion; }
  std::string fingerprint() const override { return "ir:ppyir-" + std::to_string(ir::kIRSchemaVersion); }
  ToolchainStatus toolchain_status() const override {
    return {true, "ppyir schema " + std::to_string(ir::kIRSchemaVersion)};
  }

  std::vector<EmitFormat> emit_formats() const override {
    return {
        {"ir", ".ppyir", false, "canonical IR after the shared passes, one file per module",
         EmitScope::Module, false},
        {"linked-ir", ".ppyir", false, "every module linked into one", EmitScope::Program, false},
    };
  }

  absl::StatusOr<Artifact> emit(const ir::Module& module, const EmitFormat&,
                                BackendContext&) const override {
    return Artifact(ir::print_module(module));
  }

  absl::StatusOr<Artifact> emit_program(ModuleList modules, const EmitFormat&,
                                        BackendContext&) const override {
    std::vector<std::unique_ptr<ir::Module>> copies;
    for (const ir::Module* m : modules) copies.push_back(ir::clone(*m));
    PPY_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> linked, ir::link(std::move(copies)));
    return Artifact(ir::print_module(*linked));
  }

  absl::StatusOr<BuildResult> build(ModuleList modules, const std::filesystem::path& output_dir,
                                    BackendContext&) const override {
    BuildResult result;
    for (const ir::Module* m : modules) {
      auto path = output_dir / (m->name() + ".ppyir");
      std::ofstream(path, std::ios::binary) << ir::print_module(*m);
      result.outputs.push_back(path.filename());
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Backend> create_ir_backend(const Options& options) {
  return std::make_unique<IRBackend>(options);
}

}  // namespace ppy::backends
