// ppy-backend-js: the glue between ppy and jsgen (the generator is jsgen.cc).
#include "jsgen.h"
#include "ppy/backend/serve.h"

class JsBackend final : public ppy::Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "js"; }
  std::optional<int> api_version() const override { return 1; }
  ppy::Distribution distribution() const override { return {"ppy-js", "0.1"}; }
  std::string fingerprint() const override { return "jsgen:1"; }
  std::vector<ppy::EmitFormat> emit_formats() const override {
    return {{.name = "js", .suffix = ".js", .description = "for Node.js", .scope = ppy::EmitScope::Program}};
  }
  absl::Status validate(const ppy::ir::Module& m, const ppy::BackendContext&) const override {
    return jsgen::refusal(m, name());
  }
  absl::StatusOr<ppy::Artifact> emit_program(ppy::ModuleList ms, const ppy::EmitFormat&,
                                             ppy::BackendContext& c) const override {
    return ppy::Artifact(jsgen::program(ms, c.entry_symbol));
  }
  absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList ms, const std::filesystem::path& out,
                                         ppy::BackendContext& c) const override {
    return jsgen::build(ms, out, c.entry_module, c.entry_symbol);
  }
  ppy::ToolchainStatus toolchain_status() const override { return jsgen::node(option("node", "node")); }
};

int main(int argc, char** argv) {
  return ppy::serve(argc, argv, [](const ppy::Options& o) { return std::make_unique<JsBackend>(o); });
}
