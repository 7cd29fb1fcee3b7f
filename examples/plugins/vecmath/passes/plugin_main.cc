// ppy-plugin-vecmath: the vecmath plugin's pass server. The stub and the
// library are data the driver reads (../vecmath.pyi, the manifest); what needs
// code, the fusion pass, runs here, in its own process (docs/writing-a-plugin.md).
#include "fuse_axpy_norm.h"
#include "ppy/backend/serve.h"

namespace {

class VecmathPlugin final : public ppy::Plugin {
 public:
  using Plugin::Plugin;
  std::string_view name() const override { return "vecmath"; }
  std::optional<int> api_version() const override { return 1; }
  ppy::Distribution distribution() const override { return {"ppy-vecmath", "1.0"}; }
  void register_passes(ppy::PluginPassRegistrar& passes) const override {
    // After the shared optimization: the stub's functions are inlined by then,
    // so axpy's and norm's externs sit side by side in the caller.
    passes.add<vecmath::FuseAxpyNorm>(ppy::ir::Stage::AfterOptimization);
  }
};

}  // namespace

int main(int argc, char** argv) {
  return ppy::serve(argc, argv, [](const ppy::Options& o) { return std::make_unique<VecmathPlugin>(o); });
}
