// ppy-test-hostile-plugin: a plugin whose one pass (`hostile-tag`, which sets
// the module attribute `hostile.tagged`) misbehaves on purpose, for the tests
// of plugins out of process. Its own arguments come after the driver's
// (`--fd 3`) and are removed before `ppy::serve` sees the rest:
//   --crash-at CALL    segfault in CALL (handshake, pass)
//   --hang-at CALL     never answer CALL
//   --exit-at CALL     exit(3) in CALL
//   --break-ir         its pass leaves the IR invalid (a second terminator)
//   --fail             its pass returns an error
//   --stage STAGE      the stage its pass asks for (default after-optimization;
//                      `backend` is the selected backend's and refused)
//   --api-version N|none   declare N, or no version at all
// Every mode first prints a line on stderr, so errors can show the tail.

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ppy/backend/serve.h"

namespace {

struct Mode {
  std::string crash_at, hang_at, exit_at, stage = "after-optimization";
  bool break_ir = false, fail = false;
  std::optional<int> api_version = 1;
} mode;

void misbehave(const std::string& call) {
  if (mode.crash_at == call) {
    std::fprintf(stderr, "hostile-plugin: crashing in %s\n", call.c_str());
    std::fflush(stderr);
    *static_cast<volatile int*>(nullptr) = 1;
  }
  if (mode.exit_at == call) {
    std::fprintf(stderr, "hostile-plugin: exiting in %s\n", call.c_str());
    std::fflush(stderr);
    std::_Exit(3);
  }
  if (mode.hang_at == call) {
    std::fprintf(stderr, "hostile-plugin: hanging in %s\n", call.c_str());
    std::fflush(stderr);
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

class Tag final : public ppy::ir::ModulePass {
 public:
  std::string_view name() const override { return "hostile-tag"; }
  absl::StatusOr<bool> run_on_module(ppy::ir::Module& m, const ppy::ir::PassContext&) override {
    misbehave("pass");
    if (mode.fail) return absl::InternalError("hostile-tag refuses this module");
    m.attributes().set("hostile.tagged", true);
    if (mode.break_ir)
      for (auto& f : m.functions())
        if (!f->is_declaration()) {
          f->body().entry()->append(ppy::ir::Operation::create("core.ret", {}, {}));
          break;
        }
    return true;
  }
};

class HostilePlugin final : public ppy::Plugin {
 public:
  using Plugin::Plugin;
  std::string_view name() const override { return "hostile-plugin"; }
  std::optional<int> api_version() const override { return mode.api_version; }
  ppy::Distribution distribution() const override { return {"ppy-hostile", "6.6"}; }
  std::string fingerprint() const override { return "hostile-plugin-fp"; }
  void register_passes(ppy::PluginPassRegistrar& passes) const override {
    std::optional<ppy::ir::Stage> stage = ppy::ir::parse_stage(mode.stage);
    passes.add<Tag>(stage.value_or(ppy::ir::Stage::AfterOptimization));
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--crash-at")
      mode.crash_at = next();
    else if (a == "--hang-at")
      mode.hang_at = next();
    else if (a == "--exit-at")
      mode.exit_at = next();
    else if (a == "--stage")
      mode.stage = next();
    else if (a == "--break-ir")
      mode.break_ir = true;
    else if (a == "--fail")
      mode.fail = true;
    else if (a == "--api-version") {
      std::string v = next();
      mode.api_version = v == "none" ? std::nullopt : std::optional<int>(std::stoi(v));
    } else {
      rest.push_back(argv[i]);
    }
  }
  std::fprintf(stderr, "hostile-plugin: warming up\n");
  std::fflush(stderr);
  rest.push_back(nullptr);
  return ppy::serve(static_cast<int>(rest.size()) - 1, rest.data(), [](const ppy::Options& o) {
    misbehave("handshake");
    return std::make_unique<HostilePlugin>(o);
  });
}
