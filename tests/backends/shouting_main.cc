// ppy-test-shouting: a backend that tries to drive the user's terminal. Every
// text it sends the driver carries control sequences: ESC (clear the screen,
// colours), OSC 0 (retitle the window) and OSC 52 (write the clipboard) ended
// by BEL, backspaces, a carriage return, a raw C1 CSI and DEL. Its stderr says
// the same, then it crashes in `emit` so the driver relays that tail.
#include <cstdio>
#include <string>
#include <vector>

#include "ppy/backend/serve.h"

namespace {

/// Said everywhere: each sequence, one of each kind.
const std::string kShout =
    "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07 hidden\b\b\b\b\b\bshown\rover \xc2\x9b" "31m \x7f";

class Shouting final : public ppy::Backend {
 public:
  using Backend::Backend;
  std::string_view name() const override { return "shouting"; }
  std::optional<int> api_version() const override { return 1; }
  std::vector<ppy::EmitFormat> emit_formats() const override {
    return {ppy::EmitFormat{"shout", ".s", false, "format " + kShout, ppy::EmitScope::Module, false}};
  }
  absl::Status validate(const ppy::ir::Module& m, const ppy::BackendContext&) const override {
    if (m.name() != "refused") return absl::OkStatus();
    return ppy::validation_error({"shouting", "op " + kShout, "caps " + kShout, std::nullopt});
  }
  absl::StatusOr<ppy::Artifact> emit(const ppy::ir::Module&, const ppy::EmitFormat&,
                                     ppy::BackendContext&) const override {
    std::fprintf(stderr, "tail %s\nsecond line\n", kShout.c_str());
    std::fflush(stderr);
    *static_cast<volatile int*>(nullptr) = 1;
    return std::string();
  }
  absl::StatusOr<ppy::BuildResult> build(ppy::ModuleList, const std::filesystem::path&,
                                         ppy::BackendContext& context) const override {
    context.note("note " + kShout);
    return ppy::BuildResult{};
  }
  ppy::ToolchainStatus toolchain_status() const override { return {true, "sdk " + kShout}; }
};

}  // namespace

int main(int argc, char** argv) {
  return ppy::serve(argc, argv, [](const ppy::Options& o) { return std::make_unique<Shouting>(o); });
}
