// ppy-plugin-devicelib: the pass server of the devicelib plugin. Its pass,
// before the backend, marks each function that calls the device library (its
// C symbols, or an op of its dialect).
#include "devicelib.h"
#include "ppy/backend/serve.h"

namespace {

class MarkOffload final : public ppy::ir::FunctionPass {
 public:
  std::string_view name() const override { return "devicelib-mark-offload"; }
  absl::StatusOr<bool> run_on_function(ppy::ir::Function& f, const ppy::ir::PassContext&) override {
    if (f.attributes().has(devicelib::kOffload)) return false;
    bool calls_device = false;
    ppy::ir::walk(f.body(), [&](const ppy::ir::Operation& op) {
      const ppy::ir::Attribute* callee = op.attr("callee");
      calls_device |= op.name() == "core.call_extern" && callee && callee->is<std::string>() &&
                      devicelib::is_device_symbol(callee->as_string());
      calls_device |= op.dialect() == devicelib::kDialect;
    });
    if (!calls_device) return false;
    f.attributes().set(devicelib::kOffload, true);
    return true;
  }
};

class DevicelibPlugin final : public ppy::Plugin {
 public:
  using Plugin::Plugin;
  std::string_view name() const override { return "devicelib"; }
  std::optional<int> api_version() const override { return 1; }
  ppy::Distribution distribution() const override { return devicelib::kDistribution; }
  void register_passes(ppy::PluginPassRegistrar& passes) const override {
    passes.add<MarkOffload>(ppy::ir::Stage::BeforeBackend);
  }
};

}  // namespace

int main(int argc, char** argv) {
  return ppy::serve(argc, argv, [](const ppy::Options& o) { return std::make_unique<DevicelibPlugin>(o); });
}
