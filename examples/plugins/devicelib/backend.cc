// ppy-backend-devicelib: the backend shipped with the devicelib plugin. Its
// format `devicelib-plan` says, per function, whether it runs on the device
// (the plugin's mark) or on the host, and the ops of the plugin's dialect it
// runs there (the manifest's `dialects` declares it takes them).
#include <fstream>

#include "devicelib.h"
#include "ppy/backend/serve.h"
#include "ppy/util/str_cat.h"

namespace {

class DevicelibBackend final : public ppy::Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "devicelib"; }
  std::optional<int> api_version() const override { return 1; }
  ppy::Distribution distribution() const override { return devicelib::kDistribution; }
  std::vector<ppy::EmitFormat> emit_formats() const override {
    ppy::EmitFormat plan;
    plan.name = "devicelib-plan";
    plan.suffix = ".plan";
    plan.description = "where each function runs: device (marked by the devicelib plugin) or host";
    plan.requires_toolchain = false;
    return {plan};
  }
  absl::StatusOr<ppy::Artifact> emit(const ppy::ir::Module& module, const ppy::EmitFormat&,
                                     ppy::BackendContext&) const override {
    return ppy::Artifact(plan(module));
  }
  /// `ppy build --backend devicelib`: every module's plan in one `program.plan`.
  absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList modules, const std::filesystem::path& output_dir,
                                         ppy::BackendContext&) const override {
    std::ofstream out(output_dir / "program.plan");
    for (const ppy::ir::Module* m : modules) out << plan(*m);
    if (!out.flush()) return absl::InternalError("cannot write program.plan");
    return ppy::BuildResult{{"program.plan"}};
  }

 private:
  static std::string plan(const ppy::ir::Module& module) {
    std::string out;
    for (const auto& f : module.functions()) {
      if (f->is_declaration()) continue;
      std::string ops;
      ppy::ir::walk(f->body(), [&](const ppy::ir::Operation& op) {
        if (op.dialect() == devicelib::kDialect) ppy::str_append(ops, ops.empty() ? " (" : ", ", op.name());
      });
      if (!ops.empty()) ops += ")";
      ppy::str_append(out, f->name(), ": ", f->attributes().has(devicelib::kOffload) ? "device" : "host", ops, "\n");
    }
    return out;
  }
};

}  // namespace

int main(int argc, char** argv) {
  return ppy::serve(argc, argv, [](const ppy::Options& o) { return std::make_unique<DevicelibBackend>(o); });
}
