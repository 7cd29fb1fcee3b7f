// ppy-backend-outline: a backend written outside ppy's tree, on the installed SDK
// alone. It outlines each function (how many blocks, which operations), refuses
// device kernels, emits an `outline` text per module and an `outline-index` per
// program, and builds one `.outline` per module.
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "ppy/backend/backend.h"
#include "ppy/backend/serve.h"

namespace {

/// `name: B block(s), N op(s): core.add x2, core.return x1` for each function with a body.
std::string outline(const ppy::ir::Module& module) {
  std::string out;
  for (const auto& f : module.functions()) {
    if (f->is_declaration()) continue;
    std::map<std::string, int> ops;
    int total = 0;
    ppy::ir::walk(f->body(), [&](const ppy::ir::Operation& op) {
      ++ops[op.name()];
      ++total;
    });
    out += f->name() + ": " + std::to_string(f->body().blocks().size()) + " block(s), " +
           std::to_string(total) + " op(s):";
    for (const auto& [name, n] : ops) out += " " + name + " x" + std::to_string(n);
    out += "\n";
  }
  return out;
}

class OutlineBackend final : public ppy::Backend {
 public:
  using Backend::Backend;

  std::string_view name() const override { return "outline"; }
  std::optional<int> api_version() const override { return 1; }
  ppy::Distribution distribution() const override { return {"ppy-outline", "0.1"}; }
  std::string fingerprint() const override { return "outline:1"; }
  std::vector<ppy::EmitFormat> emit_formats() const override {
    return {{.name = "outline", .suffix = ".outline", .description = "each function outlined"},
            {.name = "outline-index",
             .suffix = ".idx",
             .binary = true,
             .description = "every module's name and outline size",
             .scope = ppy::EmitScope::Program}};
  }

  absl::Status validate(const ppy::ir::Module& module, const ppy::BackendContext&) const override {
    for (const auto& f : module.functions()) {
      const ppy::ir::Operation* gpu = nullptr;
      ppy::ir::walk(f->body(), [&](const ppy::ir::Operation& op) {
        if (!gpu && op.dialect() == "gpu") gpu = &op;
      });
      if (gpu)
        return ppy::validation_error({std::string(name()), gpu->name() + " in " + f->name(),
                                      "device kernels", gpu->loc() ? gpu->loc() : f->loc()});
    }
    return absl::OkStatus();
  }

  absl::StatusOr<ppy::Artifact> emit(const ppy::ir::Module& module, const ppy::EmitFormat& format,
                                     ppy::BackendContext& context) const override {
    if (format.name != "outline") return Backend::emit(module, format, context);
    return ppy::Artifact(outline(module));
  }

  absl::StatusOr<ppy::Artifact> emit_program(ppy::ModuleList modules, const ppy::EmitFormat& format,
                                             ppy::BackendContext& context) const override {
    if (format.name != "outline-index") return Backend::emit_program(modules, format, context);
    std::string index = "OUTLINE1";
    for (const ppy::ir::Module* m : modules) {
      index += m->name();
      index.push_back('\0');
      index += std::to_string(outline(*m).size());
      index.push_back('\0');
    }
    return ppy::Artifact(ppy::Bytes{index});
  }

  absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList modules, const std::filesystem::path& out,
                                         ppy::BackendContext& context) const override {
    ppy::BuildResult result;
    for (const ppy::ir::Module* m : modules) {
      std::filesystem::path path = out / (m->name() + ".outline");
      std::ofstream(path, std::ios::binary) << outline(*m);
      result.outputs.push_back(path);
    }
    context.note("outline: built " + std::to_string(modules.size()) + " module(s)");
    return result;
  }

  /// Unavailable when the project's table says `toolchain = "missing"`, so the
  /// conformance runner can see E1801.
  ppy::ToolchainStatus toolchain_status() const override {
    if (option("toolchain") == "missing") return {false, "missing outline toolchain"};
    return {true, "outline 0.1"};
  }
};

}  // namespace

int main(int argc, char** argv) {
  return ppy::serve(argc, argv, [](const ppy::Options& options) {
    return std::make_unique<OutlineBackend>(options);
  });
}
