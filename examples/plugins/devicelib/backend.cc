// ppy-backend-devicelib: the backend shipped with the devicelib plugin. Its
// format `devicelib-plan` says, per function, whether it runs on the device
// (the plugin's mark) or on the host.
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
    std::string out;
    for (const auto& f : module.functions()) {
      if (f->is_declaration()) continue;
      ppy::str_append(out, f->name(), ": ", f->attributes().has(devicelib::kOffload) ? "device" : "host", "\n");
    }
    return ppy::Artifact(out);
  }
};

}  // namespace

int main(int argc, char** argv) {
  return ppy::serve(argc, argv, [](const ppy::Options& o) { return std::make_unique<DevicelibBackend>(o); });
}
