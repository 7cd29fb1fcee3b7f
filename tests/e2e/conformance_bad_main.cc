// ppy-e2e-conformance-bad: a helper with two faults `ppy conformance` must name,
// and nothing else wrong. Its fingerprint holds within a process but not across
// processes (a number drawn at start-up: the strict sandbox gives every helper
// the same PID), and its `bad` format, declared text, is answered as bytes.
#include <memory>
#include <random>
#include <string>

#include "ppy/backend/serve.h"

namespace {

class Bad final : public ppy::Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "bad"; }
  std::optional<int> api_version() const override { return 1; }
  ppy::Distribution distribution() const override { return {"ppy-e2e-bad", "1.0"}; }
  std::string fingerprint() const override {
    static const unsigned drawn = std::random_device{}();
    return "bad:" + std::to_string(drawn);
  }
  std::vector<ppy::EmitFormat> emit_formats() const override {
    return {{.name = "bad", .suffix = ".bad"}, {.name = "fine", .suffix = ".fine"}};
  }
  absl::StatusOr<ppy::Artifact> emit(const ppy::ir::Module& module, const ppy::EmitFormat& format,
                                     ppy::BackendContext& context) const override {
    if (format.name == "bad") return ppy::Artifact(ppy::Bytes{module.name()});
    return ppy::Artifact(module.name() + "\n");
  }
};

}  // namespace

int main(int argc, char** argv) {
  return ppy::serve(argc, argv, [](const ppy::Options& options) { return std::make_unique<Bad>(options); });
}
